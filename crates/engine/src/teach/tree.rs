//! The articles' minimax tree of a position, one level at a time.
//!
//! The position is the root, and its side to move is the maximizer (X with
//! [`Scoring::Cs50`]). The root's children, the positions after its moves,
//! are at the article's depth 0, where `findBestMove` calls `minimax` and
//! the [convention](crate::score) scores every move: a move's value in the
//! tree is its score in `analyze`. Every node below is one depth further,
//! and its value is what
//! [`minimax(node, depth, is_max)`](super::reference::minimax) returns for
//! it, counted from the root's move: the same score [`trace`](super::trace)
//! gives the call of that node. Each level's values come from the engine's
//! scores of the level above ([`analyze`](crate::analyze): a lookup on
//! 3×3), so the tree can be opened anywhere without walking what lies below.
//!
//! ```
//! use tictactoe_engine::{Board, Limits, Player, Role, Scoring, analyze};
//! use tictactoe_engine::teach::tree::{branches, node_value};
//!
//! let board: Board = "o.x/x.x/.oo".parse().unwrap();
//! let analysis = analyze(&board, Limits::ToTheEnd);
//! let level = branches(&analysis, 0, Player::X, Scoring::Depth);
//! let values: Vec<i32> = level.iter().map(|b| b.value).collect();
//! assert_eq!(values, [-9, 10, -9]);
//! assert_eq!(values, analysis.moves.iter().map(|m| m.score).collect::<Vec<_>>());
//! assert_eq!(node_value(&analysis, 0, Player::X, Scoring::Depth), 10);
//! assert_eq!(level[0].role, Role::Min, "O moves after b1 X");
//! let bare = branches(&analysis, 0, Player::X, Scoring::Plain);
//! assert_eq!(bare.iter().map(|b| b.value).collect::<Vec<_>>(), [-10, 10, -10]);
//! ```

use super::reference::finished_value;
use crate::analysis::{Analysis, Outlook};
use crate::board::Board;
use crate::player::Player;
use crate::role::Role;
use crate::score::{Scoring, shrink};
use crate::square::Square;

/// One move from a node of the tree: an edge and the node it leads to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Branch {
    /// The move.
    pub mv: Square,
    /// The position after it: the node below.
    pub board: Board,
    /// The minimax value of that node for the maximizer, with the depth
    /// counted from the root's move (or none, with [`Scoring::Plain`] and
    /// [`Scoring::Cs50`]).
    pub value: i32,
    /// The role of the side to move at the node below.
    pub role: Role,
    /// What the move means for the side that plays it ("win in 2").
    pub outlook: Outlook,
    /// The value is proven, not estimated at a depth limit.
    pub proven: bool,
}

/// Every move from the node whose position `analysis` scored, `ply` moves
/// below the root (0 for the root itself) of a tree whose maximizer is
/// `maximizer`, in reading order, with values counted by `scoring`. None
/// once the game is over.
pub fn branches(analysis: &Analysis, ply: u32, maximizer: Player, scoring: Scoring) -> Vec<Branch> {
    let mover = analysis.board.to_move();
    let win = analysis.board.geometry().win_score();
    analysis
        .moves
        .iter()
        .filter_map(|scored| {
            let board = analysis.board.play(scored.mv).ok()?;
            let seen = if mover == maximizer {
                scored.score
            } else {
                -scored.score
            };
            // The move's score counts from the position after it; that
            // position sits `ply` moves below the root's children.
            let value = (0..ply).fold(seen, |value, _| shrink(value));
            Some(Branch {
                mv: scored.mv,
                board,
                value: scoring.of(value, scored.proven, win),
                role: Role::of(mover.other(), maximizer),
                outlook: analysis.outlook_of(*scored),
                proven: scored.proven,
            })
        })
        .collect()
}

/// The value of the node whose position `analysis` scored, `ply` moves
/// below the root of a tree whose maximizer is `maximizer`: what its role
/// takes of its branches' values, and the score of the end when the game is
/// over (at the article's depth `ply - 1`; a finished root at depth 0).
pub fn node_value(analysis: &Analysis, ply: u32, maximizer: Player, scoring: Scoring) -> i32 {
    let board = &analysis.board;
    let role = Role::of(board.to_move(), maximizer);
    let depth = ply.saturating_sub(1);
    if let Some(end) = finished_value(board, depth as i32, role.is_max(), scoring) {
        return end;
    }
    let values = branches(analysis, ply, maximizer, scoring)
        .into_iter()
        .map(|branch| branch.value);
    role.pick(values).unwrap_or(0)
}

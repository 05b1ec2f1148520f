//! The seed's minimax tree of a position, one level at a time.
//!
//! The position is the root, at depth 0, and its side to move is the
//! maximizer; every node's value is what the seed's
//! [`minimax(node, depth, is_max)`](super::reference::minimax) returns for it,
//! the same score [`trace`](super::trace) gives the call of that node. Each
//! level's values come from the engine's scores of the level above
//! ([`analyze`](super::analyze): a lookup on 3×3), so the tree can be opened
//! anywhere without walking what lies below.
//!
//! `analyze` scores a move as the seed's `findBestMove` does, starting its
//! search at depth 0 below the position; here that move is one ply below the
//! root, at depth 1, so its value is one step nearer 0: a win on the move is
//! `analyze`'s +10 and the tree's +9. The words are the same.
//!
//! ```
//! use tictactoe_engine::{Board, Limits, Player, analyze, tree::{branches, value}};
//!
//! let board: Board = "o.x/x.x/.oo".parse().unwrap();
//! let analysis = analyze(&board, Limits::Solve);
//! let level = branches(&analysis, 0, Player::X);
//! let values: Vec<i32> = level.iter().map(|b| b.value).collect();
//! assert_eq!(values, [-8, 9, -8]);
//! assert_eq!(value(&analysis, 0, Player::X), 9);
//! assert_eq!(level[1].outlook.result_for(Player::X), "X wins in 1");
//! assert_eq!((level[0].result(), level[1].result()), ("O wins in 1".into(), "X won".into()));
//! ```

use super::analysis::{Analysis, Outlook};
use super::board::{Board, Move, Player, Status};
use super::reference::finished_value;
use super::search::shrink;

/// One move from a node of the tree: an edge and the node it leads to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Branch {
    /// The move.
    pub mv: Move,
    /// The position after it: the node below.
    pub board: Board,
    /// The seed's minimax value of that node for the maximizer, with the
    /// depth counted from the root.
    pub value: i32,
    /// What the move means for the side that plays it ("win in 2").
    pub outlook: Outlook,
    /// The value is proven, not estimated at a depth limit.
    pub proven: bool,
}

impl Branch {
    /// The result with best play in words, as the node below stands:
    /// "O wins in 1" (whoever moves), or how the move ended the game
    /// ("X won", "draw").
    pub fn result(&self) -> String {
        match self.board.status() {
            Status::InProgress { to_move } => self.outlook.result_for(to_move.other()),
            ended => ended.to_string(),
        }
    }
}

/// The result with best play in words at the node whose position
/// `analysis` scored: "X wins in 1", or how the game ended ("X won", "draw").
pub fn result(analysis: &Analysis) -> String {
    match (analysis.status(), analysis.outlook()) {
        (Status::InProgress { to_move }, Some(outlook)) => outlook.result_for(to_move),
        (status, _) => status.to_string(),
    }
}

/// Every move from the node whose position `analysis` scored, at `depth`
/// below the root (0 for the root itself) of a tree whose maximizer is
/// `maximizer`, in reading order. None once the game is over.
pub fn branches(analysis: &Analysis, depth: u32, maximizer: Player) -> Vec<Branch> {
    let mover = analysis.board.to_move();
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
            // The move's score is its value at depth 0; the node below sits at depth + 1.
            let value = (0..=depth).fold(seen, |value, _| shrink(value));
            Some(Branch {
                mv: scored.mv,
                board,
                value,
                outlook: analysis.outlook_of(*scored),
                proven: scored.proven,
            })
        })
        .collect()
}

/// The value of the node whose position `analysis` scored, at `depth` below
/// the root of a tree whose maximizer is `maximizer`: the maximum of its
/// branches' values when the maximizer moves there, the minimum otherwise,
/// and the seed's score of the end when the game is over.
pub fn value(analysis: &Analysis, depth: u32, maximizer: Player) -> i32 {
    let board = &analysis.board;
    let maximizing = board.to_move() == maximizer;
    if let Some(end) = finished_value(board, depth as i32, maximizing) {
        return end;
    }
    let values = branches(analysis, depth, maximizer)
        .into_iter()
        .map(|branch| branch.value);
    let best = if maximizing {
        values.max()
    } else {
        values.min()
    };
    best.unwrap_or(0)
}

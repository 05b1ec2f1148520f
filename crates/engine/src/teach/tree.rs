//! The articles' minimax tree of a position, one level at a time: the
//! values of each level ([`branches`], [`node_value`]), and the [`Tree`]
//! that `tictactoe tree` prints and the game's tree view opens, its nodes
//! numbered as the trace numbers its calls.
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

use super::reference::{finished_value, is_countable, tree_size};
use crate::analysis::{Analysis, Outlook};
use crate::board::Board;
use crate::outcome::Outcome;
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
    /// The value is exact, not estimated at a depth limit.
    pub exact: bool,
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
                value: scoring.of(value, scored.exact, win),
                role: Role::of(mover.other(), maximizer),
                outlook: analysis.outlook_of(*scored),
                exact: scored.exact,
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

/// The positions below each move of the position `analysis` scored, in its
/// order, where the tree is countable ([`is_countable`]): what each
/// branch's [`Node::below`] says, and how its calls are numbered. A
/// lookup on 3×3; a count elsewhere, so a front end works it out where it
/// does its other thinking.
pub fn below(analysis: &Analysis) -> Vec<Option<u64>> {
    let board = &analysis.board;
    let countable = is_countable(board);
    analysis
        .moves
        .iter()
        .map(|scored| {
            let after = board.play(scored.mv).ok()?;
            countable.then(|| tree_size(&after) - 1)
        })
        .collect()
}

/// One position of a [`Tree`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// Its number in the tree, as [`Tree::node`] takes it (the root is 0).
    pub index: usize,
    /// The position.
    pub board: Board,
    /// Moves below the root.
    pub depth: u32,
    /// The move that led here; `None` at the root.
    pub mv: Option<Square>,
    /// The node above; `None` at the root.
    pub parent: Option<usize>,
    /// The articles' minimax value for the tree's maximizer, once known
    /// (a branch's as soon as it is added; the root's once it is filled).
    pub value: Option<i32>,
    /// The value is exact, not an estimate.
    pub exact: bool,
    /// The result with best play from here, as an outlook for a side: at
    /// the root for the side to move, elsewhere for the side that played
    /// the move. `None` once the game is over here, or until known.
    pub outlook: Option<(Outlook, Player)>,
    /// The side above would choose this move ([`Analysis::best_by`]).
    pub chosen: bool,
    /// Positions below it in the whole tree, where counted.
    pub below: Option<u64>,
    /// Its call number in the trace of the root (call 1), as freeCodeCamp
    /// and [`trace`](super::trace) number the calls; where counted.
    pub call: Option<u64>,
    children: Option<Vec<usize>>,
}

impl Node {
    /// True when the game is over here: it has no replies.
    pub fn is_leaf(&self) -> bool {
        self.board.status().is_over()
    }
}

/// The articles' minimax tree of a position, filled in one position at a
/// time ([`Tree::fill`]) from the engine's scores of that position: the
/// tree can be opened anywhere without walking what lies below (the empty
/// board's whole tree has 549,946 positions).
///
/// Where the tree is countable, each node says how many positions lie
/// below it and its call number in the trace: the root is call 1, and a
/// reply's call follows the calls below its elder siblings.
///
/// ```
/// use tictactoe_engine::{Board, Limits, Scoring, analyze};
/// use tictactoe_engine::teach::tree::{Tree, below};
///
/// let board: Board = "o.x/x.x/.oo".parse().unwrap();
/// let mut tree = Tree::new(board, Scoring::Depth);
/// let analysis = analyze(&board, Limits::ToTheEnd);
/// tree.fill(0, &analysis, &below(&analysis));
/// assert_eq!(tree.root().value, Some(10));
/// let calls: Vec<Option<u64>> = tree.children(0).unwrap().iter().map(|&i| tree.node(i).call).collect();
/// assert_eq!(calls, [Some(2), Some(5), Some(6)], "the trace's calls of b1, b2 and a3");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tree {
    maximizer: Player,
    scoring: Scoring,
    nodes: Vec<Node>,
}

impl Tree {
    /// The tree of `board`, its root alone and not yet filled, its values
    /// counted by `scoring` for the side to move there (X with
    /// [`Scoring::Cs50`]).
    pub fn new(board: Board, scoring: Scoring) -> Tree {
        Tree {
            maximizer: scoring.maximizer(board.to_move()),
            scoring,
            nodes: vec![Node {
                index: 0,
                board,
                depth: 0,
                mv: None,
                parent: None,
                value: None,
                exact: true,
                outlook: None,
                chosen: false,
                below: None,
                call: is_countable(&board).then_some(1),
                children: None,
            }],
        }
    }

    /// The position at the top.
    pub fn root(&self) -> &Node {
        &self.nodes[0]
    }

    /// A node by its number.
    pub fn node(&self, index: usize) -> &Node {
        &self.nodes[index]
    }

    /// How many nodes the tree has so far.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// True for no nodes: never (the root is always there).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// How the values are counted.
    pub fn scoring(&self) -> Scoring {
        self.scoring
    }

    /// The side whose values are maximized.
    pub fn maximizer(&self) -> Player {
        self.maximizer
    }

    /// The role of the side to move at `node`.
    pub fn role(&self, node: &Node) -> Role {
        Role::of(node.board.to_move(), self.maximizer)
    }

    /// A node's replies, once it is filled, in reading order.
    pub fn children(&self, index: usize) -> Option<&[usize]> {
        self.nodes[index].children.as_deref()
    }

    /// The values of a node's replies, once known, in reading order.
    pub fn replies(&self, index: usize) -> Option<Vec<i32>> {
        self.children(index)?
            .iter()
            .map(|&child| self.nodes[child].value)
            .collect()
    }

    /// The moves from the root to a node.
    pub fn path(&self, index: usize) -> Vec<Square> {
        let mut moves = Vec::new();
        let mut at = Some(index);
        while let Some(i) = at {
            moves.extend(self.nodes[i].mv);
            at = self.nodes[i].parent;
        }
        moves.reverse();
        moves
    }

    /// Every node, each after its parent and before its younger siblings
    /// (the order of the trace's calls).
    pub fn preorder(&self) -> Vec<usize> {
        let mut order = Vec::with_capacity(self.nodes.len());
        let mut stack = vec![0];
        while let Some(at) = stack.pop() {
            order.push(at);
            if let Some(children) = self.children(at) {
                stack.extend(children.iter().rev());
            }
        }
        order
    }

    /// True when `index` is the last reply of its parent (the root is).
    pub fn is_last(&self, index: usize) -> bool {
        let node = &self.nodes[index];
        node.parent
            .and_then(|parent| self.children(parent))
            .is_none_or(|children| children.last() == Some(&index))
    }

    /// Fills in node `at` from `analysis`, the engine's scores of its
    /// position, and `below`, the positions below each of its moves
    /// ([`below`]): its replies, each with its value, and at the root its
    /// own value. A node already filled is left as it is.
    pub fn fill(&mut self, at: usize, analysis: &Analysis, below: &[Option<u64>]) {
        if self.nodes[at].children.is_some() {
            return;
        }
        let depth = self.nodes[at].depth;
        if at == 0 {
            let root = &mut self.nodes[0];
            root.value = Some(node_value(analysis, 0, self.maximizer, self.scoring));
            // Exact when every score is, or when the best is a proven win
            // whose score is exact: no estimate comes near a win.
            root.exact = analysis.exact()
                || (analysis.value_exact()
                    && analysis.result() == analysis.to_move().map(Outcome::Win));
            root.outlook = analysis
                .outlook()
                .filter(|_| !analysis.status().is_over())
                .map(|outlook| (outlook, analysis.board.to_move()));
            root.below = below
                .iter()
                .try_fold(0, |sum, below| below.map(|below| sum + below + 1));
        }
        let chosen = analysis.best_by(self.scoring).map(|best| best.mv);
        let mover = analysis.board.to_move();
        let mut children = Vec::new();
        // Calls are numbered depth first: a reply's call follows the calls
        // below its elder siblings.
        let mut next_call = self.nodes[at].call.map(|call| call + 1);
        for (i, branch) in branches(analysis, depth, self.maximizer, self.scoring)
            .into_iter()
            .enumerate()
        {
            let below_it = below.get(i).copied().flatten();
            let call = next_call;
            next_call = next_call
                .zip(below_it)
                .map(|(call, below)| call + below + 1);
            let index = self.nodes.len();
            children.push(index);
            self.nodes.push(Node {
                index,
                board: branch.board,
                depth: depth + 1,
                mv: Some(branch.mv),
                parent: Some(at),
                value: Some(branch.value),
                exact: branch.exact,
                outlook: (!branch.board.status().is_over()).then_some((branch.outlook, mover)),
                chosen: chosen == Some(branch.mv),
                below: below_it,
                call,
                children: None,
            });
        }
        self.nodes[at].children = Some(children);
    }
}

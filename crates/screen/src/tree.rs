//! The minimax tree of the position on the board, opened with `t`: the
//! position at the top, its moves below it, each with its value, and any
//! move opened into the replies to it. Levels are filled in only when
//! opened (the empty board's whole tree has 549,946 positions), each from
//! one engine request. The tree is the engine's ([`Tree`], the one
//! `tictactoe tree` prints); this is what the view keeps beside it (which
//! positions are open, the selection), and `tree_view` draws it.

use super::message::Request;
use tictactoe_engine::teach::tree::Tree;
use tictactoe_engine::{Analysis, Board, Limits, Player, Role, Scoring, Square};
use tictactoe_game::action::Direction;

pub use tictactoe_engine::teach::tree::Node;

/// A row of the tree as shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Row {
    /// A position.
    Node(usize),
    /// The replies of this position, being worked out.
    Waiting(usize),
}

/// What the view keeps about one node of the tree.
#[derive(Debug, Clone, Copy, Default)]
struct Shown {
    /// Its replies are shown below it.
    open: bool,
    /// Its replies were asked for.
    asked: bool,
}

/// The tree view's state: the engine's tree, which of its nodes are open,
/// and the selection.
#[derive(Debug, Clone)]
pub struct TreeView {
    limits: Limits,
    tree: Tree,
    shown: Vec<Shown>,
    selected: usize,
}

impl TreeView {
    /// The tree of `board`, its first level asked for at once, its values
    /// counted by `scoring`.
    pub fn new(board: Board, limits: Limits, scoring: Scoring) -> TreeView {
        TreeView {
            limits,
            tree: Tree::new(board, scoring),
            shown: vec![Shown {
                open: true,
                asked: false,
            }],
            selected: 0,
        }
    }

    /// The tree as far as it is filled in.
    pub fn tree(&self) -> &Tree {
        &self.tree
    }

    /// The position at the top.
    pub fn root(&self) -> &Node {
        self.tree.root()
    }

    /// How the values are counted.
    pub fn scoring(&self) -> Scoring {
        self.tree.scoring()
    }

    /// The side whose values are maximized: the side to move at the top.
    pub fn maximizer(&self) -> Player {
        self.tree.maximizer()
    }

    /// The role of the side to move at `node`: max where the maximizer moves.
    pub fn role(&self, node: &Node) -> Role {
        self.tree.role(node)
    }

    /// True while a node's replies are shown below it.
    pub fn is_open(&self, node: &Node) -> bool {
        self.shown[node.index].open
    }

    /// The position under the selection.
    pub fn selected(&self) -> &Node {
        self.tree.node(self.selected)
    }

    /// The selected position's number, as [`TreeView::node`] takes it.
    pub fn selected_index(&self) -> usize {
        self.selected
    }

    /// The moves from the top to the selected position.
    pub fn path(&self) -> Vec<Square> {
        self.tree.path(self.selected)
    }

    /// A position's node.
    pub fn node(&self, i: usize) -> &Node {
        self.tree.node(i)
    }

    /// The values of a position's replies, once known, in reading order.
    pub fn replies(&self, i: usize) -> Option<Vec<i32>> {
        self.tree.replies(i)
    }

    /// The replies of an open position still to be asked for, one at a time.
    pub fn request(&mut self) -> Option<Request> {
        let at = (0..self.tree.len()).find(|&i| {
            let shown = self.shown[i];
            shown.open && self.tree.children(i).is_none() && !shown.asked
        })?;
        self.shown[at].asked = true;
        // Only the root can be open and finished (leaves never open): it is
        // asked like any other, and its answer, with no moves, gives it the
        // article's score of the end.
        Some(Request::Tree {
            board: self.tree.node(at).board,
            limits: self.limits,
        })
    }

    /// True while a level is asked for and not in yet.
    pub fn waiting(&self) -> bool {
        (0..self.tree.len()).any(|i| self.shown[i].asked && self.tree.children(i).is_none())
    }

    /// Fills in the replies of every open position of `analysis`' board,
    /// with the positions below each (`below`, in the analysis' order).
    pub fn receive(&mut self, analysis: &Analysis, below: &[Option<u64>]) {
        let waiting: Vec<usize> = (0..self.tree.len())
            .filter(|&i| {
                self.tree.node(i).board == analysis.board && self.tree.children(i).is_none()
            })
            .collect();
        for at in waiting {
            self.tree.fill(at, analysis, below);
        }
        self.shown.resize(self.tree.len(), Shown::default());
    }

    /// The rows shown: every position whose parent is open, in preorder.
    pub fn rows(&self) -> Vec<Row> {
        let mut rows = Vec::new();
        self.push_rows(0, &mut rows);
        rows
    }

    fn push_rows(&self, at: usize, rows: &mut Vec<Row>) {
        rows.push(Row::Node(at));
        if !self.shown[at].open || self.tree.node(at).is_leaf() {
            return;
        }
        match self.tree.children(at) {
            Some(children) => {
                for &child in children {
                    self.push_rows(child, rows);
                }
            }
            None => rows.push(Row::Waiting(at)),
        }
    }

    /// Index of the selection among the rows.
    pub fn selected_row(&self, rows: &[Row]) -> usize {
        rows.iter()
            .position(|&row| row == Row::Node(self.selected))
            .unwrap_or(0)
    }

    /// Up and down move the selection; right opens, left goes up.
    pub fn navigate(&mut self, direction: Direction) {
        match direction {
            Direction::Up | Direction::Down => {
                let rows: Vec<usize> = self
                    .rows()
                    .into_iter()
                    .filter_map(|row| match row {
                        Row::Node(i) => Some(i),
                        Row::Waiting(_) => None,
                    })
                    .collect();
                let at = rows.iter().position(|&i| i == self.selected).unwrap_or(0);
                let next = if direction == Direction::Up {
                    at.saturating_sub(1)
                } else {
                    (at + 1).min(rows.len() - 1)
                };
                self.selected = rows[next];
            }
            Direction::Right => self.open(),
            Direction::Left => self.up(),
        }
    }

    /// Opens the selected position into its replies; on an open one, goes to its first reply.
    pub fn open(&mut self) {
        if self.tree.node(self.selected).is_leaf() {
            return;
        }
        if !self.shown[self.selected].open {
            self.shown[self.selected].open = true;
        } else if let Some(&first) = self.tree.children(self.selected).and_then(|c| c.first()) {
            self.selected = first;
        }
    }

    /// Closes the selected position if open, or else goes to the one above.
    pub fn up(&mut self) {
        let node = self.tree.node(self.selected);
        if self.shown[self.selected].open && node.parent.is_some() && !node.is_leaf() {
            self.shown[self.selected].open = false;
        } else if let Some(parent) = node.parent {
            self.selected = parent;
        }
    }
}

//! The minimax tree of the position on the board, opened with `t`: the
//! position at the top, its moves below it, each with its value, and any
//! move opened into the replies to it. Levels are filled in only when
//! opened (the empty board's whole tree has 549,946 positions), each from
//! one engine request. This is its state; `tree_view` draws it.

use super::message::Request;
use tictactoe_engine::teach::reference::is_countable;
use tictactoe_engine::teach::tree::{branches, node_value};
use tictactoe_engine::{Analysis, Board, Limits, Player, Role, Scoring, Square};
use tictactoe_game::action::Direction;
use tictactoe_game::present::{branch_result, node_result};

/// One position of the tree.
#[derive(Debug, Clone)]
pub struct Node {
    /// The position.
    pub board: Board,
    /// Plies below the root.
    pub depth: u32,
    /// The move that led here; `None` at the root.
    pub mv: Option<Square>,
    /// The node above; `None` at the root.
    pub parent: Option<usize>,
    /// The articles' minimax value, once known.
    pub value: Option<i32>,
    /// The value is proven, not an estimate.
    pub proven: bool,
    /// The result with best play, in words ("O wins in 1", "X won").
    pub result: String,
    /// The move the side above would choose here.
    pub chosen: bool,
    /// Positions below it in the whole tree, when counted.
    pub below: Option<u64>,
    /// Its call number in the trace of the top position (call 1), as
    /// `tictactoe trace` and freeCodeCamp number them; where counted.
    pub call: Option<u64>,
    children: Option<Vec<usize>>,
    open: bool,
    asked: bool,
}

impl Node {
    /// True while its replies are shown below it.
    pub fn is_open(&self) -> bool {
        self.open
    }

    /// True when the game is over here: no replies.
    pub fn is_leaf(&self) -> bool {
        self.board.status().is_over()
    }
}

/// A row of the tree as shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Row {
    /// A position.
    Node(usize),
    /// The replies of this position, being worked out.
    Waiting(usize),
}

/// The tree view's state.
#[derive(Debug, Clone)]
pub struct TreeView {
    maximizer: Player,
    limits: Limits,
    scoring: Scoring,
    nodes: Vec<Node>,
    selected: usize,
}

impl TreeView {
    /// The tree of `board`, its first level asked for at once, its values
    /// counted by `scoring`.
    pub fn new(board: Board, limits: Limits, scoring: Scoring) -> TreeView {
        TreeView {
            maximizer: scoring.maximizer(board.to_move()),
            limits,
            scoring,
            nodes: vec![Node {
                board,
                depth: 0,
                mv: None,
                parent: None,
                value: None,
                proven: true,
                result: String::new(),
                chosen: false,
                below: None,
                call: is_countable(&board).then_some(1),
                children: None,
                open: true,
                asked: false,
            }],
            selected: 0,
        }
    }

    /// The position at the top.
    pub fn root(&self) -> &Node {
        &self.nodes[0]
    }

    /// How the values are counted.
    pub fn scoring(&self) -> Scoring {
        self.scoring
    }

    /// The side whose values are maximized: the side to move at the top.
    pub fn maximizer(&self) -> Player {
        self.maximizer
    }

    /// The role of the side to move at `node`: max where the maximizer moves.
    pub fn role(&self, node: &Node) -> Role {
        Role::of(node.board.to_move(), self.maximizer)
    }

    /// The position under the selection.
    pub fn selected(&self) -> &Node {
        &self.nodes[self.selected]
    }

    /// The selected position's number, as [`TreeView::node`] takes it.
    pub fn selected_index(&self) -> usize {
        self.selected
    }

    /// The moves from the top to the selected position.
    pub fn path(&self) -> Vec<Square> {
        let mut moves = Vec::new();
        let mut at = Some(self.selected);
        while let Some(i) = at {
            moves.extend(self.nodes[i].mv);
            at = self.nodes[i].parent;
        }
        moves.reverse();
        moves
    }

    /// A position's node.
    pub fn node(&self, i: usize) -> &Node {
        &self.nodes[i]
    }

    /// The values of a position's replies, once known, in reading order.
    pub fn replies(&self, i: usize) -> Option<Vec<i32>> {
        let children = self.nodes[i].children.as_ref()?;
        children
            .iter()
            .map(|&child| self.nodes[child].value)
            .collect()
    }

    /// The replies of an open position still to be asked for, one at a time.
    pub fn request(&mut self) -> Option<Request> {
        let node = self
            .nodes
            .iter_mut()
            .find(|node| node.open && node.children.is_none() && !node.asked)?;
        node.asked = true;
        // Only the root can be open and finished (leaves never open): it is
        // asked like any other, and its answer, with no moves, gives it the
        // article's score of the end.
        Some(Request::Tree {
            board: node.board,
            limits: self.limits,
        })
    }

    /// True while a level is asked for and not in yet.
    pub fn waiting(&self) -> bool {
        self.nodes
            .iter()
            .any(|node| node.asked && node.children.is_none())
    }

    /// Fills in the replies of every open position of `analysis`' board,
    /// with the positions below each (`below`, in the analysis' order).
    pub fn receive(&mut self, analysis: &Analysis, below: &[Option<u64>]) {
        let waiting: Vec<usize> = (0..self.nodes.len())
            .filter(|&i| self.nodes[i].board == analysis.board && self.nodes[i].children.is_none())
            .collect();
        for at in waiting {
            self.fill(at, analysis, below);
        }
    }

    fn fill(&mut self, at: usize, analysis: &Analysis, below: &[Option<u64>]) {
        let depth = self.nodes[at].depth;
        if at == 0 {
            let root = &mut self.nodes[0];
            root.value = Some(node_value(analysis, 0, self.maximizer, self.scoring));
            root.proven = analysis.proven();
            root.result = node_result(analysis);
            root.below = below
                .iter()
                .try_fold(0, |sum, below| below.map(|below| sum + below + 1));
        }
        let chosen = analysis.best_by(self.scoring).map(|best| best.mv);
        let mut children = Vec::new();
        // Calls are numbered depth first: a reply's call follows the calls
        // below its elder siblings.
        let mut next_call = self.nodes[at].call.map(|call| call + 1);
        for (i, branch) in branches(analysis, depth, self.maximizer, self.scoring)
            .into_iter()
            .enumerate()
        {
            let result = branch_result(&branch);
            let below_it = below.get(i).copied().flatten();
            let call = next_call;
            next_call = next_call
                .zip(below_it)
                .map(|(call, below)| call + below + 1);
            children.push(self.nodes.len());
            self.nodes.push(Node {
                board: branch.board,
                depth: depth + 1,
                mv: Some(branch.mv),
                parent: Some(at),
                value: Some(branch.value),
                proven: branch.proven,
                result,
                chosen: chosen == Some(branch.mv),
                below: below_it,
                call,
                children: None,
                open: false,
                asked: false,
            });
        }
        self.nodes[at].children = Some(children);
    }

    /// The rows shown: every position whose parent is open, in preorder.
    pub fn rows(&self) -> Vec<Row> {
        let mut rows = Vec::new();
        self.push_rows(0, &mut rows);
        rows
    }

    fn push_rows(&self, at: usize, rows: &mut Vec<Row>) {
        rows.push(Row::Node(at));
        let node = &self.nodes[at];
        if !node.open || node.is_leaf() {
            return;
        }
        match &node.children {
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
        let node = &mut self.nodes[self.selected];
        if node.is_leaf() {
            return;
        }
        if !node.open {
            node.open = true;
        } else if let Some(&first) = node.children.as_ref().and_then(|c| c.first()) {
            self.selected = first;
        }
    }

    /// Closes the selected position if open, or else goes to the one above.
    pub fn up(&mut self) {
        let node = &mut self.nodes[self.selected];
        if node.open && node.parent.is_some() && !node.is_leaf() {
            node.open = false;
        } else if let Some(parent) = node.parent {
            self.selected = parent;
        }
    }
}

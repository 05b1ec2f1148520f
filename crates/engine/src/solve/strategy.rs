//! Strategies read from a finished proof: for every position the strategy
//! can reach where its player is to move, the move to make, or the pairs to
//! answer in from there on.

use std::collections::{HashMap, HashSet};

use thiserror::Error;

use super::lines::{Lines, cells};
use super::prover::{Pos, Prover};
use super::table::{Hasher, Key};
use super::{Outcome, Proof, pairing};
use crate::board::{Board, Status};
use crate::player::Player;
use crate::square::Square;

/// What a strategy is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Goal {
    /// The player gets k in a row first, however the opponent plays.
    Win,
    /// The opponent never gets k in a row.
    Hold,
}

impl Goal {
    /// As the certificate names it: `win` or `hold`.
    pub fn name(self) -> &'static str {
        match self {
            Goal::Win => "win",
            Goal::Hold => "hold",
        }
    }
}

/// What the player does in one position of a strategy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Play this move (the player is to move).
    Square(Square),
    /// From here on, answer every opponent move in one of these pairs by
    /// taking the other cell of the pair.
    Pairs(Vec<(Square, Square)>),
}

/// One position of a strategy and what the player does there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// The position, as the strategy first reached it.
    pub board: Board,
    /// The move or the pairs.
    pub action: Action,
}

/// A strategy for one player: every position it can reach (up to symmetry)
/// where it must decide, and the decision.
#[derive(Debug, Clone)]
pub struct Strategy {
    /// Whose strategy it is.
    pub player: Player,
    /// What it achieves.
    pub goal: Goal,
    /// The positions, in the order the strategy reaches them (depth first).
    pub nodes: Vec<Node>,
    /// Index of each node by its position up to symmetry.
    index: HashMap<Key, usize, Hasher>,
    /// The nodes that answer in pairs.
    pair_nodes: Vec<usize>,
}

/// The search lost a result its proof rests on (a bug, never an input's fault).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("the prover lost track of its proof at {board}")]
pub struct StrategyError {
    /// Where.
    pub board: String,
}

impl Strategy {
    fn new(player: Player, goal: Goal) -> Strategy {
        Strategy {
            player,
            goal,
            nodes: Vec::new(),
            index: HashMap::default(),
            pair_nodes: Vec::new(),
        }
    }

    fn push(&mut self, node: Node) {
        let lines = Lines::of(node.board.geometry());
        let key = lines.canonical(node.board.bits(Player::X), node.board.bits(Player::O));
        if let Action::Pairs(_) = node.action {
            self.pair_nodes.push(self.nodes.len());
        }
        self.index.insert(key, self.nodes.len());
        self.nodes.push(node);
    }

    /// The strategy's move at `board`, where its player is to move: the
    /// node's move, or below a pairs node the answer the pairs give
    /// (checked to keep every open line paired). `None` where the strategy
    /// does not reach.
    pub fn reply(&self, board: &Board) -> Option<Square> {
        if board.status()
            != (Status::InProgress {
                to_move: self.player,
            })
        {
            return None;
        }
        if let Some(action) = self.lookup(board) {
            return match action {
                Action::Square(mv) => Some(mv),
                Action::Pairs(pairs) => {
                    let size = board.size();
                    let cells = pairs.iter().map(|&(a, b)| (a.index(size), b.index(size)));
                    answer_in_pairs(board, self.player, cells.collect())
                        .map(|cell| Square::from_index(cell, size))
                }
            };
        }
        // A position below a pairs node: that node's marks, turned about, are
        // all on the board.
        let geometry = board.geometry();
        let (x, o) = (board.bits(Player::X), board.bits(Player::O));
        for &i in &self.pair_nodes {
            let node = &self.nodes[i];
            let Action::Pairs(pairs) = &node.action else {
                continue;
            };
            let (nx, no) = (node.board.bits(Player::X), node.board.bits(Player::O));
            for s in 0..8 {
                let (sx, so) = (geometry.map(s, x), geometry.map(s, o));
                if nx & !sx != 0 || no & !so != 0 {
                    continue;
                }
                let turned = Board::from_bits(geometry, sx, so).ok()?;
                let size = board.size();
                let cells = pairs.iter().map(|&(a, b)| (a.index(size), b.index(size)));
                if let Some(cell) = answer_in_pairs(&turned, self.player, cells.collect()) {
                    let back = (0..geometry.cells()).find(|&c| geometry.map_cell(s, c) == cell)?;
                    return Some(Square::from_index(back, size));
                }
            }
        }
        None
    }

    /// The node for `board` up to symmetry, turned to face `board`: its move
    /// or pairs as they apply to `board` itself.
    pub fn lookup(&self, board: &Board) -> Option<Action> {
        let lines = Lines::of(board.geometry());
        let (x, o) = (board.bits(Player::X), board.bits(Player::O));
        let node = &self.nodes[*self.index.get(&lines.canonical(x, o))?];
        let (sx, so) = (node.board.bits(Player::X), node.board.bits(Player::O));
        let geometry = board.geometry();
        // The symmetry that takes `board` to the stored board, and back for its cells.
        let s = (0..8).find(|&s| geometry.map(s, x) == sx && geometry.map(s, o) == so)?;
        let size = board.size();
        let back = |mv: Square| {
            let image = mv.index(size);
            (0..geometry.cells())
                .find(|&cell| geometry.map_cell(s, cell) == image)
                .map(|cell| Square::from_index(cell, size))
        };
        Some(match &node.action {
            Action::Square(mv) => Action::Square(back(*mv)?),
            Action::Pairs(pairs) => Action::Pairs(
                pairs
                    .iter()
                    .map(|&(a, b)| Some((back(a)?, back(b)?)))
                    .collect::<Option<_>>()?,
            ),
        })
    }
}

/// The answer in pairs for `player` (to move) at `board`: the other cell
/// of the pair the opponent has just played in, or a cell outside every pair
/// if none waits for an answer; checked to leave every line without a mark
/// of `player` holding both cells of a pair still empty.
fn answer_in_pairs(board: &Board, player: Player, pairs: Vec<(usize, usize)>) -> Option<usize> {
    let (mine, theirs) = (board.bits(player), board.bits(player.other()));
    let empty = board.empty_bits();
    let mut pending = pairs
        .iter()
        .filter(|&&(a, b)| {
            let (a, b) = (1u64 << a, 1u64 << b);
            (theirs & a != 0 && empty & b != 0) || (theirs & b != 0 && empty & a != 0)
        })
        .map(|&(a, b)| if empty >> a & 1 != 0 { a } else { b });
    let in_pairs = pairs.iter().fold(0u64, |m, &(a, b)| m | 1 << a | 1 << b);
    let cell = match (pending.next(), pending.next()) {
        (Some(cell), None) => cell,
        (None, None) => {
            let free = if empty & !in_pairs != 0 {
                empty & !in_pairs
            } else {
                empty
            };
            (free != 0).then(|| free.trailing_zeros() as usize)?
        }
        _ => return None,
    };
    let (mine, empty) = (mine | 1 << cell, empty & !(1u64 << cell));
    let live: Vec<u64> = pairs
        .iter()
        .map(|&(a, b)| 1u64 << a | 1u64 << b)
        .filter(|&pair| pair & !empty == 0)
        .collect();
    board
        .geometry()
        .lines()
        .iter()
        .all(|&line| line & mine != 0 || live.iter().any(|&pair| pair & !line == 0))
        .then_some(cell)
}

impl Proof {
    /// How full the prover's table is (see [`super::Solver::table_use`]).
    pub fn table_use(&self) -> super::TableUse {
        self.solver.table_use()
    }

    /// Why reading the strategies stopped, if a bound of the proof
    /// ([`super::solve_within`]) stopped it.
    pub fn stopped(&self) -> Option<super::Stop> {
        self.solver.stopped()
    }

    /// The strategies behind the value: the winner's win, or for a draw a
    /// hold for each side (X's first). May search again where the proof's
    /// own search pruned a move the strategy must still answer (not counted
    /// in [`Proof::counts`]).
    pub fn strategies(&mut self) -> Result<Vec<Strategy>, StrategyError> {
        let board = self.board;
        let strategies = match self.value {
            Outcome::Win(winner) => match self.solver.asked(winner) {
                Some(prover) => vec![Reader::new(prover, &board).win()?],
                // The board already shows the line: nothing to play.
                None => vec![Strategy::new(winner, Goal::Win)],
            },
            Outcome::Draw => {
                let mut holds = Vec::new();
                for holder in [Player::X, Player::O] {
                    let hold = match self.solver.asked(holder.other()) {
                        Some(prover) => Reader::new(prover, &board).hold()?,
                        None => Strategy::new(holder, Goal::Hold),
                    };
                    holds.push(hold);
                }
                holds
            }
        };
        Ok(strategies)
    }
}

/// The strategy behind one answered question of `solver`: the win of
/// `attacker` from `board` if it wins, else the hold of the other side.
#[cfg(feature = "serde")]
pub(crate) fn question_strategy(
    solver: &mut super::Solver,
    board: &Board,
    attacker: Player,
    wins: bool,
) -> Result<Strategy, StrategyError> {
    let Some(prover) = solver.asked(attacker) else {
        // The board already shows the result: nothing to play.
        return Ok(if wins {
            Strategy::new(attacker, Goal::Win)
        } else {
            Strategy::new(attacker.other(), Goal::Hold)
        });
    };
    let reader = Reader::new(prover, board);
    if wins { reader.win() } else { reader.hold() }
}

/// Walks a finished proof and writes down the strategy it proves.
struct Reader<'a> {
    prover: Prover<'a>,
    board: Board,
    root: Pos,
    seen: HashSet<Key, Hasher>,
}

impl<'a> Reader<'a> {
    fn new(prover: Prover<'a>, board: &Board) -> Reader<'a> {
        let attacker = prover.attacker;
        Reader {
            root: Pos {
                att: board.bits(attacker),
                def: board.bits(attacker.other()),
            },
            prover,
            board: *board,
            seen: HashSet::default(),
        }
    }

    /// The attacker's winning strategy (the prover proved it wins).
    fn win(mut self) -> Result<Strategy, StrategyError> {
        let mut strategy = Strategy::new(self.prover.attacker, Goal::Win);
        let mut stack = vec![self.root];
        while let Some(pos) = stack.pop() {
            if !self.first_visit(pos) {
                continue;
            }
            if self.prover.attacker_to_move(pos) {
                let cell = self.winning_move(pos)?;
                strategy.push(self.node(pos, Action::Square(self.mv(cell))));
                stack.push(pos.play(cell, true));
            } else {
                let empty = self.prover.lines.full & !(pos.att | pos.def);
                let replies: Vec<Pos> = cells(empty).map(|cell| pos.play(cell, false)).collect();
                stack.extend(replies.into_iter().rev());
            }
        }
        Ok(strategy)
    }

    /// The defender's holding strategy (the prover proved the attacker does not win).
    fn hold(mut self) -> Result<Strategy, StrategyError> {
        let lines = self.prover.lines;
        let mut strategy = Strategy::new(self.prover.attacker.other(), Goal::Hold);
        let mut stack = vec![self.root];
        while let Some(pos) = stack.pop() {
            if !self.first_visit(pos) {
                continue;
            }
            // Pairs wherever they hold, whatever the search used: a pairs node
            // stands for every position below it.
            if let Some(pairs) = pairing::find(lines, pos.def, pos.att) {
                let pairs = pairs
                    .into_iter()
                    .map(|(a, b)| (self.mv(a.into()), self.mv(b.into())))
                    .collect();
                strategy.push(self.node(pos, Action::Pairs(pairs)));
                continue;
            }
            if self.prover.attacker_to_move(pos) {
                let empty = lines.full & !(pos.att | pos.def);
                let replies: Vec<Pos> = cells(empty).map(|cell| pos.play(cell, true)).collect();
                stack.extend(replies.into_iter().rev());
            } else {
                let cell = self.holding_move(pos)?;
                strategy.push(self.node(pos, Action::Square(self.mv(cell))));
                stack.push(pos.play(cell, false));
            }
        }
        Ok(strategy)
    }

    /// True for a position in play not met before (up to symmetry).
    fn first_visit(&mut self, pos: Pos) -> bool {
        let lines = self.prover.lines;
        let over = lines.geometry.has_line(pos.att)
            || lines.geometry.has_line(pos.def)
            || pos.att | pos.def == lines.full;
        !over && self.seen.insert(lines.canonical(pos.att, pos.def))
    }

    fn winning_move(&mut self, pos: Pos) -> Result<usize, StrategyError> {
        self.prover
            .keeping_move(pos, true)
            .ok_or_else(|| StrategyError {
                board: self.board_of(pos).to_string(),
            })
    }

    fn holding_move(&mut self, pos: Pos) -> Result<usize, StrategyError> {
        self.prover
            .keeping_move(pos, false)
            .ok_or_else(|| StrategyError {
                board: self.board_of(pos).to_string(),
            })
    }

    fn mv(&self, cell: usize) -> Square {
        Square::from_index(cell, self.board.size())
    }

    /// A node of the strategy at `pos`.
    fn node(&self, pos: Pos, action: Action) -> Node {
        Node {
            board: self.board_of(pos),
            action,
        }
    }

    /// The board of a position the proof reached (always a reachable one:
    /// it was played from the root by the rules).
    fn board_of(&self, pos: Pos) -> Board {
        let (x, o) = match self.prover.attacker {
            Player::X => (pos.att, pos.def),
            Player::O => (pos.def, pos.att),
        };
        Board::from_bits(self.board.geometry(), x, o).unwrap_or(self.board)
    }
}

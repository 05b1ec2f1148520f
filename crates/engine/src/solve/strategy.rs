//! Strategies read from a finished proof: for every position the strategy
//! can reach where its player is to move, the move to make, or the pairs to
//! answer in from there on.

use std::collections::{HashMap, HashSet};

use thiserror::Error;

use super::prover::{Pos, Prover};
use super::shape::{Shape, cells};
use super::table::{Hasher, Key};
use super::{Proof, Technique, Value, pairing, potential, threats};
use crate::board::Board;
use crate::player::Player;
use crate::square::Move;

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
    Move(Move),
    /// From here on, answer every opponent move in one of these pairs by
    /// taking the other cell of the pair.
    Pairs(Vec<(Move, Move)>),
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
        }
    }

    fn push(&mut self, key: Key, node: Node) {
        self.index.insert(key, self.nodes.len());
        self.nodes.push(node);
    }

    /// The node for `board` up to symmetry, turned to face `board`: its move
    /// or pairs as they apply to `board` itself.
    pub fn lookup(&self, board: &Board) -> Option<Action> {
        let shape = Shape::of(board.geometry());
        let (x, o) = (board.bits(Player::X), board.bits(Player::O));
        let node = &self.nodes[*self.index.get(&shape.canonical(x, o))?];
        let (sx, so) = (node.board.bits(Player::X), node.board.bits(Player::O));
        let geometry = board.geometry();
        // The symmetry that takes `board` to the stored board, and back for its cells.
        let s = (0..8).find(|&s| geometry.map(s, x) == sx && geometry.map(s, o) == so)?;
        let size = board.size();
        let back = |mv: Move| {
            let image = mv.index(size);
            (0..geometry.cells())
                .find(|&cell| geometry.map_cell(s, cell) == image)
                .map(|cell| Move::from_index(cell, size))
        };
        Some(match &node.action {
            Action::Move(mv) => Action::Move(back(*mv)?),
            Action::Pairs(pairs) => Action::Pairs(
                pairs
                    .iter()
                    .map(|&(a, b)| Some((back(a)?, back(b)?)))
                    .collect::<Option<_>>()?,
            ),
        })
    }
}

impl Proof {
    /// The strategies behind the value: the winner's win, or for a draw a
    /// hold for each side (X's first). May search again where the proof's
    /// own search pruned a move the strategy must still answer (not counted
    /// in [`Proof::counts`]).
    pub fn strategies(&mut self) -> Result<Vec<Strategy>, StrategyError> {
        let board = self.board;
        let strategies = match self.value {
            Value::Win(winner) => match self.provers.iter_mut().find(|p| p.attacker == winner) {
                Some(prover) => vec![Reader::new(prover, &board).win()?],
                // The board already shows the line: nothing to play.
                None => vec![Strategy::new(winner, Goal::Win)],
            },
            Value::Draw => {
                let mut holds = Vec::new();
                for holder in [Player::X, Player::O] {
                    let hold = match self
                        .provers
                        .iter_mut()
                        .find(|p| p.attacker == holder.other())
                    {
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

/// Walks a finished proof and writes down the strategy it proves.
struct Reader<'a> {
    prover: &'a mut Prover,
    board: Board,
    root: Pos,
    seen: HashSet<Key, Hasher>,
    failed_threats: HashSet<Key, Hasher>,
}

impl<'a> Reader<'a> {
    fn new(prover: &'a mut Prover, board: &Board) -> Reader<'a> {
        let attacker = prover.attacker;
        Reader {
            root: Pos {
                att: board.bits(attacker),
                def: board.bits(attacker.other()),
            },
            prover,
            board: *board,
            seen: HashSet::default(),
            failed_threats: HashSet::default(),
        }
    }

    /// The attacker's winning strategy (the prover proved it wins).
    fn win(mut self) -> Result<Strategy, StrategyError> {
        let mut strategy = Strategy::new(self.prover.attacker, Goal::Win);
        let mut stack = vec![self.root];
        while let Some(pos) = stack.pop() {
            let Some(key) = self.first_visit(pos) else {
                continue;
            };
            if self.prover.attacker_to_move(pos) {
                let cell = self.winning_move(pos)?;
                strategy.push(key, self.node(pos, Action::Move(self.mv(cell))));
                stack.push(pos.play(cell, true));
            } else {
                let empty = self.prover.shape.full & !(pos.att | pos.def);
                let replies: Vec<Pos> = cells(empty).map(|cell| pos.play(cell, false)).collect();
                stack.extend(replies.into_iter().rev());
            }
        }
        Ok(strategy)
    }

    /// The defender's holding strategy (the prover proved the attacker does not win).
    fn hold(mut self) -> Result<Strategy, StrategyError> {
        let shape = self.prover.shape;
        let mut strategy = Strategy::new(self.prover.attacker.other(), Goal::Hold);
        let mut stack = vec![self.root];
        while let Some(pos) = stack.pop() {
            let Some(key) = self.first_visit(pos) else {
                continue;
            };
            // Pairs wherever they hold, whatever the search used: a pairs node
            // stands for every position below it.
            if let Some(pairs) = pairing::find(shape, pos.def, pos.att) {
                let pairs = pairs
                    .into_iter()
                    .map(|(a, b)| (self.mv(a.into()), self.mv(b.into())))
                    .collect();
                strategy.push(key, self.node(pos, Action::Pairs(pairs)));
                continue;
            }
            if self.prover.attacker_to_move(pos) {
                let empty = shape.full & !(pos.att | pos.def);
                let replies: Vec<Pos> = cells(empty).map(|cell| pos.play(cell, true)).collect();
                stack.extend(replies.into_iter().rev());
            } else {
                let cell = self.holding_move(pos)?;
                strategy.push(key, self.node(pos, Action::Move(self.mv(cell))));
                stack.push(pos.play(cell, false));
            }
        }
        Ok(strategy)
    }

    /// The key of a position in play not met before; `None` for one met
    /// before or a finished game.
    fn first_visit(&mut self, pos: Pos) -> Option<Key> {
        let shape = self.prover.shape;
        let over = shape.geometry.has_line(pos.att)
            || shape.geometry.has_line(pos.def)
            || pos.att | pos.def == shape.full;
        let key = shape.canonical(pos.att, pos.def);
        (!over && self.seen.insert(key)).then_some(key)
    }

    /// A move that keeps a proven win for the attacker (to move in `pos`).
    fn winning_move(&mut self, pos: Pos) -> Result<usize, StrategyError> {
        let shape = self.prover.shape;
        let empty = shape.full & !(pos.att | pos.def);
        let now = shape.wins(pos.att, empty) | shape.wins(pos.def, empty);
        if let Some(cell) = cells(shape.wins(pos.att, empty))
            .next()
            .or(cells(now).next())
        {
            return Ok(cell);
        }
        if self.prover.techniques.has(Technique::Threats)
            && let Some(cell) =
                threats::first_move(shape, pos.att, pos.def, &mut self.failed_threats)
        {
            return Ok(cell);
        }
        self.settled_move(pos, true)
    }

    /// A move that keeps a proven hold for the defender (to move in `pos`).
    fn holding_move(&mut self, pos: Pos) -> Result<usize, StrategyError> {
        let shape = self.prover.shape;
        let empty = shape.full & !(pos.att | pos.def);
        let now = shape.wins(pos.def, empty) | shape.wins(pos.att, empty);
        if let Some(cell) = cells(shape.wins(pos.def, empty))
            .next()
            .or(cells(now).next())
        {
            return Ok(cell);
        }
        if self.prover.techniques.has(Technique::Potential)
            && potential::holds(shape, pos.att, pos.def, false)
            && let Some(cell) = potential::defence(shape, pos.att, pos.def)
        {
            return Ok(cell);
        }
        self.settled_move(pos, false)
    }

    /// A move whose position the table holds as won by the attacker
    /// (`attacker_wins`) or held by the defender; searched for when the
    /// table does not know.
    fn settled_move(&mut self, pos: Pos, attacker_wins: bool) -> Result<usize, StrategyError> {
        let mover_is_attacker = self.prover.attacker_to_move(pos);
        let good = |entry: super::table::Entry| {
            if attacker_wins {
                entry.pn == 0
            } else {
                entry.dn == 0
            }
        };
        let moves = self.prover.moves(pos);
        let known = cells(moves).find(|&cell| {
            self.prover
                .entry(pos.play(cell, mover_is_attacker))
                .is_some_and(good)
        });
        if let Some(cell) = known {
            return Ok(cell);
        }
        let empty = self.prover.shape.full & !(pos.att | pos.def);
        for cell in cells(moves).chain(cells(empty & !moves)) {
            if self.prover.prove(pos.play(cell, mover_is_attacker)) == Some(attacker_wins) {
                return Ok(cell);
            }
        }
        Err(StrategyError {
            board: self.board_of(pos).to_string(),
        })
    }

    fn mv(&self, cell: usize) -> Move {
        Move::from_index(cell, self.board.size())
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

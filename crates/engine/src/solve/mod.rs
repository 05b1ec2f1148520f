//! The prover: the value of a position with best play, proven, and the
//! strategies that prove it.
//!
//! [`solve`] answers whether X wins, O wins or the game is drawn, and a
//! [`Proof`] then gives the strategies behind the answer: a win for the
//! winner, or for a draw a hold for each side (the opponent never gets k in
//! a row). The module `certificate` (with the `serde` feature) writes them
//! as lines of JSON that a checker which knows only the rules can replay.
//!
//! The search is a depth-first proof-number search (module `prover`) over the
//! positions up to symmetry, with leaves settled early by the rules (a forced
//! block, two threats at once), by wins through continuous threats, by
//! pairing strategies and by the Erdős–Selfridge potential. Each of these
//! is a [`Technique`] that can be switched off to measure what it buys.
//!
//! ```
//! use tictactoe_engine::Board;
//! use tictactoe_engine::solve::{Techniques, Outcome, solve};
//!
//! let proof = solve(&Board::empty(4, 3)?, Techniques::all());
//! assert_eq!(proof.value, Outcome::Win(tictactoe_engine::Player::X));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod book;
#[cfg(feature = "serde")]
pub mod certificate;
mod lines;
mod pairing;
mod potential;
mod prover;
mod strategy;
mod table;
mod threats;

use std::fmt;
use std::time::{Duration, Instant};

use crate::board::{Board, Status};
use crate::geometry::Geometry;
use crate::names::named;
use crate::player::Player;
use crate::square::Square;

/// What a position is worth with best play: the game's [`Outcome`], as
/// the prover proves it (also at the crate root).
pub use crate::outcome::Outcome;

pub use book::{Book, Keep, Settled, book, book_ready, settle, settle_all};
pub use prover::Counts;
pub use strategy::{Action, Goal, Node, Strategy, StrategyError};

use lines::Lines;
use prover::{Pos, Prover};

named! {
    /// One of the prover's shortcuts, each of which can be switched off
    /// (`solve --without`, by its name).
    ///
    /// ```
    /// use tictactoe_engine::solve::Technique;
    ///
    /// assert_eq!("dead-cells".parse(), Ok(Technique::DeadCells));
    /// ```
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum Technique as "technique" {
        /// Positions that are rotations or reflections of each other are searched once.
        Symmetry = "symmetry",
        /// A win by continuous threats (each forcing the only block) settles a position.
        Threats = "threats",
        /// A pairing strategy for the defender settles a position.
        Pairing = "pairing",
        /// The Erdős–Selfridge potential of the attacker's open lines settles a position.
        Potential = "potential",
        /// Cells on no line either side can still complete are not searched.
        DeadCells = "dead-cells",
    }
}

impl Technique {
    fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// The techniques a proof may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Techniques(u8);

impl Techniques {
    /// Every technique: the prover at its best.
    pub fn all() -> Techniques {
        Techniques(Technique::ALL.iter().fold(0, |set, t| set | t.bit()))
    }

    /// These techniques without `technique`.
    pub fn without(self, technique: Technique) -> Techniques {
        Techniques(self.0 & !technique.bit())
    }

    /// True when `technique` is among these.
    pub fn has(self, technique: Technique) -> bool {
        self.0 & technique.bit() != 0
    }
}

impl Default for Techniques {
    fn default() -> Techniques {
        Techniques::all()
    }
}

/// Bounds on the prover: a time, and the memory of its tables. A proof
/// that reaches either stops without an answer ([`Stop`] says which).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Bounds {
    /// When to give up.
    pub deadline: Option<Instant>,
    /// The most bytes the prover's tables may take, both sides' together
    /// (about: the tables' slots, not every allocation of the search).
    pub memory: Option<usize>,
}

/// Why the prover stopped before its answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Stop {
    /// The deadline came.
    Time,
    /// Its tables would have grown past the memory bound.
    Memory,
}

/// The proven value of a position, with what the proof cost; the
/// strategies behind it come from [`Proof::strategies`].
pub struct Proof {
    /// The position proven.
    pub board: Board,
    /// What the position is worth with best play.
    pub value: Outcome,
    /// What the search did.
    pub counts: Counts,
    /// Wall time of the search.
    pub elapsed: Duration,
    /// The searches the strategies are read from.
    solver: Solver,
}

impl fmt::Debug for Proof {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Proof")
            .field("board", &self.board)
            .field("value", &self.value)
            .field("counts", &self.counts)
            .finish_non_exhaustive()
    }
}

/// Proves the value of `board` with the given techniques, however long it takes.
pub fn solve(board: &Board, techniques: Techniques) -> Proof {
    solve_until(board, techniques, None).expect("no deadline, so the search finishes")
}

/// [`solve`], giving up at `deadline`: `None` when the proof is not finished by then.
pub fn solve_until(
    board: &Board,
    techniques: Techniques,
    deadline: Option<Instant>,
) -> Option<Proof> {
    let bounds = Bounds {
        deadline,
        memory: None,
    };
    solve_within(board, techniques, bounds).ok()
}

/// [`solve`] within `bounds`: why it stopped when the proof is not
/// finished within them. The proof's strategies are read within them too.
pub fn solve_within(board: &Board, techniques: Techniques, bounds: Bounds) -> Result<Proof, Stop> {
    let started = Instant::now();
    let mut solver = Solver::with_techniques(board.geometry(), techniques);
    solver.set_bounds(bounds);
    let Some(value) = solver.value(board, None) else {
        return Err(solver.stopped().unwrap_or(Stop::Time));
    };
    Ok(Proof {
        board: *board,
        value,
        counts: solver.counts(),
        elapsed: started.elapsed(),
        solver,
    })
}

/// The prover kept from question to question about positions of one shape:
/// what it proved for one position stays in its tables for the next, as a
/// game goes on.
///
/// ```
/// use tictactoe_engine::{Board, Player};
/// use tictactoe_engine::solve::Solver;
///
/// let board = Board::empty(4, 3)?;
/// let mut solver = Solver::new(board.geometry());
/// assert_eq!(solver.wins(&board, Player::X, None), Some(true));
/// let mv = solver.winning_move(&board, None).expect("X wins, so some move does");
/// let after = board.play(mv)?;
/// assert_eq!(solver.wins(&after, Player::X, None), Some(true));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Solver {
    geometry: &'static Geometry,
    techniques: Techniques,
    /// The search for a win of X, and of O, once asked for.
    provers: [Option<Prover>; 2],
    /// The bounds of every question.
    bounds: Bounds,
    /// Why a question since the bounds were set stopped without an answer.
    stopped: Option<Stop>,
}

impl Solver {
    /// A solver for boards of this shape, with every technique.
    pub fn new(geometry: &'static Geometry) -> Solver {
        Solver::with_techniques(geometry, Techniques::all())
    }

    /// A solver with the given techniques.
    pub fn with_techniques(geometry: &'static Geometry, techniques: Techniques) -> Solver {
        Solver {
            geometry,
            techniques,
            provers: [None, None],
            bounds: Bounds::default(),
            stopped: None,
        }
    }

    /// Bounds every question from now on: its answer is `None` once one is
    /// reached, and [`Solver::stopped`] says which.
    pub fn set_bounds(&mut self, bounds: Bounds) {
        self.bounds = bounds;
        self.stopped = None;
    }

    /// Why a question since the bounds were set was left without an
    /// answer (the first such question's reason), if one was.
    pub fn stopped(&self) -> Option<Stop> {
        self.stopped
    }

    /// The board shape this solver proves.
    pub fn geometry(&self) -> &'static Geometry {
        self.geometry
    }

    /// What the searches did so far.
    pub fn counts(&self) -> Counts {
        let mut counts = Counts::default();
        for prover in self.provers.iter().flatten() {
            counts += prover.counts;
        }
        counts
    }

    fn prover(&mut self, attacker: Player) -> &mut Prover {
        let (lines, techniques) = (Lines::of(self.geometry), self.techniques);
        self.provers[attacker as usize]
            .get_or_insert_with(|| Prover::new(lines, attacker, techniques))
    }

    /// Does `player` get k in a row first from `board`, however the other
    /// plays? `None` when the deadline comes first.
    pub fn wins(
        &mut self,
        board: &Board,
        player: Player,
        deadline: Option<Instant>,
    ) -> Option<bool> {
        match board.status() {
            Status::Won(winner) => return Some(winner == player),
            Status::Draw => return Some(false),
            Status::InProgress { .. } => {}
        }
        let deadline = match (deadline, self.bounds.deadline) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        // Both sides' tables share the memory bound.
        let other = self.provers[player.other() as usize]
            .as_ref()
            .map_or(0, Prover::bytes);
        let memory = self
            .bounds
            .memory
            .map(|memory| memory.saturating_sub(other));
        let prover = self.prover(player);
        prover.set_bounds(deadline, memory);
        let answer = prover.prove(root(board, player));
        let stop = prover.stop;
        if answer.is_none() {
            self.stopped = self.stopped.or(stop);
        }
        answer
    }

    /// What `board` is worth with best play; `None` when the deadline comes first.
    pub fn value(&mut self, board: &Board, deadline: Option<Instant>) -> Option<Outcome> {
        // X first: it moved first, or has just moved, so it is the likelier winner.
        for player in [Player::X, Player::O] {
            if self.wins(board, player, deadline)? {
                return Some(Outcome::Win(player));
            }
        }
        Some(Outcome::Draw)
    }

    /// A move that wins for the side to move, if it wins from `board` and
    /// the proof is done by the deadline.
    pub fn winning_move(&mut self, board: &Board, deadline: Option<Instant>) -> Option<Square> {
        let Status::InProgress { to_move } = board.status() else {
            return None;
        };
        if !self.wins(board, to_move, deadline)? {
            return None;
        }
        let prover = self.prover(to_move);
        let cell = prover.keeping_move(root(board, to_move), true)?;
        Some(Square::from_index(cell, board.size()))
    }

    /// A move after which the side to move does not lose, if it is proven
    /// by the deadline that the other side cannot force a win.
    pub fn holding_move(&mut self, board: &Board, deadline: Option<Instant>) -> Option<Square> {
        let Status::InProgress { to_move } = board.status() else {
            return None;
        };
        let opponent = to_move.other();
        if self.wins(board, opponent, deadline)? {
            return None;
        }
        let prover = self.prover(opponent);
        let cell = prover.keeping_move(root(board, opponent), false)?;
        Some(Square::from_index(cell, board.size()))
    }
}

/// The board as the prover of `attacker` sees it.
fn root(board: &Board, attacker: Player) -> Pos {
    Pos {
        att: board.bits(attacker),
        def: board.bits(attacker.other()),
    }
}

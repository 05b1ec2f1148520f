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
//! What the search knows lives in one table of fixed size ([`Bounds::memory`]):
//! a proof that needs more goes on within it, replacing what cost least to
//! find, so a proof stops only at its deadline, when its [`Monitor`]
//! interrupts it, or with its answer. [`Bounds::threads`] searches one
//! question with several threads on that table, and the monitor reports
//! how far the search has got ([`Progress`]). The module `jobs` (with the
//! `serde` feature) splits a proof into questions that machines prove
//! apart and checks their certificates together.
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
#[cfg(feature = "serde")]
pub mod jobs;
mod lines;
mod pairing;
mod potential;
mod progress;
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

pub use book::{
    BOOK_POSITIONS, Book, Keep, MOVE_SHARE, Settled, Unproven, book, book_ready, book_within_reach,
    settle, settle_all,
};
pub use progress::{Monitor, Progress};
pub use prover::Counts;
pub use strategy::{Action, Goal, Node, Strategy, StrategyError};
pub use table::TableUse;

use lines::Lines;
use prover::{Pos, Prover, Question, Run, Side};
use table::{Failures, Table};

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

/// The memory the prover takes when [`Bounds::memory`] names none: 256 MiB.
pub const DEFAULT_MEMORY: usize = 256 << 20;

/// Bounds on the prover and what it may use: a time, the memory of its
/// table, its threads, and a [`Monitor`] to report to. A proof stops
/// without an answer only at the deadline or when the monitor interrupts
/// it ([`Stop`] says which): never for memory, since a full table makes
/// room by dropping what cost least to find.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bounds {
    /// When to give up.
    pub deadline: Option<Instant>,
    /// The bytes the prover may take (`None`: [`DEFAULT_MEMORY`]): its
    /// table of positions, shared by both questions of a solver, which
    /// starts small and doubles up to this while it fills, with each
    /// thread's small caches (256 KiB each). Whatever the proof, the prover
    /// takes no more; past it, the proof goes on at this size.
    pub memory: Option<usize>,
    /// Threads to search with (0 counts as 1). A question still open after
    /// a few thousand positions is searched by all of them at once on the
    /// shared table; the value is the same whatever the threads.
    pub threads: usize,
    /// Where the proof reports how far it has got, and whence it may be
    /// interrupted.
    pub monitor: Option<Monitor>,
}

impl Default for Bounds {
    /// No deadline, [`DEFAULT_MEMORY`], one thread, no monitor.
    fn default() -> Bounds {
        Bounds {
            deadline: None,
            memory: None,
            threads: 1,
            monitor: None,
        }
    }
}

impl Bounds {
    /// The bytes of the table within these bounds: the memory, less each
    /// thread's caches.
    fn table_bytes(&self) -> usize {
        let threads = self.threads.max(1);
        let caches = threads * Failures::bytes() + if threads > 1 { 1 << 17 } else { 0 };
        self.memory.unwrap_or(DEFAULT_MEMORY).saturating_sub(caches)
    }
}

/// Why the prover stopped before its answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Stop {
    /// The deadline came.
    Time,
    /// Its [`Monitor`] interrupted it.
    Interrupted,
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
        ..Bounds::default()
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
    /// What the searches know, for both questions.
    table: Table,
    /// What the search for a win of X, and of O, keeps, once asked for.
    sides: [Option<Side>; 2],
    /// The bounds of every question.
    bounds: Bounds,
    /// Why a question since the bounds were set stopped without an answer.
    stopped: Option<Stop>,
    /// The most positions the searches may create, all questions together.
    positions: Option<u64>,
}

impl Solver {
    /// A solver for boards of this shape, with every technique.
    pub fn new(geometry: &'static Geometry) -> Solver {
        Solver::with_techniques(geometry, Techniques::all())
    }

    /// A solver with the given techniques.
    pub fn with_techniques(geometry: &'static Geometry, techniques: Techniques) -> Solver {
        let bounds = Bounds::default();
        Solver {
            geometry,
            techniques,
            table: Table::new(bounds.table_bytes()),
            sides: [None, None],
            bounds,
            stopped: None,
            positions: None,
        }
    }

    /// Stops every question (as if interrupted) once the searches have
    /// created `most` positions in all: a bound that does not depend on
    /// the machine's speed.
    pub(crate) fn limit_positions(&mut self, most: Option<u64>) {
        self.positions = most;
    }

    /// The positions the searches may still create under
    /// [`Solver::limit_positions`], if it set a limit.
    pub(crate) fn positions_left(&self) -> Option<u64> {
        self.positions
            .map(|most| most.saturating_sub(self.counts().positions))
    }

    /// Bounds every question from now on: its answer is `None` once the
    /// deadline comes or the monitor interrupts, and [`Solver::stopped`]
    /// says which. A table bigger than the new memory bound is shrunk at
    /// once, keeping what cost most to find.
    pub fn set_bounds(&mut self, bounds: Bounds) {
        self.table.set_budget(bounds.table_bytes());
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
        for side in self.sides.iter().flatten() {
            counts += side.counts;
        }
        counts
    }

    /// How full the table is.
    pub fn table_use(&self) -> TableUse {
        self.table.usage()
    }

    /// The search for a win of `attacker`, with `deadline` as well as the
    /// bounds' own.
    fn prover(&mut self, attacker: Player, deadline: Option<Instant>) -> Prover<'_> {
        let run = Run {
            deadline: match (deadline, self.bounds.deadline) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            },
            threads: self.bounds.threads,
            monitor: self.bounds.monitor.clone(),
            positions: self
                .positions
                .map(|most| most.saturating_sub(self.counts().positions)),
        };
        let question = Question {
            lines: Lines::of(self.geometry),
            attacker,
            techniques: self.techniques,
        };
        let side = self.sides[attacker as usize].get_or_insert_with(Side::new);
        Prover::new(question, &mut self.table, side, run)
    }

    /// The search for a win of `attacker` if that question was ever asked.
    fn asked(&mut self, attacker: Player) -> Option<Prover<'_>> {
        self.sides[attacker as usize].as_ref()?;
        Some(self.prover(attacker, None))
    }

    /// Notes why a question stopped, if it did.
    fn note(&mut self, stop: Option<Stop>) {
        self.stopped = self.stopped.or(stop);
    }

    /// Does `player` get k in a row first from `board`, however the other
    /// plays? `None` when the deadline comes first (or the monitor interrupts).
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
        let mut prover = self.prover(player, deadline);
        let answer = prover.prove(root(board, player));
        let stop = prover.stop;
        self.note(stop);
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
        let mut prover = self.prover(to_move, deadline);
        let cell = prover.keeping_move(root(board, to_move), true);
        let stop = prover.stop;
        self.note(stop);
        Some(Square::from_index(cell?, board.size()))
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
        let mut prover = self.prover(opponent, deadline);
        let cell = prover.keeping_move(root(board, opponent), false);
        let stop = prover.stop;
        self.note(stop);
        Some(Square::from_index(cell?, board.size()))
    }
}

/// The board as the prover of `attacker` sees it.
fn root(board: &Board, attacker: Player) -> Pos {
    Pos {
        att: board.bits(attacker),
        def: board.bits(attacker.other()),
    }
}

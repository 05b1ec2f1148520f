//! A running proof seen from another thread: how far it has got, and a way
//! to stop it. The prover publishes a few numbers every thousand or so
//! positions; whoever holds a [`Monitor`] reads them when it likes (a
//! front end every few seconds) and prints them as it likes. The engine
//! reads no clock for it and writes nothing.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU32, AtomicU64, Ordering::Relaxed};

use super::table::TableUse;
use crate::player::Player;

/// A handle on the proofs of a [`Solver`](super::Solver) (or of
/// [`solve_within`](super::solve_within)), shared with other threads:
/// [`Monitor::progress`] says how far they have got, and
/// [`Monitor::interrupt`] stops them, as a deadline would
/// ([`Stop::Interrupted`](super::Stop::Interrupted)). Cloning it gives
/// another handle on the same proofs.
///
/// ```
/// use std::thread;
/// use tictactoe_engine::Board;
/// use tictactoe_engine::solve::{Bounds, Monitor, Stop, Techniques, solve_within};
///
/// let monitor = Monitor::new();
/// let bounds = Bounds { monitor: Some(monitor.clone()), ..Bounds::default() };
/// monitor.interrupt();
/// let board = Board::empty(7, 5)?;
/// let stopped = thread::spawn(move || solve_within(&board, Techniques::all(), bounds).err());
/// assert_eq!(stopped.join().unwrap(), Some(Stop::Interrupted));
/// assert!(monitor.progress().positions < 10_000, "it stopped at its first look");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Default)]
pub struct Monitor(Arc<Board>);

/// What the prover publishes.
#[derive(Default)]
struct Board {
    interrupted: AtomicBool,
    positions: AtomicU64,
    /// 0: no question yet, 1: X's win, 2: O's win.
    question: AtomicU8,
    proof: AtomicU32,
    disproof: AtomicU32,
    threads: AtomicU32,
    entries: AtomicU64,
    capacity: AtomicU64,
    bytes: AtomicU64,
    budget: AtomicU64,
    replaced: AtomicU64,
}

/// How far the proofs a [`Monitor`] watches have got.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Progress {
    /// Positions the searches created so far, every thread and question
    /// together (a position dropped from the table and met again counts
    /// again). Two readings and the time between them give the rate.
    pub positions: u64,
    /// Whose win the search is asking about, once it has asked.
    pub question: Option<Player>,
    /// The proof number of the question's position at the last reading:
    /// at least how many positions must still be proven for that side to
    /// win (0: proven).
    pub proof: u32,
    /// Its disproof number: the same for the other side to hold (0: held).
    pub disproof: u32,
    /// Threads searching.
    pub threads: u32,
    /// The table the searches share.
    pub table: TableUse,
}

impl Monitor {
    /// A monitor that no proof has reported to yet.
    pub fn new() -> Monitor {
        Monitor::default()
    }

    /// Asks the proofs to stop, as soon as each next looks (within a
    /// thousand or so positions): they end with
    /// [`Stop::Interrupted`](super::Stop::Interrupted).
    pub fn interrupt(&self) {
        self.0.interrupted.store(true, Relaxed);
    }

    /// True once [`Monitor::interrupt`] was called.
    pub fn interrupted(&self) -> bool {
        self.0.interrupted.load(Relaxed)
    }

    /// The latest numbers the proofs published.
    pub fn progress(&self) -> Progress {
        let board = &self.0;
        Progress {
            positions: board.positions.load(Relaxed),
            question: match board.question.load(Relaxed) {
                1 => Some(Player::X),
                2 => Some(Player::O),
                _ => None,
            },
            proof: board.proof.load(Relaxed),
            disproof: board.disproof.load(Relaxed),
            threads: board.threads.load(Relaxed),
            table: TableUse {
                entries: board.entries.load(Relaxed),
                capacity: board.capacity.load(Relaxed),
                bytes: board.bytes.load(Relaxed),
                budget: board.budget.load(Relaxed),
                replaced: board.replaced.load(Relaxed),
            },
        }
    }

    /// Counts `more` positions created.
    pub(crate) fn add_positions(&self, more: u64) {
        self.0.positions.fetch_add(more, Relaxed);
    }

    /// Publishes the question's numbers and the table's use.
    pub(crate) fn publish(
        &self,
        attacker: Player,
        numbers: (u32, u32),
        threads: usize,
        table: TableUse,
    ) {
        let board = &self.0;
        board.question.store(
            match attacker {
                Player::X => 1,
                Player::O => 2,
            },
            Relaxed,
        );
        board.proof.store(numbers.0, Relaxed);
        board.disproof.store(numbers.1, Relaxed);
        board.threads.store(threads as u32, Relaxed);
        board.entries.store(table.entries, Relaxed);
        board.capacity.store(table.capacity, Relaxed);
        board.bytes.store(table.bytes, Relaxed);
        board.budget.store(table.budget, Relaxed);
        board.replaced.store(table.replaced, Relaxed);
    }
}

impl fmt::Debug for Monitor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Monitor")
            .field("progress", &self.progress())
            .field("interrupted", &self.interrupted())
            .finish()
    }
}

/// Two monitors are equal when they watch the same proofs.
impl PartialEq for Monitor {
    fn eq(&self, other: &Monitor) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for Monitor {}

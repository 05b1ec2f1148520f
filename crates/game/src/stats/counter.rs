//! A session's counting: which results go in the file, what the user is told
//! about it (typed notes, worded here once for every front end), and a
//! thread that counts off the game's own.

use std::fmt;

use super::counts::GameRecord;
use super::file::{KeptAside, StatsError, StatsFile};
use crate::files::Background;
use crate::game::{ResultChange, Seats};
use tictactoe_engine::Board;

/// What the user hears about the statistics file during a session.
#[derive(Debug)]
pub enum Note {
    /// A damaged file was moved aside and counting started afresh; the game
    /// was counted.
    KeptAside(KeptAside),
    /// The file cannot be used: nothing more is counted this session.
    Stopped(StatsError),
    /// This game was not counted (another program held the lock); counting goes on.
    NotCounted(StatsError),
    /// A game taken back is still counted (the lock was held); it is not
    /// counted twice if it comes back.
    StillCounted(StatsError),
}

impl Note {
    /// True for what needs no fixing: a damaged file kept aside, a file
    /// someone made read-only. Anything else is an error.
    pub fn is_warning(&self) -> bool {
        matches!(
            self,
            Note::KeptAside(_) | Note::Stopped(StatsError::ReadOnly { .. })
        )
    }

    /// The gist, short enough for a status line; the whole note is shown
    /// where there is room (when the full-screen game ends).
    pub fn headline(&self) -> &'static str {
        match self {
            Note::KeptAside(_) => "warning: damaged statistics file kept aside; counting afresh",
            Note::Stopped(StatsError::ReadOnly { .. }) => {
                "warning: the statistics file is read-only; games are not counted"
            }
            _ => "error: statistics not saved (details on exit)",
        }
    }
}

/// One line, starting `warning:` or `error:`, naming the file.
impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let severity = if self.is_warning() {
            "warning"
        } else {
            "error"
        };
        match self {
            Note::KeptAside(kept) => write!(
                f,
                "{severity}: the statistics file {} is damaged ({}); it is kept as {} and counting starts afresh",
                kept.path.display(),
                kept.problem,
                kept.kept_as.display()
            ),
            Note::Stopped(error) => write!(
                f,
                "{severity}: {error}; no game is counted for the rest of this session"
            ),
            Note::NotCounted(error) => write!(f, "{severity}: {error}; this game was not counted"),
            Note::StillCounted(error) => write!(
                f,
                "{severity}: {error}; the game taken back is still counted"
            ),
        }
    }
}

/// One session's counting: a note whenever a damaged file is moved aside;
/// a note the first time the file cannot be used for good (not ours, newer,
/// read-only, too big, not a regular file, no permission), after which it
/// stays silent and counts nothing more this session; a note each time
/// another program holds the lock too long, after which it goes on counting.
/// It only takes back results it counted.
#[derive(Debug)]
pub struct Counter {
    /// `None` when counting is off, or stopped for good.
    file: Option<StatsFile>,
    /// Results this session put in the file and did not take back out.
    counted: Vec<GameRecord>,
    /// Results whose taking back failed: still in the file, so counting
    /// them again writes nothing.
    still_counted: Vec<GameRecord>,
}

impl Counter {
    /// Counting in `file`, or nothing when it is `None` (`--no-stats`).
    pub fn new(file: Option<StatsFile>) -> Counter {
        Counter {
            file,
            counted: Vec::new(),
            still_counted: Vec::new(),
        }
    }

    /// Counts a finished game; returns what the user should hear, if anything.
    pub fn record(&mut self, record: GameRecord) -> Option<Note> {
        let file = self.file.as_ref()?;
        if let Some(at) = self.still_counted.iter().rposition(|&r| r == record) {
            self.still_counted.remove(at);
            self.counted.push(record);
            return None;
        }
        match file.record(record) {
            Ok(kept) => {
                self.counted.push(record);
                kept.map(Note::KeptAside)
            }
            Err(error) => Some(self.failed(error, Note::NotCounted)),
        }
    }

    /// Takes a counted game back out (its last move was undone). A result
    /// this session did not count is not taken out. Returns what the user
    /// should hear, as [`Counter::record`] does.
    pub fn unrecord(&mut self, record: GameRecord) -> Option<Note> {
        let file = self.file.as_ref()?;
        let at = self.counted.iter().rposition(|&r| r == record)?;
        self.counted.remove(at);
        match file.unrecord(record) {
            Ok(kept) => kept.map(Note::KeptAside),
            Err(error) => {
                self.still_counted.push(record);
                Some(self.failed(error, Note::StillCounted))
            }
        }
    }

    /// Saves a result that appeared or went away in a session with these
    /// seats, started from `start`, when it is one the statistics count.
    /// Returns what the user should hear, as [`Counter::record`] does.
    pub fn save(&mut self, change: ResultChange, seats: Seats, start: Board) -> Option<Note> {
        let (ResultChange::Finished(status) | ResultChange::TakenBack(status)) = change;
        let record = GameRecord::of(seats, start, status)?;
        match change {
            ResultChange::Finished(_) => self.record(record),
            ResultChange::TakenBack(_) => self.unrecord(record),
        }
    }

    /// The note for a failed change: for good, or `this_time` only.
    fn failed(&mut self, error: StatsError, this_time: fn(StatsError) -> Note) -> Note {
        if error.is_permanent() {
            self.file = None;
            Note::Stopped(error)
        } else {
            this_time(error)
        }
    }
}

/// Counts a session's results on a thread of its own, so a statistics file
/// locked by another program (or slow to reach) delays the count, never the game.
#[derive(Debug)]
pub struct Recorder {
    counting: Background<ResultChange, Note>,
}

impl Recorder {
    /// Counts the results of a session with these seats, started from
    /// `start`, in `file` (nothing with `None`); `tell` hears each note as
    /// it comes.
    pub fn start(
        file: Option<StatsFile>,
        seats: Seats,
        start: Board,
        mut tell: impl FnMut(&Note) + Send + 'static,
    ) -> Recorder {
        let mut counter = Counter::new(file);
        let counting = Background::start(move |change| {
            let note = counter.save(change, seats, start)?;
            tell(&note);
            Some(note)
        });
        Recorder { counting }
    }

    /// Hands a result over to be counted (or taken back).
    pub fn save(&self, change: ResultChange) {
        self.counting.send(change);
    }

    /// Waits until every result handed over is saved; returns every note, in order.
    pub fn finish(self) -> Vec<Note> {
        self.counting.finish()
    }
}

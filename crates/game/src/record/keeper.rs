//! A session's records written on a thread of its own, so a file locked by
//! another program (or slow to reach) delays the record, never the game: the
//! full-screen game hands each finished game over and goes on.

use super::file::{RecordFile, RecordFileError, save_new};
use super::{Record, of_game, today};
use crate::files::Background;
use crate::game::{Game, Seats};

/// The status line's gist of a game that could not be recorded (the whole
/// error is printed once the screen is gone).
pub const NOT_RECORDED: &str = "error: game not recorded (details on exit)";

/// What the keeper is asked to do with a game.
enum Job {
    /// Append it to the session's records file (`--record`).
    Append(Record),
    /// Write it to a new file of its own (the game's `r`).
    SaveNew(Record),
}

/// Writes the games handed over, in order: finished games appended to the
/// session's records file, games the player asked for to new files.
#[derive(Debug)]
pub struct Keeper {
    seats: Seats,
    appends: bool,
    writer: Background<Job, RecordFileError>,
}

impl Keeper {
    /// Records the games of a session with these seats, appending finished
    /// games to `file` (none with `None`); `tell` hears a line for the status
    /// line after each job that says something.
    pub fn start(
        file: Option<RecordFile>,
        seats: Seats,
        mut tell: impl FnMut(String) + Send + 'static,
    ) -> Keeper {
        let appends = file.is_some();
        let writer = Background::start(move |job| {
            let done = match (job, &file) {
                (Job::Append(record), Some(file)) => file.append(&record).map(|()| None),
                (Job::Append(_), None) => Ok(None),
                (Job::SaveNew(record), _) => save_new(&record)
                    .map(|path| Some(format!("the record is saved as {}", path.display()))),
            };
            match done {
                Ok(line) => {
                    line.map(&mut tell);
                    None
                }
                Err(error) => {
                    tell(NOT_RECORDED.to_string());
                    Some(error)
                }
            }
        });
        Keeper {
            seats,
            appends,
            writer,
        }
    }

    /// Hands a finished game over to be appended to the records file.
    pub fn save(&self, game: &Game) {
        if self.appends {
            self.writer
                .send(Job::Append(of_game(game, self.seats, today())));
        }
    }

    /// Hands a game over to be written to a new file of its own.
    pub fn save_new(&self, game: &Game) {
        self.writer
            .send(Job::SaveNew(of_game(game, self.seats, today())));
    }

    /// Waits until every game handed over is written; returns what failed, in order.
    pub fn finish(self) -> Vec<RecordFileError> {
        self.writer.finish()
    }
}

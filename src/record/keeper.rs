//! A session's records file written on a thread of its own, so a file
//! locked by another program (or slow to reach) delays the record, never
//! the game: the full-screen game hands each finished game over and goes on.

use std::sync::mpsc::{self, Sender};
use std::thread::{self, JoinHandle};

use super::file::{RecordFile, RecordFileError};
use super::{Record, of_game, today};
use crate::game::{Game, Seats};

/// The status line's gist of a game that could not be recorded (the whole
/// error is printed once the screen is gone).
pub const NOT_RECORDED: &str = "error: game not recorded (details on exit)";

/// Appends the games handed over to a records file, in order.
#[derive(Debug)]
pub struct Keeper {
    seats: Seats,
    games: Option<Sender<Record>>,
    thread: Option<JoinHandle<Vec<RecordFileError>>>,
}

impl Keeper {
    /// Appends to `file` (nothing with `None`) the games of a session with
    /// these seats; `tell` hears of each game that could not be written.
    pub fn start(
        file: Option<RecordFile>,
        seats: Seats,
        mut tell: impl FnMut(&RecordFileError) + Send + 'static,
    ) -> Keeper {
        let Some(file) = file else {
            return Keeper {
                seats,
                games: None,
                thread: None,
            };
        };
        let (games, incoming) = mpsc::channel::<Record>();
        let thread = thread::spawn(move || {
            let mut errors = Vec::new();
            for record in incoming {
                if let Err(error) = file.append(&record) {
                    tell(&error);
                    errors.push(error);
                }
            }
            errors
        });
        Keeper {
            seats,
            games: Some(games),
            thread: Some(thread),
        }
    }

    /// Hands a finished game over to be appended.
    pub fn save(&self, game: &Game) {
        if let Some(games) = &self.games {
            // The thread only ends when the games stop; a send cannot fail before that.
            let _ = games.send(of_game(game, self.seats, today()));
        }
    }

    /// Waits until every game handed over is written; returns what failed, in order.
    pub fn finish(mut self) -> Vec<RecordFileError> {
        drop(self.games.take());
        self.thread
            .take()
            .and_then(|thread| thread.join().ok())
            .unwrap_or_default()
    }
}

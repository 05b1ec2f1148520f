//! Game records: whole games in the engine's notation in the spirit of
//! chess's PGN ([`notation`], pure), appended to a file and read back ([`mod@file`]),
//! a session's records written on a thread of their own ([`keeper`]), and
//! the names the program gives the players in them.

pub mod file;
pub mod keeper;

pub use file::{
    Appender, GAME_CAP, Games, READ_CAP, RecordFile, RecordFileError, games, read_file, save_new,
    today,
};
pub use keeper::Keeper;
pub use notation::{MoveNumber, Problem, Record, RecordError, read, read_str, result_token, write};
pub use tictactoe_engine::notation;

use crate::game::{Game, Seat, Seats};
use crate::stats::StatsFile;

/// How a record names the player in `seat`: `you` when one person plays
/// against the AI, `human` when two share the keyboard, `AI perfect`.
pub fn seat_name(seat: Seat, seats: Seats) -> String {
    match seat {
        Seat::Human if seats.lone_human().is_some() => "you".to_string(),
        Seat::Human => "human".to_string(),
        Seat::Ai(level) => format!("AI {level}"),
    }
}

/// The record of `game` as played by `seats` on `date`.
pub fn of_game(game: &Game, seats: Seats, date: String) -> Record {
    // A game's moves were each played on its board: the record takes them.
    Record::new(game.start(), game.moves().to_vec())
        .unwrap_or_else(|_| Record::empty(game.start()))
        .with_players(seat_name(seats.x, seats), seat_name(seats.o, seats))
        .with_date(date)
}

/// Where a session's finished games go: counted in the statistics, appended
/// to a records file.
#[derive(Debug, Default)]
pub struct Archive {
    /// The statistics file, unless counting is off.
    pub stats: Option<StatsFile>,
    /// The records file of `--record`, if given.
    pub records: Option<RecordFile>,
}

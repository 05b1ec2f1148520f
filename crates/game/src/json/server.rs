//! The SSH server's commands' JSON: `ssh HOST leaderboard --json` and
//! `ssh HOST history --json`. The server fills these shapes in from its
//! store (it sits above this crate).

use serde::Serialize;
use tictactoe_engine::{Outcome, Player};

/// The answer of `leaderboard --json`: the best players of each board.
#[derive(Debug, Clone, Serialize)]
pub struct Leaderboard {
    /// Each board rated games were played on.
    pub boards: Vec<RatedBoard>,
}

/// One board of the leaderboard.
#[derive(Debug, Clone, Serialize)]
pub struct RatedBoard {
    /// The board's side.
    pub size: u8,
    /// Marks in a row that win.
    pub k: u8,
    /// Its best players, best first.
    pub players: Vec<Leader>,
}

/// A player on the leaderboard.
#[derive(Debug, Clone, Serialize)]
pub struct Leader {
    /// Their place, from 1.
    pub rank: usize,
    /// Their name.
    pub name: String,
    /// Their rating on this board.
    #[serde(flatten)]
    pub rating: Rating,
}

/// A Glicko-2 rating with the rated games behind it.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Rating {
    /// The rating.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
    /// Its volatility.
    pub volatility: f64,
    /// Too uncertain yet to mean much.
    pub provisional: bool,
    /// Rated games.
    pub games: u32,
}

/// The answer of `history --json`: a key's ratings and its games.
#[derive(Debug, Clone, Serialize)]
pub struct History {
    /// The key's name.
    pub player: String,
    /// Its rating on each board it has played rated.
    pub ratings: Vec<ShapeRating>,
    /// Its games, newest first.
    pub games: Vec<HistoryGame>,
}

/// A rating on one board.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct ShapeRating {
    /// The board's side.
    pub size: u8,
    /// Marks in a row that win.
    pub k: u8,
    /// The rating.
    #[serde(flatten)]
    pub rating: Rating,
}

/// One game of `history --json`.
#[derive(Debug, Clone, Serialize)]
pub struct HistoryGame {
    /// The game's number on the server.
    pub id: i64,
    /// The board's side.
    pub size: u8,
    /// Marks in a row that win.
    pub k: u8,
    /// It counted for the ratings.
    pub rated: bool,
    /// Its clock (`3+2`), if it had one.
    pub clock: Option<String>,
    /// Who played X.
    pub x: String,
    /// Who played O.
    pub o: String,
    /// The side the key played.
    pub you: Player,
    /// When it started.
    pub started: String,
    /// How it ended; `null` while it goes on, or when it was aborted.
    pub result: Option<Outcome>,
    /// What ended it: `board`, `resigned`, `time`, `forfeit`, `aborted`.
    pub ending: Option<&'static str>,
    /// It was aborted before each side had moved twice.
    pub aborted: bool,
    /// Its moves.
    pub moves: Vec<String>,
    /// Its record in the notation.
    pub record: Option<String>,
}

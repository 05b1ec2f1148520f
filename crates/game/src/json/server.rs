//! The SSH server's commands' JSON: `ssh HOST leaderboard --json` and
//! `ssh HOST history --json`. The server fills these shapes in from its
//! store (it sits above this crate).

use serde::Serialize;
use tictactoe_engine::{Outcome, Player};

/// The answer of `leaderboard --json`: the best players of each board.
#[derive(Debug, Clone, Serialize)]
pub struct Leaderboard {
    pub boards: Vec<RatedBoard>,
}

/// One board of the leaderboard.
#[derive(Debug, Clone, Serialize)]
pub struct RatedBoard {
    pub size: u8,
    pub k: u8,
    pub players: Vec<Leader>,
}

/// A player on the leaderboard.
#[derive(Debug, Clone, Serialize)]
pub struct Leader {
    pub rank: usize,
    pub name: String,
    #[serde(flatten)]
    pub rating: Rating,
}

/// A Glicko-2 rating with the rated games behind it.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub provisional: bool,
    pub games: u32,
}

/// The answer of `history --json`: a key's ratings and its games.
#[derive(Debug, Clone, Serialize)]
pub struct History {
    pub player: Option<String>,
    pub ratings: Vec<ShapeRating>,
    pub games: Vec<HistoryGame>,
}

/// A rating on one board.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct ShapeRating {
    pub size: u8,
    pub k: u8,
    #[serde(flatten)]
    pub rating: Rating,
}

/// One game of `history --json`.
#[derive(Debug, Clone, Serialize)]
pub struct HistoryGame {
    pub id: i64,
    pub size: u8,
    pub k: u8,
    pub rated: bool,
    pub clock: Option<String>,
    pub x: String,
    pub o: String,
    pub you: Player,
    pub started: String,
    pub result: Option<Outcome>,
    pub ending: Option<&'static str>,
    pub aborted: bool,
    pub moves: Vec<String>,
    pub record: Option<String>,
}

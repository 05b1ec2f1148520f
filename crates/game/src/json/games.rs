//! What is said about whole games: `review`, `selfplay`, `solve` and `stats`.

use serde::Serialize;
use tictactoe_engine::{Board, Level, Outcome, Player, Square, Status};

use super::{Located, StandingTally, Tally};

/// One move of `review --json`.
#[derive(Debug, Clone, Serialize)]
pub struct ReviewedMove {
    /// The game's number in the file, from 1.
    pub game: usize,
    /// The move's number in the game, from 1.
    pub ply: usize,
    /// Who played it.
    pub player: Player,
    /// The move played.
    #[serde(flatten)]
    pub at: Located,
    /// The position's value for the player before the move.
    pub before: i32,
    /// The score of the move played.
    pub after: i32,
    /// `"??"`, `"?"` or `null`.
    pub mark: Option<&'static str>,
    /// The best move there.
    pub best: Square,
    /// Every move with the best move's score, in reading order.
    pub tied: Vec<Square>,
    /// Both scores are proven.
    pub proven: bool,
}

/// The line after each game of `review --json`.
#[derive(Debug, Clone, Serialize)]
pub struct ReviewedGame {
    /// The game's number in the file, from 1.
    pub game: usize,
    /// How it ended, or `"in-progress"` for a game not finished.
    pub result: Status,
    /// How many moves it has.
    pub plies: usize,
}

/// The answer of `selfplay --json`.
#[derive(Debug, Clone, Serialize)]
pub struct Selfplay {
    /// Games played.
    pub games: u32,
    /// How they ended.
    pub tally: Tally,
    /// Wall time of the run.
    pub seconds: f64,
    /// The seed that replays them.
    pub seed: u64,
}

/// The answer of `solve --json`.
#[derive(Debug, Clone, Serialize)]
pub struct Solved {
    /// The board's side.
    pub size: u8,
    /// Marks in a row that win.
    pub k: u8,
    /// The position proven.
    pub board: Board,
    /// What it is worth with best play.
    pub result: Outcome,
    /// Positions the prover created.
    pub positions: u64,
    /// The proof's wall time in milliseconds.
    pub ms: u64,
}

/// The answer of `stats --json`: the person's games against the AI, from
/// the person's side.
#[derive(Debug, Clone, Serialize)]
pub struct Stats<'a> {
    /// Games counted.
    pub games: u64,
    /// How they went for the person.
    pub tally: StandingTally,
    /// A row per board, side and level.
    pub by_opponent: Vec<StatsRow>,
    /// The statistics file.
    pub file: &'a str,
}

/// One row of `stats --json`.
#[derive(Debug, Clone, Serialize)]
pub struct StatsRow {
    /// The side the person played.
    pub side: Player,
    /// The AI's level.
    pub opponent: Level,
    /// The board's side.
    pub size: u8,
    /// Marks in a row that win.
    pub k: u8,
    /// Games counted.
    pub games: u64,
    /// How they went for the person.
    pub tally: StandingTally,
}

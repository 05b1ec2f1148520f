//! What is said about whole games: `review`, `selfplay`, `solve` and `stats`.

use serde::Serialize;
use tictactoe_engine::{Board, Level, Outcome, Player, Square, Status};

use super::{Located, StandingTally, Tally};

/// One move of `review --json`.
#[derive(Debug, Clone, Serialize)]
pub struct ReviewedMove {
    pub game: usize,
    pub ply: usize,
    pub player: Player,
    #[serde(flatten)]
    pub at: Located,
    pub before: i32,
    pub after: i32,
    pub mark: Option<&'static str>,
    pub best: Square,
    pub tied: Vec<Square>,
    pub scores_exact: bool,
}

/// The line after each game of `review --json`.
#[derive(Debug, Clone, Serialize)]
pub struct ReviewedGame {
    pub game: usize,
    pub result: Status,
    pub plies: usize,
}

/// The answer of `selfplay --json`.
#[derive(Debug, Clone, Serialize)]
pub struct Selfplay {
    pub games: u32,
    pub tally: Tally,
    pub seconds: f64,
    pub seed: u64,
}

/// The answer of `solve --json`.
#[derive(Debug, Clone, Serialize)]
pub struct Solved {
    pub size: u8,
    pub k: u8,
    pub board: Board,
    pub result: Outcome,
    pub positions: u64,
    pub ms: u64,
}

/// A line of progress of a running proof on standard error
/// (`solve --json` with `--progress`, or at a terminal).
#[derive(Debug, Clone, Serialize)]
pub struct ProofProgress {
    pub seconds: f64,
    pub positions: u64,
    pub rate: u64,
    pub question: Option<Player>,
    pub proof: u32,
    pub disproof: u32,
    pub threads: u32,
    pub table_bytes: u64,
    pub table_budget: u64,
    pub table_entries: u64,
    pub replaced: u64,
}

/// The answer of `stats --json`: the person's games against the AI, from
/// the person's side.
#[derive(Debug, Clone, Serialize)]
pub struct Stats<'a> {
    pub games: u64,
    pub tally: StandingTally,
    pub by_opponent: Vec<StatsRow>,
    pub file: &'a str,
}

/// One row of `stats --json`.
#[derive(Debug, Clone, Serialize)]
pub struct StatsRow {
    pub side: Player,
    pub opponent: Level,
    pub size: u8,
    pub k: u8,
    pub games: u64,
    pub tally: StandingTally,
}

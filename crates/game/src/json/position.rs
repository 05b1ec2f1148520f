//! What is said about one position: `analyze`, `trace` and `quiz`.

use serde::Serialize;
use tictactoe_engine::solve::{Goal, Unproven};
use tictactoe_engine::teach::reference::Bound;
use tictactoe_engine::{Board, Outcome, Player, Scoring, Square, Status};

use super::Located;

/// One answer of `analyze --json`.
#[derive(Debug, Clone, Serialize)]
pub struct Analysis {
    pub board: Board,
    pub size: u8,
    pub k: u8,
    pub scores: Scoring,
    pub to_move: Option<Player>,
    pub status: Status,
    pub value: Option<i32>,
    pub value_exact: bool,
    pub result: Option<Outcome>,
    pub best: Option<Square>,
    pub moves: Vec<AnalyzedMove>,
    pub nodes: u64,
    pub method: &'static str,
    pub verdict: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proof: Option<Proof>,
}

/// One move of an `analyze --json` answer.
#[derive(Debug, Clone, Serialize)]
pub struct AnalyzedMove {
    #[serde(flatten)]
    pub at: Located,
    pub score: Option<i32>,
    pub score_exact: bool,
    pub result: Option<Outcome>,
    pub unproven: Option<Unproven>,
    pub line: Vec<Square>,
    pub line_proven: bool,
}

/// What the prover proved about a position in `analyze --json`.
#[derive(Debug, Clone, Serialize)]
pub struct Proof {
    pub result: Option<Outcome>,
    #[serde(rename = "move")]
    pub keep: Option<Square>,
    pub keeps: Option<Goal>,
}

/// A line of `analyze -` that is not a board.
#[derive(Debug, Clone, Serialize)]
pub struct LineError<'a> {
    pub line: usize,
    pub input: &'a str,
    pub error: String,
}

/// One call of `trace --json`.
#[derive(Debug, Clone, Serialize)]
pub struct TraceCall {
    pub call: u64,
    pub parent: Option<u64>,
    pub depth: Option<u32>,
    #[serde(flatten)]
    pub at: Located,
    pub board: Board,
    pub maximizing: bool,
    pub score: i32,
    pub bound: Bound,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alpha: Option<Option<i32>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub beta: Option<Option<i32>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cut: Option<Vec<Square>>,
}

/// One question of `quiz --answers --json`.
#[derive(Debug, Clone, Serialize)]
pub struct QuizKey {
    pub board: Board,
    pub ask: &'static str,
    pub answer: QuizAnswer,
}

/// The answer to a quiz question: a number, moves, or branches (each the
/// moves from the position to the move skipped).
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum QuizAnswer {
    Number(i64),
    Moves(Vec<Square>),
    Branches(Vec<Vec<Square>>),
}

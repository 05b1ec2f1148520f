//! The grader's and the lab's JSON: `grade`, `grade --cs50` and `lab`. The
//! grader fills these shapes in from its own types (it sits above this crate).

use serde::Serialize;
use tictactoe_engine::{Board, Player, Scoring, Square};

use super::Scores;

/// One line of `grade --json` for a position answered.
#[derive(Debug, Clone, Serialize)]
pub struct Graded {
    pub number: usize,
    pub board: Board,
    pub to_move: Player,
    pub answer: String,
    pub right: bool,
    pub yours: Yours,
    pub calls: Option<u64>,
    pub expected: Expected,
    pub faults: Vec<String>,
}

/// What an answer said: a move (with the row and column written, which may
/// be off the board: then `"move"` is `null`), or scores by square.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum Yours {
    Move {
        #[serde(rename = "move")]
        mv: Option<Square>,
        row: i64,
        col: i64,
    },
    Scores {
        scores: Scores,
    },
}

/// The right answers about a position.
#[derive(Debug, Clone, Serialize)]
pub struct Expected {
    pub moves: Vec<Square>,
    pub scores: Scores,
    pub calls: Option<u64>,
}

/// One line of `grade --json` for a failure of the program.
#[derive(Debug, Clone, Serialize)]
pub struct Failed {
    pub number: usize,
    pub board: Board,
    pub trouble: String,
    pub restarts_left: Option<u32>,
}

/// The last line of `grade --json`: `{"summary": {...}}`.
#[derive(Debug, Clone, Serialize)]
pub struct GradeSummary {
    pub summary: GradeTotals,
}

/// What the summary of `grade --json` holds.
#[derive(Debug, Clone, Serialize)]
pub struct GradeTotals {
    pub positions: usize,
    pub reached: usize,
    pub right: usize,
    pub wrong: usize,
    pub failed: usize,
    pub ended: &'static str,
    pub not_started: Option<String>,
    pub ask: &'static str,
    pub scores: Scoring,
    pub ties: &'static str,
    pub diagnosis: Diagnosis,
}

/// What explains the wrong answers, where one mistake does.
#[derive(Debug, Clone, Serialize)]
pub struct Diagnosis {
    pub answers: Option<Named>,
    pub calls: Option<Named>,
}

/// A mistake named.
#[derive(Debug, Clone, Serialize)]
pub struct Named {
    pub mistake: String,
    pub explains: usize,
    pub says: String,
}

/// One line of `grade --cs50 --json` per function.
#[derive(Debug, Clone, Serialize)]
pub struct Cs50Function {
    pub function: &'static str,
    pub calls: usize,
    pub answered: usize,
    pub right: usize,
    pub wrong: Vec<Cs50Wrong>,
    pub hint: Option<String>,
}

/// A wrong answer of a CS50 function.
#[derive(Debug, Clone, Serialize)]
pub struct Cs50Wrong {
    pub call: String,
    pub board: Board,
    pub why: String,
}

/// The last line of `grade --cs50 --json`: `{"summary": {...}}`.
#[derive(Debug, Clone, Serialize)]
pub struct Cs50Summary {
    pub summary: Cs50Totals,
}

/// What the summary of `grade --cs50 --json` holds.
#[derive(Debug, Clone, Serialize)]
pub struct Cs50Totals {
    pub ended: &'static str,
    pub not_started: Option<String>,
    pub failed: usize,
    pub all_right: bool,
}

/// The answer of `lab --json`.
#[derive(Debug, Clone, Serialize)]
pub struct Ladder {
    pub board: Board,
    pub size: u8,
    pub k: u8,
    pub scores: Scoring,
    pub value: Option<i32>,
    pub agrees: bool,
    pub rows: Vec<LadderRow>,
}

/// One row of `lab --json`.
#[derive(Debug, Clone, Serialize)]
pub struct LadderRow {
    pub technique: &'static str,
    pub value: Option<i32>,
    pub positions: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
    pub time_ms: f64,
    pub gain: Option<f64>,
    pub gain_by: Option<&'static str>,
}

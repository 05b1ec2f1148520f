//! The grader's and the lab's JSON: `grade` (a position, a failure, the
//! summary, a class's row, and Gradescope's `results.json`), `grade --cs50`
//! and `lab`. The grader fills these shapes in from its own types (it sits
//! above this crate).

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

/// What an answer said: a move (`null` off the board), or scores by square.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum Yours {
    Move {
        #[serde(rename = "move")]
        mv: Option<Square>,
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
    pub article: &'static str,
    pub diagnosis: Diagnosis,
}

/// What explains the wrong answers, where a mistake does.
#[derive(Debug, Clone, Serialize)]
pub struct Diagnosis {
    pub answers: Option<Program>,
    pub calls: Option<Named>,
}

/// The program (the article's with one mistake or more) that gives the
/// student's wrong moves or scores.
#[derive(Debug, Clone, Serialize)]
pub struct Program {
    pub mistake: String,
    pub mistakes: Vec<&'static str>,
    pub as_printed: bool,
    pub explains: usize,
    pub wrong: usize,
    pub exceptions: Vec<usize>,
    pub examples: Vec<Example>,
    pub says: String,
    pub printed: Option<String>,
}

/// The first example of one mistake: the number of the answer.
#[derive(Debug, Clone, Serialize)]
pub struct Example {
    pub mistake: &'static str,
    pub number: usize,
}

/// A mistake named.
#[derive(Debug, Clone, Serialize)]
pub struct Named {
    pub mistake: String,
    pub explains: usize,
    pub says: String,
}

/// One submission's row of a class (`--each`, several `--cs50` modules).
#[derive(Debug, Clone, Serialize)]
pub struct ClassRow {
    pub submission: String,
    pub right: usize,
    pub wrong: usize,
    pub failed: usize,
    pub asked: usize,
    pub diagnosis: String,
    pub ended: &'static str,
    pub seconds: f64,
}

/// Gradescope's `results.json` for one submission, as its autograder reads
/// it.
#[derive(Debug, Clone, Serialize)]
pub struct Gradescope {
    pub score: f64,
    pub execution_time: f64,
    pub output: String,
    pub visibility: &'static str,
    pub tests: Vec<GradescopeTest>,
}

/// One test of Gradescope's `results.json`.
#[derive(Debug, Clone, Serialize)]
pub struct GradescopeTest {
    pub name: String,
    pub score: f64,
    pub max_score: u32,
    pub output: String,
    pub visibility: &'static str,
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
    pub mistake: Option<String>,
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

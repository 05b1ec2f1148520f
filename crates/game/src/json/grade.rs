//! The grader's and the lab's JSON: `grade`, `grade --cs50` and `lab`. The
//! grader fills these shapes in from its own types (it sits above this crate).

use serde::Serialize;
use tictactoe_engine::{Board, Player, Scoring, Square};

use super::Scores;

/// One line of `grade --json` for a position answered.
#[derive(Debug, Clone, Serialize)]
pub struct Graded {
    /// Its place in the order asked, from 1.
    pub number: usize,
    /// The position.
    pub board: Board,
    /// Whose move it is.
    pub to_move: Player,
    /// The answer line as written.
    pub answer: String,
    /// The answer is right.
    pub right: bool,
    /// The answer, read.
    pub yours: Yours,
    /// Its `calls N`, if it ended with one.
    pub calls: Option<u64>,
    /// The right answers.
    pub expected: Expected,
    /// What is wrong with it, a sentence each (none: right).
    pub faults: Vec<String>,
}

/// What an answer said: a move (with the row and column written, which may
/// be off the board: then `"move"` is `null`), or scores by square.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum Yours {
    /// A move.
    Move {
        /// The square, when the row and column are on the board.
        #[serde(rename = "move")]
        mv: Option<Square>,
        /// The row written, 0-based.
        row: i64,
        /// The column written, 0-based.
        col: i64,
    },
    /// Scores for squares.
    Scores {
        /// Each square scored, in the answer's order.
        scores: Scores,
    },
}

/// The right answers about a position.
#[derive(Debug, Clone, Serialize)]
pub struct Expected {
    /// The moves that are a right answer to `best`.
    pub moves: Vec<Square>,
    /// Every legal move's score, in reading order.
    pub scores: Scores,
    /// The calls the algorithm makes, when asked.
    pub calls: Option<u64>,
}

/// One line of `grade --json` for a failure of the program.
#[derive(Debug, Clone, Serialize)]
pub struct Failed {
    /// Its place in the order asked, from 1.
    pub number: usize,
    /// The position.
    pub board: Board,
    /// What went wrong, in words.
    pub trouble: String,
    /// How many more times the program will be started; `null` when
    /// grading stops here.
    pub restarts_left: Option<u32>,
}

/// The last line of `grade --json`: `{"summary": {...}}`.
#[derive(Debug, Clone, Serialize)]
pub struct GradeSummary {
    /// The summary.
    pub summary: GradeTotals,
}

/// What the summary of `grade --json` holds.
#[derive(Debug, Clone, Serialize)]
pub struct GradeTotals {
    /// Positions to ask.
    pub positions: usize,
    /// Positions asked.
    pub reached: usize,
    /// Answered right.
    pub right: usize,
    /// Answered wrong.
    pub wrong: usize,
    /// Lost to the program's failures.
    pub failed: usize,
    /// How grading ended: `done`, `gave-up`, `not-started`, `interrupted`.
    pub ended: &'static str,
    /// Why the program could not be started.
    pub not_started: Option<String>,
    /// What was asked: `best` or `scores`.
    pub ask: &'static str,
    /// How scores are counted.
    pub scores: Scoring,
    /// Which of equally good moves is right.
    pub ties: &'static str,
    /// What explains the wrong answers.
    pub diagnosis: Diagnosis,
}

/// What explains the wrong answers, where one mistake does.
#[derive(Debug, Clone, Serialize)]
pub struct Diagnosis {
    /// The mistake behind the wrong moves or scores.
    pub answers: Option<Named>,
    /// The mistake behind the wrong counts of calls.
    pub calls: Option<Named>,
}

/// A mistake named.
#[derive(Debug, Clone, Serialize)]
pub struct Named {
    /// Its name.
    pub mistake: String,
    /// Wrong answers it explains.
    pub explains: usize,
    /// What to change, in words.
    pub says: String,
}

/// One line of `grade --cs50 --json` per function.
#[derive(Debug, Clone, Serialize)]
pub struct Cs50Function {
    /// The function.
    pub function: &'static str,
    /// Calls to make in all.
    pub calls: usize,
    /// Calls answered.
    pub answered: usize,
    /// Calls answered right.
    pub right: usize,
    /// Every wrong answer.
    pub wrong: Vec<Cs50Wrong>,
    /// What the wrong answers suggest.
    pub hint: Option<String>,
}

/// A wrong answer of a CS50 function.
#[derive(Debug, Clone, Serialize)]
pub struct Cs50Wrong {
    /// The call, as Python writes it.
    pub call: String,
    /// The board it was given.
    pub board: Board,
    /// What was wrong with what it returned.
    pub why: String,
}

/// The last line of `grade --cs50 --json`: `{"summary": {...}}`.
#[derive(Debug, Clone, Serialize)]
pub struct Cs50Summary {
    /// The summary.
    pub summary: Cs50Totals,
}

/// What the summary of `grade --cs50 --json` holds.
#[derive(Debug, Clone, Serialize)]
pub struct Cs50Totals {
    /// How the check ended.
    pub ended: &'static str,
    /// Why the shim could not be started.
    pub not_started: Option<String>,
    /// The shim's failures.
    pub failed: usize,
    /// Every call made and answered right.
    pub all_right: bool,
}

/// The answer of `lab --json`.
#[derive(Debug, Clone, Serialize)]
pub struct Ladder {
    /// The position searched.
    pub board: Board,
    /// The board's side.
    pub size: u8,
    /// Marks in a row that win.
    pub k: u8,
    /// How the values are counted.
    pub scores: Scoring,
    /// The value the rows found.
    pub value: Option<i32>,
    /// Every row that found a value found the same.
    pub agrees: bool,
    /// The rows, from GeeksforGeeks' minimax up.
    pub rows: Vec<LadderRow>,
}

/// One row of `lab --json`.
#[derive(Debug, Clone, Serialize)]
pub struct LadderRow {
    /// The technique added in this row.
    pub technique: &'static str,
    /// `null` when the row gave up.
    pub value: Option<i32>,
    /// `null` when the row gave up.
    pub positions: Option<u64>,
    /// Why the row gave up.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
    /// Wall time of the row.
    pub time_ms: f64,
    /// Over the row before: by positions, or by time for a lookup.
    pub gain: Option<f64>,
    /// `positions` or `time`.
    pub gain_by: Option<&'static str>,
}

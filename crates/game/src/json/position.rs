//! What is said about one position: `analyze`, `trace` and `quiz`.

use serde::Serialize;
use tictactoe_engine::solve::Goal;
use tictactoe_engine::teach::reference::Bound;
use tictactoe_engine::{Board, Outcome, Player, Scoring, Square, Status};

use super::Located;

/// One answer of `analyze --json`.
#[derive(Debug, Clone, Serialize)]
pub struct Analysis {
    /// The position, in canonical notation.
    pub board: Board,
    /// The board's side.
    pub size: u8,
    /// Marks in a row that win.
    pub k: u8,
    /// How the scores are counted.
    pub scores: Scoring,
    /// Whose move it is; `null` once the game is over.
    pub to_move: Option<Player>,
    /// In progress, or how the game ended.
    pub status: Status,
    /// The best move's score; `null` once the game is over, or where only
    /// its result is proven.
    pub value: Option<i32>,
    /// The best move.
    pub best: Option<Square>,
    /// Every legal move in reading order.
    pub moves: Vec<AnalyzedMove>,
    /// Positions searched.
    pub nodes: u64,
    /// `table` or `search`.
    pub method: &'static str,
    /// Every score proven.
    pub proven: bool,
    /// The result in words.
    pub verdict: String,
    /// What the prover proved, on boards bigger than 3x3.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proof: Option<Proof>,
}

/// One move of an `analyze --json` answer.
#[derive(Debug, Clone, Serialize)]
pub struct AnalyzedMove {
    /// The move.
    #[serde(flatten)]
    pub at: Located,
    /// `null` where the prover proved the result but not its length.
    pub score: Option<i32>,
    /// The score is proven.
    pub proven: bool,
    /// How the game ends with best play after the move, where it is known.
    pub result: Option<Outcome>,
    /// The moves that follow with best play from both sides.
    pub line: Vec<Square>,
    /// The line is proven best play to the end of the game.
    pub line_proven: bool,
}

/// What the prover proved about a position in `analyze --json`.
#[derive(Debug, Clone, Serialize)]
pub struct Proof {
    /// The position's result, once proven.
    pub result: Option<Outcome>,
    /// A proven move: one that wins, or else one that does not lose.
    #[serde(rename = "move")]
    pub keep: Option<Square>,
    /// `win` or `hold`: what that move keeps.
    pub keeps: Option<Goal>,
}

/// A line of `analyze -` that is not a board.
#[derive(Debug, Clone, Serialize)]
pub struct LineError<'a> {
    /// Its number, from 1.
    pub line: usize,
    /// What it says (shortened).
    pub input: &'a str,
    /// What is wrong with it.
    pub error: String,
}

/// One call of `trace --json`.
#[derive(Debug, Clone, Serialize)]
pub struct TraceCall {
    /// Its number, from 1.
    pub call: u64,
    /// The call that made it.
    pub parent: Option<u64>,
    /// GeeksforGeeks' depth: `null` for call 1, 0 for the calls it makes.
    pub depth: Option<u32>,
    /// The move that led to it.
    #[serde(flatten)]
    pub at: Located,
    /// Its position.
    pub board: Board,
    /// The side to move there maximizes.
    pub maximizing: bool,
    /// What it returns.
    pub score: i32,
    /// What the score says: `exact` (the value), `upper` or `lower` (a bound).
    pub bound: Bound,
    /// Alpha-beta only: the window as the call began (`null` for no bound yet).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alpha: Option<Option<i32>>,
    /// Alpha-beta only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub beta: Option<Option<i32>>,
    /// Alpha-beta only: the replies not searched.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cut: Option<Vec<Square>>,
}

/// One question of `quiz --answers --json`.
#[derive(Debug, Clone, Serialize)]
pub struct QuizKey {
    /// The position asked about.
    pub board: Board,
    /// What is asked: `value`, `best`, `calls` or `pruned`.
    pub ask: &'static str,
    /// The answer.
    pub answer: QuizAnswer,
}

/// The answer to a quiz question: a number, moves, or branches (each the
/// moves from the position to the move skipped).
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum QuizAnswer {
    /// A value or a count.
    Number(i64),
    /// Every move with the best score.
    Moves(Vec<Square>),
    /// The branches alpha-beta skips.
    Branches(Vec<Vec<Square>>),
}

//! Every command's JSON, in one vocabulary (docs/JSON.md documents it):
//!
//! - a square is its name, `"b2"`; an object about one move also gives its
//!   0-based `"row"` and `"col"` beside `"move"` ([`Located`]);
//! - a finished game's result is `"x-wins"`, `"o-wins"` or `"draw"`, and a
//!   position's status adds `"in-progress"`; a tally uses the same words as
//!   its keys ([`Tally`]);
//! - a player is `"x"` or `"o"`;
//! - a score that rests on the whole game tree is `"proven": true`;
//! - field names are snake_case.
//!
//! The commands build the records below and write them with
//! [`write_line`]; no other module spells a result, a square or a player
//! for JSON. The records' fields are the JSON's own, each documented in
//! docs/JSON.md beside an example that runs as a test.
#![allow(missing_docs)]

use std::io::{self, Write};

use serde::Serialize;

use tictactoe_engine::{Outcome, Player, Square, Status};

/// Writes `record` as one line of JSON.
pub fn write_line(out: &mut dyn Write, record: &impl Serialize) -> io::Result<()> {
    let line = serde_json::to_string(record).map_err(io::Error::other)?;
    writeln!(out, "{line}")
}

/// A square by its name: `"b2"`.
pub fn square(mv: Square) -> String {
    mv.to_string()
}

/// Squares by their names: `["b2", "c3"]`.
pub fn squares(moves: impl IntoIterator<Item = Square>) -> Vec<String> {
    moves.into_iter().map(square).collect()
}

/// A player: `"x"` or `"o"`.
pub fn player(player: Player) -> &'static str {
    match player {
        Player::X => "x",
        Player::O => "o",
    }
}

/// A result: `"x-wins"`, `"o-wins"` or, with no winner, `"draw"`.
pub fn result(winner: Option<Player>) -> &'static str {
    match winner {
        Some(Player::X) => "x-wins",
        Some(Player::O) => "o-wins",
        None => "draw",
    }
}

/// An outcome, as a result.
pub fn value(value: Outcome) -> &'static str {
    result(value.winner())
}

/// A position's status: a result, or `"in-progress"`.
pub fn status(status: Status) -> &'static str {
    match status {
        Status::InProgress { .. } => IN_PROGRESS,
        Status::Won(winner) => result(Some(winner)),
        Status::Draw => result(None),
    }
}

/// A recorded game's result: a result, or `"in-progress"` for a game not
/// finished (the notation's `*`).
pub fn game_result(game: Option<Outcome>) -> &'static str {
    game.map_or(IN_PROGRESS, value)
}

const IN_PROGRESS: &str = "in-progress";

/// One move with its indices, flattened into the object about it:
/// `"move": "b2", "row": 1, "col": 1` (all `null` where there is no move).
#[derive(Debug, Clone, Serialize)]
pub struct Located {
    #[serde(rename = "move")]
    mv: Option<String>,
    row: Option<u8>,
    col: Option<u8>,
}

impl Located {
    /// `mv`, or no move.
    pub fn new(mv: Option<Square>) -> Located {
        Located {
            mv: mv.map(square),
            row: mv.map(|mv| mv.row),
            col: mv.map(|mv| mv.col),
        }
    }
}

/// Games counted by result: `{"x-wins": 3, "o-wins": 0, "draw": 7}`.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Tally {
    #[serde(rename = "x-wins")]
    pub x_wins: u32,
    #[serde(rename = "o-wins")]
    pub o_wins: u32,
    pub draw: u32,
}

/// One answer of `analyze --json`.
#[derive(Debug, Serialize)]
pub struct Analysis {
    pub board: String,
    pub size: u8,
    pub k: u8,
    /// How the scores are counted: `depth`, `plain` or `cs50`.
    pub scores: &'static str,
    /// `"x"` or `"o"`; `null` once the game is over.
    pub to_move: Option<&'static str>,
    pub status: &'static str,
    /// The best move's score; `null` once the game is over, or where only
    /// its result is proven.
    pub value: Option<i32>,
    pub best: Option<String>,
    pub moves: Vec<AnalyzedMove>,
    pub nodes: u64,
    /// `table` or `search`.
    pub method: &'static str,
    /// Every score proven.
    pub proven: bool,
    pub verdict: String,
    /// What the prover proved, on boards bigger than 3x3.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proof: Option<Proof>,
}

/// One move of an `analyze --json` answer.
#[derive(Debug, Serialize)]
pub struct AnalyzedMove {
    #[serde(flatten)]
    pub at: Located,
    /// `null` where the prover proved the result but not its length.
    pub score: Option<i32>,
    pub proven: bool,
    /// The result with best play after the move, where it is known.
    pub result: Option<&'static str>,
    /// The moves that follow with best play from both sides.
    pub line: Vec<String>,
    /// The line is proven best play to the end of the game.
    pub line_proven: bool,
}

/// What the prover proved about a position in `analyze --json`.
#[derive(Debug, Serialize)]
pub struct Proof {
    /// The position's result, once proven.
    pub result: Option<&'static str>,
    /// A proven move: one that wins, or else one that does not lose.
    #[serde(rename = "move")]
    pub keep: Option<String>,
    /// `win` or `hold`: what that move keeps.
    pub keeps: Option<&'static str>,
}

/// A line of `analyze -` that is not a board.
#[derive(Debug, Serialize)]
pub struct LineError<'a> {
    pub line: usize,
    pub input: &'a str,
    pub error: String,
}

/// One call of `trace --json`.
#[derive(Debug, Serialize)]
pub struct TraceCall {
    pub call: u64,
    pub parent: Option<u64>,
    /// GeeksforGeeks' depth: `null` for call 1, 0 for the calls it makes.
    pub depth: Option<u32>,
    #[serde(flatten)]
    pub at: Located,
    pub board: String,
    pub maximizing: bool,
    pub score: i32,
    /// What the score says: `exact` (the value), `upper` or `lower` (a bound).
    pub bound: &'static str,
    /// Alpha-beta only: the window as the call began (`null` for no bound yet).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alpha: Option<Option<i32>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub beta: Option<Option<i32>>,
    /// Alpha-beta only: the replies not searched.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cut: Option<Vec<String>>,
}

/// One question of `quiz --answers --json`.
#[derive(Debug, Serialize)]
pub struct QuizKey {
    pub board: String,
    pub ask: &'static str,
    pub answer: serde_json::Value,
}

/// One move of `review --json`.
#[derive(Debug, Serialize)]
pub struct ReviewedMove {
    pub game: usize,
    pub ply: usize,
    pub player: &'static str,
    #[serde(flatten)]
    pub at: Located,
    pub before: i32,
    pub after: i32,
    pub mark: Option<&'static str>,
    /// The best move there.
    pub best: String,
    /// Every move with the best move's score, the best one first.
    pub tied: Vec<String>,
    pub proven: bool,
}

/// The line after each game of `review --json`.
#[derive(Debug, Serialize)]
pub struct ReviewedGame {
    pub game: usize,
    pub result: &'static str,
    pub plies: usize,
}

/// The answer of `selfplay --json`.
#[derive(Debug, Serialize)]
pub struct Selfplay {
    pub games: u32,
    pub tally: Tally,
    /// Wall time of the run.
    pub seconds: f64,
    pub seed: u64,
}

/// The answer of `solve --json`.
#[derive(Debug, Serialize)]
pub struct Solved {
    pub size: u8,
    pub k: u8,
    pub board: String,
    pub result: &'static str,
    pub positions: u64,
    pub ms: u64,
}

/// The answer of `stats --json`: the person's results against the AI.
#[derive(Serialize)]
pub struct Stats<'a, Row: Serialize> {
    pub games: u64,
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
    pub by_opponent: Vec<Row>,
    pub file: &'a str,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_spelling_each() {
        assert_eq!(result(Some(Player::O)), "o-wins");
        assert_eq!(value(Outcome::Draw), "draw");
        assert_eq!(
            status(Status::InProgress { to_move: Player::X }),
            "in-progress"
        );
        assert_eq!(game_result(Some(Outcome::Win(Player::X))), "x-wins");
        let at = serde_json::to_string(&Located::new(Some(Square::new(1, 2)))).unwrap();
        assert_eq!(at, r#"{"move":"c2","row":1,"col":2}"#);
        let tally = Tally {
            x_wins: 3,
            o_wins: 0,
            draw: 7,
        };
        assert_eq!(
            serde_json::to_string(&tally).unwrap(),
            r#"{"x-wins":3,"o-wins":0,"draw":7}"#
        );
    }
}

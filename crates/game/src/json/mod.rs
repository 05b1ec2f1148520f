//! Every command's JSON, in one vocabulary, written here and nowhere else
//! (docs/JSON.md documents each shape; a test checks every command against
//! it, and another that nothing else in the workspace writes JSON).
//!
//! The vocabulary is the engine's own serde (its `serde` feature): each
//! value is written as the name the engine prints and reads back.
//!
//! - a square is its name, `"b2"` ([`Square`]); an object about one move
//!   also gives its 0-based `"row"` and `"col"` beside `"move"`
//!   ([`Located`]); lists of moves are lists of names;
//! - how a game ended is `"x-wins"`, `"o-wins"` or `"draw"` ([`Outcome`]),
//!   and a position's status adds `"in-progress"` ([`Status`]); a game
//!   from one side's seat is `"win"`, `"loss"` or `"draw"` ([`Standing`]);
//! - a tally is an object keyed by what it counts ([`Tally`],
//!   [`StandingTally`]): `{"x-wins": 3, "o-wins": 0, "draw": 7}`;
//! - a player is `"x"` or `"o"` ([`Player`]), a board its notation;
//! - a score that rests on the whole game tree is exact (`"score_exact": true`),
//!   and a result given (`"x-wins"`, …) is proven, `null` while not;
//! - field names are snake_case.
//!
//! Each command fills in its record (the plain structs below, whose fields
//! are the JSON's own) and writes it with [`write_line`], or takes the line
//! with [`line()`]. The grader and the server sit above this crate: their
//! records are plain shapes here that they fill in from their own types.
//!
//! [`Square`]: tictactoe_engine::Square
//! [`Outcome`]: tictactoe_engine::Outcome
//! [`Status`]: tictactoe_engine::Status
//! [`Standing`]: tictactoe_engine::Standing
//! [`Player`]: tictactoe_engine::Player

// Each record's fields are the JSON's own, documented in docs/JSON.md
// beside an example that runs as a test: they are not said again here.
#[allow(missing_docs)]
mod games;
#[allow(missing_docs)]
mod grade;
#[allow(missing_docs)]
mod position;
#[allow(missing_docs)]
mod server;

pub use games::{ProofProgress, ReviewedGame, ReviewedMove, Selfplay, Solved, Stats, StatsRow};
pub use grade::{
    ClassRow, Cs50Function, Cs50Summary, Cs50Totals, Cs50Wrong, Diagnosis, Example, Expected,
    Failed, GradeSummary, GradeTotals, Graded, Gradescope, GradescopeTest, Ladder, LadderRow,
    Named, Program, Yours,
};
pub use position::{Analysis, AnalyzedMove, LineError, Proof, QuizAnswer, QuizKey, TraceCall};
pub use server::{History, HistoryGame, Leader, Leaderboard, RatedBoard, Rating, ShapeRating};

use std::io::{self, Write};

/// What [`read`] reads: a record that owns its data.
pub use serde::de::DeserializeOwned;
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use tictactoe_engine::{Outcome, Square, Standing};

/// `record` as one line of JSON, without the new line.
pub fn line(record: &impl Serialize) -> String {
    // Every record here is plain data with string keys: it always serializes.
    serde_json::to_string(record).expect("the records are plain data")
}

/// `record` as JSON laid out for people, ending with a new line: for a
/// file another program reads (Gradescope's `results.json`).
pub fn document(record: &impl Serialize) -> String {
    let text = serde_json::to_string_pretty(record).expect("the records are plain data");
    format!("{text}\n")
}

/// Reads a record this program wrote (a split's manifest or job file):
/// the record, or what is wrong with the text, in serde's words.
pub fn read<T: DeserializeOwned>(text: &str) -> Result<T, String> {
    serde_json::from_str(text).map_err(|error| error.to_string())
}

/// Writes `record` as one line of JSON.
pub fn write_line(out: &mut dyn Write, record: &impl Serialize) -> io::Result<()> {
    writeln!(out, "{}", line(record))
}

/// One move with its indices, flattened into the object about it:
/// `"move": "b2", "row": 1, "col": 1` (all `null` where there is no move).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Located {
    #[serde(rename = "move")]
    mv: Option<Square>,
    row: Option<u8>,
    col: Option<u8>,
}

impl Located {
    /// `mv`, or no move.
    pub fn new(mv: Option<Square>) -> Located {
        Located {
            mv,
            row: mv.map(|mv| mv.row),
            col: mv.map(|mv| mv.col),
        }
    }
}

/// Games counted by how they ended: `{"x-wins": 3, "o-wins": 0, "draw": 7}`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games X won.
    pub x_wins: u64,
    /// Games O won.
    pub o_wins: u64,
    /// Drawn games.
    pub draw: u64,
}

impl Serialize for Tally {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let counts = [self.x_wins, self.o_wins, self.draw];
        counted(serializer, Outcome::ALL.into_iter().zip(counts))
    }
}

/// Games counted from one side's seat: `{"win": 1, "loss": 2, "draw": 0}`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StandingTally {
    /// Games the side won.
    pub win: u64,
    /// Games the side lost.
    pub loss: u64,
    /// Drawn games.
    pub draw: u64,
}

impl Serialize for StandingTally {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let counts = [self.win, self.loss, self.draw];
        counted(serializer, Standing::ALL.into_iter().zip(counts))
    }
}

/// A map from each value's name to its count, in the values' order.
fn counted<S: Serializer, K: Serialize>(
    serializer: S,
    counts: impl ExactSizeIterator<Item = (K, u64)>,
) -> Result<S::Ok, S::Error> {
    let mut map = serializer.serialize_map(Some(counts.len()))?;
    for (key, count) in counts {
        map.serialize_entry(&key, &count)?;
    }
    map.end()
}

/// Scores by square, in the order given (reading order):
/// `{"a3": -8, "b3": 0, "c3": 9}`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scores(pub Vec<(Square, i64)>);

impl Serialize for Scores {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (square, score) in &self.0 {
            map.serialize_entry(square, score)?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tictactoe_engine::{Board, Player};

    #[test]
    fn one_spelling_each() {
        let at = line(&Located::new(Some(Square::new(1, 2))));
        assert_eq!(at, r#"{"move":"c2","row":1,"col":2}"#);
        assert_eq!(
            line(&Located::new(None)),
            r#"{"move":null,"row":null,"col":null}"#
        );
        let tally = Tally {
            x_wins: 3,
            o_wins: 0,
            draw: 7,
        };
        assert_eq!(line(&tally), r#"{"x-wins":3,"o-wins":0,"draw":7}"#);
        let standing = StandingTally {
            win: 1,
            loss: 2,
            draw: 0,
        };
        assert_eq!(line(&standing), r#"{"win":1,"loss":2,"draw":0}"#);
        let scores = Scores(vec![(Square::new(2, 0), -8), (Square::new(0, 2), 9)]);
        assert_eq!(line(&scores), r#"{"a3":-8,"c1":9}"#, "in the order given");
        let board: Board = "xxx/oo./...".parse().unwrap();
        assert_eq!(line(&board.status()), r#""x-wins""#);
        assert_eq!(line(&Player::O), r#""o""#);
    }
}

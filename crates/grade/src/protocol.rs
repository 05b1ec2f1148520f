//! The line protocol a student's program speaks: one request line in, one
//! answer line out.
//!
//! A request is a board in the game's notation, a space, and what is
//! asked: `o.x/x.x/.oo best` or `o.x/x.x/.oo scores` (a program that
//! answers only one kind of question may read the first word and ignore
//! the rest). The answer is one line:
//!
//! - to `best`, a move: `ROW COL`, 0-based as GeeksforGeeks prints it
//!   (`2 2`, also `2,2`, `(2, 2)` or `ROW: 2 COL: 2`), or a square as the
//!   game names it (`c3`);
//! - to `scores`, every legal move's score: squares and scores in pairs
//!   (`b1 -10 b2 10 a3 -10`), or nine numbers in reading order with
//!   anything at all for the taken squares (`_ -10 _ _ 10 _ -10 _ _`);
//! - either may end with `calls N`, the number of calls the program's
//!   minimax made (freeCodeCamp's function-call counter).

use std::fmt;

use tictactoe_engine::{Board, Square, read_row_col};

use tictactoe_game::text::count;

/// What the grader asks about each position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Ask {
    /// The best move.
    #[default]
    Best,
    /// Every legal move's score.
    Scores,
}

impl Ask {
    /// Both, the default first.
    pub const ALL: [Ask; 2] = [Ask::Best, Ask::Scores];

    /// The word of the request, and of `--ask`: `best` or `scores`.
    pub const fn name(self) -> &'static str {
        match self {
            Ask::Best => "best",
            Ask::Scores => "scores",
        }
    }
}

/// The request line for `board` (without its newline).
///
/// ```
/// use tictactoe_grade::protocol::{Ask, request};
///
/// let board = "o.x/x.x/.oo".parse().unwrap();
/// assert_eq!(request(&board, Ask::Scores), "o.x/x.x/.oo scores");
/// ```
pub fn request(board: &Board, ask: Ask) -> String {
    format!("{board} {}", ask.name())
}

/// How an answer wrote what it said.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Form {
    /// `ROW COL`, 0-based.
    RowCol,
    /// A square such as `c3`.
    Square,
    /// Squares and scores in pairs.
    Pairs,
    /// One number per square, in reading order.
    Reading,
}

/// What an answer said, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Said {
    /// A move, which may be off the board or on a taken square.
    Move {
        /// Its row, 0-based, as written (maybe off the board).
        row: i64,
        /// Its column, 0-based, as written.
        col: i64,
    },
    /// Scores for squares: every square the answer scored, in its order.
    Scores(Vec<(Square, i64)>),
}

/// One answer line, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// What it said.
    pub said: Said,
    /// How it wrote it.
    pub form: Form,
    /// Its `calls N`, if it ended with one.
    pub calls: Option<u64>,
}

impl Answer {
    /// The move it names, when that is a square of `board` (taken or not).
    pub fn square(&self, board: &Board) -> Option<Square> {
        let Said::Move { row, col } = self.said else {
            return None;
        };
        let size = i64::from(board.size());
        ((0..size).contains(&row) && (0..size).contains(&col))
            .then(|| Square::new(row as u8, col as u8))
    }

    /// Its score for `square`, if it gave one.
    pub fn score(&self, square: Square) -> Option<i64> {
        match &self.said {
            Said::Scores(scores) => scores
                .iter()
                .find(|(scored, _)| *scored == square)
                .map(|&(_, score)| score),
            Said::Move { .. } => None,
        }
    }
}

/// An answer that could not be read, and what was expected instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unreadable {
    /// What was wrong with it, for people.
    pub why: String,
}

impl fmt::Display for Unreadable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.why)
    }
}

/// What a move answer looks like, for messages.
pub const MOVE_EXAMPLE: &str = "a move such as `2 2` (ROW COL, 0-based) or `c3`";

/// What a scores answer looks like, for messages.
pub const SCORES_EXAMPLE: &str =
    "scores such as `b1 -10 b2 10 a3 -10`, or nine numbers in reading order";

/// Reads an answer to `ask` about `board`.
///
/// ```
/// use tictactoe_grade::protocol::{Ask, Form, Said, read_answer};
///
/// let board = "xox/oox/...".parse().unwrap();
/// let answer = read_answer("ROW: 2 COL: 2", Ask::Best, &board).unwrap();
/// assert_eq!((answer.said, answer.form), (Said::Move { row: 2, col: 2 }, Form::RowCol));
/// let answer = read_answer("c3 calls 4", Ask::Best, &board).unwrap();
/// assert_eq!((answer.form, answer.calls), (Form::Square, Some(4)));
/// let answer = read_answer("x o x o o x -10 0 10", Ask::Scores, &board).unwrap();
/// assert_eq!(answer.form, Form::Reading);
/// assert!(read_answer("thinking...", Ask::Best, &board).is_err());
/// ```
pub fn read_answer(line: &str, ask: Ask, board: &Board) -> Result<Answer, Unreadable> {
    let cleaned: String = line
        .chars()
        .map(|ch| match ch {
            '(' | ')' | '[' | ']' | '{' | '}' | ',' | ':' | ';' => ' ',
            ch => ch,
        })
        .collect();
    let mut words: Vec<&str> = cleaned.split_whitespace().collect();
    let calls = take_calls(&mut words)?;
    let (said, form) = match ask {
        Ask::Best => read_move(&words, board)?,
        Ask::Scores => read_scores(&words, board)?,
    };
    Ok(Answer { said, form, calls })
}

/// Takes `calls N` off the end of the words.
fn take_calls(words: &mut Vec<&str>) -> Result<Option<u64>, Unreadable> {
    let at = words
        .iter()
        .rposition(|word| word.eq_ignore_ascii_case("calls"));
    let Some(at) = at else { return Ok(None) };
    let count = match &words[at + 1..] {
        [count] => count.parse::<u64>().ok(),
        _ => None,
    };
    let Some(count) = count else {
        return Err(Unreadable {
            why: "not a count of calls: `calls` ends the line, with one count, such as `calls 9`"
                .into(),
        });
    };
    words.truncate(at);
    Ok(Some(count))
}

/// A move: `ROW COL` (with GeeksforGeeks' `ROW:` and `COL:` allowed) or a square.
fn read_move(words: &[&str], board: &Board) -> Result<(Said, Form), Unreadable> {
    // The engine's one reader of `ROW COL`, which the game's quiz uses too.
    if let Some((row, col)) = read_row_col(&words.join(" ")) {
        return Ok((Said::Move { row, col }, Form::RowCol));
    }
    let words: Vec<&str> = words
        .iter()
        .copied()
        .filter(|word| !word.eq_ignore_ascii_case("row") && !word.eq_ignore_ascii_case("col"))
        .collect();
    match words.as_slice() {
        [_, _] => Err(not_a_move()),
        [square] => match on_board(square, board) {
            Some(square) => Ok((
                Said::Move {
                    row: i64::from(square.row),
                    col: i64::from(square.col),
                },
                Form::Square,
            )),
            None if square.parse::<i64>().is_ok() => Err(Unreadable {
                why: "one number: give ROW COL (0-based) or a square (freeCodeCamp's index 4 \
                      is `1 1`, or b2)"
                    .into(),
            }),
            None => Err(not_a_move()),
        },
        [] => Err(Unreadable {
            why: format!("an empty line: expected {MOVE_EXAMPLE}"),
        }),
        _ => Err(not_a_move()),
    }
}

fn not_a_move() -> Unreadable {
    Unreadable {
        why: format!("not a move: expected {MOVE_EXAMPLE}"),
    }
}

/// Scores: pairs of a square and a number, or one word per square in reading order.
fn read_scores(words: &[&str], board: &Board) -> Result<(Said, Form), Unreadable> {
    let cells = usize::from(board.size()) * usize::from(board.size());
    let number = |word: &str| word.trim_start_matches('+').parse::<i64>().ok();
    if words.len() == cells {
        let mut scores = Vec::new();
        for (index, word) in words.iter().enumerate() {
            let square = Square::from_index(index, board.size());
            if board.get(square).is_some() {
                continue;
            }
            let Some(score) = number(word) else {
                return Err(Unreadable {
                    why: format!(
                        "not a number for the empty square {square} (`{word}`): expected \
                         {SCORES_EXAMPLE}"
                    ),
                });
            };
            scores.push((square, score));
        }
        return Ok((Said::Scores(scores), Form::Reading));
    }
    if words.is_empty() || !words.len().is_multiple_of(2) {
        return Err(Unreadable {
            why: format!(
                "not scores ({}): expected {SCORES_EXAMPLE}",
                count(words.len() as u64, "word", "words")
            ),
        });
    }
    let mut scores = Vec::new();
    for pair in words.chunks(2) {
        let square = on_board(pair[0], board);
        match (square, number(pair[1])) {
            (Some(square), Some(score)) => scores.push((square, score)),
            _ => {
                return Err(Unreadable {
                    why: format!(
                        "not a square and its score (`{} {}`): expected {SCORES_EXAMPLE}",
                        pair[0], pair[1]
                    ),
                });
            }
        }
    }
    Ok((Said::Scores(scores), Form::Pairs))
}

/// A square named as the game names it (`b2`), on `board`.
fn on_board(name: &str, board: &Board) -> Option<Square> {
    let square: Square = name.parse().ok()?;
    (square.row < board.size() && square.col < board.size()).then_some(square)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(text: &str) -> Board {
        text.parse().unwrap()
    }

    #[test]
    fn moves_as_students_write_them() {
        let b = board("xox/oox/...");
        for line in [
            "2 2",
            "2,2",
            "(2, 2)",
            "ROW: 2 COL: 2",
            "c3",
            "C3",
            " 2 2 \r",
            "[2, 2]",
        ] {
            let answer = read_answer(line, Ask::Best, &b).unwrap();
            assert_eq!(answer.square(&b), Some(Square::new(2, 2)), "{line}");
        }
        let off = read_answer("3 0", Ask::Best, &b).unwrap();
        assert_eq!(off.said, Said::Move { row: 3, col: 0 });
        assert_eq!(off.square(&b), None, "off the board: read, then wrong");
        for garbage in ["", "4", "best move", "2 2 2", "z9", "calls 3", "2 2 calls"] {
            assert!(read_answer(garbage, Ask::Best, &b).is_err(), "{garbage:?}");
        }
        let counted = read_answer("2 2 calls 4", Ask::Best, &b).unwrap();
        assert_eq!(counted.calls, Some(4));
    }

    #[test]
    fn scores_in_pairs_or_in_reading_order() {
        let b = board("xox/oox/...");
        let expected = vec![
            (Square::new(2, 0), -10),
            (Square::new(2, 1), 0),
            (Square::new(2, 2), 10),
        ];
        let pairs = read_answer("a3 -10 b3 0 c3 +10", Ask::Scores, &b).unwrap();
        assert_eq!(
            (pairs.said, pairs.form),
            (Said::Scores(expected.clone()), Form::Pairs)
        );
        let nine = read_answer("_ _ _ _ _ _ -10 0 10 calls 4", Ask::Scores, &b).unwrap();
        assert_eq!(
            (nine.said, nine.form, nine.calls),
            (Said::Scores(expected), Form::Reading, Some(4))
        );
        for garbage in ["", "a3", "a3 x b3 0", "_ _ _ _ _ _ -10 0 ten", "d9 1"] {
            assert!(
                read_answer(garbage, Ask::Scores, &b).is_err(),
                "{garbage:?}"
            );
        }
    }
}

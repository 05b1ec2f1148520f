//! The notation of game records, in the spirit of chess's PGN. Pure: it reads
//! text and writes text; files and the clock are the caller's.
//!
//! ```text
//! [Game "tictactoe"]
//! [Size "3"]
//! [K "3"]
//! [X "you"]
//! [O "AI perfect"]
//! [Date "2026-11-23"]
//! [Result "1-0"]
//!
//! 1. b2 b1 2. a1 c1 3. c3 1-0
//! ```
//!
//! A record is tag lines, one tag a line (`[Name "value"]`, `\"` and `\\`
//! inside the quotes), a blank line, then the moves in a1 notation, each of
//! X's moves after its number (`2.`), O's optionally after `2...`, and last
//! the result: `1-0` X won, `0-1` O won, `1/2-1/2` a draw, `*` unfinished.
//! The moves may run over several lines. `Game`, `Size`, `K` and `Result`
//! must be there; `Start` (the position the game began from, in the board
//! notation) only when it was not the empty board; `X`, `O` and `Date` are
//! for people, and other tags are kept as they are. Games in one text are
//! separated by blank lines.
//!
//! Reading is strict: every move must be legal, every number the right one,
//! the result the one the moves reach. The first thing wrong is the error,
//! with its line and column; no bytes make it panic.

use std::collections::HashSet;
use std::fmt;

use thiserror::Error;

use crate::board::Board;
use crate::error::{IllegalMove, echo};
use crate::outcome::Outcome;
use crate::player::Player;
use crate::sizes::{MAX_SIZE, MIN_SIZE};
use crate::square::Square;

/// The `Game` tag's value: the only game this notation records.
pub const GAME: &str = "tictactoe";

/// The longest line the writer makes, as PGN keeps its lines under 80 columns.
pub const LINE_WIDTH: usize = 79;

/// A game's result as the `Result` tag and the last token write it: `1-0`
/// (X won), `0-1` (O won), `1/2-1/2` (a draw), or `*` for a game not
/// finished (`None`).
///
/// ```
/// use tictactoe_engine::notation::result_token;
/// use tictactoe_engine::{Outcome, Player};
///
/// assert_eq!(result_token(Some(Outcome::Win(Player::O))), "0-1");
/// assert_eq!(result_token(None), "*");
/// ```
pub const fn result_token(result: Option<Outcome>) -> &'static str {
    match result {
        Some(Outcome::Win(Player::X)) => "1-0",
        Some(Outcome::Win(Player::O)) => "0-1",
        Some(Outcome::Draw) => "1/2-1/2",
        None => "*",
    }
}

/// Every result the notation writes, in the order it lists them.
const RESULTS: [Option<Outcome>; 4] = [
    Some(Outcome::Win(Player::X)),
    Some(Outcome::Win(Player::O)),
    Some(Outcome::Draw),
    None,
];

/// Reads a result token: `Some(None)` for `*`, `None` for no result at all.
fn read_result(token: &str) -> Option<Option<Outcome>> {
    RESULTS
        .into_iter()
        .find(|&result| result_token(result) == token)
}

/// A result in the errors' words: "X won", "O won", "a draw", "unfinished".
const fn result_words(result: Option<Outcome>) -> &'static str {
    match result {
        Some(Outcome::Win(Player::X)) => "X won",
        Some(Outcome::Win(Player::O)) => "O won",
        Some(Outcome::Draw) => "a draw",
        None => "unfinished",
    }
}

/// One recorded game: where it started, its moves (legal, one after the
/// other), and what the tags say about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// Who played X, as the `X` tag names them.
    pub x: Option<String>,
    /// Who played O.
    pub o: Option<String>,
    /// When the game was played, as the `Date` tag has it (`2026-11-23`).
    pub date: Option<String>,
    start: Board,
    moves: Vec<Square>,
    end: Board,
    /// Tags this program does not use, in their order, kept for writing back.
    others: Vec<(String, String)>,
}

impl Record {
    /// The game from `start` with these moves; the first move the board
    /// refuses is the error, with its index.
    pub fn new(start: Board, moves: Vec<Square>) -> Result<Record, (usize, IllegalMove)> {
        let end = moves
            .iter()
            .enumerate()
            .try_fold(start, |board, (i, &mv)| board.play(mv).map_err(|e| (i, e)))?;
        Ok(Record {
            moves,
            end,
            ..Record::empty(start)
        })
    }

    /// A game from `start` with no moves yet.
    pub fn empty(start: Board) -> Record {
        Record {
            x: None,
            o: None,
            date: None,
            start,
            moves: Vec::new(),
            end: start,
            others: Vec::new(),
        }
    }

    /// The same game with the players' names.
    pub fn with_players(mut self, x: impl Into<String>, o: impl Into<String>) -> Record {
        self.x = Some(x.into());
        self.o = Some(o.into());
        self
    }

    /// The same game with its date.
    pub fn with_date(mut self, date: impl Into<String>) -> Record {
        self.date = Some(date.into());
        self
    }

    /// The same game with one more tag of the kind this program does not
    /// read (`[Termination "time"]`), written after the others.
    pub fn with_tag(mut self, name: impl Into<String>, value: impl Into<String>) -> Record {
        self.others.push((name.into(), value.into()));
        self
    }

    /// The position the game started from.
    pub fn start(&self) -> Board {
        self.start
    }

    /// The moves, in order.
    pub fn moves(&self) -> &[Square] {
        &self.moves
    }

    /// The position after the last move.
    pub fn end(&self) -> Board {
        self.end
    }

    /// How the game ended; `None` when it did not (the notation's `*`).
    pub fn result(&self) -> Option<Outcome> {
        self.end.status().outcome()
    }

    /// The tags this program does not use, as they were read.
    pub fn other_tags(&self) -> &[(String, String)] {
        &self.others
    }

    /// The position after the first `plies` moves (0: the start); `None`
    /// beyond the last move.
    pub fn board_after(&self, plies: usize) -> Option<Board> {
        self.moves
            .get(..plies)?
            .iter()
            .try_fold(self.start, |board, &mv| board.play(mv).ok())
    }

    /// The position before each move, with the move: `(board, mv)` in order.
    pub fn steps(&self) -> impl Iterator<Item = (Board, Square)> + '_ {
        self.moves.iter().scan(self.start, |board, &mv| {
            let before = *board;
            *board = board.play(mv).ok()?;
            Some((before, mv))
        })
    }

    /// The number the notation gives move `ply` (0-based in this record),
    /// counted on from the marks of the start as a game would count them:
    /// `2.` for X's second move, `2...` for O's.
    pub fn move_number(&self, ply: usize) -> MoveNumber {
        MoveNumber::of(self.start, ply)
    }
}

/// A move's number in the notation: X's moves are `N.`, O's `N...`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveNumber {
    /// The pair of moves it belongs to, from 1.
    pub number: usize,
    /// Who plays it.
    pub mover: Player,
}

impl MoveNumber {
    /// The number of move `ply` (0-based) of a game from `start`.
    pub fn of(start: Board, ply: usize) -> MoveNumber {
        let played = start.move_count() as usize + ply;
        MoveNumber {
            number: played / 2 + 1,
            mover: if played.is_multiple_of(2) {
                Player::X
            } else {
                Player::O
            },
        }
    }
}

impl fmt::Display for MoveNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dots = if self.mover == Player::X { "." } else { "..." };
        write!(f, "{}{dots}", self.number)
    }
}

/// The record in the notation, ending with a line break.
impl fmt::Display for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&write(self))
    }
}

/// One game in the notation: its tags, a blank line, its moves and result
/// (wrapped at [`LINE_WIDTH`]), ending with a line break.
pub fn write(record: &Record) -> String {
    let start = record.start;
    let mut tags = vec![
        ("Game", GAME.to_string()),
        ("Size", start.size().to_string()),
        ("K", start.k().to_string()),
    ];
    for (name, value) in [("X", &record.x), ("O", &record.o), ("Date", &record.date)] {
        if let Some(value) = value {
            tags.push((name, value.clone()));
        }
    }
    if start.move_count() > 0 {
        tags.push(("Start", start.to_string()));
    }
    tags.push(("Result", result_token(record.result()).to_string()));
    let mut out = String::new();
    for (name, value) in tags
        .iter()
        .map(|(name, value)| (*name, value.as_str()))
        .chain(record.others.iter().map(|(n, v)| (n.as_str(), v.as_str())))
    {
        out.push_str(&format!("[{name} \"{}\"]\n", quoted(value)));
    }
    out.push('\n');
    // Each move with its number, if it has one, stays on one line.
    let mut units: Vec<String> = Vec::with_capacity(record.moves.len() + 1);
    for (ply, mv) in record.moves.iter().enumerate() {
        let number = record.move_number(ply);
        if number.mover == Player::X || ply == 0 {
            units.push(format!("{number} {mv}"));
        } else {
            units.push(mv.to_string());
        }
    }
    units.push(result_token(record.result()).to_string());
    let mut line = String::new();
    for unit in units {
        if !line.is_empty() && line.len() + 1 + unit.len() > LINE_WIDTH {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&unit);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// Games in the notation, a blank line between them.
pub fn write_all<'a>(records: impl IntoIterator<Item = &'a Record>) -> String {
    records
        .into_iter()
        .map(write)
        .collect::<Vec<_>>()
        .join("\n")
}

/// A tag's value between its quotes: `\` and `"` escaped, and control
/// characters (which a tag line cannot hold) as spaces.
fn quoted(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for ch in value.chars() {
        match ch {
            '\\' | '"' => {
                out.push('\\');
                out.push(ch);
            }
            ch if ch.is_control() => out.push(' '),
            ch => out.push(ch),
        }
    }
    out
}

/// What is wrong with a record, and where: one line.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("line {line}, column {column}: {problem}")]
pub struct RecordError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// What is wrong there.
    pub problem: Problem,
}

/// Everything that can be wrong with a record.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Problem {
    /// Bytes that are not UTF-8.
    #[error("bytes that are not UTF-8 text")]
    NotText,
    /// A line where a tag belongs that is not one.
    #[error("expected a tag such as [Game \"tictactoe\"], found {0:?}")]
    NotATag(String),
    /// A tag line broken inside.
    #[error("a tag is [Name \"value\"] on a line of its own: {0}")]
    BadTag(&'static str),
    /// The same tag twice in one game.
    #[error("the tag {0} is given twice")]
    TagTwice(String),
    /// A tag every game must have.
    #[error("the game's tags have no [{0} \"…\"]")]
    MissingTag(&'static str),
    /// Another game than ours.
    #[error("[Game {0:?}]: only tictactoe games can be read")]
    NotOurGame(String),
    /// A size that is no board.
    #[error("[Size {0:?}]: the side of the board is a number from {MIN_SIZE} to {MAX_SIZE}")]
    BadSize(String),
    /// A k that does not fit.
    #[error("[K {value:?}]: {why}")]
    BadK {
        /// The tag's value.
        value: String,
        /// Why it does not fit.
        why: String,
    },
    /// A start position that is no board of the shape.
    #[error("[Start {value:?}]: {why}")]
    BadStart {
        /// The tag's value.
        value: String,
        /// Why it is not a board.
        why: String,
    },
    /// A result tag that is no result.
    #[error("[Result {0:?}]: a result is 1-0, 0-1, 1/2-1/2 or *")]
    BadResultTag(String),
    /// The tags run into the moves.
    #[error("expected a blank line between the tags and the moves, found {0:?}")]
    NoBlankLine(String),
    /// The text ends after the tags.
    #[error("the record ends after its tags: its moves and result are missing")]
    EndAfterTags,
    /// A second set of tags where the moves belong.
    #[error("expected the moves of the game whose tags end at line {0}, found another tag")]
    TagsWithoutMoves(usize),
    /// The moves run out before the result.
    #[error("the moves end without a result: 1-0, 0-1, 1/2-1/2 or *")]
    NoResult,
    /// Something that is neither a move, a number nor a result.
    #[error("expected a move such as b2, a move number or a result, found {0:?}")]
    NotAMove(String),
    /// The wrong number, or none where X's move needs one.
    #[error("expected {expected} before {mover}'s move, found {found:?}")]
    MoveNumber {
        /// The number the move has.
        expected: String,
        /// Whose move it is.
        mover: Player,
        /// What was there.
        found: String,
    },
    /// A number with nothing after it.
    #[error("the move number {0} has no move after it")]
    NumberWithoutMove(String),
    /// A square beyond the board.
    #[error("{square} is off the {size}x{size} board")]
    OffBoard {
        /// The square as written.
        square: String,
        /// The board's side.
        size: u8,
    },
    /// A square already taken.
    #[error("{square} is taken: {mover} cannot play there")]
    Taken {
        /// The square as written.
        square: String,
        /// Whose move it was.
        mover: Player,
    },
    /// A move after the end.
    #[error(
        "{found:?} comes after the end of the game ({}): expected the result {}",
        result_words(Some(*.outcome)),
        result_token(Some(*.outcome))
    )]
    AfterEnd {
        /// What was there.
        found: String,
        /// How the game ended.
        outcome: Outcome,
    },
    /// The result is not what the moves reach.
    #[error("the result {} does not match the moves, which end {}", result_token(*.given), ending(*.actual))]
    WrongResult {
        /// The result written.
        given: Option<Outcome>,
        /// What the moves reach.
        actual: Option<Outcome>,
    },
    /// The moves' result and the `Result` tag disagree.
    #[error(
        "the result {} does not match the tag [Result \"{}\"]",
        result_token(*.given),
        result_token(*.tag)
    )]
    TagDisagrees {
        /// The result after the moves.
        given: Option<Outcome>,
        /// The tag's result.
        tag: Option<Outcome>,
    },
    /// More after the result on its line.
    #[error("expected nothing after the result, found {0:?}")]
    AfterResult(String),
    /// The next game starts without a blank line.
    #[error("expected a blank line after the game's result, found {0:?}")]
    NoBlankAfterGame(String),
}

/// How the moves end, for [`Problem::WrongResult`].
fn ending(result: Option<Outcome>) -> String {
    match result {
        None => "with the game unfinished (*)".to_string(),
        done => format!("with {} ({})", result_words(done), result_token(done)),
    }
}

/// Reads every game of a records text given as bytes; bytes that are not
/// UTF-8 are an error at their place.
pub fn read(bytes: &[u8]) -> Result<Vec<Record>, RecordError> {
    match std::str::from_utf8(bytes) {
        Ok(text) => read_str(text),
        Err(error) => {
            let good = &bytes[..error.valid_up_to()];
            // The valid part is text, so its lines and characters can be counted.
            let good = std::str::from_utf8(good).unwrap_or_default();
            let line = good.matches('\n').count() + 1;
            let column = good.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
            Err(RecordError {
                line,
                column,
                problem: Problem::NotText,
            })
        }
    }
}

/// Reads every game of a records text, in order.
pub fn read_str(text: &str) -> Result<Vec<Record>, RecordError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let lines: Vec<&str> = text
        .split('\n')
        .map(|line| line.strip_suffix('\r').unwrap_or(line))
        .collect();
    let mut records = Vec::new();
    let mut at = 0;
    loop {
        while lines.get(at).is_some_and(|line| is_blank(line)) {
            at += 1;
        }
        if at >= lines.len() {
            return Ok(records);
        }
        let (record, next) = Reader { lines: &lines }.game(at)?;
        records.push(record);
        at = next;
    }
}

fn is_blank(line: &str) -> bool {
    line.trim().is_empty()
}

/// A line's characters with their 1-based columns.
fn columns(line: &str) -> impl Iterator<Item = (usize, char)> + '_ {
    line.chars().enumerate().map(|(i, ch)| (i + 1, ch))
}

/// The 1-based column of a byte offset in `line`.
fn column_of(line: &str, byte: usize) -> usize {
    line[..byte].chars().count() + 1
}

/// A tag as read, with where its value starts.
struct Tag {
    name: String,
    value: String,
    line: usize,
    column: usize,
}

/// What the tags of one game say, checked.
struct Header {
    start: Board,
    result: Option<Outcome>,
    x: Option<String>,
    o: Option<String>,
    date: Option<String>,
    others: Vec<(String, String)>,
}

struct Reader<'a> {
    lines: &'a [&'a str],
}

impl Reader<'_> {
    fn error(line: usize, column: usize, problem: Problem) -> RecordError {
        RecordError {
            line,
            column,
            problem,
        }
    }

    /// The game whose first tag is at index `first`, and the index after it.
    fn game(&self, first: usize) -> Result<(Record, usize), RecordError> {
        let mut tags: Vec<Tag> = Vec::new();
        // The names so far, to find a second one at once: a game of many
        // tags is read in time linear in its tags.
        let mut names = HashSet::new();
        let mut at = first;
        while let Some(line) = self.lines.get(at).filter(|line| !is_blank(line)) {
            if !tags.is_empty() && !line.starts_with('[') {
                return Err(Self::error(
                    at + 1,
                    1,
                    Problem::NoBlankLine(echo(line).into_owned()),
                ));
            }
            let tag = read_tag(line, at + 1)?;
            if !names.insert(tag.name.clone()) {
                return Err(Self::error(at + 1, 1, Problem::TagTwice(tag.name)));
            }
            tags.push(tag);
            at += 1;
        }
        let last_tag = at; // 1-based number of the last tag line
        let end_of_tags = || {
            let line = self.lines[last_tag - 1];
            Self::error(last_tag, line.chars().count() + 1, Problem::EndAfterTags)
        };
        while self.lines.get(at).is_some_and(|line| is_blank(line)) {
            at += 1;
        }
        let Some(&first_moves) = self.lines.get(at) else {
            return Err(end_of_tags());
        };
        let header = header(tags, first + 1)?;
        if first_moves.trim_start().starts_with('[') {
            let column = column_of(
                first_moves,
                first_moves.len() - first_moves.trim_start().len(),
            );
            return Err(Self::error(
                at + 1,
                column,
                Problem::TagsWithoutMoves(last_tag),
            ));
        }
        self.moves(header, at)
    }

    /// The moves and result from line index `at` on, and the index after the game.
    fn moves(&self, header: Header, mut at: usize) -> Result<(Record, usize), RecordError> {
        let mut board = header.start;
        let mut moves = Vec::new();
        // A number read, waiting for its move: its text, line and column.
        let mut number: Option<(String, usize, usize)> = None;
        loop {
            let Some(&line) = self.lines.get(at).filter(|line| !is_blank(line)) else {
                // The moves ran out: point just after the last thing read.
                let (line_no, column) = match at.checked_sub(1).map(|i| (i, self.lines[i])) {
                    Some((i, line)) => (i + 1, line.trim_end().chars().count() + 1),
                    None => (1, 1),
                };
                let problem = match number {
                    Some((text, _, _)) => Problem::NumberWithoutMove(text),
                    None => Problem::NoResult,
                };
                return Err(Self::error(line_no, column, problem));
            };
            let line_no = at + 1;
            for (start, token) in tokens(line) {
                let column = column_of(line, start);
                let here = |problem| Self::error(line_no, column, problem);
                if let Some(given) = read_result(token) {
                    if let Some((text, line, column)) = number {
                        return Err(Self::error(line, column, Problem::NumberWithoutMove(text)));
                    }
                    let actual = board.status().outcome();
                    if given != actual {
                        return Err(here(Problem::WrongResult { given, actual }));
                    }
                    if given != header.result {
                        return Err(here(Problem::TagDisagrees {
                            given,
                            tag: header.result,
                        }));
                    }
                    let rest = &line[start + token.len()..];
                    if let Some(&(offset, more)) = tokens(rest).first() {
                        return Err(Self::error(
                            line_no,
                            column_of(line, start + token.len() + offset),
                            Problem::AfterResult(echo(more).into_owned()),
                        ));
                    }
                    if let Some(next) = self.lines.get(at + 1).filter(|line| !is_blank(line)) {
                        return Err(Self::error(
                            at + 2,
                            1,
                            Problem::NoBlankAfterGame(echo(next).into_owned()),
                        ));
                    }
                    let record = Record {
                        x: header.x,
                        o: header.o,
                        date: header.date,
                        start: header.start,
                        moves,
                        end: board,
                        others: header.others,
                    };
                    return Ok((record, at + 1));
                }
                if let Some(outcome) = board.status().outcome() {
                    return Err(here(Problem::AfterEnd {
                        found: echo(token).into_owned(),
                        outcome,
                    }));
                }
                let expected = MoveNumber::of(header.start, moves.len());
                let (square, square_at) = match split_number(token) {
                    Some((digits, dots, rest)) => {
                        let written = &token[..digits.len() + dots.len()];
                        let right = digits.parse::<usize>().ok() == Some(expected.number)
                            && (dots == ".") == (expected.mover == Player::X);
                        if !right || number.is_some() {
                            return Err(here(Problem::MoveNumber {
                                expected: expected.to_string(),
                                mover: expected.mover,
                                found: echo(written).into_owned(),
                            }));
                        }
                        if rest.is_empty() {
                            number = Some((written.to_string(), line_no, column));
                            continue;
                        }
                        (rest, start + written.len())
                    }
                    None => (token, start),
                };
                let square_column = column_of(line, square_at);
                let mv = read_square(square, board.size())
                    .map_err(|problem| Self::error(line_no, square_column, problem))?;
                if expected.mover == Player::X && number.is_none() && square_at == start {
                    return Err(here(Problem::MoveNumber {
                        expected: expected.to_string(),
                        mover: Player::X,
                        found: echo(token).into_owned(),
                    }));
                }
                number = None;
                board = match board.play(mv) {
                    Ok(next) => next,
                    Err(_) => {
                        return Err(Self::error(
                            line_no,
                            square_column,
                            Problem::Taken {
                                square: echo(square).into_owned(),
                                mover: expected.mover,
                            },
                        ));
                    }
                };
                moves.push(mv);
            }
            at += 1;
        }
    }
}

/// The words of a line of moves, each with its byte offset.
fn tokens(line: &str) -> Vec<(usize, &str)> {
    let mut found = Vec::new();
    let mut start = None;
    for (at, ch) in line.char_indices() {
        if ch.is_whitespace() {
            if let Some(from) = start.take() {
                found.push((from, &line[from..at]));
            }
        } else if start.is_none() {
            start = Some(at);
        }
    }
    if let Some(from) = start {
        found.push((from, &line[from..]));
    }
    found
}

/// A move number at the start of a token: its digits, its dots (`.` or
/// `...`) and what follows; `None` when the token does not start with digits
/// and dots.
fn split_number(token: &str) -> Option<(&str, &str, &str)> {
    let digits_end = token
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(token.len());
    if digits_end == 0 {
        return None;
    }
    let after = &token[digits_end..];
    let dots = if after.starts_with("...") {
        "..."
    } else if after.starts_with('.') {
        "."
    } else {
        return None;
    };
    Some((&token[..digits_end], dots, &after[dots.len()..]))
}

/// A square such as `b2` on a board of side `size`, with at most two
/// annotation marks after it (`b2?`, `b2??`, `b2!`), which are not kept.
fn read_square(token: &str, size: u8) -> Result<Square, Problem> {
    let square = token.trim_end_matches(['?', '!']);
    let marks = token.len() - square.len();
    let not_a_move = || Problem::NotAMove(echo(token).into_owned());
    let mut chars = square.chars();
    let letter = chars.next().filter(char::is_ascii_alphabetic);
    let digits = chars.as_str();
    let (Some(letter), true) = (
        letter,
        marks <= 2
            && !digits.is_empty()
            && digits.len() <= 3
            && digits.chars().all(|c| c.is_ascii_digit()),
    ) else {
        return Err(not_a_move());
    };
    let col = u32::from(letter.to_ascii_lowercase()) - u32::from('a');
    let row: u32 = digits.parse().map_err(|_| not_a_move())?;
    if col >= u32::from(size) || row == 0 || row > u32::from(size) {
        return Err(Problem::OffBoard {
            square: square.to_string(),
            size,
        });
    }
    Ok(Square::new((row - 1) as u8, col as u8))
}

/// A tag line: `[Name "value"]`.
fn read_tag(line: &str, line_no: usize) -> Result<Tag, RecordError> {
    let error = |column, problem| RecordError {
        line: line_no,
        column,
        problem,
    };
    let bad = |column, why| error(column, Problem::BadTag(why));
    let mut chars = columns(line).peekable();
    match chars.next() {
        Some((_, '[')) => {}
        _ => return Err(error(1, Problem::NotATag(echo(line).into_owned()))),
    }
    let mut name = String::new();
    while let Some(&(_, ch)) = chars.peek() {
        if !(ch.is_ascii_alphanumeric() || ch == '_') {
            break;
        }
        name.push(ch);
        chars.next();
    }
    if !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return Err(bad(2, "the name is letters, digits or _, from a letter"));
    }
    let mut spaced = false;
    while let Some(&(_, ' ' | '\t')) = chars.peek() {
        spaced = true;
        chars.next();
    }
    let (quote_column, quote) = chars.next().unwrap_or((line.chars().count() + 1, '\n'));
    if !spaced || quote != '"' {
        return Err(bad(
            quote_column,
            "a space after the name, then the value in double quotes",
        ));
    }
    let mut value = String::new();
    loop {
        match chars.next() {
            None => {
                return Err(bad(
                    line.chars().count() + 1,
                    "the value's closing quote is missing",
                ));
            }
            Some((_, '"')) => break,
            Some((column, '\\')) => match chars.next() {
                Some((_, ch @ ('"' | '\\'))) => value.push(ch),
                _ => return Err(bad(column, "inside quotes only \\\" and \\\\ are escapes")),
            },
            Some((column, ch)) if ch.is_control() => {
                return Err(bad(column, "a value holds no control characters"));
            }
            Some((_, ch)) => value.push(ch),
        }
    }
    match chars.next() {
        Some((_, ']')) => {}
        Some((column, _)) => return Err(bad(column, "expected ] after the value")),
        None => return Err(bad(line.chars().count() + 1, "expected ] after the value")),
    }
    if let Some((column, _)) = chars.find(|(_, ch)| !ch.is_whitespace()) {
        return Err(bad(column, "nothing may follow the tag on its line"));
    }
    Ok(Tag {
        name,
        value,
        line: line_no,
        column: quote_column,
    })
}

/// The game's tags checked: the shape, the start, the result; the names
/// and the date as given; the rest kept. `first_line` is where the tags begin.
fn header(tags: Vec<Tag>, first_line: usize) -> Result<Header, RecordError> {
    let find = |name: &'static str| -> Result<&Tag, RecordError> {
        tags.iter().find(|tag| tag.name == name).ok_or(RecordError {
            line: first_line,
            column: 1,
            problem: Problem::MissingTag(name),
        })
    };
    let at = |tag: &Tag, problem| RecordError {
        line: tag.line,
        column: tag.column,
        problem,
    };
    let game = find("Game")?;
    if game.value != GAME {
        return Err(at(
            game,
            Problem::NotOurGame(echo(&game.value).into_owned()),
        ));
    }
    let size_tag = find("Size")?;
    let size = size_tag
        .value
        .parse::<u8>()
        .ok()
        .filter(|size| (MIN_SIZE..=MAX_SIZE).contains(size) && size_tag.value.len() == 1)
        .ok_or_else(|| {
            at(
                size_tag,
                Problem::BadSize(echo(&size_tag.value).into_owned()),
            )
        })?;
    let k_tag = find("K")?;
    let bad_k = |why: String| {
        at(
            k_tag,
            Problem::BadK {
                value: echo(&k_tag.value).into_owned(),
                why,
            },
        )
    };
    let k = match k_tag.value.parse::<u8>() {
        Ok(k) if k_tag.value.chars().all(|c| c.is_ascii_digit()) => k,
        _ => return Err(bad_k("k is a number".to_string())),
    };
    let empty = Board::empty(size, k).map_err(|error| bad_k(error.to_string()))?;
    let start = match tags.iter().find(|tag| tag.name == "Start") {
        None => empty,
        Some(tag) => {
            let bad_start = |why: String| {
                at(
                    tag,
                    Problem::BadStart {
                        value: echo(&tag.value).into_owned(),
                        why,
                    },
                )
            };
            let board =
                Board::parse_with_k(&tag.value, Some(k)).map_err(|e| bad_start(e.to_string()))?;
            if board.size() != size {
                return Err(bad_start(format!(
                    "a {0}x{0} board, but [Size \"{size}\"]",
                    board.size()
                )));
            }
            board
        }
    };
    let result_tag = find("Result")?;
    let result = read_result(&result_tag.value).ok_or_else(|| {
        at(
            result_tag,
            Problem::BadResultTag(echo(&result_tag.value).into_owned()),
        )
    })?;
    let given = |name: &str| {
        tags.iter()
            .find(|tag| tag.name == name)
            .map(|tag| tag.value.clone())
    };
    let (x, o, date) = (given("X"), given("O"), given("Date"));
    let known = ["Game", "Size", "K", "X", "O", "Date", "Start", "Result"];
    let others = tags
        .into_iter()
        .filter(|tag| !known.contains(&tag.name.as_str()))
        .map(|tag| (tag.name, tag.value))
        .collect();
    Ok(Header {
        start,
        result,
        x,
        o,
        date,
        others,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const ISSUE: &str = "[Game \"tictactoe\"]\n[Size \"3\"]\n[K \"3\"]\n[X \"you\"]\n[O \"AI perfect\"]\n[Date \"2026-11-23\"]\n[Result \"1-0\"]\n\n1. b2 b1 2. a1 c1 3. c3 1-0\n";

    #[test]
    fn the_issues_example_reads_and_writes_back_the_same() {
        let records = read_str(ISSUE).unwrap();
        assert_eq!(records.len(), 1);
        let record = &records[0];
        let squares: Vec<String> = record.moves().iter().map(Square::to_string).collect();
        assert_eq!(squares, ["b2", "b1", "a1", "c1", "c3"]);
        assert_eq!(record.result(), Some(Outcome::Win(Player::X)));
        assert_eq!(record.x.as_deref(), Some("you"));
        assert_eq!(write(record), ISSUE);
    }

    #[test]
    fn a_game_from_a_given_board_numbers_its_moves_on() {
        let start: Board = "x../.o./..x".parse().unwrap();
        let moves = vec![Square::new(0, 2), Square::new(0, 1)];
        let record = Record::new(start, moves).unwrap();
        let text = write(&record);
        assert!(text.contains("[Start \"x../.o./..x\"]\n"), "{text}");
        assert!(text.ends_with("\n\n2... c1 3. b1 *\n"), "{text}");
        assert_eq!(read_str(&text).unwrap(), vec![record]);
    }

    #[test]
    fn long_games_wrap_and_names_are_quoted() {
        let start = Board::empty(7, 4).unwrap();
        // Squares spread over the board, as long as the game lasts.
        let mut board = start;
        let mut moves = Vec::new();
        for mv in (0..49).map(|i| Square::from_index(i * 10 % 49, 7)) {
            if board.status().is_over() {
                break;
            }
            board = board.play(mv).unwrap();
            moves.push(mv);
        }
        assert!(moves.len() > 20, "{board}");
        let record = Record::new(start, moves)
            .unwrap()
            .with_players("a \"quoted\" \\ name", "tab\there");
        let text = write(&record);
        assert!(text.lines().all(|line| line.chars().count() <= LINE_WIDTH));
        assert!(text.contains(r#"[X "a \"quoted\" \\ name"]"#), "{text}");
        let back = read_str(&text).unwrap();
        assert_eq!(back[0].moves(), record.moves());
        assert_eq!(back[0].o.as_deref(), Some("tab here"));
    }

    fn problem(text: &str) -> String {
        read_str(text).unwrap_err().to_string()
    }

    #[test]
    fn every_mistake_is_named_with_its_place() {
        let tags = "[Game \"tictactoe\"]\n[Size \"3\"]\n[K \"3\"]\n[Result \"*\"]\n\n";
        assert_eq!(
            problem(&format!("{tags}1. b2 b2 *\n")),
            "line 6, column 7: b2 is taken: O cannot play there"
        );
        assert_eq!(
            problem(&format!("{tags}1. b2 d1 *\n")),
            "line 6, column 7: d1 is off the 3x3 board"
        );
        assert_eq!(
            problem(&format!("{tags}1. b2 a1 b1 *\n")),
            "line 6, column 10: expected 2. before X's move, found \"b1\""
        );
        assert_eq!(
            problem(&format!("{tags}1. b2 a1 3. b1 *\n")),
            "line 6, column 10: expected 2. before X's move, found \"3.\""
        );
        assert_eq!(
            problem(&format!("{tags}1. b2 a1\n")),
            "line 6, column 9: the moves end without a result: 1-0, 0-1, 1/2-1/2 or *"
        );
        assert_eq!(
            problem(&format!("{tags}1. b2 a1 1-0\n")),
            "line 6, column 10: the result 1-0 does not match the moves, which end with the game unfinished (*)"
        );
        assert_eq!(
            problem("[Game \"tictactoe\"]\n[Size \"3\"]\n"),
            "line 2, column 11: the record ends after its tags: its moves and result are missing"
        );
        assert_eq!(
            problem("hello\n"),
            "line 1, column 1: expected a tag such as [Game \"tictactoe\"], found \"hello\""
        );
        assert_eq!(
            problem("[Game \"chess\"]\n[Size \"3\"]\n[K \"3\"]\n[Result \"*\"]\n\n*\n"),
            "line 1, column 7: [Game \"chess\"]: only tictactoe games can be read"
        );
        assert_eq!(
            read(b"[Game \"tic\xfftactoe\"]").unwrap_err().to_string(),
            "line 1, column 11: bytes that are not UTF-8 text"
        );
    }
}

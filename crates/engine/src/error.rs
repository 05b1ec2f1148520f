//! Everything that can be wrong with a board, a position or a move, and
//! how much of a bad input an error quotes.

use std::borrow::Cow;

use thiserror::Error;

use super::player::Player;
use super::sizes::{MAX_SIZE, MIN_SIZE};

/// Most characters of a bad input echoed back in an error, so one huge line
/// cannot flood the output.
pub const ECHO_LIMIT: usize = 120;

/// A bad input as an error quotes it: at most [`ECHO_LIMIT`] characters,
/// then `…` if there was more.
///
/// ```
/// use tictactoe_engine::{ECHO_LIMIT, echo};
///
/// assert_eq!(echo("b9"), "b9");
/// let long = "x".repeat(ECHO_LIMIT + 1);
/// assert_eq!(echo(&long), format!("{}…", &long[..ECHO_LIMIT]));
/// ```
pub fn echo(input: &str) -> Cow<'_, str> {
    match input.char_indices().nth(ECHO_LIMIT) {
        Some((cut, _)) => Cow::Owned(format!("{}…", &input[..cut])),
        None => Cow::Borrowed(input),
    }
}

/// A board shape the engine does not play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum GeometryError {
    /// The side is outside [`MIN_SIZE`]..=[`MAX_SIZE`].
    #[error("board size {0} is not supported: use {MIN_SIZE} to {MAX_SIZE}")]
    Size(u8),
    /// K is outside [`MIN_SIZE`]..=size.
    #[error("{}", k_problem(*.size, *.k))]
    K {
        /// Side of the board.
        size: u8,
        /// The requested run length.
        k: u8,
    },
}

/// What is wrong with k on a board of side `size`, and what would do.
fn k_problem(size: u8, k: u8) -> String {
    if k < MIN_SIZE {
        format!("k={k} is too small: at least {MIN_SIZE} in a row must win")
    } else if size == MIN_SIZE {
        format!(
            "k={k} does not fit a {size}x{size} board, where {size} in a row wins: {k} in a row needs a board of {k}x{k} or bigger"
        )
    } else if k > MAX_SIZE {
        format!(
            "k={k} does not fit any board: they go up to {MAX_SIZE}x{MAX_SIZE}, so k is {MIN_SIZE} to {MAX_SIZE}"
        )
    } else {
        format!(
            "k={k} does not fit a {size}x{size} board: use k from {MIN_SIZE} to {size}, or a board of {k}x{k} or bigger"
        )
    }
}

/// The cell counts of the boards the engine plays, in words: "9, 16, 25,
/// 36, 49 or 64 (3x3 to 8x8)".
fn cell_counts() -> String {
    let counts: Vec<String> = (MIN_SIZE..=MAX_SIZE)
        .map(|size| (u32::from(size) * u32::from(size)).to_string())
        .collect();
    let (last, rest) = counts.split_last().expect("at least one size");
    format!(
        "{} or {last} ({MIN_SIZE}x{MIN_SIZE} to {MAX_SIZE}x{MAX_SIZE})",
        rest.join(", ")
    )
}

/// Text that is not a board in the notation.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParseError {
    /// Nothing but whitespace.
    #[error("empty board: expected 9 cells such as xo./.x./..o")]
    Empty,
    /// A character that is neither a mark, an empty cell nor a row separator.
    #[error(
        "unexpected character {found:?} at position {position}: cells are x, o or . (also _, - or the cell's number from 0), rows may be separated by / and cells by spaces"
    )]
    BadCharacter {
        /// The offending character.
        found: char,
        /// 1-based character position in the input.
        position: usize,
    },
    /// A digit that is not the index of its cell: freeCodeCamp numbers an
    /// empty cell by its index (`o1x/x4x/6oo`).
    #[error(
        "unexpected digit {found:?} at position {position}: a number stands for the empty cell it numbers, from 0 in reading order, and this is cell {index}"
    )]
    Numbered {
        /// The digit.
        found: char,
        /// 1-based character position in the input.
        position: usize,
        /// The cell's index, from 0 in reading order.
        index: usize,
    },
    /// Numbered cells on a board bigger than 3x3, where an index may take
    /// two digits.
    #[error(
        "numbered empty cells are freeCodeCamp's 3x3 notation; on {size}x{size} write . for an empty cell"
    )]
    NumberedBig {
        /// Side of the board given.
        size: u8,
    },
    /// The number of cells is not a square board the engine plays.
    #[error("{0} cells is not a board: expected {counts}", counts = cell_counts())]
    CellCount(usize),
    /// A board of another size than the one asked for.
    #[error("this is a {size}x{size} board, not {wanted}x{wanted}")]
    WrongSize {
        /// Side of the board given.
        size: u8,
        /// Side asked for.
        wanted: u8,
    },
    /// Rows separated by `/` of unequal length.
    #[error("row {row} has {found} cells but a {size}x{size} board needs {size} per row")]
    RowLength {
        /// 1-based row number.
        row: usize,
        /// Cells found in that row.
        found: usize,
        /// Side of the board implied by the cell count.
        size: usize,
    },
}

/// A well-formed board that cannot arise in a real game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum InvalidPosition {
    /// X moves first, so X has as many marks as O or one more.
    #[error(
        "impossible position: X has {x} marks and O has {o}; X moves first, so X must have as many as O or one more"
    )]
    Counts {
        /// Marks of X.
        x: u32,
        /// Marks of O.
        o: u32,
    },
    /// Only one side can complete a line: the game stops at the first.
    #[error("impossible position: both X and O have a line, but the game ends at the first")]
    BothWon,
    /// The loser moved after the winner's line was complete.
    #[error("impossible position: {winner} has a line but {loser} moved after it", loser = winner.other())]
    MoveAfterWin {
        /// The side with a line.
        winner: Player,
    },
    /// Lines that no single last move could have completed together.
    #[error("impossible position: {winner} has lines that no single last move completes")]
    SeparateLines {
        /// The side with the lines.
        winner: Player,
    },
    /// A cell given to both sides (only bit masks can say that).
    #[error("impossible position: a cell holds both an X and an O")]
    SharedCell,
    /// Marks beyond the board's cells (only bit masks can say that).
    #[error("impossible position: marks outside the {size}x{size} board")]
    OffBoard {
        /// Side of the board.
        size: u8,
    },
}

/// A board argument that could not be used.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BoardError {
    /// Not in the notation.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// In the notation but not a reachable position.
    #[error(transparent)]
    Invalid(#[from] InvalidPosition),
    /// A shape the engine does not play.
    #[error(transparent)]
    Geometry(#[from] GeometryError),
}

/// A move that cannot be played on this board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum IllegalMove {
    /// The cell already holds a mark.
    #[error("illegal move: row {row}, col {col} is already taken")]
    Occupied {
        /// 0-based row.
        row: u8,
        /// 0-based column.
        col: u8,
    },
    /// Row or column outside the board.
    #[error("illegal move: row {row}, col {col} is off the {size}x{size} board")]
    OutOfRange {
        /// 0-based row.
        row: u8,
        /// 0-based column.
        col: u8,
        /// Side of the board.
        size: u8,
    },
    /// Somebody already won, or the board is full.
    #[error("illegal move: the game is over")]
    GameOver,
}

//! A square of the board, and its name: a column letter then a row number.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use super::error::echo;
use super::sizes::MAX_SIZE;

/// A square of the board: 0-based row (top to bottom) and column (left to
/// right). Its name is the column letter then the 1-based row, so `a1` is
/// the top left and `c3` the bottom right of the classic board; names print
/// with [`Display`](fmt::Display) and read back with [`FromStr`].
///
/// ```
/// use tictactoe_engine::Square;
///
/// let square: Square = "b3".parse()?;
/// assert_eq!(square, Square::new(2, 1));
/// assert_eq!(square.to_string(), "b3");
/// # Ok::<(), tictactoe_engine::SquareError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    /// 0-based row, top to bottom.
    pub row: u8,
    /// 0-based column, left to right.
    pub col: u8,
}

impl Square {
    /// The square at `row`, `col` (0-based).
    ///
    /// ```
    /// use tictactoe_engine::Square;
    ///
    /// assert_eq!(Square::new(0, 2).to_string(), "c1");
    /// ```
    pub const fn new(row: u8, col: u8) -> Square {
        Square { row, col }
    }

    /// The square at a row-major cell index on a board of side `size`
    /// (`size` must not be 0).
    ///
    /// ```
    /// use tictactoe_engine::Square;
    ///
    /// assert_eq!(Square::from_index(5, 3), Square::new(1, 2));
    /// assert_eq!(Square::from_index(5, 4), Square::new(1, 1));
    /// ```
    pub const fn from_index(index: usize, size: u8) -> Square {
        Square::new((index / size as usize) as u8, (index % size as usize) as u8)
    }

    /// The row-major cell index on a board of side `size` (meaningful only
    /// for a square of that board).
    ///
    /// ```
    /// use tictactoe_engine::Square;
    ///
    /// assert_eq!(Square::new(1, 2).index(3), 5);
    /// assert_eq!(Square::from_index(7, 4).index(4), 7);
    /// ```
    pub const fn index(self, size: u8) -> usize {
        self.row as usize * size as usize + self.col as usize
    }
}

/// The square's name: `a1` is the top left, `c3` the bottom right of the
/// classic board.
///
/// ```
/// use tictactoe_engine::Square;
///
/// assert_eq!(Square::new(2, 1).to_string(), "b3");
/// assert_eq!(format!("{:>4}", Square::new(0, 0)), "  a1");
/// ```
impl Square {
    /// The name written into `buf` without allocating (a square is named
    /// once per move of every answer): `Some` for a column a to z.
    pub(crate) fn name_in(self, buf: &mut [u8; 4]) -> Option<&str> {
        if self.col >= 26 {
            return None;
        }
        buf[0] = b'a' + self.col;
        let row = u16::from(self.row) + 1;
        let mut len = 1;
        for (place, shown) in [(100, row >= 100), (10, row >= 10), (1, true)] {
            if shown {
                buf[len] = b'0' + (row / place % 10) as u8;
                len += 1;
            }
        }
        std::str::from_utf8(&buf[..len]).ok()
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(name) = self.name_in(&mut [0; 4]) {
            return f.pad(name);
        }
        // In u32, so that no column overflows: a square off every board still prints.
        let letter = char::from_u32(u32::from('a') + u32::from(self.col)).unwrap_or('?');
        f.pad(&format!("{letter}{}", u32::from(self.row) + 1))
    }
}

/// Reads a square's name: a column letter (either case) then the 1-based
/// row, on the biggest board the engine plays (`a1` to `h8`). Nothing else
/// is read, not even spaces around it; [`Geometry::parse_square`] reads a
/// square as a person types it on a given board.
///
/// ```
/// use tictactoe_engine::{Square, SquareError};
///
/// assert_eq!("b2".parse(), Ok(Square::new(1, 1)));
/// assert_eq!("G7".parse(), Ok(Square::new(6, 6)));
/// assert_eq!("h8".parse(), Ok(Square::new(7, 7)));
/// assert_eq!("b".parse::<Square>(), Err(SquareError::NotASquare("b".into())));
/// assert_eq!(
///     "i1".parse::<Square>().unwrap_err().to_string(),
///     "i1 is off the 8x8 board: its squares are a1 to h8"
/// );
/// ```
///
/// [`Geometry::parse_square`]: crate::Geometry::parse_square
impl FromStr for Square {
    type Err = SquareError;

    fn from_str(text: &str) -> Result<Square, SquareError> {
        let not_a_square = || SquareError::NotASquare(echo(text).into_owned());
        let mut chars = text.chars();
        let letter = match chars.next() {
            None => return Err(SquareError::Empty),
            Some(letter) if letter.is_ascii_alphabetic() => letter.to_ascii_lowercase(),
            Some(_) => return Err(not_a_square()),
        };
        let digits = chars.as_str();
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(not_a_square());
        }
        let off_board = || SquareError::OffBoard {
            name: text.to_ascii_lowercase(),
            size: MAX_SIZE,
        };
        let col = u8::try_from(u32::from(letter) - u32::from('a')).map_err(|_| off_board())?;
        let row = digits.parse::<u8>().map_err(|_| off_board())?;
        if col >= MAX_SIZE || !(1..=MAX_SIZE).contains(&row) {
            return Err(off_board());
        }
        Ok(Square::new(row - 1, col))
    }
}

/// A move given as 0-based `ROW COL`, as GeeksforGeeks prints it: `2 2`,
/// also `2,2`, `(2, 2)` or `ROW: 2 COL: 2`. The numbers as given (they may
/// lie off any board); `None` for any other text. The one reader of this
/// form: the game's square reader ([`Geometry::parse_square`]) and the
/// grader's protocol use it.
///
/// [`Geometry::parse_square`]: crate::Geometry::parse_square
///
/// ```
/// use tictactoe_engine::read_row_col;
///
/// assert_eq!(read_row_col("1 1"), Some((1, 1)));
/// assert_eq!(read_row_col("(2, 0)"), Some((2, 0)));
/// assert_eq!(read_row_col("ROW: 2 COL: 2"), Some((2, 2)));
/// assert_eq!(read_row_col("b2"), None);
/// assert_eq!(read_row_col("1 2 3"), None);
/// ```
pub fn read_row_col(text: &str) -> Option<(i64, i64)> {
    let cleaned: String = text
        .chars()
        .map(|ch| match ch {
            '(' | ')' | '[' | ']' | '{' | '}' | ',' | ':' | ';' => ' ',
            ch => ch,
        })
        .collect();
    let words: Vec<&str> = cleaned
        .split_whitespace()
        .filter(|word| !word.eq_ignore_ascii_case("row") && !word.eq_ignore_ascii_case("col"))
        .collect();
    match words.as_slice() {
        [row, col] => Some((row.parse().ok()?, col.parse().ok()?)),
        _ => None,
    }
}

/// Text that is not a square's name, or names a square off the board.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SquareError {
    /// Nothing but whitespace.
    #[error("no square given: a square is a column letter and a row number, such as b2")]
    Empty,
    /// Not a column letter followed by a row number.
    #[error("{0:?} is not a square: a square is a column letter and a row number, such as b2")]
    NotASquare(String),
    /// A column letter and a row number beyond the board.
    #[error(
        "{name} is off the {size}x{size} board: its squares are a1 to {}",
        Square::new(*.size - 1, *.size - 1)
    )]
    OffBoard {
        /// The square as given, in lower case.
        name: String,
        /// Side of the board.
        size: u8,
    },
    /// A 0-based `ROW COL` beyond the board.
    #[error("row {row}, col {col} is off the {size}x{size} board: rows and cols count from 0 to {}", .size - 1)]
    OffGrid {
        /// The row as given.
        row: i64,
        /// The column as given.
        col: i64,
        /// Side of the board.
        size: u8,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Geometry;

    #[test]
    fn every_square_prints_as_its_name_and_reads_back() {
        for row in 0..MAX_SIZE {
            for col in 0..MAX_SIZE {
                let square = Square::new(row, col);
                assert_eq!(square.to_string().parse(), Ok(square));
                assert_eq!(square.to_string().to_uppercase().parse(), Ok(square));
            }
        }
        // A square off every board still prints, without overflowing.
        assert_eq!(Square::new(255, 0).to_string(), "a256");
    }

    #[test]
    fn what_is_not_a_square_is_named() {
        assert_eq!("".parse::<Square>(), Err(SquareError::Empty));
        for text in [
            "b", "2", "2b", "bb2", "b-2", "b+2", " b2", "b2 ", "é2", "b²",
        ] {
            assert_eq!(
                text.parse::<Square>(),
                Err(SquareError::NotASquare(text.to_string())),
                "{text:?}"
            );
        }
        for text in ["i1", "a9", "a0", "z9", "a256", "a99999"] {
            assert!(
                matches!(
                    text.parse::<Square>(),
                    Err(SquareError::OffBoard { size: 8, .. })
                ),
                "{text:?}"
            );
        }
        let long = "x".repeat(1000);
        assert!(long.parse::<Square>().unwrap_err().to_string().len() < 300);
    }

    #[test]
    fn a_typed_square_is_read_on_its_board() {
        let classic = Geometry::classic();
        assert_eq!(classic.parse_square(" 5 "), Ok(Square::new(1, 1)));
        assert_eq!(classic.parse_square("1"), Ok(Square::new(0, 0)));
        assert_eq!(classic.parse_square("9"), Ok(Square::new(2, 2)));
        assert_eq!(classic.parse_square("C3"), Ok(Square::new(2, 2)));
        for text in ["0", "10", "+5", "05"] {
            assert_eq!(
                classic.parse_square(text),
                Err(SquareError::NotASquare(text.to_string())),
                "{text:?}"
            );
        }
        assert_eq!(
            classic.parse_square("d1").unwrap_err().to_string(),
            "d1 is off the 3x3 board: its squares are a1 to c3"
        );
        assert_eq!(classic.parse_square("  "), Err(SquareError::Empty));
        // Digits name the classic board's squares only.
        let four = Geometry::get(4, 4).expect("a 4x4 board");
        assert_eq!(
            four.parse_square("5"),
            Err(SquareError::NotASquare("5".into()))
        );
        assert_eq!(four.parse_square("d4"), Ok(Square::new(3, 3)));
        assert!(four.parse_square("e1").is_err());
    }
}

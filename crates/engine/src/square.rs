//! A square of the board, as a move names it.

use std::fmt;

/// A cell to play in: 0-based row (top to bottom) and column (left to right).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    /// 0-based row, top to bottom.
    pub row: u8,
    /// 0-based column, left to right.
    pub col: u8,
}

impl Square {
    /// The move at `row`, `col` (0-based).
    pub const fn new(row: u8, col: u8) -> Square {
        Square { row, col }
    }

    /// The move at a row-major cell index on a board of side `size`
    /// (`size` must not be 0).
    pub const fn from_index(index: usize, size: u8) -> Square {
        Square::new((index / size as usize) as u8, (index % size as usize) as u8)
    }

    /// The row-major cell index on a board of side `size` (meaningful only
    /// for a move on that board).
    pub const fn index(self, size: u8) -> usize {
        self.row as usize * size as usize + self.col as usize
    }

    /// The chess-like coordinate: column letter then 1-based row, so `a1` is
    /// top left. The same as the move's `Display`.
    pub fn coordinate(self) -> String {
        self.to_string()
    }

    /// Reads a coordinate such as `b2` (column letter, 1-based row) on a board of side `size`.
    pub fn parse_coordinate(text: &str, size: u8) -> Option<Square> {
        let mut chars = text.trim().chars();
        let letter = chars.next()?.to_ascii_lowercase();
        let number: u8 = chars.as_str().parse().ok()?;
        let col = (letter as u32).checked_sub('a' as u32)?;
        (col < u32::from(size) && (1..=size).contains(&number))
            .then(|| Square::new(number - 1, col as u8))
    }
}

/// The move's square as the game names it: `a1` is the top left, `c3` the
/// bottom right of the classic board.
impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // In u32, so that no column overflows: a move off every board still prints.
        let letter = char::from_u32(u32::from('a') + u32::from(self.col)).unwrap_or('?');
        write!(f, "{letter}{}", u32::from(self.row) + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::MAX_SIZE;

    #[test]
    fn a_move_prints_as_its_square_and_reads_back() {
        for row in 0..MAX_SIZE {
            for col in 0..MAX_SIZE {
                let mv = Square::new(row, col);
                assert_eq!(mv.to_string(), mv.coordinate());
                assert_eq!(
                    Square::parse_coordinate(&mv.to_string(), MAX_SIZE),
                    Some(mv)
                );
            }
        }
        assert_eq!(Square::new(2, 1).to_string(), "b3");
        let classic = crate::geometry::Geometry::classic();
        assert_eq!(classic.parse_move(" 5 "), Some(Square::new(1, 1)));
        assert_eq!(classic.parse_move("9"), Some(Square::new(2, 2)));
        assert_eq!(classic.parse_move("C3"), Some(Square::new(2, 2)));
        assert_eq!(classic.parse_move("0"), None);
        assert_eq!(classic.parse_move("10"), None);
        // Digits name the classic board's squares only.
        let four = crate::geometry::Geometry::get(4, 4).expect("a 4x4 board");
        assert_eq!(four.parse_move("5"), None);
        assert_eq!(four.parse_move("d4"), Some(Square::new(3, 3)));
        // A move off every board still prints, without overflowing.
        assert_eq!(Square::new(255, 0).to_string(), "a256");
    }
}

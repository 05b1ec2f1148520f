//! A set of cells of one board, such as one side's marks or the empty cells.

use std::fmt;

use super::square::Square;

/// A set of cells of an N×N board: one bit per cell, in reading order.
///
/// `Copy` and one word, like the board it comes from. Iterating yields
/// [`Square`]s in reading order (left to right, top to bottom).
///
/// ```
/// use tictactoe_engine::{Board, Square, Player};
///
/// let board: Board = "xx./oo./...".parse().unwrap();
/// let x = board.marks(Player::X);
/// assert_eq!(x.len(), 2);
/// assert!(x.contains(Square::new(0, 1)));
/// assert!(!x.contains(Square::new(7, 7)), "off the board is never in a set");
/// // X completes the top row at c1 (row 0, col 2).
/// assert_eq!(board.threats(Player::X).iter().collect::<Vec<_>>(), [Square::new(0, 2)]);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct CellSet {
    bits: u64,
    size: u8,
}

impl CellSet {
    /// No cell of a board of side `size`.
    pub const fn empty(size: u8) -> CellSet {
        CellSet { bits: 0, size }
    }

    /// The cells of bit mask `bits` (bit `row * size + col`) on a board of side
    /// `size`; bits beyond the board are dropped.
    pub(crate) fn new(size: u8, bits: u64) -> CellSet {
        let cells = u32::from(size) * u32::from(size);
        let board = 1u64.checked_shl(cells).map_or(u64::MAX, |bit| bit - 1);
        CellSet {
            bits: bits & board,
            size,
        }
    }

    /// True when the cell is in the set; always false for a cell off the board.
    pub fn contains(self, mv: Square) -> bool {
        mv.row < self.size && mv.col < self.size && self.bits >> mv.index(self.size) & 1 != 0
    }

    /// Number of cells in the set.
    pub fn len(self) -> usize {
        self.bits.count_ones() as usize
    }

    /// True when the set has no cell.
    pub fn is_empty(self) -> bool {
        self.bits == 0
    }

    /// The cells in reading order.
    pub fn iter(self) -> CellSetIter {
        CellSetIter {
            bits: self.bits,
            size: self.size,
        }
    }

    /// The set as a bit mask: bit `row * size + col` is set for each cell in it.
    pub fn bits(self) -> u64 {
        self.bits
    }

    /// Side of the board the cells belong to.
    pub fn size(self) -> u8 {
        self.size
    }
}

impl IntoIterator for CellSet {
    type Item = Square;
    type IntoIter = CellSetIter;

    fn into_iter(self) -> CellSetIter {
        self.iter()
    }
}

/// The cells of a [`CellSet`] in reading order.
#[derive(Debug, Clone)]
pub struct CellSetIter {
    bits: u64,
    size: u8,
}

impl Iterator for CellSetIter {
    type Item = Square;

    fn next(&mut self) -> Option<Square> {
        if self.bits == 0 {
            return None;
        }
        let cell = self.bits.trailing_zeros() as usize;
        self.bits &= self.bits - 1;
        Some(Square::from_index(cell, self.size))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let len = self.bits.count_ones() as usize;
        (len, Some(len))
    }
}

impl ExactSizeIterator for CellSetIter {}

/// The cells as coordinates, for example `{a1, b2}`.
impl fmt::Debug for CellSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter().map(ByName)).finish()
    }
}

/// A square shown by its name in a `Debug` listing.
struct ByName(Square);

impl fmt::Debug for ByName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_come_in_reading_order_and_off_board_cells_are_never_members() {
        let set = CellSet::new(3, 0b100_010_001 | 1 << 40);
        assert_eq!(set.len(), 3, "bits beyond the board are dropped");
        assert_eq!(
            set.iter().collect::<Vec<_>>(),
            [Square::new(0, 0), Square::new(1, 1), Square::new(2, 2)]
        );
        assert!(set.contains(Square::new(1, 1)));
        assert!(!set.contains(Square::new(1, 2)));
        for off in [Square::new(3, 0), Square::new(0, 3), Square::new(255, 255)] {
            assert!(!set.contains(off), "{off}");
        }
        assert_eq!(format!("{set:?}"), "{a1, b2, c3}");
        assert!(CellSet::new(7, 0).is_empty());
        assert_eq!(CellSet::new(7, u64::MAX).len(), 49);
    }
}

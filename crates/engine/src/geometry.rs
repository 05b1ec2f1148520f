//! The shape of a game: an N×N board where K in a row wins.
//!
//! Everything the rules and the search need to know about the shape is
//! derived here once per (N, K) and cached for the life of the process:
//! the winning lines as bit masks, the lines through each cell, the eight
//! symmetries of the square and a centre-first move order.

use std::sync::OnceLock;

use super::error::GeometryError;
use super::score;
use super::square::{Square, SquareError, read_row_col};

pub use super::sizes::{MAX_SIZE, MIN_SIZE};

const SYMMETRY_COUNT: usize = 8;

/// Most lines any supported shape has (8×8 with k=3 has 168).
const MAX_LINES: usize = 168;

/// The four directions of a line as (rows, columns) per step: right, down,
/// down-right, down-left.
const DIRECTIONS: [(i32, i32); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

/// True when a line of `k` cells starting at `cell` and going `direction`
/// stays on an N×N board.
const fn line_fits(size: u8, k: u8, cell: i32, (dr, dc): (i32, i32)) -> bool {
    let (n, k) = (size as i32, k as i32);
    let (end_r, end_c) = (cell / n + dr * (k - 1), cell % n + dc * (k - 1));
    end_r >= 0 && end_r < n && end_c >= 0 && end_c < n
}

/// Every run of `k` cells along the four [`DIRECTIONS`], as bit masks; the
/// count of masks comes second. `const` so that the compiler builds the
/// classic board's shape and its solved table.
pub(crate) const fn line_masks(size: u8, k: u8) -> ([u64; MAX_LINES], usize) {
    let n = size as i32;
    let mut lines = [0u64; MAX_LINES];
    let mut count = 0;
    let mut d = 0;
    while d < DIRECTIONS.len() {
        let (dr, dc) = DIRECTIONS[d];
        let mut cell = 0;
        while cell < n * n {
            let (r, c) = (cell / n, cell % n);
            if line_fits(size, k, cell, DIRECTIONS[d]) {
                let mut mask = 0u64;
                let mut i = 0;
                while i < k as i32 {
                    mask |= 1 << ((r + dr * i) * n + c + dc * i);
                    i += 1;
                }
                lines[count] = mask;
                count += 1;
            }
            cell += 1;
        }
        d += 1;
    }
    (lines, count)
}

/// Calls `$run.$method::<K>($marks)` with the run's k as the constant `K`,
/// so that each k from 3 to 8 gets a loop of its own, unrolled.
macro_rules! for_k {
    ($run:expr, $method:ident, $marks:expr) => {
        match $run.k {
            3 => $run.$method::<3>($marks),
            4 => $run.$method::<4>($marks),
            5 => $run.$method::<5>($marks),
            6 => $run.$method::<6>($marks),
            7 => $run.$method::<7>($marks),
            _ => $run.$method::<8>($marks),
        }
    };
}

/// One direction of a line as a shift: the cells of a line starting at cell
/// `c` are `c, c + step, …, c + (k - 1) * step`, and `starts` marks every `c`
/// where such a line fits on the board. Shifting a set of marks right by
/// `i * step` lines up each line's i-th cell with its start, so k shifts and
/// ANDs test every line of the direction at once.
#[derive(Debug, Clone, Copy)]
struct Run {
    step: u32,
    starts: u64,
    k: u32,
}

impl Run {
    /// Starts of the lines whose k cells are all in `marks`.
    #[inline]
    fn complete(self, marks: u64) -> u64 {
        for_k!(self, complete_k, marks)
    }

    /// Cells that would complete a line for `marks`: each line with every
    /// cell but one in `marks` adds that one (occupied or not).
    #[inline]
    fn threats(self, marks: u64) -> u64 {
        for_k!(self, threats_k, marks)
    }

    /// Every cell of the lines starting at `starts` (a subset of this run's starts).
    #[inline]
    fn cover(self, starts: u64) -> u64 {
        for_k!(self, cover_k, starts)
    }

    // With K known to the compiler the loops unroll into straight shifts and ANDs.
    #[inline(always)]
    fn cover_k<const K: u32>(self, starts: u64) -> u64 {
        (0..K).fold(0, |acc, i| acc | starts << (i * self.step))
    }

    #[inline(always)]
    fn complete_k<const K: u32>(self, marks: u64) -> u64 {
        (0..K).fold(self.starts, |acc, i| acc & (marks >> (i * self.step)))
    }

    #[inline(always)]
    fn threats_k<const K: u32>(self, marks: u64) -> u64 {
        let mut cells = 0;
        for missing in 0..K {
            let mut starts = self.starts;
            for i in 0..K {
                if i != missing {
                    starts &= marks >> (i * self.step);
                }
            }
            cells |= starts << (missing * self.step);
        }
        cells
    }
}

/// The four [`DIRECTIONS`] of an N×N board with K in a row as shifts.
const fn runs(size: u8, k: u8) -> [Run; 4] {
    let n = size as i32;
    let mut runs = [Run {
        step: 0,
        starts: 0,
        k: k as u32,
    }; 4];
    let mut d = 0;
    while d < 4 {
        let (dr, dc) = DIRECTIONS[d];
        let mut starts = 0u64;
        let mut cell = 0;
        while cell < n * n {
            if line_fits(size, k, cell, DIRECTIONS[d]) {
                starts |= 1 << cell;
            }
            cell += 1;
        }
        runs[d] = Run {
            step: (dr * n + dc) as u32,
            starts,
            k: k as u32,
        };
        d += 1;
    }
    runs
}

/// The shape of a game: an N×N board where K in a row wins.
///
/// Obtain it with [`Geometry::get`] or [`Geometry::classic`]; every board of
/// the same shape shares one, built once and kept for the life of the process
/// (the classic board's by the compiler). Inside, it holds the lines,
/// symmetries and move order the rules and the search use.
///
/// ```
/// use tictactoe_engine::Geometry;
///
/// let shape = Geometry::get(5, 4).unwrap();
/// assert_eq!((shape.size(), shape.k(), shape.win_score()), (5, 4, 100));
/// assert_eq!(Geometry::classic().win_score(), 10);
/// assert!(Geometry::classic().is_classic() && !shape.is_classic());
/// assert_eq!(Geometry::get(8, 5)?.win_score(), 100);
/// assert!(Geometry::get(9, 4).is_err());
/// # Ok::<(), tictactoe_engine::GeometryError>(())
/// ```
pub struct Geometry {
    size: u8,
    k: u8,
    full: u64,
    lines: &'static [u64],
    /// Every line through cell `c` is `through[through_start[c]..through_start[c + 1]]`.
    through: &'static [u64],
    through_start: &'static [u16],
    /// The move order as tiers of equally promising cells (see [`order_tiers`]).
    order_tiers: &'static [u64],
    /// For symmetry `s`, row `r` and a row's bit pattern `p`: where those bits land.
    /// Mapping a board costs one lookup per row instead of one per cell.
    symmetry_rows: &'static [u64],
    /// The four directions of a line, for testing every line with a few shifts.
    runs: [Run; 4],
    win_score: i32,
    /// The largest score an estimate may have (see [`Geometry::is_forced`]).
    estimate_limit: i32,
}

/// The mask of a board's `cells` cells (all 64 bits on 8×8).
const fn full_mask(cells: usize) -> u64 {
    if cells >= 64 {
        u64::MAX
    } else {
        (1u64 << cells) - 1
    }
}

const MAX_CELLS: usize = (MAX_SIZE as usize) * (MAX_SIZE as usize);

/// Fills `through` with the lines through each cell in turn, and
/// `starts[c]` with where cell `c`'s lines begin (`starts[cells]` is the
/// end). `through` must have room for `k` entries per line.
const fn fill_lines_through(lines: &[u64], cells: usize, through: &mut [u64], starts: &mut [u16]) {
    let mut next = 0;
    let mut cell = 0;
    while cell < cells {
        starts[cell] = next as u16;
        let mut i = 0;
        while i < lines.len() {
            if lines[i] & (1 << cell) != 0 {
                through[next] = lines[i];
                next += 1;
            }
            i += 1;
        }
        cell += 1;
    }
    starts[cells] = next as u16;
}

/// Entries of the symmetry table of a board of side `size` (see [`Geometry`]).
const fn symmetry_table_len(size: u8) -> usize {
    SYMMETRY_COUNT * size as usize * (1 << size)
}

/// Fills the symmetry table of a board of side `size`: for each symmetry,
/// row and bit pattern of a row, the cells those bits land on.
const fn fill_symmetry_rows(size: u8, rows: &mut [u64]) {
    let patterns = 1usize << size;
    let mut symmetry = 0;
    while symmetry < SYMMETRY_COUNT {
        let mut row = 0;
        while row < size {
            let mut pattern = 0;
            while pattern < patterns {
                let mut image = 0u64;
                let mut col = 0;
                while col < size {
                    if pattern & (1 << col) != 0 {
                        let (r, c) = transform(symmetry, size, row, col);
                        image |= 1 << (r as usize * size as usize + c as usize);
                    }
                    col += 1;
                }
                rows[(symmetry * size as usize + row as usize) * patterns + pattern] = image;
                pattern += 1;
            }
            row += 1;
        }
        symmetry += 1;
    }
}

/// The search's move order as tiers of equally promising cells, best tier
/// first: most lines through a cell, then nearest the centre. Within a tier the
/// search goes in reading order, so iterating a tier's mask lowest bit first
/// skips occupied cells without testing them one by one. The count comes second.
const fn order_tiers(size: u8, k: u8) -> ([u64; MAX_CELLS], usize) {
    let (lines, line_count) = line_masks(size, k);
    let cells = size as usize * size as usize;
    let n = size as i32;
    // Rank of each cell: more lines first, then twice the distance to the centre
    // (integers), folded into one number where smaller is better.
    let mut rank = [0i32; MAX_CELLS];
    let mut cell = 0;
    while cell < cells {
        let mut through = 0;
        let mut i = 0;
        while i < line_count {
            if lines[i] & (1 << cell) != 0 {
                through += 1;
            }
            i += 1;
        }
        let (r, c) = ((cell / size as usize) as i32, (cell % size as usize) as i32);
        let distance = (2 * r - (n - 1)).abs() + (2 * c - (n - 1)).abs();
        rank[cell] = -through * 1000 + distance;
        cell += 1;
    }
    let mut tiers = [0u64; MAX_CELLS];
    let mut count = 0;
    let mut placed = 0u64;
    while placed.count_ones() < cells as u32 {
        let mut best = i32::MAX;
        let mut cell = 0;
        while cell < cells {
            if placed & (1 << cell) == 0 && rank[cell] < best {
                best = rank[cell];
            }
            cell += 1;
        }
        let mut cell = 0;
        while cell < cells {
            if placed & (1 << cell) == 0 && rank[cell] == best {
                tiers[count] |= 1 << cell;
            }
            cell += 1;
        }
        placed |= tiers[count];
        count += 1;
    }
    (tiers, count)
}

static CLASSIC_LINES: ([u64; MAX_LINES], usize) = line_masks(3, 3);
static CLASSIC_TIERS: ([u64; MAX_CELLS], usize) = order_tiers(3, 3);
/// Each of the 8 lines of 3×3 through each of its 3 cells.
static CLASSIC_THROUGH: ([u64; 24], [u16; 10]) = {
    let (mut through, mut starts) = ([0; 24], [0; 10]);
    fill_lines_through(
        CLASSIC_LINES.0.split_at(CLASSIC_LINES.1).0,
        9,
        &mut through,
        &mut starts,
    );
    (through, starts)
};
static CLASSIC_SYMMETRY_ROWS: [u64; symmetry_table_len(3)] = {
    let mut rows = [0; symmetry_table_len(3)];
    fill_symmetry_rows(3, &mut rows);
    rows
};

/// The classic board, built by the compiler: playing 3×3 builds nothing at run time.
static CLASSIC: Geometry = Geometry {
    size: 3,
    k: 3,
    full: 0x1ff,
    lines: CLASSIC_LINES.0.split_at(CLASSIC_LINES.1).0,
    through: &CLASSIC_THROUGH.0,
    through_start: &CLASSIC_THROUGH.1,
    order_tiers: CLASSIC_TIERS.0.split_at(CLASSIC_TIERS.1).0,
    symmetry_rows: &CLASSIC_SYMMETRY_ROWS,
    runs: runs(3, 3),
    win_score: score::win_score(3),
    estimate_limit: score::estimate_limit(score::win_score(3), 9),
};

impl Geometry {
    /// The geometry of an N×N board with K in a row, built on first use and kept.
    pub fn get(size: u8, k: u8) -> Result<&'static Geometry, GeometryError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(GeometryError::Size(size));
        }
        if !(MIN_SIZE..=size).contains(&k) {
            return Err(GeometryError::K { size, k });
        }
        if size == CLASSIC.size {
            return Ok(&CLASSIC);
        }
        const SLOTS: usize = (MAX_SIZE - MIN_SIZE + 1) as usize;
        static CACHE: [OnceLock<Geometry>; SLOTS * SLOTS] =
            [const { OnceLock::new() }; SLOTS * SLOTS];
        let slot = usize::from(size - MIN_SIZE) * SLOTS + usize::from(k - MIN_SIZE);
        Ok(CACHE[slot].get_or_init(|| Geometry::build(size, k)))
    }

    /// The classic game: 3×3, three in a row.
    pub fn classic() -> &'static Geometry {
        &CLASSIC
    }

    /// Builds a bigger shape. Its tables live as long as the process, like the
    /// cache that holds them, so they are leaked rather than owned.
    fn build(size: u8, k: u8) -> Geometry {
        let cells = usize::from(size) * usize::from(size);
        let (masks, count) = line_masks(size, k);
        let lines: &'static [u64] = Box::leak(masks[..count].into());
        let mut through = vec![0; lines.len() * usize::from(k)];
        let mut through_start = vec![0; cells + 1];
        fill_lines_through(lines, cells, &mut through, &mut through_start);
        let (tiers, tier_count) = order_tiers(size, k);
        let mut symmetry_rows = vec![0; symmetry_table_len(size)];
        fill_symmetry_rows(size, &mut symmetry_rows);
        Geometry {
            size,
            k,
            full: full_mask(cells),
            lines,
            through: Box::leak(through.into_boxed_slice()),
            through_start: Box::leak(through_start.into_boxed_slice()),
            order_tiers: Box::leak(tiers[..tier_count].into()),
            symmetry_rows: Box::leak(symmetry_rows.into_boxed_slice()),
            runs: runs(size, k),
            win_score: score::win_score(size),
            estimate_limit: score::estimate_limit(score::win_score(size), cells),
        }
    }

    /// Side of the board.
    pub fn size(&self) -> u8 {
        self.size
    }

    /// How many in a row win.
    pub fn k(&self) -> u8 {
        self.k
    }

    /// True for the classic game, 3×3 with three in a row: the article's board,
    /// whose every position the compiler solved.
    pub fn is_classic(&self) -> bool {
        std::ptr::eq(self, &CLASSIC)
    }

    /// Reads a square as a person types it on this board: its name in
    /// either case (`b2`, `B2`: see [`Square`]),
    /// or on the classic board one digit 1-9 in reading order, as the game's
    /// digit keys place (1 top left, 9 bottom right). Spaces around it are
    /// ignored; a square off this board is an error.
    ///
    /// ```
    /// use tictactoe_engine::{Geometry, Square, SquareError};
    ///
    /// let classic = Geometry::classic();
    /// assert_eq!(classic.parse_square(" b2 "), Ok(Square::new(1, 1)));
    /// assert_eq!(classic.parse_square("9"), Ok(Square::new(2, 2)));
    /// assert_eq!(
    ///     classic.parse_square("d4"),
    ///     Err(SquareError::OffBoard { name: "d4".into(), size: 3 })
    /// );
    /// let four = Geometry::get(4, 3)?;
    /// assert_eq!(four.parse_square("d4"), Ok(Square::new(3, 3)));
    /// assert_eq!(four.parse_square("9"), Err(SquareError::NotASquare("9".into())));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn parse_square(&self, text: &str) -> Result<Square, SquareError> {
        let text = text.trim();
        if let [digit @ b'1'..=b'9'] = text.as_bytes()
            && self.is_classic()
        {
            return Ok(Square::from_index(usize::from(digit - b'1'), self.size));
        }
        if let Some((row, col)) = read_row_col(text) {
            let size = i64::from(self.size);
            return if (0..size).contains(&row) && (0..size).contains(&col) {
                Ok(Square::new(row as u8, col as u8))
            } else {
                Err(SquareError::OffGrid {
                    row,
                    col,
                    size: self.size,
                })
            };
        }
        let square: Square = text.parse()?;
        if square.row >= self.size || square.col >= self.size {
            return Err(SquareError::OffBoard {
                name: square.to_string(),
                size: self.size,
            });
        }
        Ok(square)
    }

    /// Number of cells.
    #[inline]
    pub(crate) fn cells(&self) -> usize {
        usize::from(self.size) * usize::from(self.size)
    }

    /// Mask with one bit set for every cell of the board.
    #[inline]
    pub(crate) fn full_mask(&self) -> u64 {
        self.full
    }

    /// Every winning line, as a mask of its k cells.
    #[inline]
    pub(crate) fn lines(&self) -> &'static [u64] {
        self.lines
    }

    /// Every winning line through `cell`.
    #[inline]
    pub(crate) fn lines_through(&self, cell: usize) -> &'static [u64] {
        let (from, to) = (self.through_start[cell], self.through_start[cell + 1]);
        &self.through[usize::from(from)..usize::from(to)]
    }

    /// The move order as tiers of equally promising cells, best first (see [`order_tiers`]).
    #[inline]
    pub(crate) fn order_tiers(&self) -> &'static [u64] {
        self.order_tiers
    }

    /// Cells in the order the search tries them: most lines through them
    /// first, then nearest the centre, then reading order.
    #[cfg(test)]
    pub(crate) fn move_order(&self) -> impl Iterator<Item = usize> + '_ {
        self.order_tiers
            .iter()
            .flat_map(|&tier| (0..self.cells()).filter(move |&cell| tier & (1 << cell) != 0))
    }

    /// `W`, the score of a win at depth 0: 10 on 3×3 (the article's), 100 on
    /// bigger boards (see [the scores](crate::score)).
    #[inline]
    pub fn win_score(&self) -> i32 {
        self.win_score
    }

    /// True when `score` can only be a forced win or loss: the search's
    /// estimates at a depth limit stay within half a win (and below the
    /// slowest win a game of this board can have), and every forced line
    /// the game can have lies beyond it.
    #[inline]
    pub(crate) fn is_forced(&self, score: i32) -> bool {
        score.abs() > self.estimate_limit
    }

    /// The largest score an estimate may have (see [`Geometry::is_forced`]).
    #[inline]
    pub(crate) fn estimate_limit(&self) -> i32 {
        self.estimate_limit
    }

    /// True when `marks` contain a whole line.
    #[inline]
    pub(crate) fn has_line(&self, marks: u64) -> bool {
        self.runs.iter().any(|run| run.complete(marks) != 0)
    }

    /// True when `marks` contain a whole line through `cell` (the cell just played).
    #[inline]
    pub(crate) fn completes_line(&self, marks: u64, cell: usize) -> bool {
        self.lines_through(cell)
            .iter()
            .any(|&line| line & !marks == 0)
    }

    /// Empty or not, the cells that would complete a line for `marks`: every
    /// line holding all of its cells but one in `marks` adds the missing one.
    #[inline]
    pub(crate) fn threats(&self, marks: u64) -> u64 {
        self.runs
            .iter()
            .fold(0, |acc, run| acc | run.threats(marks))
            & self.full
            & !marks
    }

    /// True when every line holds one of `marks`: the other side can no longer win.
    #[inline]
    pub(crate) fn blocks_every_line(&self, marks: u64) -> bool {
        let open = self.full & !marks;
        self.runs.iter().all(|run| run.complete(open) == 0)
    }

    /// The lines holding none of `marks` (those the other side can still
    /// complete), as the cells they start from, one mask per direction of
    /// [`DIRECTIONS`]: a few shifts per direction, however many lines.
    #[inline]
    pub(crate) fn open_starts(&self, marks: u64) -> [u64; 4] {
        let open = self.full & !marks;
        self.runs.map(|run| run.complete(open))
    }

    /// The start cells of every line, one mask per direction of [`DIRECTIONS`].
    #[inline]
    pub(crate) fn line_starts(&self) -> [u64; 4] {
        self.runs.map(|run| run.starts)
    }

    /// How far apart the cells of a line in direction `d` of [`DIRECTIONS`] are.
    #[inline]
    pub(crate) fn line_step(&self, d: usize) -> u32 {
        self.runs[d].step
    }

    /// Every cell of the lines starting at `starts` (one mask per direction,
    /// each within [`Geometry::line_starts`]).
    #[inline]
    pub(crate) fn line_cells(&self, starts: [u64; 4]) -> u64 {
        (0..4).fold(0, |cells, d| cells | self.runs[d].cover(starts[d]))
    }

    /// The image of a set of cells under one of the eight symmetries (0 is the identity).
    #[inline]
    pub(crate) fn map(&self, symmetry: usize, marks: u64) -> u64 {
        let size = usize::from(self.size);
        let patterns = 1usize << size;
        let row_mask = (patterns - 1) as u64;
        let base = symmetry * size * patterns;
        (0..size).fold(0, |image, row| {
            let pattern = ((marks >> (row * size)) & row_mask) as usize;
            image | self.symmetry_rows[base + row * patterns + pattern]
        })
    }

    /// The image of one cell under one of the eight symmetries.
    #[inline]
    pub(crate) fn map_cell(&self, symmetry: usize, cell: usize) -> usize {
        if symmetry == 0 {
            return cell;
        }
        self.map(symmetry, 1 << cell).trailing_zeros() as usize
    }

    /// The smallest image of a position over the eight symmetries, and the
    /// symmetry that gives it (both sides mapped together): equal for
    /// positions that are rotations or reflections of each other.
    #[inline]
    pub(crate) fn canonical(&self, mine: u64, theirs: u64) -> (u64, u64, usize) {
        // Each side's rows are cut out once; every symmetry then ORs one
        // table entry per row and side.
        let size = usize::from(self.size);
        let patterns = 1usize << size;
        let row_mask = (patterns - 1) as u64;
        let mut mine_rows = [0usize; MAX_SIZE as usize];
        let mut theirs_rows = [0usize; MAX_SIZE as usize];
        for row in 0..size {
            mine_rows[row] = row * patterns + ((mine >> (row * size)) & row_mask) as usize;
            theirs_rows[row] = row * patterns + ((theirs >> (row * size)) & row_mask) as usize;
        }
        let (mut key, mut symmetry) = ((mine, theirs), 0);
        for s in 1..SYMMETRY_COUNT {
            let table = &self.symmetry_rows[s * size * patterns..(s + 1) * size * patterns];
            let (mut image_mine, mut image_theirs) = (0, 0);
            for row in 0..size {
                image_mine |= table[mine_rows[row]];
                image_theirs |= table[theirs_rows[row]];
            }
            if (image_mine, image_theirs) < key {
                (key, symmetry) = ((image_mine, image_theirs), s);
            }
        }
        (key.0, key.1, symmetry)
    }

    /// Number of symmetries of the square (rotations and reflections).
    pub(crate) const fn symmetry_count() -> usize {
        SYMMETRY_COUNT
    }
}

impl std::fmt::Debug for Geometry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Geometry")
            .field("size", &self.size)
            .field("k", &self.k)
            .finish_non_exhaustive()
    }
}

/// Where (row, col) goes under symmetry `s`: four rotations, then the same after a transpose.
const fn transform(symmetry: usize, size: u8, row: u8, col: u8) -> (u8, u8) {
    let last = size - 1;
    let (r, c) = if symmetry >= 4 {
        (col, row)
    } else {
        (row, col)
    };
    match symmetry % 4 {
        0 => (r, c),
        1 => (c, last - r),
        2 => (last - r, last - c),
        _ => (last - c, r),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Number of k-runs on an n×n board, counted by formula.
    fn expected_lines(n: usize, k: usize) -> usize {
        let runs = n - k + 1;
        2 * n * runs + 2 * runs * runs
    }

    #[test]
    fn every_shape_has_the_right_lines() {
        for size in MIN_SIZE..=MAX_SIZE {
            for k in MIN_SIZE..=size {
                let g = Geometry::get(size, k).unwrap();
                assert_eq!(
                    g.lines().len(),
                    expected_lines(size.into(), k.into()),
                    "{size}x{size} k={k}"
                );
                for &line in g.lines() {
                    assert_eq!(line.count_ones(), u32::from(k));
                    assert_eq!(line & !g.full_mask(), 0);
                    // A line is k consecutive cells in one of four directions.
                    let cells: Vec<(i32, i32)> = (0..g.cells())
                        .filter(|&c| line & (1 << c) != 0)
                        .map(|c| {
                            (
                                (c / usize::from(size)) as i32,
                                (c % usize::from(size)) as i32,
                            )
                        })
                        .collect();
                    let step = (cells[1].0 - cells[0].0, cells[1].1 - cells[0].1);
                    assert!(
                        cells
                            .windows(2)
                            .all(|w| (w[1].0 - w[0].0, w[1].1 - w[0].1) == step)
                    );
                    assert!(
                        [(0, 1), (1, 0), (1, 1), (1, -1)].contains(&step),
                        "{line:b}"
                    );
                }
                let mut sorted = g.lines().to_vec();
                sorted.sort_unstable();
                sorted.dedup();
                assert_eq!(sorted.len(), g.lines().len(), "no line twice");
                let mut order: Vec<usize> = g.move_order().collect();
                order.sort_unstable();
                assert_eq!(order, (0..g.cells()).collect::<Vec<_>>());
            }
        }
    }

    #[test]
    fn shifted_runs_agree_with_the_line_masks() {
        let mut rng = fastrand::Rng::with_seed(1);
        for size in MIN_SIZE..=MAX_SIZE {
            for k in MIN_SIZE..=size {
                let g = Geometry::get(size, k).unwrap();
                for _ in 0..2000 {
                    let marks = rng.u64(..) & rng.u64(..) & g.full_mask();
                    let by_lines_has = g.lines().iter().any(|&line| line & !marks == 0);
                    let by_lines_blocks = g.lines().iter().all(|&line| line & marks != 0);
                    let by_lines_threats = g
                        .lines()
                        .iter()
                        .filter(|&&line| (line & marks).count_ones() == u32::from(k) - 1)
                        .fold(0, |acc, &line| acc | (line & !marks));
                    assert_eq!(
                        g.has_line(marks),
                        by_lines_has,
                        "{size}x{size} k={k} {marks:b}"
                    );
                    assert_eq!(
                        g.blocks_every_line(marks),
                        by_lines_blocks,
                        "{size}x{size} k={k}"
                    );
                    assert_eq!(
                        g.threats(marks),
                        by_lines_threats,
                        "{size}x{size} k={k} {marks:b}"
                    );
                }
            }
        }
    }

    #[test]
    fn classic_move_order_is_centre_corners_edges() {
        assert_eq!(
            Geometry::classic().move_order().collect::<Vec<_>>(),
            &[4, 0, 2, 6, 8, 1, 3, 5, 7]
        );
    }

    #[test]
    fn symmetries_agree_with_the_coordinate_transform() {
        for size in MIN_SIZE..=MAX_SIZE {
            let g = Geometry::get(size, MIN_SIZE).unwrap();
            for symmetry in 0..SYMMETRY_COUNT {
                for cell in 0..g.cells() {
                    let (r, c) = transform(
                        symmetry,
                        size,
                        (cell / usize::from(size)) as u8,
                        (cell % usize::from(size)) as u8,
                    );
                    let image = usize::from(r) * usize::from(size) + usize::from(c);
                    assert_eq!(
                        g.map(symmetry, 1 << cell),
                        1 << image,
                        "{size} s{symmetry} cell {cell}"
                    );
                    assert_eq!(g.map_cell(symmetry, cell), image);
                }
            }
        }
    }

    #[test]
    fn symmetries_preserve_lines_and_form_a_group() {
        for size in MIN_SIZE..=MAX_SIZE {
            let g = Geometry::get(size, MIN_SIZE).unwrap();
            let lines: std::collections::HashSet<u64> = g.lines().iter().copied().collect();
            for symmetry in 0..SYMMETRY_COUNT {
                assert!(
                    g.lines()
                        .iter()
                        .all(|&line| lines.contains(&g.map(symmetry, line)))
                );
            }
            // Eight distinct images of an asymmetric pattern.
            let pattern = 0b11;
            let images: std::collections::HashSet<u64> =
                (0..SYMMETRY_COUNT).map(|s| g.map(s, pattern)).collect();
            assert_eq!(images.len(), SYMMETRY_COUNT);
        }
    }

    #[test]
    fn canonical_form_is_shared_by_symmetric_positions() {
        for size in [3u8, 4, 5] {
            let g = Geometry::get(size, 3).unwrap();
            let (mine, theirs) = (0b1, 0b110 << size);
            let (key_mine, key_theirs, _) = g.canonical(mine, theirs);
            for symmetry in 0..SYMMETRY_COUNT {
                let image = g.canonical(g.map(symmetry, mine), g.map(symmetry, theirs));
                assert_eq!((image.0, image.1), (key_mine, key_theirs));
                // The reported symmetry really maps the position onto its key.
                assert_eq!(
                    (
                        g.map(image.2, g.map(symmetry, mine)),
                        g.map(image.2, g.map(symmetry, theirs))
                    ),
                    (key_mine, key_theirs)
                );
            }
        }
    }
}

//! The shape of a game: an N×N board where K in a row wins.
//!
//! Everything the rules and the search need to know about the shape is
//! derived here once per (N, K) and cached for the life of the process:
//! the winning lines as bit masks, the lines through each cell, the eight
//! symmetries of the square and a centre-first move order.

use std::sync::OnceLock;

use super::error::GeometryError;

/// Calls into [`Rules`] with the shape question answered once.
macro_rules! by_shape {
    ($geometry:expr, $rules:ident => $body:expr) => {
        if $geometry.is_classic() {
            let $rules = Rules::<true>::of($geometry);
            $body
        } else {
            let $rules = Rules::<false>::of($geometry);
            $body
        }
    };
}

/// Smallest supported board side.
pub const MIN_SIZE: u8 = 3;
/// Largest supported board side (49 cells still fit one `u64`).
pub const MAX_SIZE: u8 = 7;

/// Score of a win found right after the move on the classic 3×3 board (the seed's +10).
pub(crate) const CLASSIC_WIN: i32 = 10;
/// Score of an immediate win on bigger boards: 100 leaves room for 48 plies of depth.
pub(crate) const BIG_WIN: i32 = 100;

const SYMMETRY_COUNT: usize = 8;

/// Most lines any supported shape has (7×7 with k=3 has 120).
const MAX_LINES: usize = 128;

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
/// count of masks comes second. `const` so the 3×3 lookup tables can be
/// computed by the compiler.
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
        match self.k {
            3 => self.complete_k::<3>(marks),
            4 => self.complete_k::<4>(marks),
            5 => self.complete_k::<5>(marks),
            6 => self.complete_k::<6>(marks),
            _ => self.complete_k::<7>(marks),
        }
    }

    /// Cells that would complete a line for `marks`: each line with every
    /// cell but one in `marks` adds that one (occupied or not).
    #[inline]
    fn threats(self, marks: u64) -> u64 {
        match self.k {
            3 => self.threats_k::<3>(marks),
            4 => self.threats_k::<4>(marks),
            5 => self.threats_k::<5>(marks),
            6 => self.threats_k::<6>(marks),
            _ => self.threats_k::<7>(marks),
        }
    }

    // With K known to the compiler the loops unroll into straight shifts and ANDs.
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

/// Whole-board lookup tables for 3×3, where a side's marks are a 9-bit number.
/// The compiler fills them, so even the first search in a process pays nothing,
/// and they are small (1.1 KB) so a cold first search touches few cache lines.
struct ClassicTables {
    /// Cells that would complete a line for these marks (occupied or not).
    threats: [u16; 512],
    /// Bit set: these marks contain a line.
    has_line: [u64; 8],
    /// Bit set: every line holds at least one of these marks, so the other side cannot win.
    blocks_every_line: [u64; 8],
}

static CLASSIC_TABLES: ClassicTables = ClassicTables::build();

impl ClassicTables {
    const fn build() -> ClassicTables {
        let (lines, count) = line_masks(3, 3);
        let mut tables = ClassicTables {
            threats: [0; 512],
            has_line: [0; 8],
            blocks_every_line: [0; 8],
        };
        let mut marks = 0;
        while marks < 512 {
            let (mut complete, mut blocks_all) = (false, true);
            let mut i = 0;
            while i < count {
                let line = lines[i];
                match (line & marks as u64).count_ones() {
                    3 => complete = true,
                    2 => tables.threats[marks] |= (line & !(marks as u64)) as u16,
                    0 => blocks_all = false,
                    _ => {}
                }
                i += 1;
            }
            tables.has_line[marks / 64] |= (complete as u64) << (marks % 64);
            tables.blocks_every_line[marks / 64] |= (blocks_all as u64) << (marks % 64);
            marks += 1;
        }
        tables
    }

    #[inline]
    fn bit(set: &[u64; 8], marks: u64) -> bool {
        let marks = (marks & 0x1ff) as usize;
        set[marks / 64] >> (marks % 64) & 1 != 0
    }
}

/// The eight symmetries of 3×3 as bit arithmetic on 9-bit groups (cell
/// `3 * row + col`). Every mask is repeated for each group of nine bits, so one
/// call maps several boards packed side by side, such as both sides of a position.
mod classic_symmetry {
    const fn repeat(mask: u64) -> u64 {
        mask | mask << 9 | mask << 18 | mask << 27 | mask << 36 | mask << 45 | mask << 54
    }
    const TOP: u64 = repeat(0o007);
    const MIDDLE: u64 = repeat(0o070);
    const LEFT: u64 = repeat(0o111);
    const CENTRE_COLUMN: u64 = repeat(0o222);
    const DIAGONAL: u64 = repeat(0o421);
    /// Cells (0,1) and (1,2), which the transpose swaps with (1,0) and (2,1).
    const NEAR_DIAGONAL: u64 = repeat(0o042);
    /// Cell (0,2), which the transpose swaps with (2,0).
    const CORNER: u64 = repeat(0o004);

    /// Rows upside down.
    #[inline]
    const fn flip_rows(p: u64) -> u64 {
        (p & TOP) << 6 | (p & MIDDLE) | (p >> 6) & TOP
    }

    /// Columns left to right.
    #[inline]
    const fn flip_columns(p: u64) -> u64 {
        (p & LEFT) << 2 | (p & CENTRE_COLUMN) | (p >> 2) & LEFT
    }

    /// Rows become columns.
    #[inline]
    const fn transpose(p: u64) -> u64 {
        (p & DIAGONAL)
            | (p & NEAR_DIAGONAL) << 2
            | (p >> 2) & NEAR_DIAGONAL
            | (p & CORNER) << 4
            | (p >> 4) & CORNER
    }

    /// The image under one symmetry, numbered as [`super::transform`] numbers them.
    #[inline]
    pub(super) const fn image(symmetry: usize, p: u64) -> u64 {
        match symmetry {
            0 => p,
            1 => flip_columns(transpose(p)),
            2 => flip_rows(flip_columns(p)),
            3 => flip_rows(transpose(p)),
            4 => transpose(p),
            5 => flip_columns(p),
            6 => flip_rows(flip_columns(transpose(p))),
            _ => flip_rows(p),
        }
    }

    /// All eight images, numbered as [`image`] numbers them.
    #[inline]
    pub(super) const fn images(p: u64) -> [u64; 8] {
        let t = transpose(p);
        let h = flip_columns(p);
        let ht = flip_columns(t);
        [
            p,
            ht,
            flip_rows(h),
            flip_rows(t),
            t,
            h,
            flip_rows(ht),
            flip_rows(p),
        ]
    }
}

/// The shape of a game: an N×N board where K in a row wins.
///
/// Obtain it with [`Geometry::get`] or [`Geometry::classic`]; every board of
/// the same shape shares one, built once and kept for the life of the process.
/// Inside, it holds the lines, symmetries and move order the search uses.
///
/// ```
/// use tictactoe_engine::Geometry;
///
/// let shape = Geometry::get(5, 4).unwrap();
/// assert_eq!((shape.size(), shape.k(), shape.win_score()), (5, 4, 100));
/// assert_eq!(Geometry::classic().win_score(), 10);
/// assert!(Geometry::get(8, 4).is_err());
/// ```
pub struct Geometry {
    size: u8,
    k: u8,
    full: u64,
    lines: &'static [u64],
    /// `lines_through[c]` lists the masks of every line containing cell `c`
    /// (empty on 3×3, where [`ClassicTables`] answers instead).
    lines_through: &'static [&'static [u64]],
    /// The move order as tiers of equally promising cells (see [`order_tiers`]).
    order_tiers: &'static [u64],
    /// For symmetry `s`, row `r` and a row's bit pattern `p`: where those bits land.
    /// Mapping a board costs one lookup per row instead of one per cell (empty on 3×3).
    symmetry_rows: &'static [u64],
    /// The four directions of a line, for testing every line with a few shifts.
    runs: [Run; 4],
    win_score: i32,
    /// Compile-time tables that replace the loops on 3×3.
    classic: Option<&'static ClassicTables>,
}

const MAX_CELLS: usize = (MAX_SIZE as usize) * (MAX_SIZE as usize);

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

/// The classic board, fixed at compile time: playing 3×3 builds nothing at run time.
static CLASSIC: Geometry = Geometry {
    size: 3,
    k: 3,
    full: 0x1ff,
    lines: CLASSIC_LINES.0.split_at(CLASSIC_LINES.1).0,
    lines_through: &[],
    order_tiers: CLASSIC_TIERS.0.split_at(CLASSIC_TIERS.1).0,
    symmetry_rows: &[],
    runs: runs(3, 3),
    win_score: CLASSIC_WIN,
    classic: Some(&CLASSIC_TABLES),
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
        if size == 3 {
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
        let lines_through: Vec<&'static [u64]> = (0..cells)
            .map(|cell| -> &'static [u64] {
                Box::leak(
                    lines
                        .iter()
                        .copied()
                        .filter(|line| line & (1 << cell) != 0)
                        .collect(),
                )
            })
            .collect();
        let (tiers, tier_count) = order_tiers(size, k);

        let patterns = 1usize << size;
        let mut symmetry_rows = vec![0u64; SYMMETRY_COUNT * usize::from(size) * patterns];
        for symmetry in 0..SYMMETRY_COUNT {
            for row in 0..size {
                for pattern in 0..patterns {
                    let mut image = 0u64;
                    for col in 0..size {
                        if pattern & (1 << col) != 0 {
                            let (r, c) = transform(symmetry, size, row, col);
                            image |= 1 << (usize::from(r) * usize::from(size) + usize::from(c));
                        }
                    }
                    let index =
                        (symmetry * usize::from(size) + usize::from(row)) * patterns + pattern;
                    symmetry_rows[index] = image;
                }
            }
        }

        Geometry {
            size,
            k,
            full: (1u64 << cells) - 1,
            lines,
            lines_through: Box::leak(lines_through.into_boxed_slice()),
            order_tiers: Box::leak(tiers[..tier_count].into()),
            symmetry_rows: Box::leak(symmetry_rows.into_boxed_slice()),
            runs: runs(size, k),
            win_score: BIG_WIN,
            classic: None,
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

    /// Cells in the order the search tries them: most lines through them
    /// first, then nearest the centre, then reading order.
    #[cfg(test)]
    pub(crate) fn move_order(&self) -> impl Iterator<Item = usize> + '_ {
        self.order_tiers
            .iter()
            .flat_map(|&tier| (0..self.cells()).filter(move |&cell| tier & (1 << cell) != 0))
    }

    /// Score of a win on the move just played: 10 on 3×3 (the seed's), 100 on bigger boards.
    #[inline]
    pub fn win_score(&self) -> i32 {
        self.win_score
    }

    /// The largest score an estimate may have: half a win. The search's
    /// estimates at a depth limit stay within ±`estimate_limit`, and every
    /// forced win or loss the game can have lies beyond it, so a score outside
    /// is a forced line even when found within a depth limit.
    #[inline]
    pub(crate) fn estimate_limit(&self) -> i32 {
        self.win_score / 2
    }

    /// True when `score` can only be a forced win or loss (see [`Geometry::estimate_limit`]).
    #[inline]
    pub(crate) fn is_forced(&self, score: i32) -> bool {
        score.abs() > self.estimate_limit()
    }

    /// True for the classic 3×3 board, which has compile-time tables.
    #[inline]
    pub(crate) fn is_classic(&self) -> bool {
        self.classic.is_some()
    }

    /// True when `marks` contain a whole line.
    pub(crate) fn has_line(&self, marks: u64) -> bool {
        by_shape!(self, rules => rules.has_line(marks))
    }

    /// Cells that would complete a line for `marks`, whether empty or not:
    /// every line holding all of its cells but one in `marks` adds the missing one.
    pub(crate) fn threats(&self, marks: u64) -> u64 {
        by_shape!(self, rules => rules.threats(marks))
    }

    /// True when every line holds one of `marks`: the other side can no longer win.
    #[cfg(test)]
    pub(crate) fn blocks_every_line(&self, marks: u64) -> bool {
        by_shape!(self, rules => rules.blocks_every_line(marks))
    }

    /// The image of a set of cells under one of the eight symmetries (0 is the identity).
    pub(crate) fn map(&self, symmetry: usize, marks: u64) -> u64 {
        by_shape!(self, rules => rules.map(symmetry, marks))
    }

    /// The image of one cell under one of the eight symmetries.
    pub(crate) fn map_cell(&self, symmetry: usize, cell: usize) -> usize {
        by_shape!(self, rules => rules.map_cell(symmetry, cell))
    }

    /// The smallest image of a position over the eight symmetries, and the
    /// symmetry that gives it: equal for positions that are rotations or
    /// reflections of each other.
    #[cfg(test)]
    pub(crate) fn canonical(&self, mine: u64, theirs: u64) -> (u64, u64, usize) {
        by_shape!(self, rules => rules.canonical(mine, theirs))
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

/// A geometry with "is this the classic 3×3?" settled at compile time.
///
/// The search is written once over `Rules<CLASSIC>` and compiled twice: on
/// 3×3 every question becomes a constant, a table lookup or bit arithmetic,
/// with no branch on the shape; bigger boards loop over their lines.
#[derive(Clone, Copy)]
pub(crate) struct Rules<'a, const CLASSIC: bool>(&'a Geometry);

impl<'a, const CLASSIC: bool> Rules<'a, CLASSIC> {
    /// The rules of `geometry`; `CLASSIC` must say whether it is the 3×3 board.
    #[inline]
    pub fn of(geometry: &'a Geometry) -> Self {
        debug_assert_eq!(geometry.is_classic(), CLASSIC);
        Rules(geometry)
    }

    /// See [`Geometry::lines`].
    #[inline]
    pub fn lines(self) -> &'a [u64] {
        self.0.lines
    }

    /// The move order as tiers of equally promising cells (see [`order_tiers`]).
    #[inline]
    pub fn order_tiers(self) -> &'a [u64] {
        if CLASSIC {
            CLASSIC_TIERS.0.split_at(CLASSIC_TIERS.1).0
        } else {
            self.0.order_tiers
        }
    }

    /// See [`Geometry::full_mask`].
    #[inline]
    pub fn full_mask(self) -> u64 {
        if CLASSIC { 0x1ff } else { self.0.full }
    }

    /// See [`Geometry::win_score`].
    #[inline]
    pub fn win_score(self) -> i32 {
        if CLASSIC {
            CLASSIC_WIN
        } else {
            self.0.win_score
        }
    }

    /// See [`Geometry::has_line`].
    #[inline]
    pub fn has_line(self, marks: u64) -> bool {
        if CLASSIC {
            ClassicTables::bit(&CLASSIC_TABLES.has_line, marks)
        } else {
            self.0.runs.iter().any(|run| run.complete(marks) != 0)
        }
    }

    /// True when `marks` contain a whole line through `cell` (the cell just played).
    #[inline]
    pub fn completes_line(self, marks: u64, cell: usize) -> bool {
        if CLASSIC {
            ClassicTables::bit(&CLASSIC_TABLES.has_line, marks)
        } else {
            self.0.lines_through[cell]
                .iter()
                .any(|&line| line & !marks == 0)
        }
    }

    /// See [`Geometry::threats`].
    #[inline]
    pub fn threats(self, marks: u64) -> u64 {
        if CLASSIC {
            return u64::from(CLASSIC_TABLES.threats[(marks & 0x1ff) as usize]);
        }
        self.0
            .runs
            .iter()
            .fold(0, |acc, run| acc | run.threats(marks))
            & self.0.full
            & !marks
    }

    /// True when every line holds one of `marks`: the other side can no longer win.
    #[inline]
    pub fn blocks_every_line(self, marks: u64) -> bool {
        if CLASSIC {
            ClassicTables::bit(&CLASSIC_TABLES.blocks_every_line, marks)
        } else {
            let open = self.0.full & !marks;
            self.0.runs.iter().all(|run| run.complete(open) == 0)
        }
    }

    /// See [`Geometry::map`].
    #[inline]
    pub fn map(self, symmetry: usize, marks: u64) -> u64 {
        if CLASSIC {
            return classic_symmetry::image(symmetry, marks);
        }
        let size = usize::from(self.0.size);
        let patterns = 1usize << size;
        let row_mask = (patterns - 1) as u64;
        let base = symmetry * size * patterns;
        (0..size).fold(0, |image, row| {
            let pattern = ((marks >> (row * size)) & row_mask) as usize;
            image | self.0.symmetry_rows[base + row * patterns + pattern]
        })
    }

    /// See [`Geometry::map_cell`].
    #[inline]
    pub fn map_cell(self, symmetry: usize, cell: usize) -> usize {
        if symmetry == 0 {
            return cell;
        }
        self.map(symmetry, 1 << cell).trailing_zeros() as usize
    }

    /// The transposition table's key: the canonical form, except that 3×3
    /// skips naming the symmetry, which its table does not use.
    #[inline]
    pub fn table_key(self, mine: u64, theirs: u64) -> (u64, u64, usize) {
        if CLASSIC {
            let key = classic_symmetry::images(mine << 9 | theirs)
                .into_iter()
                .fold(u64::MAX, u64::min);
            return (key >> 9, key & 0x1ff, 0);
        }
        self.canonical(mine, theirs)
    }

    /// The smallest image of a position over the eight symmetries, and the
    /// symmetry that gives it (both sides mapped together).
    #[inline]
    pub fn canonical(self, mine: u64, theirs: u64) -> (u64, u64, usize) {
        if CLASSIC {
            // Both sides in one word, mapped together, compared as one number.
            let images = classic_symmetry::images(mine << 9 | theirs);
            let (mut key, mut symmetry) = (images[0], 0);
            for (s, &image) in images.iter().enumerate().skip(1) {
                if image < key {
                    (key, symmetry) = (image, s);
                }
            }
            return (key >> 9, key & 0x1ff, symmetry);
        }
        // Each side's rows are cut out once; every symmetry then ORs one
        // table entry per row and side.
        let size = usize::from(self.0.size);
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
            let table = &self.0.symmetry_rows[s * size * patterns..(s + 1) * size * patterns];
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
    fn classic_images_agree_one_by_one_and_all_at_once() {
        for p in [0u64, 0b1, 0b110_010_001, 0o777, 0o123_456] {
            let all = classic_symmetry::images(p);
            for (s, &image) in all.iter().enumerate() {
                assert_eq!(classic_symmetry::image(s, p), image);
            }
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

    #[test]
    fn classic_tables_match_the_line_loops() {
        let g = Geometry::classic();
        for marks in 0..512u64 {
            let by_loop_has = g.lines().iter().any(|&line| line & !marks == 0);
            let by_loop_blocks = g.lines().iter().all(|&line| line & marks != 0);
            let by_loop_threats = g
                .lines()
                .iter()
                .filter(|&&line| (line & marks).count_ones() == 2)
                .fold(0, |acc, &line| acc | (line & !marks));
            assert_eq!(g.has_line(marks), by_loop_has);
            assert_eq!(g.blocks_every_line(marks), by_loop_blocks);
            assert_eq!(g.threats(marks), by_loop_threats);
        }
    }
}

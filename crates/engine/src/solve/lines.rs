//! The lines of a [`Geometry`] as the prover indexes them, derived once per
//! geometry: each line named by its direction and its first cell, sets of
//! lines as four bit masks of first cells, and the canonical form of a
//! position under the eight symmetries of the square; and [`PerGeometry`],
//! one value kept per geometry.

use std::sync::OnceLock;

use crate::geometry::Geometry;
use crate::sizes::{MAX_SIZE, MIN_SIZE};

/// How many geometries there are: each side from `MIN_SIZE` to `MAX_SIZE`
/// with each k in the same range (the unused ones, k over the side, too).
const GEOMETRIES: usize = ((MAX_SIZE - MIN_SIZE + 1) as usize).pow(2);

/// One value per geometry, built on first use and kept for the life of
/// the process: the prover's lines, the pairing layouts, the books.
pub(crate) struct PerGeometry<T>([OnceLock<T>; GEOMETRIES]);

impl<T> PerGeometry<T> {
    pub const fn new() -> PerGeometry<T> {
        PerGeometry([const { OnceLock::new() }; GEOMETRIES])
    }

    fn slot(&self, geometry: &Geometry) -> &OnceLock<T> {
        let side = usize::from(MAX_SIZE - MIN_SIZE + 1);
        &self.0
            [usize::from(geometry.size() - MIN_SIZE) * side + usize::from(geometry.k() - MIN_SIZE)]
    }

    /// The value of `geometry`, built by `build` the first time.
    pub fn get_or_init(&self, geometry: &Geometry, build: impl FnOnce() -> T) -> &T {
        self.slot(geometry).get_or_init(build)
    }

    /// The value of `geometry` if it is built already.
    pub fn get(&self, geometry: &Geometry) -> Option<&T> {
        self.slot(geometry).get()
    }
}

/// A set of lines of one geometry: for each of the four directions, the
/// cells the set's lines in that direction start from. Line `d * 64 + c`
/// (its id) is the line of direction `d` starting at cell `c`, so every
/// shape up to 8×8 fits, however many lines it has (8×8 with k=3 has 168).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct LineSet(pub [u64; 4]);

impl LineSet {
    /// True when the set has no line.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == [0; 4]
    }

    /// The ids of the set's lines, lowest first.
    #[inline]
    pub fn ids(self) -> impl Iterator<Item = usize> {
        let mut words = self.0;
        let mut d = 0;
        std::iter::from_fn(move || {
            while d < 4 {
                if words[d] != 0 {
                    let c = words[d].trailing_zeros() as usize;
                    words[d] &= words[d] - 1;
                    return Some(d * 64 + c);
                }
                d += 1;
            }
            None
        })
    }
}

impl std::ops::BitOr for LineSet {
    type Output = LineSet;

    #[inline]
    fn bitor(self, other: LineSet) -> LineSet {
        LineSet(std::array::from_fn(|d| self.0[d] | other.0[d]))
    }
}

/// The lines of one geometry, indexed by id (see [`LineSet`]).
pub(crate) struct Lines {
    pub geometry: &'static Geometry,
    /// The line of each direction starting at cell 0, shifted to start at
    /// a line's first cell (its cells stay on the board for every real start).
    base: [u64; 4],
    pub k: u32,
    pub full: u64,
}

impl Lines {
    /// The lines of `geometry`, built on first use and kept.
    pub fn of(geometry: &'static Geometry) -> &'static Lines {
        static LINES: PerGeometry<Lines> = PerGeometry::new();
        LINES.get_or_init(geometry, || Lines::build(geometry))
    }

    fn build(geometry: &'static Geometry) -> Lines {
        let k = u32::from(geometry.k());
        let base = std::array::from_fn(|d| {
            let step = geometry.line_step(d);
            (0..k).fold(0u64, |line, i| line | 1 << (i * step))
        });
        Lines {
            geometry,
            base,
            k,
            full: geometry.full_mask(),
        }
    }

    /// The cells of line `id`.
    #[inline]
    pub fn mask(&self, id: usize) -> u64 {
        self.base[id / 64] << (id % 64)
    }

    /// Lines holding none of `marks`: the lines the other side can still complete.
    #[inline]
    pub fn open_lines(&self, marks: u64) -> LineSet {
        LineSet(self.geometry.open_starts(marks))
    }

    /// Every line of the geometry.
    #[inline]
    pub fn all_lines(&self) -> LineSet {
        LineSet(self.geometry.line_starts())
    }

    /// Every cell of the lines of `set`.
    #[inline]
    pub fn cells_of(&self, set: LineSet) -> u64 {
        self.geometry.line_cells(set.0)
    }

    /// Empty cells that would complete a line of `marks`.
    #[inline]
    pub fn wins(&self, marks: u64, empty: u64) -> u64 {
        self.geometry.threats(marks) & empty
    }

    /// The position up to symmetry: the smallest image of both sides over the
    /// eight symmetries of the square.
    #[inline]
    pub fn canonical(&self, first: u64, second: u64) -> (u64, u64) {
        let (first, second, _) = self.geometry.canonical(first, second);
        (first, second)
    }
}

/// The cells of a mask, lowest first.
pub(crate) fn cells(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let c = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            c
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_sets_name_every_line_of_every_shape_once() {
        for size in MIN_SIZE..=MAX_SIZE {
            for k in MIN_SIZE..=size {
                let geometry = Geometry::get(size, k).unwrap();
                let lines = Lines::of(geometry);
                let mut masks: Vec<u64> =
                    lines.all_lines().ids().map(|id| lines.mask(id)).collect();
                masks.sort_unstable();
                let mut expected = geometry.lines().to_vec();
                expected.sort_unstable();
                assert_eq!(masks, expected, "{size}x{size} k={k}");
                let mut rng = fastrand::Rng::with_seed(u64::from(size * 10 + k));
                for _ in 0..200 {
                    let marks = rng.u64(..) & rng.u64(..) & rng.u64(..) & lines.full;
                    let open: Vec<u64> = lines
                        .open_lines(marks)
                        .ids()
                        .map(|id| lines.mask(id))
                        .collect();
                    let by_masks: Vec<u64> = geometry
                        .lines()
                        .iter()
                        .copied()
                        .filter(|&line| line & marks == 0)
                        .collect();
                    let (mut open_sorted, mut by_masks) = (open.clone(), by_masks);
                    open_sorted.sort_unstable();
                    by_masks.sort_unstable();
                    assert_eq!(open_sorted, by_masks, "{size}x{size} k={k} {marks:x}");
                    let cells = open.iter().fold(0, |acc, &line| acc | line);
                    assert_eq!(lines.cells_of(lines.open_lines(marks)), cells);
                }
            }
        }
    }
}

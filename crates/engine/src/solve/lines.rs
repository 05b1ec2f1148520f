//! The lines of a [`Geometry`] as the prover indexes them, derived once per
//! geometry: each line as a bit mask, the set of lines through each cell,
//! and the canonical form of a position under the eight symmetries of the
//! square; and [`PerGeometry`], one value kept per geometry.

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

/// A set of lines, one bit per line index (7x7 with k=3 has 120 lines).
pub(crate) type LineSet = u128;

/// The lines of one geometry, indexed: line `i` is `masks[i]`, and a
/// [`LineSet`] holds bit `i` for it.
pub(crate) struct Lines {
    pub geometry: &'static Geometry,
    /// Every line as a mask of its k cells (the geometry's, in its order).
    pub masks: &'static [u64],
    /// `through[c]`: the lines containing cell `c`.
    pub through: Vec<LineSet>,
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
        let masks = geometry.lines();
        let through = (0..geometry.cells())
            .map(|cell| {
                masks
                    .iter()
                    .enumerate()
                    .filter(|&(_, &line)| line & (1 << cell) != 0)
                    .fold(0, |set, (i, _)| set | 1 << i)
            })
            .collect();
        Lines {
            geometry,
            masks,
            through,
            k: u32::from(geometry.k()),
            full: geometry.full_mask(),
        }
    }

    /// Lines holding none of `marks`: the lines the other side can still complete.
    #[inline]
    pub fn open_lines(&self, marks: u64) -> LineSet {
        let mut blocked: LineSet = 0;
        let mut rest = marks;
        while rest != 0 {
            blocked |= self.through[rest.trailing_zeros() as usize];
            rest &= rest - 1;
        }
        self.all_lines() & !blocked
    }

    /// Every line of the geometry.
    #[inline]
    pub fn all_lines(&self) -> LineSet {
        if self.masks.len() == 128 {
            LineSet::MAX
        } else {
            (1 << self.masks.len()) - 1
        }
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
        (1..8).fold((first, second), |key, s| {
            key.min((self.geometry.map(s, first), self.geometry.map(s, second)))
        })
    }
}

/// The line indices of a set, lowest first.
pub(crate) fn line_indices(mut set: LineSet) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let i = set.trailing_zeros() as usize;
            set &= set - 1;
            i
        })
    })
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

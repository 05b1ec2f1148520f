//! Pairing strategies: the holder answers each move of the opponent in one
//! of a set of disjoint pairs by taking the other cell of the pair.
//!
//! A pairing holds when its pairs are disjoint, on empty cells, and every
//! line with none of the holder's marks contains both cells of some pair:
//! the opponent can then never fill such a line, since the holder takes one
//! cell of each pair. One pair may serve several lines, as when two
//! overlapping lines of the same row both contain it.
//!
//! Two cells lie on one row, column or diagonal of the board at most, so the
//! pairs that serve the lines of one such board line lie on it and serve no
//! other. The search therefore chooses, board line by board line, one of the
//! few ways to cover that board line's open lines (worked out once per
//! pattern of empty cells and open lines, see [`Covers`]), always for the
//! board line with the fewest ways left, and backtracks when one has none.

use std::collections::HashMap;

use super::lines::{Lines, PerGeometry};

/// Disjoint pairs of cells (bit indices), as the holder answers in them.
pub(crate) type Pairs = Vec<(u8, u8)>;

/// How many choices a search for pairs may try before it gives up.
const BUDGET: u32 = 2_000;

/// One row, column or diagonal of the board long enough to hold a line.
pub(crate) struct BoardLine {
    /// Its cells in order.
    cells: Vec<usize>,
    /// The id in [`Lines`] of the line starting at each position along it.
    windows: Vec<usize>,
}

/// A way to cover the open lines of one board line: pairs of positions
/// along it (position `i` is the board line's `i`-th cell).
#[derive(Debug, Clone, Copy)]
struct Cover {
    /// Positions used, one bit each.
    used: u8,
    pairs: [(u8, u8); 4],
    count: u8,
}

/// For board lines of one length: the ways to cover them, by the pattern of
/// empty cells along the line and the pattern of open lines on it. Only
/// minimal ways are kept: none uses a superset of another's cells.
pub(crate) struct Covers {
    k: usize,
    len: usize,
    /// Indexed by `free << windows | open`.
    table: Vec<Vec<Cover>>,
}

impl Covers {
    fn build(len: usize, k: usize) -> Covers {
        let windows = len - k + 1;
        let mut table = vec![Vec::new(); 1 << (len + windows)];
        for free in 0..1u32 << len {
            for open in 0..1u32 << windows {
                let mut found = Vec::new();
                let mut pairs = Vec::new();
                enumerate(len, k, free as u8, open as u8, 0, &mut pairs, &mut found);
                found.sort_by_key(|c: &Cover| (c.used.count_ones(), c.used));
                found.dedup_by_key(|c| c.used);
                let minimal: Vec<Cover> = found
                    .iter()
                    .filter(|c| {
                        !found
                            .iter()
                            .any(|d| d.used != c.used && d.used & c.used == d.used)
                    })
                    .copied()
                    .collect();
                table[(free << windows | open) as usize] = minimal;
            }
        }
        Covers { k, len, table }
    }

    fn get(&self, free: u8, open: u8) -> &[Cover] {
        &self.table[(usize::from(free) << (self.len - self.k + 1)) | usize::from(open)]
    }
}

/// Every way to cover the open windows with pairs of free positions, each
/// pair taken inside the lowest window still uncovered.
fn enumerate(
    len: usize,
    k: usize,
    free: u8,
    open: u8,
    used: u8,
    pairs: &mut Vec<(u8, u8)>,
    found: &mut Vec<Cover>,
) {
    if open == 0 {
        let mut cover = Cover {
            used,
            pairs: [(0, 0); 4],
            count: pairs.len() as u8,
        };
        cover.pairs[..pairs.len()].copy_from_slice(pairs);
        found.push(cover);
        return;
    }
    let first = open.trailing_zeros() as usize;
    let window = (((1u32 << k) - 1) << first) as u8;
    let available = free & !used & window;
    for a in 0..len {
        if available >> a & 1 == 0 {
            continue;
        }
        for b in a + 1..len {
            if available >> b & 1 == 0 {
                continue;
            }
            // Windows starting from b-k+1 to a hold both.
            let covered = ((b + 1).saturating_sub(k)..=a).fold(0u8, |set, start| set | 1 << start);
            pairs.push((a as u8, b as u8));
            enumerate(
                len,
                k,
                free,
                open & !covered,
                used | 1 << a | 1 << b,
                pairs,
                found,
            );
            pairs.pop();
        }
    }
}

/// The board lines of a shape and the ways to cover them.
pub(crate) struct Layout {
    lines: Vec<BoardLine>,
    /// Indexed by a board line's length minus k.
    covers: Vec<Covers>,
}

impl Layout {
    /// The layout of `lines`' geometry, built on first use and kept.
    fn of(lines: &Lines) -> &'static Layout {
        static LAYOUTS: PerGeometry<Layout> = PerGeometry::new();
        let geometry = lines.geometry;
        LAYOUTS.get_or_init(geometry, || {
            Layout::build(geometry.size().into(), geometry.k().into(), lines)
        })
    }

    fn build(size: usize, k: usize, lines_of: &Lines) -> Layout {
        let index: HashMap<u64, usize> = lines_of
            .all_lines()
            .ids()
            .map(|id| (lines_of.mask(id), id))
            .collect();
        let n = size as i32;
        let mut lines = Vec::new();
        for (dr, dc) in [(0i32, 1i32), (1, 0), (1, 1), (1, -1)] {
            for start in 0..n * n {
                let (r, c) = (start / n, start % n);
                let (pr, pc) = (r - dr, c - dc);
                if (0..n).contains(&pr) && (0..n).contains(&pc) {
                    continue; // not the first cell of its board line
                }
                let cells: Vec<usize> = (0..)
                    .map(|i| (r + dr * i, c + dc * i))
                    .take_while(|&(r, c)| (0..n).contains(&r) && (0..n).contains(&c))
                    .map(|(r, c)| (r * n + c) as usize)
                    .collect();
                if cells.len() < k {
                    continue;
                }
                let windows = (0..=cells.len() - k)
                    .map(|j| index[&cells[j..j + k].iter().fold(0u64, |m, &c| m | 1 << c)])
                    .collect();
                lines.push(BoardLine { cells, windows });
            }
        }
        let covers = (k..=size).map(|len| Covers::build(len, k)).collect();
        Layout { lines, covers }
    }
}

/// A board line still to cover in one search.
struct Pending {
    line: usize,
    /// Its ways of covering, as cell masks of the board.
    options: Vec<(u64, Cover)>,
}

/// A pairing for the side whose marks are `holder` against `opponent`, if a
/// short search finds one. `None` says only that none was found.
pub(crate) fn find(lines: &Lines, holder: u64, opponent: u64) -> Option<Pairs> {
    let layout = Layout::of(lines);
    let empty = lines.full & !(holder | opponent);
    let mut pending = Vec::new();
    for (i, line) in layout.lines.iter().enumerate() {
        let open = line
            .windows
            .iter()
            .enumerate()
            .filter(|&(_, &w)| lines.mask(w) & holder == 0)
            .fold(0u8, |set, (j, _)| set | 1 << j);
        if open == 0 {
            continue;
        }
        let free = line
            .cells
            .iter()
            .enumerate()
            .filter(|&(_, &c)| empty >> c & 1 != 0)
            .fold(0u8, |set, (j, _)| set | 1 << j);
        let covers = layout.covers[line.cells.len() - lines.k as usize].get(free, open);
        if covers.is_empty() {
            return None;
        }
        let options = covers
            .iter()
            .map(|cover| {
                let mask = (0..line.cells.len())
                    .filter(|&j| cover.used >> j & 1 != 0)
                    .fold(0u64, |m, j| m | 1 << line.cells[j]);
                (mask, *cover)
            })
            .collect();
        pending.push(Pending { line: i, options });
    }
    let mut search = Search {
        layout,
        budget: BUDGET,
        pairs: Vec::new(),
    };
    search.cover(&mut pending, 0).then_some(search.pairs)
}

struct Search<'a> {
    layout: &'a Layout,
    budget: u32,
    pairs: Pairs,
}

impl Search<'_> {
    /// Chooses a way to cover each pending board line, with no cell used twice.
    fn cover(&mut self, pending: &mut Vec<Pending>, used: u64) -> bool {
        if pending.is_empty() {
            return true;
        }
        if self.budget == 0 {
            return false;
        }
        self.budget -= 1;
        // The board line with the fewest ways left.
        let mut chosen = 0;
        let mut fewest = usize::MAX;
        for (i, p) in pending.iter().enumerate() {
            let n = p
                .options
                .iter()
                .filter(|(mask, _)| mask & used == 0)
                .count();
            if n == 0 {
                return false;
            }
            if n < fewest {
                (chosen, fewest) = (i, n);
            }
        }
        let taken = pending.swap_remove(chosen);
        let cells_of = &self.layout.lines[taken.line].cells;
        for &(mask, cover) in &taken.options {
            if mask & used != 0 {
                continue;
            }
            let before = self.pairs.len();
            self.pairs.extend(
                cover.pairs[..usize::from(cover.count)]
                    .iter()
                    .map(|&(a, b)| {
                        (
                            cells_of[usize::from(a)] as u8,
                            cells_of[usize::from(b)] as u8,
                        )
                    }),
            );
            if self.cover(pending, used | mask) {
                return true;
            }
            self.pairs.truncate(before);
            if self.budget == 0 {
                break;
            }
        }
        pending.push(taken);
        let last = pending.len() - 1;
        pending.swap(chosen.min(last), last);
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Geometry;

    /// Checks a pairing as the rules define it.
    fn holds(lines: &Lines, holder: u64, opponent: u64, pairs: &Pairs) -> bool {
        let empty = lines.full & !(holder | opponent);
        let mut used = 0u64;
        for &(a, b) in pairs {
            let both = 1u64 << a | 1u64 << b;
            if a == b || used & both != 0 || both & !empty != 0 {
                return false;
            }
            used |= both;
        }
        lines
            .all_lines()
            .ids()
            .map(|id| lines.mask(id))
            .all(|line| {
                line & holder != 0
                    || pairs
                        .iter()
                        .any(|&(a, b)| line >> a & 1 != 0 && line >> b & 1 != 0)
            })
    }

    #[test]
    fn boards_with_k_equal_to_the_side_pair_from_the_start() {
        for size in 5..=8 {
            let lines = Lines::of(Geometry::get(size, size).unwrap());
            let pairs = find(lines, 0, 0).expect("n x n with n in a row pairs from empty");
            assert!(holds(lines, 0, 0, &pairs));
        }
    }

    #[test]
    fn found_pairings_hold_and_a_threat_has_none() {
        let lines = Lines::of(Geometry::get(5, 4).unwrap());
        let mut rng = fastrand::Rng::with_seed(3);
        let mut found = 0;
        for _ in 0..2000 {
            let (mut holder, mut opponent) = (0u64, 0u64);
            for _ in 0..rng.usize(2..8) {
                holder |= 1 << rng.usize(..25);
                opponent |= 1 << rng.usize(..25);
            }
            opponent &= !holder;
            if let Some(pairs) = find(lines, holder, opponent) {
                found += 1;
                assert!(
                    holds(lines, holder, opponent, &pairs),
                    "{holder:b} {opponent:b}"
                );
            }
        }
        assert!(found > 100, "only {found} pairings found");
        // Three in a row with the fourth cell free: no pairing can stop it.
        assert_eq!(find(lines, 0, 0b1110), None);
    }
}

//! The Erdős–Selfridge potential: a cut-off for positions the defender holds
//! without searching.
//!
//! Each line still open to the attacker (none of the defender's marks in it)
//! weighs 2^-(cells the attacker still needs). A completed line weighs 1. The
//! defender, to move, takes the empty cell whose open lines weigh most; the
//! attacker's reply then adds at most what the defender's cell removed, so
//! the total never grows. While it stays below 1 the attacker never completes
//! a line. Weights are kept as whole numbers, in units of 2^-k.

use super::lines::{Lines, cells};

/// Total weight of the attacker's open lines, and the heaviest empty cell
/// with its weight.
fn weigh(lines: &Lines, attacker: u64, defender: u64) -> (u64, Option<(usize, u64)>) {
    let empty = lines.full & !(attacker | defender);
    let mut total = 0u64;
    let mut per_cell = [0u64; 64];
    for id in lines.open_lines(defender).ids() {
        let line = lines.mask(id);
        let weight = 1u64 << (line & attacker).count_ones();
        total += weight;
        for cell in cells(line & empty) {
            per_cell[cell] += weight;
        }
    }
    let heaviest = cells(empty).map(|cell| (cell, per_cell[cell])).fold(
        None,
        |best: Option<(usize, u64)>, (cell, w)| match best {
            Some((_, bw)) if bw >= w => best,
            _ => Some((cell, w)),
        },
    );
    (total, heaviest)
}

/// True when the potential proves that the attacker never completes a line:
/// below 1 with the defender to move, or below 1 after any attacker move.
pub(crate) fn holds(lines: &Lines, attacker: u64, defender: u64, attacker_to_move: bool) -> bool {
    let (total, heaviest) = weigh(lines, attacker, defender);
    let after = if attacker_to_move {
        total + heaviest.map_or(0, |(_, w)| w)
    } else {
        total
    };
    after < 1 << lines.k
}

/// The defender's move that keeps the potential from growing: the empty cell
/// whose open lines weigh most.
pub(crate) fn defence(lines: &Lines, attacker: u64, defender: u64) -> Option<usize> {
    weigh(lines, attacker, defender).1.map(|(cell, _)| cell)
}

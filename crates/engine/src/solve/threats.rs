//! Threat sequences: wins by continuous threats (a "VCF" in gomoku terms).
//!
//! A threat is a line with k-1 of the attacker's marks and its last cell
//! empty: the defender must take that cell at once or lose. A sequence of
//! such moves, each answered by the only block, that ends in two threats at
//! once (or in a line completed) wins however the defender plays, and the
//! search for one only ever looks at moves that make a threat: a handful
//! instead of the whole board.

use super::lines::{Lines, cells};
use super::table::Failures;

/// The first move of a win by continuous threats for `attacker` (to move)
/// against `defender`, if there is one.
///
/// `failed` remembers positions with no such win, so that sequences reaching
/// the same position by different orders are searched once (as long as it
/// keeps them).
pub(crate) fn first_move(
    lines: &Lines,
    attacker: u64,
    defender: u64,
    failed: &mut Failures,
) -> Option<usize> {
    let empty = lines.full & !(attacker | defender);
    if let Some(win) = cells(lines.wins(attacker, empty)).next() {
        return Some(win);
    }
    if failed.contains(attacker, defender) {
        return None;
    }
    let their_wins = lines.wins(defender, empty);
    let candidates = match their_wins.count_ones() {
        0 => threat_makers(lines, attacker, defender, empty),
        // A block is forced: it continues the sequence only if it threatens too.
        1 => their_wins,
        _ => 0,
    };
    for cell in cells(candidates) {
        let bit = 1u64 << cell;
        let (mine, open) = (attacker | bit, empty & !bit);
        let threats = lines.wins(mine, open);
        match threats.count_ones() {
            0 => {}
            // The defender has no win of its own (any was just blocked):
            // it blocks one threat, the other completes a line.
            2.. => return Some(cell),
            1 => {
                if first_move(lines, mine, defender | threats, failed).is_some() {
                    return Some(cell);
                }
            }
        }
    }
    failed.insert(attacker, defender);
    None
}

/// Empty cells that give `attacker` a threat: cells of lines with k-2 of its
/// marks and none of the defender's.
fn threat_makers(lines: &Lines, attacker: u64, defender: u64, empty: u64) -> u64 {
    let wanted = lines.k - 2;
    lines
        .open_lines(defender)
        .ids()
        .map(|id| lines.mask(id))
        .filter(|&line| (line & attacker).count_ones() == wanted)
        .fold(0, |cells, line| cells | line)
        & empty
}

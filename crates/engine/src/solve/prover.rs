//! Depth-first proof-number search (df-pn) for one question: does the
//! attacker get k in a row before the defender, however the defender plays?
//!
//! Each position has a proof number (how many positions at least must still
//! be proven for the attacker) and a disproof number (the same for the
//! defender). The search always works on the most proving position: below
//! the attacker's moves the one with the smallest proof number, below the
//! defender's the one with the smallest disproof number, and it returns to a
//! parent only when the parent's numbers pass the thresholds it was given.
//! A position settled by the rules, by threats, by pairs or by the potential
//! is a leaf; see [`Prover::evaluate`].

use std::collections::HashSet;
use std::time::Instant;

use super::lines::{Lines, cells};
use super::table::{Entry, Hasher, Key, Table};
use super::{Stop, Technique, Techniques, pairing, potential, threats};
use crate::player::Player;

/// A proof or disproof number too big to matter: the position is settled the other way.
pub(crate) const INF: u32 = u32::MAX / 4;

/// How often (in positions) the clock is read when there is a deadline.
const CLOCK_INTERVAL: u64 = 1024;

/// A position as the prover sees it: the attacker's and the defender's marks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Pos {
    pub att: u64,
    pub def: u64,
}

impl Pos {
    /// The position after `cell` is taken by the side to move.
    pub fn play(self, cell: usize, attacker_moves: bool) -> Pos {
        let bit = 1u64 << cell;
        if attacker_moves {
            Pos {
                att: self.att | bit,
                ..self
            }
        } else {
            Pos {
                def: self.def | bit,
                ..self
            }
        }
    }
}

/// Counters of one proof.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Positions the proof-number search created.
    pub positions: u64,
    /// Positions settled by a win by continuous threats.
    pub threat_wins: u64,
    /// Positions settled by a pairing strategy.
    pub pairings: u64,
    /// Positions settled by the Erdős–Selfridge potential.
    pub potential: u64,
}

impl std::ops::AddAssign for Counts {
    fn add_assign(&mut self, other: Counts) {
        self.positions += other.positions;
        self.threat_wins += other.threat_wins;
        self.pairings += other.pairings;
        self.potential += other.potential;
    }
}

/// A search for whether `attacker` wins, with what it has learnt so far.
pub(crate) struct Prover {
    pub lines: &'static Lines,
    pub attacker: Player,
    pub techniques: Techniques,
    pub table: Table,
    pub counts: Counts,
    failed_threats: HashSet<Key, Hasher>,
    deadline: Option<Instant>,
    /// The most bytes its tables may take, if bounded.
    memory: Option<usize>,
    next_clock_check: u64,
    pub stopped: bool,
    /// Why it stopped, when it did.
    pub stop: Option<Stop>,
}

impl Prover {
    pub fn new(lines: &'static Lines, attacker: Player, techniques: Techniques) -> Prover {
        Prover {
            lines,
            attacker,
            techniques,
            table: Table::default(),
            counts: Counts::default(),
            failed_threats: HashSet::default(),
            deadline: None,
            memory: None,
            next_clock_check: 0,
            stopped: false,
            stop: None,
        }
    }

    /// Gives up at `deadline`, or before its tables take more than `memory`
    /// bytes (the answer is then `None`, and [`Prover::stop`] says which).
    pub fn set_bounds(&mut self, deadline: Option<Instant>, memory: Option<usize>) {
        self.deadline = deadline;
        self.memory = memory;
        self.next_clock_check = self.counts.positions;
        self.stopped = false;
        self.stop = None;
    }

    /// About how many bytes its tables take.
    pub fn bytes(&self) -> usize {
        table_bytes::<(Key, Entry)>(self.table.capacity())
            + table_bytes::<Key>(self.failed_threats.capacity())
    }

    /// True (and stopped) when `more` new positions would grow the table
    /// past the memory bound: the table doubles, and the old and the new
    /// are held at once while it does.
    fn out_of_memory(&mut self, more: usize) -> bool {
        let Some(memory) = self.memory else {
            return false;
        };
        let capacity = self.table.capacity();
        if self.table.len() + more <= capacity {
            return false;
        }
        let grown = (capacity * 2).max(self.table.len() + more);
        if self.bytes() + table_bytes::<(Key, Entry)>(grown) > memory {
            self.stopped = true;
            self.stop = Some(Stop::Memory);
        }
        self.stopped
    }

    /// True when the attacker is to move in `pos`.
    #[inline]
    pub fn attacker_to_move(&self, pos: Pos) -> bool {
        let (a, d) = (pos.att.count_ones(), pos.def.count_ones());
        match self.attacker {
            Player::X => a == d,
            Player::O => d > a,
        }
    }

    /// The table's key of a position: up to symmetry unless that is switched off.
    #[inline]
    pub fn key(&self, pos: Pos) -> Key {
        if self.techniques.has(Technique::Symmetry) {
            self.lines.canonical(pos.att, pos.def)
        } else {
            (pos.att, pos.def)
        }
    }

    /// Does the attacker win from `pos`? `None` when the deadline came first.
    pub fn prove(&mut self, pos: Pos) -> Option<bool> {
        let key = self.key(pos);
        self.ensure(pos, key);
        self.mid(pos, key, INF, INF);
        let entry = self.table[&key];
        if entry.pn == 0 {
            Some(true)
        } else if entry.dn == 0 {
            Some(false)
        } else {
            None
        }
    }

    /// The stored numbers of a position, if the search has met it.
    pub fn entry(&self, pos: Pos) -> Option<Entry> {
        self.table.get(&self.key(pos)).copied()
    }

    /// Creates the table entry of a position met for the first time, settled
    /// if the rules settle it at a glance.
    fn ensure(&mut self, pos: Pos, key: Key) -> Entry {
        if let Some(&entry) = self.table.get(&key) {
            return entry;
        }
        self.counts.positions += 1;
        let entry = match self.by_rules(pos) {
            Some(attacker_wins) => settled(attacker_wins),
            // The more moves a side has, the more of them its opponent must
            // answer: a position starts with that many to prove (or disprove).
            None => {
                let n = self.moves(pos).count_ones().max(1);
                let (pn, dn) = if self.attacker_to_move(pos) {
                    (1, n)
                } else {
                    (n, 1)
                };
                Entry {
                    pn,
                    dn,
                    evaluated: false,
                }
            }
        };
        self.table.insert(key, entry);
        entry
    }

    /// The result when the rules give it at a glance: a line completed, a
    /// full board, a win on the move or two threats at once, no line left.
    pub fn by_rules(&self, pos: Pos) -> Option<bool> {
        let lines = self.lines;
        if lines.geometry.has_line(pos.att) {
            return Some(true);
        }
        if lines.geometry.has_line(pos.def) {
            return Some(false);
        }
        let empty = lines.full & !(pos.att | pos.def);
        if empty == 0 {
            return Some(false);
        }
        let (their_wins, my_wins) = (lines.wins(pos.def, empty), lines.wins(pos.att, empty));
        if self.attacker_to_move(pos) {
            if my_wins != 0 {
                return Some(true);
            }
            if their_wins.count_ones() >= 2 {
                return Some(false);
            }
        } else {
            if their_wins != 0 {
                return Some(false);
            }
            if my_wins.count_ones() >= 2 {
                return Some(true);
            }
        }
        if lines.open_lines(pos.def).is_empty() {
            return Some(false);
        }
        None
    }

    /// The slower tests of a position the rules leave open: a win by
    /// continuous threats for the attacker, pairs or a low potential for
    /// the defender.
    fn evaluate(&mut self, pos: Pos) -> Option<bool> {
        let lines = self.lines;
        let attacker_moves = self.attacker_to_move(pos);
        if self.techniques.has(Technique::Potential)
            && potential::holds(lines, pos.att, pos.def, attacker_moves)
        {
            self.counts.potential += 1;
            return Some(false);
        }
        if attacker_moves
            && self.techniques.has(Technique::Threats)
            && threats::first_move(lines, pos.att, pos.def, &mut self.failed_threats).is_some()
        {
            self.counts.threat_wins += 1;
            return Some(true);
        }
        if self.techniques.has(Technique::Pairing)
            && attacker_moves
            && pairing::find(lines, pos.def, pos.att).is_some()
        {
            self.counts.pairings += 1;
            return Some(false);
        }
        None
    }

    /// The moves worth searching in a position the rules leave open: the
    /// forced block if there is one, else every empty cell on a line either
    /// side can still complete (a cell on none is as good as passing, and
    /// passing never beats a move).
    pub fn moves(&self, pos: Pos) -> u64 {
        let lines = self.lines;
        let empty = lines.full & !(pos.att | pos.def);
        let attacker_moves = self.attacker_to_move(pos);
        let their_wins = if attacker_moves {
            lines.wins(pos.def, empty)
        } else {
            lines.wins(pos.att, empty)
        };
        if their_wins != 0 {
            return their_wins;
        }
        if !self.techniques.has(Technique::DeadCells) {
            return empty;
        }
        lines.cells_of(lines.open_lines(pos.def) | lines.open_lines(pos.att)) & empty
    }

    /// The cells of `moves`, most promising first: the cells whose open
    /// lines (of either side) weigh most, a line weighing more the more marks
    /// it has. The search tries them in this order when their numbers tie.
    fn ordered(&self, pos: Pos, moves: u64) -> Vec<usize> {
        let lines = self.lines;
        let mut weight = [0u32; 64];
        if moves.count_ones() > 1 {
            for (open, marks) in [
                (lines.open_lines(pos.def), pos.att),
                (lines.open_lines(pos.att), pos.def),
            ] {
                for id in open.ids() {
                    let line = lines.mask(id);
                    let w = 1 << (line & marks).count_ones();
                    for cell in cells(line & moves) {
                        weight[cell] += w;
                    }
                }
            }
        }
        let mut order: Vec<usize> = cells(moves).collect();
        order.sort_by_key(|&cell| std::cmp::Reverse(weight[cell]));
        order
    }

    /// The proof-number search below `pos` until its numbers reach a threshold.
    fn mid(&mut self, pos: Pos, key: Key, th_pn: u32, th_dn: u32) {
        let mut entry = self.table[&key];
        if !entry.evaluated {
            entry.evaluated = true;
            if let Some(attacker_wins) = self.evaluate(pos) {
                entry = settled(attacker_wins);
            }
            self.table.insert(key, entry);
        }
        if entry.pn == 0 || entry.dn == 0 || self.stopped {
            return;
        }
        let attacker_moves = self.attacker_to_move(pos);
        if self.out_of_memory(self.moves(pos).count_ones() as usize) {
            return;
        }
        let mut children: Vec<(Pos, Key)> = Vec::new();
        for cell in self.ordered(pos, self.moves(pos)) {
            let child = pos.play(cell, attacker_moves);
            let child_key = self.key(child);
            if children.iter().any(|&(_, k)| k == child_key) {
                continue;
            }
            self.ensure(child, child_key);
            children.push((child, child_key));
        }
        loop {
            // The node's numbers from its children's; the best child and the runner-up.
            let (mut sum, mut best, mut best_i, mut second) = (0u64, INF, 0, INF);
            for (i, (_, child_key)) in children.iter().enumerate() {
                let child = self.table[child_key];
                let (small, large) = if attacker_moves {
                    (child.pn, child.dn)
                } else {
                    (child.dn, child.pn)
                };
                sum += u64::from(large);
                if small < best {
                    (second, best, best_i) = (best, small, i);
                } else if small < second {
                    second = small;
                }
            }
            let sum = sum.min(u64::from(INF)) as u32;
            let (pn, dn) = if attacker_moves {
                (best, sum)
            } else {
                (sum, best)
            };
            entry.pn = pn;
            entry.dn = dn;
            self.table.insert(key, entry);
            if pn >= th_pn || dn >= th_dn || self.stopped || self.clock_expired() {
                return;
            }
            let (child, child_key) = children[best_i];
            let child_entry = self.table[&child_key];
            // The 1+ε rule: stay a little longer below the best child.
            let widen = |n: u32| {
                (u64::from(n) + 1)
                    .max(u64::from(n) * 5 / 4)
                    .min(u64::from(INF)) as u32
            };
            let (child_pn, child_dn) = if attacker_moves {
                (
                    th_pn.min(widen(second)),
                    remaining(th_dn, dn, child_entry.dn),
                )
            } else {
                (
                    remaining(th_pn, pn, child_entry.pn),
                    th_dn.min(widen(second)),
                )
            };
            self.mid(child, child_key, child_pn, child_dn);
        }
    }

    /// A move for the side to move in `pos` that keeps a proven result:
    /// the attacker's win (`attacker_wins`) or the defender's hold. Searched
    /// for where the table does not know; `None` only if the result was not
    /// proven after all (or the deadline came first).
    pub fn keeping_move(&mut self, pos: Pos, attacker_wins: bool) -> Option<usize> {
        let lines = self.lines;
        let empty = lines.full & !(pos.att | pos.def);
        let mover_is_attacker = self.attacker_to_move(pos);
        let (mine, theirs) = if mover_is_attacker {
            (pos.att, pos.def)
        } else {
            (pos.def, pos.att)
        };
        // A line completed, else a line of the other side's blocked.
        let now = lines.wins(mine, empty) | lines.wins(theirs, empty);
        if let Some(cell) = cells(lines.wins(mine, empty)).next().or(cells(now).next()) {
            return Some(cell);
        }
        if attacker_wins
            && self.techniques.has(Technique::Threats)
            && let Some(cell) =
                threats::first_move(lines, pos.att, pos.def, &mut self.failed_threats)
        {
            return Some(cell);
        }
        if !attacker_wins
            && self.techniques.has(Technique::Potential)
            && potential::holds(lines, pos.att, pos.def, false)
            && let Some(cell) = potential::defence(lines, pos.att, pos.def)
        {
            return Some(cell);
        }
        let good = |entry: Entry| {
            if attacker_wins {
                entry.pn == 0
            } else {
                entry.dn == 0
            }
        };
        let moves = self.moves(pos);
        let known = cells(moves).find(|&cell| {
            self.entry(pos.play(cell, mover_is_attacker))
                .is_some_and(good)
        });
        if known.is_some() {
            return known;
        }
        // Not in the table: the search pruned it, or it came from a leaf. The
        // moves worth searching first, then the rest (as good as passing).
        for cell in cells(moves).chain(cells(empty & !moves)) {
            if self.prove(pos.play(cell, mover_is_attacker)) == Some(attacker_wins) {
                return Some(cell);
            }
            if self.stopped {
                return None;
            }
        }
        None
    }

    fn clock_expired(&mut self) -> bool {
        if let Some(deadline) = self.deadline
            && self.counts.positions >= self.next_clock_check
        {
            self.next_clock_check = self.counts.positions + CLOCK_INTERVAL;
            if Instant::now() >= deadline {
                self.stopped = true;
                self.stop = Some(Stop::Time);
            }
        }
        self.stopped
    }
}

/// About how many bytes a hash table of `capacity` entries of `T` takes:
/// its slots (an eighth of them kept free) and a control byte each.
fn table_bytes<T>(capacity: usize) -> usize {
    capacity * 8 / 7 * (std::mem::size_of::<T>() + 1)
}

/// A child's threshold on the numbers its parent sums: what the parent may
/// still grow by before it passes its own threshold, on top of the child's.
fn remaining(threshold: u32, parent: u32, child: u32) -> u32 {
    if threshold >= INF {
        return INF;
    }
    (u64::from(threshold) - u64::from(parent) + u64::from(child)).min(u64::from(INF)) as u32
}

/// The entry of a settled position.
fn settled(attacker_wins: bool) -> Entry {
    let (pn, dn) = if attacker_wins { (0, INF) } else { (INF, 0) };
    Entry {
        pn,
        dn,
        evaluated: true,
    }
}

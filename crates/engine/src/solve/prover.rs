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
//! is a leaf; see [`Worker::evaluate`].
//!
//! # Memory
//!
//! What the search knows lives in one [`Table`] of fixed budget, shared by
//! both questions of a solver: once full, a new position replaces the
//! entry of its bucket that cost the least work. Nothing else grows with
//! the proof: each frame of the search keeps its children's numbers on its
//! own, so a child dropped from the table is not searched from scratch
//! while its parent is on the path, and the lossy [`Failures`] of each
//! thread has a fixed size.
//!
//! # Threads
//!
//! With `threads` above one, a question that is still open after
//! [`PARALLEL_AFTER`] positions is searched by that many threads at once
//! (the others join the first where it is, without it starting over),
//! in the manner of Kaneko's parallel df-pn (AAAI 2010): every thread runs
//! the same search from the question's position on the one shared table,
//! and reads its children's numbers from the table at every step, so what
//! one thread proves steers the others at once. To keep them apart, each
//! position counts the threads searching below it (in a small array of
//! counters by hash), and a thread choosing a child treats the child's
//! deciding number (its proof number below the attacker's moves, its
//! disproof number below the defender's) as `n + t * (n / 2 + 1)` where `t`
//! threads are in it: a *virtual* number that only steers the choice and
//! its threshold, never what is stored. The answer is the first thread's
//! to settle the question's position; the others then stop. A table entry
//! written by two threads at once is lost, never wrong (see
//! [`Table`]), and any entry the search reads may be out of date: df-pn
//! only ever needs numbers that are true at some moment, so the value
//! proven is the same whatever the threads did, and the strategies are read
//! afterwards, by one thread, from the settled table.

use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU16, AtomicU64, Ordering::Relaxed};
use std::time::Instant;

use super::lines::{Lines, cells};
use super::progress::Monitor;
use super::table::{Entry, Failures, Key, Table, View, hash};
use super::{Stop, Technique, Techniques, pairing, potential, threats};
use crate::player::Player;

/// A proof or disproof number too big to matter: the position is settled the other way.
pub(crate) const INF: u32 = u32::MAX / 4;

/// How often (in positions created, per thread) the clock, the monitor and
/// the table are looked at.
const CHECK_INTERVAL: u64 = 1024;

/// How often (in positions created, per thread) the table may grow.
const GROWTH_INTERVAL: u64 = 16;

/// Positions a question creates on one thread before its other threads
/// join in: a small question is over before threads would pay.
pub(crate) const PARALLEL_AFTER: u64 = 1 << 14;

/// How often (in steps of one frame) a thread reads its children's news
/// from the table when other threads search too.
const REFRESH: u32 = 4;

/// Counters of the threads searching below a position, by hash.
const BUSY_SLOTS: usize = 1 << 16;

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
    /// Positions the proof-number search created (a position dropped from
    /// a full table and met again is created again).
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

/// The rules of one question, as every thread reads them.
#[derive(Clone, Copy)]
pub(crate) struct Question {
    pub lines: &'static Lines,
    pub attacker: Player,
    pub techniques: Techniques,
}

impl Question {
    /// True when the attacker is to move in `pos`.
    #[inline]
    pub fn attacker_to_move(self, pos: Pos) -> bool {
        let (a, d) = (pos.att.count_ones(), pos.def.count_ones());
        match self.attacker {
            Player::X => a == d,
            Player::O => d > a,
        }
    }

    /// The table's key of a position: up to symmetry unless that is
    /// switched off. The two questions share one table: O's keys hold the
    /// defender's marks inverted, which no key of X's can equal (that
    /// would take a position whose two sides fill the board with no
    /// attacker's mark).
    #[inline]
    pub fn key(self, pos: Pos) -> Key {
        let (att, def) = if self.techniques.has(Technique::Symmetry) {
            self.lines.canonical(pos.att, pos.def)
        } else {
            (pos.att, pos.def)
        };
        match self.attacker {
            Player::X => (att, def),
            Player::O => (att, !def),
        }
    }

    /// The result when the rules give it at a glance: a line completed, a
    /// full board, a win on the move or two threats at once, no line left.
    pub fn by_rules(self, pos: Pos) -> Option<bool> {
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

    /// The moves worth searching in a position the rules leave open: the
    /// forced block if there is one, else every empty cell on a line either
    /// side can still complete (a cell on none is as good as passing, and
    /// passing never beats a move).
    pub fn moves(self, pos: Pos) -> u64 {
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
    fn ordered(self, pos: Pos, moves: u64) -> Vec<usize> {
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

    /// The entry of a position met for the first time: settled if the
    /// rules settle it at a glance, else with as many to prove (or
    /// disprove) as its side has moves: the more moves a side has, the
    /// more of them its opponent must answer.
    fn fresh(self, pos: Pos) -> Entry {
        match self.by_rules(pos) {
            Some(attacker_wins) => settled(attacker_wins),
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
                    work: 0,
                }
            }
        }
    }
}

/// What one question (one attacker) keeps from call to call besides the
/// table: its counts and each thread's lossy cache of failed threat searches.
pub(crate) struct Side {
    pub counts: Counts,
    failures: Vec<Failures>,
    /// The threads searching below each position, by hash (made for the
    /// first search with more than one thread).
    busy: Box<[AtomicU16]>,
}

impl Side {
    pub fn new() -> Side {
        Side {
            counts: Counts::default(),
            failures: vec![Failures::new()],
            busy: Box::default(),
        }
    }
}

/// How the searches run: a solver's settings for one call.
#[derive(Clone, Default)]
pub(crate) struct Run {
    /// When to give up.
    pub deadline: Option<Instant>,
    /// Threads to search with (1 at least).
    pub threads: usize,
    /// Whom to tell how far the search has got, and who may interrupt it.
    pub monitor: Option<Monitor>,
    /// Stop (as if interrupted) once this call has created this many positions.
    pub positions: Option<u64>,
}

/// One question's search over a solver's table.
pub(crate) struct Prover<'a> {
    pub question: Question,
    pub lines: &'static Lines,
    pub attacker: Player,
    table: &'a mut Table,
    side: &'a mut Side,
    run: Run,
    /// Why the last call stopped without an answer, if it did.
    pub stop: Option<Stop>,
}

/// Why the threads of a search stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
enum Halt {
    Running = 0,
    /// The question's position is settled.
    Answered,
    Time,
    Interrupted,
}

/// What the threads of one search share.
struct Shared<'r> {
    halt: AtomicBool,
    why: AtomicU8,
    /// 1: the attacker wins, 2: it does not (set with [`Halt::Answered`]).
    answer: AtomicU8,
    run: &'r Run,
    /// The question's position.
    root: Key,
    /// Positions created since the question was asked, all threads.
    created: AtomicU64,
    /// The threads searching below each position, by hash (empty with one thread).
    busy: &'r [AtomicU16],
}

impl Shared<'_> {
    /// Stops every thread; the first reason given stays.
    fn stop(&self, why: Halt) {
        if self
            .why
            .compare_exchange(Halt::Running as u8, why as u8, Relaxed, Relaxed)
            .is_ok()
        {
            self.halt.store(true, Relaxed);
        }
    }

    fn why(&self) -> Halt {
        match self.why.load(Relaxed) {
            1 => Halt::Answered,
            2 => Halt::Time,
            3 => Halt::Interrupted,
            _ => Halt::Running,
        }
    }
}

impl<'a> Prover<'a> {
    pub fn new(
        question: Question,
        table: &'a mut Table,
        side: &'a mut Side,
        mut run: Run,
    ) -> Prover<'a> {
        run.threads = run.threads.max(1);
        Prover {
            question,
            lines: question.lines,
            attacker: question.attacker,
            table,
            side,
            run,
            stop: None,
        }
    }

    /// True when the attacker is to move in `pos`.
    #[inline]
    pub fn attacker_to_move(&self, pos: Pos) -> bool {
        self.question.attacker_to_move(pos)
    }

    /// The stored numbers of a position, if the table holds them.
    pub fn entry(&self, pos: Pos) -> Option<Entry> {
        self.table.view().get(self.question.key(pos))
    }

    /// Does the attacker win from `pos`? `None` when the search stopped
    /// first ([`Prover::stop`] says why).
    pub fn prove(&mut self, pos: Pos) -> Option<bool> {
        self.stop = None;
        let threads = self.run.threads;
        let key = self.question.key(pos);
        if threads > 1 && self.side.busy.is_empty() {
            self.side.busy = (0..BUSY_SLOTS).map(|_| AtomicU16::new(0)).collect();
        }
        while self.side.failures.len() < threads {
            self.side.failures.push(Failures::new());
        }
        let shared = Shared {
            halt: AtomicBool::new(false),
            why: AtomicU8::new(Halt::Running as u8),
            answer: AtomicU8::new(0),
            run: &self.run,
            root: key,
            created: AtomicU64::new(0),
            busy: &self.side.busy,
        };
        let table: &Table = self.table;
        let question = self.question;
        let (first, helpers) = self
            .side
            .failures
            .split_first_mut()
            .expect("one thread at least");
        let counts = if threads == 1 {
            let mut worker = Worker::new(question, table, first, &shared, true, None);
            worker.search(pos, key);
            (worker.finish(), 1)
        } else {
            std::thread::scope(|scope| {
                let shared = &shared;
                let mut handles = Vec::new();
                let mut spare = helpers.iter_mut().take(threads - 1);
                // Called once by the first thread when the question is big enough.
                let mut spawn = || {
                    for failures in spare.by_ref() {
                        handles.push(scope.spawn(move || {
                            let mut worker =
                                Worker::new(question, table, failures, shared, false, None);
                            worker.search(pos, key);
                            worker.finish()
                        }));
                    }
                };
                let mut worker =
                    Worker::new(question, table, first, shared, true, Some(&mut spawn));
                worker.search(pos, key);
                let mut counts = worker.finish();
                let used = 1 + handles.len();
                for handle in handles {
                    match handle.join() {
                        Ok(more) => counts += more,
                        Err(panic) => std::panic::resume_unwind(panic),
                    }
                }
                (counts, used)
            })
        };
        let (counts, used) = counts;
        self.side.counts += counts;
        let view = table.view();
        if let Some(monitor) = &self.run.monitor {
            let entry = view.get(key).unwrap_or_else(|| question.fresh(pos));
            monitor.publish(self.attacker, (entry.pn, entry.dn), used, view.usage());
        }
        match shared.why() {
            Halt::Answered => Some(shared.answer.load(Relaxed) == 1),
            Halt::Time => {
                self.stop = Some(Stop::Time);
                None
            }
            Halt::Interrupted | Halt::Running => {
                self.stop = Some(Stop::Interrupted);
                None
            }
        }
    }

    /// A move for the side to move in `pos` that keeps a proven result:
    /// the attacker's win (`attacker_wins`) or the defender's hold. Searched
    /// for where the table does not know (the search pruned it, or a full
    /// table dropped it); `None` only if the result was not proven after all
    /// (or the search stopped first).
    pub fn keeping_move(&mut self, pos: Pos, attacker_wins: bool) -> Option<usize> {
        let lines = self.lines;
        let techniques = self.question.techniques;
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
            && techniques.has(Technique::Threats)
            && let Some(cell) =
                threats::first_move(lines, pos.att, pos.def, &mut self.side.failures[0])
        {
            return Some(cell);
        }
        if !attacker_wins
            && techniques.has(Technique::Potential)
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
        let moves = self.question.moves(pos);
        let known = |prover: &Self| {
            cells(moves).find(|&cell| {
                prover
                    .entry(pos.play(cell, mover_is_attacker))
                    .is_some_and(good)
            })
        };
        if let Some(cell) = known(self) {
            return Some(cell);
        }
        // Not in the table: the search pruned it, or a full table dropped
        // it. Searching this position again (as if it were new, its leaf
        // tests aside, which failed above) settles it by the child the
        // search finds first, as the proof did, and leaves that child in
        // the table.
        let key = self.question.key(pos);
        let fresh = Entry {
            evaluated: true,
            ..self.question.fresh(pos)
        };
        if fresh.pn != 0 && fresh.dn != 0 {
            self.table.view().store(key, fresh);
            if self.prove(pos) != Some(attacker_wins) {
                return None;
            }
            if let Some(cell) = known(self) {
                return Some(cell);
            }
        }
        // Dropped again at once (a tiny table): the moves worth searching
        // in the search's order, then the rest (as good as passing).
        let ordered = self.question.ordered(pos, moves);
        for cell in ordered.into_iter().chain(cells(empty & !moves)) {
            if self.prove(pos.play(cell, mover_is_attacker)) == Some(attacker_wins) {
                return Some(cell);
            }
            if self.stop.is_some() {
                return None;
            }
        }
        None
    }
}

/// A child as its parent's frame keeps it: its numbers as last read, and
/// as this thread saw them when its search last returned (until the table
/// has newer numbers).
#[derive(Clone, Copy)]
struct Child {
    pos: Pos,
    key: Key,
    entry: Entry,
    seen: Option<(u32, u32)>,
}

/// One thread's search.
struct Worker<'r> {
    question: Question,
    table: View<'r>,
    failures: &'r mut Failures,
    shared: &'r Shared<'r>,
    counts: Counts,
    /// Positions created when the next look at the clock is due.
    next_check: u64,
    /// Steps of the search since the last look.
    steps: u64,
    /// Positions already added to the shared count.
    reported: u64,
    /// More than one thread searches (the table must be read at every step).
    parallel: bool,
    /// Keeps [`Worker::path`] (the search may have more than one thread).
    track: bool,
    /// The positions this thread is searching below, root first, and
    /// whether each is counted in the busy counters.
    path: Vec<(Key, bool)>,
    /// The first thread's way to call in the others, until it has.
    spawn: Option<&'r mut dyn FnMut()>,
    /// The first thread: it publishes the question's numbers.
    lead: bool,
}

impl<'r> Worker<'r> {
    fn new(
        question: Question,
        table: &'r Table,
        failures: &'r mut Failures,
        shared: &'r Shared<'r>,
        lead: bool,
        spawn: Option<&'r mut dyn FnMut()>,
    ) -> Worker<'r> {
        let track = !shared.busy.is_empty();
        Worker {
            question,
            table: table.view(),
            failures,
            shared,
            counts: Counts::default(),
            next_check: 0,
            steps: 0,
            reported: 0,
            // The helpers search in parallel from the start; the first
            // thread once it has called them in.
            parallel: track && !lead,
            track,
            path: Vec::new(),
            spawn: spawn.filter(|_| track),
            lead,
        }
    }

    /// Searches the question's position until the search stops.
    fn search(&mut self, pos: Pos, key: Key) {
        let mut entry = match self.table.get(key) {
            Some(entry) => entry,
            None => self.create(pos, key),
        };
        loop {
            if entry.pn == 0 || entry.dn == 0 {
                let answer = if entry.pn == 0 { 1 } else { 2 };
                self.shared.answer.store(answer, Relaxed);
                self.shared.stop(Halt::Answered);
                return;
            }
            if self.halted() {
                return;
            }
            entry = self.mid(pos, key, entry, INF, INF).0;
            if self.parallel
                && let Some(stored) = self.table.get(key)
                && (stored.pn == 0 || stored.dn == 0)
            {
                entry = stored;
            }
        }
    }

    /// Adds the last positions to the shared count; the counts of the search.
    fn finish(mut self) -> Counts {
        self.report();
        self.counts
    }

    #[inline]
    fn halted(&self) -> bool {
        self.shared.halt.load(Relaxed)
    }

    /// Creates the entry of a position the table does not hold (and
    /// lets the table grow: after every position at first, then every
    /// [`GROWTH_INTERVAL`], so that a small table grows before it drops
    /// anything).
    fn create(&mut self, pos: Pos, key: Key) -> Entry {
        self.counts.positions += 1;
        let entry = self.question.fresh(pos);
        self.table.store(key, entry);
        if self.counts.positions < GROWTH_INTERVAL * GROWTH_INTERVAL
            || self.counts.positions.is_multiple_of(GROWTH_INTERVAL)
        {
            self.table.look();
        }
        entry
    }

    /// The slower tests of a position the rules leave open: a win by
    /// continuous threats for the attacker, pairs or a low potential for
    /// the defender.
    fn evaluate(&mut self, pos: Pos) -> Option<bool> {
        let Question {
            lines, techniques, ..
        } = self.question;
        let attacker_moves = self.question.attacker_to_move(pos);
        if techniques.has(Technique::Potential)
            && potential::holds(lines, pos.att, pos.def, attacker_moves)
        {
            self.counts.potential += 1;
            return Some(false);
        }
        if attacker_moves
            && techniques.has(Technique::Threats)
            && threats::first_move(lines, pos.att, pos.def, self.failures).is_some()
        {
            self.counts.threat_wins += 1;
            return Some(true);
        }
        if techniques.has(Technique::Pairing)
            && attacker_moves
            && pairing::find(lines, pos.def, pos.att).is_some()
        {
            self.counts.pairings += 1;
            return Some(false);
        }
        None
    }

    /// The counter of threads searching below `key`.
    #[inline]
    fn busy(&self, key: Key) -> &AtomicU16 {
        &self.shared.busy[hash(key) as usize & (BUSY_SLOTS - 1)]
    }

    /// A child's deciding number as this thread sees it: raised for each
    /// other thread searching below it (see the module's docs).
    #[inline]
    fn virtual_number(&self, key: Key, n: u32) -> u32 {
        let threads = u64::from(self.busy(key).load(Relaxed));
        if threads == 0 || n >= INF {
            return n;
        }
        let n = u64::from(n);
        (n + threads * (n / 2 + 1)).min(u64::from(INF - 1)) as u32
    }

    /// The proof-number search below `pos` until its numbers reach a
    /// threshold (or the search stops): its true numbers then (stored in
    /// the table), and the numbers this thread saw, which it compared with
    /// the thresholds (the same alone; with other threads, raised by the
    /// virtual numbers below it).
    fn mid(
        &mut self,
        pos: Pos,
        key: Key,
        mut entry: Entry,
        th_pn: u32,
        th_dn: u32,
    ) -> (Entry, (u32, u32)) {
        let (work, created) = (entry.work, self.counts.positions);
        if !entry.evaluated {
            entry.evaluated = true;
            if let Some(attacker_wins) = self.evaluate(pos) {
                entry = Entry {
                    work,
                    ..settled(attacker_wins)
                };
            }
            self.table.store(key, entry);
        }
        if entry.pn == 0 || entry.dn == 0 || self.halted() {
            return (entry, (entry.pn, entry.dn));
        }
        let question = self.question;
        let attacker_moves = question.attacker_to_move(pos);
        let mut children: Vec<Child> = Vec::new();
        for cell in question.ordered(pos, question.moves(pos)) {
            let child = pos.play(cell, attacker_moves);
            let child_key = question.key(child);
            if children.iter().any(|c| c.key == child_key) {
                continue;
            }
            let child_entry = match self.table.get(child_key) {
                Some(entry) => entry,
                None => self.create(child, child_key),
            };
            children.push(Child {
                pos: child,
                key: child_key,
                entry: child_entry,
                seen: None,
            });
        }
        if self.track {
            if self.parallel {
                self.busy(key).fetch_add(1, Relaxed);
            }
            self.path.push((key, self.parallel));
        }
        let mut steps = 0u32;
        let seen = loop {
            // Alone, this frame's copies are exact: only its own calls change
            // its children (a sibling is never below another). With other
            // threads, the table has their news (read every few steps: a
            // read of every child at every step would cost more than the
            // news are worth), and a child's numbers as this thread last saw
            // them count only while it has none.
            steps += 1;
            if self.parallel && steps % REFRESH == 1 {
                for child in &mut children {
                    if let Some(stored) = self.table.get(child.key)
                        && stored != child.entry
                    {
                        (child.entry, child.seen) = (stored, None);
                    }
                }
            }
            // The node's numbers from its children's: true, and as this
            // thread sees them; the child to search and the runner-up.
            let (mut sum, mut smallest) = (0u64, INF);
            let (mut seen_sum, mut best, mut best_i, mut second) = (0u64, INF, 0, INF);
            for (i, child) in children.iter().enumerate() {
                let (pn, dn) = (child.entry.pn, child.entry.dn);
                let (seen_pn, seen_dn) =
                    child.seen.map_or((pn, dn), |(p, d)| (p.max(pn), d.max(dn)));
                let ((small, large), (seen_small, seen_large)) = if attacker_moves {
                    ((pn, dn), (seen_pn, seen_dn))
                } else {
                    ((dn, pn), (seen_dn, seen_pn))
                };
                sum += u64::from(large);
                seen_sum += u64::from(seen_large);
                smallest = smallest.min(small);
                let seen_small = if self.parallel {
                    self.virtual_number(child.key, seen_small)
                } else {
                    seen_small
                };
                if seen_small < best {
                    (second, best, best_i) = (best, seen_small, i);
                } else if seen_small < second {
                    second = seen_small;
                }
            }
            let (sum, seen_sum) = (
                sum.min(u64::from(INF)) as u32,
                seen_sum.min(u64::from(INF)) as u32,
            );
            (entry.pn, entry.dn) = if attacker_moves {
                (smallest, sum)
            } else {
                (sum, smallest)
            };
            entry.work = work
                .saturating_add(u32::try_from(self.counts.positions - created).unwrap_or(u32::MAX));
            self.table.store(key, entry);
            let (pn, dn) = if attacker_moves {
                (best, seen_sum)
            } else {
                (seen_sum, best)
            };
            if pn >= th_pn || dn >= th_dn || self.halted() || self.look() {
                break (pn, dn);
            }
            let child = children[best_i];
            // The 1+ε rule: stay a little longer below the best child.
            let widen = |n: u32| {
                (u64::from(n) + 1)
                    .max(u64::from(n) * 5 / 4)
                    .min(u64::from(INF)) as u32
            };
            let (child_pn, child_dn) = child
                .seen
                .map_or((child.entry.pn, child.entry.dn), |(p, d)| {
                    (p.max(child.entry.pn), d.max(child.entry.dn))
                });
            let (child_pn, child_dn) = if attacker_moves {
                (th_pn.min(widen(second)), remaining(th_dn, dn, child_dn))
            } else {
                (remaining(th_pn, pn, child_pn), th_dn.min(widen(second)))
            };
            let (stored, seen) = self.mid(child.pos, child.key, child.entry, child_pn, child_dn);
            children[best_i].entry = stored;
            children[best_i].seen = Some(seen);
        };
        if self.track
            && let Some((key, counted)) = self.path.pop()
            && counted
        {
            self.busy(key).fetch_sub(1, Relaxed);
        }
        (entry, seen)
    }

    /// Every [`CHECK_INTERVAL`] positions, or steps of the search (a
    /// thread may go on for a while through positions others created):
    /// the monitor is told, the table grows if it wants to, the other
    /// threads are called in once the question is big enough, and the
    /// search stops if the deadline has come or the monitor interrupts.
    /// True when the search is stopping.
    #[inline]
    fn look(&mut self) -> bool {
        self.steps += 1;
        if self.counts.positions < self.next_check && self.steps < CHECK_INTERVAL {
            return false;
        }
        self.steps = 0;
        self.next_check = self.counts.positions + CHECK_INTERVAL;
        let created = self.report();
        let shared = self.shared;
        self.table.look();
        if let Some(monitor) = &shared.run.monitor {
            if monitor.interrupted() {
                shared.stop(Halt::Interrupted);
            }
            if self.lead {
                let root = self
                    .table
                    .get(shared.root)
                    .map_or((INF, INF), |e| (e.pn, e.dn));
                let threads = if self.parallel { shared.run.threads } else { 1 };
                monitor.publish(self.question.attacker, root, threads, self.table.usage());
            }
        }
        if let Some(deadline) = shared.run.deadline
            && Instant::now() >= deadline
        {
            shared.stop(Halt::Time);
        }
        if shared.run.positions.is_some_and(|most| created >= most) {
            shared.stop(Halt::Interrupted);
        }
        if created >= PARALLEL_AFTER
            && let Some(spawn) = self.spawn.take()
        {
            // Count the path this thread is on, so that the others start elsewhere.
            for (key, counted) in &mut self.path {
                *counted = true;
                shared.busy[hash(*key) as usize & (BUSY_SLOTS - 1)].fetch_add(1, Relaxed);
            }
            self.parallel = true;
            spawn();
        }
        self.halted()
    }

    /// Adds the positions created since the last report to the shared
    /// count (and the monitor's); the shared count then.
    fn report(&mut self) -> u64 {
        let more = self.counts.positions - self.reported;
        self.reported = self.counts.positions;
        if let Some(monitor) = &self.shared.run.monitor {
            monitor.add_positions(more);
        }
        self.shared.created.fetch_add(more, Relaxed) + more
    }
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
        work: 0,
    }
}

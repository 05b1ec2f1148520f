//! The fast search: the article's minimax with the same scores, made quick.
//!
//! * Negamax over two bitboards, `mine` (the side to move) and `theirs`.
//! * Alpha-beta pruning with a centre-first move order; on bigger boards the
//!   table's best move and the killer moves (recent cutoffs at the same ply) first.
//! * Shortcuts that change no score: a win on the move, a double threat
//!   that cannot be stopped, a forced block, and boards where no line can
//!   be completed any more.
//! * A transposition table ([`super::tt`]) keyed by the position up to the 8 symmetries.
//! * An optional depth limit with an open-lines estimate at the horizon, for
//!   boards too big to solve in the time allowed; every value remembers whether
//!   it is proven or rests on an estimate.
//!
//! # Scores
//! Inside the search a move's score counts from the move itself: `W - d` for
//! a win found `d` plies after it (`W` for a win on the move), `-W + d` for a
//! loss, 0 for a draw. Those scores only depend on the position, not on
//! where it sits in the tree, so the table can share them between paths.
//! Going one ply up moves a score one step toward zero (`shrink`), which is
//! exactly GeeksforGeeks' depth adjustment, and a move's score is the
//! engine's [convention](crate::score) as it is.
//!
//! Crate-private: the public way in is [`super::analyze`] and its relatives,
//! which only ask about legal moves of boards in progress.

use std::time::Instant;

use super::board::Board;
use super::geometry::Geometry;
use super::score::{shrink, unshrink};
use super::square::Square;
use super::tt::{Bound, Entry, PROVEN, Table};

/// Above any score: the window of a search that has no bounds yet.
pub(crate) const INFINITY: i32 = 10_000;

/// Depth that no game can exhaust (at most 64 plies): search to the end.
pub(crate) const UNLIMITED: u32 = 1 << 16;

/// How often (in positions) the clock is read when there is a deadline.
const CLOCK_INTERVAL: u64 = 1024;

/// Empty cells in search order: the table's suggestion first, then the
/// killer moves, then tier by tier of the geometry's order, each tier in
/// reading order.
struct MoveOrder<'a> {
    pending: u64,
    /// Moves that refuted a sibling position, tried after the table's suggestion.
    killers: u64,
    rest: u64,
    tiers: std::slice::Iter<'a, u64>,
}

impl<'a> MoveOrder<'a> {
    fn new(empty: u64, first: Option<usize>, killers: u64, tiers: &'a [u64]) -> Self {
        let first = first.map_or(0, |cell| empty & (1 << cell));
        let killers = killers & empty & !first;
        MoveOrder {
            pending: first,
            killers,
            rest: empty & !first & !killers,
            tiers: tiers.iter(),
        }
    }
}

impl Iterator for MoveOrder<'_> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.pending == 0 {
            self.pending = if self.killers != 0 {
                std::mem::take(&mut self.killers)
            } else {
                self.rest & self.tiers.next()?
            };
        }
        let cell = self.pending.trailing_zeros() as usize;
        self.pending &= self.pending - 1;
        Some(cell)
    }
}

/// A search with its own table and counters. Reuse one for several questions
/// about related positions; results stay valid across calls.
pub(crate) struct Searcher {
    geometry: &'static Geometry,
    table: Table,
    nodes: u64,
    horizon_hits: u64,
    deadline: Option<Instant>,
    next_clock_check: u64,
    out_of_time: bool,
    /// Per ply (marks on the board): the last two moves that caused a cutoff, as a mask.
    killers: Vec<u64>,
    latest_killer: Vec<u64>,
}

impl Searcher {
    /// A searcher for boards of this shape.
    pub fn new(geometry: &'static Geometry) -> Searcher {
        // 3×3 has 5,478 positions (fewer up to symmetry): a small table is quick to set up.
        let table_bits = match geometry.cells() {
            9 => 6,
            16 => 16,
            _ => 20,
        };
        Searcher::with_table_bits(geometry, table_bits)
    }

    /// A searcher whose table has `2^bits` slots (24 bytes each, paid for as used):
    /// long solves of big boards want more than the default.
    pub fn with_table_bits(geometry: &'static Geometry, bits: u32) -> Searcher {
        Searcher {
            geometry,
            table: Table::new(bits),
            nodes: 0,
            horizon_hits: 0,
            deadline: None,
            next_clock_check: 0,
            out_of_time: false,
            killers: vec![0; geometry.cells() + 1],
            latest_killer: vec![0; geometry.cells() + 1],
        }
    }

    /// The board shape this searcher plays.
    pub fn geometry(&self) -> &'static Geometry {
        self.geometry
    }

    /// Positions examined so far (each position reached by a move counts once per visit).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Stop searching at `deadline`; results computed after it are discarded.
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
        self.next_clock_check = self.nodes;
        self.out_of_time = false;
    }

    /// True when the last search was cut short by the deadline.
    pub fn out_of_time(&self) -> bool {
        self.out_of_time
    }

    /// Score of playing `mv` for the side to move, searched `depth` plies deep
    /// (the move itself counts as one; 0 searches as 1), and whether it is
    /// proven (no estimate was used).
    ///
    /// `board` must be in progress and `mv` one of its legal moves.
    pub fn score_move(&mut self, board: &Board, mv: Square, depth: u32) -> (i32, bool) {
        self.score_move_within(board, mv, depth, -INFINITY, INFINITY)
    }

    /// [`Searcher::score_move`] inside a window: a result at or below `alpha`
    /// only says "no more than this", at or above `beta` "no less than this".
    pub fn score_move_within(
        &mut self,
        board: &Board,
        mv: Square,
        depth: u32,
        alpha: i32,
        beta: i32,
    ) -> (i32, bool) {
        debug_assert!(board.empty_cells().contains(mv) && !board.status().is_over());
        let (mine, theirs) = sides(board);
        let before = self.horizon_hits;
        let cell = mv.index(board.size());
        let score = if self.geometry.completes_line(mine | (1 << cell), cell) {
            self.nodes += 1;
            self.geometry.win_score()
        } else {
            self.quiet_score(mine, theirs, cell, alpha, beta, depth)
        };
        (score, self.horizon_hits == before)
    }

    /// [`Searcher::score_move`], on boards bigger than 3×3 trying first the
    /// narrow window around a draw: most positions are draws, only 0 fits
    /// between -1 and 1, and a narrow window prunes hardest. A win or loss is
    /// then searched again on its side for its precise distance. (3×3 is small
    /// enough that one full window costs fewer positions.)
    pub fn score_move_draw_first(&mut self, board: &Board, mv: Square, depth: u32) -> (i32, bool) {
        if self.geometry.is_classic() {
            return self.score_move(board, mv, depth);
        }
        let (score, proven) = self.score_move_within(board, mv, depth, -1, 1);
        if score >= 1 {
            self.score_move_within(board, mv, depth, 0, INFINITY)
        } else if score <= -1 {
            self.score_move_within(board, mv, depth, -INFINITY, 0)
        } else {
            (score, proven)
        }
    }

    /// The move the table remembers as best in `board` (in progress), if it
    /// holds the position.
    pub fn table_move(&self, board: &Board) -> Option<Square> {
        if !std::ptr::eq(board.geometry(), self.geometry) {
            return None;
        }
        let rules = self.geometry;
        let (mine, theirs) = sides(board);
        let (key_mine, key_theirs, symmetry) = rules.canonical(mine, theirs);
        let entry = self.table.probe(key_mine, key_theirs)?;
        if entry.best == u8::MAX {
            return None;
        }
        let cell = rules.map_cell(inverse(symmetry), usize::from(entry.best));
        let mv = Square::from_index(cell, board.size());
        board.empty_cells().contains(mv).then_some(mv)
    }

    /// Score of playing `cell`, known not to complete a line, for the owner
    /// of `mine`, `depth` plies deep.
    fn quiet_score(
        &mut self,
        mine: u64,
        theirs: u64,
        cell: usize,
        alpha: i32,
        beta: i32,
        depth: u32,
    ) -> i32 {
        let rules = self.geometry;
        self.nodes += 1;
        let mine = mine | (1 << cell);
        if mine | theirs == rules.full_mask() {
            return 0;
        }
        // The opponent's best, seen from our side and one ply further away.
        // (Depth 0 here can only come from a caller asking for no depth at
        // all, which searches as depth 1.)
        let below = depth.saturating_sub(1);
        -shrink(self.node(theirs, mine, unshrink(-beta), unshrink(-alpha), below))
    }

    /// Value for the owner of `mine`, to move in a position nobody has won and
    /// with at least one empty cell. Fail-soft alpha-beta.
    fn node(&mut self, mine: u64, theirs: u64, alpha: i32, beta: i32, depth: u32) -> i32 {
        let rules = self.geometry;
        if self.out_of_time || self.clock_expired() {
            return 0;
        }
        let win = rules.win_score();
        let empty = rules.full_mask() & !(mine | theirs);
        // Most positions end at one of the checks below.
        if rules.threats(mine) & empty != 0 {
            self.nodes += 1;
            return win;
        }
        let their_wins = rules.threats(theirs) & empty;
        if their_wins.count_ones() > 1 {
            // Two threats: block one and the other wins, so every move loses at once.
            self.nodes += 1;
            return -shrink(win);
        }
        if their_wins != 0 {
            // Any other move loses at once, so the block is the value. A forced
            // move costs no depth: it cannot hide anything behind the horizon.
            let block = their_wins.trailing_zeros() as usize;
            return self.quiet_score(mine, theirs, block, alpha, beta, depth + 1);
        }
        // A side with no line left to complete can at best draw.
        let upper = if rules.blocks_every_line(theirs) {
            0
        } else {
            win
        };
        let lower = if rules.blocks_every_line(mine) {
            0
        } else {
            -win
        };
        if upper == lower {
            return 0;
        }
        if upper <= alpha {
            return upper;
        }
        if lower >= beta {
            return lower;
        }
        if depth == 0 {
            self.horizon_hits += 1;
            return self.estimate(mine, theirs).clamp(lower, upper);
        }

        let (key_mine, key_theirs, symmetry) = rules.canonical(mine, theirs);
        let mut first_cell = None;
        if let Some(entry) = self.table.probe(key_mine, key_theirs) {
            if entry.depth == PROVEN || entry.depth >= depth {
                let value = i32::from(entry.value);
                let decisive = match entry.bound {
                    Bound::Equal => true,
                    Bound::Lower => value >= beta,
                    Bound::Upper => value <= alpha,
                };
                if decisive {
                    if entry.depth != PROVEN {
                        self.horizon_hits += 1;
                    }
                    return value;
                }
            }
            if entry.best != u8::MAX {
                first_cell = Some(rules.map_cell(inverse(symmetry), usize::from(entry.best)));
            }
        }

        let hits_before = self.horizon_hits;
        let mut best = -INFINITY;
        let mut best_cell = u8::MAX;
        let mut floor = alpha;
        // No move wins on the spot here (checked above), so every move is quiet.
        let ply = (mine | theirs).count_ones() as usize;
        let killers = self.killers[ply];
        for cell in MoveOrder::new(empty, first_cell, killers, rules.order_tiers()) {
            let score = self.quiet_score(mine, theirs, cell, floor, beta, depth);
            if score > best {
                best = score;
                best_cell = cell as u8;
                if score > floor {
                    floor = score;
                    if floor >= beta {
                        self.remember_killer(ply, cell);
                        break;
                    }
                }
            }
        }
        if self.out_of_time {
            return 0;
        }

        let bound = if best <= alpha {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Equal
        };
        let proven = self.horizon_hits == hits_before;
        self.table.store(Entry {
            mine: key_mine,
            theirs: key_theirs,
            value: best as i16,
            bound,
            best: rules.map_cell(symmetry, usize::from(best_cell)) as u8,
            depth: if proven { PROVEN } else { depth },
        });
        best
    }

    /// Horizon estimate for the side to move: lines still open to one side
    /// only, weighted by how full they are. Kept within the geometry's
    /// estimate limit, so it is never confused with a forced line.
    fn estimate(&self, mine: u64, theirs: u64) -> i32 {
        let rules = self.geometry;
        let mut total = 0i32;
        for &line in rules.lines() {
            let (m, t) = ((line & mine).count_ones(), (line & theirs).count_ones());
            if t == 0 && m > 0 {
                total += 1 << (2 * m);
            } else if m == 0 && t > 0 {
                total -= 1 << (2 * t);
            }
        }
        let limit = self.geometry.estimate_limit();
        (total / 4).clamp(-limit, limit)
    }

    /// Keeps the two latest different moves that caused a cutoff at this ply.
    fn remember_killer(&mut self, ply: usize, cell: usize) {
        let bit = 1u64 << cell;
        if self.latest_killer[ply] != bit {
            self.killers[ply] = self.latest_killer[ply] | bit;
            self.latest_killer[ply] = bit;
        }
    }

    fn clock_expired(&mut self) -> bool {
        if let Some(deadline) = self.deadline
            && self.nodes >= self.next_clock_check
        {
            self.next_clock_check = self.nodes + CLOCK_INTERVAL;
            self.out_of_time = Instant::now() >= deadline;
        }
        self.out_of_time
    }
}

/// The symmetry that undoes `symmetry`: rotations by 90° and 270° swap, the rest are their own inverse.
fn inverse(symmetry: usize) -> usize {
    match symmetry {
        1 => 3,
        3 => 1,
        s => s,
    }
}

fn sides(board: &Board) -> (u64, u64) {
    let mover = board.to_move();
    (board.bits(mover), board.bits(mover.other()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twins_searched_separately_from_scratch_agree() {
        // Symmetric about the main diagonal: b1 and a2 are twins, so are d1 and a4.
        let board: Board = "x.../..../..o./....".parse().unwrap();
        let symmetries = board.symmetries();
        assert_eq!(symmetries.first_twin(Square::new(1, 0)), Square::new(0, 1));
        assert_eq!(symmetries.first_twin(Square::new(3, 0)), Square::new(0, 3));
        assert_eq!(symmetries.first_twin(Square::new(1, 1)), Square::new(1, 1));
        assert_eq!(
            symmetries.first_twin(Square::new(200, 9)),
            Square::new(200, 9)
        );
        for (a, b) in [
            (Square::new(0, 1), Square::new(1, 0)),
            (Square::new(0, 3), Square::new(3, 0)),
        ] {
            let score = |mv| Searcher::new(board.geometry()).score_move(&board, mv, 6);
            assert_eq!(score(a), score(b), "{a} and {b}");
        }
    }

    #[test]
    fn depth_zero_searches_as_depth_one() {
        for board in ["xx./oo./...", "x.../..../..o./...."] {
            let board: Board = board.parse().unwrap();
            for mv in board.legal_moves() {
                let at = |depth| Searcher::new(board.geometry()).score_move(&board, mv, depth);
                assert_eq!(at(0), at(1), "{board} {mv}");
            }
        }
    }
}

//! The lab's ladder: one position searched by GeeksforGeeks' minimax, then
//! again with one technique after another added to it, in the spirit of
//! Pascal Pons's "Solving Connect Four" steps. Each [`Rung`] keeps every
//! technique of the rungs before it and adds its own:
//!
//! 1. [`Rung::Minimax`]: the article's minimax, every position of the tree;
//! 2. [`Rung::AlphaBeta`]: alpha-beta pruning, replies in reading order;
//! 3. [`Rung::Ordering`]: the replies most likely best first: a win, then a
//!    block of the opponent's win, then the squares nearest the centre;
//! 4. [`Rung::Table`]: a transposition table: a position reached again by
//!    another order of the same moves is looked up, not searched again;
//! 5. [`Rung::Symmetry`]: positions that are rotations or reflections of one
//!    another are one entry of the table, and of moves that mirror each other
//!    only the first is tried;
//! 6. [`Rung::Deepening`]: iterative deepening: searches one ply deeper at a
//!    time, each trying first the move the one before found best, and stops
//!    as soon as the value is certain (a quick win is found in a shallow
//!    search);
//! 7. [`Rung::Compiled`] (3×3): the table the compiler built, a lookup.
//!
//! Every rung gives the same value, the value of the position for the side
//! to move as [`reference::minimax_value`](super::reference::minimax_value) gives it; what
//! changes is how many positions it searches. A position counts once for
//! every call of the search, as [`trace`](super::trace) counts the calls of
//! minimax: the first rung's count is the trace's.
//!
//! ```
//! use tictactoe_engine::{Board, Scoring};
//! use tictactoe_engine::teach::{ladder::{Rung, search}, reference};
//!
//! let board = Board::new();
//! let plain = search(&board, Rung::Minimax, Scoring::Depth, u64::MAX).unwrap();
//! assert_eq!(plain.positions, 549_946);
//! let pruned = search(&board, Rung::AlphaBeta, Scoring::Depth, u64::MAX).unwrap();
//! assert_eq!(pruned.value, plain.value);
//! assert_eq!(plain.value, reference::minimax_value(&board, Scoring::Depth));
//! assert!(pruned.positions < plain.positions / 10);
//! ```

use std::collections::HashMap;

use thiserror::Error;

use super::reference::{Bound, MOVE_DEPTH, Window, finished_value, is_root_max};
use crate::board::Board;
use crate::player::Player;
use crate::score::Scoring;
use crate::solved;
use crate::square::Square;

/// A technique of the ladder, added to those of the rungs before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rung {
    /// GeeksforGeeks' minimax: every position of the tree.
    Minimax,
    /// Alpha-beta pruning, the replies tried in reading order.
    AlphaBeta,
    /// Move ordering: a win first, then a block, then nearest the centre.
    Ordering,
    /// A transposition table: each position searched once.
    Table,
    /// Rotations and reflections of a position are one position.
    Symmetry,
    /// Iterative deepening: one ply deeper at a time, the best move first.
    Deepening,
    /// The table the compiler built for 3×3: a lookup, no search.
    Compiled,
}

impl Rung {
    /// Every rung, from the bottom of the ladder.
    pub const ALL: [Rung; 7] = [
        Rung::Minimax,
        Rung::AlphaBeta,
        Rung::Ordering,
        Rung::Table,
        Rung::Symmetry,
        Rung::Deepening,
        Rung::Compiled,
    ];

    /// Its name in tables and JSON: `minimax`, `alpha-beta`, `ordering`,
    /// `table`, `symmetry`, `deepening`, `compiled`.
    pub const fn name(self) -> &'static str {
        match self {
            Rung::Minimax => "minimax",
            Rung::AlphaBeta => "alpha-beta",
            Rung::Ordering => "ordering",
            Rung::Table => "table",
            Rung::Symmetry => "symmetry",
            Rung::Deepening => "deepening",
            Rung::Compiled => "compiled",
        }
    }

    /// True when the rung can search `board`: the compiled table knows only 3×3.
    pub fn applies(self, board: &Board) -> bool {
        self != Rung::Compiled || board.is_classic()
    }
}

/// What one rung found and what it cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Searched {
    /// The value of the position for the side to move.
    pub value: i32,
    /// Positions searched: one per call of the search, the position itself
    /// included; 0 for the compiled table's lookup.
    pub positions: u64,
}

/// Why a rung gave no value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum Refused {
    /// The search went past the positions it was allowed.
    #[error("stopped after {budget} positions")]
    OverBudget {
        /// The most positions allowed.
        budget: u64,
    },
    /// The compiled table knows only 3×3.
    #[error("the compiled table knows only 3x3")]
    NoTable,
}

/// Searches `board` with the techniques of `rung` and those below it,
/// counting by `scoring`; refused once more than `budget` positions have
/// been searched.
pub fn search(
    board: &Board,
    rung: Rung,
    scoring: Scoring,
    budget: u64,
) -> Result<Searched, Refused> {
    if rung == Rung::Compiled {
        return compiled(board, scoring);
    }
    let mut search = Search {
        rung,
        scoring,
        budget,
        positions: 0,
        table: HashMap::new(),
        best_moves: HashMap::new(),
        horizon: None,
        reached_horizon: false,
    };
    let value = if rung >= Rung::Deepening {
        search.deepening(board)?
    } else {
        search.minimax(board, 0, Window::OPEN, is_root_max(board, scoring))?
    };
    Ok(Searched {
        value,
        positions: search.positions,
    })
}

/// The compiled table's answer: the best move's score, looked up.
fn compiled(board: &Board, scoring: Scoring) -> Result<Searched, Refused> {
    let moves = solved::scored_moves(board).ok_or(Refused::NoTable)?;
    let win = board.geometry().win_score();
    let value = match moves.iter().map(|scored| scored.score).max() {
        // The table scores for the side to move; CS50 counts for X.
        Some(best) if is_root_max(board, scoring) => scoring.of(best, true, win),
        Some(best) => -scoring.of(best, true, win),
        // A finished game: its own score, as minimax returns it.
        None => finished_value(board, 0, is_root_max(board, scoring), scoring).unwrap_or(0),
    };
    Ok(Searched {
        value,
        positions: 0,
    })
}

/// A position as the transposition table knows it: the two sides' marks,
/// or with symmetry the smallest of their eight images.
type Key = (u64, u64);

/// One search of the ladder, with what it has learnt so far.
struct Search {
    rung: Rung,
    scoring: Scoring,
    budget: u64,
    positions: u64,
    /// The transposition table: a value found, and whether it is the
    /// value or a bound on it (alpha-beta's [`Bound`]).
    table: HashMap<Key, (i32, Bound)>,
    /// Iterative deepening's memory: the best move found in each position
    /// by the shallower searches.
    best_moves: HashMap<Board, usize>,
    /// Iterative deepening: the depth this search stops at.
    horizon: Option<i32>,
    /// Iterative deepening: some position was cut off at the horizon.
    reached_horizon: bool,
}

impl Search {
    /// True when the ladder's rung includes `technique`.
    fn uses(&self, technique: Rung) -> bool {
        self.rung >= technique
    }

    /// GeeksforGeeks' minimax, as [`reference::minimax`](super::reference::minimax)
    /// reads, with each technique of the rung added where it acts.
    fn minimax(
        &mut self,
        board: &Board,
        depth: i32,
        mut window: Window,
        is_max: bool,
    ) -> Result<i32, Refused> {
        self.positions += 1;
        if self.positions > self.budget {
            return Err(Refused::OverBudget {
                budget: self.budget,
            });
        }
        // `depth` counts moves from the position searched; the article's
        // depth is one less (the position after a move is its depth 0), and
        // a finished position searched is scored as it stands, at 0.
        let article_depth = (depth - 1).max(0) + MOVE_DEPTH;
        if let Some(value) = finished_value(board, article_depth, is_max, self.scoring) {
            return Ok(value);
        }
        // Iterative deepening: at the horizon, a game still going counts as a draw.
        if self.horizon.is_some_and(|horizon| depth >= horizon) {
            self.reached_horizon = true;
            return Ok(0);
        }
        // The table: a position searched before is looked up. Every
        // position lies at one depth (its marks less the first position's),
        // so its value there is the value here.
        let key = self.key(board);
        if self.uses(Rung::Table)
            && let Some(&(value, bound)) = self.table.get(&key)
        {
            let settled = match bound {
                Bound::Exact => true,
                Bound::Lower => window.beta.is_some_and(|beta| value >= beta),
                Bound::Upper => window.alpha.is_some_and(|alpha| value <= alpha),
            };
            if settled {
                return Ok(value);
            }
        }
        let entered = window;
        let mut best: Option<(usize, i32)> = None;
        for cell in self.moves(board) {
            let child = board.place(cell, board.to_move());
            let score = self.minimax(&child, depth + 1, window, !is_max)?;
            let better =
                best.is_none_or(|(_, best)| if is_max { score > best } else { score < best });
            if better {
                best = Some((cell, score));
            }
            if self.uses(Rung::AlphaBeta) {
                window = window.after(score, is_max);
                if window.is_closed() {
                    break;
                }
            }
        }
        let (cell, value) = best.expect("a game still going has a move");
        if self.uses(Rung::Table) {
            self.table.insert(key, (value, entered.bound(value)));
        }
        if self.uses(Rung::Deepening) {
            self.best_moves.insert(*board, cell);
        }
        Ok(value)
    }

    /// The moves of the side to move, in the order the rung tries them.
    fn moves(&self, board: &Board) -> Vec<usize> {
        let size = board.size();
        // GeeksforGeeks' order: row by row, left to right.
        let mut cells: Vec<usize> = board
            .empty_cells()
            .iter()
            .map(|square| square.index(size))
            .collect();
        if self.uses(Rung::Ordering) {
            let mover = board.to_move();
            let wins = board.threats(mover).bits();
            let blocks = board.threats(mover.other()).bits();
            cells.sort_by_key(|&cell| {
                let kind = if wins & 1 << cell != 0 {
                    0
                } else if blocks & 1 << cell != 0 {
                    1
                } else {
                    2
                };
                (kind, distance_from_centre(cell, size))
            });
        }
        if self.uses(Rung::Symmetry) {
            // Of moves that mirror each other, the first in reading order stands for all.
            let symmetries = board.symmetries();
            cells.retain(|&cell| {
                let square = Square::from_index(cell, size);
                symmetries.first_twin(square) == square
            });
        }
        if self.uses(Rung::Deepening)
            && let Some(&first) = self.best_moves.get(board)
            && let Some(at) = cells.iter().position(|&cell| cell == first)
        {
            let first = cells.remove(at);
            cells.insert(0, first);
        }
        cells
    }

    /// The table's key for `board`: with symmetry, the same for all its images.
    fn key(&self, board: &Board) -> Key {
        let (x, o) = (board.bits(Player::X), board.bits(Player::O));
        if self.uses(Rung::Symmetry) {
            let (x, o, _) = board.geometry().canonical(x, o);
            (x, o)
        } else {
            (x, o)
        }
    }

    /// Iterative deepening: searches to depth 1, 2, ... until the value is
    /// certain: nothing was cut off at the horizon, or a win or loss was
    /// found (a forced result within the horizon is the result: a quicker
    /// one would have been found too).
    fn deepening(&mut self, board: &Board) -> Result<i32, Refused> {
        let empty = board.empty_cells().len() as i32;
        let mut horizon = 1;
        loop {
            self.horizon = Some(horizon);
            self.reached_horizon = false;
            // Values cut off at another horizon are not this search's values.
            self.table.clear();
            let value = self.minimax(board, 0, Window::OPEN, is_root_max(board, self.scoring))?;
            if !self.reached_horizon || value != 0 || horizon >= empty {
                return Ok(value);
            }
            horizon += 1;
        }
    }
}

/// How far `cell` lies from the centre of a board of side `size`, in half
/// squares across and down: 0 for the centre of an odd board.
fn distance_from_centre(cell: usize, size: u8) -> usize {
    let size = usize::from(size);
    let (row, col) = (cell / size, cell % size);
    // Twice the coordinates, so an even board's centre (between squares) is whole.
    let centre = size - 1;
    (2 * row).abs_diff(centre) + (2 * col).abs_diff(centre)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::teach::reference;

    #[test]
    fn every_rung_gives_the_value_of_freecodecamps_board() {
        let board: Board = "o.x/x.x/.oo".parse().unwrap();
        for scoring in Scoring::ALL {
            let value = reference::minimax_value(&board, scoring);
            for rung in Rung::ALL {
                let found = search(&board, rung, scoring, u64::MAX).unwrap();
                assert_eq!(found.value, value, "{rung:?}, {scoring:?}");
            }
        }
        let minimax = search(&board, Rung::Minimax, Scoring::Depth, u64::MAX).unwrap();
        assert_eq!(minimax.positions, 9, "FC1 to FC9");
        // The win on the move is tried first, and every other move is then
        // refuted by its first reply: 1 + 1 + 2 + 2.
        let pruned = search(&board, Rung::AlphaBeta, Scoring::Depth, u64::MAX).unwrap();
        let ordered = search(&board, Rung::Ordering, Scoring::Depth, u64::MAX).unwrap();
        assert_eq!((pruned.positions, ordered.positions), (8, 6));
    }

    #[test]
    fn a_search_stops_at_its_budget() {
        assert_eq!(
            search(&Board::new(), Rung::Minimax, Scoring::Depth, 1000),
            Err(Refused::OverBudget { budget: 1000 })
        );
        let four: Board = "..../..../..../....".parse().unwrap();
        assert_eq!(
            search(&four, Rung::Compiled, Scoring::Depth, 1000),
            Err(Refused::NoTable)
        );
    }

    #[test]
    fn the_centre_is_nearest() {
        assert_eq!(distance_from_centre(4, 3), 0);
        assert_eq!(distance_from_centre(0, 3), 4);
        assert_eq!(distance_from_centre(1, 3), 2);
        // 4x4: the four middle squares are equally near.
        assert_eq!(distance_from_centre(5, 4), 2);
        assert_eq!(distance_from_centre(10, 4), 2);
        assert_eq!(distance_from_centre(0, 4), 6);
    }
}

//! The seed article's minimax, kept plain so it reads like the article.
//!
//! GeeksforGeeks' `evaluate`, `isMovesLeft`, `minimax` and `findBestMove`
//! become [`evaluate`], [`is_moves_left`], [`minimax`] and [`find_best_move`]:
//! the whole game tree, no pruning, no table. [`alpha_beta`] is the same
//! minimax with alpha-beta pruning and nothing else: the same move order
//! (reading order), no table, no symmetries, no shortcuts.
//!
//! They are the yardstick the engine is checked against on every reachable
//! position, and what each idea saves is read off their call counts:
//! [`best_move`] and [`move_values`] count the calls of either algorithm.
//!
//! [`find_best_move`] here and [`super::find_best_move`] have the same
//! signature and give the same answer everywhere; this one is the seed's plain
//! minimax (549,945 calls for the empty board), that one the engine (a lookup
//! on 3×3, the fast search on bigger boards).
//!
//! The functions work on any board size, but beyond 3×3 the plain tree is far
//! too big to walk.

use std::collections::HashMap;

use super::board::{Board, Move, Player};

/// +10 when `player` has a line, -10 when the opponent has one, 0 otherwise
/// (±100 on boards bigger than 3×3). Like the seed, it scans every line.
pub fn evaluate(board: &Board, player: Player) -> i32 {
    let win = board.geometry().win_score();
    let lines = board.geometry().lines();
    for &line in lines {
        if board.bits(player) & line == line {
            return win;
        }
        if board.bits(player.other()) & line == line {
            return -win;
        }
    }
    0
}

/// True while at least one cell is empty.
pub fn is_moves_left(board: &Board) -> bool {
    !board.empty_cells().is_empty()
}

/// The seed's minimax: the value of `board` for the maximizer, with scores
/// adjusted by `depth` so that a quicker win and a slower loss are preferred.
///
/// As in the article, the maximizer is the side that was to move when the
/// search began: the side to move now if `is_max`, else the other one.
///
/// ```
/// use tictactoe_engine::{Board, reference::minimax};
///
/// // The GeeksforGeeks example after X takes the bottom-right corner: X has won.
/// let after: Board = "xox/oox/..x".parse().unwrap();
/// assert_eq!(minimax(&after, 0, false), 10);
/// // Had X played the bottom-left corner instead, O wins at once: -10 + depth 1.
/// assert_eq!(minimax(&"xox/oox/x..".parse().unwrap(), 0, false), -9);
/// ```
pub fn minimax(board: &Board, depth: i32, is_max: bool) -> i32 {
    minimax_counting(board, depth, is_max, &mut 0)
}

/// [`minimax`] with alpha-beta pruning: replies are no longer searched once
/// one of them shows that the position is worth no more than `alpha` to the
/// maximizer (when minimizing) or at least `beta` (when maximizing).
///
/// The value is the same as [`minimax`]'s whenever it lies strictly between
/// `alpha` and `beta`; otherwise it is a bound on the same side. With
/// `i32::MIN` and `i32::MAX` it is always the same value.
///
/// ```
/// use tictactoe_engine::{Board, reference::{alpha_beta, minimax}};
///
/// let board: Board = "x.o/.x./...".parse().unwrap();
/// assert_eq!(alpha_beta(&board, 0, i32::MIN, i32::MAX, true), minimax(&board, 0, true));
/// ```
pub fn alpha_beta(board: &Board, depth: i32, alpha: i32, beta: i32, is_max: bool) -> i32 {
    alpha_beta_counting(board, depth, alpha, beta, is_max, &mut 0)
}

/// The seed's `findBestMove`: try every empty cell in reading order, score
/// it with `minimax(board, 0, false)` and keep the first move with the
/// highest value. `None` once the game is over.
///
/// Same signature and same answer as the engine's [`super::find_best_move`],
/// by plain minimax.
///
/// ```
/// use tictactoe_engine::{Board, Move, reference};
///
/// let board: Board = "xox/oox/...".parse().unwrap();
/// assert_eq!(reference::find_best_move(&board), Some(Move::new(2, 2)));
/// assert_eq!(reference::find_best_move(&board), tictactoe_engine::find_best_move(&board));
/// ```
pub fn find_best_move(board: &Board) -> Option<Move> {
    best_move(board, Algorithm::Minimax).map(|best| best.mv)
}

/// The seed's rule for choosing among scored moves, as `findBestMove` keeps
/// its best: the first, in their order, with the highest score (a later one
/// replaces it only by scoring strictly more). `None` when there are none.
///
/// ```
/// use tictactoe_engine::reference::first_best;
///
/// assert_eq!(first_best([("a1", 0), ("b1", 9), ("c1", 9)], |m| m.1), Some(("b1", 9)));
/// assert_eq!(first_best(Vec::<(&str, i32)>::new(), |m| m.1), None);
/// ```
pub fn first_best<T>(items: impl IntoIterator<Item = T>, score: impl Fn(&T) -> i32) -> Option<T> {
    items.into_iter().reduce(|best, next| {
        if score(&next) > score(&best) {
            next
        } else {
            best
        }
    })
}

/// Which of the seed's algorithms to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// [`minimax`]: every position of the tree.
    Minimax,
    /// [`alpha_beta`]: the same tree, pruned.
    AlphaBeta,
}

/// The seed's choice, its value and what finding it cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BestMove {
    /// The first move in reading order with the highest value.
    pub mv: Move,
    /// Its value: the seed's score of the move.
    pub value: i32,
    /// Calls of the algorithm's function (one per position visited; the
    /// position asked about is not one of them, as `findBestMove` does not
    /// call `minimax` on it).
    pub calls: u64,
}

/// [`find_best_move`] by either algorithm, counting the calls. `None` once
/// the game is over.
///
/// With [`Algorithm::AlphaBeta`] each move after the first is searched only
/// for being better than the best so far (a window above its value), as
/// alpha-beta does at every level.
///
/// ```
/// use tictactoe_engine::{Board, Move, reference::{Algorithm, best_move}};
///
/// let plain = best_move(&Board::new(), Algorithm::Minimax).unwrap();
/// assert_eq!((plain.mv, plain.value, plain.calls), (Move::new(0, 0), 0, 549_945));
/// let pruned = best_move(&Board::new(), Algorithm::AlphaBeta).unwrap();
/// assert_eq!((pruned.mv, pruned.value), (plain.mv, plain.value));
/// assert!(pruned.calls < plain.calls / 10);
/// ```
pub fn best_move(board: &Board, algorithm: Algorithm) -> Option<BestMove> {
    if board.status().is_over() {
        return None;
    }
    let mut calls = 0;
    let mut best: Option<(Move, i32)> = None;
    for (mv, child) in moves_and_children(board) {
        let value = match (algorithm, best) {
            (Algorithm::Minimax, _) => minimax_counting(&child, 0, false, &mut calls),
            (Algorithm::AlphaBeta, None) => {
                alpha_beta_counting(&child, 0, i32::MIN, i32::MAX, false, &mut calls)
            }
            // Only a strictly higher value replaces the best: anything at or
            // below it may stop early.
            (Algorithm::AlphaBeta, Some((_, floor))) => {
                alpha_beta_counting(&child, 0, floor, i32::MAX, false, &mut calls)
            }
        };
        if best.is_none_or(|(_, best_value)| value > best_value) {
            best = Some((mv, value));
        }
    }
    best.map(|(mv, value)| BestMove { mv, value, calls })
}

/// Every legal move's value and what computing them cost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveValues {
    /// Every legal move in reading order with the seed's score of it.
    pub moves: Vec<(Move, i32)>,
    /// Calls of the algorithm's function, as in [`BestMove::calls`].
    pub calls: u64,
}

/// The value of every legal move, each searched on its own by either
/// algorithm (alpha-beta with a full window, so every value is the plain
/// minimax value), counting the calls. No moves once the game is over.
///
/// ```
/// use tictactoe_engine::{Board, Move, reference::{Algorithm, move_values}};
///
/// let board: Board = "xox/oox/...".parse().unwrap();
/// let plain = move_values(&board, Algorithm::Minimax);
/// assert_eq!(plain.moves, [(Move::new(2, 0), -9), (Move::new(2, 1), 0), (Move::new(2, 2), 10)]);
/// assert_eq!(move_values(&board, Algorithm::AlphaBeta).moves, plain.moves);
/// ```
pub fn move_values(board: &Board, algorithm: Algorithm) -> MoveValues {
    let mut calls = 0;
    if board.status().is_over() {
        return MoveValues {
            moves: Vec::new(),
            calls,
        };
    }
    let moves = moves_and_children(board)
        .map(|(mv, child)| {
            let value = match algorithm {
                Algorithm::Minimax => minimax_counting(&child, 0, false, &mut calls),
                Algorithm::AlphaBeta => {
                    alpha_beta_counting(&child, 0, i32::MIN, i32::MAX, false, &mut calls)
                }
            };
            (mv, value)
        })
        .collect();
    MoveValues { moves, calls }
}

/// The most empty squares a position may have for the seed's plain minimax
/// below it to be counted by running it: with nine, at most 986,409 calls
/// (9 + 9·8 + … + 9!), a moment's work. The teaching views (the explain
/// panel, the tree, the trace) count calls and positions only within it.
pub const COUNTABLE_MAX_EMPTY: usize = 9;

/// True when the seed's plain minimax below `board` is small enough to
/// count by running it (see [`COUNTABLE_MAX_EMPTY`]).
///
/// ```
/// use tictactoe_engine::{Board, reference::is_countable};
///
/// assert!(is_countable(&Board::new()));
/// assert!(!is_countable(&"..../..../..../....".parse().unwrap()));
/// ```
pub fn is_countable(board: &Board) -> bool {
    board.empty_cells().len() <= COUNTABLE_MAX_EMPTY
}

/// Positions in the seed's plain minimax tree of `board`, itself included:
/// the calls `minimax` makes when it is called on `board` (549,946 for the
/// empty board, the position and the 549,945 below it). Positions reached
/// by different orders are counted once per path, as minimax visits them.
///
/// Counted with one entry per distinct position, so it is quick whenever the
/// positions below are few (every 3×3 board); the tree itself can be far
/// bigger than that.
///
/// ```
/// use tictactoe_engine::{Board, reference::{Algorithm, move_values, tree_size}};
///
/// assert_eq!(tree_size(&Board::new()), 549_946);
/// // The freeCodeCamp example: the article numbers 9 calls.
/// let board: Board = "o.x/x.x/.oo".parse().unwrap();
/// assert_eq!(tree_size(&board), 9);
/// assert_eq!(tree_size(&board), move_values(&board, Algorithm::Minimax).calls + 1);
/// ```
pub fn tree_size(board: &Board) -> u64 {
    fn size(board: &Board, known: &mut HashMap<Board, u64>) -> u64 {
        if board.status().is_over() {
            return 1;
        }
        if let Some(&size) = known.get(board) {
            return size;
        }
        let below: u64 = children(board).map(|child| size(&child, known)).sum();
        known.insert(*board, below + 1);
        below + 1
    }
    size(board, &mut HashMap::new())
}

/// The value of a finished position for the maximizer, adjusted by depth
/// as the seed does; `None` while moves remain and nobody has won.
pub(crate) fn finished_value(board: &Board, depth: i32, is_max: bool) -> Option<i32> {
    let mover = board.to_move();
    let maximizer = if is_max { mover } else { mover.other() };
    let score = evaluate(board, maximizer);
    let win = board.geometry().win_score();
    // A win sooner is worth more, a loss later costs less: subtract the depth.
    if score == win {
        Some(score - depth)
    } else if score == -win {
        Some(score + depth)
    } else if !is_moves_left(board) {
        Some(0)
    } else {
        None
    }
}

/// The positions after each move of the side to move, in reading order.
pub(crate) fn children(board: &Board) -> impl Iterator<Item = Board> + '_ {
    moves_and_children(board).map(|(_, child)| child)
}

/// Each move of the side to move with the position after it, in reading order.
fn moves_and_children(board: &Board) -> impl Iterator<Item = (Move, Board)> + '_ {
    let mover = board.to_move();
    board
        .empty_cells()
        .into_iter()
        .map(move |mv| (mv, board.place(mv.index(board.size()), mover)))
}

/// [`minimax`], adding one to `calls` for each call (like the freeCodeCamp
/// article's function-call counter).
fn minimax_counting(board: &Board, depth: i32, is_max: bool, calls: &mut u64) -> i32 {
    *calls += 1;
    if let Some(value) = finished_value(board, depth, is_max) {
        return value;
    }
    if is_max {
        children(board).fold(i32::MIN, |best, child| {
            best.max(minimax_counting(&child, depth + 1, false, calls))
        })
    } else {
        children(board).fold(i32::MAX, |best, child| {
            best.min(minimax_counting(&child, depth + 1, true, calls))
        })
    }
}

/// [`alpha_beta`], adding one to `calls` for each call.
fn alpha_beta_counting(
    board: &Board,
    depth: i32,
    mut alpha: i32,
    mut beta: i32,
    is_max: bool,
    calls: &mut u64,
) -> i32 {
    *calls += 1;
    if let Some(value) = finished_value(board, depth, is_max) {
        return value;
    }
    if is_max {
        let mut best = i32::MIN;
        for child in children(board) {
            best = best.max(alpha_beta_counting(
                &child,
                depth + 1,
                alpha,
                beta,
                false,
                calls,
            ));
            alpha = alpha.max(best);
            if alpha >= beta {
                break;
            }
        }
        best
    } else {
        let mut best = i32::MAX;
        for child in children(board) {
            best = best.min(alpha_beta_counting(
                &child,
                depth + 1,
                alpha,
                beta,
                true,
                calls,
            ));
            beta = beta.min(best);
            if alpha >= beta {
                break;
            }
        }
        best
    }
}

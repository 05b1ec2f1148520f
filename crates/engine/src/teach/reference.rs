//! GeeksforGeeks' minimax, kept plain so it reads like the article.
//!
//! GeeksforGeeks' `evaluate`, `isMovesLeft`, `minimax` and `findBestMove`
//! become [`evaluate`], [`is_moves_left`], [`minimax`] and [`best_move`]
//! (which also gives the value and counts the calls):
//! the whole game tree, no pruning, no table. [`alpha_beta`] is the same
//! minimax with alpha-beta pruning and nothing else: the same move order
//! (reading order), no table, no symmetries, no shortcuts.
//!
//! They are the yardstick the engine is checked against on every reachable
//! position, and what each idea saves is read off their call counts:
//! [`best_move`] and [`move_values`] count the calls of either algorithm.
//!
//! Scores follow the [one convention](crate::score), which is the
//! article's: `findBestMove` calls `minimax(board, 0, false)` on the
//! position after each move, so a win on the move is +10. Every function
//! but the article's own [`minimax`] can also count the articles' bare
//! scores ([`Scoring::Plain`]) or CS50's ([`Scoring::Cs50`], X always the
//! maximizer).
//!
//! [`best_move`] with [`Algorithm::Minimax`] and [`crate::find_best_move`]
//! choose the same move everywhere; this one is the article's plain minimax
//! (549,945 calls for the empty board), that one the engine (a lookup on
//! 3×3, the fast search on bigger boards).
//!
//! The functions work on any board size, but beyond 3×3 the plain tree is far
//! too big to walk.

use std::collections::HashMap;

use crate::board::Board;
use crate::player::Player;
use crate::score::Scoring;
use crate::solved;
use crate::square::Square;

/// +10 when `player` has a line, -10 when the opponent has one, 0 otherwise
/// (±100 on boards bigger than 3×3). Like the article's, it scans every line.
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

/// The article's minimax: the value of `board` for the maximizer, with
/// scores adjusted by `depth` so that a quicker win and a slower loss are
/// preferred. `findBestMove` calls it with depth 0 on the position after
/// each move.
///
/// As in the article, the maximizer is the side that was to move when the
/// search began: the side to move now if `is_max`, else the other one.
///
/// ```
/// use tictactoe_engine::{Board, teach::reference::minimax};
///
/// // The GeeksforGeeks example after X takes the bottom-right corner: X has
/// // won, and `findBestMove` scores that position at depth 0.
/// let after: Board = "xox/oox/..x".parse().unwrap();
/// assert_eq!(minimax(&after, 0, false), 10);
/// // Had X played the bottom-left corner instead, O wins at once, at depth 1.
/// assert_eq!(minimax(&"xox/oox/x..".parse().unwrap(), 0, false), -9);
/// ```
pub fn minimax(board: &Board, depth: i32, is_max: bool) -> i32 {
    minimax_counting(board, depth, is_max, Scoring::Depth, &mut 0)
}

/// The value of `board` by plain minimax, counted by `scoring`: its best
/// move's score, what `findBestMove` prints as "the value of the best
/// move" (for the side to move; for X with [`Scoring::Cs50`]). A finished
/// position is scored as it stands, at depth 0. (The engine's is
/// [`Analysis::value`](crate::Analysis::value), and a node's of the tree
/// [`tree::node_value`](super::tree::node_value).)
///
/// ```
/// use tictactoe_engine::{Board, Scoring, teach::reference::minimax_value};
///
/// // The freeCodeCamp example: X wins on the move.
/// let board: Board = "o.x/x.x/.oo".parse().unwrap();
/// assert_eq!(minimax_value(&board, Scoring::Depth), 10);
/// assert_eq!(minimax_value(&board, Scoring::Plain), 10);
/// // O to move, and O wins: CS50 counts for X, whoever is to move.
/// let board: Board = "xx./oo./x..".parse().unwrap();
/// assert_eq!(minimax_value(&board, Scoring::Depth), 10, "O wins on the move");
/// assert_eq!(minimax_value(&board, Scoring::Cs50), -1);
/// ```
pub fn minimax_value(board: &Board, scoring: Scoring) -> i32 {
    let root_max = is_root_max(board, scoring);
    if let Some(value) = finished_value(board, 0, root_max, scoring) {
        return value;
    }
    let values = children(board)
        .map(|child| minimax_counting(&child, MOVE_DEPTH, !root_max, scoring, &mut 0));
    let picked = if root_max { values.max() } else { values.min() };
    picked.unwrap_or(0)
}

/// True when the side to move on `board` maximizes in a search from it
/// counted by `scoring`: always, but for O with [`Scoring::Cs50`].
pub(crate) fn is_root_max(board: &Board, scoring: Scoring) -> bool {
    let to_move = board.to_move();
    scoring.maximizer(to_move) == to_move
}

/// Alpha-beta's window: the values a call still cares about. Replies are
/// searched only while `alpha < beta`; `None` is a bound not set yet (the
/// textbooks' -∞ and +∞).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Window {
    /// The maximizer is sure of at least this much elsewhere.
    pub alpha: Option<i32>,
    /// The minimizer is sure of at most this much elsewhere.
    pub beta: Option<i32>,
}

impl Window {
    /// No bound on either side: what the first call starts with.
    pub const OPEN: Window = Window {
        alpha: None,
        beta: None,
    };

    /// True when the window has closed (`alpha >= beta`): the remaining
    /// replies cannot change what the caller will do.
    pub fn is_closed(self) -> bool {
        matches!((self.alpha, self.beta), (Some(alpha), Some(beta)) if alpha >= beta)
    }

    /// The window after a reply worth `score` to the maximizer (`max`) or
    /// the minimizer.
    pub fn after(self, score: i32, max: bool) -> Window {
        if max {
            Window {
                alpha: Some(self.alpha.map_or(score, |alpha| alpha.max(score))),
                ..self
            }
        } else {
            Window {
                beta: Some(self.beta.map_or(score, |beta| beta.min(score))),
                ..self
            }
        }
    }

    /// What a score returned by a call entered with this window says about
    /// the true value, as the textbooks read fail-soft alpha-beta: at most
    /// the score when it is at or below alpha, at least it when at or above
    /// beta, exactly it in between.
    ///
    /// ```
    /// use tictactoe_engine::teach::reference::{Bound, Window};
    ///
    /// let window = Window { alpha: Some(10), beta: None };
    /// assert_eq!(window.bound(8), Bound::Upper);
    /// assert_eq!(window.bound(11), Bound::Exact);
    /// assert_eq!(Window::OPEN.bound(-9), Bound::Exact);
    /// ```
    pub fn bound(self, score: i32) -> Bound {
        if self.alpha.is_some_and(|alpha| score <= alpha) {
            Bound::Upper
        } else if self.beta.is_some_and(|beta| score >= beta) {
            Bound::Lower
        } else {
            Bound::Exact
        }
    }
}

/// What a score returned by alpha-beta says about the position's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Bound {
    /// The value itself, as plain minimax finds it.
    Exact,
    /// At most this: the value may be lower (the call failed low).
    Upper,
    /// At least this: the value may be higher (the call failed high).
    Lower,
}

impl Bound {
    /// The name JSON gives it: `exact`, `upper`, `lower`.
    pub const fn name(self) -> &'static str {
        match self {
            Bound::Exact => "exact",
            Bound::Upper => "upper",
            Bound::Lower => "lower",
        }
    }
}

/// [`minimax`] with alpha-beta pruning: replies are no longer searched once
/// one of them shows that the position is worth no more than alpha to the
/// maximizer (when minimizing) or at least beta (when maximizing).
///
/// The value is the same as [`minimax`]'s whenever it lies strictly inside
/// the window; otherwise it is a bound on the same side ([`Window::bound`]).
/// With [`Window::OPEN`] it is always the same value.
///
/// ```
/// use tictactoe_engine::{Board, teach::reference::{Window, alpha_beta, minimax}};
///
/// let board: Board = "x.o/.x./...".parse().unwrap();
/// assert_eq!(alpha_beta(&board, 0, Window::OPEN, true), minimax(&board, 0, true));
/// ```
pub fn alpha_beta(board: &Board, depth: i32, window: Window, is_max: bool) -> i32 {
    alpha_beta_counting(board, depth, is_max, window, Scoring::Depth, &mut 0)
}

/// Which of the article's algorithms to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// [`minimax`]: every position of the tree.
    Minimax,
    /// [`alpha_beta`]: the same tree, pruned.
    AlphaBeta,
}

/// `findBestMove`'s choice, its value and what finding it cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BestMove {
    /// The first move in reading order with the best value (the highest,
    /// or the lowest for a side that minimizes).
    pub mv: Square,
    /// Its value: the score of the position after it, at depth 0.
    pub value: i32,
    /// Calls of the algorithm's function (one per position visited; the
    /// position asked about is not one of them, as `findBestMove` does not
    /// call `minimax` on it).
    pub calls: u64,
}

/// The seed's `findBestMove`: try every empty cell in reading order, score
/// it with the algorithm, and keep the first move with the highest value,
/// counting the calls. `None` once the game is over. With
/// [`Algorithm::Minimax`] and [`Scoring::Depth`] it is the article's own, and
/// it chooses the move the engine's [`crate::find_best_move`] does.
///
/// With [`Algorithm::AlphaBeta`] each move after the first is searched only
/// for being better than the best so far (a window above its value), as
/// alpha-beta does at every level.
///
/// ```
/// use tictactoe_engine::{Board, Square, Scoring, teach::reference::{Algorithm, best_move}};
///
/// let plain = best_move(&Board::new(), Algorithm::Minimax, Scoring::Depth).unwrap();
/// assert_eq!((plain.mv, plain.value, plain.calls), (Square::new(0, 0), 0, 549_945));
/// let board: Board = "xox/oox/...".parse().unwrap();
/// let article = best_move(&board, Algorithm::Minimax, Scoring::Depth).unwrap();
/// assert_eq!(Some(article.mv), tictactoe_engine::find_best_move(&board));
/// let pruned = best_move(&Board::new(), Algorithm::AlphaBeta, Scoring::Depth).unwrap();
/// assert_eq!((pruned.mv, pruned.value), (plain.mv, plain.value));
/// assert!(pruned.calls < plain.calls / 10);
/// ```
pub fn best_move(board: &Board, algorithm: Algorithm, scoring: Scoring) -> Option<BestMove> {
    if board.status().is_over() {
        return None;
    }
    let root_max = is_root_max(board, scoring);
    let mut calls = 0;
    let mut best: Option<(Square, i32)> = None;
    for (mv, child) in moves_and_children(board) {
        let value = match algorithm {
            Algorithm::Minimax => {
                minimax_counting(&child, MOVE_DEPTH, !root_max, scoring, &mut calls)
            }
            // Only a strictly better value replaces the best: anything at or
            // beyond it may stop early.
            Algorithm::AlphaBeta => {
                let floor = best.map(|(_, value)| value);
                let window = if root_max {
                    Window {
                        alpha: floor,
                        beta: None,
                    }
                } else {
                    Window {
                        alpha: None,
                        beta: floor,
                    }
                };
                alpha_beta_counting(&child, MOVE_DEPTH, !root_max, window, scoring, &mut calls)
            }
        };
        let better = |best_value: i32| {
            if root_max {
                value > best_value
            } else {
                value < best_value
            }
        };
        if best.is_none_or(|(_, best_value)| better(best_value)) {
            best = Some((mv, value));
        }
    }
    best.map(|(mv, value)| BestMove { mv, value, calls })
}

/// Every legal move's value and what computing them cost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveValues {
    /// Every legal move in reading order with its score.
    pub moves: Vec<(Square, i32)>,
    /// Calls of the algorithm's function, as in [`BestMove::calls`].
    pub calls: u64,
}

/// The value of every legal move, each searched on its own by either
/// algorithm (alpha-beta with an open window, so every value is the plain
/// minimax value and nothing is cut at the top), counting the calls. No
/// moves once the game is over.
///
/// ```
/// use tictactoe_engine::{Board, Square, Scoring, teach::reference::{Algorithm, move_values}};
///
/// let board: Board = "xox/oox/...".parse().unwrap();
/// let plain = move_values(&board, Algorithm::Minimax, Scoring::Depth);
/// assert_eq!(plain.moves, [(Square::new(2, 0), -9), (Square::new(2, 1), 0), (Square::new(2, 2), 10)]);
/// assert_eq!(move_values(&board, Algorithm::AlphaBeta, Scoring::Depth).moves, plain.moves);
/// let bare = move_values(&board, Algorithm::Minimax, Scoring::Plain);
/// assert_eq!(bare.moves, [(Square::new(2, 0), -10), (Square::new(2, 1), 0), (Square::new(2, 2), 10)]);
/// ```
pub fn move_values(board: &Board, algorithm: Algorithm, scoring: Scoring) -> MoveValues {
    let mut calls = 0;
    if board.status().is_over() {
        return MoveValues {
            moves: Vec::new(),
            calls,
        };
    }
    let below_max = !is_root_max(board, scoring);
    let moves = moves_and_children(board)
        .map(|(mv, child)| {
            let value = match algorithm {
                Algorithm::Minimax => {
                    minimax_counting(&child, MOVE_DEPTH, below_max, scoring, &mut calls)
                }
                Algorithm::AlphaBeta => alpha_beta_counting(
                    &child,
                    MOVE_DEPTH,
                    below_max,
                    Window::OPEN,
                    scoring,
                    &mut calls,
                ),
            };
            (mv, value)
        })
        .collect();
    MoveValues { moves, calls }
}

/// The most empty squares a position may have for the article's plain minimax
/// below it to be counted by running it: with nine, at most 986,409 calls
/// (9 + 9·8 + … + 9!), a moment's work. The teaching views (the explain
/// panel, the tree, the trace) count calls and positions only within it.
pub const COUNTABLE_MAX_EMPTY: usize = 9;

/// True when the article's plain minimax below `board` is small enough to
/// count by running it (see [`COUNTABLE_MAX_EMPTY`]).
///
/// ```
/// use tictactoe_engine::{Board, teach::reference::is_countable};
///
/// assert!(is_countable(&Board::new()));
/// assert!(!is_countable(&"..../..../..../....".parse().unwrap()));
/// ```
pub fn is_countable(board: &Board) -> bool {
    board.empty_cells().len() <= COUNTABLE_MAX_EMPTY
}

/// Positions in the article's plain minimax tree of `board`, itself included:
/// the calls `minimax` makes when it is called on `board` (549,946 for the
/// empty board, the position and the 549,945 below it). Positions reached
/// by different orders are counted once per path, as minimax visits them.
///
/// On 3×3 it is read from the table the compiler built. Other boards are
/// counted with one entry per distinct position, so it is quick whenever the
/// positions below are few; the tree itself can be far bigger than that.
///
/// ```
/// use tictactoe_engine::{Board, Scoring, teach::reference::{Algorithm, move_values, tree_size}};
///
/// assert_eq!(tree_size(&Board::new()), 549_946);
/// // The freeCodeCamp example: the article numbers 9 calls.
/// let board: Board = "o.x/x.x/.oo".parse().unwrap();
/// assert_eq!(tree_size(&board), 9);
/// assert_eq!(tree_size(&board), move_values(&board, Algorithm::Minimax, Scoring::Depth).calls + 1);
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
    solved::tree_size(board).unwrap_or_else(|| size(board, &mut HashMap::new()))
}

/// The article's depth of the position after a move, where a move's score
/// is counted (see [the convention](crate::score)): `findBestMove` calls
/// `minimax(board, 0, false)`.
pub(crate) const MOVE_DEPTH: i32 = 0;

/// The value of a finished position for the maximizer at `depth` (the
/// maximizer is the side to move when `is_max`, as in [`minimax`]), counted
/// by `scoring`: what [`minimax`] returns there at once. `None` while moves
/// remain and nobody has won.
///
/// ```
/// use tictactoe_engine::{Board, Scoring, teach::reference::finished_value};
///
/// // X has just won, at depth 1 below the position searched from, where X moved.
/// let won: Board = "xox/oox/..x".parse().unwrap();
/// assert_eq!(finished_value(&won, 1, false, Scoring::Depth), Some(9));
/// assert_eq!(finished_value(&won, 1, true, Scoring::Plain), Some(-10));
/// assert_eq!(finished_value(&"xox/oox/...".parse().unwrap(), 0, true, Scoring::Depth), None);
/// ```
pub fn finished_value(board: &Board, depth: i32, is_max: bool, scoring: Scoring) -> Option<i32> {
    let mover = board.to_move();
    let maximizer = if is_max { mover } else { mover.other() };
    let score = evaluate(board, maximizer);
    let win = board.geometry().win_score();
    // A win sooner is worth more, a loss later costs less: the depth counts.
    if score == win || score == -win {
        Some(scoring.end(Some(score == win), depth as u32, win))
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
pub(crate) fn moves_and_children(board: &Board) -> impl Iterator<Item = (Square, Board)> + '_ {
    let mover = board.to_move();
    board
        .empty_cells()
        .into_iter()
        .map(move |mv| (mv, board.place(mv.index(board.size()), mover)))
}

/// One call begins: `calls` counts it, and a finished position's value
/// is its answer.
fn call(board: &Board, depth: i32, is_max: bool, scoring: Scoring, calls: &mut u64) -> Option<i32> {
    *calls += 1;
    finished_value(board, depth, is_max, scoring)
}

/// [`minimax`], counting by `scoring` and adding one to `calls` for each
/// call (like the freeCodeCamp article's function-call counter).
pub(crate) fn minimax_counting(
    board: &Board,
    depth: i32,
    is_max: bool,
    scoring: Scoring,
    calls: &mut u64,
) -> i32 {
    if let Some(value) = call(board, depth, is_max, scoring, calls) {
        return value;
    }
    let values =
        children(board).map(|child| minimax_counting(&child, depth + 1, !is_max, scoring, calls));
    // A position in progress has a move, so the fold's start never stays.
    if is_max {
        values.fold(i32::MIN, i32::max)
    } else {
        values.fold(i32::MAX, i32::min)
    }
}

/// [`alpha_beta`], counting by `scoring` and adding one to `calls` for each call.
fn alpha_beta_counting(
    board: &Board,
    depth: i32,
    is_max: bool,
    mut window: Window,
    scoring: Scoring,
    calls: &mut u64,
) -> i32 {
    if let Some(value) = call(board, depth, is_max, scoring, calls) {
        return value;
    }
    let mut best: Option<i32> = None;
    for child in children(board) {
        let score = alpha_beta_counting(&child, depth + 1, !is_max, window, scoring, calls);
        best = Some(match best {
            Some(best) if is_max => best.max(score),
            Some(best) => best.min(score),
            None => score,
        });
        window = window.after(score, is_max);
        if window.is_closed() {
            break;
        }
    }
    best.unwrap_or(0)
}

//! The articles' minimax replayed call by call, numbered as the freeCodeCamp
//! article numbers its function calls: the position itself is call 1, and
//! every call of `minimax` gets the next number as it begins.
//!
//! A [`Walk`] yields the calls one [`Step`] at a time, lazily (the empty
//! board's walk is 549,946 calls long, and nothing is kept but the calls
//! still open); [`trace`] collects a whole walk with each call's score.
//! Both follow [`reference::minimax`](super::reference::minimax) exactly:
//! the same replies in the same order (reading order), the same scores, with
//! the side to move in call 1 as the maximizer (X with [`Scoring::Cs50`]).
//! Call 1 is GeeksforGeeks' `findBestMove`; the calls it makes, one per
//! move, are its `minimax(board, 0, false)` at depth 0, and every score is
//! counted by that depth, so a deeper call's score is counted from the
//! root's move, not from its own position. With
//! [`Algorithm::AlphaBeta`] they follow
//! [`reference::alpha_beta`](super::reference::alpha_beta) instead, say
//! where the remaining replies were cut, and whether each returned score is
//! the value or only a bound on it ([`Bound`]).
//!
//! ```
//! use tictactoe_engine::{Board, Square, Scoring};
//! use tictactoe_engine::teach::{reference::Algorithm, trace::trace};
//!
//! // The freeCodeCamp example: 9 calls, and X's best move is the centre.
//! let board: Board = "o.x/x.x/.oo".parse().unwrap();
//! let calls = trace(&board, Algorithm::Minimax, Scoring::Depth, 100).unwrap();
//! assert_eq!(calls.len(), 9);
//! let best = calls.iter().filter(|c| c.call.parent == Some(1)).max_by_key(|c| c.score).unwrap();
//! assert_eq!((best.call.number, best.call.mv), (5, Some(Square::new(1, 1))));
//! ```

use thiserror::Error;

use super::reference::{Algorithm, Bound, Window, finished_value};
use crate::board::Board;
use crate::cell_set::CellSet;
use crate::role::Role;
use crate::score::Scoring;
use crate::square::Square;

/// One call of the article's `minimax` (or `alpha_beta`) as it begins.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Call {
    /// Its place in call order, from 1 (the position traced).
    pub number: u64,
    /// The call that made this one; `None` for call 1.
    pub parent: Option<u64>,
    /// Moves from the position traced: 0 for call 1, 1 for the calls it
    /// makes, and so on. The article's `depth` is one less ([`Call::depth`]).
    pub ply: u32,
    /// The move that led here from the parent's position; `None` for call 1.
    pub mv: Option<Square>,
    /// The position of this call.
    pub board: Board,
    /// Max where the side to move here is the maximizer (the side to move
    /// in call 1, or X with [`Scoring::Cs50`]), min elsewhere.
    pub role: Role,
    /// Alpha-beta's window as the call began; `None` for plain minimax.
    pub window: Option<Window>,
}

impl Call {
    /// The article's `depth` of this call: `None` for call 1 (the position
    /// traced, `findBestMove`), 0 for the calls it makes on the positions
    /// after its moves, one more for each move below.
    pub fn depth(&self) -> Option<u32> {
        self.ply.checked_sub(1)
    }

    /// What the call returns at once when the game is over at its
    /// position, counted by `scoring`; `None` while moves remain.
    pub fn finished(&self, scoring: Scoring) -> Option<i32> {
        let depth = self.depth().unwrap_or(0);
        finished_value(&self.board, depth as i32, self.role.is_max(), scoring)
    }
}

/// A call that returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Return {
    /// The call's number.
    pub number: u64,
    /// What it returned: the minimax value of its position (for
    /// alpha-beta, only a bound on it when [`Return::bound`] says so).
    pub score: i32,
    /// What the score says about the position's value, by the window the
    /// call was entered with; always [`Bound::Exact`] for plain minimax and
    /// for a finished game.
    pub bound: Bound,
    /// Replies alpha-beta did not search because one already settled the
    /// call (`alpha >= beta`); always empty for plain minimax.
    pub cut: CellSet,
}

/// One step of a walk: a call begins, or a call returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// A call begins (call 1 first).
    Enter(Call),
    /// A call returns; every call returns after the calls it made.
    Return(Return),
}

/// The calls of the article's search from one position, one step at a time.
///
/// Only the calls still open are kept, so a walk of any length takes memory
/// for one path of the tree.
///
/// ```
/// use tictactoe_engine::{Board, Scoring};
/// use tictactoe_engine::teach::{reference::Algorithm, trace::{Step, Walk}};
///
/// let board: Board = "o.x/x.x/.oo".parse().unwrap();
/// let steps: Vec<Step> = Walk::new(&board, Algorithm::Minimax, Scoring::Depth).collect();
/// // Each of the 9 calls begins and returns.
/// assert_eq!(steps.len(), 18);
/// assert!(matches!(steps.last(), Some(Step::Return(r)) if r.number == 1 && r.score == 10));
/// ```
#[derive(Debug, Clone)]
pub struct Walk {
    algorithm: Algorithm,
    scoring: Scoring,
    /// The position traced, until its call begins.
    start: Option<Board>,
    /// The calls begun and not yet returned, call 1 at the bottom.
    open: Vec<Frame>,
    calls: u64,
}

#[derive(Debug, Clone)]
struct Frame {
    call: Call,
    /// The score of a finished position, which makes no calls.
    finished: Option<i32>,
    /// Replies not tried yet, as cell bits in reading order.
    untried: u64,
    /// The best score of the replies returned so far.
    best: Option<i32>,
    /// The window as the call began.
    entered: Window,
    /// The window now: narrowed by each reply that returned.
    window: Window,
}

impl Walk {
    /// A walk of `algorithm` from `board`, which is call 1, counting by `scoring`.
    pub fn new(board: &Board, algorithm: Algorithm, scoring: Scoring) -> Walk {
        Walk {
            algorithm,
            scoring,
            start: Some(*board),
            open: Vec::new(),
            calls: 0,
        }
    }

    /// Calls begun so far.
    pub fn calls(&self) -> u64 {
        self.calls
    }

    /// The calls begun and not yet returned, call 1 first.
    pub fn open_calls(&self) -> impl ExactSizeIterator<Item = &Call> {
        self.open.iter().map(|frame| &frame.call)
    }

    /// The best score each open call has seen so far from the calls it made
    /// (`None` before its first call returns), call 1 first.
    pub fn best_so_far(&self) -> impl ExactSizeIterator<Item = Option<i32>> + '_ {
        self.open.iter().map(|frame| frame.best)
    }

    /// How scores are counted in this walk.
    pub fn scoring(&self) -> Scoring {
        self.scoring
    }

    /// The algorithm walked.
    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    fn begin(&mut self, board: Board, parent: Option<&Frame>, mv: Option<Square>) -> Call {
        self.calls += 1;
        let (ply, role) = parent.map_or_else(
            || {
                let to_move = board.to_move();
                (0, Role::of(to_move, self.scoring.maximizer(to_move)))
            },
            |parent| (parent.call.ply + 1, parent.call.role.other()),
        );
        let pruning = self.algorithm == Algorithm::AlphaBeta;
        // Plain minimax's window never narrows: it stays open.
        let window = parent
            .filter(|_| pruning)
            .map_or(Window::OPEN, |parent| parent.window);
        let call = Call {
            number: self.calls,
            parent: parent.map(|parent| parent.call.number),
            ply,
            mv,
            board,
            role,
            window: pruning.then_some(window),
        };
        let finished = call.finished(self.scoring);
        self.open.push(Frame {
            call,
            finished,
            untried: if finished.is_some() {
                0
            } else {
                board.empty_cells().bits()
            },
            best: None,
            entered: window,
            window,
        });
        call
    }

    /// Ends the innermost open call with `score` and hands it to its caller.
    fn end(&mut self, score: i32, cut: CellSet) -> Return {
        let frame = self.open.pop().expect("an open call ends");
        if let Some(parent) = self.open.last_mut() {
            let role = parent.call.role;
            parent.best = Some(match parent.best {
                Some(best) if !role.prefers(score, best) => best,
                _ => score,
            });
            if self.algorithm == Algorithm::AlphaBeta {
                parent.window = parent.window.after(score, role.is_max());
            }
        }
        let bound = if frame.finished.is_some() {
            Bound::Exact
        } else {
            frame.entered.bound(score)
        };
        Return {
            number: frame.call.number,
            score,
            bound,
            cut,
        }
    }
}

impl Iterator for Walk {
    type Item = Step;

    fn next(&mut self) -> Option<Step> {
        if let Some(board) = self.start.take() {
            return Some(Step::Enter(self.begin(board, None, None)));
        }
        let top = self.open.last()?;
        let size = top.call.board.size();
        if let Some(score) = top.finished {
            return Some(Step::Return(self.end(score, CellSet::new(size, 0))));
        }
        // Plain minimax never cuts: its window stays open. A call with no
        // reply left to try returns the same way, cutting nothing.
        if top.untried == 0 || top.window.is_closed() {
            let (best, untried) = (top.best.unwrap_or(0), top.untried);
            return Some(Step::Return(self.end(best, CellSet::new(size, untried))));
        }
        let cell = top.untried.trailing_zeros() as usize;
        let parent = self.open.last_mut().expect("the top call");
        parent.untried &= parent.untried - 1;
        let board = parent.call.board;
        let child = board.place(cell, board.to_move());
        let parent = parent.clone();
        let call = self.begin(child, Some(&parent), Some(Square::from_index(cell, size)));
        Some(Step::Enter(call))
    }
}

/// One call of a whole trace: how it began and what it returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Traced {
    /// The call as it began.
    pub call: Call,
    /// What it returned (see [`Return::score`]).
    pub score: i32,
    /// Whether that is the value or a bound on it (see [`Return::bound`]).
    pub bound: Bound,
    /// Replies cut by alpha-beta (see [`Return::cut`]).
    pub cut: CellSet,
}

/// A trace longer than its caller allowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("the trace has more than {limit} calls")]
pub struct TooManyCalls {
    /// The most calls allowed.
    pub limit: u64,
}

/// Every call of `algorithm` from `board`, in call order (call 1 first),
/// each with its score counted by `scoring`; refused when there are more
/// than `max_calls`.
///
/// ```
/// use tictactoe_engine::{Board, Scoring};
/// use tictactoe_engine::teach::{reference::{Algorithm, Bound}, trace::trace};
///
/// let board: Board = "o.x/x.x/.oo".parse().unwrap();
/// let plain = trace(&board, Algorithm::Minimax, Scoring::Depth, 100).unwrap();
/// assert_eq!(plain.iter().map(|c| c.score).collect::<Vec<_>>(), [10, -9, -9, -9, 10, -9, 8, 8, -9]);
/// // freeCodeCamp's bare scores: +10 for the position, -10, +10, -10 for its moves.
/// let bare = trace(&board, Algorithm::Minimax, Scoring::Plain, 100).unwrap();
/// let moves: Vec<i32> = bare.iter().filter(|c| c.call.depth() == Some(0)).map(|c| c.score).collect();
/// assert_eq!((bare[0].score, moves), (10, vec![-10, 10, -10]));
/// let pruned = trace(&board, Algorithm::AlphaBeta, Scoring::Depth, 100).unwrap();
/// assert_eq!(pruned[0].score, 10);
/// assert!(pruned.len() < plain.len());
/// // Call 6 (a3 X) is entered with alpha +10 and returns +8: at most +8.
/// assert_eq!((pruned[5].score, pruned[5].bound), (8, Bound::Upper));
/// assert!(trace(&Board::new(), Algorithm::Minimax, Scoring::Depth, 5000).is_err());
/// ```
pub fn trace(
    board: &Board,
    algorithm: Algorithm,
    scoring: Scoring,
    max_calls: u64,
) -> Result<Vec<Traced>, TooManyCalls> {
    let mut calls: Vec<Traced> = Vec::new();
    for step in Walk::new(board, algorithm, scoring) {
        match step {
            Step::Enter(call) => {
                if call.number > max_calls {
                    return Err(TooManyCalls { limit: max_calls });
                }
                calls.push(Traced {
                    call,
                    score: 0,
                    bound: Bound::Exact,
                    cut: CellSet::new(board.size(), 0),
                });
            }
            Step::Return(done) => {
                let traced = &mut calls[(done.number - 1) as usize];
                traced.score = done.score;
                traced.bound = done.bound;
                traced.cut = done.cut;
            }
        }
    }
    Ok(calls)
}

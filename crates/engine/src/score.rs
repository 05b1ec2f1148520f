//! Scores: what a position and a move are worth, counted one way everywhere.
//!
//! # The convention
//! GeeksforGeeks' `findBestMove` scores a move with `minimax(board, 0,
//! false)` on the position after it: that position is depth 0, the reply
//! depth 1, and so on. A win for the mover found at depth `d` scores `W - d`,
//! a loss `-(W - d)`, a draw 0, with `W` = 10 on 3×3 (the article's +10) and
//! 100 on bigger boards (room for the 64 plies of 8×8). So a win on the move scores `W`
//! (+10), a loss on the opponent's reply `-(W - 1)` (-9), and the article's
//! moves A and B, wins at depth 2 and 4, score 8 and 6. The value of a
//! position is its best move's score. The analysis of a position, its
//! minimax tree and the trace of its calls give every move one and the same
//! number.
//!
//! [`Scoring::Plain`] drops the depth: a win is `W`, a loss `-W`, a draw 0,
//! as GeeksforGeeks' code and freeCodeCamp's walkthrough return them.
//! [`Scoring::Cs50`] is CS50's `utility`: +1 when X wins, -1 when O wins, 0
//! for a draw, counted for X whoever is to move ([`Scoring::maximizer`]).
//!
//! A leaf: it names nothing of the engine but a square and a player (and
//! how enums go by names).

use super::names::named;
use super::player::Player;
use super::square::Square;

/// `W` on the classic 3×3 board: the article's +10.
pub(crate) const CLASSIC_WIN: i32 = 10;

/// `W` on bigger boards: 100 leaves room for every depth an 8×8 game has.
pub(crate) const BIG_WIN: i32 = 100;

/// `W`, the score of a win at depth 0, on a board of side `size`.
pub(crate) const fn win_score(size: u8) -> i32 {
    if size == 3 { CLASSIC_WIN } else { BIG_WIN }
}

/// The largest score a search's estimate may have at a depth limit on a
/// board of `cells` cells: half a win, and on the bigger boards also below
/// the slowest forced win (`W - cells`), so every forced win or loss of any
/// game lies beyond it (35 on 8×8, where a game has 64 plies; 50 up to 7×7).
pub(crate) const fn estimate_limit(win: i32, cells: usize) -> i32 {
    let half = win / 2;
    let slowest = win - cells as i32 - 1;
    if win == CLASSIC_WIN || slowest >= half {
        half
    } else {
        slowest
    }
}

/// True when `score` can only be a forced win or loss, never an estimate,
/// on any board up to 7×7 (a geometry knows its own limit).
pub(crate) const fn is_forced(score: i32, win: i32) -> bool {
    score.abs() > win / 2
}

/// One step toward zero: a win or loss one ply further away.
pub(crate) const fn shrink(score: i32) -> i32 {
    score - score.signum()
}

/// One step away from zero: the inverse of [`shrink`] (for a score that is
/// not a draw), one ply nearer the end.
pub(crate) const fn unshrink(score: i32) -> i32 {
    score + score.signum()
}

named! {
    /// How scores are counted, as `--scores` chooses: by its name, which
    /// [`FromStr`](std::str::FromStr) reads.
    ///
    /// ```
    /// use tictactoe_engine::Scoring;
    ///
    /// assert_eq!("cs50".parse(), Ok(Scoring::Cs50));
    /// assert_eq!(Scoring::default().to_string(), "depth");
    /// ```
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
    pub enum Scoring as "way of counting scores" {
        /// A win at depth `d` scores `W - d` and a loss `-(W - d)`, so a
        /// quicker win and a slower loss are worth more (GeeksforGeeks' text).
        #[default]
        Depth = "depth",
        /// A win scores `W`, a loss `-W`, whatever the depth (the articles' code).
        Plain = "plain",
        /// CS50's `utility`: +1 when X wins, -1 when O wins, 0 for a draw; X
        /// always maximizes.
        Cs50 = "cs50",
    }
}

impl Scoring {
    /// The side scores are counted for in a search from a position where
    /// `to_move` is to move: that side (as GeeksforGeeks' `findBestMove`
    /// maximizes for its player), or X for CS50, whoever is to move.
    ///
    /// ```
    /// use tictactoe_engine::{Player, Scoring};
    ///
    /// assert_eq!(Scoring::Depth.maximizer(Player::O), Player::O);
    /// assert_eq!(Scoring::Cs50.maximizer(Player::O), Player::X);
    /// ```
    pub const fn maximizer(self, to_move: Player) -> Player {
        match self {
            Scoring::Cs50 => Player::X,
            Scoring::Depth | Scoring::Plain => to_move,
        }
    }

    /// The score of a finished game at `depth` (the article's depth: 0 for
    /// the position after the move scored) for the side counted for: `won`
    /// when it has the line, `lost` (`Some(false)`) when the other side has
    /// it, a draw otherwise.
    ///
    /// ```
    /// use tictactoe_engine::Scoring;
    ///
    /// assert_eq!(Scoring::Depth.end(Some(true), 0, 10), 10);
    /// assert_eq!(Scoring::Depth.end(Some(false), 1, 10), -9);
    /// assert_eq!(Scoring::Plain.end(Some(false), 1, 10), -10);
    /// assert_eq!(Scoring::Cs50.end(Some(true), 4, 10), 1);
    /// assert_eq!(Scoring::Plain.end(None, 8, 10), 0);
    /// ```
    pub const fn end(self, won: Option<bool>, depth: u32, win: i32) -> i32 {
        let at_depth = match self {
            Scoring::Depth => win - depth as i32,
            Scoring::Plain => win,
            Scoring::Cs50 => 1,
        };
        match won {
            Some(true) => at_depth,
            Some(false) => -at_depth,
            None => 0,
        }
    }

    /// A score in the [convention](self) as this scoring counts it, for the
    /// same side: the same with [`Scoring::Depth`]; with [`Scoring::Plain`]
    /// `±W` for a proven win or loss (or any forced one), 0 for a draw, and
    /// an estimate unchanged; with [`Scoring::Cs50`] its sign, `±1` or 0.
    ///
    /// ```
    /// use tictactoe_engine::Scoring;
    ///
    /// assert_eq!(Scoring::Plain.of(-9, true, 10), -10);
    /// assert_eq!(Scoring::Depth.of(-9, true, 10), -9);
    /// assert_eq!(Scoring::Plain.of(3, false, 100), 3, "an estimate is no win");
    /// assert_eq!(Scoring::Cs50.of(-96, true, 100), -1);
    /// ```
    pub const fn of(self, score: i32, proven: bool, win: i32) -> i32 {
        match self {
            Scoring::Depth => score,
            Scoring::Plain if proven || is_forced(score, win) => win * score.signum(),
            Scoring::Plain => score,
            Scoring::Cs50 => score.signum(),
        }
    }

    /// A move's score as this scoring shows it: `score` in the
    /// [convention](self), for `mover`, counted by [`Scoring::of`] for the
    /// side this scoring counts for (X with [`Scoring::Cs50`]). Every view
    /// of a move's score shows this number.
    ///
    /// ```
    /// use tictactoe_engine::{Player, Scoring};
    ///
    /// assert_eq!(Scoring::Depth.shown(-9, true, 10, Player::O), -9);
    /// assert_eq!(Scoring::Cs50.shown(-9, true, 10, Player::O), 1, "X wins");
    /// ```
    pub const fn shown(self, score: i32, proven: bool, win: i32, mover: Player) -> i32 {
        let counted = self.of(score, proven, win);
        match (self.maximizer(mover), mover) {
            (Player::X, Player::X) | (Player::O, Player::O) => counted,
            _ => -counted,
        }
    }

    /// True when `score` is better than `than` for `mover`, both as
    /// [`Scoring::shown`] shows them: higher, or lower for the side that
    /// minimizes (O with [`Scoring::Cs50`]).
    pub const fn prefers(self, mover: Player, score: i32, than: i32) -> bool {
        match (self.maximizer(mover), mover) {
            (Player::X, Player::X) | (Player::O, Player::O) => score > than,
            _ => score < than,
        }
    }
}

/// One legal move and its score for the side that plays it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScoredMove {
    /// The move.
    pub mv: Square,
    /// The value of the position after the move for its mover, that
    /// position at depth 0 (see [the convention](self)): `W - d` for a win
    /// at depth `d`, `-(W - d)` for a loss, 0 for a draw, or an estimate
    /// when not proven.
    pub score: i32,
    /// The score is exact: it counts the depth of a win or loss with best
    /// play, or is a draw's 0 (read from the table or searched to the
    /// end), rather than an estimate at a depth limit. (What is proven of a
    /// move is its result, [`Outlook`](crate::Outlook); this says whether
    /// its number is known too.)
    pub exact: bool,
}

/// GeeksforGeeks' rule for choosing among scored moves, as `findBestMove`
/// keeps its best: the first, in their order, with the highest score (a later one
/// replaces it only by scoring strictly more). `None` when there are none.
///
/// ```
/// use tictactoe_engine::first_best;
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

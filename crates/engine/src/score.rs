//! Scores: what a position and a move are worth, counted one way everywhere.
//!
//! # The convention
//! Depth counts from the position being scored: the position is depth 0, the
//! position after a move depth 1, and so on. A win found at depth `d` scores
//! `W - d` for the side it is counted for, a loss `-(W - d)`, a draw 0, with
//! `W` = 10 on 3×3 (the seed's +10) and 100 on bigger boards (room for 49
//! plies). A move's score is the value of the position after it, at depth 1:
//! a win on the move scores `W - 1` (+9 on 3×3), a loss on the opponent's
//! reply `-(W - 2)` (-8). So the analysis of a position, its minimax tree and
//! the trace of its calls give every move one and the same number.
//!
//! [`Scoring::Plain`] drops the depth: a win is `W`, a loss `-W`, a draw 0,
//! as GeeksforGeeks' code and freeCodeCamp's walkthrough return them.
//! (CS50's +1 / -1 with X always the maximizer is the same game scaled and
//! seen from X's side.)
//!
//! A leaf: it names nothing of the engine but a square (and how enums go
//! by names).

use super::names::named;
use super::square::Square;

/// `W` on the classic 3×3 board: the seed's +10.
pub(crate) const CLASSIC_WIN: i32 = 10;

/// `W` on bigger boards: 100 leaves room for every depth a 7×7 game has.
pub(crate) const BIG_WIN: i32 = 100;

/// `W`, the score of a win at depth 0, on a board of side `size`.
pub(crate) const fn win_score(size: u8) -> i32 {
    if size == 3 { CLASSIC_WIN } else { BIG_WIN }
}

/// The largest score a search's estimate may have at a depth limit: half a
/// win. Every forced win or loss of any game lies beyond it.
pub(crate) const fn estimate_limit(win: i32) -> i32 {
    win / 2
}

/// True when `score` can only be a forced win or loss, never an estimate.
pub(crate) const fn is_forced(score: i32, win: i32) -> bool {
    score.abs() > estimate_limit(win)
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

/// The score of a move from the search's count, which starts at the move
/// (a win on the move is `W` there): one ply further, `W - 1`. Estimates are
/// no count of plies and stay as they are.
pub(crate) const fn from_search(score: i32, proven: bool, win: i32) -> i32 {
    if proven || is_forced(score, win) {
        shrink(score)
    } else {
        score
    }
}

/// The inverse of [`from_search`]: a move's score as the search counts it.
pub(crate) const fn to_search(score: i32, proven: bool, win: i32) -> i32 {
    if proven || is_forced(score, win) {
        unshrink(score)
    } else {
        score
    }
}

named! {
    /// How scores are counted, as `--scores` chooses: by its name, which
    /// [`FromStr`](std::str::FromStr) reads.
    ///
    /// ```
    /// use tictactoe_engine::Scoring;
    ///
    /// assert_eq!("plain".parse(), Ok(Scoring::Plain));
    /// assert_eq!(Scoring::default().to_string(), "depth");
    /// ```
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
    pub enum Scoring as "way of counting scores" {
        /// A win at depth `d` scores `W - d` and a loss `-(W - d)`, so a quicker
        /// win and a slower loss are worth more (the seed articles' text).
        #[default]
        Depth = "depth",
        /// A win scores `W`, a loss `-W`, whatever the depth (the articles' code).
        Plain = "plain",
    }
}

impl Scoring {
    /// The score of a finished game at `depth` below the position scored:
    /// `won` when the side counted for has the line, a draw otherwise
    /// (`lost` when the other side has it).
    ///
    /// ```
    /// use tictactoe_engine::Scoring;
    ///
    /// assert_eq!(Scoring::Depth.end(Some(true), 1, 10), 9);
    /// assert_eq!(Scoring::Depth.end(Some(false), 2, 10), -8);
    /// assert_eq!(Scoring::Plain.end(Some(false), 2, 10), -10);
    /// assert_eq!(Scoring::Plain.end(None, 9, 10), 0);
    /// ```
    pub const fn end(self, won: Option<bool>, depth: u32, win: i32) -> i32 {
        let at_depth = match self {
            Scoring::Depth => win - depth as i32,
            Scoring::Plain => win,
        };
        match won {
            Some(true) => at_depth,
            Some(false) => -at_depth,
            None => 0,
        }
    }

    /// A depth-counted score as this scoring counts it: the same with
    /// [`Scoring::Depth`]; with [`Scoring::Plain`], `±W` for a proven win or
    /// loss (or any forced one), 0 for a draw, and an estimate unchanged.
    ///
    /// ```
    /// use tictactoe_engine::Scoring;
    ///
    /// assert_eq!(Scoring::Plain.of(-8, true, 10), -10);
    /// assert_eq!(Scoring::Depth.of(-8, true, 10), -8);
    /// assert_eq!(Scoring::Plain.of(3, false, 100), 3, "an estimate is no win");
    /// ```
    pub const fn of(self, score: i32, proven: bool, win: i32) -> i32 {
        match self {
            Scoring::Depth => score,
            Scoring::Plain if proven || is_forced(score, win) => win * score.signum(),
            Scoring::Plain => score,
        }
    }
}

/// One legal move and its score for the side that plays it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScoredMove {
    /// The move.
    pub mv: Square,
    /// The value of the position after the move for its mover, at depth 1
    /// (see [the convention](self)): `W - d` for a win at depth `d`,
    /// `-(W - d)` for a loss, 0 for a draw, or an estimate when not proven.
    pub score: i32,
    /// Proven (by the table or by searching to the end), rather than estimated at a depth limit.
    pub proven: bool,
}

/// The seed's rule for choosing among scored moves, as `findBestMove` keeps
/// its best: the first, in their order, with the highest score (a later one
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_search_count_and_the_convention_are_one_ply_apart() {
        for win in [CLASSIC_WIN, BIG_WIN] {
            for score in -win..=win {
                let proven = true;
                assert_eq!(
                    from_search(to_search(score, proven, win), proven, win),
                    score
                );
            }
            assert_eq!(from_search(win, true, win), win - 1);
            assert_eq!(from_search(3, false, win), 3, "estimates are left alone");
        }
    }
}

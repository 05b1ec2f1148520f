//! The usual mistakes in writing GeeksforGeeks' minimax, each the article's
//! algorithm with one line changed, so that a grader can tell which one a
//! student's answers follow.
//!
//! [`move_values`] scores every legal move as a program with the mistake
//! would, in the same order and convention as
//! [`reference::move_values`](super::reference::move_values): where a
//! mistake changes nothing in a position, its scores are the reference's.
//!
//! ```
//! use tictactoe_engine::{Board, Scoring, teach::{mistake::{Mistake, move_values}, reference}};
//!
//! // O to move: scored for X, every score changes sign.
//! let board: Board = "xo./.x./...".parse().unwrap();
//! let right = reference::move_values(&board, reference::Algorithm::Minimax, Scoring::Depth);
//! let for_x = move_values(&board, Scoring::Depth, Mistake::XAlwaysMax);
//! for ((mv, score), (same, theirs)) in right.moves.iter().zip(&for_x) {
//!     assert_eq!((mv, -score), (same, *theirs));
//! }
//! ```

use super::reference::{
    MOVE_DEPTH, evaluate, finished_value, is_moves_left, minimax_counting, moves_and_children,
};
use crate::board::Board;
use crate::player::Player;
use crate::score::Scoring;
use crate::square::Square;

/// A usual mistake, named by the line of the article it changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mistake {
    /// Scores counted another way than asked: with [`Scoring::Plain`], no
    /// depth adjustment (`return 10` however deep the win, as the
    /// articles' code listings do), so a slow win ties with a quick one.
    Scores(Scoring),
    /// `findBestMove` scores the position after a move one ply deeper than
    /// the reference (`minimax(board, depth + 1, false)`): every win and
    /// loss one step nearer zero.
    Deeper,
    /// One ply shallower than the reference: every win and loss one step
    /// further from zero.
    Shallower,
    /// `player = 'x'` kept whoever is to move: every position is scored for
    /// X and X always maximizes, so with O to move the scores change sign
    /// and the "best" move is O's worst.
    XAlwaysMax,
    /// `player = 'x', opponent = 'o'` kept as GeeksforGeeks declares them:
    /// with O to move the program still places X's mark, as if X moved
    /// again, then O's for the reply, and so on, scoring for X.
    PlayerAlwaysX,
    /// The position after a move scored for the side that moves there, the
    /// opponent: `evaluate`'s +10 given to the wrong side (in this port,
    /// where `is_max` also says whose score it is, `findBestMove` calling
    /// `minimax(board, depth, true)` where the article passes `false`).
    WrongSide,
    /// `isMovesLeft` asked before `evaluate`: a full board with a line on
    /// it is scored as a draw.
    FullBoardFirst,
}

/// Every legal move of `board` in reading order with the score a program
/// with `mistake` gives it, counting by `scoring` (none once the game is over).
pub fn move_values(board: &Board, scoring: Scoring, mistake: Mistake) -> Vec<(Square, i32)> {
    if board.status().is_over() {
        return Vec::new();
    }
    moves_and_children(board)
        .map(|(mv, child)| {
            let calls = &mut 0;
            let score = match mistake {
                Mistake::Scores(other) => minimax_counting(&child, MOVE_DEPTH, false, other, calls),
                Mistake::Deeper => minimax_counting(&child, MOVE_DEPTH + 1, false, scoring, calls),
                Mistake::Shallower => {
                    minimax_counting(&child, MOVE_DEPTH - 1, false, scoring, calls)
                }
                Mistake::XAlwaysMax => {
                    let x_moves = child.to_move() == Player::X;
                    minimax_counting(&child, MOVE_DEPTH, x_moves, scoring, calls)
                }
                Mistake::PlayerAlwaysX if board.to_move() == Player::O => {
                    let as_x = board.place(mv.index(board.size()), Player::X);
                    player_always_x(&as_x, Player::O, MOVE_DEPTH, false, scoring)
                }
                Mistake::PlayerAlwaysX => {
                    minimax_counting(&child, MOVE_DEPTH, false, scoring, calls)
                }
                Mistake::WrongSide => minimax_counting(&child, MOVE_DEPTH, true, scoring, calls),
                Mistake::FullBoardFirst => full_board_first(&child, MOVE_DEPTH, false, scoring),
            };
            (mv, score)
        })
        .collect()
}

/// GeeksforGeeks' minimax on a board where X has played out of turn:
/// `mover` places the next mark, X maximizes.
fn player_always_x(
    board: &Board,
    mover: Player,
    depth: i32,
    is_max: bool,
    scoring: Scoring,
) -> i32 {
    let win = board.geometry().win_score();
    match evaluate(board, Player::X) {
        0 if !is_moves_left(board) => return 0,
        0 => {}
        score => return scoring.end(Some(score > 0), depth as u32, win),
    }
    let values = board.empty_cells().iter().map(|square| {
        let after = board.place(square.index(board.size()), mover);
        player_always_x(&after, mover.other(), depth + 1, !is_max, scoring)
    });
    if is_max {
        values.fold(i32::MIN, i32::max)
    } else {
        values.fold(i32::MAX, i32::min)
    }
}

/// GeeksforGeeks' minimax with its first two checks swapped: a full board
/// is a draw before anyone's line on it is looked at.
fn full_board_first(board: &Board, depth: i32, is_max: bool, scoring: Scoring) -> i32 {
    if !is_moves_left(board) {
        return 0;
    }
    let mover = board.to_move();
    let maximizer = if is_max { mover } else { mover.other() };
    if evaluate(board, maximizer) != 0 {
        return finished_value(board, depth, is_max, scoring).unwrap_or(0);
    }
    let values = moves_and_children(board)
        .map(|(_, child)| full_board_first(&child, depth + 1, !is_max, scoring));
    if is_max {
        values.fold(i32::MIN, i32::max)
    } else {
        values.fold(i32::MAX, i32::min)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::teach::reference::{self, Algorithm};

    fn reference(board: &Board, scoring: Scoring) -> Vec<(Square, i32)> {
        reference::move_values(board, Algorithm::Minimax, scoring).moves
    }

    #[test]
    fn each_mistake_changes_the_scores_as_it_says() {
        // O to move.
        let board: Board = "xo./.x./...".parse().unwrap();
        // The side scored for is the side to move in GeeksforGeeks' code;
        // CS50 counts for X whoever moves, so no side is a mistake there.
        for scoring in [Scoring::Depth, Scoring::Plain] {
            let right = reference(&board, scoring);
            let wrong_side = move_values(&board, scoring, Mistake::WrongSide);
            let negated: Vec<_> = right.iter().map(|&(mv, s)| (mv, -s)).collect();
            assert_eq!(wrong_side, negated, "the opponent's view is the negation");
            assert_eq!(move_values(&board, scoring, Mistake::XAlwaysMax), negated);
            assert_eq!(
                move_values(&board, scoring, Mistake::Scores(scoring)),
                right
            );
        }
        // X to move: X always maximizing is right.
        let board: Board = "xo./.x./..o".parse().unwrap();
        assert_eq!(
            move_values(&board, Scoring::Depth, Mistake::XAlwaysMax),
            reference(&board, Scoring::Depth)
        );
        let right = reference(&board, Scoring::Depth);
        let deeper = move_values(&board, Scoring::Depth, Mistake::Deeper);
        let shallower = move_values(&board, Scoring::Depth, Mistake::Shallower);
        for ((&(_, score), &(_, deep)), &(_, shallow)) in right.iter().zip(&deeper).zip(&shallower)
        {
            assert_eq!(deep, score - score.signum());
            assert_eq!(shallow, score + score.signum());
        }
    }

    #[test]
    fn with_o_to_move_a_fixed_player_places_xs_mark() {
        // O to move, and X threatens both diagonals: placing X's mark on
        // either end wins for X, each a win on the move.
        let board: Board = "xox/ox./...".parse().unwrap();
        let scores = move_values(&board, Scoring::Depth, Mistake::PlayerAlwaysX);
        let win = reference(&"xox/oox/...".parse().unwrap(), Scoring::Depth)[2].1;
        let winning: Vec<Square> = scores
            .iter()
            .filter(|&&(_, score)| score == win)
            .map(|&(mv, _)| mv)
            .collect();
        assert_eq!(winning, [Square::new(2, 0), Square::new(2, 2)]);
        // X to move: nothing changes.
        let board: Board = "xox/oox/...".parse().unwrap();
        assert_eq!(
            move_values(&board, Scoring::Depth, Mistake::PlayerAlwaysX),
            reference(&board, Scoring::Depth)
        );
    }

    #[test]
    fn a_full_board_won_on_the_last_move_is_a_draw_when_checked_first() {
        // X to move on the last square, which completes the a column.
        let board: Board = "xoo/xox/.xo".parse().unwrap();
        let right = reference(&board, Scoring::Depth);
        assert!(right[0].1 > 0, "{right:?}");
        assert_eq!(
            move_values(&board, Scoring::Depth, Mistake::FullBoardFirst),
            [(Square::new(2, 0), 0)]
        );
        // A win with squares left is still a win.
        let board: Board = "xox/oox/...".parse().unwrap();
        assert_eq!(
            move_values(&board, Scoring::Depth, Mistake::FullBoardFirst),
            reference(&board, Scoring::Depth)
        );
    }
}

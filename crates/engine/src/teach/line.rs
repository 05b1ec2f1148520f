//! The line behind a score: the moves both sides play after a move when
//! each plays its best, which is what the move's score counts.
//!
//! A win at depth `d` scores `W - d` (the position after the move is depth
//! 0), so the line behind a win ends, `d` moves after the move, in the
//! mover's line; behind a loss in the other side's; behind a draw on a full
//! board. On 3×3 every line is read from the table the compiler built,
//! `findBestMove`'s choice at every step (the first best move in reading
//! order). Bigger boards follow their search: to the end when
//! the score is proven (within half the time the analysis took), otherwise
//! as far as the search looked.

use std::time::{Duration, Instant};

use crate::analysis::Analysis;
use crate::board::Board;
use crate::score::{ScoredMove, unshrink};
use crate::search::{Searcher, UNLIMITED};
use crate::solved;
use crate::square::Square;

/// The moves that follow a move with best play from both sides.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Line {
    /// The replies, then the replies to those, in order: the other side moves first.
    pub moves: Vec<Square>,
    /// True when every move of the line is a proven best move and the line
    /// runs to the end of the game: always on 3×3, and on bigger boards when
    /// the move's score is proven and the line could be followed to the end
    /// in the time given. Otherwise the line goes as far as the search
    /// looked, by the moves its table remembers.
    pub proven: bool,
}

/// The line after `scored` on `board`, with `searcher` for boards bigger than
/// 3×3 (whose table may already know the positions); `depth` is how far an
/// unproven score was searched.
pub(crate) fn line_after(
    board: &Board,
    scored: ScoredMove,
    depth: Option<u32>,
    searcher: &mut Searcher,
) -> Line {
    let Ok(after) = board.play(scored.mv) else {
        return Line::default();
    };
    if board.is_classic() {
        return Line {
            moves: table_line(after),
            proven: true,
        };
    }
    if scored.exact {
        let (mut moves, whole) = searched_line(after, scored.score, searcher);
        if !whole {
            // Out of time: the rest as the table remembers it.
            let reached = moves
                .iter()
                .try_fold(after, |board, &mv| board.play(mv).ok());
            if let Some(reached) = reached {
                moves.extend(hinted_line(reached, u32::MAX, searcher));
            }
        }
        return Line {
            moves,
            proven: whole,
        };
    }
    // The move itself was one of the plies searched.
    let plies = depth.map_or(0, |depth| depth.saturating_sub(1));
    Line {
        moves: hinted_line(after, plies, searcher),
        proven: false,
    }
}

/// At least this long is given to following proven lines on bigger boards.
const LINE_TIME_FLOOR: Duration = Duration::from_millis(200);

/// The lines behind every move of `analysis`, in its order. On bigger boards
/// following proven lines to the end takes at most half as long as the
/// analysis took (or [`LINE_TIME_FLOOR`]); lines not finished by then go on
/// as far as the search's table remembers, unproven.
pub(crate) fn lines_of(analysis: &Analysis, searcher: &mut Searcher) -> Vec<Line> {
    let budget = (analysis.elapsed / 2).max(LINE_TIME_FLOOR);
    searcher.set_deadline(Some(Instant::now() + budget));
    let lines = analysis
        .moves
        .iter()
        .map(|&scored| line_after(&analysis.board, scored, analysis.depth(), searcher))
        .collect();
    searcher.set_deadline(None);
    lines
}

/// The table's choice at every step, to the end of the game.
fn table_line(mut board: Board) -> Vec<Square> {
    let mut moves = Vec::new();
    while let Some(mv) = solved::best_move(&board) {
        moves.push(mv);
        match board.play(mv) {
            Ok(next) => board = next,
            Err(_) => break,
        }
    }
    moves
}

/// To the end of the game on a proven score: at every step a move that
/// keeps the value, checked by a search that only asks "exactly this
/// value?". A forced move or the move the search's table remembers is asked
/// first (a warm table answers at once), then the others in reading order.
/// Also says whether it got to the end before the searcher's deadline.
/// `score` is the move's score.
fn searched_line(mut board: Board, score: i32, searcher: &mut Searcher) -> (Vec<Square>, bool) {
    let mut moves = Vec::new();
    // The value of a move for its mover is -shrink(the value for the side to move after it).
    let mut score = score;
    while !board.status().is_over() {
        let value = -unshrink(score);
        let first = forced_move(&board).or_else(|| searcher.table_move(&board));
        let others = board
            .legal_moves()
            .into_iter()
            .filter(|&mv| Some(mv) != first);
        let found = first.into_iter().chain(others).find(|&mv| {
            let (result, proven) =
                searcher.score_move_within(&board, mv, UNLIMITED, value - 1, value + 1);
            searcher.out_of_time() || (proven && result == value)
        });
        if searcher.out_of_time() {
            return (moves, false);
        }
        let Some(mv) = found else { break };
        moves.push(mv);
        let Ok(next) = board.play(mv) else { break };
        board = next;
        score = value;
    }
    let whole = board.status().is_over();
    (moves, whole)
}

/// A win on the move, or else the block of the opponent's win on the move.
fn forced_move(board: &Board) -> Option<Square> {
    let mover = board.to_move();
    board
        .threats(mover)
        .iter()
        .chain(board.threats(mover.other()).iter())
        .next()
}

/// As far as the search looked, at most `plies` moves: a win on the move
/// and a forced block where there is one, otherwise the move the search's
/// table remembers as best.
fn hinted_line(mut board: Board, plies: u32, searcher: &Searcher) -> Vec<Square> {
    let mut moves = Vec::new();
    while (moves.len() as u32) < plies && !board.status().is_over() {
        let Some(mv) = forced_move(&board).or_else(|| searcher.table_move(&board)) else {
            break;
        };
        let Ok(next) = board.play(mv) else { break };
        moves.push(mv);
        board = next;
    }
    moves
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Player, Scoring};

    /// The score of a line's end for the side that played the move before
    /// it, the position after the move at depth 0: what a whole line must
    /// add up to.
    fn score_of_end(end: &Board, mover: Player, plies_after: usize) -> i32 {
        let won = end.winner().map(|winner| winner == mover);
        Scoring::Depth.end(won, plies_after as u32, end.geometry().win_score())
    }

    #[test]
    fn a_line_ends_where_its_score_says() {
        let board: Board = "xox/oox/...".parse().unwrap();
        let mut searcher = Searcher::new(board.geometry());
        let scored = ScoredMove {
            mv: Square::new(2, 0),
            score: -9,
            exact: true,
        };
        let line = line_after(&board, scored, None, &mut searcher);
        assert_eq!(
            line.moves,
            [Square::new(2, 1)],
            "O completes the b column at once"
        );
        let end = board.play(scored.mv).unwrap().play(line.moves[0]).unwrap();
        assert_eq!(score_of_end(&end, Player::X, line.moves.len()), -9);
    }
}

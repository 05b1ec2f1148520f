//! The seed article's minimax, kept plain so it reads like the article.
//!
//! GeeksforGeeks' `evaluate`, `isMovesLeft`, `minimax` and `findBestMove`
//! become [`evaluate`], [`is_moves_left`], [`minimax`] and [`find_best_move`].
//! No pruning and no tables: this is the yardstick that the fast search in
//! [`super::search`] is checked against, and the count of positions it visits
//! is what the explain panel compares pruning with.

use super::board::{Board, Move, Player};

/// +10 when `player` has a line, -10 when the opponent has one, 0 otherwise
/// (±100 on boards bigger than 3×3). Like the seed, it scans every line.
pub fn evaluate(board: &Board, player: Player) -> i32 {
    let win = board.geometry().win_score();
    let lines = board.geometry().lines();
    for &line in lines {
        if board.marks(player) & line == line {
            return win;
        }
        if board.marks(player.other()) & line == line {
            return -win;
        }
    }
    0
}

/// True while at least one cell is empty.
pub fn is_moves_left(board: &Board) -> bool {
    board.empty_cells() != 0
}

/// The seed's minimax: the value of `board` for the maximizer, with scores
/// adjusted by `depth` so that a quicker win and a slower loss are preferred.
///
/// As in the article, the maximizer is the side that was to move when the
/// search began: the side to move now if `is_max`, else the other one.
pub fn minimax(board: &Board, depth: i32, is_max: bool) -> i32 {
    minimax_counting(board, depth, is_max, &mut 0)
}

/// [`minimax`] that also counts the positions it visits (one per call, like
/// the freeCodeCamp article's function-call counter).
pub fn minimax_counting(board: &Board, depth: i32, is_max: bool, visits: &mut u64) -> i32 {
    *visits += 1;
    let mover = board.to_move();
    let maximizer = if is_max { mover } else { mover.other() };
    let score = evaluate(board, maximizer);
    let win = board.geometry().win_score();

    // A win sooner is worth more, a loss later costs less: subtract the depth.
    if score == win {
        return score - depth;
    }
    if score == -win {
        return score + depth;
    }
    if !is_moves_left(board) {
        return 0;
    }

    let children = empty_cells(board).map(|cell| board.place(cell, mover));
    if is_max {
        children.fold(i32::MIN, |best, child| {
            best.max(minimax_counting(&child, depth + 1, false, visits))
        })
    } else {
        children.fold(i32::MAX, |best, child| {
            best.min(minimax_counting(&child, depth + 1, true, visits))
        })
    }
}

/// The seed's `findBestMove`: try every empty cell in reading order, score it
/// with `minimax(board, 0, false)` and keep the first move with the highest
/// value. Returns the move, its value and the positions visited; `None` when
/// the game is over.
pub fn find_best_move(board: &Board) -> Option<(Move, i32, u64)> {
    let mut visits = 0;
    let mut best: Option<(Move, i32)> = None;
    for (mv, value) in score_moves_counting(board, &mut visits) {
        if best.is_none_or(|(_, best_value)| value > best_value) {
            best = Some((mv, value));
        }
    }
    best.map(|(mv, value)| (mv, value, visits))
}

/// Every legal move in reading order with the value the seed gives it.
pub fn score_moves(board: &Board) -> Vec<(Move, i32)> {
    score_moves_counting(board, &mut 0)
}

/// [`score_moves`] that also counts the positions visited.
pub fn score_moves_counting(board: &Board, visits: &mut u64) -> Vec<(Move, i32)> {
    if board.status().is_over() {
        return Vec::new();
    }
    let mover = board.to_move();
    empty_cells(board)
        .map(|cell| {
            let value = minimax_counting(&board.place(cell, mover), 0, false, visits);
            (Move::from_index(cell, board.size()), value)
        })
        .collect()
}

fn empty_cells(board: &Board) -> impl Iterator<Item = usize> + '_ {
    (0..board.geometry().cells()).filter(|&cell| board.empty_cells() & (1 << cell) != 0)
}

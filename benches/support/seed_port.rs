//! A faithful port of the GeeksforGeeks seed program, the baseline the engine is measured against.
//!
//! Kept as the article writes it: a 3×3 array of characters with `_` for an
//! empty cell, `x` as the maximizing player and `o` as the opponent, a full
//! minimax tree without pruning, and `evaluate` scanning every row, column and
//! diagonal at every node. One change follows the article's text rather than
//! its listing: scores are adjusted by depth (win `10 - depth`, loss `-10 + depth`).
//! `calls` counts every `minimax` call, like the freeCodeCamp article's counter.

// Each bench uses part of the port, and it keeps the article's index loops on purpose.
#![allow(dead_code, clippy::needless_range_loop)]

pub type SeedBoard = [[u8; 3]; 3];

const PLAYER: u8 = b'x';
const OPPONENT: u8 = b'o';
const EMPTY: u8 = b'_';

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeedMove {
    pub row: i32,
    pub col: i32,
}

/// Reads the project's notation into the articles' character board.
pub fn from_notation(text: &str) -> SeedBoard {
    let mut board = [[EMPTY; 3]; 3];
    let cells: Vec<u8> = text.bytes().filter(|b| *b != b'/').collect();
    for (i, cell) in cells.iter().enumerate().take(9) {
        board[i / 3][i % 3] = match cell.to_ascii_lowercase() {
            b'x' => PLAYER,
            b'o' => OPPONENT,
            _ => EMPTY,
        };
    }
    board
}

pub fn is_moves_left(board: &SeedBoard) -> bool {
    for row in board {
        for &cell in row {
            if cell == EMPTY {
                return true;
            }
        }
    }
    false
}

pub fn evaluate(b: &SeedBoard) -> i32 {
    for row in 0..3 {
        if b[row][0] == b[row][1] && b[row][1] == b[row][2] {
            if b[row][0] == PLAYER {
                return 10;
            } else if b[row][0] == OPPONENT {
                return -10;
            }
        }
    }
    for col in 0..3 {
        if b[0][col] == b[1][col] && b[1][col] == b[2][col] {
            if b[0][col] == PLAYER {
                return 10;
            } else if b[0][col] == OPPONENT {
                return -10;
            }
        }
    }
    if b[0][0] == b[1][1] && b[1][1] == b[2][2] {
        if b[0][0] == PLAYER {
            return 10;
        } else if b[0][0] == OPPONENT {
            return -10;
        }
    }
    if b[0][2] == b[1][1] && b[1][1] == b[2][0] {
        if b[0][2] == PLAYER {
            return 10;
        } else if b[0][2] == OPPONENT {
            return -10;
        }
    }
    0
}

pub fn minimax(board: &mut SeedBoard, depth: i32, is_max: bool, calls: &mut u64) -> i32 {
    *calls += 1;
    let score = evaluate(board);
    if score == 10 {
        return score - depth;
    }
    if score == -10 {
        return score + depth;
    }
    if !is_moves_left(board) {
        return 0;
    }
    if is_max {
        let mut best = -1000;
        for i in 0..3 {
            for j in 0..3 {
                if board[i][j] == EMPTY {
                    board[i][j] = PLAYER;
                    best = best.max(minimax(board, depth + 1, !is_max, calls));
                    board[i][j] = EMPTY;
                }
            }
        }
        best
    } else {
        let mut best = 1000;
        for i in 0..3 {
            for j in 0..3 {
                if board[i][j] == EMPTY {
                    board[i][j] = OPPONENT;
                    best = best.min(minimax(board, depth + 1, !is_max, calls));
                    board[i][j] = EMPTY;
                }
            }
        }
        best
    }
}

/// The articles' `findBestMove` for `x`; returns the move, its value and the `minimax` calls made.
pub fn find_best_move(board: &mut SeedBoard) -> (SeedMove, i32, u64) {
    let mut calls = 0;
    let mut best_val = -1000;
    let mut best_move = SeedMove { row: -1, col: -1 };
    for i in 0..3 {
        for j in 0..3 {
            if board[i][j] == EMPTY {
                board[i][j] = PLAYER;
                let move_val = minimax(board, 0, false, &mut calls);
                board[i][j] = EMPTY;
                if move_val > best_val {
                    best_move = SeedMove {
                        row: i as i32,
                        col: j as i32,
                    };
                    best_val = move_val;
                }
            }
        }
    }
    (best_move, best_val, calls)
}

//! A tight port of the GeeksforGeeks seed program: the baseline the engine is measured against.
//!
//! The article's C++ as plainly as Rust writes it: `char board[3][3]` becomes
//! `[[u8; 3]; 3]`, moves are made and unmade in place, nothing is allocated and
//! nothing is counted. `x` maximizes, `o` minimizes, `_` is an empty cell.
//! Like `seed_port.rs`, scores follow the article's text and are adjusted by
//! depth (win `10 - depth`, loss `-10 + depth`).

// Each bench uses part of the port, and it keeps the article's index loops on purpose.
#![allow(dead_code, clippy::needless_range_loop)]

pub type Grid = [[u8; 3]; 3];

const PLAYER: u8 = b'x';
const OPPONENT: u8 = b'o';
const EMPTY: u8 = b'_';

/// Reads the project's notation (`/` between rows optional) without allocating.
pub fn parse(text: &str) -> Grid {
    let mut board = [[EMPTY; 3]; 3];
    let mut cell = 0;
    for byte in text.bytes() {
        if byte == b'/' || cell == 9 {
            continue;
        }
        board[cell / 3][cell % 3] = match byte.to_ascii_lowercase() {
            b'x' => PLAYER,
            b'o' => OPPONENT,
            _ => EMPTY,
        };
        cell += 1;
    }
    board
}

fn is_moves_left(b: &Grid) -> bool {
    for i in 0..3 {
        for j in 0..3 {
            if b[i][j] == EMPTY {
                return true;
            }
        }
    }
    false
}

fn evaluate(b: &Grid) -> i32 {
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

fn minimax(b: &mut Grid, depth: i32, is_max: bool) -> i32 {
    let score = evaluate(b);
    if score == 10 {
        return score - depth;
    }
    if score == -10 {
        return score + depth;
    }
    if !is_moves_left(b) {
        return 0;
    }
    if is_max {
        let mut best = -1000;
        for i in 0..3 {
            for j in 0..3 {
                if b[i][j] == EMPTY {
                    b[i][j] = PLAYER;
                    best = best.max(minimax(b, depth + 1, !is_max));
                    b[i][j] = EMPTY;
                }
            }
        }
        best
    } else {
        let mut best = 1000;
        for i in 0..3 {
            for j in 0..3 {
                if b[i][j] == EMPTY {
                    b[i][j] = OPPONENT;
                    best = best.min(minimax(b, depth + 1, !is_max));
                    b[i][j] = EMPTY;
                }
            }
        }
        best
    }
}

/// The articles' `findBestMove` for `x`: `(row, col)` of the first best move in
/// reading order and its value; `(-1, -1)` when no cell is empty.
pub fn find_best_move(b: &mut Grid) -> ((i32, i32), i32) {
    let mut best_val = -1000;
    let mut best_move = (-1, -1);
    for i in 0..3 {
        for j in 0..3 {
            if b[i][j] == EMPTY {
                b[i][j] = PLAYER;
                let move_val = minimax(b, 0, false);
                b[i][j] = EMPTY;
                if move_val > best_val {
                    best_move = (i as i32, j as i32);
                    best_val = move_val;
                }
            }
        }
    }
    (best_move, best_val)
}

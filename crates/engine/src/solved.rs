//! Every 3×3 position solved by the compiler: on the classic board the answer
//! is a lookup, even the first one in a process.
//!
//! The table is built by `const` evaluation while the crate compiles, with the
//! same scores as the article's minimax (the exhaustive tests hold it against the
//! reference on every reachable position), and is stored in the binary's
//! read-only data: nothing is computed or allocated at run time. Beside each
//! position's best move and value it keeps the size of the article's plain
//! minimax tree below it, so the teaching views can say what plain minimax
//! costs without running it.

use super::board::Board;
use super::geometry::line_masks;
use super::player::Player;
use super::score::{CLASSIC_WIN, ScoredMove, shrink};
use super::square::Square;

/// A 3×3 position as a number in base 3: digit `cell` (worth `3^cell`) is
/// 0 for an empty cell, 1 for X, 2 for O. Adding a mark only ever raises it.
const CODES: usize = 19_683;

/// `3^cell` for each cell in reading order.
const POW3: [usize; 9] = [1, 3, 9, 27, 81, 243, 729, 2187, 6561];

/// Cells of the board: a stored cell below this is a move.
const CELLS: u8 = 9;

/// Stored for codes that no game reaches.
const UNREACHABLE: u8 = u8::MAX;
/// Stored for finished positions that a game reaches.
const FINISHED: u8 = u8::MAX - 1;

// In the order written: the best moves first, at the start of the table,
// which shares its page with data a process has already touched. Left to
// reorder, the compiler put the tree sizes first and the first lookup in a
// process paid for a cold page: 0.1 µs became 3.7 µs (median of 31 processes).
#[repr(C)]
struct Solved {
    /// The cell of the article's choice (the first in reading order with the top
    /// score) for the side to move in an unfinished position; [`FINISHED`]
    /// or [`UNREACHABLE`] for the other codes.
    best: [u8; CODES],
    /// The value for the side to move: its best move's score, counted from
    /// the move as the search counts (a win on the move is +10).
    value: [i8; CODES],
    /// Calls the article's plain minimax makes when called on the position, the
    /// call on the position itself included (1 for a finished position).
    tree: [u32; CODES],
}

/// Built by the compiler: 116 KB of read-only data.
static SOLVED: Solved = Solved::build();

/// Cells in a line of three.
const LINES: [u64; 8] = {
    let (masks, _) = line_masks(3, 3);
    [
        masks[0], masks[1], masks[2], masks[3], masks[4], masks[5], masks[6], masks[7],
    ]
};

const fn has_line(marks: u64) -> bool {
    let mut i = 0;
    while i < LINES.len() {
        if marks & LINES[i] == LINES[i] {
            return true;
        }
        i += 1;
    }
    false
}

/// The article's score of a finished position for the side that just moved,
/// or `None` while the game goes on.
const fn finished_score(mover: u64, both: u64) -> Option<i32> {
    if has_line(mover) {
        Some(CLASSIC_WIN)
    } else if both == 0x1ff {
        Some(0)
    } else {
        None
    }
}

impl Solved {
    const fn build() -> Solved {
        let mut solved = Solved {
            best: [UNREACHABLE; CODES],
            value: [0; CODES],
            tree: [0; CODES],
        };
        solved.solve(0, 0, 0);
        solved
    }

    /// Solves the unfinished position `mine`/`theirs` (the side to move's
    /// marks first) with base-3 code `code`, and every position after it;
    /// returns its value. Finished positions met on the way are marked.
    const fn solve(&mut self, mine: u64, theirs: u64, code: usize) -> i32 {
        if self.best[code] != UNREACHABLE {
            return self.value[code] as i32;
        }
        // X moves when both sides have as many marks.
        let digit = if mine.count_ones() == theirs.count_ones() {
            1
        } else {
            2
        };
        let (mut best, mut best_cell) = (i32::MIN, 0);
        let mut tree = 1;
        let mut cell = 0;
        while cell < CELLS as usize {
            let bit = 1u64 << cell;
            if (mine | theirs) & bit == 0 {
                let after = mine | bit;
                let child = code + digit * POW3[cell];
                let score = match finished_score(after, after | theirs) {
                    Some(score) => {
                        self.best[child] = FINISHED;
                        self.tree[child] = 1;
                        score
                    }
                    // The opponent's value, seen from our side one ply further away.
                    None => -shrink(self.solve(theirs, after, child)),
                };
                tree += self.tree[child];
                if score > best {
                    best = score;
                    best_cell = cell;
                }
            }
            cell += 1;
        }
        self.best[code] = best_cell as u8;
        self.value[code] = best as i8;
        self.tree[code] = tree;
        best
    }
}

/// The base-3 code of X's and O's marks on 3×3.
fn code_of(x: u64, o: u64) -> usize {
    POW3.iter()
        .enumerate()
        .map(|(cell, &weight)| weight * ((x >> cell & 1) + 2 * (o >> cell & 1)) as usize)
        .sum()
}

/// The base-3 code of a 3×3 board.
fn code(board: &Board) -> usize {
    code_of(board.bits(Player::X), board.bits(Player::O))
}

/// The cell the table names for an unfinished 3×3 board.
fn entry(board: &Board) -> Option<u8> {
    if !board.is_classic() {
        return None;
    }
    let best = SOLVED.best[code(board)];
    (best < CELLS).then_some(best)
}

/// The article's choice for a 3×3 board in progress; `None` for a finished board
/// or another shape.
pub(crate) fn best_move(board: &Board) -> Option<Square> {
    entry(board).map(|cell| Square::from_index(usize::from(cell), 3))
}

/// Every legal move of a 3×3 board with its proven score in the engine's
/// convention (none once the game is over); `None` for another shape.
pub(crate) fn scored_moves(board: &Board) -> Option<Vec<ScoredMove>> {
    if !board.is_classic() {
        return None;
    }
    if board.status().is_over() {
        return Some(Vec::new());
    }
    let mover = board.to_move();
    let digit = if mover == Player::X { 1 } else { 2 };
    let (mine, theirs) = (board.bits(mover), board.bits(mover.other()));
    let code = code(board);
    board
        .empty_cells()
        .iter()
        .map(|mv| {
            let cell = mv.index(3);
            let after = mine | 1 << cell;
            let score = match finished_score(after, after | theirs) {
                Some(score) => score,
                None => {
                    let child = code + digit * POW3[cell];
                    // Every unfinished position after a legal move is in the table.
                    (SOLVED.best[child] < CELLS).then(|| -shrink(i32::from(SOLVED.value[child])))?
                }
            };
            Some(ScoredMove {
                mv,
                score,
                exact: true,
            })
        })
        .collect()
}

/// Calls the article's plain minimax makes when called on a 3×3 position, the
/// call on the position itself included: 549,946 for the empty board. `None`
/// for another shape.
pub(crate) fn tree_size(board: &Board) -> Option<u64> {
    board
        .is_classic()
        .then(|| u64::from(SOLVED.tree[code(board)]))
}

/// Every position a 3×3 game can reach, 5,478 of them, from the empty board
/// to the finished games: breadth first, so by number of marks, and within
/// one number in the order the moves are first played.
///
/// ```
/// use tictactoe_engine::{Board, reachable_positions};
///
/// let all = reachable_positions();
/// assert_eq!(all.len(), 5478);
/// assert_eq!(all[0], Board::new());
/// assert_eq!(all.iter().filter(|b| b.status().is_over()).count(), 958);
/// ```
pub fn reachable_positions() -> Vec<Board> {
    let mut seen = vec![false; CODES];
    let mut all = vec![Board::new()];
    seen[0] = true;
    let mut next = 0;
    while let Some(&board) = all.get(next) {
        next += 1;
        for mv in board.legal_moves() {
            if let Ok(after) = board.play(mv)
                && !std::mem::replace(&mut seen[code(&after)], true)
            {
                all.push(after);
            }
        }
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Geometry;

    #[test]
    fn codes_count_every_mark_once() {
        let board: Board = "xo./.../..x".parse().unwrap();
        assert_eq!(code(&board), 1 + 2 * 3 + 6561);
        assert_eq!(code(&Board::new()), 0);
    }

    #[test]
    fn exactly_the_reachable_positions_are_listed_and_the_unfinished_solved() {
        let all = reachable_positions();
        let unfinished = all.iter().filter(|board| !board.status().is_over()).count();
        let solved = SOLVED.best.iter().filter(|&&best| best < CELLS).count();
        let finished = SOLVED.best.iter().filter(|&&best| best == FINISHED).count();
        assert_eq!((unfinished, solved), (4520, 4520));
        assert_eq!(finished, all.len() - unfinished);
        assert!(
            all.iter()
                .all(|board| SOLVED.best[code(board)] != UNREACHABLE)
        );
    }

    /// The rules alone accept exactly the positions the table lists as
    /// reachable (bigger boards rely on the rules).
    #[test]
    fn the_rules_accept_exactly_the_reachable_3x3_positions() {
        let geometry = Geometry::classic();
        let mut accepted = 0;
        for code in 0..CODES {
            let (mut x, mut o, mut rest) = (0u64, 0u64, code);
            for cell in 0..9 {
                match rest % 3 {
                    1 => x |= 1 << cell,
                    2 => o |= 1 << cell,
                    _ => {}
                }
                rest /= 3;
            }
            let by_rules = Board::from_bits(geometry, x, o).is_ok();
            let listed = SOLVED.best[code_of(x, o)] != UNREACHABLE;
            assert_eq!(by_rules, listed, "{x:09b} {o:09b}");
            accepted += usize::from(by_rules);
        }
        assert_eq!(accepted, 5478);
    }
}

//! The game engine: rules, the seed's minimax and the fast search. No terminal, no I/O.
//!
//! ```
//! use tictactoe::engine::{find_best_move, Board, Move};
//!
//! // The GeeksforGeeks example: X to move wins at row 2, col 2.
//! let board: Board = "xox/oox/...".parse().unwrap();
//! assert_eq!(find_best_move(&board), Some(Move::new(2, 2)));
//! ```

pub mod ai;
mod analysis;
mod board;
mod error;
mod geometry;
pub mod reference;
pub mod search;
mod solved;

pub use ai::{Ai, Decision, Level, ScoreSource, choose_move};
pub use analysis::{Analysis, Limits, Outlook, ScoredMove, analyze, analyze_with};
pub use board::{Board, Move, Player, Status, Symmetries};
pub use error::{BoardError, GeometryError, IllegalMove, InvalidPosition, ParseError};
pub use geometry::{BIG_WIN, CLASSIC_WIN, Geometry, MAX_SIZE, MIN_SIZE};
pub use reference::{evaluate, is_moves_left, minimax};
pub use solved::SolvedTable;

use std::time::Duration;

use search::Searcher;

/// How long [`find_best_move`] thinks on boards bigger than 3×3.
pub const DEFAULT_THINK: Duration = Duration::from_millis(1000);

/// The seed's `findBestMove`, computed by the fast search: the first move in
/// reading order among those with the highest score. `None` once the game is over.
///
/// On 3×3 the answer is exact. Bigger boards are searched for at most
/// [`DEFAULT_THINK`]: proven when the search gets to the end in time, the best
/// estimate otherwise.
pub fn find_best_move(board: &Board) -> Option<Move> {
    if board.geometry().is_classic() {
        Searcher::new(board.geometry())
            .best_move(board)
            .map(|(mv, _)| mv)
    } else {
        analyze(board, Limits::Think(DEFAULT_THINK))
            .best()
            .map(|best| best.mv)
    }
}

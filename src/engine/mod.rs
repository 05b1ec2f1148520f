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

pub use ai::{Decision, Level, ScoreSource, choose_move, choose_move_with};
pub use analysis::{Analysis, Limits, Outlook, ScoredMove, analyze, analyze_with};
pub use board::{Board, Move, Player, Status, Symmetries};
pub use error::{BoardError, GeometryError, IllegalMove, InvalidPosition, ParseError};
pub use geometry::{BIG_WIN, CLASSIC_WIN, Geometry, MAX_SIZE, MIN_SIZE};
pub use reference::{evaluate, is_moves_left, minimax};
pub use solved::SolvedTable;

use search::Searcher;

/// The seed's `findBestMove`, computed by the fast search: the first move in
/// reading order among those with the highest score. `None` once the game is over.
pub fn find_best_move(board: &Board) -> Option<Move> {
    Searcher::new(board.geometry())
        .best_move(board)
        .map(|(mv, _)| mv)
}

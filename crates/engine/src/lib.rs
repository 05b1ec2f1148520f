//! Tic-tac-toe on boards from 3×3 to 8×8 with 3 to 8 in a row: the rules,
//! the articles' minimax and a fast search. No terminal, no I/O.
//!
//! - A [`Board`] is a position, read from the notation (`xo./.x./..o`) and
//!   played with checked moves; every board is one a real game can reach.
//!   Its [`Status`] says whose move it is or how the game ended: an
//!   [`Outcome`], the one type for an ending (the rules', the prover's and
//!   the records'), seen from one side as a [`Standing`].
//!   A [`Square`] goes by its name (`b2`), read back with `FromStr`;
//!   [`Geometry::parse_square`] reads a square as a person types it on a
//!   board (also 1-9 on 3×3). [`Level`] and [`Scoring`] read their names too.
//! - [`find_best_move`] answers GeeksforGeeks' question, [`analyze`] scores every
//!   move and an [`Ai`] plays at a [`Level`]. On 3×3 every answer is read
//!   from a table the compiler built; bigger boards are searched.
//! - Scores follow [one convention](score), GeeksforGeeks': a move's score
//!   is `minimax` of the position after it at depth 0 (+10 for a win on the
//!   move), the same number in every view. [`Scoring::Plain`] gives the
//!   articles' bare ±10, [`Scoring::Cs50`] CS50's ±1 counted for X.
//! - [`teach`] lays the articles' minimax open: the article's own algorithm, its
//!   calls one by one, its tree and the line behind a score; [`Role`] says
//!   who maximizes.
//! - [`solve`] proves who wins a board and gives the strategies, within a
//!   table of fixed size and on as many threads as it is given;
//!   `solve::certificate` writes them as a certificate and checks one,
//!   knowing only the rules, and `solve::jobs` splits a proof into jobs and
//!   puts their certificates back together. [`notation`] reads and writes
//!   whole games (PGN-like records).
//!
//! Everything here is data: the sentences for people are the caller's (the
//! errors say in one line what is wrong). The `serde` feature adds
//! `Serialize`/`Deserialize` for the data types, each written as the name
//! the engine prints and reads (a square `"b2"`, a board its notation), and
//! the certificates, which are JSON Lines.
//!
//! ```
//! use tictactoe_engine::{Board, Square, Player, Status, find_best_move};
//!
//! // The GeeksforGeeks example: X to move wins at row 2, col 2.
//! let board: Board = "xox/oox/...".parse()?;
//! let best = find_best_move(&board).expect("the game is on");
//! assert_eq!(best, Square::new(2, 2));
//! let after = board.play(best)?;
//! assert_eq!(after.status(), Status::Won(Player::X));
//! assert_eq!(after.winning_cells().len(), 3);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs)]

mod ai;
mod analysis;
mod board;
mod cell_set;
mod error;
mod geometry;
mod names;
pub mod notation;
mod outcome;
mod player;
mod role;
pub mod score;
mod search;
#[cfg(feature = "serde")]
mod serde_impls;
mod sizes;
pub mod solve;
mod solved;
mod square;
pub mod teach;
mod tt;

pub use ai::{Ai, Decision, Dice, Level};
pub use analysis::{Analysis, Limits, Method, Outlook, analyze, analyze_by_search};
pub use board::{Board, Status};
pub use cell_set::{CellSet, CellSetIter};
pub use error::{
    BoardError, ECHO_LIMIT, GeometryError, IllegalMove, InvalidPosition, ParseError, echo,
};
pub use geometry::{Geometry, MAX_SIZE, MIN_SIZE};
pub use names::UnknownName;
pub use outcome::{Outcome, Standing};
pub use player::Player;
pub use role::Role;
pub use score::{ScoredMove, Scoring, first_best};
pub use solved::reachable_positions;
pub use square::{Square, SquareError, read_row_col};

use std::time::Duration;

/// How long [`find_best_move`] thinks on boards bigger than 3×3.
pub const DEFAULT_THINK: Duration = Duration::from_millis(1000);

/// GeeksforGeeks' `findBestMove`, answered by the engine: the first move in
/// reading order among those with the highest score. `None` once the game is over.
///
/// On 3×3 the answer is proven and read from the table the compiler built.
/// Bigger boards are searched for at most [`DEFAULT_THINK`]: proven when the
/// search gets to the end in time, the best estimate otherwise.
///
/// [`teach::reference::best_move`] is the article's own `findBestMove`, by
/// its plain minimax with its calls counted: it chooses the same move.
///
/// ```
/// use tictactoe_engine::{Board, Square, find_best_move};
///
/// let board: Board = "o.x/x.x/.oo".parse().unwrap();
/// assert_eq!(find_best_move(&board), Some(Square::new(1, 1)), "the freeCodeCamp example");
/// assert_eq!(find_best_move(&"xxx/oo./...".parse().unwrap()), None, "X has won");
/// ```
pub fn find_best_move(board: &Board) -> Option<Square> {
    solved::best_move(board).or_else(|| {
        analyze(board, Limits::Think(DEFAULT_THINK))
            .best()
            .map(|best| best.mv)
    })
}

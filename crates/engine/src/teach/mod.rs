//! The articles' minimax laid open, for the teaching views.
//!
//! - [`reference`](mod@reference): the article's algorithm as it reads (`evaluate`,
//!   `minimax`, `findBestMove`, alpha-beta), the yardstick for everything else;
//! - [`trace`]: its calls one by one, numbered as freeCodeCamp numbers them;
//! - [`tree`]: its tree one level at a time;
//! - [`line`](mod@line): the moves behind a score, both sides playing their best;
//! - [`ladder`]: the same position searched with one technique after
//!   another added (alpha-beta, move ordering, a table, symmetry, iterative
//!   deepening), each giving the same value for fewer positions;
//! - [`mistake`]: the usual mistakes in writing the article's minimax, each
//!   one line changed, as a grader recognises them.
//!
//! Every score here follows the engine's [one convention](crate::score), so
//! a move has the same number in all four and in [`analyze`](crate::analyze).

pub mod ladder;
pub mod line;
pub mod mistake;
pub mod reference;
pub mod trace;
pub mod tree;

//! Perfect tic-tac-toe that teaches the minimax algorithm behind it.
#![deny(missing_docs)]

pub mod cli;
/// The engine crate, [`tictactoe_engine`], under the name the app's modules use.
pub use tictactoe_engine as engine;
pub mod game;
pub mod plain;
pub mod quiz;
pub mod screen;
pub mod selfplay;
#[cfg(feature = "serve")]
pub mod serve;
pub mod settings;
pub mod stats;
pub mod text;
pub mod tui;
pub mod words;

//! Perfect tic-tac-toe that teaches the minimax algorithm behind it.
#![deny(missing_docs)]

pub mod cli;
pub mod engine;
pub mod game;
pub mod plain;
pub mod screen;
#[cfg(feature = "serve")]
pub mod serve;
pub mod session;
pub mod stats;
pub mod text;
pub mod tui;

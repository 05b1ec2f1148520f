//! `tictactoe`: the command line over the crates that do the work, the
//! engine (`tictactoe-engine`), the core (`tictactoe-core`), the full-screen
//! game (`tictactoe-screen`) and the SSH server (`tictactoe-serve`).
#![deny(missing_docs)]

pub mod cli;

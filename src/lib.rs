//! `tictactoe`: the command line over the crates that do the work: the
//! engine (`tictactoe-engine`), the game's model (`tictactoe-game`), the
//! grader and the lab (`tictactoe-grade`), the line-based front ends
//! (`tictactoe-console`), the full-screen game (`tictactoe-screen`) and the
//! SSH server (`tictactoe-serve`).
#![deny(missing_docs)]

pub mod cli;

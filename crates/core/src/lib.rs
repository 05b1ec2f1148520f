//! `tictactoe-core`: the game around the engine, with no terminal and no
//! network. Everything here is text and files; the full-screen game
//! (`tictactoe-screen`), the SSH server (`tictactoe-serve`) and the command
//! line build on it.
//!
//! - The game and what surrounds it: [`game`], [`settings`], [`clock`], [`selfplay`],
//!   [`quiz`], [`review`], the statistics ([`stats`]) and the records
//!   ([`record`]) on disk.
//! - Files a user names, read and written one way for all of them ([`files`]).
//! - What a player asks for ([`action`]) and every key and typed word that
//!   asks for it ([`keys`]): one table for every front end.
//! - The words: [`present`] (the engine's facts in sentences, every
//!   sentence written once for every front end) on [`text`]
//!   (numbers, input lines) and [`fit`] (text made to fit a width).
//! - Teaching tools beside the game: [`grade`] (a student's own minimax,
//!   run as a program and checked on every position) and [`lab`] (what each
//!   search technique buys on one position).
//! - The line-based front ends: [`console`] under [`plain`] and [`reader`]
//!   (the screen-reader mode).

#![deny(missing_docs)]

pub mod action;
pub mod clock;
pub mod console;
pub mod files;
pub mod fit;
pub mod game;
pub mod grade;
pub mod keys;
pub mod lab;
pub mod plain;
pub mod present;
pub mod quiz;
pub mod reader;
pub mod record;
pub mod review;
pub mod selfplay;
pub mod settings;
pub mod stats;
pub mod text;

/// The presentation module's old name, while branches written against it
/// land: use [`present`].
pub use present as words;

//! `tictactoe-game`: the game's model around the engine, with no terminal
//! and no network. Everything here is data, text and files; the front ends
//! (the line-based ones in `tictactoe-console`, the full screen in
//! `tictactoe-screen`, the SSH server in `tictactoe-serve`), the grader
//! (`tictactoe-grade`) and the command line build on it.
//!
//! - The game and what surrounds it: [`game`], [`settings`], [`clock`], a game
//!   between people as its referee holds it ([`versus`]), [`selfplay`],
//!   [`quiz`], [`review`], the statistics ([`stats`]) and the records
//!   ([`record`]) on disk.
//! - Files a user names, read and written one way for all of them ([`files`]).
//! - What a player asks for ([`action`]) and every key and typed word that
//!   asks for it ([`keys`]): one table for every front end.
//! - The words: [`present`] (the engine's facts in sentences, every
//!   sentence written once for every front end) on [`text`]
//!   (numbers, input lines) and [`fit`] (text made to fit a width); and
//!   [`json`], every command's JSON (every shape, in the engine's names).

#![deny(missing_docs)]

pub mod action;
pub mod clock;
pub mod files;
pub mod fit;
pub mod game;
pub mod json;
pub mod keys;
pub mod present;
pub mod quiz;
pub mod record;
pub mod review;
pub mod selfplay;
pub mod settings;
pub mod stats;
pub mod text;
pub mod versus;

//! `tictactoe-screen`: the full-screen game, shared by the local terminal
//! ([`terminal`]) and the SSH server.
//!
//! The model ([`app`]), bytes typed to events
//! ([`decode`]), keys and clicks to actions ([`input`], through the game model's
//! one table of every key, [`tictactoe_game::keys`]), where things go ([`layout`]), what
//! they look like ([`view`]) and the engine's side ([`worker`]). The teaching
//! views keep their own state: the explain overlay ([`explain`]), the
//! minimax tree ([`tree`]), the walkthrough call by call ([`trace`]) and
//! the quiz ([`quiz`]);
//! the explain panel's text ([`panel`]) and the tree's drawing
//! ([`tree_view`]) sit with the view. Leaves below them all: the messages
//! they pass ([`message`]), the styles (`theme`) and text fitting
//! (`fit`). The local terminal ([`terminal`]) and the SSH server run it
//! the same way.

#![deny(missing_docs)]

pub mod app;
pub mod decode;
pub mod explain;
pub mod fit;
pub mod input;
pub mod layout;
pub mod message;
pub mod panel;
pub mod quiz;
pub mod terminal;
pub(crate) mod theme;
pub mod trace;
pub mod tree;
pub mod tree_view;
pub mod view;
pub mod worker;

//! The full-screen game without a terminal: the model ([`app`]), the one
//! table of every key ([`keys`]), bytes typed to events ([`decode`]), keys
//! and clicks to actions ([`input`]), where things go ([`layout`]), what
//! they look like ([`view`]) and the engine's side ([`worker`]). The teaching
//! views keep their own state: the explain overlay ([`explain`]), the
//! minimax tree ([`tree`]), the walkthrough call by call ([`trace`]) and
//! the quiz ([`quiz`]);
//! the explain panel's text ([`panel`]) and the tree's drawing
//! (`tree_view`) sit with the view. Leaves below them all: the messages
//! they pass ([`message`]), the styles (`theme`) and text fitting
//! (`fit`). The local terminal ([`crate::tui`]) and the SSH server run it
//! the same way.

pub mod app;
pub mod decode;
pub mod explain;
pub(crate) mod fit;
pub mod input;
pub mod keys;
pub mod layout;
pub mod message;
pub mod panel;
pub mod quiz;
pub(crate) mod theme;
pub mod trace;
pub mod tree;
pub(crate) mod tree_view;
pub mod view;
pub mod worker;

pub use app::{Action, App, Reply, Request};

//! The full-screen game without a terminal: the model ([`app`]), keys and
//! clicks to actions ([`input`]), where things go ([`layout`]), what they
//! look like ([`view`]) and the engine's side ([`worker`]). The local
//! terminal ([`crate::tui`]) and the SSH server run it the same way.

pub mod app;
pub mod input;
pub mod layout;
pub mod view;
pub mod worker;

pub use app::{Action, App, Reply, Request};

//! The full-screen game: its model driven by actions and a hand-held clock,
//! what it draws (insta snapshots), the key table, and the real binary in a
//! pseudo-terminal.

#[path = "../support/mod.rs"]
mod support;

mod app;
mod keys;
mod pty;
mod render;
mod screens;
mod versus;

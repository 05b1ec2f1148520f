//! `tictactoe serve` end to end: the real binary on an ephemeral port,
//! driven by russh's client (`support::ssh`), its screen read with vt100;
//! one module per topic.
//!
//! Nothing here depends on timing but for patience: every wait is for a
//! state (a screen, a log line, an exit) with a generous limit.

#[path = "../support/mod.rs"]
mod support;

mod access;
mod admission;
mod fairplay;
mod limits;
mod play;
mod ranked;
mod reader;
mod shutdown;

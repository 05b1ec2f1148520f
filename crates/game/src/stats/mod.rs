//! Saved statistics: finished games counted by board, side, opponent level and result.
//!
//! - `counts`: the numbers ([`Stats`]), and which games count ([`GameRecord`]).
//! - `format`: the bytes of the file, and which files are ours.
//! - `file`: the file on disk ([`StatsFile`]), read and replaced safely.
//! - `counter`: a session's counting ([`Counter`]), on a thread of its own if
//!   need be ([`Recorder`]), and the [`Note`]s that tell the user about it.
//!
//! The statistics file harms nothing that is not its own:
//! - Only a file that begins with the marker `{"format": "tictactoe-stats"`,
//!   or that is exactly a file of the first format (`"version": 1` and
//!   `"rows"`, nothing else), is ever read as statistics. Anything else at
//!   the path is an error and is never moved or written.
//! - A file of ours with a key this program does not know is read, never
//!   written (a rewrite would lose the key); nor is a read-only file.
//! - Reading takes no lock and writes nothing: writers replace the file whole,
//!   by renaming a temporary file into place, so a reader sees the old file or
//!   the new one, never half of either.
//! - Writers (record, unrecord, reset) hold a lock on a separate `.lock` file
//!   across read, change and write, waiting for it a bounded time; a lock path
//!   that is not a regular file is refused, unopened. A file with the marker
//!   that is damaged is moved aside (`.corrupt-` and the time) by a writer,
//!   which then counts afresh and says so.
//! - Files too big to be ours are refused from their size, unread; a symbolic
//!   link is followed to its target, which is what gets replaced.

mod counter;
mod counts;
mod file;
mod format;
#[cfg(test)]
mod tests;

pub use counter::{Counter, Note, Recorder};
pub use counts::{GameRecord, Row, Stats};
pub use file::{KeptAside, LOCK_PATIENCE, SIZE_CAP, StatsError, StatsFile};

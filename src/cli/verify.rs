//! `tictactoe verify`: checks a certificate with the engine's checker
//! ([`tictactoe_engine::solve::certificate`]), which knows only the rules,
//! and says what it proved.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::PathBuf;

use clap::Args;
use thiserror::Error;

use super::{ExitStatus, Streams};
use tictactoe_core::text::{count, file_kind, thousands};
use tictactoe_engine::solve::certificate::{CheckError, Checker, Verified};

/// The largest certificate `verify` reads: 1 GiB, far above the largest
/// proof `solve` writes.
pub const MAX_CERTIFICATE_BYTES: u64 = 1 << 30;

/// The arguments of `tictactoe verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The certificate, as `tictactoe solve --certificate FILE` writes it.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
}

impl VerifyArgs {
    /// Checks the certificate and prints what it proved.
    pub fn run(&self, io: &mut Streams) -> io::Result<ExitStatus> {
        let name = self.file.display();
        let file = match open(&self.file) {
            Ok(file) => file,
            Err(problem) => {
                return io.error_line(&format!("{name}: {problem}"), ExitStatus::BadInput);
            }
        };
        let mut input = BufReader::new(file.take(MAX_CERTIFICATE_BYTES));
        match check(&mut input) {
            Ok(verified) => {
                let (board, size) = (verified.board, verified.board.size());
                writeln!(
                    io.out,
                    "verified: {board} ({size}x{size}, {} in a row): {}",
                    board.k(),
                    verified.claim
                )?;
                for strategy in &verified.strategies {
                    writeln!(
                        io.out,
                        "  {} for {}: {} replayed, {} ({} answering in pairs)",
                        strategy.goal.name(),
                        strategy.player,
                        count(strategy.positions, "position", "positions"),
                        count(strategy.nodes as u64, "node", "nodes"),
                        thousands(strategy.pair_nodes as u64),
                    )?;
                }
                Ok(ExitStatus::Success)
            }
            Err(error) => refuse(io, &name, &error),
        }
    }
}

/// Opens a certificate, refusing what is not a regular file of a sane size
/// (a FIFO or a device could block or never end).
fn open(path: &PathBuf) -> Result<File, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read it: {e}"))?;
    if !meta.is_file() {
        return Err(format!(
            "{}, not a regular file: a certificate is a file that `tictactoe solve --certificate` wrote",
            file_kind(meta.file_type())
        ));
    }
    if meta.len() > MAX_CERTIFICATE_BYTES {
        return Err(format!(
            "{} bytes is too big for a certificate (at most {})",
            thousands(meta.len()),
            thousands(MAX_CERTIFICATE_BYTES)
        ));
    }
    let file = File::open(path).map_err(|e| format!("cannot read it: {e}"))?;
    // Checked again on the open file, in case the path changed in between.
    match file.metadata() {
        Ok(meta) if meta.is_file() => Ok(file),
        _ => Err("not a regular file".to_string()),
    }
}

/// Why a certificate was not verified.
#[derive(Debug, Error)]
enum Unverified {
    /// Reading the file failed: the certificate may be fine, the input is not.
    #[error("line {line}: cannot be read: {error}")]
    Unreadable {
        /// 1-based line number.
        line: usize,
        /// The input's error.
        error: io::Error,
    },
    /// The certificate proves nothing.
    #[error(transparent)]
    Refused(#[from] CheckError),
}

/// Feeds the certificate to the checker a line at a time.
fn check(input: &mut impl BufRead) -> Result<Verified, Unverified> {
    let mut checker = Checker::new();
    let mut line = Vec::new();
    for number in 1.. {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) => break,
            Ok(_) => checker.line(&line)?,
            Err(error) => {
                return Err(Unverified::Unreadable {
                    line: number,
                    error,
                });
            }
        }
    }
    Ok(checker.finish()?)
}

/// Refuses a certificate in one line: status 2, as for any bad input, unless
/// the file could not be read to its end (status 1).
fn refuse(
    io: &mut Streams,
    name: &dyn std::fmt::Display,
    error: &Unverified,
) -> io::Result<ExitStatus> {
    let status = match error {
        Unverified::Unreadable { .. } => ExitStatus::Failure,
        Unverified::Refused(_) => ExitStatus::BadInput,
    };
    io.error_line(&format!("{name}: not verified: {error}"), status)
}

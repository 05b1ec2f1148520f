//! `tictactoe verify`: checks a certificate with the engine's checker
//! ([`tictactoe_engine::solve::certificate`]), which knows only the rules,
//! and says what it proved.

use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use clap::Args;
use thiserror::Error;

use super::{ExitStatus, Streams};
use tictactoe_engine::solve::certificate::{CheckError, Checker, Verified};
use tictactoe_game::files::{self, LineCap, Problem};
use tictactoe_game::present::claim_words;
use tictactoe_game::text::{count, thousands};

/// The largest certificate `verify` reads: 1 GiB, far above the largest
/// proof `solve` writes.
pub const MAX_CERTIFICATE_BYTES: u64 = 1 << 30;

/// The longest line of a certificate `verify` reads: 64 KiB, where
/// `solve` writes lines of a few hundred bytes.
pub const MAX_LINE_BYTES: usize = 64 << 10;

/// The arguments of `tictactoe verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The certificate, as `tictactoe solve --certificate FILE` writes it (- reads standard input), or the folder of a split proof (`tictactoe solve --split DEPTH --jobs DIR`).
    #[arg(value_name = "FILE | DIR")]
    pub file: PathBuf,
}

impl VerifyArgs {
    /// True when the path is a folder: a split proof's, which
    /// `jobs::verify_dir` checks as a whole.
    pub fn is_split(&self) -> bool {
        std::fs::metadata(&self.file).is_ok_and(|meta| meta.is_dir())
    }

    /// Checks the certificate and prints what it proved.
    pub fn run(&self, io: &mut Streams) -> io::Result<ExitStatus> {
        let name = self.file.display();
        let input: Box<dyn BufRead + '_> = if self.file == Path::new("-") {
            Box::new(BufReader::new((&mut *io.input).take(MAX_CERTIFICATE_BYTES)))
        } else {
            match files::open_capped(&self.file, MAX_CERTIFICATE_BYTES) {
                Ok(file) => Box::new(BufReader::new(file.take(MAX_CERTIFICATE_BYTES))),
                Err(problem) => {
                    let status = if problem.is_bad_input() {
                        ExitStatus::BadInput
                    } else {
                        ExitStatus::Failure
                    };
                    return io.error_line(&format!("{name}: {}", said(&problem)), status);
                }
            }
        };
        let mut input = LineCap::new(input, MAX_LINE_BYTES);
        let checked = check(&mut input);
        let line_too_long = input.overflowed();
        drop(input);
        match checked {
            Ok(verified) => {
                let (board, size) = (verified.board, verified.board.size());
                writeln!(
                    io.out,
                    "verified: {board} ({size}x{size}, {} in a row): {}",
                    board.k(),
                    claim_words(verified.claim)
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
            Err(error) => refuse(io, &name, &error, line_too_long),
        }
    }
}

/// Why a path is no certificate to read, in words.
pub(super) fn said(problem: &Problem) -> String {
    match problem {
        Problem::NotAFile(kind) => format!(
            "{kind}, not a regular file: a certificate is a file that `tictactoe solve --certificate` wrote"
        ),
        Problem::TooBig { size, cap } => format!(
            "{} bytes is too big for a certificate (at most {})",
            thousands(*size),
            thousands(*cap)
        ),
        other => format!("cannot read it: {other}"),
    }
}

/// Why a certificate was not verified.
#[derive(Debug, Error)]
enum Unverified {
    /// Reading the file failed: the certificate may be fine, the input is
    /// not (or a line ran past [`MAX_LINE_BYTES`]).
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

/// Refuses a certificate in one line: status 2, as for any bad input (a
/// line past [`MAX_LINE_BYTES`] included), unless the file could not be
/// read to its end (status 1).
fn refuse(
    io: &mut Streams,
    name: &dyn std::fmt::Display,
    error: &Unverified,
    line_too_long: bool,
) -> io::Result<ExitStatus> {
    let status = match error {
        Unverified::Unreadable { .. } if !line_too_long => ExitStatus::Failure,
        _ => ExitStatus::BadInput,
    };
    io.error_line(&format!("{name}: not verified: {error}"), status)
}

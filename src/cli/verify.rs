//! `tictactoe verify`: checks a certificate with the checker of its own
//! ([`tictactoe_core::proof_check`]) and says what it proved.

use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::PathBuf;

use clap::Args;

use super::{ExitStatus, Streams};
use tictactoe_core::proof_check::{CheckError, check};
use tictactoe_core::text::{count, file_kind, thousands};

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
                writeln!(io.out, "{verified}")?;
                for strategy in &verified.strategies {
                    writeln!(
                        io.out,
                        "  {} for {}: {} replayed, {} ({} answering in pairs)",
                        strategy.goal,
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

/// Refuses a certificate in one line: status 2, as for any bad input, unless
/// the file could not be read to its end (status 1).
fn refuse(
    io: &mut Streams,
    name: &dyn std::fmt::Display,
    error: &CheckError,
) -> io::Result<ExitStatus> {
    let status = match error {
        CheckError::Unreadable { .. } => ExitStatus::Failure,
        _ => ExitStatus::BadInput,
    };
    io.error_line(&format!("{name}: not verified: {error}"), status)
}

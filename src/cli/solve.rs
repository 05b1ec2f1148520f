//! `tictactoe solve`: proves the value of a position, and writes the proof as
//! a certificate that `tictactoe verify` checks.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use clap::builder::TypedValueParser;

use super::{ExitStatus, GeometryArgs, Streams, json};
use tictactoe_core::text::thousands;
use tictactoe_engine::solve::{Technique, Techniques, certificate, solve};

/// The arguments of `tictactoe solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// The board's geometry: `--size` and `--k` (the size is the board's own when --board is given).
    #[command(flatten)]
    pub geometry: GeometryArgs,
    /// The position to prove, in the notation [default: the empty board].
    #[arg(long, value_name = "BOARD", allow_hyphen_values = true)]
    pub board: Option<String>,
    /// Write the proof to FILE as JSON Lines, for `tictactoe verify` [default: none].
    #[arg(long, value_name = "FILE")]
    pub certificate: Option<PathBuf>,
    /// One line of JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Prove without one of the prover's techniques, to measure what it buys; repeatable [default: every technique].
    #[arg(long, value_name = "TECHNIQUE", value_parser = technique_parser())]
    pub without: Vec<Technique>,
}

/// Techniques on the command line, each with its help line.
fn technique_parser() -> impl TypedValueParser<Value = Technique> {
    super::named_parser(Technique::ALL, |technique| match technique {
        Technique::Symmetry => "rotations and reflections searched once",
        Technique::Threats => "wins by continuous threats found without searching every move",
        Technique::Pairing => "pairing strategies settle positions the defender holds",
        Technique::Potential => {
            "the Erdős–Selfridge potential settles positions the defender holds"
        }
        Technique::DeadCells => "cells on no open line are not searched",
    })
}

impl SolveArgs {
    /// Proves the position, writes the certificate if asked, and prints the answer.
    pub fn run(&self, io: &mut Streams) -> io::Result<ExitStatus> {
        let board = match &self.board {
            Some(text) => self.geometry.parse(text).map_err(|e| e.to_string()),
            None => self.geometry.empty().map_err(|e| e.to_string()),
        };
        let board = match board {
            Ok(board) => board,
            Err(error) => return io.error_line(&error, ExitStatus::BadInput),
        };
        let techniques = self
            .without
            .iter()
            .fold(Techniques::all(), |set, &t| set.without(t));
        let mut proof = solve(&board, techniques);
        let (proved_in, positions) = (proof.elapsed, proof.counts.positions);
        let mut written = None;
        if let Some(path) = &self.certificate {
            let started = Instant::now();
            let strategies = match proof.strategies() {
                Ok(strategies) => strategies,
                Err(error) => return io.error_line(&error, ExitStatus::Failure),
            };
            let lines = certificate::lines(&board, proof.value, &strategies);
            match write_lines(path, lines) {
                Ok((count, bytes)) => written = Some((count, bytes, started.elapsed())),
                Err(error) => {
                    let error = format!("cannot write the certificate {}: {error}", path.display());
                    return io.error_line(&error, ExitStatus::Failure);
                }
            }
        }
        if self.json {
            let report = json::Solved {
                size: board.size(),
                k: board.k(),
                board: board.to_string(),
                result: json::value(proof.value),
                positions,
                ms: proved_in.as_millis() as u64,
            };
            json::write_line(io.out, &report)?;
        } else {
            let from = if board.move_count() == 0 {
                "the empty board".to_string()
            } else {
                board.to_string()
            };
            writeln!(
                io.out,
                "{0}x{0}, {1} in a row, from {from}: {2}",
                board.size(),
                board.k(),
                proof.value
            )?;
            let counts = proof.counts;
            writeln!(
                io.out,
                "Proven in {:.3} s, {} positions",
                proved_in.as_secs_f64(),
                thousands(counts.positions)
            )?;
            writeln!(
                io.out,
                "Settled early: {} won by continuous threats, {} held by pairs, {} held by the potential",
                thousands(counts.threat_wins),
                thousands(counts.pairings),
                thousands(counts.potential)
            )?;
            if let (Some(path), Some((count, bytes, took))) = (&self.certificate, written) {
                writeln!(
                    io.out,
                    "Certificate: {} ({} lines, {} bytes, written in {:.3} s)",
                    path.display(),
                    thousands(count),
                    thousands(bytes),
                    took.as_secs_f64()
                )?;
            }
        }
        Ok(ExitStatus::Success)
    }
}

/// Writes the lines to a new file at `path`; how many lines and bytes.
fn write_lines(path: &PathBuf, lines: impl Iterator<Item = String>) -> io::Result<(u64, u64)> {
    let mut out = BufWriter::new(File::create(path)?);
    let (mut count, mut bytes) = (0u64, 0u64);
    for line in lines {
        out.write_all(line.as_bytes())?;
        out.write_all(b"\n")?;
        count += 1;
        bytes += line.len() as u64 + 1;
    }
    out.into_inner().map_err(|e| e.into_error())?.sync_all()?;
    Ok((count, bytes))
}

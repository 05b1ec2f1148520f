//! `tictactoe solve`: proves the value of a position, and writes the proof as
//! a certificate that `tictactoe verify` checks.

use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;
use clap::builder::TypedValueParser;

use super::{ExitStatus, GeometryArgs, ProofBounds, Streams};
use tictactoe_engine::solve::{Technique, Techniques, certificate, jobs, solve_within};
use tictactoe_game::files::{self, Existing, Permissions, Problem};
use tictactoe_game::json;
use tictactoe_game::present::outcome_words;
use tictactoe_game::text::thousands;

/// The arguments of `tictactoe solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// The board's geometry: `--size` and `--k` (the size is the board's own when --board is given).
    #[command(flatten)]
    pub geometry: GeometryArgs,
    /// The position to prove, in the notation [default: the empty board].
    #[arg(long, value_name = "BOARD", allow_hyphen_values = true)]
    pub board: Option<String>,
    /// Write the proof to FILE as JSON Lines, for `tictactoe verify`; - (or /dev/stdout) writes it to standard output [default: none].
    #[arg(long, value_name = "FILE")]
    pub certificate: Option<PathBuf>,
    /// Replace the file --certificate names if there is one (only ever a regular file).
    #[arg(long, requires = "certificate")]
    pub force: bool,
    /// One line of JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Prove without one of the prover's techniques, to measure what it buys; repeatable [default: every technique].
    #[arg(long, value_name = "TECHNIQUE", value_parser = technique_parser())]
    pub without: Vec<Technique>,
    /// Split the proof into jobs DEPTH moves deep, 0 to 8, written to the folder --jobs names, instead of proving it [default: none].
    #[arg(long, value_name = "DEPTH", requires = "jobs", conflicts_with_all = ["certificate", "json"],
          value_parser = clap::value_parser!(u32).range(0..=i64::from(jobs::MAX_DEPTH)))]
    pub split: Option<u32>,
    /// The folder --split writes the manifest and the job files to: a new folder, or an empty one [default: none].
    #[arg(long, value_name = "DIR", requires = "split")]
    pub jobs: Option<PathBuf>,
    /// Prove one job of a split (a job file --split wrote) and write its certificate beside it; a job proven already is skipped [default: none].
    #[arg(long, value_name = "FILE", conflicts_with_all = ["board", "size", "k", "certificate", "json", "split"])]
    pub job: Option<PathBuf>,
    /// How far the prover may go.
    #[command(flatten)]
    pub bounds: ProofBounds,
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
        let techniques = self
            .without
            .iter()
            .fold(Techniques::all(), |set, &t| set.without(t));
        if let Some(job) = &self.job {
            return super::jobs::prove_job(job, techniques, &self.bounds, io);
        }
        let board = match &self.board {
            Some(text) => self.geometry.parse(text).map_err(|e| e.to_string()),
            None => self.geometry.empty().map_err(|e| e.to_string()),
        };
        let board = match board {
            Ok(board) => board,
            Err(error) => return io.error_line(&error, ExitStatus::BadInput),
        };
        if let (Some(depth), Some(dir)) = (self.split, &self.jobs) {
            return super::jobs::write_split(&board, depth, dir, io);
        }
        // A path that will be refused is refused before the proof, not after it.
        if let Some(path) = &self.certificate
            && !to_stdout(path)
            && let Err(problem) = files::check_target(path, self.existing())
        {
            return self.cannot_write(path, &problem, io);
        }
        let watch = self.bounds.watch(self.json);
        let proven = solve_within(&board, techniques, watch.bounds());
        watch.finish();
        let mut proof = match proven {
            Ok(proof) => proof,
            Err(stop) => {
                return io.error_line(&self.bounds.stopped(stop), self.bounds.status(stop));
            }
        };
        let (proved_in, positions) = (proof.elapsed, proof.counts.positions);
        let mut written = None;
        if let Some(path) = &self.certificate {
            let started = Instant::now();
            let strategies = match proof.strategies() {
                Ok(strategies) => strategies,
                // Reading the strategies is bounded as the proof was.
                Err(error) => {
                    return match proof.stopped() {
                        Some(stop) => {
                            io.error_line(&self.bounds.stopped(stop), self.bounds.status(stop))
                        }
                        None => io.error_line(&error, ExitStatus::Failure),
                    };
                }
            };
            let lines = certificate::lines(&board, proof.value, &strategies);
            let wrote = if to_stdout(path) {
                // A closed pipe ends the command as for any output (status 0).
                write_lines(&mut BufWriter::new(&mut *io.out), lines)?
            } else {
                match files::write_whole(path, self.existing(), Permissions::New(0o666), |out| {
                    write_lines(out, lines)
                }) {
                    Ok(wrote) => wrote,
                    Err(problem) => return self.cannot_write(path, &problem, io),
                }
            };
            written = Some((wrote.0, wrote.1, started.elapsed()));
        }
        // With the certificate on standard output, the answer goes to standard error.
        let out: &mut dyn Write = match &self.certificate {
            Some(path) if to_stdout(path) => &mut *io.err,
            _ => &mut *io.out,
        };
        if self.json {
            let report = json::Solved {
                size: board.size(),
                k: board.k(),
                board,
                result: proof.value,
                positions,
                ms: proved_in.as_millis() as u64,
            };
            json::write_line(out, &report)?;
        } else {
            let from = if board.move_count() == 0 {
                "the empty board".to_string()
            } else {
                board.to_string()
            };
            writeln!(
                out,
                "{0}x{0}, {1} in a row, from {from}: {2}",
                board.size(),
                board.k(),
                outcome_words(proof.value)
            )?;
            let counts = proof.counts;
            writeln!(
                out,
                "Proven in {:.3} s, {} positions",
                proved_in.as_secs_f64(),
                thousands(counts.positions)
            )?;
            writeln!(
                out,
                "Settled early: {} won by continuous threats, {} held by pairs, {} held by the potential",
                thousands(counts.threat_wins),
                thousands(counts.pairings),
                thousands(counts.potential)
            )?;
            if let (Some(path), Some((count, bytes, took))) = (&self.certificate, written) {
                writeln!(
                    out,
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

impl SolveArgs {
    /// Whether the certificate may replace a file (`--force`).
    fn existing(&self) -> Existing {
        if self.force {
            Existing::Replace
        } else {
            Existing::Refuse
        }
    }

    /// Says why the certificate cannot be written at `path`: status 2 for a
    /// path that holds the wrong thing, 1 when the system refused.
    fn cannot_write(
        &self,
        path: &Path,
        problem: &Problem,
        io: &mut Streams,
    ) -> io::Result<ExitStatus> {
        let shown = path.display();
        let (line, status) = match problem {
            Problem::Exists => (
                format!("{shown}: a file is there already; --force replaces it"),
                ExitStatus::BadInput,
            ),
            Problem::NotAFile(kind) => (
                format!(
                    "{shown}: {kind}, not a file: a certificate is written to a regular file, or to - for standard output"
                ),
                ExitStatus::BadInput,
            ),
            other => (
                format!("cannot write the certificate {shown}: {other}"),
                ExitStatus::Failure,
            ),
        };
        io.error_line(&line, status)
    }
}

/// True for the paths that mean standard output: `-` and `/dev/stdout`.
fn to_stdout(path: &Path) -> bool {
    path == Path::new("-") || path == Path::new("/dev/stdout")
}

/// Writes the lines to `out`; how many lines and bytes.
fn write_lines(out: &mut dyn Write, lines: impl Iterator<Item = String>) -> io::Result<(u64, u64)> {
    let (mut count, mut bytes) = (0u64, 0u64);
    for line in lines {
        out.write_all(line.as_bytes())?;
        out.write_all(b"\n")?;
        count += 1;
        bytes += line.len() as u64 + 1;
    }
    out.flush()?;
    Ok((count, bytes))
}

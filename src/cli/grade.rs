//! `tictactoe grade`: a student's minimax run as a program and checked on
//! every unfinished 3x3 position ([`tictactoe_grade`]), or a CS50-style
//! Python module checked function by function (`--cs50`).
//!
//! Ctrl-C (and SIGTERM, SIGHUP) stops grading: the student's program is
//! killed with everything it started, and what was reached is reported.

use std::ffi::OsString;
use std::io::{self, Read};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{ArgGroup, Args};
use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};

use super::{ExitStatus, ScoresArg, Streams};
use tictactoe_engine::Board;
use tictactoe_engine::teach::reference::Algorithm;
use tictactoe_game::files;
use tictactoe_game::json;
use tictactoe_grade::child::Program;
use tictactoe_grade::cs50::{self, Python};
use tictactoe_grade::protocol::Ask;
use tictactoe_grade::report::{
    DEFAULT_SHOWN, failure_json, failure_line, graded_json, heading, summary_json, summary_text,
};
use tictactoe_grade::{
    DEFAULT_TIMEOUT, Ended, Event, Options, Ties, all_positions, grade, sample, simplest_first,
};

/// The arguments of `tictactoe grade`.
#[derive(Debug, Args)]
#[command(group(ArgGroup::new("what").required(true).args(["command", "cs50"])))]
pub struct GradeArgs {
    /// The student's program and its arguments, after `--`: it reads a board a line and answers a line.
    #[arg(value_name = "COMMAND", trailing_var_arg = true, allow_hyphen_values = true,
          num_args = 1..)]
    pub command: Vec<OsString>,
    /// What is asked: the best move, or every legal move's score.
    #[arg(long, value_name = "WHAT", default_value = "best", value_parser = listed(Ask::ALL, Ask::name))]
    pub ask: Ask,
    /// How scores are counted.
    #[command(flatten)]
    pub scores: ScoresArg,
    /// Which of equally good moves is right: any, the first in reading order (the articles'), or the last.
    #[arg(long, value_name = "WHICH", default_value = "any", value_parser = listed(Ties::ALL, Ties::name))]
    pub ties: Ties,
    /// Every answer ends with `calls N`, the calls its minimax made (freeCodeCamp's counter), checked against trace's count.
    #[arg(long)]
    pub calls: bool,
    /// With --calls: the count is alpha-beta's (trace --alpha-beta), not plain minimax's.
    #[arg(long, requires = "calls")]
    pub alpha_beta: bool,
    /// Ask about one position only [default: every unfinished position].
    #[arg(long, value_name = "BOARD", allow_hyphen_values = true,
          conflicts_with_all = ["from", "sample"])]
    pub board: Option<String>,
    /// Ask about the positions in a file, one board a line (`-`: standard input) [default: every unfinished position].
    #[arg(long, value_name = "FILE")]
    pub from: Option<PathBuf>,
    /// Ask about N positions picked at random (from --from's, or from all) [default: all of them].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub sample: Option<u32>,
    /// Seed of --sample's random choice; the same seed picks the same positions [default: random].
    #[arg(long, value_name = "S", requires = "sample")]
    pub seed: Option<u64>,
    /// Seconds the program may think about the empty board (0.1 to 3600); other positions get a share by the size of their minimax tree, at least 2 s.
    #[arg(long, value_name = "SECS", default_value_t = DEFAULT_TIMEOUT.as_secs_f64(),
          value_parser = timeout_parser())]
    pub timeout: f64,
    /// How many wrong positions the report shows.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_SHOWN)]
    pub show: usize,
    /// One line of JSON per position asked, then one for the summary.
    #[arg(long)]
    pub json: bool,
    /// Check a CS50 AI tic-tac-toe module (tictactoe.py) function by function instead; needs Python 3 [default: none].
    #[arg(long, value_name = "FILE",
          conflicts_with_all = ["command", "ask", "ties", "calls", "board", "from", "sample"])]
    pub cs50: Option<PathBuf>,
    /// The Python 3 that runs --cs50's shim.
    #[arg(
        long,
        value_name = "PROGRAM",
        default_value = "python3",
        requires = "cs50"
    )]
    pub python: OsString,
}

/// One of `all` by its `name`, for `--ask` (`best`, `scores`) and `--ties`
/// (`any`, `first`, `last`).
fn listed<T, const N: usize>(
    all: [T; N],
    name: fn(T) -> &'static str,
) -> impl TypedValueParser<Value = T>
where
    T: Copy + Send + Sync + 'static,
{
    PossibleValuesParser::new(all.map(name)).try_map(move |text| {
        let found = all.into_iter().find(|&value| name(value) == text);
        found.ok_or("not one of the names listed")
    })
}

/// `--timeout`: seconds, 0.1 to an hour.
fn timeout_parser() -> impl TypedValueParser<Value = f64> {
    clap::builder::StringValueParser::new().try_map(|text| {
        let secs: f64 = text
            .parse()
            .map_err(|_| format!("`{text}` is not a number of seconds"))?;
        if (0.1..=3600.0).contains(&secs) {
            Ok(secs)
        } else {
            Err(format!("{text} s is not 0.1 to 3600 seconds"))
        }
    })
}

/// The signal that stopped grading, if any (0: none).
struct Stop {
    flag: Arc<AtomicBool>,
    signal: Arc<AtomicUsize>,
}

impl Stop {
    /// Ctrl-C, SIGTERM and SIGHUP set the flag instead of ending the process.
    fn on_signals() -> io::Result<Stop> {
        let stop = Stop {
            flag: Arc::new(AtomicBool::new(false)),
            signal: Arc::new(AtomicUsize::new(0)),
        };
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            signal_hook::flag::register_usize(signal, Arc::clone(&stop.signal), signal as usize)?;
            signal_hook::flag::register(signal, Arc::clone(&stop.flag))?;
        }
        Ok(stop)
    }

    fn status(&self) -> ExitStatus {
        ExitStatus::Signal(self.signal.load(Ordering::SeqCst) as i32)
    }
}

impl GradeArgs {
    /// Grades the program given, or checks the CS50 module.
    pub fn run(&self, io: &mut Streams) -> io::Result<ExitStatus> {
        let timeout = Duration::from_secs_f64(self.timeout);
        let stop = Stop::on_signals()?;
        if let Some(module) = &self.cs50 {
            return self.run_cs50(module, timeout, &stop, io);
        }
        let positions = match self.positions(io) {
            Ok(positions) => positions,
            Err(error) => return io.error_line(&error, ExitStatus::BadInput),
        };
        let (command, args) = self.command.split_first().expect("clap requires a command");
        let program = Program {
            command: command.clone(),
            args: args.to_vec(),
        };
        let options = Options {
            ask: self.ask,
            scoring: self.scores.scores,
            ties: self.ties,
            calls: self.calls.then_some(if self.alpha_beta {
                Algorithm::AlphaBeta
            } else {
                Algorithm::Minimax
            }),
            timeout,
        };
        if !self.json {
            write!(io.out, "{}", heading(&program, positions.len(), &options))?;
        }
        let mut written = Ok(());
        let summary = grade(&program, &positions, &options, &stop.flag, &mut |event| {
            let line = match (event, self.json) {
                (Event::Graded(graded), true) => format!("{}\n", json::line(&graded_json(graded))),
                (Event::Failed(failure), true) => {
                    format!("{}\n", json::line(&failure_json(failure)))
                }
                (Event::Failed(failure), false) => failure_line(failure),
                (Event::Graded(_), false) => return,
            };
            if written.is_ok() {
                written = io
                    .out
                    .write_all(line.as_bytes())
                    .and_then(|()| io.out.flush());
            }
        });
        written?;
        if self.json {
            json::write_line(io.out, &summary_json(&summary, &options))?;
        } else {
            if !summary.failures.is_empty() {
                writeln!(io.out)?;
            }
            write!(io.out, "{}", summary_text(&summary, &options, self.show))?;
        }
        Ok(match summary.ended {
            Ended::Done if summary.all_right() => ExitStatus::Success,
            Ended::Done => ExitStatus::Failure,
            Ended::GaveUp | Ended::NotStarted(_) => ExitStatus::BadInput,
            Ended::Interrupted => stop.status(),
        })
    }

    /// The positions to ask about, simplest first.
    fn positions(&self, io: &mut Streams) -> Result<Vec<Board>, String> {
        let mut positions = match (&self.board, &self.from) {
            (Some(text), _) => vec![unfinished(text, None)?],
            (None, Some(path)) => read_boards(path, io)?,
            (None, None) => all_positions(),
        };
        if let Some(count) = self.sample {
            let seed = self.seed.unwrap_or_else(|| fastrand::u64(..));
            positions = sample(positions, count as usize, seed);
        }
        Ok(simplest_first(positions))
    }

    /// `--cs50`: the module checked function by function.
    fn run_cs50(
        &self,
        module: &std::path::Path,
        timeout: Duration,
        stop: &Stop,
        io: &mut Streams,
    ) -> io::Result<ExitStatus> {
        if !module.is_file() {
            let refusal = format!("{}: no such file", module.display());
            return io.error_line(&refusal, ExitStatus::BadInput);
        }
        let python = Python {
            command: self.python.clone(),
        };
        if !self.json {
            writeln!(
                io.out,
                "Checking CS50's functions in {} with {} on every reachable position, simplest first.\n",
                module.display(),
                self.python.to_string_lossy()
            )?;
        }
        let mut written = Ok(());
        let json = self.json;
        let summary = cs50::check(module, &python, timeout, &stop.flag, &mut |failure| {
            let line = if json {
                format!("{}\n", json::line(&failure_json(failure)))
            } else {
                failure_line(failure)
            };
            if written.is_ok() {
                written = io
                    .out
                    .write_all(line.as_bytes())
                    .and_then(|()| io.out.flush());
            }
        })?;
        written?;
        if self.json {
            for line in cs50::json_lines(&summary) {
                writeln!(io.out, "{line}")?;
            }
        } else {
            if !summary.failures.is_empty() {
                writeln!(io.out)?;
            }
            write!(io.out, "{}", cs50::text(&summary, self.show))?;
            if let Ended::NotStarted(_) = summary.ended {
                writeln!(
                    io.out,
                    "--cs50 runs the module with Python 3 ({}); --python names another.",
                    self.python.to_string_lossy()
                )?;
            }
        }
        Ok(match summary.ended {
            Ended::Done if summary.all_right() => ExitStatus::Success,
            Ended::Done => ExitStatus::Failure,
            Ended::GaveUp | Ended::NotStarted(_) => ExitStatus::BadInput,
            Ended::Interrupted => stop.status(),
        })
    }
}

/// A 3x3 board still being played, or why `text` is not one.
fn unfinished(text: &str, line: Option<usize>) -> Result<Board, String> {
    let at = line.map_or_else(String::new, |line| format!("line {line}: "));
    let board: Board = text.parse().map_err(|error| format!("{at}{error}"))?;
    if !board.is_classic() {
        return Err(format!("{at}{board}: grade asks about 3x3 boards only"));
    }
    if board.status().is_over() {
        return Err(format!(
            "{at}{board}: the game is over, there is no move to ask for"
        ));
    }
    Ok(board)
}

/// The most `--from` reads: 1 MiB, room for every position many times over.
const MAX_BOARDS_BYTES: u64 = 1 << 20;

/// The boards of a file (or standard input), one a line; blank lines and
/// lines starting with `#` are skipped. The file is read as every file a
/// user names is ([`files::read_whole`]): a link or a pipe refused, and no
/// more than [`MAX_BOARDS_BYTES`].
fn read_boards(path: &std::path::Path, io: &mut Streams) -> Result<Vec<Board>, String> {
    let bytes = if path.as_os_str() == "-" {
        let mut bytes = Vec::new();
        (&mut *io.input)
            .take(MAX_BOARDS_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|error| format!("standard input: {error}"))?;
        if bytes.len() as u64 > MAX_BOARDS_BYTES {
            return Err(format!(
                "standard input: more than {MAX_BOARDS_BYTES} bytes of boards"
            ));
        }
        bytes
    } else {
        files::read_whole(path, MAX_BOARDS_BYTES)
            .map_err(|problem| format!("{}: {problem}", path.display()))?
    };
    let text = String::from_utf8(bytes)
        .map_err(|_| format!("{}: not text (bytes that are not UTF-8)", path.display()))?;
    let boards: Vec<Board> = text
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty() && !line.trim_start().starts_with('#'))
        .map(|(index, line)| unfinished(line.trim(), Some(index + 1)))
        .collect::<Result<_, _>>()?;
    if boards.is_empty() {
        return Err(format!("{}: no boards in it", path.display()));
    }
    Ok(boards)
}

//! `tictactoe grade`: a student's minimax run as a program and checked on
//! every unfinished 3x3 position ([`tictactoe_grade`]), or a CS50-style
//! Python module checked function by function (`--cs50`); many of either
//! at once (`--cs50 a.py b.py`, `--each PATTERN -- COMMAND {}`), a row
//! each, with `--csv` and `--gradescope` for what a course keeps.
//!
//! Every student runs below a keeper: this same binary, run as `tictactoe
//! grade --keeper FD -- STUDENT...` (see [`tictactoe_grade::keeper`]), so
//! nothing a student starts outlives its grading or the grader. Ctrl-C
//! (and SIGTERM, SIGHUP) stops grading: the student's program is killed
//! with everything it started, and what was reached is reported.

use std::ffi::OsString;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{ArgGroup, Args};
use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};

use super::{ExitStatus, ScoresArg, Streams};
use tictactoe_engine::Board;
use tictactoe_engine::Scoring;
use tictactoe_engine::teach::reference::Algorithm;
use tictactoe_game::files;
use tictactoe_grade::child::{Guard, Program};
use tictactoe_grade::class::{self, Row};
use tictactoe_grade::cs50::{self, Cs50Event, Minimax, Python};
use tictactoe_grade::diagnosis::Article;
use tictactoe_grade::protocol::Ask;
use tictactoe_grade::report::{
    DEFAULT_SHOWN, Progress, cs50_json_lines, failure_json, failure_line, graded_json,
    gradescope_cs50, gradescope_program, heading, row_json, summary_json, summary_text,
};
use tictactoe_grade::{
    DEFAULT_TIMEOUT, Ended, Event, Options, Summary, Ties, all_positions, grade, keeper, sample,
    simplest_first,
};

/// The memory each student may use unless told otherwise, in MiB.
pub const DEFAULT_MAX_MEMORY: u64 = 1024;

/// The arguments of `tictactoe grade`.
#[derive(Debug, Args)]
#[command(group(ArgGroup::new("what").required(true).args(["command", "cs50"])))]
pub struct GradeArgs {
    /// The student's program and its arguments, after `--`: it reads a board a line and answers a line (with --each, `{}` stands for each path).
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
    /// Seed of --sample's random choice, or of the big positions --cs50's minimax is asked about; the same seed picks the same positions [default: random].
    #[arg(long, value_name = "S")]
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
    /// Check CS50 AI tic-tac-toe modules (tictactoe.py) function by function instead, one or several; needs Python 3 [default: none].
    #[arg(long, value_name = "FILE", num_args = 1..,
          conflicts_with_all = ["command", "ask", "ties", "calls", "board", "from", "sample"])]
    pub cs50: Vec<PathBuf>,
    /// With --cs50: ask minimax about every reachable position, the biggest trees too, not a sample of the 82 biggest.
    #[arg(long, requires = "cs50")]
    pub every_position: bool,
    /// Grade every file the pattern matches, one after the other, with the command after `--` (`{}` in it is the file) [default: one program].
    #[arg(long, value_name = "PATTERN", requires = "command")]
    pub each: Option<String>,
    /// Whose names the report speaks: gfg (GeeksforGeeks), fcc (freeCodeCamp) or cs50 [default: cs50 with --cs50 or --scores cs50, fcc for a node or .js program, else gfg].
    #[arg(long, value_name = "ARTICLE", value_parser = listed(Article::ALL, Article::name))]
    pub article: Option<Article>,
    /// Also write a row per submission to FILE as CSV: submission, right, wrong, failed, asked, diagnosis, ended, seconds [default: none].
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Also write one submission's result as Gradescope's autograder reads it (results.json): score, tests with name, score, max_score, output, visibility [default: none].
    #[arg(long, value_name = "FILE")]
    pub gradescope: Option<PathBuf>,
    /// The memory each student may use, in MiB (its data: heap and private memory, by rlimit).
    #[arg(long, value_name = "MIB", default_value_t = DEFAULT_MAX_MEMORY,
          value_parser = clap::value_parser!(u64).range(16..=1_048_576))]
    pub max_memory: u64,
    /// Run as the keeper of one student (the grader runs itself so), with the socket to the grader as descriptor FD [default: none].
    #[arg(long, value_name = "FD")]
    pub keeper: Option<i32>,
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

/// True when `command` runs JavaScript: node (or deno, bun), or a `.js` file.
fn is_javascript(command: &[OsString]) -> bool {
    command.iter().enumerate().any(|(at, word)| {
        let path = Path::new(word);
        let name = path
            .file_name()
            .and_then(|name| name.to_str())
            .unwrap_or("");
        (at == 0 && matches!(name, "node" | "nodejs" | "deno" | "bun"))
            || [".js", ".mjs", ".cjs"]
                .iter()
                .any(|end| word.to_string_lossy().ends_with(end))
    })
}

/// A CS50 module as a file it can be: a regular Python source file, or
/// why not, in a line.
fn python_file(path: &Path) -> Result<(), String> {
    let shown = path.display();
    let meta = std::fs::metadata(path).map_err(|error| match error.kind() {
        io::ErrorKind::NotFound => format!("{shown}: no such file"),
        _ => format!("{shown}: {error}"),
    })?;
    let kind = meta.file_type();
    use std::os::unix::fs::FileTypeExt;
    let not = if kind.is_dir() {
        Some("a folder")
    } else if kind.is_fifo() {
        Some("a named pipe")
    } else if kind.is_char_device() || kind.is_block_device() {
        Some("a device")
    } else if kind.is_socket() {
        Some("a socket")
    } else {
        None
    };
    if let Some(not) = not {
        return Err(format!(
            "{shown}: {not}, not a Python file: --cs50 checks a module such as tictactoe.py"
        ));
    }
    if path.extension().and_then(|end| end.to_str()) != Some("py") {
        return Err(format!(
            "{shown}: not a Python file (its name does not end in .py): --cs50 checks a module \
             such as tictactoe.py"
        ));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|file| file.take(1 << 20).read_to_end(&mut bytes))
        .map_err(|error| format!("{shown}: {error}"))?;
    if bytes.contains(&0) || std::str::from_utf8(&bytes).is_err() {
        return Err(format!(
            "{shown}: not Python source (it holds bytes that are not UTF-8 text)"
        ));
    }
    Ok(())
}

impl GradeArgs {
    /// Grades the program given, or checks the CS50 modules, or a class.
    pub fn run(&self, io: &mut Streams) -> io::Result<ExitStatus> {
        if let Some(socket) = self.keeper {
            // Returns only when the student could not be started.
            let error = keeper::run(socket, &self.command, Some(self.max_memory << 20));
            let name = self
                .command
                .first()
                .map(|name| name.to_string_lossy().into_owned())
                .unwrap_or_default();
            writeln!(io.err, "{name}: {error}")?;
            std::process::exit(127);
        }
        let timeout = Duration::from_secs_f64(self.timeout);
        if self.gradescope.is_some() && (self.cs50.len() > 1 || self.each.is_some()) {
            return io.error_line(
                &"--gradescope writes one submission's results: give one --cs50 module or one \
                  program (a script per submission, as Gradescope runs it)",
                ExitStatus::BadInput,
            );
        }
        let stop = Stop::on_signals()?;
        let guard = self.guard();
        if !self.cs50.is_empty() {
            for module in &self.cs50 {
                if let Err(refusal) = python_file(module) {
                    return io.error_line(&refusal, ExitStatus::BadInput);
                }
            }
            return self.run_cs50(&guard, timeout, &stop, io);
        }
        let positions = match self.positions(io) {
            Ok(positions) => positions,
            Err(error) => return io.error_line(&error, ExitStatus::BadInput),
        };
        let options = |command: &[OsString]| Options {
            ask: self.ask,
            scoring: self.scores.scores,
            ties: self.ties,
            calls: self.calls.then_some(if self.alpha_beta {
                Algorithm::AlphaBeta
            } else {
                Algorithm::Minimax
            }),
            timeout,
            article: self.article(command).0,
        };
        if let Some(pattern) = &self.each {
            let programs = match class::each(pattern, &self.command) {
                Ok(programs) => programs,
                Err(error) => return io.error_line(&error, ExitStatus::BadInput),
            };
            let options = options(&self.command);
            return self.run_class(&programs, &positions, &options, &guard, &stop, io);
        }
        let (command, args) = self.command.split_first().expect("clap requires a command");
        let program = Program {
            command: command.clone(),
            args: args.to_vec(),
        };
        let options = options(&self.command);
        self.run_one(&program, &positions, &options, &guard, &stop, io)
    }

    /// Below a keeper (this binary), with the memory limit.
    fn guard(&self) -> Guard {
        let keeper = std::env::current_exe().ok().map(|exe| Program {
            command: exe.into_os_string(),
            args: vec!["grade".into()],
        });
        Guard {
            keeper,
            max_memory: Some(self.max_memory),
        }
    }

    /// The article whose names the report speaks, and why, by the
    /// precedence LEARN.md documents: --article, --cs50, --scores cs50, a
    /// JavaScript program, else GeeksforGeeks.
    fn article(&self, command: &[OsString]) -> (Article, &'static str) {
        if let Some(article) = self.article {
            (article, "--article")
        } else if !self.cs50.is_empty() {
            (Article::Cs50, "--cs50")
        } else if self.scores.scores == Scoring::Cs50 {
            (Article::Cs50, "--scores cs50")
        } else if is_javascript(command)
            || self
                .each
                .as_deref()
                .is_some_and(|each| each.ends_with(".js"))
        {
            (Article::Fcc, "a JavaScript program")
        } else {
            (Article::Gfg, "the default")
        }
    }

    /// One program, in full: the heading, what happens as it happens, the
    /// summary.
    fn run_one(
        &self,
        program: &Program,
        positions: &[tictactoe_engine::Board],
        options: &Options,
        guard: &Guard,
        stop: &Stop,
        io: &mut Streams,
    ) -> io::Result<ExitStatus> {
        if !self.json {
            let why = self.article(&self.command).1;
            write!(
                io.out,
                "{}",
                heading(program, positions.len(), options, why)
            )?;
            io.out.flush()?;
        }
        let started = Instant::now();
        let mut written = Ok(());
        let mut progress = Progress::default();
        let json = self.json;
        let summary = grade(
            program,
            guard,
            positions,
            options,
            &stop.flag,
            &mut |event| {
                let line = match (event, json) {
                    (Event::Graded(graded), true) => format!("{}\n", graded_json(graded)),
                    (Event::Failed(failure), true) => format!("{}\n", failure_json(failure)),
                    (Event::Failed(failure), false) => failure_line(failure),
                    (Event::Graded(graded), false) => progress.graded(graded, options),
                };
                if written.is_ok() && !line.is_empty() {
                    written = io
                        .out
                        .write_all(line.as_bytes())
                        .and_then(|()| io.out.flush());
                }
            },
        );
        written?;
        let text = summary_text(&summary, options, self.show);
        if self.json {
            writeln!(io.out, "{}", summary_json(&summary, options))?;
        } else {
            write!(io.out, "{}", progress.finish())?;
            if summary.reached() > 0 {
                writeln!(io.out)?;
            }
            write!(io.out, "{text}")?;
        }
        let seconds = started.elapsed().as_secs_f64();
        let row = Row::of_program(program.to_string(), &summary, started.elapsed());
        self.write_files(&[row], io)?;
        if let Some(path) = &self.gradescope {
            std::fs::write(path, gradescope_program(&summary, text, seconds))?;
        }
        Ok(status(&summary.ended, summary.all_right(), stop))
    }

    /// `--each`: every program, a row each.
    fn run_class(
        &self,
        programs: &[(String, Program)],
        positions: &[tictactoe_engine::Board],
        options: &Options,
        guard: &Guard,
        stop: &Stop,
        io: &mut Streams,
    ) -> io::Result<ExitStatus> {
        let width = programs
            .iter()
            .map(|(name, _)| name.chars().count())
            .max()
            .unwrap_or(0)
            .max("submission".len());
        let template = Program {
            command: self.command[0].clone(),
            args: self.command[1..].to_vec(),
        };
        if !self.json {
            writeln!(
                io.out,
                "Grading {} one after the other, `{template}` on {} each, simplest first.\n",
                tictactoe_game::text::count(programs.len() as u64, "submission", "submissions"),
                tictactoe_game::text::count(positions.len() as u64, "position", "positions"),
            )?;
            write!(io.out, "{}", class::heading(width))?;
            io.out.flush()?;
        }
        let mut rows = Vec::new();
        let mut all_right = true;
        let mut ended = Ended::Done;
        for (name, program) in programs {
            let started = Instant::now();
            let summary: Summary =
                grade(program, guard, positions, options, &stop.flag, &mut |_| {});
            let row = Row::of_program(name.clone(), &summary, started.elapsed());
            if self.json {
                writeln!(io.out, "{}", row_json(&row))?;
            } else {
                write!(io.out, "{}", class::line(&row, width))?;
            }
            io.out.flush()?;
            all_right &= summary.all_right();
            rows.push(row);
            if summary.ended == Ended::Interrupted {
                ended = Ended::Interrupted;
                break;
            }
        }
        self.write_files(&rows, io)?;
        Ok(status(&ended, all_right, stop))
    }

    /// `--csv`'s file, when asked for.
    fn write_files(&self, rows: &[Row], io: &mut Streams) -> io::Result<()> {
        if let Some(path) = &self.csv
            && let Err(error) = class::write_csv(path, rows)
        {
            writeln!(io.err, "error: {}: {error}", path.display())?;
        }
        Ok(())
    }

    /// The positions to ask about, simplest first.
    fn positions(&self, io: &mut Streams) -> Result<Vec<tictactoe_engine::Board>, String> {
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

    /// `--cs50`: each module checked function by function; one in full,
    /// several a row each.
    fn run_cs50(
        &self,
        guard: &Guard,
        timeout: Duration,
        stop: &Stop,
        io: &mut Streams,
    ) -> io::Result<ExitStatus> {
        let python = Python {
            command: self.python.clone(),
        };
        let which = if self.every_position {
            Minimax::Every
        } else {
            Minimax::Sample(cs50::MINIMAX_SAMPLE, self.seed.unwrap_or(1))
        };
        let one = self.cs50.len() == 1;
        let width = self
            .cs50
            .iter()
            .map(|path| path.display().to_string().chars().count())
            .max()
            .unwrap_or(0)
            .max("submission".len());
        if !self.json {
            let what = if one {
                format!("CS50's functions in {}", self.cs50[0].display())
            } else {
                format!("{} CS50 modules, one after the other,", self.cs50.len())
            };
            writeln!(
                io.out,
                "Checking {what} with {}: player, actions, result, winner, terminal and utility \
                 on every reachable position, minimax on {}, simplest first.\n",
                self.python.to_string_lossy(),
                which.words()
            )?;
            if !one {
                write!(io.out, "{}", class::heading(width))?;
            }
            io.out.flush()?;
        }
        let mut rows = Vec::new();
        let mut all_right = true;
        let mut ended = Ended::Done;
        for module in &self.cs50 {
            let started = Instant::now();
            let mut written = Ok(());
            let json = self.json;
            let summary = cs50::check(
                module,
                &python,
                guard,
                (timeout, which),
                &stop.flag,
                &mut |event| {
                    let line = match (event, json) {
                        (Cs50Event::Failed(failure), true) => {
                            format!("{}\n", failure_json(failure))
                        }
                        (Cs50Event::Failed(failure), false) if one => failure_line(failure),
                        (Cs50Event::Checked(checked), false) if one => cs50::function_line(checked),
                        _ => return,
                    };
                    if written.is_ok() {
                        written = io
                            .out
                            .write_all(line.as_bytes())
                            .and_then(|()| io.out.flush());
                    }
                },
            )?;
            written?;
            let time = started.elapsed();
            let row = Row::of_cs50(module.display().to_string(), &summary, time);
            let text = cs50::text(&summary, self.show, true);
            if self.json && !one {
                writeln!(io.out, "{}", row_json(&row))?;
            } else if self.json {
                for line in cs50_json_lines(&summary) {
                    writeln!(io.out, "{line}")?;
                }
            } else if one {
                if !summary.failures.is_empty() {
                    writeln!(io.out)?;
                }
                write!(io.out, "{text}")?;
                if let Ended::NotStarted(why) = &summary.ended
                    && why.contains("no such program")
                {
                    writeln!(
                        io.out,
                        "--cs50 runs the module with Python 3 ({}); --python names another.",
                        self.python.to_string_lossy()
                    )?;
                }
            } else {
                write!(io.out, "{}", class::line(&row, width))?;
            }
            io.out.flush()?;
            if let Some(path) = &self.gradescope {
                std::fs::write(path, gradescope_cs50(&summary, text, time.as_secs_f64()))?;
            }
            all_right &= summary.all_right();
            if summary.ended != Ended::Done {
                ended = summary.ended.clone();
            }
            rows.push(row);
            if ended == Ended::Interrupted {
                break;
            }
        }
        self.write_files(&rows, io)?;
        Ok(status(&ended, all_right, stop))
    }
}

/// The exit status: 0 when everything asked was right, 1 when something
/// was wrong, 2 when a program could not be run, 128 + n on signal n.
fn status(ended: &Ended, all_right: bool, stop: &Stop) -> ExitStatus {
    match ended {
        Ended::Done if all_right => ExitStatus::Success,
        Ended::Done => ExitStatus::Failure,
        Ended::GaveUp | Ended::NotStarted(_) => ExitStatus::BadInput,
        Ended::Interrupted => stop.status(),
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

//! The command line: flags, subcommands and the headless commands.

pub mod analyze;
pub mod grade;
pub mod jobs;
pub mod lab;
pub mod play;
pub mod progress;
pub mod quiz;
pub mod review;
pub mod selfplay;
#[cfg(feature = "serve")]
pub mod serve;
pub mod setup;
pub mod solve;
pub mod stats;
pub mod trace;
pub mod tree;
pub mod verify;

use std::fmt::Display;
use std::io::{self, BufRead, Write};
use std::process::ExitCode;
use std::str::FromStr;
use std::time::{Duration, Instant};

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand};
use tictactoe_game::fit::WordWrap;
use tictactoe_screen::terminal;

use tictactoe_engine::solve::{Bounds, Stop};
use tictactoe_engine::{
    Board, BoardError, DEFAULT_THINK, GeometryError, Level, Limits, MAX_SIZE, MIN_SIZE, ParseError,
    Scoring, UnknownName,
};

/// Perfect tic-tac-toe in the terminal, and the minimax behind it.
#[derive(Debug, Parser)]
#[command(name = "tictactoe", version, about, long_about = None)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Cli {
    /// A headless command; without one, the game starts.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// How to play.
    #[command(flatten)]
    pub play: play::PlayArgs,
}

/// The headless commands. Each command's arguments own its run.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Score every move of a position, as the minimax sees it.
    Analyze(analyze::AnalyzeArgs),
    /// Print only the best move, as `ROW COL` (0-based) or a square such as c3, for scripts.
    Best(analyze::BestArgs),
    /// Print the articles' minimax tree of a position: each move and reply with its value, as text or as Graphviz DOT.
    Tree(tree::TreeArgs),
    /// Replay the articles' minimax call by call, numbered as the freeCodeCamp article numbers its calls.
    Trace(trace::TraceArgs),
    /// Run your own minimax program on every position and say where and why it goes wrong (or check a CS50 module with --cs50).
    Grade(grade::GradeArgs),
    /// Search one position with GeeksforGeeks' minimax, then with each technique added (alpha-beta, move ordering, a table, symmetry, iterative deepening): what each one buys.
    Lab(lab::LabArgs),
    /// Quiz yourself on minimax: positions from real games, one question at a time.
    Quiz(quiz::QuizArgs),
    /// Review recorded games: every move's value before and after, and the moves that threw something away.
    Review(review::ReviewArgs),
    /// Let two AIs play each other without a screen and print the tally.
    Selfplay(selfplay::SelfplayArgs),
    /// Prove who wins a board (the empty board by default) with best play, and write the proof; or split the proof into jobs, or prove one job.
    Solve(solve::SolveArgs),
    /// Check a proof that `solve --certificate` wrote, or the folder of a split proof, and say what it proves.
    Verify(verify::VerifyArgs),
    /// Show the saved statistics of your games against the AI.
    Stats(stats::StatsArgs),
    /// Print a completion script for a shell: bash, zsh, fish, elvish or powershell.
    Completions(setup::CompletionsArgs),
    /// Print the manual page, in roff.
    Man,
    /// Print the manuals' tables of keys, in Markdown, from the key table.
    #[command(hide = true)]
    Keys,
    /// Host the game over SSH for players on other machines (`ssh -p 2222 NAME@HOST`).
    #[cfg(feature = "serve")]
    Serve(serve::ServeArgs),
}

/// One of the engine's named values on the command line: each of `all` by
/// its name (its `Display`), with its help line, read back by `FromStr`.
pub fn named_parser<T, const N: usize>(
    all: [T; N],
    help: fn(T) -> &'static str,
) -> impl TypedValueParser<Value = T>
where
    T: Copy + Display + FromStr<Err = UnknownName> + Send + Sync + 'static,
{
    let values = all.map(|value| PossibleValue::new(value.to_string()).help(help(value)));
    PossibleValuesParser::new(values).try_map(|name| name.parse::<T>())
}

/// Levels on the command line: `random`, `easy`, `medium`, `hard`, `perfect`,
/// each with its help line.
pub fn level_parser() -> impl TypedValueParser<Value = Level> {
    named_parser(Level::ALL, |level| match level {
        Level::Random => "any legal move",
        Level::Easy => "random, but takes a win on the move",
        Level::Medium => "looks two moves ahead",
        Level::Hard => "searches to the end, sometimes plays its second-best move",
        Level::Perfect => "never errs; picks at random among the best moves",
    })
}

/// `--scores` on the command line: `depth`, `plain` or `cs50`, each with its help line.
pub fn scoring_parser() -> impl TypedValueParser<Value = Scoring> {
    named_parser(Scoring::ALL, |scoring| match scoring {
        Scoring::Depth => {
            "GeeksforGeeks' scores: the position after the move is depth 0, a win at depth d \
             scores 10 - d and a loss -10 + d (100 on boards above 3x3)"
        }
        Scoring::Plain => {
            "freeCodeCamp's bare +10 / -10 / 0, however deep (100 on boards above 3x3)"
        }
        Scoring::Cs50 => {
            "CS50's utility: +1 when X wins, -1 when O wins, 0 for a draw; X maximizes, O minimizes"
        }
    })
}

/// How scores are counted, for every command that shows them.
#[derive(Debug, Clone, Copy, Args)]
pub struct ScoresArg {
    /// How scores are counted: depth (GeeksforGeeks': a win at depth d scores 10 - d, 100 - d above 3x3), plain (freeCodeCamp's bare ±10) or cs50 (CS50's ±1, X maximizing).
    #[arg(long, value_name = "HOW", default_value = "depth", value_parser = scoring_parser())]
    pub scores: Scoring,
}

/// `--size` and `--k`: the arguments that choose the board's geometry,
/// N×N with K in a row. Where a board is given, `--size` says something
/// else: see [`BoardOptions`] and [`play::PlayArgs`].
#[derive(Debug, Clone, Copy, Default, Args)]
pub struct GeometryArgs {
    /// Board side [default: 3].
    #[arg(long, value_name = "N", help = size_help(),
          value_parser = clap::value_parser!(u8).range(i64::from(MIN_SIZE)..=i64::from(MAX_SIZE)))]
    pub size: Option<u8>,
    /// Marks in a row that win, 3 to N [default: 3 on 3x3, 4 on bigger boards].
    #[arg(long, value_name = "K")]
    pub k: Option<u8>,
}

impl GeometryArgs {
    /// Reads a board in the notation; its size must agree with `--size` if given.
    pub fn parse(&self, text: &str) -> Result<Board, BoardError> {
        let board = Board::parse_with_k(text, self.k)?;
        match self.size {
            Some(wanted) if wanted != board.size() => Err(ParseError::WrongSize {
                size: board.size(),
                wanted,
            }
            .into()),
            _ => Ok(board),
        }
    }

    /// The empty board of this geometry.
    pub fn empty(&self) -> Result<Board, GeometryError> {
        let size = self.size.unwrap_or(MIN_SIZE);
        Board::empty(size, self.k.unwrap_or_else(|| Board::default_k(size)))
    }
}

/// The refusal of `-` (boards from standard input) by a command that
/// reads one board, pointing to the command that reads many.
pub fn one_board_only(command: &str, text: &str) -> Option<String> {
    (text == "-")
        .then(|| format!("{command} takes one board; for many, use `tictactoe analyze - --json`"))
}

/// The sizes every command plays, in words: "3 to 8".
pub fn sizes() -> String {
    format!("{MIN_SIZE} to {MAX_SIZE}")
}

/// `--size` where no board is given.
fn size_help() -> String {
    format!("Board side, {} [default: {MIN_SIZE}]", sizes())
}

/// `--size` where a board is given: its size comes from the board itself.
fn given_size_help() -> String {
    format!(
        "Board side, {}, checked against the board given [default: the size of the board given]",
        sizes()
    )
}

/// `--size` and `--k` where a board is given on the command line, checked against it.
#[derive(Debug, Clone, Copy, Args)]
#[command(mut_arg("size", |size| size.help(given_size_help())))]
pub struct GivenGeometryArgs {
    /// The board's geometry: `--size` and `--k`.
    #[command(flatten)]
    pub geometry: GeometryArgs,
}

/// How to read a board and how long to think about it.
#[derive(Debug, Clone, Args)]
#[command(mut_arg("size", |size| size.help(given_size_help())))]
pub struct BoardOptions {
    /// The board's geometry: `--size` and `--k`.
    #[command(flatten)]
    pub geometry: GeometryArgs,
    /// Thinking time per position on boards bigger than 3x3, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = DEFAULT_THINK_MS, value_parser = think_ms())]
    pub think_ms: u64,
    /// Search until every score is proven, however long it takes.
    #[arg(long)]
    pub solve: bool,
}

/// How long the prover may take, the size of its table, its threads, and
/// whether it reports its progress: one set of flags for `solve`,
/// `analyze --solve` and `best --solve`.
#[derive(Debug, Clone, Args)]
pub struct ProofBounds {
    /// Stop a proof that takes longer than this many seconds, 1 to 86400.
    #[arg(long, value_name = "SECS", default_value_t = DEFAULT_TIME_LIMIT, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub time_limit: u64,
    /// The size of the prover's table in MiB, 16 to 1048576: a proof that needs more goes on within it.
    #[arg(long, value_name = "MIB", default_value_t = DEFAULT_MAX_MEMORY, value_parser = clap::value_parser!(u64).range(16..=1 << 20))]
    pub max_memory: u64,
    /// Threads to prove with, 1 to 256 [default: the machine's cores].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: Option<u16>,
    /// Report the proof's progress on standard error every few seconds, and once at its end, also when standard error is no terminal (at a terminal it always does).
    #[arg(long)]
    pub progress: bool,
}

/// `--time-limit` when not given: five minutes.
pub const DEFAULT_TIME_LIMIT: u64 = 300;

/// `--max-memory` when not given: 1 GiB.
pub const DEFAULT_MAX_MEMORY: u64 = 1024;

impl Default for ProofBounds {
    fn default() -> ProofBounds {
        ProofBounds {
            time_limit: DEFAULT_TIME_LIMIT,
            max_memory: DEFAULT_MAX_MEMORY,
            threads: None,
            progress: false,
        }
    }
}

impl ProofBounds {
    /// The bounds of a proof starting now, without a monitor.
    pub fn bounds(&self) -> Bounds {
        Bounds {
            deadline: Some(Instant::now() + Duration::from_secs(self.time_limit)),
            memory: Some(usize::try_from(self.max_memory << 20).unwrap_or(usize::MAX)),
            threads: self.threads(),
            monitor: None,
        }
    }

    /// The threads a proof takes: `--threads`, or the machine's cores.
    pub fn threads(&self) -> usize {
        match self.threads {
            Some(threads) => usize::from(threads),
            None => std::thread::available_parallelism().map_or(1, usize::from),
        }
    }

    /// Watches a proof starting now: its progress on standard error, and
    /// Ctrl-C as an interrupt ([`progress::Watch`]).
    pub fn watch(&self, json: bool) -> progress::Watch {
        progress::Watch::start(self.bounds(), self.progress, json)
    }

    /// What to say when a proof stopped at a bound.
    pub fn stopped(&self, stop: Stop) -> String {
        match stop {
            Stop::Time => format!(
                "the proof was stopped after {} s (--time-limit) before it had an answer",
                self.time_limit
            ),
            Stop::Interrupted => match progress::interrupted_by() {
                Some(signal_hook::consts::SIGINT) => {
                    "the proof was interrupted (Ctrl-C) before it had an answer".to_string()
                }
                Some(signal) => {
                    format!("the proof was interrupted (signal {signal}) before it had an answer")
                }
                None => "the proof was interrupted before it had an answer".to_string(),
            },
        }
    }

    /// The exit status of a proof that stopped: 3 at its time limit, 128 +
    /// n when signal n interrupted it (130 for Ctrl-C).
    pub fn status(&self, stop: Stop) -> ExitStatus {
        match (stop, progress::interrupted_by()) {
            (Stop::Interrupted, Some(signal)) => ExitStatus::Signal(signal),
            _ => ExitStatus::Stopped,
        }
    }
}

impl BoardOptions {
    /// Reads a board in the notation with these options.
    pub fn parse(&self, text: &str) -> Result<Board, BoardError> {
        self.geometry.parse(text)
    }

    /// The limits `analyze` and `best` search the scores with: with
    /// `--solve` the prover proves every move's result, and the scores are
    /// searched within `--think-ms` as without it.
    pub fn score_limits(&self) -> Limits {
        Limits::Think(Duration::from_millis(self.think_ms))
    }

    /// The search limits these options ask for.
    pub fn limits(&self) -> Limits {
        if self.solve {
            Limits::ToTheEnd
        } else {
            Limits::Think(Duration::from_millis(self.think_ms))
        }
    }
}

/// `--think-ms` when not given: the engine's own default thinking time.
const DEFAULT_THINK_MS: u64 = DEFAULT_THINK.as_millis() as u64;

/// The longest thinking time any command accepts: ten minutes, in milliseconds.
pub const MAX_THINK_MS: u64 = 10 * 60 * 1000;

/// `--think-ms`, wherever it appears: 0 to [`MAX_THINK_MS`].
fn think_ms() -> clap::builder::RangedU64ValueParser<u64> {
    clap::value_parser!(u64).range(..=MAX_THINK_MS)
}

/// Reads the command line. `Err` holds the status to exit with: clap's own
/// answer for `--help` and `--version` (non-zero if it could not be written),
/// or 2 after one line on stderr saying what is wrong with the arguments.
pub fn parse() -> Result<Cli, ExitCode> {
    let error = match Cli::try_parse() {
        Ok(cli) => return Ok(cli),
        Err(error) => error,
    };
    if !error.use_stderr() {
        // --help and --version print as clap prints them, to stdout; a full
        // disk or a closed pipe is not a success.
        return Err(match error.print().and_then(|()| io::stdout().flush()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) if error.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
            Err(error) => {
                let _ = writeln!(io::stderr(), "error: could not write the help: {error}");
                ExitStatus::Failure.into()
            }
        });
    }
    #[cfg(not(feature = "serve"))]
    if std::env::args_os()
        .nth(1)
        .is_some_and(|word| word == "serve")
    {
        let _ = writeln!(
            io::stderr(),
            "error: this build has no SSH server: build it with `--features serve` (docs/SERVE.md)"
        );
        return Err(ExitStatus::BadInput.into());
    }
    let _ = writeln!(io::stderr(), "{}", one_line(&error.render().to_string()));
    Err(ExitStatus::BadInput.into())
}

/// Runs what the command line asks for and says how it ended.
pub fn run(cli: &Cli) -> ExitCode {
    let result = match &cli.command {
        // The game and the server write to the terminal from more than one
        // thread: they take the streams as they need them.
        None => cli.play.run(),
        #[cfg(feature = "serve")]
        Some(Command::Serve(args)) => args.run(),
        Some(command) => {
            let (stdin, stdout, stderr) = (io::stdin(), io::stdout(), io::stderr());
            // Sentences at a terminal wrap at words, not wherever it ends a line.
            let width = command.prose().then(terminal::width).flatten();
            let mut wrapped;
            let mut plain;
            let out: &mut dyn Write = match width {
                Some(width) => {
                    wrapped = WordWrap::new(stdout.lock(), width);
                    &mut wrapped
                }
                None => {
                    plain = stdout.lock();
                    &mut plain
                }
            };
            command.run(&mut Streams {
                input: &mut stdin.lock(),
                out,
                // Unlocked: a proof's progress is written from another thread.
                err: &mut &stderr,
            })
        }
    };
    let result = result.and_then(|status| match status {
        // The terminal may be gone (SIGHUP): the signal is the answer, not a failed flush.
        ExitStatus::Signal(_) => Ok(status),
        _ => io::stdout().flush().map(|()| status),
    });
    match result {
        Ok(status) => status.into(),
        // The reader went away (`| head`): nothing is lost that anyone wants.
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(error) => {
            let _ = writeln!(io::stderr(), "error: {error}");
            ExitStatus::Failure.into()
        }
    }
}

impl Command {
    /// True when the command writes sentences (not JSON, DOT, tables,
    /// roff or Markdown): at a terminal they wrap at words.
    fn prose(&self) -> bool {
        match self {
            Command::Quiz(args) => !args.json,
            Command::Review(args) => !args.json,
            Command::Selfplay(args) => !args.json,
            Command::Solve(args) => !args.json,
            Command::Stats(args) => !args.json,
            Command::Verify(_) => true,
            _ => false,
        }
    }

    /// Runs a headless command on the given streams.
    pub fn run(&self, io: &mut Streams) -> io::Result<ExitStatus> {
        match self {
            Command::Analyze(args) => args.run(io),
            Command::Best(args) => args.run(io),
            Command::Tree(args) => args.run(io),
            Command::Trace(args) => args.run(io),
            Command::Grade(args) => args.run(io),
            Command::Lab(args) => args.run(io),
            Command::Quiz(args) => args.run(io),
            Command::Review(args) => args.run(io),
            Command::Selfplay(args) => args.run(io),
            Command::Solve(args) => args.run(io),
            Command::Verify(args) if args.is_split() => jobs::verify_dir(&args.file, io),
            Command::Verify(args) => args.run(io),
            Command::Stats(args) => args.run(io),
            Command::Completions(args) => setup::write_completions(args.shell, io.out),
            Command::Man => setup::write_man_page(io.out),
            Command::Keys => setup::write_key_tables(io.out),
            #[cfg(feature = "serve")]
            Command::Serve(args) => args.run_with(io.out, io.err),
        }
    }
}

/// The standard streams, as every command reads and writes them.
pub struct Streams<'a> {
    /// Standard input.
    pub input: &'a mut dyn BufRead,
    /// Standard output.
    pub out: &'a mut dyn Write,
    /// Standard error.
    pub err: &'a mut dyn Write,
}

impl Streams<'_> {
    /// Reports what went wrong as the one `error:` line every command gives,
    /// and the exit status that goes with it.
    pub fn error_line(
        &mut self,
        error: &dyn Display,
        status: ExitStatus,
    ) -> io::Result<ExitStatus> {
        writeln!(self.err, "error: {error}").map(|()| status)
    }
}

/// A clap error as one line, like every other error: its message and tips,
/// without the usage block.
fn one_line(message: &str) -> String {
    message
        .split("\n\n")
        .map(str::trim)
        .filter(|part| {
            !part.is_empty()
                && !part.starts_with("Usage:")
                && !part.starts_with("For more information")
        })
        .map(|part| part.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join("; ")
}

/// How a command ended, as the process exit status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitStatus {
    /// 0: done.
    Success,
    /// 1: could not do what was asked (for example no move on a finished board),
    /// including input or output that failed.
    Failure,
    /// 2: bad input or usage, as clap reports its own errors.
    BadInput,
    /// 3: a proof stopped at `--time-limit`.
    Stopped,
    /// 128 + n: ended by signal n (the shell's convention).
    Signal(i32),
}

impl From<ExitStatus> for ExitCode {
    fn from(status: ExitStatus) -> ExitCode {
        match status {
            ExitStatus::Success => ExitCode::SUCCESS,
            ExitStatus::Failure => ExitCode::from(1),
            ExitStatus::BadInput => ExitCode::from(2),
            ExitStatus::Stopped => ExitCode::from(3),
            ExitStatus::Signal(signal) => ExitCode::from(u8::try_from(128 + signal).unwrap_or(1)),
        }
    }
}

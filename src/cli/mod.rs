//! The command line: flags, subcommands and the headless commands.

pub mod analyze;
pub mod play;
pub mod selfplay;
#[cfg(feature = "serve")]
pub mod serve;
pub mod setup;
pub mod stats;
pub mod trace;
pub mod tree;

use std::process::ExitCode;
use std::time::Duration;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand};
use serde::Serialize;

use crate::engine::{
    Board, BoardError, DEFAULT_THINK, GeometryError, Level, Limits, Move, ParseError,
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

/// The headless commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Score every move of a position, as the minimax sees it.
    Analyze {
        /// The board, such as xox/oox/... (or - to read one board per line from standard input).
        #[arg(value_name = "BOARD | -", allow_hyphen_values = true)]
        board: String,
        /// One line of JSON per board instead of text.
        #[arg(long)]
        json: bool,
        /// Board shape and search limits.
        #[command(flatten)]
        options: BoardOptions,
    },
    /// Print only the best move, as `ROW COL` (0-based) or a square such as c3, for scripts.
    Best {
        /// The board, such as xox/oox/...
        #[arg(value_name = "BOARD", allow_hyphen_values = true)]
        board: String,
        /// Print the square as the game names it, such as c3, instead of ROW COL.
        #[arg(long)]
        coord: bool,
        /// Board shape and search limits.
        #[command(flatten)]
        options: BoardOptions,
    },
    /// Print the seed's minimax tree of a position: each move and reply with its value, as text or as Graphviz DOT.
    Tree {
        /// The board, such as o.x/x.x/.oo
        #[arg(value_name = "BOARD", allow_hyphen_values = true)]
        board: String,
        /// Levels of replies to show below the position, 0 to 49 [default: to the end of the game].
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(..=49))]
        depth: Option<u32>,
        /// Graphviz DOT instead of text, for a picture: `tictactoe tree BOARD --dot | dot -Tsvg > tree.svg`.
        #[arg(long)]
        dot: bool,
        /// Refuse a tree of more positions than this (1 to 1000000).
        #[arg(long, value_name = "N", default_value_t = tree::DEFAULT_MAX_NODES,
              value_parser = clap::value_parser!(u64).range(1..=tree::MOST_NODES))]
        max_nodes: u64,
        /// Board shape and, on bigger boards, search limits.
        #[command(flatten)]
        options: BoardOptions,
    },
    /// Replay the seed's minimax call by call, numbered as the freeCodeCamp article numbers its calls.
    Trace {
        /// The board, such as o.x/x.x/.oo
        #[arg(value_name = "BOARD", allow_hyphen_values = true)]
        board: String,
        /// One line of JSON per call instead of text.
        #[arg(long)]
        json: bool,
        /// Trace minimax with alpha-beta pruning, marking the replies it cuts.
        #[arg(long)]
        alpha_beta: bool,
        /// Refuse a trace of more calls than this (1 to 1000000).
        #[arg(long, value_name = "N", default_value_t = trace::DEFAULT_MAX_CALLS,
              value_parser = clap::value_parser!(u64).range(1..=trace::MOST_CALLS))]
        max_calls: u64,
        /// The board's shape.
        #[command(flatten)]
        shape: GivenShape,
    },
    /// Let two AIs play each other without a screen and print the tally.
    Selfplay {
        /// Level of the AI playing X.
        #[arg(long, value_name = "LEVEL", value_parser = level_parser())]
        x: Level,
        /// Level of the AI playing O.
        #[arg(long, value_name = "LEVEL", value_parser = level_parser())]
        o: Level,
        /// How many games.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
        games: u32,
        /// Seed for every random choice; the same seed plays the same games [default: random].
        #[arg(long, value_name = "S")]
        seed: Option<u64>,
        /// One line of JSON instead of text.
        #[arg(long)]
        json: bool,
        /// The board's shape.
        #[command(flatten)]
        shape: Shape,
        /// Thinking time per move on boards bigger than 3x3, in milliseconds.
        #[arg(long, value_name = "MS", default_value_t = DEFAULT_THINK_MS, value_parser = think_ms())]
        think_ms: u64,
    },
    /// Show the saved statistics of your games against the AI.
    Stats {
        /// One line of JSON instead of text.
        #[arg(long)]
        json: bool,
        /// Forget every count.
        #[arg(long)]
        reset: bool,
        /// The statistics file [default: stats.json in the platform's data directory].
        #[arg(long, value_name = "PATH")]
        stats_file: Option<std::path::PathBuf>,
    },
    /// Print a completion script for a shell: bash, zsh, fish, elvish or powershell.
    Completions {
        /// The shell to complete in.
        #[arg(value_name = "SHELL")]
        shell: clap_complete::Shell,
    },
    /// Print the manual page, in roff.
    Man,
    /// Host the game over SSH for players on other machines (`ssh -p 2222 NAME@HOST`).
    #[cfg(feature = "serve")]
    Serve(serve::ServeArgs),
}

/// Levels on the command line: `random`, `easy`, `medium`, `hard`, `perfect`,
/// each with its help line.
pub fn level_parser() -> impl TypedValueParser<Value = Level> {
    let values = Level::ALL.map(|level| {
        let help = match level {
            Level::Random => "any legal move",
            Level::Easy => "random, but takes a win on the move",
            Level::Medium => "looks two moves ahead",
            Level::Hard => "searches to the end, sometimes plays its second-best move",
            Level::Perfect => "never errs; picks at random among the best moves",
        };
        PossibleValue::new(level.name()).help(help)
    });
    PossibleValuesParser::new(values).try_map(|name| Level::from_name(&name).ok_or("not a level"))
}

/// The board's shape: N×N with K in a row. Where a board is given, `--size`
/// says something else: see [`BoardOptions`] and [`play::PlayArgs`].
#[derive(Debug, Clone, Copy, Default, Args)]
pub struct Shape {
    /// Board side, 3 to 7 [default: 3].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(3..=7))]
    pub size: Option<u8>,
    /// Marks in a row that win, 3 to N [default: 3 on 3x3, 4 on bigger boards].
    #[arg(long, value_name = "K")]
    pub k: Option<u8>,
}

impl Shape {
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

    /// The empty board of this shape.
    pub fn empty(&self) -> Result<Board, GeometryError> {
        let size = self.size.unwrap_or(3);
        Board::empty(size, self.k.unwrap_or_else(|| Board::default_k(size)))
    }
}

/// `--size` where a board is given: its size comes from the board itself.
const GIVEN_SIZE_HELP: &str =
    "Board side, 3 to 7, checked against the board given [default: the size of the board given]";

/// The shape of a board given on the command line, checked against it.
#[derive(Debug, Clone, Copy, Args)]
#[command(mut_arg("size", |size| size.help(GIVEN_SIZE_HELP)))]
pub struct GivenShape {
    /// The board's shape.
    #[command(flatten)]
    pub shape: Shape,
}

/// How to read a board and how long to think about it.
#[derive(Debug, Clone, Args)]
#[command(mut_arg("size", |size| size.help(GIVEN_SIZE_HELP)))]
pub struct BoardOptions {
    /// The board's shape.
    #[command(flatten)]
    pub shape: Shape,
    /// Thinking time per position on boards bigger than 3x3, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = DEFAULT_THINK_MS, value_parser = think_ms())]
    pub think_ms: u64,
    /// Search until every score is proven, however long it takes.
    #[arg(long)]
    pub solve: bool,
}

impl BoardOptions {
    /// Reads a board in the notation with these options.
    pub fn parse(&self, text: &str) -> Result<Board, BoardError> {
        self.shape.parse(text)
    }

    /// The search limits these options ask for.
    pub fn limits(&self) -> Limits {
        if self.solve {
            Limits::Solve
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

/// A square in the JSON of `analyze` and `trace`: `{"row":2,"col":2}` (0-based).
#[derive(Debug, Serialize)]
struct Cell {
    row: u8,
    col: u8,
}

impl From<Move> for Cell {
    fn from(mv: Move) -> Cell {
        Cell {
            row: mv.row,
            col: mv.col,
        }
    }
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
    /// 128 + n: ended by signal n (the shell's convention).
    Signal(i32),
}

impl From<ExitStatus> for ExitCode {
    fn from(status: ExitStatus) -> ExitCode {
        match status {
            ExitStatus::Success => ExitCode::SUCCESS,
            ExitStatus::Failure => ExitCode::from(1),
            ExitStatus::BadInput => ExitCode::from(2),
            ExitStatus::Signal(signal) => ExitCode::from(u8::try_from(128 + signal).unwrap_or(1)),
        }
    }
}

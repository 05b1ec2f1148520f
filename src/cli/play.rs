//! The flags of the game itself, turned into the session's settings.

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::{Args, ValueEnum};
use signal_hook::consts::SIGHUP;
use thiserror::Error;

use tictactoe_console::plain::Grid;
use tictactoe_console::reader::Sentences;
use tictactoe_console::{self as console, Lines, SessionEnd, Voice};
use tictactoe_engine::{Board, BoardError, GeometryError, Level, Limits, MIN_SIZE, Player, Status};
use tictactoe_game::fit::WordWrap;
use tictactoe_game::game::{Seat, Seats};
use tictactoe_game::present::recorded_result;
use tictactoe_game::record::Archive;
use tictactoe_game::record::{self, RecordFile, RecordFileError};
use tictactoe_game::settings::{DEFAULT_AI_DELAY, DEFAULT_WATCH_DELAY, Settings};
use tictactoe_game::stats::StatsFile;
use tictactoe_screen::terminal;
use tictactoe_screen::terminal::Exit;

use super::ExitStatus;

/// A side, as the command line spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Side {
    /// X, who moves first.
    X,
    /// O, who moves second.
    O,
}

impl From<Side> for Player {
    fn from(side: Side) -> Player {
        match side {
            Side::X => Player::X,
            Side::O => Player::O,
        }
    }
}

/// Who sits in a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SeatKind {
    /// A person at the keyboard.
    Human,
    /// The computer, at the level of --difficulty or the side's own level.
    Ai,
}

/// Options of the game (used when no command is given).
#[derive(Debug, Clone, Args)]
#[command(mut_arg("size", |size| size.help(format!("Board side, {} [default: {MIN_SIZE}, or the size of --board]", super::sizes()))))]
pub struct PlayArgs {
    /// The side you play; X moves first [default: x].
    #[arg(long, value_enum, value_name = "x|o", ignore_case = true, conflicts_with_all = ["watch", "x", "o"])]
    pub player: Option<Side>,
    /// Watch the AI play both sides (the same as --x ai --o ai).
    #[arg(long, conflicts_with_all = ["x", "o"])]
    pub watch: bool,
    /// Who plays X; give --o too. Two humans can share the keyboard [default: human, ai with --player o or --watch].
    #[arg(
        long,
        value_enum,
        value_name = "human|ai",
        ignore_case = true,
        requires = "o"
    )]
    pub x: Option<SeatKind>,
    /// Who plays O; give --x too [default: ai, human with --player o].
    #[arg(
        long,
        value_enum,
        value_name = "human|ai",
        ignore_case = true,
        requires = "x"
    )]
    pub o: Option<SeatKind>,
    /// How well the AI plays.
    #[arg(long, value_name = "LEVEL", default_value = "perfect", value_parser = super::level_parser())]
    pub difficulty: Level,
    /// Level of the AI playing X [default: --difficulty].
    #[arg(long, value_name = "LEVEL", value_parser = super::level_parser())]
    pub x_level: Option<Level>,
    /// Level of the AI playing O [default: --difficulty].
    #[arg(long, value_name = "LEVEL", value_parser = super::level_parser())]
    pub o_level: Option<Level>,
    /// Seed for the AI's random choices, to replay the same games [default: random].
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// Start every game from this position, in the notation of `analyze`, or from a game of a records file [default: the empty board].
    #[arg(long, value_name = "NOTATION", allow_hyphen_values = true)]
    pub board: Option<String>,
    /// With a records file as --board: start after this many of its moves (0: where it started) [default: after its last move].
    #[arg(long = "move", value_name = "N", requires = "board")]
    pub move_: Option<usize>,
    /// With a records file as --board: its game number N, from 1.
    #[arg(long, value_name = "N", default_value_t = 1, requires = "board",
          value_parser = clap::value_parser!(u32).range(1..))]
    pub game: u32,
    /// The board's geometry: `--size` and `--k`.
    #[command(flatten)]
    pub geometry: super::GeometryArgs,
    /// How long the AI may think per move on boards bigger than 3x3, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = super::DEFAULT_THINK_MS, value_parser = super::think_ms())]
    pub think_ms: u64,
    /// How explain, the tree and the walkthrough count scores (the AI plays the same either way).
    #[command(flatten)]
    pub scores: super::ScoresArg,
    /// Pause between moves when watching, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = DEFAULT_WATCH_DELAY.as_millis() as u64)]
    pub delay: u64,
    /// Pause before the AI answers your move, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = DEFAULT_AI_DELAY.as_millis() as u64)]
    pub ai_delay: u64,
    /// Play in plain text, a line per move: for simple terminals and pipes.
    #[arg(long, conflicts_with = "screen_reader")]
    pub plain: bool,
    /// Play in sentences, a line per event, with no drawing: for screen readers (also chosen when TERM is dumb).
    #[arg(long)]
    pub screen_reader: bool,
    /// Where to keep the statistics [default: stats.json in the platform's data directory].
    #[arg(long, value_name = "PATH", conflicts_with = "no_stats")]
    pub stats_file: Option<PathBuf>,
    /// Do not count this session's games.
    #[arg(long)]
    pub no_stats: bool,
    /// Append every finished game to this records file (see Game records) [default: off].
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
}

/// Settings that cannot be played.
#[derive(Debug, Error)]
pub enum PlayError {
    /// The `--board` position is not a board.
    #[error("--board: {0}")]
    Board(#[from] BoardError),
    /// `--size` and `--k` do not make a board.
    #[error("{0}")]
    Geometry(#[from] GeometryError),
    /// The `--board` position is already decided.
    #[error("--board: the game is already over ({0}); give a position still in play")]
    Finished(&'static str),
    /// The records file of `--board` cannot be read.
    #[error("--board: {0}")]
    Records(#[from] RecordFileError),
    /// The records file has no such game or move.
    #[error("--board {file}: {problem}")]
    NoSuchMove {
        /// The file given.
        file: String,
        /// What is missing.
        problem: String,
    },
    /// The game of the records file is over where it would start.
    #[error(
        "--board {file}: the game is over after {moves} moves ({result}); give --move 0 to {last}, where it is still in play"
    )]
    RecordOver {
        /// The file given.
        file: String,
        /// Moves up to the end.
        moves: usize,
        /// How it ended.
        result: String,
        /// The last move still in play.
        last: usize,
    },
    /// `--move` or `--game` without a records file.
    #[error("--move and --game need a records file as --board, not a position")]
    NotARecord,
}

impl PlayArgs {
    /// Plays: the full-screen game, or plain text with `--plain`.
    pub fn run(&self) -> io::Result<ExitStatus> {
        let settings = match self.settings() {
            Ok(settings) => settings,
            Err(error) => {
                writeln!(io::stderr(), "error: {error}")?;
                return Ok(ExitStatus::BadInput);
            }
        };
        let records = self.record.as_ref().map(RecordFile::new);
        if let Some(Err(error)) = records.as_ref().map(RecordFile::check) {
            writeln!(io::stderr(), "error: {error}")?;
            return Ok(ExitStatus::BadInput);
        }
        let keep = Archive {
            stats: self.stats_file(),
            records,
        };
        let reader = self.screen_reader || (!self.plain && dumb_terminal());
        if reader || self.plain {
            let prompt = io::stdin().is_terminal();
            let input = &mut io::stdin().lock();
            let errors = &mut Said::new(io::stderr().lock());
            let mut stdout = io::stdout().lock();
            let mut wrapped;
            // A line an event, however long, for a screen reader, which
            // reads lines; at a terminal, plain mode's sentences wrap at words.
            let output: &mut dyn Write = match terminal::width().filter(|_| !reader) {
                Some(width) => {
                    wrapped = WordWrap::new(stdout, width);
                    &mut wrapped
                }
                None => &mut stdout,
            };
            let voice: &mut dyn Voice = if reader { &mut Sentences } else { &mut Grid };
            let lines = Lines {
                input,
                output,
                errors,
                prompt,
            };
            let ending = console::run(voice, &settings, keep, lines)?;
            return Ok(match ending {
                SessionEnd::TerminalGone => ExitStatus::Signal(SIGHUP),
                // A game that could not be recorded was said on standard error.
                SessionEnd::Done if errors.said => ExitStatus::Failure,
                SessionEnd::Done => ExitStatus::Success,
            });
        }
        if !io::stdin().is_terminal() || !io::stdout().is_terminal() {
            writeln!(
                io::stderr(),
                "error: the game needs a terminal; use `tictactoe --plain` for plain text or `tictactoe analyze` for scripts"
            )?;
            return Ok(ExitStatus::Failure);
        }
        let report = terminal::run(settings, color_wanted(), keep)?;
        // Warnings (about saved statistics) are shown in the game and again here,
        // once the screen is back, so they are not lost with it. After a hangup
        // there is nobody to tell, and that is no reason to fail.
        for message in &report.messages {
            let _ = writeln!(io::stderr(), "{message}");
        }
        Ok(match report.exit {
            Exit::Quit if report.not_recorded > 0 => ExitStatus::Failure,
            Exit::Quit => ExitStatus::Success,
            Exit::Signal(signal) => ExitStatus::Signal(signal),
        })
    }

    /// The position `--board` gives: a board in the notation, or else a
    /// game of the records file of that name at `--move`.
    fn start_from(&self, text: &str) -> Result<Board, PlayError> {
        let board_error = match self.geometry.parse(text) {
            Ok(_) if self.move_.is_some() || self.game != 1 => return Err(PlayError::NotARecord),
            Ok(board) => return Ok(board),
            Err(error) => error,
        };
        let path = Path::new(text);
        if !path.exists() {
            return Err(board_error.into());
        }
        // Games are read up to the one asked for, and no further.
        let mut nothing = io::empty();
        let mut games = record::games(path, &mut nothing)?;
        let file = text.to_string();
        let mut held = 0;
        let record = loop {
            match games.next().transpose()? {
                Some(record) if held + 1 == self.game as usize => break record,
                Some(_) => held += 1,
                None => {
                    let problem = format!("there is no game {}: it holds {held}", self.game);
                    return Err(PlayError::NoSuchMove { file, problem });
                }
            }
        };
        let moves = record.moves().len();
        let plies = self.move_.unwrap_or(moves);
        let Some(board) = record.board_after(plies) else {
            let problem = format!("there is no move {plies}: game {} has {moves}", self.game);
            return Err(PlayError::NoSuchMove { file, problem });
        };
        let geometry = board.geometry();
        if self
            .geometry
            .size
            .is_some_and(|size| size != geometry.size())
            || self.geometry.k.is_some_and(|k| k != geometry.k())
        {
            let problem = format!(
                "its game is played on {0}x{0} with {1} in a row, not as --size and --k say",
                geometry.size(),
                geometry.k()
            );
            return Err(PlayError::NoSuchMove { file, problem });
        }
        if board.status().is_over() {
            // Only the end of a game is over: every position before it is in play.
            return Err(PlayError::RecordOver {
                file,
                moves: plies,
                result: recorded_result(record.result()),
                last: plies.saturating_sub(1),
            });
        }
        Ok(board)
    }

    /// Who sits where.
    pub fn seats(&self) -> Seats {
        let ai = |player: Player| {
            let own = match player {
                Player::X => self.x_level,
                Player::O => self.o_level,
            };
            Seat::Ai(own.unwrap_or(self.difficulty))
        };
        let seat = |kind: SeatKind, player| match kind {
            SeatKind::Human => Seat::Human,
            SeatKind::Ai => ai(player),
        };
        if let (Some(x), Some(o)) = (self.x, self.o) {
            return Seats {
                x: seat(x, Player::X),
                o: seat(o, Player::O),
            };
        }
        if self.watch {
            return Seats {
                x: ai(Player::X),
                o: ai(Player::O),
            };
        }
        match self.player.map_or(Player::X, Player::from) {
            Player::X => Seats {
                x: Seat::Human,
                o: ai(Player::O),
            },
            Player::O => Seats {
                x: ai(Player::X),
                o: Seat::Human,
            },
        }
    }

    /// The session's settings, or why the flags cannot be played.
    pub fn settings(&self) -> Result<Settings, PlayError> {
        let start = match &self.board {
            None => self.geometry.empty()?,
            Some(text) => self.start_from(text)?,
        };
        match start.status() {
            Status::Won(Player::X) => return Err(PlayError::Finished("X has won")),
            Status::Won(Player::O) => return Err(PlayError::Finished("O has won")),
            Status::Draw => return Err(PlayError::Finished("the board is full")),
            Status::InProgress { .. } => {}
        }
        Ok(Settings {
            seats: self.seats(),
            start,
            ai_delay: Duration::from_millis(self.ai_delay),
            watch_delay: Duration::from_millis(self.delay),
            limits: Limits::Think(Duration::from_millis(self.think_ms)),
            seed: self.seed,
            scoring: self.scores.scores,
        })
    }

    /// Where games are counted, unless counting is off.
    pub fn stats_file(&self) -> Option<StatsFile> {
        if self.no_stats {
            return None;
        }
        StatsFile::given_or_default(self.stats_file.as_deref())
    }
}

/// A stream that remembers whether anything was said on it.
struct Said<W> {
    out: W,
    said: bool,
}

impl<W> Said<W> {
    fn new(out: W) -> Said<W> {
        Said { out, said: false }
    }
}

impl<W: Write> Write for Said<W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.said |= !bytes.is_empty();
        self.out.write(bytes)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// True when `TERM` says the terminal draws nothing ([`tictactoe_game::text::draws_nothing`]).
pub fn dumb_terminal() -> bool {
    std::env::var_os("TERM")
        .and_then(|term| term.into_string().ok())
        .is_some_and(|term| tictactoe_game::text::draws_nothing(&term))
}

/// True unless `NO_COLOR` is set to something (see no-color.org).
pub fn color_wanted() -> bool {
    std::env::var_os("NO_COLOR").is_none_or(|value| value.is_empty())
}

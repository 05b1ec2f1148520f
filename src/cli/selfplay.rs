//! `tictactoe selfplay`: prints the tally of AI-against-AI games
//! ([`tictactoe_game::selfplay::play_games`]).

use std::io::{self, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use super::{DEFAULT_THINK_MS, ExitStatus, GeometryArgs, Streams, level_parser, think_ms};
use tictactoe_engine::{Board, Level, Limits};
use tictactoe_game::game::{Seat, Seats};
use tictactoe_game::json;
use tictactoe_game::record::{self, Record, RecordFile, RecordFileError};
use tictactoe_game::selfplay::{SelfplayReport, Series, play_games_each};
use tictactoe_game::text;

/// The arguments of `tictactoe selfplay`.
#[derive(Debug, Args)]
pub struct SelfplayArgs {
    /// Level of the AI playing X.
    #[arg(long, value_name = "LEVEL", value_parser = level_parser())]
    pub x: Level,
    /// Level of the AI playing O.
    #[arg(long, value_name = "LEVEL", value_parser = level_parser())]
    pub o: Level,
    /// How many games.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub games: u32,
    /// Seed for every random choice; the same seed plays the same games [default: random].
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// One line of JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// The board's geometry: `--size` and `--k`.
    #[command(flatten)]
    pub geometry: GeometryArgs,
    /// Thinking time per move on boards bigger than 3x3, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = DEFAULT_THINK_MS, value_parser = think_ms())]
    pub think_ms: u64,
    /// Append every game played to this records file (see Game records); stops when the file would pass 64 MiB [default: off].
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
}

impl SelfplayArgs {
    /// Plays the games and prints their tally.
    pub fn run(&self, io: &mut Streams) -> io::Result<ExitStatus> {
        let start = match self.geometry.empty() {
            Ok(start) => start,
            Err(error) => return io.error_line(&error, ExitStatus::BadInput),
        };
        let seed = self.seed.unwrap_or_else(|| fastrand::u64(..));
        let limits = Limits::Think(Duration::from_millis(self.think_ms));
        // The path is judged at once; the file is opened and locked for each
        // batch of games alone, so a game finishing elsewhere meanwhile is recorded.
        let mut appender = match self.record.as_ref().map(RecordFile::new) {
            Some(file) => match file.check() {
                Ok(()) => Some(file.appender()),
                Err(error) => return io.error_line(&error, ExitStatus::BadInput),
            },
            None => None,
        };
        let seats = Seats {
            x: Seat::Ai(self.x),
            o: Seat::Ai(self.o),
        };
        let (x, o) = (
            record::seat_name(seats.x, seats),
            record::seat_name(seats.o, seats),
        );
        let date = record::today();
        let mut failed: Option<RecordFileError> = None;
        let series = Series {
            start,
            x: self.x,
            o: self.o,
            games: self.games,
            seed,
            limits,
        };
        let played = play_games_each(series, |moves| {
            let Some(appender) = appender.as_mut() else {
                return ControlFlow::Continue(());
            };
            // The AIs' moves were played on the board: the record takes them.
            let game = Record::new(start, moves.to_vec())
                .unwrap_or_else(|_| Record::empty(start))
                .with_players(x.as_str(), o.as_str())
                .with_date(date.as_str());
            match appender.append(&game) {
                Ok(()) => ControlFlow::Continue(()),
                Err(error) => {
                    failed = Some(error);
                    ControlFlow::Break(())
                }
            }
        });
        if let Some(appender) = appender
            && let Err(error) = appender.finish()
        {
            failed.get_or_insert(error);
        }
        match (played, failed) {
            (Err(error), _) => io.error_line(&error, ExitStatus::Failure),
            // The games played are told, then why the run stopped.
            (Ok(report), Some(error)) => {
                write_report(&report, start, self.x, self.o, self.json, io.out)?;
                let stopped = format!(
                    "{error}; selfplay stopped after {}",
                    text::count(report.games.into(), "game", "games")
                );
                io.error_line(&stopped, ExitStatus::Failure)
            }
            (Ok(report), None) => write_report(&report, start, self.x, self.o, self.json, io.out),
        }
    }
}

/// Prints a report of games from `start` as text or as one line of JSON.
pub fn write_report(
    report: &SelfplayReport,
    start: Board,
    x: Level,
    o: Level,
    json: bool,
    out: &mut dyn Write,
) -> io::Result<ExitStatus> {
    if json {
        let record = json::Selfplay {
            games: report.games,
            tally: json::Tally {
                x_wins: report.x_wins.into(),
                o_wins: report.o_wins.into(),
                draw: report.draws.into(),
            },
            seconds: report.seconds,
            seed: report.seed,
        };
        json::write_line(out, &record)?;
    } else {
        let percent = |n: u32| 100.0 * f64::from(n) / f64::from(report.games.max(1));
        let games = text::count(report.games.into(), "game", "games");
        // The classic board goes without saying, as in the game's title.
        let shape = if start.is_classic() {
            String::new()
        } else {
            format!(" on {0}x{0} ({1} in a row)", start.size(), start.k())
        };
        writeln!(out, "{games}{shape}, X ({x}) against O ({o}):")?;
        for (label, n) in [
            ("X wins", report.x_wins),
            ("O wins", report.o_wins),
            ("draws ", report.draws),
        ] {
            let n_text = text::thousands(n.into());
            writeln!(out, "  {label} {n_text:>9}  {:5.1} %", percent(n))?;
        }
        let rate = f64::from(report.games) / report.seconds.max(f64::MIN_POSITIVE);
        // The seed stays plain digits: it is an argument to copy, not a quantity.
        writeln!(
            out,
            "in {:.3} s ({} per second); seed {}",
            report.seconds,
            text::count(rate.round() as u64, "game", "games"),
            report.seed
        )?;
    }
    Ok(ExitStatus::Success)
}

//! `tictactoe review`: every move of recorded games, with its value before
//! and after for the side that played it and a mark where it threw
//! something away ([`tictactoe_game::review`]).

use std::io::{self, Write};
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use super::{DEFAULT_THINK_MS, ExitStatus, Streams, think_ms};
use tictactoe_engine::{Ai, Limits};
use tictactoe_game::json;
use tictactoe_game::record::{self, Record, RecordFileError};
use tictactoe_game::review::{MoveReview, game_text, legend, review};

/// The arguments of `tictactoe review`.
#[derive(Debug, Args)]
pub struct ReviewArgs {
    /// The records file to review; - reads standard input.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// One line of JSON per move, and one after each game.
    #[arg(long)]
    pub json: bool,
    /// Only this game of the file, counted from 1 [default: every game].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub game: Option<u32>,
    /// Thinking time per move on boards bigger than 3x3, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = DEFAULT_THINK_MS, value_parser = think_ms())]
    pub think_ms: u64,
    /// Search until every score is proven, however long it takes.
    #[arg(long)]
    pub solve: bool,
}

impl ReviewArgs {
    /// Reviews the games and prints them, one at a time as they are read:
    /// a damaged game stops the reading after every complete game before it.
    pub fn run(&self, io: &mut Streams) -> io::Result<ExitStatus> {
        let failed = |error: &RecordFileError| {
            if error.is_bad_input() {
                ExitStatus::BadInput
            } else {
                ExitStatus::Failure
            }
        };
        let Streams { input, out, err } = io;
        let mut refuse = |error: &dyn std::fmt::Display, status: ExitStatus| {
            writeln!(err, "error: {error}").map(|()| status)
        };
        let games = match record::games(&self.file, &mut **input) {
            Ok(games) => games,
            Err(error) => return refuse(&error, failed(&error)),
        };
        let limits = if self.solve {
            Limits::ToTheEnd
        } else {
            Limits::Think(Duration::from_millis(self.think_ms))
        };
        let wanted = self.game.map(|n| n as usize);
        let mut ai = Ai::new();
        let mut win = None;
        let mut read = 0;
        for game in games {
            let record = match game {
                Ok(record) => record,
                Err(error) => return refuse(&error, failed(&error)),
            };
            read += 1;
            if wanted.is_some_and(|wanted| wanted != read) {
                continue;
            }
            let number = read;
            let reviews = review(&record, limits, &mut ai);
            if self.json {
                write_json(number, &record, &reviews, &mut **out)?;
            } else {
                // The legend again only where the scores count from another W.
                let this_win = record.start().geometry().win_score();
                if win != Some(this_win) {
                    if win.is_some() {
                        writeln!(out)?;
                    }
                    for line in legend(this_win) {
                        writeln!(out, "{line}")?;
                    }
                    win = Some(this_win);
                }
                writeln!(out)?;
                for line in game_text(number, &record, &reviews) {
                    writeln!(out, "{line}")?;
                }
            }
            if wanted == Some(number) {
                return Ok(ExitStatus::Success);
            }
        }
        let holds = match read {
            0 => "holds no game".to_string(),
            1 => "holds 1 game".to_string(),
            n => format!("holds {n} games"),
        };
        let problem = match self.game {
            _ if read == 0 => format!("{}: {holds}", self.file.display()),
            Some(n) => format!("{}: --game {n}: the file {holds}", self.file.display()),
            None => return Ok(ExitStatus::Success),
        };
        refuse(&problem, ExitStatus::BadInput)
    }
}

fn write_json(
    game: usize,
    record: &Record,
    reviews: &[MoveReview],
    out: &mut dyn Write,
) -> io::Result<()> {
    for (i, review) in reviews.iter().enumerate() {
        let line = json::ReviewedMove {
            game,
            ply: i + 1,
            player: review.mover(),
            at: json::Located::new(Some(review.mv)),
            before: review.before,
            after: review.after,
            mark: review.mark.map(|mark| mark.symbol()),
            best: review.best,
            tied: review.tied.clone(),
            scores_exact: review.proven,
        };
        json::write_line(out, &line)?;
    }
    let end = json::ReviewedGame {
        game,
        result: record.end().status(),
        plies: record.moves().len(),
    };
    json::write_line(out, &end)
}

//! `tictactoe review`: every move of recorded games, with its value before
//! and after for the side that played it and a mark where it threw
//! something away ([`tictactoe_core::review`]).

use std::io;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use super::{DEFAULT_THINK_MS, ExitStatus, Streams, json, think_ms};
use tictactoe_core::record::{Record, read_file};
use tictactoe_core::review::{MoveReview, game_text, legend, review};
use tictactoe_engine::{Ai, Limits};

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
    /// Reviews the games and prints them.
    pub fn run(&self, io: &mut Streams) -> io::Result<ExitStatus> {
        let records = match read_file(&self.file, io.input) {
            Ok(records) => records,
            Err(error) if error.is_bad_input() => {
                return io.error_line(&error, ExitStatus::BadInput);
            }
            Err(error) => return io.error_line(&error, ExitStatus::Failure),
        };
        let chosen = match pick(&records, self.game) {
            Ok(chosen) => chosen,
            Err(problem) => {
                let problem = format!("{}: {problem}", self.file.display());
                return io.error_line(&problem, ExitStatus::BadInput);
            }
        };
        let limits = if self.solve {
            Limits::ToTheEnd
        } else {
            Limits::Think(Duration::from_millis(self.think_ms))
        };
        let mut ai = Ai::new();
        let mut win = None;
        for (number, record) in chosen {
            let reviews = review(record, limits, &mut ai);
            if self.json {
                write_json(number, record, &reviews, io)?;
                continue;
            }
            // The legend again only where the scores count from another W.
            let this_win = record.start().geometry().win_score();
            if win != Some(this_win) {
                if win.is_some() {
                    writeln!(io.out)?;
                }
                for line in legend(this_win) {
                    writeln!(io.out, "{line}")?;
                }
                win = Some(this_win);
            }
            writeln!(io.out)?;
            for line in game_text(number, record, &reviews) {
                writeln!(io.out, "{line}")?;
            }
        }
        Ok(ExitStatus::Success)
    }
}

/// The games `--game` asks for, each with its number from 1.
fn pick(records: &[Record], game: Option<u32>) -> Result<Vec<(usize, &Record)>, String> {
    let holds = |n: usize| match n {
        0 => "holds no game".to_string(),
        1 => "holds 1 game".to_string(),
        n => format!("holds {n} games"),
    };
    if records.is_empty() {
        return Err(holds(0));
    }
    let numbered = records
        .iter()
        .enumerate()
        .map(|(i, record)| (i + 1, record));
    match game {
        None => Ok(numbered.collect()),
        Some(n) => {
            let wanted = n as usize;
            numbered
                .filter(|&(number, _)| number == wanted)
                .map(|found| vec![found])
                .next()
                .ok_or_else(|| format!("--game {n}: the file {}", holds(records.len())))
        }
    }
}

fn write_json(
    game: usize,
    record: &Record,
    reviews: &[MoveReview],
    io: &mut Streams,
) -> io::Result<()> {
    for (i, review) in reviews.iter().enumerate() {
        let line = json::ReviewedMove {
            game,
            ply: i + 1,
            player: json::player(review.mover()),
            at: json::Located::new(Some(review.mv)),
            before: review.before,
            after: review.after,
            mark: review.mark.map(|mark| mark.symbol()),
            best: json::square(review.best),
            tied: json::squares(review.tied.iter().copied()),
            proven: review.proven,
        };
        json::write_line(io.out, &line)?;
    }
    let end = json::ReviewedGame {
        game,
        result: json::game_result(record.result()),
        plies: record.moves().len(),
    };
    json::write_line(io.out, &end)
}

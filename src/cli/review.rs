//! `tictactoe review`: every move of recorded games, with its value before
//! and after for the side that played it and a mark where it threw
//! something away ([`tictactoe_core::review`]).

use std::io;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use serde::Serialize;

use super::{DEFAULT_THINK_MS, ExitStatus, Streams, think_ms};
use tictactoe_core::record::{Record, read_file};
use tictactoe_core::review::{MoveReview, game_text, legend, review};
use tictactoe_engine::{Ai, Limits, Player, Square};

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

/// One move of `review --json`.
#[derive(Debug, Serialize)]
struct MoveLine {
    game: usize,
    ply: usize,
    player: &'static str,
    #[serde(rename = "move")]
    mv: String,
    before: i32,
    after: i32,
    mark: Option<&'static str>,
    best: Vec<String>,
    proven: bool,
}

/// The line after each game of `review --json`.
#[derive(Debug, Serialize)]
struct GameLine {
    game: usize,
    result: &'static str,
    plies: usize,
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
    let names = |moves: &[Square]| moves.iter().map(Square::to_string).collect();
    for (i, review) in reviews.iter().enumerate() {
        let line = MoveLine {
            game,
            ply: i + 1,
            player: match review.mover() {
                Player::X => "x",
                Player::O => "o",
            },
            mv: review.mv.to_string(),
            before: review.before,
            after: review.after,
            mark: review.mark.map(|mark| mark.symbol()),
            best: names(&review.best),
            proven: review.proven,
        };
        writeln!(
            io.out,
            "{}",
            serde_json::to_string(&line).map_err(io::Error::other)?
        )?;
    }
    let end = GameLine {
        game,
        result: record.result().token(),
        plies: record.moves().len(),
    };
    writeln!(
        io.out,
        "{}",
        serde_json::to_string(&end).map_err(io::Error::other)?
    )
}

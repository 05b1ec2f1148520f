//! `tictactoe selfplay`: prints the tally of AI-against-AI games
//! ([`crate::selfplay::play_games`]).

use std::io::{self, Write};

use super::ExitStatus;
use crate::engine::{Board, Level};
use crate::selfplay::SelfplayReport;
use crate::text;

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
        writeln!(
            out,
            "{}",
            serde_json::to_string(report).map_err(io::Error::other)?
        )?;
    } else {
        let percent = |n: u32| 100.0 * f64::from(n) / f64::from(report.games.max(1));
        let games = text::count(report.games.into(), "game", "games");
        // The classic board goes without saying, as in the game's title.
        let shape = if start.size() == 3 {
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

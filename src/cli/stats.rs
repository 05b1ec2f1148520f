//! `tictactoe stats`: the saved statistics, as text or JSON.

use std::io::{self, Write};

use std::path::PathBuf;

use clap::Args;

use super::{ExitStatus, Streams};
use tictactoe_game::json::{self, StandingTally};
use tictactoe_game::stats::{Note, Stats, StatsFile};
use tictactoe_game::text;

/// The arguments of `tictactoe stats`.
#[derive(Debug, Args)]
pub struct StatsArgs {
    /// One line of JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Forget every count.
    #[arg(long)]
    pub reset: bool,
    /// The statistics file [default: stats.json in the platform's data directory].
    #[arg(long, value_name = "PATH")]
    pub stats_file: Option<PathBuf>,
}

impl StatsArgs {
    /// Prints (or resets) the statistics.
    pub fn run(&self, io: &mut Streams) -> io::Result<ExitStatus> {
        let file = StatsFile::given_or_default(self.stats_file.as_deref());
        run_stats(file, self.json, self.reset, io.out, io.err)
    }
}

/// Prints the statistics (after resetting them, with `reset`).
pub fn run_stats(
    file: Option<StatsFile>,
    json: bool,
    reset: bool,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> io::Result<ExitStatus> {
    let Some(file) = file else {
        writeln!(
            err,
            "error: this platform has no data directory; give --stats-file PATH"
        )?;
        return Ok(ExitStatus::Failure);
    };
    // Only --reset writes: plain `stats` reads without a lock and changes nothing.
    let result = if reset {
        file.reset().map(|kept| (Stats::default(), kept))
    } else {
        file.read().map(|stats| (stats, None))
    };
    let (stats, kept) = match result {
        Ok(read) => read,
        Err(error) => {
            writeln!(err, "error: {error}")?;
            return Ok(ExitStatus::Failure);
        }
    };
    if let Some(kept) = kept {
        writeln!(err, "{}", Note::KeptAside(kept))?;
    }
    let (wins, losses, draws) = stats.totals();
    let path = file.path().display().to_string();
    if json {
        let by_opponent = stats
            .rows()
            .iter()
            .map(|row| json::StatsRow {
                side: row.side,
                opponent: row.opponent,
                size: row.size,
                k: row.k,
                games: row.games(),
                tally: StandingTally {
                    win: row.wins,
                    loss: row.losses,
                    draw: row.draws,
                },
            })
            .collect();
        let report = json::Stats {
            games: stats.games(),
            tally: StandingTally {
                win: wins,
                loss: losses,
                draw: draws,
            },
            by_opponent,
            file: &path,
        };
        json::write_line(out, &report)?;
        return Ok(ExitStatus::Success);
    }
    if reset {
        writeln!(out, "Statistics reset ({path}).")?;
        return Ok(ExitStatus::Success);
    }
    writeln!(
        out,
        "{} against the AI: {} won, {} lost, {} drawn",
        text::count(stats.games(), "game", "games"),
        text::thousands(wins),
        text::thousands(losses),
        text::thousands(draws)
    )?;
    if !stats.rows().is_empty() {
        writeln!(out, "\n  board   you  opponent    games   won  lost  drawn")?;
        for row in stats.rows() {
            writeln!(
                out,
                "  {:<7} {:<4} {:<10} {:>6} {:>5} {:>5} {:>6}",
                row.board(),
                row.side.symbol(),
                row.opponent.name(),
                text::thousands(row.games()),
                text::thousands(row.wins),
                text::thousands(row.losses),
                text::thousands(row.draws)
            )?;
        }
    }
    writeln!(out, "\n(kept in {path})")?;
    Ok(ExitStatus::Success)
}

//! `tictactoe selfplay`: AI against AI without a screen, for a tally.

use std::io::{self, Write};
use std::time::Instant;

use serde::Serialize;

use super::ExitStatus;
use crate::engine::{Ai, Board, Level, Limits, Player};
use crate::game::Tally;

/// The result of a run of games.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct SelfplayReport {
    /// Games played.
    pub games: u32,
    /// Games X won.
    pub x_wins: u32,
    /// Games O won.
    pub o_wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Wall time of the run.
    pub seconds: f64,
    /// The seed the run used: the same seed plays the same games.
    pub seed: u64,
}

/// Plays `games` games from `start`, X at `x` against O at `o`. All random
/// choices come from one generator seeded with `seed`, so a run repeats exactly.
pub fn play_games(
    start: Board,
    x: Level,
    o: Level,
    games: u32,
    seed: u64,
    limits: Limits,
) -> SelfplayReport {
    let started = Instant::now();
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut tally = Tally::default();
    // The table of solved positions answers 3×3 at once; bigger boards are
    // searched, each AI keeping its table from move to move and game to game.
    let (mut x_ai, mut o_ai) = (Ai::new(), Ai::new());
    for _ in 0..games {
        let mut board = start;
        loop {
            let (ai, level) = if board.to_move() == Player::X {
                (&mut x_ai, x)
            } else {
                (&mut o_ai, o)
            };
            let Some(decision) = ai.choose(&board, level, &mut rng, limits) else {
                break;
            };
            board = match board.play(decision.mv) {
                Ok(next) => next,
                Err(_) => break, // cannot happen: the AI picks among legal moves
            };
        }
        tally.record(board.status());
    }
    SelfplayReport {
        games,
        x_wins: tally.x_wins,
        o_wins: tally.o_wins,
        draws: tally.draws,
        seconds: started.elapsed().as_secs_f64(),
        seed,
    }
}

/// Prints a report as text or as one line of JSON.
pub fn write_report(
    report: &SelfplayReport,
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
        writeln!(out, "{} games, X ({x}) against O ({o}):", report.games)?;
        writeln!(
            out,
            "  X wins {:>8}  {:5.1} %",
            report.x_wins,
            percent(report.x_wins)
        )?;
        writeln!(
            out,
            "  O wins {:>8}  {:5.1} %",
            report.o_wins,
            percent(report.o_wins)
        )?;
        writeln!(
            out,
            "  draws  {:>8}  {:5.1} %",
            report.draws,
            percent(report.draws)
        )?;
        let rate = f64::from(report.games) / report.seconds.max(f64::MIN_POSITIVE);
        writeln!(
            out,
            "in {:.3} s ({rate:.0} games per second); seed {}",
            report.seconds, report.seed
        )?;
    }
    Ok(ExitStatus::Success)
}

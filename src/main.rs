use std::fmt::Display;
use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use tictactoe::cli::analyze::{run_analyze, run_best};
use tictactoe::cli::play::color_wanted;
use tictactoe::cli::selfplay::write_report;
use tictactoe::cli::setup::{write_completions, write_man_page};
use tictactoe::cli::stats::run_stats;
use tictactoe::cli::trace::run_trace;
use tictactoe::cli::tree::run_tree;
use tictactoe::cli::{Cli, Command, ExitStatus};
use tictactoe::engine::Limits;
use tictactoe::engine::reference::Algorithm;
use tictactoe::selfplay::play_games;
use tictactoe::stats::StatsFile;
use tictactoe::tui::Ending;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // --help and --version print as clap prints them.
        Err(error) if !error.use_stderr() => error.exit(),
        Err(error) => {
            let _ = writeln!(io::stderr(), "{}", one_line(&error.render().to_string()));
            return ExitStatus::BadInput.into();
        }
    };
    let (stdout, stderr) = (io::stdout(), io::stderr());
    let result = match &cli.command {
        Some(Command::Analyze {
            board,
            json,
            options,
        }) => run_analyze(
            board,
            *json,
            options,
            &mut io::stdin().lock(),
            &mut stdout.lock(),
            &mut stderr.lock(),
        ),
        Some(Command::Best {
            board,
            coord,
            options,
        }) => run_best(
            board,
            *coord,
            options,
            &mut stdout.lock(),
            &mut stderr.lock(),
        ),
        Some(Command::Tree {
            board,
            depth,
            dot,
            max_nodes,
            options,
        }) => match options.parse(board) {
            Ok(board) => run_tree(
                &board,
                *depth,
                *max_nodes,
                *dot,
                options.limits(),
                &mut stdout.lock(),
                &mut stderr.lock(),
            ),
            Err(error) => error_line(&error, ExitStatus::BadInput),
        },
        Some(Command::Trace {
            board,
            json,
            alpha_beta,
            max_calls,
            shape,
        }) => match shape.shape.parse(board) {
            Ok(board) => {
                let algorithm = if *alpha_beta {
                    Algorithm::AlphaBeta
                } else {
                    Algorithm::Minimax
                };
                run_trace(
                    &board,
                    algorithm,
                    *max_calls,
                    *json,
                    &mut stdout.lock(),
                    &mut stderr.lock(),
                )
            }
            Err(error) => error_line(&error, ExitStatus::BadInput),
        },
        Some(Command::Selfplay {
            x,
            o,
            games,
            seed,
            json,
            shape,
            think_ms,
        }) => match shape.empty() {
            Ok(start) => {
                let seed = seed.unwrap_or_else(|| fastrand::u64(..));
                let limits = Limits::Think(Duration::from_millis(*think_ms));
                match play_games(start, *x, *o, *games, seed, limits) {
                    Ok(report) => write_report(&report, start, *x, *o, *json, &mut stdout.lock()),
                    Err(error) => error_line(&error, ExitStatus::Failure),
                }
            }
            Err(error) => error_line(&error, ExitStatus::BadInput),
        },
        Some(Command::Stats {
            json,
            reset,
            stats_file,
        }) => run_stats(
            StatsFile::given_or_default(stats_file.as_deref()),
            *json,
            *reset,
            &mut stdout.lock(),
            &mut stderr.lock(),
        ),
        Some(Command::Completions { shell }) => write_completions(*shell, &mut stdout.lock()),
        Some(Command::Man) => write_man_page(&mut stdout.lock()),
        #[cfg(feature = "serve")]
        Some(Command::Serve(args)) => serve(args),
        None => play(&cli),
    };
    match result.and_then(|status| match status {
        // The terminal may be gone (SIGHUP): the signal is the answer, not a failed flush.
        ExitStatus::Signal(_) => Ok(status),
        _ => io::stdout().flush().map(|()| status),
    }) {
        Ok(status) => status.into(),
        // The reader went away (`| head`): nothing is lost that anyone wants.
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(error) => {
            let _ = writeln!(io::stderr(), "error: {error}");
            ExitStatus::Failure.into()
        }
    }
}

/// Reports what went wrong as the one `error:` line every command gives, and
/// the exit status that goes with it.
fn error_line(error: &dyn Display, status: ExitStatus) -> io::Result<ExitStatus> {
    writeln!(io::stderr(), "error: {error}").map(|()| status)
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

#[cfg(feature = "serve")]
fn serve(args: &tictactoe::cli::serve::ServeArgs) -> io::Result<ExitStatus> {
    match tictactoe::serve::run(&args.options(), &mut io::stdout()) {
        Ok(()) => Ok(ExitStatus::Success),
        Err(error) => error_line(&error, ExitStatus::Failure),
    }
}

fn play(cli: &Cli) -> io::Result<ExitStatus> {
    let settings = match cli.play.settings() {
        Ok(settings) => settings,
        Err(error) => return error_line(&error, ExitStatus::BadInput),
    };
    let stats = cli.play.stats_file();
    if cli.play.plain {
        let prompt = io::stdin().is_terminal();
        tictactoe::plain::run(
            &settings,
            stats,
            &mut io::stdin().lock(),
            &mut io::stdout().lock(),
            prompt,
        )?;
        return Ok(ExitStatus::Success);
    }
    if !io::stdin().is_terminal() || !io::stdout().is_terminal() {
        writeln!(
            io::stderr(),
            "error: the game needs a terminal; use `tictactoe --plain` for plain text or `tictactoe analyze` for scripts"
        )?;
        return Ok(ExitStatus::Failure);
    }
    let outcome = tictactoe::tui::run(settings, color_wanted(), stats)?;
    // Warnings (about saved statistics) are shown in the game and again here,
    // once the screen is back, so they are not lost with it. After a hangup
    // there is nobody to tell, and that is no reason to fail.
    for message in &outcome.messages {
        let _ = writeln!(io::stderr(), "{message}");
    }
    Ok(match outcome.ending {
        Ending::Quit => ExitStatus::Success,
        Ending::Signal(signal) => ExitStatus::Signal(signal),
    })
}

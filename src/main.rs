use std::io::{self, Write};
use std::process::ExitCode;

use clap::Parser;
use tictactoe::cli::analyze::{run_analyze, run_best};
use tictactoe::cli::{Cli, Command, ExitStatus};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let (stdout, stderr) = (io::stdout(), io::stderr());
    let (mut out, mut err) = (stdout.lock(), stderr.lock());
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
            &mut out,
            &mut err,
        ),
        Some(Command::Best { board, options }) => run_best(board, options, &mut out, &mut err),
        None => {
            let _ = writeln!(err, "the game is not built yet; try `tictactoe analyze`");
            Ok(ExitStatus::Failure)
        }
    };
    match result.and_then(|status| out.flush().map(|()| status)) {
        Ok(status) => status.into(),
        // The reader went away (`| head`): nothing is lost that anyone wants.
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(error) => {
            let _ = writeln!(err, "error: {error}");
            ExitStatus::Failure.into()
        }
    }
}

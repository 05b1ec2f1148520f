//! `tictactoe`: reads the command line and hands it to [`tictactoe::cli::run`].

use std::process::ExitCode;

fn main() -> ExitCode {
    match tictactoe::cli::parse() {
        Ok(cli) => tictactoe::cli::run(&cli),
        Err(status) => status,
    }
}

//! `tictactoe lab`: what each search technique buys, on one position: the
//! core's [`tictactoe_grade::lab`] ladder as a table or as JSON.

use std::io;

use clap::Args;

use super::{ExitStatus, GeometryArgs, ScoresArg, Streams};
use tictactoe_game::json;
use tictactoe_grade::lab::{self, DEFAULT_BUDGET, ladder, text};

/// The arguments of `tictactoe lab`.
#[derive(Debug, Args)]
pub struct LabArgs {
    /// The board, such as o.x/x.x/.oo [default: the empty board of --size and --k].
    #[arg(value_name = "BOARD", allow_hyphen_values = true)]
    pub board: Option<String>,
    /// One line of JSON instead of the table.
    #[arg(long)]
    pub json: bool,
    /// The most positions one row may search before it gives up (1 to 100000000).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_BUDGET,
          value_parser = clap::value_parser!(u64).range(1..=MOST_POSITIONS))]
    pub max_positions: u64,
    /// How scores are counted.
    #[command(flatten)]
    pub scores: ScoresArg,
    /// The board's geometry: `--size` and `--k`.
    #[command(flatten)]
    pub geometry: GeometryArgs,
}

/// The most `--max-positions` accepts.
pub const MOST_POSITIONS: u64 = 100_000_000;

impl LabArgs {
    /// Prints the ladder of the board given, or of the empty board.
    pub fn run(&self, io: &mut Streams) -> io::Result<ExitStatus> {
        let board = match &self.board {
            Some(text) => {
                if let Some(refusal) = super::one_board_only("lab", text) {
                    return io.error_line(&refusal, ExitStatus::BadInput);
                }
                self.geometry.parse(text).map_err(|error| error.to_string())
            }
            None => self.geometry.empty().map_err(|error| error.to_string()),
        };
        let board = match board {
            Ok(board) => board,
            Err(error) => return io.error_line(&error, ExitStatus::BadInput),
        };
        if board.status().is_over() {
            let refusal = format!("the game is over on {board}: there is nothing to search");
            return io.error_line(&refusal, ExitStatus::Failure);
        }
        let ladder = ladder(&board, self.scores.scores, self.max_positions);
        if self.json {
            json::write_line(io.out, &lab::json(&ladder))?;
        } else {
            write!(io.out, "{}", text(&ladder))?;
        }
        if ladder.agrees() {
            Ok(ExitStatus::Success)
        } else {
            io.error_line(&"the rows found different values", ExitStatus::Failure)
        }
    }
}

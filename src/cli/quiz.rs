//! `tictactoe quiz`: questions about positions from real games, one at a
//! time, with the answer explained ([`tictactoe_game::quiz`]); `--answers` prints the key.

use std::io::{self, IsTerminal};

use clap::Args;

use super::{ExitStatus, ScoresArg, Streams};
use tictactoe_engine::Board;
use tictactoe_game::action::Action;
use tictactoe_game::json::{self, QuizAnswer};
use tictactoe_game::keys::{self, Mode};
use tictactoe_game::quiz::{Answer, Question, ask_all, questions};

/// The arguments of `tictactoe quiz`.
#[derive(Debug, Args)]
pub struct QuizArgs {
    /// Seed of the games the positions come from; the same seed asks the same questions [default: random].
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// How many questions, 1 to 100.
    #[arg(long, value_name = "N", default_value_t = 5,
          value_parser = clap::value_parser!(u16).range(1..=100))]
    pub count: u16,
    /// Print the key instead of asking: one line per question, exactly the text the quiz accepts.
    #[arg(long)]
    pub answers: bool,
    /// With --answers: one line of JSON per question.
    #[arg(long, requires = "answers")]
    pub json: bool,
    /// How scores are counted.
    #[command(flatten)]
    pub scores: ScoresArg,
}

impl QuizArgs {
    /// Asks the questions on standard input and output, or prints the key.
    pub fn run(&self, io: &mut Streams) -> io::Result<ExitStatus> {
        let seed = self.seed.unwrap_or_else(|| fastrand::u64(..));
        let asked = questions(seed, usize::from(self.count), self.scores.scores);
        if self.answers {
            for question in &asked {
                if self.json {
                    json::write_line(io.out, &key_record(question))?;
                } else {
                    writeln!(io.out, "{}", question.key())?;
                }
            }
            return Ok(ExitStatus::Success);
        }
        let grid = |board: &Board| {
            board
                .to_grid()
                .lines()
                .map(|row| format!("  {row}"))
                .collect()
        };
        ask_all(
            &asked,
            seed,
            io::stdin().is_terminal(),
            &grid,
            &keys::words(Mode::Plain, Action::Quit),
            io.input,
            io.out,
        )?;
        Ok(ExitStatus::Success)
    }
}

fn key_record(question: &Question) -> json::QuizKey {
    let answer = match question.answer() {
        Answer::Value(value) => QuizAnswer::Number(value.into()),
        Answer::Best(best) => QuizAnswer::Moves(best),
        Answer::Calls(calls) => QuizAnswer::Number(calls.try_into().unwrap_or(i64::MAX)),
        Answer::Pruned(paths) => QuizAnswer::Branches(paths),
    };
    json::QuizKey {
        board: question.board,
        ask: question.ask.name(),
        answer,
    }
}

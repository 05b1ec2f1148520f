//! `tictactoe quiz`: questions about positions from real games, one at a
//! time, with the answer explained ([`crate::quiz`]); `--answers` prints the key.

use std::io::{self, IsTerminal};

use clap::Args;
use serde::Serialize;

use super::{ExitStatus, ScoresArg, Streams};
use crate::quiz::{Answer, Question, questions};
use crate::text::read_line;
use crate::words::scoring_legend;

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

/// One question of `quiz --answers --json`.
#[derive(Debug, Serialize)]
struct KeyRecord {
    board: String,
    ask: &'static str,
    answer: serde_json::Value,
}

impl QuizArgs {
    /// Asks the questions on standard input and output, or prints the key.
    pub fn run(&self, io: &mut Streams) -> io::Result<ExitStatus> {
        let seed = self.seed.unwrap_or_else(|| fastrand::u64(..));
        let asked = questions(seed, usize::from(self.count), self.scores.scores);
        if self.answers {
            for question in &asked {
                if self.json {
                    let record =
                        serde_json::to_string(&key_record(question)).map_err(io::Error::other)?;
                    writeln!(io.out, "{record}")?;
                } else {
                    writeln!(io.out, "{}", question.key())?;
                }
            }
            return Ok(ExitStatus::Success);
        }
        run_quiz(&asked, seed, io::stdin().is_terminal(), io)
    }
}

fn key_record(question: &Question) -> KeyRecord {
    let answer = match question.answer() {
        Answer::Value(value) => value.into(),
        Answer::Best(best) => best.iter().map(|mv| mv.to_string()).collect(),
        Answer::Calls(calls) => calls.into(),
        Answer::Pruned(paths) => paths
            .iter()
            .map(|path| path.iter().map(|mv| mv.to_string()).collect::<Vec<_>>())
            .collect(),
    };
    KeyRecord {
        board: question.board.to_string(),
        ask: question.ask.name(),
        answer,
    }
}

/// Asks each question, reads an answer a line, says right or wrong and why,
/// and ends with the score. The input ending ends the quiz. On a terminal
/// the answer is typed after a `>` prompt; otherwise it is written back
/// after one, so the transcript reads the same.
pub fn run_quiz(
    asked: &[Question],
    seed: u64,
    terminal: bool,
    io: &mut Streams,
) -> io::Result<ExitStatus> {
    writeln!(
        io.out,
        "The quiz: {} questions about positions from real games (seed {seed}).",
        asked.len()
    )?;
    if let Some(first) = asked.first() {
        let win = first.board.geometry().win_score();
        writeln!(io.out, "Scores: {}.", scoring_legend(first.scoring, win))?;
    }
    let mut right = 0;
    let mut answered = 0;
    'questions: for (number, question) in asked.iter().enumerate() {
        writeln!(io.out)?;
        writeln!(
            io.out,
            "Question {} of {}: {}, {} to move.",
            number + 1,
            asked.len(),
            question.board,
            question.board.to_move()
        )?;
        for row in question.board.to_grid().lines() {
            writeln!(io.out, "  {row}")?;
        }
        writeln!(io.out, "{}", question.prompt())?;
        loop {
            if terminal {
                write!(io.out, "> ")?;
                io.out.flush()?;
            }
            let Some(line) = read_line(io.input)? else {
                if terminal {
                    writeln!(io.out)?;
                }
                break 'questions;
            };
            if !terminal {
                writeln!(io.out, "> {}", line.echo())?;
            }
            match question.check(&line.text) {
                Ok(correct) => {
                    answered += 1;
                    if correct {
                        right += 1;
                        writeln!(io.out, "Right: {}.", question.key())?;
                    } else {
                        writeln!(io.out, "Not quite: the answer is {}.", question.key())?;
                    }
                    writeln!(io.out, "{}", question.explain())?;
                    break;
                }
                Err(problem) => writeln!(io.out, "That is no answer: {problem}. Try again.")?,
            }
        }
    }
    writeln!(io.out)?;
    let unanswered = asked.len() - answered;
    if unanswered > 0 {
        writeln!(
            io.out,
            "{right}/{answered} right ({unanswered} not answered)."
        )?;
    } else {
        writeln!(io.out, "{right}/{answered} right.")?;
    }
    Ok(ExitStatus::Success)
}

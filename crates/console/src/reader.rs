//! The screen-reader mode (`--screen-reader`, and the game's choice when
//! `TERM=dumb`): the game in sentences, a line for each event, nothing drawn
//! and nothing redrawn in place, and no character a speech synthesizer would
//! stumble over (no box drawing, blocks or braille). It takes plain mode's
//! input (a digit, a square such as `b2`, `undo`, `new`, ...) and adds its
//! own commands: `board` reads the rows out, `last` the last move, `scores`
//! every free square's score and what it means, `review` the game so far,
//! `quiz` a few questions about minimax. The session is
//! [`crate`]'s; this is how it is said.

use std::io::{self, Write};

use crate::{Here, Voice};
use tictactoe_engine::{Ai, Board, Player, Square, Status};
use tictactoe_game::action::{Action, Reading};
use tictactoe_game::game::{Game, Seat};
use tictactoe_game::keys::{self, Mode};
use tictactoe_game::present::{move_rows, row_reason};
use tictactoe_game::quiz::{ask_all, questions};
use tictactoe_game::record;
use tictactoe_game::review::{game_text, legend, review};
use tictactoe_game::settings::Settings;

/// How many questions the `quiz` command asks.
pub const QUIZ_QUESTIONS: usize = 5;

/// The screen-reader mode's voice: a session is [`crate::run`] with it.
pub struct Sentences;

impl Voice for Sentences {
    fn mode(&self) -> Mode {
        Mode::Reader
    }

    /// "You play b2." or "O plays a1.", then whose turn it is when a person
    /// is to move, or how the game ended.
    fn moved(&mut self, game: &Game, settings: &Settings, out: &mut dyn Write) -> io::Result<()> {
        if let Some(line) = last_move(game, settings) {
            writeln!(out, "{line}")?;
        }
        let person_next = match game.status() {
            Status::InProgress { to_move } => settings.seats.of(to_move).is_human(),
            _ => true,
        };
        if person_next {
            self.turn(game, settings, out)?;
        }
        Ok(())
    }

    /// Where the game stands: on a board given at the start, the rows read
    /// out first; then whose turn it is.
    fn state(&mut self, game: &Game, settings: &Settings, out: &mut dyn Write) -> io::Result<()> {
        if game.board().move_count() > 0 && game.moves().is_empty() {
            for line in rows(&game.board()) {
                writeln!(out, "{line}")?;
            }
        }
        self.turn(game, settings, out)
    }

    /// "Your turn, X: free squares b1, c1, a2." or how the game ended.
    fn turn(&mut self, game: &Game, settings: &Settings, out: &mut dyn Write) -> io::Result<()> {
        let seats = settings.seats;
        let board = game.board();
        let line = match board.status() {
            Status::InProgress { to_move } => {
                let whose = match seats.of(to_move) {
                    Seat::Human if seats.lone_human().is_some() => {
                        format!("Your turn, {to_move}")
                    }
                    Seat::Human => format!("{to_move} to move"),
                    Seat::Ai(level) => format!("{to_move} to move, the AI ({level})"),
                };
                format!("{whose}: {}.", free_squares(&board))
            }
            _ => crate::ending(game, settings).unwrap_or_default(),
        };
        writeln!(out, "{line}")
    }

    fn own(&mut self, action: Action, here: Here<'_>) -> io::Result<()> {
        let Here {
            game,
            settings,
            input,
            out,
            prompt,
        } = here;
        match action {
            Action::Read(Reading::Board) => {
                for line in rows(&game.board()) {
                    writeln!(out, "{line}")?;
                }
            }
            Action::Read(Reading::Last) => {
                let line = last_move(game, settings)
                    .unwrap_or_else(|| "No move has been played yet.".to_string());
                writeln!(out, "{line}")?;
            }
            Action::Read(Reading::Scores) => {
                for line in scores(&game.board(), settings) {
                    writeln!(out, "{line}")?;
                }
            }
            Action::Review => {
                if game.moves().is_empty() {
                    writeln!(out, "Nothing to review yet: no move has been played.")?;
                } else {
                    let seats = settings.seats;
                    let game_record = record::of_game(game, seats, record::today());
                    let reviews = review(&game_record, settings.limits, &mut Ai::new());
                    let win = game.start().geometry().win_score();
                    for line in legend(win)
                        .iter()
                        .chain(&game_text(1, &game_record, &reviews))
                    {
                        writeln!(out, "{line}")?;
                    }
                }
            }
            Action::ShowRecord => {
                let game_record = record::of_game(game, settings.seats, record::today());
                write!(out, "{game_record}")?;
            }
            Action::Quiz => {
                let seed = settings.seed.unwrap_or_else(|| fastrand::u64(..));
                let asked = questions(seed, QUIZ_QUESTIONS, settings.scoring);
                let leave = keys::words(Mode::Reader, Action::Quit);
                ask_all(
                    &asked,
                    seed,
                    prompt,
                    &|board| rows(board),
                    &leave,
                    input,
                    out,
                )?;
                writeln!(out, "Back to the game.")?;
            }
            _ => return Ok(()),
        }
        self.turn(game, settings, out)
    }
}

/// The last move in a sentence: "You play b2.", "O plays a1.".
fn last_move(game: &Game, settings: &Settings) -> Option<String> {
    let mv = game.last_move()?;
    let mover = game.mover(game.moves().len() - 1);
    let seats = settings.seats;
    Some(if seats.lone_human() == Some(mover) {
        format!("You play {mv}.")
    } else {
        format!("{mover} plays {mv}.")
    })
}

/// The free squares in reading order, or that the board is empty.
fn free_squares(board: &Board) -> String {
    if board.move_count() == 0 {
        return "the board is empty, every square is free".to_string();
    }
    let free: Vec<String> = board
        .empty_cells()
        .iter()
        .map(|mv| mv.to_string())
        .collect();
    format!("free squares {}", free.join(", "))
}

/// The board read out, a sentence per row: "Row 1: a1 X, b1 empty, c1 O."
pub fn rows(board: &Board) -> Vec<String> {
    let size = board.size();
    (0..size)
        .map(|row| {
            let cells: Vec<String> = (0..size)
                .map(|col| {
                    let mv = Square::new(row, col);
                    let mark = match board.get(mv) {
                        Some(Player::X) => "X",
                        Some(Player::O) => "O",
                        None => "empty",
                    };
                    format!("{mv} {mark}")
                })
                .collect();
            format!("Row {}: {}.", row + 1, cells.join(", "))
        })
        .collect()
}

/// Every free square's score for the side to move, a line each, with how
/// it is counted and the best marked: "b1: +10 = 10 - depth 0: X wins on
/// this move. Best."
fn scores(board: &Board, settings: &Settings) -> Vec<String> {
    let Status::InProgress { to_move } = board.status() else {
        return vec!["The game is over: there is no move to score.".to_string()];
    };
    let analysis = Ai::new().analyze(board, settings.limits);
    let win = board.geometry().win_score();
    let scoring = settings.scoring;
    let mut lines = vec![format!(
        "Scores for {to_move}, each the value after the move:"
    )];
    for row in move_rows(&analysis, scoring) {
        let reason = row_reason(&row, to_move, scoring, win);
        let best = if row.best { " Best." } else { "" };
        lines.push(format!("{}: {reason}.{best}", row.mv));
    }
    if let Some(depth) = analysis.depth() {
        lines.push(format!(
            "Scores that say estimate are not proven: the search looked {depth} moves ahead."
        ));
    }
    lines
}

//! The game as plain lines of text, for simple terminals and pipes. After
//! every move: the board as rows of `X`, `O` and `.`, then whose turn it is.
//! One move per line in: a digit 1-9 (3x3) or a square like `b2`, or a
//! command of the key table's plain mode (`undo`, `redo`, `new`, `help`,
//! `quit`). The session is [`crate`]'s; this is how it is shown.

use std::io::{self, Write};

use crate::Voice;
use tictactoe_engine::Status;
use tictactoe_game::game::{Game, Seat};
use tictactoe_game::keys::Mode;
use tictactoe_game::present::your_turn;
use tictactoe_game::settings::Settings;

/// Plain mode's voice: the board as rows after every change. A session
/// is [`crate::run`] with it.
pub struct Grid;

impl Voice for Grid {
    fn mode(&self) -> Mode {
        Mode::Plain
    }

    fn moved(&mut self, game: &Game, settings: &Settings, out: &mut dyn Write) -> io::Result<()> {
        if let Some(mv) = game.last_move() {
            let mover = game.mover(game.moves().len() - 1);
            writeln!(out, "{mover} plays {mv}.")?;
        }
        self.state(game, settings, out)
    }

    /// The board as rows, then whose turn it is or how the game ended.
    fn state(&mut self, game: &Game, settings: &Settings, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out, "{}", game.board().to_grid())?;
        self.turn(game, settings, out)
    }

    /// Whose turn it is or how the game ended: the line that asks for input.
    fn turn(&mut self, game: &Game, settings: &Settings, out: &mut dyn Write) -> io::Result<()> {
        let seats = settings.seats;
        let line = match game.status() {
            Status::InProgress { to_move } => match seats.of(to_move) {
                Seat::Human if seats.lone_human().is_some() => {
                    format!("{}.", your_turn(to_move))
                }
                Seat::Human => format!("{to_move} to move."),
                Seat::Ai(level) => format!("{to_move} to move (AI, {level})."),
            },
            _ => crate::ending(game, settings).unwrap_or_default(),
        };
        writeln!(out, "{line}")
    }
}

//! What a game session is played with, whichever front end plays it, and the
//! title every front end shows.

use std::time::Duration;

use crate::game::Seats;
use tictactoe_engine::{Board, Dice, Limits, Scoring};

/// Everything the command line decides about a session, for any front end.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Who plays X and O.
    pub seats: Seats,
    /// The position every game starts from.
    pub start: Board,
    /// Pause before the AI answers a person, so its move is seen arriving.
    pub ai_delay: Duration,
    /// Pause between moves when the AI plays itself.
    pub watch_delay: Duration,
    /// How long the AI may think on boards bigger than 3x3.
    pub limits: Limits,
    /// Seed for every random choice, for games that replay exactly.
    pub seed: Option<u64>,
    /// How the teaching views count scores (the AI plays the same either way).
    pub scoring: Scoring,
}

/// The pause before the AI answers a person, unless the command line sets one.
pub const DEFAULT_AI_DELAY: Duration = Duration::from_millis(300);

/// The pause between moves when the AI plays itself, unless the command line sets one.
pub const DEFAULT_WATCH_DELAY: Duration = Duration::from_millis(500);

impl Settings {
    /// The random generator for a session: seeded when asked, so games replay.
    pub fn rng(&self) -> fastrand::Rng {
        self.seed
            .map_or_else(fastrand::Rng::new, fastrand::Rng::with_seed)
    }

    /// The AI's dice for a session: seeded when asked, so games replay.
    pub fn dice(&self) -> Dice {
        self.seed.map_or_else(Dice::new, Dice::with_seed)
    }
}

/// "Tic-tac-toe", with the shape when it is not the classic one.
pub fn title(board: Board) -> String {
    if board.is_classic() {
        "Tic-tac-toe".to_string()
    } else {
        format!("Tic-tac-toe {0}x{0}, {1} in a row", board.size(), board.k())
    }
}

//! The flags of the game itself, turned into the screen's settings.

use std::time::Duration;

use clap::{Args, ValueEnum};

use crate::engine::{Board, Level, Limits, Player};
use crate::game::{Seat, Seats};
use crate::tui::app::Settings;

/// A side, as the command line spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Side {
    /// X, who moves first.
    X,
    /// O, who moves second.
    O,
}

impl From<Side> for Player {
    fn from(side: Side) -> Player {
        match side {
            Side::X => Player::X,
            Side::O => Player::O,
        }
    }
}

/// Options of the game (used when no command is given).
#[derive(Debug, Clone, Args)]
pub struct PlayArgs {
    /// The side you play; X moves first.
    #[arg(long, value_enum, default_value_t = Side::X)]
    pub player: Side,
    /// Watch the AI play both sides.
    #[arg(long, conflicts_with = "player")]
    pub watch: bool,
    /// Pause between moves when watching, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 500)]
    pub delay: u64,
    /// Pause before the AI answers your move, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 300)]
    pub ai_delay: u64,
    /// How well the AI plays.
    #[arg(long, value_name = "LEVEL", default_value = "perfect")]
    pub difficulty: Level,
    /// Level of the AI playing X [default: --difficulty].
    #[arg(long, value_name = "LEVEL")]
    pub x_level: Option<Level>,
    /// Level of the AI playing O [default: --difficulty].
    #[arg(long, value_name = "LEVEL")]
    pub o_level: Option<Level>,
    /// Seed for the AI's random choices, to replay the same games.
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
}

impl PlayArgs {
    /// Who sits where.
    pub fn seats(&self) -> Seats {
        let x_ai = Seat::Ai(self.x_level.unwrap_or(self.difficulty));
        let o_ai = Seat::Ai(self.o_level.unwrap_or(self.difficulty));
        if self.watch {
            return Seats { x: x_ai, o: o_ai };
        }
        match Player::from(self.player) {
            Player::X => Seats {
                x: Seat::Human,
                o: o_ai,
            },
            Player::O => Seats {
                x: x_ai,
                o: Seat::Human,
            },
        }
    }

    /// The screen's settings; `color` is false when the user asked for no colour.
    pub fn settings(&self, color: bool) -> Settings {
        Settings {
            seats: self.seats(),
            start: Board::new(),
            ai_delay: Duration::from_millis(self.ai_delay),
            watch_delay: Duration::from_millis(self.delay),
            limits: Limits::Think(Duration::from_millis(1000)),
            seed: self.seed,
            color,
        }
    }
}

/// True unless `NO_COLOR` is set to something (see no-color.org).
pub fn color_wanted() -> bool {
    std::env::var_os("NO_COLOR").is_none_or(|value| value.is_empty())
}

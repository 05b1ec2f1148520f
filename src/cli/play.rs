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
}

impl PlayArgs {
    /// Who sits where.
    pub fn seats(&self) -> Seats {
        let ai = Seat::Ai(Level::Perfect);
        if self.watch {
            return Seats { x: ai, o: ai };
        }
        match Player::from(self.player) {
            Player::X => Seats {
                x: Seat::Human,
                o: ai,
            },
            Player::O => Seats {
                x: ai,
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
            seed: None,
            color,
        }
    }
}

/// True unless `NO_COLOR` is set to something (see no-color.org).
pub fn color_wanted() -> bool {
    std::env::var_os("NO_COLOR").is_none_or(|value| value.is_empty())
}

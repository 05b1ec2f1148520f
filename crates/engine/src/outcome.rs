//! How a game ends: one type for the rules, the prover, the records and
//! every report, and the same ending seen from one side.

use std::fmt;
use std::str::FromStr;

use super::names::UnknownName;
use super::player::Player;

/// How a game ended, or ends with best play from both sides: a side got k
/// in a row first, or neither did. A game still going on has none
/// (`Option<Outcome>`: [`Status::outcome`](crate::Status::outcome)).
///
/// Each goes by a name, as JSON, the certificates and the command line
/// write it: `x-wins`, `o-wins`, `draw` ([`Outcome::name`], `Display`,
/// `FromStr`).
///
/// ```
/// use tictactoe_engine::{Board, Outcome, Player, Standing};
///
/// let won: Board = "xxx/oo./...".parse()?;
/// assert_eq!(won.status().outcome(), Some(Outcome::Win(Player::X)));
/// assert_eq!(Outcome::Win(Player::X).name(), "x-wins");
/// assert_eq!("draw".parse(), Ok(Outcome::Draw));
/// assert_eq!(Outcome::Win(Player::X).standing(Player::O), Standing::Loss);
/// assert_eq!(Board::new().status().outcome(), None);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// This side gets (or got) k in a row first, however the other plays.
    Win(Player),
    /// Neither side gets k in a row.
    Draw,
}

impl Outcome {
    /// Every outcome, in the order of [`Outcome::NAMES`].
    pub const ALL: [Outcome; 3] = [
        Outcome::Win(Player::X),
        Outcome::Win(Player::O),
        Outcome::Draw,
    ];

    /// The names: `x-wins`, `o-wins`, `draw`.
    pub const NAMES: [&'static str; 3] = ["x-wins", "o-wins", "draw"];

    /// The outcome with this winner, or a draw with none.
    pub const fn of_winner(winner: Option<Player>) -> Outcome {
        match winner {
            Some(winner) => Outcome::Win(winner),
            None => Outcome::Draw,
        }
    }

    /// The side that wins; `None` for a draw.
    pub const fn winner(self) -> Option<Player> {
        match self {
            Outcome::Win(winner) => Some(winner),
            Outcome::Draw => None,
        }
    }

    /// Its name: `x-wins`, `o-wins` or `draw`.
    pub const fn name(self) -> &'static str {
        match self {
            Outcome::Win(Player::X) => "x-wins",
            Outcome::Win(Player::O) => "o-wins",
            Outcome::Draw => "draw",
        }
    }

    /// The same ending from `side`'s seat: a win, a loss or a draw for it.
    pub fn standing(self, side: Player) -> Standing {
        match self {
            Outcome::Win(winner) if winner == side => Standing::Win,
            Outcome::Win(_) => Standing::Loss,
            Outcome::Draw => Standing::Draw,
        }
    }
}

/// The name.
impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

/// Reads the name (exactly as [`Outcome::NAMES`] spell it).
impl FromStr for Outcome {
    type Err = UnknownName;

    fn from_str(text: &str) -> Result<Outcome, UnknownName> {
        Outcome::ALL
            .into_iter()
            .find(|outcome| outcome.name() == text)
            .ok_or_else(|| UnknownName::new("result", text, &Outcome::NAMES))
    }
}

crate::names::named! {
    /// An [`Outcome`] from one side's seat ([`Outcome::standing`]): how a
    /// finished game went for a person, as the statistics count it.
    ///
    /// ```
    /// use tictactoe_engine::Standing;
    ///
    /// assert_eq!(Standing::Loss.name(), "loss");
    /// ```
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub enum Standing as "standing" {
        /// The side won.
        Win = "win",
        /// The other side won.
        Loss = "loss",
        /// Nobody won.
        Draw = "draw",
    }
}

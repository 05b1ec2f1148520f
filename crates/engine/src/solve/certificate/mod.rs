//! Certificates: a proof as lines of JSON that a checker knowing only the
//! rules can replay (with the `serde` feature).
//!
//! ```text
//! {"format": "tictactoe-proof", "version": 2, "size": 4, "k": 3, "board": "..../..../..../....", "claim": "x-wins"}
//! {"strategy": "win", "player": "x"}
//! {"board": "..../..../..../....", "move": "b2"}
//! ...
//! ```
//!
//! The [`Header`] names the position and the [`Claim`]; each strategy
//! section is opened by a [`Section`] line naming its goal and player and
//! lists the [`NodeLine`]s: a move where the player is to move, or pairs to
//! answer in from there on. These three types are the format: [`lines`]
//! writes them and [`check`] (or a [`Checker`] fed line by line, or
//! [`check_reader`]) reads them back and replays the strategies.
//!
//! # Versions
//!
//! - **Version 1**: the claims `x-wins`, `o-wins` and `draw`; the nodes of
//!   a section in any order.
//! - **Version 2** (what [`lines`] writes): the same lines, and two claims
//!   more, `x-holds` and `o-holds` (that side keeps the other from k in a
//!   row: a hold strategy for it alone, what a job of a split proof proves
//!   when its attacker does not win). The nodes of a section come in the
//!   order the replay meets their positions: from the header's board,
//!   depth first; where the player is to move, its node, then on from its
//!   move; where the opponent is, a pairs node for the position if there
//!   is one (then nothing below it), else each reply of the opponent in
//!   reading order (left to right, top to bottom), each followed by all
//!   that comes below it; a position met before up to symmetry, or where
//!   the game is over, is passed by. So the checker replays as it reads,
//!   and keeps no node it has used.
//!
//! The checker reads both versions.
//!
//! ```
//! use tictactoe_engine::Board;
//! use tictactoe_engine::solve::{Techniques, Outcome, certificate, solve};
//!
//! let board = Board::empty(4, 3)?;
//! let mut proof = solve(&board, Techniques::all());
//! let strategies = proof.strategies()?;
//! let text: String = certificate::lines(&board, proof.value, &strategies)
//!     .map(|line| line + "\n")
//!     .collect();
//! let verified = certificate::check(&text)?;
//! assert_eq!(verified.board, board);
//! assert_eq!(verified.claim, Outcome::Win(tictactoe_engine::Player::X));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub(crate) mod check;

use serde::{Deserialize, Serialize};

use super::Outcome;
use super::strategy::{Action, Goal, Strategy};
use crate::board::Board;
use crate::player::Player;
use crate::square::Square;

pub use check::{
    CheckError, Checker, MAX_LINE_BYTES, ReadError, Replayed, Verified, check, check_reader,
};

/// The certificate's format name, on its first line.
pub const FORMAT: &str = "tictactoe-proof";

/// The certificate format's version: what [`lines`] writes, and the
/// latest the checker reads (it reads every version from 1).
pub const VERSION: u64 = 2;

/// What a certificate claims about its position.
///
/// ```
/// use tictactoe_engine::Player;
/// use tictactoe_engine::solve::Outcome;
/// use tictactoe_engine::solve::certificate::Claim;
///
/// assert_eq!(Claim::from(Outcome::Draw).name(), "draw");
/// assert_eq!(Claim::Holds(Player::O).to_string(), "o-holds");
/// assert_eq!(Claim::Wins(Player::X), Outcome::Win(Player::X));
/// assert_eq!("o-holds".parse(), Ok(Claim::Holds(Player::O)));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Claim {
    /// This side wins with best play: its win strategy.
    Wins(Player),
    /// A draw with best play: each side's hold strategy.
    Draw,
    /// This side keeps the other from ever completing a line: its hold
    /// strategy alone (the other side does not win; version 2).
    Holds(Player),
}

impl Claim {
    /// Every claim, in the order of [`Claim::name`]'s list: the outcomes
    /// as [`Outcome::ALL`] has them, then the holds.
    pub const ALL: [Claim; 5] = [
        Claim::Wins(Player::X),
        Claim::Wins(Player::O),
        Claim::Draw,
        Claim::Holds(Player::X),
        Claim::Holds(Player::O),
    ];

    /// As the certificate names it: an outcome by its own name (`x-wins`,
    /// `o-wins`, `draw`), a hold as `x-holds` or `o-holds`.
    pub fn name(self) -> &'static str {
        match self {
            Claim::Holds(Player::X) => "x-holds",
            Claim::Holds(Player::O) => "o-holds",
            Claim::Wins(player) => Outcome::Win(player).name(),
            Claim::Draw => Outcome::Draw.name(),
        }
    }

    /// The value of the position, where the claim is one.
    pub fn value(self) -> Option<Outcome> {
        match self {
            Claim::Wins(player) => Some(Outcome::Win(player)),
            Claim::Draw => Some(Outcome::Draw),
            Claim::Holds(_) => None,
        }
    }
}

impl From<Outcome> for Claim {
    fn from(value: Outcome) -> Claim {
        match value {
            Outcome::Win(player) => Claim::Wins(player),
            Outcome::Draw => Claim::Draw,
        }
    }
}

impl PartialEq<Outcome> for Claim {
    fn eq(&self, value: &Outcome) -> bool {
        self.value() == Some(*value)
    }
}

/// Its name, as [`Claim::name`] gives it.
impl std::fmt::Display for Claim {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no [`Claim`]'s.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a claim: use x-wins, o-wins, draw, x-holds or o-holds")]
pub struct UnknownClaim(pub String);

impl std::str::FromStr for Claim {
    type Err = UnknownClaim;

    fn from_str(name: &str) -> Result<Claim, UnknownClaim> {
        Claim::ALL
            .into_iter()
            .find(|claim| claim.name() == name)
            .ok_or_else(|| UnknownClaim(crate::echo(name).into_owned()))
    }
}

impl Serialize for Claim {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Claim {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Claim, D::Error> {
        let name = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

/// The first line: the position and what is claimed about it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header {
    /// [`FORMAT`].
    pub format: String,
    /// [`VERSION`].
    pub version: u64,
    /// Side of the board.
    pub size: u8,
    /// Marks in a row that win.
    pub k: u8,
    /// The position, in the notation (read with `k`).
    pub board: String,
    /// What is claimed: who wins with best play, a draw, or a hold.
    pub claim: Claim,
}

/// The line that opens a strategy section.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Section {
    /// What the strategy achieves.
    pub strategy: Goal,
    /// Whose strategy it is.
    pub player: Player,
}

/// One position of a strategy and what its player does there: a move, or
/// pairs of squares to answer in from there on (exactly one of the two).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NodeLine {
    /// The position, in the notation (read with the header's `k`).
    pub board: String,
    /// The move, where the player is to move.
    #[serde(rename = "move", default, skip_serializing_if = "Option::is_none")]
    pub mv: Option<Square>,
    /// The pairs: the player answers a move on one square of a pair on the other.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pairs: Option<Vec<[Square; 2]>>,
}

/// The lines of the certificate that `strategies` prove `value` on `board`
/// (no line ends in a newline), as read from a [`Proof`](crate::solve::Proof).
pub fn lines<'a>(
    board: &Board,
    value: Outcome,
    strategies: &'a [Strategy],
) -> impl Iterator<Item = String> + 'a {
    claim_lines(board, Claim::from(value), strategies)
}

/// The lines of the certificate that `strategies` prove `claim` on `board`
/// (no line ends in a newline): a value's strategies, or one hold.
pub fn claim_lines<'a>(
    board: &Board,
    claim: Claim,
    strategies: &'a [Strategy],
) -> impl Iterator<Item = String> + 'a {
    let header = Header {
        format: FORMAT.to_string(),
        version: VERSION,
        size: board.size(),
        k: board.k(),
        board: board.to_string(),
        claim,
    };
    std::iter::once(json(&header)).chain(strategies.iter().flat_map(|strategy| {
        let opening = Section {
            strategy: strategy.goal,
            player: strategy.player,
        };
        std::iter::once(json(&opening)).chain(strategy.nodes.iter().map(|node| {
            let (mv, pairs) = match &node.action {
                Action::Square(mv) => (Some(*mv), None),
                Action::Pairs(pairs) => (None, Some(pairs.iter().map(|&(a, b)| [a, b]).collect())),
            };
            json(&NodeLine {
                board: node.board.to_string(),
                mv,
                pairs,
            })
        }))
    }))
}

/// One line of JSON, spaced for people as every certificate has been:
/// `{"a": 1, "b": ["c", "d"]}`.
fn json<T: Serialize>(line: &T) -> String {
    let compact = serde_json::to_string(line).expect("the certificate's types always serialize");
    let mut spaced = String::with_capacity(compact.len() + compact.len() / 4);
    let (mut in_string, mut escaped) = (false, false);
    for ch in compact.chars() {
        spaced.push(ch);
        if in_string {
            in_string = escaped || ch != '"';
            escaped = !escaped && ch == '\\';
        } else if ch == '"' {
            in_string = true;
        } else if ch == ':' || ch == ',' {
            spaced.push(' ');
        }
    }
    spaced
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_spaced_outside_strings_only() {
        let node = NodeLine {
            board: "x,\"o:\\\"/...".to_string(),
            mv: Some(Square::new(0, 1)),
            pairs: None,
        };
        let line = json(&node);
        assert_eq!(line, r#"{"board": "x,\"o:\\\"/...", "move": "b1"}"#);
        assert_eq!(serde_json::from_str::<NodeLine>(&line).unwrap(), node);
        let pairs = NodeLine {
            board: ".../.../...".to_string(),
            mv: None,
            pairs: Some(vec![[Square::new(0, 0), Square::new(0, 1)]]),
        };
        assert_eq!(
            json(&pairs),
            r#"{"board": ".../.../...", "pairs": [["a1", "b1"]]}"#
        );
    }
}

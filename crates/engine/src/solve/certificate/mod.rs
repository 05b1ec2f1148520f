//! Certificates: a proof as lines of JSON that a checker knowing only the
//! rules can replay (with the `serde` feature).
//!
//! ```text
//! {"format": "tictactoe-proof", "version": 1, "size": 4, "k": 3, "board": "..../..../..../....", "claim": "x-wins"}
//! {"strategy": "win", "player": "x"}
//! {"board": "..../..../..../....", "move": "b2"}
//! ...
//! ```
//!
//! The [`Header`] names the position and the claim; each strategy section
//! is opened by a [`Section`] line naming its goal and player and lists the
//! [`NodeLine`]s: a move where the player is to move, or pairs to answer in
//! from there on. These three types are the format: [`lines`] writes them
//! and [`check`] (or a [`Checker`] fed line by line) reads them back and
//! replays the strategies.
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
//! assert_eq!((verified.board, verified.claim), (board, Outcome::Win(tictactoe_engine::Player::X)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod check;

use serde::{Deserialize, Serialize};

use super::Outcome;
use super::strategy::{Action, Goal, Strategy};
use crate::board::Board;
use crate::player::Player;
use crate::square::Square;

pub use check::{CheckError, Checker, Replayed, Verified, check};

/// The certificate's format name, on its first line.
pub const FORMAT: &str = "tictactoe-proof";

/// The certificate format's version.
pub const VERSION: u64 = 1;

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
    /// Who wins with best play, or a draw.
    pub claim: Outcome,
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
/// (no line ends in a newline).
pub fn lines<'a>(
    board: &Board,
    value: Outcome,
    strategies: &'a [Strategy],
) -> impl Iterator<Item = String> + 'a {
    let header = Header {
        format: FORMAT.to_string(),
        version: VERSION,
        size: board.size(),
        k: board.k(),
        board: board.to_string(),
        claim: value,
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

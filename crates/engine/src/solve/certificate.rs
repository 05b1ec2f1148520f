//! Certificates: a proof as lines of JSON that a checker knowing only the
//! rules can replay.
//!
//! ```text
//! {"format": "tictactoe-proof", "version": 1, "size": 4, "k": 3, "board": "..../..../..../....", "claim": "x-wins"}
//! {"strategy": "win", "player": "x"}
//! {"board": "..../..../..../....", "move": "b2"}
//! ...
//! ```
//!
//! The header names the position and the claim; each strategy section is
//! opened by a line naming its goal and player and lists the nodes: a move
//! where the player is to move, or pairs to answer in from there on.

use super::Value;
use super::strategy::{Action, Strategy};
use crate::board::Board;

/// The certificate's format name, on its first line.
pub const FORMAT: &str = "tictactoe-proof";

/// The certificate format's version.
pub const VERSION: u32 = 1;

/// The lines of the certificate that `strategies` prove `value` on `board`
/// (no line ends in a newline).
pub fn certificate<'a>(
    board: &Board,
    value: Value,
    strategies: &'a [Strategy],
) -> impl Iterator<Item = String> + 'a {
    let header = format!(
        r#"{{"format": "{FORMAT}", "version": {VERSION}, "size": {}, "k": {}, "board": "{board}", "claim": "{}"}}"#,
        board.size(),
        board.k(),
        value.name()
    );
    std::iter::once(header).chain(strategies.iter().flat_map(|strategy| {
        let opening = format!(
            r#"{{"strategy": "{}", "player": "{}"}}"#,
            strategy.goal.name(),
            strategy.player.notation()
        );
        std::iter::once(opening).chain(strategy.nodes.iter().map(|node| match &node.action {
            Action::Square(mv) => format!(r#"{{"board": "{}", "move": "{mv}"}}"#, node.board),
            Action::Pairs(pairs) => {
                let pairs: Vec<String> = pairs
                    .iter()
                    .map(|(a, b)| format!(r#"["{a}", "{b}"]"#))
                    .collect();
                format!(
                    r#"{{"board": "{}", "pairs": [{}]}}"#,
                    node.board,
                    pairs.join(", ")
                )
            }
        }))
    }))
}

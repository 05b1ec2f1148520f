//! The engine's facts in the words every front end uses: results, verdicts,
//! lines of moves, bounds, and how a score is counted. The engine hands out
//! data; the sentences are written here once, and the command line, the
//! screens, plain mode and the screen reader render through them.
//!
//! - this module: results, verdicts, lines of moves, bounds and cuts;
//! - [`score`]: how scores are counted (the legends), what a score means,
//!   and every move of a position as each view lists it ([`MoveRow`]);
//! - [`teach`]: the minimax tree's and the trace's words, with
//!   alpha-beta's windows and cuts;
//! - [`versus`]: how a game between people ended.

pub mod score;
pub mod teach;
pub mod versus;

pub use score::{
    MoveRow, PROVEN_LEGEND, move_rows, row_reason, score_reason, scoring_legend, tree_legend,
    tree_legend_short, unproven_words,
};

use crate::text::signed;
use tictactoe_engine::solve::certificate::Claim;
use tictactoe_engine::solve::{Keep, Settled};
use tictactoe_engine::teach::reference::{Bound, Window};
use tictactoe_engine::teach::trace::Call;
use tictactoe_engine::{Analysis, Board, Outcome, Outlook, Player, Role, Square, Status};

/// `text` with its first letter in upper case, to begin a sentence.
pub fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// Whose turn it is, told to the one person playing: "Your turn: you are X".
/// The game, plain mode and a game over SSH say it so.
pub fn your_turn(you: Player) -> String {
    format!("Your turn: you are {you}")
}

/// How a finished position ended, as a fact: "X won", "draw"; `None` while
/// the game goes on. Every view that says how a game ended says it so, or
/// from a person's side with [`result_line`].
pub fn ended(status: Status) -> Option<String> {
    match status {
        Status::InProgress { .. } => None,
        Status::Won(winner) => Some(format!("{winner} won")),
        Status::Draw => Some("draw".to_string()),
    }
}

/// A finished game's result in words, from `person`'s side when the screen
/// belongs to one: "X wins: you win!", "O wins: you lose"; otherwise "X
/// wins" or "Draw". `None` while the game goes on.
pub fn result_line(status: Status, person: Option<Player>) -> Option<String> {
    let won = |winner: Player| match person {
        Some(person) if person == winner => format!("{winner} wins: you win!"),
        Some(_) => format!("{winner} wins: you lose"),
        None => format!("{winner} wins"),
    };
    match status {
        Status::InProgress { .. } => None,
        Status::Draw => Some("Draw".to_string()),
        Status::Won(winner) => Some(won(winner)),
    }
}

/// The result when `mover` plays a move with this outlook: "X wins in 2"
/// (in the winner's moves, the mover's counting this one), "X wins" where
/// only the result is proven, "draw", "estimate".
pub fn result_for(outlook: Outlook, mover: Player) -> String {
    match (outlook.winner(mover), outlook.moves()) {
        (Some(winner), Some(moves)) => format!("{winner} wins in {moves}"),
        (Some(winner), None) => format!("{winner} wins"),
        _ if outlook == Outlook::Draw => "draw".to_string(),
        _ => "estimate".to_string(),
    }
}

/// The result of a position in words: "X wins in 2", "draw with best play",
/// "O won", "draw: the board is full", what the prover proved ("proven
/// draw", "X wins with best play (proven)") when the search did not get to
/// the end, or an estimate.
pub fn verdict(analysis: &Analysis) -> String {
    match analysis.status() {
        Status::Won(_) => ended(analysis.status()).unwrap_or_default(),
        Status::Draw => "draw: the board is full".to_string(),
        // The position's result where it is proven, in the best move's
        // words where its score is exact.
        Status::InProgress { to_move } => match (analysis.result(), analysis.outlook()) {
            (Some(Outcome::Draw), _) => "draw with best play".to_string(),
            (Some(_), Some(outlook @ (Outlook::Win { .. } | Outlook::Loss { .. }))) => {
                result_for(outlook, to_move)
            }
            (Some(value), _) => proven_value(value),
            (None, _) => format!(
                "not proven: estimated {:+} for {to_move}",
                analysis.value().unwrap_or(0)
            ),
        },
    }
}

/// An outcome in words: "X wins", "draw".
pub fn outcome_words(outcome: Outcome) -> String {
    match outcome {
        Outcome::Win(winner) => format!("{winner} wins"),
        Outcome::Draw => "draw".to_string(),
    }
}

/// What a certificate claims, in words: "X wins", "draw", "O holds" (O
/// keeps X from winning, the half of a draw a job's certificate proves).
pub fn claim_words(claim: Claim) -> String {
    match (claim.value(), claim) {
        (Some(outcome), _) => outcome_words(outcome),
        (None, Claim::Holds(player)) => format!("{player} holds"),
        (None, _) => unreachable!("every other claim is an outcome"),
    }
}

/// A recorded game's result in words: "X won", "a draw", or "unfinished"
/// where it did not end (the notation's `*`).
pub fn recorded_result(result: Option<Outcome>) -> String {
    match result {
        Some(Outcome::Win(winner)) => format!("{winner} won"),
        Some(Outcome::Draw) => "a draw".to_string(),
        None => "unfinished".to_string(),
    }
}

/// A value the prover proved: "proven draw", "X wins with best play (proven)".
pub fn proven_value(value: Outcome) -> String {
    match value {
        Outcome::Win(winner) => format!("{winner} wins with best play (proven)"),
        Outcome::Draw => "proven draw".to_string(),
    }
}

/// What the prover settled about the analysed position, in
/// [`settled_words`]: the proven value, and the move the proof keeps where
/// some score is an estimate (where [`Analysis::best_by`] takes that move,
/// unless the search proved a win). With every score proven the best move
/// is the first best in reading order, and the proof's own move, one of
/// the best, goes unnamed rather than beside it.
pub fn proof_words(analysis: &Analysis) -> Option<String> {
    let settled = analysis.settled.as_ref()?;
    let to_move = analysis.board.to_move();
    if analysis.exact() {
        let value = Settled {
            keep: None,
            ..settled.clone()
        };
        return settled_words(&value, to_move);
    }
    settled_words(settled, to_move)
}

/// What the prover settled about a position, for the explain panel and
/// `analyze`: "Proven draw: c3 keeps it", "X wins with best play (proven):
/// b2 keeps the win", "O does not lose with d4 (proven)"; `None` when it
/// settled nothing.
pub fn settled_words(settled: &Settled, to_move: Player) -> Option<String> {
    let keeps = match settled.keep {
        Some(Keep::Win(mv)) => Some(format!("{mv} keeps the win")),
        Some(Keep::Hold(mv)) if settled.value.is_some() => Some(format!("{mv} keeps it")),
        Some(Keep::Hold(mv)) => return Some(format!("{to_move} does not lose with {mv} (proven)")),
        None => None,
    };
    let value = capitalised(&proven_value(settled.value?));
    Some(match keeps {
        Some(keeps) => format!("{value}: {keeps}"),
        None => value,
    })
}

/// The moves in move-list notation, each with the side that plays it, from
/// `board` on: `"b2 X, a1 O, c3 X"`.
pub fn move_list(board: &Board, moves: impl IntoIterator<Item = Square>) -> String {
    let mut mover = board.to_move();
    let mut parts = Vec::new();
    for mv in moves {
        parts.push(format!("{mv} {mover}"));
        mover = mover.other();
    }
    parts.join(", ")
}

/// A score returned by alpha-beta as what it says: `+7`, or `<= +7` when
/// it is only an upper bound, `>= +9` when only a lower one.
pub fn bounded(score: i32, bound: Bound) -> String {
    match bound {
        Bound::Exact => signed(score),
        Bound::Upper => format!("<= {}", signed(score)),
        Bound::Lower => format!(">= {}", signed(score)),
    }
}

/// Why alpha-beta stops searching a call's replies, in the textbooks'
/// words: "+8 <= alpha +10: X has better elsewhere", or for a tie "0 <=
/// alpha 0: X can do no better here than elsewhere". `window` is the one
/// the call was entered with; the side named is the one choosing above,
/// which already has that much elsewhere.
pub fn cut_reason(call: &Call, score: i32, window: Window) -> String {
    let (reached, bound) = if call.role.is_max() {
        (">= beta", window.beta)
    } else {
        ("<= alpha", window.alpha)
    };
    let chooser = call.board.to_move().other();
    let why = if bound == Some(score) {
        format!("{chooser} can do no better here than elsewhere")
    } else {
        format!("{chooser} has better elsewhere")
    };
    let bound = bound.map_or_else(|| "?".to_string(), signed);
    format!("{} {reached} {bound}: {why}", signed(score))
}

/// A role, short, for tables and trees: `max`, `min`.
pub const fn role_name(role: Role) -> &'static str {
    match role {
        Role::Max => "max",
        Role::Min => "min",
    }
}

/// What a side in this role does: `maximizes`, `minimizes`.
pub const fn role_does(role: Role) -> &'static str {
    match role {
        Role::Max => "maximizes",
        Role::Min => "minimizes",
    }
}

/// What a position in this role takes of its moves' values: `maximum`, `minimum`.
pub const fn role_takes(role: Role) -> &'static str {
    match role {
        Role::Max => "maximum",
        Role::Min => "minimum",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_the_prover_settled_in_words() {
        let mv = |text: &str| text.parse::<Square>().unwrap();
        let settled = |value, keep| Settled {
            value,
            keep,
            ..Settled::default()
        };
        assert_eq!(
            settled_words(
                &settled(Some(Outcome::Draw), Some(Keep::Hold(mv("b2")))),
                Player::O
            ),
            Some("Proven draw: b2 keeps it".to_string())
        );
        assert_eq!(
            settled_words(
                &settled(Some(Outcome::Win(Player::X)), Some(Keep::Win(mv("d4")))),
                Player::X
            ),
            Some("X wins with best play (proven): d4 keeps the win".to_string())
        );
        assert_eq!(
            settled_words(&settled(None, Some(Keep::Hold(mv("c3")))), Player::O),
            Some("O does not lose with c3 (proven)".to_string())
        );
        assert_eq!(
            settled_words(&settled(Some(Outcome::Win(Player::X)), None), Player::O),
            Some("X wins with best play (proven)".to_string())
        );
        assert_eq!(settled_words(&settled(None, None), Player::X), None);
    }

    #[test]
    fn results_and_bounds_in_words() {
        assert_eq!(
            result_for(Outlook::Win { moves: 2 }, Player::X),
            "X wins in 2"
        );
        assert_eq!(
            result_for(Outlook::Loss { moves: 1 }, Player::X),
            "O wins in 1"
        );
        assert_eq!(bounded(7, Bound::Upper), "<= +7");
        assert_eq!(bounded(0, Bound::Exact), "0");
        let moves = [Square::new(1, 1), Square::new(0, 0), Square::new(2, 2)];
        assert_eq!(move_list(&Board::new(), moves), "b2 X, a1 O, c3 X");
    }
}

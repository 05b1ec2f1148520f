//! The engine's facts in the words every front end uses: results, verdicts,
//! lines of moves, bounds, and how a score is counted. The engine hands out
//! data; the sentences are written here once.

use crate::text::signed;
use tictactoe_engine::solve::{Keep, Settled, Value};
use tictactoe_engine::teach::reference::{Bound, Window};
use tictactoe_engine::teach::trace::Call;
use tictactoe_engine::teach::tree::Branch;
use tictactoe_engine::{Analysis, Board, Outlook, Player, Role, Scoring, Square, Status};

/// The result when `mover` plays a move with this outlook: "X wins in 2"
/// (in the winner's moves, the mover's counting this one), "draw", "estimate".
pub fn result_for(outlook: Outlook, mover: Player) -> String {
    match (outlook.winner(mover), outlook.moves()) {
        (Some(winner), Some(moves)) => format!("{winner} wins in {moves}"),
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
        Status::Won(winner) => format!("{winner} won"),
        Status::Draw => "draw: the board is full".to_string(),
        Status::InProgress { to_move } => match analysis.outlook() {
            Some(Outlook::Draw) => "draw with best play".to_string(),
            Some(outlook @ (Outlook::Win { .. } | Outlook::Loss { .. })) => {
                result_for(outlook, to_move)
            }
            _ => match analysis.settled.as_ref().and_then(|settled| settled.value) {
                Some(value) => proven_value(value),
                None => format!(
                    "not proven: estimated {:+} for {to_move}",
                    analysis.value().unwrap_or(0)
                ),
            },
        },
    }
}

/// A value the prover proved: "proven draw", "X wins with best play (proven)".
pub fn proven_value(value: Value) -> String {
    match value {
        Value::Win(winner) => format!("{winner} wins with best play (proven)"),
        Value::Draw => "proven draw".to_string(),
    }
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
    let value = proven_value(settled.value?);
    let mut first = value.chars();
    let value = first
        .next()
        .map(|c| c.to_uppercase().chain(first).collect::<String>())
        .unwrap_or_default();
    Some(match keeps {
        Some(keeps) => format!("{value}: {keeps}"),
        None => value,
    })
}

/// The result with best play at a node of the minimax tree whose position
/// `analysis` scored: "X wins in 1", or how the game ended ("X won", "draw").
pub fn node_result(analysis: &Analysis) -> String {
    match (analysis.status(), analysis.outlook()) {
        (Status::InProgress { to_move }, Some(outlook)) => result_for(outlook, to_move),
        (status, _) => status.to_string(),
    }
}

/// The result with best play at the node a branch leads to: "O wins in 1"
/// (whoever moves there), or how the move ended the game ("X won", "draw").
pub fn branch_result(branch: &Branch) -> String {
    match branch.board.status() {
        Status::InProgress { to_move } => result_for(branch.outlook, to_move.other()),
        ended => ended.to_string(),
    }
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
/// words: "+7 <= alpha +9: X has better elsewhere". `window` is the one the
/// call was entered with; the side that already has better elsewhere is the
/// one choosing above.
pub fn cut_reason(call: &Call, score: i32, window: Window) -> String {
    let (reached, bound) = if call.role.is_max() {
        (">= beta", window.beta)
    } else {
        ("<= alpha", window.alpha)
    };
    let bound = bound.map_or_else(|| "?".to_string(), signed);
    format!(
        "{} {reached} {bound}: {} has better elsewhere",
        signed(score),
        call.board.to_move().other()
    )
}

/// How scores are counted, in one line for a legend.
pub fn scoring_legend(scoring: Scoring, win: i32) -> String {
    match scoring {
        Scoring::Depth => {
            format!("a win at depth d scores {win} - d, a loss -({win} - d), a draw 0")
        }
        Scoring::Plain => format!(
            "a win scores +{win}, a loss -{win}, a draw 0, however deep (the articles' bare scores)"
        ),
    }
}

/// How one move's score is counted, for the move's mover: "+9 = 10 - depth
/// 1: X wins on this move", "-8 = -(10 - depth 2): O wins on its reply",
/// "0: a draw", "+10: X wins", or "estimate" when not proven.
pub fn score_reason(
    score: i32,
    outlook: Outlook,
    mover: Player,
    scoring: Scoring,
    win: i32,
) -> String {
    let shown = signed(score);
    let (Some(winner), Some(moves)) = (outlook.winner(mover), outlook.moves()) else {
        return match outlook {
            Outlook::Draw => format!("{shown}: a draw with best play"),
            _ => format!("{shown}: an estimate, not proven"),
        };
    };
    // The mover plays at depths 1, 3, 5, …, the other side at 2, 4, ….
    let depth = if winner == mover {
        2 * moves - 1
    } else {
        2 * moves
    };
    let when = match (winner == mover, moves) {
        (true, 1) => format!("{winner} wins on this move"),
        (false, 1) => format!("{winner} wins on the reply"),
        _ => format!("{winner} wins at depth {depth}"),
    };
    match scoring {
        Scoring::Depth if winner == mover => format!("{shown} = {win} - depth {depth}: {when}"),
        Scoring::Depth => format!("{shown} = -({win} - depth {depth}): {when}"),
        Scoring::Plain => format!("{shown}: {when}"),
    }
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
            moves: Vec::new(),
        };
        assert_eq!(
            settled_words(
                &settled(Some(Value::Draw), Some(Keep::Hold(mv("b2")))),
                Player::O
            ),
            Some("Proven draw: b2 keeps it".to_string())
        );
        assert_eq!(
            settled_words(
                &settled(Some(Value::Win(Player::X)), Some(Keep::Win(mv("d4")))),
                Player::X
            ),
            Some("X wins with best play (proven): d4 keeps the win".to_string())
        );
        assert_eq!(
            settled_words(&settled(None, Some(Keep::Hold(mv("c3")))), Player::O),
            Some("O does not lose with c3 (proven)".to_string())
        );
        assert_eq!(
            settled_words(&settled(Some(Value::Win(Player::X)), None), Player::O),
            Some("X wins with best play (proven)".to_string())
        );
        assert_eq!(settled_words(&settled(None, None), Player::X), None);
    }

    #[test]
    fn a_score_says_how_it_is_counted() {
        let win = Outlook::Win { moves: 1 };
        let loss = Outlook::Loss { moves: 1 };
        assert_eq!(
            score_reason(9, win, Player::X, Scoring::Depth, 10),
            "+9 = 10 - depth 1: X wins on this move"
        );
        assert_eq!(
            score_reason(-8, loss, Player::X, Scoring::Depth, 10),
            "-8 = -(10 - depth 2): O wins on the reply"
        );
        assert_eq!(
            score_reason(10, win, Player::X, Scoring::Plain, 10),
            "+10: X wins on this move"
        );
        assert_eq!(
            score_reason(0, Outlook::Draw, Player::O, Scoring::Depth, 10),
            "0: a draw with best play"
        );
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

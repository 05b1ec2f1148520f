//! The teaching views' words: the minimax tree ([`Tree`]) and the trace's
//! calls, with alpha-beta's windows and cuts, as `tictactoe tree`,
//! `tictactoe trace`, the game's tree view and its walkthrough say them.

use super::{ended, result_for, role_name};
use crate::text::{count, signed};
use tictactoe_engine::teach::reference::Window;
use tictactoe_engine::teach::trace::Call;
use tictactoe_engine::teach::tree::{Node, Tree};
use tictactoe_engine::{CellSet, Player, Square, Status};

/// A move with the side that plays it: `b1 X`.
pub fn played(mv: Square, by: Player) -> String {
    format!("{mv} {by}")
}

/// Moves the same side might play, each with the side: `b2 O, c1 O`.
pub fn played_each(moves: CellSet, by: Player) -> String {
    let moves: Vec<String> = moves.iter().map(|mv| played(mv, by)).collect();
    moves.join(", ")
}

/// The move that led to a call or a node, with who played it: `b1 X`;
/// empty for call 1 and the root.
pub fn move_into(mv: Option<Square>, position: &tictactoe_engine::Board) -> String {
    mv.map_or(String::new(), |mv| played(mv, position.to_move().other()))
}

/// The move that led to a call: `b1 X`; empty for call 1.
pub fn call_move(call: &Call) -> String {
    move_into(call.mv, &call.board)
}

/// Whose turn it is at a call and its role: `X max`.
pub fn turn(call: &Call) -> String {
    format!("{} {}", call.board.to_move(), role_name(call.role))
}

/// A bound of alpha-beta's window: `+10`, or `-inf` (alpha) and `+inf`
/// (beta) while it has none.
pub fn window_bound(bound: Option<i32>, upper: bool) -> String {
    let none = if upper { "+inf" } else { "-inf" };
    bound.map_or_else(|| none.to_string(), signed)
}

/// A call's window: `alpha +10 · beta +inf`.
pub fn window(window: Window) -> String {
    format!(
        "alpha {} · beta {}",
        window_bound(window.alpha, false),
        window_bound(window.beta, true)
    )
}

/// The replies a call did not search, with the side that would have
/// played them: `b2 O, c1 O`.
pub fn cut_moves(call: &Call, cut: CellSet) -> String {
    played_each(cut, call.board.to_move())
}

/// A node's value as the tree writes it: `+10`, or `+3?` for an estimate;
/// `None` until known.
pub fn tree_value(node: &Node) -> Option<String> {
    let estimate = if node.exact { "" } else { "?" };
    node.value
        .map(|value| format!("{}{estimate}", signed(value)))
}

/// The result with best play at a node: "X wins in 1", "draw", or how the
/// game ended there ("X won").
pub fn tree_result(node: &Node) -> String {
    match node.board.status() {
        Status::InProgress { .. } => node
            .outlook
            .map(|(outlook, side)| result_for(outlook, side))
            .unwrap_or_default(),
        status => ended(status).unwrap_or_default(),
    }
}

/// The side that chooses a node's move: the one that plays it.
pub fn chooser(node: &Node) -> Player {
    node.board.to_move().other()
}

/// The mark of a move the side above would choose: `◀ X's choice`.
pub fn choice(node: &Node) -> String {
    format!("◀ {}'s choice", chooser(node))
}

/// What a node's replies left out say: `2 replies`.
pub fn replies(count_of: usize) -> String {
    count(count_of as u64, "reply", "replies")
}

/// A node's place in the tree: the move that led to it, `b2 X` (empty at
/// the root).
pub fn node_move(node: &Node) -> String {
    move_into(node.mv, &node.board)
}

/// The side to move at a node and what it does there: `O to move: min`.
pub fn node_turn(tree: &Tree, node: &Node) -> Option<String> {
    match node.board.status() {
        Status::InProgress { to_move } => {
            Some(format!("{to_move} to move: {}", role_name(tree.role(node))))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tictactoe_engine::teach::tree::below;
    use tictactoe_engine::{Board, Limits, Scoring, analyze};

    #[test]
    fn the_trees_words() {
        let board: Board = "o.x/x.x/.oo".parse().unwrap();
        let mut tree = Tree::new(board, Scoring::Depth);
        let analysis = analyze(&board, Limits::ToTheEnd);
        tree.fill(0, &analysis, &below(&analysis));
        assert_eq!(tree_result(tree.root()), "X wins in 1");
        let b2 = tree.node(tree.children(0).unwrap()[1]);
        assert_eq!(node_move(b2), "b2 X");
        assert_eq!(tree_value(b2).as_deref(), Some("+10"));
        assert_eq!(tree_result(b2), "X won");
        assert_eq!(choice(b2), "◀ X's choice");
        assert_eq!(window(Window::OPEN), "alpha -inf · beta +inf");
        assert_eq!(replies(1), "1 reply");
    }
}

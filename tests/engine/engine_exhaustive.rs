//! Exhaustive checks over every reachable 3×3 position.

use std::collections::HashSet;

use tictactoe_engine::teach::reference::{self, Algorithm, BestMove, Window};
use tictactoe_engine::{
    Board, Geometry, Limits, Method, Outlook, Player, Scoring, analyze, analyze_by_search,
    find_best_move, reachable_positions,
};

fn unfinished() -> impl Iterator<Item = Board> {
    reachable_positions()
        .into_iter()
        .filter(|board| !board.status().is_over())
}

#[test]
fn there_are_5478_reachable_positions_and_4520_unfinished() {
    let all = reachable_positions();
    assert_eq!(all.len(), 5478);
    assert_eq!(all.iter().collect::<HashSet<_>>().len(), 5478, "no repeats");
    assert_eq!(unfinished().count(), 4520);
    // Breadth first: by number of marks, the empty board first.
    assert_eq!(all[0], Board::new());
    assert!(
        all.windows(2)
            .all(|w| w[0].move_count() <= w[1].move_count())
    );
}

#[test]
fn validation_accepts_exactly_the_reachable_positions() {
    let reachable: HashSet<Board> = reachable_positions().into_iter().collect();
    let geometry = Geometry::classic();
    let mut valid = 0;
    for code in 0..3u32.pow(9) {
        let (mut x, mut o, mut rest) = (0u64, 0u64, code);
        for cell in 0..9 {
            match rest % 3 {
                1 => x |= 1 << cell,
                2 => o |= 1 << cell,
                _ => {}
            }
            rest /= 3;
        }
        if let Ok(board) = Board::from_bits(geometry, x, o) {
            valid += 1;
            assert!(
                reachable.contains(&board),
                "{board} validates but is unreachable"
            );
        }
    }
    assert_eq!(valid, reachable.len());
}

#[test]
fn the_table_the_search_and_the_reference_agree_everywhere() {
    let mut checked = 0;
    for board in unfinished() {
        let expected = reference::move_values(&board, Algorithm::Minimax, Scoring::Depth).moves;

        let from_table = analyze(&board, Limits::ToTheEnd);
        assert_eq!(from_table.method, Method::Table, "{board}");
        let listed: Vec<_> = from_table.moves.iter().map(|m| (m.mv, m.score)).collect();
        assert_eq!(listed, expected, "the table, {board}");
        assert!(from_table.exact());

        let searched = analyze_by_search(&board, Limits::ToTheEnd);
        assert!(
            matches!(searched.method, Method::Search { nodes, depth: None } if nodes > 0),
            "{board}: {:?}",
            searched.method
        );
        assert_eq!(searched.moves, from_table.moves, "the search, {board}");

        // Every score reads as what it is: a win, a loss or a draw.
        for scored in &from_table.moves {
            let outlook = from_table.outlook_of(*scored);
            let agrees = match outlook {
                Outlook::Win { .. } => scored.score > 0,
                Outlook::Loss { .. } => scored.score < 0,
                Outlook::Draw => scored.score == 0,
                // 3x3 is proven by the table: no result without its length.
                Outlook::ProvenWin | Outlook::ProvenLoss | Outlook::Estimate => false,
            };
            assert!(
                agrees,
                "{board}: {} scores {} but reads {outlook}",
                scored.mv, scored.score
            );
        }

        let BestMove { mv, value, .. } =
            reference::best_move(&board, Algorithm::Minimax, Scoring::Depth)
                .expect("game in progress");
        assert_eq!(find_best_move(&board), Some(mv), "{board}");
        assert_eq!(
            from_table.best().map(|b| (b.mv, b.score)),
            Some((mv, value)),
            "{board}"
        );
        checked += 1;
    }
    assert_eq!(checked, 4520);
}

#[test]
fn alpha_beta_alone_gives_the_plain_minimax_values_for_fewer_calls() {
    let (mut plain_calls, mut pruned_calls) = (0, 0);
    for board in unfinished() {
        let plain = reference::move_values(&board, Algorithm::Minimax, Scoring::Depth);
        let pruned = reference::move_values(&board, Algorithm::AlphaBeta, Scoring::Depth);
        assert_eq!(pruned.moves, plain.moves, "{board}");
        assert!(pruned.calls <= plain.calls, "{board}");

        let plain_best = reference::best_move(&board, Algorithm::Minimax, Scoring::Depth).unwrap();
        let pruned_best =
            reference::best_move(&board, Algorithm::AlphaBeta, Scoring::Depth).unwrap();
        assert_eq!(
            (pruned_best.mv, pruned_best.value),
            (plain_best.mv, plain_best.value),
            "{board}"
        );
        assert!(pruned_best.calls <= pruned.calls, "{board}");
        assert_eq!(plain_best.calls, plain.calls, "{board}");

        // The readable functions themselves, from the position's own side.
        let to_move_value = reference::minimax(&board, 0, true);
        assert_eq!(
            reference::alpha_beta(&board, 0, Window::OPEN, true),
            to_move_value,
            "{board}"
        );
        plain_calls += plain.calls;
        pruned_calls += pruned.calls;
    }
    // Summed over every position, scoring every move with a full window.
    assert_eq!((plain_calls, pruned_calls), (2_121_015, 515_290));
}

#[test]
fn finished_positions_have_no_best_move() {
    for board in reachable_positions()
        .into_iter()
        .filter(|b| b.status().is_over())
    {
        assert_eq!(find_best_move(&board), None);
        assert_eq!(
            reference::best_move(&board, Algorithm::Minimax, Scoring::Depth),
            None
        );
        assert_eq!(
            reference::best_move(&board, Algorithm::AlphaBeta, Scoring::Depth),
            None
        );
        assert!(analyze(&board, Limits::ToTheEnd).moves.is_empty());
        assert!(analyze_by_search(&board, Limits::ToTheEnd).moves.is_empty());
    }
}

/// One finished game: who won, and whether the opponent ever made a move that
/// handed the engine a forced win.
struct Game {
    winner: Option<Player>,
    opponent_erred: bool,
}

/// Every game in which `engine_side` plays `find_best_move` and the opponent
/// tries every legal reply.
fn every_game(board: Board, engine_side: Player, opponent_erred: bool, games: &mut Vec<Game>) {
    if board.status().is_over() {
        games.push(Game {
            winner: board.winner(),
            opponent_erred,
        });
    } else if board.to_move() == engine_side {
        let mv = find_best_move(&board).expect("game in progress");
        every_game(board.play(mv).unwrap(), engine_side, opponent_erred, games);
    } else {
        for mv in board.legal_moves() {
            let next = board.play(mv).unwrap();
            // The reference says whether the engine, now to move, can force a win.
            let engine_can_force_win =
                reference::best_move(&next, Algorithm::AlphaBeta, Scoring::Depth)
                    .is_some_and(|best| best.value > 0);
            every_game(
                next,
                engine_side,
                opponent_erred || engine_can_force_win,
                games,
            );
        }
    }
}

#[test]
fn engine_never_loses_and_wins_whenever_the_opponent_errs() {
    for side in [Player::X, Player::O] {
        let mut games = Vec::new();
        every_game(Board::new(), side, false, &mut games);
        let losses = games
            .iter()
            .filter(|g| g.winner == Some(side.other()))
            .count();
        let erred = games.iter().filter(|g| g.opponent_erred).count();
        let punished = games
            .iter()
            .filter(|g| g.opponent_erred && g.winner == Some(side))
            .count();
        assert_eq!(losses, 0, "engine as {side} lost a game");
        assert!(erred > 0, "the opponent must have erred somewhere");
        assert_eq!(punished, erred, "engine as {side} let a won game slip");
        eprintln!(
            "engine as {side}: {} games, {erred} with an opponent mistake, all won",
            games.len()
        );
    }
}

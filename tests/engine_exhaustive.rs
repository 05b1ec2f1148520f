//! Exhaustive checks over every reachable 3×3 position.

use std::collections::{HashSet, VecDeque};

use tictactoe::engine::{
    Board, Geometry, Limits, Outlook, Player, SolvedTable, analyze, find_best_move, reference,
    search::Searcher, search::UNLIMITED,
};

/// Every position a game can reach, found by playing every legal move from the empty board.
fn reachable() -> Vec<Board> {
    let mut seen = HashSet::from([Board::new()]);
    let mut queue = VecDeque::from([Board::new()]);
    let mut all = Vec::new();
    while let Some(board) = queue.pop_front() {
        all.push(board);
        for mv in board.legal_moves() {
            let next = board.play(mv).expect("legal moves are playable");
            if seen.insert(next) {
                queue.push_back(next);
            }
        }
    }
    all
}

#[test]
fn there_are_5478_reachable_positions_and_4520_unfinished() {
    let all = reachable();
    assert_eq!(all.len(), 5478);
    assert_eq!(all.iter().filter(|b| !b.status().is_over()).count(), 4520);
}

#[test]
fn validation_accepts_exactly_the_reachable_positions() {
    let reachable: HashSet<Board> = reachable().into_iter().collect();
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
fn reference_fast_search_and_find_best_move_agree_everywhere() {
    let mut checked = 0;
    for board in reachable().into_iter().filter(|b| !b.status().is_over()) {
        let expected = reference::score_moves(&board);
        let mut searcher = Searcher::new(board.geometry());
        for &(mv, score) in &expected {
            assert_eq!(
                searcher.score_move(&board, mv, UNLIMITED),
                (score, true),
                "{board} move {mv}"
            );
        }
        let analysis = analyze(&board, Limits::Solve);
        let listed: Vec<_> = analysis.moves.iter().map(|m| (m.mv, m.score)).collect();
        assert_eq!(listed, expected, "{board}");
        assert!(analysis.exact());
        // Every score reads as what it is: a win, a loss or a draw.
        for scored in &analysis.moves {
            let outlook = analysis.outlook_of(*scored);
            let agrees = match outlook {
                Outlook::Win { .. } => scored.score > 0,
                Outlook::Loss { .. } => scored.score < 0,
                Outlook::Draw => scored.score == 0,
                Outlook::Estimate => false,
            };
            assert!(
                agrees,
                "{board}: {} scores {} but reads {outlook}",
                scored.mv, scored.score
            );
        }

        let (best, value, _) = reference::find_best_move(&board).expect("game in progress");
        assert_eq!(find_best_move(&board), Some(best), "{board}");
        assert_eq!(
            analysis.best().map(|b| (b.mv, b.score)),
            Some((best, value)),
            "{board}"
        );
        assert_eq!(
            Searcher::new(board.geometry()).value(&board, UNLIMITED),
            (value, true),
            "{board}"
        );
        checked += 1;
    }
    assert_eq!(checked, 4520);
}

#[test]
fn the_solved_table_agrees_with_the_search_everywhere() {
    let table = SolvedTable::classic();
    assert_eq!(table.len(), 4520);
    for board in reachable().into_iter().filter(|b| !b.status().is_over()) {
        let from_table = table
            .analysis(&board)
            .expect("every unfinished position is in the table");
        assert_eq!(
            from_table.moves,
            analyze(&board, Limits::Solve).moves,
            "{board}"
        );
    }
    let finished: Board = "xxx/oo./...".parse().unwrap();
    assert!(
        table
            .analysis(&finished)
            .is_some_and(|a| a.moves.is_empty())
    );
}

#[test]
fn finished_positions_have_no_best_move() {
    for board in reachable().into_iter().filter(|b| b.status().is_over()) {
        assert_eq!(find_best_move(&board), None);
        assert_eq!(reference::find_best_move(&board), None);
        assert!(analyze(&board, Limits::Solve).moves.is_empty());
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
                reference::find_best_move(&next).is_some_and(|(_, value, _)| value > 0);
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

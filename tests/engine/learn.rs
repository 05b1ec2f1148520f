//! The teaching tools held against the articles' reference minimax: the line
//! behind every score, the trace of every call and the tree's values, on
//! every reachable 3×3 position where that is cheap.

use std::collections::HashMap;

use tictactoe_engine::teach::reference::{self, Algorithm, Bound};
use tictactoe_engine::teach::trace::{Step, Traced, Walk, trace};
use tictactoe_engine::teach::tree::{branches, node_value};
use tictactoe_engine::{
    Ai, Board, Limits, Player, Role, Scoring, Square, Status, analyze, reachable_positions,
};
use tictactoe_game::present::{result_for, role_name};

/// The reference minimax's score of every move of a position, asked once per position.
struct Reference {
    known: HashMap<Board, Vec<(Square, i32)>>,
}

impl Reference {
    fn new() -> Reference {
        Reference {
            known: HashMap::new(),
        }
    }

    fn values(&mut self, board: &Board) -> &[(Square, i32)] {
        self.known.entry(*board).or_insert_with(|| {
            reference::move_values(board, Algorithm::Minimax, Scoring::Depth).moves
        })
    }

    fn score(&mut self, board: &Board, mv: Square) -> i32 {
        let values = self.values(board);
        values
            .iter()
            .find(|(m, _)| *m == mv)
            .map(|(_, score)| *score)
            .unwrap_or_else(|| panic!("{mv} is not a move of {board}"))
    }

    fn best(&mut self, board: &Board) -> i32 {
        let values = self.values(board);
        values
            .iter()
            .map(|(_, score)| *score)
            .max()
            .expect("a move")
    }
}

#[test]
fn every_line_of_every_unfinished_position_is_best_play_and_adds_up_to_its_score() {
    let mut reference = Reference::new();
    let mut ai = Ai::new();
    let mut checked = 0;
    for board in reachable_positions() {
        if board.status().is_over() {
            continue;
        }
        let analysis = analyze(&board, Limits::ToTheEnd);
        let lines = ai.lines(&analysis);
        assert_eq!(lines.len(), analysis.moves.len(), "{board}");
        for (scored, line) in analysis.moves.iter().zip(&lines) {
            let context = format!("{board} {}: {:?}", scored.mv, line.moves);
            assert!(line.proven, "{context}");
            assert_eq!(
                reference.score(&board, scored.mv),
                scored.score,
                "{context}"
            );
            let mover = board.to_move();
            let mut position = board.play(scored.mv).expect("a legal move");
            for &mv in &line.moves {
                assert!(
                    !position.status().is_over(),
                    "{context}: played past the end"
                );
                let best = reference.best(&position);
                assert_eq!(
                    reference.score(&position, mv),
                    best,
                    "{context}: {mv} is not a best move in {position}"
                );
                position = position.play(mv).expect("a legal move");
            }
            // The position after the move is depth 0; the line's moves follow it.
            let depth = line.moves.len() as u32;
            let expected = match position.status() {
                Status::Won(winner) => Scoring::Depth.end(Some(winner == mover), depth, 10),
                Status::Draw => 0,
                Status::InProgress { .. } => panic!("{context}: the line stops before the end"),
            };
            assert_eq!(scored.score, expected, "{context}: length and result");
            checked += 1;
        }
    }
    assert_eq!(
        reference.known.len(),
        4520,
        "every unfinished position was asked"
    );
    assert_eq!(
        checked, 16_167,
        "a line for every move of every unfinished position"
    );
}

#[test]
fn the_freecodecamp_walkthrough_is_nine_calls_and_the_centre() {
    let board: Board = "o.x/x.x/.oo".parse().unwrap();
    let calls = trace(&board, Algorithm::Minimax, Scoring::Depth, 100).unwrap();
    // number, parent, the article's depth, move, max or min, score
    let rows: Vec<String> = calls
        .iter()
        .map(|c| {
            let call = c.call;
            format!(
                "{} {} {} {} {} {}",
                call.number,
                call.parent.map_or("-".to_string(), |p| p.to_string()),
                call.depth().map_or("-".to_string(), |d| d.to_string()),
                call.mv.map_or("-".to_string(), |mv| mv.to_string()),
                role_name(call.role),
                c.score
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            "1 - - - max 10",
            "2 1 0 b1 min -9",
            "3 2 1 b2 max -9",
            "4 2 1 a3 max -9",
            "5 1 0 b2 min 10",
            "6 1 0 a3 min -9",
            "7 6 1 b1 max 8",
            "8 7 2 b2 min 8",
            "9 6 1 b2 max -9",
        ]
    );
    // The best move: the first of call 1's replies with the highest score.
    let best = calls
        .iter()
        .filter(|c| c.call.parent == Some(1))
        .fold(None, |best: Option<&Traced>, c| match best {
            Some(b) if b.score >= c.score => Some(b),
            _ => Some(c),
        })
        .unwrap();
    assert_eq!(best.call.mv, Some(Square::new(1, 1)));
    let article = reference::best_move(&board, Algorithm::Minimax, Scoring::Depth);
    assert_eq!(article.map(|best| best.mv), Some(Square::new(1, 1)));
}

/// Checks one whole trace against the reference: the calls are numbered in
/// order, each call's score is the max or min of its children's (or the
/// seed's score of a finished position), call 1 scores what the reference
/// minimax does, and with alpha-beta the cut replies are exactly those not
/// searched. Returns the number of calls.
fn check_trace(board: &Board, algorithm: Algorithm, scoring: Scoring) -> u64 {
    let calls = trace(board, algorithm, scoring, u64::MAX).unwrap();
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); calls.len()];
    for (i, traced) in calls.iter().enumerate() {
        assert_eq!(traced.call.number, i as u64 + 1, "{board}");
        if let Some(parent) = traced.call.parent {
            assert!(parent < traced.call.number);
            children[(parent - 1) as usize].push(i);
        }
    }
    for (i, traced) in calls.iter().enumerate() {
        let call = traced.call;
        let kids = &children[i];
        if kids.is_empty() {
            assert!(
                call.board.status().is_over(),
                "{board}: call {} makes no call",
                call.number
            );
            let depth = call.depth().unwrap_or(0) as i32;
            let end = reference::minimax(&call.board, depth, call.role.is_max());
            let end = scoring.of(end, true, 10);
            assert_eq!(traced.score, end, "{board}: call {}", call.number);
            assert_eq!(
                traced.bound,
                Bound::Exact,
                "{board}: a finished game is exact"
            );
            continue;
        }
        let expected = call.role.pick(kids.iter().map(|&k| calls[k].score));
        assert_eq!(
            Some(traced.score),
            expected,
            "{board}: call {}",
            call.number
        );
        let searched: Vec<Square> = kids.iter().filter_map(|&k| calls[k].call.mv).collect();
        let mut all: Vec<Square> = searched
            .iter()
            .chain(traced.cut.iter().collect::<Vec<_>>().iter())
            .copied()
            .collect();
        all.sort();
        assert_eq!(
            all,
            call.board.empty_cells().iter().collect::<Vec<_>>(),
            "{board}: call {}",
            call.number
        );
        for (&k, next) in kids.iter().zip(kids.iter().skip(1)) {
            assert_eq!(calls[k].call.ply, call.ply + 1);
            assert_eq!(calls[k].call.role, call.role.other());
            assert!(calls[k].call.number < calls[*next].call.number);
        }
        if algorithm == Algorithm::Minimax {
            assert!(traced.cut.is_empty());
        }
    }
    let root = calls[0].score;
    assert_eq!(root, reference::minimax_value(board, scoring), "{board}");
    calls.len() as u64
}

#[test]
fn every_trace_is_the_reference_minimax_call_by_call() {
    let mut total = 0;
    for board in reachable_positions() {
        for scoring in Scoring::ALL {
            let plain = check_trace(&board, Algorithm::Minimax, scoring);
            assert_eq!(plain, reference::tree_size(&board), "{board}");
            if !board.status().is_over() {
                let counted = reference::move_values(&board, Algorithm::Minimax, scoring).calls;
                assert_eq!(plain, counted + 1, "{board}: call 1 is the position itself");
            }
            let pruned = check_trace(&board, Algorithm::AlphaBeta, scoring);
            assert!(pruned <= plain, "{board}");
            total += plain;
        }
    }
    assert!(total > 549_946, "{total}");
}

#[test]
fn alpha_beta_calls_return_what_the_reference_returns_in_their_window() {
    for board in reachable_positions()
        .into_iter()
        .filter(|b| b.empty_cells().len() <= 6)
    {
        for traced in trace(&board, Algorithm::AlphaBeta, Scoring::Depth, u64::MAX).unwrap() {
            let call = traced.call;
            let window = call.window.expect("alpha-beta has a window");
            // Call 1 is findBestMove's position, one above depth 0.
            let depth = match call.depth() {
                Some(depth) => depth as i32,
                None if call.board.status().is_over() => 0,
                None => -1,
            };
            let expected = reference::alpha_beta(&call.board, depth, window, call.role.is_max());
            assert_eq!(traced.score, expected, "{board}: call {}", call.number);
        }
    }
}

#[test]
fn the_empty_board_is_549946_calls_walked_lazily() {
    let mut walk = Walk::new(&Board::new(), Algorithm::Minimax, Scoring::Depth);
    let mut deepest = 0;
    let mut last = None;
    for step in walk.by_ref() {
        if let Step::Return(done) = step {
            last = Some(done);
        }
    }
    for _ in walk.open_calls() {
        deepest += 1;
    }
    assert_eq!(deepest, 0, "every call returned");
    assert_eq!(walk.calls(), 549_946);
    let last = last.unwrap();
    assert_eq!((last.number, last.score), (1, 0), "a draw");
}

#[test]
fn every_node_of_the_tree_has_the_value_of_its_call_in_the_trace() {
    // The tree is built from the engine's scores a level at a time; the
    // trace is the reference minimax. Every call is a node of the tree.
    let mut checked = 0;
    for root in reachable_positions()
        .into_iter()
        .filter(|b| b.empty_cells().len() <= 7 || b.move_count() == 0)
    {
        for scoring in Scoring::ALL {
            let maximizer = scoring.maximizer(root.to_move());
            for traced in trace(&root, Algorithm::Minimax, scoring, u64::MAX).unwrap() {
                let call = traced.call;
                let analysis = analyze(&call.board, Limits::ToTheEnd);
                assert_eq!(
                    node_value(&analysis, call.ply, maximizer, scoring),
                    traced.score,
                    "{root}: call {} ({})",
                    call.number,
                    call.board
                );
                assert_eq!(call.role, Role::of(call.board.to_move(), maximizer));
                checked += 1;
            }
            // The root's branches are its calls 2, 3, ... in order, with their scores.
            let analysis = analyze(&root, Limits::ToTheEnd);
            let level = branches(&analysis, 0, maximizer, scoring);
            let calls = trace(&root, Algorithm::Minimax, scoring, u64::MAX).unwrap();
            let children: Vec<(Square, i32)> = calls
                .iter()
                .filter(|c| c.call.parent == Some(1))
                .map(|c| (c.call.mv.unwrap(), c.score))
                .collect();
            let from_tree: Vec<(Square, i32)> = level.iter().map(|b| (b.mv, b.value)).collect();
            assert_eq!(from_tree, children, "{root}");
        }
    }
    assert!(checked > 549_946, "{checked}");
}

#[test]
fn the_tree_of_the_article_board_reads_as_the_article_does() {
    let board: Board = "o.x/x.x/.oo".parse().unwrap();
    let analysis = analyze(&board, Limits::ToTheEnd);
    let level = branches(&analysis, 0, Player::X, Scoring::Depth);
    let words: Vec<String> = level
        .iter()
        .map(|b| format!("{} {}", b.mv, result_for(b.outlook, Player::X)))
        .collect();
    assert_eq!(
        words,
        ["b1 O wins in 1", "b2 X wins in 1", "a3 O wins in 1"]
    );
    assert_eq!(reference::tree_size(&board), 9);
    assert_eq!(reference::tree_size(&Board::new()), 549_946);
}

/// A line on a bigger board: every move legal, and when proven it runs to
/// the end and adds up to the move's score.
fn check_big_line(
    board: &Board,
    scored: &tictactoe_engine::ScoredMove,
    line: &tictactoe_engine::teach::line::Line,
) {
    let mover = board.to_move();
    let mut position = board.play(scored.mv).expect("a legal move");
    for &mv in &line.moves {
        position = position
            .play(mv)
            .unwrap_or_else(|e| panic!("{board} {}: {e}", scored.mv));
    }
    if !line.proven {
        return;
    }
    assert!(
        scored.exact,
        "{board} {}: a proven line needs a proven score",
        scored.mv
    );
    // The article's depth: the position after the move is depth 0, so the
    // line's last position lies at the line's length.
    let depth = line.moves.len() as u32;
    let win = board.geometry().win_score();
    let expected = match position.status() {
        Status::Won(winner) => Scoring::Depth.end(Some(winner == mover), depth, win),
        Status::Draw => 0,
        Status::InProgress { .. } => panic!("{board} {}: a proven line stops early", scored.mv),
    };
    assert_eq!(
        scored.score, expected,
        "{board} {}: {:?}",
        scored.mv, line.moves
    );
}

#[test]
fn lines_on_bigger_boards_run_to_the_end_when_proven() {
    let think = Limits::Think(std::time::Duration::from_millis(300));
    for (text, limits) in [
        ("..../..../..../....", Limits::ToTheEnd),
        ("x.../.o../..x./....", Limits::ToTheEnd),
        ("xo../ox../..../....", Limits::ToTheEnd),
        // Proven or estimated, as the machine's speed allows: checked either way.
        (
            "......./......./......./...x.../......./......./.......",
            think,
        ),
        (
            "x....../......./......./......./......./......./......o",
            think,
        ),
    ] {
        let board = Board::parse_with_k(text, Some(4)).unwrap();
        let mut ai = Ai::new();
        let analysis = ai.analyze(&board, limits);
        let lines = ai.lines(&analysis);
        assert_eq!(lines.len(), analysis.moves.len());
        let mut proven = 0;
        for (scored, line) in analysis.moves.iter().zip(&lines) {
            check_big_line(&board, scored, line);
            proven += usize::from(line.proven);
        }
        if limits == Limits::ToTheEnd {
            assert_eq!(proven, lines.len(), "{board}");
        }
    }
    // Whatever the machine's speed, proven wins and losses are checked too:
    // 4x4 with 3 in a row is won by the side that moves first.
    let board = Board::parse_with_k("..../.x../..../..o.", Some(3)).unwrap();
    let mut ai = Ai::new();
    let analysis = ai.analyze(&board, Limits::ToTheEnd);
    let lines = ai.lines(&analysis);
    assert!(
        analysis.moves.iter().any(|m| m.score > 0),
        "{board}: X wins"
    );
    for (scored, line) in analysis.moves.iter().zip(&lines) {
        assert!(line.proven, "{board} {}", scored.mv);
        check_big_line(&board, scored, line);
    }
}

//! One number per move: on every unfinished 3×3 position, each move's score
//! is the same in `analyze --json`, in the minimax tree's children and in the
//! trace's calls for the moves, under every way of counting; and every score
//! alpha-beta returns is marked by the textbook rule. The commands' own
//! output is read, written in this process to memory.

use std::collections::HashMap;

use serde_json::Value;
use tictactoe::cli::analyze::{Answer, run_analyze};
use tictactoe::cli::trace::{Traced, run_trace};
use tictactoe::cli::{BoardOptions, GeometryArgs, ProofBounds};
use tictactoe_engine::teach::reference::{self, Algorithm};
use tictactoe_engine::teach::trace::trace;
use tictactoe_engine::teach::tree::branches;
use tictactoe_engine::{Board, Limits, Scoring, Square, analyze, reachable_positions};

fn unfinished() -> Vec<Board> {
    reachable_positions()
        .into_iter()
        .filter(|board| !board.status().is_over())
        .collect()
}

/// The options `analyze` runs with when none are given.
fn default_options() -> BoardOptions {
    BoardOptions {
        geometry: GeometryArgs::default(),
        think_ms: 1000,
        solve: false,
    }
}

/// `analyze - --json` over every unfinished position at once: each
/// position's moves with their scores.
fn analyze_json(boards: &[Board], scoring: Scoring) -> HashMap<String, Vec<(Square, i64)>> {
    let input: String = boards.iter().map(|board| format!("{board}\n")).collect();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let answer = Answer {
        json: true,
        scoring,
        limits: Limits::ToTheEnd,
    };
    run_analyze(
        "-",
        answer,
        &default_options(),
        &ProofBounds::default(),
        &mut input.as_bytes(),
        &mut out,
        &mut err,
    )
    .expect("written to memory");
    assert!(err.is_empty(), "{}", String::from_utf8_lossy(&err));
    String::from_utf8(out)
        .expect("UTF-8")
        .lines()
        .map(|line| {
            let report: Value = serde_json::from_str(line).expect("one JSON object a line");
            assert_eq!(report["scores"], scoring.name());
            let moves = report["moves"]
                .as_array()
                .expect("moves")
                .iter()
                .map(|m| {
                    let mv = Square::new(
                        m["row"].as_u64().unwrap() as u8,
                        m["col"].as_u64().unwrap() as u8,
                    );
                    (mv, m["score"].as_i64().unwrap())
                })
                .collect();
            (report["board"].as_str().unwrap().to_string(), moves)
        })
        .collect()
}

/// `trace BOARD --json` (with `--alpha-beta` for that algorithm): every call.
fn trace_json(board: &Board, algorithm: Algorithm, scoring: Scoring) -> Vec<Value> {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let traced = Traced {
        board: *board,
        algorithm,
        scoring,
    };
    run_trace(&traced, 1_000_000, true, &mut out, &mut err).expect("written to memory");
    assert!(err.is_empty(), "{}", String::from_utf8_lossy(&err));
    String::from_utf8(out)
        .expect("UTF-8")
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON object a line"))
        .collect()
}

#[test]
fn every_move_has_one_score_in_analyze_the_tree_and_the_trace() {
    let boards = unfinished();
    let mut moves_checked = 0;
    let mut nonzero = 0;
    for scoring in Scoring::ALL {
        let analyzed = analyze_json(&boards, scoring);
        assert_eq!(analyzed.len(), boards.len());
        for board in &boards {
            let from_analyze = &analyzed[&board.to_string()];
            // The tree's children: what `tree` and the game's `t` show.
            let analysis = analyze(board, Limits::ToTheEnd);
            let maximizer = scoring.maximizer(board.to_move());
            let from_tree: Vec<(Square, i64)> = branches(&analysis, 0, maximizer, scoring)
                .iter()
                .map(|branch| (branch.mv, i64::from(branch.value)))
                .collect();
            // The trace's calls for the moves, call 1's children: what
            // `trace` prints and the game's `c` walks.
            let from_trace: Vec<(Square, i64)> =
                trace(board, Algorithm::Minimax, scoring, u64::MAX)
                    .expect("no limit")
                    .iter()
                    .filter(|traced| traced.call.parent == Some(1))
                    .map(|traced| (traced.call.mv.unwrap(), i64::from(traced.score)))
                    .collect();
            assert_eq!(
                from_analyze, &from_tree,
                "{board} {scoring:?}: analyze and tree"
            );
            assert_eq!(from_tree, from_trace, "{board} {scoring:?}: tree and trace");
            // One choice too: the move the tree and explain mark (and
            // analyze calls best) is the trace's, the first with the best score.
            let mover = board.to_move();
            let trace_choice = from_trace
                .iter()
                .copied()
                .reduce(|best, next| {
                    if scoring.prefers(mover, next.1 as i32, best.1 as i32) {
                        next
                    } else {
                        best
                    }
                })
                .map(|(mv, _)| mv);
            assert_eq!(
                analysis.best_by(scoring).map(|best| best.mv),
                trace_choice,
                "{board} {scoring:?}: the tree's choice and the trace's"
            );
            // And as `trace --json` writes them, where the trace is short.
            if board.empty_cells().len() <= 6 {
                let from_json: Vec<(Square, i64)> = trace_json(board, Algorithm::Minimax, scoring)
                    .iter()
                    .filter(|call| call["parent"] == 1)
                    .map(|call| {
                        let mv = Square::new(
                            call["row"].as_u64().unwrap() as u8,
                            call["col"].as_u64().unwrap() as u8,
                        );
                        assert_eq!(call["move"], mv.to_string());
                        (mv, call["score"].as_i64().unwrap())
                    })
                    .collect();
                assert_eq!(from_json, from_trace, "{board} {scoring:?}: trace --json");
            }
            moves_checked += from_tree.len();
            nonzero += from_tree.iter().filter(|(_, score)| *score != 0).count();
        }
    }
    // 16,167 moves of 4,520 positions, counted every way.
    assert_eq!(moves_checked, 3 * 16_167);
    // Every move that is not a draw had two numbers before: 12,994 of them.
    assert_eq!(nonzero, 3 * 12_994);
}

#[test]
fn plain_scores_are_the_articles_bare_ten() {
    let board: Board = "o.x/x.x/.oo".parse().unwrap();
    let calls = trace_json(&board, Algorithm::Minimax, Scoring::Plain);
    assert_eq!(calls[0]["score"], 10, "the position");
    let moves: Vec<i64> = calls
        .iter()
        .filter(|call| call["depth"] == 0)
        .map(|call| call["score"].as_i64().unwrap())
        .collect();
    assert_eq!(moves, [-10, 10, -10], "freeCodeCamp's FC2, FC5 and FC6");
    let depth = trace_json(&board, Algorithm::Minimax, Scoring::Depth);
    let moves: Vec<i64> = depth
        .iter()
        .filter(|call| call["depth"] == 0)
        .map(|call| call["score"].as_i64().unwrap())
        .collect();
    assert_eq!(
        (depth[0]["score"].as_i64(), moves),
        (Some(10), vec![-9, 10, -9])
    );
}

/// The textbook's reading of a score a call returns, by the window it was
/// entered with: at most it when at or below alpha, at least it when at or
/// above beta, exactly it in between; a finished game is exact.
fn textbook_bound(call: &Value) -> &'static str {
    let score = call["score"].as_i64().unwrap();
    let board: Board = call["board"].as_str().unwrap().parse().unwrap();
    if board.status().is_over() {
        "exact"
    } else if call["alpha"].as_i64().is_some_and(|alpha| score <= alpha) {
        "upper"
    } else if call["beta"].as_i64().is_some_and(|beta| score >= beta) {
        "lower"
    } else {
        "exact"
    }
}

#[test]
fn every_alpha_beta_score_is_marked_by_the_textbook_rule_and_holds() {
    let mut marked = HashMap::new();
    // Every position's alpha-beta trace is at most 20,866 calls (the empty board's).
    for board in reachable_positions() {
        for scoring in Scoring::ALL {
            for call in trace_json(&board, Algorithm::AlphaBeta, scoring) {
                let bound = call["bound"].as_str().unwrap();
                assert_eq!(bound, textbook_bound(&call), "{board}: {call}");
                // And the bound is true of plain minimax's value.
                let position: Board = call["board"].as_str().unwrap().parse().unwrap();
                let maximizing = call["maximizing"] == true;
                // Call 1 is findBestMove's position, valued by its best move;
                // below it the article's minimax at the call's depth.
                let value = match call["depth"].as_i64() {
                    None => reference::minimax_value(&position, scoring),
                    Some(depth) => scoring.of(
                        reference::minimax(&position, depth as i32, maximizing),
                        true,
                        10,
                    ),
                };
                let value = i64::from(value);
                let score = call["score"].as_i64().unwrap();
                match bound {
                    "exact" => assert_eq!(value, score, "{board}: {call}"),
                    "upper" => assert!(value <= score, "{board}: {call}"),
                    _ => assert!(value >= score, "{board}: {call}"),
                }
                *marked.entry(bound.to_string()).or_insert(0) += 1;
            }
        }
    }
    // Each kind of mark is met.
    assert!(marked.len() == 3, "{marked:?}");
}

#[test]
fn the_explain_panel_counts_what_the_trace_walks() {
    use tictactoe_screen::worker::costs;
    for board in unfinished() {
        for scoring in Scoring::ALL {
            let counted = costs(&board, scoring);
            let plain = trace(&board, Algorithm::Minimax, scoring, u64::MAX).unwrap();
            let pruned = trace(&board, Algorithm::AlphaBeta, scoring, u64::MAX).unwrap();
            // The calls as the trace counts them, call 1 included.
            assert_eq!(counted.minimax, Some(plain.len() as u64), "{board}");
            assert_eq!(
                counted.minimax,
                Some(reference::move_values(&board, Algorithm::Minimax, scoring).calls + 1),
                "{board}: read from the table, the same as running it"
            );
            assert_eq!(
                counted.alpha_beta,
                Some(pruned.len() as u64),
                "{board} {scoring:?}: finding the best move is trace --alpha-beta"
            );
        }
    }
}

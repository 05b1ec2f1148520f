//! The lab's ladder: every row finds the same value on every unfinished 3x3
//! position and on a sample of 4x4 positions, and its count for
//! GeeksforGeeks' minimax is the trace's count of calls.

use serde_json::Value;
use tictactoe_engine::teach::ladder::Rung;
use tictactoe_engine::teach::reference::{self, Algorithm};
use tictactoe_engine::teach::trace::{Step, Walk};
use tictactoe_engine::{Board, Scoring, reachable_positions};
use tictactoe_grade::lab::{DEFAULT_BUDGET, ladder};

use crate::support;

use support::tictactoe;

/// The calls `trace` numbers on `board`.
fn trace_calls(board: &Board, algorithm: Algorithm) -> u64 {
    Walk::new(board, algorithm, Scoring::Depth)
        .filter(|step| matches!(step, Step::Enter(_)))
        .count() as u64
}

/// Checks one ladder: every row found the reference's value, and the
/// first row searched as many positions as the trace makes calls.
fn check(board: &Board, scoring: Scoring) {
    let ladder = ladder(board, scoring, DEFAULT_BUDGET);
    let value = reference::minimax_value(board, scoring);
    for row in &ladder.rows {
        let found = row
            .found
            .unwrap_or_else(|refused| panic!("{board} {:?}: {refused}", row.rung));
        assert_eq!(found.value, value, "{board} {:?} {scoring:?}", row.rung);
    }
    assert!(ladder.agrees());
    let minimax = ladder.rows[0];
    assert_eq!(minimax.rung, Rung::Minimax);
    assert_eq!(
        minimax.found.unwrap().positions,
        reference::tree_size(board),
        "{board}"
    );
}

#[test]
fn every_row_finds_the_value_of_every_unfinished_3x3_position() {
    let positions: Vec<Board> = reachable_positions()
        .into_iter()
        .filter(|board| !board.status().is_over())
        .collect();
    assert_eq!(positions.len(), 4520);
    for board in &positions {
        for scoring in Scoring::ALL {
            check(board, scoring);
        }
        assert_eq!(ladder(board, Scoring::Depth, 1).rows.len(), 7);
    }
}

#[test]
fn the_minimax_row_counts_the_calls_trace_numbers() {
    for board in reachable_positions()
        .iter()
        .filter(|board| !board.status().is_over())
    {
        let ladder = ladder(board, Scoring::Depth, DEFAULT_BUDGET);
        let positions = ladder.rows[0].found.unwrap().positions;
        assert_eq!(positions, trace_calls(board, Algorithm::Minimax), "{board}");
    }
}

/// Positions of a 4x4 game after `marks` random moves, still going.
fn sample_4x4(count: usize, seed: u64) -> Vec<Board> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut found = Vec::new();
    while found.len() < count {
        let mut board: Board = "..../..../..../....".parse().unwrap();
        let marks = rng.usize(7..=10);
        for _ in 0..marks {
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            board = board.play(moves[rng.usize(..moves.len())]).unwrap();
        }
        if !board.status().is_over() {
            found.push(board);
        }
    }
    found
}

#[test]
fn every_row_finds_the_value_of_a_sample_of_4x4_positions() {
    for board in sample_4x4(24, 30) {
        for scoring in Scoring::ALL {
            check(&board, scoring);
        }
        let ladder = ladder(&board, Scoring::Depth, DEFAULT_BUDGET);
        assert!(
            ladder.rows.iter().all(|row| row.rung != Rung::Compiled),
            "the compiled table is 3x3's"
        );
    }
}

#[test]
fn lab_json_counts_freecodecamps_nine_calls() {
    let out = tictactoe(&["lab", "o.x/x.x/.oo", "--json"], "");
    assert_eq!(out.status.code(), Some(0));
    let ladder: Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = ladder["rows"].as_array().unwrap();
    let names: Vec<&str> = rows
        .iter()
        .map(|row| row["technique"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        Rung::ALL.map(Rung::name),
        "every rung, the compiled table last"
    );
    let trace = tictactoe(&["trace", "o.x/x.x/.oo", "--json"], "");
    let calls = String::from_utf8(trace.stdout).unwrap().lines().count();
    assert_eq!(calls, 9, "FC1 to FC9");
    assert_eq!(rows[0]["positions"], 9);
    let pruned = tictactoe(&["trace", "o.x/x.x/.oo", "--json", "--alpha-beta"], "");
    let pruned = String::from_utf8(pruned.stdout).unwrap().lines().count();
    assert_eq!(
        rows[1]["positions"], pruned as u64,
        "trace --alpha-beta's calls"
    );
    assert!(rows.iter().all(|row| row["value"] == 10), "{ladder}");
    assert_eq!(ladder["agrees"], true);
}

#[test]
fn lab_refuses_a_finished_game_and_a_bad_board() {
    let out = tictactoe(&["lab", "xxx/oo./..."], "");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    let out = tictactoe(&["lab", "xxq"], "");
    assert_eq!(out.status.code(), Some(2));
    // A row over its budget gives up; the rows that finish still agree.
    let out = tictactoe(&["lab", "--max-positions", "1000"], "");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("over 1,000"), "{text}");
}

#[test]
fn the_summary_says_what_each_row_did() {
    // On the empty 4x4 board with 100,000 positions most rows give up.
    let out = tictactoe(&["lab", "--size", "4", "--max-positions", "100000"], "");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let json = tictactoe(
        &["lab", "--size", "4", "--max-positions", "100000", "--json"],
        "",
    );
    let ladder: Value = serde_json::from_slice(&json.stdout).expect("one JSON line");
    let rows = ladder["rows"].as_array().unwrap();
    let gave_up = rows.iter().filter(|row| row["value"].is_null()).count();
    assert!(gave_up > 0, "{text}");
    assert!(!text.contains("Every row finds"), "{text}");
    let finished = rows.len() - gave_up;
    assert!(
        text.contains(&format!("{finished} of {} rows finished", rows.len())),
        "{text}"
    );
    assert_eq!(
        text.matches("gave up at 100,000 positions").count(),
        gave_up,
        "{text}"
    );
}

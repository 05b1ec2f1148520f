//! The three articles' examples through every view: GeeksforGeeks' board
//! and its moves A and B, freeCodeCamp's board and its nine calls (FC1 to
//! FC9), and a CS50 position with O to move under `--scores cs50`. Every
//! number the article prints appears in each view, and every view's count
//! of calls is the trace's.

use crate::support;

use serde_json::Value;
use support::{FREECODECAMP, GEEKSFORGEEKS, tictactoe};
use tictactoe_engine::{Board, Scoring};
use tictactoe_game::quiz::{Ask, Question};
use tictactoe_screen::trace::Walkthrough;
use tictactoe_screen::worker::costs;

fn stdout(args: &[&str], input: &str) -> String {
    let out = tictactoe(args, input);
    assert_eq!(out.status.code(), Some(0), "{args:?}");
    String::from_utf8(out.stdout).expect("UTF-8")
}

fn has(text: &str, expected: &str) {
    assert!(text.contains(expected), "missing {expected:?} in\n{text}");
}

/// `trace --json`: each call's move (for the root's moves) and score.
fn traced(board: &str, scores: &str, alpha_beta: bool) -> Vec<Value> {
    let mut args = vec!["trace", board, "--json", "--scores", scores];
    if alpha_beta {
        args.push("--alpha-beta");
    }
    stdout(&args, "")
        .lines()
        .map(|line| serde_json::from_str(line).expect("JSON"))
        .collect()
}

/// The scores of call 1's calls, the root's moves, as `move score`.
fn root_moves(calls: &[Value]) -> Vec<String> {
    calls
        .iter()
        .filter(|call| call["parent"] == 1)
        .map(|call| format!("{} {}", call["move"].as_str().unwrap(), call["score"]))
        .collect()
}

/// Every view's count of calls from `board` is the trace's.
fn counts_agree(board: &str) -> u64 {
    let position: Board = board.parse().unwrap();
    let plain = traced(board, "depth", false).len() as u64;
    let pruned = traced(board, "depth", true).len() as u64;
    has(
        &stdout(&["trace", board], ""),
        &format!("\n{plain} calls. "),
    );
    // The explain panel, the quiz and the tree's picture count as the trace.
    let counted = costs(&position, Scoring::Depth);
    assert_eq!(
        (counted.minimax, counted.alpha_beta),
        (Some(plain), Some(pruned))
    );
    let calls = Question {
        board: position,
        ask: Ask::Calls,
        scoring: Scoring::Depth,
    };
    assert_eq!(calls.key(), plain.to_string());
    let dot = stdout(&["tree", board, "--dot"], "");
    assert_eq!(dot.matches("[label=\"call ").count() as u64, plain);
    // The tree's root says what it leaves out: the positions below it.
    has(
        &stdout(&["tree", board], ""),
        &format!("({} below)", plain - 1),
    );
    plain
}

#[test]
fn geeksforgeeks_board_prints_the_articles_numbers_in_every_view() {
    let board = GEEKSFORGEEKS;
    // analyze: c3 +10, b3 0, a3 -9, and the value the article prints.
    let text = stdout(&["analyze", board], "");
    has(&text, "\n   3   -9    0  +10\n");
    has(&text, "  a3 (row 2, col 0)    -9  loss in 1\n");
    has(&text, "  b3 (row 2, col 1)     0  draw\n");
    has(&text, "  c3 (row 2, col 2)   +10  win in 1  <- best\n");
    has(&text, "The value of the best move is 10 ");
    // The article's driver prints ROW: 2 COL: 2.
    assert_eq!(stdout(&["best", board], ""), "2 2\n");
    let answer: Value = serde_json::from_str(&stdout(&["analyze", board, "--json"], "")).unwrap();
    assert_eq!(
        (&answer["value"], &answer["best"]),
        (&Value::from(10), &Value::from("c3"))
    );
    let scores: Vec<&Value> = answer["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| &m["score"])
        .collect();
    assert_eq!(
        scores,
        [&Value::from(-9), &Value::from(0), &Value::from(10)]
    );
    // The tree and the trace give the moves the same numbers.
    let tree = stdout(&["tree", board], "");
    has(&tree, "xox/oox/...  +10  X wins in 1");
    has(&tree, "├── a3 X  -9  O wins in 1");
    has(&tree, "└── c3 X  +10  X won");
    let calls = traced(board, "depth", false);
    assert_eq!(calls[0]["score"], 10);
    assert_eq!(root_moves(&calls), ["a3 -9", "b3 0", "c3 10"]);
    // The article's explanation names the moves' values without depth:
    // -10, 0 and +10, as its code returns them.
    assert_eq!(
        root_moves(&traced(board, "plain", false)),
        ["a3 -10", "b3 0", "c3 10"]
    );
    // The screen reader, the walkthrough and the quiz.
    let said = stdout(
        &[
            "--screen-reader",
            "--board",
            board,
            "--x",
            "human",
            "--o",
            "human",
            "--no-stats",
        ],
        "scores\nquit\n",
    );
    has(&said, "c3: +10 = 10 - depth 0: X wins on this move. Best.");
    has(&said, "a3: -9 = -10 + depth 1: O wins on the reply.");
    let mut walk = Walkthrough::new(board.parse().unwrap(), Scoring::Depth);
    walk.end();
    assert_eq!(walk.result(), Some(10));
    let value = Question {
        board: board.parse().unwrap(),
        ask: Ask::Value,
        scoring: Scoring::Depth,
    };
    assert_eq!(value.key(), "+10");
    assert_eq!(counts_agree(board), 11);
}

#[test]
fn the_articles_moves_a_and_b_score_8_and_6() {
    // X wins at depth 2 with a2 or b2 (move A), at depth 4 with a3 or b3
    // (move B): "+10 - 2 = 8" and "+10 - 4 = 6".
    let board = "xoo/..x/...";
    let text = stdout(&["analyze", board], "");
    has(&text, "  a2 (row 1, col 0)    +8  win in 2  <- best\n");
    has(&text, "  a3 (row 2, col 0)    +6  win in 3\n");
    has(&text, "+8 = 10 - depth 2: X wins at depth 2");
    let calls = traced(board, "depth", false);
    assert_eq!(
        root_moves(&calls),
        ["a2 8", "b2 8", "a3 6", "b3 6", "c3 -7"]
    );
    // Plain scores cannot tell them apart: every win is +10.
    assert_eq!(
        root_moves(&traced(board, "plain", false)),
        ["a2 10", "b2 10", "a3 10", "b3 10", "c3 -10"]
    );
}

#[test]
fn freecodecamp_board_is_its_nine_calls_in_every_view() {
    let board = FREECODECAMP;
    // freeCodeCamp's scores, as the article walks them: FC1 returns +10,
    // its three moves -10, +10, -10, and FC8, the win under FC7, +10.
    let calls = traced(board, "plain", false);
    let returned: Vec<i64> = calls.iter().map(|c| c["score"].as_i64().unwrap()).collect();
    assert_eq!(returned, [10, -10, -10, -10, 10, -10, 10, 10, -10]);
    assert_eq!(root_moves(&calls), ["b1 -10", "b2 10", "a3 -10"]);
    // X's best is the centre, the article's index 4.
    assert_eq!(stdout(&["best", board, "--coord"], ""), "b2\n");
    let text = stdout(&["trace", board, "--scores", "plain"], "");
    has(
        &text,
        "Best move: b2 (row 1, col 1), call 5: +10: X wins on this move.",
    );
    // GeeksforGeeks' scores on the same calls: depth 0 after the root's move.
    let depth = traced(board, "depth", false);
    assert_eq!(root_moves(&depth), ["b1 -9", "b2 10", "a3 -9"]);
    has(
        &stdout(&["analyze", board], ""),
        "  b2 (row 1, col 1)   +10  win in 1  <- best\n",
    );
    has(
        &stdout(&["tree", board], ""),
        "├── b2 X  +10  X won  ◀ X's choice",
    );
    assert_eq!(counts_agree(board), 9);
    // Alpha-beta cuts FC9: eight calls in the trace and in the panel.
    let pruned = traced(board, "depth", true);
    assert_eq!(pruned.len(), 8);
    assert_eq!(pruned[5]["cut"], serde_json::json!(["b2"]));
    let cuts = Question {
        board: board.parse().unwrap(),
        ask: Ask::Pruned,
        scoring: Scoring::Plain,
    };
    assert_eq!(cuts.key(), "a3 b2");
    let counted = costs(&board.parse().unwrap(), Scoring::Depth);
    assert_eq!(counted.alpha_beta, Some(8));
}

#[test]
fn cs50_position_with_o_to_move_counts_for_x() {
    // O to move; CS50's minimax has O take the minimum of X's utility: c2
    // wins for O, -1.
    let board = "xx./oo./x..";
    let text = stdout(&["analyze", board, "--scores", "cs50"], "");
    has(
        &text,
        "O to move. Score of each move for X, the lowest best for O:\n",
    );
    has(&text, "  c1 (row 0, col 2)     0  draw\n");
    has(&text, "  c2 (row 1, col 2)    -1  win in 1  <- best\n");
    has(&text, "  b3 (row 2, col 1)    +1  loss in 1\n");
    has(&text, "The value of the best move is -1 ");
    assert_eq!(
        stdout(&["best", board, "--scores", "cs50", "--coord"], ""),
        "c2\n"
    );
    let calls = traced(board, "cs50", false);
    assert_eq!(calls[0]["maximizing"], false, "O minimizes");
    assert_eq!(calls[0]["score"], -1);
    assert_eq!(root_moves(&calls), ["c1 0", "c2 -1", "b3 1", "c3 1"]);
    let tree = stdout(&["tree", board, "--scores", "cs50"], "");
    has(
        &tree,
        "xx./oo./x..  -1  O wins in 1 · O to move, takes the minimum",
    );
    let value = Question {
        board: board.parse().unwrap(),
        ask: Ask::Value,
        scoring: Scoring::Cs50,
    };
    assert_eq!(value.key(), "-1");
    let best = Question {
        board: board.parse().unwrap(),
        ask: Ask::Best,
        scoring: Scoring::Cs50,
    };
    assert_eq!(best.key(), "c2");
    let mut walk = Walkthrough::new(board.parse().unwrap(), Scoring::Cs50);
    walk.end();
    assert_eq!(walk.result(), Some(-1));
    counts_agree(board);
}

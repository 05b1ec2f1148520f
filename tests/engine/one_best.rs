//! One best move in every view, from everything known: `best` and
//! `analyze` name the same move on every board they both answer; the
//! quickest proven win is best; "proven" says a move's result is proven
//! and `score_exact` that its depth-counted score is known; and
//! `analyze --solve` proves what `solve` proves, marking every move it
//! could not prove.

use crate::support;

use serde_json::Value as Json;
use support::tictactoe;
use tictactoe_engine::{Board, Status};

fn json_of(args: &[&str]) -> Json {
    let out = tictactoe(args, "");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON line")
}

fn best_of(args: &[&str]) -> String {
    let out = tictactoe(args, "");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// Positions `plies` random moves from the empty board of this shape,
/// still in progress: a small fixed generator, so every run asks the same.
fn sampled(size: u8, k: u8, plies: usize, seed: u64) -> Board {
    let mut state = seed.wrapping_mul(6_364_136_223_846_793_005) | 1;
    'again: loop {
        let mut board = Board::empty(size, k).expect("a shape");
        for _ in 0..plies {
            let moves = board.legal_moves();
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let mv = moves[(state >> 33) as usize % moves.len()];
            board = board.play(mv).expect("a legal move");
            if !matches!(board.status(), Status::InProgress { .. }) {
                continue 'again;
            }
        }
        return board;
    }
}

#[test]
fn best_and_analyze_name_one_move_with_solve_on_every_quickly_proven_shape() {
    // Every shape whose positions the prover settles in under a second;
    // the empty board (a draw on most: every move ties) and two positions
    // a few moves in. A spent thinking time keeps the search to its one
    // whole ply, so both commands search alike; the prover's shares are
    // counted in positions, so both prove alike.
    let shapes = [
        (4, 3),
        (4, 4),
        (5, 3),
        (5, 4),
        (5, 5),
        (6, 5),
        (6, 6),
        (7, 6),
        (7, 7),
        (8, 6),
        (8, 7),
        (8, 8),
    ];
    // Where some moves take their whole share (6x6 and 7x7 with four in a
    // row, 7x7 with five), the empty board alone: its symmetries keep the
    // moves to prove few.
    let whole_shares = [(6, 4), (7, 4), (7, 5)];
    let boards = shapes
        .into_iter()
        .flat_map(|(size, k)| {
            [
                Board::empty(size, k).unwrap(),
                sampled(size, k, 2, u64::from(size) * 10 + u64::from(k)),
                sampled(size, k, 3, u64::from(size) * 100 + u64::from(k)),
            ]
        })
        .chain(
            whole_shares
                .into_iter()
                .map(|(size, k)| Board::empty(size, k).unwrap()),
        );
    for board in boards {
        let text = board.to_string();
        let k = board.k().to_string();
        let common = [
            text.as_str(),
            "--k",
            &k,
            "--solve",
            "--threads",
            "1",
            "--think-ms",
            "0",
        ];
        let analyze = json_of(&[&["analyze"][..], &common, &["--json"]].concat());
        let best = best_of(&[&["best"][..], &common, &["--coord"]].concat());
        assert_eq!(analyze["best"], best.as_str(), "{text} k={k}");
        // The position is proven, and the best move's result with it.
        let result = &analyze["result"];
        assert!(result.is_string(), "{text} k={k}: {analyze}");
        let moves = analyze["moves"].as_array().unwrap();
        let chosen = moves.iter().find(|mv| mv["move"] == best.as_str()).unwrap();
        assert_eq!(&chosen["result"], result, "{text} k={k}");
    }
}

#[test]
fn best_and_analyze_name_one_move_without_solve_where_the_search_is_exact() {
    // 3x3 from the table; 4x4 positions a few moves in, searched to the end.
    let mut boards: Vec<(Board, &str)> = (0..40)
        .map(|seed| sampled(3, 3, (seed % 6) as usize, seed))
        .map(|board| (board, "3"))
        .collect();
    boards.extend((0..6).map(|seed| (sampled(4, 4, 5 + (seed % 3) as usize, seed), "4")));
    boards.extend((0..6).map(|seed| (sampled(4, 3, 3, seed), "3")));
    for (board, k) in boards {
        let text = board.to_string();
        let common = [text.as_str(), "--k", k, "--think-ms", "600000"];
        let analyze = json_of(&[&["analyze"][..], &common, &["--json"]].concat());
        assert_eq!(analyze["value_exact"], true, "{text}: searched to the end");
        let best = best_of(&[&["best"][..], &common, &["--coord"]].concat());
        assert_eq!(analyze["best"], best.as_str(), "{text} k={k}");
    }
}

/// X wins on its next move with e4 (+98); b1 wins too, later (+96), and
/// is the move the prover's proof keeps.
const QUICKEST: &str = "..o..o/.xxo../...x../x...../....../...o..";

#[test]
fn the_quickest_proven_win_is_the_best_move_in_every_view() {
    for solve in [false, true] {
        let mut args = vec![QUICKEST, "--k", "4"];
        if solve {
            args.extend(["--solve", "--threads", "1"]);
        }
        let best = best_of(&[&["best"][..], &args, &["--coord"]].concat());
        assert_eq!(best, "e4", "solve: {solve}");
        let answer = json_of(&[&["analyze"][..], &args, &["--json"]].concat());
        assert_eq!(answer["best"], "e4", "solve: {solve}");
        assert_eq!(answer["value"], 98, "solve: {solve}");
        assert_eq!(answer["value_exact"], true);
        assert_eq!(answer["result"], "x-wins");
        let out = tictactoe(&[&["analyze"][..], &args].concat(), "");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains("e4 (row 3, col 4)   +98  win in 2  <- best"),
            "{text}"
        );
        assert!(text.contains("Verdict: X wins in 2"), "{text}");
    }
}

/// O to move after X's c1 on 6x6 with four in a row: O wins, with one move.
const SIX: &str = "..x.../....../....../....../....../......";

#[test]
fn proven_means_the_result_and_exact_means_the_score_in_text_and_json() {
    let args = [SIX, "--k", "4", "--solve", "--threads", "1"];
    let answer = json_of(&[&["analyze"][..], &args, &["--json"]].concat());
    let out = tictactoe(&[&["analyze"][..], &args].concat(), "");
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    // The position: its result proven, its value's length not.
    assert_eq!(answer["result"], "o-wins");
    assert_eq!(answer["verdict"], "O wins with best play (proven)");
    assert_eq!(answer["value"], Json::Null);
    assert_eq!(answer["value_exact"], false);
    assert!(answer.get("proven").is_none(), "one word, one meaning");
    let best = answer["best"].as_str().unwrap();
    let moves = answer["moves"].as_array().unwrap();
    let mut wins = 0;
    for mv in moves {
        let square = mv["move"].as_str().unwrap();
        let row = text
            .lines()
            .find(|line| line.starts_with(&format!("  {square} (")))
            .unwrap_or_else(|| panic!("{square} in\n{text}"));
        assert!(mv.get("proven").is_none());
        // A result named in the text is the JSON's result, and proven.
        match mv["result"].as_str() {
            Some("o-wins") => {
                wins += 1;
                assert!(row.contains(" win"), "{row}");
            }
            Some("x-wins") => assert!(row.contains(" loss"), "{row}"),
            Some("draw") => {
                assert!(row.contains(" draw"), "{row}");
                assert_eq!(
                    (&mv["score"], &mv["score_exact"]),
                    (&Json::from(0), &Json::Bool(true))
                );
            }
            Some(other) => panic!("{other}"),
            None => {
                assert!(row.contains("estimate"), "{row}");
                assert!(mv["unproven"].is_string(), "{mv}: marked, with why");
            }
        }
        // An exact score is a number without "?"; a result whose length
        // is unknown shows no number at all.
        match (&mv["score"], &mv["score_exact"]) {
            (Json::Null, Json::Bool(false)) => assert!(mv["result"].is_string()),
            (Json::Number(_), Json::Bool(true)) => assert!(!row.contains('?'), "{row}"),
            (Json::Number(_), Json::Bool(false)) => assert!(row.contains('?'), "{row}"),
            other => panic!("{other:?}"),
        }
        assert_eq!(
            row.contains("<- best"),
            square == best,
            "{row}: one best move"
        );
    }
    assert_eq!(wins, 1, "O's one winning move");
    assert_eq!(
        moves.iter().find(|mv| mv["move"] == best).unwrap()["result"],
        "o-wins",
        "the best move is the win"
    );
    assert!(
        !text.contains("(proven)\n  "),
        "no row says proven of a score"
    );
    assert!(
        text.contains("Results: a win, loss or draw named is proven"),
        "{text}"
    );
}

#[test]
fn analyze_solve_answers_where_solve_does_and_marks_every_move() {
    let boards = [
        (
            "......./......./......./......./......./......./.......",
            "4",
        ),
        (
            "......./......./......./...x.../......./......./.......",
            "5",
        ),
    ];
    for (text, k) in boards {
        let solved = tictactoe(&["solve", "--board", text, "--k", k, "--json"], "");
        assert_eq!(solved.status.code(), Some(0));
        let solved: Json = serde_json::from_slice(&solved.stdout).expect("one JSON line");
        let answer = json_of(&[
            "analyze",
            text,
            "--k",
            k,
            "--solve",
            "--threads",
            "1",
            "--json",
        ]);
        assert_eq!(answer["result"], solved["result"], "{text}: {answer}");
        let best = answer["best"].as_str().unwrap();
        let moves = answer["moves"].as_array().unwrap();
        let chosen = moves.iter().find(|mv| mv["move"] == best).unwrap();
        assert_eq!(
            chosen["result"], answer["result"],
            "the best move proven first"
        );
        for mv in moves {
            // Proven, or marked with why not.
            assert!(
                mv["result"].is_string() != mv["unproven"].is_string(),
                "{mv}"
            );
            if let Some(why) = mv["unproven"].as_str() {
                assert!(["share", "time", "interrupted"].contains(&why), "{mv}");
            }
        }
        let out = tictactoe(
            &["analyze", text, "--k", k, "--solve", "--threads", "1"],
            "",
        );
        assert_eq!(out.status.code(), Some(0));
        let text_answer = String::from_utf8_lossy(&out.stdout);
        let unproven = moves.iter().filter(|mv| mv["result"].is_null()).count();
        if unproven > 0 {
            assert!(text_answer.contains("Left unproven ("), "{text_answer}");
        }
    }
}

#[test]
fn the_perfect_ai_chooses_at_random_among_the_same_best_moves() {
    use tictactoe_engine::{Ai, Dice, Level, Limits, Scoring};
    // Every move of the empty 3x3 board draws: all nine tie. On the
    // quickest-win board only e4 wins at once.
    let quickest = Board::parse_with_k(QUICKEST, Some(4)).unwrap();
    for (board, limits) in [
        (Board::new(), Limits::ToTheEnd),
        (
            quickest,
            Limits::Think(std::time::Duration::from_millis(200)),
        ),
    ] {
        let mut chosen = std::collections::BTreeSet::new();
        for seed in 0..40 {
            let mut ai = Ai::new();
            let decision = ai
                .choose(&board, Level::Perfect, &mut Dice::with_seed(seed), limits)
                .expect("a move");
            let analysis = decision.analysis.expect("perfect play reads every score");
            let best: Vec<_> = analysis
                .best_moves(Scoring::Depth)
                .iter()
                .map(|m| m.mv)
                .collect();
            assert!(
                best.contains(&decision.mv),
                "{board}: {} not among {best:?}",
                decision.mv
            );
            chosen.insert(decision.mv.to_string());
        }
        if board == Board::new() {
            assert!(chosen.len() > 3, "at random among the ties: {chosen:?}");
        } else {
            assert_eq!(chosen.into_iter().collect::<Vec<_>>(), ["e4"]);
        }
    }
}

//! Bigger boards: proofs, time budgets, symmetry, and an AI that never misses
//! a win on the move or a forced block.

use std::process::Command;
use std::time::Duration;

use serde_json::Value;
use tictactoe_engine::{
    Ai, Board, CellSet, Dice, Geometry, Level, Limits, Outcome, ScoredMove, Square, analyze,
    find_best_move,
};
use tictactoe_game::present::verdict;
use tictactoe_game::selfplay::play_games;

// Time budgets are kept out of these tests: a loaded machine can miss any
// wall-clock bound. What a budget buys is measured in benches/big_boards.rs;
// here a budget is either none (`Limits::ToTheEnd`) or already spent (zero), and
// both give the same answer on every run.

/// A budget that is over before the search starts.
const SPENT: Limits = Limits::Think(Duration::ZERO);

#[test]
fn four_by_four_with_four_in_a_row_is_proven_a_draw() {
    let board = Board::empty(4, 4).unwrap();
    let analysis = analyze(&board, Limits::ToTheEnd);
    assert!(analysis.exact(), "proven, not estimated");
    assert_eq!(analysis.value(), Some(0));
    assert_eq!(analysis.moves.len(), 16);
    assert!(analysis.moves.iter().all(|m| m.score == 0 && m.exact));
    assert_eq!(verdict(&analysis), "draw with best play");

    let out = Command::new(env!("CARGO_BIN_EXE_tictactoe"))
        .args([
            "analyze",
            "..../..../..../....",
            "--k",
            "4",
            "--solve",
            "--json",
        ])
        .output()
        .unwrap();
    let answer: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (
            answer["value"].clone(),
            answer["value_exact"].clone(),
            answer["result"].clone()
        ),
        (Value::from(0), Value::from(true), Value::from("draw"))
    );
}

#[test]
fn bigger_boards_score_wins_from_100() {
    // X to move on 4x4 completes the top row now (100 - depth 0), or lets O
    // win on the reply (-100 + depth 1).
    let board: Board = "xxx./ooo./..../....".parse().unwrap();
    let analysis = analyze(&board, Limits::ToTheEnd);
    let score = |row, col| {
        analysis
            .moves
            .iter()
            .find(|m| m.mv == Square::new(row, col))
            .unwrap()
            .score
    };
    assert_eq!(score(0, 3), 100);
    assert_eq!(score(3, 3), -99);
    assert_eq!(verdict(&analysis), "X wins in 1");
    assert!(analysis.exact());
}

#[test]
fn estimates_are_marked_and_the_json_says_so() {
    let board = Board::empty(7, 4).unwrap();
    let analysis = analyze(&board, SPENT);
    assert!(!analysis.exact(), "7x7 is not proven by one ply");
    assert_eq!(analysis.depth(), Some(1));
    assert!(analysis.moves.iter().any(|m| !m.exact));
    let out = Command::new(env!("CARGO_BIN_EXE_tictactoe"))
        .args([
            "analyze",
            "--think-ms",
            "0",
            "--json",
            "--",
            &".......".repeat(7),
        ])
        .output()
        .unwrap();
    let answer: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(answer["value_exact"], false);
    assert_eq!(
        answer["result"],
        Value::Null,
        "nothing is proven of the position"
    );
    assert_eq!(answer["moves"].as_array().unwrap().len(), 49);
    assert!(
        answer["moves"]
            .as_array()
            .unwrap()
            .iter()
            .any(|mv| mv["score_exact"] == false && mv["result"].is_null())
    );
}

#[test]
fn a_spent_budget_still_answers_with_one_whole_ply() {
    // The first pass always completes; the deadline stops every pass after it,
    // and the proof attempt on small boards, at the first look at the clock.
    for (size, k) in [(4, 4), (5, 4), (6, 4), (7, 4), (7, 5), (5, 3)] {
        let mut rng = Dice::with_seed(3);
        let mut board = Board::empty(size, k).unwrap();
        for _ in 0..4 {
            let decision = Ai::new()
                .choose(&board, Level::Perfect, &mut rng, SPENT)
                .unwrap();
            let analysis = decision.analysis.expect("perfect play searches");
            // One ply, unless that ply already proved every score (a forced line).
            assert!(
                analysis.depth() == Some(1) || (analysis.depth().is_none() && analysis.exact()),
                "{size}x{size} k={k}: {board:?}: {:?}",
                analysis.depth()
            );
            assert_eq!(analysis.moves.len(), board.legal_moves().len());
            assert!(board.legal_moves().contains(&decision.mv));
            // The same spent budget gives the same answer, to the position.
            // (The AI's analysis also knows what the prover proved: a move
            // its proof keeps in a drawn position scores an exact 0.)
            let again = analyze(&board, SPENT);
            let kept_draw = |mv: Square| {
                analysis.settled.as_ref().is_some_and(|settled| {
                    settled.value == Some(Outcome::Draw)
                        && settled.keep.is_some_and(|keep| keep.mv() == mv)
                })
            };
            let searched = |moves: &[ScoredMove]| -> Vec<ScoredMove> {
                moves.iter().filter(|m| !kept_draw(m.mv)).copied().collect()
            };
            assert_eq!(
                (again.nodes(), again.depth(), searched(&again.moves)),
                (
                    analysis.nodes(),
                    analysis.depth(),
                    searched(&analysis.moves)
                )
            );
            board = board.play(decision.mv).unwrap();
        }
    }
}

/// Random positions of every shape with the side to move able to win at once,
/// or facing exactly one threat it cannot stop by winning first.
fn tactical_positions(kind: Tactic) -> Vec<(Board, CellSet)> {
    let mut rng = fastrand::Rng::with_seed(11);
    let mut found = Vec::new();
    for size in 4..=7u8 {
        let k = Board::default_k(size);
        let mut tries = 0;
        while found
            .iter()
            .filter(|(b, _): &&(Board, CellSet)| b.size() == size)
            .count()
            < 6
            && tries < 5000
        {
            tries += 1;
            let mut board = Board::empty(size, k).unwrap();
            let marks = rng.usize(usize::from(k)..=usize::from(size) * usize::from(size) / 2);
            for _ in 0..marks {
                let moves = board.legal_moves();
                if moves.is_empty() {
                    break;
                }
                board = board.play(moves[rng.usize(..moves.len())]).unwrap();
            }
            if board.status().is_over() {
                continue;
            }
            let me = board.to_move();
            let my_wins = board.threats(me);
            let their_wins = board.threats(me.other());
            let wanted = match kind {
                Tactic::Win => Some(my_wins),
                Tactic::Block if my_wins.is_empty() && their_wins.len() == 1 => Some(their_wins),
                Tactic::Block => None,
            };
            if let Some(wanted) = wanted.filter(|cells| !cells.is_empty()) {
                found.push((board, wanted));
            }
        }
    }
    assert!(
        found.len() >= 20,
        "enough positions to test: {}",
        found.len()
    );
    found
}

#[derive(Clone, Copy)]
enum Tactic {
    Win,
    Block,
}

/// Every level given plays one of the `expected` squares in every position.
fn always_plays(tactic: Tactic, levels: &[Level], what: &str) {
    for (board, expected) in tactical_positions(tactic) {
        for &level in levels {
            for seed in 0..3 {
                let mut rng = Dice::with_seed(seed);
                // Even with no time to think: the shortcuts and the first ply see it.
                let decision = Ai::new().choose(&board, level, &mut rng, SPENT).unwrap();
                assert!(
                    expected.contains(decision.mv),
                    "{level} missed {what} at {board:?}: played {}",
                    decision.mv
                );
            }
        }
    }
}

#[test]
fn the_ai_never_misses_a_win_on_the_move() {
    always_plays(
        Tactic::Win,
        &[Level::Easy, Level::Medium, Level::Hard, Level::Perfect],
        "the win",
    );
}

#[test]
fn the_ai_never_misses_a_forced_block() {
    always_plays(
        Tactic::Block,
        &[Level::Medium, Level::Hard, Level::Perfect],
        "the block",
    );
}

#[test]
fn perfect_on_4x4_never_loses_to_random_and_always_draws_itself() {
    let start = Board::empty(4, 4).unwrap();
    let as_x = play_games(
        start,
        Level::Perfect,
        Level::Random,
        200,
        1,
        Limits::ToTheEnd,
    )
    .unwrap();
    assert_eq!(as_x.o_wins, 0, "perfect as X lost");
    let as_o = play_games(
        start,
        Level::Random,
        Level::Perfect,
        200,
        2,
        Limits::ToTheEnd,
    )
    .unwrap();
    assert_eq!(as_o.x_wins, 0, "perfect as O lost");
    let itself = play_games(
        start,
        Level::Perfect,
        Level::Perfect,
        20,
        3,
        Limits::ToTheEnd,
    )
    .unwrap();
    assert_eq!(itself.draws, 20);
}

#[test]
fn symmetric_moves_score_the_same() {
    // A position symmetric about the main diagonal: b1 and a2 are twins, so are d1 and a4.
    // (That the search scores twins alike when it searches each from scratch
    // is a unit test of the search.)
    let board: Board = "x.../..../..o./....".parse().unwrap();
    let analysis = analyze(&board, Limits::ToTheEnd);
    let of = |mv: Square| analysis.moves.iter().find(|m| m.mv == mv).unwrap().score;
    assert_eq!(of(Square::new(0, 1)), of(Square::new(1, 0)));
    // A rotation of a position has the same value.
    let rotated: Board = "...x/..../.o../....".parse().unwrap();
    assert_eq!(
        analyze(&rotated, Limits::ToTheEnd).value(),
        analysis.value()
    );
}

#[test]
fn find_best_move_on_bigger_boards_is_legal() {
    let board: Board = "xxx./oo../..../....".parse().unwrap();
    assert_eq!(
        find_best_move(&board),
        Some(Square::new(0, 3)),
        "the win on the move"
    );
    // Within DEFAULT_THINK: how close it keeps to it is measured in benches/big_boards.rs.
    let big = Board::empty(7, 4).unwrap();
    let mv = find_best_move(&big).expect("a move");
    assert!(big.legal_moves().contains(&mv));
}

#[test]
fn every_shape_plays_to_the_end() {
    for size in 3..=7u8 {
        for k in 3..=size {
            let start = Board::empty(size, k).unwrap();
            let report = play_games(
                start,
                Level::Medium,
                Level::Random,
                2,
                u64::from(size * 10 + k),
                Limits::ToTheEnd,
            )
            .unwrap();
            assert_eq!(report.games, 2, "{size}x{size} k={k}");
            assert_eq!(
                report.x_wins + report.o_wins + report.draws,
                2,
                "{size}x{size} k={k}: every game ends: {report:?}"
            );
            assert_eq!(Geometry::get(size, k).unwrap().k(), k);
        }
    }
}

#[test]
fn perfect_on_8x8_with_five_answers_with_a_move_it_says_is_unproven() {
    // The book of 8x8 with five in a row is given up at once: the perfect
    // AI plays by search within its budget (spent here) and says its move
    // is not proven, on the empty board and after a move.
    let mut ai = Ai::new();
    let mut board = Board::empty(8, 5).unwrap();
    for _ in 0..2 {
        let decision = ai
            .choose(&board, Level::Perfect, &mut Dice::with_seed(3), SPENT)
            .expect("a move");
        assert!(board.get(decision.mv).is_none(), "a legal move");
        assert!(!decision.proven(), "{decision:?}");
        board = board.play(decision.mv).unwrap();
    }
}

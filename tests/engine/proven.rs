//! One truth for proven scores: where the prover has proven a position the
//! search only estimated, the move every view calls best is one the proof
//! keeps, whatever the time-bounded search found; with every score proven it
//! is the first best in reading order, as the articles' findBestMove keeps
//! it; and no move's shown score contradicts the result the proof gives it.

use crate::support;

use serde_json::Value as Json;
use support::tictactoe;
use tictactoe_engine::solve::{Keep, Outcome};
use tictactoe_engine::{Ai, Analysis, Board, Limits, Outlook, Player, Scoring};
use tictactoe_game::present::{MoveRow, move_rows};

/// The position: 6x6, four in a row, X has played c1; O wins.
const SIX: &str = "..x.../....../....../....../....../......";

fn board(text: &str, k: u8) -> Board {
    Board::parse_with_k(text, Some(k)).expect("a board")
}

/// What the rows say agrees with what the prover proved after each move,
/// and the best row is the move the proof keeps, unless every score is
/// proven (then it is the first best in reading order).
fn agrees_with_the_proof(analysis: &Analysis, scoring: Scoring) -> Result<(), String> {
    let mover = analysis.board.to_move();
    let settled = analysis.settled.as_ref().ok_or("no proof")?;
    let rows = move_rows(analysis, scoring);
    for row in &rows {
        let Some(value) = analysis.proven_after(row.mv) else {
            continue;
        };
        let said = match row.outlook {
            Outlook::Win { .. } | Outlook::ProvenWin => Some(Outcome::Win(mover)),
            Outlook::Loss { .. } | Outlook::ProvenLoss => Some(Outcome::Win(mover.other())),
            Outlook::Draw => Some(Outcome::Draw),
            Outlook::Estimate => None,
        };
        if said != Some(value) {
            return Err(format!(
                "{}: the proof says {value:?}, the row {said:?}",
                row.mv
            ));
        }
        if let Some(score) = row.score {
            // Counted for the mover, or for X with CS50's scores.
            let for_mover = if scoring.maximizer(mover) == mover {
                score
            } else {
                -score
            };
            let sign = match value {
                Outcome::Win(winner) if winner == mover => 1,
                Outcome::Win(_) => -1,
                Outcome::Draw => 0,
            };
            if for_mover.signum() != sign {
                return Err(format!("{}: shows {} for {value:?}", row.mv, row.number()));
            }
            if value == Outcome::Draw && !row.score_exact {
                return Err(format!("{}: a proven draw shown as an estimate", row.mv));
            }
        }
    }
    let best: Vec<&MoveRow> = rows.iter().filter(|row| row.best).collect();
    if best.len() != 1 {
        return Err(format!("{} best moves", best.len()));
    }
    // No move is known to be better than the best: a proven win beats
    // anything else, a proven draw (or the proof's hold) anything but a
    // win; with depth scores the quickest exact win is best.
    let tier = |row: &MoveRow| match row.outlook {
        Outlook::Win { .. } | Outlook::ProvenWin => 3,
        Outlook::Draw => 2,
        Outlook::Estimate if settled.keep == Some(Keep::Hold(row.mv)) => 2,
        Outlook::Estimate => 1,
        Outlook::Loss { .. } | Outlook::ProvenLoss => 0,
    };
    if let Some(better) = rows.iter().find(|row| tier(row) > tier(best[0])) {
        return Err(format!(
            "best {} ({}) but {} is {}",
            best[0].mv,
            best[0].meaning(),
            better.mv,
            better.meaning()
        ));
    }
    let quickest = rows
        .iter()
        .filter(|row| matches!(row.outlook, Outlook::Win { .. }))
        .min_by_key(|row| row.outlook.moves());
    if scoring == Scoring::Depth
        && let Some(quickest) = quickest
        && best[0].outlook.moves() != quickest.outlook.moves()
    {
        return Err(format!(
            "best {} ({}) but {} is {}",
            best[0].mv,
            best[0].meaning(),
            quickest.mv,
            quickest.meaning()
        ));
    }
    // The first of the best in reading order.
    if rows.iter().position(|row| row.best)
        != analysis
            .best_moves(scoring)
            .first()
            .and_then(|first| rows.iter().position(|row| row.mv == first.mv))
    {
        return Err("the best row is not the first of the best moves".into());
    }
    Ok(())
}

#[test]
fn the_six_by_six_position_names_the_move_its_proof_keeps_however_long_the_search_thinks() {
    let six = board(SIX, 4);
    let mut prover = Ai::new();
    let settled = prover.settle_all(&six).expect("a bigger board");
    let keep = settled.keep.expect("a proven move");
    assert_eq!(settled.value, Some(Outcome::Win(Player::O)));
    assert!(matches!(keep, Keep::Win(_)), "O wins: {keep:?}");
    // Ten runs, each searching for a different time: the search's
    // estimates differ from run to run, the proof's move does not.
    for think_ms in [0, 1, 2, 5, 10, 20, 50, 100, 200, 400] {
        let mut ai = Ai::new();
        let mut analysis = ai.analyze(
            &six,
            Limits::Think(std::time::Duration::from_millis(think_ms)),
        );
        analysis.settle(settled.clone());
        for scoring in Scoring::ALL {
            let best = analysis.best_by(scoring).map(|best| best.mv);
            assert_eq!(best, Some(keep.mv()), "{think_ms} ms, {scoring:?}");
            assert_eq!(
                agrees_with_the_proof(&analysis, scoring),
                Ok(()),
                "{think_ms} ms"
            );
        }
    }
    // The commands say the same: best --solve proves the position only.
    let out = tictactoe(
        &[
            "best",
            SIX,
            "--k",
            "4",
            "--solve",
            "--coord",
            "--think-ms",
            "50",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        keep.mv().to_string()
    );
    let out = tictactoe(
        &[
            "analyze",
            SIX,
            "--k",
            "4",
            "--solve",
            "--json",
            "--think-ms",
            "50",
        ],
        "",
    );
    let answer: Json = serde_json::from_slice(&out.stdout).expect("one JSON line");
    assert_eq!(answer["best"], keep.mv().to_string());
    assert_eq!(answer["proof"]["move"], keep.mv().to_string());
    assert_eq!(answer["verdict"], "O wins with best play (proven)");
    for mv in answer["moves"].as_array().expect("moves") {
        // A proven loss never shows as an estimate of another sign.
        let score = mv["score"].as_i64();
        match mv["result"].as_str() {
            Some("x-wins") => assert!(score.is_none_or(|s| s < 0), "{mv}"),
            Some("o-wins") => assert!(score.is_none_or(|s| s > 0), "{mv}"),
            Some("draw") => assert_eq!((score, &mv["score_exact"]), (Some(0), &Json::Bool(true))),
            _ => {}
        }
    }
}

#[test]
fn with_every_score_proven_the_best_move_is_the_first_best_in_reading_order() {
    // Every move draws; the proof keeps one of them, not the first.
    let four = board("xoxo/oxox/..../....", 4);
    let mut ai = Ai::new();
    let mut analysis = ai.analyze(&four, Limits::ToTheEnd);
    analysis.settle(ai.settle_all(&four).expect("a bigger board"));
    assert!(analysis.exact());
    let first = analysis.moves[0].mv;
    let kept = analysis
        .settled
        .as_ref()
        .and_then(|s| s.keep)
        .expect("a move");
    // The case in point: the proof keeps another move than the first.
    assert_ne!(kept.mv(), first, "the proof keeps a later move");
    for scoring in Scoring::ALL {
        assert_eq!(analysis.best_by(scoring).map(|best| best.mv), Some(first));
        assert_eq!(agrees_with_the_proof(&analysis, scoring), Ok(()));
    }
    // Every view names it: best, analyze's text and JSON, trace.
    let out = tictactoe(&["best", "xoxo/oxox/..../....", "--coord"], "");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        first.to_string()
    );
    let out = tictactoe(&["analyze", "xoxo/oxox/..../....", "--json"], "");
    let answer: Json = serde_json::from_slice(&out.stdout).expect("one JSON line");
    assert_eq!(answer["best"], first.to_string());
    assert_eq!(answer["proof"]["move"], kept.mv().to_string());
    let out = tictactoe(&["analyze", "xoxo/oxox/..../...."], "");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!("The optimal move is: {first} ")),
        "{text}"
    );
    assert!(
        !text.contains("keeps it"),
        "the proof's move goes unnamed:\n{text}"
    );
    let args = ["trace", "xoxo/oxox/..../....", "--max-calls", "1000000"];
    let out = tictactoe(&args, "");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains(&format!("Best move: {first} ")), "{text}");
}

#[test]
fn a_proven_draw_is_a_proven_zero_in_the_grid_the_list_and_the_json() {
    let five = "...../...../...../...../.....";
    let out = tictactoe(
        &["analyze", five, "--k", "4", "--solve", "--think-ms", "100"],
        "",
    );
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(!text.contains('?'), "no estimate beside a proof:\n{text}");
    assert_eq!(text.matches("     0  draw").count(), 25, "{text}");
    let out = tictactoe(
        &[
            "analyze",
            five,
            "--k",
            "4",
            "--solve",
            "--json",
            "--think-ms",
            "100",
        ],
        "",
    );
    let answer: Json = serde_json::from_slice(&out.stdout).expect("one JSON line");
    assert_eq!(answer["value_exact"], true, "every draw is an exact 0");
    assert_eq!(answer["result"], "draw");
    for mv in answer["moves"].as_array().expect("moves") {
        assert_eq!(
            (&mv["score"], &mv["score_exact"]),
            (&Json::from(0), &Json::Bool(true))
        );
        assert_eq!(mv["result"], "draw");
    }
}

#[test]
fn no_shown_score_contradicts_the_proof_on_any_board() {
    // Positions a few moves in, on every shape whose proofs are quick.
    let samples = [
        ("..../..../..../....", 3),
        ("x.../..../..../.o..", 3),
        ("..../.x../..../....", 4),
        ("x.../.o../..x./....", 4),
        ("...../..x../...../...../.....", 5),
        ("...../.x.../...o./...../.....", 3),
        ("....../....../..x.../....../....../......", 5),
        ("....../....../..x.../...o../....../......", 6),
        ("......./......./......./...x.../......./......./.......", 6),
        ("......./......./......./...x.../....o../......./.......", 7),
    ];
    for (text, k) in samples {
        let position = board(text, k);
        let mut ai = Ai::new();
        let mut analysis = ai.analyze(
            &position,
            Limits::Think(std::time::Duration::from_millis(50)),
        );
        analysis.settle(ai.settle_all(&position).expect("a bigger board"));
        for scoring in Scoring::ALL {
            assert_eq!(
                agrees_with_the_proof(&analysis, scoring),
                Ok(()),
                "{text} k={k} {scoring:?}"
            );
        }
    }
}

//! The quiz: its key held against the reference minimax over many seeds,
//! the command's key as it prints it, and a session through pipes.

use crate::support;

use serde_json::Value;
use support::tictactoe;
use tictactoe_engine::teach::reference::{self, Algorithm};
use tictactoe_engine::teach::trace::{Traced, trace};
use tictactoe_engine::{Board, Scoring, Square};
use tictactoe_game::quiz::{Answer, Ask, Question, questions};

/// The branches alpha-beta skips, found from the whole trace: for each call
/// with replies cut, the moves down to it and then each reply cut; sorted.
fn pruned_paths(board: &Board, scoring: Scoring) -> Vec<Vec<Square>> {
    let calls: Vec<Traced> = trace(board, Algorithm::AlphaBeta, scoring, u64::MAX).unwrap();
    let path_to = |number: u64| {
        let mut moves = Vec::new();
        let mut at = Some(number);
        while let Some(n) = at {
            let call = calls[(n - 1) as usize].call;
            moves.extend(call.mv);
            at = call.parent;
        }
        moves.reverse();
        moves
    };
    let cutting = calls.iter().filter(|c| !c.cut.is_empty());
    let mut paths: Vec<Vec<Square>> = cutting
        .flat_map(|traced| {
            let base = path_to(traced.call.number);
            traced.cut.iter().map(move |mv| {
                let mut path = base.clone();
                path.push(mv);
                path
            })
        })
        .collect();
    // In any order: the quiz accepts them so.
    paths.sort();
    paths
}

/// The answer worked out from the reference minimax alone.
fn expected(question: &Question) -> Answer {
    let board = &question.board;
    let scoring = question.scoring;
    match question.ask {
        // findBestMove calls minimax at depth 0 on the positions after the
        // moves: the position itself is one above, at depth -1.
        Ask::Value => {
            let depth = reference::minimax(board, -1, true);
            Answer::Value(scoring.shown(depth, true, 10, board.to_move()))
        }
        Ask::Best => {
            let values = reference::move_values(board, Algorithm::Minimax, scoring).moves;
            let mover = board.to_move();
            let scores = values.iter().map(|(_, v)| *v);
            let top = if scoring.maximizer(mover) == mover {
                scores.max()
            } else {
                scores.min()
            }
            .unwrap();
            Answer::Best(
                values
                    .iter()
                    .filter(|(_, v)| *v == top)
                    .map(|(m, _)| *m)
                    .collect(),
            )
        }
        Ask::Calls => {
            Answer::Calls(reference::move_values(board, Algorithm::Minimax, scoring).calls + 1)
        }
        Ask::Pruned => Answer::Pruned(pruned_paths(board, scoring)),
    }
}

#[test]
fn the_key_is_the_reference_minimax_over_many_seeds() {
    let mut kinds = [0; 4];
    let mut cut_something = 0;
    for seed in 0..60 {
        for scoring in Scoring::ALL {
            for question in questions(seed, 8, scoring) {
                let answer = match question.answer() {
                    Answer::Pruned(mut paths) => {
                        paths.sort();
                        Answer::Pruned(paths)
                    }
                    answer => answer,
                };
                assert_eq!(answer, expected(&question), "seed {seed}: {question:?}");
                assert_eq!(question.check(&question.key()), Ok(true), "{question:?}");
                kinds[Ask::ALL.iter().position(|&a| a == question.ask).unwrap()] += 1;
                if matches!(&answer, Answer::Pruned(paths) if !paths.is_empty()) {
                    cut_something += 1;
                }
            }
        }
    }
    assert_eq!(kinds, [360; 4], "every kind asked as often");
    assert!(
        cut_something > 20,
        "alpha-beta cuts in many of them: {cut_something}"
    );
}

#[test]
fn a_wrong_answer_is_wrong_and_garbage_is_no_answer() {
    for question in questions(11, 8, Scoring::Depth) {
        assert!(question.check("").is_err(), "{question:?}");
        assert!(question.check("\u{fffd}\u{fffd}").is_err(), "{question:?}");
        let wrong = match question.answer() {
            Answer::Value(value) => (value + 1).to_string(),
            Answer::Calls(calls) => (calls + 1).to_string(),
            Answer::Best(best) => question
                .board
                .empty_cells()
                .iter()
                .find(|mv| !best.contains(mv))
                .map_or_else(|| "none".to_string(), |mv| mv.to_string()),
            Answer::Pruned(paths) if paths.is_empty() => "a1".to_string(),
            Answer::Pruned(_) => "none".to_string(),
        };
        if wrong != "none" || question.ask == Ask::Pruned {
            assert_eq!(question.check(&wrong), Ok(false), "{question:?}: {wrong}");
        }
    }
}

#[test]
fn the_command_prints_the_key_it_asks_with() {
    let out = tictactoe(
        &["quiz", "--seed", "5", "--count", "8", "--answers", "--json"],
        "",
    );
    assert_eq!(out.status.code(), Some(0));
    let records: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let asked = questions(5, 8, Scoring::Depth);
    assert_eq!(records.len(), 8);
    for (record, question) in records.iter().zip(&asked) {
        assert_eq!(record["board"], question.board.to_string());
        assert_eq!(record["ask"], question.ask.name());
        let answer = &record["answer"];
        match expected(question) {
            Answer::Value(value) => assert_eq!(answer, value),
            Answer::Calls(calls) => assert_eq!(answer, calls),
            Answer::Best(best) => {
                let names: Vec<String> = best.iter().map(Square::to_string).collect();
                assert_eq!(answer, &serde_json::json!(names));
            }
            Answer::Pruned(paths) => {
                let mut given: Vec<Vec<String>> =
                    serde_json::from_value(answer.clone()).expect("a list of paths");
                given.sort();
                let mut names: Vec<Vec<String>> = paths
                    .iter()
                    .map(|path| path.iter().map(Square::to_string).collect())
                    .collect();
                names.sort();
                assert_eq!(given, names);
            }
        }
    }
    // The text key is what the quiz accepts: answering with it scores 8/8.
    let key = tictactoe(&["quiz", "--seed", "5", "--count", "8", "--answers"], "");
    let session = tictactoe(&["quiz", "--seed", "5", "--count", "8"], &key.stdout);
    let transcript = String::from_utf8(session.stdout).unwrap();
    assert!(transcript.ends_with("8/8 right.\n"), "{transcript}");
    assert_eq!(transcript.matches("Right: ").count(), 8, "{transcript}");
}

#[test]
fn a_session_reads_bad_answers_again_and_ends_with_the_input() {
    let key = tictactoe(&["quiz", "--seed", "2", "--count", "3", "--answers"], "");
    let key = String::from_utf8(key.stdout).unwrap();
    let first = key.lines().next().unwrap();
    // Garbage, then not UTF-8, then the right answer; then the input ends.
    let mut input = b"nonsense\n".to_vec();
    input.extend_from_slice(b"\xff\xfe\n");
    input.extend_from_slice(format!("{first}\n").as_bytes());
    let out = tictactoe(&["quiz", "--seed", "2", "--count", "3"], &input);
    assert_eq!(out.status.code(), Some(0));
    let transcript = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        transcript.matches("That is no answer").count(),
        2,
        "{transcript}"
    );
    assert!(transcript.contains("Right: "), "{transcript}");
    assert!(
        transcript.ends_with("1/1 right (2 not answered).\n"),
        "{transcript}"
    );
}

#[test]
fn plain_scores_ask_for_the_articles_numbers() {
    let out = tictactoe(
        &[
            "quiz",
            "--seed",
            "1",
            "--count",
            "4",
            "--scores",
            "plain",
            "--answers",
            "--json",
        ],
        "",
    );
    let first: Value = serde_json::from_str(
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(first["ask"], "value");
    let value = first["answer"].as_i64().unwrap();
    assert!([-10, 0, 10].contains(&value), "{first}");
}

#[test]
fn a_tied_best_move_typed_is_the_one_called_right_and_row_col_answers_as_grade_reads_them() {
    // A quiz whose questions include a best move that ties with others.
    let count = 8;
    let (seed, asked, at) = (1..500)
        .find_map(|seed| {
            let asked = questions(seed, count, Scoring::Depth);
            let at = asked
                .iter()
                .position(|q| matches!(expected(q), Answer::Best(best) if best.len() > 1))?;
            Some((seed, asked, at))
        })
        .expect("a seed with a tie");
    let Answer::Best(best) = expected(&asked[at]) else {
        unreachable!()
    };
    let seed = seed.to_string();
    let count = count.to_string();
    let key = tictactoe(
        &["quiz", "--seed", &seed, "--count", &count, "--answers"],
        "",
    );
    let mut answers: Vec<String> = String::from_utf8(key.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    // The last of the tied moves, typed as GeeksforGeeks prints a move:
    // 0-based ROW COL, once with a space and once with a comma.
    let last = *best.last().unwrap();
    for form in [
        format!("{} {}", last.row, last.col),
        format!("{},{}", last.row, last.col),
    ] {
        answers[at] = form.clone();
        let input = answers.join("\n") + "\n";
        let session = tictactoe(&["quiz", "--seed", &seed, "--count", &count], &input);
        let transcript = String::from_utf8(session.stdout).unwrap();
        assert!(
            transcript.ends_with(&format!("{count}/{count} right.\n")),
            "{form}: {transcript}"
        );
        // Told right for the move given; the explanation names the ties.
        assert!(
            transcript.contains(&format!("Right: {last}.\n")),
            "{form}: {transcript}"
        );
        assert!(
            transcript.contains(&format!("findBestMove keeps the first, {}", best[0])),
            "{transcript}"
        );
        assert!(
            !transcript.contains(&format!("Right: {}.", best[0])),
            "{transcript}"
        );
    }
}

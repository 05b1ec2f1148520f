//! Property tests: whatever the input, a typed answer or a typed error, never a panic.

use std::io::Cursor;

use proptest::prelude::*;
use tictactoe::cli::analyze::{Answer, run_analyze};
use tictactoe::cli::{BoardOptions, ExitStatus, GeometryArgs, ProofBounds};
use tictactoe_engine::{Board, Limits, Scoring, analyze, find_best_move};
use tictactoe_game::text;

fn options() -> BoardOptions {
    BoardOptions {
        geometry: GeometryArgs::default(),
        think_ms: 0,
        solve: false,
    }
}

/// JSON answers with depth scores, as `analyze - --json` gives them.
fn json() -> Answer {
    Answer {
        json: true,
        scoring: Scoring::Depth,
        limits: options().limits(),
    }
}

/// Strings made mostly of notation characters, so that many of them are boards.
fn boardish() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            8 => prop::sample::select(vec!['x', 'X', 'o', 'O', '.', '_', '-', '/']),
            1 => any::<char>(),
        ],
        0..60,
    )
    .prop_map(|chars| chars.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn parser_never_panics_on_any_string(text in any::<String>()) {
        match text.parse::<Board>() {
            Ok(board) => prop_assert_eq!(board.to_string().parse::<Board>().unwrap(), board),
            Err(error) => {
                let message = error.to_string();
                prop_assert!(!message.is_empty() && !message.contains('\n'));
            }
        }
    }

    #[test]
    fn boardish_strings_parse_or_fail_cleanly(text in boardish()) {
        if let Ok(board) = text.parse::<Board>() {
            // A valid board round-trips and analyses without trouble.
            prop_assert_eq!(board.to_string().parse::<Board>().unwrap(), board);
            if board.size() == 3 {
                let analysis = analyze(&board, Limits::ToTheEnd);
                prop_assert_eq!(analysis.moves.len(), board.legal_moves().len());
            }
        }
    }

    #[test]
    fn analyze_batch_answers_every_line(lines in proptest::collection::vec(prop_oneof![boardish(), any::<String>()], 0..8)) {
        // Lines cannot contain newlines of their own; split them like the reader would.
        let input: String = lines.iter().map(|l| format!("{}\n", l.replace(['\n', '\r'], ""))).collect();
        let expected_lines = input.lines().count();
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let status = run_analyze("-", json(), &options(), &ProofBounds::default(), &mut Cursor::new(input.as_bytes()), &mut out, &mut err)
            .expect("writing to memory cannot fail");
        let out = String::from_utf8(out).expect("JSON output is UTF-8");
        let answers: Vec<serde_json::Value> = out.lines().map(|l| serde_json::from_str(l).expect("each line is JSON")).collect();
        prop_assert_eq!(answers.len(), expected_lines);
        let bad = answers.iter().filter(|a| a.get("error").is_some()).count();
        prop_assert_eq!(status == ExitStatus::BadInput, bad > 0);
        for (index, answer) in answers.iter().enumerate() {
            if answer.get("error").is_some() {
                prop_assert_eq!(answer["line"].as_u64(), Some(index as u64 + 1));
            } else {
                prop_assert!(answer["board"].is_string() && answer["moves"].is_array());
            }
        }
        prop_assert!(err.is_empty());
    }

    #[test]
    fn lines_read_with_a_bound_are_the_lines_split_at_newlines(
        bytes in proptest::collection::vec(prop_oneof![Just(b'\n'), Just(b'\r'), any::<u8>()], 0..300),
        capacity in 1..20usize,
    ) {
        let mut reader = std::io::BufReader::with_capacity(capacity, bytes.as_slice());
        let read: Vec<String> = std::iter::from_fn(|| text::read_line(&mut reader).unwrap())
            .map(|line| line.text)
            .collect();
        let mut expected: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
        if bytes.last().is_none_or(|&b| b == b'\n') {
            expected.pop();
        }
        let expected: Vec<String> = expected
            .into_iter()
            .map(|line| String::from_utf8_lossy(line.strip_suffix(b"\r").unwrap_or(line)).into_owned())
            .collect();
        prop_assert_eq!(read, expected);
    }

    #[test]
    fn random_games_stay_legal(choices in proptest::collection::vec(any::<prop::sample::Index>(), 9)) {
        let mut board = Board::new();
        for choice in choices {
            let moves = board.legal_moves();
            if moves.is_empty() {
                prop_assert!(board.status().is_over());
                break;
            }
            let best = find_best_move(&board).expect("a move exists");
            prop_assert!(moves.contains(&best));
            board = board.play(*choice.get(&moves)).expect("a legal move plays");
            prop_assert!(board.to_string().parse::<Board>().is_ok());
        }
    }
}

#[test]
fn raw_bytes_and_huge_lines_in_a_batch() {
    let mut input = b"xox/oox/...\n\xff\xfe bad bytes\n".to_vec();
    input.extend(std::iter::repeat_n(b'x', 5_000_000));
    input.extend(b"\n\x00\x07\x1b[2J\n.........");
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let status = run_analyze(
        "-",
        json(),
        &options(),
        &ProofBounds::default(),
        &mut Cursor::new(input),
        &mut out,
        &mut err,
    )
    .unwrap();
    assert_eq!(status, ExitStatus::BadInput);
    let out = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    assert!(
        lines[1].contains("unexpected character '\u{fffd}' at position 1"),
        "{}",
        lines[1]
    );
    // A huge line is refused as too long and echoed only in part.
    let huge: serde_json::Value = serde_json::from_str(lines[2]).unwrap();
    assert_eq!(
        huge["error"],
        "a line of 5,000,000 bytes is too long to be a board"
    );
    assert_eq!(huge["input"], format!("{}…", "x".repeat(120)));
    assert!(lines[3].contains("error"));
    assert!(lines[4].contains(r#""board":".../.../...""#));
}

//! The plain-text mode through pipes, as a script or a screen reader uses it.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use crate::support;

fn plain(args: &[&str], input: impl AsRef<[u8]>) -> Output {
    let args: Vec<&str> = ["--plain", "--no-stats"]
        .iter()
        .chain(args)
        .copied()
        .collect();
    support::tictactoe(&args, input)
}

fn text(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// The boards printed, each as its three rows.
fn boards(transcript: &str) -> Vec<Vec<&str>> {
    let lines: Vec<&str> = transcript.lines().collect();
    let is_row =
        |line: &&str| line.len() == 5 && line.split(' ').all(|c| matches!(c, "X" | "O" | "."));
    let mut found = Vec::new();
    let mut i = 0;
    while i + 2 < lines.len() {
        if lines[i..i + 3].iter().all(is_row) {
            found.push(lines[i..i + 3].to_vec());
            i += 3;
        } else {
            i += 1;
        }
    }
    found
}

#[test]
fn every_move_prints_the_board_and_whose_turn() {
    let out = plain(&["--seed", "1"], "b2\nquit\n");
    assert_eq!(out.status.code(), Some(0));
    let transcript = text(&out);
    let shown = boards(&transcript);
    assert_eq!(shown[0], vec![". . .", ". . .", ". . ."]);
    assert_eq!(shown[1], vec![". . .", ". X .", ". . ."]);
    assert_eq!(shown.len(), 3, "start, after X, after O:\n{transcript}");
    assert!(
        transcript.contains("X plays b2.\n. . .\n. X .\n. . .\nO to move (AI, perfect).\nO plays "),
        "{transcript}"
    );
    assert!(
        transcript.trim_end().ends_with("Your turn: you are X."),
        "{transcript}"
    );
}

#[test]
fn bad_and_illegal_moves_get_one_line_and_a_new_prompt() {
    let out = plain(
        &["--seed", "1"],
        "5\nfive\n5\nz9\n0\n10\nundo\nundo\nredo\nredo\nhelp\n\nquit\n",
    );
    assert_eq!(out.status.code(), Some(0));
    let transcript = text(&out);
    let errors: Vec<&str> = transcript
        .lines()
        .filter(|l| l.starts_with("error:"))
        .collect();
    assert_eq!(
        errors,
        vec![
            "error: \"five\" is not a move: type a digit 1-9 or a square from a1 to c3, or help",
            "error: b2 is taken",
            "error: \"z9\" is not a move: type a digit 1-9 or a square from a1 to c3, or help",
            "error: \"0\" is not a move: type a digit 1-9 or a square from a1 to c3, or help",
            "error: \"10\" is not a move: type a digit 1-9 or a square from a1 to c3, or help",
            "error: nothing to undo",
            "error: nothing to redo",
        ]
    );
    // Each error is followed by the prompt again.
    let lines: Vec<&str> = transcript.lines().collect();
    for (i, line) in lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.starts_with("error:"))
    {
        assert_eq!(lines[i + 1], "Your turn: you are X.", "after {line}");
    }
    assert!(transcript.contains("Moves: a digit 1-9"));
    assert!(out.stderr.is_empty());
}

#[test]
fn end_of_input_before_the_end_of_the_game_is_a_clean_exit() {
    let out = plain(&[], "5\n");
    assert_eq!(out.status.code(), Some(0));
    assert!(
        text(&out)
            .trim_end()
            .ends_with("End of input: the game was left unfinished.")
    );
    let silent = plain(&[], "");
    assert_eq!(silent.status.code(), Some(0));
}

#[test]
fn a_whole_game_to_the_end_then_a_new_one() {
    let out = plain(&["--seed", "4"], "1\n2\n3\n4\n5\n6\n7\n8\n9\nnew\nquit\n");
    let transcript = text(&out);
    assert!(
        transcript.contains("wins: you lose.") || transcript.contains("Draw."),
        "{transcript}"
    );
    assert!(transcript.contains("New game.\n. . .\n. . .\n. . .\nYour turn: you are X."));
}

#[test]
fn every_seat_pairing_plays() {
    // Two people: every move comes from the input.
    let out = plain(
        &["--x", "human", "--o", "human"],
        "a1\nb1\na2\nb2\na3\nquit\n",
    );
    let transcript = text(&out);
    assert!(
        transcript.contains("X to move.") && transcript.contains("O to move."),
        "{transcript}"
    );
    assert!(transcript.contains("X wins. Type new"), "{transcript}");
    // You as O: the AI opens.
    let out = plain(&["--player", "o", "--seed", "2"], "quit\n");
    let transcript = text(&out);
    assert!(
        transcript.starts_with("Tic-tac-toe, you are O, the AI (perfect) plays X."),
        "{transcript}"
    );
    assert!(
        transcript.contains("X plays ") && transcript.trim_end().ends_with("Your turn: you are O.")
    );
    let out = plain(
        &[
            "--x",
            "ai",
            "--o",
            "human",
            "--difficulty",
            "easy",
            "--seed",
            "2",
        ],
        "quit\n",
    );
    assert!(text(&out).contains("the AI (easy) plays X"));
    // Nobody human: the AIs play the game out and the program ends by itself,
    // without asking for anything.
    let out = plain(&["--watch", "--seed", "5"], "");
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out).ends_with("\nDraw.\n"), "{}", text(&out));
    assert!(!text(&out).contains("Type new"), "{}", text(&out));
    let out = plain(
        &[
            "--x",
            "ai",
            "--o",
            "ai",
            "--x-level",
            "perfect",
            "--o-level",
            "random",
            "--seed",
            "5",
        ],
        "",
    );
    assert!(
        text(&out).ends_with("\nX wins.\n") || text(&out).ends_with("\nDraw.\n"),
        "{}",
        text(&out)
    );
}

#[test]
fn a_seed_replays_the_same_game() {
    let first = plain(&["--watch", "--difficulty", "hard", "--seed", "9"], "");
    let again = plain(&["--watch", "--difficulty", "hard", "--seed", "9"], "");
    assert_eq!(first.stdout, again.stdout);
}

#[test]
fn the_board_flag_starts_from_a_position() {
    let out = plain(&["--board", "xx./oo./..."], "c1\nquit\n");
    let transcript = text(&out);
    assert!(transcript.starts_with("Tic-tac-toe, you are X, the AI (perfect) plays O. Type help for the commands.\nX X .\nO O .\n. . .\nYour turn: you are X.\n"), "{transcript}");
    assert!(transcript.contains("X wins: you win!"));
    // new goes back to the given position.
    let out = plain(&["--board", "x../.../..."], "new\nquit\n");
    assert!(text(&out).contains("New game.\nX . .\n"), "{}", text(&out));
}

#[test]
fn a_bad_board_flag_is_one_line_and_status_2() {
    for (board, message) in [
        (
            "xoz",
            "error: --board: unexpected character 'z' at position 3",
        ),
        (
            "xx./.../...",
            "error: --board: impossible position: X has 2 marks and O has 0",
        ),
        (
            "xxx/oo./...",
            "error: --board: the game is already over (X has won)",
        ),
        (
            "xox/xoo/oxx",
            "error: --board: the game is already over (the board is full)",
        ),
    ] {
        let out = plain(&["--board", board], "");
        assert_eq!(out.status.code(), Some(2), "{board}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.starts_with(message), "{stderr}");
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn conflicting_seat_flags_are_usage_errors() {
    for args in [
        &["--player", "o", "--x", "human", "--o", "ai"][..],
        &["--x", "human"],
        &["--o", "ai"],
        &["--watch", "--player", "x"],
        &["--watch", "--x", "ai", "--o", "ai"],
        &["--stats-file", "/tmp/x.json", "--no-stats"],
        &["--x", "robot", "--o", "human"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_tictactoe"))
            .args(args)
            .arg("--plain")
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn without_a_terminal_the_game_points_to_plain_and_analyze() {
    let out = Command::new(env!("CARGO_BIN_EXE_tictactoe"))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1);
    assert!(
        stderr.contains("--plain") && stderr.contains("tictactoe analyze"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty(), "no escape codes on a pipe");
}

#[test]
fn a_line_that_is_not_utf8_is_a_bad_move_like_any_other() {
    let out = plain(&["--seed", "1"], b"\xff\xfe\n5\nquit\n");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let transcript = text(&out);
    let lines: Vec<&str> = transcript.lines().collect();
    let at = lines
        .iter()
        .position(|line| line.starts_with("error:"))
        .unwrap_or_else(|| panic!("an error line in\n{transcript}"));
    assert_eq!(
        lines[at],
        "error: \"\u{fffd}\u{fffd}\" is not a move: type a digit 1-9 or a square from a1 to c3, or help"
    );
    assert_eq!(lines[at + 1], "Your turn: you are X.");
    assert!(
        transcript.contains("X plays b2."),
        "the session goes on:\n{transcript}"
    );
    assert!(out.stderr.is_empty());
}

#[test]
fn a_huge_line_is_echoed_short_and_the_session_goes_on() {
    let mut input = vec![b'z'; 10_000_000];
    input.extend(b"\n5\nquit\n");
    let out = plain(&["--seed", "1"], input);
    assert_eq!(out.status.code(), Some(0));
    let transcript = text(&out);
    assert!(
        transcript.len() < 2000,
        "{} bytes of output",
        transcript.len()
    );
    let error = transcript
        .lines()
        .find(|line| line.starts_with("error:"))
        .expect("an error line");
    let echoed = format!("\"{}…\"", "z".repeat(120));
    assert!(error.contains(&echoed), "{error}");
    assert!(transcript.contains("X plays b2."), "{transcript}");
    // A bad line of ordinary length is echoed whole.
    let out = plain(&[], format!("{}\nquit\n", "q".repeat(120)));
    assert!(text(&out).contains(&format!("\"{}\" is not a move", "q".repeat(120))));
}

fn counted_games(stats: &std::path::Path) -> u64 {
    tictactoe_game::stats::StatsFile::at(stats)
        .read()
        .map_or(0, |stats| stats.games())
}

/// A seed with which X, a person playing squares 1 to 9 in turn against a
/// random O, ends the game with their own move; and X's moves in that game.
fn game_that_x_ends() -> (u64, Vec<String>) {
    let every_square = "1\n2\n3\n4\n5\n6\n7\n8\n9\nquit\n";
    for seed in 0..100u64 {
        let out = plain(
            &["--difficulty", "random", "--seed", &seed.to_string()],
            every_square,
        );
        let transcript = text(&out);
        let plays: Vec<&str> = transcript
            .lines()
            .filter(|line| line.contains(" plays "))
            .collect();
        let over = transcript.contains("wins: you") || transcript.contains("Draw.");
        if over && plays.last().is_some_and(|last| last.starts_with("X plays")) {
            let moves = plays
                .iter()
                .filter_map(|line| line.strip_prefix("X plays "))
                .map(|square| square.trim_end_matches('.').to_string())
                .collect();
            return (seed, moves);
        }
    }
    panic!("no seed in 0..100 lets X end the game");
}

#[test]
fn a_finished_game_is_counted_even_when_the_reader_has_gone() {
    use std::io::{BufRead, BufReader};
    let (seed, moves) = game_that_x_ends();
    let folder = tempfile::tempdir().unwrap();
    let stats = folder.path().join("stats.json");
    let mut child = Command::new(env!("CARGO_BIN_EXE_tictactoe"))
        .args([
            "--plain",
            "--difficulty",
            "random",
            "--seed",
            &seed.to_string(),
        ])
        .arg("--stats-file")
        .arg(&stats)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the game starts");
    let mut input = child.stdin.take().unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap());
    let (last, before_last) = moves.split_last().expect("X moved");
    // Play up to X's last move, reading every prompt.
    let mut prompts = 0;
    for mv in before_last {
        writeln!(input, "{mv}").unwrap();
    }
    let mut line = String::new();
    while prompts <= before_last.len() {
        line.clear();
        assert!(
            output.read_line(&mut line).unwrap() > 0,
            "the game ended early"
        );
        if line.starts_with("Your turn") {
            prompts += 1;
        }
    }
    // The reader goes away (as `| head` does), then X's move ends the game.
    drop(output);
    writeln!(input, "{last}\nquit").unwrap();
    drop(input);
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0), "a reader leaving is not an error");
    assert_eq!(counted_games(&stats), 1, "the finished game was counted");
}

#[test]
fn undoing_a_finished_game_takes_its_count_back_out() {
    let (seed, moves) = game_that_x_ends();
    let folder = tempfile::tempdir().unwrap();
    let stats = folder.path().join("stats.json");
    let stats_arg = stats.to_str().unwrap();
    let game = |extra: &str| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tictactoe"))
            .args([
                "--plain",
                "--difficulty",
                "random",
                "--seed",
                &seed.to_string(),
            ])
            .args(["--stats-file", stats_arg])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let input = format!("{}\n{extra}quit\n", moves.join("\n"));
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success());
    };
    game("undo\n");
    assert_eq!(counted_games(&stats), 0, "counted, then taken back out");
    game("undo\nredo\n");
    assert_eq!(counted_games(&stats), 1, "redo counts it again");
    game("");
    assert_eq!(counted_games(&stats), 2);
}

#[test]
fn moves_piped_in_are_played_and_counted_even_when_nobody_reads_the_output() {
    // As with `| head -1`, but certain: the reader is gone before the game starts.
    let folder = tempfile::tempdir().unwrap();
    let stats = folder.path().join("stats.json");
    let mut child = Command::new(env!("CARGO_BIN_EXE_tictactoe"))
        .args(["--plain", "--seed", "1", "--stats-file"])
        .arg(&stats)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the game starts");
    drop(child.stdout.take());
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"1\n2\n3\n4\n5\n6\n7\n8\n9\nquit\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "a reader leaving is not an error"
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        counted_games(&stats),
        1,
        "every move was played and the game counted"
    );
}

#[test]
fn output_that_fails_otherwise_is_one_error_line_and_the_game_still_counts() {
    let folder = tempfile::tempdir().unwrap();
    let stats = folder.path().join("stats.json");
    let mut child = Command::new(env!("CARGO_BIN_EXE_tictactoe"))
        .args(["--plain", "--seed", "1", "--stats-file"])
        .arg(&stats)
        .stdin(Stdio::piped())
        .stdout(std::fs::File::create("/dev/full").expect("/dev/full"))
        .stderr(Stdio::piped())
        .spawn()
        .expect("the game starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"1\n2\n3\n4\n5\n6\n7\n8\n9\nquit\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("error: "), "{stderr}");
    assert_eq!(counted_games(&stats), 1);
}

#[test]
fn the_side_is_read_in_either_case() {
    // --player X, as a student writes the side.
    let out = support::tictactoe(&["--plain", "--player", "X", "--no-stats"], "quit\n");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = support::tictactoe(&["--plain", "--player", "O", "--no-stats"], "quit\n");
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("you are O"));
}

//! The headless commands through the real binary: output, JSON shape and exit statuses.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use serde_json::{Value, json};

use crate::support;

use support::tictactoe;

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("output is UTF-8")
}

#[test]
fn analyze_json_has_the_documented_shape() {
    let out = tictactoe(&["analyze", "xox/oox/...", "--json"], "");
    assert_eq!(out.status.code(), Some(0));
    let stdout = text(&out.stdout);
    assert_eq!(stdout.lines().count(), 1);
    let answer: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(answer["board"], "xox/oox/...");
    assert_eq!(answer["to_move"], "x");
    assert_eq!(answer["status"], "in-progress");
    assert_eq!(answer["value"], 10);
    assert_eq!(answer["scores"], "depth");
    assert_eq!(answer["best"], "c3");
    let moves: Vec<(i64, i64, i64)> = answer["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["row"].as_i64().unwrap(),
                m["col"].as_i64().unwrap(),
                m["score"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(moves, vec![(2, 0, -9), (2, 1, 0), (2, 2, 10)]);
    // Answered from the table: nothing searched.
    assert_eq!(answer["nodes"], 0);
    assert_eq!(answer["method"], "table");
    assert_eq!(answer["value_exact"], true);
    assert_eq!(answer["result"], "x-wins");
}

#[test]
fn analyze_text_reads_like_the_seed_driver() {
    let out = tictactoe(&["analyze", "xox/oox/..."], "");
    assert_eq!(out.status.code(), Some(0));
    let stdout = text(&out.stdout);
    for expected in [
        "X to move",
        "\n        a    b    c\n   1    X    O    X\n",
        "\n   3   -9    0  +10\n",
        "\n  a3 (row 2, col 0)    -9  loss in 1\n",
        "\n  c3 (row 2, col 2)   +10  win in 1  <- best\n",
        "The value of the best move is 10 (+10 = 10 - depth 0: X wins on this move)",
        "The optimal move is: c3 (row 2, col 2)",
        "Verdict: X wins in 1",
        "Positions searched: ",
    ] {
        assert!(
            stdout.contains(expected),
            "missing {expected:?} in\n{stdout}"
        );
    }
}

#[test]
fn finished_boards_are_answered_not_refused() {
    for (board, status) in [
        ("xxx/oo./...", "x-wins"),
        ("ooo/xx./x..", "o-wins"),
        ("xox/xoo/oxx", "draw"),
    ] {
        let out = tictactoe(&["analyze", board, "--json"], "");
        assert_eq!(out.status.code(), Some(0), "{board}");
        let answer: Value = serde_json::from_str(&text(&out.stdout)).unwrap();
        assert_eq!(answer["status"], status);
        assert_eq!(answer["to_move"], Value::Null);
        assert_eq!(answer["value"], Value::Null);
        assert_eq!(answer["best"], Value::Null);
        assert_eq!(answer["moves"], json!([]));
    }
}

#[test]
fn bad_board_argument_is_one_line_and_status_2() {
    for bad in ["xoz/...", "", "xx./.../...", "xxx/ooo/x..", "x.", "-x"] {
        let out = tictactoe(&["analyze", bad], "");
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        let stderr = text(&out.stderr);
        assert_eq!(stderr.lines().count(), 1, "{bad:?}: {stderr}");
        assert!(stderr.starts_with("error: "), "{stderr}");
        assert!(!stderr.contains("panicked") && !stderr.contains("backtrace"));
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn batch_answers_every_line_and_flags_the_bad_one() {
    let out = tictactoe(
        &["analyze", "-", "--json"],
        "xox/oox/...\nnot a board\n.........\nxx./.../...\n",
    );
    assert_eq!(out.status.code(), Some(2));
    let answers: Vec<Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers.len(), 4);
    assert_eq!(answers[0]["best"], "c3");
    assert_eq!(answers[1]["line"], 2);
    assert_eq!(answers[1]["input"], "not a board");
    assert!(
        answers[1]["error"]
            .as_str()
            .unwrap()
            .contains("'n' at position 1")
    );
    assert_eq!(answers[2]["value"], 0);
    assert_eq!(answers[3]["line"], 4);
    assert!(
        answers[3]["error"]
            .as_str()
            .unwrap()
            .contains("impossible position")
    );
}

#[test]
fn batch_in_text_mode_reports_errors_on_stderr() {
    // An error first: no blank line before the first answer.
    let leading = tictactoe(&["analyze", "-"], "bad\n.........\n");
    assert!(
        text(&leading.stdout).starts_with("Board .../.../..."),
        "{}",
        text(&leading.stdout)
    );
    let out = tictactoe(&["analyze", "-"], "xox/oox/...\nbad\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stdout).contains("The optimal move is: c3 (row 2, col 2)"));
    assert_eq!(
        text(&out.stderr).trim(),
        format!(
            "line 2: error: {}",
            "unexpected character 'b' at position 1: cells are x, o or . (also _, - or the cell's number from 0), rows may be separated by / and cells by spaces"
        )
    );
    let clean = tictactoe(&["analyze", "-"], "xox/oox/...\r\n.........\r\n");
    assert_eq!(clean.status.code(), Some(0), "{}", text(&clean.stderr));
}

#[test]
fn best_prints_row_and_col_for_scripts() {
    let out = tictactoe(&["best", "o.x/x.x/.oo"], "");
    assert_eq!(
        (out.status.code(), text(&out.stdout)),
        (Some(0), "1 1\n".to_string())
    );
    // The same square as the game names it: column b, row 2.
    let coord = tictactoe(&["best", "o.x/x.x/.oo", "--coord"], "");
    assert_eq!(
        (coord.status.code(), text(&coord.stdout)),
        (Some(0), "b2\n".to_string())
    );
    let bigger = tictactoe(&["best", "xxx./ooo./..../....", "--coord"], "");
    assert_eq!(text(&bigger.stdout), "d1\n");
    let over = tictactoe(&["best", "xxx/oo./..."], "");
    assert_eq!(over.status.code(), Some(1));
    assert!(text(&over.stderr).contains("no move to make: X won"));
    let bad = tictactoe(&["best", "xyz"], "");
    assert_eq!(bad.status.code(), Some(2));
    let many = tictactoe(&["best", "-"], "xox/oox/...\n");
    assert_eq!(many.status.code(), Some(2));
    assert!(text(&many.stderr).contains("analyze - --json"));
}

#[test]
fn usage_errors_are_one_line_and_status_2() {
    for (args, says) in [
        (&["--bogus"][..], "unexpected argument '--bogus'"),
        (
            &["--bord", "x........"],
            "a similar argument exists: '--board'",
        ),
        (
            &["--difficulty", "godlike"],
            "possible values: random, easy, medium, hard, perfect",
        ),
        (&["--x", "human"], "--o"),
        (
            &[
                "selfplay", "--x", "perfect", "--o", "random", "--games", "0",
            ],
            "0 is not in 1..",
        ),
        (&["analyze", "--json"], "BOARD"),
    ] {
        let out = tictactoe(args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = text(&out.stderr);
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(
            stderr.starts_with("error: ") && stderr.contains(says),
            "{args:?}: {stderr}"
        );
    }
    let version = tictactoe(&["--version"], "");
    assert_eq!(version.status.code(), Some(0));
    assert!(text(&version.stdout).starts_with("tictactoe "));
}

#[test]
fn usage_errors_are_status_2_and_help_works() {
    assert_eq!(tictactoe(&["analyze"], "").status.code(), Some(2));
    assert_eq!(
        tictactoe(&["analyze", "...", "--bogus"], "").status.code(),
        Some(2)
    );
    let help = tictactoe(&["--help"], "");
    assert_eq!(help.status.code(), Some(0));
    assert!(text(&help.stdout).contains("analyze"));
}

#[test]
fn a_reader_that_leaves_early_is_not_an_error() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tictactoe"))
        .args(["analyze", "-", "--json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        for _ in 0..20_000 {
            if stdin.write_all(b".........\n").is_err() {
                break;
            }
        }
    });
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.contains("\"board\""));
    // Dropping the reader closes the pipe; the process must end quietly.
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stderr).is_empty(), "{}", text(&out.stderr));
}

#[test]
fn selfplay_prints_a_tally_and_json() {
    let out = tictactoe(
        &[
            "selfplay", "--x", "perfect", "--o", "random", "--games", "200", "--seed", "3",
            "--json",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report: Value = serde_json::from_str(&text(&out.stdout)).unwrap();
    let count = |field: &str| {
        report[field]
            .as_u64()
            .or_else(|| report["tally"][field].as_u64())
            .unwrap_or_else(|| panic!("{field} in {report}"))
    };
    assert_eq!(count("games"), 200);
    assert_eq!(count("x-wins") + count("o-wins") + count("draw"), 200);
    assert_eq!(count("o-wins"), 0, "perfect never loses");
    assert!(report["seconds"].as_f64().unwrap() >= 0.0);
    assert_eq!(count("seed"), 3);
    let again = tictactoe(
        &[
            "selfplay", "--x", "perfect", "--o", "random", "--games", "200", "--seed", "3",
            "--json",
        ],
        "",
    );
    let again: Value = serde_json::from_str(&text(&again.stdout)).unwrap();
    assert_eq!(again["tally"], report["tally"]);

    let plain = tictactoe(
        &["selfplay", "--x", "easy", "--o", "hard", "--games", "10"],
        "",
    );
    assert_eq!(plain.status.code(), Some(0));
    let stdout = text(&plain.stdout);
    assert!(
        stdout.starts_with("10 games, X (easy) against O (hard):"),
        "{stdout}"
    );
    assert!(stdout.contains(" per second); seed "), "{stdout}");
    // A bigger board is named; the classic one goes without saying.
    let four = tictactoe(
        &[
            "selfplay", "--x", "perfect", "--o", "random", "--games", "2", "--size", "4",
        ],
        "",
    );
    assert!(
        text(&four.stdout)
            .starts_with("2 games on 4x4 (4 in a row), X (perfect) against O (random):"),
        "{}",
        text(&four.stdout)
    );

    // One game is one game; counts get thousands separators, the seed does not.
    let one = tictactoe(
        &[
            "selfplay", "--x", "perfect", "--o", "perfect", "--games", "1", "--seed", "12345",
        ],
        "",
    );
    let stdout = text(&one.stdout);
    assert!(
        stdout.starts_with("1 game, X (perfect) against O (perfect):\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("\n  draws          1  100.0 %\n"),
        "{stdout}"
    );
    assert!(stdout.trim_end().ends_with("; seed 12345"), "{stdout}");
    let many = tictactoe(
        &[
            "selfplay", "--x", "perfect", "--o", "perfect", "--games", "1000", "--seed", "1",
        ],
        "",
    );
    let stdout = text(&many.stdout);
    assert!(stdout.starts_with("1,000 games, X (perfect)"), "{stdout}");
    assert!(
        stdout.contains("\n  draws      1,000  100.0 %\n"),
        "{stdout}"
    );
}

#[test]
fn selfplay_refuses_bad_arguments() {
    for args in [
        &["selfplay", "--x", "genius", "--o", "random", "--games", "5"][..],
        &[
            "selfplay", "--x", "perfect", "--o", "random", "--games", "0",
        ],
        &[
            "selfplay", "--x", "perfect", "--o", "random", "--games", "-3",
        ],
        &["selfplay", "--x", "perfect", "--games", "5"],
    ] {
        let out = tictactoe(args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            text(&out.stderr).starts_with("error:"),
            "{}",
            text(&out.stderr)
        );
    }
}

#[test]
fn analyze_and_best_are_deterministic() {
    let first = tictactoe(&["analyze", ".........", "--json"], "");
    for _ in 0..3 {
        let again = tictactoe(&["analyze", ".........", "--json"], "");
        assert_eq!(again.stdout, first.stdout);
        assert_eq!(text(&tictactoe(&["best", "........."], "").stdout), "0 0\n");
    }
}

#[test]
fn the_command_line_definition_is_consistent() {
    use clap::CommandFactory;
    tictactoe::cli::Cli::command().debug_assert();
}

#[test]
fn standard_input_that_cannot_be_read_is_one_line_and_status_1() {
    let folder = tempfile::tempdir().unwrap();
    for args in [&["analyze", "-"][..], &["--plain", "--no-stats"]] {
        let out = Command::new(env!("CARGO_BIN_EXE_tictactoe"))
            .args(args)
            .stdin(std::fs::File::open(folder.path()).unwrap())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let stderr = text(&out.stderr);
        assert_eq!(
            stderr, "error: cannot read standard input: Is a directory (os error 21)\n",
            "{args:?}"
        );
    }
}

#[test]
fn think_ms_is_at_most_ten_minutes_everywhere() {
    let selfplay = ["selfplay", "--x", "easy", "--o", "easy", "--games", "1"];
    let commands: [&[&str]; 4] = [
        &["--plain", "--no-stats"],
        &["analyze", "........."],
        &["best", "........."],
        &selfplay,
    ];
    for command in commands {
        for too_long in ["600001", "18446744073709551615"] {
            let args = [command, &["--think-ms", too_long]].concat();
            let out = tictactoe(&args, "quit\n");
            assert_eq!(out.status.code(), Some(2), "{args:?}");
            let stderr = text(&out.stderr);
            assert!(
                stderr.starts_with("error: ") && stderr.contains("is not in 0..=600000"),
                "{args:?}: {stderr}"
            );
        }
        let args = [command, &["--think-ms", "600000"]].concat();
        let out = tictactoe(&args, "quit\n");
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
}

#[test]
fn completion_scripts_name_every_command() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = tictactoe(&["completions", shell], "");
        assert_eq!(out.status.code(), Some(0), "{shell}: {}", text(&out.stderr));
        let script = text(&out.stdout);
        for word in [
            "analyze",
            "best",
            "selfplay",
            "stats",
            "completions",
            "man",
            "think-ms",
        ] {
            assert!(script.contains(word), "{shell} script lacks {word}");
        }
    }
    let out = tictactoe(&["completions", "tcsh"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("possible values: bash, elvish, fish, powershell, zsh"));
}

#[test]
fn the_man_page_is_roff_with_every_flag_of_every_command() {
    use clap::CommandFactory;
    let out = tictactoe(&["man"], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let page = text(&out.stdout);
    assert!(page.contains(".TH tictactoe 1"), "{page}");
    for section in [".SH NAME", ".SH SYNOPSIS", ".SH OPTIONS", ".SH COMMANDS"] {
        assert!(page.contains(section), "{section} in\n{page}");
    }
    assert!(page.contains("tictactoe \\- Perfect tic\\-tac\\-toe"));
    // roff escapes every hyphen.
    let roff = |flag: &str| format!("\\fB\\-\\-{}\\fR", flag.replace('-', "\\-"));
    let cli = tictactoe::cli::Cli::command();
    let commands = std::iter::once(&cli).chain(cli.get_subcommands());
    for command in commands {
        for long in command.get_arguments().filter_map(|arg| arg.get_long()) {
            assert!(
                page.contains(&roff(long)),
                "--{long} of {} in the page",
                command.get_name()
            );
        }
    }
    for command in ["analyze", "best", "selfplay", "stats"] {
        let heading = format!(".SH \"TICTACTOE {} OPTIONS\"", command.to_uppercase());
        assert!(page.contains(&heading), "{heading}");
    }
}

#[test]
fn the_fish_script_spells_every_flag_so_fish_argparse_reads_it() {
    // fish's argparse takes `x=` for a short flag and `x-level=` for a hidden
    // short `x` with the long flag `level`; a long flag like that needs a
    // hidden short letter of its own (`A-x=`), each letter used once.
    let script = text(&tictactoe(&["completions", "fish"], "").stdout);
    let specs: Vec<&str> = script
        .lines()
        .find_map(|line| line.trim_start().strip_prefix("string join \\n "))
        .expect("the list of flags for argparse")
        .split_whitespace()
        .collect();
    let mut shorts = Vec::new();
    let mut longs = Vec::new();
    for spec in &specs {
        let spec = spec.trim_end_matches('=');
        match spec.split_once(['/', '-']) {
            Some((short, long)) if short.chars().count() == 1 => {
                shorts.push(short);
                longs.push(long);
            }
            _ => {
                assert!(spec.chars().count() > 1, "{spec} reads as a short flag");
                longs.push(spec);
            }
        }
    }
    let mut unique = shorts.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), shorts.len(), "{specs:?}");
    for long in [
        "x", "o", "k", "x-level", "o-level", "think-ms", "plain", "help",
    ] {
        assert!(longs.contains(&long), "--{long} in {specs:?}");
    }
}

#[test]
fn text_analyze_says_when_the_best_move_is_only_the_best_found() {
    // No time to think on 7x7: every score is an estimate.
    let empty = ".......".repeat(7);
    let out = tictactoe(&["analyze", "--think-ms", "0", "--", &empty], "");
    let stdout = text(&out.stdout);
    assert!(!stdout.contains("The optimal move"), "{stdout}");
    assert!(
        stdout.contains("\nThe best move found is: d4 (row 3, col 3), not proven optimal\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("\nThe value of the best move found is: "),
        "{stdout}"
    );
    assert!(!stdout.contains("estimate (estimated)"), "{stdout}");
    // Proven with --solve on 4x4: the optimal move, and a count with separators.
    let out = tictactoe(&["analyze", "..../..../..../....", "--solve"], "");
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("\nThe optimal move is: a1 (row 0, col 0)\n"),
        "{stdout}"
    );
    let searched = stdout
        .lines()
        .find_map(|line| line.strip_prefix("Positions searched: "))
        .expect("the count");
    assert!(
        searched.contains(',') && searched.replace(',', "").parse::<u64>().unwrap() > 1000,
        "{searched}"
    );
}

#[test]
fn stats_in_text_say_one_game_not_one_games() {
    let folder = tempfile::tempdir().unwrap();
    let file = folder.path().join("stats.json");
    let file = file.to_str().unwrap();
    let moves = "1\n2\n3\n4\n5\n6\n7\n8\n9\nquit\n";
    let game = tictactoe(
        &[
            "--plain",
            "--stats-file",
            file,
            "--difficulty",
            "random",
            "--seed",
            "3",
        ],
        moves,
    );
    assert_eq!(game.status.code(), Some(0), "{}", text(&game.stderr));
    let out = tictactoe(&["stats", "--stats-file", file], "");
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with("1 game against the AI: "), "{stdout}");
}

/// The calls of `trace --json`, parsed.
fn trace_json(args: &[&str]) -> Vec<Value> {
    let out = tictactoe(args, "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    text(&out.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON object per line"))
        .collect()
}

#[test]
fn trace_replays_the_freecodecamp_walkthrough() {
    let out = tictactoe(&["trace", "o.x/x.x/.oo"], "");
    assert_eq!(out.status.code(), Some(0));
    let stdout = text(&out.stdout);
    let rows: Vec<&str> = stdout
        .lines()
        .filter(|line| {
            line.get(..4)
                .is_some_and(|n| n.trim().parse::<u32>().is_ok())
        })
        .collect();
    assert_eq!(rows.len(), 9, "{stdout}");
    assert!(
        rows[4].contains("b2 X") && rows[4].ends_with("+10  X won"),
        "{stdout}"
    );
    assert!(
        stdout.contains("Best move: b2 (row 1, col 1), call 5: +10 = 10 - depth 0"),
        "{stdout}"
    );

    let calls = trace_json(&["trace", "o.x/x.x/.oo", "--json"]);
    assert_eq!(calls.len(), 9);
    assert_eq!(
        calls[0],
        json!({"call":1,"parent":null,"depth":null,"move":null,"row":null,"col":null,"board":"o.x/x.x/.oo","maximizing":true,"score":10,"bound":"exact"})
    );
    for (i, call) in calls.iter().enumerate() {
        assert_eq!(call["call"], i + 1);
        let keys: Vec<&str> = call
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            keys.len(),
            10,
            "call, parent, depth, move, row, col, board, maximizing, score, bound: {call}"
        );
        assert_eq!(call["bound"], "exact", "plain minimax returns values");
        // Every call's score is the max or min of its calls' scores.
        let children: Vec<i64> = calls
            .iter()
            .filter(|c| c["parent"] == call["call"])
            .map(|c| c["score"].as_i64().unwrap())
            .collect();
        if let Some(expected) = if call["maximizing"] == true {
            children.iter().max()
        } else {
            children.iter().min()
        } {
            assert_eq!(call["score"].as_i64(), Some(*expected), "{call}");
        }
    }
}

#[test]
fn trace_with_alpha_beta_marks_its_cut() {
    let calls = trace_json(&["trace", "o.x/x.x/.oo", "--json", "--alpha-beta"]);
    assert_eq!(calls.len(), 8, "one call fewer than plain minimax");
    assert_eq!(calls[0]["alpha"], Value::Null);
    assert_eq!(calls[5]["call"], 6);
    assert_eq!(calls[5]["alpha"], 10);
    assert_eq!(calls[5]["cut"], json!(["b2"]));
    let out = tictactoe(&["trace", "o.x/x.x/.oo", "--alpha-beta"], "");
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains(
            "└─ cut after call 7: b2 O not searched (+8 <= alpha +10: X has better elsewhere)"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("8 calls (plain minimax makes 9)."),
        "{stdout}"
    );
}

#[test]
fn trace_and_tree_refuse_what_is_too_big_and_what_is_not_a_board() {
    for (args, status, says) in [
        (
            vec!["trace", "........."],
            1,
            "(549,946 calls) is longer than --max-calls 5,000: raise --max-calls (up to 1,000,000)",
        ),
        (
            vec!["trace", "xxxo/oo../..../....", "--max-calls", "1000000"],
            1,
            "longer than --max-calls 1,000,000: trace a position with fewer",
        ),
        (
            vec!["trace", ".........", "--alpha-beta"],
            1,
            "(20,866 calls)",
        ),
        (vec!["tree", "........."], 1, "--depth 4 (3,610 positions)"),
        (vec!["trace", "xx./.../..."], 2, "impossible position"),
        (vec!["tree", "nonsense"], 2, "unexpected character 'n'"),
        (
            vec!["trace", "o.x/x.x/.oo", "--max-calls", "0"],
            2,
            "--max-calls",
        ),
        (
            vec!["trace", "o.x/x.x/.oo", "--max-calls", "1000001"],
            2,
            "--max-calls",
        ),
        (vec!["tree", "o.x/x.x/.oo", "--depth", "50"], 2, "--depth"),
        (vec!["tree", "o.x/x.x/.oo", "--size", "4"], 2, "not 4x4"),
    ] {
        let out = tictactoe(&args, "");
        assert_eq!(out.status.code(), Some(status), "{args:?}");
        let stderr = text(&out.stderr);
        assert_eq!(stderr.lines().count(), 1, "{args:?}: one line\n{stderr}");
        assert!(stderr.starts_with("error:"), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    // Raised limits let the whole empty board through.
    let out = tictactoe(&["tree", ".........", "--depth", "1"], "");
    assert_eq!(out.status.code(), Some(0));
    // The root, its nine moves and the line that says how scores count.
    assert_eq!(text(&out.stdout).lines().count(), 11);
}

#[test]
fn tree_prints_text_and_graphviz() {
    let out = tictactoe(&["tree", "o.x/x.x/.oo"], "");
    assert_eq!(out.status.code(), Some(0));
    let stdout = text(&out.stdout);
    assert_eq!(
        stdout.lines().next(),
        Some("o.x/x.x/.oo  +10  X wins in 1 · X to move, takes the maximum (8 below)")
    );
    assert_eq!(stdout.lines().count(), 10);
    assert_eq!(
        stdout.lines().last(),
        Some(
            "Scores: depth 0 is the position after the root's move; a win at depth d scores 10 - d, a loss -10 + d, a draw 0, counted from the root."
        )
    );
    assert!(
        stdout.contains("├── b2 X  +10  X won  ◀ X's choice"),
        "{stdout}"
    );

    let out = tictactoe(&["tree", "o.x/x.x/.oo", "--dot"], "");
    let dot = text(&out.stdout);
    assert!(
        dot.starts_with("digraph minimax {\n") && dot.ends_with("}\n"),
        "{dot}"
    );
    // Nine positions, eight moves, numbered as the trace numbers its calls.
    assert_eq!(dot.matches(" [label=\"call ").count(), 9, "{dot}");
    assert_eq!(dot.matches(" -> ").count(), 8, "{dot}");
    assert!(
        dot.contains("n1 -> n5 [label=\"b2 X\", penwidth=3];"),
        "{dot}"
    );
    // A finished position is one line, and the legend.
    let out = tictactoe(&["tree", "xxx/oo./...", "--scores", "plain"], "");
    assert_eq!(
        text(&out.stdout),
        "xxx/oo./...  -10  X won\nScores: a win scores +10, a loss -10, a draw 0, however deep.\n"
    );
}

#[test]
fn analyze_gives_every_move_its_line() {
    let out = tictactoe(&["analyze", "xox/oox/...", "--json"], "");
    let answer: Value = serde_json::from_str(&text(&out.stdout)).unwrap();
    let lines: Vec<&Value> = answer["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| &m["line"])
        .collect();
    assert_eq!(lines, [&json!(["b3"]), &json!(["c3", "a3"]), &json!([])]);
    assert!(
        answer["moves"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["line_proven"] == true)
    );
    let out = tictactoe(&["analyze", "........."], "");
    assert!(
        text(&out.stdout)
            .contains("\nBest play: a1 X, b2 O, b1 X, c1 O, a3 X, a2 O, c2 X, b3 O, c3 X: draw\n")
    );
    let out = tictactoe(&["best", "o.x/x.x/.oo"], "");
    assert_eq!(text(&out.stdout), "1 1\n", "best stays as it is");
}

/// Help, the version and every command's output written to a full disk is a
/// failure with one line saying so, never a silent success.
#[test]
#[cfg(target_os = "linux")]
fn output_to_a_full_disk_is_a_failure_with_one_line() {
    let full = || std::fs::OpenOptions::new().write(true).open("/dev/full");
    for args in [
        &["--help"][..],
        &["--version"],
        &["analyze", "--help"],
        &["analyze", "xox/oox/..."],
        &["man"],
    ] {
        let out = support::binary()
            .args(args)
            .stdout(full().expect("/dev/full opens"))
            .output()
            .expect("the binary runs");
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8(out.stderr).expect("UTF-8");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains("No space left on device"), "{args:?}: {err}");
    }
}

#[test]
fn commands_of_one_board_refuse_standard_input_and_say_which_reads_many() {
    for command in ["best", "tree", "trace"] {
        let out = tictactoe(&[command, "-"], "xox/oox/...\n");
        assert_eq!(out.status.code(), Some(2), "{command}");
        assert_eq!(
            text(&out.stderr),
            format!(
                "error: {command} takes one board; for many, use `tictactoe analyze - --json`\n"
            ),
            "{command}"
        );
        assert!(out.stdout.is_empty(), "{command}");
    }
}

#[test]
fn analyze_answers_each_board_before_it_reads_the_next() {
    // A program that writes one board and waits for its answer: the answers
    // are written in blocks, but never held back while the input waits.
    let mut child = support::binary()
        .args(["analyze", "-", "--json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary starts");
    let mut input = child.stdin.take().expect("its input");
    let (sender, answers) = std::sync::mpsc::channel();
    let stdout = child.stdout.take().expect("its output");
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if sender.send(line.expect("a line")).is_err() {
                break;
            }
        }
    });
    for (board, best) in [("xox/oox/...", "c3"), ("o.x/x.x/.oo", "b2")] {
        writeln!(input, "{board}").expect("a board written");
        input.flush().expect("flushed");
        let line = support::eventually(
            || answers.try_recv().ok(),
            || format!("no answer to {board} while the input stays open"),
        );
        let answer: Value = serde_json::from_str(&line).expect("one JSON line");
        assert_eq!(answer["best"], best);
    }
    drop(input);
    assert!(child.wait().expect("it ends").success());
}

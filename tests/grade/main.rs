//! `tictactoe grade` against students written as small programs: the
//! GeeksforGeeks port in `examples/student.rs` (built here with rustc, one
//! flag per usual mistake or misbehaviour), shell one-liners, and CS50
//! modules in `examples/students/` (run through the shim with python3).
//!
//! Every right answer is the engine's: the tests compare with what
//! `teach::reference` computes, never with a convention written here, and
//! one test checks that this is the articles' own printed numbers
//! (GeeksforGeeks' findBestMove scores the board after a move at depth 0,
//! so a win on the move is +10).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

use serde_json::Value;
use tictactoe_engine::teach::reference::{Algorithm, move_values};
use tictactoe_engine::{Board, Scoring};

#[path = "../support/mod.rs"]
mod support;

mod tutor;

use support::student::build_student;
use support::{binary, eventually, output_within};

/// The student of `examples/student.rs`, built once for this test binary.
fn student() -> &'static Path {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("grade-students");
        fs::create_dir_all(&dir).expect("a folder for the students");
        let built = dir.join(format!("student-{}", std::process::id()));
        build_student(&built);
        built
    })
}

/// A file of `examples/students`.
fn students(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples/students")
        .join(name)
}

/// Runs `tictactoe grade ARGS -- PROGRAM...` and waits for it (a grader
/// that never ends is a hang: the test fails).
fn grade(args: &[&str], program: &[&str]) -> Output {
    let child = binary()
        .arg("grade")
        .args(args)
        .arg("--")
        .args(program)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the grader starts");
    output_within(child, "grade")
}

/// `grade ARGS -- student STUDENT_ARGS`.
fn grade_student(args: &[&str], student_args: &[&str]) -> Output {
    let path = student().to_str().expect("a UTF-8 path");
    let program: Vec<&str> = std::iter::once(path)
        .chain(student_args.iter().copied())
        .collect();
    grade(args, &program)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8")
}

/// The summary object of `grade --json`: its last line.
fn summary(out: &Output) -> Value {
    let stdout = text(&out.stdout);
    let last = stdout.lines().last().expect("a summary line");
    let line: Value = serde_json::from_str(last).expect("JSON");
    line["summary"].clone()
}

/// The mistake named for the answers (moves or scores), if any.
fn diagnosed(out: &Output) -> Option<String> {
    summary(out)["diagnosis"]["answers"]["mistake"]
        .as_str()
        .map(str::to_string)
}

/// The depth the engine counts the board after a move at: where its score
/// for a win on the move (GeeksforGeeks' board, c3) is `10 - depth`. The
/// student is told to count as the engine does.
fn engine_move_depth() -> String {
    let board: Board = "xox/oox/...".parse().unwrap();
    let scores = move_values(&board, Algorithm::Minimax, Scoring::Depth).moves;
    let win = scores.iter().map(|&(_, score)| score).max().unwrap();
    (board.geometry().win_score() - win).to_string()
}

#[test]
fn a_correct_student_is_right_on_all_4520_positions() {
    let out = grade_student(&[], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("\n4,520/4,520 right\n"), "{stdout}");
    assert!(!stdout.contains("Diagnosis"), "{stdout}");
    // Asked every score, counted as the engine counts them, in both forms.
    let depth = engine_move_depth();
    for form in [
        &["--move-depth", depth.as_str()][..],
        &["--move-depth", &depth, "--nine"],
    ] {
        let out = grade_student(&["--ask", "scores"], form);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    }
    // The bare scores of the articles' code: no depth at all.
    let out = grade_student(
        &["--ask", "scores", "--scores", "plain"],
        &["--mistake", "no-depth"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
}

#[test]
fn every_usual_mistake_is_diagnosed_by_name() {
    // The student counts as the engine does, then one ply deeper.
    let depth = engine_move_depth();
    let cases: [(&[&str], Vec<&str>, &str); 9] = [
        (&[], vec!["--mistake", "no-depth"], "no-depth"),
        (&[], vec!["--mistake", "x-always-max"], "x-always-max"),
        (&[], vec!["--mistake", "player-always-x"], "player-always-x"),
        (&[], vec!["--mistake", "wrong-side"], "wrong-side"),
        (
            &[],
            vec!["--mistake", "full-board-first"],
            "full-board-first",
        ),
        (
            &["--ask", "scores"],
            vec!["--mistake", "depth-one-off", "--move-depth", &depth],
            "depth-one-off",
        ),
        (
            &["--ties", "first"],
            vec!["--mistake", "keeps-last"],
            "keeps-last",
        ),
        (
            &["--ties", "first"],
            vec!["--mistake", "column-order"],
            "column-order",
        ),
        (&["--ties", "last"], vec![], "keeps-first"),
    ];
    for (args, student_args, name) in cases {
        let mut args = args.to_vec();
        args.push("--json");
        let out = grade_student(&args, &student_args);
        assert_eq!(out.status.code(), Some(1), "{name}: {}", text(&out.stderr));
        assert_eq!(
            diagnosed(&out).as_deref(),
            Some(name),
            "{args:?} {student_args:?}"
        );
        let summary = summary(&out);
        assert_eq!(summary["ended"], "done");
        assert_eq!(summary["positions"], 4520);
        assert!(summary["wrong"].as_u64().unwrap() > 0);
    }
}

#[test]
fn the_text_report_shows_the_smallest_counterexample_and_the_diagnosis() {
    let out = grade_student(&[], &["--mistake", "x-always-max"]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert!(
        stdout.lines().any(|line| line.ends_with("/4,520 right")),
        "N/4,520 right: {stdout}"
    );
    // The first wrong position shown is one of the fewest empty squares.
    let first = stdout
        .lines()
        .find(|line| line.trim_start().starts_with('#'))
        .expect("a wrong position");
    let board: Board = first.split_whitespace().nth(1).unwrap().parse().unwrap();
    assert_eq!(board.to_move(), tictactoe_engine::Player::O, "{first}");
    assert!(board.empty_cells().len() <= 3, "{first}");
    for expected in ["yours: ", "right: ", "right scores: ", "after your "] {
        assert!(stdout.contains(expected), "{expected}: {stdout}");
    }
    assert!(
        stdout.contains("Diagnosis (x-always-max): With O to move"),
        "{stdout}"
    );
}

#[test]
fn counts_of_calls_are_checked_against_trace() {
    let out = grade_student(&["--calls"], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    let out = grade_student(&["--calls", "--alpha-beta"], &["--alpha-beta"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    let cases: [(&[&str], &[&str], &str); 3] = [
        (
            &["--calls"],
            &["--mistake", "first-call-not-counted"],
            "first-call-not-counted",
        ),
        (&["--calls"], &["--alpha-beta"], "pruned"),
        (&["--calls", "--alpha-beta"], &[], "not-pruned"),
    ];
    for (args, student_args, name) in cases {
        let mut args = args.to_vec();
        args.push("--json");
        let out = grade_student(&args, student_args);
        assert_eq!(out.status.code(), Some(1), "{name}");
        let summary = summary(&out);
        assert_eq!(summary["diagnosis"]["calls"]["mistake"], name);
        assert_eq!(
            summary["diagnosis"]["answers"],
            Value::Null,
            "the moves are right"
        );
    }
    // freeCodeCamp's board: 9 calls, FC1 to FC9.
    let out = grade_student(&["--calls", "--json", "--board", "o.x/x.x/.oo"], &[]);
    let first: Value = serde_json::from_str(text(&out.stdout).lines().next().unwrap()).unwrap();
    assert_eq!(first["calls"], 9);
    assert_eq!(first["expected"]["calls"], 9);
}

#[test]
fn the_articles_own_numbers_are_right() {
    // GeeksforGeeks' findBestMove: minimax(board after the move, 0, false).
    // Its board scores c3 +10, b3 0, a3 -9, as the article prints.
    let out = grade_student(
        &["--ask", "scores", "--board", "xox/oox/...", "--json"],
        &[],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    let first: Value = serde_json::from_str(text(&out.stdout).lines().next().unwrap()).unwrap();
    assert_eq!(
        first["expected"]["scores"],
        serde_json::json!({"a3": -9, "b3": 0, "c3": 10})
    );
    // The article's student, as written, is right on every position.
    let out = grade_student(&["--ask", "scores"], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
}

#[test]
fn freecodecamps_bare_scores_are_right() {
    // freeCodeCamp's board: -10, +10, -10 for b1, b2, a3.
    let out = grade_student(
        &[
            "--ask",
            "scores",
            "--scores",
            "plain",
            "--board",
            "o.x/x.x/.oo",
            "--json",
        ],
        &["--mistake", "no-depth"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    let first: Value = serde_json::from_str(text(&out.stdout).lines().next().unwrap()).unwrap();
    assert_eq!(
        first["yours"]["scores"],
        serde_json::json!({"b1": -10, "b2": 10, "a3": -10})
    );
    assert_eq!(first["right"], true);
}

#[test]
fn json_has_a_line_per_position_and_a_summary() {
    let out = grade_student(
        &["--json", "--sample", "40", "--seed", "3"],
        &["--mistake", "no-depth"],
    );
    let stdout = text(&out.stdout);
    let lines: Vec<Value> = stdout
        .lines()
        .map(|line| serde_json::from_str(line).expect("JSON"))
        .collect();
    assert_eq!(lines.len(), 41);
    let mut empties = Vec::new();
    for (index, line) in lines[..40].iter().enumerate() {
        assert_eq!(line["number"], index as u64 + 1);
        let board: Board = line["board"].as_str().unwrap().parse().unwrap();
        empties.push(board.empty_cells().len());
        assert!(line["right"].is_boolean());
        assert!(line["yours"]["move"].is_string(), "{line}");
        assert!(
            line["expected"]["moves"]
                .as_array()
                .is_some_and(|m| !m.is_empty())
        );
        assert_eq!(line["right"], line["faults"].as_array().unwrap().is_empty());
    }
    assert!(empties.is_sorted(), "simplest first: {empties:?}");
    let summary = &lines[40]["summary"];
    assert_eq!(summary["positions"], 40);
    assert_eq!(summary["reached"], 40);
    let right = lines[..40]
        .iter()
        .filter(|line| line["right"] == true)
        .count();
    assert_eq!(summary["right"], right as u64);
    // The same seed picks the same positions.
    let again = grade_student(
        &["--json", "--sample", "40", "--seed", "3"],
        &["--mistake", "no-depth"],
    );
    assert_eq!(text(&again.stdout).lines().count(), 41);
    let boards = |out: &str| -> Vec<String> {
        out.lines()
            .take(40)
            .map(|line| serde_json::from_str::<Value>(line).unwrap()["board"].to_string())
            .collect()
    };
    assert_eq!(boards(&stdout), boards(&text(&again.stdout)));
}

/// Whether process `pid` still runs (a zombie has ended).
fn running(pid: u32) -> bool {
    match fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the command's closing parenthesis.
        Ok(stat) => stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().next())
            .is_some_and(|state| state != "Z" && state != "X"),
        Err(_) => false,
    }
}

/// Waits for every process in `pids` to end (see [`eventually`]); the
/// test fails naming those still running, after `what`.
fn all_end(pids: &[u32], what: &str) {
    let alive = || -> Vec<u32> { pids.iter().copied().filter(|&pid| running(pid)).collect() };
    eventually(
        || alive().is_empty().then_some(()),
        || format!("{what}: left running: {:?}", alive()),
    );
}

/// The process ids a wrapped student wrote: its own and its helper's.
fn pids(file: &Path) -> Vec<u32> {
    fs::read_to_string(file)
        .unwrap_or_default()
        .lines()
        .map(|line| line.trim().parse().expect("a process id"))
        .collect()
}

/// A student started by `sh`, which first writes its own process id and
/// starts a helper (`sleep`) that writes its own: both must be gone after
/// grading.
fn wrapped(pid_file: &Path, student_args: &[&str]) -> Vec<String> {
    let script = "echo $$ >> \"$0\"; sleep 600 & echo $! >> \"$0\"; exec \"$@\"";
    let mut program: Vec<String> = vec![
        "sh".into(),
        "-c".into(),
        script.into(),
        pid_file.to_str().unwrap().into(),
        student().to_str().unwrap().into(),
    ];
    program.extend(student_args.iter().map(|arg| arg.to_string()));
    program
}

#[test]
fn a_failing_program_is_reported_in_one_line_killed_and_restarted_three_times() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&str, &str); 4] = [
        (
            "crash",
            "exited with status 101 before answering; its last words on stderr: thread 'main' panicked",
        ),
        ("hang", "gave no answer within 1 s"),
        ("garbage", "answered `Thinking about"),
        ("flood", "flooded its output"),
    ];
    for (misbehaviour, says) in cases {
        let pid_file = dir.path().join(misbehaviour);
        let program = wrapped(&pid_file, &["--misbehave", misbehaviour, "--after", "2"]);
        let program: Vec<&str> = program.iter().map(String::as_str).collect();
        let out = grade(&["--timeout", "1"], &program);
        let stdout = text(&out.stdout);
        assert_eq!(out.status.code(), Some(2), "{misbehaviour}: {stdout}");
        let failures: Vec<&str> = stdout
            .lines()
            .filter(|line| line.starts_with("Position "))
            .collect();
        assert_eq!(
            failures.len(),
            4,
            "{misbehaviour}: started 4 times: {stdout}"
        );
        for line in &failures {
            assert!(line.contains(says), "{misbehaviour}: {line}");
        }
        assert!(failures[3].contains("grading stops"), "{}", failures[3]);
        assert!(
            stdout.contains("Grading stopped after the program failed 4 times"),
            "{stdout}"
        );
        let started = pids(&pid_file);
        assert_eq!(started.len(), 8, "4 starts, each with its helper");
        all_end(&started, misbehaviour);
    }
}

#[test]
fn a_program_that_closes_its_input_or_cannot_start_is_reported() {
    // It reads one board, closes its input, answers and waits: the next
    // request cannot be written.
    let closes = "read line; exec 0<&-; echo 1 1; sleep 600";
    let out = grade(&["--timeout", "1", "--show", "0"], &["sh", "-c", closes]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{stdout}");
    let failures: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("Position "))
        .collect();
    assert_eq!(failures.len(), 4, "{stdout}");
    assert!(
        failures
            .iter()
            .all(|line| line.contains("stopped reading its input")),
        "{stdout}"
    );
    let out = grade(&[], &["/nonexistent/student"]);
    assert_eq!(out.status.code(), Some(2));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("could not be started: `/nonexistent/student`: no such program"),
        "{stdout}"
    );
}

#[test]
fn ctrl_c_stops_grading_and_the_program() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("pids");
    let program = wrapped(&pid_file, &["--misbehave", "hang"]);
    let child = binary()
        .args(["grade", "--timeout", "600", "--"])
        .args(&program)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the grader starts");
    // The student has started (and is thinking about its first board).
    eventually(
        || (pids(&pid_file).len() >= 2).then_some(()),
        || "the student never started".to_string(),
    );
    let grader = rustix::process::Pid::from_child(&child);
    rustix::process::kill_process(grader, rustix::process::Signal::INT).unwrap();
    let out = output_within(child, "grade after Ctrl-C");
    assert_eq!(out.status.code(), Some(130), "{}", text(&out.stdout));
    assert!(
        text(&out.stdout).contains("Grading was stopped"),
        "{}",
        text(&out.stdout)
    );
    all_end(&pids(&pid_file), "Ctrl-C");
}

#[test]
fn bad_positions_are_refused_in_one_line() {
    for args in [
        &["--board", "xxx/oo./..."][..],
        &["--board", "xo./.../..", "--json"],
        &["--board", "..../..../..../...."],
        &["--from", "/nonexistent/boards.txt"],
    ] {
        let out = grade_student(args, &[]);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = text(&out.stderr);
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("error: "), "{stderr}");
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("boards.txt");
    fs::write(&file, "# two boards\nxox/oox/...\n\no.x/x.x/.oo\n").unwrap();
    let out = grade_student(&["--from", file.to_str().unwrap()], &[]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        text(&out.stdout).contains("2/2 right"),
        "{}",
        text(&out.stdout)
    );
}

/// Every file under `dir` with its contents.
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(snapshot(&path));
        } else {
            files.push((path.clone(), fs::read(&path).unwrap()));
        }
    }
    files.sort();
    files
}

/// `grade --cs50` on a copy of a module of `examples/students`, checking that
/// nothing in its folder changed.
fn cs50(module: &str, args: &[&str]) -> Output {
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("tictactoe.py");
    fs::copy(students(module), &copy).unwrap();
    let before = snapshot(dir.path());
    let child = binary()
        .args(["grade", "--cs50", copy.to_str().unwrap()])
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the grader starts");
    let out = output_within(child, "grade --cs50");
    assert_eq!(
        snapshot(dir.path()),
        before,
        "the module's folder is left as it was"
    );
    out
}

#[test]
fn a_correct_cs50_module_passes_every_function() {
    let out = cs50("cs50/tictactoe.py", &[]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    for function in [
        "player", "actions", "result", "winner", "terminal", "utility", "minimax",
    ] {
        let line = stdout
            .lines()
            .find(|line| line.starts_with(function))
            .unwrap_or_else(|| panic!("{function}: {stdout}"));
        let counts = line.split_whitespace().nth(1).unwrap();
        let (right, all) = counts.split_once('/').unwrap();
        assert_eq!(right, all, "{line}");
    }
    assert!(stdout.contains("winner     5,478/5,478 right"), "{stdout}");
    assert!(stdout.contains("minimax    "), "{stdout}");
}

#[test]
fn a_broken_cs50_module_is_told_what_it_breaks() {
    let out = cs50("cs50_broken/tictactoe.py", &["--json"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let lines: Vec<Value> = text(&out.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let function = |name: &str| {
        lines
            .iter()
            .find(|line| line["function"] == name)
            .unwrap_or_else(|| panic!("{name}"))
            .clone()
    };
    for name in ["player", "actions", "winner", "terminal", "utility"] {
        assert_eq!(function(name)["right"], function(name)["calls"], "{name}");
    }
    let result = function("result");
    assert!(
        result["hint"]
            .as_str()
            .unwrap()
            .contains("raise an exception"),
        "{result}"
    );
    // Every legal action is right; every taken square is accepted.
    let wrong = result["wrong"].as_array().unwrap();
    assert!(
        wrong
            .iter()
            .all(|w| w["why"].as_str().unwrap().contains("taken square"))
    );
    let minimax = function("minimax");
    assert!(
        minimax["hint"]
            .as_str()
            .unwrap()
            .contains("O is the minimizer"),
        "{minimax}"
    );
    assert_eq!(minimax["mistake"], "x-always-max", "{minimax}");
    assert_eq!(result["mistake"], Value::Null, "only minimax's are named");
    assert_eq!(lines.last().unwrap()["summary"]["ended"], "done");
}

#[test]
fn a_module_that_does_not_import_cannot_be_checked() {
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("tictactoe.py");
    fs::write(&module, "def player(board):\n    return X +\n").unwrap();
    let child = binary()
        .args(["grade", "--cs50", module.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out = output_within(child, "grade --cs50");
    assert_eq!(out.status.code(), Some(2));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("SyntaxError"), "{stdout}");
    let out = binary()
        .args(["grade", "--cs50", "/nonexistent/tictactoe.py"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(text(&out.stderr).lines().count(), 1);
}

/// The starter code of docs/LEARN.md in `language` (the fenced block so
/// marked under "Starter code").
fn starter(language: &str) -> String {
    let page = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/LEARN.md"))
        .expect("docs/LEARN.md");
    let section = page
        .split_once("### Starter code")
        .expect("a section of starter code")
        .1;
    let fence = format!("```{language}\n");
    let (_, code) = section.split_once(&fence).expect("a block in the language");
    code.split_once("```")
        .expect("the block ends")
        .0
        .to_string()
}

/// True when `program` runs here (`--version`).
fn available(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success())
}

/// Grades a starter on a sample: it speaks the protocol (no failure), and
/// playing the first empty square it is right only sometimes.
fn grade_starter(program: &[&str]) {
    let out = grade(&["--sample", "300", "--seed", "5", "--json"], program);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{program:?}: {stdout}");
    let summary = summary(&out);
    assert_eq!(summary["failed"], 0, "{program:?}: {stdout}");
    assert_eq!(summary["reached"], 300);
    assert!(summary["right"].as_u64().unwrap() > 0, "{summary}");
}

#[test]
fn the_docs_starter_code_speaks_the_protocol() {
    let dir = tempfile::tempdir().unwrap();
    let python = dir.path().join("mine.py");
    fs::write(&python, starter("python")).unwrap();
    grade_starter(&["python3", python.to_str().unwrap()]);
    // C++ and JavaScript where their tools are installed.
    if available("g++") {
        let source = dir.path().join("mine.cpp");
        let built = dir.path().join("mine");
        fs::write(&source, starter("cpp")).unwrap();
        let status = Command::new("g++")
            .arg("-O2")
            .arg("-o")
            .arg(&built)
            .arg(&source)
            .status()
            .unwrap();
        assert!(status.success(), "the C++ starter builds");
        grade_starter(&[built.to_str().unwrap()]);
    } else {
        eprintln!("no g++ here: the C++ starter is not graded");
    }
    if available("node") {
        let script = dir.path().join("mine.js");
        fs::write(&script, starter("js")).unwrap();
        grade_starter(&["node", script.to_str().unwrap()]);
    } else {
        eprintln!("no node here: the JavaScript starter is not graded");
    }
}

//! The grader as a tutor: students written as students write them (the
//! articles' code as printed, then one or two of the usual slips in it),
//! each named with its fix and the line that refutes its move; nothing a
//! student starts outlives grading; a class graded at once.
//!
//! Python students always run (so every diagnosis is checked wherever the
//! tests run); the C student where a C compiler is, the JavaScript one
//! where node is. Each grading asks a fixed sample of positions (`--sample
//! 300 --seed 3`): a few seconds of Python.

use std::fs;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::thread;
use std::time::Duration;

use serde_json::Value;

use super::{all_end, available, binary, grade, output_within, pids, students, summary, text};

/// The sample every student here is graded on.
const SAMPLE: [&str; 4] = ["--sample", "300", "--seed", "3"];

/// `grade --json` on the sample, with `args`, of `program`.
fn graded_json(args: &[&str], program: &[&str]) -> Output {
    let mut all = SAMPLE.to_vec();
    all.extend_from_slice(args);
    all.push("--json");
    grade(&all, program)
}

/// `grade` in text on the sample, with `args`, of `program`.
fn graded_text(args: &[&str], program: &[&str]) -> String {
    let mut all = SAMPLE.to_vec();
    all.extend_from_slice(args);
    text(&grade(&all, program).stdout)
}

/// The diagnosis of the moves or scores.
fn answers(out: &Output) -> Value {
    summary(out)["diagnosis"]["answers"].clone()
}

/// A file of `examples/students` as text.
fn source(name: &str) -> String {
    fs::read_to_string(students(name)).expect("a student")
}

/// `text` with `from` replaced by `to`, which must be there.
fn slip(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "the slip's line is there: {from}");
    text.replace(from, to)
}

/// `text` without the part from `start` to just before `end`.
fn cut(text: &str, start: &str, end: &str) -> String {
    let at = text.find(start).expect("the part to cut");
    let to = at + text[at..].find(end).expect("where it ends");
    format!("{}{}", &text[..at], &text[to..])
}

/// GeeksforGeeks' Python with the article's two fixes, then `slips`.
fn gfg_with(slips: fn(&str) -> String) -> String {
    slips(&source("gfg_fixed.py"))
}

const NO_DIAGONALS: (&str, &str) = (
    "    # Checking for Diagonals for X or O victory.",
    "    # Else if none of them have won then return 0",
);

/// The undo lines of `minimax`, the maximizer's branch first.
const UNDO: &str = "                    # Undo the move\n                    board[i][j] = '_'\n";

/// `text` without the `nth` (from 0) of the undo lines of `minimax`.
fn undo_left_out(text: &str, nth: usize) -> String {
    assert_eq!(
        text.matches(UNDO).count(),
        2,
        "one undo line in each branch"
    );
    let (at, _) = text.match_indices(UNDO).nth(nth).expect("the undo line");
    format!("{}{}", &text[..at], &text[at + UNDO.len()..])
}

/// A slip as a test makes it: the name the grader gives it, the student's
/// code, and what the grader asks besides the sample.
type Case = (&'static str, String, &'static [&'static str]);

/// The slips of the issue's list and of the catalogue, each made in
/// GeeksforGeeks' fixed code, the name the grader gives it, and what the
/// grader asks (moves, unless the slip shows in scores only).
fn slips() -> Vec<Case> {
    let cases: Vec<(&'static str, String)> = vec![
        (
            "rows-only",
            gfg_with(|code| {
                cut(
                    code,
                    "    # Checking for Columns for X or O victory.",
                    NO_DIAGONALS.1,
                )
            }),
        ),
        (
            "moves-left-inverted",
            gfg_with(|code| {
                slip(
                    code,
                    "                return True\n    return False",
                    "                return False\n    return True",
                )
            }),
        ),
        (
            "best-val-zero",
            gfg_with(|code| slip(code, "bestVal = -1000", "bestVal = 0")),
        ),
        (
            "board-not-restored",
            gfg_with(|code| {
                slip(
                    code,
                    "                    # Undo the move\n                    board[i][j] = '_'\n",
                    "",
                )
            }),
        ),
        (
            "root-is-max",
            gfg_with(|code| {
                slip(
                    code,
                    "moveVal = minimax(board, 0, False)",
                    "moveVal = minimax(board, 0, True)",
                )
            }),
        ),
        (
            "player-always-o",
            gfg_with(|code| {
                slip(
                    code,
                    "player, opponent = ('x', 'o') if xs == os_ else ('o', 'x')",
                    "player, opponent = 'o', 'x'",
                )
            }),
        ),
        (
            "no-anti-diagonal",
            gfg_with(|code| {
                cut(
                    code,
                    "    if (b[0][2] == b[1][1] and b[1][1] == b[2][0]) :",
                    NO_DIAGONALS.1,
                )
            }),
        ),
        // The depth subtracted but never grown: the bare scores' moves.
        (
            "no-depth",
            gfg_with(|code| slip(code, "depth + 1", "depth")),
        ),
        // Two slips at once.
        (
            "no-depth+no-anti-diagonal",
            gfg_with(|code| {
                let code = slip(code, "depth + 1", "depth");
                cut(
                    &code,
                    "    if (b[0][2] == b[1][1] and b[1][1] == b[2][0]) :",
                    NO_DIAGONALS.1,
                )
            }),
        ),
        // evaluate compares with 'x' and 'o' where the article compares
        // with `player` and `opponent`.
        (
            "evaluate-for-x",
            gfg_with(|code| {
                let code = slip(code, "== player)", "== 'x')");
                slip(&code, "== opponent)", "== 'o')")
            }),
        ),
        (
            "max-board-not-restored",
            gfg_with(|code| undo_left_out(code, 0)),
        ),
        // The move printed column first, and the board read column by
        // column: both swap every square's row and column.
        (
            "row-column-swapped",
            gfg_with(|code| {
                slip(
                    code,
                    "print(bestMove[0], bestMove[1], flush=True)",
                    "print(bestMove[1], bestMove[0], flush=True)",
                )
            }),
        ),
        (
            "row-column-swapped",
            gfg_with(|code| {
                let read = "for c in row] for row in words[0].split('/')]\n";
                slip(
                    code,
                    read,
                    &format!("{read}    board = [list(column) for column in zip(*board)]\n"),
                )
            }),
        ),
    ];
    let mut cases: Vec<Case> = cases
        .into_iter()
        .map(|(name, code)| (name, code, &[][..]))
        .collect();
    // Left out of the minimizer's branch alone, the undo changes no move
    // the grader asks for (the moves are those of board-not-restored, and
    // named so); every move's score shows it.
    cases.push((
        "min-board-not-restored",
        gfg_with(|code| undo_left_out(code, 1)),
        &["--ask", "scores"],
    ));
    cases.push((
        "board-not-restored",
        gfg_with(|code| undo_left_out(code, 1)),
        &[],
    ));
    // Asked for the first of equal moves, the move printed column first
    // is told from the board read column by column (which keeps another),
    // and named alike.
    let printed_swapped = cases
        .iter()
        .find(|(name, _, _)| *name == "row-column-swapped")
        .map(|(_, code, _)| code.clone())
        .expect("the move printed column first");
    cases.push(("row-column-swapped", printed_swapped, &["--ties", "first"]));
    cases
}

#[test]
fn the_articles_code_as_printed_is_recognised() {
    // GeeksforGeeks' Python as printed, and its C.
    let python = students("gfg_printed.py");
    let python = python.to_str().unwrap();
    let out = graded_json(&[], &["python3", python]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let named = answers(&out);
    assert_eq!(named["mistake"], "player-always-x+no-depth", "{named}");
    assert_eq!(named["as_printed"], true);
    assert_eq!(named["exceptions"], serde_json::json!([]));
    let report = graded_text(&["--show", "2"], &["python3", python]);
    assert!(
        report.contains("This is GeeksforGeeks' code as printed: `char player = 'x'"),
        "{report}"
    );
    // The first example of each: O to move played as X, and a slow win.
    assert!(
        report.contains("(first example: player-always-x)"),
        "{report}"
    );
    assert!(report.contains("(first example: no-depth)"), "{report}");
    // freeCodeCamp's, ported to Python as printed: its words with --article.
    let port = students("fcc_printed.py");
    let out = graded_json(&["--article", "fcc"], &["python3", port.to_str().unwrap()]);
    let named = answers(&out);
    assert_eq!(named["mistake"], "player-always-x+no-depth", "{named}");
    assert!(
        named["printed"]
            .as_str()
            .unwrap()
            .starts_with("This is freeCodeCamp's code as printed: `var aiPlayer = \"X\"`"),
        "{named}"
    );
    // With freeCodeCamp's bare scores asked for, only `aiPlayer` is wrong.
    let out = graded_json(
        &["--article", "fcc", "--scores", "plain"],
        &["python3", port.to_str().unwrap()],
    );
    assert_eq!(answers(&out)["mistake"], "player-always-x");
    assert_eq!(answers(&out)["as_printed"], true);
    if available("cc") {
        let dir = tempfile::tempdir().unwrap();
        let built = dir.path().join("gfg");
        let status = Command::new("cc")
            .args(["-O2", "-o"])
            .arg(&built)
            .arg(students("gfg_printed.c"))
            .status()
            .unwrap();
        assert!(status.success(), "the C student builds");
        let out = graded_json(&[], &[built.to_str().unwrap()]);
        assert_eq!(answers(&out)["mistake"], "player-always-x+no-depth");
    } else {
        eprintln!("no cc here: the C student is not graded");
    }
    if available("node") {
        let script = students("fcc_printed.js");
        let out = graded_json(&[], &["node", script.to_str().unwrap()]);
        assert_eq!(
            summary(&out)["article"],
            "fcc",
            "a node program speaks freeCodeCamp"
        );
        assert_eq!(answers(&out)["mistake"], "player-always-x+no-depth");
    } else {
        eprintln!("no node here: the JavaScript student is not graded");
    }
}

#[test]
fn a_correct_port_of_the_article_passes() {
    let fixed = students("gfg_fixed.py");
    let out = graded_json(&[], &["python3", fixed.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    assert_eq!(summary(&out)["right"], 300);
    assert_eq!(answers(&out), Value::Null);
}

#[test]
fn each_usual_slip_is_named_with_its_fix_and_a_refuting_line() {
    let dir = tempfile::tempdir().unwrap();
    let cases = slips();
    // Two at a time: the machine's two cores.
    let numbered: Vec<(usize, &Case)> = cases.iter().enumerate().collect();
    let outcomes: Vec<(String, Output, String)> = thread::scope(|scope| {
        numbered
            .chunks(numbered.len().div_ceil(2))
            .map(|chunk| {
                let dir = dir.path();
                scope.spawn(move || {
                    chunk
                        .iter()
                        .map(|(at, (name, code, args))| {
                            let file = dir.join(format!("student{at}.py"));
                            fs::write(&file, code).unwrap();
                            let program = ["python3", file.to_str().unwrap()];
                            let out = graded_json(args, &program);
                            let mut shown = args.to_vec();
                            shown.extend(["--show", "1"]);
                            let report = graded_text(&shown, &program);
                            (name.to_string(), out, report)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect::<Vec<_>>()
            .into_iter()
            .flat_map(|handle| handle.join().unwrap())
            .collect()
    });
    for (name, out, report) in outcomes {
        assert_eq!(out.status.code(), Some(1), "{name}: {}", text(&out.stderr));
        let named = answers(&out);
        assert_eq!(named["mistake"], name.as_str(), "{name}: {named}");
        assert_eq!(named["exceptions"], serde_json::json!([]), "{name}");
        assert!(!named["says"].as_str().unwrap().is_empty());
        assert!(
            report.contains(&format!("Diagnosis ({name}): ")),
            "{name}: {report}"
        );
        // The student's move refuted, where it answered a legal move (bestVal
        // at 0 answers -1 -1 where nothing scores above 0; a move with its
        // row and column swapped is a taken square on the simplest
        // positions), or a move at all (not asked for scores).
        // The first wrong answer, as it comes, with the mistakes that
        // explain the answers so far, each named once.
        let guess = report
            .lines()
            .find_map(|line| line.strip_prefix("  So far this "))
            .unwrap_or_else(|| panic!("{name}: a guess so far: {report}"));
        let (guessed, _) = guess.split_once(';').expect("the guesses, then the rest");
        let names: Vec<&str> = guessed
            .trim_start_matches("looks like ")
            .trim_start_matches("could be ")
            .split([',', ' '])
            .filter(|word| word.contains('-'))
            .collect();
        let once: std::collections::HashSet<&&str> = names.iter().collect();
        assert_eq!(once.len(), names.len(), "{name}: {guess}");
        match name.as_str() {
            "best-val-zero" => assert!(
                report.contains("row -1, col -1 (off the board)"),
                "{report}"
            ),
            "row-column-swapped" => {
                assert!(report.contains(") (taken)\n"), "{report}");
                assert_eq!(guessed, "looks like row-column-swapped", "{report}");
            }
            "min-board-not-restored" => {}
            _ => assert!(report.contains("    after your "), "{name}: {report}"),
        }
    }
}

#[test]
fn the_rows_only_slip_is_refuted_by_the_column_it_does_not_see() {
    let dir = tempfile::tempdir().unwrap();
    let (_, code, _) = slips().remove(0);
    let file = dir.path().join("rows.py");
    fs::write(&file, code).unwrap();
    let out = grade(
        &["--board", "xox/oxx/o..", "--show", "1"],
        &["python3", file.to_str().unwrap()],
    );
    let report = text(&out.stdout);
    assert!(
        report.contains(
            "after your b3: X plays c3 and wins: column c and diagonal a1-c3, which your \
             evaluate does not see"
        ),
        "{report}"
    );
    assert!(report.contains("after c3: X plays b3: a draw"), "{report}");
}

#[test]
fn alpha_beta_scores_that_are_bounds_are_named() {
    let student = students("gfg_alpha_beta.py");
    let program = ["python3", student.to_str().unwrap()];
    // Its moves are right; its scores after the first are bounds.
    let out = graded_json(&[], &program);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    let out = graded_json(&["--ask", "scores"], &program);
    assert_eq!(answers(&out)["mistake"], "alpha-beta-bound");
}

/// A Python student that starts helpers every way a program can escape
/// its process group, each ignoring SIGTERM, writes their process ids to
/// `pid_file`, then answers (or, with `hang`, thinks forever).
fn escaping_student(dir: &Path, pid_file: &Path, hang: bool) -> String {
    let script = dir.join("escape.py");
    let answer = if hang {
        "time.sleep(600)"
    } else {
        "print('2 2', flush=True)"
    };
    let code = format!(
        r#"import os, signal, subprocess, sys, time
pids = open({pid_file:?}, "a")
def note(pid):
    pids.write(f"{{pid}}\n"); pids.flush()
note(os.getpid())
# A grandchild in a session of its own.
note(subprocess.Popen(["setsid", "sleep", "1000"]).pid)
# A child in a process group of its own, deaf to SIGTERM.
child = os.fork()
if child == 0:
    os.setpgid(0, 0)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    time.sleep(1000)
    os._exit(0)
note(child)
# A double fork: the grandchild orphaned at once, in a new session.
reader, writer = os.pipe()
first = os.fork()
if first == 0:
    os.setsid()
    second = os.fork()
    if second == 0:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        time.sleep(1000)
        os._exit(0)
    os.write(writer, str(second).encode())
    os._exit(0)
os.waitpid(first, 0)
note(int(os.read(reader, 32)))
for line in sys.stdin:
    {answer}
"#
    );
    fs::write(&script, code).unwrap();
    script.to_str().unwrap().to_string()
}

#[test]
fn nothing_a_student_starts_outlives_its_grading() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("pids");
    let student = escaping_student(dir.path(), &pid_file, false);
    let out = grade(&["--board", "xox/oox/..."], &["python3", &student]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    let started = pids(&pid_file);
    assert_eq!(started.len(), 4, "the student and its three helpers");
    all_end(&started, "after grading");
}

#[test]
fn nothing_a_student_starts_outlives_a_grader_killed_with_sigkill() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("pids");
    let student = escaping_student(dir.path(), &pid_file, true);
    let grader = binary()
        .args(["grade", "--board", "xox/oox/...", "--timeout", "600", "--"])
        .args(["python3", &student])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the grader starts");
    // The student is thinking, its helpers started.
    let mut started = pids(&pid_file);
    while started.len() < 4 {
        thread::sleep(Duration::from_millis(20));
        started = pids(&pid_file);
    }
    let pid = rustix::process::Pid::from_child(&grader);
    rustix::process::kill_process(pid, rustix::process::Signal::KILL).unwrap();
    let out = output_within(grader, "a grader killed");
    assert_eq!(out.status.code(), None, "killed");
    all_end(&started, "after the grader was killed");
}

#[test]
fn a_memory_hog_is_stopped_and_named() {
    let dir = tempfile::tempdir().unwrap();
    let hog = dir.path().join("hog.py");
    fs::write(
        &hog,
        "import sys\nheap = []\nfor line in sys.stdin:\n    while True:\n        heap.append(bytearray(10**7))\n",
    )
    .unwrap();
    let out = grade(
        &["--board", "xox/oox/...", "--max-memory", "64"],
        &["python3", hog.to_str().unwrap()],
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("ran out of memory: it reached the limit of 64 MiB (--max-memory)"),
        "{stdout}"
    );
    assert!(stdout.contains("MemoryError"), "{stdout}");
}

/// Copies of CS50 modules of `examples/students`, each in a folder of its
/// own under `dir`, as a class hands them in.
fn class(dir: &Path, modules: &[&str]) -> Vec<String> {
    modules
        .iter()
        .enumerate()
        .map(|(at, module)| {
            let folder = dir.join(format!("student{}", at + 1));
            fs::create_dir_all(&folder).unwrap();
            let copy = folder.join("tictactoe.py");
            fs::copy(students(module), &copy).unwrap();
            copy.to_str().unwrap().to_string()
        })
        .collect()
}

/// `grade ARGS` alone (no student command).
fn run(args: &[&str]) -> Output {
    let child = binary()
        .arg("grade")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the grader starts");
    output_within(child, "grade")
}

#[test]
fn a_class_of_cs50_modules_gives_a_row_each_and_a_csv() {
    let dir = tempfile::tempdir().unwrap();
    let modules = class(
        dir.path(),
        &[
            "cs50/tictactoe.py",
            "cs50_broken/tictactoe.py",
            "cs50/tictactoe.py",
        ],
    );
    let csv = dir.path().join("class.csv");
    let mut args = vec!["--cs50"];
    args.extend(modules.iter().map(String::as_str));
    args.extend(["--csv", csv.to_str().unwrap()]);
    let out = run(&args);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "one is wrong: {stdout}");
    let rows: Vec<&str> = stdout
        .lines()
        .filter(|line| {
            modules
                .iter()
                .any(|module| line.starts_with(module.as_str()))
        })
        .collect();
    assert_eq!(rows.len(), 3, "{stdout}");
    assert!(
        rows[1].ends_with("result, minimax: x-always-max"),
        "{}",
        rows[1]
    );
    assert!(
        rows[0].ends_with("  -") && rows[2].ends_with("  -"),
        "{stdout}"
    );
    let sheet = fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = sheet.lines().collect();
    assert_eq!(lines.len(), 4, "a header and three rows: {sheet}");
    assert_eq!(
        lines[0],
        "submission,right,wrong,failed,asked,diagnosis,ended,seconds"
    );
    assert!(
        lines[2].contains(",\"result, minimax: x-always-max\",done,"),
        "{sheet}"
    );
}

#[test]
fn each_program_of_a_class_gets_a_row_and_one_crash_stops_no_other() {
    let dir = tempfile::tempdir().unwrap();
    for (name, code) in [
        ("alice", source("gfg_fixed.py")),
        ("bob", source("gfg_printed.py")),
        ("carol", "import sys\nraise SystemExit(3)\n".to_string()),
    ] {
        fs::create_dir_all(dir.path().join(name)).unwrap();
        fs::write(dir.path().join(name).join("main.py"), code).unwrap();
    }
    let pattern = format!("{}/*/main.py", dir.path().display());
    let csv = dir.path().join("class.csv");
    let out = grade(
        &[
            "--each",
            &pattern,
            "--csv",
            csv.to_str().unwrap(),
            "--sample",
            "40",
            "--seed",
            "5",
        ],
        &["python3", "{}"],
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let sheet = fs::read_to_string(&csv).unwrap();
    let rows: Vec<&str> = sheet.lines().skip(1).collect();
    assert_eq!(rows.len(), 3, "{sheet}");
    assert!(
        rows[0].contains("alice/main.py,40,0,0,40,-,done,"),
        "{sheet}"
    );
    assert!(rows[1].contains("bob/main.py,"), "{sheet}");
    assert!(rows[2].contains("carol/main.py,0,0,"), "{sheet}");
    assert!(rows[2].contains(",gave-up,"), "{sheet}");
}

#[test]
fn gradescope_gets_its_results_json() {
    let dir = tempfile::tempdir().unwrap();
    let module = class(dir.path(), &["cs50_broken/tictactoe.py"]).remove(0);
    let results = dir.path().join("results.json");
    let out = run(&["--cs50", &module, "--gradescope", results.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    let results: Value = serde_json::from_str(&fs::read_to_string(&results).unwrap()).unwrap();
    let tests = results["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 7, "a test per function");
    for test in tests {
        for field in ["name", "score", "max_score", "output", "visibility"] {
            assert!(!test[field].is_null(), "{field}: {test}");
        }
    }
    assert_eq!(tests[0]["name"], "player");
    assert_eq!(tests[0]["score"], 1.0);
    let score: f64 = tests
        .iter()
        .map(|test| test["score"].as_f64().unwrap())
        .sum();
    assert!((results["score"].as_f64().unwrap() - score).abs() < 1e-6);
    assert!(score < 7.0 && score > 5.0, "{score}");
}

#[test]
fn a_cs50_minimax_for_x_only_is_named_in_json() {
    // The article's minimax without its `elif player(board) == O:` branch:
    // the action whose minvalue is highest, whoever is to move.
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("tictactoe.py");
    let for_x =
        "    return max(actions(board), key=lambda action: min_value(result(board, action)))\n";
    let code = slip(
        &source("cs50/tictactoe.py"),
        &format!(
            "    if player(board) == X:\n    {for_x}    return min(actions(board), \
             key=lambda action: max_value(result(board, action)))\n"
        ),
        for_x,
    );
    fs::write(&module, code).unwrap();
    let out = run(&["--cs50", module.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let lines: Vec<Value> = text(&out.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let minimax = lines
        .iter()
        .find(|line| line["function"] == "minimax")
        .expect("minimax's line");
    assert_eq!(minimax["mistake"], "evaluate-for-x", "{minimax}");
    assert!(
        lines
            .iter()
            .filter(|line| line["function"].is_string() && line["function"] != "minimax")
            .all(|line| line["wrong"].as_array().is_some_and(Vec::is_empty)),
        "only minimax is wrong"
    );
}

#[test]
fn a_cs50_module_that_hangs_at_import_is_named_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("tictactoe.py");
    fs::write(&module, "import time\ntime.sleep(600)\n").unwrap();
    let out = run(&["--cs50", module.to_str().unwrap(), "--timeout", "1"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{stdout}");
    assert!(
        stdout.contains("could not be checked: importing the module took more than 1 s"),
        "{stdout}"
    );
    assert!(!stdout.contains("started again"), "no restarts: {stdout}");
}

#[test]
fn cs50_refuses_what_is_not_a_python_file_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe.py");
    support_pipe(&fifo);
    let text_file = dir.path().join("notes.txt");
    fs::write(&text_file, "x = 1\n").unwrap();
    for path in [
        dir.path().to_str().unwrap(),
        fifo.to_str().unwrap(),
        "/dev/null",
        text_file.to_str().unwrap(),
    ] {
        let out = run(&["--cs50", path]);
        assert_eq!(out.status.code(), Some(2), "{path}");
        let stderr = text(&out.stderr);
        assert_eq!(stderr.lines().count(), 1, "{path}: {stderr}");
        assert!(stderr.contains("Python file"), "{stderr}");
    }
}

fn support_pipe(at: &Path) {
    super::support::named_pipe(at);
}

#[test]
fn what_a_cs50_module_starts_at_import_ends_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("pids");
    let module = dir.path().join("tictactoe.py");
    fs::write(
        &module,
        format!(
            "import subprocess\n\
             helper = subprocess.Popen(['setsid', 'sleep', '1000'])\n\
             open({pid_file:?}, 'a').write(f'{{helper.pid}}\\n')\n\
             raise ImportError('no board here')\n"
        ),
    )
    .unwrap();
    let out = run(&["--cs50", module.to_str().unwrap()]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{stdout}");
    assert!(stdout.contains("ImportError: no board here"), "{stdout}");
    let started = pids(&pid_file);
    assert_eq!(started.len(), 1);
    all_end(&started, "after the import failed");
}

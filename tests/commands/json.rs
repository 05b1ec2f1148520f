//! Every command's JSON against its shape in docs/JSON.md, one test per
//! command: the fields, the type of each, and the one vocabulary (a square
//! is "b2", a result "x-wins" | "o-wins" | "draw", a status adds
//! "in-progress", a player "x" | "o", snake_case names). And no writer of
//! JSON in the workspace but `tictactoe_game::json`.

use crate::support;

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};
use support::tictactoe;
use tictactoe_engine::{Outcome, Player};
use tictactoe_game::json;

/// Each line the command prints, parsed.
fn lines(args: &[&str], input: &str) -> Vec<Value> {
    let out = tictactoe(args, input);
    String::from_utf8(out.stdout)
        .expect("UTF-8")
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{line}: {e}")))
        .collect()
}

/// What a value may be, as the shapes below write it.
#[derive(Clone, Copy, Debug)]
enum Kind {
    Int,
    Number,
    Bool,
    Text,
    Square,
    Result,
    Status,
    Player,
    Squares,
    /// Any of these, or null.
    Maybe(&'static Kind),
    Object(&'static [(&'static str, Kind)]),
    Objects(&'static [(&'static str, Kind)]),
    /// An object whose fields flatten these into it (a move with its indices).
    Any,
}

const SQUARE: Kind = Kind::Square;
const LOCATED: [(&str, Kind); 3] = [
    ("move", Kind::Maybe(&SQUARE)),
    ("row", Kind::Maybe(&Kind::Int)),
    ("col", Kind::Maybe(&Kind::Int)),
];

fn is_square(text: &str) -> bool {
    let mut chars = text.chars();
    matches!(chars.next(), Some('a'..='g'))
        && matches!(chars.next(), Some('1'..='7'))
        && chars.next().is_none()
}

fn check(value: &Value, kind: Kind, at: &str) {
    let ok = match kind {
        Kind::Int => value.is_i64() || value.is_u64(),
        Kind::Number => value.is_number(),
        Kind::Bool => value.is_boolean(),
        Kind::Text => value.is_string(),
        Kind::Square => value.as_str().is_some_and(is_square),
        Kind::Result => matches!(value.as_str(), Some("x-wins" | "o-wins" | "draw")),
        Kind::Status => {
            matches!(
                value.as_str(),
                Some("x-wins" | "o-wins" | "draw" | "in-progress")
            )
        }
        Kind::Player => matches!(value.as_str(), Some("x" | "o")),
        Kind::Squares => value
            .as_array()
            .is_some_and(|list| list.iter().all(|v| v.as_str().is_some_and(is_square))),
        Kind::Maybe(inner) => {
            if !value.is_null() {
                check(value, *inner, at);
            }
            true
        }
        Kind::Object(fields) => {
            object(value, fields, at);
            true
        }
        Kind::Objects(fields) => {
            let list = value.as_array().unwrap_or_else(|| panic!("{at}: a list"));
            for (i, item) in list.iter().enumerate() {
                object(item, fields, &format!("{at}[{i}]"));
            }
            true
        }
        Kind::Any => true,
    };
    assert!(ok, "{at}: {value} is not {kind:?}");
}

/// `value` is an object with exactly these fields, each of its kind.
fn object(value: &Value, fields: &[(&str, Kind)], at: &str) {
    let map: &Map<String, Value> = value
        .as_object()
        .unwrap_or_else(|| panic!("{at}: an object"));
    // serde_json's map keeps its keys sorted: compare the sets.
    let names: Vec<&str> = map.keys().map(String::as_str).collect();
    let mut expected: Vec<&str> = fields.iter().map(|(name, _)| *name).collect();
    expected.sort_unstable();
    assert_eq!(names, expected, "{at}: the fields");
    for (name, kind) in fields {
        // A tally's keys are results; every other field name is snake_case.
        assert!(
            name.chars().all(|c| c.is_ascii_lowercase() || c == '_')
                || TALLY.iter().any(|(key, _)| key == name),
            "{name}: snake_case"
        );
        check(&map[*name], *kind, &format!("{at}.{name}"));
    }
}

/// `LOCATED` then `rest`, as a flattened move writes them.
fn with_move(rest: &'static [(&'static str, Kind)]) -> Vec<(&'static str, Kind)> {
    LOCATED
        .iter()
        .copied()
        .chain(rest.iter().copied())
        .collect()
}

const ANALYZED_MOVE: [(&str, Kind); 6] = [
    ("score", Kind::Maybe(&Kind::Int)),
    ("score_exact", Kind::Bool),
    ("result", Kind::Maybe(&Kind::Result)),
    ("unproven", Kind::Maybe(&Kind::Text)),
    ("line", Kind::Squares),
    ("line_proven", Kind::Bool),
];

fn analysis_fields(proof: bool) -> Vec<(&'static str, Kind)> {
    let mut fields = vec![
        ("board", Kind::Text),
        ("size", Kind::Int),
        ("k", Kind::Int),
        ("scores", Kind::Text),
        ("to_move", Kind::Maybe(&Kind::Player)),
        ("status", Kind::Status),
        ("value", Kind::Maybe(&Kind::Int)),
        ("value_exact", Kind::Bool),
        ("result", Kind::Maybe(&Kind::Result)),
        ("best", Kind::Maybe(&SQUARE)),
        ("moves", Kind::Any),
        ("nodes", Kind::Int),
        ("method", Kind::Text),
        ("verdict", Kind::Text),
    ];
    if proof {
        fields.push((
            "proof",
            Kind::Object(&[
                ("result", Kind::Maybe(&Kind::Result)),
                ("move", Kind::Maybe(&SQUARE)),
                ("keeps", Kind::Maybe(&Kind::Text)),
            ]),
        ));
    }
    fields
}

fn check_analysis(answer: &Value, proof: bool, at: &str) {
    object(answer, &analysis_fields(proof), at);
    let fields = with_move(&ANALYZED_MOVE);
    for (i, mv) in answer["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .enumerate()
    {
        object(mv, &fields, &format!("{at}.moves[{i}]"));
    }
}

#[test]
fn analyze() {
    for board in [
        "xox/oox/...",
        "xxx/oo./...",
        ".........",
        "x.../..o./..../....",
    ] {
        for scores in ["depth", "plain", "cs50"] {
            for answer in lines(&["analyze", board, "--json", "--scores", scores], "") {
                check_analysis(&answer, board.len() > 11, board);
                assert_eq!(answer["scores"], scores);
            }
        }
    }
    let proven = lines(
        &[
            "analyze",
            "x.../..o./..../....",
            "--k",
            "3",
            "--solve",
            "--json",
        ],
        "",
    );
    check_analysis(&proven[0], true, "--solve");
    // A batch: a board, then a line that is not one.
    let batch = lines(&["analyze", "-", "--json"], "xox/oox/...\nnonsense\n");
    check_analysis(&batch[0], false, "batch");
    object(
        &batch[1],
        &[
            ("line", Kind::Int),
            ("input", Kind::Text),
            ("error", Kind::Text),
        ],
        "batch error",
    );
}

#[test]
fn trace() {
    let plain = [
        ("call", Kind::Int),
        ("parent", Kind::Maybe(&Kind::Int)),
        ("depth", Kind::Maybe(&Kind::Int)),
    ];
    let after: [(&str, Kind); 4] = [
        ("board", Kind::Text),
        ("maximizing", Kind::Bool),
        ("score", Kind::Int),
        ("bound", Kind::Text),
    ];
    let fields: Vec<(&str, Kind)> = plain.iter().copied().chain(LOCATED).chain(after).collect();
    for call in lines(&["trace", "o.x/x.x/.oo", "--json"], "") {
        object(&call, &fields, "trace");
    }
    let mut pruned = fields.clone();
    pruned.extend([
        ("alpha", Kind::Maybe(&Kind::Int)),
        ("beta", Kind::Maybe(&Kind::Int)),
        ("cut", Kind::Squares),
    ]);
    for call in lines(&["trace", "o.x/x.x/.oo", "--json", "--alpha-beta"], "") {
        object(&call, &pruned, "trace --alpha-beta");
    }
}

#[test]
fn quiz() {
    for key in lines(
        &["quiz", "--seed", "3", "--count", "8", "--answers", "--json"],
        "",
    ) {
        object(
            &key,
            &[
                ("board", Kind::Text),
                ("ask", Kind::Text),
                ("answer", Kind::Any),
            ],
            "quiz",
        );
        let answer = &key["answer"];
        match key["ask"].as_str() {
            Some("value" | "calls") => check(answer, Kind::Int, "quiz answer"),
            Some("best") => check(answer, Kind::Squares, "quiz answer"),
            Some("pruned") => {
                for path in answer.as_array().expect("paths") {
                    check(path, Kind::Squares, "quiz branch");
                }
            }
            other => panic!("asks {other:?}"),
        }
    }
}

#[test]
fn review() {
    let game = "[Game \"tictactoe\"]\n[Size \"3\"]\n[K \"3\"]\n[Result \"1-0\"]\n\n1. b2 b1 2. a1 c3 3. a3 a2 4. c1 1-0\n";
    let records = lines(&["review", "-", "--json"], game);
    let moved = with_move(&[
        ("before", Kind::Int),
        ("after", Kind::Int),
        ("mark", Kind::Maybe(&Kind::Text)),
        ("best", Kind::Square),
        ("tied", Kind::Squares),
        ("scores_exact", Kind::Bool),
    ]);
    let mut fields = vec![
        ("game", Kind::Int),
        ("ply", Kind::Int),
        ("player", Kind::Player),
    ];
    fields.extend(moved);
    let (last, moves) = records.split_last().expect("lines");
    assert_eq!(moves.len(), 7);
    for record in moves {
        object(record, &fields, "review");
    }
    object(
        last,
        &[
            ("game", Kind::Int),
            ("result", Kind::Status),
            ("plies", Kind::Int),
        ],
        "review's game",
    );
    assert_eq!(last["result"], "x-wins");
}

#[test]
fn selfplay() {
    let report = lines(
        &[
            "selfplay", "--x", "perfect", "--o", "random", "--games", "20", "--seed", "1", "--json",
        ],
        "",
    );
    object(
        &report[0],
        &[
            ("games", Kind::Int),
            ("tally", Kind::Object(&TALLY)),
            ("seconds", Kind::Number),
            ("seed", Kind::Int),
        ],
        "selfplay",
    );
}

#[test]
fn solve() {
    let report = lines(&["solve", "--size", "4", "--k", "3", "--json"], "");
    object(
        &report[0],
        &[
            ("size", Kind::Int),
            ("k", Kind::Int),
            ("board", Kind::Text),
            ("result", Kind::Result),
            ("positions", Kind::Int),
            ("ms", Kind::Int),
        ],
        "solve",
    );
}

/// A tally of results, as `selfplay` counts its games.
const TALLY: [(&str, Kind); 3] = [
    ("x-wins", Kind::Int),
    ("o-wins", Kind::Int),
    ("draw", Kind::Int),
];

/// A tally from one side's seat, as `stats` counts your games.
const STANDINGS: [(&str, Kind); 3] = [("win", Kind::Int), ("loss", Kind::Int), ("draw", Kind::Int)];

const STATS_ROW: [(&str, Kind); 6] = [
    ("side", Kind::Player),
    ("opponent", Kind::Text),
    ("size", Kind::Int),
    ("k", Kind::Int),
    ("games", Kind::Int),
    ("tally", Kind::Object(&STANDINGS)),
];

#[test]
fn stats() {
    let dir = tempfile::tempdir().expect("a folder");
    let file = dir.path().join("stats.json");
    let file = file.to_str().expect("UTF-8");
    // A file of the format the program writes, with one row.
    let saved = r#"{"format": "tictactoe-stats", "version": 2, "rows": [{"side": "x", "opponent": "perfect", "size": 3, "k": 3, "wins": 0, "losses": 2, "draws": 1}]}"#;
    std::fs::write(file, saved).expect("written");
    let report = lines(&["stats", "--json", "--stats-file", file], "");
    object(
        &report[0],
        &[
            ("games", Kind::Int),
            ("tally", Kind::Object(&STANDINGS)),
            ("by_opponent", Kind::Objects(&STATS_ROW)),
            ("file", Kind::Text),
        ],
        "stats",
    );
    assert_eq!(report[0]["games"], 3, "{}", report[0]);
    assert_eq!(report[0]["tally"]["loss"], 2);
    assert_eq!(report[0]["by_opponent"][0]["tally"]["draw"], 1);
    assert_eq!(report[0]["by_opponent"][0]["games"], 3);
}

const GRADE_SUMMARY: [(&str, Kind); 12] = [
    ("positions", Kind::Int),
    ("reached", Kind::Int),
    ("right", Kind::Int),
    ("wrong", Kind::Int),
    ("failed", Kind::Int),
    ("ended", Kind::Text),
    ("not_started", Kind::Maybe(&Kind::Text)),
    ("ask", Kind::Text),
    ("scores", Kind::Text),
    ("ties", Kind::Text),
    ("article", Kind::Text),
    (
        "diagnosis",
        Kind::Object(&[
            ("answers", Kind::Maybe(&Kind::Object(&PROGRAM))),
            ("calls", Kind::Maybe(&Kind::Object(&NAMED))),
        ]),
    ),
];

/// The program that gives the wrong answers: the article's with mistakes.
const PROGRAM: [(&str, Kind); 9] = [
    ("mistake", Kind::Text),
    ("mistakes", Kind::Any),
    ("as_printed", Kind::Bool),
    ("explains", Kind::Int),
    ("wrong", Kind::Int),
    ("exceptions", Kind::Any),
    (
        "examples",
        Kind::Objects(&[("mistake", Kind::Text), ("number", Kind::Int)]),
    ),
    ("says", Kind::Text),
    ("printed", Kind::Maybe(&Kind::Text)),
];

const NAMED: [(&str, Kind); 3] = [
    ("mistake", Kind::Text),
    ("explains", Kind::Int),
    ("says", Kind::Text),
];

/// A position graded: `yours` is a move or scores, checked by the caller.
const GRADED: [(&str, Kind); 9] = [
    ("number", Kind::Int),
    ("board", Kind::Text),
    ("to_move", Kind::Player),
    ("answer", Kind::Text),
    ("right", Kind::Bool),
    ("yours", Kind::Any),
    ("calls", Kind::Maybe(&Kind::Int)),
    (
        "expected",
        Kind::Object(&[
            ("moves", Kind::Squares),
            ("scores", Kind::Any),
            ("calls", Kind::Maybe(&Kind::Int)),
        ]),
    ),
    ("faults", Kind::Any),
];

/// Scores by square: every key a square, every value a number.
fn check_scores(value: &Value, at: &str) {
    let map = value.as_object().unwrap_or_else(|| panic!("{at}: scores"));
    for (square, score) in map {
        check(&Value::from(square.as_str()), Kind::Square, at);
        check(score, Kind::Int, at);
    }
}

/// `grade`'s lines: the positions (with the move or the scores each
/// answer gave), then the summary; a failure of the program on a line of
/// its own.
#[test]
fn grade() {
    let student = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/students/gfg.py");
    let student = student.to_str().expect("UTF-8");
    let moves = lines(
        &[
            "grade", "--sample", "8", "--seed", "1", "--json", "--", "python3", student,
        ],
        "",
    );
    let scores = lines(
        &[
            "grade", "--sample", "8", "--seed", "1", "--ask", "scores", "--json", "--", "python3",
            student,
        ],
        "",
    );
    for (answers, form) in [(&moves, "move"), (&scores, "scores")] {
        let (summary, graded) = answers.split_last().expect("lines");
        assert_eq!(graded.len(), 8);
        for line in graded {
            object(line, &GRADED, "grade");
            check_scores(&line["expected"]["scores"], "grade expected");
            let yours = &line["yours"];
            if form == "move" {
                object(yours, &[("move", Kind::Maybe(&SQUARE))], "grade yours");
            } else {
                object(yours, &[("scores", Kind::Any)], "grade yours");
                check_scores(&yours["scores"], "grade yours");
            }
        }
        object(
            summary,
            &[("summary", Kind::Object(&GRADE_SUMMARY))],
            "grade summary",
        );
    }
    // The article's code as printed: a diagnosis, with its examples.
    let printed = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/students/gfg_printed.py");
    let printed = printed.to_str().expect("UTF-8");
    let diagnosed = lines(
        &[
            "grade", "--sample", "30", "--seed", "1", "--json", "--", "python3", printed,
        ],
        "",
    );
    let summary = diagnosed.last().expect("a summary");
    object(
        summary,
        &[("summary", Kind::Object(&GRADE_SUMMARY))],
        "grade summary",
    );
    assert!(
        summary["summary"]["diagnosis"]["answers"].is_object(),
        "the printed code is named: {summary}"
    );
    let failed = lines(
        &[
            "grade",
            "--board",
            "xo./.../...",
            "--json",
            "--",
            "sh",
            "-c",
            "exit 3",
        ],
        "",
    );
    object(
        &failed[0],
        &[
            ("number", Kind::Int),
            ("board", Kind::Text),
            ("trouble", Kind::Text),
            ("restarts_left", Kind::Maybe(&Kind::Int)),
        ],
        "grade failure",
    );
}

/// A class: a row per submission; and Gradescope's `results.json`.
#[test]
fn grade_a_class_and_for_gradescope() {
    let students = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/students");
    let pattern = students.join("gfg*.py");
    let rows = lines(
        &[
            "grade",
            "--board",
            "xox/oox/...",
            "--json",
            "--each",
            pattern.to_str().expect("UTF-8"),
            "--",
            "python3",
            "{}",
        ],
        "",
    );
    assert!(rows.len() > 1, "{rows:?}");
    for row in &rows {
        object(
            row,
            &[
                ("submission", Kind::Text),
                ("right", Kind::Int),
                ("wrong", Kind::Int),
                ("failed", Kind::Int),
                ("asked", Kind::Int),
                ("diagnosis", Kind::Text),
                ("ended", Kind::Text),
                ("seconds", Kind::Number),
            ],
            "a class's row",
        );
    }
    let dir = tempfile::tempdir().expect("a folder");
    let results = dir.path().join("results.json");
    let student = students.join("gfg.py");
    let out = tictactoe(
        &[
            "grade",
            "--board",
            "xox/oox/...",
            "--gradescope",
            results.to_str().expect("UTF-8"),
            "--",
            "python3",
            student.to_str().expect("UTF-8"),
        ],
        "",
    );
    assert!(out.status.success(), "{out:?}");
    let file: Value =
        serde_json::from_slice(&std::fs::read(&results).expect("written")).expect("JSON");
    object(
        &file,
        &[
            ("score", Kind::Number),
            ("execution_time", Kind::Number),
            ("output", Kind::Text),
            ("visibility", Kind::Text),
            (
                "tests",
                Kind::Objects(&[
                    ("name", Kind::Text),
                    ("score", Kind::Number),
                    ("max_score", Kind::Int),
                    ("output", Kind::Text),
                    ("visibility", Kind::Text),
                ]),
            ),
        ],
        "results.json",
    );
}

#[test]
fn grade_cs50() {
    let module =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/students/cs50_broken/tictactoe.py");
    let report = lines(
        &["grade", "--cs50", module.to_str().expect("UTF-8"), "--json"],
        "",
    );
    let (summary, functions) = report.split_last().expect("lines");
    assert_eq!(functions.len(), 7);
    for function in functions {
        object(
            function,
            &[
                ("function", Kind::Text),
                ("calls", Kind::Int),
                ("answered", Kind::Int),
                ("right", Kind::Int),
                (
                    "wrong",
                    Kind::Objects(&[
                        ("call", Kind::Text),
                        ("board", Kind::Text),
                        ("why", Kind::Text),
                    ]),
                ),
                ("hint", Kind::Maybe(&Kind::Text)),
            ],
            "grade --cs50",
        );
    }
    assert!(
        functions
            .iter()
            .any(|f| !f["wrong"].as_array().unwrap().is_empty()),
        "the broken module gets something wrong"
    );
    object(
        summary,
        &[(
            "summary",
            Kind::Object(&[
                ("ended", Kind::Text),
                ("not_started", Kind::Maybe(&Kind::Text)),
                ("failed", Kind::Int),
                ("all_right", Kind::Bool),
            ]),
        )],
        "grade --cs50 summary",
    );
}

#[test]
fn lab() {
    let row: [(&str, Kind); 6] = [
        ("technique", Kind::Text),
        ("value", Kind::Maybe(&Kind::Int)),
        ("positions", Kind::Maybe(&Kind::Int)),
        ("time_ms", Kind::Number),
        ("gain", Kind::Maybe(&Kind::Number)),
        ("gain_by", Kind::Maybe(&Kind::Text)),
    ];
    let ladder_fields = |rows| {
        vec![
            ("board", Kind::Text),
            ("size", Kind::Int),
            ("k", Kind::Int),
            ("scores", Kind::Text),
            ("value", Kind::Maybe(&Kind::Int)),
            ("agrees", Kind::Bool),
            ("rows", rows),
        ]
    };
    let ladder = lines(&["lab", "o.x/x.x/.oo", "--json"], "");
    object(&ladder[0], &ladder_fields(Kind::Any), "lab");
    for (i, one) in ladder[0]["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .enumerate()
    {
        object(one, &row, &format!("lab.rows[{i}]"));
    }
    // A row that gives up says why.
    let capped = lines(&["lab", "--json", "--max-positions", "100"], "");
    let refused: Vec<&Value> = capped[0]["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .filter(|one| one["value"].is_null())
        .collect();
    assert!(!refused.is_empty(), "{}", capped[0]);
    let mut gave_up = row.to_vec();
    gave_up.push(("refused", Kind::Text));
    for one in refused {
        object(one, &gave_up, "lab's row that gave up");
    }
}

const RATING: [(&str, Kind); 5] = [
    ("rating", Kind::Number),
    ("deviation", Kind::Number),
    ("volatility", Kind::Number),
    ("provisional", Kind::Bool),
    ("games", Kind::Int),
];

fn with_rating(rest: &[(&'static str, Kind)]) -> Vec<(&'static str, Kind)> {
    rest.iter().copied().chain(RATING).collect()
}

/// The example line docs/JSON.md shows under a heading, for the commands
/// it cannot run (the server's).
fn documented(heading: &str) -> Value {
    let page = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/JSON.md"))
        .expect("docs/JSON.md");
    let section = page
        .split(&format!("\n## {heading}\n"))
        .nth(1)
        .unwrap_or_else(|| panic!("JSON.md has no {heading}"));
    let line = section
        .lines()
        .find(|line| line.starts_with('{'))
        .unwrap_or_else(|| panic!("JSON.md's {heading} has no example"));
    serde_json::from_str(line).unwrap_or_else(|e| panic!("{heading}: {line}: {e}"))
}

/// `leaderboard --json` and `history --json` run on the server (tests/serve
/// runs them over SSH): here the module's records, filled in as the server
/// fills them, and the examples docs/JSON.md shows, have the shape it says.
#[test]
fn leaderboard_and_history() {
    let rating = json::Rating {
        rating: 1662.3,
        deviation: 290.3,
        volatility: 0.06,
        provisional: true,
        games: 1,
    };
    let leaderboard = json::Leaderboard {
        boards: vec![json::RatedBoard {
            size: 3,
            k: 3,
            players: vec![json::Leader {
                rank: 1,
                name: "alice".into(),
                rating,
            }],
        }],
    };
    let player = with_rating(&[("rank", Kind::Int), ("name", Kind::Text)]);
    const BOARD: [(&str, Kind); 3] = [
        ("size", Kind::Int),
        ("k", Kind::Int),
        ("players", Kind::Any),
    ];
    for (answer, at) in [
        (
            serde_json::from_str(&json::line(&leaderboard)).unwrap(),
            "leaderboard",
        ),
        (documented("leaderboard"), "JSON.md's leaderboard"),
    ] {
        let answer: Value = answer;
        object(&answer, &[("boards", Kind::Objects(&BOARD))], at);
        for one in answer["boards"].as_array().unwrap() {
            for leader in one["players"].as_array().unwrap() {
                object(leader, &player, at);
            }
        }
    }
    let history = json::History {
        player: Some("bob".into()),
        ratings: vec![json::ShapeRating {
            size: 3,
            k: 3,
            rating,
        }],
        games: vec![json::HistoryGame {
            id: 1,
            size: 3,
            k: 3,
            rated: true,
            clock: Some("3+2".into()),
            x: "alice".into(),
            o: "bob".into(),
            you: Player::O,
            started: "2026-11-23T10:00:00Z".into(),
            result: Some(Outcome::Win(Player::X)),
            ending: Some("board"),
            aborted: false,
            moves: vec!["a1".into(), "a2".into()],
            record: Some("[Game \"tictactoe\"]\n".into()),
        }],
    };
    const GAME: [(&str, Kind); 14] = [
        ("id", Kind::Int),
        ("size", Kind::Int),
        ("k", Kind::Int),
        ("rated", Kind::Bool),
        ("clock", Kind::Maybe(&Kind::Text)),
        ("x", Kind::Text),
        ("o", Kind::Text),
        ("you", Kind::Player),
        ("started", Kind::Text),
        ("result", Kind::Maybe(&Kind::Result)),
        ("ending", Kind::Maybe(&Kind::Text)),
        ("aborted", Kind::Bool),
        ("moves", Kind::Squares),
        ("record", Kind::Maybe(&Kind::Text)),
    ];
    let ratings = with_rating(&[("size", Kind::Int), ("k", Kind::Int)]);
    for (answer, at) in [
        (
            serde_json::from_str(&json::line(&history)).unwrap(),
            "history",
        ),
        (documented("history"), "JSON.md's history"),
    ] {
        let answer: Value = answer;
        object(
            &answer,
            &[
                ("player", Kind::Maybe(&Kind::Text)),
                ("ratings", Kind::Any),
                ("games", Kind::Objects(&GAME)),
            ],
            at,
        );
        for one in answer["ratings"].as_array().unwrap() {
            object(one, &ratings, at);
        }
    }
}

/// Every command that writes JSON has its section in docs/JSON.md.
#[test]
fn every_command_that_writes_json_is_documented() {
    let page = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/JSON.md"))
        .expect("docs/JSON.md");
    for command in [
        "analyze",
        "trace",
        "quiz",
        "review",
        "selfplay",
        "solve",
        "stats",
        "grade",
        "grade --cs50",
        "lab",
        "leaderboard",
        "history",
    ] {
        assert!(
            page.contains(&format!("\n## {command}\n")),
            "docs/JSON.md has no section for {command}"
        );
    }
}

/// Source files of the workspace, below `dir`, but the tests' own (which
/// read JSON) and the build's.
fn sources(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a folder") {
        let path = entry.expect("an entry").path();
        let name = path
            .file_name()
            .and_then(|name| name.to_str())
            .unwrap_or("");
        if path.is_dir() {
            if !matches!(name, "target" | "tests" | ".git") && !name.starts_with('.') {
                sources(&path, found);
            }
        } else if name.ends_with(".rs") {
            found.push(path);
        }
    }
}

/// JSON is written by `tictactoe_game::json` alone: no other source in the
/// workspace serializes, derives `Serialize`, builds JSON with `json!` or
/// spells a result. The formats of their own are exempt, each for what it
/// needs: the engine's serde (the vocabulary itself), the proof
/// certificates, the statistics file, and the values the grader reads from
/// its Python shim.
#[test]
fn no_writer_but_the_json_module() {
    let writers = [
        "Serialize",
        "serde_json::to_",
        "json!",
        "\"x-wins\"",
        "\"o-wins\"",
        "\"x_won\"",
        "\"x_wins\"",
        "\"in-progress\"",
        "\"in_progress\"",
    ];
    let results: &[&str] = &["\"x-wins\"", "\"o-wins\""];
    let exempt: [(&str, &[&str]); 6] = [
        ("crates/engine/src/serde_impls.rs", &writers),
        // The names themselves.
        ("crates/engine/src/outcome.rs", results),
        (
            "crates/engine/src/solve/certificate/",
            &["Serialize", "serde_json::to_"],
        ),
        (
            "crates/game/src/stats/format.rs",
            &["Serialize", "serde_json::to_"],
        ),
        ("crates/grade/src/cs50.rs", &["json!"]),
        // The jobs' manifest and job files, a format of the prover's own.
        ("crates/engine/src/solve/jobs.rs", &["Serialize"]),
    ];
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    sources(root, &mut files);
    assert!(files.len() > 50, "{} sources", files.len());
    let module = root.join("crates/game/src/json");
    for path in files.iter().filter(|path| !path.starts_with(&module)) {
        let relative = path.strip_prefix(root).expect("below the root");
        let relative = relative.to_str().expect("UTF-8");
        let allowed: &[&str] = exempt
            .iter()
            .find(|(prefix, _)| relative.starts_with(prefix))
            .map_or(&[], |(_, allowed)| allowed);
        let text = std::fs::read_to_string(path).expect("a source file");
        // Comments may name what they like.
        let code = text
            .lines()
            .filter(|line| !line.trim_start().starts_with("//"));
        for (number, line) in code.enumerate() {
            for spelling in writers.iter().filter(|w| !allowed.contains(w)) {
                assert!(
                    !line.contains(spelling),
                    "{relative}: {spelling} in {line:?} (code line {}): JSON goes through \
                     tictactoe_game::json",
                    number + 1
                );
            }
        }
    }
}

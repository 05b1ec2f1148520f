//! Every command's JSON against its shape in docs/JSON.md, one test per
//! command: the fields, the type of each, and the one vocabulary (a square
//! is "b2", a result "x-wins" | "o-wins" | "draw", a status adds
//! "in-progress", a player "x" | "o", snake_case names). And no writer but
//! `src/cli/json.rs` spells any of it.

use crate::support;

use serde_json::{Map, Value};
use support::tictactoe;

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
                || matches!(*name, "x-wins" | "o-wins"),
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

const ANALYZED_MOVE: [(&str, Kind); 5] = [
    ("score", Kind::Maybe(&Kind::Int)),
    ("proven", Kind::Bool),
    ("result", Kind::Maybe(&Kind::Result)),
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
        ("best", Kind::Maybe(&SQUARE)),
        ("moves", Kind::Any),
        ("nodes", Kind::Int),
        ("method", Kind::Text),
        ("proven", Kind::Bool),
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
        ("proven", Kind::Bool),
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
            (
                "tally",
                Kind::Object(&[
                    ("x-wins", Kind::Int),
                    ("o-wins", Kind::Int),
                    ("draw", Kind::Int),
                ]),
            ),
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

#[test]
fn stats() {
    let dir = tempfile::tempdir().expect("a folder");
    let file = dir.path().join("stats.json");
    let file = file.to_str().expect("UTF-8");
    let report = lines(&["stats", "--json", "--stats-file", file], "");
    object(
        &report[0],
        &[
            ("games", Kind::Int),
            ("wins", Kind::Int),
            ("losses", Kind::Int),
            ("draws", Kind::Int),
            ("by_opponent", Kind::Objects(&[])),
            ("file", Kind::Text),
        ],
        "stats",
    );
}

/// The words and shapes are spelled in `src/cli/json.rs` alone: no other
/// command derives its own JSON or writes a result's name.
#[test]
fn no_writer_but_the_json_module_spells_the_vocabulary() {
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/cli");
    let spellings = [
        "Serialize",
        "serde_json::to_string",
        "\"x-wins\"",
        "\"o-wins\"",
        "\"x_won\"",
        "\"x_wins\"",
        "\"in-progress\"",
        "\"in_progress\"",
    ];
    for entry in std::fs::read_dir(folder).expect("src/cli") {
        let path = entry.expect("an entry").path();
        if path.file_name().is_some_and(|name| name == "json.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("a source file");
        for spelling in spellings {
            assert!(
                !text.contains(spelling),
                "{} spells {spelling}: JSON goes through src/cli/json.rs",
                path.display()
            );
        }
    }
}

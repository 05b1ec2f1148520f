//! The layers are crates, so Cargo holds the direction of every arrow
//! between them: the engine uses none of the others, the core only the
//! engine, the screen the core, the server the screen, and the command line
//! all of them. What Cargo cannot say is checked here:
//!
//! - what each crate pulls in, all the way down: the core builds without a
//!   terminal or a network crate, and the engine with its few dependencies;
//! - the engine does no I/O (it may read the clock, for thinking times);
//! - inside the core, arrows point down: text and fitting are leaves, the
//!   words sit on them, the game and its files above, the line-based front
//!   ends on top, and neither front end imports the other.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use regex::Regex;
use serde_json::Value;

/// The crates of the workspace, each with the workspace crates it may use.
const LAYERS: [(&str, &[&str]); 5] = [
    ("tictactoe-engine", &[]),
    ("tictactoe-core", &["tictactoe-engine"]),
    ("tictactoe-screen", &["tictactoe-engine", "tictactoe-core"]),
    (
        "tictactoe-serve",
        &["tictactoe-engine", "tictactoe-core", "tictactoe-screen"],
    ),
    (
        "tictactoe",
        &[
            "tictactoe-engine",
            "tictactoe-core",
            "tictactoe-screen",
            "tictactoe-serve",
        ],
    ),
];

/// Crates that drive a terminal or a network: never below the screen.
const TERMINAL_AND_NETWORK: [&str; 7] = [
    "ratatui",
    "crossterm",
    "terminput",
    "signal-hook",
    "russh",
    "tokio",
    "rusqlite",
];

/// The engine's own dependencies (serde behind its feature).
const ENGINE_MAY_USE: [&str; 4] = ["fastrand", "thiserror", "serde", "serde_json"];

/// The platform this runs on, as rustc names it (`x86_64-unknown-linux-gnu`).
fn host() -> String {
    let output = Command::new("rustc")
        .arg("-vV")
        .output()
        .expect("rustc runs");
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .find_map(|line| line.strip_prefix("host: "))
        .expect("rustc names its host")
        .to_string()
}

/// `cargo metadata` of the workspace on this platform: its packages and
/// the resolved graph. (Packages only other platforms use, such as
/// SQLite's for WebAssembly, need not be downloaded.)
fn metadata() -> Value {
    let output = Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1", "--offline"])
        .args(["--filter-platform", &host()])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo runs");
    assert!(
        output.status.success(),
        "cargo metadata: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("cargo metadata prints JSON")
}

/// Each package's name by its id, and the names of what each uses to build
/// (normal dependencies, not those of tests or build scripts).
fn graph(metadata: &Value) -> BTreeMap<String, BTreeSet<String>> {
    let names: BTreeMap<&str, &str> = metadata["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .map(|package| {
            (
                package["id"].as_str().expect("an id"),
                package["name"].as_str().expect("a name"),
            )
        })
        .collect();
    let mut graph = BTreeMap::new();
    for node in metadata["resolve"]["nodes"].as_array().expect("nodes") {
        let name = names[node["id"].as_str().expect("an id")].to_string();
        let uses = node["deps"]
            .as_array()
            .expect("deps")
            .iter()
            .filter(|dep| {
                dep["dep_kinds"]
                    .as_array()
                    .expect("kinds")
                    .iter()
                    .any(|kind| kind["kind"].is_null())
            })
            .map(|dep| names[dep["pkg"].as_str().expect("a package id")].to_string())
            .collect();
        graph.insert(name, uses);
    }
    graph
}

/// Everything `name` pulls in, all the way down.
fn below(graph: &BTreeMap<String, BTreeSet<String>>, name: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut todo = vec![name.to_string()];
    while let Some(next) = todo.pop() {
        for dep in graph.get(&next).into_iter().flatten() {
            if seen.insert(dep.clone()) {
                todo.push(dep.clone());
            }
        }
    }
    seen
}

#[test]
fn the_crates_are_the_layers() {
    let graph = graph(&metadata());
    let workspace: BTreeSet<&str> = LAYERS.iter().map(|(name, _)| *name).collect();
    for (layer, may_use) in LAYERS {
        let uses = graph
            .get(layer)
            .unwrap_or_else(|| panic!("{layer} is built"));
        for dep in uses.iter().filter(|dep| workspace.contains(dep.as_str())) {
            assert!(
                may_use.contains(&dep.as_str()),
                "{layer} uses {dep}, a layer above it"
            );
        }
    }
    for layer in ["tictactoe-engine", "tictactoe-core"] {
        let pulled = below(&graph, layer);
        for outside in TERMINAL_AND_NETWORK {
            assert!(
                !pulled.contains(outside),
                "{layer} pulls in {outside}: it must build without a terminal or a network"
            );
        }
    }
    for dep in &graph["tictactoe-engine"] {
        assert!(
            ENGINE_MAY_USE.contains(&dep.as_str()),
            "the engine uses {dep}, beyond what it needs"
        );
    }
}

fn rust_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("a source folder") {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            found.push(path);
        }
    }
}

/// The code of `text` without its comments, line for line.
fn without_comments(text: &str) -> String {
    text.lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_engine_does_no_io() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/engine/src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    assert!(files.len() > 10, "the engine's source was found");
    let io = Regex::new(r"\bstd::(fs|io|net|process|env|thread)\b|\b(print|eprint)(ln)?!")
        .expect("a valid pattern");
    for file in files {
        let code = without_comments(&fs::read_to_string(&file).expect("readable"));
        if let Some(hit) = io.find(&code) {
            let line = code[..hit.start()].matches('\n').count() + 1;
            panic!(
                "{}:{line}: the engine names {}",
                file.display(),
                hit.as_str()
            );
        }
    }
}

/// The core's top-level modules, as its lib.rs declares them (checked by
/// `the_core_is_drawn_whole`).
const CORE: [&str; 19] = [
    "action", "clock", "console", "files", "fit", "game", "grade", "keys", "lab", "plain",
    "present", "quiz", "reader", "record", "review", "selfplay", "settings", "stats", "text",
];

/// What each of the core's modules may use besides itself (and the engine).
fn allowed(module: &str) -> &'static [&'static str] {
    const BELOW_CONSOLE: &[&str] = &[
        "action", "fit", "game", "keys", "quiz", "record", "review", "selfplay", "settings",
        "stats", "text", "present",
    ];
    match module {
        "text" | "fit" | "action" => &[],
        "present" | "clock" | "files" => &["text"],
        "keys" => &["action", "fit"],
        "lab" | "grade" => &["text", "present"],
        "quiz" => &["text", "present", "fit"],
        "game" | "settings" | "selfplay" | "stats" => &[
            "files", "game", "settings", "selfplay", "stats", "text", "present",
        ],
        "record" => &["files", "game", "text", "present"],
        "review" => &["game", "record", "text", "present"],
        "console" => BELOW_CONSOLE,
        // The two line-based front ends stand side by side on the console.
        "plain" | "reader" => &[
            "console", "action", "fit", "game", "keys", "quiz", "record", "review", "settings",
            "stats", "text", "present",
        ],
        _ => &CORE,
    }
}

/// The names a path continues with at `at`: one name, or each first name of
/// a `{...}` group (`crate::{game::Seats, text}` names game and text).
fn names_after(code: &str, at: usize) -> Vec<(usize, String)> {
    let name_at = |from: usize| -> String {
        code[from..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    if !code[at..].starts_with('{') {
        return vec![(at, name_at(at))];
    }
    let mut names = Vec::new();
    let (mut depth, mut item_start) = (0usize, at + 1);
    for (offset, ch) in code[at..].char_indices() {
        let here = at + offset;
        match ch {
            '{' => depth += 1,
            '}' | ',' if depth == 1 => {
                let item = &code[item_start..here];
                let start = item_start + (item.len() - item.trim_start().len());
                names.push((start, name_at(start)));
                item_start = here + 1;
                if ch == '}' {
                    break;
                }
            }
            '}' => depth -= 1,
            _ => {}
        }
    }
    names
}

/// The core modules a file `depth` modules below the crate root names
/// through `crate::` or enough `super::`, each with its line.
fn uses(text: &str, depth: usize) -> Vec<(usize, String)> {
    let code = without_comments(text);
    let path = Regex::new(r"\b(crate|super(?:::super)*)::").expect("a valid pattern");
    let mut found = Vec::new();
    for start in path.captures_iter(&code) {
        let whole = start.get(0).expect("a match");
        let head = &start[1];
        if head != "crate" && head.matches("super").count() < depth {
            continue;
        }
        for (at, name) in names_after(&code, whole.end()) {
            if CORE.contains(&name.as_str()) {
                found.push((code[..at].matches('\n').count() + 1, name));
            }
        }
    }
    found
}

#[test]
fn the_core_is_drawn_whole() {
    let lib = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/core/src/lib.rs");
    let lib = std::fs::read_to_string(lib).expect("the core's lib.rs");
    let declared: Vec<&str> = lib
        .lines()
        .filter_map(|line| line.trim().strip_prefix("pub mod "))
        .map(|name| name.trim_end_matches(';'))
        .collect();
    assert_eq!(declared, CORE, "a module missing from CORE is not checked");
}

#[test]
fn inside_the_core_arrows_point_down() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/core/src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut broken = Vec::new();
    for file in &files {
        let relative = file.strip_prefix(&src).expect("under src");
        let parts: Vec<String> = relative
            .with_extension("")
            .components()
            .map(|part| part.as_os_str().to_string_lossy().into_owned())
            .collect();
        let module = parts[0].clone();
        // `a/mod.rs` is `a`, `a/b.rs` is `a::b`: one deeper.
        let depth = parts.len() - usize::from(parts.last().is_some_and(|p| p == "mod"));
        let text = fs::read_to_string(file).expect("a readable source file");
        for (line, used) in uses(&text, depth) {
            if used != module && !allowed(&module).contains(&used.as_str()) {
                broken.push(format!(
                    "{}:{line}: {module} uses {used}",
                    relative.display()
                ));
            }
        }
    }
    assert!(
        broken.is_empty(),
        "imports against the design:\n{}",
        broken.join("\n")
    );
}

#[test]
fn the_check_catches_what_it_should() {
    let text = "use crate::plain::run;\n// crate::reader in a comment\nuse super::reader;";
    assert_eq!(
        uses(text, 1),
        vec![(1, "plain".to_string()), (3, "reader".to_string())],
        "super:: at the top is crate::"
    );
    assert_eq!(uses(text, 2).len(), 1, "super:: is one module deeper here");
    let grouped = "use crate::{\n    game::Seats,\n    console::Keep,\n};";
    assert_eq!(
        uses(grouped, 1),
        vec![(2, "game".to_string()), (3, "console".to_string())]
    );
    assert!(!allowed("plain").contains(&"reader"));
    assert!(!allowed("reader").contains(&"plain"));
    assert!(!allowed("console").contains(&"plain"));
    assert!(allowed("text").is_empty());
}

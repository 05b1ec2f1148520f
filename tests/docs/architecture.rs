//! The layers are crates, so Cargo holds the direction of every arrow
//! between them. This file checks the crate graph that `cargo metadata`
//! reports against the design, and the little Cargo cannot say:
//!
//! - the engine uses none of the others; the game's model only the engine;
//!   the grader and the line-based front ends the model; the full screen the
//!   model (and the grader's lab, which its explain panel shows); the server
//!   the screen and the line-based front ends; the command line all of them;
//! - what each crate pulls in, all the way down: below the screen nothing
//!   builds on a terminal or a network crate, and the engine keeps its few
//!   dependencies;
//! - no crate below the screen asks the terminal anything (its size
//!   included): the width text wraps to is read where the terminal is
//!   opened and passed down;
//! - the engine does no I/O (it may read the clock, for thinking times, and
//!   start threads, for proofs).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use regex::Regex;
use serde_json::Value;

const ENGINE: &str = "tictactoe-engine";
const GAME: &str = "tictactoe-game";
const GRADE: &str = "tictactoe-grade";
const CONSOLE: &str = "tictactoe-console";
const SCREEN: &str = "tictactoe-screen";
const SERVE: &str = "tictactoe-serve";

/// The crates of the workspace, each with exactly the workspace crates it uses.
const LAYERS: [(&str, &[&str]); 7] = [
    (ENGINE, &[]),
    (GAME, &[ENGINE]),
    (GRADE, &[ENGINE, GAME]),
    (CONSOLE, &[ENGINE, GAME]),
    (SCREEN, &[ENGINE, GAME, GRADE]),
    (SERVE, &[ENGINE, GAME, CONSOLE, SCREEN]),
    ("tictactoe", &[ENGINE, GAME, GRADE, CONSOLE, SCREEN, SERVE]),
];

/// The crates below the screen: no terminal, no network.
const BELOW_THE_SCREEN: [&str; 4] = [ENGINE, GAME, GRADE, CONSOLE];

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
        .args([
            "metadata",
            "--format-version",
            "1",
            "--offline",
            "--all-features",
        ])
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
    for (layer, designed) in LAYERS {
        let uses: BTreeSet<&str> = graph
            .get(layer)
            .unwrap_or_else(|| panic!("{layer} is built"))
            .iter()
            .map(String::as_str)
            .filter(|dep| workspace.contains(dep))
            .collect();
        let designed: BTreeSet<&str> = designed.iter().copied().collect();
        assert_eq!(uses, designed, "the workspace crates {layer} uses");
    }
    for layer in BELOW_THE_SCREEN {
        let pulled = below(&graph, layer);
        for outside in TERMINAL_AND_NETWORK {
            assert!(
                !pulled.contains(outside),
                "{layer} pulls in {outside}: it must build without a terminal or a network"
            );
        }
    }
    for dep in &graph[ENGINE] {
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
    let io = Regex::new(r"\bstd::(fs|io|net|process|env)\b|\b(print|eprint)(ln)?!")
        .expect("a valid pattern");
    if let Some(place) = first_use("crates/engine/src", &io) {
        panic!("{place}: the engine does I/O");
    }
}

/// The first place under `dir` whose code matches `pattern`, as `file:line: match`.
fn first_use(dir: &str, pattern: &Regex) -> Option<String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    assert!(!files.is_empty(), "{dir} has source files");
    files.into_iter().find_map(|file| {
        let code = without_comments(&fs::read_to_string(&file).expect("readable"));
        let hit = pattern.find(&code)?;
        let line = code[..hit.start()].matches('\n').count() + 1;
        Some(format!("{}:{line}: {}", file.display(), hit.as_str()))
    })
}

#[test]
fn below_the_screen_nothing_asks_the_terminal() {
    let terminal = Regex::new(r"\b(termios|tcgetwinsize|isatty|IsTerminal|is_terminal)\b")
        .expect("a valid pattern");
    for dir in [
        "crates/engine/src",
        "crates/game/src",
        "crates/grade/src",
        "crates/console/src",
    ] {
        if let Some(place) = first_use(dir, &terminal) {
            panic!("{place}: a terminal call below the screen");
        }
    }
    // The check sees what it looks for.
    assert!(first_use("crates/screen/src", &terminal).is_some());
}

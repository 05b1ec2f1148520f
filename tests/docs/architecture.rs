//! The layers are crates, so Cargo holds the direction of every arrow
//! between them. The design is the crate graph docs/ENGINE.md draws; this
//! file draws it again from what `cargo metadata` reports and compares the
//! two, and checks the little Cargo cannot say:
//!
//! - what each crate pulls in, all the way down: below the screen nothing
//!   builds on a terminal or a network crate, and the engine keeps its few
//!   dependencies;
//! - no crate below the screen asks the terminal anything (its size
//!   included): the width text wraps to is read where the terminal is
//!   opened and passed down;
//! - the engine does no I/O (it may read the clock, for thinking times,
//!   start threads, for proofs, and read lines from a reader its caller
//!   opened, for certificates and jobs: it opens, writes and prints nothing).

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

/// The workspace's crates, each with the workspace crates it uses to build
/// and whether it needs a feature for each.
fn workspace(metadata: &Value) -> BTreeMap<String, BTreeMap<String, bool>> {
    let members: BTreeSet<&str> = metadata["workspace_members"]
        .as_array()
        .expect("members")
        .iter()
        .map(|id| id.as_str().expect("an id"))
        .collect();
    let packages: Vec<&Value> = metadata["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .filter(|package| members.contains(package["id"].as_str().expect("an id")))
        .collect();
    let names: BTreeSet<&str> = packages
        .iter()
        .map(|package| package["name"].as_str().expect("a name"))
        .collect();
    packages
        .iter()
        .map(|package| {
            let uses = package["dependencies"]
                .as_array()
                .expect("dependencies")
                .iter()
                .filter(|dep| dep["kind"].is_null())
                .filter(|dep| names.contains(dep["name"].as_str().expect("a name")))
                .map(|dep| {
                    let name = dep["name"].as_str().expect("a name").to_string();
                    (name, dep["optional"].as_bool().unwrap_or(false))
                })
                .collect();
            (package["name"].as_str().expect("a name").to_string(), uses)
        })
        .collect()
}

/// The crate graph as docs/ENGINE.md draws it: a line per crate, the
/// highest first, each with the crates it uses, the lowest first
/// (`tictactoe-` left off every name but the root's).
fn drawn(crates: &BTreeMap<String, BTreeMap<String, bool>>) -> String {
    fn height(crates: &BTreeMap<String, BTreeMap<String, bool>>, name: &str) -> usize {
        crates[name]
            .keys()
            .map(|dep| 1 + height(crates, dep))
            .max()
            .unwrap_or(0)
    }
    let short = |name: &str| name.strip_prefix("tictactoe-").unwrap_or(name).to_string();
    let mut order: Vec<&String> = crates.keys().collect();
    order.sort_by_key(|name| (height(crates, name), short(name)));
    let width = order
        .iter()
        .map(|name| short(name).len())
        .max()
        .unwrap_or(0);
    let mut lines: Vec<String> = order
        .iter()
        .map(|name| {
            let uses: Vec<String> = order
                .iter()
                .filter_map(|dep| {
                    let optional = crates[*name].get(*dep)?;
                    Some(match optional {
                        true => format!("{} (optional)", short(dep)),
                        false => short(dep),
                    })
                })
                .collect();
            let uses = match uses.is_empty() {
                true => "nothing of ours".to_string(),
                false => uses.join(", "),
            };
            format!("{:<width$}  uses {uses}", short(name))
        })
        .collect();
    lines.reverse();
    lines.join("\n") + "\n"
}

/// The code block docs/ENGINE.md draws the crate graph in: the one after
/// the line `<!-- the crate graph -->`.
fn engine_md_graph() -> String {
    let page = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/ENGINE.md"))
        .expect("docs/ENGINE.md");
    let (_, after) = page
        .split_once("<!-- the crate graph -->\n```text\n")
        .expect("ENGINE.md marks its crate graph");
    let (block, _) = after.split_once("```").expect("the block ends");
    block.to_string()
}

#[test]
fn engine_md_draws_the_crate_graph_cargo_reports() {
    let drawn = drawn(&workspace(&metadata()));
    assert!(
        engine_md_graph() == drawn,
        "docs/ENGINE.md's crate graph is not the workspace's; cargo metadata gives:\n{drawn}"
    );
}

#[test]
fn the_crates_below_the_screen_pull_in_no_terminal_and_no_network() {
    let graph = graph(&metadata());
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
    // Of std::io, only what reading a caller's lines takes: a path that
    // names one of those is matched whole, and allowed, before `std::io`.
    let io = Regex::new(
        r"\bstd::(fs|net|process|env)\b|\bstd::io::(BufRead|Error|ErrorKind)\b|\bstd::io\b|\b(print|eprint)(ln)?!",
    )
    .expect("a valid pattern");
    let allowed = |found: &str| found.starts_with("std::io::");
    if let Some(place) = first_use_but("crates/engine/src", &io, allowed) {
        panic!("{place}: the engine does I/O");
    }
}

/// The first place under `dir` whose code matches `pattern`, as `file:line: match`.
fn first_use(dir: &str, pattern: &Regex) -> Option<String> {
    first_use_but(dir, pattern, |_| false)
}

/// The first place under `dir` whose code matches `pattern` with a match
/// that is not `allowed`, as `file:line: match`.
fn first_use_but(dir: &str, pattern: &Regex, allowed: impl Fn(&str) -> bool) -> Option<String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    assert!(!files.is_empty(), "{dir} has source files");
    files.into_iter().find_map(|file| {
        let code = without_comments(&fs::read_to_string(&file).expect("readable"));
        let hit = pattern
            .find_iter(&code)
            .find(|hit| !allowed(hit.as_str()))?;
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

//! The import rules of the app's modules, checked on the source: arrows point
//! down only. (The engine is a crate of its own, so the compiler already
//! holds that everything may use it and it uses nothing here.) Text and
//! words are leaves, the quiz sits on them; the game model, the settings,
//! self-play and the statistics import only each other and the leaves; the screen model
//! imports no front end; the front ends (tui, plain, serve) are siblings that
//! import neither each other nor the command line. The screen reader's
//! voice (reader) is `--screen-reader`'s and the server's game in sentences:
//! the server may use it, and it uses no front end. Paths count however they
//! are written: `crate::x`, groups such as `crate::{x, y}` over several lines,
//! and `super::super::x` from deep inside a module. And only the layers that
//! drive a terminal or a network use the crates that do (ratatui, crossterm,
//! signal-hook, russh, tokio, terminput): the engine, the game model and the
//! plain mode build without them.

use std::fs;
use std::path::{Path, PathBuf};

use regex::Regex;

/// The crate's top-level modules (the engine, which all may use, aside).
const MODULES: [&str; 16] = [
    "cli", "console", "game", "plain", "quiz", "reader", "record", "review", "screen", "selfplay",
    "serve", "settings", "stats", "text", "tui", "words",
];

/// What each layer may use besides itself and the engine.
fn allowed(layer: &str) -> &'static [&'static str] {
    match layer {
        "text" => &[],
        "words" => &["text"],
        "quiz" => &["text", "words"],
        "game" | "settings" | "selfplay" | "stats" => {
            &["game", "settings", "selfplay", "stats", "text", "words"]
        }
        "record" => &["game", "text", "words"],
        "review" => &["game", "record", "text", "words"],
        "screen" => &[
            "game", "quiz", "record", "review", "settings", "stats", "text", "words",
        ],
        // The line-by-line session under the two text front ends.
        "console" => &[
            "game", "quiz", "record", "review", "settings", "stats", "text", "words", "screen",
        ],
        "tui" | "plain" | "reader" => &[
            "console", "game", "quiz", "record", "review", "settings", "stats", "text", "words",
            "screen",
        ],
        // The server plays the screen reader's session too, in its voice.
        "serve" => &[
            "console", "game", "quiz", "reader", "record", "review", "settings", "stats", "text",
            "words", "screen",
        ],
        // cli and main choose a front end: they may use everything.
        _ => &MODULES,
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

/// The module a source file is (`src/screen/view.rs` is `screen::view`,
/// `src/screen/mod.rs` is `screen`, `src/lib.rs` the crate root).
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let relative = file.strip_prefix(src).expect("under src");
    let mut path: Vec<String> = relative
        .with_extension("")
        .components()
        .map(|part| part.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(
        path.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        path.pop();
    }
    path
}

/// The top-level module a source file belongs to (`src/screen/view.rs` is `screen`).
fn layer_of(src: &Path, file: &Path) -> String {
    module_of(src, file).into_iter().next().unwrap_or_default()
}

/// The code of `text` without its comments (line comments and doc comments),
/// line for line.
fn without_comments(text: &str) -> String {
    text.lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The names a path continues with after `at`: one name, or each first name
/// of a `{...}` group (`crate::{engine::Board, tui}` names engine and tui).
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
    // Items of the group at its top level, however it is split over lines.
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

/// The top-level modules a file in `module` names through `crate::` or
/// through enough `super::` to reach the crate root, outside comments, each
/// with its line number.
fn uses(text: &str, module: &[String]) -> Vec<(usize, String)> {
    let code = without_comments(text);
    let path = Regex::new(r"\b(crate|super(?:::super)*)::").expect("a valid pattern");
    let mut found = Vec::new();
    for path_start in path.captures_iter(&code) {
        let whole = path_start.get(0).expect("a match");
        let head = &path_start[1];
        // `super` n times from `a::b` is `a::b` less n names: the root when none is left.
        let ups = head.matches("super").count();
        let reaches_root = head == "crate" || ups >= module.len();
        if !reaches_root {
            continue;
        }
        for (at, name) in names_after(&code, whole.end()) {
            if MODULES.contains(&name.as_str()) {
                let line = code[..at].matches('\n').count() + 1;
                found.push((line, name));
            }
        }
    }
    found
}

/// Crates that drive a terminal or a network, and the layers that may use them.
const OUTSIDE: [(&str, &[&str]); 6] = [
    ("ratatui", &["screen", "tui", "serve"]),
    ("crossterm", &["screen", "tui", "serve"]),
    ("signal_hook", &["tui"]),
    ("russh", &["serve"]),
    ("tokio", &["serve"]),
    ("terminput", &["screen", "serve"]),
];

/// The terminal and network crates a file names that its layer may not use.
fn outside_uses(text: &str, layer: &str) -> Vec<(usize, String)> {
    let code = without_comments(text);
    let mut found = Vec::new();
    for (krate, layers) in OUTSIDE {
        if layers.contains(&layer) || matches!(layer, "cli" | "") {
            continue;
        }
        let pattern = Regex::new(&format!(r"\b{krate}(_\w+)?::")).expect("a valid pattern");
        for hit in pattern.find_iter(&code) {
            let line = code[..hit.start()].matches('\n').count() + 1;
            found.push((line, krate.to_string()));
        }
    }
    found
}

#[test]
fn arrows_point_down_only() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    assert!(files.len() > 10, "the source was found");
    let mut broken = Vec::new();
    for file in &files {
        let layer = layer_of(&src, file);
        let text = fs::read_to_string(file).expect("a readable source file");
        let name = file.strip_prefix(&src).expect("under src").display();
        for (line, used) in uses(&text, &module_of(&src, file)) {
            if used != layer && !allowed(&layer).contains(&used.as_str()) {
                broken.push(format!("{name}:{line}: {layer} uses {used}"));
            }
        }
        for (line, krate) in outside_uses(&text, &layer) {
            broken.push(format!("{name}:{line}: {layer} uses the crate {krate}"));
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
    let module = |path: &str| -> Vec<String> { path.split("::").map(String::from).collect() };
    let text = "use crate::cli::ExitStatus;\n// crate::tui in a comment\nlet x = crate::engine::Board::new();\nuse super::tui;";
    assert_eq!(
        uses(text, &module("plain")),
        vec![(1, "cli".to_string()), (4, "tui".to_string())],
        "super:: at the top is crate::; the engine is anyone's"
    );
    assert_eq!(
        uses(text, &module("screen::view")).len(),
        1,
        "super:: is screen here"
    );
    let grouped =
        "use crate::{\n    game::Seats,\n    tui::{self, run},\n};\nuse super::super::cli;";
    assert_eq!(
        uses(grouped, &module("screen::view")),
        vec![
            (2, "game".to_string()),
            (3, "tui".to_string()),
            (5, "cli".to_string())
        ],
        "groups over several lines, and super::super:: from two levels down"
    );
    assert_eq!(
        outside_uses(
            "use ratatui::layout::Rect;\nuse terminput_crossterm::to_crossterm;",
            "plain"
        ),
        vec![(1, "ratatui".to_string()), (2, "terminput".to_string())]
    );
    assert!(outside_uses("use ratatui::layout::Rect;", "screen").is_empty());
    assert!(!allowed("plain").contains(&"cli"));
    assert!(!allowed("plain").contains(&"tui"));
    assert!(!allowed("serve").contains(&"tui"));
    assert!(!allowed("reader").contains(&"plain"));
    assert!(!allowed("plain").contains(&"reader"));
    assert!(allowed("text").is_empty());
}

#[test]
fn the_record_notation_is_pure() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/record/notation.rs");
    let code = without_comments(&fs::read_to_string(path).expect("the notation's source"));
    for impure in [
        "std::fs",
        "std::io",
        "std::time",
        "std::env",
        "super::file",
        "File",
    ] {
        assert!(
            !code.contains(impure),
            "the notation reads and writes text only, yet names {impure}"
        );
    }
}

//! The import rules of the design, checked on the source: arrows point down
//! only. The engine imports nothing above it; the game model, the session and
//! the statistics import only the engine and each other; the screen model
//! imports no front end; the front ends (tui, plain, serve) are siblings that
//! import neither each other nor the command line.

use std::fs;
use std::path::{Path, PathBuf};

/// The crate's top-level modules.
const MODULES: [&str; 10] = [
    "cli", "engine", "game", "plain", "screen", "serve", "session", "stats", "text", "tui",
];

/// What each layer may use besides itself.
fn allowed(layer: &str) -> &'static [&'static str] {
    match layer {
        "engine" | "text" => &[],
        "game" | "session" | "stats" => &["engine", "game", "session", "stats", "text"],
        "screen" => &["engine", "game", "session", "stats", "text"],
        "tui" | "plain" | "serve" => &["engine", "game", "session", "stats", "text", "screen"],
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

/// The top-level module a source file belongs to (`src/screen/view.rs` is `screen`).
fn layer_of(src: &Path, file: &Path) -> String {
    let relative = file.strip_prefix(src).expect("under src");
    let first = relative
        .components()
        .next()
        .expect("a path")
        .as_os_str()
        .to_string_lossy()
        .into_owned();
    first.trim_end_matches(".rs").to_string()
}

/// The modules a file names as `crate::module` (or `super::module` in a
/// file at the top of the crate, where the two mean the same), outside comments.
fn uses(text: &str, top_level: bool) -> Vec<(usize, String)> {
    let prefixes: &[&str] = if top_level {
        &["crate::", "super::"]
    } else {
        &["crate::"]
    };
    let mut found = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        for (at, prefix) in prefixes
            .iter()
            .flat_map(|prefix| code.match_indices(prefix))
        {
            let rest = &code[at + prefix.len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if MODULES.contains(&name.as_str()) {
                found.push((number + 1, name));
            }
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
        let top_level = file.parent() == Some(src.as_path());
        for (line, used) in uses(&text, top_level) {
            if used != layer && !allowed(&layer).contains(&used.as_str()) {
                broken.push(format!(
                    "{}:{line}: {layer} uses {used}",
                    file.strip_prefix(&src).expect("under src").display()
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
    let text = "use crate::cli::ExitStatus;\n// crate::tui in a comment\nlet x = crate::engine::Board::new();\nuse super::tui;";
    assert_eq!(
        uses(text, false),
        vec![(1, "cli".to_string()), (3, "engine".to_string())]
    );
    assert_eq!(uses(text, true).len(), 3, "super:: at the top is crate::");
    assert!(!allowed("plain").contains(&"cli"));
    assert!(!allowed("plain").contains(&"tui"));
    assert!(!allowed("serve").contains(&"tui"));
    assert!(allowed("engine").is_empty());
}

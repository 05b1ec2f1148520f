//! Every file of the repository the docs name is there: a path under one of
//! the repository's folders (`crates/engine/src/board.rs`, `tests/support/`,
//! a relative link such as `../examples/students/gfg.py`) as written, and
//! a Rust or Cargo file named with less of its path (`board.rs`,
//! `teach/reference.rs`, `Cargo.toml`) as the end of some file's path. So a
//! page cannot go on naming a file that was moved or removed. (A student's
//! `mine.py` is the reader's file, not ours: only paths under our folders
//! and our own kinds of source are checked.)

use std::path::{Path, PathBuf};

use regex::Regex;

use crate::support::docs::pages;

/// The repository's own folders: a path that starts with one of them is
/// named from the repository's root.
const FOLDERS: &str = r"\.ci|src|crates|tests|benches|examples|docs";

/// Every path a page names, as written.
fn named(text: &str) -> Vec<String> {
    let rooted = Regex::new(&format!(
        r"(?:^|[\s`(\[])(?:\.\./)?((?:{FOLDERS})/[A-Za-z0-9_./-]*)"
    ))
    .expect("a valid pattern");
    let source = Regex::new(r"(?:^|[\s`(\[])([A-Za-z0-9_][A-Za-z0-9_./-]*\.(?:rs|toml))\b")
        .expect("a valid pattern");
    let mut paths: Vec<String> = rooted
        .captures_iter(text)
        .chain(source.captures_iter(text))
        .map(|found| found[1].trim_end_matches(['.', ',']).to_string())
        .collect();
    paths.sort();
    paths.dedup();
    paths
}

/// Every file under `dir`, relative to the repository's root.
fn files(root: &Path, dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a folder") {
        let path = entry.expect("a folder entry").path();
        let name = path.file_name().unwrap_or_default();
        if name == "target" || name == ".git" {
            continue;
        }
        if path.is_dir() {
            files(root, &path, found);
        } else {
            found.push(path.strip_prefix(root).expect("under the root").into());
        }
    }
}

/// Whether `path`, as a page names it, is in the repository.
fn exists(root: &Path, all: &[PathBuf], path: &str) -> bool {
    let rooted = Regex::new(&format!("^(?:{FOLDERS})/")).expect("a valid pattern");
    if rooted.is_match(path) {
        root.join(path).exists()
    } else {
        all.iter().any(|file| file.ends_with(path))
    }
}

#[test]
fn every_file_the_docs_name_is_there() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut all = Vec::new();
    files(root, root, &mut all);
    let mut missing = Vec::new();
    let mut count = 0;
    for page in pages() {
        for path in named(&page.text) {
            count += 1;
            if !exists(root, &all, &path) {
                missing.push(format!("{}: {path}", page.path));
            }
        }
    }
    assert!(count >= 30, "the pages' paths were found: {count}");
    assert!(
        missing.is_empty(),
        "the docs name files that are not there:\n{}",
        missing.join("\n")
    );
}

#[test]
fn the_reader_finds_paths_as_pages_write_them() {
    let text = "see `crates/engine/src/board.rs` and [gfg](../examples/students/gfg.py), \
                `teach/reference.rs`, src/cli/, `Cargo.toml`; https://example.org/x.rs is \
                no path of ours, nor are proof.jsonl and path/to/tictactoe.py";
    assert_eq!(
        named(text),
        [
            "Cargo.toml",
            "crates/engine/src/board.rs",
            "examples/students/gfg.py",
            "src/cli/",
            "teach/reference.rs",
        ]
    );
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut all = Vec::new();
    files(root, root, &mut all);
    assert!(exists(root, &all, "teach/reference.rs"));
    assert!(!exists(root, &all, "core/src/proof_check.rs"));
    assert!(!exists(root, &all, "src/engine/geometry.rs"));
}

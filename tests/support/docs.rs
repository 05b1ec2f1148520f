//! The documentation as the tests read it: README.md and every page of
//! `docs/`, each with its path, so a test can say where a line is wrong.

use std::path::{Path, PathBuf};

/// One page: where it is (relative to the repository) and its text.
pub struct Page {
    /// `README.md`, `docs/GUIDE.md`, ...
    pub path: String,
    /// The whole page.
    pub text: String,
}

/// README.md, then the pages of `docs/` in the order of their names.
pub fn pages() -> Vec<Page> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("the docs folder")
        .map(|entry| entry.expect("a docs entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    paths.sort();
    paths.insert(0, root.join("README.md"));
    paths
        .into_iter()
        .map(|path| Page {
            path: path
                .strip_prefix(root)
                .expect("under the repository")
                .display()
                .to_string(),
            text: std::fs::read_to_string(&path).expect("a page of text"),
        })
        .collect()
}

/// The screens drawn in the page at `path` (`README.md`, `docs/GUIDE.md`,
/// ...): each code block as [`as_shown`] gives a screen.
pub fn screens_in(path: &str) -> Vec<String> {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
        .expect("a page of text");
    text.split("```")
        .skip(1)
        .step_by(2)
        .map(|block| as_shown(block.lines().skip(1)))
        .collect()
}

/// The rows of a screen as a page shows them and a test compares them:
/// trailing blanks gone, and every time (`0.005 ms`, which varies from run
/// to run) as `[time] ms`.
pub fn as_shown<'a>(rows: impl IntoIterator<Item = &'a str>) -> String {
    let rows: Vec<String> = rows
        .into_iter()
        .map(|row| without_times(row.trim_end()))
        .collect();
    rows.join("\n").trim_end().to_string()
}

/// `0.005 ms` as `[time] ms`.
fn without_times(line: &str) -> String {
    let words: Vec<&str> = line.split(' ').collect();
    let is_number =
        |word: &str| word.contains('.') && word.chars().all(|c| c.is_ascii_digit() || c == '.');
    let kept: Vec<&str> = words
        .iter()
        .enumerate()
        .map(|(i, &word)| match words.get(i + 1) {
            Some(&"ms") if is_number(word) => "[time]",
            _ => word,
        })
        .collect();
    kept.join(" ")
}

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

//! The documentation as the tests read it: README.md and every page of
//! `docs/`, each with its path, so a test can say where a line is wrong.

use std::path::{Path, PathBuf};

use snapbox::report::Palette;
use snapbox::{Assert, Data, Redactions};

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

/// Times and rates, which no two runs share: each pattern's `redacted`
/// group becomes its placeholder.
const VARYING: [(&str, &str); 5] = [
    ("[SECONDS]", r#""seconds":(?<redacted>[0-9.e-]+)"#),
    ("[MS]", r#""ms":(?<redacted>[0-9]+)"#),
    ("[GAIN]", r"\bx(?<redacted>[0-9][0-9,.]*) \(time\)"),
    ("[TIME]", r"\b(?<redacted>[0-9]+(\.[0-9]+)?) (s|ms|µs)\b"),
    ("[RATE]", r"\((?<redacted>[0-9,]+) games per second\)"),
];

/// The figures a page shows that vary from run to run, as snapbox redacts
/// them: the page's figure and the program's both become the placeholder.
pub fn redactions() -> Redactions {
    let mut redactions = Redactions::new();
    for (placeholder, pattern) in VARYING {
        let pattern = regex::Regex::new(pattern).expect("a valid pattern");
        redactions
            .insert(placeholder, pattern)
            .expect("a placeholder in brackets");
    }
    redactions
}

/// Every comparison of a page with the program: the redactions above, no
/// path normalising (a `\\n` in a DOT label is no Windows path), and no
/// colours in the report.
pub fn checker() -> Assert {
    Assert::new()
        .redact_with(redactions())
        .normalize_paths(false)
        .palette(Palette::plain())
}

/// The code blocks of the page at `path` (`README.md`, `docs/GUIDE.md`,
/// ...), each without its rows' trailing blanks.
pub fn screens_in(path: &str) -> Vec<String> {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
        .expect("a page of text");
    text.split("```")
        .skip(1)
        .step_by(2)
        .map(|block| trimmed(block.lines().skip(1)))
        .collect()
}

/// Rows without their trailing blanks, and no blank rows at the end.
pub fn trimmed<'a>(rows: impl IntoIterator<Item = &'a str>) -> String {
    let rows: Vec<&str> = rows.into_iter().map(str::trim_end).collect();
    rows.join("\n").trim_end().to_string()
}

/// Fails unless the page at `path` shows `screen` in one of its code
/// blocks, compared as [`checker`] compares (trailing blanks aside).
pub fn assert_shown(path: &str, screen: &str) {
    let screen = trimmed(screen.lines());
    let checker = checker();
    let shown = screens_in(path).iter().any(|block| {
        let block = redactions().redact(block);
        checker
            .try_eq(None, Data::text(screen.clone()), Data::text(block))
            .is_ok()
    });
    assert!(
        shown,
        "{path} has no screen as the program draws it:\n{screen}"
    );
}

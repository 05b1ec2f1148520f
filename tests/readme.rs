//! README's command examples, run: every fenced block line starting `$ ` is
//! a command (run by `sh`, with this build's `tictactoe` first on the PATH),
//! and the lines after it, up to the next command or the end of the block,
//! are what it prints. So an example can never drift from the binary.
//!
//! In an expected line, `…` stands for any text (README elides long lines
//! with it). Figures that differ from run to run (times and rates) are
//! masked on both sides before comparing.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use regex::Regex;

/// One `$ command` and the output README shows for it.
#[derive(Debug)]
struct Example {
    line: usize,
    command: String,
    expected: Vec<String>,
}

fn examples(readme: &str) -> Vec<Example> {
    let mut found: Vec<Example> = Vec::new();
    let mut in_block = false;
    let mut current: Option<Example> = None;
    for (number, line) in readme.lines().enumerate() {
        if line.starts_with("```") {
            in_block = !in_block;
            found.extend(current.take());
            continue;
        }
        if !in_block {
            continue;
        }
        if let Some(command) = line.strip_prefix("$ ") {
            found.extend(current.take());
            current = Some(Example {
                line: number + 1,
                command: command.to_string(),
                expected: Vec::new(),
            });
        } else if let Some(example) = current.as_mut() {
            example.expected.push(line.to_string());
        }
    }
    found
}

/// Times and rates, which no two runs share.
fn masked(text: &str) -> String {
    let rules = [
        (r#""seconds":[0-9.e-]+"#, r#""seconds":[time]"#),
        (r"\b[0-9]+\.[0-9]+ (s|ms|µs)\b", "[time] $1"),
        (r"\([0-9,]+ games per second\)", "([rate] games per second)"),
    ];
    rules
        .iter()
        .fold(text.to_string(), |text, (pattern, mask)| {
            Regex::new(pattern)
                .expect("a valid pattern")
                .replace_all(&text, *mask)
                .into_owned()
        })
}

/// True when `actual` is `expected` with each `…` standing for any text.
fn line_matches(expected: &str, actual: &str) -> bool {
    let pieces: Vec<&str> = expected.split('…').collect();
    if pieces.len() == 1 {
        return expected == actual;
    }
    let (first, rest) = pieces.split_first().expect("pieces");
    let (last, middle) = rest.split_last().expect("two pieces or more");
    let Some(mut remaining) = actual.strip_prefix(first) else {
        return false;
    };
    for piece in middle {
        match remaining.find(piece) {
            Some(at) => remaining = &remaining[at + piece.len()..],
            None => return false,
        }
    }
    remaining.ends_with(last) && remaining.len() >= last.len()
}

/// Longer than any example takes on the slowest machine: a command that is
/// still running by then is a server or waits for input, and fails the test
/// instead of hanging it.
const PATIENCE: Duration = Duration::from_secs(120);

fn run(command: &str, home: &Path) -> Result<String, String> {
    let binary = Path::new(env!("CARGO_BIN_EXE_tictactoe"));
    let folder = binary.parent().expect("the binary's folder");
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut paths = vec![folder.to_path_buf()];
    paths.extend(std::env::split_paths(&path));
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(command)
        .env("PATH", std::env::join_paths(paths).expect("a PATH"))
        .env("HOME", home)
        .env("XDG_DATA_HOME", home)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("sh runs");
    let mut stdout = child.stdout.take().expect("piped");
    let reader = thread::spawn(move || {
        let mut text = String::new();
        stdout.read_to_string(&mut text).map(|_| text)
    });
    let deadline = Instant::now() + PATIENCE;
    while child
        .try_wait()
        .expect("the command can be waited on")
        .is_none()
    {
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("still running after {PATIENCE:?}"));
        }
        thread::sleep(Duration::from_millis(10));
    }
    reader
        .join()
        .expect("the reader ends")
        .map_err(|error| format!("unreadable output: {error}"))
}

#[test]
fn every_command_example_in_the_readme_prints_what_it_shows() {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("README.md");
    let examples = examples(&readme);
    assert!(
        examples.len() >= 9,
        "README's examples were found: {examples:?}"
    );
    let home = tempfile::tempdir().expect("a temporary home");
    let mut wrong = Vec::new();
    for example in &examples {
        let actual = match run(&example.command, home.path()) {
            Ok(output) => masked(&output),
            Err(problem) => {
                wrong.push(format!(
                    "README.md:{}: $ {}: {problem}",
                    example.line, example.command
                ));
                continue;
            }
        };
        let actual: Vec<&str> = actual.lines().collect();
        let expected: Vec<String> = example.expected.iter().map(|l| masked(l)).collect();
        let same = actual.len() == expected.len()
            && expected
                .iter()
                .zip(&actual)
                .all(|(expected, actual)| line_matches(expected, actual));
        if !same {
            wrong.push(format!(
                "README.md:{}: $ {}\n--- README shows:\n{}\n--- the binary prints:\n{}",
                example.line,
                example.command,
                expected.join("\n"),
                actual.join("\n")
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}

#[test]
fn the_matcher_reads_ellipses_and_masks_times() {
    assert!(line_matches("abc", "abc"));
    assert!(!line_matches("abc", "abcd"));
    assert!(line_matches(
        "{\"a\":[…],\"b\":1}",
        "{\"a\":[1,2,3],\"b\":1}"
    ));
    assert!(!line_matches(
        "{\"a\":[…],\"b\":1}",
        "{\"a\":[1,2,3],\"b\":2}"
    ));
    assert!(line_matches("x…y…z", "x123y456z"));
    assert!(!line_matches("x…y…z", "x123z"));
    assert_eq!(
        masked("in 0.022 s (445,684 games per second); 3.5 ms"),
        "in [time] s ([rate] games per second); [time] ms"
    );
    let found = examples("```\n$ echo a\na\n$ echo b\nb\n```\n\n```sh\nnot a command\n```\n");
    assert_eq!(found.len(), 2);
    assert_eq!(found[1].expected, vec!["b".to_string()]);
}

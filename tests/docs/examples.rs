//! The documentation's command examples, run: in README.md and every page
//! of `docs/`, every line of a fenced block that starts `$ ` is a command
//! (run by `sh`, with this build's `tictactoe` first on the PATH), and the
//! lines after it, up to the next command or the end of the block, are
//! what it prints. So no example can drift from the binary.
//!
//! The pages are read here rather than by trycmd (snapbox's harness for
//! Markdown examples), which cannot run them as they are written: it reads
//! only blocks marked `console` or `trycmd` and refuses a bare block that
//! does not open with `$ ` (the pages' screens); it runs the first word of
//! a command as a program, with no shell, where about half the examples
//! pipe (`printf … | tictactoe …`, `| tail -5`), redirect (`2>&1`) or name
//! `$HOME`; it gives no standard input; it shows standard error with
//! standard output, where the pages show it only after `2>&1`; and it takes
//! any exit status but 0 for a failure unless the page says `? failed`.
//!
//! snapbox compares: in an expected line `…` stands for any text (the pages
//! elide long lines with it; snapbox spells it `[..]`), and figures that
//! differ from run to run (times and rates) are redacted on both sides, as
//! `support::docs` redacts them for every comparison with a page.

use crate::support;

use std::path::Path;

use snapbox::Data;
use snapbox::cmd::Command;
use support::PATIENCE;
use support::docs::{checker, pages, redactions};

/// One `$ command` and the output a page shows for it.
#[derive(Debug)]
struct Example {
    line: usize,
    command: String,
    expected: Vec<String>,
}

fn examples(page: &str) -> Vec<Example> {
    let mut found: Vec<Example> = Vec::new();
    let mut in_block = false;
    let mut current: Option<Example> = None;
    for (number, line) in page.lines().enumerate() {
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

/// What a page shows, as snapbox reads a pattern.
fn pattern(expected: &[String]) -> String {
    let text: String = expected.iter().map(|line| format!("{line}\n")).collect();
    redactions().redact(&text).replace('…', "[..]")
}

fn run(command: &str, home: &Path) -> Result<String, String> {
    let binary = Path::new(env!("CARGO_BIN_EXE_tictactoe"));
    let folder = binary.parent().expect("the binary's folder");
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut paths = vec![folder.to_path_buf()];
    paths.extend(std::env::split_paths(&path));
    let output = Command::new("sh")
        .arg("-c")
        .arg(command)
        .env("PATH", std::env::join_paths(paths).expect("a PATH"))
        .env("HOME", home)
        .env("XDG_DATA_HOME", home)
        .env("NO_COLOR", "1")
        .stdin("")
        // A command still running after the test's patience is a server or
        // waits for input: it fails the test instead of hanging it.
        .timeout(PATIENCE)
        .output()
        .map_err(|error| format!("could not run: {error}"))?;
    if output.status.code().is_none() {
        return Err(format!("ended by a signal (after {PATIENCE:?}?)"));
    }
    String::from_utf8(output.stdout).map_err(|error| format!("output not UTF-8: {error}"))
}

#[test]
fn every_command_example_in_the_docs_prints_what_it_shows() {
    let home = tempfile::tempdir().expect("a temporary home");
    let assert = checker();
    let mut wrong = Vec::new();
    let mut count = 0;
    for page in pages() {
        for example in examples(&page.text) {
            count += 1;
            let place = format!("{}:{}: $ {}", page.path, example.line, example.command);
            let outcome = run(&example.command, home.path()).and_then(|actual| {
                assert
                    .try_eq(
                        Some(&place),
                        Data::text(actual),
                        Data::text(pattern(&example.expected)),
                    )
                    .map_err(|error| error.to_string())
            });
            if let Err(problem) = outcome {
                wrong.push(format!("{place}\n{problem}"));
            }
        }
    }
    assert!(count >= 20, "the pages' examples were found: {count}");
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}

#[test]
fn the_pattern_reads_ellipses_and_redacts_times() {
    let shown = [
        "in 0.022 s (445,684 games per second); 3.5 ms".to_string(),
        "{\"a\":[…],\"seconds\":0.015}".to_string(),
    ];
    assert_eq!(
        pattern(&shown),
        "in [TIME] s ([RATE] games per second); [TIME] ms\n{\"a\":[[..]],\"seconds\":[SECONDS]}\n"
    );
    let assert = checker();
    let actual = "in 1.5 s (9 games per second); 0.1 ms\n{\"a\":[1,2],\"seconds\":2e-3}\n";
    let checked = assert.try_eq(None, Data::text(actual), Data::text(pattern(&shown)));
    assert!(checked.is_ok(), "{checked:?}");
    let other = "in 1.5 s (9 games per second); 0.1 ms\n{\"a\":[1,2],\"b\":1}\n";
    let checked = assert.try_eq(None, Data::text(other), Data::text(pattern(&shown)));
    assert!(checked.is_err(), "a different field is caught");
    // What the pages show is real: the lab's gain in time, a proof's
    // milliseconds, a time long enough to print without decimals.
    let shown = ["a lookup  x1.24 (time)  0.001 ms {\"ms\":442}".to_string()];
    let actual = "a lookup  x0.32 (time)  126 ms {\"ms\":9}\n";
    let checked = assert.try_eq(None, Data::text(actual), Data::text(pattern(&shown)));
    assert!(checked.is_ok(), "{checked:?}");
    let found = examples("```\n$ echo a\na\n$ echo b\nb\n```\n\n```sh\nnot a command\n```\n");
    assert_eq!(found.len(), 2);
    assert_eq!(found[1].expected, vec!["b".to_string()]);
}

//! The documentation's flag tables against the command-line definition:
//! every flag of the game and of every command, with its value name and
//! default, so the two cannot drift apart. The tables are in README.md and
//! the pages of `docs/`, one table per command.
//!
//! A table follows a line "Flags of `tictactoe`:" or "Flags of `tictactoe
//! NAME`:". Its first column holds one or more flags in code, as typed
//! (`--size N`); its last column the default, which must read as clap's
//! default value, or else the help's own "[default: …]", "off" for a switch
//! and "required" for a flag that must be given. Backticks are ignored.

use std::collections::BTreeMap;

use crate::support;

use clap::{ArgAction, CommandFactory};
use support::docs::pages;
use tictactoe::cli::Cli;

/// One row of a table, for one flag.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Row {
    /// What follows the flag in its code span: the value name, or nothing.
    value: String,
    default: String,
}

/// Every flag table of the documentation, by command ("" for the game), by
/// long flag.
fn readme_tables() -> BTreeMap<String, BTreeMap<String, Row>> {
    let text: String = pages()
        .iter()
        .map(|page| format!("{}\n", page.text))
        .collect();
    let mut tables: BTreeMap<String, BTreeMap<String, Row>> = BTreeMap::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let Some(command) = line
            .strip_prefix("Flags of `tictactoe")
            .and_then(|rest| rest.strip_suffix("`:"))
        else {
            continue;
        };
        let command = command.trim().to_string();
        assert!(
            !tables.contains_key(&command),
            "two tables for `tictactoe {command}`"
        );
        let table = tables.entry(command.clone()).or_default();
        while lines.peek().is_some_and(|line| line.trim().is_empty()) {
            lines.next();
        }
        let header = lines.next().unwrap_or_default();
        assert_eq!(
            header, "| flag | meaning | default |",
            "the table of `tictactoe {command}`"
        );
        lines.next(); // |---|---|---|
        while let Some(row) = lines.next_if(|line| line.starts_with('|')) {
            let cells = cells(row);
            assert_eq!(cells.len(), 3, "{row}");
            let default = cells[2].replace('`', "");
            let spans: Vec<&str> = cells[0].split('`').skip(1).step_by(2).collect();
            assert!(!spans.is_empty(), "no flag in {row}");
            for span in spans {
                let span = span.replace("\\|", "|");
                let (flag, value) = span.split_once(' ').unwrap_or((&span, ""));
                let long = flag
                    .strip_prefix("--")
                    .unwrap_or_else(|| panic!("{flag} in {row} is not a long flag"));
                let row = Row {
                    value: value.to_string(),
                    default: default.clone(),
                };
                let earlier = table.insert(long.to_string(), row);
                assert!(
                    earlier.is_none(),
                    "--{long} twice for `tictactoe {command}`"
                );
            }
        }
    }
    tables
}

/// The cells of a table row; `\|` inside a cell is not a separator.
fn cells(row: &str) -> Vec<String> {
    let inner = row.trim().trim_start_matches('|').trim_end_matches('|');
    let mut cells = vec![String::new()];
    let mut chars = inner.chars().peekable();
    while let Some(ch) = chars.next() {
        match ch {
            '\\' if chars.peek() == Some(&'|') => {
                cells.last_mut().unwrap().push_str("\\|");
                chars.next();
            }
            '|' => cells.push(String::new()),
            _ => cells.last_mut().unwrap().push(ch),
        }
    }
    cells.iter().map(|cell| cell.trim().to_string()).collect()
}

/// Every flag clap knows for one command, as the docs should show it.
fn definition(command: &clap::Command) -> BTreeMap<String, Row> {
    let mut flags = BTreeMap::new();
    for arg in command.get_arguments() {
        let Some(long) = arg.get_long() else { continue };
        if ["help", "version"].contains(&long) {
            continue;
        }
        let switch = matches!(arg.get_action(), ArgAction::SetTrue);
        let help = arg.get_help().map(ToString::to_string).unwrap_or_default();
        let stated = help
            .split_once("[default: ")
            .and_then(|(_, rest)| rest.split_once(']'))
            .map(|(default, _)| default.to_string());
        let defaults: Vec<String> = arg
            .get_default_values()
            .iter()
            .map(|value| value.to_string_lossy().into_owned())
            .collect();
        let default = if arg.is_required_set() {
            "required".to_string()
        } else if switch {
            "off".to_string()
        } else if !defaults.is_empty() {
            defaults.join(", ")
        } else {
            stated.unwrap_or_else(|| panic!("--{long} of `{}` says no default", command.get_name()))
        };
        let value = if switch {
            String::new()
        } else {
            arg.get_value_names()
                .map(|names| {
                    names
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .unwrap_or_else(|| arg.get_id().as_str().to_uppercase())
        };
        flags.insert(long.to_string(), Row { value, default });
    }
    flags
}

#[test]
fn readme_flag_tables_match_the_command_line_definition() {
    let mut readme = readme_tables();
    let cli = Cli::command();
    let mut commands = vec![(String::new(), cli.clone())];
    commands.extend(
        cli.get_subcommands()
            .map(|sub| (sub.get_name().to_string(), sub.clone())),
    );
    for (name, command) in commands {
        let defined = definition(&command);
        let documented = readme.remove(&name).unwrap_or_default();
        assert_eq!(
            documented.keys().collect::<Vec<_>>(),
            defined.keys().collect::<Vec<_>>(),
            "the flags of `{}` in the docs",
            format!("tictactoe {name}").trim_end()
        );
        for (long, row) in &defined {
            assert_eq!(
                &documented[long],
                row,
                "--{long} of `{}`: the docs, then the definition",
                format!("tictactoe {name}").trim_end()
            );
        }
    }
    // Built without the server, the command line has no `serve`: its
    // table documents the build with `--features serve`, where the test
    // above checks it.
    if cfg!(not(feature = "serve")) {
        assert!(
            readme.remove("serve").is_some(),
            "the docs have a table for `tictactoe serve`"
        );
    }
    assert!(
        readme.is_empty(),
        "the docs have tables for no command: {:?}",
        readme.keys()
    );
}

#[test]
fn the_table_reader_reads_escaped_bars_and_several_flags_a_row() {
    assert_eq!(
        cells("| `--x human\\|ai` | who | `--a`, b |"),
        ["`--x human\\|ai`", "who", "`--a`, b"]
    );
    let readme = readme_tables();
    let game = &readme[""];
    assert_eq!(game["player"].value, "x|o");
    assert_eq!(game["x-level"], game["o-level"]);
    assert_eq!(game["x-level"].default, "--difficulty");
}

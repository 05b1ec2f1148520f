//! A class at once: many submissions graded in one run, one after the
//! other, a row each (right, wrong, diagnosis, time), as a table and as a
//! spreadsheet (CSV). One student's crash, hang or flood ends that
//! student's grading only.

use std::ffi::OsString;
use std::io;
use std::path::Path;
use std::time::Duration;

use super::child::{Program, seconds};
use super::cs50::{self, Cs50Summary};
use super::{Ended, Summary};
use tictactoe_game::text::thousands;

/// One submission's row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// The submission: its path, or the command.
    pub name: String,
    /// Answers right (positions, or calls of CS50's functions).
    pub right: usize,
    /// Answers wrong.
    pub wrong: usize,
    /// Answers lost to the program's failures.
    pub failed: usize,
    /// Answers asked for in all.
    pub asked: usize,
    /// The mistakes named (`player-always-x+no-depth`), the functions
    /// wrong for CS50 (`result, minimax: x-always-max`), `-` when none.
    pub diagnosis: String,
    /// How grading ended: `done`, `gave-up`, `not-started`, `interrupted`.
    pub ended: &'static str,
    /// Wall time.
    pub time: Duration,
}

impl Row {
    /// A program's row.
    pub fn of_program(name: String, summary: &Summary, time: Duration) -> Row {
        let diagnosis = match (&summary.diagnosis.answers, &summary.ended) {
            (_, Ended::NotStarted(why)) => format!("not started: {why}"),
            (Some(named), _) if named.explains_all() => named.name(),
            (Some(named), _) => format!(
                "{} ({} of {} wrong)",
                named.name(),
                named.explains,
                named.wrong
            ),
            (None, _) if summary.right() < summary.graded.len() => "unexplained".into(),
            (None, _) => "-".into(),
        };
        Row {
            name,
            right: summary.right(),
            wrong: summary.graded.len() - summary.right(),
            failed: summary.failures.len(),
            asked: summary.positions,
            diagnosis,
            ended: summary.ended.name(),
            time,
        }
    }

    /// A CS50 module's row: every call of every function.
    pub fn of_cs50(name: String, summary: &Cs50Summary, time: Duration) -> Row {
        let sum = |count: fn(&cs50::Checked) -> usize| -> usize {
            summary.functions.iter().map(count).sum()
        };
        let wrong: Vec<String> = summary
            .functions
            .iter()
            .filter(|checked| !checked.wrong.is_empty())
            .map(|checked| match cs50::minimax_model(checked) {
                Some(model) => format!("{}: {}", checked.function.name(), model.name()),
                None => checked.function.name().to_string(),
            })
            .collect();
        let diagnosis = match &summary.ended {
            Ended::NotStarted(why) => format!("not started: {why}"),
            _ if wrong.is_empty() => "-".into(),
            _ => wrong.join(", "),
        };
        Row {
            name,
            right: sum(|checked| checked.right),
            wrong: sum(|checked| checked.wrong.len()),
            failed: summary.failures.len(),
            asked: sum(|checked| checked.calls),
            diagnosis,
            ended: summary.ended.name(),
            time,
        }
    }
}

/// The table's heading line.
pub fn heading(width: usize) -> String {
    format!(
        "{:<width$}  {:>13}  {:>6}  {:>6}  {:>6}  diagnosis\n",
        "submission", "right", "wrong", "failed", "time"
    )
}

/// A row of the table, the submission's name in `width` columns.
pub fn line(row: &Row, width: usize) -> String {
    format!(
        "{:<width$}  {:>13}  {:>6}  {:>6}  {:>6}  {}\n",
        row.name,
        format!(
            "{}/{}",
            thousands(row.right as u64),
            thousands(row.asked as u64)
        ),
        thousands(row.wrong as u64),
        thousands(row.failed as u64),
        seconds(row.time),
        row.diagnosis
    )
}

/// Writes `rows` to `path` as CSV, a header first: `submission, right,
/// wrong, failed, asked, diagnosis, ended, seconds`.
pub fn write_csv(path: &Path, rows: &[Row]) -> io::Result<()> {
    let mut writer = csv::Writer::from_path(path)?;
    writer.write_record([
        "submission",
        "right",
        "wrong",
        "failed",
        "asked",
        "diagnosis",
        "ended",
        "seconds",
    ])?;
    for row in rows {
        writer.write_record([
            row.name.clone(),
            row.right.to_string(),
            row.wrong.to_string(),
            row.failed.to_string(),
            row.asked.to_string(),
            row.diagnosis.clone(),
            row.ended.to_string(),
            format!("{:.1}", row.time.as_secs_f64()),
        ])?;
    }
    writer.flush()
}

/// `--each PATTERN -- COMMAND...`: every path the pattern matches, in
/// order, with the program that grades it (`{}` in the command replaced by
/// the path), or why there is none.
pub fn each(pattern: &str, command: &[OsString]) -> Result<Vec<(String, Program)>, String> {
    if !command
        .iter()
        .any(|word| word.to_string_lossy().contains("{}"))
    {
        return Err(format!(
            "--each {pattern}: the command has no {{}} to put each path in (for example \
             `-- python3 {{}}`)"
        ));
    }
    let paths = glob::glob(pattern).map_err(|error| format!("--each {pattern}: {error}"))?;
    let mut found = Vec::new();
    for path in paths {
        let path = path.map_err(|error| format!("--each {pattern}: {error}"))?;
        let name = path.to_string_lossy().into_owned();
        let words: Vec<OsString> = command
            .iter()
            .map(|word| match word.to_str() {
                Some(text) if text.contains("{}") => text.replace("{}", &name).into(),
                _ => word.clone(),
            })
            .collect();
        let (program, args) = words.split_first().expect("a command");
        found.push((
            name,
            Program {
                command: program.clone(),
                args: args.to_vec(),
            },
        ));
    }
    if found.is_empty() {
        return Err(format!("--each {pattern}: no file matches"));
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_path_takes_the_place_of_the_braces() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["b", "a"] {
            std::fs::create_dir(dir.path().join(name)).unwrap();
            std::fs::write(dir.path().join(name).join("main.py"), "").unwrap();
        }
        let pattern = format!("{}/*/main.py", dir.path().display());
        let command: Vec<OsString> = vec!["python3".into(), "-u".into(), "{}".into()];
        let found = each(&pattern, &command).unwrap();
        let names: Vec<&str> = found.iter().map(|(name, _)| name.as_str()).collect();
        assert!(names[0].ends_with("/a/main.py") && names[1].ends_with("/b/main.py"));
        assert_eq!(found[0].1.args[1], OsString::from(&found[0].0));
        assert!(each(&pattern, &command[..2]).unwrap_err().contains("no {}"));
        let none = format!("{}/*/none.py", dir.path().display());
        assert!(
            each(&none, &command)
                .unwrap_err()
                .contains("no file matches")
        );
    }

    #[test]
    fn a_csv_row_per_submission_quoted_where_it_must_be() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("class.csv");
        let row = Row {
            name: "subs/a, b/main.py".into(),
            right: 3,
            wrong: 1,
            failed: 0,
            asked: 4,
            diagnosis: "result, minimax: x-always-max".into(),
            ended: "done",
            time: Duration::from_millis(1_250),
        };
        write_csv(&path, &[row]).unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "submission,right,wrong,failed,asked,diagnosis,ended,seconds\n\
             \"subs/a, b/main.py\",3,1,0,4,\"result, minimax: x-always-max\",done,1.2\n"
        );
    }
}

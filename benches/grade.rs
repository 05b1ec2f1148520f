//! How long grading takes, as a teacher waits for it: `tictactoe grade` run
//! as a command on four students, timing its first word (the first line it
//! prints after its heading: a verdict, a mistake, a function's count) and
//! the whole run, each the median of several runs.
//!
//! - a compiled student (`examples/student.rs`, GeeksforGeeks' minimax in
//!   Rust, built here with `rustc -O`), right everywhere;
//! - a Python student (`examples/students/gfg.py`, GeeksforGeeks' Python
//!   with the depth), right everywhere;
//! - CS50's functions as the CS50 article prints them
//!   (`examples/students/cs50_article/tictactoe.py`: a deep copy of the
//!   board for every move, no memory of positions), right everywhere;
//! - a broken CS50 module (`examples/students/cs50_broken/tictactoe.py`).
//!
//! `cargo bench --bench grade`; `TICTACTOE=path/to/tictactoe cargo bench
//! --bench grade` times another build of the command (an older one, to
//! compare). Each line gives the median and the range of the samples.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[path = "../tests/support/student.rs"]
mod student;

use student::build_student;

/// The command timed: `$TICTACTOE`, or this build's.
fn tictactoe() -> PathBuf {
    std::env::var_os("TICTACTOE")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_tictactoe")))
}

/// A file of the repository.
fn file(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(path)
        .to_str()
        .expect("a UTF-8 path")
        .to_string()
}

/// One run: the time to the first line after the heading (its first blank
/// line), and to the end.
fn run(args: &[String]) -> (Duration, Duration) {
    let started = Instant::now();
    let mut child = Command::new(tictactoe())
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("tictactoe starts");
    let mut first = None;
    let mut heading_done = false;
    for line in BufReader::new(child.stdout.take().expect("piped")).lines() {
        let line = line.expect("text");
        if first.is_none() && heading_done && !line.trim().is_empty() {
            first = Some(started.elapsed());
        }
        if line.trim().is_empty() {
            heading_done = true;
        }
    }
    child.wait().expect("tictactoe ends");
    let whole = started.elapsed();
    (first.unwrap_or(whole), whole)
}

fn seconds(duration: Duration) -> String {
    format!("{:.1} s", duration.as_secs_f64())
}

/// The median and the range of `times`.
fn spread(mut times: Vec<Duration>) -> String {
    times.sort();
    format!(
        "{} ({}-{})",
        seconds(times[times.len() / 2]),
        seconds(times[0]),
        seconds(times[times.len() - 1])
    )
}

fn measure(name: &str, samples: usize, args: &[String]) {
    let (firsts, wholes): (Vec<_>, Vec<_>) = (0..samples).map(|_| run(args)).unzip();
    println!(
        "{name}: first word {}, whole run {}, median of {samples}",
        spread(firsts),
        spread(wholes)
    );
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test` runs benches only to check they start.
    if !std::env::args().any(|arg| arg == "--bench") {
        return;
    }
    let built = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bench-student");
    build_student(&built);
    let owned = |words: &[&str]| -> Vec<String> { words.iter().map(|w| w.to_string()).collect() };
    println!("`{}`:", tictactoe().display());
    measure(
        "compiled student (examples/student.rs)",
        5,
        &owned(&["grade", "--", built.to_str().expect("UTF-8")]),
    );
    measure(
        "Python student (examples/students/gfg.py)",
        3,
        &owned(&["grade", "--", "python3", &file("examples/students/gfg.py")]),
    );
    measure(
        "CS50 article's module (examples/students/cs50_article)",
        3,
        &owned(&[
            "grade",
            "--cs50",
            &file("examples/students/cs50_article/tictactoe.py"),
        ]),
    );
    measure(
        "broken CS50 module (examples/students/cs50_broken)",
        3,
        &owned(&[
            "grade",
            "--cs50",
            &file("examples/students/cs50_broken/tictactoe.py"),
        ]),
    );
}

//! Whole-process timings of `analyze`, as a script meets them: the batch of
//! every reachable 3x3 position as JSON, and `analyze --solve` on the two
//! 7x7 boards whose moves the prover proves in shares.
//!
//! `cargo bench --bench analyze_process`. Each figure is the median of
//! several runs of the binary cargo built for the bench, input piped in,
//! output thrown away; docs/BENCHMARKS.md keeps them with their dates.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use tictactoe_engine::reachable_positions;

/// Runs the binary with `args`, `input` on its standard input; the wall time.
fn run(args: &[&str], input: &[u8]) -> Duration {
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_tictactoe"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary starts");
    let mut stdin = child.stdin.take().expect("its input");
    stdin.write_all(input).expect("the input written");
    drop(stdin);
    let status = child.wait().expect("the binary ends");
    assert!(status.success(), "{args:?}: {status}");
    started.elapsed()
}

/// The median, fastest and slowest of `runs` runs.
fn timed(runs: usize, args: &[&str], input: &[u8]) -> (Duration, Duration, Duration) {
    let mut times: Vec<Duration> = (0..runs).map(|_| run(args, input)).collect();
    times.sort();
    (times[runs / 2], times[0], times[runs - 1])
}

fn main() {
    let boards: String = reachable_positions()
        .iter()
        .map(|board| format!("{board}\n"))
        .collect();
    let (median, fastest, slowest) = timed(31, &["analyze", "-", "--json"], boards.as_bytes());
    println!(
        "analyze - --json over all {} reachable 3x3 positions, whole process: median {:.1} ms of 31 ({:.1}-{:.1})",
        reachable_positions().len(),
        ms(median),
        ms(fastest),
        ms(slowest)
    );
    for (board, k) in [
        (
            "......./......./......./......./......./......./.......",
            "4",
        ),
        (
            "......./......./......./...x.../......./......./.......",
            "5",
        ),
    ] {
        let (median, fastest, slowest) =
            timed(3, &["analyze", board, "--k", k, "--solve", "--json"], b"");
        println!(
            "analyze {board} --k {k} --solve --json: median {:.2} s of 3 ({:.2}-{:.2})",
            median.as_secs_f64(),
            fastest.as_secs_f64(),
            slowest.as_secs_f64()
        );
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

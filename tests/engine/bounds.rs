//! The prover's bounds: `solve`, `analyze --solve` and
//! `best --solve` stop at `--time-limit` or before the prover's tables pass
//! `--max-memory`, with one line and status 3. A proof that doubled its
//! memory every 20 s (1.25 GB at 44 s) now stops at its bound.

use std::process::{Output, Stdio};

use crate::support;

/// The hardest board the bounds were found missing on: 7x7 with five in a
/// row, without pairing strategies, grows without end.
const ENDLESS: [&str; 6] = ["--size", "7", "--k", "5", "--without", "pairing"];

/// Runs the binary with 512 MiB to map (so a proof past its bound would
/// fail here rather than swap), no input; a hang fails the test.
fn run(args: &[&str]) -> Output {
    let child = support::binary_with_memory(512 << 20)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    support::output_within(child, &args.join(" "))
}

/// Stopped with status 3 and one line naming `flag`.
fn stopped_at(out: &Output, flag: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("error: the proof was stopped") && stderr.contains(flag),
        "{stderr}"
    );
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn a_proof_stops_before_its_tables_pass_max_memory() {
    let mut args = vec!["solve"];
    args.extend(ENDLESS);
    args.extend(["--max-memory", "32"]);
    stopped_at(&run(&args), "32 MiB (--max-memory)");
}

#[test]
fn a_proof_stops_at_its_time_limit() {
    let mut args = vec!["solve"];
    args.extend(ENDLESS);
    args.extend(["--time-limit", "1"]);
    stopped_at(&run(&args), "after 1 s (--time-limit)");
}

#[test]
fn analyze_and_best_with_solve_stop_at_their_bounds_too() {
    // A board that took 29 s and 588 MB to prove before the bounds.
    let board = "....oo./......./.x...../.....x./......./......./.......";
    for command in ["analyze", "best"] {
        let out = run(&[
            command,
            board,
            "--k",
            "5",
            "--solve",
            "--think-ms",
            "10",
            "--max-memory",
            "16",
        ]);
        stopped_at(&out, "16 MiB (--max-memory)");
    }
}

#[test]
fn a_proof_within_its_bounds_is_answered_as_before() {
    let out = run(&[
        "solve",
        "--size",
        "4",
        "--k",
        "3",
        "--time-limit",
        "60",
        "--max-memory",
        "16",
    ]);
    assert!(out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .starts_with("4x4, 3 in a row, from the empty board: X wins")
    );
}

//! The prover's bounds: `solve`, `analyze --solve` and `best --solve`
//! stop at `--time-limit`, with one line and status 3, and only there:
//! `--max-memory` is the size of the table, which replaces what cost least
//! once full, so a proof that doubled its memory every 20 s (1.25 GB at
//! 44 s) runs within it until its time is up.

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
fn a_proof_in_a_table_far_smaller_than_it_needs_goes_on_to_its_time_limit() {
    // Within 512 MiB of address space, a 32 MiB table: the proof is not
    // stopped for memory, and the process does not run out of it.
    let mut args = vec!["solve"];
    args.extend(ENDLESS);
    args.extend(["--max-memory", "32", "--time-limit", "2"]);
    stopped_at(&run(&args), "after 2 s (--time-limit)");
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
            "--time-limit",
            "1",
        ]);
        stopped_at(&out, "after 1 s (--time-limit)");
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

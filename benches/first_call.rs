//! The first `find_best_move` of the empty board in a fresh process, board
//! parsing included, against the seed ports timed in the same process.
//!
//! `cargo bench --bench first_call`. The harness starts itself again as a child
//! process for every sample, so nothing survives from one sample to the next,
//! and prints the median of each figure over the samples. The baseline is the
//! tight port of the seed (`support/seed_tight.rs`); the faithful port with its
//! call counter (`support/seed_port.rs`) is the second baseline.

use std::env;
use std::hint::black_box;
use std::process::Command;
use std::time::{Duration, Instant};

use tictactoe_engine::teach::reference::{self, Algorithm};
use tictactoe_engine::{Board, Limits, Scoring, analyze_by_search, find_best_move};

#[path = "support/seed_port.rs"]
mod seed_port;
#[path = "support/seed_tight.rs"]
mod seed_tight;

const CHILD: &str = "TICTACTOE_FIRST_CALL_CHILD";
const SAMPLES: usize = 101;
const EMPTY: &str = ".........";

fn main() {
    if env::var_os(CHILD).is_some() {
        measure_once();
        return;
    }
    let exe = env::current_exe().expect("the bench knows its own path");
    let (mut engine_ns, mut tight_ns, mut faithful_ns) = (Vec::new(), Vec::new(), Vec::new());
    let (mut tight_ratios, mut faithful_ratios) = (Vec::new(), Vec::new());
    for _ in 0..SAMPLES {
        let output = Command::new(&exe)
            .env(CHILD, "1")
            .output()
            .expect("child process runs");
        let text = String::from_utf8(output.stdout).expect("child prints ASCII");
        let fields: Vec<u64> = text
            .split_whitespace()
            .map(|f| f.parse().expect("numbers"))
            .collect();
        let [engine, tight, faithful] = fields[..] else {
            panic!("unexpected child output {text:?}")
        };
        engine_ns.push(engine);
        tight_ns.push(tight);
        faithful_ns.push(faithful);
        tight_ratios.push(tight as f64 / engine as f64);
        faithful_ratios.push(faithful as f64 / engine as f64);
    }
    println!(
        "first call in a fresh process, board parsing included, median of {SAMPLES} processes:"
    );
    println!(
        "  engine find_best_move (table lookup): {:>12.2} µs",
        median_u64(&mut engine_ns) as f64 / 1e3
    );
    println!(
        "  tight seed port findBestMove:         {:>12.1} µs",
        median_u64(&mut tight_ns) as f64 / 1e3
    );
    println!(
        "  faithful seed port findBestMove:      {:>12.1} µs",
        median_u64(&mut faithful_ns) as f64 / 1e3
    );
    println!(
        "  speed-up over the tight port (median of per-process ratios):    {:.0}x",
        median_f64(&mut tight_ratios)
    );
    println!(
        "  speed-up over the faithful port (median of per-process ratios): {:.0}x",
        median_f64(&mut faithful_ratios)
    );
    if let Ok(load) = std::fs::read_to_string("/proc/loadavg") {
        let minute: String = load.split_whitespace().take(1).collect();
        println!("  load average (1 min) at the end: {minute}");
    }
    let board = Board::new();
    println!(
        "  positions: the table searches none; the engine's search {}, alpha-beta alone {}, plain minimax {}",
        analyze_by_search(&board, Limits::ToTheEnd).nodes(),
        reference::best_move(&board, Algorithm::AlphaBeta, Scoring::Depth).map_or(0, |b| b.calls),
        reference::best_move(&board, Algorithm::Minimax, Scoring::Depth).map_or(0, |b| b.calls),
    );
}

/// One sample: the engine's very first call, then each port's, timed in this
/// process, each from the text of the board.
fn measure_once() {
    let engine = time_engine();
    let tight = time_tight_port();
    let faithful = time_faithful_port();
    println!(
        "{} {} {}",
        engine.as_nanos(),
        tight.as_nanos(),
        faithful.as_nanos()
    );
}

// Each timing is its own function, kept out of line, so none of them is
// measured inside the code of another.

#[inline(never)]
fn time_engine() -> Duration {
    let start = Instant::now();
    let board: Board = black_box(EMPTY).parse().expect("valid board");
    let best = find_best_move(black_box(&board));
    let elapsed = start.elapsed();
    black_box(best);
    elapsed
}

#[inline(never)]
fn time_tight_port() -> Duration {
    let start = Instant::now();
    let mut grid = seed_tight::parse(black_box(EMPTY));
    black_box(seed_tight::find_best_move(&mut grid));
    start.elapsed()
}

#[inline(never)]
fn time_faithful_port() -> Duration {
    let start = Instant::now();
    let mut grid = seed_port::from_notation(black_box(EMPTY));
    black_box(seed_port::find_best_move(&mut grid));
    start.elapsed()
}

fn median_u64(values: &mut [u64]) -> u64 {
    values.sort_unstable();
    values[values.len() / 2]
}

fn median_f64(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

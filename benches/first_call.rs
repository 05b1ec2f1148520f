//! The first `find_best_move` in a fresh process, everything it builds included,
//! against the seed port in the same process.
//!
//! `cargo bench --bench first_call`. The harness starts itself again as a child
//! process for every sample, so no table or cache survives from one sample to
//! the next, and prints the median of each figure over the samples.

use std::env;
use std::hint::black_box;
use std::process::Command;
use std::time::Instant;

use tictactoe::engine::{Board, find_best_move, search::Searcher};

#[path = "support/seed_port.rs"]
mod seed_port;

const CHILD: &str = "TICTACTOE_FIRST_CALL_CHILD";
const SAMPLES: usize = 101;

fn main() {
    if env::var_os(CHILD).is_some() {
        measure_once();
        return;
    }
    let exe = env::current_exe().expect("the bench knows its own path");
    let mut engine_ns = Vec::new();
    let mut seed_ns = Vec::new();
    let mut ratios = Vec::new();
    let mut counts = String::new();
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
        let [engine, seed, engine_nodes, seed_calls] = fields[..] else {
            panic!("unexpected child output {text:?}")
        };
        engine_ns.push(engine);
        seed_ns.push(seed);
        ratios.push(seed as f64 / engine as f64);
        counts = format!("engine {engine_nodes} positions, seed {seed_calls} minimax calls");
    }
    println!("first call in a fresh process, median of {SAMPLES} processes:");
    println!(
        "  engine find_best_move(empty board): {:>10.1} µs",
        median_u64(&mut engine_ns) as f64 / 1e3
    );
    println!(
        "  seed port findBestMove(empty board): {:>9.1} µs",
        median_u64(&mut seed_ns) as f64 / 1e3
    );
    println!(
        "  speed-up (median of per-process ratios): {:.0}x",
        median_f64(&mut ratios)
    );
    println!("  {counts}");
}

/// One sample: the engine's very first search, then the seed port's, timed in this process.
fn measure_once() {
    // Both boards are set up before their clocks start, as the seed's is.
    let board: Board = black_box(".........").parse().expect("valid board");
    let start = Instant::now();
    let best = find_best_move(black_box(&board));
    let engine = start.elapsed();
    black_box(best);

    let mut seed_board = seed_port::from_notation(black_box("........."));
    let start = Instant::now();
    let (_, _, seed_calls) = black_box(seed_port::find_best_move(&mut seed_board));
    let seed = start.elapsed();

    let mut searcher = Searcher::new(board.geometry());
    searcher.best_move(&board);
    println!(
        "{} {} {} {}",
        engine.as_nanos(),
        seed.as_nanos(),
        searcher.nodes(),
        seed_calls
    );
}

fn median_u64(values: &mut [u64]) -> u64 {
    values.sort_unstable();
    values[values.len() / 2]
}

fn median_f64(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

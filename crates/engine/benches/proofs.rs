//! One proof per process, for whole-process time and memory.
//!
//! `cargo bench -p tictactoe-engine --bench proofs -- SIZE K` proves the
//! empty board of that shape and prints one line: the value, the positions
//! the prover created and the wall time of the proof. Run it under
//! `/usr/bin/time -f '%e s %M KiB'` for the process's peak memory (the
//! figures in docs/BENCHMARKS.md were taken so).

use std::time::Instant;

use tictactoe_engine::Board;
use tictactoe_engine::solve::{Techniques, solve};

fn main() {
    let args: Vec<u8> = std::env::args()
        .skip(1)
        .filter_map(|arg| arg.parse().ok())
        .collect();
    let [size, k] = args[..] else {
        eprintln!("usage: proofs SIZE K");
        std::process::exit(2);
    };
    let board = Board::empty(size, k).expect("a shape the engine plays");
    let started = Instant::now();
    let proof = solve(&board, Techniques::all());
    println!(
        "{size}x{size} k={k}: {} in {:.3} s, {} positions",
        proof.value,
        started.elapsed().as_secs_f64(),
        proof.counts.positions
    );
}

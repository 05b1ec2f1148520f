//! The prover on every board the game offers, and the checker on its
//! certificates.
//!
//! `cargo bench --bench solve`. Each board is proven from the empty board
//! with a fresh prover (`prove`), then its certificate is written
//! (`certificate`: the proof and the strategies read from it) and checked
//! by the engine's checker (`verify`), which knows only the rules. README's table of the
//! boards comes from these and from `tictactoe solve` timed as a whole process.
//! `prove_two_threads` proves the boards with a search to do on two
//! threads (the same figures as `prove` on one). 8x8 with five in a row is
//! not proven here: see `cargo bench -p tictactoe-engine --bench proofs`.

use std::hint::black_box;

use divan::Bencher;
use tictactoe_engine::Board;
use tictactoe_engine::solve::certificate::{self, check};
use tictactoe_engine::solve::{Bounds, Techniques, solve, solve_within};

fn main() {
    divan::main();
}

/// Every board proven within a second or two: side and k in a row.
const BOARDS: [(u8, u8); 20] = [
    (3, 3),
    (4, 3),
    (4, 4),
    (5, 3),
    (5, 4),
    (5, 5),
    (6, 3),
    (6, 4),
    (6, 5),
    (6, 6),
    (7, 3),
    (7, 4),
    (7, 5),
    (7, 6),
    (7, 7),
    (8, 3),
    (8, 4),
    (8, 6),
    (8, 7),
    (8, 8),
];

/// The boards whose proofs are big enough for a second thread to join.
const SEARCHED: [(u8, u8); 5] = [(5, 4), (6, 4), (7, 4), (7, 5), (8, 4)];

fn board((size, k): (u8, u8)) -> Board {
    Board::empty(size, k).expect("a shape the game offers")
}

/// The proof of a board's value from the empty board.
#[divan::bench(args = BOARDS, sample_count = 5, sample_size = 1)]
fn prove(bencher: Bencher, shape: (u8, u8)) {
    let board = board(shape);
    bencher.bench(|| solve(black_box(&board), Techniques::all()).counts.positions);
}

/// The same proofs on two threads.
#[divan::bench(args = SEARCHED, sample_count = 5, sample_size = 1)]
fn prove_two_threads(bencher: Bencher, shape: (u8, u8)) {
    let board = board(shape);
    let bounds = Bounds {
        threads: 2,
        ..Bounds::default()
    };
    bencher.bench(|| {
        solve_within(black_box(&board), Techniques::all(), bounds.clone())
            .expect("no deadline")
            .counts
            .positions
    });
}

/// The proof and the certificate's lines, as `solve --certificate` makes them.
#[divan::bench(args = BOARDS, sample_count = 3, sample_size = 1)]
fn certificate_lines(bencher: Bencher, shape: (u8, u8)) {
    let board = board(shape);
    bencher.bench(|| {
        let mut proof = solve(black_box(&board), Techniques::all());
        let strategies = proof.strategies().expect("the strategies");
        certificate::lines(&board, proof.value, &strategies)
            .map(|line| line.len() + 1)
            .sum::<usize>()
    });
}

/// The checker replaying a board's certificate.
#[divan::bench(args = BOARDS, sample_count = 3, sample_size = 1)]
fn verify(bencher: Bencher, shape: (u8, u8)) {
    let board = board(shape);
    let mut proof = solve(&board, Techniques::all());
    let strategies = proof.strategies().expect("the strategies");
    let text: String = certificate::lines(&board, proof.value, &strategies)
        .map(|line| line + "\n")
        .collect();
    bencher.bench(|| check(black_box(text.as_bytes())).expect("a valid certificate"));
}

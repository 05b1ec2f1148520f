//! The seed's algorithm against the engine, measured in the same run.
//!
//! `cargo bench --bench engine`. The seed port's figure over the engine's is
//! the speed-up README quotes; `benches/first_call.rs` covers fresh processes.

use std::hint::black_box;

use divan::Bencher;
use divan::counter::ItemsCount;
use tictactoe::engine::{Board, Level, Limits, analyze, find_best_move};
use tictactoe::session::play_games;

#[path = "support/seed_port.rs"]
mod seed_port;

fn main() {
    divan::main();
}

/// The seed program's `findBestMove` on the empty board: 549,945 `minimax` calls.
#[divan::bench(sample_count = 20)]
fn seed_port_empty_board() -> (seed_port::SeedMove, i32, u64) {
    let mut board = seed_port::from_notation(black_box("........."));
    seed_port::find_best_move(&mut board)
}

/// The engine's `find_best_move` on the empty board, a fresh search each call.
#[divan::bench]
fn engine_empty_board(bencher: Bencher) {
    let board = Board::new();
    bencher.bench(|| find_best_move(black_box(&board)));
}

/// The seed articles' examples and a mid-game position.
#[divan::bench(args = ["xox/oox/...", "o.x/x.x/.oo", "x.o/.x./...", "x../.../..."])]
fn engine_find_best_move(bencher: Bencher, notation: &str) {
    let board: Board = notation.parse().expect("valid board");
    bencher.bench(|| find_best_move(black_box(&board)));
}

/// Exact scores for every move of every reachable position, as `analyze -` computes them.
#[divan::bench(sample_count = 10)]
fn engine_analyze_every_reachable_position(bencher: Bencher) {
    let positions = reachable();
    bencher.bench(|| {
        positions
            .iter()
            .map(|board| analyze(black_box(board), Limits::Solve).nodes)
            .sum::<u64>()
    });
}

/// `selfplay --x perfect --o random`: whole games, counted per second.
#[divan::bench(sample_count = 20)]
fn selfplay_perfect_against_random(bencher: Bencher) {
    const GAMES: u32 = 1000;
    let mut seed = 0;
    bencher.counter(ItemsCount::new(GAMES)).bench_local(|| {
        seed += 1;
        play_games(
            Board::new(),
            Level::Perfect,
            Level::Random,
            GAMES,
            seed,
            Limits::Solve,
        )
        .expect("every game plays to its end")
    });
}

fn reachable() -> Vec<Board> {
    let mut seen = std::collections::HashSet::from([Board::new()]);
    let mut frontier = vec![Board::new()];
    while let Some(board) = frontier.pop() {
        for mv in board.legal_moves() {
            let next = board.play(mv).expect("legal");
            if seen.insert(next) {
                frontier.push(next);
            }
        }
    }
    seen.into_iter().collect()
}

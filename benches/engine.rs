//! The articles' algorithm against the engine, measured in the same run.
//!
//! `cargo bench --bench engine`. The tight seed port's figure over the
//! engine's is the speed-up README quotes; the faithful port is a second
//! baseline. `benches/first_call.rs` covers fresh processes.

use std::hint::black_box;

use divan::Bencher;
use divan::counter::ItemsCount;
use tictactoe_engine::teach::reference::{self, Algorithm};
use tictactoe_engine::{
    Board, Level, Limits, Scoring, analyze, analyze_by_search, find_best_move, reachable_positions,
};
use tictactoe_game::record::{self, Record};
use tictactoe_game::selfplay::{Series, play_games, play_games_each};

#[path = "support/seed_port.rs"]
mod seed_port;
#[path = "support/seed_tight.rs"]
mod seed_tight;

fn main() {
    divan::main();
}

/// The baseline: the tight port's `findBestMove` on the empty board, 549,945
/// `minimax` calls, board parsing included.
#[divan::bench(sample_count = 20)]
fn seed_tight_empty_board() -> ((i32, i32), i32) {
    let mut board = seed_tight::parse(black_box("........."));
    seed_tight::find_best_move(&mut board)
}

/// The second baseline: the faithful port, with its call counter.
#[divan::bench(sample_count = 20)]
fn seed_port_empty_board() -> (seed_port::SeedMove, i32, u64) {
    let mut board = seed_port::from_notation(black_box("........."));
    seed_port::find_best_move(&mut board)
}

/// The engine's `find_best_move` on the empty board, board parsing included:
/// a table lookup.
#[divan::bench]
fn engine_empty_board() -> Option<tictactoe_engine::Square> {
    let board: Board = black_box(".........").parse().expect("valid board");
    find_best_move(black_box(&board))
}

/// The engine's search on the empty board, scoring every move as `analyze`
/// would without the table.
#[divan::bench]
fn engine_search_empty_board(bencher: Bencher) {
    let board = Board::new();
    bencher.bench(|| analyze_by_search(black_box(&board), Limits::ToTheEnd).nodes());
}

/// The articles' minimax with alpha-beta pruning alone, on the empty board.
#[divan::bench(sample_count = 20)]
fn alpha_beta_alone_empty_board(bencher: Bencher) {
    let board = Board::new();
    bencher.bench(|| reference::best_move(black_box(&board), Algorithm::AlphaBeta, Scoring::Depth));
}

/// The seed articles' examples and a mid-game position.
#[divan::bench(args = ["xox/oox/...", "o.x/x.x/.oo", "x.o/.x./...", "x../.../..."])]
fn engine_find_best_move(bencher: Bencher, notation: &str) {
    let board: Board = notation.parse().expect("valid board");
    bencher.bench(|| find_best_move(black_box(&board)));
}

/// Proven scores for every move of every reachable position, as `analyze -` computes them.
#[divan::bench(sample_count = 10)]
fn engine_analyze_every_reachable_position(bencher: Bencher) {
    let positions = reachable_positions();
    bencher.bench(|| {
        positions
            .iter()
            .map(|board| analyze(black_box(board), Limits::ToTheEnd).moves.len())
            .sum::<usize>()
    });
}

/// The same by searching every position instead of reading the table.
#[divan::bench(sample_count = 10)]
fn engine_search_every_reachable_position(bencher: Bencher) {
    let positions = reachable_positions();
    bencher.bench(|| {
        positions
            .iter()
            .map(|board| analyze_by_search(black_box(board), Limits::ToTheEnd).nodes())
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
            Limits::ToTheEnd,
        )
        .expect("every game plays to its end")
    });
}

/// The same games, each written as a record (what `selfplay --record`
/// writes, without the file): what recording costs per game.
#[divan::bench(sample_count = 20)]
fn selfplay_perfect_against_random_recorded(bencher: Bencher) {
    const GAMES: u32 = 1000;
    let mut seed = 0;
    let mut text = String::new();
    bencher.counter(ItemsCount::new(GAMES)).bench_local(|| {
        seed += 1;
        text.clear();
        let series = Series {
            start: Board::new(),
            x: Level::Perfect,
            o: Level::Random,
            games: GAMES,
            seed,
            limits: Limits::ToTheEnd,
        };
        play_games_each(series, |moves| {
            let game = Record::new(Board::new(), moves.to_vec())
                .expect("the AIs play legal moves")
                .with_players("AI perfect", "AI random");
            text.push_str(&record::write(&game));
            std::ops::ControlFlow::Continue(())
        })
        .expect("every game plays to its end")
    });
}

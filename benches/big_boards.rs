//! Bigger boards: how long proofs take and how well the AI keeps to its budget.
//!
//! `cargo bench --bench big_boards`. Whole-process timings of the same work
//! are in README, taken with hyperfine on the release binary.

use std::time::{Duration, Instant};

use tictactoe_engine::{Ai, Board, DEFAULT_THINK, Dice, Level, Limits, analyze, find_best_move};

fn main() {
    // 4x4, four in a row, from the empty board, with the default budget.
    let mut times: Vec<Duration> = (0..11)
        .map(|_| {
            let analysis = analyze(
                &Board::empty(4, 4).expect("a shape"),
                Limits::Think(DEFAULT_THINK),
            );
            assert!(
                analysis.exact() && analysis.value() == Some(0),
                "4x4 k=4 is a proven draw"
            );
            analysis.elapsed
        })
        .collect();
    times.sort();
    println!(
        "4x4 k=4 proven a draw from empty: median {:.1} ms of 11 (min {:.1}, max {:.1})",
        ms(times[5]),
        ms(times[0]),
        ms(times[10])
    );

    // 5x5, four in a row, solved outright.
    let mut solves = Vec::new();
    for _ in 0..3 {
        let started = Instant::now();
        let analysis = analyze(&Board::empty(5, 4).expect("a shape"), Limits::ToTheEnd);
        assert!(
            analysis.exact() && analysis.value() == Some(0),
            "5x5 k=4 is a proven draw"
        );
        solves.push((started.elapsed(), analysis.nodes()));
    }
    solves.sort();
    println!(
        "5x5 k=4 --solve from empty: median {:.2} s of 3 (min {:.2}, max {:.2}), {} positions",
        solves[1].0.as_secs_f64(),
        solves[0].0.as_secs_f64(),
        solves[2].0.as_secs_f64(),
        solves[1].1
    );

    // The AI's moves against their one-second budget.
    let budget = Duration::from_secs(1);
    let mut rng = Dice::with_seed(1);
    for size in [5u8, 6, 7] {
        let mut board = Board::empty(size, 4).expect("a shape");
        let mut worst = Duration::ZERO;
        let mut moves = 0;
        for _ in 0..4 {
            let Some(decision) =
                Ai::new().choose(&board, Level::Perfect, &mut rng, Limits::Think(budget))
            else {
                break;
            };
            let analysis = decision.analysis.expect("perfect play searches");
            worst = worst.max(analysis.elapsed);
            moves += 1;
            board = board.play(decision.mv).expect("a legal move");
        }
        println!(
            "{size}x{size} k=4, perfect, 1 s budget: slowest of {moves} moves {:.1} ms ({:+.1} ms over)",
            ms(worst),
            ms(worst) - ms(budget)
        );
    }

    // find_best_move on the empty 7x7 board, against its DEFAULT_THINK.
    let mut worst = Duration::ZERO;
    for _ in 0..3 {
        let started = Instant::now();
        find_best_move(&Board::empty(7, 4).expect("a shape")).expect("a move");
        worst = worst.max(started.elapsed());
    }
    println!(
        "find_best_move, empty 7x7 k=4: slowest of 3 calls {:.1} ms ({:+.1} ms over DEFAULT_THINK)",
        ms(worst),
        ms(worst) - ms(DEFAULT_THINK)
    );
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

//! The prover's resources: a table of fixed size, threads, a monitor.

use tictactoe_engine::solve::certificate::{self, check};
use tictactoe_engine::solve::{
    Bounds, Monitor, Outcome, Proof, Stop, Techniques, solve, solve_within,
};
use tictactoe_engine::{Board, Player};

/// The certificate of `proof`, checked by the engine's checker: its claim.
fn checked(proof: &mut Proof) -> Outcome {
    let strategies = proof.strategies().expect("the strategies");
    let text: String = certificate::lines(&proof.board, proof.value, &strategies)
        .map(|line| line + "\n")
        .collect();
    let claim = check(&text).expect("the certificate checks").claim;
    claim.value().expect("a value is claimed")
}

#[test]
fn a_table_smaller_than_the_proof_needs_still_finishes_it_with_a_complete_certificate() {
    const BUDGET: usize = 1 << 20;
    let board = Board::empty(5, 4).unwrap();
    // The premise: with the default memory, the proof's table holds more
    // than the budget.
    let unbounded = solve(&board, Techniques::all());
    let table = unbounded.table_use();
    let entry_bytes = table.bytes / table.capacity;
    assert!(
        table.entries * entry_bytes > 3 * BUDGET as u64,
        "unbounded, the table holds {} entries of {entry_bytes} bytes",
        table.entries
    );
    let bounds = Bounds {
        memory: Some(BUDGET),
        ..Bounds::default()
    };
    let mut bounded = solve_within(&board, Techniques::all(), bounds).expect("no deadline");
    assert_eq!(bounded.value, Outcome::Draw);
    let table = bounded.table_use();
    assert!(table.bytes <= BUDGET as u64, "{table:?}");
    assert!(table.budget <= BUDGET as u64, "{table:?}");
    assert!(table.replaced > 10_000, "entries were dropped: {table:?}");
    // The strategies search again what the table dropped.
    assert_eq!(checked(&mut bounded), Outcome::Draw);
}

#[test]
fn a_winning_proof_in_a_small_table_gives_a_complete_certificate() {
    let board = Board::empty(7, 4).unwrap();
    let bounds = Bounds {
        memory: Some(1 << 20),
        ..Bounds::default()
    };
    let mut proof = solve_within(&board, Techniques::all(), bounds).expect("no deadline");
    assert_eq!(proof.value, Outcome::Win(Player::X));
    assert!(proof.table_use().replaced > 0);
    assert_eq!(checked(&mut proof), Outcome::Win(Player::X));
}

#[test]
fn two_threads_prove_the_same_values_with_certificates_that_check() {
    // Questions big enough for the second thread to join: X's win on 5x5
    // (then O's, small), X's win on 7x7.
    for (size, k, value) in [(5, 4, Outcome::Draw), (7, 4, Outcome::Win(Player::X))] {
        let board = Board::empty(size, k).unwrap();
        let monitor = Monitor::new();
        let bounds = Bounds {
            threads: 2,
            monitor: Some(monitor.clone()),
            ..Bounds::default()
        };
        let mut proof = solve_within(&board, Techniques::all(), bounds).expect("no deadline");
        assert_eq!(proof.value, value, "{size}x{size} k={k}");
        let progress = monitor.progress();
        if value != Outcome::Draw {
            assert_eq!(
                progress.threads, 2,
                "the second thread joined: {progress:?}"
            );
        }
        assert_eq!(checked(&mut proof), value, "{size}x{size} k={k}");
    }
}

#[test]
fn two_threads_in_a_small_table_still_agree() {
    let board = Board::empty(5, 4).unwrap();
    let bounds = Bounds {
        threads: 2,
        memory: Some(1 << 20),
        ..Bounds::default()
    };
    let mut proof = solve_within(&board, Techniques::all(), bounds).expect("no deadline");
    assert_eq!(proof.value, Outcome::Draw);
    assert_eq!(checked(&mut proof), Outcome::Draw);
}

#[test]
fn the_monitor_sees_the_proof_and_can_interrupt_it() {
    let board = Board::empty(7, 5).unwrap();
    let monitor = Monitor::new();
    assert_eq!(monitor.progress().positions, 0);
    let bounds = Bounds {
        monitor: Some(monitor.clone()),
        ..Bounds::default()
    };
    let small = Board::empty(5, 4).unwrap();
    let proof = solve_within(&small, Techniques::all(), bounds.clone()).expect("no deadline");
    let progress = monitor.progress();
    assert_eq!(progress.positions, proof.counts.positions);
    // The last question asked was O's win, which O does not have.
    assert_eq!(progress.question, Some(Player::O));
    assert_eq!(
        (progress.proof, progress.disproof),
        (tictactoe_engine_inf(), 0)
    );
    assert!(progress.table.entries > 0 && progress.table.entries <= progress.table.capacity);
    monitor.interrupt();
    assert_eq!(
        solve_within(&board, Techniques::all(), bounds).err(),
        Some(Stop::Interrupted)
    );
}

/// The proof number of a disproven position, as the monitor reports it.
fn tictactoe_engine_inf() -> u32 {
    u32::MAX / 4
}

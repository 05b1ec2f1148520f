//! The benchmark's baseline is a faithful port of the seed; check that it is
//! right, and count positions the way README reports them.

use tictactoe::engine::{Board, Move, reference, search::Searcher};

#[path = "../benches/support/seed_port.rs"]
mod seed_port;

#[test]
fn seed_port_visits_549945_positions_on_the_empty_board() {
    let (best, value, calls) =
        seed_port::find_best_move(&mut seed_port::from_notation("........."));
    assert_eq!((best.row, best.col, value, calls), (0, 0, 0, 549_945));
    // The readable reference on bitboards does exactly the same search.
    assert_eq!(
        reference::find_best_move(&Board::new()),
        Some((Move::new(0, 0), 0, 549_945))
    );
}

#[test]
fn seed_port_answers_the_articles_example() {
    let (best, value, _) = seed_port::find_best_move(&mut seed_port::from_notation("xox/oox/___"));
    assert_eq!((best.row, best.col, value), (2, 2, 10));
}

#[test]
fn seed_port_agrees_with_the_reference_on_x_to_move_positions() {
    // The port always maximises for x, so compare on positions where X is to move.
    for notation in [
        "xox/oox/...",
        "x.o/.x./o..",
        "o.x/x.x/.oo",
        "xo./.../...",
        "xo./ox./...",
    ] {
        let board: Board = notation.parse().unwrap();
        let (best, value, calls) =
            seed_port::find_best_move(&mut seed_port::from_notation(notation));
        let (mv, expected, visits) = reference::find_best_move(&board).unwrap();
        assert_eq!(
            (best.row, best.col),
            (i32::from(mv.row), i32::from(mv.col)),
            "{notation}"
        );
        assert_eq!((value, calls), (expected, visits), "{notation}");
    }
}

#[test]
fn alpha_beta_needs_under_a_thousand_positions_for_the_empty_board() {
    let board = Board::new();
    let mut searcher = Searcher::new(board.geometry());
    assert_eq!(searcher.best_move(&board), Some((Move::new(0, 0), 0)));
    assert!(searcher.nodes() < 1000, "{} positions", searcher.nodes());
}

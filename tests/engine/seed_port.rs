//! The benchmarks' baselines are ports of the seed program: check that both
//! are right, and count positions the way README reports them.

use tictactoe_engine::teach::reference::{self, Algorithm, BestMove};
use tictactoe_engine::{
    Board, Limits, Player, Scoring, Square, analyze_by_search, reachable_positions,
};

#[path = "../../benches/support/seed_port.rs"]
mod faithful;
#[path = "../../benches/support/seed_tight.rs"]
mod seed_tight;

#[test]
fn seed_port_visits_549945_positions_on_the_empty_board() {
    let (best, value, calls) = faithful::find_best_move(&mut faithful::from_notation("........."));
    assert_eq!((best.row, best.col, value, calls), (0, 0, 0, 549_945));
    // The readable reference on bitboards does exactly the same search.
    assert_eq!(
        reference::best_move(&Board::new(), Algorithm::Minimax, Scoring::Depth),
        Some(BestMove {
            mv: Square::new(0, 0),
            value: 0,
            calls: 549_945
        })
    );
}

#[test]
fn both_ports_answer_the_articles_example() {
    let (best, value, _) = faithful::find_best_move(&mut faithful::from_notation("xox/oox/___"));
    assert_eq!((best.row, best.col, value), (2, 2, 10));
    assert_eq!(
        seed_tight::find_best_move(&mut seed_tight::parse("xox/oox/___")),
        ((2, 2), 10)
    );
}

#[test]
fn both_ports_agree_with_the_reference_on_every_position_with_x_to_move() {
    // The ports always play x, so they answer the positions where X is to move.
    let mut checked = 0;
    for board in reachable_positions()
        .into_iter()
        .filter(|b| b.status() == tictactoe_engine::Status::InProgress { to_move: Player::X })
    {
        let notation = board.to_string();
        let BestMove { mv, value, calls } =
            reference::best_move(&board, Algorithm::Minimax, Scoring::Depth)
                .expect("game in progress");
        // The article scores its moves at depth 0, as the engine does.
        let expected = ((i32::from(mv.row), i32::from(mv.col)), value);

        let (best, port_value, port_calls) =
            faithful::find_best_move(&mut faithful::from_notation(&notation));
        assert_eq!(
            ((best.row, best.col), port_value, port_calls),
            (expected.0, expected.1, calls),
            "{notation}"
        );
        let mut grid = seed_tight::parse(&notation);
        assert_eq!(
            seed_tight::find_best_move(&mut grid),
            expected,
            "{notation}"
        );
        assert_eq!(
            grid,
            seed_tight::parse(&notation),
            "the board is left as it was"
        );
        checked += 1;
    }
    assert!(checked > 2000, "{checked} positions");
}

#[test]
fn the_tight_port_reads_the_notation_without_separators_too() {
    assert_eq!(
        seed_tight::parse("xo./.x./..o"),
        seed_tight::parse("XO_.X.__O")
    );
}

#[test]
fn alpha_beta_alone_and_the_engine_search_need_far_fewer_positions() {
    let board = Board::new();
    let pruned = reference::best_move(&board, Algorithm::AlphaBeta, Scoring::Depth).unwrap();
    assert_eq!((pruned.mv, pruned.value), (Square::new(0, 0), 0));
    assert!(
        pruned.calls < 549_945 / 10,
        "alpha-beta alone: {}",
        pruned.calls
    );
    let searched = analyze_by_search(&board, Limits::ToTheEnd);
    assert!(
        searched.nodes() < 1000,
        "the engine's search: {}",
        searched.nodes()
    );
}

//! The 8×8 boards: played, parsed and proven, each proof's certificate
//! checked by the engine's checker.

use tictactoe_engine::solve::certificate::{self, check};
use tictactoe_engine::solve::{Outcome, Techniques, solve};
use tictactoe_engine::{Board, Geometry, Player, Square, Status};

/// The certificate of a proof of `board`, as `solve --certificate` writes it.
fn certificate_text(board: &Board) -> (Outcome, String) {
    let mut proof = solve(board, Techniques::all());
    let strategies = proof.strategies().expect("the strategies");
    let text = certificate::lines(board, proof.value, &strategies)
        .map(|line| line + "\n")
        .collect();
    (proof.value, text)
}

#[test]
fn every_8x8_shape_exists_and_its_squares_go_to_h8() {
    for k in 3..=8 {
        let geometry = Geometry::get(8, k).expect("8x8 is a board");
        assert_eq!((geometry.size(), geometry.k()), (8, k));
    }
    assert!(Geometry::get(9, 5).is_err());
    assert_eq!("h8".parse::<Square>(), Ok(Square::new(7, 7)));
    assert_eq!(
        Geometry::get(8, 5).unwrap().parse_square("H8"),
        Ok(Square::new(7, 7))
    );
    let board: Board = "......../......../......../......../......../......../......../.......x"
        .parse()
        .expect("an 8x8 board in the notation");
    assert_eq!((board.size(), board.k()), (8, 4));
    assert_eq!(board.get(Square::new(7, 7)), Some(Player::X));
    assert_eq!(board.empty_cells().len(), 63);
    // X's line along the bottom row ends on the 64th bit.
    let won = Board::parse_with_k(
        "ooooooo./......../......../......../......../......../......../xxxxxxxx",
        Some(8),
    )
    .expect("X has just completed the bottom row");
    assert_eq!(won.status(), Status::Won(Player::X));
    assert!(
        Board::parse_with_k(
            "oooooooo/......../......../......../......../......../......../xxxxxxxx",
            Some(8),
        )
        .is_err(),
        "both sides cannot have a line"
    );
    let mut board = Board::empty(8, 8).unwrap();
    for col in 0..7 {
        board = board.play(Square::new(7, col)).unwrap();
        board = board.play(Square::new(0, col)).unwrap();
    }
    let board = board.play(Square::new(7, 7)).unwrap();
    assert_eq!(board.status(), Status::Won(Player::X));
    assert_eq!(board.winning_cells().len(), 8);
}

#[test]
fn eight_by_eight_with_seven_and_eight_in_a_row_are_proven_draws_with_certificates() {
    for k in [7, 8] {
        let board = Board::empty(8, k).unwrap();
        let (value, text) = certificate_text(&board);
        assert_eq!(value, Outcome::Draw, "8x8 k={k}");
        let verified = check(&text).expect("the certificate checks");
        assert_eq!(verified.board, board);
        assert_eq!(verified.claim, Outcome::Draw);
    }
}

#[test]
fn eight_by_eight_with_six_in_a_row_is_a_proven_draw_with_a_certificate() {
    let board = Board::empty(8, 6).unwrap();
    let (value, text) = certificate_text(&board);
    assert_eq!(value, Outcome::Draw);
    let verified = check(&text).expect("the certificate checks");
    assert_eq!(verified.claim, Outcome::Draw);
}

#[test]
fn eight_by_eight_with_three_in_a_row_is_won_by_x_with_a_certificate() {
    let board = Board::empty(8, 3).unwrap();
    let (value, text) = certificate_text(&board);
    assert_eq!(value, Outcome::Win(Player::X));
    assert_eq!(check(&text).expect("the certificate checks").claim, value);
}

#[test]
fn every_8x8_shape_plays_games_to_their_end() {
    use std::time::Duration;
    use tictactoe_engine::{Ai, Dice, Level, Limits};

    for k in 3..=8 {
        let mut board = Board::empty(8, k).unwrap();
        let mut dice = Dice::with_seed(u64::from(k));
        let (mut x, mut o) = (Ai::new(), Ai::new());
        let levels = [Level::Hard, Level::Random];
        let mut plies = 0;
        while !board.status().is_over() {
            let (ai, level) = match board.to_move() {
                Player::X => (&mut x, levels[0]),
                Player::O => (&mut o, levels[1]),
            };
            let decision = ai
                .choose(
                    &board,
                    level,
                    &mut dice,
                    Limits::Think(Duration::from_millis(5)),
                )
                .expect("a move while the game is on");
            board = board.play(decision.mv).expect("a legal move");
            plies += 1;
        }
        assert!(plies >= 2 * usize::from(k) - 1, "8x8 k={k}: {plies} plies");
    }
}

#[test]
fn the_perfect_ai_on_8x8_with_five_in_a_row_plays_by_search_and_says_its_play_is_unproven() {
    use std::time::Duration;
    use tictactoe_engine::solve::{book, book_ready, book_within_reach};
    use tictactoe_engine::{Ai, Dice, Level, Limits};

    let geometry = Geometry::get(8, 5).unwrap();
    assert!(!book_within_reach(geometry));
    assert!(book(geometry).is_none(), "given up at once, not proven");
    assert!(book_ready(geometry).is_none());
    let mut board = Board::empty(8, 5).unwrap();
    let mut ai = Ai::new();
    let mut dice = Dice::with_seed(5);
    for _ in 0..4 {
        let decision = ai
            .choose(
                &board,
                Level::Perfect,
                &mut dice,
                Limits::Think(Duration::from_millis(20)),
            )
            .expect("a move");
        assert!(!decision.proven(), "{board}: nothing is proven this early");
        board = board.play(decision.mv).unwrap();
    }
    // Every other 8x8 book is within reach.
    for k in [3, 4, 6, 7, 8] {
        assert!(book_within_reach(Geometry::get(8, k).unwrap()));
    }
    let six = book(Geometry::get(8, 6).unwrap()).expect("8x8 k=6 is proven");
    assert_eq!(six.value, Outcome::Draw);
}

//! The notation, the rules and their errors, and the seed articles' examples.

use tictactoe_engine::teach::reference::{self, Algorithm, evaluate, is_moves_left, minimax};
use tictactoe_engine::{
    Board, BoardError, Geometry, GeometryError, IllegalMove, InvalidPosition, Limits, Outlook,
    ParseError, Player, Scoring, Square, Status, analyze, find_best_move,
};
use tictactoe_game::present::verdict;

fn board(text: &str) -> Board {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn geeksforgeeks_example_scores_and_best_move() {
    // x o x / o o x / _ _ _ with X to move: the article's driver prints row 2,
    // col 2, value 10, scoring the position after each move at depth 0, and
    // so does the engine: a win on the move +10, a loss on the reply -9.
    let position = board("xox/oox/___");
    assert_eq!(position.to_move(), Player::X);
    let analysis = analyze(&position, Limits::ToTheEnd);
    let scores: Vec<(u8, u8, i32)> = analysis
        .moves
        .iter()
        .map(|m| (m.mv.row, m.mv.col, m.score))
        .collect();
    assert_eq!(scores, vec![(2, 0, -9), (2, 1, 0), (2, 2, 10)]);
    assert_eq!(find_best_move(&position), Some(Square::new(2, 2)));
    assert_eq!(analysis.value(), Some(10));
    let plain: Vec<i32> = analysis
        .moves
        .iter()
        .map(|m| Scoring::Plain.of(m.score, m.exact, 10))
        .collect();
    assert_eq!(plain, [-10, 0, 10], "the article's own numbers");
    assert_eq!(verdict(&analysis), "X wins in 1");
    let article = reference::best_move(&position, Algorithm::Minimax, Scoring::Depth);
    assert_eq!(article.map(|best| best.mv), Some(Square::new(2, 2)));
}

#[test]
fn freecodecamp_example_best_move_is_the_centre() {
    // O _ X / X _ X / _ O O with the AI as X: the article's answer is index 4.
    let position = board("o.x/x.x/.oo");
    assert_eq!(position.to_move(), Player::X);
    assert_eq!(find_best_move(&position), Some(Square::new(1, 1)));
}

#[test]
fn cs50_side_to_move_comes_from_the_counts() {
    assert_eq!(board(".........").to_move(), Player::X);
    assert_eq!(board("x........").to_move(), Player::O);
    assert_eq!(board("x...o....").to_move(), Player::X);
}

#[test]
fn seed_vocabulary_evaluate_is_moves_left_minimax() {
    let x_won = board("xxx/oo./...");
    assert_eq!(evaluate(&x_won, Player::X), 10);
    assert_eq!(evaluate(&x_won, Player::O), -10);
    assert_eq!(evaluate(&board("xo./.../..."), Player::X), 0);
    assert!(is_moves_left(&x_won));
    assert!(!is_moves_left(&board("xox/xoo/oxx")));
    // After X takes row 2, col 2 in the article's example, minimax(board, 0, false) is +10,
    // as the article calls it; a call one move deeper, at depth 1, would return +9.
    let after = board("xox/oox/..x");
    assert_eq!(minimax(&after, 0, false), 10);
    assert_eq!(minimax(&after, 1, false), 9);
    // Letting O win at once: -10 + depth 1, or -(10 - 2) at depth 2.
    assert_eq!(minimax(&board("xox/oox/x.."), 0, false), -9);
    assert_eq!(minimax(&board("xox/oox/x.."), 1, false), -8);
}

#[test]
fn depth_adjusted_words() {
    let g = Board::new().geometry();
    // The move is depth 1: a win on it scores 9, a loss on the reply -8.
    assert_eq!(Outlook::of(9, true, g), Outlook::Win { moves: 1 });
    assert_eq!(Outlook::of(7, true, g), Outlook::Win { moves: 2 });
    assert_eq!(Outlook::of(-8, true, g), Outlook::Loss { moves: 1 });
    assert_eq!(Outlook::of(-6, true, g), Outlook::Loss { moves: 2 });
    // A loss at depth 6 scores -4, below half of 10: still a loss when proven.
    assert_eq!(Outlook::of(-4, true, g), Outlook::Loss { moves: 3 });
    assert_eq!(Outlook::of(5, true, g), Outlook::Win { moves: 3 });
    assert_eq!(Outlook::of(0, true, g), Outlook::Draw);
    assert_eq!(Outlook::of(0, false, g), Outlook::Estimate);
    assert_eq!(Outlook::Win { moves: 2 }.to_string(), "win in 2");
}

#[test]
fn notation_accepts_every_spelling_and_round_trips() {
    let canonical = "xo./.x./..o";
    for spelling in [
        "xo./.x./..o",
        "XO_-X-__O",
        "  xo./.x./..o\n",
        "\txO.-x._.O  ",
    ] {
        assert_eq!(board(spelling).to_string(), canonical, "{spelling:?}");
    }
    for text in [
        ".........",
        "xox/oox/...",
        "xxo/oox/xox",
        "x.../..o./..../....",
    ] {
        let parsed = board(text);
        assert_eq!(board(&parsed.to_string()), parsed);
    }
    assert_eq!(board("xo./.x./..o").to_grid(), "X O .\n. X .\n. . O");
}

#[test]
fn boards_as_students_write_them_are_read() {
    // GeeksforGeeks' board with spaces between its cells, and underscores.
    assert_eq!(board("x o x / o o x / _ _ _"), board("xox/oox/..."));
    assert_eq!(board(" X O X\tO O X _ _ _ "), board("xox/oox/..."));
    // freeCodeCamp's origBoard, its empty cells numbered by their index.
    assert_eq!(board("o1x/x4x/6oo"), board("o.x/x.x/.oo"));
    assert_eq!(board("O 1 X X 4 X 6 O O"), board("o.x/x.x/.oo"));
}

#[test]
fn parse_errors_name_what_is_wrong() {
    let err = |text: &str| text.parse::<Board>().unwrap_err();
    assert_eq!(err(""), BoardError::Parse(ParseError::Empty));
    assert_eq!(err("  \n"), BoardError::Parse(ParseError::Empty));
    assert_eq!(
        err("xoz/..."),
        BoardError::Parse(ParseError::BadCharacter {
            found: 'z',
            position: 3
        })
    );
    // Positions count characters, not bytes, and include leading whitespace.
    assert_eq!(
        err("  é........"),
        BoardError::Parse(ParseError::BadCharacter {
            found: 'é',
            position: 3
        })
    );
    // A digit stands only for the empty cell it numbers, from 0.
    assert_eq!(
        err("o2x/x4x/6oo"),
        BoardError::Parse(ParseError::Numbered {
            found: '2',
            position: 2,
            index: 1
        })
    );
    assert_eq!(
        err("0.../..../..../...."),
        BoardError::Parse(ParseError::NumberedBig { size: 4 })
    );
    assert_eq!(err("xo./.x./"), BoardError::Parse(ParseError::CellCount(6)));
    assert_eq!(
        err(&".".repeat(10_000)),
        BoardError::Parse(ParseError::CellCount(10_000))
    );
    assert_eq!(
        err("xo/.x../..o"),
        BoardError::Parse(ParseError::RowLength {
            row: 1,
            found: 2,
            size: 3
        })
    );
    assert_eq!(
        err("xo./.x./..o/"),
        BoardError::Parse(ParseError::RowLength {
            row: 4,
            found: 0,
            size: 3
        })
    );
    let message = err("xoz").to_string();
    assert!(
        message.contains("'z'") && message.contains("position 3"),
        "{message}"
    );
}

#[test]
fn impossible_positions_say_why() {
    let err = |text: &str| text.parse::<Board>().unwrap_err();
    assert_eq!(
        err("xx./.../..."),
        BoardError::Invalid(InvalidPosition::Counts { x: 2, o: 0 })
    );
    assert_eq!(
        err("o../.../..."),
        BoardError::Invalid(InvalidPosition::Counts { x: 0, o: 1 })
    );
    assert_eq!(
        err("xxx/ooo/x.."),
        BoardError::Invalid(InvalidPosition::BothWon)
    );
    // X completed a line, then O moved anyway.
    assert_eq!(
        err("xxx/oo./o.."),
        BoardError::Invalid(InvalidPosition::MoveAfterWin { winner: Player::X })
    );
    // O completed a line, then X moved anyway.
    assert_eq!(
        err("ooo/xx./xx."),
        BoardError::Invalid(InvalidPosition::MoveAfterWin { winner: Player::O })
    );
    assert_eq!(
        Board::parse_with_k("xxx./xxx./ooo./ooo.", Some(3)).unwrap_err(),
        BoardError::Invalid(InvalidPosition::BothWon)
    );
    // Two separate lines that no single last move completes (possible to write only on bigger boards).
    assert_eq!(
        Board::parse_with_k("xxx./oo.o/xxx./o.o.", Some(3)).unwrap_err(),
        BoardError::Invalid(InvalidPosition::SeparateLines { winner: Player::X })
    );
    assert!(
        err("xx./.../...")
            .to_string()
            .contains("X has 2 marks and O has 0")
    );
}

#[test]
fn shapes_outside_the_supported_range_are_errors() {
    assert_eq!(Board::empty(2, 2).unwrap_err(), GeometryError::Size(2));
    assert_eq!(Board::empty(9, 4).unwrap_err(), GeometryError::Size(9));
    assert_eq!(
        Board::empty(4, 5).unwrap_err(),
        GeometryError::K { size: 4, k: 5 }
    );
    assert_eq!(
        Board::parse_with_k(".........", Some(4)).unwrap_err(),
        BoardError::Geometry(GeometryError::K { size: 3, k: 4 })
    );
    assert_eq!(
        Board::parse_with_k("................", None).unwrap().k(),
        4
    );
}

#[test]
fn illegal_moves_say_why() {
    let start = board("x../.../...");
    assert_eq!(
        start.play(Square::new(0, 0)),
        Err(IllegalMove::Occupied { row: 0, col: 0 })
    );
    assert_eq!(
        start.play(Square::new(3, 0)),
        Err(IllegalMove::OutOfRange {
            row: 3,
            col: 0,
            size: 3
        })
    );
    assert_eq!(
        start.play(Square::new(0, 9)),
        Err(IllegalMove::OutOfRange {
            row: 0,
            col: 9,
            size: 3
        })
    );
    assert_eq!(
        board("xxx/oo./...").play(Square::new(2, 2)),
        Err(IllegalMove::GameOver)
    );
    assert_eq!(
        board("xox/xoo/oxx").play(Square::new(0, 0)),
        Err(IllegalMove::GameOver)
    );
    let after = start.play(Square::new(1, 1)).unwrap();
    assert_eq!(after.get(Square::new(1, 1)), Some(Player::O));
    assert!(
        IllegalMove::Occupied { row: 0, col: 0 }
            .to_string()
            .contains("already taken")
    );
}

#[test]
fn from_bits_refuses_shared_cells_and_marks_off_the_board() {
    let classic = Geometry::classic();
    assert_eq!(
        Board::from_bits(classic, 1, 1),
        Err(InvalidPosition::SharedCell)
    );
    assert_eq!(
        Board::from_bits(classic, 1 << 9, 0),
        Err(InvalidPosition::OffBoard { size: 3 })
    );
    assert_eq!(
        Board::from_bits(Geometry::get(7, 4).unwrap(), 0, 1 << 63),
        Err(InvalidPosition::OffBoard { size: 7 })
    );
    assert_eq!(
        Board::from_bits(classic, 0b1, 0b10).map(|b| b.to_string()),
        Ok("xo./.../...".to_string())
    );
    for error in [
        InvalidPosition::SharedCell,
        InvalidPosition::OffBoard { size: 3 },
    ] {
        let message = error.to_string();
        assert!(
            message.starts_with("impossible position: ") && !message.contains('\n'),
            "{message}"
        );
    }
}

#[test]
fn cell_sets_of_a_position() {
    let position = board("xx./oo./...");
    assert_eq!(position.marks(Player::X).len(), 2);
    assert_eq!(position.empty_cells().len(), 5);
    assert_eq!(
        position.threats(Player::O).iter().collect::<Vec<_>>(),
        [Square::new(1, 2)]
    );
    assert!(!position.empty_cells().contains(Square::new(0, 0)));
    assert!(!position.empty_cells().contains(Square::new(3, 3)));
    assert_eq!(
        position.empty_cells().into_iter().collect::<Vec<_>>(),
        position.legal_moves()
    );
}

#[test]
fn status_of_finished_and_running_games() {
    assert_eq!(board("xxx/oo./...").status(), Status::Won(Player::X));
    assert_eq!(board("ooo/xx./x..").status(), Status::Won(Player::O));
    assert_eq!(board("xox/xoo/oxx").status(), Status::Draw);
    assert_eq!(
        board("x../.../...").status(),
        Status::InProgress { to_move: Player::O }
    );
    let top_row = board("xxx/oo./...").winning_cells();
    assert_eq!(
        top_row.iter().collect::<Vec<_>>(),
        [Square::new(0, 0), Square::new(0, 1), Square::new(0, 2)]
    );
    assert_eq!(top_row.bits(), 0b111);
    assert!(board("xo./.x./..o").winning_cells().is_empty());
    assert!(board("xxx/oo./...").legal_moves().is_empty());
}

#[test]
fn coordinates_a1_to_c3() {
    assert_eq!(Square::new(0, 0).to_string(), "a1");
    assert_eq!(Square::new(2, 1).to_string(), "b3");
    let classic = Geometry::classic();
    assert_eq!(classic.parse_square("b2"), Ok(Square::new(1, 1)));
    assert_eq!(classic.parse_square("C3"), Ok(Square::new(2, 2)));
    for bad in ["d1", "a4", "a0", "", "b", "22", "bb"] {
        assert!(classic.parse_square(bad).is_err(), "{bad}");
    }
    let seven = Geometry::get(7, 4).unwrap();
    assert_eq!(seven.parse_square("g7"), Ok(Square::new(6, 6)));
}

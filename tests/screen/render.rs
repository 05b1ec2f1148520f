//! What the screen shows, drawn on ratatui's TestBackend. Text goes to insta
//! snapshots; styles that carry meaning are checked cell by cell.
//!
//! Each screen is snapshotted at 80x24, at the smallest size that plays
//! (30x15 for 3x3, 32x23 for 7x7) and, where the board scales, at 120x40.

use std::time::{Duration, Instant};

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier};
use tictactoe_engine::{Board, Square};
use tictactoe_game::action::{Action, Direction, TraceMove};
use tictactoe_game::game::Seat;
use tictactoe_screen::app::App;
use tictactoe_screen::layout::{BoardLayout, CellSize, ExplainPlace, Panels, ScreenLayout, layout};
use tictactoe_screen::worker::Worker;

use crate::support;

use support::{PERFECT, answer_all, draw, settings, settings_from};

fn seven_by_seven() -> Board {
    Board::empty(7, 4).expect("7x7 with four in a row")
}

fn text(buffer: &Buffer) -> String {
    let width = buffer.area.width as usize;
    buffer
        .content
        .chunks(width)
        .map(|row| {
            row.iter()
                .map(|cell| cell.symbol())
                .collect::<String>()
                .trim_end()
                .to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The snapshot's name: the test's own at 80x24, with the size otherwise.
fn sized(name: &str, (width, height): (u16, u16)) -> String {
    if (width, height) == (80, 24) {
        name.to_string()
    } else {
        format!("{name}_{width}x{height}")
    }
}

/// Snapshots `app` drawn at `size`; returns the buffer for style checks.
fn snapshot(name: &str, app: &App, size: (u16, u16)) -> Buffer {
    let buffer = draw(app, size.0, size.1);
    insta::assert_snapshot!(sized(name, size), text(&buffer));
    buffer
}

/// A snapshot with measured times replaced, since they differ from run to run.
fn snapshot_timeless(name: &str, app: &App, size: (u16, u16)) -> Buffer {
    let buffer = draw(app, size.0, size.1);
    insta::with_settings!({filters => vec![(r"\d+\.\d{3} ms", "[time]")]}, {
        insta::assert_snapshot!(sized(name, size), text(&buffer));
    });
    buffer
}

fn two_humans(moves: &[(u8, u8)]) -> App {
    let now = Instant::now();
    let mut app = App::new(settings(Seat::Human, Seat::Human), now);
    for &(row, col) in moves {
        app.update(Action::Place(Square::new(row, col)), now);
    }
    app
}

/// Where the board is at `size` (the same with explain on or off).
fn board_at(size: (u16, u16), squares: u8) -> BoardLayout {
    let area = Rect::new(0, 0, size.0, size.1);
    let panels = Panels {
        moves: true,
        explain: false,
    };
    match layout(area, squares, panels) {
        ScreenLayout::Game { board, .. } => board,
        ScreenLayout::TooSmall { .. } => panic!("{area:?} is big enough"),
    }
}

fn cell_text(buffer: &Buffer, rect: Rect) -> String {
    rect.positions()
        .map(|p| buffer[p].symbol())
        .collect::<String>()
}

fn all_cells_have(buffer: &Buffer, rect: Rect, modifier: Modifier) -> bool {
    rect.positions()
        .all(|p| buffer[p].modifier.contains(modifier))
}

fn any_cell_has(buffer: &Buffer, rect: Rect, modifier: Modifier) -> bool {
    rect.positions()
        .any(|p| buffer[p].modifier.contains(modifier))
}

const SIZES: [(u16, u16); 3] = [(80, 24), (30, 15), (120, 40)];

#[test]
fn empty_board() {
    let app = App::new(settings(Seat::Human, PERFECT), Instant::now());
    for size in SIZES {
        let buffer = snapshot("empty_board", &app, size);
        let board = board_at(size, 3);
        for mv in Board::new().legal_moves() {
            let digit = (mv.index(3) + 1).to_string();
            assert_eq!(
                cell_text(&buffer, board.cell_rect(mv)).trim(),
                digit,
                "{size:?}: your turn, so each square shows its digit"
            );
        }
    }
}

#[test]
fn the_board_grows_with_the_terminal_and_stays_crisp_at_80x24() {
    assert_eq!(board_at((80, 24), 3).cell, CellSize::LARGE);
    // The move list before bigger squares.
    assert_eq!(board_at((30, 15), 3).cell, CellSize::SMALL);
    let big = board_at((120, 40), 3);
    assert!(big.cell > CellSize::LARGE, "{big:?}");
    let bigger = board_at((200, 60), 3);
    assert!(bigger.cell > big.cell, "{bigger:?}");
    // Drawn marks keep their shape: twice as wide as tall, less one, in every size.
    let app = two_humans(&[(1, 1), (0, 0)]);
    for size in [(80, 24), (120, 40), (200, 60)] {
        let board = board_at(size, 3);
        let buffer = draw(&app, size.0, size.1);
        let x = board.cell_rect(Square::new(1, 1));
        let rows: Vec<String> = x
            .rows()
            .map(|row| cell_text(&buffer, row).trim().to_string())
            .collect();
        let n = usize::from(board.cell.height);
        assert_eq!(rows.len(), n);
        assert_eq!(
            rows[n / 2],
            "╳",
            "{size:?}: the strokes cross in the middle"
        );
        assert_eq!(rows[0].chars().count(), 2 * n - 1, "{size:?}");
        let o = board.cell_rect(Square::new(0, 0));
        let top = cell_text(&buffer, o.rows().next().expect("a row"));
        assert!(
            top.trim().starts_with('╭') && top.trim().ends_with('╮'),
            "{top}"
        );
    }
}

#[test]
fn mid_game_with_the_cursor() {
    let t0 = Instant::now();
    let mut app = App::new(settings(Seat::Human, PERFECT), t0);
    app.update(Action::Place(Square::new(1, 1)), t0);
    answer_all(&mut app, t0);
    app.tick(t0 + Duration::from_secs(1));
    app.update(Action::Cursor(Direction::Up), t0);
    app.update(Action::Cursor(Direction::Right), t0);
    for size in SIZES {
        let buffer = snapshot("mid_game_with_the_cursor", &app, size);
        let board = board_at(size, 3);
        assert!(
            all_cells_have(
                &buffer,
                board.cell_rect(Square::new(0, 2)),
                Modifier::REVERSED
            ),
            "{size:?}: the cursor square"
        );
        assert!(!any_cell_has(
            &buffer,
            board.cell_rect(Square::new(2, 2)),
            Modifier::REVERSED
        ));
        // The last move's mark is underlined.
        let last = app.game().last_move().expect("the AI moved");
        assert!(any_cell_has(
            &buffer,
            board.cell_rect(last),
            Modifier::UNDERLINED
        ));
    }
}

#[test]
fn no_digits_and_no_cursor_while_the_ai_moves() {
    let t0 = Instant::now();
    let mut app = App::new(settings(Seat::Human, PERFECT), t0);
    app.update(Action::Place(Square::new(1, 1)), t0);
    app.take_request().expect("the AI is asked");
    for size in SIZES {
        let buffer = draw(&app, size.0, size.1);
        let board = board_at(size, 3);
        for mv in app.board().legal_moves() {
            let rect = board.cell_rect(mv);
            assert_eq!(cell_text(&buffer, rect).trim(), "", "{size:?} {mv}");
            assert!(!any_cell_has(&buffer, rect, Modifier::REVERSED));
        }
    }
}

#[test]
fn x_wins_with_the_line_highlighted() {
    let app = two_humans(&[(0, 0), (1, 0), (1, 1), (2, 0), (2, 2)]);
    for size in SIZES {
        let buffer = snapshot("x_wins_with_the_line_highlighted", &app, size);
        let board = board_at(size, 3);
        for mv in [Square::new(0, 0), Square::new(1, 1), Square::new(2, 2)] {
            assert!(
                all_cells_have(
                    &buffer,
                    board.cell_rect(mv),
                    Modifier::BOLD | Modifier::REVERSED
                ),
                "{size:?}: winning square {mv}"
            );
        }
        for mv in [Square::new(1, 0), Square::new(0, 2), Square::new(2, 1)] {
            let rect = board.cell_rect(mv);
            assert!(
                !any_cell_has(&buffer, rect, Modifier::REVERSED),
                "{size:?}: square {mv}"
            );
        }
        for mv in [Square::new(0, 1), Square::new(0, 2), Square::new(1, 2)] {
            let rect = board.cell_rect(mv);
            assert_eq!(cell_text(&buffer, rect).trim(), "", "no digits once over");
        }
        let screen = text(&buffer);
        assert!(
            !screen.contains("arrows"),
            "{size:?}: nothing to place\n{screen}"
        );
        assert!(screen.contains("n new game"), "{size:?}\n{screen}");
    }
}

#[test]
fn a_draw() {
    let app = two_humans(&[
        (0, 0),
        (0, 1),
        (0, 2),
        (1, 1),
        (1, 0),
        (1, 2),
        (2, 1),
        (2, 0),
        (2, 2),
    ]);
    let buffer = draw(&app, 80, 24);
    insta::assert_snapshot!(text(&buffer));
    assert!(
        !buffer
            .content
            .iter()
            .any(|cell| cell.modifier.contains(Modifier::REVERSED)),
        "no line, no cursor"
    );
}

#[test]
fn the_help_popup() {
    let mut app = App::new(settings(Seat::Human, PERFECT), Instant::now());
    app.update(Action::ToggleHelp, Instant::now());
    for size in [(80, 24), (30, 15), (40, 15)] {
        let screen = text(&snapshot("the_help_popup", &app, size));
        // Words wrap whole: none is cut at the popup's edge.
        for word in [
            "explain:", "every", "move's", "score", "new", "game", "square",
        ] {
            assert!(
                screen
                    .split_whitespace()
                    .any(|w| w.trim_matches('│') == word),
                "{size:?}: {word:?} is whole\n{screen}"
            );
        }
        for cut in ["expla ", "new g ", "expla│", "new g│"] {
            assert!(!screen.contains(cut), "{size:?}\n{screen}");
        }
    }
}

#[test]
fn watch_mode_footer_and_help() {
    let mut app = App::new(settings(PERFECT, PERFECT), Instant::now());
    app.take_request().expect("X is asked for a move");
    app.update(Action::ToggleHelp, Instant::now());
    snapshot("watch_mode_footer_and_help", &app, (80, 24));
    snapshot("watch_mode_footer_and_help", &app, (30, 15));
}

#[test]
fn watch_mode_says_thinking_only_while_the_engine_works_and_shows_the_delay() {
    let t0 = Instant::now();
    let mut app = App::new(settings(PERFECT, PERFECT), t0);
    let request = app.take_request().expect("X is asked for a move");
    let thinking = text(&snapshot("watch_mode_thinking", &app, (80, 24)));
    assert!(thinking.contains("X (perfect) is thinking…"), "{thinking}");
    assert!(thinking.contains("delay 500 ms"), "{thinking}");
    app.receive(Worker::default().answer(&request), t0);
    app.update(Action::Faster, t0);
    for size in [(80, 24), (30, 15)] {
        let waiting = text(&snapshot("watch_mode_between_moves", &app, size));
        assert!(waiting.contains("X (perfect) moves next…"), "{waiting}");
        assert!(!waiting.contains("thinking"), "{waiting}");
        // The key bar shows whole entries only: at 30 columns `+/- delay`
        // gives way to `space pause`.
        assert_eq!(
            waiting.contains("+/- delay 250 ms"),
            size == (80, 24),
            "{size:?}: after +\n{waiting}"
        );
    }
    app.update(Action::Slower, t0);
    app.update(Action::Slower, t0);
    assert!(text(&draw(&app, 80, 24)).contains("delay 1000 ms"));
    // No digits and no cursor: nobody places in watch mode.
    let buffer = draw(&app, 80, 24);
    let board = board_at((80, 24), 3);
    for mv in Board::new().legal_moves() {
        let rect = board.cell_rect(mv);
        assert_eq!(cell_text(&buffer, rect).trim(), "", "{mv}");
        assert!(!any_cell_has(&buffer, rect, Modifier::REVERSED));
    }
    assert!(!text(&buffer).contains("arrows"));
}

#[test]
fn a_small_terminal_gets_small_squares() {
    let app = two_humans(&[(1, 1), (0, 0)]);
    insta::assert_snapshot!(text(&draw(&app, 40, 16)));
}

#[test]
fn a_terminal_too_small() {
    let app = two_humans(&[]);
    for (size, lines) in [
        (
            (24, 10),
            vec!["Terminal too small:", "needs 30x13, now 24x10"],
        ),
        (
            (20, 8),
            vec!["Terminal too small:", "needs 30x13,", "now 20x8"],
        ),
        (
            (29, 40),
            vec!["Terminal too small:", "needs 30x13, now 29x40"],
        ),
    ] {
        let screen = text(&snapshot("a_terminal_too_small", &app, size));
        let shown: Vec<&str> = screen
            .lines()
            .map(str::trim)
            .filter(|line| !line.is_empty())
            .collect();
        assert_eq!(shown, lines, "{size:?}: broken only between phrases");
    }
    // Exactly the minimum is enough.
    assert!(!text(&draw(&app, 30, 13)).contains("too small"));
    assert!(text(&draw(&app, 30, 12)).contains("needs 30x13, now 30x12"));
}

#[test]
fn no_color_means_no_colours() {
    let app = two_humans(&[(0, 0), (1, 0), (1, 1), (2, 0), (2, 2)]);
    let plain = draw(
        &App::new(settings(Seat::Human, Seat::Human), Instant::now()).with_color(false),
        80,
        24,
    );
    assert!(
        plain
            .content
            .iter()
            .all(|cell| cell.fg == Color::Reset && cell.bg == Color::Reset)
    );
    let coloured = draw(&app, 80, 24);
    assert!(
        coloured.content.iter().any(|cell| cell.fg != Color::Reset),
        "colour is on by default"
    );
}

/// A seeded game against the perfect AI with explain on, every request answered.
fn explained(moves: &[Square]) -> App {
    let t0 = Instant::now();
    let mut app = App::new(settings(Seat::Human, PERFECT), t0);
    app.update(Action::ToggleExplain, t0);
    let mut now = t0;
    for &mv in moves {
        app.update(Action::Place(mv), now);
        answer_all(&mut app, now);
        now += Duration::from_secs(1);
        app.tick(now);
        answer_all(&mut app, now);
    }
    app
}

#[test]
fn explain_overlay_and_panel() {
    let app = explained(&[Square::new(1, 1), Square::new(0, 0)]);
    for size in [(80, 24), (120, 40)] {
        let buffer = snapshot_timeless("explain_overlay_and_panel", &app, size);
        let screen = text(&buffer);
        assert!(
            screen.contains("minimax")
                && screen.contains("calls")
                && screen.contains("pruning saves"),
            "{screen}"
        );
        // Every empty square shows the score analyze reports for it, and its meaning.
        let overlay = app.overlay().expect("scores are in");
        let board = board_at(size, 3);
        for scored in &overlay.moves {
            let rect = board.cell_rect(scored.mv);
            let lines: Vec<String> = rect
                .rows()
                .map(|row| cell_text(&buffer, row).trim().to_string())
                .filter(|line| !line.is_empty())
                .collect();
            let number = if scored.score > 0 {
                format!("+{}", scored.score)
            } else {
                scored.score.to_string()
            };
            assert_eq!(lines[0], number, "{size:?} {}", scored.mv);
            assert_eq!(lines[1], overlay.outlook_of(*scored).to_string());
            let best = overlay.value() == Some(scored.score);
            assert_eq!(
                any_cell_has(&buffer, rect, Modifier::UNDERLINED),
                best,
                "best moves are marked, others not: {}",
                scored.mv
            );
        }
    }
}

#[test]
fn the_lab_takes_the_place_of_explains_counts() {
    use tictactoe_engine::teach::reference::tree_size;
    let t0 = Instant::now();
    let mut app = App::new(settings(Seat::Human, PERFECT), t0);
    app.update(Action::ToggleLab, t0);
    assert!(
        app.explain_on() && app.lab_on(),
        "L opens explain with the lab"
    );
    answer_all(&mut app, t0);
    let ladder = app.ladder().expect("the ladder is searched");
    assert!(ladder.agrees());
    assert_eq!(ladder.rows.len(), 7);
    let minimax = ladder.rows[0].found.expect("searched").positions;
    assert_eq!(
        minimax,
        tree_size(&Board::new()),
        "the trace's 549,946 calls"
    );
    let screen = text(&draw(&app, 120, 40));
    for shown in [
        "The lab: GeeksforGeeks'",
        "minimax",
        "549,946",
        "+ alpha-beta",
        "20,866 x26.4",
        "+ deepening",
        "compiled",
        "a lookup",
    ] {
        assert!(screen.contains(shown), "{shown}: {screen}");
    }
    assert!(
        !screen.contains("pruning saves"),
        "the costs make way: {screen}"
    );
    // L again: back to the costs, explain still on.
    app.update(Action::ToggleLab, t0);
    assert!(app.explain_on() && !app.lab_on());
    answer_all(&mut app, t0);
    let screen = text(&draw(&app, 120, 40));
    assert!(screen.contains("pruning saves"), "{screen}");
    // Another position: its own ladder.
    app.update(Action::ToggleLab, t0);
    app.update(Action::Place(Square::new(1, 1)), t0);
    answer_all(&mut app, t0);
    assert!(
        app.ladder()
            .is_none_or(|ladder| ladder.board == app.board())
    );
}

#[test]
fn explain_in_a_medium_terminal() {
    let app = explained(&[Square::new(1, 1), Square::new(0, 0)]);
    snapshot_timeless("explain_in_a_medium_terminal", &app, (60, 20));
}

#[test]
fn explain_opens_beside_the_board_without_moving_it() {
    let t0 = Instant::now();
    let mut app = explained(&[Square::new(1, 1), Square::new(0, 0)]);
    for size in [(80, 24), (60, 20), (120, 40), (40, 15), (30, 15)] {
        let on = draw(&app, size.0, size.1);
        app.update(Action::ToggleExplain, t0);
        let off = draw(&app, size.0, size.1);
        app.update(Action::ToggleExplain, t0);
        let board = board_at(size, 3);
        // The grid's frame, the marks, the status line and the tally are where they were.
        let frame = board.area();
        for position in frame.positions() {
            let inside = Board::new()
                .legal_moves()
                .iter()
                .any(|&mv| board.cell_rect(mv).contains(position));
            if !inside
                || app
                    .board()
                    .get(board.cell_at(position.x, position.y).unwrap())
                    .is_some()
            {
                assert_eq!(
                    on[position].symbol(),
                    off[position].symbol(),
                    "{size:?} at {position:?}"
                );
            }
        }
        let rows = |buffer: &Buffer| -> Vec<String> {
            text(buffer)
                .lines()
                .skip(usize::from(frame.bottom()))
                .map(String::from)
                .collect()
        };
        let (rows_on, rows_off) = (rows(&on), rows(&off));
        assert_eq!(
            rows_on[..rows_on.len() - 1],
            rows_off[..rows_off.len() - 1],
            "{size:?}: status and tally stay in view"
        );
    }
}

#[test]
fn explain_at_the_smallest_sizes_is_a_summary_above_the_board() {
    let app = explained(&[Square::new(1, 1)]);
    // The line behind the best score comes first, before any figure.
    for (size, first) in [((40, 15), "Best: a1 X,"), ((30, 15), "Best: a1 X,")] {
        let screen = text(&snapshot_timeless("explain_summary", &app, size)).replace('\u{a0}', " ");
        assert!(screen.contains(first), "{size:?}\n{screen}");
        assert!(
            screen.contains("Your turn: you are X"),
            "{size:?}\n{screen}"
        );
        assert!(screen.contains("X wins 0 · O wins 0 · draws 0"), "{screen}");
    }
}

#[test]
fn a_game_from_a_given_position_says_so_in_the_move_list() {
    let start: Board = "xo./.x./...".parse().expect("a position");
    let t0 = Instant::now();
    let mut app = App::new(settings_from(start, Seat::Human, PERFECT), t0);
    // O (the AI) is to move: it blocks at c3, then X plays a3.
    answer_all(&mut app, t0);
    app.tick(t0 + Duration::from_secs(1));
    app.update(
        Action::Place(Square::new(2, 0)),
        t0 + Duration::from_secs(1),
    );
    for size in [(80, 24), (40, 15)] {
        let screen = text(&snapshot("a_game_from_a_given_position", &app, size));
        let list: Vec<&str> = screen
            .lines()
            .filter_map(|line| line.split('│').nth(1))
            .map(str::trim)
            .filter(|entry| !entry.is_empty())
            .take(3)
            .collect();
        assert_eq!(
            list,
            ["3 given", "4 O c3", "5 X a3"],
            "{size:?}: numbered on from the given marks\n{screen}"
        );
    }
}

#[test]
fn seven_by_seven_at_80x24_and_its_smallest_size() {
    let app = App::new(
        settings_from(seven_by_seven(), Seat::Human, PERFECT),
        Instant::now(),
    );
    // 32x21 is the smallest: the gaps above and below the board go first.
    for size in [(80, 24), (32, 23), (32, 21), (120, 40)] {
        snapshot("seven_by_seven", &app, size);
    }
    assert!(text(&draw(&app, 31, 23)).contains("needs 32x21, now 31x23"));
    let short = text(&draw(&app, 32, 20));
    assert!(
        short.contains("needs 32x21,") && short.contains("now 32x20"),
        "{short}"
    );
}

#[test]
fn while_a_big_board_is_scored_its_squares_say_so() {
    let t0 = Instant::now();
    // Two people, so nothing on screen depends on a search against the clock.
    let mut app = App::new(
        settings_from(seven_by_seven(), Seat::Human, Seat::Human),
        t0,
    );
    app.update(Action::Place(Square::new(3, 3)), t0);
    app.update(Action::Place(Square::new(3, 2)), t0);
    app.update(Action::ToggleExplain, t0);
    assert!(!app.scoring(), "not asked yet");
    app.take_request().expect("the overlay asks for scores");
    assert!(app.scoring());
    for size in [(80, 24), (32, 23)] {
        let buffer = snapshot("seven_by_seven_scoring", &app, size);
        let board = board_at(size, 7);
        for mv in app.board().legal_moves() {
            assert_eq!(cell_text(&buffer, board.cell_rect(mv)).trim(), "…", "{mv}");
        }
    }
}

#[test]
fn any_size_draws_without_a_panic() {
    let t0 = Instant::now();
    for start in [Board::new(), seven_by_seven()] {
        let mut app = App::new(settings_from(start, Seat::Human, PERFECT), t0);
        app.update(Action::ToggleExplain, t0);
        for help in [false, true] {
            if help {
                app.update(Action::ToggleHelp, t0);
            }
            for width in (1..=46).step_by(3) {
                for height in (1..=28).step_by(3) {
                    draw(&app, width, height);
                }
            }
        }
    }
}

/// Two people from `start`, explain on and every request answered.
fn explained_from(start: &str) -> App {
    let t0 = Instant::now();
    let start: Board = start.parse().expect("a position");
    let mut app = App::new(settings_from(start, Seat::Human, Seat::Human), t0);
    app.update(Action::ToggleExplain, t0);
    answer_all(&mut app, t0);
    app
}

/// Moves the cursor to `mv` from wherever it is.
fn cursor_to(app: &mut App, mv: Square) {
    let t0 = Instant::now();
    for _ in 0..3 {
        app.update(Action::Cursor(Direction::Up), t0);
        app.update(Action::Cursor(Direction::Left), t0);
    }
    for _ in 0..mv.row {
        app.update(Action::Cursor(Direction::Down), t0);
    }
    for _ in 0..mv.col {
        app.update(Action::Cursor(Direction::Right), t0);
    }
}

#[test]
fn explain_draws_the_line_under_the_cursor_on_the_board_and_writes_it_in_the_panel() {
    // X has b2 and c1, O has a1... the articles' own position after two moves each way.
    let mut app = explained_from("x../.o./...");
    cursor_to(&mut app, Square::new(0, 1));
    let line = "b1 X, c1 O, a3 X, a2 O, c2 X, b3 O, c3 X: draw";
    for size in [(80, 24), (120, 40), (60, 20), (40, 15)] {
        let buffer = snapshot_timeless("explain_draws_the_line_under_the_cursor", &app, size);
        let screen = text(&buffer);
        let board = board_at(size, 3);
        // Every move of the line carries its number on its square, where
        // the squares are big enough to keep their scores beside it.
        let moves = [(0, 1), (0, 2), (2, 0), (1, 0), (1, 2), (2, 1), (2, 2)];
        if !board.cell.draws_marks() {
            // Small squares keep their scores: the line is in the panel.
            let overlay = app.overlay().expect("scores are in");
            for scored in &overlay.moves {
                let square = cell_text(&buffer, board.cell_rect(scored.mv));
                assert!(
                    square.contains(&tictactoe_game::text::signed(scored.score)),
                    "{size:?}: {} keeps its score: {square:?}",
                    scored.mv
                );
            }
        }
        for (i, &(row, col)) in moves
            .iter()
            .enumerate()
            .filter(|_| board.cell.draws_marks())
        {
            let player = if i % 2 == 0 { "X" } else { "O" };
            let square = cell_text(&buffer, board.cell_rect(Square::new(row, col)));
            assert!(
                square.contains(&format!("{}{player}", i + 1)),
                "{size:?}: move {} of the line at {row},{col}: {square:?}",
                i + 1
            );
        }
        if let Some(panel) = panel_text(&buffer, size) {
            assert!(
                panel.contains(line),
                "{size:?}: the line in the panel\n{screen}"
            );
        }
    }
    // Moving the cursor changes the line.
    cursor_to(&mut app, Square::new(2, 2));
    let screen = text(&draw(&app, 80, 24)).replace('\u{a0}', " ");
    assert!(screen.contains("Line: c3 X,"), "{screen}");
    assert!(!screen.contains("Line: b1 X,"), "{screen}");
}

#[test]
fn explain_on_the_empty_board_with_two_people_speaks_of_no_ai() {
    let app = explained_from(".........");
    for size in [(80, 24), (120, 40)] {
        let screen = text(&snapshot_timeless("explain_on_the_empty_board", &app, size));
        assert!(!screen.contains("AI"), "{size:?}\n{screen}");
        // The calls as trace and trace --alpha-beta count them, call 1 included.
        for figure in ["549,946", "20,866", "232", "a lookup", "96.2 %"] {
            assert!(screen.contains(figure), "{size:?}: {figure}\n{screen}");
        }
    }
    // 120x40 has room for every saving: none of them rounds to 100 %.
    let screen = text(&draw(&app, 120, 40));
    assert!(screen.contains("99.96 %"), "{screen}");
    assert!(!screen.contains("100.0 %"), "{screen}");
}

/// The freeCodeCamp position, two people, and the tree opened on it.
fn tree_of_the_article() -> App {
    let t0 = Instant::now();
    let mut app = support::freecodecamp_app(t0);
    app.update(Action::ToggleTree, t0);
    answer_all(&mut app, t0);
    app
}

#[test]
fn the_tree_of_the_article_board() {
    let t0 = Instant::now();
    let mut app = tree_of_the_article();
    // Down to a3 X, opened into O's replies.
    for action in [
        Action::Cursor(Direction::Down),
        Action::Cursor(Direction::Down),
        Action::Cursor(Direction::Down),
        Action::Confirm,
    ] {
        app.update(action, t0);
    }
    answer_all(&mut app, t0);
    for size in [(80, 24), (60, 20), (40, 15)] {
        let buffer = snapshot("the_tree_of_the_article_board", &app, size);
        let screen = text(&buffer);
        // Each node with its call number in the trace: #2, #5, #6, #7, #9
        // are freeCodeCamp's FC2, FC5, FC6, FC7 and FC9.
        for row in [
            "o.x/x.x/.oo #1  +10 X wins in 1 · X max · 8 below",
            "a3 X #6  -9 O wins in 1 · O min · 3 below",
            "b1 O #7  +8 X wins in 1 · X max · 1 below",
            "b2 O #9  -9 O won",
        ] {
            assert!(
                screen.contains(row) || size.0 < 60,
                "{size:?}: {row}\n{screen}"
            );
        }
        assert!(
            screen.contains("◀") || size.0 < 60,
            "{size:?}: the choice is marked\n{screen}"
        );
    }
    // The selected row is in reverse video.
    let buffer = draw(&app, 80, 24);
    let row = (0..24)
        .find(|&y| {
            text(&buffer)
                .lines()
                .nth(y)
                .is_some_and(|l| l.contains("a3 X #6  -9"))
        })
        .expect("a3 is shown") as u16;
    assert!(buffer[(4, row)].modifier.contains(Modifier::REVERSED));
}

#[test]
fn the_walkthrough_steps_through_the_article_calls() {
    let t0 = Instant::now();
    let mut app = support::freecodecamp_app(t0);
    // Call 1, then five more key presses: call 6 (a3 X, O to move).
    app.update(Action::Walkthrough, t0);
    for _ in 0..5 {
        app.update(Action::Trace(TraceMove::Next), t0);
    }
    for size in [(80, 24), (60, 20), (40, 15)] {
        let screen = text(&snapshot("the_walkthrough_at_call_6", &app, size));
        assert!(
            screen.contains("Minimax call 6: O to move, minimizes"),
            "{size:?}\n{screen}"
        );
    }
    let screen = text(&draw(&app, 80, 24));
    for expected in [
        "call 5 returned +10: X won",
        "1         X max  >=+10",
        "6  a3 X   O min",
    ] {
        assert!(screen.contains(expected), "{expected}\n{screen}");
    }
    // The board shows call 6's position: X on a3, numbered as the first move of the path.
    let board = board_at((80, 24), 3);
    let a3 = cell_text(&buffer_of(&app), board.cell_rect(Square::new(2, 0)));
    assert!(a3.starts_with('1') && a3.contains('╳'), "{a3:?}");
}

#[test]
fn the_walkthrough_in_alpha_beta_mode_shows_windows_bounds_and_cuts() {
    let t0 = Instant::now();
    let mut app = support::freecodecamp_app(t0);
    app.update(Action::Walkthrough, t0);
    app.update(Action::Trace(TraceMove::AlphaBeta), t0);
    // Calls 1 to 7, then the rest of call 7 and of call 6: the cut.
    for _ in 0..6 {
        app.update(Action::Trace(TraceMove::Next), t0);
    }
    app.update(Action::Trace(TraceMove::Finish), t0);
    app.update(Action::Trace(TraceMove::Finish), t0);
    for size in [(80, 24), (60, 20), (40, 15)] {
        let screen = text(&snapshot("the_walkthrough_alpha_beta_cut", &app, size));
        assert!(
            screen.contains("Call 6 returned <= +8"),
            "{size:?}: the status line says the bound\n{screen}"
        );
    }
    let said: Vec<String> = app
        .walkthrough()
        .expect("open")
        .items(40, 26)
        .into_iter()
        .map(|(_, said)| format!("{said:?}"))
        .collect();
    for expected in [
        "call 6 returned <= +8",
        "call 6 prunes b2 O: +8 <= alpha +10: X has better elsewhere",
        "From o.x/x.x/.oo, alpha-beta:",
    ] {
        assert!(
            said.iter().any(|s| s.contains(expected)),
            "{expected}\n{said:#?}"
        );
    }
}

/// The words in the panel beside the board, its rows joined by spaces
/// (`None` when the panel is a summary above the board).
fn panel_text(buffer: &Buffer, size: (u16, u16)) -> Option<String> {
    let area = Rect::new(0, 0, size.0, size.1);
    let panels = Panels {
        moves: true,
        explain: true,
    };
    let ScreenLayout::Game {
        explain: Some(ExplainPlace::Panel(rect)),
        ..
    } = layout(area, 3, panels)
    else {
        return None;
    };
    let inner = Rect::new(rect.x + 2, rect.y + 1, rect.width - 4, rect.height - 2);
    let rows: Vec<String> = inner
        .rows()
        .map(|row| cell_text(buffer, row).trim().replace('\u{a0}', " "))
        .collect();
    Some(rows.join(" "))
}

fn buffer_of(app: &App) -> Buffer {
    draw(app, 80, 24)
}

#[test]
fn the_explain_legend_is_shown_whole_or_not_at_all() {
    let mut app = explained_from(support::FREECODECAMP);
    // Its start and its end, each short enough never to be wrapped apart.
    let first_half = "depth 0 is the";
    let second_half = "a draw 0.";
    let mut whole = 0;
    for size in [(80, 24), (60, 20), (120, 40), (100, 30)] {
        for mv in Board::new().legal_moves() {
            cursor_to(&mut app, mv);
            let screen = text(&draw(&app, size.0, size.1));
            assert_eq!(
                screen.contains(first_half),
                screen.contains(second_half),
                "{size:?}, cursor on {mv}:\n{screen}"
            );
            whole += usize::from(screen.contains(first_half));
        }
    }
    assert!(whole > 0, "the legend is shown where there is room");
}

/// The status line at widths where it does not fit whole loses its last
/// clause or words, never half a word.
#[test]
fn a_status_line_too_long_for_the_screen_loses_whole_clauses() {
    let t0 = Instant::now();
    let mut app = App::new(settings(PERFECT, PERFECT), t0);
    let request = app.take_request().expect("X is asked for a move");
    app.receive(Worker::default().answer(&request), t0);
    app.update(Action::TogglePause, t0);
    let status = app.status_line();
    assert_eq!(status, "Paused, X to move: space resumes, . steps");
    for (width, shown) in [
        (80, status.as_str()),
        (40, "Paused, X to move: space resumes"),
        (30, "Paused, X to move"),
    ] {
        let screen = text(&draw(&app, width, 15));
        let line = screen
            .lines()
            .find(|line| line.contains("Paused"))
            .unwrap_or_else(|| panic!("{width}: no status\n{screen}"));
        assert_eq!(line.trim(), shown, "at {width} columns");
    }
}

/// Deep in a 4x4 walkthrough the panel cannot list every open call: it keeps
/// call 1 and the current call, which the status line names.
#[test]
fn a_deep_walkthrough_keeps_the_current_call_in_the_panel() {
    let t0 = Instant::now();
    let empty = Board::empty(4, 4).expect("4x4");
    let mut app = App::new(settings_from(empty, Seat::Human, Seat::Human), t0);
    app.update(Action::Walkthrough, t0);
    for _ in 0..20 {
        app.update(Action::Trace(TraceMove::Next), t0);
    }
    let walkthrough = app.walkthrough().expect("the walkthrough is open");
    assert!(walkthrough.status().starts_with("Minimax call 21:"));
    let last = *walkthrough.path().last().expect("call 21 is a move deep");
    let mover = walkthrough.board().to_move().other();
    let current = format!("21  {last} {mover}");
    for size in [(80, 24), (120, 40)] {
        let screen = text(&draw(&app, size.0, size.1));
        assert!(screen.contains(&current), "{size:?}: {current}\n{screen}");
        assert!(screen.contains("    1         X max"), "{size:?}\n{screen}");
    }
}

/// The key bar offers undo only with a turn to take back, and redo once
/// one has been taken back, at 120x40 as at 80x24 (where it once had no
/// room for redo).
#[test]
fn the_key_bar_offers_undo_and_redo_only_when_they_act() {
    let t0 = Instant::now();
    for (width, height) in [(120, 40), (80, 24)] {
        let keys = |app: &App| {
            let screen = text(&draw(app, width, height));
            screen.lines().last().unwrap_or_default().trim().to_string()
        };
        let mut app = two_humans(&[]);
        assert!(!keys(&app).contains("undo"), "{}", keys(&app));
        app.update(Action::Place(Square::new(1, 1)), t0);
        assert!(keys(&app).contains("u undo"), "{}", keys(&app));
        assert!(!keys(&app).contains("redo"), "{}", keys(&app));
        app.update(Action::Undo, t0);
        assert_eq!(app.board(), Board::new());
        assert!(keys(&app).contains("U redo"), "{}", keys(&app));
        assert!(!keys(&app).contains("u undo"), "{}", keys(&app));
        app.update(Action::Redo, t0);
        assert!(keys(&app).contains("u undo"), "{}", keys(&app));
        // Two moves, one taken back: both offered.
        app.update(Action::Place(Square::new(0, 0)), t0);
        app.update(Action::Undo, t0);
        let both = keys(&app);
        assert!(both.contains("u undo") && both.contains("U redo"), "{both}");
    }
}

#[test]
fn the_quiz_on_the_article_board() {
    let t0 = Instant::now();
    let mut app = support::freecodecamp_app(t0);
    app.update(Action::Quiz, t0);
    for typed in "+10".chars() {
        app.update(Action::Type(typed), t0);
    }
    let screen = text(&snapshot("the_quiz_typing", &app, (80, 24)));
    for expected in [
        "Question 1 of 4: value",
        "Answer: +10_",
        "Question 1 of 4: +10_",
    ] {
        assert!(screen.contains(expected), "{expected}\n{screen}");
    }
    app.update(Action::Confirm, t0);
    answer_all(&mut app, t0);
    for size in [(80, 24), (60, 20), (40, 15)] {
        let screen = text(&snapshot("the_quiz_answered", &app, size));
        assert!(
            screen.contains("Question 1 of 4: right"),
            "{size:?}\n{screen}"
        );
    }
    let screen = text(&draw(&app, 80, 24));
    assert!(
        screen.contains("+10 = 10 -"),
        "the reason beside the number\n{screen}"
    );
    // No scores, digits or cursor on the board to give answers away.
    let board = board_at((80, 24), 3);
    let b2 = cell_text(&buffer_of(&app), board.cell_rect(Square::new(1, 1)));
    assert!(b2.trim().is_empty(), "{b2:?}");
}

#[test]
fn eight_by_eight_with_five_in_a_row_plays_at_once_and_says_its_play_is_unproven() {
    let t0 = Instant::now();
    let start = Board::empty(8, 5).expect("8x8 with five in a row");
    let mut app = App::new(settings_from(start, Seat::Human, PERFECT), t0);
    app.update(Action::ToggleExplain, t0);
    app.update(Action::Place(Square::new(4, 4)), t0);
    // The perfect AI gives up the book it cannot prove and answers by
    // search: a move, with nothing proven.
    let mut now = t0;
    answer_all(&mut app, now);
    now += support::AI_DELAY;
    app.tick(now);
    answer_all(&mut app, now);
    assert_eq!(app.board().move_count(), 2, "the AI answered");
    let screen = text(&draw(&app, 120, 40));
    assert!(screen.contains("Tic-tac-toe 8x8, 5 in a row"), "{screen}");
    assert!(screen.contains("not proven"), "{screen}");
    // 80x24 holds it, without the gaps above and below the board.
    let screen = text(&draw(&app, 80, 24));
    assert!(screen.contains("Tic-tac-toe 8x8, 5 in a row"), "{screen}");
    assert!(screen.contains("8 │"), "the board's last row\n{screen}");
    // Where the board cannot fit, the screen says what it needs, as for any
    // board on a terminal too small.
    for (width, height) in [(40, 15), (60, 20)] {
        assert_eq!(
            layout(
                Rect::new(0, 0, width, height),
                8,
                Panels {
                    moves: true,
                    explain: false
                }
            ),
            ScreenLayout::TooSmall {
                width: 36,
                height: 23
            }
        );
        let screen = text(&draw(&app, width, height));
        assert!(
            screen.contains("Terminal too small: needs 36x23"),
            "{width}x{height}\n{screen}"
        );
    }
    assert!(matches!(
        layout(
            Rect::new(0, 0, 36, 23),
            8,
            Panels {
                moves: false,
                explain: false
            }
        ),
        ScreenLayout::Game { .. }
    ));
}

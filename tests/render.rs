//! What the screen shows, drawn on ratatui's TestBackend. Text goes to insta
//! snapshots; styles that carry meaning are checked cell by cell.

use std::time::{Duration, Instant};

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier};
use tictactoe::engine::{Board, Level, Limits, Move};
use tictactoe::game::{Seat, Seats};
use tictactoe::screen::app::{Action, App, Direction};
use tictactoe::screen::layout::{Panels, ScreenLayout, layout};
use tictactoe::screen::worker::Worker;
use tictactoe::session::Settings;

fn settings(x: Seat, o: Seat) -> Settings {
    Settings {
        seats: Seats { x, o },
        start: Board::new(),
        ai_delay: Duration::from_millis(300),
        watch_delay: Duration::from_millis(500),
        limits: Limits::Think(Duration::from_millis(100)),
        seed: Some(7),
    }
}

fn draw(app: &App, width: u16, height: u16) -> Buffer {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("a test terminal");
    terminal
        .draw(|frame| frame.render_widget(app, frame.area()))
        .expect("drawing succeeds");
    terminal.backend().buffer().clone()
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

fn two_humans(moves: &[(u8, u8)]) -> App {
    let now = Instant::now();
    let mut app = App::new(settings(Seat::Human, Seat::Human), now);
    for &(row, col) in moves {
        app.update(Action::Place(Move::new(row, col)), now);
    }
    app
}

fn cell_rect(area: Rect, mv: Move) -> Rect {
    match layout(
        area,
        3,
        Panels {
            moves: true,
            explain: false,
        },
    ) {
        ScreenLayout::Game { board, .. } => board.cell_rect(mv),
        ScreenLayout::TooSmall { .. } => panic!("{area:?} is big enough"),
    }
}

fn all_cells_have(buffer: &Buffer, rect: Rect, modifier: Modifier) -> bool {
    rect.positions()
        .all(|p| buffer[p].modifier.contains(modifier))
}

#[test]
fn empty_board() {
    let app = App::new(
        settings(Seat::Human, Seat::Ai(Level::Perfect)),
        Instant::now(),
    );
    insta::assert_snapshot!(text(&draw(&app, 80, 24)));
}

#[test]
fn mid_game_with_the_cursor() {
    let t0 = Instant::now();
    let mut app = App::new(settings(Seat::Human, Seat::Ai(Level::Perfect)), t0);
    app.update(Action::Place(Move::new(1, 1)), t0);
    let request = app.take_request().expect("the AI answers");
    app.receive(Worker::default().answer(&request), t0);
    app.tick(t0 + Duration::from_secs(1));
    app.update(Action::Cursor(Direction::Up), t0);
    app.update(Action::Cursor(Direction::Right), t0);
    let buffer = draw(&app, 80, 24);
    insta::assert_snapshot!(text(&buffer));
    let area = Rect::new(0, 0, 80, 24);
    assert!(
        all_cells_have(
            &buffer,
            cell_rect(area, Move::new(0, 2)),
            Modifier::REVERSED
        ),
        "the cursor square"
    );
    assert!(!all_cells_have(
        &buffer,
        cell_rect(area, Move::new(2, 2)),
        Modifier::REVERSED
    ));
    // The last move's mark is underlined.
    let last = app.game().last_move().expect("the AI moved");
    let rect = cell_rect(area, last);
    assert!(
        rect.positions()
            .any(|p| buffer[p].modifier.contains(Modifier::UNDERLINED))
    );
}

#[test]
fn x_wins_with_the_line_highlighted() {
    let app = two_humans(&[(0, 0), (1, 0), (1, 1), (2, 0), (2, 2)]);
    let buffer = draw(&app, 80, 24);
    insta::assert_snapshot!(text(&buffer));
    let area = Rect::new(0, 0, 80, 24);
    for mv in [Move::new(0, 0), Move::new(1, 1), Move::new(2, 2)] {
        let rect = cell_rect(area, mv);
        assert!(
            all_cells_have(&buffer, rect, Modifier::BOLD | Modifier::REVERSED),
            "winning square {mv}"
        );
    }
    for mv in [Move::new(1, 0), Move::new(0, 2), Move::new(2, 1)] {
        let rect = cell_rect(area, mv);
        assert!(
            !rect
                .positions()
                .any(|p| buffer[p].modifier.contains(Modifier::REVERSED)),
            "square {mv}"
        );
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
    let mut app = App::new(
        settings(Seat::Human, Seat::Ai(Level::Perfect)),
        Instant::now(),
    );
    app.update(Action::ToggleHelp, Instant::now());
    insta::assert_snapshot!(text(&draw(&app, 80, 24)));
}

#[test]
fn watch_mode_footer_and_help() {
    let perfect = Seat::Ai(Level::Perfect);
    let mut app = App::new(settings(perfect, perfect), Instant::now());
    app.update(Action::ToggleHelp, Instant::now());
    insta::assert_snapshot!(text(&draw(&app, 80, 24)));
}

#[test]
fn a_small_terminal_gets_small_squares() {
    let app = two_humans(&[(1, 1), (0, 0)]);
    insta::assert_snapshot!(text(&draw(&app, 40, 16)));
}

#[test]
fn a_terminal_too_small() {
    let app = two_humans(&[]);
    let screen = text(&draw(&app, 24, 10));
    insta::assert_snapshot!(screen);
    assert!(screen.contains("Terminal too small: need") && screen.contains("30 x 15"));
    // Exactly the minimum is enough.
    assert!(!text(&draw(&app, 30, 15)).contains("too small"));
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
fn explained(moves: &[Move]) -> App {
    let t0 = Instant::now();
    let mut app = App::new(settings(Seat::Human, Seat::Ai(Level::Perfect)), t0);
    app.update(Action::ToggleExplain, t0);
    let mut now = t0;
    for &mv in moves {
        app.update(Action::Place(mv), now);
        while let Some(request) = app.take_request() {
            app.receive(Worker::default().answer(&request), now);
        }
        now += Duration::from_secs(1);
        app.tick(now);
        while let Some(request) = app.take_request() {
            app.receive(Worker::default().answer(&request), now);
        }
    }
    app
}

#[test]
fn explain_overlay_and_panel() {
    let app = explained(&[Move::new(1, 1), Move::new(0, 0)]);
    let buffer = draw(&app, 80, 24);
    let screen = text(&buffer);
    assert_snapshot_timeless("explain_overlay_and_panel", &screen);
    assert!(
        screen.contains("plain minimax") && screen.contains("pruning saves"),
        "{screen}"
    );
    // Every empty square shows the score analyze reports for it, and its meaning.
    let overlay = app.overlay().expect("scores are in");
    let area = Rect::new(0, 0, 80, 24);
    for scored in &overlay.moves {
        let rect = cell_rect_with_panels(area, scored.mv, true);
        let first_line: String = (rect.x..rect.x + rect.width)
            .map(|x| buffer[(x, rect.y)].symbol())
            .collect();
        let number = if scored.score > 0 {
            format!("+{}", scored.score)
        } else {
            scored.score.to_string()
        };
        assert_eq!(first_line.trim(), number, "{}", scored.mv);
        let best = overlay.value() == Some(scored.score);
        let underlined = rect
            .positions()
            .any(|p| buffer[p].modifier.contains(Modifier::UNDERLINED));
        assert_eq!(
            underlined, best,
            "best moves are marked, others not: {}",
            scored.mv
        );
    }
}

#[test]
fn explain_in_a_medium_terminal() {
    let app = explained(&[Move::new(1, 1), Move::new(0, 0)]);
    assert_snapshot_timeless("explain_in_a_medium_terminal", &text(&draw(&app, 60, 20)));
}

#[test]
fn explain_panel_is_a_popup_when_space_is_short() {
    let app = explained(&[Move::new(1, 1)]);
    let screen = text(&draw(&app, 40, 16));
    assert_snapshot_timeless("explain_panel_is_a_popup_when_space_is_short", &screen);
    assert!(screen.contains("Explain") && screen.contains("positions"));
}

/// A snapshot with measured times replaced, since they differ from run to run.
fn assert_snapshot_timeless(name: &str, screen: &str) {
    insta::with_settings!({filters => vec![(r"\d+\.\d{3} ms", "[time]")]}, {
        insta::assert_snapshot!(name, screen);
    });
}

fn cell_rect_with_panels(area: Rect, mv: Move, explain: bool) -> Rect {
    match layout(
        area,
        3,
        Panels {
            moves: true,
            explain,
        },
    ) {
        ScreenLayout::Game { board, .. } => board.cell_rect(mv),
        ScreenLayout::TooSmall { .. } => panic!("{area:?} is big enough"),
    }
}

//! The game screen's model, driven by actions and a hand-held clock: no terminal.

use std::time::{Duration, Instant};

use crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::Rect;
use tictactoe_engine::{Board, Level, Limits, Player, Square, Status};
use tictactoe_game::action::{Action, Direction, TraceMove};
use tictactoe_game::game::Seat;
use tictactoe_game::settings::Settings;
use tictactoe_screen::app::App;
use tictactoe_screen::input::action_for;
use tictactoe_screen::layout::{CellSize, ExplainPlace, Panels, ScreenLayout, layout, layout_for};
use tictactoe_screen::worker::Worker;

use crate::support;

use support::{AI_DELAY, PERFECT, WATCH_DELAY, answer_all, draw, settings};

/// Answers the AI's request at once, as the worker thread would.
fn think(app: &mut App, now: Instant) -> bool {
    match app.take_request() {
        Some(request) => {
            app.receive(Worker::default().answer(&request), now);
            true
        }
        None => false,
    }
}

#[test]
fn human_move_then_the_ai_answers_after_its_pause() {
    let t0 = Instant::now();
    let mut app = App::new(settings(Seat::Human, PERFECT), t0);
    assert!(
        app.take_request().is_none(),
        "X is human: nothing to think about"
    );
    assert_eq!(app.status_line(), "Your turn: you are X");

    app.update(Action::Place(Square::new(1, 1)), t0);
    assert_eq!(
        app.board().get(Square::new(1, 1)),
        Some(Player::X),
        "the human's mark shows at once"
    );
    assert_eq!(app.status_line(), "AI is thinking…");
    assert!(think(&mut app, t0 + Duration::from_millis(1)));
    assert_eq!(
        app.board().move_count(),
        1,
        "the AI waits for its visible pause"
    );
    assert_eq!(
        app.status_line(),
        "AI moves next…",
        "answered: no longer thinking"
    );
    assert_eq!(app.wake_at(), Some(t0 + AI_DELAY));

    app.tick(t0 + AI_DELAY);
    assert_eq!(app.board().move_count(), 2);
    assert_eq!(app.board().to_move(), Player::X);
    assert_eq!(app.status_line(), "Your turn: you are X");
    assert!(
        app.report()
            .is_some_and(|r| r.player == Player::O && r.decision.analysis.is_some())
    );
    assert_eq!(
        app.wake_at(),
        None,
        "nothing scheduled while waiting for the human"
    );
}

#[test]
fn playing_o_the_ai_opens() {
    let t0 = Instant::now();
    let mut app = App::new(settings(PERFECT, Seat::Human), t0);
    assert_eq!(app.status_line(), "AI is thinking…");
    assert!(think(&mut app, t0));
    app.tick(t0 + AI_DELAY);
    assert_eq!(app.board().move_count(), 1);
    assert_eq!(app.status_line(), "Your turn: you are O");
}

#[test]
fn refused_input_gets_a_brief_message_and_nothing_else() {
    let t0 = Instant::now();
    let mut app = App::new(settings(Seat::Human, PERFECT), t0);
    app.update(Action::Place(Square::new(0, 0)), t0);
    app.update(Action::Place(Square::new(2, 2)), t0);
    assert_eq!(app.status_line(), "Not your turn: the AI is thinking");
    assert_eq!(app.board().move_count(), 1);

    think(&mut app, t0);
    app.tick(t0 + AI_DELAY);
    let taken = Square::new(0, 0);
    let before = app.board();
    app.update(Action::Place(taken), t0 + AI_DELAY);
    assert_eq!(app.status_line(), "That square is taken");
    assert_eq!(app.board(), before);
    // The message goes away by itself.
    let wake = app.wake_at().expect("the message is scheduled to clear");
    app.tick(wake);
    assert_eq!(app.status_line(), "Your turn: you are X");
}

#[test]
fn not_your_turn_goes_once_the_ai_has_moved() {
    let t0 = Instant::now();
    let mut app = App::new(settings(Seat::Human, PERFECT), t0);
    app.update(Action::Place(Square::new(0, 0)), t0);
    app.update(Action::Place(Square::new(2, 2)), t0);
    assert_eq!(app.status_line(), "Not your turn: the AI is thinking");
    think(&mut app, t0);
    app.tick(t0 + AI_DELAY);
    assert_eq!(app.board().move_count(), 2, "the AI moved");
    assert_eq!(app.status_line(), "Your turn: you are X");
}

#[test]
fn quitting_works_while_the_ai_is_thinking() {
    let t0 = Instant::now();
    let mut app = App::new(settings(Seat::Human, PERFECT), t0);
    app.update(Action::Place(Square::new(1, 1)), t0);
    let _outstanding = app.take_request().expect("the AI was asked");
    assert!(app.is_waiting());
    app.update(Action::Quit, t0);
    assert!(app.should_quit());
}

/// Two people at one keyboard: every move is scripted.
fn play_out(app: &mut App, moves: &[(u8, u8)], now: Instant) {
    for &(row, col) in moves {
        app.update(Action::Place(Square::new(row, col)), now);
    }
}

#[test]
fn a_finished_game_stays_until_n_and_is_counted_once() {
    let t0 = Instant::now();
    let mut app = App::new(settings(Seat::Human, Seat::Human), t0);
    play_out(&mut app, &[(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)], t0);
    assert_eq!(app.board().status(), Status::Won(Player::X));
    assert_eq!(app.status_line(), "X wins");
    assert_eq!(app.tally().x_wins, 1);

    app.update(Action::Confirm, t0);
    app.update(Action::Cursor(Direction::Down), t0);
    assert_eq!(app.status_line(), "The game is over: press n for a new one");
    assert_eq!(
        app.board().status(),
        Status::Won(Player::X),
        "other keys do not start a game"
    );
    assert_eq!(app.tally().games(), 1);

    app.update(Action::NewGame, t0);
    assert_eq!(app.board(), Board::new());
    assert_eq!(app.tally().x_wins, 1, "the tally survives a new game");
    play_out(
        &mut app,
        &[
            (0, 0),
            (0, 1),
            (0, 2),
            (1, 1),
            (1, 0),
            (1, 2),
            (2, 1),
            (2, 0),
            (2, 2),
        ],
        t0,
    );
    assert_eq!(app.status_line(), "Draw");
    assert_eq!((app.tally().x_wins, app.tally().draws), (1, 1));
}

#[test]
fn losing_and_winning_are_said_from_the_humans_side() {
    let t0 = Instant::now();
    // O, the lone human, always takes the first free square; the seeded perfect X wins.
    let mut app = App::new(settings(PERFECT, Seat::Human), t0);
    let mut now = t0;
    while !app.board().status().is_over() {
        if think(&mut app, now) {
            now += AI_DELAY;
            app.tick(now);
        } else {
            let mv = app.board().legal_moves()[0];
            app.update(Action::Place(mv), now);
        }
    }
    assert_eq!(app.status_line(), "X wins: you lose");

    // From a position where the human, X, wins on the move.
    let mut start = settings(Seat::Human, PERFECT);
    start.start = "xx./oo./...".parse().unwrap();
    let mut app = App::new(start, t0);
    app.update(Action::Place(Square::new(0, 2)), t0);
    assert_eq!(app.status_line(), "X wins: you win!");
}

#[test]
fn a_reply_for_an_abandoned_game_is_ignored() {
    let t0 = Instant::now();
    let mut app = App::new(settings(Seat::Human, PERFECT), t0);
    app.update(Action::Place(Square::new(1, 1)), t0);
    let stale = Worker::default().answer(&app.take_request().expect("asked"));
    app.update(Action::NewGame, t0);
    app.receive(stale, t0 + AI_DELAY);
    app.tick(t0 + AI_DELAY * 2);
    assert_eq!(app.board(), Board::new());
}

#[test]
fn the_cursor_moves_and_stops_at_the_edges() {
    let t0 = Instant::now();
    let mut app = App::new(settings(Seat::Human, PERFECT), t0);
    assert_eq!(app.cursor(), Square::new(1, 1));
    for _ in 0..5 {
        app.update(Action::Cursor(Direction::Up), t0);
        app.update(Action::Cursor(Direction::Left), t0);
    }
    assert_eq!(app.cursor(), Square::new(0, 0));
    app.update(Action::Cursor(Direction::Right), t0);
    app.update(Action::Confirm, t0);
    assert_eq!(app.board().get(Square::new(0, 1)), Some(Player::X));
    for _ in 0..5 {
        app.update(Action::Cursor(Direction::Down), t0);
        app.update(Action::Cursor(Direction::Right), t0);
    }
    assert_eq!(app.cursor(), Square::new(2, 2));
}

#[test]
fn help_opens_and_any_key_closes_it() {
    let t0 = Instant::now();
    let mut app = App::new(settings(Seat::Human, PERFECT), t0);
    app.update(Action::ToggleHelp, t0);
    assert!(app.help_open());
    app.update(Action::Place(Square::new(0, 0)), t0);
    assert!(!app.help_open());
    assert_eq!(
        app.board().move_count(),
        0,
        "the key that closed the help did nothing else"
    );
    app.update(Action::ToggleHelp, t0);
    app.update(Action::Quit, t0);
    assert!(app.should_quit());
}

#[test]
fn watch_mode_paces_pauses_and_steps() {
    let t0 = Instant::now();
    let mut app = App::new(settings(PERFECT, PERFECT), t0);
    assert!(app.is_watch());
    assert!(think(&mut app, t0));
    app.tick(t0 + WATCH_DELAY - Duration::from_millis(1));
    assert_eq!(app.board().move_count(), 0);
    app.tick(t0 + WATCH_DELAY);
    assert_eq!(app.board().move_count(), 1);

    let t1 = t0 + WATCH_DELAY;
    app.update(Action::TogglePause, t1);
    assert!(app.paused());
    think(&mut app, t1);
    app.tick(t1 + WATCH_DELAY * 10);
    assert_eq!(app.board().move_count(), 1, "paused: nothing moves");
    assert_eq!(app.wake_at(), None);
    app.update(Action::Step, t1);
    app.tick(t1);
    assert_eq!(app.board().move_count(), 2, "a step plays one move at once");
    think(&mut app, t1);
    app.tick(t1 + WATCH_DELAY * 10);
    assert_eq!(app.board().move_count(), 2, "and stays paused");

    app.update(Action::Faster, t1);
    assert_eq!(app.watch_delay(), WATCH_DELAY / 2);
    for _ in 0..10 {
        app.update(Action::Slower, t1);
    }
    assert_eq!(
        app.watch_delay(),
        Duration::from_secs(5),
        "the slowest pace"
    );

    app.update(Action::TogglePause, t1);
    let mut now = t1;
    while !app.board().status().is_over() {
        think(&mut app, now);
        now += Duration::from_secs(5);
        app.tick(now);
    }
    assert_eq!(
        app.board().status(),
        Status::Draw,
        "perfect against perfect draws"
    );
    assert_eq!(app.tally().draws, 1);
    assert!(app.take_request().is_none(), "a finished game waits for n");
}

fn key(code: KeyCode) -> Event {
    Event::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

#[test]
fn keys_map_to_actions_and_only_presses_count() {
    let t0 = Instant::now();
    let app = App::new(settings(Seat::Human, PERFECT), t0);
    let area = Rect::new(0, 0, 80, 24);
    let act = |event: Event| action_for(&event, &app, area);
    assert_eq!(
        act(key(KeyCode::Char('5'))),
        Some(Action::Place(Square::new(1, 1)))
    );
    assert_eq!(
        act(key(KeyCode::Char('1'))),
        Some(Action::Place(Square::new(0, 0)))
    );
    assert_eq!(
        act(key(KeyCode::Char('9'))),
        Some(Action::Place(Square::new(2, 2)))
    );
    assert_eq!(act(key(KeyCode::Char('0'))), Some(Action::Unbound));
    for (code, direction) in [
        (KeyCode::Up, Direction::Up),
        (KeyCode::Char('k'), Direction::Up),
        (KeyCode::Char('w'), Direction::Up),
        (KeyCode::Down, Direction::Down),
        (KeyCode::Char('j'), Direction::Down),
        (KeyCode::Char('s'), Direction::Down),
        (KeyCode::Left, Direction::Left),
        (KeyCode::Char('h'), Direction::Left),
        (KeyCode::Char('a'), Direction::Left),
        (KeyCode::Right, Direction::Right),
        (KeyCode::Char('l'), Direction::Right),
        (KeyCode::Char('d'), Direction::Right),
    ] {
        assert_eq!(act(key(code)), Some(Action::Cursor(direction)), "{code:?}");
    }
    assert_eq!(act(key(KeyCode::Enter)), Some(Action::Confirm));
    assert_eq!(act(key(KeyCode::Char(' '))), Some(Action::Confirm));
    assert_eq!(act(key(KeyCode::Char('n'))), Some(Action::NewGame));
    assert_eq!(act(key(KeyCode::Char('?'))), Some(Action::ToggleHelp));
    assert_eq!(act(key(KeyCode::Char('q'))), Some(Action::Quit));
    assert_eq!(act(key(KeyCode::Esc)), Some(Action::Back));
    assert_eq!(
        act(Event::Key(KeyEvent::new(
            KeyCode::Char('c'),
            KeyModifiers::CONTROL
        ))),
        Some(Action::Quit)
    );

    let mut release = KeyEvent::new(KeyCode::Char('5'), KeyModifiers::NONE);
    release.kind = KeyEventKind::Release;
    assert_eq!(act(Event::Key(release)), None);
    release.kind = KeyEventKind::Repeat;
    assert_eq!(act(Event::Key(release)), None);
}

#[test]
fn with_help_open_every_key_closes_it_and_q_still_quits() {
    let t0 = Instant::now();
    let area = Rect::new(0, 0, 80, 24);
    let click = Event::Mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: 0,
        row: 0,
        modifiers: KeyModifiers::NONE,
    });
    for event in [
        key(KeyCode::Char('x')),
        key(KeyCode::Char('5')),
        key(KeyCode::F(1)),
        key(KeyCode::Esc),
        key(KeyCode::Char('?')),
        Event::Key(KeyEvent::new(KeyCode::Char('r'), KeyModifiers::CONTROL)),
        Event::Key(KeyEvent::new(KeyCode::Char('z'), KeyModifiers::CONTROL)),
        click,
    ] {
        let mut app = App::new(settings(Seat::Human, PERFECT), t0);
        app.update(Action::ToggleHelp, t0);
        let action = action_for(&event, &app, area).expect("every key and click acts");
        app.update(action, t0);
        assert!(!app.help_open(), "{event:?} closes the help");
        assert!(!app.should_quit(), "{event:?} only closes the help");
        assert_eq!(app.board().move_count(), 0, "{event:?} did nothing else");
    }
    let ctrl_c = Event::Key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
    for event in [key(KeyCode::Char('q')), ctrl_c] {
        let mut app = App::new(settings(Seat::Human, PERFECT), t0);
        app.update(Action::ToggleHelp, t0);
        let action = action_for(&event, &app, area).expect("a quit key");
        app.update(action, t0);
        assert!(app.should_quit(), "{event:?} quits from the help");
    }
}

#[test]
fn watch_keys_differ_from_play_keys() {
    let t0 = Instant::now();
    let app = App::new(settings(PERFECT, PERFECT), t0);
    let area = Rect::new(0, 0, 80, 24);
    let act = |event: Event| action_for(&event, &app, area);
    assert_eq!(act(key(KeyCode::Char(' '))), Some(Action::TogglePause));
    assert_eq!(act(key(KeyCode::Char('.'))), Some(Action::Step));
    assert_eq!(act(key(KeyCode::Char('+'))), Some(Action::Faster));
    assert_eq!(act(key(KeyCode::Char('-'))), Some(Action::Slower));
}

fn click(column: u16, row: u16) -> Event {
    Event::Mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column,
        row,
        modifiers: KeyModifiers::NONE,
    })
}

#[test]
fn a_click_on_a_square_places_there_at_every_size() {
    let t0 = Instant::now();
    let mut seven = settings(Seat::Human, PERFECT);
    seven.start = Board::empty(7, 4).expect("7x7");
    let three_sizes = [
        (80, 24),
        (40, 16),
        (40, 15),
        (30, 15),
        (60, 20),
        (120, 40),
        (200, 60),
    ];
    let seven_sizes = [(80, 24), (32, 23), (40, 23), (120, 40), (200, 60)];
    for (settings, sizes) in [
        (settings(Seat::Human, PERFECT), &three_sizes[..]),
        (seven, &seven_sizes[..]),
    ] {
        let mut app = App::new(settings, t0);
        for explain in [false, true] {
            if app.explain_on() != explain {
                app.update(Action::ToggleExplain, t0);
            }
            for &(width, height) in sizes {
                let area = Rect::new(0, 0, width, height);
                let ScreenLayout::Game { board, .. } = layout_for(area, &app) else {
                    panic!("{area:?} fits the game")
                };
                let screen = draw(&app, area.width, area.height);
                let what = format!(
                    "{width}x{height}, {} squares, explain {explain}",
                    board.size
                );
                for mv in app.board().legal_moves() {
                    let cell = board.cell_rect(mv);
                    // The square is drawn where clicks find it: framed on every side.
                    assert_eq!(screen[(cell.x - 1, cell.y)].symbol(), "│", "{what} {mv}");
                    assert_eq!(screen[(cell.right(), cell.y)].symbol(), "│", "{what} {mv}");
                    assert_eq!(screen[(cell.x, cell.y - 1)].symbol(), "─", "{what} {mv}");
                    assert_eq!(screen[(cell.x, cell.bottom())].symbol(), "─", "{what} {mv}");
                    let middle = (cell.x + cell.width / 2, cell.y + cell.height / 2);
                    let corner = (cell.right() - 1, cell.bottom() - 1);
                    for (column, row) in [(cell.x, cell.y), middle, corner] {
                        assert_eq!(
                            action_for(&click(column, row), &app, area),
                            Some(Action::Place(mv)),
                            "{what}: ({column}, {row})"
                        );
                    }
                    // The frame line left of a square belongs to no square.
                    assert_eq!(
                        action_for(&click(cell.x - 1, cell.y), &app, area),
                        Some(Action::Unbound)
                    );
                }
                let right_click = Event::Mouse(MouseEvent {
                    kind: MouseEventKind::Down(MouseButton::Right),
                    column: board.cell_rect(Square::new(1, 1)).x,
                    row: board.cell_rect(Square::new(1, 1)).y,
                    modifiers: KeyModifiers::NONE,
                });
                assert_eq!(action_for(&right_click, &app, area), None);
            }
        }
    }
}

#[test]
fn opening_explain_moves_nothing_but_the_panels() {
    let panels = |explain| Panels {
        moves: true,
        explain,
    };
    // A sample of sizes, the edges where the layout changes among them:
    // ratatui's layout solver is slow unoptimised, as in test builds.
    let widths = [
        29, 30, 32, 34, 35, 40, 46, 54, 57, 60, 78, 79, 80, 91, 109, 115, 120, 150, 210,
    ];
    let heights = [14, 15, 16, 20, 21, 22, 23, 24, 27, 31, 33, 39, 40, 45, 64];
    for size in [3, 4, 7] {
        for width in widths {
            for height in heights {
                let area = Rect::new(0, 0, width, height);
                let what = format!("{size}x{size} at {width}x{height}");
                match (
                    layout(area, size, panels(false)),
                    layout(area, size, panels(true)),
                ) {
                    (
                        ScreenLayout::Game {
                            board, text, moves, ..
                        },
                        ScreenLayout::Game {
                            board: board_on,
                            text: text_on,
                            moves: moves_on,
                            explain,
                        },
                    ) => {
                        assert_eq!(board, board_on, "{what}");
                        assert_eq!(
                            (text.status, text.tally, text.footer, text.axis),
                            (text_on.status, text_on.tally, text_on.footer, text_on.axis),
                            "{what}"
                        );
                        let grid = board.area();
                        assert!(area.contains(grid.as_position()), "{what}");
                        assert!(grid.right() <= area.right() && grid.bottom() <= area.bottom());
                        let panel = match explain {
                            Some(ExplainPlace::Panel(rect) | ExplainPlace::Summary(rect)) => rect,
                            None => panic!("{what}: explain is somewhere"),
                        };
                        // Nothing covers the board, the status line or the tally.
                        for rect in [Some(panel), moves, moves_on].into_iter().flatten() {
                            assert!(
                                area.intersection(rect) == rect,
                                "{what}: {rect:?} on screen"
                            );
                            for kept in [grid, text.status, text.tally] {
                                assert!(!rect.intersects(kept), "{what}: {rect:?} covers {kept:?}");
                            }
                        }
                        if let Some(moves) = moves_on {
                            assert!(!moves.intersects(panel), "{what}");
                        }
                    }
                    (ScreenLayout::TooSmall { .. }, ScreenLayout::TooSmall { .. }) => {}
                    _ => panic!("{what}: explain decides whether the game fits"),
                }
            }
        }
    }
}

#[test]
fn the_board_takes_the_largest_squares_that_fit_with_the_panels() {
    let both = Panels {
        moves: true,
        explain: true,
    };
    let at = |width, height, size| match layout(Rect::new(0, 0, width, height), size, both) {
        ScreenLayout::Game {
            board,
            moves,
            explain,
            ..
        } => (board.cell, moves.is_some(), explain),
        ScreenLayout::TooSmall { .. } => panic!("{width}x{height} fits"),
    };
    // 80x24 keeps the squares it always had, with both panels beside the board.
    let (cell, moves, explain) = at(80, 24, 3);
    assert_eq!(cell, CellSize::LARGE);
    assert!(moves && matches!(explain, Some(ExplainPlace::Panel(_))));
    // 120x40: 21x9 squares (board 67 wide, 31 high) with both panels; 25x11 would not fit.
    let (cell, moves, explain) = at(120, 40, 3);
    assert_eq!(
        cell,
        CellSize {
            height: 9,
            width: 21
        }
    );
    assert!(moves && matches!(explain, Some(ExplainPlace::Panel(_))));
    // 40x15: no room beside the board for the panel: a summary.
    let (cell, _, explain) = at(40, 15, 3);
    assert_eq!(cell, CellSize::MEDIUM);
    assert!(matches!(explain, Some(ExplainPlace::Summary(_))));
    // The move list and the panel before big squares: 60x20 keeps both
    // beside three-column squares, and so does 7x7 at 80x24.
    let (cell, moves, explain) = at(60, 20, 3);
    assert_eq!(cell, CellSize::SMALL);
    assert!(moves && matches!(explain, Some(ExplainPlace::Panel(_))));
    let (cell, moves, explain) = at(80, 24, 7);
    assert_eq!(cell, CellSize::SMALL);
    assert!(moves && matches!(explain, Some(ExplainPlace::Panel(_))));
    let (cell, _, _) = at(32, 23, 7);
    assert_eq!(cell, CellSize::SMALL);
    assert!(matches!(
        layout(Rect::new(0, 0, 31, 23), 7, both),
        ScreenLayout::TooSmall {
            width: 32,
            height: 21
        }
    ));
}

#[test]
fn watch_mode_says_thinking_only_while_the_engine_works() {
    let t0 = Instant::now();
    let mut app = App::new(settings(PERFECT, PERFECT), t0);
    let request = app.take_request().expect("X is asked");
    assert!(app.ai_thinking());
    assert_eq!(app.status_line(), "X (perfect) is thinking…");
    app.receive(Worker::default().answer(&request), t0);
    assert!(!app.ai_thinking(), "answered: only the pause is left");
    assert_eq!(app.status_line(), "X (perfect) moves next…");
    app.tick(t0 + WATCH_DELAY);
    assert_eq!(app.board().move_count(), 1);
    app.take_request().expect("O is asked");
    assert_eq!(app.status_line(), "O (perfect) is thinking…");
    app.update(Action::TogglePause, t0 + WATCH_DELAY);
    assert_eq!(
        app.status_line(),
        "Paused, O to move: space resumes, . steps"
    );
}

#[test]
fn the_model_knows_while_explain_scores_are_out() {
    use tictactoe_screen::message::Request;
    let t0 = Instant::now();
    let mut app = App::new(settings(Seat::Human, Seat::Human), t0);
    assert!(!app.scoring());
    app.update(Action::ToggleExplain, t0);
    assert!(!app.scoring(), "not asked yet");
    let request = app.take_request().expect("scores are asked for");
    assert!(matches!(request, Request::Explain { .. }));
    assert!(app.scoring());
    app.update(Action::ToggleExplain, t0);
    assert!(!app.scoring(), "explain off: nothing to show");
    app.update(Action::ToggleExplain, t0);
    app.receive(Worker::default().answer(&request), t0);
    assert!(!app.scoring(), "the scores are in");
    app.update(Action::Place(Square::new(0, 0)), t0);
    app.take_request().expect("the new position is scored");
    assert!(app.scoring());
}

#[test]
fn explain_scores_the_position_on_screen_and_counts_plain_minimax() {
    use tictactoe_engine::teach::reference;
    use tictactoe_engine::{Scoring, analyze, analyze_by_search};
    use tictactoe_screen::message::Request;
    let t0 = Instant::now();
    let mut app = App::new(settings(Seat::Human, PERFECT), t0);
    assert!(app.overlay().is_none());
    assert!(
        app.take_request().is_none(),
        "nothing to do with explain off"
    );

    app.update(Action::ToggleExplain, t0);
    let request = app.take_request().expect("the overlay asks for scores");
    assert!(matches!(request, Request::Explain { board, .. } if board == Board::new()));
    app.receive(Worker::default().answer(&request), t0);
    let overlay = app.overlay().expect("scores arrived");
    assert_eq!(
        overlay.moves,
        analyze(&Board::new(), Limits::ToTheEnd).moves
    );
    // Then the costs of the same position: the empty board, before anyone moved.
    let request = app.take_request().expect("the panel asks for the costs");
    assert!(matches!(request, Request::Costs { board, .. } if board == Board::new()));
    assert!(app.take_request().is_none(), "each asked once");
    assert!(app.is_waiting());
    app.receive(Worker::default().answer(&request), t0);
    let costs = *app.costs().expect("counted");
    assert_eq!(
        costs.minimax,
        Some(549_946),
        "call 1 included, as trace counts"
    );
    // The engine's search, the same code on every board since 3x3 lost its
    // own specialisation: 232 positions (it was 222 with it).
    assert_eq!(costs.search, Some(232));
    assert!(!app.is_waiting());

    // The human moves; the AI answers; the panel then describes the new position.
    app.update(Action::Place(Square::new(0, 0)), t0);
    assert!(
        app.overlay().is_none() && app.costs().is_none(),
        "old answers are not shown for a new position"
    );
    let mut now = t0;
    answer_all(&mut app, now);
    now += AI_DELAY;
    app.tick(now);
    assert_eq!(app.board().move_count(), 2);
    assert!(
        answer_all(&mut app, now) >= 2,
        "scores for the new position and its costs"
    );
    let board = app.board();
    let costs = *app.costs().expect("counted");
    // As the trace counts them, call 1 included.
    let minimax = reference::move_values(&board, reference::Algorithm::Minimax, Scoring::Depth);
    assert_eq!(costs.minimax, Some(minimax.calls + 1));
    let pruned = reference::best_move(&board, reference::Algorithm::AlphaBeta, Scoring::Depth);
    assert_eq!(costs.alpha_beta, pruned.map(|best| best.calls + 1));
    let search = analyze_by_search(&board, Limits::ToTheEnd).nodes();
    assert_eq!(costs.search, Some(search));
    assert!(costs.alpha_beta < costs.minimax && Some(search) < costs.alpha_beta);
    assert_eq!(app.overlay().unwrap().board, app.board());
    assert!(!app.is_waiting());

    app.update(Action::ToggleExplain, now);
    assert!(!app.explain_on());
}

#[test]
fn undo_takes_back_your_move_and_the_ai_reply_and_redo_replays_them() {
    let t0 = Instant::now();
    let mut app = App::new(settings(Seat::Human, PERFECT), t0);
    app.update(Action::Undo, t0);
    assert_eq!(app.status_line(), "Nothing to undo");

    app.update(Action::Place(Square::new(1, 1)), t0);
    think(&mut app, t0);
    app.tick(t0 + AI_DELAY);
    let after_reply = app.board();
    assert_eq!(after_reply.move_count(), 2);

    app.update(Action::Undo, t0 + AI_DELAY);
    assert_eq!(app.board(), Board::new(), "both moves taken back");
    assert_eq!(app.status_line(), "Your turn: you are X");
    assert!(
        app.take_request().is_none(),
        "and it is the human's turn, not the AI's"
    );

    app.update(Action::Redo, t0 + AI_DELAY);
    assert_eq!(
        app.board(),
        after_reply,
        "the same reply, replayed, not asked again"
    );
    assert!(app.take_request().is_none());
    app.update(Action::Redo, t0 + AI_DELAY);
    assert_eq!(app.status_line(), "Nothing to redo");

    // A new move forgets what could be redone.
    app.update(Action::Undo, t0 + AI_DELAY);
    app.update(Action::Place(Square::new(0, 0)), t0 + AI_DELAY);
    app.update(Action::Redo, t0 + AI_DELAY);
    assert_eq!(app.status_line(), "Nothing to redo");
}

#[test]
fn undo_while_the_ai_thinks_cancels_its_turn() {
    let t0 = Instant::now();
    let mut app = App::new(settings(Seat::Human, PERFECT), t0);
    app.update(Action::Place(Square::new(1, 1)), t0);
    let pending = Worker::default().answer(&app.take_request().expect("the AI was asked"));
    app.update(Action::Undo, t0);
    assert_eq!(app.board(), Board::new());
    app.receive(pending, t0 + AI_DELAY);
    app.tick(t0 + AI_DELAY * 2);
    assert_eq!(app.board(), Board::new(), "the old answer is dropped");
}

#[test]
fn undo_never_takes_back_the_ais_opening_alone() {
    let t0 = Instant::now();
    let mut app = App::new(settings(PERFECT, Seat::Human), t0);
    think(&mut app, t0);
    app.tick(t0 + AI_DELAY);
    let opening = app.board();
    app.update(Action::Undo, t0 + AI_DELAY);
    assert_eq!(app.status_line(), "Nothing to undo");
    assert_eq!(app.board(), opening);
    let free = opening.legal_moves()[0];
    app.update(Action::Place(free), t0 + AI_DELAY);
    think(&mut app, t0 + AI_DELAY);
    app.tick(t0 + AI_DELAY * 2);
    app.update(Action::Undo, t0 + AI_DELAY * 2);
    assert_eq!(app.board(), opening, "back to the AI's opening, O to move");
}

#[test]
fn undo_with_two_humans_is_one_move_and_in_watch_mode_pauses() {
    let t0 = Instant::now();
    let mut app = App::new(settings(Seat::Human, Seat::Human), t0);
    play_out(&mut app, &[(0, 0), (1, 1), (2, 2)], t0);
    app.update(Action::Undo, t0);
    assert_eq!(app.board().move_count(), 2);
    assert_eq!(app.status_line(), "X to move");

    let mut app = App::new(settings(PERFECT, PERFECT), t0);
    let mut now = t0;
    for _ in 0..3 {
        think(&mut app, now);
        now += WATCH_DELAY;
        app.tick(now);
    }
    assert_eq!(app.board().move_count(), 3);
    app.update(Action::Undo, now);
    assert_eq!(app.board().move_count(), 2);
    assert!(app.paused(), "otherwise the AI would play again at once");
    app.update(Action::Redo, now);
    assert_eq!(app.board().move_count(), 3);
}

#[test]
fn undoing_a_finished_game_takes_its_result_out_of_the_tally() {
    let t0 = Instant::now();
    let mut app = App::new(settings(Seat::Human, Seat::Human), t0);
    play_out(&mut app, &[(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)], t0);
    assert_eq!(app.tally().x_wins, 1);
    app.update(Action::Undo, t0);
    assert_eq!(app.tally().games(), 0);
    assert_eq!(app.status_line(), "X to move");
    app.update(Action::Redo, t0);
    assert_eq!(app.tally().x_wins, 1, "redo finishes it again");
}

#[test]
fn a_result_is_reported_when_the_game_ends_and_taken_back_by_undo() {
    use tictactoe_game::game::ResultChange::{Finished, TakenBack};
    let t0 = Instant::now();
    let mut app = App::new(settings(Seat::Human, Seat::Human), t0);
    play_out(&mut app, &[(0, 0), (1, 0)], t0);
    app.update(Action::NewGame, t0);
    assert_eq!(
        app.take_result_changes(),
        vec![],
        "an unfinished game is not counted"
    );
    play_out(&mut app, &[(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)], t0);
    let won = Status::Won(Player::X);
    assert_eq!(
        app.take_result_changes(),
        vec![Finished(won)],
        "counted the moment it ends, while still on screen"
    );
    assert_eq!(app.take_result_changes(), vec![], "once");
    app.update(Action::Undo, t0);
    app.update(Action::Redo, t0);
    app.update(Action::Undo, t0);
    assert_eq!(
        app.take_result_changes(),
        vec![TakenBack(won), Finished(won), TakenBack(won)],
        "undo takes a counted result back out, redo counts it again"
    );
    app.update(Action::Quit, t0);
    app.update(Action::NewGame, t0);
    assert_eq!(
        app.take_result_changes(),
        vec![],
        "leaving counts nothing more"
    );
}

#[test]
fn on_a_screen_too_small_to_see_the_game_only_quit_and_help_act() {
    let t0 = Instant::now();
    let app = App::new(settings(Seat::Human, PERFECT), t0);
    let tiny = Rect::new(0, 0, 20, 8);
    assert!(matches!(
        layout(
            tiny,
            3,
            Panels {
                moves: true,
                explain: false
            }
        ),
        ScreenLayout::TooSmall { .. }
    ));
    let act = |event: Event| action_for(&event, &app, tiny);
    for code in [
        KeyCode::Char('6'),
        KeyCode::Enter,
        KeyCode::Up,
        KeyCode::Char('n'),
        KeyCode::Char('u'),
        KeyCode::Char('e'),
    ] {
        assert_eq!(act(key(code)), None, "{code:?} acts unseen");
    }
    let click = Event::Mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: 10,
        row: 4,
        modifiers: KeyModifiers::NONE,
    });
    assert_eq!(act(click), Some(Action::Unbound), "a click places nothing");
    assert_eq!(act(key(KeyCode::Char('q'))), Some(Action::Quit));
    assert_eq!(act(key(KeyCode::Esc)), Some(Action::Back));
    assert_eq!(act(key(KeyCode::Char('?'))), Some(Action::ToggleHelp));

    // With the help open, any key reaches it, and only closes it.
    let mut app = App::new(settings(Seat::Human, PERFECT), t0);
    app.update(Action::ToggleHelp, t0);
    let action = action_for(&key(KeyCode::Char('6')), &app, tiny).expect("6 closes the help");
    app.update(action, t0);
    assert!(!app.help_open());
    assert_eq!(app.board(), Board::new(), "and places nothing");
}

#[test]
fn levels_and_seeds_reach_the_ai() {
    use tictactoe_screen::message::Request;
    let t0 = Instant::now();
    let easy = Seat::Ai(Level::Easy);
    let mut app = App::new(settings(easy, Seat::Ai(Level::Medium)), t0);
    assert_eq!(app.players_line(), "AI (easy): X  vs  AI (medium): O");
    let Some(Request::Move { level, .. }) = app.take_request() else {
        panic!("X moves first")
    };
    assert_eq!(level, Level::Easy);

    // The same seed replays the same game.
    let game = |seed| {
        let mut s = settings(PERFECT, Seat::Ai(Level::Hard));
        s.seed = Some(seed);
        let mut app = App::new(s, t0);
        let mut now = t0;
        while !app.board().status().is_over() {
            think(&mut app, now);
            now += WATCH_DELAY;
            app.tick(now);
        }
        app.game().moves().to_vec()
    };
    assert_eq!(game(11), game(11));
    assert!(
        (0..10)
            .map(game)
            .collect::<std::collections::HashSet<_>>()
            .len()
            > 1,
        "seeds vary the games"
    );
}

#[test]
fn explain_always_describes_the_position_on_screen() {
    use tictactoe_screen::message::Request;
    let t0 = Instant::now();
    let mut app = App::new(settings(Seat::Human, PERFECT), t0);
    app.update(Action::ToggleExplain, t0);
    let mut now = t0;
    // Play two turns, answering everything; the panel follows each position.
    for mv in [Square::new(1, 1), Square::new(0, 1)] {
        app.update(Action::Place(mv), now);
        answer_all(&mut app, now);
        now += AI_DELAY;
        app.tick(now);
        answer_all(&mut app, now);
        assert_eq!(app.overlay().map(|a| a.board), Some(app.board()));
    }
    // Undo: the position after the undo is asked about, and nothing older is shown.
    app.update(Action::Undo, now);
    assert!(app.overlay().is_none() && app.costs().is_none());
    let request = app
        .take_request()
        .expect("the position after undo is scored");
    assert!(matches!(request, Request::Explain { board, .. } if board == app.board()));
    app.receive(Worker::default().answer(&request), now);
    answer_all(&mut app, now);
    assert_eq!(app.overlay().map(|a| a.board), Some(app.board()));
    assert!(app.costs().is_some());
    // A new game: the empty board, with what plain minimax visits there.
    app.update(Action::NewGame, now);
    assert!(app.overlay().is_none());
    answer_all(&mut app, now);
    assert_eq!(app.overlay().map(|a| a.board), Some(Board::new()));
    assert_eq!(app.costs().and_then(|c| c.minimax), Some(549_946));
}

#[test]
fn explain_follows_watch_mode_move_by_move() {
    let t0 = Instant::now();
    let mut app = App::new(settings(PERFECT, PERFECT), t0);
    app.update(Action::ToggleExplain, t0);
    let mut now = t0;
    while !app.board().status().is_over() {
        answer_all(&mut app, now);
        assert_eq!(app.overlay().map(|a| a.board), Some(app.board()));
        assert!(app.costs().is_some(), "{}", app.board());
        now += WATCH_DELAY;
        app.tick(now);
    }
}

#[test]
fn the_hard_level_says_when_it_plays_its_second_best_on_purpose() {
    use tictactoe_screen::message::Said;
    use tictactoe_screen::panel::explain_items;
    let hard = Seat::Ai(Level::Hard);
    let t0 = Instant::now();
    let mut slips = 0;
    for seed in 0..40 {
        let mut app = App::new(
            Settings {
                seed: Some(seed),
                scoring: Default::default(),
                ..settings(Seat::Human, hard)
            },
            t0,
        );
        app.update(Action::ToggleExplain, t0);
        // After X takes the centre, O's corners draw and its edges lose.
        app.update(Action::Place(Square::new(1, 1)), t0);
        answer_all(&mut app, t0);
        app.tick(t0 + AI_DELAY);
        answer_all(&mut app, t0 + AI_DELAY);
        let report = app.report().expect("O moved");
        let analysis = report.decision.analysis.as_ref().expect("hard searches");
        let chosen = analysis
            .moves
            .iter()
            .find(|m| m.mv == report.decision.mv)
            .unwrap();
        let slipped = chosen.score < analysis.value().unwrap();
        let said = explain_items(&app).into_iter().any(|(_, said)| {
            matches!(said, Said::Text(text) if text.contains("on purpose: its second-best move"))
        });
        assert_eq!(said, slipped, "seed {seed}");
        if slipped {
            slips += 1;
            // Once X answers, the slip is no longer the last move: nothing is said.
            let reply = app.board().legal_moves()[0];
            app.update(Action::Place(reply), t0 + AI_DELAY);
            let said = explain_items(&app)
                .into_iter()
                .any(|(_, said)| matches!(said, Said::Text(text) if text.contains("on purpose")));
            assert!(!said, "seed {seed}");
        }
    }
    assert!(slips > 0, "some seed slips (one move in five)");
}

#[test]
fn the_tree_opens_level_by_level_and_its_values_are_the_seeds() {
    use tictactoe_engine::teach::reference;
    use tictactoe_screen::message::Request;
    use tictactoe_screen::tree::Row;
    let t0 = Instant::now();
    let mut app = App::new(settings(Seat::Human, Seat::Human), t0);
    app.update(Action::Place(Square::new(1, 1)), t0);
    app.update(Action::ToggleTree, t0);
    let request = app.take_request().expect("the first level is asked for");
    assert!(matches!(request, Request::Tree { board, .. } if board == app.board()));
    assert!(app.take_request().is_none(), "one level at a time");
    assert!(app.is_waiting());
    app.receive(Worker::default().answer(&request), t0);
    let tree = app.tree().expect("open");
    assert_eq!(tree.rows().len(), 9, "the position and its 8 moves");
    assert_eq!(tree.root().below, Some(55_504), "plain minimax's count");
    // Down to the second move and open it: only its level is asked for.
    app.update(Action::Cursor(Direction::Down), t0);
    app.update(Action::Cursor(Direction::Down), t0);
    app.update(Action::Confirm, t0);
    let opened = app.tree().unwrap().selected().board;
    let request = app.take_request().expect("its replies are asked for");
    assert!(matches!(request, Request::Tree { board, .. } if board == opened));
    app.receive(Worker::default().answer(&request), t0);
    assert_eq!(app.tree().unwrap().rows().len(), 9 + 7);
    // Every value shown is the articles' minimax, the positions after the
    // root's moves at depth 0 (the root one above).
    let tree = app.tree().unwrap();
    for row in tree.rows() {
        let Row::Node(i) = row else { continue };
        let node = tree.node(i);
        let maximizing = node.board.to_move() == Player::O;
        assert_eq!(
            node.value,
            Some(reference::minimax(
                &node.board,
                node.depth as i32 - 1,
                maximizing
            )),
            "{}",
            node.board
        );
    }
    // Right again goes into the replies; Backspace goes back up, then closes.
    app.update(Action::Cursor(Direction::Right), t0);
    assert_eq!(app.tree().unwrap().selected().depth, 2);
    app.update(Action::Collapse, t0);
    assert_eq!(app.tree().unwrap().selected().board, opened);
    app.update(Action::Collapse, t0);
    assert_eq!(app.tree().unwrap().rows().len(), 9, "closed again");
    // Keys of the game do nothing while the tree is open; t closes it.
    app.update(Action::Place(Square::new(0, 0)), t0);
    assert_eq!(app.board().move_count(), 1);
    app.update(Action::ToggleTree, t0);
    assert!(app.tree().is_none());
    app.update(Action::ToggleTree, t0);
    app.update(Action::Back, t0);
    assert!(
        app.tree().is_none() && !app.should_quit(),
        "Esc closes the tree only"
    );
}

#[test]
fn esc_closes_explain_before_it_quits() {
    let t0 = Instant::now();
    let mut app = App::new(settings(Seat::Human, PERFECT), t0);
    app.update(Action::Place(Square::new(1, 1)), t0);
    app.update(Action::ToggleExplain, t0);
    assert!(app.explain_on());
    app.update(Action::Back, t0);
    assert!(
        !app.explain_on() && !app.should_quit(),
        "Esc closes the overlay and the game goes on"
    );
    assert_eq!(app.board().move_count(), 1);
    app.update(Action::Back, t0);
    assert!(app.should_quit(), "with nothing open, Esc quits");
}

#[test]
fn the_walkthrough_shows_one_call_per_key_and_starts_again_at_the_end() {
    let t0 = Instant::now();
    let start: Board = support::FREECODECAMP.parse().unwrap();
    let mut app = support::freecodecamp_app(t0);
    for call in 1..=9 {
        let step = if call == 1 {
            Action::Walkthrough
        } else {
            Action::Trace(TraceMove::Next)
        };
        app.update(step, t0);
        let walkthrough = app.walkthrough().expect("open");
        assert_eq!(walkthrough.current().map(|c| c.number), Some(call));
        assert_eq!(walkthrough.board(), walkthrough.current().unwrap().board);
    }
    app.update(Action::Trace(TraceMove::Next), t0);
    let walkthrough = app.walkthrough().unwrap();
    assert!(walkthrough.current().is_none(), "call 1 has returned");
    assert_eq!(walkthrough.result(), Some(10));
    let best = walkthrough.best().expect("a best move");
    assert_eq!(
        (best.call.number, best.call.mv),
        (5, Some(Square::new(1, 1)))
    );
    assert_eq!(walkthrough.status(), "Call 1 returned +10: best move b2");
    app.update(Action::Trace(TraceMove::Next), t0);
    assert_eq!(
        app.walkthrough().unwrap().current().map(|c| c.number),
        Some(1),
        "again from call 1"
    );
    app.update(Action::Back, t0);
    assert!(app.walkthrough().is_none());
    assert_eq!(app.board(), start, "the game's position is untouched");
}

#[test]
fn opening_the_tree_or_the_walkthrough_pauses_watch_mode() {
    let t0 = Instant::now();
    for open in [Action::ToggleTree, Action::Walkthrough] {
        let mut app = App::new(settings(PERFECT, PERFECT), t0);
        assert!(!app.paused());
        app.update(open, t0);
        assert!(app.paused(), "{open:?}");
    }
}

#[test]
fn t_c_and_backspace_open_the_learning_views() {
    let t0 = Instant::now();
    let area = Rect::new(0, 0, 80, 24);
    let mut app = App::new(settings(PERFECT, PERFECT), t0);
    let act = |app: &App, code| action_for(&key(code), app, area);
    assert_eq!(act(&app, KeyCode::Char('t')), Some(Action::ToggleTree));
    assert_eq!(act(&app, KeyCode::Char('c')), Some(Action::Walkthrough));
    assert_eq!(
        act(&app, KeyCode::Backspace),
        Some(Action::Unbound),
        "Backspace acts in the tree only"
    );
    assert_eq!(
        act(&app, KeyCode::Char('s')),
        Some(Action::Cursor(Direction::Down)),
        "s stays the wasd down"
    );
    assert_eq!(act(&app, KeyCode::Char(' ')), Some(Action::TogglePause));
    app.update(Action::ToggleTree, t0);
    // In the tree, even in watch mode, Space and Enter open a position.
    assert_eq!(act(&app, KeyCode::Char(' ')), Some(Action::Confirm));
    assert_eq!(act(&app, KeyCode::Enter), Some(Action::Confirm));
    assert_eq!(act(&app, KeyCode::Backspace), Some(Action::Collapse));
}

#[test]
fn the_walkthrough_keys_go_back_finish_end_and_switch_to_alpha_beta() {
    let t0 = Instant::now();
    let mut app = support::freecodecamp_app(t0);
    let current = |app: &App| {
        app.walkthrough()
            .and_then(|w| w.current().map(|c| c.number))
    };
    app.update(Action::Walkthrough, t0);
    assert_eq!(current(&app), Some(1));
    for _ in 0..5 {
        app.update(Action::Trace(TraceMove::Next), t0);
    }
    assert_eq!(current(&app), Some(6));
    app.update(Action::Trace(TraceMove::Back), t0);
    assert_eq!(current(&app), Some(5), "back one call");
    app.update(Action::Trace(TraceMove::Next), t0);
    app.update(Action::Trace(TraceMove::Finish), t0);
    let walk = app.walkthrough().expect("open");
    assert_eq!(
        (walk.calls(), current(&app)),
        (9, Some(1)),
        "call 6 ran to its return"
    );
    app.update(Action::Trace(TraceMove::End), t0);
    assert_eq!(app.walkthrough().and_then(|w| w.result()), Some(10));
    app.update(Action::Trace(TraceMove::AlphaBeta), t0);
    let walk = app.walkthrough().expect("open");
    assert_eq!(
        (walk.algorithm(), walk.calls()),
        (tictactoe_engine::teach::reference::Algorithm::AlphaBeta, 1),
        "alpha-beta from call 1"
    );
    // The keys ask for these actions in the walkthrough.
    let layout_size = ratatui::layout::Rect::new(0, 0, 80, 24);
    let key = |code| {
        tictactoe_screen::input::action_for(
            &crossterm::event::Event::Key(crossterm::event::KeyEvent::from(code)),
            &app,
            layout_size,
        )
    };
    use crossterm::event::KeyCode;
    assert_eq!(
        key(KeyCode::Char('b')),
        Some(Action::Trace(TraceMove::Back))
    );
    assert_eq!(
        key(KeyCode::Backspace),
        Some(Action::Trace(TraceMove::Back))
    );
    assert_eq!(
        key(KeyCode::Char('f')),
        Some(Action::Trace(TraceMove::Finish))
    );
    assert_eq!(key(KeyCode::Char('G')), Some(Action::Trace(TraceMove::End)));
    assert_eq!(key(KeyCode::End), Some(Action::Trace(TraceMove::End)));
    assert_eq!(
        key(KeyCode::Char('a')),
        Some(Action::Trace(TraceMove::AlphaBeta))
    );
}

#[test]
fn z_opens_the_quiz_and_its_keys_type_the_answer() {
    let t0 = Instant::now();
    let area = Rect::new(0, 0, 80, 24);
    let start: Board = support::FREECODECAMP.parse().unwrap();
    let mut app = support::freecodecamp_app(t0);
    let press = |app: &mut App, code| {
        let action = action_for(&key(code), app, area).expect("a key of the quiz");
        app.update(action, t0);
    };
    press(&mut app, KeyCode::Char('z'));
    assert!(app.quiz().is_some());
    // Every character types, q and ? included: they could be in an answer.
    for typed in ['q', '?', '+', '9'] {
        assert_eq!(
            action_for(&key(KeyCode::Char(typed)), &app, area),
            Some(Action::Type(typed))
        );
    }
    for typed in "b2".chars() {
        press(&mut app, KeyCode::Char(typed));
    }
    press(&mut app, KeyCode::Backspace);
    press(&mut app, KeyCode::Backspace);
    for typed in "+10".chars() {
        press(&mut app, KeyCode::Char(typed));
    }
    press(&mut app, KeyCode::Enter);
    // The answers are worked out on the engine's thread: checked when they come.
    assert_eq!(app.quiz().unwrap().status(), "Question 1 of 4: checking…");
    assert!(app.is_waiting());
    answer_all(&mut app, t0);
    assert_eq!(app.quiz().unwrap().status(), "Question 1 of 4: right");
    press(&mut app, KeyCode::Enter);
    assert_eq!(
        app.quiz().unwrap().status(),
        "Question 2 of 4: type your answer"
    );
    assert!(!app.should_quit(), "q typed into an answer does not quit");
    press(&mut app, KeyCode::Esc);
    assert!(app.quiz().is_none());
    assert_eq!(app.board(), start, "the game's position is untouched");
    // A finished game has nothing to ask: the status line says so.
    let over: Board = "xxx/oo./...".parse().unwrap();
    let mut app = App::new(
        Settings {
            start: over,
            ..settings(Seat::Human, Seat::Human)
        },
        t0,
    );
    app.update(Action::Quiz, t0);
    assert!(app.quiz().is_none());
    assert_eq!(
        app.status_line(),
        "The quiz asks about unfinished 3x3 positions"
    );
    // So does a bigger board, where z is a key all the same.
    let big = Board::empty(4, 4).unwrap();
    let mut app = App::new(
        Settings {
            start: big,
            ..settings(Seat::Human, Seat::Human)
        },
        t0,
    );
    let action = action_for(&key(KeyCode::Char('z')), &app, area);
    assert_eq!(action, Some(Action::Quiz));
    app.update(Action::Quiz, t0);
    assert!(app.quiz().is_none());
    assert_eq!(
        app.status_line(),
        "The quiz asks about unfinished 3x3 positions"
    );
}

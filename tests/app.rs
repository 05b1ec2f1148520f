//! The game screen's model, driven by actions and a hand-held clock: no terminal.

use std::time::{Duration, Instant};

use ratatui::crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::Rect;
use tictactoe::engine::{Board, Level, Limits, Move, Player, Status};
use tictactoe::game::{Seat, Seats};
use tictactoe::tui::app::{Action, App, Direction, Settings};
use tictactoe::tui::input::action_for;
use tictactoe::tui::view::{Panels, ScreenLayout, layout};

const AI_DELAY: Duration = Duration::from_millis(300);
const WATCH_DELAY: Duration = Duration::from_millis(500);

fn settings(x: Seat, o: Seat) -> Settings {
    Settings {
        seats: Seats { x, o },
        start: Board::new(),
        ai_delay: AI_DELAY,
        watch_delay: WATCH_DELAY,
        limits: Limits::Think(Duration::from_millis(100)),
        seed: Some(7),
        color: true,
    }
}

const PERFECT: Seat = Seat::Ai(Level::Perfect);

/// Answers the AI's request at once, as the worker thread would.
fn think(app: &mut App, now: Instant) -> bool {
    match app.take_request() {
        Some(request) => {
            app.receive(request.run(), now);
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

    app.update(Action::Place(Move::new(1, 1)), t0);
    assert_eq!(
        app.board().get(Move::new(1, 1)),
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
    app.update(Action::Place(Move::new(0, 0)), t0);
    app.update(Action::Place(Move::new(2, 2)), t0);
    assert_eq!(app.status_line(), "Not your turn: the AI is thinking");
    assert_eq!(app.board().move_count(), 1);

    think(&mut app, t0);
    app.tick(t0 + AI_DELAY);
    let taken = Move::new(0, 0);
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
fn quitting_works_while_the_ai_is_thinking() {
    let t0 = Instant::now();
    let mut app = App::new(settings(Seat::Human, PERFECT), t0);
    app.update(Action::Place(Move::new(1, 1)), t0);
    let _outstanding = app.take_request().expect("the AI was asked");
    assert!(app.is_waiting());
    app.update(Action::Quit, t0);
    assert!(app.should_quit());
}

/// Two people at one keyboard: every move is scripted.
fn play_out(app: &mut App, moves: &[(u8, u8)], now: Instant) {
    for &(row, col) in moves {
        app.update(Action::Place(Move::new(row, col)), now);
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

    app.update(Action::PlaceAtCursor, t0);
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
    app.update(Action::Place(Move::new(0, 2)), t0);
    assert_eq!(app.status_line(), "X wins: you win!");
}

#[test]
fn a_reply_for_an_abandoned_game_is_ignored() {
    let t0 = Instant::now();
    let mut app = App::new(settings(Seat::Human, PERFECT), t0);
    app.update(Action::Place(Move::new(1, 1)), t0);
    let stale = app.take_request().expect("asked").run();
    app.update(Action::NewGame, t0);
    app.receive(stale, t0 + AI_DELAY);
    app.tick(t0 + AI_DELAY * 2);
    assert_eq!(app.board(), Board::new());
}

#[test]
fn the_cursor_moves_and_stops_at_the_edges() {
    let t0 = Instant::now();
    let mut app = App::new(settings(Seat::Human, PERFECT), t0);
    assert_eq!(app.cursor(), Move::new(1, 1));
    for _ in 0..5 {
        app.update(Action::Cursor(Direction::Up), t0);
        app.update(Action::Cursor(Direction::Left), t0);
    }
    assert_eq!(app.cursor(), Move::new(0, 0));
    app.update(Action::Cursor(Direction::Right), t0);
    app.update(Action::PlaceAtCursor, t0);
    assert_eq!(app.board().get(Move::new(0, 1)), Some(Player::X));
    for _ in 0..5 {
        app.update(Action::Cursor(Direction::Down), t0);
        app.update(Action::Cursor(Direction::Right), t0);
    }
    assert_eq!(app.cursor(), Move::new(2, 2));
}

#[test]
fn help_opens_and_any_key_closes_it() {
    let t0 = Instant::now();
    let mut app = App::new(settings(Seat::Human, PERFECT), t0);
    app.update(Action::ToggleHelp, t0);
    assert!(app.help_open());
    app.update(Action::Place(Move::new(0, 0)), t0);
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
        Some(Action::Place(Move::new(1, 1)))
    );
    assert_eq!(
        act(key(KeyCode::Char('1'))),
        Some(Action::Place(Move::new(0, 0)))
    );
    assert_eq!(
        act(key(KeyCode::Char('9'))),
        Some(Action::Place(Move::new(2, 2)))
    );
    assert_eq!(act(key(KeyCode::Char('0'))), None);
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
    assert_eq!(act(key(KeyCode::Enter)), Some(Action::PlaceAtCursor));
    assert_eq!(act(key(KeyCode::Char(' '))), Some(Action::PlaceAtCursor));
    assert_eq!(act(key(KeyCode::Char('n'))), Some(Action::NewGame));
    assert_eq!(act(key(KeyCode::Char('?'))), Some(Action::ToggleHelp));
    assert_eq!(act(key(KeyCode::Char('q'))), Some(Action::Quit));
    assert_eq!(act(key(KeyCode::Esc)), Some(Action::Quit));
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
    let mut app = App::new(settings(Seat::Human, PERFECT), t0);
    app.update(Action::ToggleHelp, t0);
    let area = Rect::new(0, 0, 80, 24);
    for event in [
        key(KeyCode::Char('x')),
        key(KeyCode::Char('5')),
        key(KeyCode::F(1)),
        Event::Key(KeyEvent::new(KeyCode::Char('r'), KeyModifiers::CONTROL)),
        Event::Key(KeyEvent::new(KeyCode::Char('z'), KeyModifiers::CONTROL)),
    ] {
        assert_eq!(
            action_for(&event, &app, area),
            Some(Action::CloseHelp),
            "{event:?}"
        );
    }
    assert_eq!(
        action_for(&key(KeyCode::Char('q')), &app, area),
        Some(Action::Quit)
    );
    let ctrl_c = Event::Key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
    assert_eq!(action_for(&ctrl_c, &app, area), Some(Action::Quit));
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

#[test]
fn a_click_on_a_square_places_there() {
    let t0 = Instant::now();
    let app = App::new(settings(Seat::Human, PERFECT), t0);
    for area in [Rect::new(0, 0, 80, 24), Rect::new(0, 0, 40, 16)] {
        let ScreenLayout::Game { board, .. } = layout(
            area,
            3,
            Panels {
                moves: true,
                explain: false,
            },
        ) else {
            panic!("{area:?} fits the game")
        };
        for mv in Board::new().legal_moves() {
            let cell = board.cell_rect(mv);
            let click = |column, row| {
                Event::Mouse(MouseEvent {
                    kind: MouseEventKind::Down(MouseButton::Left),
                    column,
                    row,
                    modifiers: KeyModifiers::NONE,
                })
            };
            assert_eq!(
                action_for(&click(cell.x, cell.y), &app, area),
                Some(Action::Place(mv))
            );
            let corner = click(cell.x + cell.width - 1, cell.y + cell.height - 1);
            assert_eq!(action_for(&corner, &app, area), Some(Action::Place(mv)));
            // The frame line left of a square belongs to no square.
            assert_eq!(action_for(&click(cell.x - 1, cell.y), &app, area), None);
        }
        let right_click = Event::Mouse(MouseEvent {
            kind: MouseEventKind::Down(MouseButton::Right),
            column: board.cell_rect(Move::new(1, 1)).x,
            row: board.cell_rect(Move::new(1, 1)).y,
            modifiers: KeyModifiers::NONE,
        });
        assert_eq!(action_for(&right_click, &app, area), None);
    }
}

/// Answers every outstanding request at once, as the worker thread would.
fn answer_all(app: &mut App, now: Instant) -> usize {
    let mut answered = 0;
    while let Some(request) = app.take_request() {
        app.receive(request.run(), now);
        answered += 1;
    }
    answered
}

#[test]
fn explain_scores_the_position_on_screen_and_counts_plain_minimax() {
    use tictactoe::engine::{analyze, reference};
    use tictactoe::tui::app::Request;
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
    assert!(app.take_request().is_none(), "asked once");
    app.receive(request.run(), t0);
    let overlay = app.overlay().expect("scores arrived");
    assert_eq!(overlay.moves, analyze(&Board::new(), Limits::Solve).moves);

    // The human moves; the AI answers; the panel then counts plain minimax for the AI's position.
    app.update(Action::Place(Move::new(0, 0)), t0);
    assert!(
        app.overlay().is_none(),
        "old scores are not shown for a new position"
    );
    let mut now = t0;
    answer_all(&mut app, now);
    now += AI_DELAY;
    app.tick(now);
    assert_eq!(app.board().move_count(), 2);
    let searched: Board = "x../.../...".parse().unwrap();
    assert_eq!(
        app.report().map(|r| r.seed_visits),
        Some(None),
        "not counted yet"
    );
    assert!(
        answer_all(&mut app, now) >= 2,
        "scores for the new position and the count"
    );
    let visits = reference::move_values(&searched, reference::Algorithm::Minimax).calls;
    assert_eq!(app.report().unwrap().seed_visits, Some(Some(visits)));
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

    app.update(Action::Place(Move::new(1, 1)), t0);
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
    app.update(Action::Place(Move::new(0, 0)), t0 + AI_DELAY);
    app.update(Action::Redo, t0 + AI_DELAY);
    assert_eq!(app.status_line(), "Nothing to redo");
}

#[test]
fn undo_while_the_ai_thinks_cancels_its_turn() {
    let t0 = Instant::now();
    let mut app = App::new(settings(Seat::Human, PERFECT), t0);
    app.update(Action::Place(Move::new(1, 1)), t0);
    let pending = app.take_request().expect("the AI was asked").run();
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
    use tictactoe::tui::app::ResultChange::{Finished, TakenBack};
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
    assert_eq!(act(click), None);
    assert_eq!(act(key(KeyCode::Char('q'))), Some(Action::Quit));
    assert_eq!(act(key(KeyCode::Esc)), Some(Action::Quit));
    assert_eq!(act(key(KeyCode::Char('?'))), Some(Action::ToggleHelp));
}

#[test]
fn levels_and_seeds_reach_the_ai() {
    use tictactoe::tui::app::Request;
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

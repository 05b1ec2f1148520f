//! Games between people at different terminals, as the screen model sees
//! them: two Apps, with the moves that leave one kept and sent back to both,
//! as the SSH server does. No network, no clock.

use std::time::{Duration, Instant};

use crate::support;

use tictactoe_engine::{Player, Square, Status};
use tictactoe_game::action::{Action, Direction};
use tictactoe_game::clock::Clock;
use tictactoe_game::game::Seat;
use tictactoe_game::game::{Names, Outgoing};
use tictactoe_game::settings::Settings;
use tictactoe_screen::app::{App, Served};

/// Two people at different terminals: the AI seat only matters when one leaves.
fn settings() -> Settings {
    Settings {
        ai_delay: Duration::ZERO,
        seed: Some(3),
        scoring: Default::default(),
        ..support::settings(Seat::Human, support::PERFECT)
    }
}

fn names() -> Names {
    Names {
        x: "alice".to_string(),
        o: "bob".to_string(),
    }
}

/// alice (X) and bob (O), each with a screen of their own.
fn pair(t0: Instant) -> (App, App) {
    let alice = App::new(settings(), t0).versus(Player::X, names(), t0);
    let bob = App::new(settings(), t0).versus(Player::O, names(), t0);
    (alice, bob)
}

/// Hands everything `from` sent on, as the server does: a move is kept and
/// sent back to both screens, a rematch request goes to the other.
fn relay(from: &mut App, to: &mut App, now: Instant) {
    for message in from.take_outgoing() {
        match message {
            Outgoing::Square(mv) => {
                let mut moves = from.game().moves().to_vec();
                moves.push(mv);
                from.sync(&moves, now);
                to.sync(&moves, now);
            }
            Outgoing::Rematch => to.remote_rematch(now),
            Outgoing::Claim { .. } => {}
        }
    }
}

fn play(mover: &mut App, other: &mut App, index: usize, now: Instant) {
    mover.update(Action::Place(Square::from_index(index, 3)), now);
    relay(mover, other, now);
}

#[test]
fn moves_cross_from_one_screen_to_the_other_and_nothing_asks_the_engine() {
    let t0 = Instant::now();
    let (mut alice, mut bob) = pair(t0);
    assert_eq!(alice.players_line(), "alice: X  vs  bob: O");
    assert_eq!(bob.players_line(), "alice: X  vs  bob: O");
    assert_eq!(alice.status_line(), "Your turn: you are X");
    assert_eq!(bob.status_line(), "alice's turn (X)");
    assert!(alice.human_to_move() && !bob.human_to_move());

    play(&mut alice, &mut bob, 4, t0);
    assert_eq!(bob.board(), alice.board());
    assert_eq!(bob.board().get(Square::new(1, 1)), Some(Player::X));
    assert_eq!(alice.status_line(), "bob's turn (O)");
    assert_eq!(bob.status_line(), "Your turn: you are O");
    for app in [&mut alice, &mut bob] {
        assert!(app.take_request().is_none(), "no AI in this game");
    }
}

#[test]
fn playing_out_of_turn_is_refused_with_the_reason_and_sends_nothing() {
    let t0 = Instant::now();
    let (mut alice, mut bob) = pair(t0);
    bob.update(Action::Place(Square::new(0, 0)), t0);
    assert_eq!(bob.status_line(), "Not your turn: waiting for alice");
    assert!(bob.take_outgoing().is_empty());
    assert_eq!(bob.board().move_count(), 0);
    // A history from the server that is not this game's goes unplayed.
    alice.sync(&[Square::new(0, 0)], t0);
    alice.sync(&[Square::new(1, 1), Square::new(0, 0)], t0);
    assert_eq!(alice.game().moves(), &[Square::new(0, 0)]);
}

#[test]
fn a_move_shows_once_the_server_sends_it_back() {
    let t0 = Instant::now();
    let (mut alice, _bob) = pair(t0);
    alice.update(Action::Place(Square::new(1, 1)), t0);
    assert_eq!(
        alice.board().move_count(),
        0,
        "not before the server keeps it"
    );
    assert_eq!(alice.status_line(), "Your move is on its way…");
    // A second key meanwhile sends nothing more.
    alice.update(Action::Place(Square::new(0, 0)), t0);
    assert_eq!(
        alice.take_outgoing(),
        vec![Outgoing::Square(Square::new(1, 1))]
    );
    alice.sync(&[Square::new(1, 1)], t0);
    assert_eq!(alice.status_line(), "bob's turn (O)");
}

#[test]
fn clocks_ratings_and_an_absence_are_drawn_from_what_the_server_says() {
    let t0 = Instant::now();
    let (mut alice, _bob) = pair(t0);
    let control = "3+2".parse().expect("a time control");
    let mut clock = Clock::new(control);
    clock.start(Player::X, t0);
    alice.serve(
        Served {
            caption: Some("rated · 3+2".to_string()),
            ratings: Some(["1500?".to_string(), "1612".to_string()]),
            clock: Some(clock),
            away: Some((Player::O, t0 + Duration::from_secs(60))),
            claim: None,
        },
        t0,
    );
    let later = t0 + Duration::from_millis(1_500);
    alice.tick(later);
    assert_eq!(
        alice.players_line(),
        "alice (1500?): X 2:58  vs  bob (1612): O 3:00"
    );
    assert_eq!(
        alice.status_line(),
        "bob (O) is away: 0:58 left to come back"
    );
    assert_eq!(alice.wake_at(), Some(later + Duration::from_millis(500)));
    assert_eq!(alice.title(), "Tic-tac-toe · rated · 3+2");
}

#[test]
fn a_refusal_goes_the_moment_the_opponents_move_makes_it_your_turn() {
    let t0 = Instant::now();
    let (mut alice, mut bob) = pair(t0);
    bob.update(Action::Place(Square::new(1, 1)), t0);
    assert_eq!(bob.status_line(), "Not your turn: waiting for alice");
    // alice moves at once: the notice would otherwise last its full time.
    play(&mut alice, &mut bob, 0, t0);
    assert_eq!(bob.status_line(), "Your turn: you are O");
    assert_eq!(bob.wake_at(), None, "nothing left to clear later");
}

#[test]
fn undo_is_refused_in_a_game_between_two_people() {
    let t0 = Instant::now();
    let (mut alice, mut bob) = pair(t0);
    play(&mut alice, &mut bob, 0, t0);
    alice.update(Action::Undo, t0);
    assert_eq!(
        alice.status_line(),
        "No undo against a person: every move stands"
    );
    assert_eq!(alice.board().move_count(), 1);
    bob.update(Action::Redo, t0);
    assert_eq!(bob.board().move_count(), 1);
}

#[test]
fn a_finished_game_ends_the_same_on_both_screens_and_a_rematch_swaps_sides() {
    let t0 = Instant::now();
    let (mut alice, mut bob) = pair(t0);
    // X: 1 2 3 along the top; O: 4 5.
    play(&mut alice, &mut bob, 0, t0);
    play(&mut bob, &mut alice, 3, t0);
    play(&mut alice, &mut bob, 1, t0);
    play(&mut bob, &mut alice, 4, t0);
    play(&mut alice, &mut bob, 2, t0);
    assert_eq!(alice.board().status(), Status::Won(Player::X));
    assert_eq!(bob.board(), alice.board());
    assert_eq!(alice.status_line(), "X wins: you win! · n for a rematch");
    assert_eq!(bob.status_line(), "X wins: you lose · n for a rematch");

    // A rematch during a game is refused; after it, both must ask.
    bob.update(Action::NewGame, t0);
    relay(&mut bob, &mut alice, t0);
    assert_eq!(
        bob.status_line(),
        "X wins: you lose · waiting for alice to accept"
    );
    assert_eq!(
        alice.status_line(),
        "X wins: you win! · bob wants a rematch: press n"
    );
    alice.update(Action::NewGame, t0);
    relay(&mut alice, &mut bob, t0);
    for app in [&alice, &bob] {
        assert_eq!(app.board().move_count(), 0);
        assert_eq!(app.players_line(), "bob: X  vs  alice: O");
        assert_eq!(app.round(), 1);
    }
    assert_eq!(bob.my_side(), Some(Player::X));
    assert_eq!(alice.my_side(), Some(Player::O));
    assert_eq!(bob.status_line(), "Your turn: you are X");
    for app in [&alice, &bob] {
        assert_eq!(
            app.tally_lines()[0],
            "bob wins 0 · alice wins 1 · draws 0",
            "alice's win stays hers now that she plays O"
        );
    }

    alice.update(Action::NewGame, t0);
    assert_eq!(alice.status_line(), "A rematch once this game is over");
    assert!(alice.take_outgoing().is_empty());
}

#[test]
fn when_the_opponent_leaves_the_player_is_told_and_any_key_leaves() {
    let t0 = Instant::now();
    let (mut alice, mut bob) = pair(t0);
    play(&mut alice, &mut bob, 4, t0);
    alice.end_link("bob left");
    assert_eq!(alice.status_line(), "bob left");
    assert!(!alice.should_quit());
    alice.update(Action::Cursor(Direction::Up), t0);
    assert!(alice.should_quit());
}

#[test]
fn a_spectator_follows_the_moves_and_cannot_play() {
    let t0 = Instant::now();
    let mut watcher = App::new(settings(), t0).watching(names(), t0);
    assert!(watcher.take_request().is_none());
    let moves = [Square::new(1, 1), Square::new(0, 0)];
    watcher.follow(names(), &moves[..1], t0);
    watcher.follow(names(), &moves, t0);
    assert_eq!(watcher.game().moves(), &moves);
    assert_eq!(watcher.status_line(), "alice (X) to move");
    assert!(!watcher.human_to_move());

    watcher.update(Action::Place(Square::new(2, 2)), t0);
    assert_eq!(
        watcher.status_line(),
        "You are watching: q returns to the lobby"
    );
    assert_eq!(watcher.game().moves(), &moves);

    // A new game (a rematch with the sides swapped) replaces the old one.
    let swapped = Names {
        x: "bob".to_string(),
        o: "alice".to_string(),
    };
    watcher.follow(swapped, &[Square::new(0, 2)], t0);
    assert_eq!(watcher.game().moves(), &[Square::new(0, 2)]);
    assert_eq!(watcher.players_line(), "bob: X  vs  alice: O");
}

#[test]
fn a_game_between_people_asks_the_engine_only_for_explanations() {
    let t0 = Instant::now();
    let (mut alice, _bob) = pair(t0);
    alice.update(Action::ToggleExplain, t0);
    assert!(matches!(
        alice.take_request(),
        Some(tictactoe_screen::message::Request::Explain { .. })
    ));
}

#[test]
fn linked_screens_draw_on_any_terminal_size_without_panicking() {
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    let t0 = Instant::now();
    let (mut alice, _bob) = pair(t0);
    alice.update(Action::ToggleExplain, t0);
    let watcher = App::new(settings(), t0).watching(names(), t0);
    for (width, height) in [
        (1, 1),
        (1, 30),
        (90, 1),
        (2, 2),
        (10, 5),
        (29, 14),
        (31, 16),
    ] {
        let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("a terminal");
        for app in [&alice, &watcher] {
            terminal
                .draw(|frame| frame.render_widget(app, frame.area()))
                .expect("drawn");
        }
    }
}

/// The screen as text, one line per row.
fn screen(app: &App, width: u16, height: u16) -> Vec<String> {
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("a terminal");
    terminal
        .draw(|frame| frame.render_widget(app, frame.area()))
        .expect("drawn");
    let buffer = terminal.backend().buffer();
    (0..height)
        .map(|y| {
            (0..width)
                .map(|x| buffer[(x, y)].symbol())
                .collect::<String>()
        })
        .collect()
}

#[test]
fn a_spectator_keeps_each_players_wins_across_a_rematch() {
    let t0 = Instant::now();
    let mut watcher = App::new(settings(), t0).watching(names(), t0);
    // alice (X) wins along the top row.
    let won: Vec<Square> = [0, 3, 1, 4, 2].map(|i| Square::from_index(i, 3)).to_vec();
    watcher.follow(names(), &won, t0);
    assert_eq!(watcher.board().status(), Status::Won(Player::X));
    assert_eq!(
        watcher.tally_lines()[0],
        "alice wins 1 · bob wins 0 · draws 0"
    );
    let swapped = Names {
        x: "bob".to_string(),
        o: "alice".to_string(),
    };
    watcher.follow(swapped, &[], t0);
    assert_eq!(
        watcher.tally_lines()[0],
        "bob wins 0 · alice wins 1 · draws 0"
    );
    let drawn = screen(&watcher, 80, 24).join("\n");
    assert!(
        drawn.contains("bob wins 0 · alice wins 1 · draws 0"),
        "{drawn}"
    );
    let narrow = screen(&watcher, 30, 15).join("\n");
    assert!(narrow.contains("bob 0 · alice 1 · draws 0"), "{narrow}");
}

#[test]
fn a_game_against_the_ai_on_the_server_says_q_goes_back_to_the_lobby() {
    let t0 = Instant::now();
    let mut app = App::new(settings(), t0).in_lobby();
    for (width, height) in [(80, 24), (30, 15)] {
        let keys = screen(&app, width, height).last().cloned().unwrap();
        assert!(keys.contains("q lobby") && !keys.contains("quit"), "{keys}");
    }
    app.update(Action::ToggleHelp, t0);
    let help = screen(&app, 80, 24).join("\n");
    assert!(
        help.contains("back to the lobby") && !help.contains("quit"),
        "{help}"
    );
    app.update(Action::ToggleHelp, t0);
    app.update(Action::Quit, t0);
    assert!(
        app.should_quit(),
        "the server takes the player back to the lobby"
    );
}

#[test]
fn once_the_opponent_has_left_the_keys_say_any_key_returns() {
    let t0 = Instant::now();
    let (mut alice, _bob) = pair(t0);
    alice.end_link("bob left");
    let keys = screen(&alice, 80, 24).last().cloned().unwrap();
    assert_eq!(keys.trim(), "any key returns to the lobby");
}

#[test]
fn the_waiting_player_may_claim_once_the_server_says_so_and_the_staller_may_not() {
    let t0 = Instant::now();
    let (mut alice, mut bob) = pair(t0);
    play(&mut alice, &mut bob, 0, t0);
    // bob (O) is to move; the server says alice may claim from a minute on.
    let at = t0 + Duration::from_secs(60);
    let served = Served {
        claim: Some(at),
        ..Served::default()
    };
    alice.serve(served.clone(), t0);
    bob.serve(served, t0);
    assert!(!alice.claimable());
    alice.update(Action::Claim { win: true }, t0);
    assert!(alice.take_outgoing().is_empty(), "not yet");
    alice.tick(at);
    bob.tick(at);
    assert!(
        alice.claimable() && !bob.claimable(),
        "only the one who waits"
    );
    assert_eq!(
        alice.status_line(),
        "bob has not moved in the time allowed: v claims the win, x aborts"
    );
    let bar = screen(&alice, 80, 24).join("\n");
    assert!(
        bar.contains("v claim the win") && bar.contains("x abort"),
        "{bar}"
    );
    alice.update(Action::Claim { win: false }, at);
    assert_eq!(alice.take_outgoing(), [Outgoing::Claim { win: false }]);
}

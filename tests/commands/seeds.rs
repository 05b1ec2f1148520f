//! One seed, one game: the same `--seed` and the same moves give the same
//! game in the full screen, plain mode, the screen-reader mode and
//! `selfplay`. Each front end draws the AI's random choices from one set of
//! dice through the session, seeded by `--seed`.
//!
//! The text modes and `selfplay` run as the binary, each writing its games
//! to a records file; the full screen is its model driven as the terminal
//! drives it, every request answered by the engine's worker.

use crate::support;

use std::path::Path;
use std::time::{Duration, Instant};

use tictactoe_engine::{Board, Level, Square};
use tictactoe_game::action::Action;
use tictactoe_game::game::Seat;
use tictactoe_game::record::read_file;
use tictactoe_game::settings::Settings;
use tictactoe_screen::app::App;

use support::docs::assert_shown;
use support::{answer_all, settings, tictactoe};

/// The moves of the first game of a records file.
fn first_game(path: &Path) -> Vec<Square> {
    let games = read_file(path, &mut std::io::empty()).expect("a records file");
    games.first().expect("a game recorded").moves().to_vec()
}

/// A person's moves, as the tests make them: the first free square in
/// reading order (in the text modes, the squares 1 to 9 typed in turn, each
/// taken one refused).
fn first_free(board: &Board) -> Square {
    board.legal_moves()[0]
}

/// The full screen's first game with `settings`: a person (if any) plays
/// the first free square, every request is answered, time passes a second
/// a step.
fn screen_game(settings: Settings) -> Vec<Square> {
    let mut now = Instant::now();
    let mut app = App::new(settings, now);
    for _ in 0..100 {
        if app.game().status().is_over() {
            return app.game().moves().to_vec();
        }
        if app.human_to_move() {
            app.update(Action::Place(first_free(&app.board())), now);
        }
        answer_all(&mut app, now);
        now += Duration::from_secs(1);
        app.tick(now);
    }
    panic!("the game did not end: {:?}", app.game().moves())
}

/// The first game of a text mode (`--plain` or `--screen-reader`) run with
/// `args` and the squares typed in turn.
fn text_game(mode: &str, args: &[&str]) -> Vec<Square> {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let records = folder.path().join("games.ttt");
    let mut all = vec![
        mode,
        "--no-stats",
        "--record",
        records.to_str().expect("UTF-8"),
    ];
    all.extend(args);
    let out = tictactoe(&all, "1\n2\n3\n4\n5\n6\n7\n8\n9\nquit\n");
    assert!(out.status.success(), "{mode} {args:?}: {out:?}");
    first_game(&records)
}

/// `selfplay`'s first game.
fn selfplay_game(x: Level, o: Level, seed: u64) -> Vec<Square> {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let records = folder.path().join("games.ttt");
    let seed = seed.to_string();
    let out = tictactoe(
        &[
            "selfplay",
            "--x",
            x.name(),
            "--o",
            o.name(),
            "--games",
            "1",
            "--seed",
            &seed,
            "--record",
            records.to_str().expect("UTF-8"),
        ],
        "",
    );
    assert!(out.status.success(), "{out:?}");
    first_game(&records)
}

fn seeded(x: Seat, o: Seat, seed: u64) -> Settings {
    Settings {
        seed: Some(seed),
        ..settings(x, o)
    }
}

/// The game: `--seed 1`, then 5 (b2). Every front end's AI
/// answered it the same way but the full screen's (c1 where the others
/// played a3), and so on for other seeds: a person against each level.
#[test]
fn a_person_against_the_ai_plays_the_same_game_in_every_front_end() {
    for level in [Level::Perfect, Level::Hard, Level::Random] {
        for seed in 1..=4u64 {
            let seed_arg = seed.to_string();
            let args = ["--seed", &seed_arg, "--difficulty", level.name()];
            let plain = text_game("--plain", &args);
            let reader = text_game("--screen-reader", &args);
            let screen = screen_game(seeded(Seat::Human, Seat::Ai(level), seed));
            let what = format!("{level} with seed {seed}");
            assert_eq!(plain, reader, "{what}: plain mode and the screen reader");
            assert_eq!(plain, screen, "{what}: plain mode and the full screen");
        }
    }
}

#[test]
fn the_ai_against_itself_plays_the_same_game_in_every_front_end() {
    for (x, o) in [(Level::Hard, Level::Hard), (Level::Perfect, Level::Random)] {
        for seed in 1..=4u64 {
            let seed_arg = seed.to_string();
            let args = [
                "--watch",
                "--seed",
                &seed_arg,
                "--x-level",
                x.name(),
                "--o-level",
                o.name(),
            ];
            let selfplay = selfplay_game(x, o, seed);
            let plain = text_game("--plain", &args);
            let reader = text_game("--screen-reader", &args);
            let screen = screen_game(seeded(Seat::Ai(x), Seat::Ai(o), seed));
            let what = format!("{x} against {o} with seed {seed}");
            assert_eq!(selfplay, plain, "{what}: selfplay and plain mode");
            assert_eq!(selfplay, reader, "{what}: selfplay and the screen reader");
            assert_eq!(selfplay, screen, "{what}: selfplay and the full screen");
        }
    }
}

/// `app` after a person's `moves` against the seeded AI, and then
/// `actions`, every request answered.
fn played(seed: u64, moves: &[&str], actions: &[Action]) -> App {
    let mut now = Instant::now();
    let mut app = App::new(seeded(Seat::Human, Seat::Ai(Level::Perfect), seed), now);
    let settle = |app: &mut App, now: &mut Instant| {
        for _ in 0..10 {
            answer_all(app, *now);
            *now += Duration::from_secs(1);
            app.tick(*now);
        }
    };
    for square in moves {
        app.update(Action::Place(square.parse().expect("a square")), now);
        settle(&mut app, &mut now);
    }
    for &action in actions {
        app.update(action, now);
        settle(&mut app, &mut now);
    }
    app
}

/// The screen at `width` x `height` as a page shows it.
fn screen_text(app: &App, (width, height): (u16, u16)) -> String {
    let buffer = support::draw(app, width, height);
    let rows: Vec<String> = buffer
        .content
        .chunks(usize::from(width))
        .map(|row| row.iter().map(|cell| cell.symbol()).collect())
        .collect();
    rows.join("\n")
}

/// The screen at the top of README.md is the game's own: `tictactoe --seed
/// 2`, then `5` and `3`, at 80x24 (docs/GUIDE.md says so).
#[test]
fn the_readmes_screen_is_the_game_after_5_and_3_with_seed_2() {
    let screen = screen_text(&played(2, &["b2", "c1"], &[]), (80, 24));
    assert_shown("README.md", &screen);
}

/// docs/GUIDE.md's explain screens are the game's own: `tictactoe --seed
/// 8`, `5` and `1`, then `e` and the cursor right onto b1, at 80x24; and
/// `5` then `e` at 40x15.
#[test]
fn the_explain_screens_in_guide_md_are_the_games() {
    let right = Action::Cursor(tictactoe_game::action::Direction::Right);
    let wide = played(8, &["b2", "a1"], &[Action::ToggleExplain, right]);
    let small = played(8, &["b2"], &[Action::ToggleExplain]);
    for screen in [screen_text(&wide, (80, 24)), screen_text(&small, (40, 15))] {
        assert_shown("docs/GUIDE.md", &screen);
    }
}

//! What the test files share: running the real binary, the settings a test
//! game is played with, drawing the screen model, answering its requests, and
//! reading the game off a terminal screen. Each test file uses some of it.
#![allow(dead_code)]

pub mod screen;

use std::io::Write;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use tictactoe::engine::{Board, Level, Limits};
use tictactoe::game::{Seat, Seats};
use tictactoe::screen::app::App;
use tictactoe::screen::worker::Worker;
use tictactoe::settings::Settings;

/// The AI's pause before it answers a person, in test games.
pub const AI_DELAY: Duration = Duration::from_millis(300);

/// The pause between moves in watch mode, in test games.
pub const WATCH_DELAY: Duration = Duration::from_millis(500);

/// The perfect AI in a seat.
pub const PERFECT: Seat = Seat::Ai(Level::Perfect);

/// The binary under test, not yet started.
pub fn binary() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tictactoe"))
}

/// Runs the binary with `args`, `stdin` as its input, and waits for it.
pub fn tictactoe(args: &[&str], stdin: impl AsRef<[u8]>) -> Output {
    let mut child = binary()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let written = child.stdin.take().expect("piped").write_all(stdin.as_ref());
    // A command that reads no input (or refuses its arguments) may exit
    // before its input is written: a closed pipe then is no failure.
    if let Err(error) = written {
        assert_eq!(error.kind(), std::io::ErrorKind::BrokenPipe, "{error}");
    }
    child.wait_with_output().expect("the binary finishes")
}

/// A game on the empty 3x3 board with these seats.
pub fn settings(x: Seat, o: Seat) -> Settings {
    settings_from(Board::new(), x, o)
}

/// A game from `start` with these seats: the AI pauses [`AI_DELAY`] before
/// it answers, watch mode [`WATCH_DELAY`] between moves, bigger boards are
/// thought about for 100 ms, and every random choice is seeded.
pub fn settings_from(start: Board, x: Seat, o: Seat) -> Settings {
    Settings {
        seats: Seats { x, o },
        start,
        ai_delay: AI_DELAY,
        watch_delay: WATCH_DELAY,
        limits: Limits::Think(Duration::from_millis(100)),
        seed: Some(7),
        scoring: Default::default(),
    }
}

/// The screen model drawn on a `width` x `height` test terminal.
pub fn draw(app: &App, width: u16, height: u16) -> Buffer {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("a test terminal");
    terminal
        .draw(|frame| frame.render_widget(app, frame.area()))
        .expect("drawing succeeds");
    terminal.backend().buffer().clone()
}

/// Answers every outstanding request at once, as the worker thread would,
/// and says how many there were.
pub fn answer_all(app: &mut App, now: Instant) -> usize {
    let mut answered = 0;
    while let Some(request) = app.take_request() {
        app.receive(Worker::default().answer(&request), now);
        answered += 1;
    }
    answered
}

//! What the test files share: running the real binary, waiting for what
//! should happen ([`eventually`], the one way a test waits), the settings a
//! test game is played with, drawing the screen model, answering its
//! requests, and reading the game off a terminal screen. Each test file uses
//! some of it.
#![allow(dead_code)]

pub mod docs;
#[cfg(feature = "serve")]
pub mod frozen;
pub mod screen;
#[cfg(feature = "serve")]
pub mod server;
#[cfg(feature = "serve")]
pub mod ssh;
pub mod student;

use std::io::{Read, Write};
use std::process::{Child, Command, Output, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use tictactoe_engine::{Board, Level, Limits};
use tictactoe_game::game::{Seat, Seats};
use tictactoe_game::settings::Settings;
use tictactoe_screen::app::App;
use tictactoe_screen::worker::Worker;

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

/// How long [`eventually`] asks before it calls a wait a hang. Nothing a
/// test waits for takes more than seconds, even on a machine loaded many
/// times over; a wait this long is one that would never end, and it fails
/// the test rather than hanging the suite.
pub const PATIENCE: Duration = Duration::from_secs(600);

/// The pace of every wait in the tests, blocking ([`eventually`]) or async
/// (the SSH tests' `ssh::eventually`): ask at once, then after pauses that
/// double from 1 ms to 50 ms, so a quick answer is seen quickly and a slow
/// one costs little. There is no time to meet: only a wait past
/// [`PATIENCE`] is a hang.
pub struct Pacing {
    start: Instant,
    pause: Duration,
}

impl Pacing {
    /// A wait that starts now.
    pub fn new() -> Pacing {
        Pacing {
            start: Instant::now(),
            pause: Duration::from_millis(1),
        }
    }

    /// How long to pause before asking again; `None` once [`PATIENCE`] has
    /// passed, when the wait is a hang.
    pub fn next(&mut self) -> Option<Duration> {
        if self.start.elapsed() > PATIENCE {
            return None;
        }
        let pause = self.pause;
        self.pause = (pause * 2).min(Duration::from_millis(50));
        Some(pause)
    }
}

impl Default for Pacing {
    fn default() -> Pacing {
        Pacing::new()
    }
}

/// Asks `ready` until it gives a value, and returns that value, at the
/// pace of [`Pacing`]; only a wait past [`PATIENCE`] fails the test, with
/// `why()` as its message (built then, so it can show the state of things
/// at the end).
///
/// Whatever was started for the wait and must not outlive a failed test
/// (a child process) is ended by its owner's `Drop`, as [`Reaped`] does.
pub fn eventually<T>(mut ready: impl FnMut() -> Option<T>, why: impl FnOnce() -> String) -> T {
    let mut pacing = Pacing::new();
    loop {
        if let Some(value) = ready() {
            return value;
        }
        match pacing.next() {
            Some(pause) => thread::sleep(pause),
            None => panic!("{} (still waiting after {PATIENCE:?})", why()),
        }
    }
}

/// A child process that is killed and reaped when dropped, should a test
/// fail while it runs; [`Reaped::wait`] waits for it to end by itself.
pub struct Reaped(pub Child);

impl Reaped {
    /// Waits for the child to exit (see [`eventually`]); `what` names it
    /// if it never does.
    pub fn wait(&mut self, what: &str) -> std::process::ExitStatus {
        let child = &mut self.0;
        eventually(
            || child.try_wait().expect("the child can be waited on"),
            || format!("{what} hung"),
        )
    }
}

impl Drop for Reaped {
    fn drop(&mut self) {
        if let Ok(None) = self.0.try_wait() {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
}

/// Waits for `child` to exit and collects its piped output, as
/// `wait_with_output` does; a child that never exits is a hang (see
/// [`eventually`]): it is killed and the test fails, saying `what` hung.
pub fn output_within(mut child: Child, what: &str) -> Output {
    fn drain(pipe: Option<impl Read + Send + 'static>) -> thread::JoinHandle<Vec<u8>> {
        thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            bytes
        })
    }
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());
    let status = Reaped(child).wait(what);
    Output {
        status,
        stdout: stdout.join().expect("stdout is read"),
        stderr: stderr.join().expect("stderr is read"),
    }
}

/// Runs `command` with no input and its output piped; a hang fails the
/// test ([`output_within`]).
pub fn run(command: &mut Command, what: &str) -> Output {
    let child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    output_within(child, what)
}

/// Makes a named pipe (FIFO) at `at`: opening one waits for the other end,
/// so whatever meets it must not open it blindly.
pub fn named_pipe(at: &std::path::Path) {
    use rustix::fs::{CWD, FileType, Mode, mknodat};
    mknodat(CWD, at, FileType::Fifo, Mode::from(0o644), 0).expect("a named pipe");
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

/// GeeksforGeeks' board: X to move, and the article's best move is row 2,
/// col 2 (c3), worth 10.
pub const GEEKSFORGEEKS: &str = "xox/oox/...";

/// freeCodeCamp's board: X to move, nine calls (FC1 to FC9), the centre.
pub const FREECODECAMP: &str = "o.x/x.x/.oo";

/// freeCodeCamp's board, two people seated: the position the teaching views
/// open on, nobody's AI moving.
pub fn freecodecamp_app(t0: Instant) -> App {
    let start: Board = FREECODECAMP.parse().expect("the article's board");
    App::new(settings_from(start, Seat::Human, Seat::Human), t0)
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

/// The binary under test on a disk that is full past `bytes`, as near as a
/// test without root gets: no file it writes may grow past `bytes`
/// (RLIMIT_FSIZE), and a write that would fails with an error (SIGXFSZ is
/// ignored), as a write to a full disk fails with ENOSPC. Pipes are not
/// files: standard output and error are written as usual.
pub fn binary_on_a_full_disk(bytes: u64) -> Command {
    on_a_full_disk(env!("CARGO_BIN_EXE_tictactoe"), bytes)
}

/// `program` on a disk that is full past `bytes`, as [`binary_on_a_full_disk`].
pub fn on_a_full_disk(program: impl AsRef<std::ffi::OsStr>, bytes: u64) -> Command {
    let mut command = Command::new("sh");
    command
        .args(["-c", r#"trap "" XFSZ; exec "$0" "$@""#])
        .arg(program);
    limited(&mut command, rustix::process::Resource::Fsize, bytes);
    command
}

/// The binary under test with at most `bytes` of memory to map
/// (RLIMIT_AS): a reader whose memory follows the file's size runs out.
pub fn binary_with_memory(bytes: u64) -> Command {
    let mut command = binary();
    limited(&mut command, rustix::process::Resource::As, bytes);
    command
}

/// Sets a resource limit of the command's process as it starts.
fn limited(command: &mut Command, resource: rustix::process::Resource, bytes: u64) {
    use std::os::unix::process::CommandExt;
    let limit = rustix::process::Rlimit {
        current: Some(bytes),
        maximum: Some(bytes),
    };
    // SAFETY: setrlimit is async-signal-safe and touches no memory of the parent.
    unsafe {
        command.pre_exec(move || {
            rustix::process::setrlimit(resource, limit).map_err(std::io::Error::from)
        });
    }
}

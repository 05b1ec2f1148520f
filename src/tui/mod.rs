//! The full-screen game in the local terminal: owns the terminal (raw mode,
//! alternate screen, mouse, signals, suspend) and runs [`crate::screen`]'s
//! model in it.
//!
//! The loop sleeps on one channel that every source of work feeds: keys from
//! an input thread, the engine's answers, signals, and notes from the thread
//! that saves statistics. So nothing polls, a signal wakes the loop at once,
//! and the terminal is restored on every way out.

use std::io::{self, stdout};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread::{self, JoinHandle};
use std::time::Instant;

use crossterm::event::{self, DisableMouseCapture, EnableMouseCapture, Event};
use crossterm::terminal::{self, EnterAlternateScreen, LeaveAlternateScreen};
use crossterm::{cursor, execute};
use ratatui::DefaultTerminal;
use ratatui::layout::Rect;
use signal_hook::consts::{SIGCONT, SIGHUP, SIGINT, SIGTERM, SIGTSTP};
use signal_hook::iterator::Signals;

use crate::console::Keep;
use crate::engine::Board;
use crate::game::{Game, ResultChange, Seats};
use crate::record;
use crate::screen::{Action, App, Reply, Request, input, worker};
use crate::settings::Settings;
use crate::stats::Counter;

/// How a session in the terminal ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// The player quit.
    Quit,
    /// A signal (SIGTERM, SIGHUP or SIGINT) ended it; the process should exit with 128 + n.
    Signal(i32),
}

/// A finished session: how it ended and the messages to print once the screen is gone.
#[derive(Debug)]
pub struct Outcome {
    /// Quit or signal.
    pub ending: Ending,
    /// Warnings shown during the game (about saved statistics), in full.
    pub messages: Vec<String>,
}

/// The status line when a game could not be recorded.
const RECORD_FAILED: &str = "error: game not recorded (details on exit)";

/// Everything that can wake the loop.
enum Wake {
    Input(Event),
    InputFailed(io::Error),
    Reply(Reply),
    Signal(i32),
    /// A warning from the statistics thread, short enough for the status line
    /// (the whole text is printed when the game ends).
    Note(&'static str),
}

/// Plays a session in the terminal until the player quits or a signal ends
/// it, counting each game in the statistics and appending it to the
/// records file of `keep` the moment it finishes. `color` is false when the
/// user asked for no colour.
pub fn run(settings: Settings, color: bool, keep: Keep) -> io::Result<Outcome> {
    let (wake, woken) = mpsc::channel();
    let mut signals = Signals::new([SIGTERM, SIGHUP, SIGINT, SIGTSTP, SIGCONT])?;
    let signal_handle = signals.handle();
    {
        let wake = wake.clone();
        thread::spawn(move || {
            for signal in signals.forever() {
                if wake.send(Wake::Signal(signal)).is_err() {
                    break;
                }
            }
        });
    }
    let mut terminal = TerminalGuard::enter()?;
    spawn_input(wake.clone());
    let requests = {
        let wake = wake.clone();
        worker::spawn(move |reply| wake.send(Wake::Reply(reply)).is_ok())
    };
    let recorder = Recorder::start(keep, settings.seats, settings.start, wake.clone());
    drop(wake);

    let app = App::new(settings, Instant::now()).with_color(color);
    let result = play(&mut terminal, app, &requests, &recorder, &woken);
    // The screen goes first, so leaving is instant even if a save still waits for its lock.
    drop(terminal);
    signal_handle.close();
    let messages = recorder.finish();
    let ending = result?;
    Ok(Outcome { ending, messages })
}

/// The loop itself: draw, sleep until something happens, act on it.
fn play(
    terminal: &mut TerminalGuard,
    mut app: App,
    requests: &Sender<Request>,
    recorder: &Recorder,
    woken: &Receiver<Wake>,
) -> io::Result<Ending> {
    loop {
        let now = Instant::now();
        app.tick(now);
        for change in app.take_result_changes() {
            recorder.save(Kept::Result(change));
        }
        for game in app.take_finished_games() {
            recorder.save(Kept::Game(game));
        }
        while let Some(request) = app.take_request() {
            // A closed channel means the worker panicked.
            requests
                .send(request)
                .map_err(|_| io::Error::other("the engine's thread stopped"))?;
        }
        let area = terminal
            .0
            .draw(|frame| frame.render_widget(&app, frame.area()))?
            .area;
        if app.should_quit() {
            return Ok(Ending::Quit);
        }
        // Sleep until something arrives, or until the model has something due.
        let wake = match app.wake_at() {
            Some(at) => match woken.recv_timeout(at.saturating_duration_since(Instant::now())) {
                Ok(wake) => wake,
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => return Err(stopped()),
            },
            None => woken.recv().map_err(|_| stopped())?,
        };
        // Act on everything that has arrived before drawing again.
        for wake in std::iter::once(wake).chain(woken.try_iter()) {
            match wake {
                Wake::Input(event) => match input::action_for(&event, &app, area) {
                    // Ctrl-Z: in raw mode the terminal sends it as a key, not as SIGTSTP.
                    Some(Action::Suspend) => terminal.suspend()?,
                    Some(action) => app.update(action, Instant::now()),
                    None => {}
                },
                Wake::InputFailed(error) => return Err(error),
                Wake::Reply(reply) => app.receive(reply, Instant::now()),
                Wake::Signal(SIGTSTP) => terminal.suspend()?,
                Wake::Signal(SIGCONT) => terminal.resume()?,
                Wake::Signal(signal) => return Ok(Ending::Signal(signal)),
                Wake::Note(headline) => app.notify(headline, Instant::now()),
            }
        }
    }
}

fn stopped() -> io::Error {
    io::Error::other("the game's threads stopped")
}

/// Reads the terminal's events on a thread of its own, so the loop can wait
/// on keys, answers and signals at once.
fn spawn_input(wake: Sender<Wake>) {
    thread::spawn(move || {
        loop {
            let message = match event::read() {
                Ok(event) => Wake::Input(event),
                Err(error) => Wake::InputFailed(error),
            };
            let failed = matches!(message, Wake::InputFailed(_));
            if wake.send(message).is_err() || failed {
                break;
            }
        }
    });
}

/// What the recorder keeps: a result for the statistics, a finished game
/// for the records file.
enum Kept {
    Result(ResultChange),
    Game(Game),
}

/// Saves results and records games on a thread of its own: a file locked by
/// another program can delay the count, never the game.
struct Recorder {
    changes: Option<Sender<Kept>>,
    thread: Option<JoinHandle<Vec<String>>>,
}

impl Recorder {
    /// Saves the results of a session with these seats, started from `start`.
    fn start(keep: Keep, seats: Seats, start: Board, wake: Sender<Wake>) -> Recorder {
        let (changes, incoming) = mpsc::channel::<Kept>();
        let thread = thread::spawn(move || {
            let mut counter = Counter::new(keep.stats);
            let mut messages = Vec::new();
            for kept in incoming {
                let lines = match kept {
                    Kept::Result(change) => counter
                        .save(change, seats, start)
                        .into_iter()
                        .map(|line| (Counter::headline(&line), line))
                        .collect(),
                    Kept::Game(game) => match &keep.records {
                        Some(file) => file
                            .append(&record::of_game(&game, seats, record::today()))
                            .err()
                            .map(|error| (RECORD_FAILED, format!("error: {error}")))
                            .into_iter()
                            .collect(),
                        None => Vec::new(),
                    },
                };
                for (headline, line) in lines {
                    // The loop may be gone already; the message is kept either way.
                    let _ = wake.send(Wake::Note(headline));
                    messages.push(line);
                }
            }
            messages
        });
        Recorder {
            changes: Some(changes),
            thread: Some(thread),
        }
    }

    fn save(&self, kept: Kept) {
        if let Some(changes) = &self.changes {
            // The thread only ends when the changes stop; a send cannot fail before that.
            let _ = changes.send(kept);
        }
    }

    /// Waits for every result to be saved; returns what the user was told, in full.
    fn finish(mut self) -> Vec<String> {
        drop(self.changes.take());
        self.thread
            .take()
            .and_then(|thread| thread.join().ok())
            .unwrap_or_default()
    }
}

/// The terminal in raw mode on the alternate screen with mouse capture, given
/// back on drop, on panic and while the process is suspended.
struct TerminalGuard(DefaultTerminal);

impl TerminalGuard {
    fn enter() -> io::Result<TerminalGuard> {
        // ratatui's panic hook restores raw mode and the screen; this one, which
        // runs after it, also releases the mouse and shows the cursor.
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let _ = execute!(stdout(), DisableMouseCapture, cursor::Show);
            previous(info);
        }));
        let terminal = ratatui::try_init().inspect_err(|_| ratatui::restore())?;
        let guard = TerminalGuard(terminal);
        execute!(stdout(), EnableMouseCapture)?;
        Ok(guard)
    }

    /// Gives the terminal back and stops the process, as Ctrl-Z does in a
    /// shell; takes the terminal again when the process is continued.
    fn suspend(&mut self) -> io::Result<()> {
        restore();
        signal_hook::low_level::emulate_default_handler(SIGTSTP)?;
        self.resume()
    }

    /// Takes the terminal again (after `fg`, the shell has reset it) and redraws everything.
    fn resume(&mut self) -> io::Result<()> {
        // crossterm skips enabling raw mode it believes is on, but a shell that
        // saw the process stop has put the terminal back to normal: start over.
        let _ = terminal::disable_raw_mode();
        terminal::enable_raw_mode()?;
        execute!(
            stdout(),
            EnterAlternateScreen,
            EnableMouseCapture,
            cursor::Hide
        )?;
        // Resizing to the current size clears the screen and forgets the last
        // frame, so the next one is drawn whole. (`clear` would ask the terminal
        // for the cursor position, an answer the input thread would swallow.)
        let size = self.0.size()?;
        self.0.resize(Rect::new(0, 0, size.width, size.height))
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore();
    }
}

/// Raw mode off, main screen, mouse released, cursor shown. Errors are
/// ignored: with the terminal gone (SIGHUP) there is nothing left to restore.
fn restore() {
    let _ = execute!(stdout(), DisableMouseCapture);
    let _ = terminal::disable_raw_mode();
    let _ = execute!(stdout(), LeaveAlternateScreen, cursor::Show);
}

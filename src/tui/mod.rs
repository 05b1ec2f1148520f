//! The full-screen game: the terminal, the event loop and the AI's thread.
//! The model is in [`app`], the look in [`view`], the keys in [`input`].
//!
//! The loop sleeps on one channel that every source of work feeds: keys from
//! an input thread, the engine's answers, signals, and notes from the thread
//! that saves statistics. So nothing polls, a signal wakes the loop at once,
//! and the terminal is restored on every way out.

pub mod app;
pub mod input;
pub mod view;

use std::io::{self, stdout};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread::{self, JoinHandle};
use std::time::Instant;

use crossterm::event::{
    self, DisableMouseCapture, EnableMouseCapture, Event, KeyCode, KeyModifiers,
};
use crossterm::terminal::{self, EnterAlternateScreen, LeaveAlternateScreen};
use crossterm::{cursor, execute};
use ratatui::DefaultTerminal;
use ratatui::layout::Rect;
use signal_hook::consts::{SIGCONT, SIGHUP, SIGINT, SIGTERM, SIGTSTP};
use signal_hook::iterator::Signals;

use app::{App, Reply, Request, ResultChange, Settings};

use crate::engine::Ai;
use crate::stats::{GameRecord, StatsFile};

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

/// Everything that can wake the loop.
enum Wake {
    Input(Event),
    InputFailed(io::Error),
    Reply(Reply),
    Signal(i32),
    /// A warning from the statistics thread, short enough for the status line
    /// (the whole text is printed when the game ends).
    Note(String),
}

/// Plays a session in the terminal until the player quits or a signal ends
/// it, counting each game in `stats` the moment it finishes.
pub fn run(settings: Settings, stats: Option<StatsFile>) -> io::Result<Outcome> {
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
    let requests = spawn_ai(wake.clone());
    let recorder = Recorder::start(stats, wake.clone());
    drop(wake);

    let result = play(&mut terminal, settings, &requests, &recorder, &woken);
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
    settings: Settings,
    requests: &Sender<Request>,
    recorder: &Recorder,
    woken: &Receiver<Wake>,
) -> io::Result<Ending> {
    let seats = settings.seats;
    let start = settings.start;
    let mut app = App::new(settings, Instant::now());
    loop {
        let now = Instant::now();
        app.tick(now);
        for change in app.take_result_changes() {
            recorder.save(change, seats, start);
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
                Wake::Input(event) if is_suspend_key(&event) => terminal.suspend()?,
                Wake::Input(event) => {
                    if let Some(action) = input::action_for(&event, &app, area) {
                        app.update(action, Instant::now());
                    }
                }
                Wake::InputFailed(error) => return Err(error),
                Wake::Reply(reply) => app.receive(reply, Instant::now()),
                Wake::Signal(SIGTSTP) => terminal.suspend()?,
                Wake::Signal(SIGCONT) => terminal.resume()?,
                Wake::Signal(signal) => return Ok(Ending::Signal(signal)),
                Wake::Note(headline) => app.notify(&headline, Instant::now()),
            }
        }
    }
}

fn stopped() -> io::Error {
    io::Error::other("the game's threads stopped")
}

/// Ctrl-Z: in raw mode the terminal sends it as a key, not as SIGTSTP.
fn is_suspend_key(event: &Event) -> bool {
    event.as_key_press_event().is_some_and(|key| {
        key.code == KeyCode::Char('z') && key.modifiers.contains(KeyModifiers::CONTROL)
    })
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

/// Starts the thread that does the engine's work, so the screen stays
/// responsive (and `q` works) however long a big board takes.
fn spawn_ai(wake: Sender<Wake>) -> Sender<Request> {
    let (requests, incoming) = mpsc::channel::<Request>();
    thread::spawn(move || {
        // One AI for the session: on big boards it keeps what it searched.
        let mut ai = Ai::new();
        for request in incoming {
            if wake.send(Wake::Reply(request.run_with(&mut ai))).is_err() {
                break;
            }
        }
    });
    requests
}

/// Saves results on a thread of its own: a statistics file locked by another
/// program can delay the count, never the game.
struct Recorder {
    jobs: Option<Sender<(ResultChange, GameRecord)>>,
    thread: Option<JoinHandle<Vec<String>>>,
}

impl Recorder {
    fn start(stats: Option<StatsFile>, wake: Sender<Wake>) -> Recorder {
        let Some(stats) = stats else {
            return Recorder {
                jobs: None,
                thread: None,
            };
        };
        let (jobs, incoming) = mpsc::channel::<(ResultChange, GameRecord)>();
        let thread = thread::spawn(move || {
            let mut messages = Vec::new();
            for (change, record) in incoming {
                let result = match change {
                    ResultChange::Finished(_) => stats.record(record),
                    ResultChange::TakenBack(_) => stats.unrecord(record),
                };
                let notes = match result {
                    Ok(warnings) => warnings
                        .into_iter()
                        .map(|w| (w.headline(), w.to_string()))
                        .collect(),
                    Err(error) => vec![(
                        "warning: the game was not counted (details when you quit)".to_string(),
                        format!("warning: the game was not counted: {error}"),
                    )],
                };
                for (headline, full) in notes {
                    messages.push(full);
                    // The loop may be gone already; the message is kept either way.
                    let _ = wake.send(Wake::Note(headline));
                }
            }
            messages
        });
        Recorder {
            jobs: Some(jobs),
            thread: Some(thread),
        }
    }

    /// Queues a result for saving, if it is one the statistics count.
    fn save(&self, change: ResultChange, seats: crate::game::Seats, start: crate::engine::Board) {
        let status = match change {
            ResultChange::Finished(status) | ResultChange::TakenBack(status) => status,
        };
        if let (Some(jobs), Some(record)) = (&self.jobs, GameRecord::of(seats, start, status)) {
            // The thread only ends when the jobs stop; a send cannot fail before that.
            let _ = jobs.send((change, record));
        }
    }

    /// Waits for every queued result to be saved; returns the warnings, in full.
    fn finish(mut self) -> Vec<String> {
        drop(self.jobs.take());
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

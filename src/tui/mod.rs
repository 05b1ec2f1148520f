//! The full-screen game: the terminal, the event loop and the AI's thread.
//! The model is in [`app`], the look in [`view`], the keys in [`input`].

pub mod app;
pub mod input;
pub mod view;

use std::io::{self, stdout};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use ratatui::DefaultTerminal;
use ratatui::crossterm::event::{self, DisableMouseCapture, EnableMouseCapture};
use ratatui::crossterm::{cursor, execute};

use app::{App, Reply, Request, Settings};

use crate::engine::{Ai, ScoreSource};
use crate::stats::{GameRecord, StatsFile};

/// While the engine works, how often the loop looks for its answer.
const THINKING_POLL: Duration = Duration::from_millis(15);

/// Plays a session in the terminal until the player quits, counting finished
/// games in `stats`. Returns the warnings shown on the way.
pub fn run(settings: Settings, stats: Option<StatsFile>) -> io::Result<Vec<String>> {
    let mut terminal = TerminalGuard::enter()?;
    let (requests, replies) = spawn_ai();
    let (seats, start) = (settings.seats, settings.start);
    let mut app = App::new(settings, Instant::now());
    let mut warnings = Vec::new();
    loop {
        let now = Instant::now();
        app.tick(now);
        if let Some(status) = app.take_left_game()
            && let (Some(stats), Some(record)) = (&stats, GameRecord::of(seats, start, status))
        {
            // The status line gets the gist; the whole text is printed on exit.
            match stats.record(record) {
                Ok(notes) => {
                    for note in notes {
                        app.notify(&note.headline(), now);
                        warnings.push(note.to_string());
                    }
                }
                Err(error) => {
                    app.notify(
                        "warning: the game was not counted (details when you quit)",
                        now,
                    );
                    warnings.push(format!("warning: the game was not counted: {error}"));
                }
            }
        }
        if let Some(request) = app.take_request() {
            // The thread lives as long as this loop; a closed channel means it panicked.
            requests
                .send(request)
                .map_err(|_| io::Error::other("the AI thread stopped"))?;
        }
        let frame = terminal
            .0
            .draw(|frame| frame.render_widget(&app, frame.area()))?;
        let area = frame.area;
        if app.should_quit() {
            return Ok(warnings);
        }
        // Sleep until a key, or until something is due: an AI move, a message to clear.
        let wake = app
            .wake_at()
            .map(|at| at.saturating_duration_since(Instant::now()));
        let timeout = match (wake, app.is_waiting()) {
            (Some(wake), true) => Some(wake.min(THINKING_POLL)),
            (None, true) => Some(THINKING_POLL),
            (wake, false) => wake,
        };
        let ready = match timeout {
            Some(timeout) => event::poll(timeout)?,
            None => true, // nothing scheduled: block in read
        };
        if ready {
            let event = event::read()?;
            if let Some(action) = input::action_for(&event, &app, area) {
                app.update(action, Instant::now());
            }
        }
        loop {
            match replies.try_recv() {
                Ok(reply) => app.receive(reply, Instant::now()),
                Err(mpsc::TryRecvError::Empty) => break,
                // The worker is gone (it panicked): stop rather than wait forever.
                Err(mpsc::TryRecvError::Disconnected) => {
                    return Err(io::Error::other("the engine's thread stopped"));
                }
            }
        }
    }
}

/// Starts the thread that does the engine's work, so the screen stays
/// responsive (and `q` works) however long a big board takes.
fn spawn_ai() -> (mpsc::Sender<Request>, mpsc::Receiver<Reply>) {
    let (request_tx, request_rx) = mpsc::channel::<Request>();
    let (reply_tx, reply_rx) = mpsc::channel();
    thread::spawn(move || {
        // One AI for the session: on big boards it keeps what it searched.
        let mut ai = Ai::new(ScoreSource::Search);
        for request in request_rx {
            if reply_tx.send(request.run_with(&mut ai)).is_err() {
                break;
            }
        }
    });
    (request_tx, reply_rx)
}

/// The terminal in raw mode on the alternate screen with mouse capture, given
/// back on drop and on panic.
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
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        let _ = execute!(stdout(), DisableMouseCapture);
        ratatui::restore();
        let _ = execute!(stdout(), cursor::Show);
    }
}

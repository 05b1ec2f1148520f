//! The full-screen game in the local terminal: owns the terminal (raw mode,
//! alternate screen, mouse, signals, suspend) and runs [`crate`]'s
//! model in it.
//!
//! The loop sleeps on one channel that every source of work feeds: keys from
//! an input thread, the engine's answers, signals, and notes from the thread
//! that saves statistics. So nothing polls, a signal wakes the loop at once,
//! and the terminal is restored on every way out.
//!
//! The terminal can go away under the game (its window closed, the SSH
//! connection dropped): reads then end (end of file, or EIO) and writes fail
//! with EIO. The input thread takes the end of its input as that hangup, and
//! the game ends as SIGHUP ends it; from the first failed write on, every
//! write to the terminal is dropped, so restoring it cannot fail on the way out.

use std::io::{self, Read, Stdout, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::Instant;

use crossterm::event::{DisableMouseCapture, EnableMouseCapture, Event};
use crossterm::terminal::{self, Clear, ClearType, EnterAlternateScreen, LeaveAlternateScreen};
use crossterm::{cursor, execute};
use ratatui::backend::CrosstermBackend;
use ratatui::layout::Rect;
use ratatui::{Terminal, TerminalOptions, Viewport};
use signal_hook::consts::{SIGCONT, SIGHUP, SIGINT, SIGTERM, SIGTSTP, SIGWINCH};
use signal_hook::iterator::Signals;

use crate::app::App;
use crate::decode::KeyDecoder;
use crate::layout::drawn_area;
use crate::message::{Reply, Request};
use crate::{input, worker};
use tictactoe_game::action::Action;
use tictactoe_game::record::Archive;
use tictactoe_game::record::Keeper;
use tictactoe_game::settings::Settings;
use tictactoe_game::stats::Recorder;
use tictactoe_game::text;

/// How a session in the terminal was left.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// The player quit.
    Quit,
    /// A signal (SIGTERM, SIGHUP or SIGINT) ended it; the process should exit
    /// with 128 + n. The terminal going away (its input ended) ends it as its
    /// hangup signal would: `Signal(SIGHUP)`.
    Signal(i32),
}

/// A finished session: how it was left and the notes to print once the screen is gone.
#[derive(Debug)]
pub struct Report {
    /// Quit or signal.
    pub exit: Exit,
    /// What the statistics and the records file said during the game, in
    /// full, a line each (the screen showed their headlines).
    pub messages: Vec<String>,
    /// How many games could not be recorded: the session then failed.
    pub not_recorded: usize,
}

/// Everything that can wake the loop.
enum Wake {
    Input(Event),
    InputFailed(io::Error),
    /// The terminal has gone away: its input ended.
    Gone,
    Reply(Reply),
    Signal(i32),
    /// The headline of a note from the statistics thread.
    Note(&'static str),
    /// A line from the records thread for the status line.
    Told(String),
    /// Every result and game is saved: the notes, in full.
    Saved(Vec<String>, usize),
}

/// Plays a session in the terminal until the player quits, a signal ends it
/// or the terminal goes away, counting each game in the statistics and
/// appending it to the records file of `keep` the moment it finishes.
/// `color` is false when the user asked for no colour.
pub fn run(settings: Settings, color: bool, keep: Archive) -> io::Result<Report> {
    let (wake, woken) = mpsc::channel();
    let mut signals = Signals::new([SIGTERM, SIGHUP, SIGINT, SIGTSTP, SIGCONT, SIGWINCH])?;
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
    worker::warm_up(&settings.start);
    let savers = {
        // The loop may be gone already; the notes are kept either way.
        let (stats_wake, records_wake) = (wake.clone(), wake.clone());
        Savers {
            stats: Recorder::start(keep.stats, settings.seats, settings.start, move |note| {
                let _ = stats_wake.send(Wake::Note(note.headline()));
            }),
            records: Keeper::start(keep.records, settings.seats, move |line| {
                let _ = records_wake.send(Wake::Told(line));
            }),
        }
    };

    let app = App::new(settings, Instant::now()).with_color(color);
    let played = match play(&mut terminal, app, &requests, &savers, &woken) {
        // Whatever failed once the terminal was gone, the terminal going is the story.
        Err(error) if terminal_gone() || text::is_hangup(&error) => {
            GONE.store(true, Ordering::Relaxed);
            Ok(Exit::Signal(SIGHUP))
        }
        played => played,
    };
    // The screen goes first, so leaving is instant even if a save still waits for its lock.
    drop(terminal);
    let report = wait_for_saves(savers, played, &wake, &woken);
    signal_handle.close();
    report
}

/// The loop itself: draw, sleep until something happens, act on it.
fn play(
    terminal: &mut TerminalGuard,
    mut app: App,
    requests: &Sender<Request>,
    savers: &Savers,
    woken: &Receiver<Wake>,
) -> io::Result<Exit> {
    let hangup = Ok(Exit::Signal(SIGHUP));
    loop {
        let now = Instant::now();
        app.tick(now);
        for change in app.take_result_changes() {
            savers.stats.save(change);
        }
        for game in app.take_finished_games() {
            savers.records.save(&game);
        }
        if let Some(game) = app.take_game_to_save() {
            savers.records.save_new(&game);
        }
        while let Some(request) = app.take_request() {
            // A closed channel means the worker panicked.
            requests
                .send(request)
                .map_err(|_| io::Error::other("the engine's thread stopped"))?;
        }
        let area = terminal.draw(&app)?;
        if terminal_gone() {
            return hangup;
        }
        if app.should_quit() {
            return Ok(Exit::Quit);
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
                Wake::Gone => return hangup,
                Wake::Reply(reply) => app.receive(reply, Instant::now()),
                Wake::Signal(SIGTSTP) => terminal.suspend()?,
                Wake::Signal(SIGCONT) => terminal.resume()?,
                Wake::Signal(SIGWINCH) => terminal.fit(false)?,
                Wake::Signal(signal) => return Ok(Exit::Signal(signal)),
                Wake::Note(headline) => app.notify(headline, Instant::now()),
                Wake::Told(line) => app.notify(&line, Instant::now()),
                Wake::Saved(..) => {}
            }
        }
    }
}

/// The threads that save a session's results and record its games.
struct Savers {
    stats: Recorder,
    records: Keeper,
}

/// Waits for the statistics thread to save every result (and the records
/// thread to write every game), then gives the
/// session's report with the notes in full. SIGTERM and SIGINT still end the
/// wait (a file that never answers cannot hold the process), and then the
/// ending is theirs. SIGHUP does not: it comes with the terminal going away,
/// often just after the end of input has ended the game, and must not cut
/// short the count of its last game.
fn wait_for_saves(
    savers: Savers,
    played: io::Result<Exit>,
    wake: &Sender<Wake>,
    woken: &Receiver<Wake>,
) -> io::Result<Report> {
    let wake = wake.clone();
    thread::spawn(move || {
        let notes = savers
            .stats
            .finish()
            .into_iter()
            .map(|note| note.to_string());
        let errors = savers.records.finish();
        let not_recorded = errors.len();
        let errors = errors.into_iter().map(|error| format!("error: {error}"));
        let _ = wake.send(Wake::Saved(notes.chain(errors).collect(), not_recorded));
    });
    let (exit, messages, not_recorded) = loop {
        match woken.recv() {
            Ok(Wake::Saved(notes, not_recorded)) => break (played?, notes, not_recorded),
            Ok(Wake::Signal(signal @ (SIGTERM | SIGINT))) => {
                break (Exit::Signal(signal), Vec::new(), 0);
            }
            Ok(Wake::Signal(SIGTSTP)) => {
                // The terminal is already given back: stop as Ctrl-Z would.
                let _ = signal_hook::low_level::emulate_default_handler(SIGTSTP);
            }
            Ok(_) => {}
            Err(_) => break (played?, Vec::new(), 0),
        }
    };
    Ok(Report {
        exit,
        messages,
        not_recorded,
    })
}

fn stopped() -> io::Error {
    io::Error::other("the game's threads stopped")
}

/// Reads the terminal's keys and clicks on a thread of its own, so the loop
/// can wait on keys, answers and signals at once. In raw mode a read waits
/// for at least one byte, so a read of none (end of file) or EIO means the
/// terminal has gone away: the thread says so once and ends.
fn spawn_input(wake: Sender<Wake>) {
    thread::spawn(move || {
        let mut stdin = io::stdin().lock();
        let mut decoder = KeyDecoder::default();
        let mut bytes = [0; 1024];
        loop {
            let message = match stdin.read(&mut bytes) {
                Ok(0) => Wake::Gone,
                Ok(n) => {
                    let mut open = true;
                    decoder.feed(&bytes[..n], |event| {
                        open = open && wake.send(Wake::Input(event)).is_ok();
                    });
                    if open {
                        continue;
                    }
                    break;
                }
                Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                Err(error) if text::is_hangup(&error) => Wake::Gone,
                Err(error) => Wake::InputFailed(error),
            };
            if matches!(message, Wake::Gone) {
                GONE.store(true, Ordering::Relaxed);
            }
            let _ = wake.send(message);
            break;
        }
    });
}

/// Set once the terminal has gone away: nothing more is written to it.
static GONE: AtomicBool = AtomicBool::new(false);

fn terminal_gone() -> bool {
    GONE.load(Ordering::Relaxed)
}

/// The terminal's output. The first failed write means the terminal has gone
/// away (EIO after a hangup): from then on every write is dropped as if it
/// had been made, so restoring the terminal, ratatui's last words about the
/// cursor and a panic's own restoring never fail (nor panic) on it.
#[derive(Debug, Default, Clone, Copy)]
struct Out;

impl Out {
    fn attempt(
        &self,
        act: impl FnOnce(&mut Stdout) -> io::Result<usize>,
        len: usize,
    ) -> io::Result<usize> {
        if terminal_gone() {
            return Ok(len);
        }
        match act(&mut io::stdout()) {
            Err(error) if error.kind() == io::ErrorKind::Interrupted => Err(error),
            Err(_) => {
                GONE.store(true, Ordering::Relaxed);
                Ok(len)
            }
            written => written,
        }
    }
}

impl Write for Out {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.attempt(|out| out.write(bytes), bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.attempt(|out| out.flush().map(|()| 0), 0).map(|_| ())
    }
}

type Screen = Terminal<CrosstermBackend<Out>>;

/// The terminal in raw mode on the alternate screen with mouse capture, given
/// back on drop, on panic and while the process is suspended. It draws on at
/// most [`crate::layout::MAX_SCREEN`] of it, centred.
struct TerminalGuard {
    screen: Screen,
}

impl TerminalGuard {
    fn enter() -> io::Result<TerminalGuard> {
        // Whatever panics, the terminal is given back first.
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
        let entered = terminal::enable_raw_mode()
            .and_then(|()| execute!(Out, EnterAlternateScreen, EnableMouseCapture, cursor::Hide));
        let screen = entered.and_then(|()| screen_for(drawn_area(terminal_size()?)));
        match screen {
            Ok(screen) => Ok(TerminalGuard { screen }),
            Err(error) => {
                restore();
                Err(error)
            }
        }
    }

    /// Draws the app; returns the area it was drawn on.
    fn draw(&mut self, app: &App) -> io::Result<Rect> {
        Ok(self
            .screen
            .draw(|frame| frame.render_widget(app, frame.area()))?
            .area)
    }

    /// Follows the terminal's size: a new area is drawn whole on a cleared
    /// screen. With `always`, even when the size is the same (the screen
    /// was lost meanwhile).
    fn fit(&mut self, always: bool) -> io::Result<()> {
        if terminal_gone() {
            return Ok(());
        }
        let area = drawn_area(terminal_size()?);
        if always || area != self.screen.get_frame().area() {
            execute!(Out, Clear(ClearType::All))?;
            self.screen = screen_for(area)?;
        }
        Ok(())
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
        if terminal_gone() {
            return Ok(());
        }
        // crossterm skips enabling raw mode it believes is on, but a shell that
        // saw the process stop has put the terminal back to normal: start over.
        let _ = terminal::disable_raw_mode();
        terminal::enable_raw_mode()?;
        execute!(Out, EnterAlternateScreen, EnableMouseCapture, cursor::Hide)?;
        self.fit(true)
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore();
    }
}

/// A screen that draws on `area` of the terminal, starting from nothing.
fn screen_for(area: Rect) -> io::Result<Screen> {
    Terminal::with_options(
        CrosstermBackend::new(Out),
        TerminalOptions {
            viewport: Viewport::Fixed(area),
        },
    )
}

/// The terminal's size, columns by rows, asked of the terminal standard
/// output writes to.
fn terminal_size() -> io::Result<(u16, u16)> {
    let size = rustix::termios::tcgetwinsize(io::stdout())?;
    Ok((size.ws_col, size.ws_row))
}

/// The width of the terminal standard output writes to, if it is one: what
/// the line-based front ends' text wraps to
/// (`tictactoe_game::fit::WordWrap`).
pub fn width() -> Option<u16> {
    let (columns, _) = terminal_size().ok()?;
    (columns > 0).then_some(columns)
}

/// Raw mode off, main screen, mouse released, cursor shown. Errors are
/// ignored: with the terminal gone there is nothing left to restore.
fn restore() {
    let _ = execute!(Out, DisableMouseCapture);
    let _ = terminal::disable_raw_mode();
    let _ = execute!(Out, LeaveAlternateScreen, cursor::Show);
}

//! A proof watched while it runs: its progress every few seconds on
//! standard error, and Ctrl-C (or SIGTERM) turned into the engine's
//! interrupt, so the command ends with a clean line instead of dying.

use std::io::{self, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use signal_hook::consts::{SIGINT, SIGTERM};
use tictactoe_engine::solve::{Bounds, Monitor, Progress};
use tictactoe_game::json;
use tictactoe_game::text::thousands;

/// How often a line of progress is written.
pub const PROGRESS_EVERY: Duration = Duration::from_secs(5);

/// How often the watcher looks for a signal and for the end.
const LOOK_EVERY: Duration = Duration::from_millis(50);

/// The last of SIGINT and SIGTERM the process received (0: none yet).
fn signal() -> &'static Arc<AtomicUsize> {
    static SIGNAL: OnceLock<Arc<AtomicUsize>> = OnceLock::new();
    SIGNAL.get_or_init(|| {
        let signal = Arc::new(AtomicUsize::new(0));
        let twice = Arc::new(AtomicBool::new(false));
        for number in [SIGINT, SIGTERM] {
            // A second signal ends the process at once, as without a
            // handler (128 + n); the first asks the proof to stop.
            let _ = signal_hook::flag::register_conditional_shutdown(
                number,
                128 + number,
                Arc::clone(&twice),
            );
            let _ = signal_hook::flag::register(number, Arc::clone(&twice));
            let _ = signal_hook::flag::register_usize(number, Arc::clone(&signal), number as usize);
        }
        signal
    })
}

/// The signal that interrupted a proof, if one did.
pub fn interrupted_by() -> Option<i32> {
    match signal().load(Ordering::SeqCst) {
        0 => None,
        number => i32::try_from(number).ok(),
    }
}

/// A proof being watched: made by [`Watch::start`] before the proof,
/// ended by [`Watch::finish`] after it.
pub struct Watch {
    bounds: Bounds,
    monitor: Monitor,
    done: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
    report: Report,
}

/// How progress is written.
#[derive(Clone, Copy)]
struct Report {
    /// Lines every [`PROGRESS_EVERY`].
    show: bool,
    /// And one at the end (`--progress`).
    last: bool,
    json: bool,
    started: Instant,
}

impl Watch {
    /// Watches a proof within `bounds`: its monitor reports to this watch.
    /// Progress is shown when `progress` (`--progress`) or when standard
    /// error is a terminal, as JSON lines with `json`.
    pub fn start(mut bounds: Bounds, progress: bool, json: bool) -> Watch {
        let monitor = Monitor::new();
        bounds.monitor = Some(monitor.clone());
        let signal = Arc::clone(signal());
        let report = Report {
            show: progress || io::stderr().is_terminal(),
            last: progress,
            json,
            started: Instant::now(),
        };
        let done = Arc::new(AtomicBool::new(false));
        let thread = {
            let (monitor, done) = (monitor.clone(), Arc::clone(&done));
            thread::Builder::new()
                .name("progress".to_string())
                .spawn(move || watch(&monitor, &done, &signal, report))
                .ok()
        };
        Watch {
            bounds,
            monitor,
            done,
            thread,
            report,
        }
    }

    /// The bounds the proof is to run within.
    pub fn bounds(&self) -> Bounds {
        self.bounds.clone()
    }

    /// Ends the watch once the proof is over: the last line of progress
    /// with `--progress`, and the last numbers the proof published.
    pub fn finish(mut self) -> Progress {
        self.done.store(true, Ordering::SeqCst);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
        let progress = self.monitor.progress();
        if self.report.last {
            let _ = write_progress(&progress, self.report, None);
        }
        progress
    }
}

/// The watcher's thread: interrupts the proof on a signal, and writes a
/// line of progress every [`PROGRESS_EVERY`] if it is to.
fn watch(monitor: &Monitor, done: &AtomicBool, signal: &AtomicUsize, report: Report) {
    let mut last = (Instant::now(), 0u64);
    while !done.load(Ordering::SeqCst) {
        thread::sleep(LOOK_EVERY);
        if signal.load(Ordering::SeqCst) != 0 && !monitor.interrupted() {
            monitor.interrupt();
        }
        if report.show && last.0.elapsed() >= PROGRESS_EVERY {
            let progress = monitor.progress();
            let seconds = last.0.elapsed().as_secs_f64();
            let rate = (progress.positions.saturating_sub(last.1) as f64 / seconds) as u64;
            let _ = write_progress(&progress, report, Some(rate));
            last = (Instant::now(), progress.positions);
        }
    }
}

/// Writes one line of progress to standard error; `rate` in positions a
/// second since the line before (the average since the start without it).
fn write_progress(progress: &Progress, report: Report, rate: Option<u64>) -> io::Result<()> {
    let seconds = report.started.elapsed().as_secs_f64();
    let rate = rate.unwrap_or_else(|| (progress.positions as f64 / seconds.max(1e-3)) as u64);
    let line = if report.json {
        json::line(&json::ProofProgress {
            seconds: (seconds * 10.0).round() / 10.0,
            positions: progress.positions,
            rate,
            question: progress.question,
            proof: progress.proof,
            disproof: progress.disproof,
            threads: progress.threads,
            table_bytes: progress.table.bytes,
            table_budget: progress.table.budget,
            table_entries: progress.table.entries,
            replaced: progress.table.replaced,
        })
    } else {
        progress_words(progress, seconds, rate)
    };
    writeln!(io::stderr(), "{line}")
}

/// A line of progress in words.
pub fn progress_words(progress: &Progress, seconds: f64, rate: u64) -> String {
    let question = match progress.question {
        Some(attacker) => format!(
            "does {attacker} win: proof number {}, disproof number {}",
            numbers(progress.proof),
            numbers(progress.disproof)
        ),
        None => "no question asked yet".to_string(),
    };
    let table = progress.table;
    format!(
        "proving: {seconds:.0} s, {} positions ({}/s), {question}; table {} of {} MiB, {} entries, {} replaced; {} {}",
        thousands(progress.positions),
        thousands(rate),
        mib(table.bytes),
        mib(table.budget),
        thousands(table.entries),
        thousands(table.replaced),
        progress.threads.max(1),
        if progress.threads > 1 {
            "threads"
        } else {
            "thread"
        },
    )
}

/// A proof or disproof number, "infinite" for the engine's largest.
fn numbers(n: u32) -> String {
    if n >= u32::MAX / 4 {
        "infinite".to_string()
    } else {
        thousands(u64::from(n))
    }
}

/// Bytes in MiB, rounded.
fn mib(bytes: u64) -> String {
    thousands((bytes + (1 << 19)) >> 20)
}

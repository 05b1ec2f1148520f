//! The game screen as a user meets it, measured on the real binary in a
//! pseudo-terminal: time to the first frame, CPU while waiting for a key,
//! resident memory, and resident memory once the terminal claims to be
//! 10000x10000. Reads Linux's /proc, so it reports only on Linux.
//!
//! `cargo bench --bench screen`

use std::fs;
use std::io::{Read, Write};
use std::num::NonZeroU16;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use portable_pty::{CommandBuilder, PtySize, native_pty_system};

const LAUNCHES: usize = 21;
const IDLE: Duration = Duration::from_secs(10);

fn main() {
    let binary = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/release/tictactoe");
    if !binary.exists() {
        eprintln!("build the game first: cargo build --release");
        std::process::exit(1);
    }
    if !Path::new("/proc/self/schedstat").exists() {
        println!("screen figures need Linux's /proc; nothing measured");
        return;
    }

    let mut first_frames: Vec<Duration> = (0..LAUNCHES)
        .map(|_| Screen::launch(&binary).first_frame)
        .collect();
    first_frames.sort();
    println!(
        "time to first frame, {LAUNCHES} launches: median {:.1} ms (min {:.1}, max {:.1})",
        ms(first_frames[LAUNCHES / 2]),
        ms(first_frames[0]),
        ms(first_frames[LAUNCHES - 1])
    );

    let mut screen = Screen::launch(&binary);
    thread::sleep(Duration::from_millis(500));
    let before = screen.cpu_time();
    thread::sleep(IDLE);
    let used = screen.cpu_time() - before;
    println!(
        "CPU while waiting for a key, {} s: {:.3} ms used, {:.4} % of one core",
        IDLE.as_secs(),
        ms(used),
        100.0 * used.as_secs_f64() / IDLE.as_secs_f64()
    );
    println!(
        "resident memory waiting for the first move: {} KiB",
        screen.memory("VmRSS")
    );

    // A few moves against the AI, then the peak.
    for key in ["5", "1", "9", "3", "7"] {
        screen.press(key);
        thread::sleep(Duration::from_millis(600));
    }
    println!(
        "resident memory after a game: {} KiB, peak {} KiB",
        screen.memory("VmRSS"),
        screen.memory("VmHWM")
    );
    screen.press("q");

    // A terminal that claims an absurd size: the game draws on at most
    // tictactoe_screen::layout::MAX_SCREEN of it, so its memory stays what a big screen needs.
    let mut screen = Screen::launch(&binary);
    screen.resize(10_000, 10_000);
    thread::sleep(Duration::from_secs(1));
    println!(
        "resident memory after the terminal became 10000x10000: {} KiB, peak {} KiB",
        screen.memory("VmRSS"),
        screen.memory("VmHWM")
    );
    screen.press("q");
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

struct Screen {
    pid: u32,
    first_frame: Duration,
    writer: Box<dyn Write + Send>,
    _child: Box<dyn portable_pty::Child + Send + Sync>,
    master: Box<dyn portable_pty::MasterPty + Send>,
}

impl Screen {
    fn launch(binary: &Path) -> Screen {
        let pty = native_pty_system()
            .openpty(PtySize {
                rows: 24,
                cols: 80,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("a pseudo-terminal");
        let mut command = CommandBuilder::new(binary);
        command.env("TERM", "xterm-256color");
        let started = Instant::now();
        let child = pty.slave.spawn_command(command).expect("the game starts");
        drop(pty.slave);
        let pid = child.process_id().expect("a process id");
        let mut reader = pty.master.try_clone_reader().expect("a reader");
        let parser = Arc::new(Mutex::new(vt100::Parser::new(size(24), size(80), 0)));
        let feed = Arc::clone(&parser);
        thread::spawn(move || {
            let mut bytes = [0u8; 4096];
            while let Ok(n) = reader.read(&mut bytes) {
                if n == 0 {
                    break;
                }
                feed.lock().expect("lock").process(&bytes[..n]);
            }
        });
        while !parser
            .lock()
            .expect("lock")
            .screen()
            .contents()
            .contains("Your turn")
        {
            assert!(started.elapsed() < Duration::from_secs(10), "no frame");
            thread::sleep(Duration::from_micros(200));
        }
        let first_frame = started.elapsed();
        let writer = pty.master.take_writer().expect("a writer");
        Screen {
            pid,
            first_frame,
            writer,
            _child: child,
            master: pty.master,
        }
    }

    fn press(&mut self, keys: &str) {
        self.writer.write_all(keys.as_bytes()).expect("keys");
        self.writer.flush().expect("keys");
    }

    /// Gives the terminal a new size (the game hears SIGWINCH).
    fn resize(&mut self, cols: u16, rows: u16) {
        self.master
            .resize(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("the terminal resized");
    }

    /// CPU time of every thread, from the scheduler's nanosecond counters.
    fn cpu_time(&self) -> Duration {
        let tasks = fs::read_dir(format!("/proc/{}/task", self.pid)).expect("the process is alive");
        let nanos: u64 = tasks
            .filter_map(|task| fs::read_to_string(task.ok()?.path().join("schedstat")).ok())
            .filter_map(|stat| stat.split_whitespace().next()?.parse::<u64>().ok())
            .sum();
        Duration::from_nanos(nanos)
    }

    fn memory(&self, field: &str) -> u64 {
        let status =
            fs::read_to_string(format!("/proc/{}/status", self.pid)).expect("the process is alive");
        status
            .lines()
            .find_map(|line| {
                line.strip_prefix(field)?
                    .trim_start_matches(':')
                    .split_whitespace()
                    .next()?
                    .parse()
                    .ok()
            })
            .expect("the field is there")
    }
}

fn size(n: u16) -> NonZeroU16 {
    NonZeroU16::new(n).expect("non-zero")
}

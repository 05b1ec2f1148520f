//! A student's program as a child process, asked one line at a time.
//!
//! The program runs below a [keeper](crate::keeper) when the [`Guard`]
//! names one (the command does), so that whatever it starts ends with its
//! grading, or with the grader; without one, in a process group of its
//! own, killed with it. Either way it dies with the grader
//! (`PR_SET_PDEATHSIG`) and has the guard's memory limit. A [`Student`] is
//! killed, with everything it started, and reaped when it misbehaves, when
//! it is dropped, and when grading is stopped. Its output is read by a thread of its own, a line at
//! a time and never more than [`MAX_LINE`] bytes of one; its requests are
//! written by another, so a program that never reads cannot block the
//! grader; its standard error is drained by a third, which keeps only the
//! last line or so for the report. Every wait has a deadline.

use std::ffi::OsString;
use std::fmt;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::net::UnixStream;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use rustix::io::{FdFlags, fcntl_setfd};
use rustix::process::{
    Pid, Signal, WaitId, WaitIdOptions, kill_process_group, set_parent_process_death_signal, waitid,
};

use super::keeper::limit_memory;

/// The longest answer line read: a longer one is a flood.
pub const MAX_LINE: usize = 64 * 1024;

/// How much of the program's standard error is kept, from its end.
const STDERR_KEPT: usize = 4 * 1024;

/// How long a program that closed its output or input is given to exit,
/// so that its exit status can be reported.
const EXIT_GRACE: Duration = Duration::from_secs(1);

/// How often a wait looks at the stop flag.
const TICK: Duration = Duration::from_millis(50);

/// How long a keeper is given to kill what is below it and exit.
const KEEPER_GRACE: Duration = Duration::from_secs(10);

/// How students are run: below a keeper or not, and with how much memory.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Guard {
    /// The command that runs [`crate::keeper::run`] (`tictactoe grade`):
    /// given `--keeper FD [--max-memory MIB] -- STUDENT...`, it runs the
    /// student below it. `None`: the student runs directly, in a process
    /// group of its own.
    pub keeper: Option<Program>,
    /// The memory each student may use, in MiB ([`limit_memory`]).
    pub max_memory: Option<u64>,
}

/// A program and its arguments, as the command line gave them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Program {
    /// The program to run (found on `PATH` as a shell would).
    pub command: OsString,
    /// Its arguments.
    pub args: Vec<OsString>,
}

impl fmt::Display for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let words: Vec<String> = std::iter::once(&self.command)
            .chain(&self.args)
            .map(|word| {
                let word = word.to_string_lossy();
                if word.is_empty() || word.contains(char::is_whitespace) {
                    format!("'{word}'")
                } else {
                    word.into_owned()
                }
            })
            .collect();
        f.write_str(&words.join(" "))
    }
}

/// What went wrong with the program on one request. Each is said in one
/// line ([`fmt::Display`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Trouble {
    /// It could not be started.
    NotStarted(String),
    /// It exited, or closed its output, before it answered.
    Exited {
        /// How it ended; `None` when it closed its output and kept running.
        status: Option<String>,
        /// The last line it wrote to standard error, if any.
        said: Option<String>,
    },
    /// No answer before the deadline.
    Hung(Duration),
    /// An answer that could not be read.
    Garbage {
        /// The line (cut short to fit a report line).
        line: String,
        /// Why it could not be read.
        why: String,
    },
    /// A line longer than [`MAX_LINE`].
    LongLine,
    /// A line nobody asked for: more than one line for one board.
    ExtraLine(String),
    /// It stopped reading its input (closed its standard input) while still running.
    StoppedReading,
    /// Grading was stopped (a signal) while it was thinking.
    Interrupted,
    /// It ran out of the memory `--max-memory` allows.
    Memory {
        /// The limit, in MiB.
        limit: u64,
        /// How it ended.
        status: String,
        /// The last line it wrote to standard error.
        said: Option<String>,
    },
}

impl fmt::Display for Trouble {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Trouble::NotStarted(why) => write!(f, "could not be started: {why}"),
            Trouble::Exited { status, said } => {
                match status {
                    Some(status) => write!(f, "{status} before answering")?,
                    None => write!(f, "closed its output before answering")?,
                }
                match said {
                    Some(said) => write!(f, "; its last words on stderr: {said}"),
                    None => Ok(()),
                }
            }
            Trouble::Hung(waited) => write!(
                f,
                "gave no answer within {} (does it flush its output after each line? \
                 Python: print(..., flush=True))",
                seconds(*waited)
            ),
            Trouble::Garbage { line, why } => write!(f, "answered `{line}`, {why}"),
            Trouble::LongLine => write!(
                f,
                "flooded its output: a line longer than {} KiB",
                MAX_LINE / 1024
            ),
            Trouble::ExtraLine(line) => write!(
                f,
                "flooded its output: more than one line for one board (`{line}`); \
                 print exactly one, and anything else to stderr"
            ),
            Trouble::StoppedReading => write!(f, "stopped reading its input"),
            Trouble::Interrupted => write!(f, "was stopped with the grading"),
            Trouble::Memory {
                limit,
                status,
                said,
            } => {
                write!(
                    f,
                    "ran out of memory: it reached the limit of {limit} MiB (--max-memory) and {status}"
                )?;
                match said {
                    Some(said) => write!(f, "; its last words on stderr: {said}"),
                    None => Ok(()),
                }
            }
        }
    }
}

/// `2 s`, `0.5 s`, `6.5 s`, `65 s`: a duration in seconds, rounded for
/// people (a tenth below ten seconds, whole seconds above).
pub fn seconds(duration: Duration) -> String {
    let secs = duration.as_secs_f64();
    let tenths = (secs * 10.0).round() / 10.0;
    if secs >= 10.0 || tenths.fract() == 0.0 {
        format!("{secs:.0} s")
    } else if secs < 0.1 {
        format!("{secs:.2} s")
    } else {
        format!("{tenths:.1} s")
    }
}

/// A line for a report: at most 80 characters, control characters shown.
pub fn shown(line: &str) -> String {
    let mut shown: String = line
        .chars()
        .flat_map(|ch| {
            if ch.is_control() {
                ch.escape_default().collect::<Vec<_>>()
            } else {
                vec![ch]
            }
        })
        .take(81)
        .collect();
    if shown.chars().count() > 80 {
        shown = shown.chars().take(77).collect::<String>() + "...";
    }
    shown
}

/// What the output thread hands over.
enum Output {
    /// One line, without its newline.
    Line(String),
    /// A line longer than [`MAX_LINE`]; nothing more is read.
    TooLong,
    /// A line read before it was asked for; nothing more is read.
    Extra(String),
    /// The end of the output.
    Closed,
    /// A request could not be written: the program no longer reads.
    Unwritable,
}

/// A running student program.
pub struct Student {
    child: Child,
    requests: Option<Sender<String>>,
    output: Receiver<Output>,
    /// Requests handed to the writer: an answer read beyond them is extra.
    asked: Arc<AtomicU64>,
    stderr: Arc<Mutex<Vec<u8>>>,
    reaped: bool,
    /// The grader's end of the socket to the keeper: closing it ends the
    /// student and everything below it.
    keeper: Option<UnixStream>,
    /// The memory limit, in MiB.
    max_memory: Option<u64>,
}

impl Student {
    /// Starts `program` as `guard` says, with its input and output piped
    /// to the grader.
    pub fn start(program: &Program, guard: &Guard) -> Result<Student, Trouble> {
        let not_started = |error: io::Error| Trouble::NotStarted(start_error(program, &error));
        let max_memory = guard.max_memory;
        let mut command;
        let mut keeper = None;
        match &guard.keeper {
            Some(keeper_program) => {
                let (ours, theirs) = UnixStream::pair().map_err(not_started)?;
                let fd = theirs.as_raw_fd();
                command = Command::new(&keeper_program.command);
                command
                    .args(&keeper_program.args)
                    .arg("--keeper")
                    .arg(fd.to_string());
                if let Some(mib) = max_memory {
                    command.arg("--max-memory").arg(mib.to_string());
                }
                command.arg("--").arg(&program.command).args(&program.args);
                // SAFETY: only fcntl between fork and exec.
                unsafe {
                    command.pre_exec(move || {
                        // The keeper's end stays open across exec.
                        let theirs = rustix::fd::BorrowedFd::borrow_raw(fd);
                        fcntl_setfd(theirs, FdFlags::empty())?;
                        Ok(())
                    });
                }
                keeper = Some((ours, theirs));
            }
            None => {
                command = Command::new(&program.command);
                command.args(&program.args);
                // SAFETY: only prctl and setrlimit between fork and exec.
                unsafe {
                    command.pre_exec(move || {
                        set_parent_process_death_signal(Some(Signal::KILL))?;
                        if let Some(mib) = max_memory {
                            limit_memory(mib << 20)?;
                        }
                        Ok(())
                    });
                }
            }
        }
        let spawned = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // A group of its own: a Ctrl-C at the terminal reaches the
            // grader, which ends it.
            .process_group(0)
            .spawn();
        // The keeper has its end now; the grader keeps its own.
        let keeper = keeper.map(|(ours, _theirs)| ours);
        let mut child = spawned.map_err(not_started)?;
        if let Some(keeper) = &keeper {
            // The keeper says whether the student runs.
            let _ = keeper.set_read_timeout(Some(KEEPER_GRACE));
            let mut said = String::new();
            let _ = BufReader::new(keeper).read_line(&mut said);
            let said = said.trim();
            if said != super::keeper::STARTED {
                let _ = child.kill();
                let _ = child.wait();
                return Err(not_started(super::keeper::start_error(said)));
            }
        }
        let (stdin, stdout, stderr) = (
            child.stdin.take().expect("piped"),
            child.stdout.take().expect("piped"),
            child.stderr.take().expect("piped"),
        );
        let (to_grader, output) = mpsc::channel();
        let asked = Arc::new(AtomicU64::new(0));
        let requests = writer(stdin, to_grader.clone());
        reader(stdout, to_grader, Arc::clone(&asked));
        let kept = Arc::new(Mutex::new(Vec::new()));
        drain(stderr, Arc::clone(&kept));
        Ok(Student {
            child,
            requests: Some(requests),
            output,
            asked,
            stderr: kept,
            reaped: false,
            keeper,
            max_memory,
        })
    }

    /// Sends `request` and waits at most `timeout` for the one line that
    /// answers it. Any trouble leaves the program to be killed.
    pub fn ask(
        &mut self,
        request: &str,
        timeout: Duration,
        stop: &AtomicBool,
    ) -> Result<String, Trouble> {
        // An answer is expected only once the request is on its way.
        self.asked.fetch_add(1, Ordering::SeqCst);
        if let Some(requests) = &self.requests
            && requests.send(format!("{request}\n")).is_err()
        {
            return Err(self.ended(Trouble::StoppedReading));
        }
        self.answer(timeout, stop)
    }

    /// Waits at most `timeout` for the line a program says before it is
    /// asked anything (the CS50 shim's greeting).
    pub fn hello(&mut self, timeout: Duration, stop: &AtomicBool) -> Result<String, Trouble> {
        self.asked.fetch_add(1, Ordering::SeqCst);
        self.answer(timeout, stop)
    }

    /// The next line of the program's output, waiting at most `timeout`.
    fn answer(&mut self, timeout: Duration, stop: &AtomicBool) -> Result<String, Trouble> {
        let deadline = Instant::now() + timeout;
        loop {
            if stop.load(Ordering::SeqCst) {
                return Err(Trouble::Interrupted);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(Trouble::Hung(timeout));
            }
            match self.output.recv_timeout(left.min(TICK)) {
                Ok(Output::Line(line)) => return Ok(line),
                Ok(Output::TooLong) => return Err(Trouble::LongLine),
                Ok(Output::Extra(line)) => return Err(Trouble::ExtraLine(shown(&line))),
                Ok(Output::Closed) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.ended(Trouble::Exited {
                        status: None,
                        said: None,
                    }));
                }
                Ok(Output::Unwritable) => return Err(self.ended(Trouble::StoppedReading)),
                // Exited, while something it started holds its output open.
                Err(RecvTimeoutError::Timeout) if self.has_exited() => {
                    return Err(self.ended(Trouble::Exited {
                        status: None,
                        said: None,
                    }));
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// What to report when the program closed its output or its input:
    /// how it exited if it does within [`EXIT_GRACE`], else `otherwise`.
    fn ended(&mut self, otherwise: Trouble) -> Trouble {
        let deadline = Instant::now() + EXIT_GRACE;
        while !self.has_exited() {
            if Instant::now() >= deadline {
                return otherwise;
            }
            thread::sleep(Duration::from_millis(10));
        }
        // Exited, not yet reaped: whatever it started goes with it, then
        // its own status is collected.
        let _ = kill_process_group(Pid::from_child(&self.child), Signal::KILL);
        let status = self.child.wait();
        self.reaped = true;
        // Its last words: the stderr thread may need a moment to drain the pipe.
        let said = self.last_words(deadline);
        match status {
            Ok(status) => match self.max_memory {
                Some(limit) if out_of_memory(status, said.as_deref()) => Trouble::Memory {
                    limit,
                    status: exit_words(status),
                    said,
                },
                _ => Trouble::Exited {
                    status: Some(exit_words(status)),
                    said,
                },
            },
            Err(_) => otherwise,
        }
    }

    /// True once the program has exited, without reaping it (its process
    /// group stays addressable until it is reaped).
    fn has_exited(&self) -> bool {
        let options = WaitIdOptions::EXITED | WaitIdOptions::NOHANG | WaitIdOptions::NOWAIT;
        matches!(
            waitid(WaitId::Pid(Pid::from_child(&self.child)), options),
            Ok(Some(_))
        )
    }

    /// The last line the program wrote to standard error, waiting until
    /// `deadline` at most for the pipe to be drained.
    fn last_words(&self, deadline: Instant) -> Option<String> {
        while Arc::strong_count(&self.stderr) > 1 && Instant::now() < deadline {
            thread::sleep(Duration::from_millis(10));
        }
        let kept = self.stderr.lock().ok()?;
        let text = String::from_utf8_lossy(&kept);
        text.lines()
            .rev()
            .map(str::trim)
            .find(|line| !line.is_empty())
            .map(shown)
    }

    /// Kills the program and everything it started, and reaps it.
    pub fn stop(mut self) {
        self.kill();
    }

    fn kill(&mut self) {
        // Its input closes first: a program that reads to the end stops.
        self.requests = None;
        if let Some(keeper) = self.keeper.take() {
            // The keeper kills everything below it and exits.
            drop(keeper);
            let deadline = Instant::now() + KEEPER_GRACE;
            while !self.reaped && !self.has_exited() && Instant::now() < deadline {
                thread::sleep(Duration::from_millis(2));
            }
        }
        if !self.reaped {
            // The group first (gone already, ESRCH, is what is wanted),
            // while the program, even exited, holds its number.
            let _ = kill_process_group(Pid::from_child(&self.child), Signal::KILL);
            let _ = self.child.kill();
            let _ = self.child.wait();
            self.reaped = true;
        }
    }
}

impl Drop for Student {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Why a program could not be started, in a line.
fn start_error(program: &Program, error: &io::Error) -> String {
    let name = program.command.to_string_lossy();
    match error.kind() {
        io::ErrorKind::NotFound => format!("`{name}`: no such program"),
        io::ErrorKind::PermissionDenied => format!("`{name}`: not allowed to run it"),
        _ => format!("`{name}`: {error}"),
    }
}

/// True when a program that ended so, saying `said` last, ran out of
/// memory: the words of Python, C++, Rust, node and C's `strerror`. (A C
/// program whose `malloc` returns NULL may crash without a word: that is
/// reported as the crash it is.)
fn out_of_memory(status: ExitStatus, said: Option<&str>) -> bool {
    const WORDS: [&str; 7] = [
        "MemoryError",
        "bad_alloc",
        "memory allocation of",
        "out of memory",
        "Out of memory",
        "Cannot allocate memory",
        "Allocation failed",
    ];
    let _ = status;
    said.is_some_and(|said| WORDS.iter().any(|word| said.contains(word)))
}

/// How a process ended, in words: "exited with status 1", "was killed by signal 11".
fn exit_words(status: ExitStatus) -> String {
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exited with status {code}"),
        (None, Some(signal)) => format!("was killed by signal {signal}"),
        (None, None) => "ended".to_string(),
    }
}

/// The thread writing requests: a program that never reads blocks it, not the grader.
fn writer(mut stdin: ChildStdin, output: Sender<Output>) -> Sender<String> {
    let (requests, incoming) = mpsc::channel::<String>();
    thread::spawn(move || {
        for request in incoming {
            if stdin
                .write_all(request.as_bytes())
                .and_then(|()| stdin.flush())
                .is_err()
            {
                let _ = output.send(Output::Unwritable);
                return;
            }
        }
    });
    requests
}

/// The thread reading answers, a line at a time.
fn reader(stdout: impl Read + Send + 'static, output: Sender<Output>, asked: Arc<AtomicU64>) {
    thread::spawn(move || {
        let mut stdout = BufReader::new(stdout);
        let mut read = 0u64;
        loop {
            let mut line = Vec::new();
            let got = (&mut stdout)
                .take(MAX_LINE as u64 + 1)
                .read_until(b'\n', &mut line);
            let said = match got {
                Ok(0) | Err(_) => Output::Closed,
                Ok(_) if line.len() > MAX_LINE && line.last() != Some(&b'\n') => Output::TooLong,
                Ok(_) => {
                    while line.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
                        line.pop();
                    }
                    let line = String::from_utf8_lossy(&line).into_owned();
                    read += 1;
                    if read > asked.load(Ordering::SeqCst) {
                        Output::Extra(line)
                    } else {
                        Output::Line(line)
                    }
                }
            };
            let last = !matches!(said, Output::Line(_));
            if output.send(said).is_err() || last {
                return;
            }
        }
    });
}

/// The thread draining standard error, keeping its last [`STDERR_KEPT`] bytes.
fn drain(mut stderr: impl Read + Send + 'static, kept: Arc<Mutex<Vec<u8>>>) {
    thread::spawn(move || {
        let mut chunk = [0u8; 4096];
        while let Ok(n) = stderr.read(&mut chunk) {
            if n == 0 {
                break;
            }
            let Ok(mut kept) = kept.lock() else { break };
            kept.extend_from_slice(&chunk[..n]);
            if kept.len() > STDERR_KEPT {
                let cut = kept.len() - STDERR_KEPT;
                kept.drain(..cut);
            }
        }
        // Dropping `kept` tells the grader the pipe is drained.
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Program {
        Program {
            command: "sh".into(),
            args: vec!["-c".into(), script.into()],
        }
    }

    const PATIENT: Duration = Duration::from_secs(30);

    #[test]
    fn a_program_answers_line_by_line() {
        let stop = AtomicBool::new(false);
        let mut student = Student::start(
            &sh("while read b; do echo \"got $b\"; done"),
            &Guard::default(),
        )
        .unwrap();
        assert_eq!(student.ask("one", PATIENT, &stop).unwrap(), "got one");
        assert_eq!(student.ask("two", PATIENT, &stop).unwrap(), "got two");
        student.stop();
    }

    #[test]
    fn a_program_that_exits_says_how_and_its_last_words() {
        let stop = AtomicBool::new(false);
        let mut student = Student::start(
            &sh("read b; echo 'Traceback' >&2; echo 'IndexError: oops' >&2; exit 3"),
            &Guard::default(),
        )
        .unwrap();
        let trouble = student.ask("x", PATIENT, &stop).unwrap_err();
        assert_eq!(
            trouble,
            Trouble::Exited {
                status: Some("exited with status 3".into()),
                said: Some("IndexError: oops".into())
            }
        );
    }

    #[test]
    fn a_flood_and_a_long_line_are_floods() {
        let stop = AtomicBool::new(false);
        let mut student = Student::start(&sh("yes 1 1"), &Guard::default()).unwrap();
        // A line may be read just before its question is counted as asked,
        // so an answer or a few may come first; the reader pumps the flood
        // far faster than questions go, and its first line past the
        // questions asked is extra. Whichever answers came were lines.
        let trouble = (0..10_000)
            .find_map(|n| match student.ask(&format!("q{n}"), PATIENT, &stop) {
                Ok(line) => {
                    assert_eq!(line, "1 1");
                    None
                }
                Err(trouble) => Some(trouble),
            })
            .expect("a flood is found out");
        assert!(matches!(trouble, Trouble::ExtraLine(_)), "{trouble:?}");
        let mut student = Student::start(
            &sh("read b; head -c 100000 /dev/zero | tr '\\0' 'x'"),
            &Guard::default(),
        )
        .unwrap();
        assert_eq!(student.ask("x", PATIENT, &stop), Err(Trouble::LongLine));
    }

    #[test]
    fn a_silent_program_times_out_and_a_stop_interrupts() {
        let stop = AtomicBool::new(false);
        let mut student = Student::start(&sh("read b; sleep 600"), &Guard::default()).unwrap();
        let short = Duration::from_millis(200);
        assert_eq!(student.ask("x", short, &stop), Err(Trouble::Hung(short)));
        stop.store(true, Ordering::SeqCst);
        assert_eq!(student.ask("x", PATIENT, &stop), Err(Trouble::Interrupted));
    }

    #[test]
    fn a_missing_program_is_not_started() {
        let program = Program {
            command: "/nonexistent/student".into(),
            args: vec![],
        };
        assert!(matches!(
            Student::start(&program, &Guard::default()),
            Err(Trouble::NotStarted(why)) if why.contains("no such program")
        ));
    }

    #[test]
    fn words_for_reports() {
        assert_eq!(seconds(Duration::from_secs(5)), "5 s");
        assert_eq!(seconds(Duration::from_millis(500)), "0.5 s");
        assert_eq!(shown("a\tb"), "a\\tb");
        assert_eq!(shown(&"y".repeat(200)).chars().count(), 80);
    }
}

//! The keeper: a small process between the grader and each student
//! program, so that nothing the student starts outlives its grading,
//! whatever it does, and even if the grader itself is killed.
//!
//! The grader starts the keeper (its own binary, `tictactoe grade --keeper
//! FD -- STUDENT...`, see [`run`]) with the student's pipes and one end of
//! a socket pair as file descriptor `FD`. The keeper makes itself a child
//! subreaper (`PR_SET_CHILD_SUBREAPER`), so that every process the student
//! starts stays below it even after `setsid`, a new process group or a
//! double fork, and starts the student with `PR_SET_PARENT_DEATHSIG` (it
//! dies with the keeper) and the memory limit. Then it waits for either:
//!
//! - the student exits: the keeper kills everything left below it and
//!   exits as the student did (the same status, or the same signal), so the
//!   grader reports the student's own end;
//! - the socket closes (the grader is done with the student, or died): the
//!   keeper kills the student and everything below it, and exits.
//!
//! Killing is SIGKILL, which cannot be ignored, to every descendant found
//! in `/proc`, again until none is left: a process that forks while being
//! killed leaves an orphan, which comes to the keeper and is found next
//! time.

use std::collections::HashMap;
use std::ffi::OsString;
use std::fs;
use std::io::{self, Read, Write};
use std::os::fd::{FromRawFd, RawFd};
use std::os::unix::net::UnixStream;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::Command;
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use rustix::process::{
    Pid, Resource, Rlimit, Signal, WaitOptions, getpid, kill_process, set_child_subreaper,
    set_parent_process_death_signal, setrlimit, wait,
};

/// Sets the memory limit of the calling process: its data (heap and
/// private mappings, `RLIMIT_DATA`), which a program that allocates
/// without bound reaches, while the address space a runtime reserves
/// (node's) is free.
pub fn limit_memory(bytes: u64) -> std::io::Result<()> {
    let limit = Rlimit {
        current: Some(bytes),
        maximum: Some(bytes),
    };
    setrlimit(Resource::Data, limit).map_err(std::io::Error::from)
}

/// Every process below `root`, found through `/proc`'s parent links.
pub fn descendants(root: Pid) -> Vec<Pid> {
    let mut children: HashMap<i32, Vec<i32>> = HashMap::new();
    let Ok(entries) = fs::read_dir("/proc") else {
        return Vec::new();
    };
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|name| name.parse::<i32>().ok())
        else {
            continue;
        };
        let Ok(stat) = fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // After the command's closing parenthesis: the state, then the parent.
        let parent = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().nth(1))
            .and_then(|parent| parent.parse::<i32>().ok());
        if let Some(parent) = parent {
            children.entry(parent).or_default().push(pid);
        }
    }
    let mut found = Vec::new();
    let mut next = vec![root.as_raw_nonzero().get()];
    while let Some(pid) = next.pop() {
        for &child in children.get(&pid).map(Vec::as_slice).unwrap_or_default() {
            found.push(child);
            next.push(child);
        }
    }
    found.into_iter().filter_map(Pid::from_raw).collect()
}

/// Kills every process below the calling one and reaps them, until it
/// has no child left.
fn kill_all() {
    let me = getpid();
    loop {
        for pid in descendants(me) {
            let _ = kill_process(pid, Signal::KILL);
        }
        // Any child at all, whatever its process group.
        match wait(WaitOptions::NOHANG) {
            // Reaped one: there may be more at once.
            Ok(Some(_)) => {}
            // Children left, none ended yet: they are being killed.
            Ok(None) => thread::sleep(Duration::from_millis(2)),
            // No child left: nothing is below the keeper any more.
            Err(_) => return,
        }
    }
}

/// What the keeper tells the grader once the student runs.
pub const STARTED: &str = "started";

/// What the keeper tells the grader when the student could not be
/// started: `not-found`, `denied` or the error in words.
fn not_started(error: &io::Error) -> String {
    match error.kind() {
        io::ErrorKind::NotFound => "not-found".into(),
        io::ErrorKind::PermissionDenied => "denied".into(),
        _ => error.to_string(),
    }
}

/// The error the keeper's word `said` stands for.
pub fn start_error(said: &str) -> io::Error {
    match said {
        "not-found" => io::Error::from(io::ErrorKind::NotFound),
        "denied" => io::Error::from(io::ErrorKind::PermissionDenied),
        other => io::Error::other(other.to_string()),
    }
}

/// Points the keeper's standard streams at `/dev/null`.
fn let_go_of_streams() -> std::io::Result<()> {
    let null = rustix::fs::open(
        "/dev/null",
        rustix::fs::OFlags::RDWR | rustix::fs::OFlags::CLOEXEC,
        rustix::fs::Mode::empty(),
    )?;
    rustix::stdio::dup2_stdin(&null)?;
    rustix::stdio::dup2_stdout(&null)?;
    rustix::stdio::dup2_stderr(&null)?;
    Ok(())
}

/// What the keeper waits for.
enum Heard {
    /// The student exited so.
    Exited(std::process::ExitStatus),
    /// The grader closed its end, or died.
    Closed,
}

/// The keeper's life: runs `command` (the student) with the keeper's own
/// standard streams, `socket` the descriptor of its end of the socket pair
/// from the grader, and at most `max_memory` bytes of data. Returns only if
/// the student could not be started (the error, for the keeper to print
/// and exit with 127, as a shell does); otherwise it exits the process.
pub fn run(socket: RawFd, command: &[OsString], max_memory: Option<u64>) -> std::io::Error {
    // SAFETY: the grader passed this descriptor open for the keeper, and
    // nothing else in this process uses it.
    let mut socket = unsafe { UnixStream::from_raw_fd(socket) };
    let mut answer = match socket.try_clone() {
        Ok(answer) => answer,
        Err(error) => return error,
    };
    let _ = set_child_subreaper(Some(getpid()));
    let (tell, heard) = mpsc::channel();
    let closed = tell.clone();
    thread::spawn(move || {
        let mut byte = [0u8; 64];
        // Nothing is ever written: the end of the stream is the message.
        while matches!(socket.read(&mut byte), Ok(n) if n > 0) {}
        let _ = closed.send(Heard::Closed);
    });
    let Some((program, args)) = command.split_first() else {
        return std::io::Error::other("no student program given");
    };
    let mut student = Command::new(program);
    student.args(args);
    // SAFETY: between fork and exec only async-signal-safe calls (prctl,
    // setrlimit) are made.
    unsafe {
        student.pre_exec(move || {
            set_parent_process_death_signal(Some(Signal::KILL))?;
            if let Some(bytes) = max_memory {
                limit_memory(bytes)?;
            }
            Ok(())
        });
    }
    // Spawned from the thread that lives as long as the keeper: the
    // student's death signal is tied to the thread that started it.
    let mut child = match student.spawn() {
        Ok(child) => child,
        Err(error) => {
            let _ = writeln!(answer, "{}", not_started(&error));
            return error;
        }
    };
    // The student's streams are its own: a student that closes its input
    // or its output is seen to by the grader, not held open here. Let go
    // of them before the grader hears the student started, so its first
    // request already finds them in the student's hands alone.
    let _ = let_go_of_streams();
    let _ = writeln!(answer, "{STARTED}");
    thread::spawn(move || {
        if let Ok(status) = child.wait() {
            let _ = tell.send(Heard::Exited(status));
        }
    });
    match heard.recv() {
        Ok(Heard::Exited(status)) => {
            kill_all();
            if let Some(code) = status.code() {
                std::process::exit(code);
            }
            if let Some(signal) = status.signal().and_then(Signal::from_named_raw) {
                // Ends as the student ended, without a core file.
                let _ = setrlimit(
                    Resource::Core,
                    Rlimit {
                        current: Some(0),
                        maximum: Some(0),
                    },
                );
                let _ = kill_process(getpid(), signal);
            }
            std::process::exit(128)
        }
        Ok(Heard::Closed) | Err(_) => {
            kill_all();
            std::process::exit(0)
        }
    }
}

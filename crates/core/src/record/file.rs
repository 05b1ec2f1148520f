//! Records files: games appended to the end of a file and never rewritten,
//! and read back whole.
//!
//! Appending is safe in the way the statistics file is: only a regular file
//! is written (a named pipe, a device, a folder or a symbolic link at the
//! path is refused with one line, never waited on), a lock on the file
//! itself keeps two programs' games apart, and a lock held elsewhere is
//! waited for at most [`LOCK_PATIENCE`]. Games are written whole (one
//! `write` for one or more of them), so a reader never sees half of one.

use std::fs::{File, TryLockError};
use std::io::{self, Read, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::thread;
use std::time::{Duration, Instant, SystemTime};

use rustix::fs::{Mode, OFlags};
use rustix::io::Errno;
use thiserror::Error;

use super::notation::{self, Record, RecordError};
use crate::text::file_kind;

/// How long an append waits for a lock another program holds.
pub const LOCK_PATIENCE: Duration = Duration::from_secs(2);

/// The largest records file read (64 MiB: some 300,000 games of 3x3).
pub const READ_CAP: u64 = 64 << 20;

/// Opened without waiting: opening a named pipe would wait for a reader.
const NEVER_WAIT: OFlags = OFlags::NONBLOCK.union(OFlags::NOCTTY);

/// A records file that could not be written or read.
#[derive(Debug, Error)]
pub enum RecordFileError {
    /// Something other than a regular file is at the path.
    #[error("{}: {kind} is no file for game records; give the path of a file", path.display())]
    NotAFile {
        /// The path given.
        path: PathBuf,
        /// What is there instead.
        kind: &'static str,
    },
    /// Another program holds the lock.
    #[error("{}: another program is writing to it; the game was not recorded", path.display())]
    Locked {
        /// The path given.
        path: PathBuf,
    },
    /// Bigger than anyone's records.
    #[error("{}: {size} bytes is more than the {READ_CAP} a records file may have", path.display())]
    TooBig {
        /// The path given.
        path: PathBuf,
        /// Its size.
        size: u64,
    },
    /// Not in the notation.
    #[error("{}: {error}", path.display())]
    Notation {
        /// The path given.
        path: PathBuf,
        /// What is wrong, and where.
        error: RecordError,
    },
    /// The system refused.
    #[error("{}: cannot {action}: {source}", path.display())]
    Io {
        /// What was being done.
        action: &'static str,
        /// The path given.
        path: PathBuf,
        /// The system's reason.
        source: io::Error,
    },
}

impl RecordFileError {
    /// True when what was given is at fault (no file, too big, not in the
    /// notation), so the exit status is 2; false for the system refusing.
    pub fn is_bad_input(&self) -> bool {
        matches!(
            self,
            RecordFileError::NotAFile { .. }
                | RecordFileError::TooBig { .. }
                | RecordFileError::Notation { .. }
        )
    }
}

/// Today's date as the `Date` tag has it, in UTC: `2026-11-23`.
pub fn today() -> String {
    let stamp = humantime::format_rfc3339_seconds(SystemTime::now()).to_string();
    stamp.get(..10).unwrap_or(&stamp).to_string()
}

/// Writes one game to a new file in the current folder named after the
/// day, `tictactoe-2026-11-25-1.ttt`, taking the next number when a name is
/// taken (nothing is overwritten, and a link at the name is not followed).
/// Returns the file's name.
pub fn save_new(record: &Record) -> Result<PathBuf, RecordFileError> {
    let date = today();
    let mut path = PathBuf::new();
    for number in 1..=9999 {
        path = PathBuf::from(format!("tictactoe-{date}-{number}.ttt"));
        let created = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path);
        let io_error = |source| RecordFileError::Io {
            action: "create it",
            path: path.clone(),
            source,
        };
        match created {
            Ok(mut file) => {
                file.write_all(notation::write(record).as_bytes())
                    .and_then(|()| file.sync_data())
                    .map_err(io_error)?;
                return Ok(path);
            }
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(error) => return Err(io_error(error)),
        }
    }
    Err(RecordFileError::Io {
        action: "create it",
        path,
        source: io::Error::other("every name for today is taken"),
    })
}

/// A file games are appended to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordFile {
    path: PathBuf,
}

impl RecordFile {
    /// The file at `path` (created on the first append).
    pub fn new(path: impl Into<PathBuf>) -> RecordFile {
        RecordFile { path: path.into() }
    }

    /// Where it is.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Refuses at once a path that holds something other than a regular
    /// file (a folder, a named pipe, a link), before any game is played;
    /// a path with nothing there yet is fine.
    pub fn check(&self) -> Result<(), RecordFileError> {
        match std::fs::symlink_metadata(&self.path) {
            Ok(meta) if !meta.is_file() => Err(RecordFileError::NotAFile {
                path: self.path.clone(),
                kind: file_kind(meta.file_type()),
            }),
            _ => Ok(()),
        }
    }

    /// Appends one game, holding the lock only while it writes.
    pub fn append(&self, record: &Record) -> Result<(), RecordFileError> {
        let mut appender = self.open()?;
        appender.append(record)?;
        appender.finish()
    }

    /// Opens the file for a run of appends (created if missing), locked
    /// until the [`Appender`] is finished or dropped.
    pub fn open(&self) -> Result<Appender, RecordFileError> {
        let io_error = |action| {
            let path = self.path.clone();
            move |source| RecordFileError::Io {
                action,
                path,
                source,
            }
        };
        let not_a_file = |kind| RecordFileError::NotAFile {
            path: self.path.clone(),
            kind,
        };
        // A symbolic link is refused unfollowed; a pipe is neither waited on
        // nor, once open, written to.
        let flags = OFlags::CREATE | OFlags::RDWR | OFlags::APPEND | OFlags::NOFOLLOW;
        let file = match rustix::fs::open(
            &self.path,
            flags | OFlags::CLOEXEC | NEVER_WAIT,
            Mode::from(0o666),
        ) {
            Ok(fd) => File::from(fd),
            Err(Errno::LOOP) => return Err(not_a_file("a symbolic link")),
            Err(Errno::ISDIR) => return Err(not_a_file("a folder")),
            // A named pipe with nobody reading it.
            Err(Errno::NXIO) => return Err(not_a_file("a named pipe")),
            Err(errno) => return Err(io_error("open it")(errno.into())),
        };
        let meta = file.metadata().map_err(io_error("open it"))?;
        if !meta.is_file() {
            return Err(not_a_file(file_kind(meta.file_type())));
        }
        lock(&file, &self.path)?;
        // The next game must follow a blank line: look at how the file ends.
        let len = file.metadata().map_err(io_error("read it"))?.len();
        let mut tail = [0u8; 2];
        let tail_len = len.min(2) as usize;
        file.read_exact_at(&mut tail[..tail_len], len - tail_len as u64)
            .map_err(io_error("read it"))?;
        let separator = match &tail[..tail_len] {
            [] | [b'\n', b'\n'] => "",
            [.., b'\n'] => "\n",
            _ => "\n\n",
        };
        Ok(Appender {
            file,
            path: self.path.clone(),
            separator,
            pending: String::new(),
        })
    }
}

/// A records file open for appending, locked. Games are written whole, in
/// batches of at most [`BATCH`] bytes.
#[derive(Debug)]
pub struct Appender {
    file: File,
    path: PathBuf,
    /// What must come before the next game so that a blank line precedes it.
    separator: &'static str,
    /// Games not yet written: whole ones only.
    pending: String,
}

/// How much an [`Appender`] gathers before writing: whole games only, so
/// a reader of the file never sees half of one.
pub const BATCH: usize = 64 << 10;

impl Appender {
    /// Appends one game and the blank line after it.
    pub fn append(&mut self, record: &Record) -> Result<(), RecordFileError> {
        self.pending.push_str(self.separator);
        self.separator = "";
        self.pending.push_str(&notation::write(record));
        self.pending.push('\n');
        if self.pending.len() >= BATCH {
            self.write_pending()?;
        }
        Ok(())
    }

    fn write_pending(&mut self) -> Result<(), RecordFileError> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let result = self.file.write_all(self.pending.as_bytes());
        self.pending.clear();
        result.map_err(|source| RecordFileError::Io {
            action: "write to it",
            path: self.path.clone(),
            source,
        })
    }

    /// Writes every game through and lets go of the lock.
    pub fn finish(mut self) -> Result<(), RecordFileError> {
        self.write_pending()?;
        self.file.sync_data().map_err(|source| RecordFileError::Io {
            action: "write to it",
            path: self.path.clone(),
            source,
        })
    }
}

/// Games appended but not finished are written all the same, as far as
/// the file takes them.
impl Drop for Appender {
    fn drop(&mut self) {
        if !self.pending.is_empty() {
            let _ = self.write_pending();
        }
    }
}

/// Locks `file`, waiting at most [`LOCK_PATIENCE`] for another program.
fn lock(file: &File, path: &Path) -> Result<(), RecordFileError> {
    let deadline = Instant::now() + LOCK_PATIENCE;
    let mut pause = Duration::from_millis(1);
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(()),
            Err(TryLockError::WouldBlock) if Instant::now() < deadline => {
                thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(25));
            }
            Err(TryLockError::WouldBlock) => {
                return Err(RecordFileError::Locked {
                    path: path.to_path_buf(),
                });
            }
            Err(TryLockError::Error(source)) => {
                return Err(RecordFileError::Io {
                    action: "lock it",
                    path: path.to_path_buf(),
                    source,
                });
            }
        }
    }
}

/// Reads every game of the records file at `path`: only a regular file, of
/// at most [`READ_CAP`] bytes. `-` is standard input.
pub fn read_file(path: &Path, stdin: &mut dyn Read) -> Result<Vec<Record>, RecordFileError> {
    let io_error = |action| {
        move |source| RecordFileError::Io {
            action,
            path: path.to_path_buf(),
            source,
        }
    };
    let mut bytes = Vec::new();
    if path == Path::new("-") {
        stdin
            .take(READ_CAP + 1)
            .read_to_end(&mut bytes)
            .map_err(io_error("read it"))?;
    } else {
        let file = match rustix::fs::open(
            path,
            OFlags::RDONLY | OFlags::CLOEXEC | NEVER_WAIT,
            Mode::empty(),
        ) {
            Ok(fd) => File::from(fd),
            Err(errno) => return Err(io_error("read it")(errno.into())),
        };
        let meta = file.metadata().map_err(io_error("read it"))?;
        if !meta.is_file() {
            return Err(RecordFileError::NotAFile {
                path: path.to_path_buf(),
                kind: file_kind(meta.file_type()),
            });
        }
        file.take(READ_CAP + 1)
            .read_to_end(&mut bytes)
            .map_err(io_error("read it"))?;
    }
    if bytes.len() as u64 > READ_CAP {
        return Err(RecordFileError::TooBig {
            path: path.to_path_buf(),
            size: bytes.len() as u64,
        });
    }
    notation::read(&bytes).map_err(|error| RecordFileError::Notation {
        path: path.to_path_buf(),
        error,
    })
}

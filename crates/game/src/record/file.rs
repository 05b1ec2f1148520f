//! Records files: games appended to the end of a file and never rewritten,
//! and read back one game at a time.
//!
//! Appending is safe in the way the statistics file is: only a regular file
//! is written (a named pipe, a device, a folder or a symbolic link at the
//! path is refused with one line, never waited on), a lock on the file
//! itself keeps two programs' games apart, and a lock held elsewhere is
//! waited for at most [`LOCK_PATIENCE`]. The lock is held for one write at a
//! time, so a long run of games never keeps another program out. Each write
//! is whole or absent: a write that fails (a full disk) is cut back off the
//! file, which is left as it was before it. No write takes a file past
//! [`READ_CAP`], so every file written is one the reader takes.
//!
//! Reading goes game by game ([`games`]): memory is bounded by the largest
//! game ([`GAME_CAP`]), and a damaged game stops the reading there, after
//! every complete game before it.

use std::cell::Cell;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::{Duration, SystemTime};

use thiserror::Error;

use super::notation::{self, Record, RecordError};
use crate::files::{self, Existing, LineCap, Locked, Permissions, Problem};
use crate::text::thousands;

/// How long an append waits for a lock another program holds.
pub const LOCK_PATIENCE: Duration = Duration::from_secs(2);

/// The largest records file read, and the most a write may make a file
/// (64 MiB: some 450,000 games of 3x3).
pub const READ_CAP: u64 = 64 << 20;

/// The most one game may take in a records file, its lines and the blank
/// lines inside it included (4 MiB: a real game takes a few hundred bytes).
pub const GAME_CAP: usize = 4 << 20;

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
    /// Nothing at the path to read.
    #[error("{}: there is no such file", path.display())]
    Missing {
        /// The path given.
        path: PathBuf,
    },
    /// Bigger than anyone's records.
    #[error(
        "{}: {} bytes is more than the {} a records file may have",
        path.display(),
        thousands(*size),
        thousands(READ_CAP)
    )]
    TooBig {
        /// The path given.
        path: PathBuf,
        /// Its size.
        size: u64,
    },
    /// Standard input ran on past the cap.
    #[error(
        "standard input: more than the {} bytes a records file may have",
        thousands(READ_CAP)
    )]
    InputTooBig,
    /// The games of a write would take the file past [`READ_CAP`]: the
    /// games that fit were written, the others not.
    #[error(
        "{}: full ({} bytes is the most a records file may have, so that it can be read back); {} not recorded",
        path.display(),
        thousands(READ_CAP),
        crate::text::count(*left as u64, "game was", "games were")
    )]
    Full {
        /// The path given.
        path: PathBuf,
        /// Games that did not fit.
        left: usize,
    },
    /// A game longer than [`GAME_CAP`].
    #[error(
        "{}: game {game}, from line {line}, is longer than {} bytes, the most one game may take",
        path.display(),
        thousands(GAME_CAP as u64)
    )]
    GameTooBig {
        /// The path given.
        path: PathBuf,
        /// The game's number, from 1.
        game: usize,
        /// Its first line.
        line: usize,
    },
    /// A game not in the notation: the games before it were read.
    #[error("{}: game {game}: {error}", path.display())]
    Notation {
        /// The path given.
        path: PathBuf,
        /// The damaged game's number, from 1.
        game: usize,
        /// What is wrong, and where in the file.
        error: RecordError,
    },
    /// A write failed (the disk is full, say) and was cut back off the file.
    #[error(
        "{}: cannot write to it: {source}; the file is left as it was, without {}",
        path.display(),
        crate::text::count(*games as u64, "game", "games")
    )]
    NotWritten {
        /// The path given.
        path: PathBuf,
        /// The games the write held.
        games: usize,
        /// The system's reason.
        source: io::Error,
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
                | RecordFileError::Missing { .. }
                | RecordFileError::TooBig { .. }
                | RecordFileError::InputTooBig
                | RecordFileError::GameTooBig { .. }
                | RecordFileError::Notation { .. }
        )
    }

    /// The error for `problem` with the file at `path` while doing `action`.
    fn of(path: &Path, action: &'static str, problem: Problem) -> RecordFileError {
        let path = path.to_path_buf();
        if problem.is_missing() {
            return RecordFileError::Missing { path };
        }
        match problem {
            Problem::NotAFile(kind) => RecordFileError::NotAFile { path, kind },
            Problem::TooBig { size, .. } => RecordFileError::TooBig { path, size },
            Problem::Exists => RecordFileError::Io {
                action,
                path,
                source: io::ErrorKind::AlreadyExists.into(),
            },
            Problem::Io(source) => RecordFileError::Io {
                action,
                path,
                source,
            },
        }
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
/// The file appears whole or not at all. Returns the file's name.
pub fn save_new(record: &Record) -> Result<PathBuf, RecordFileError> {
    let date = today();
    let text = notation::write(record);
    for number in 1..=9999 {
        let path = PathBuf::from(format!("tictactoe-{date}-{number}.ttt"));
        match files::write_whole(&path, Existing::Refuse, Permissions::New(0o666), |out| {
            out.write_all(text.as_bytes())
        }) {
            Ok(()) => return Ok(path),
            Err(Problem::Exists | Problem::NotAFile(_)) => continue,
            Err(problem) => return Err(RecordFileError::of(&path, "create it", problem)),
        }
    }
    Err(RecordFileError::Io {
        action: "create it",
        path: PathBuf::from(format!("tictactoe-{date}-9999.ttt")),
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
        match files::not_a_file(&self.path) {
            Some(kind) => Err(RecordFileError::NotAFile {
                path: self.path.clone(),
                kind,
            }),
            None => Ok(()),
        }
    }

    /// Appends one game, whole or not at all.
    pub fn append(&self, record: &Record) -> Result<(), RecordFileError> {
        let mut appender = self.appender();
        appender.append(record)?;
        appender.finish()
    }

    /// Gathers games to append in batches of about [`BATCH`] bytes, each
    /// written under the lock, whole or not at all.
    pub fn appender(&self) -> Appender {
        Appender {
            file: self.clone(),
            pending: String::new(),
            ends: Vec::new(),
        }
    }

    /// Appends `games` (whole games in the notation, each followed by a
    /// blank line; `ends[i]` is where game `i` ends in the text), holding
    /// the lock for this write only. Games that would take the file past
    /// [`READ_CAP`] are not written ([`RecordFileError::Full`]); a write that
    /// fails is cut back off the file.
    fn write(&self, games: &str, ends: &[usize]) -> Result<(), RecordFileError> {
        let io_error = |action| {
            let path = self.path.clone();
            move |source| RecordFileError::Io {
                action,
                path,
                source,
            }
        };
        let file = files::open_to_append(&self.path, true)
            .map_err(|problem| RecordFileError::of(&self.path, "open it", problem))?;
        match files::lock(&file, LOCK_PATIENCE) {
            Ok(()) => {}
            Err(Locked::Elsewhere) => {
                return Err(RecordFileError::Locked {
                    path: self.path.clone(),
                });
            }
            Err(Locked::Io(source)) => return Err(io_error("lock it")(source)),
        }
        let before = file.metadata().map_err(io_error("read it"))?.len();
        let separator = separator(&file, before).map_err(io_error("read it"))?;
        // The games that fit under the cap, whole.
        let room = READ_CAP.saturating_sub(before + separator.len() as u64);
        let fit = ends.iter().take_while(|&&end| end as u64 <= room).count();
        let end = fit.checked_sub(1).map_or(0, |last| ends[last]);
        if fit > 0 {
            let written = (&file)
                .write_all(separator.as_bytes())
                .and_then(|()| (&file).write_all(&games.as_bytes()[..end]))
                .and_then(|()| file.sync_data());
            if let Err(source) = written {
                // Whole or not at all: the file goes back to its length before.
                let _ = file.set_len(before).and_then(|()| file.sync_data());
                return Err(RecordFileError::NotWritten {
                    path: self.path.clone(),
                    games: ends.len(),
                    source,
                });
            }
        }
        if fit < ends.len() {
            return Err(RecordFileError::Full {
                path: self.path.clone(),
                left: ends.len() - fit,
            });
        }
        Ok(())
    }
}

/// What must come before the next game so that a blank line precedes it,
/// from how the file of `len` bytes ends.
fn separator(file: &File, len: u64) -> io::Result<&'static str> {
    let mut tail = [0u8; 2];
    let tail_len = len.min(2) as usize;
    file.read_exact_at(&mut tail[..tail_len], len - tail_len as u64)?;
    Ok(match &tail[..tail_len] {
        [] | [b'\n', b'\n'] => "",
        [.., b'\n'] => "\n",
        _ => "\n\n",
    })
}

/// Games on their way to a records file, written in batches of about
/// [`BATCH`] bytes; the lock is taken for each batch alone.
#[derive(Debug)]
pub struct Appender {
    file: RecordFile,
    /// Games not yet written, each followed by a blank line.
    pending: String,
    /// Where each pending game ends in `pending`.
    ends: Vec<usize>,
}

/// How much an [`Appender`] gathers before writing: whole games only, so
/// a reader of the file never sees half of one.
pub const BATCH: usize = 64 << 10;

impl Appender {
    /// Appends one game and the blank line after it.
    pub fn append(&mut self, record: &Record) -> Result<(), RecordFileError> {
        self.pending.push_str(&notation::write(record));
        self.pending.push('\n');
        self.ends.push(self.pending.len());
        if self.pending.len() >= BATCH {
            self.write_pending()?;
        }
        Ok(())
    }

    fn write_pending(&mut self) -> Result<(), RecordFileError> {
        if self.ends.is_empty() {
            return Ok(());
        }
        let written = self.file.write(&self.pending, &self.ends);
        self.pending.clear();
        self.ends.clear();
        written
    }

    /// Writes every game through.
    pub fn finish(mut self) -> Result<(), RecordFileError> {
        self.write_pending()
    }
}

/// Games appended but not finished are written all the same, as far as
/// the file takes them.
impl Drop for Appender {
    fn drop(&mut self) {
        let _ = self.write_pending();
    }
}

/// The games of a records file, read one at a time ([`games`]). After an
/// error it reads nothing more.
pub struct Games<'a> {
    path: PathBuf,
    lines: LineCap<BufReader<Box<dyn Read + 'a>>>,
    /// The line at hand, with its ending.
    line: Vec<u8>,
    /// Lines read so far.
    read: usize,
    /// Games read so far.
    game: usize,
    /// Set when standard input runs on past the cap.
    over: Option<Rc<Cell<bool>>>,
    done: bool,
}

/// What the line read is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Line {
    Blank,
    Text,
    End,
}

impl Games<'_> {
    /// Reads the next line into `self.line`.
    fn next_line(&mut self) -> Result<Line, RecordFileError> {
        self.line.clear();
        match self.lines.read_until(b'\n', &mut self.line) {
            Ok(0) if self.over.as_ref().is_some_and(|over| over.get()) => {
                return Err(RecordFileError::InputTooBig);
            }
            Ok(0) => return Ok(Line::End),
            Ok(_) => {}
            Err(_) if self.lines.overflowed() => {
                return Err(RecordFileError::GameTooBig {
                    path: self.path.clone(),
                    game: self.game + 1,
                    line: self.read + 1,
                });
            }
            Err(source) => {
                return Err(RecordFileError::Io {
                    action: "read it",
                    path: self.path.clone(),
                    source,
                });
            }
        }
        self.read += 1;
        if self.read == 1 && self.line.starts_with("\u{feff}".as_bytes()) {
            self.line.drain(..3);
        }
        let blank = std::str::from_utf8(&self.line).is_ok_and(|text| text.trim().is_empty());
        Ok(if blank { Line::Blank } else { Line::Text })
    }

    /// The next game's text (its tags, the blank lines after them, its
    /// moves up to the next blank line) and its first line; `None` at the end.
    fn next_text(&mut self) -> Result<Option<(Vec<u8>, usize)>, RecordFileError> {
        loop {
            match self.next_line()? {
                Line::Blank => {}
                Line::Text => break,
                Line::End => return Ok(None),
            }
        }
        let first = self.read;
        let mut text = std::mem::take(&mut self.line);
        let mut moves_begun = false;
        let mut after_tags = false;
        loop {
            match self.next_line()? {
                Line::Text => {
                    moves_begun |= after_tags;
                    text.extend_from_slice(&self.line);
                }
                Line::Blank if !moves_begun => {
                    after_tags = true;
                    text.extend_from_slice(&self.line);
                }
                Line::Blank | Line::End => break,
            }
            if text.len() > GAME_CAP {
                return Err(RecordFileError::GameTooBig {
                    path: self.path.clone(),
                    game: self.game + 1,
                    line: first,
                });
            }
        }
        Ok(Some((text, first)))
    }
}

impl Iterator for Games<'_> {
    type Item = Result<Record, RecordFileError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let read = self.next_text().and_then(|text| {
            let Some((text, first)) = text else {
                return Ok(None);
            };
            self.game += 1;
            let damaged = |mut error: RecordError| {
                error.line += first - 1;
                RecordFileError::Notation {
                    path: self.path.clone(),
                    game: self.game,
                    error,
                }
            };
            let mut records = notation::read(&text).map_err(damaged)?;
            Ok(records.pop())
        });
        match read {
            Ok(Some(record)) => Some(Ok(record)),
            Ok(None) => {
                self.done = true;
                None
            }
            Err(error) => {
                self.done = true;
                Some(Err(error))
            }
        }
    }
}

/// Standard input, of which at most [`READ_CAP`] bytes are taken; `over`
/// is set when there is more.
struct Capped<'a> {
    input: &'a mut dyn Read,
    left: u64,
    over: Rc<Cell<bool>>,
}

impl Read for Capped<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.left == 0 {
            // One byte more says whether the input ends at the cap.
            let mut probe = [0u8; 1];
            self.over.set(self.input.read(&mut probe)? > 0);
            return Ok(0);
        }
        let most = out
            .len()
            .min(usize::try_from(self.left).unwrap_or(usize::MAX));
        let n = self.input.read(&mut out[..most])?;
        self.left -= n as u64;
        Ok(n)
    }
}

/// The games of the records file at `path`, read one at a time: only a
/// regular file, of at most [`READ_CAP`] bytes, each game at most
/// [`GAME_CAP`]. `-` is standard input.
pub fn games<'a>(path: &Path, stdin: &'a mut dyn Read) -> Result<Games<'a>, RecordFileError> {
    let (input, over): (Box<dyn Read + 'a>, _) = if path == Path::new("-") {
        let over = Rc::new(Cell::new(false));
        let capped = Capped {
            input: stdin,
            left: READ_CAP,
            over: Rc::clone(&over),
        };
        (Box::new(capped), Some(over))
    } else {
        let file = files::open_capped(path, READ_CAP)
            .map_err(|problem| RecordFileError::of(path, "read it", problem))?;
        // Never past the cap, even if the file grows meanwhile.
        (Box::new(file.take(READ_CAP)), None)
    };
    Ok(Games {
        path: path.to_path_buf(),
        lines: LineCap::new(BufReader::new(input), GAME_CAP),
        line: Vec::new(),
        read: 0,
        game: 0,
        over,
        done: false,
    })
}

/// Reads every game of the records file at `path` ([`games`]); the first
/// damaged game is the error.
pub fn read_file(path: &Path, stdin: &mut dyn Read) -> Result<Vec<Record>, RecordFileError> {
    games(path, stdin)?.collect()
}

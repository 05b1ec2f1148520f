//! The statistics file on disk: read without a lock, changed under one,
//! replaced whole, and nothing touched that is not the program's own.

use std::fs::{self, File};
use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use rustix::fs::{Access, AtFlags, CWD};
use thiserror::Error;

use super::counts::{GameRecord, Stats};
use super::format::{self, Contents, VERSION};
use crate::files::{self, Existing, Locked, Permissions, Problem};

/// The largest file read as statistics: far more than any real count needs.
pub const SIZE_CAP: u64 = 1 << 20;

/// How long a writer waits for another program to release the lock.
pub const LOCK_PATIENCE: Duration = Duration::from_secs(2);

/// Something is wrong with the statistics file; every message names the file.
#[derive(Debug, Error)]
pub enum StatsError {
    /// The path holds something that is not a statistics file of this program.
    #[error("{} is not a tictactoe statistics file ({why}); it is left untouched", path.display())]
    Foreign {
        /// The path given.
        path: PathBuf,
        /// Why it is not one.
        why: String,
    },
    /// A statistics file written by a newer version of this program.
    #[error(
        "the statistics file {} has version {found}, newer than this program's {VERSION}; it is left untouched",
        path.display()
    )]
    Newer {
        /// The path given.
        path: PathBuf,
        /// The version in the file.
        found: u64,
    },
    /// A file of ours with a key this program does not know: a rewrite would
    /// lose it, so it is not written.
    #[error(
        "the statistics file {} has a key this program does not know ({key}); it is left untouched rather than lose it",
        path.display()
    )]
    UnknownKey {
        /// The path given.
        path: PathBuf,
        /// The key, as `"key"` or `rows[2]."key"`.
        key: String,
    },
    /// A file nobody may write (no write permission at all, such as 0444):
    /// someone chose to keep it as it is.
    #[error("the statistics file {} is read-only; it is left untouched", path.display())]
    ReadOnly {
        /// The path given.
        path: PathBuf,
    },
    /// A file too big to be statistics, refused without reading it.
    #[error(
        "{} is {size} bytes, too big for a statistics file (at most {SIZE_CAP}); it is left untouched",
        path.display()
    )]
    TooBig {
        /// The path given.
        path: PathBuf,
        /// Its size in bytes.
        size: u64,
    },
    /// A statistics file of ours that cannot be read as counts. Only readers
    /// report this: writers move the file aside and warn.
    #[error(
        "the statistics file {} is damaged ({problem}); the next game counted or `tictactoe stats --reset` will move it aside",
        path.display()
    )]
    Damaged {
        /// The path given.
        path: PathBuf,
        /// What is wrong with it.
        problem: String,
    },
    /// Another program held the lock longer than a writer waits.
    #[error("the statistics file {} is locked by another program", path.display())]
    Locked {
        /// The path given.
        path: PathBuf,
    },
    /// Something other than a regular file where the lock file goes: it is
    /// neither opened (a named pipe would wait for ever) nor replaced.
    #[error(
        "cannot lock the statistics file {}: {} is {kind}, not a regular file",
        path.display(),
        lock.display()
    )]
    BadLock {
        /// The path given.
        path: PathBuf,
        /// The lock file's path.
        lock: PathBuf,
        /// What is there instead, such as "a named pipe".
        kind: &'static str,
    },
    /// A symbolic link to nothing: it is not replaced by a file.
    #[error(
        "the statistics file {} is a symbolic link to {}, which does not exist",
        path.display(),
        target.display()
    )]
    DanglingLink {
        /// The path given.
        path: PathBuf,
        /// Where the link points.
        target: PathBuf,
    },
    /// A folder or a device at the path: the user's mistake to hear about, not ours to rename.
    #[error("cannot keep statistics in {}: it is not a regular file", path.display())]
    NotAFile {
        /// The path given.
        path: PathBuf,
    },
    /// The system refused an operation on the file or beside it.
    #[error("{action} {}: {source}", path.display())]
    Io {
        /// What was being done, as the start of a sentence ending with the path.
        action: &'static str,
        /// The path given.
        path: PathBuf,
        /// Why it failed.
        source: io::Error,
    },
}

const CREATE_FOLDER: &str = "cannot create the folder of";

impl StatsError {
    /// True when trying again this session cannot help: the path holds
    /// something else, or the system refuses us. Not for a lock held by
    /// another program, which is let go sooner or later.
    pub fn is_permanent(&self) -> bool {
        match self {
            StatsError::Locked { .. } | StatsError::Damaged { .. } => false,
            StatsError::Io { action, source, .. } => {
                *action == CREATE_FOLDER
                    || matches!(
                        source.kind(),
                        io::ErrorKind::PermissionDenied
                            | io::ErrorKind::ReadOnlyFilesystem
                            | io::ErrorKind::NotADirectory
                            | io::ErrorKind::IsADirectory
                    )
            }
            StatsError::Foreign { .. }
            | StatsError::Newer { .. }
            | StatsError::UnknownKey { .. }
            | StatsError::ReadOnly { .. }
            | StatsError::TooBig { .. }
            | StatsError::BadLock { .. }
            | StatsError::DanglingLink { .. }
            | StatsError::NotAFile { .. } => true,
        }
    }
}

/// A damaged file was moved aside and counting started afresh.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptAside {
    /// The statistics file.
    pub path: PathBuf,
    /// What was wrong with it.
    pub problem: String,
    /// Where it is kept now.
    pub kept_as: PathBuf,
}

/// What a look at the file found when it cannot be used as it is.
enum Unusable {
    /// Ours, but damaged: a writer moves it aside.
    Damaged(String),
    /// Anything else: reported and left alone.
    Refused(StatsError),
}

/// The counts a look found, and a key of the file they leave out.
struct Found {
    stats: Stats,
    unknown: Option<String>,
}

/// The statistics file at one path.
#[derive(Debug, Clone)]
pub struct StatsFile {
    path: PathBuf,
    lock_patience: Duration,
}

impl StatsFile {
    /// The file at `path`.
    pub fn at(path: impl Into<PathBuf>) -> StatsFile {
        StatsFile {
            path: path.into(),
            lock_patience: LOCK_PATIENCE,
        }
    }

    /// The same file, with writers waiting up to `patience` for the lock
    /// (instead of [`LOCK_PATIENCE`]).
    pub fn with_lock_patience(self, patience: Duration) -> StatsFile {
        StatsFile {
            lock_patience: patience,
            ..self
        }
    }

    /// `stats.json` in the platform's data directory (`$XDG_DATA_HOME/tictactoe`
    /// or `~/.local/share/tictactoe` on Linux), if the platform has one.
    pub fn default_location() -> Option<StatsFile> {
        let dirs = directories::ProjectDirs::from("", "", "tictactoe")?;
        Some(StatsFile::at(dirs.data_dir().join("stats.json")))
    }

    /// The file at `path` when one is given (`--stats-file`), else the
    /// default location (`None` if the platform has none).
    pub fn given_or_default(path: Option<&Path>) -> Option<StatsFile> {
        path.map(StatsFile::at).or_else(StatsFile::default_location)
    }

    /// Where the counts are kept.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Counts one finished game. Says so when a damaged file was moved aside first.
    pub fn record(&self, record: GameRecord) -> Result<Option<KeptAside>, StatsError> {
        self.update(|stats| stats.add(record))
    }

    /// Takes one counted game back out (its last move was undone). A count
    /// already at zero stays at zero.
    pub fn unrecord(&self, record: GameRecord) -> Result<Option<KeptAside>, StatsError> {
        self.update(|stats| stats.remove(record))
    }

    /// The counts so far. Takes no lock and never writes, moves or creates
    /// anything: a file that cannot be used is an error. A key of the file
    /// this program does not know is no obstacle to reading.
    pub fn read(&self) -> Result<Stats, StatsError> {
        let target = self.target()?;
        match self.load(&target) {
            Ok(found) => Ok(found.stats),
            Err(Unusable::Damaged(problem)) => Err(StatsError::Damaged {
                path: self.path.clone(),
                problem,
            }),
            Err(Unusable::Refused(error)) => Err(error),
        }
    }

    /// Forgets every count.
    pub fn reset(&self) -> Result<Option<KeptAside>, StatsError> {
        self.update(|stats| *stats = Stats::default())
    }

    fn io_error(&self, action: &'static str) -> impl FnOnce(io::Error) -> StatsError + '_ {
        move |source| StatsError::Io {
            action,
            path: self.path.clone(),
            source,
        }
    }

    /// The file to read and replace: the path itself, or where its symbolic
    /// link points (so the link stays a link). A link to nothing is refused.
    fn target(&self) -> Result<PathBuf, StatsError> {
        match fs::symlink_metadata(&self.path) {
            Ok(meta) if meta.file_type().is_symlink() => match fs::canonicalize(&self.path) {
                Ok(target) => Ok(target),
                Err(e) if e.kind() == io::ErrorKind::NotFound => Err(StatsError::DanglingLink {
                    path: self.path.clone(),
                    target: fs::read_link(&self.path).unwrap_or_default(),
                }),
                Err(e) => Err(self.io_error("cannot follow the symbolic link")(e)),
            },
            _ => Ok(self.path.clone()),
        }
    }

    /// The counts in `target`, or what makes it unusable. Reads nothing that
    /// is not a regular file or is bigger than [`SIZE_CAP`].
    fn load(&self, target: &Path) -> Result<Found, Unusable> {
        let refused = |error| Unusable::Refused(error);
        let bytes = match files::read_whole(target, SIZE_CAP) {
            Ok(bytes) => bytes,
            Err(problem) if problem.is_missing() => {
                return Ok(Found {
                    stats: Stats::default(),
                    unknown: None,
                });
            }
            Err(Problem::NotAFile(_) | Problem::Exists) => {
                return Err(refused(StatsError::NotAFile {
                    path: self.path.clone(),
                }));
            }
            Err(Problem::TooBig { size, .. }) => {
                return Err(refused(StatsError::TooBig {
                    path: self.path.clone(),
                    size,
                }));
            }
            Err(Problem::Io(error)) => return Err(refused(self.io_error("cannot read")(error))),
        };
        match format::read(&bytes) {
            Contents::Counts { stats, unknown } => Ok(Found { stats, unknown }),
            Contents::Damaged(problem) => Err(Unusable::Damaged(problem)),
            Contents::Newer(found) => Err(refused(StatsError::Newer {
                path: self.path.clone(),
                found,
            })),
            Contents::Foreign(why) => Err(refused(StatsError::Foreign {
                path: self.path.clone(),
                why,
            })),
        }
    }

    /// A look for a writer: the counts, or damage to move aside, or a
    /// refusal, including a file this program could read but must not write.
    fn load_to_write(&self, target: &Path) -> Result<Stats, Unusable> {
        let found = match self.load(target) {
            Err(Unusable::Refused(error)) => return Err(Unusable::Refused(error)),
            found => found,
        };
        // Damaged or not, a file that is not to be written is not moved either.
        self.writable(target).map_err(Unusable::Refused)?;
        let found = found?;
        match found.unknown {
            Some(key) => Err(Unusable::Refused(StatsError::UnknownKey {
                path: self.path.clone(),
                key,
            })),
            None => Ok(found.stats),
        }
    }

    /// Refuses a file that is there and is not to be written: read-only for
    /// everyone (a choice), or not writable by this user (a refusal).
    fn writable(&self, target: &Path) -> Result<(), StatsError> {
        let Ok(meta) = fs::metadata(target) else {
            return Ok(());
        };
        if meta.permissions().readonly() {
            return Err(StatsError::ReadOnly {
                path: self.path.clone(),
            });
        }
        // The file itself is replaced, not written, so the folder's
        // permission is what the system checks; the file's own is respected too.
        rustix::fs::accessat(CWD, target, Access::WRITE_OK, AtFlags::EACCESS)
            .map_err(|errno| self.io_error("cannot write")(errno.into()))
    }

    /// Reads, changes and writes the counts while holding the lock.
    fn update(&self, change: impl FnOnce(&mut Stats)) -> Result<Option<KeptAside>, StatsError> {
        let target = self.target()?;
        // A look before anything is created: nothing, not even a lock file,
        // is put beside a file that is not ours or not to be written.
        if let Err(Unusable::Refused(error)) = self.load_to_write(&target) {
            return Err(error);
        }
        let dir = match target.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
            _ => PathBuf::from("."),
        };
        fs::create_dir_all(&dir).map_err(self.io_error(CREATE_FOLDER))?;
        let lock = self.lock(&target)?;
        files::remove_stale_temps(&target);

        let mut kept = None;
        let before = match self.load_to_write(&target) {
            Ok(stats) => stats,
            Err(Unusable::Refused(error)) => return Err(error),
            Err(Unusable::Damaged(problem)) => {
                let aside = aside_name(&target);
                fs::rename(&target, &aside)
                    .map_err(self.io_error("cannot move aside the damaged statistics file"))?;
                kept = Some(KeptAside {
                    path: self.path.clone(),
                    problem,
                    kept_as: aside,
                });
                Stats::default()
            }
        };
        let mut stats = before.clone();
        change(&mut stats);
        if stats != before {
            save(&target, &stats).map_err(self.io_error("cannot write"))?;
        }
        drop(lock);
        Ok(kept)
    }

    /// The lock file beside `target`, locked; waits at most the patience.
    /// Only a regular file is a lock file: a named pipe, a device, a folder
    /// or a symbolic link (even to nothing) there is refused, unopened.
    fn lock(&self, target: &Path) -> Result<File, StatsError> {
        let lock_path = target.with_file_name(format!("{}.lock", file_name(target)));
        let bad = |kind| StatsError::BadLock {
            path: self.path.clone(),
            lock: lock_path.clone(),
            kind,
        };
        if let Some(kind) = files::not_a_file(&lock_path) {
            return Err(bad(kind));
        }
        // Whatever appears there meanwhile: no link is followed, no pipe waited on.
        let lock = match files::open_to_append(&lock_path, false) {
            Ok(lock) => lock,
            Err(Problem::NotAFile(kind)) => return Err(bad(kind)),
            Err(Problem::Io(error)) => {
                return Err(self.io_error("cannot open the lock file of")(error));
            }
            Err(problem) => {
                return Err(self.io_error("cannot open the lock file of")(
                    io::Error::other(problem.to_string()),
                ));
            }
        };
        match files::lock(&lock, self.lock_patience) {
            Ok(()) => Ok(lock),
            Err(Locked::Elsewhere) => Err(StatsError::Locked {
                path: self.path.clone(),
            }),
            Err(Locked::Io(error)) => Err(self.io_error("cannot lock")(error)),
        }
    }
}

/// Writes the counts whole beside the real file and renames them into
/// place, keeping the old file's permissions.
fn save(target: &Path, stats: &Stats) -> io::Result<()> {
    let permissions = match fs::metadata(target) {
        Ok(meta) => Permissions::Exactly(meta.permissions().mode() & 0o7777),
        Err(_) => Permissions::New(0o666),
    };
    let bytes = format::write(stats);
    files::write_whole(target, Existing::Replace, permissions, |out| {
        out.write_all(&bytes)
    })
    .map_err(|problem| match problem {
        Problem::Io(error) => error,
        other => io::Error::other(other.to_string()),
    })
}

/// A name beside the file, with `.corrupt-` and the time, not yet taken.
fn aside_name(target: &Path) -> PathBuf {
    let stamp = humantime::format_rfc3339_seconds(SystemTime::now())
        .to_string()
        .replace(':', "-");
    let base = format!("{}.corrupt-{stamp}", file_name(target));
    let mut candidate = target.with_file_name(&base);
    let mut n = 1;
    while candidate.symlink_metadata().is_ok() {
        n += 1;
        candidate = target.with_file_name(format!("{base}-{n}"));
    }
    candidate
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || "stats.json".into(),
        |name| name.to_string_lossy().into_owned(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permission_errors_are_permanent_and_not_damage() {
        let denied = StatsError::Io {
            action: "cannot read",
            path: PathBuf::from("stats.json"),
            source: io::Error::from(io::ErrorKind::PermissionDenied),
        };
        assert!(denied.is_permanent());
        let locked = StatsError::Locked {
            path: PathBuf::from("stats.json"),
        };
        assert!(!locked.is_permanent());
    }
}

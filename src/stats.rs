//! Saved statistics: finished games counted by board, side, opponent level and result.
//!
//! The statistics file harms nothing that is not its own:
//! - Only a file that begins as one of ours (`{"format":"tictactoe-stats"`, or
//!   `{"version":` and a number, the first format) is ever read as statistics.
//!   Anything else at the path is an error and is never moved or written.
//! - Reading takes no lock and writes nothing: writers replace the file whole,
//!   by renaming a temporary file into place, so a reader sees the old file or
//!   the new one, never half of either.
//! - Writers (record, unrecord, reset) hold a lock on a separate `.lock` file
//!   across read, change and write, waiting for it a bounded time. A file of
//!   ours that is damaged is moved aside (`.corrupt-` and the time) by a writer,
//!   which then counts afresh and says so.
//! - Files too big to be ours are refused from their size, unread; a symbolic
//!   link is followed to its target, which is what gets replaced.

use std::collections::BTreeMap;
use std::fmt;
use std::fs::{self, File, OpenOptions, TryLockError};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::thread;
use std::time::{Duration, Instant, SystemTime};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::engine::{Board, Level, Player, Status};
pub use crate::game::Outcome;
use crate::game::{ResultChange, Seat, Seats};

/// The marker that opens every statistics file this program writes.
const FORMAT: &str = "tictactoe-stats";

/// The version this program writes. Version 1 (no marker, no board shapes,
/// every row 3x3) is still read.
const VERSION: u64 = 2;

/// The largest file read as statistics: far more than any real count needs.
pub const SIZE_CAP: u64 = 1 << 20;

/// How long a writer waits for another program to release the lock.
pub const LOCK_PATIENCE: Duration = Duration::from_secs(2);

/// A temporary file of a killed writer older than this is removed by the next writer.
const STALE_TEMP_AGE: Duration = Duration::from_secs(60);

/// Random characters in a temporary file's name, after `<name>.tmp-`.
const TEMP_RANDOM_LEN: usize = 6;

/// One finished game of a person against the AI.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameRecord {
    /// The person's side.
    pub side: Player,
    /// The AI's level.
    pub opponent: Level,
    /// The result for the person.
    pub outcome: Outcome,
    /// The board's side: 3 for 3x3.
    pub size: u8,
    /// Marks in a row that win.
    pub k: u8,
}

impl GameRecord {
    /// The record of a finished game, when one person played one AI from the
    /// empty board. Games between two people or two AIs are not counted, nor
    /// games started from a position (`--board`): they are not whole games
    /// against that level.
    pub fn of(seats: Seats, start: Board, status: Status) -> Option<GameRecord> {
        if start.move_count() != 0 {
            return None;
        }
        let side = seats.lone_human()?;
        let Seat::Ai(opponent) = seats.of(side.other()) else {
            return None;
        };
        let outcome = seats.human_outcome(status)?;
        Some(GameRecord {
            side,
            opponent,
            outcome,
            size: start.size(),
            k: start.k(),
        })
    }
}

/// Wins, losses and draws on one board shape against one opponent level from one side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Row {
    /// The person's side: `"x"` or `"o"`.
    #[serde(serialize_with = "side_name::serialize")]
    pub side: Player,
    /// The AI's level.
    #[serde(serialize_with = "level_name::serialize")]
    pub opponent: Level,
    /// The board's side.
    pub size: u8,
    /// Marks in a row that win.
    pub k: u8,
    /// Games the person won.
    pub wins: u64,
    /// Games the person lost.
    pub losses: u64,
    /// Drawn games.
    pub draws: u64,
}

impl Row {
    /// Games in this row.
    pub fn games(&self) -> u64 {
        self.wins
            .saturating_add(self.losses)
            .saturating_add(self.draws)
    }

    /// The board's shape for people: `3x3`, or `4x4 k4` for bigger boards.
    pub fn board(&self) -> String {
        if self.size == 3 && self.k == 3 {
            "3x3".to_string()
        } else {
            format!("{0}x{0} k{1}", self.size, self.k)
        }
    }
}

/// Wins, losses and draws of one row. Counts saturate rather than wrap, so
/// even a file edited to absurd numbers cannot make a total overflow.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Counts {
    wins: u64,
    losses: u64,
    draws: u64,
}

impl Counts {
    fn add(&mut self, wins: u64, losses: u64, draws: u64) {
        self.wins = self.wins.saturating_add(wins);
        self.losses = self.losses.saturating_add(losses);
        self.draws = self.draws.saturating_add(draws);
    }

    fn of_mut(&mut self, outcome: Outcome) -> &mut u64 {
        match outcome {
            Outcome::Win => &mut self.wins,
            Outcome::Loss => &mut self.losses,
            Outcome::Draw => &mut self.draws,
        }
    }

    fn is_empty(&self) -> bool {
        *self == Counts::default()
    }
}

/// Rows are kept by board shape (size, k), then side, then level.
type Key = (u8, u8, Player, Level);

/// Every count, by board shape, the person's side and the AI's level.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stats {
    counts: BTreeMap<Key, Counts>,
}

impl Stats {
    /// Counts one game.
    pub fn add(&mut self, record: GameRecord) {
        let counts = self.counts.entry(key(record)).or_default();
        let count = counts.of_mut(record.outcome);
        *count = count.saturating_add(1);
    }

    /// Takes one counted game back out; a count already at zero stays there.
    pub fn remove(&mut self, record: GameRecord) {
        let Some(counts) = self.counts.get_mut(&key(record)) else {
            return;
        };
        let count = counts.of_mut(record.outcome);
        *count = count.saturating_sub(1);
        if counts.is_empty() {
            self.counts.remove(&key(record));
        }
    }

    /// One row per shape, side and level played, ordered by shape, side, then level.
    pub fn rows(&self) -> Vec<Row> {
        self.counts
            .iter()
            .map(|(&(size, k, side, opponent), c)| Row {
                side,
                opponent,
                size,
                k,
                wins: c.wins,
                losses: c.losses,
                draws: c.draws,
            })
            .collect()
    }

    /// All games counted.
    pub fn games(&self) -> u64 {
        let (wins, losses, draws) = self.totals();
        wins.saturating_add(losses).saturating_add(draws)
    }

    /// Totals over every row: (wins, losses, draws).
    pub fn totals(&self) -> (u64, u64, u64) {
        let mut total = Counts::default();
        for counts in self.counts.values() {
            total.add(counts.wins, counts.losses, counts.draws);
        }
        (total.wins, total.losses, total.draws)
    }
}

fn key(record: GameRecord) -> Key {
    (record.size, record.k, record.side, record.opponent)
}

/// The file as written: the marker, the version, the rows.
#[derive(Serialize)]
struct SavedFile {
    format: &'static str,
    version: u64,
    rows: Vec<Row>,
}

/// The first thing read of a file of ours: which version it is.
#[derive(Deserialize)]
struct Header {
    version: u64,
}

/// A file of version 1 or 2 as read.
#[derive(Deserialize)]
struct LoadedFile {
    rows: Vec<LoadedRow>,
}

/// A row as read: version 1 rows have no shape.
#[derive(Deserialize)]
struct LoadedRow {
    #[serde(with = "side_name")]
    side: Player,
    #[serde(with = "level_name")]
    opponent: Level,
    size: Option<u8>,
    k: Option<u8>,
    wins: u64,
    losses: u64,
    draws: u64,
}

/// Reads the counts of a file of ours, or says what is wrong with it.
fn parse(bytes: &[u8]) -> Result<Stats, Parsed> {
    let damaged = |e: serde_json::Error| Parsed::Damaged(e.to_string());
    let version = serde_json::from_slice::<Header>(bytes)
        .map_err(damaged)?
        .version;
    if version > VERSION {
        return Err(Parsed::Newer(version));
    }
    if version == 0 {
        return Err(Parsed::Damaged("it has version 0".into()));
    }
    let loaded = serde_json::from_slice::<LoadedFile>(bytes).map_err(damaged)?;
    let mut stats = Stats::default();
    for row in loaded.rows {
        let (size, k) = match (version, row.size, row.k) {
            (1, None, None) => (3, 3),
            (_, Some(size), Some(k)) => (size, k),
            _ => return Err(Parsed::Damaged("a row has no board size or k".into())),
        };
        if Board::empty(size, k).is_err() {
            return Err(Parsed::Damaged(format!(
                "a row has a board {size}x{size} with {k} in a row, which this program does not play"
            )));
        }
        stats
            .counts
            .entry((size, k, row.side, row.opponent))
            .or_default()
            .add(row.wins, row.losses, row.draws);
    }
    stats.counts.retain(|_, counts| !counts.is_empty());
    Ok(stats)
}

/// Why a file of ours could not be read as counts.
enum Parsed {
    Damaged(String),
    Newer(u64),
}

/// True when the bytes begin as a statistics file of this program: an object
/// whose first key is `"format"` with our marker, or (the first format) whose
/// first key is `"version"` with a number.
fn begins_as_ours(bytes: &[u8]) -> bool {
    fn skip_space(bytes: &[u8]) -> &[u8] {
        let start = bytes
            .iter()
            .position(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
            .unwrap_or(bytes.len());
        &bytes[start..]
    }
    /// The rest after `"key"`, spaces and a colon.
    fn after_key<'a>(bytes: &'a [u8], key: &[u8]) -> Option<&'a [u8]> {
        let rest = bytes.strip_prefix(b"\"")?.strip_prefix(key)?;
        let rest = skip_space(rest.strip_prefix(b"\"")?);
        Some(skip_space(rest.strip_prefix(b":")?))
    }
    let Some(rest) = skip_space(bytes).strip_prefix(b"{") else {
        return false;
    };
    let rest = skip_space(rest);
    if let Some(value) = after_key(rest, b"format") {
        return value.starts_with(format!("\"{FORMAT}\"").as_bytes());
    }
    after_key(rest, b"version").is_some_and(|value| value.first().is_some_and(u8::is_ascii_digit))
}

/// Something is wrong with the statistics file; every message names the file.
#[derive(Debug, Error)]
pub enum StatsError {
    /// The path holds something that is not a statistics file of this program.
    #[error("{} is not a tictactoe statistics file; it is left untouched", path.display())]
    Foreign {
        /// The path given.
        path: PathBuf,
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
            | StatsError::TooBig { .. }
            | StatsError::DanglingLink { .. }
            | StatsError::NotAFile { .. } => true,
        }
    }
}

/// A damaged file was moved aside and counting started afresh.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    /// The statistics file.
    pub path: PathBuf,
    /// What was wrong with it.
    pub problem: String,
    /// Where it is kept now.
    pub kept_as: PathBuf,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "warning: the statistics file {} is damaged ({}); it is kept as {} and counting starts afresh",
            self.path.display(),
            self.problem,
            self.kept_as.display()
        )
    }
}

/// What a look at the file found when it cannot be used as it is.
enum Unusable {
    /// Ours, but damaged: a writer moves it aside.
    Damaged(String),
    /// Anything else: reported and left alone.
    Refused(StatsError),
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

    /// Counts one finished game.
    pub fn record(&self, record: GameRecord) -> Result<Vec<Warning>, StatsError> {
        self.update(|stats| stats.add(record))
    }

    /// Takes one counted game back out (its last move was undone). A count
    /// already at zero stays at zero.
    pub fn unrecord(&self, record: GameRecord) -> Result<Vec<Warning>, StatsError> {
        self.update(|stats| stats.remove(record))
    }

    /// The counts so far. Takes no lock and never writes, moves or creates
    /// anything: a file that cannot be used is an error.
    pub fn read(&self) -> Result<Stats, StatsError> {
        let target = self.target()?;
        self.load(&target).map_err(|unusable| match unusable {
            Unusable::Damaged(problem) => StatsError::Damaged {
                path: self.path.clone(),
                problem,
            },
            Unusable::Refused(error) => error,
        })
    }

    /// Forgets every count.
    pub fn reset(&self) -> Result<Vec<Warning>, StatsError> {
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
    fn load(&self, target: &Path) -> Result<Stats, Unusable> {
        let refused = |error| Unusable::Refused(error);
        let check = |meta: &fs::Metadata| {
            if !meta.is_file() {
                Err(refused(StatsError::NotAFile {
                    path: self.path.clone(),
                }))
            } else if meta.len() > SIZE_CAP {
                Err(refused(StatsError::TooBig {
                    path: self.path.clone(),
                    size: meta.len(),
                }))
            } else {
                Ok(())
            }
        };
        // Looked at before opening: opening a pipe would wait for a writer.
        match fs::metadata(target) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Stats::default()),
            Err(e) => return Err(refused(self.io_error("cannot read")(e))),
            Ok(meta) => check(&meta)?,
        }
        let file = match File::open(target) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Stats::default()),
            other => other.map_err(|e| refused(self.io_error("cannot read")(e)))?,
        };
        let meta = file
            .metadata()
            .map_err(|e| refused(self.io_error("cannot read")(e)))?;
        check(&meta)?;
        let mut bytes = Vec::new();
        // Never more than the cap, even if the file grows meanwhile.
        file.take(SIZE_CAP + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| refused(self.io_error("cannot read")(e)))?;
        if bytes.len() as u64 > SIZE_CAP {
            return Err(refused(StatsError::TooBig {
                path: self.path.clone(),
                size: bytes.len() as u64,
            }));
        }
        if !begins_as_ours(&bytes) {
            return Err(refused(StatsError::Foreign {
                path: self.path.clone(),
            }));
        }
        parse(&bytes).map_err(|parsed| match parsed {
            Parsed::Damaged(problem) => Unusable::Damaged(problem),
            Parsed::Newer(found) => refused(StatsError::Newer {
                path: self.path.clone(),
                found,
            }),
        })
    }

    /// Reads, changes and writes the counts while holding the lock.
    fn update(&self, change: impl FnOnce(&mut Stats)) -> Result<Vec<Warning>, StatsError> {
        let target = self.target()?;
        // A look before anything is created: nothing, not even a lock file,
        // is put beside a file that is not ours.
        if let Err(Unusable::Refused(error)) = self.load(&target) {
            return Err(error);
        }
        let dir = match target.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
            _ => PathBuf::from("."),
        };
        fs::create_dir_all(&dir).map_err(self.io_error(CREATE_FOLDER))?;
        let lock = self.lock(&target)?;
        remove_stale_temps(&dir, &target);

        let mut warnings = Vec::new();
        let before = match self.load(&target) {
            Ok(stats) => stats,
            Err(Unusable::Refused(error)) => return Err(error),
            Err(Unusable::Damaged(problem)) => {
                let aside = aside_name(&target);
                fs::rename(&target, &aside)
                    .map_err(self.io_error("cannot move aside the damaged statistics file"))?;
                warnings.push(Warning {
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
            save(&target, &dir, &stats).map_err(self.io_error("cannot write"))?;
        }
        drop(lock);
        Ok(warnings)
    }

    /// The lock file beside `target`, locked; waits at most the patience.
    fn lock(&self, target: &Path) -> Result<File, StatsError> {
        let lock_path = target.with_file_name(format!("{}.lock", file_name(target)));
        let lock = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .map_err(self.io_error("cannot open the lock file of"))?;
        let deadline = Instant::now() + self.lock_patience;
        let mut pause = Duration::from_millis(1);
        loop {
            match lock.try_lock() {
                Ok(()) => return Ok(lock),
                Err(TryLockError::WouldBlock) if Instant::now() < deadline => {
                    thread::sleep(pause);
                    pause = (pause * 2).min(Duration::from_millis(25));
                }
                Err(TryLockError::WouldBlock) => {
                    return Err(StatsError::Locked {
                        path: self.path.clone(),
                    });
                }
                Err(TryLockError::Error(e)) => return Err(self.io_error("cannot lock")(e)),
            }
        }
    }
}

/// Writes a temporary file beside the real one and renames it into place.
fn save(target: &Path, dir: &Path, stats: &Stats) -> io::Result<()> {
    let mut temp = tempfile::Builder::new()
        .prefix(&temp_prefix(target))
        .rand_bytes(TEMP_RANDOM_LEN)
        .tempfile_in(dir)?;
    let saved = SavedFile {
        format: FORMAT,
        version: VERSION,
        rows: stats.rows(),
    };
    serde_json::to_writer_pretty(&mut temp, &saved).map_err(io::Error::other)?;
    temp.write_all(b"\n")?;
    // The new file keeps the old one's permissions (a temporary file starts private).
    if let Ok(meta) = fs::metadata(target) {
        temp.as_file().set_permissions(meta.permissions())?;
    }
    temp.as_file().sync_all()?;
    temp.persist(target).map_err(|e| e.error)?;
    Ok(())
}

/// Temporary files are named `<name>.tmp-` and [`TEMP_RANDOM_LEN`] letters or digits.
fn temp_prefix(target: &Path) -> String {
    format!("{}.tmp-", file_name(target))
}

/// Removes the temporary files of writers that were killed before they
/// renamed them: only regular files of our own pattern, and only old ones, so
/// a writer of another program (or one that just lost the lock) is never hurt.
/// Runs while holding the lock; anything it cannot remove stays.
fn remove_stale_temps(dir: &Path, target: &Path) {
    let prefix = temp_prefix(target);
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(random) = name.to_str().and_then(|name| name.strip_prefix(&prefix)) else {
            continue;
        };
        if random.len() != TEMP_RANDOM_LEN || !random.bytes().all(|b| b.is_ascii_alphanumeric()) {
            continue;
        }
        // The entry itself, not what a link would point to.
        let Ok(meta) = entry.metadata() else { continue };
        let age = meta.modified().ok().and_then(|at| at.elapsed().ok());
        if meta.is_file() && age.is_some_and(|age| age > STALE_TEMP_AGE) {
            let _ = fs::remove_file(entry.path());
        }
    }
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

/// One session's counting, and how it tells the user about the file: a
/// warning whenever a damaged file is moved aside; an error line the first
/// time the file cannot be used for good (not ours, newer, too big, not a
/// regular file, no permission, a read-only folder), after which it stays
/// silent and counts nothing more this session; an error line each time
/// another program holds the lock too long, after which it goes on counting.
/// It only takes back results it counted.
#[derive(Debug)]
pub struct Counter {
    /// `None` when counting is off, or stopped for good.
    file: Option<StatsFile>,
    /// Results this session put in the file and did not take back out.
    counted: Vec<GameRecord>,
    /// Results whose taking back failed: still in the file, so counting
    /// them again writes nothing.
    still_counted: Vec<GameRecord>,
}

impl Counter {
    /// Counting in `file`, or nothing when it is `None` (`--no-stats`).
    pub fn new(file: Option<StatsFile>) -> Counter {
        Counter {
            file,
            counted: Vec::new(),
            still_counted: Vec::new(),
        }
    }

    /// Counts a finished game. Returns the lines to show the user, each one
    /// line starting `warning:` or `error:` and naming the file.
    pub fn record(&mut self, record: GameRecord) -> Vec<String> {
        let Some(file) = &self.file else {
            return Vec::new();
        };
        if let Some(at) = self.still_counted.iter().rposition(|&r| r == record) {
            self.still_counted.remove(at);
            self.counted.push(record);
            return Vec::new();
        }
        match file.record(record) {
            Ok(warnings) => {
                self.counted.push(record);
                warnings.iter().map(Warning::to_string).collect()
            }
            Err(error) => self.failed(&error, "this game was not counted"),
        }
    }

    /// Takes a counted game back out (its last move was undone). A result
    /// this session did not count is not taken out. Returns the lines to
    /// show, as [`Counter::record`] does.
    pub fn unrecord(&mut self, record: GameRecord) -> Vec<String> {
        let Some(file) = &self.file else {
            return Vec::new();
        };
        let Some(at) = self.counted.iter().rposition(|&r| r == record) else {
            return Vec::new();
        };
        self.counted.remove(at);
        match file.unrecord(record) {
            Ok(warnings) => warnings.iter().map(Warning::to_string).collect(),
            Err(error) => {
                self.still_counted.push(record);
                self.failed(&error, "the game taken back is still counted")
            }
        }
    }

    /// Saves a result that appeared or went away in a session with these
    /// seats, started from `start`, when it is one the statistics count.
    /// Returns the lines to show, as [`Counter::record`] does.
    pub fn save(&mut self, change: ResultChange, seats: Seats, start: Board) -> Vec<String> {
        let (ResultChange::Finished(status) | ResultChange::TakenBack(status)) = change;
        let Some(record) = GameRecord::of(seats, start, status) else {
            return Vec::new();
        };
        match change {
            ResultChange::Finished(_) => self.record(record),
            ResultChange::TakenBack(_) => self.unrecord(record),
        }
    }

    /// The gist of a line from [`Counter::record`] or [`Counter::unrecord`],
    /// short enough for a status line.
    pub fn headline(line: &str) -> &'static str {
        if line.starts_with("warning:") {
            "warning: damaged statistics file kept aside; counting afresh"
        } else {
            "error: statistics not saved (details on exit)"
        }
    }

    fn failed(&mut self, error: &StatsError, consequence: &str) -> Vec<String> {
        if error.is_permanent() {
            self.file = None;
            vec![format!(
                "error: {error}; no game is counted for the rest of this session"
            )]
        } else {
            vec![format!("error: {error}; {consequence}")]
        }
    }
}

mod side_name {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    use crate::engine::Player;

    pub fn serialize<S: Serializer>(side: &Player, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&side.notation().to_string())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Player, D::Error> {
        match String::deserialize(deserializer)?.as_str() {
            "x" => Ok(Player::X),
            "o" => Ok(Player::O),
            other => Err(D::Error::custom(format!("unknown side {other:?}"))),
        }
    }
}

mod level_name {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    use crate::engine::Level;

    pub fn serialize<S: Serializer>(level: &Level, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(level.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Level, D::Error> {
        let name = String::deserialize(deserializer)?;
        Level::ALL
            .into_iter()
            .find(|level| level.name() == name)
            .ok_or_else(|| D::Error::custom(format!("unknown level {name:?}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_our_beginnings_are_ours() {
        for ours in [
            &b"{\"format\":\"tictactoe-stats\",\"version\":2,\"rows\":[]}"[..],
            b"  \n{\n  \"format\" : \"tictactoe-stats\",",
            b"{\n  \"version\": 1,\n  \"rows\": [",
            b"{\"version\":99",
        ] {
            assert!(begins_as_ours(ours), "{}", String::from_utf8_lossy(ours));
        }
        for foreign in [
            &b""[..],
            b"   ",
            b"127.0.0.1 localhost\n",
            b"[1, 2]",
            b"{}",
            b"{\"name\": \"a-package\", \"version\": \"1.0.0\"}",
            b"{\"version\": \"1.0.0\", \"name\": \"a-package\"}",
            b"{\"format\": \"something-else\", \"version\": 2}",
            b"{\"formats\": \"tictactoe-stats\"}",
            b"{\"format\"",
            b"\xff\xfe{\"version\":1",
        ] {
            assert!(
                !begins_as_ours(foreign),
                "{}",
                String::from_utf8_lossy(foreign)
            );
        }
    }

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

//! Saved statistics: finished games counted by side, opponent level and result.
//!
//! Nothing is ever lost. Every update holds a lock (on a separate `.lock` file,
//! which is never replaced) across read, change and write; the new contents go
//! to a temporary file that is renamed into place, so a reader sees the old
//! file or the new one, never half of either. A file that cannot be read or
//! parsed is moved aside, named with `.corrupt-` and the time, and counting
//! starts afresh with a warning.

use std::collections::BTreeMap;
use std::fmt;
use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::engine::{Board, Level, Player, Status};
use crate::game::{Seat, Seats};

/// How a finished game went for the person who played it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// The person won.
    Win,
    /// The AI won.
    Loss,
    /// Nobody won.
    Draw,
}

/// One finished game of a person against the AI.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameRecord {
    /// The person's side.
    pub side: Player,
    /// The AI's level.
    pub opponent: Level,
    /// The result for the person.
    pub outcome: Outcome,
}

impl GameRecord {
    /// The record of a finished game, when one person played one AI (games
    /// between two people or two AIs are not counted).
    pub fn of(seats: Seats, start: Board, status: Status) -> Option<GameRecord> {
        if start.move_count() > 0 {
            return None;
        }
        let side = seats.lone_human()?;
        let Seat::Ai(opponent) = seats.of(side.other()) else {
            return None;
        };
        let outcome = match status {
            Status::Won(winner) if winner == side => Outcome::Win,
            Status::Won(_) => Outcome::Loss,
            Status::Draw => Outcome::Draw,
            Status::InProgress { .. } => return None,
        };
        Some(GameRecord {
            side,
            opponent,
            outcome,
        })
    }
}

/// Wins, losses and draws against one opponent level from one side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Row {
    /// The person's side: `"x"` or `"o"`.
    #[serde(with = "side_name")]
    pub side: Player,
    /// The AI's level.
    #[serde(with = "level_name")]
    pub opponent: Level,
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
}

/// Every count, by the person's side and the AI's level.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stats {
    counts: BTreeMap<(Player, Level), Counts>,
}

impl Stats {
    /// Counts one game.
    pub fn add(&mut self, record: GameRecord) {
        let counts = self
            .counts
            .entry((record.side, record.opponent))
            .or_default();
        match record.outcome {
            Outcome::Win => counts.add(1, 0, 0),
            Outcome::Loss => counts.add(0, 1, 0),
            Outcome::Draw => counts.add(0, 0, 1),
        }
    }

    /// Takes one game back out.
    pub fn remove(&mut self, record: GameRecord) {
        if let Some(counts) = self.counts.get_mut(&(record.side, record.opponent)) {
            let count = match record.outcome {
                Outcome::Win => &mut counts.wins,
                Outcome::Loss => &mut counts.losses,
                Outcome::Draw => &mut counts.draws,
            };
            *count = count.saturating_sub(1);
        }
    }

    /// One row per side and level played, ordered by side, then level.
    pub fn rows(&self) -> Vec<Row> {
        self.counts
            .iter()
            .map(|(&(side, opponent), c)| Row {
                side,
                opponent,
                wins: c.wins,
                losses: c.losses,
                draws: c.draws,
            })
            .collect()
    }

    /// All games counted.
    pub fn games(&self) -> u64 {
        self.rows()
            .iter()
            .fold(0, |total, row| total.saturating_add(row.games()))
    }

    /// Totals over every row: (wins, losses, draws).
    pub fn totals(&self) -> (u64, u64, u64) {
        let mut total = Counts::default();
        for row in self.rows() {
            total.add(row.wins, row.losses, row.draws);
        }
        (total.wins, total.losses, total.draws)
    }

    fn from_rows(rows: Vec<Row>) -> Stats {
        let mut stats = Stats::default();
        for row in rows {
            stats
                .counts
                .entry((row.side, row.opponent))
                .or_default()
                .add(row.wins, row.losses, row.draws);
        }
        stats
    }
}

/// The file format: a version for later changes, and the rows.
#[derive(Debug, Serialize, Deserialize)]
struct SavedFile {
    version: u32,
    rows: Vec<Row>,
}

const VERSION: u32 = 1;

/// Something went wrong with the statistics file; the message names the file.
#[derive(Debug, Error)]
#[error("{action} {}: {source}", path.display())]
pub struct StatsError {
    action: &'static str,
    path: PathBuf,
    source: io::Error,
}

/// A file that could not be used was moved aside and counting started afresh.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    /// The statistics file.
    pub path: PathBuf,
    /// What was wrong with it.
    pub problem: String,
    /// Where it is kept now.
    pub kept_as: PathBuf,
}

impl Warning {
    /// The gist, short enough for a status line.
    pub fn headline(&self) -> String {
        "warning: unusable statistics file kept aside; counting afresh".to_string()
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "warning: the statistics file {} {}; it is kept as {} and counting starts afresh",
            self.path.display(),
            self.problem,
            self.kept_as.display()
        )
    }
}

/// The statistics file at one path.
#[derive(Debug, Clone)]
pub struct StatsFile {
    path: PathBuf,
}

impl StatsFile {
    /// The file at `path`.
    pub fn at(path: impl Into<PathBuf>) -> StatsFile {
        StatsFile { path: path.into() }
    }

    /// `stats.json` in the platform's data directory (`$XDG_DATA_HOME/tictactoe`
    /// or `~/.local/share/tictactoe` on Linux), if the platform has one.
    pub fn default_location() -> Option<StatsFile> {
        let dirs = directories::ProjectDirs::from("", "", "tictactoe")?;
        Some(StatsFile::at(dirs.data_dir().join("stats.json")))
    }

    /// Where the counts are kept.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Counts one finished game.
    pub fn record(&self, record: GameRecord) -> Result<Vec<Warning>, StatsError> {
        self.update(|stats| stats.add(record))
            .map(|((), warnings)| warnings)
    }

    /// Takes a counted game back out (it was undone).
    pub fn unrecord(&self, record: GameRecord) -> Result<Vec<Warning>, StatsError> {
        self.update(|stats| stats.remove(record))
            .map(|((), warnings)| warnings)
    }

    /// The counts so far.
    pub fn read(&self) -> Result<(Stats, Vec<Warning>), StatsError> {
        self.update(|stats| stats.clone())
    }

    /// Forgets every count.
    pub fn reset(&self) -> Result<Vec<Warning>, StatsError> {
        self.update(|stats| *stats = Stats::default())
            .map(|((), warnings)| warnings)
    }

    /// Reads, changes and writes the counts while holding the lock.
    fn update<T>(
        &self,
        change: impl FnOnce(&mut Stats) -> T,
    ) -> Result<(T, Vec<Warning>), StatsError> {
        let error = |action, source| StatsError {
            action,
            path: self.path.clone(),
            source,
        };
        let dir = match self.path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
            _ => PathBuf::from("."),
        };
        fs::create_dir_all(&dir).map_err(|e| error("cannot create the folder of", e))?;
        let lock_path = self
            .path
            .with_file_name(format!("{}.lock", file_name(&self.path)));
        let lock = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .map_err(|e| error("cannot open the lock file of", e))?;
        lock.lock().map_err(|e| error("cannot lock", e))?;

        let mut warnings = Vec::new();
        let before = self.load(&mut warnings)?;
        let mut stats = before.clone();
        let result = change(&mut stats);
        if stats != before {
            self.save(&dir, &stats)
                .map_err(|e| error("cannot write", e))?;
        }
        drop(lock);
        Ok((result, warnings))
    }

    /// The saved counts; a file that cannot be used is moved aside.
    fn load(&self, warnings: &mut Vec<Warning>) -> Result<Stats, StatsError> {
        // Only a regular file is ever moved aside: a folder or a device at the
        // path is the user's mistake to hear about, not ours to rename.
        match fs::metadata(&self.path) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Stats::default()),
            Ok(meta) if !meta.is_file() => {
                let source =
                    io::Error::new(io::ErrorKind::InvalidInput, "it is not a regular file");
                return Err(StatsError {
                    action: "cannot keep statistics in",
                    path: self.path.clone(),
                    source,
                });
            }
            _ => {}
        }
        let problem = match fs::read_to_string(&self.path) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Stats::default()),
            Err(e) => format!("could not be read ({e})"),
            Ok(text) => match serde_json::from_str::<SavedFile>(&text) {
                Ok(saved) if saved.version == VERSION => return Ok(Stats::from_rows(saved.rows)),
                Ok(saved) => format!(
                    "has version {}, this program writes {VERSION}",
                    saved.version
                ),
                Err(e) => format!("is corrupt ({e})"),
            },
        };
        let aside = self.aside_name();
        fs::rename(&self.path, &aside).map_err(|source| StatsError {
            action: "cannot move aside the unusable statistics file",
            path: self.path.clone(),
            source,
        })?;
        warnings.push(Warning {
            path: self.path.clone(),
            problem,
            kept_as: aside,
        });
        Ok(Stats::default())
    }

    /// A name beside the file, with `.corrupt-` and the time, not yet taken.
    fn aside_name(&self) -> PathBuf {
        let stamp = humantime::format_rfc3339_seconds(SystemTime::now())
            .to_string()
            .replace(':', "-");
        let base = format!("{}.corrupt-{stamp}", file_name(&self.path));
        let mut candidate = self.path.with_file_name(&base);
        let mut n = 1;
        while candidate.exists() {
            n += 1;
            candidate = self.path.with_file_name(format!("{base}-{n}"));
        }
        candidate
    }

    /// Writes a temporary file beside the real one and renames it into place.
    fn save(&self, dir: &Path, stats: &Stats) -> io::Result<()> {
        let mut temp = tempfile::NamedTempFile::new_in(dir)?;
        let saved = SavedFile {
            version: VERSION,
            rows: stats.rows(),
        };
        serde_json::to_writer_pretty(&mut temp, &saved).map_err(io::Error::other)?;
        temp.write_all(b"\n")?;
        // The new file keeps the old one's permissions (a temporary file starts private).
        if let Ok(meta) = fs::metadata(&self.path) {
            temp.as_file().set_permissions(meta.permissions())?;
        }
        temp.as_file().sync_all()?;
        temp.persist(&self.path).map_err(|e| e.error)?;
        Ok(())
    }
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || "stats.json".into(),
        |name| name.to_string_lossy().into_owned(),
    )
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

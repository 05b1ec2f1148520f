//! What the server remembers across restarts, in one SQLite file: the
//! players (a key's SHA-256 fingerprint and the name it took first), their
//! Glicko-2 ratings per board kind, and every game between two keys with
//! each move as it was played. This module is the whole of the SQL: the
//! rest of the server reaches [`Database`]'s methods through the store's
//! thread ([`super::Store`]) and knows no SQL, so another database could
//! stand behind the same methods.
//!
//! The file is checked before anything is written to it: a file that is
//! not SQLite, an SQLite database of another program, one made by a newer
//! version of this program, one that is read-only or locked by another
//! program is refused with one line and left as it was. The server holds
//! the database alone while it runs (SQLite's exclusive locking mode), in
//! WAL mode; each move, and each result with the ratings it changes, is one
//! transaction, committed before the move is shown.

use std::fmt;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use rusqlite::{Connection, ErrorCode, OpenFlags, OptionalExtension, Transaction, params};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};

use crate::names::name_key;
use tictactoe_engine::{Outcome, Player};
use tictactoe_game::clock::TimeControl;
use tictactoe_game::files::kind as file_kind;
use tictactoe_game::versus::{End, Termination};

/// The number in SQLite's header that marks this program's databases ("TTT1").
const APPLICATION_ID: i32 = 0x5454_5431;
/// The schema this version writes; [`MIGRATIONS`] has one step per version.
pub(crate) const SCHEMA: i32 = 2;

/// Each step from one schema version to the next: step `i` makes version `i + 1`.
const MIGRATIONS: [&str; SCHEMA as usize] = [
    "
    CREATE TABLE players (
        id INTEGER PRIMARY KEY,
        fingerprint TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL UNIQUE,
        joined TEXT NOT NULL
    );
    CREATE TABLE ratings (
        player INTEGER NOT NULL REFERENCES players(id),
        size INTEGER NOT NULL,
        k INTEGER NOT NULL,
        rating REAL NOT NULL,
        deviation REAL NOT NULL,
        volatility REAL NOT NULL,
        games INTEGER NOT NULL,
        PRIMARY KEY (player, size, k)
    );
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        size INTEGER NOT NULL,
        k INTEGER NOT NULL,
        rated INTEGER NOT NULL,
        base_ms INTEGER,
        increment_ms INTEGER,
        x INTEGER NOT NULL REFERENCES players(id),
        o INTEGER NOT NULL REFERENCES players(id),
        started TEXT NOT NULL,
        ended TEXT,
        result TEXT,
        ending TEXT,
        x_rating_before REAL,
        x_rating_after REAL,
        o_rating_before REAL,
        o_rating_after REAL
    );
    CREATE INDEX games_by_x ON games(x, id);
    CREATE INDEX games_by_o ON games(o, id);
    CREATE INDEX games_unfinished ON games(id) WHERE ended IS NULL;
    CREATE TABLE moves (
        game INTEGER NOT NULL REFERENCES games(id),
        ply INTEGER NOT NULL,
        square TEXT NOT NULL,
        clock_ms INTEGER,
        PRIMARY KEY (game, ply)
    ) WITHOUT ROWID;
",
    "
    ALTER TABLE players ADD COLUMN skeleton TEXT;
    CREATE INDEX players_by_skeleton ON players(skeleton);
    ALTER TABLE games ADD COLUMN flag TEXT;
",
];

/// A deviation above this marks a rating as provisional, as Lichess does:
/// too few games to say much yet.
const PROVISIONAL: f64 = 110.0;

/// A board kind: its side and how many in a row win. Ratings are kept per kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Kind {
    pub size: u8,
    pub k: u8,
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{0}x{0} k={1}", self.size, self.k)
    }
}

/// A player: the row and the name their key took.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Account {
    pub id: i64,
    pub name: String,
}

/// A Glicko-2 rating with the number of rated games behind it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Rating {
    pub glicko: Glicko2Rating,
    pub games: u32,
}

impl Default for Rating {
    fn default() -> Rating {
        Rating {
            glicko: Glicko2Rating::new(),
            games: 0,
        }
    }
}

impl Rating {
    /// Too uncertain yet to mean much: shown with a `?`.
    pub fn provisional(&self) -> bool {
        self.glicko.deviation > PROVISIONAL
    }
}

/// The rating rounded, `?` after it while provisional: `1662?`.
impl fmt::Display for Rating {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mark = if self.provisional() { "?" } else { "" };
        write!(f, "{:.0}{mark}", self.glicko.rating)
    }
}

/// A game's end as kept: its result (`None`: aborted) and what ended it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Finish {
    pub verdict: Option<Outcome>,
    pub termination: Termination,
}

impl Finish {
    /// A game's end as it is kept.
    pub fn of(end: &End) -> Finish {
        Finish {
            verdict: end.verdict,
            termination: end.termination(),
        }
    }

    /// The result as records and JSON say it: `x-wins`, `o-wins`, `draw`,
    /// or `aborted`.
    pub fn result_word(&self) -> &'static str {
        self.verdict.map_or("aborted", Outcome::name)
    }

    fn from_words(result: &str, termination: &str) -> Option<Finish> {
        let verdict = match result {
            "aborted" => None,
            result => Some(result.parse::<Outcome>().ok()?),
        };
        Some(Finish {
            verdict,
            termination: Termination::from_word(termination)?,
        })
    }
}

/// A new game between two players.
#[derive(Debug, Clone, Copy)]
pub(crate) struct NewGame {
    pub kind: Kind,
    pub rated: bool,
    pub control: Option<TimeControl>,
    pub x: i64,
    pub o: i64,
}

/// A move as stored: the square in a1 notation and, on a clock, what the
/// mover had left after it (the increment added).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StoredMove {
    pub square: String,
    pub clock: Option<Duration>,
}

/// A game as the database has it.
#[derive(Debug, Clone)]
pub(crate) struct StoredGame {
    pub id: i64,
    pub kind: Kind,
    pub rated: bool,
    pub control: Option<TimeControl>,
    pub x: Account,
    pub o: Account,
    pub started: String,
    pub moves: Vec<StoredMove>,
    /// `None` while the game goes on.
    pub finish: Option<Finish>,
    /// Each side's rating before and after, for a rated game that ended.
    pub ratings: Option<[(f64, f64); 2]>,
}

/// What writing a game's end did to its rating: the new ratings of X and
/// O, or why a rated game's result was not rated.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) struct NewRatings {
    /// X's and O's ratings after the game, when it was rated.
    pub ratings: Option<(Rating, Rating)>,
    /// Why a rated game's result did not count: the farming guard.
    pub flagged: Option<Flag>,
}

/// A win this short, by resignation, forfeit, time or a claim, is a quick
/// one: fewer moves than this on the board.
pub(crate) const QUICK_PLIES: i64 = 10;
/// Quick wins of one player over the same opponent on one board that are
/// rated within 24 hours; the next ones are flagged and not rated.
pub(crate) const QUICK_WINS_RATED: i64 = 2;
/// Rated games between the same two players on one board within 24 hours;
/// past these, their new games are casual.
pub(crate) const RATED_PER_PAIR: i64 = 20;

/// Why a rated game did not count as one: what the farming guard saw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Flag {
    /// The winner's quick wins over this opponent within 24 hours, this one included.
    QuickWins(i64),
    /// The pair's rated games within 24 hours had reached [`RATED_PER_PAIR`].
    PairCap,
}

impl Flag {
    /// As the database keeps it.
    fn word(self) -> &'static str {
        match self {
            Flag::QuickWins(_) => "quick-wins",
            Flag::PairCap => "pair-cap",
        }
    }
}

impl fmt::Display for Flag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Flag::QuickWins(n) => write!(f, "unrated: quick win {n} in 24 h over the same player"),
            Flag::PairCap => write!(
                f,
                "casual: {RATED_PER_PAIR} rated games with this player in 24 h"
            ),
        }
    }
}

/// 24 hours before now, as the database writes times.
fn a_day_ago() -> String {
    let then = SystemTime::now() - Duration::from_secs(24 * 60 * 60);
    humantime::format_rfc3339_seconds(then).to_string()
}

/// Why the database cannot be used.
#[derive(Debug)]
pub enum StoreProblem {
    /// Not this program's: not SQLite at all, or another program's database.
    Foreign(&'static str),
    /// Made by a newer version of this program.
    Newer(i32),
    /// The file or its folder may not be written.
    ReadOnly(&'static str),
    /// Another program holds it.
    Locked,
    /// A folder, a pipe, a device.
    NotAFile(&'static str),
    /// A symbolic link (to this path): the server opens the file itself.
    Symlink(PathBuf),
    /// This program's, but not as its schema says: a table or column
    /// missing, or a version no program wrote.
    Damaged(String),
    /// SQLite failed otherwise.
    Sqlite(rusqlite::Error),
    /// The file system failed.
    Io(std::io::Error),
}

impl fmt::Display for StoreProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreProblem::Foreign(what) => write!(f, "not a tictactoe database ({what})"),
            StoreProblem::Newer(version) => write!(
                f,
                "made by a newer tictactoe (schema {version}; this one reads up to {SCHEMA})"
            ),
            StoreProblem::ReadOnly(what) => write!(f, "read-only ({what})"),
            StoreProblem::Locked => write!(
                f,
                "locked by another program (another tictactoe serve, or one reading it)"
            ),
            StoreProblem::NotAFile(kind) => write!(f, "is {kind}, not a file"),
            StoreProblem::Symlink(target) => write!(
                f,
                "is a symbolic link to {}; give the file itself (--db {})",
                target.display(),
                target.display()
            ),
            StoreProblem::Damaged(what) => write!(f, "a damaged tictactoe database ({what})"),
            StoreProblem::Sqlite(error) => write!(f, "{error}"),
            StoreProblem::Io(error) => write!(f, "{error}"),
        }
    }
}

impl StoreProblem {
    /// True when the file is at fault (exit status 2), false when the system failed.
    pub fn is_bad_input(&self) -> bool {
        !matches!(self, StoreProblem::Sqlite(_) | StoreProblem::Io(_))
    }

    fn of(error: rusqlite::Error) -> StoreProblem {
        match error.sqlite_error_code() {
            Some(ErrorCode::NotADatabase) => StoreProblem::Foreign("not an SQLite file"),
            Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => StoreProblem::Locked,
            Some(ErrorCode::ReadOnly) => StoreProblem::ReadOnly("SQLite may not write it"),
            _ => StoreProblem::Sqlite(error),
        }
    }
}

/// `tictactoe.db` in the platform's data directory, beside the host key.
pub(crate) fn default_path() -> Option<PathBuf> {
    let dirs = directories::ProjectDirs::from("", "", "tictactoe")?;
    Some(dirs.data_dir().join("tictactoe.db"))
}

/// Now, as the database writes times.
fn now() -> String {
    humantime::format_rfc3339_seconds(SystemTime::now()).to_string()
}

fn millis(duration: Duration) -> i64 {
    i64::try_from(duration.as_millis()).unwrap_or(i64::MAX)
}

fn from_millis(ms: i64) -> Duration {
    Duration::from_millis(u64::try_from(ms).unwrap_or(0))
}

/// The open database, used by the store's thread alone.
pub(crate) struct Database {
    db: Connection,
    /// Where the file is, and which file it was when opened (device, inode).
    path: PathBuf,
    identity: (u64, u64),
}

/// The device and inode of the file at `path` (a link is not followed).
fn identity(path: &Path) -> std::io::Result<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    let metadata = std::fs::symlink_metadata(path)?;
    Ok((metadata.dev(), metadata.ino()))
}

/// The database file is no longer the one the server opened: whatever is
/// written now would be lost, so nothing more is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Lost {
    Deleted(PathBuf),
    Replaced(PathBuf),
    Unreadable(PathBuf, std::io::ErrorKind),
}

impl fmt::Display for Lost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Lost::Deleted(path) => write!(f, "{} was deleted while the server ran", path.display()),
            Lost::Replaced(path) => write!(
                f,
                "{} was replaced by another file while the server ran",
                path.display()
            ),
            Lost::Unreadable(path, kind) => {
                write!(f, "{} can no longer be looked at ({kind})", path.display())
            }
        }
    }
}

/// Why a write was not made.
#[derive(Debug)]
pub(crate) enum WriteError {
    /// SQLite failed (a full disk, a file-size limit, an I/O error).
    Sqlite(rusqlite::Error),
    /// The file is gone: nothing is written that would be lost.
    Lost(Lost),
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WriteError::Sqlite(error) => write!(f, "{error}"),
            WriteError::Lost(lost) => write!(f, "{lost}"),
        }
    }
}

impl From<rusqlite::Error> for WriteError {
    fn from(error: rusqlite::Error) -> WriteError {
        WriteError::Sqlite(error)
    }
}

/// The tables and columns schema `version` has, as a fresh database
/// brought to it has them.
fn tables_of(version: i32) -> rusqlite::Result<Vec<(String, Vec<String>)>> {
    let db = Connection::open_in_memory()?;
    for sql in MIGRATIONS.iter().take(version.max(0) as usize) {
        db.execute_batch(sql)?;
    }
    tables_in(&db)
}

/// The tables of `db` with their columns.
fn tables_in(db: &Connection) -> rusqlite::Result<Vec<(String, Vec<String>)>> {
    let names: Vec<String> = db
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")?
        .query_map([], |row| row.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    names
        .into_iter()
        .map(|name| {
            let columns = db
                .prepare("SELECT name FROM pragma_table_info(?1)")?
                .query_map([&name], |row| row.get(0))?
                .collect::<rusqlite::Result<Vec<String>>>()?;
            Ok((name, columns))
        })
        .collect()
}

/// Refuses a database of this program's whose tables and columns are not
/// those its schema version has.
fn check_schema(db: &Connection, version: i32) -> Result<(), StoreProblem> {
    let expected = tables_of(version).map_err(StoreProblem::Sqlite)?;
    let found = tables_in(db).map_err(StoreProblem::of)?;
    for (table, columns) in expected {
        let Some((_, there)) = found.iter().find(|(name, _)| *name == table) else {
            return Err(StoreProblem::Damaged(format!(
                "its {table} table is missing"
            )));
        };
        if let Some(missing) = columns.iter().find(|c| !there.contains(c)) {
            return Err(StoreProblem::Damaged(format!(
                "its {table} table has no {missing} column"
            )));
        }
    }
    Ok(())
}

impl Database {
    /// Opens the database at `path`, made there (with its folders) if there
    /// is none; refuses, without writing a byte, a file that is not this
    /// program's database, is newer, read-only or locked.
    pub(crate) fn open(path: &Path) -> Result<Database, StoreProblem> {
        let exists = match std::fs::symlink_metadata(path) {
            Ok(metadata) if metadata.file_type().is_symlink() => {
                let target = std::fs::read_link(path).map_err(StoreProblem::Io)?;
                let target = match path.parent() {
                    Some(folder) if target.is_relative() => folder.join(target),
                    _ => target,
                };
                return Err(StoreProblem::Symlink(target));
            }
            Ok(metadata) => {
                if !metadata.file_type().is_file() {
                    return Err(StoreProblem::NotAFile(file_kind(metadata.file_type())));
                }
                // Root may write anything: the mode says what the owner meant.
                if metadata.permissions().mode() & 0o222 == 0 {
                    return Err(StoreProblem::ReadOnly("the file's mode allows no writing"));
                }
                true
            }
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => false,
            Err(error) => return Err(StoreProblem::Io(error)),
        };
        let folder = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        if !exists {
            crate::host_key::make_private_dirs(folder).map_err(StoreProblem::Io)?;
        }
        // The journal and its index are made beside the file.
        if std::fs::metadata(folder)
            .is_ok_and(|m| m.permissions().mode() & 0o222 == 0 || m.permissions().readonly())
        {
            return Err(StoreProblem::ReadOnly(
                "its folder's mode allows no writing",
            ));
        }
        let mut flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX
            | OpenFlags::SQLITE_OPEN_NOFOLLOW;
        if !exists {
            flags |= OpenFlags::SQLITE_OPEN_CREATE;
        }
        let db = Connection::open_with_flags(path, flags).map_err(StoreProblem::of)?;
        db.busy_timeout(Duration::ZERO).map_err(StoreProblem::of)?;
        // Held alone from the first read on: another program that has the
        // file open, even only to read it, is refused here (and a reader
        // could otherwise hold up every write later).
        db.execute_batch("PRAGMA locking_mode = EXCLUSIVE;")
            .map_err(StoreProblem::of)?;
        if db.is_readonly("main").map_err(StoreProblem::of)? {
            return Err(StoreProblem::ReadOnly("SQLite may not write it"));
        }
        let (application, version) = Database::header(&db)?;
        if version > SCHEMA {
            return Err(StoreProblem::Newer(version));
        }
        if version < 0 {
            return Err(StoreProblem::Damaged(format!(
                "user_version {version}, which no tictactoe writes"
            )));
        }
        if application != APPLICATION_ID {
            let tables: i64 = db
                .query_row("SELECT count(*) FROM sqlite_schema", [], |row| row.get(0))
                .map_err(StoreProblem::of)?;
            if application != 0 || version != 0 || tables != 0 {
                return Err(StoreProblem::Foreign(
                    "an SQLite database of another program",
                ));
            }
        }
        check_schema(&db, version)?;
        // Another program reading or writing: refuse now, before anything is
        // changed. The lock taken is kept while the server runs.
        db.execute_batch("BEGIN EXCLUSIVE; ROLLBACK;")
            .map_err(StoreProblem::of)?;
        db.execute_batch(
            "PRAGMA journal_mode = WAL;
             PRAGMA synchronous = NORMAL;
             PRAGMA foreign_keys = ON;",
        )
        .map_err(StoreProblem::of)?;
        let identity = identity(path).map_err(StoreProblem::Io)?;
        let mut store = Database {
            db,
            path: path.to_path_buf(),
            identity,
        };
        store.migrate(version)?;
        Ok(store)
    }

    /// Whether the file at the database's path is still the one open: not
    /// deleted, not replaced. Checked before every write and now and then.
    pub(crate) fn intact(&self) -> Result<(), Lost> {
        match identity(&self.path) {
            Ok(now) if now == self.identity => Ok(()),
            Ok(_) => Err(Lost::Replaced(self.path.clone())),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                Err(Lost::Deleted(self.path.clone()))
            }
            Err(error) => Err(Lost::Unreadable(self.path.clone(), error.kind())),
        }
    }

    /// The application id and schema version in the file's header.
    fn header(db: &Connection) -> Result<(i32, i32), StoreProblem> {
        let application = db
            .query_row("PRAGMA application_id", [], |row| row.get(0))
            .map_err(StoreProblem::of)?;
        let version = db
            .query_row("PRAGMA user_version", [], |row| row.get(0))
            .map_err(StoreProblem::of)?;
        Ok((application, version))
    }

    /// Brings the schema from `version` to [`SCHEMA`], each step a transaction.
    fn migrate(&mut self, version: i32) -> Result<(), StoreProblem> {
        for (step, sql) in MIGRATIONS.iter().enumerate().skip(version as usize) {
            let tx = self.db.transaction().map_err(StoreProblem::of)?;
            tx.execute_batch(sql).map_err(StoreProblem::of)?;
            if step + 1 == 2 {
                // Names are compared by their look-alike key from schema 2 on.
                let players: Vec<(i64, String)> = tx
                    .prepare("SELECT id, name FROM players")
                    .and_then(|mut query| {
                        query
                            .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?
                            .collect()
                    })
                    .map_err(StoreProblem::of)?;
                for (id, name) in players {
                    tx.execute(
                        "UPDATE players SET skeleton = ?2 WHERE id = ?1",
                        params![id, name_key(&name)],
                    )
                    .map_err(StoreProblem::of)?;
                }
            }
            tx.execute_batch(&format!(
                "PRAGMA application_id = {APPLICATION_ID}; PRAGMA user_version = {};",
                step + 1
            ))
            .map_err(StoreProblem::of)?;
            tx.commit().map_err(StoreProblem::of)?;
        }
        Ok(())
    }

    /// The player of `fingerprint`, if the key has played here before.
    pub(crate) fn account_of(&self, fingerprint: &str) -> rusqlite::Result<Option<Account>> {
        self.db
            .query_row(
                "SELECT id, name FROM players WHERE fingerprint = ?1",
                [fingerprint],
                |row| {
                    Ok(Account {
                        id: row.get(0)?,
                        name: row.get(1)?,
                    })
                },
            )
            .optional()
    }

    /// The player of `fingerprint`: known already (under the name their key
    /// took first), or new under `name`. `Err` with the name another key
    /// holds when `name` is it or looks like it.
    pub(crate) fn sign_in(
        &mut self,
        fingerprint: &str,
        name: &str,
    ) -> Result<Result<Account, String>, WriteError> {
        if let Some(account) = self.account_of(fingerprint)? {
            return Ok(Ok(account));
        }
        if let Some(holder) = self.holder(name)? {
            return Ok(Err(holder));
        }
        self.intact().map_err(WriteError::Lost)?;
        self.db.execute(
            "INSERT INTO players (fingerprint, name, joined, skeleton) VALUES (?1, ?2, ?3, ?4)",
            params![fingerprint, name, now(), name_key(name)],
        )?;
        Ok(Ok(Account {
            id: self.db.last_insert_rowid(),
            name: name.to_string(),
        }))
    }

    /// The name a key took that is `name` or looks like it, if one did.
    pub(crate) fn holder(&self, name: &str) -> rusqlite::Result<Option<String>> {
        self.db
            .query_row(
                "SELECT name FROM players WHERE skeleton = ?1 ORDER BY id LIMIT 1",
                [name_key(name)],
                |row| row.get(0),
            )
            .optional()
    }

    /// A player's rating on a board kind (the starting one before any rated game).
    pub(crate) fn rating(&self, player: i64, kind: Kind) -> rusqlite::Result<Rating> {
        rating_in(&self.db, player, kind)
    }

    /// Starts game number `id` (one more than [`Database::last_game`]
    /// gave, or than the last started since).
    pub(crate) fn start_game(
        &mut self,
        id: i64,
        game: NewGame,
    ) -> Result<Option<Flag>, WriteError> {
        self.intact().map_err(WriteError::Lost)?;
        let mut game = game;
        let mut flagged = None;
        if game.rated && self.rated_between(game.x, game.o, game.kind)? >= RATED_PER_PAIR {
            game.rated = false;
            flagged = Some(Flag::PairCap);
        }
        self.db.execute(
            "INSERT INTO games (id, size, k, rated, base_ms, increment_ms, x, o, started)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            params![
                id,
                game.kind.size,
                game.kind.k,
                game.rated,
                game.control.map(|c| millis(c.base)),
                game.control.map(|c| millis(c.increment)),
                game.x,
                game.o,
                now(),
            ],
        )?;
        if let Some(flag) = flagged {
            self.db.execute(
                "UPDATE games SET flag = ?2 WHERE id = ?1",
                params![id, flag.word()],
            )?;
        }
        Ok(flagged)
    }

    /// Rated games between `a` and `b` (either side) on `kind` started within 24 hours.
    fn rated_between(&self, a: i64, b: i64, kind: Kind) -> rusqlite::Result<i64> {
        self.db.query_row(
            "SELECT count(*) FROM games WHERE rated AND size = ?3 AND k = ?4 AND started >= ?5
               AND ((x = ?1 AND o = ?2) OR (x = ?2 AND o = ?1))",
            params![a, b, kind.size, kind.k, a_day_ago()],
            |row| row.get(0),
        )
    }

    /// The number of the last game started, 0 before any: the server numbers
    /// the games it starts from there, as it holds the database alone.
    pub(crate) fn last_game(&self) -> rusqlite::Result<i64> {
        self.db
            .query_row("SELECT coalesce(max(id), 0) FROM games", [], |row| {
                row.get(0)
            })
    }

    /// Writes move `ply` (from 0) of `game` and, when it ends the game, the
    /// result and the ratings it changes: one transaction.
    pub(crate) fn play(
        &mut self,
        game: i64,
        ply: usize,
        mv: &StoredMove,
        finish: Option<Finish>,
    ) -> Result<NewRatings, WriteError> {
        self.intact().map_err(WriteError::Lost)?;
        let tx = self.db.transaction()?;
        tx.execute(
            "INSERT INTO moves (game, ply, square, clock_ms) VALUES (?1, ?2, ?3, ?4)",
            params![game, ply as i64, mv.square, mv.clock.map(millis)],
        )?;
        let ratings = match finish {
            Some(finish) => finish_in(&tx, game, finish)?,
            None => NewRatings::default(),
        };
        tx.commit()?;
        Ok(ratings)
    }

    /// Ends `game` without a move (time, a resignation, a forfeit, an
    /// abort): the result and the ratings it changes, one transaction.
    pub(crate) fn finish(&mut self, game: i64, finish: Finish) -> Result<NewRatings, WriteError> {
        self.intact().map_err(WriteError::Lost)?;
        let tx = self.db.transaction()?;
        let ratings = finish_in(&tx, game, finish)?;
        tx.commit()?;
        Ok(ratings)
    }

    /// Every game still going, oldest first, with its moves.
    pub(crate) fn unfinished(&self) -> rusqlite::Result<Vec<StoredGame>> {
        self.games("WHERE g.ended IS NULL ORDER BY g.id", params![])
    }

    /// `player`'s games, newest first, at most `limit`.
    pub(crate) fn history(&self, player: i64, limit: u32) -> rusqlite::Result<Vec<StoredGame>> {
        self.games(
            "WHERE g.x = ?1 OR g.o = ?1 ORDER BY g.id DESC LIMIT ?2",
            params![player, limit],
        )
    }

    fn games(
        &self,
        filter: &str,
        args: &[&dyn rusqlite::ToSql],
    ) -> rusqlite::Result<Vec<StoredGame>> {
        let sql = format!(
            "SELECT g.id, g.size, g.k, g.rated, g.base_ms, g.increment_ms, g.x, px.name, g.o, po.name,
                    g.started, g.result, g.ending,
                    g.x_rating_before, g.x_rating_after, g.o_rating_before, g.o_rating_after
             FROM games g JOIN players px ON px.id = g.x JOIN players po ON po.id = g.o {filter}"
        );
        let mut statement = self.db.prepare(&sql)?;
        let mut games = statement
            .query_map(args, |row| {
                let control = match (row.get::<_, Option<i64>>(4)?, row.get::<_, Option<i64>>(5)?) {
                    (Some(base), Some(increment)) => Some(TimeControl {
                        base: from_millis(base),
                        increment: from_millis(increment),
                    }),
                    _ => None,
                };
                let finish = match (
                    row.get::<_, Option<String>>(11)?,
                    row.get::<_, Option<String>>(12)?,
                ) {
                    (Some(result), Some(ending)) => Finish::from_words(&result, &ending),
                    _ => None,
                };
                let ratings = match (
                    row.get::<_, Option<f64>>(13)?,
                    row.get::<_, Option<f64>>(14)?,
                    row.get::<_, Option<f64>>(15)?,
                    row.get::<_, Option<f64>>(16)?,
                ) {
                    (Some(a), Some(b), Some(c), Some(d)) => Some([(a, b), (c, d)]),
                    _ => None,
                };
                Ok(StoredGame {
                    id: row.get(0)?,
                    kind: Kind {
                        size: row.get(1)?,
                        k: row.get(2)?,
                    },
                    rated: row.get(3)?,
                    control,
                    x: Account {
                        id: row.get(6)?,
                        name: row.get(7)?,
                    },
                    o: Account {
                        id: row.get(8)?,
                        name: row.get(9)?,
                    },
                    started: row.get(10)?,
                    moves: Vec::new(),
                    finish,
                    ratings,
                })
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        let mut moves = self
            .db
            .prepare_cached("SELECT square, clock_ms FROM moves WHERE game = ?1 ORDER BY ply")?;
        for game in &mut games {
            game.moves = moves
                .query_map([game.id], |row| {
                    Ok(StoredMove {
                        square: row.get(0)?,
                        clock: row.get::<_, Option<i64>>(1)?.map(from_millis),
                    })
                })?
                .collect::<rusqlite::Result<Vec<_>>>()?;
        }
        Ok(games)
    }

    /// The best rated players of `kind`, best first, at most `limit`.
    pub(crate) fn leaderboard(
        &self,
        kind: Kind,
        limit: u32,
    ) -> rusqlite::Result<Vec<(String, Rating)>> {
        let mut statement = self.db.prepare_cached(
            "SELECT p.name, r.rating, r.deviation, r.volatility, r.games
             FROM ratings r JOIN players p ON p.id = r.player
             WHERE r.size = ?1 AND r.k = ?2 ORDER BY r.rating DESC, p.name LIMIT ?3",
        )?;
        statement
            .query_map(params![kind.size, kind.k, limit], |row| {
                Ok((row.get(0)?, rating_at(row, 1)?))
            })?
            .collect()
    }

    /// Every rating of `player`'s, by board kind.
    pub(crate) fn ratings_of(&self, player: i64) -> rusqlite::Result<Vec<(Kind, Rating)>> {
        let mut statement = self.db.prepare_cached(
            "SELECT size, k, rating, deviation, volatility, games FROM ratings
             WHERE player = ?1 ORDER BY size, k",
        )?;
        statement
            .query_map([player], |row| {
                Ok((
                    Kind {
                        size: row.get(0)?,
                        k: row.get(1)?,
                    },
                    rating_at(row, 2)?,
                ))
            })?
            .collect()
    }

    /// The board kinds with rated games, smallest first.
    pub(crate) fn rated_kinds(&self) -> rusqlite::Result<Vec<Kind>> {
        let mut statement = self
            .db
            .prepare_cached("SELECT DISTINCT size, k FROM ratings ORDER BY size, k")?;
        statement
            .query_map([], |row| {
                Ok(Kind {
                    size: row.get(0)?,
                    k: row.get(1)?,
                })
            })?
            .collect()
    }
}

fn rating_in(db: &Connection, player: i64, kind: Kind) -> rusqlite::Result<Rating> {
    let found = db
        .prepare_cached(
            "SELECT rating, deviation, volatility, games FROM ratings
             WHERE player = ?1 AND size = ?2 AND k = ?3",
        )?
        .query_row(params![player, kind.size, kind.k], |row| rating_at(row, 0))
        .optional()?;
    Ok(found.unwrap_or_default())
}

/// The new ratings of two players after a game between them: Glicko-2 as
/// the `skillratings` crate computes it, with its default settings.
pub(crate) fn rate(x: Rating, o: Rating, verdict: Outcome) -> (Rating, Rating) {
    let result = match verdict {
        Outcome::Win(Player::X) => Outcomes::WIN,
        Outcome::Win(Player::O) => Outcomes::LOSS,
        Outcome::Draw => Outcomes::DRAW,
    };
    let (new_x, new_o) = glicko2(&x.glicko, &o.glicko, &result, &Glicko2Config::new());
    (
        Rating {
            glicko: new_x,
            games: x.games + 1,
        },
        Rating {
            glicko: new_o,
            games: o.games + 1,
        },
    )
}

/// Writes a game's end and, when it was rated, both players' new ratings.
fn finish_in(tx: &Transaction, game: i64, finish: Finish) -> rusqlite::Result<NewRatings> {
    let (size, k, rated, x, o): (u8, u8, bool, i64, i64) = tx.query_row(
        "SELECT size, k, rated, x, o FROM games WHERE id = ?1",
        [game],
        |row| {
            Ok((
                row.get(0)?,
                row.get(1)?,
                row.get(2)?,
                row.get(3)?,
                row.get(4)?,
            ))
        },
    )?;
    tx.execute(
        "UPDATE games SET ended = ?2, result = ?3, ending = ?4 WHERE id = ?1",
        params![game, now(), finish.result_word(), finish.termination.word()],
    )?;
    if !rated {
        return Ok(NewRatings::default());
    }
    if let Some(quick) = quick_wins(tx, game, finish)?
        && quick > QUICK_WINS_RATED
    {
        let flagged = Flag::QuickWins(quick);
        tx.execute(
            "UPDATE games SET flag = ?2 WHERE id = ?1",
            params![game, flagged.word()],
        )?;
        return Ok(NewRatings {
            ratings: None,
            flagged: Some(flagged),
        });
    }
    let kind = Kind { size, k };
    let (before_x, before_o) = (rating_in(tx, x, kind)?, rating_in(tx, o, kind)?);
    let Some(verdict) = finish.verdict else {
        return Ok(NewRatings::default());
    };
    let (after_x, after_o) = rate(before_x, before_o, verdict);
    for (player, rating) in [(x, after_x), (o, after_o)] {
        tx.execute(
            "INSERT INTO ratings (player, size, k, rating, deviation, volatility, games)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
             ON CONFLICT (player, size, k) DO UPDATE SET rating = ?4, deviation = ?5,
                 volatility = ?6, games = ?7",
            params![
                player,
                size,
                k,
                rating.glicko.rating,
                rating.glicko.deviation,
                rating.glicko.volatility,
                rating.games
            ],
        )?;
    }
    tx.execute(
        "UPDATE games SET x_rating_before = ?2, x_rating_after = ?3,
             o_rating_before = ?4, o_rating_after = ?5 WHERE id = ?1",
        params![
            game,
            before_x.glicko.rating,
            after_x.glicko.rating,
            before_o.glicko.rating,
            after_o.glicko.rating
        ],
    )?;
    Ok(NewRatings {
        ratings: Some((after_x, after_o)),
        flagged: None,
    })
}

/// When `finish` is a quick win (by resignation, forfeit, time or a claim,
/// in fewer than [`QUICK_PLIES`] moves), the winner's quick wins over the
/// same opponent on the same board within 24 hours, this one included.
fn quick_wins(tx: &Transaction, game: i64, finish: Finish) -> rusqlite::Result<Option<i64>> {
    let quick_end = matches!(
        finish.termination,
        Termination::Resigned | Termination::Forfeit | Termination::Time | Termination::Claimed
    );
    let plies: i64 = tx.query_row(
        "SELECT count(*) FROM moves WHERE game = ?1",
        [game],
        |row| row.get(0),
    )?;
    if !quick_end || plies >= QUICK_PLIES || !matches!(finish.verdict, Some(Outcome::Win(_))) {
        return Ok(None);
    }
    tx.query_row(
        "SELECT count(*) FROM games g, games this
         WHERE this.id = ?1 AND g.rated AND g.size = this.size AND g.k = this.k
           AND (g.id = ?1 OR g.ended >= ?2)
           AND ((g.x = this.x AND g.o = this.o AND g.result = this.result)
             OR (g.x = this.o AND g.o = this.x AND g.result != this.result
                 AND g.result IN ('x-wins', 'o-wins')))
           AND g.ending IN ('resigned', 'forfeit', 'time', 'claimed')
           AND (SELECT count(*) FROM moves m WHERE m.game = g.id) < ?3",
        params![game, a_day_ago(), QUICK_PLIES],
        |row| row.get(0),
    )
    .map(Some)
}

/// A rating read from a row's columns rating, deviation, volatility and
/// games, in that order from column `first`.
fn rating_at(row: &rusqlite::Row<'_>, first: usize) -> rusqlite::Result<Rating> {
    Ok(Rating {
        glicko: Glicko2Rating {
            rating: row.get(first)?,
            deviation: row.get(first + 1)?,
            volatility: row.get(first + 2)?,
        },
        games: row.get(first + 3)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store(dir: &tempfile::TempDir) -> Database {
        Database::open(&dir.path().join("games.db")).expect("a new database")
    }

    #[test]
    fn names_belong_to_the_first_key_that_took_them() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = store(&dir);
        let alice = store.sign_in("SHA256:a", "alice").unwrap().unwrap();
        assert_eq!(
            store.sign_in("SHA256:b", "alice").unwrap(),
            Err("alice".to_string())
        );
        // The key keeps its first name whatever it asks for later.
        assert_eq!(store.sign_in("SHA256:a", "bob").unwrap(), Ok(alice.clone()));
        assert_eq!(store.holder("alice").unwrap().as_deref(), Some("alice"));
        assert_eq!(store.holder("bob").unwrap(), None);
        // A look-alike is the name it looks like.
        assert_eq!(
            store.sign_in("SHA256:c", "aIice").unwrap(),
            Err("alice".to_string())
        );
        assert_eq!(
            store.holder("ａｌｉｃｅ").unwrap().as_deref(),
            Some("alice")
        );
    }

    #[test]
    fn a_rated_result_and_its_last_move_are_one_write_and_rate_both_players() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = store(&dir);
        let alice = store.sign_in("SHA256:a", "alice").unwrap().unwrap();
        let bob = store.sign_in("SHA256:b", "bob").unwrap().unwrap();
        let kind = Kind { size: 4, k: 3 };
        let game = store.last_game().unwrap() + 1;
        store
            .start_game(
                game,
                NewGame {
                    kind,
                    rated: true,
                    control: None,
                    x: alice.id,
                    o: bob.id,
                },
            )
            .unwrap();
        assert_eq!(store.last_game().unwrap(), game);
        let mv = |square: &str| StoredMove {
            square: square.to_string(),
            clock: None,
        };
        store.play(game, 0, &mv("a1"), None).unwrap();
        assert_eq!(store.unfinished().unwrap().len(), 1);
        let finish = Finish {
            verdict: Some(Outcome::Win(Player::X)),
            termination: Termination::Board,
        };
        let (x, o) = store
            .play(game, 1, &mv("b1"), Some(finish))
            .unwrap()
            .ratings
            .expect("rated");
        let expected = rate(
            Rating::default(),
            Rating::default(),
            Outcome::Win(Player::X),
        );
        assert_eq!((x, o), expected);
        assert_eq!(store.rating(alice.id, kind).unwrap(), x);
        assert!(x.provisional() && x.glicko.rating > 1500.0);
        assert!(store.unfinished().unwrap().is_empty());
        let history = store.history(bob.id, 10).unwrap();
        assert_eq!(history[0].moves, vec![mv("a1"), mv("b1")]);
        assert_eq!(history[0].finish, Some(finish));
        let board = store.leaderboard(kind, 10).unwrap();
        assert_eq!(board[0].0, "alice");
        assert_eq!(store.rated_kinds().unwrap(), vec![kind]);
    }

    #[test]
    fn quick_wins_over_one_opponent_count_twice_a_day_and_rated_games_twenty() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = store(&dir);
        let alice = store.sign_in("SHA256:a", "alice").unwrap().unwrap();
        let bob = store.sign_in("SHA256:b", "bob").unwrap().unwrap();
        let kind = Kind { size: 4, k: 3 };
        let resigned = |winner| Finish {
            verdict: Some(Outcome::Win(winner)),
            termination: Termination::Resigned,
        };
        // Four moves, then a resignation, with the sides swapping: alice
        // wins each, as X or as O.
        let mut flags = Vec::new();
        for n in 0..RATED_PER_PAIR {
            let (x, o, winner) = if n % 2 == 0 {
                (alice.id, bob.id, Player::X)
            } else {
                (bob.id, alice.id, Player::O)
            };
            let game = store.last_game().unwrap() + 1;
            let new = NewGame {
                kind,
                rated: true,
                control: None,
                x,
                o,
            };
            assert_eq!(store.start_game(game, new).unwrap(), None);
            for (ply, at) in ["a1", "a2", "b1", "b2"].into_iter().enumerate() {
                let mv = StoredMove {
                    square: at.to_string(),
                    clock: None,
                };
                store.play(game, ply, &mv, None).unwrap();
            }
            let rated = store.finish(game, resigned(winner)).unwrap();
            flags.push((rated.ratings.is_some(), rated.flagged));
        }
        assert_eq!(flags[..2], [(true, None), (true, None)]);
        assert_eq!(flags[2], (false, Some(Flag::QuickWins(3))));
        assert!(
            flags[3..]
                .iter()
                .all(|(rated, flag)| !rated && flag.is_some())
        );
        assert_eq!(store.rating(alice.id, kind).unwrap().games, 2);
        // The pair has had its rated games for the day: the next is casual.
        let game = store.last_game().unwrap() + 1;
        let new = NewGame {
            kind,
            rated: true,
            control: None,
            x: alice.id,
            o: bob.id,
        };
        assert_eq!(store.start_game(game, new).unwrap(), Some(Flag::PairCap));
        assert!(!store.unfinished().unwrap()[0].rated);
    }

    #[test]
    fn foreign_and_newer_files_are_refused_and_left_as_they_were() {
        let dir = tempfile::tempdir().unwrap();
        let text = dir.path().join("notes.txt");
        std::fs::write(&text, "not a database at all, but long enough to look at").unwrap();
        let other = dir.path().join("other.db");
        Connection::open(&other)
            .unwrap()
            .execute_batch("CREATE TABLE t (x); INSERT INTO t VALUES (1);")
            .unwrap();
        let newer = dir.path().join("newer.db");
        drop(store(&dir));
        std::fs::copy(dir.path().join("games.db"), &newer).unwrap();
        Connection::open(&newer)
            .unwrap()
            .execute_batch(&format!("PRAGMA user_version = {};", SCHEMA + 1))
            .unwrap();
        for (path, expected) in [
            (&text, "not a tictactoe database (not an SQLite file)"),
            (
                &other,
                "not a tictactoe database (an SQLite database of another program)",
            ),
            (
                &newer,
                "made by a newer tictactoe (schema 3; this one reads up to 2)",
            ),
        ] {
            let before = std::fs::read(path).unwrap();
            let refused = Database::open(path).err().expect("refused");
            assert_eq!(refused.to_string(), expected);
            assert!(refused.is_bad_input());
            assert_eq!(std::fs::read(path).unwrap(), before, "{}", path.display());
        }
    }
}

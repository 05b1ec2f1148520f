//! The bytes of a statistics file: what this program writes, and what it
//! takes for one of its own when it reads. No file is touched here.
//!
//! A file is ours when it begins with the marker, `{"format":
//! "tictactoe-stats"` (every file written since version 2), or when it is,
//! whole and exactly, a file of the first format: an object of `"version": 1`
//! and `"rows"` and nothing else, every row with its five keys and nothing
//! else. Anything else is not ours, whatever else it holds.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::counts::{Row, Stats};
use tictactoe_engine::{Board, Level, Player};

/// The marker that opens every statistics file this program writes.
pub(super) const FORMAT: &str = "tictactoe-stats";

/// The version this program writes. Version 1 (no marker, no board shapes,
/// every row 3x3) is still read.
pub(super) const VERSION: u64 = 2;

/// The keys of a file, and of a row, this program knows.
const FILE_KEYS: [&str; 3] = ["format", "version", "rows"];
const ROW_KEYS: [&str; 7] = ["side", "opponent", "size", "k", "wins", "losses", "draws"];
/// The only keys of the first format, and of its rows (no board shape).
const FIRST_FILE_KEYS: [&str; 2] = ["version", "rows"];
const FIRST_ROW_KEYS: [&str; 5] = ["side", "opponent", "wins", "losses", "draws"];

/// What the bytes of a file are, as statistics.
#[derive(Debug)]
pub(super) enum Contents {
    /// A file of ours, read. `unknown` names a key this program does not know
    /// (a rewrite would lose it), such as `"note"` or `rows[2].colour`.
    Counts {
        stats: Stats,
        unknown: Option<String>,
    },
    /// Ours (it has the marker) but not readable as counts: what is wrong.
    Damaged(String),
    /// Ours, written by a newer version of this program.
    Newer(u64),
    /// Not ours: why not.
    Foreign(String),
}

/// Reads the bytes of a file.
pub(super) fn read(bytes: &[u8]) -> Contents {
    if begins_with_marker(bytes) {
        read_marked(bytes)
    } else {
        read_first_format(bytes)
    }
}

/// The file this program writes for `stats`: the marker first, then the
/// version and the rows, as pretty JSON ending with a new line.
pub(super) fn write(stats: &Stats) -> Vec<u8> {
    #[derive(Serialize)]
    struct Saved {
        format: &'static str,
        version: u64,
        rows: Vec<SavedRow>,
    }
    #[derive(Serialize)]
    struct SavedRow {
        #[serde(with = "side_name")]
        side: Player,
        #[serde(with = "level_name")]
        opponent: Level,
        size: u8,
        k: u8,
        wins: u64,
        losses: u64,
        draws: u64,
    }
    let rows = stats.rows().into_iter().map(|row| SavedRow {
        side: row.side,
        opponent: row.opponent,
        size: row.size,
        k: row.k,
        wins: row.wins,
        losses: row.losses,
        draws: row.draws,
    });
    let saved = Saved {
        format: FORMAT,
        version: VERSION,
        rows: rows.collect(),
    };
    let mut bytes =
        serde_json::to_vec_pretty(&saved).expect("rows of numbers and names are always JSON");
    bytes.push(b'\n');
    bytes
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

/// A file with the marker: any version up to ours, a key unknown to this
/// program noted rather than refused.
fn read_marked(bytes: &[u8]) -> Contents {
    let object = match serde_json::from_slice::<Value>(bytes) {
        Ok(Value::Object(object)) => object,
        Ok(_) => return Contents::Damaged("it is not a JSON object".into()),
        Err(error) => return Contents::Damaged(error.to_string()),
    };
    let version = match object.get("version") {
        Some(Value::Number(n)) if n.as_u64().is_some() => n.as_u64().unwrap_or_default(),
        Some(_) => return Contents::Damaged("its version is not a whole number".into()),
        None => return Contents::Damaged("it has no version".into()),
    };
    if version > VERSION {
        return Contents::Newer(version);
    }
    if version == 0 {
        return Contents::Damaged("it has version 0".into());
    }
    let unknown = unknown_key(&object, &FILE_KEYS, &ROW_KEYS);
    match counts(&object, version == 1) {
        Ok(stats) => Contents::Counts { stats, unknown },
        Err(problem) => Contents::Damaged(problem),
    }
}

/// A file without the marker: ours only if it is exactly a file of the
/// first format.
fn read_first_format(bytes: &[u8]) -> Contents {
    let no_marker = format!("no \"format\": \"{FORMAT}\" marker");
    let Ok(Value::Object(object)) = serde_json::from_slice::<Value>(bytes) else {
        return Contents::Foreign(no_marker);
    };
    if !object.contains_key("version") {
        return Contents::Foreign(no_marker);
    }
    let not_first = |why: String| {
        Contents::Foreign(format!(
            "{no_marker}, and not a file of the first format: {why}"
        ))
    };
    if object.get("version") != Some(&Value::from(1)) {
        return not_first("its version is not 1".into());
    }
    if let Some(key) = unknown_key(&object, &FIRST_FILE_KEYS, &FIRST_ROW_KEYS) {
        return not_first(format!("it has the key {key}"));
    }
    match counts(&object, true) {
        Ok(stats) => Contents::Counts {
            stats,
            unknown: None,
        },
        Err(problem) => not_first(problem),
    }
}

/// The counts of a file's `"rows"`. Rows of version 1 have no shape: they
/// are 3x3.
fn counts(object: &Map<String, Value>, first_version: bool) -> Result<Stats, String> {
    let rows = object.get("rows").ok_or("it has no rows")?;
    let rows: Vec<LoadedRow> =
        serde_json::from_value(rows.clone()).map_err(|error| error.to_string())?;
    let mut stats = Stats::default();
    for row in rows {
        let (size, k) = match (first_version, row.size, row.k) {
            (true, None, None) => (3, 3),
            (_, Some(size), Some(k)) => (size, k),
            _ => return Err("a row has no board size or k".into()),
        };
        if Board::empty(size, k).is_err() {
            return Err(format!(
                "a row has a board {size}x{size} with {k} in a row, which this program does not play"
            ));
        }
        stats.add_row(Row {
            side: row.side,
            opponent: row.opponent,
            size,
            k,
            wins: row.wins,
            losses: row.losses,
            draws: row.draws,
        });
    }
    Ok(stats)
}

/// The first key of the file, or of one of its rows, that is not among the
/// known ones, written as `"key"` or `rows[2]."key"`.
fn unknown_key(
    object: &Map<String, Value>,
    file_keys: &[&str],
    row_keys: &[&str],
) -> Option<String> {
    let unknown_in = |map: &Map<String, Value>, known: &[&str]| {
        map.keys()
            .find(|key| !known.contains(&key.as_str()))
            .map(|key| format!("{key:?}"))
    };
    if let Some(key) = unknown_in(object, file_keys) {
        return Some(key);
    }
    let rows = object.get("rows")?.as_array()?;
    rows.iter().enumerate().find_map(|(at, row)| {
        let key = unknown_in(row.as_object()?, row_keys)?;
        Some(format!("rows[{at}].{key}"))
    })
}

/// True when the bytes begin as the files this program writes: an object
/// whose first key is `"format"` with our marker.
fn begins_with_marker(bytes: &[u8]) -> bool {
    fn skip_space(bytes: &[u8]) -> &[u8] {
        let start = bytes
            .iter()
            .position(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
            .unwrap_or(bytes.len());
        &bytes[start..]
    }
    let Some(rest) = skip_space(bytes).strip_prefix(b"{") else {
        return false;
    };
    let Some(rest) = skip_space(rest).strip_prefix(b"\"format\"") else {
        return false;
    };
    let Some(rest) = skip_space(rest).strip_prefix(b":") else {
        return false;
    };
    skip_space(rest).starts_with(format!("\"{FORMAT}\"").as_bytes())
}

/// A side as the file names it: `"x"` or `"o"`.
mod side_name {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    use tictactoe_engine::Player;

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

/// A level as the file names it: `"perfect"`, ...
mod level_name {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    use tictactoe_engine::Level;

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
    fn only_files_with_the_marker_begin_as_ours() {
        for ours in [
            &b"{\"format\":\"tictactoe-stats\",\"version\":2,\"rows\":[]}"[..],
            b"  \n{\n  \"format\" : \"tictactoe-stats\",",
        ] {
            assert!(
                begins_with_marker(ours),
                "{}",
                String::from_utf8_lossy(ours)
            );
        }
        for other in [
            &b""[..],
            b"   ",
            b"127.0.0.1 localhost\n",
            b"[1, 2]",
            b"{}",
            b"{\n  \"version\": 1,\n  \"rows\": [",
            b"{\"format\": \"something-else\", \"version\": 2}",
            b"{\"formats\": \"tictactoe-stats\"}",
            b"{\"format\"",
            b"\xff\xfe{\"format\":\"tictactoe-stats\"",
        ] {
            assert!(
                !begins_with_marker(other),
                "{}",
                String::from_utf8_lossy(other)
            );
        }
    }

    #[test]
    fn without_the_marker_only_a_whole_first_format_file_is_ours() {
        let first = br#"{"version": 1, "rows": [{"side": "x", "opponent": "easy", "wins": 1, "losses": 2, "draws": 3}]}"#;
        let Contents::Counts { stats, unknown } = read(first) else {
            panic!("a file of the first format is ours")
        };
        assert_eq!((stats.games(), unknown), (6, None));
        for (foreign, why) in [
            (&br#"{"version": 1, "rows": [], "important": "keep me"}"#[..], "\"important\""),
            (br#"{"version": 2, "builds": []}"#, "version is not 1"),
            (br#"{"version": 1, "rows": ["#, "marker"),
            (
                br#"{"version": 1, "rows": [{"side": "x", "opponent": "easy", "wins": 1, "losses": 0, "draws": 0, "colour": "red"}]}"#,
                "rows[0].\"colour\"",
            ),
            (
                br#"{"version": 1, "rows": [{"side": "x", "opponent": "godlike", "wins": 1, "losses": 0, "draws": 0}]}"#,
                "unknown level",
            ),
            (br#"{"version": 99, "rows": []}"#, "version is not 1"),
            (br#"{"name": "a-package", "version": "1.0.0"}"#, "version is not 1"),
        ] {
            match read(foreign) {
                Contents::Foreign(reason) => assert!(reason.contains(why), "{reason}"),
                other => panic!("{}: {other:?}", String::from_utf8_lossy(foreign)),
            }
        }
    }

    #[test]
    fn an_unknown_key_in_a_marked_file_is_named() {
        let file = br#"{"format": "tictactoe-stats", "version": 2, "rows": [{"side": "o", "opponent": "hard", "size": 4, "k": 4, "wins": 0, "losses": 1, "draws": 0, "colour": "red"}], "note": "mine"}"#;
        let Contents::Counts { stats, unknown } = read(file) else {
            panic!("ours")
        };
        assert_eq!(stats.games(), 1);
        assert_eq!(unknown.as_deref(), Some("\"note\""));
        let only_in_a_row = br#"{"format": "tictactoe-stats", "version": 2, "rows": [{"side": "o", "opponent": "hard", "size": 4, "k": 4, "wins": 0, "losses": 1, "draws": 0, "colour": "red"}]}"#;
        let Contents::Counts { unknown, .. } = read(only_in_a_row) else {
            panic!("ours")
        };
        assert_eq!(unknown.as_deref(), Some("rows[0].\"colour\""));
    }

    #[test]
    fn what_is_written_reads_back() {
        let mut stats = Stats::default();
        stats.add(super::super::GameRecord {
            side: Player::O,
            opponent: Level::Medium,
            standing: tictactoe_engine::Standing::Draw,
            size: 5,
            k: 4,
        });
        let bytes = write(&stats);
        assert!(begins_with_marker(&bytes));
        let Contents::Counts {
            stats: read_back,
            unknown,
        } = read(&bytes)
        else {
            panic!("ours")
        };
        assert_eq!((read_back, unknown), (stats, None));
    }
}

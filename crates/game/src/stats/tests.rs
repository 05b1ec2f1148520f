//! The statistics file as the game's model keeps it: counts by board,
//! side and level, damaged and foreign files, concurrent writers, the
//! session's counter. (How a file is read and written safely is the files
//! module's to test; what the commands say is tests/commands/stats.rs's.)

use std::fs::{self, File};
use std::path::Path;
use std::thread;
use std::time::{Duration, SystemTime};

use serde_json::Value;
use tictactoe_engine::{Board, Level, Player, Standing, Status};

use super::{Counter, GameRecord, Note, StatsError, StatsFile};
use crate::game::{Seat, Seats};

fn record(size: u8, k: u8, side: Player, opponent: Level, standing: Standing) -> GameRecord {
    GameRecord {
        side,
        opponent,
        standing,
        size,
        k,
    }
}

fn loss_as_x() -> GameRecord {
    record(3, 3, Player::X, Level::Perfect, Standing::Loss)
}

fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Every name in a folder with its bytes (or where its link points): equal
/// snapshots mean nothing was created, moved, renamed or written.
fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    names_in(dir)
        .into_iter()
        .map(|name| {
            let path = dir.join(&name);
            let meta = fs::symlink_metadata(&path).unwrap();
            let contents = if meta.file_type().is_symlink() {
                fs::read_link(&path)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned()
                    .into_bytes()
            } else if meta.is_file() {
                fs::read(&path).unwrap()
            } else if meta.is_dir() {
                b"(folder)".to_vec()
            } else {
                b"(neither file nor folder)".to_vec()
            };
            (name, contents)
        })
        .collect()
}

fn games_in(path: &Path) -> u64 {
    StatsFile::at(path).read().unwrap().games()
}

/// Holds the lock of the statistics file at `path`, as another program would.
fn hold_lock(path: &Path) -> File {
    let lock = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path.with_file_name("stats.json.lock"))
        .unwrap();
    lock.lock().unwrap();
    lock
}

#[test]
fn records_are_counted_by_side_level_and_result() {
    let dir = tempfile::tempdir().unwrap();
    let file = StatsFile::at(dir.path().join("deep/er/stats.json"));
    assert_eq!(file.read().unwrap().games(), 0, "no file yet is no games");
    assert!(!dir.path().join("deep").exists(), "reading creates nothing");
    file.record(loss_as_x()).unwrap();
    file.record(loss_as_x()).unwrap();
    file.record(record(3, 3, Player::O, Level::Easy, Standing::Win))
        .unwrap();
    file.record(record(3, 3, Player::X, Level::Easy, Standing::Draw))
        .unwrap();
    let stats = file.read().unwrap();
    assert_eq!(stats.games(), 4);
    assert_eq!(stats.totals(), (1, 2, 1));
    let rows: Vec<_> = stats
        .rows()
        .iter()
        .map(|r| (r.side, r.opponent, r.wins, r.losses, r.draws))
        .collect();
    assert_eq!(
        rows,
        vec![
            (Player::X, Level::Easy, 0, 0, 1),
            (Player::X, Level::Perfect, 0, 2, 0),
            (Player::O, Level::Easy, 1, 0, 0)
        ]
    );
    // Only the file and its lock: no temporary files left behind.
    assert_eq!(
        names_in(file.path().parent().unwrap()),
        vec!["stats.json", "stats.json.lock"]
    );
    file.reset().unwrap();
    assert_eq!(file.read().unwrap().games(), 0);
}

#[test]
fn the_file_carries_its_format_marker_and_every_rows_shape() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("stats.json");
    StatsFile::at(&path).record(loss_as_x()).unwrap();
    let saved: Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
    assert_eq!(saved["format"], "tictactoe-stats");
    assert_eq!(saved["version"], 2);
    assert_eq!(saved["rows"][0]["size"], 3);
    assert_eq!(saved["rows"][0]["k"], 3);
    let text = fs::read_to_string(&path).unwrap();
    assert!(
        text.trim_start()
            .starts_with("{\n  \"format\": \"tictactoe-stats\""),
        "the marker comes first: {text}"
    );
}

#[test]
fn only_games_of_one_person_against_the_ai_from_the_empty_board_are_records() {
    let empty = Board::new();
    let human_x = Seats {
        x: Seat::Human,
        o: Seat::Ai(Level::Hard),
    };
    assert_eq!(
        GameRecord::of(human_x, empty, Status::Won(Player::O)),
        Some(loss_as_x()).map(|r| GameRecord {
            opponent: Level::Hard,
            ..r
        })
    );
    let human_o = Seats {
        x: Seat::Ai(Level::Easy),
        o: Seat::Human,
    };
    assert_eq!(
        GameRecord::of(human_o, empty, Status::Won(Player::O)).map(|r| r.standing),
        Some(Standing::Win)
    );
    assert_eq!(
        GameRecord::of(human_o, empty, Status::Draw).map(|r| r.standing),
        Some(Standing::Draw)
    );
    assert_eq!(
        GameRecord::of(human_o, empty, Status::InProgress { to_move: Player::X }),
        None
    );
    let humans = Seats {
        x: Seat::Human,
        o: Seat::Human,
    };
    assert_eq!(GameRecord::of(humans, empty, Status::Draw), None);
    let ai = Seat::Ai(Level::Perfect);
    assert_eq!(
        GameRecord::of(Seats { x: ai, o: ai }, empty, Status::Draw),
        None
    );

    // The shape comes from the board the game started on.
    let four = Board::empty(4, 4).unwrap();
    let counted = GameRecord::of(human_x, four, Status::Draw).unwrap();
    assert_eq!((counted.size, counted.k), (4, 4));
    let five = Board::empty(5, 3).unwrap();
    let counted = GameRecord::of(human_x, five, Status::Draw).unwrap();
    assert_eq!((counted.size, counted.k), (5, 3));

    // A game started from a position is not a whole game against that level.
    let started: Board = "x../.../...".parse().unwrap();
    assert_eq!(
        GameRecord::of(human_x, started, Status::Won(Player::O)),
        None
    );
}

#[test]
fn unrecord_takes_one_counted_game_back_out() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("stats.json");
    let file = StatsFile::at(&path);
    let win = record(3, 3, Player::X, Level::Easy, Standing::Win);
    file.record(loss_as_x()).unwrap();
    file.record(loss_as_x()).unwrap();
    file.record(win).unwrap();
    file.unrecord(loss_as_x()).unwrap();
    assert_eq!(file.read().unwrap().totals(), (1, 1, 0));
    // Never counted: nothing to take out, and no row appears.
    file.unrecord(record(3, 3, Player::X, Level::Easy, Standing::Draw))
        .unwrap();
    file.unrecord(record(4, 4, Player::X, Level::Easy, Standing::Win))
        .unwrap();
    assert_eq!(file.read().unwrap().rows().len(), 2);
    assert_eq!(file.read().unwrap().totals(), (1, 1, 0));
    file.unrecord(win).unwrap();
    file.unrecord(loss_as_x()).unwrap();
    let stats = file.read().unwrap();
    assert_eq!(stats.games(), 0);
    assert!(stats.rows().is_empty(), "a row with no games is gone");
    // A count at zero stays at zero.
    file.unrecord(loss_as_x()).unwrap();
    assert_eq!(file.read().unwrap().games(), 0);
}

#[test]
fn concurrent_writers_lose_no_count() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("stats.json");
    let writers: Vec<_> = (0..8)
        .map(|_| {
            let path = path.clone();
            thread::spawn(move || {
                // Each thread its own handle, as separate processes would have.
                // This is about lost counts, not the bounded wait: wait long.
                let file = StatsFile::at(&path).with_lock_patience(Duration::from_secs(600));
                for _ in 0..25 {
                    file.record(loss_as_x()).unwrap();
                }
            })
        })
        .collect();
    for writer in writers {
        writer.join().unwrap();
    }
    assert_eq!(games_in(&path), 200);
}

#[test]
fn a_damaged_file_is_kept_aside_by_a_writer_and_counting_starts_afresh() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("stats.json");
    let garbage =
        b"{\"format\":\"tictactoe-stats\",\"version\":2,\"rows\":[{\"side\":\"x\"\xff truncated";
    fs::write(&path, garbage).unwrap();
    let file = StatsFile::at(&path);
    let kept = file.record(loss_as_x()).unwrap().expect("moved aside");
    let warning = Note::KeptAside(kept).to_string();
    assert!(
        warning.starts_with("warning: the statistics file") && warning.contains("damaged"),
        "{warning}"
    );
    assert!(!warning.contains('\n'));
    let names = names_in(dir.path());
    let aside: Vec<_> = names
        .iter()
        .filter(|n| n.starts_with("stats.json.corrupt-"))
        .collect();
    assert_eq!(aside.len(), 1, "{names:?}");
    assert!(
        warning.contains(aside[0].as_str()),
        "the warning names the kept file"
    );
    assert_eq!(
        fs::read(dir.path().join(aside[0])).unwrap(),
        garbage,
        "kept byte for byte"
    );
    assert_eq!(games_in(&path), 1, "counting starts afresh");

    // A second damage in the same second gets a name of its own.
    fs::write(
        &path,
        "{\"format\":\"tictactoe-stats\",\"version\":2,\"rows\":[",
    )
    .unwrap();
    file.record(loss_as_x()).unwrap();
    assert_eq!(
        names_in(dir.path())
            .iter()
            .filter(|n| n.starts_with("stats.json.corrupt-"))
            .count(),
        2
    );
}

#[test]
fn damaged_fields_are_damage_not_foreign() {
    let marker = r#"{"format":"tictactoe-stats","version":2,"rows":"#;
    for (rows, problem) in [
        (
            r#"[{"side":"x","opponent":"perfect","wins":1,"losses":0,"draws":0}]"#,
            "no board size",
        ),
        (
            r#"[{"side":"x","opponent":"perfect","size":9,"k":3,"wins":1,"losses":0,"draws":0}]"#,
            "9x9",
        ),
        (
            r#"[{"side":"x","opponent":"perfect","size":4,"k":5,"wins":1,"losses":0,"draws":0}]"#,
            "4x4",
        ),
        (
            r#"[{"side":"x","opponent":"godlike","size":3,"k":3,"wins":1,"losses":0,"draws":0}]"#,
            "unknown level",
        ),
        (
            r#"[{"side":"z","opponent":"easy","size":3,"k":3,"wins":1,"losses":0,"draws":0}]"#,
            "unknown side",
        ),
        (
            r#"[{"side":"x","opponent":"easy","size":3,"k":3,"wins":-1,"losses":0,"draws":0}]"#,
            "invalid value",
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("stats.json");
        let contents = format!("{marker}{rows}}}");
        fs::write(&path, &contents).unwrap();
        let error = StatsFile::at(&path).read().unwrap_err();
        assert!(matches!(error, StatsError::Damaged { .. }), "{error}");
        assert!(error.to_string().contains(problem), "{error}");
        let kept = StatsFile::at(&path)
            .record(loss_as_x())
            .unwrap()
            .expect(&contents);
        assert_eq!(
            fs::read_to_string(&kept.kept_as).unwrap(),
            contents,
            "kept aside byte for byte"
        );
        assert_eq!(games_in(&path), 1);
    }
}

/// A write cleans the temporary file a killed writer left, and not one a
/// writer may be at work on (which temporaries are ours, and how old is
/// stale, the files module's tests say).
#[test]
fn a_write_cleans_a_killed_writers_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("stats.json");
    let make = |name: &str, modified: SystemTime| {
        let file = File::create(dir.path().join(name)).unwrap();
        file.set_modified(modified).unwrap();
    };
    make(
        "stats.json.tmp-Ab12Cd",
        SystemTime::now() - Duration::from_secs(600),
    );
    make("stats.json.tmp-Zz99Yy", SystemTime::now());
    StatsFile::at(&path).record(loss_as_x()).unwrap();
    assert_eq!(
        names_in(dir.path()),
        ["stats.json", "stats.json.lock", "stats.json.tmp-Zz99Yy"]
    );
}

#[test]
fn the_counter_warns_once_when_the_file_cannot_be_used() {
    let dir = tempfile::tempdir().unwrap();
    let hosts = dir.path().join("hosts");
    fs::write(&hosts, "127.0.0.1 localhost\n").unwrap();
    let before = snapshot(dir.path());
    let mut counter = Counter::new(Some(StatsFile::at(&hosts)));
    let note = counter.record(loss_as_x()).expect("a note");
    assert!(
        matches!(note, Note::Stopped(StatsError::Foreign { .. })),
        "{note:?}"
    );
    let line = note.to_string();
    assert!(
        line.starts_with("error: ")
            && line.contains(hosts.to_str().unwrap())
            && line.contains("not a tictactoe statistics file")
            && line.ends_with("no game is counted for the rest of this session")
            && !line.contains('\n'),
        "{line}"
    );
    assert!(!note.is_warning());
    assert!(note.headline().starts_with("error:"));
    assert!(counter.record(loss_as_x()).is_none(), "said once");
    assert!(counter.unrecord(loss_as_x()).is_none());
    assert!(counter.record(loss_as_x()).is_none());
    assert_eq!(snapshot(dir.path()), before);

    // Counting off: nothing to say.
    let mut off = Counter::new(None);
    assert!(off.record(loss_as_x()).is_none());

    // A damaged file: a warning, and the game is counted.
    let path = dir.path().join("stats.json");
    fs::write(&path, "{\"format\":\"tictactoe-stats\",\"rows\":[").unwrap();
    let mut counter = Counter::new(Some(StatsFile::at(&path)));
    let note = counter.record(loss_as_x()).expect("a note");
    assert!(matches!(note, Note::KeptAside(_)), "{note:?}");
    assert!(note.to_string().starts_with("warning: "), "{note}");
    assert!(note.is_warning());
    assert!(note.headline().starts_with("warning:"));
    assert_eq!(games_in(&path), 1);
}

#[test]
fn the_counter_reports_a_held_lock_each_time_and_takes_back_only_what_it_counted() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("stats.json");
    let file = StatsFile::at(&path).with_lock_patience(Duration::from_millis(20));
    file.record(loss_as_x()).unwrap(); // another session's game
    let mut counter = Counter::new(Some(file));
    let holder = hold_lock(&path);
    for _ in 0..2 {
        let note = counter.record(loss_as_x()).expect("a note");
        assert!(
            matches!(note, Note::NotCounted(StatsError::Locked { .. })),
            "{note:?}"
        );
        let line = note.to_string();
        assert!(
            line.starts_with("error: ")
                && line.contains("locked by another program")
                && line.contains("not counted"),
            "{line}"
        );
    }
    drop(holder);
    assert!(
        counter.unrecord(loss_as_x()).is_none(),
        "never counted: nothing to take back"
    );
    assert_eq!(games_in(&path), 1, "the other session's game stays");

    assert!(counter.record(loss_as_x()).is_none(), "counting goes on");
    assert_eq!(games_in(&path), 2);
    // Taking back fails while the lock is held: the game stays counted...
    let holder = hold_lock(&path);
    let note = counter.unrecord(loss_as_x()).expect("a note");
    assert!(matches!(note, Note::StillCounted(_)), "{note:?}");
    assert!(note.to_string().contains("still counted"), "{note}");
    drop(holder);
    assert_eq!(games_in(&path), 2);
    // ...so the same result again (redo) is not counted twice,
    assert!(counter.record(loss_as_x()).is_none());
    assert_eq!(games_in(&path), 2);
    // and can still be taken back.
    assert!(counter.unrecord(loss_as_x()).is_none());
    assert_eq!(games_in(&path), 1);
}

#[test]
fn absurd_counts_do_not_overflow() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("stats.json");
    let huge = u64::MAX;
    fs::write(
        &path,
        format!(r#"{{"version":1,"rows":[{{"side":"x","opponent":"perfect","wins":{huge},"losses":1,"draws":{huge}}},{{"side":"o","opponent":"easy","wins":{huge},"losses":0,"draws":0}}]}}"#),
    )
    .unwrap();
    let file = StatsFile::at(&path);
    file.record(record(3, 3, Player::X, Level::Perfect, Standing::Win))
        .unwrap();
    let stats = file.read().unwrap();
    assert_eq!(stats.games(), u64::MAX, "totals stop at the largest count");
    assert_eq!(stats.totals().0, u64::MAX);
}

#[cfg(unix)]
#[test]
fn rewriting_keeps_the_files_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("stats.json");
    let file = StatsFile::at(&path);
    file.record(loss_as_x()).unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o644)).unwrap();
    file.record(loss_as_x()).unwrap();
    assert_eq!(
        fs::metadata(&path).unwrap().permissions().mode() & 0o777,
        0o644
    );
}

#[test]
fn an_impossible_location_is_an_error_not_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let blocker = dir.path().join("file");
    fs::write(&blocker, "a file, not a folder").unwrap();
    let error = StatsFile::at(blocker.join("stats.json"))
        .record(loss_as_x())
        .unwrap_err();
    assert!(error.is_permanent());
    let error = error.to_string();
    assert!(
        error.contains("stats.json") && !error.contains('\n'),
        "{error}"
    );
}

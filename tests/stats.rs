//! Saved statistics: never a lost count, never a half-written file, never a crash.

use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;

use serde_json::Value;
use tictactoe::engine::{Board, Level, Player, Status};
use tictactoe::game::{Seat, Seats};
use tictactoe::stats::{GameRecord, Outcome, StatsFile};

fn loss_as_x() -> GameRecord {
    GameRecord {
        side: Player::X,
        opponent: Level::Perfect,
        outcome: Outcome::Loss,
    }
}

fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn records_are_counted_by_side_level_and_result() {
    let dir = tempfile::tempdir().unwrap();
    let file = StatsFile::at(dir.path().join("deep/er/stats.json"));
    assert_eq!(file.read().unwrap().0.games(), 0, "no file yet is no games");
    assert!(!file.path().exists(), "reading does not create the file");
    file.record(loss_as_x()).unwrap();
    file.record(loss_as_x()).unwrap();
    file.record(GameRecord {
        side: Player::O,
        opponent: Level::Easy,
        outcome: Outcome::Win,
    })
    .unwrap();
    file.record(GameRecord {
        side: Player::X,
        opponent: Level::Easy,
        outcome: Outcome::Draw,
    })
    .unwrap();
    let (stats, warnings) = file.read().unwrap();
    assert!(warnings.is_empty());
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
    assert_eq!(file.read().unwrap().0.games(), 0);
}

#[test]
fn only_games_of_one_person_against_the_ai_are_records() {
    let human_x = Seats {
        x: Seat::Human,
        o: Seat::Ai(Level::Hard),
    };
    assert_eq!(
        GameRecord::of(human_x, Board::new(), Status::Won(Player::O)),
        Some(GameRecord {
            side: Player::X,
            opponent: Level::Hard,
            outcome: Outcome::Loss
        })
    );
    let human_o = Seats {
        x: Seat::Ai(Level::Easy),
        o: Seat::Human,
    };
    assert_eq!(
        GameRecord::of(human_o, Board::new(), Status::Won(Player::O)).map(|r| r.outcome),
        Some(Outcome::Win)
    );
    assert_eq!(
        GameRecord::of(human_o, Board::new(), Status::Draw).map(|r| r.outcome),
        Some(Outcome::Draw)
    );
    assert_eq!(
        GameRecord::of(
            human_o,
            Board::new(),
            Status::InProgress { to_move: Player::X }
        ),
        None
    );
    assert_eq!(
        GameRecord::of(
            Seats {
                x: Seat::Human,
                o: Seat::Human
            },
            Board::new(),
            Status::Draw
        ),
        None
    );
    let ai = Seat::Ai(Level::Perfect);
    assert_eq!(
        GameRecord::of(Seats { x: ai, o: ai }, Board::new(), Status::Draw),
        None
    );
}

#[test]
fn writes_are_atomic_a_reader_never_sees_half_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("stats.json");
    let file = StatsFile::at(&path);
    file.record(loss_as_x()).unwrap();
    let done = Arc::new(AtomicBool::new(false));
    let reader = {
        let (path, done) = (path.clone(), Arc::clone(&done));
        thread::spawn(move || {
            let mut reads = 0;
            while !done.load(Ordering::Relaxed) {
                // Read without the lock, as any other program might.
                let text = fs::read_to_string(&path).expect("the file is always there");
                let value: Value = serde_json::from_str(&text).expect("and always whole");
                assert!(value["rows"].is_array());
                reads += 1;
            }
            reads
        })
    };
    for _ in 0..200 {
        file.record(loss_as_x()).unwrap();
    }
    done.store(true, Ordering::Relaxed);
    assert!(reader.join().expect("the reader saw only whole files") > 0);
    assert_eq!(file.read().unwrap().0.games(), 201);
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
                for _ in 0..25 {
                    StatsFile::at(&path).record(loss_as_x()).unwrap();
                }
            })
        })
        .collect();
    for writer in writers {
        writer.join().unwrap();
    }
    assert_eq!(StatsFile::at(&path).read().unwrap().0.games(), 200);
}

#[test]
fn twenty_concurrent_games_against_one_file_are_all_counted() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("stats.json");
    let games: Vec<_> = (0..20)
        .map(|seed| {
            let mut child = Command::new(env!("CARGO_BIN_EXE_tictactoe"))
                .args(["--plain", "--seed", &seed.to_string(), "--stats-file"])
                .arg(&path)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("a game starts");
            // Try every square in turn: the game ends whatever the AI does.
            child
                .stdin
                .take()
                .unwrap()
                .write_all(b"1\n2\n3\n4\n5\n6\n7\n8\n9\nquit\n")
                .unwrap();
            child
        })
        .collect();
    for game in games {
        let out = game.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(!String::from_utf8_lossy(&out.stdout).contains("warning"));
    }
    let out = Command::new(env!("CARGO_BIN_EXE_tictactoe"))
        .args(["stats", "--json", "--stats-file"])
        .arg(&path)
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["games"], 20);
    assert_eq!(
        report["losses"].as_u64().unwrap() + report["draws"].as_u64().unwrap(),
        20,
        "nobody beats perfect"
    );
}

#[test]
fn a_corrupt_file_is_kept_aside_and_counting_starts_afresh() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("stats.json");
    let garbage = b"{\"version\":1,\"rows\":[{\"side\":\"x\"\xff truncated";
    fs::write(&path, garbage).unwrap();
    let file = StatsFile::at(&path);
    let warnings = file.record(loss_as_x()).unwrap();
    assert_eq!(warnings.len(), 1);
    let warning = warnings[0].to_string();
    assert!(
        warning.starts_with("warning: the statistics file") && warning.contains("corrupt"),
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
    assert_eq!(file.read().unwrap().0.games(), 1, "counting starts afresh");

    // A second corruption in the same second gets a name of its own.
    fs::write(&path, "not json").unwrap();
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
fn unreadable_and_unknown_files_are_kept_aside_too() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("stats.json");
    // Bytes that are not text cannot be read as the file.
    fs::write(&path, b"\xff\xfe\x00binary").unwrap();
    let warnings = StatsFile::at(&path).record(loss_as_x()).unwrap();
    assert!(
        warnings[0].to_string().contains("could not be read"),
        "{}",
        warnings[0]
    );
    assert_eq!(StatsFile::at(&path).read().unwrap().0.games(), 1);

    let other = dir.path().join("future.json");
    fs::write(&other, r#"{"version":99,"rows":[]}"#).unwrap();
    let warnings = StatsFile::at(&other).read().unwrap().1;
    assert!(
        warnings[0].to_string().contains("version 99"),
        "{}",
        warnings[0]
    );
}

#[test]
fn a_folder_at_the_path_is_an_error_and_is_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("stats.json");
    fs::create_dir(&path).unwrap();
    fs::write(path.join("inside"), "the user's").unwrap();
    let error = StatsFile::at(&path)
        .record(loss_as_x())
        .unwrap_err()
        .to_string();
    assert!(error.contains("not a regular file"), "{error}");
    assert_eq!(
        fs::read_to_string(path.join("inside")).unwrap(),
        "the user's"
    );
    assert_eq!(
        names_in(dir.path()),
        vec!["stats.json", "stats.json.lock"],
        "nothing renamed"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_tictactoe"))
        .args(["stats", "--stats-file"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1);
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
    file.record(GameRecord {
        side: Player::X,
        opponent: Level::Perfect,
        outcome: Outcome::Win,
    })
    .unwrap();
    let (stats, warnings) = file.read().unwrap();
    assert!(warnings.is_empty());
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
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("cannot create the folder of") && error.contains("stats.json"),
        "{error}"
    );
}

#[test]
fn the_default_location_follows_xdg_and_no_stats_writes_nothing() {
    let home = tempfile::tempdir().unwrap();
    let play = |extra: &[&str]| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tictactoe"))
            .arg("--plain")
            .args(extra)
            .env("XDG_DATA_HOME", home.path())
            .env("HOME", home.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(b"1\n2\n3\n4\n5\n6\n7\n8\n9\nquit\n")
            .unwrap();
        assert!(child.wait_with_output().unwrap().status.success());
    };
    play(&["--no-stats"]);
    assert!(
        !home.path().join("tictactoe").exists(),
        "--no-stats counts nothing"
    );
    play(&[]);
    let saved = home.path().join("tictactoe/stats.json");
    assert!(saved.exists(), "counted in $XDG_DATA_HOME/tictactoe");
    let out = Command::new(env!("CARGO_BIN_EXE_tictactoe"))
        .args(["stats", "--json"])
        .env("XDG_DATA_HOME", home.path())
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["games"], 1);
    let reset = Command::new(env!("CARGO_BIN_EXE_tictactoe"))
        .args(["stats", "--reset"])
        .env("XDG_DATA_HOME", home.path())
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&reset.stdout).starts_with("Statistics reset"));
}

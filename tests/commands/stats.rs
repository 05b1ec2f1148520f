//! Saved statistics through the commands that keep them (`stats`, a game):
//! never a lost count, never a crash, and nothing harmed that is not the
//! program's own, with each command's message and exit status. The file's
//! own rules are tested beside it (`tictactoe_game::stats`), and how files
//! are read and written safely in `tictactoe_game::files`.

use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

use crate::support;
use tictactoe_engine::{Level, Player, Standing};
use tictactoe_game::stats::{Counter, GameRecord, Row, StatsError, StatsFile};

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

use support::{binary as tictactoe, output_within};

fn stats_command(path: &Path, extra: &[&str]) -> Output {
    let child = tictactoe()
        .arg("stats")
        .args(extra)
        .arg("--stats-file")
        .arg(path)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    output_within(child, &format!("stats {extra:?}"))
}

/// Every square in turn: the game ends whatever the AI does.
const A_WHOLE_GAME: &[u8] = b"1\n2\n3\n4\n5\n6\n7\n8\n9\nquit\n";

/// A game in the plain mode against perfect play, counted in `path`.
fn plain_game(mut command: Command, path: &Path, extra: &[&str]) -> Output {
    let mut child = command
        .arg("--plain")
        .args(extra)
        .arg("--stats-file")
        .arg(path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("a game starts");
    child.stdin.take().unwrap().write_all(A_WHOLE_GAME).unwrap();
    output_within(child, "a plain game")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The one line on standard error of a failed `stats`.
fn one_error_line(out: &Output) -> String {
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("error: "), "{stderr}");
    stderr
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
fn shapes_are_counted_apart() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("stats.json");
    let file = StatsFile::at(&path);
    file.record(loss_as_x()).unwrap();
    let four = record(4, 4, Player::X, Level::Perfect, Standing::Loss);
    file.record(four).unwrap();
    file.record(four).unwrap();
    file.record(record(5, 4, Player::X, Level::Perfect, Standing::Draw))
        .unwrap();
    let rows: Vec<_> = file
        .read()
        .unwrap()
        .rows()
        .iter()
        .map(|r| (r.size, r.k, r.losses, r.draws, r.board()))
        .collect();
    assert_eq!(
        rows,
        vec![
            (3, 3, 1, 0, "3x3".to_string()),
            (4, 4, 2, 0, "4x4 k4".to_string()),
            (5, 4, 0, 1, "5x5 k4".to_string())
        ]
    );

    let out = stats_command(&path, &[]);
    assert!(out.status.success());
    let shown = text(&out.stdout);
    assert!(shown.starts_with("4 games against the AI: 0 won, 3 lost, 1 drawn"));
    let four_line = shown.lines().find(|l| l.contains("4x4 k4")).unwrap();
    assert_eq!(
        four_line.split_whitespace().collect::<Vec<_>>(),
        ["4x4", "k4", "X", "perfect", "2", "0", "2", "0"]
    );
    assert!(shown.lines().any(|l| l.trim_start().starts_with("3x3 ")));

    let out = stats_command(&path, &["--json"]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["games"], 4);
    assert_eq!(report["by_opponent"][1]["size"], 4);
    assert_eq!(report["by_opponent"][1]["k"], 4);
    assert_eq!(report["by_opponent"][1]["tally"]["loss"], 2);
    assert_eq!(report["file"], path.to_str().unwrap());
}

#[test]
fn a_version_1_file_is_read_as_3x3_and_rewritten_as_version_2() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("stats.json");
    // As the first version of the program wrote it.
    let first = "{\n  \"version\": 1,\n  \"rows\": [\n    {\n      \"side\": \"x\",\n      \"opponent\": \"perfect\",\n      \"wins\": 0,\n      \"losses\": 2,\n      \"draws\": 1\n    }\n  ]\n}\n";
    fs::write(&path, first).unwrap();
    let file = StatsFile::at(&path);
    assert_eq!(
        file.read().unwrap().rows(),
        vec![Row {
            side: Player::X,
            opponent: Level::Perfect,
            size: 3,
            k: 3,
            wins: 0,
            losses: 2,
            draws: 1
        }]
    );
    assert_eq!(
        fs::read_to_string(&path).unwrap(),
        first,
        "reading rewrites nothing"
    );
    let report: Value = serde_json::from_slice(&stats_command(&path, &["--json"]).stdout).unwrap();
    assert_eq!(report["by_opponent"][0]["size"], 3);
    assert_eq!(report["by_opponent"][0]["k"], 3);

    let kept = file
        .record(record(4, 4, Player::X, Level::Perfect, Standing::Draw))
        .unwrap();
    assert_eq!(kept, None, "a file of the first format is not damaged");
    let saved: Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
    assert_eq!(saved["format"], "tictactoe-stats");
    assert_eq!(saved["version"], 2);
    let shapes: Vec<_> = saved["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| (row["size"].clone(), row["k"].clone(), row["losses"].clone()))
        .collect();
    assert_eq!(
        shapes,
        vec![
            (3.into(), 3.into(), 2.into()),
            (4.into(), 4.into(), 0.into())
        ]
    );
}

#[test]
fn a_game_started_from_a_board_is_not_counted() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("stats.json");
    let out = plain_game(tictactoe(), &path, &["--board", "x.o/.../..."]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let shown = text(&out.stdout);
    assert!(shown.contains(" wins") || shown.contains("Draw"), "{shown}");
    assert!(!path.exists(), "nothing counted");
    // The same game from the empty board is counted.
    let out = plain_game(tictactoe(), &path, &[]);
    assert!(out.status.success());
    assert_eq!(games_in(&path), 1);
}

#[test]
fn twenty_concurrent_games_against_one_file_are_all_counted() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("stats.json");
    let games: Vec<_> = (0..20)
        .map(|seed| {
            let mut child = tictactoe()
                .args(["--plain", "--seed", &seed.to_string(), "--stats-file"])
                .arg(&path)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("a game starts");
            child.stdin.take().unwrap().write_all(A_WHOLE_GAME).unwrap();
            child
        })
        .collect();
    // Each game is counted, or says it was not: a writer waits for the lock
    // a bounded time, which twenty writers at once on a loaded machine may
    // use up. (Without a bound, see concurrent_writers_lose_no_count.)
    let mut not_counted = 0;
    for game in games {
        let out = game.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
        for line in text(&out.stdout)
            .lines()
            .filter(|l| l.contains("statistics"))
        {
            assert!(line.contains("locked by another program"), "{line}");
            not_counted += 1;
        }
    }
    let out = stats_command(&path, &["--json"]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["games"].as_u64().unwrap() + not_counted, 20);
    assert_eq!(report["tally"]["win"], 0, "nobody beats perfect");
}

#[test]
fn stats_on_a_damaged_file_says_so_and_moves_nothing_then_a_game_moves_it_aside() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("stats.json");
    fs::write(
        &path,
        "{\"format\": \"tictactoe-stats\", \"version\": 2, \"rows\": [{\"side\": \"x\"",
    )
    .unwrap();
    let before = snapshot(dir.path());
    for extra in [&[][..], &["--json"]] {
        let out = stats_command(&path, extra);
        let line = one_error_line(&out);
        assert!(
            line.contains("damaged")
                && line.contains(path.to_str().unwrap())
                && line.contains("will move it aside"),
            "{line}"
        );
        assert!(out.stdout.is_empty());
    }
    assert_eq!(
        snapshot(dir.path()),
        before,
        "`stats` moved or wrote nothing"
    );

    let out = plain_game(tictactoe(), &path, &[]);
    assert!(out.status.success());
    let shown = text(&out.stdout);
    assert!(shown.contains("warning: the statistics file"), "{shown}");
    assert_eq!(games_in(&path), 1);
    assert!(
        names_in(dir.path())
            .iter()
            .any(|n| n.starts_with("stats.json.corrupt-"))
    );
}

#[test]
fn reset_moves_a_damaged_file_aside_and_starts_afresh() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("stats.json");
    fs::write(&path, "{\"format\": \"tictactoe-stats\", \"rows\": [").unwrap();
    let out = stats_command(&path, &["--reset"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with("Statistics reset"));
    let stderr = text(&out.stderr);
    assert_eq!(stderr.lines().count(), 1);
    assert!(
        stderr.starts_with("warning: the statistics file"),
        "{stderr}"
    );
    assert!(
        names_in(dir.path())
            .iter()
            .any(|n| n.starts_with("stats.json.corrupt-"))
    );
    assert_eq!(games_in(&path), 0);
}

/// Files that are plainly not statistics: not even the start of one.
fn foreign_files() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        (
            "hosts",
            b"127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost\n".to_vec(),
        ),
        ("binary", b"\xff\xfe\x00binary\x00".to_vec()),
        ("array.json", b"[1, 2, 3]\n".to_vec()),
        (
            "package.json",
            b"{\n  \"name\": \"a-package\",\n  \"version\": \"1.0.0\"\n}\n".to_vec(),
        ),
        (
            "versioned.json",
            b"{\"version\": \"1.0.0\", \"rows\": []}".to_vec(),
        ),
        ("empty", Vec::new()),
        // Files that begin as the first format did but are not exactly one:
        // without the marker, nothing else makes a file ours.
        (
            "vercel.json",
            b"{\"version\": 2, \"builds\": [{\"src\": \"index.js\", \"use\": \"@vercel/node\"}]}"
                .to_vec(),
        ),
        (
            "a-key-more.json",
            b"{\"version\": 1, \"rows\": [], \"important\": \"keep me\"}".to_vec(),
        ),
        (
            "cut-short.json",
            b"{\"version\": 1, \"rows\": [{\"side\": \"x\"".to_vec(),
        ),
        ("version-99.json", b"{\"version\":99,\"rows\":[]}".to_vec()),
    ]
}

#[test]
fn a_foreign_file_is_never_moved_or_written_by_any_command() {
    for (name, contents) in foreign_files() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name);
        fs::write(&path, &contents).unwrap();
        let before = snapshot(dir.path());

        for extra in [&[][..], &["--json"], &["--reset"]] {
            let line = one_error_line(&stats_command(&path, extra));
            assert!(
                line.contains(path.to_str().unwrap())
                    && line.contains("is not a tictactoe statistics file"),
                "{name} {extra:?}: {line}"
            );
        }

        let out = plain_game(tictactoe(), &path, &[]);
        assert!(out.status.success(), "the game plays on");
        let shown = text(&out.stdout);
        assert!(
            shown.contains("you lose") || shown.contains("Draw"),
            "{shown}"
        );
        let told: Vec<_> = shown
            .lines()
            .filter(|l| l.contains("not a tictactoe statistics file"))
            .collect();
        assert_eq!(told.len(), 1, "{name}: {shown}");
        assert!(told[0].contains(path.to_str().unwrap()));

        let file = StatsFile::at(&path);
        for error in [
            file.record(loss_as_x()).unwrap_err(),
            file.unrecord(loss_as_x()).unwrap_err(),
            file.reset().unwrap_err(),
            file.read().unwrap_err(),
        ] {
            assert!(matches!(error, StatsError::Foreign { .. }), "{error}");
            assert!(error.is_permanent());
        }
        assert_eq!(
            snapshot(dir.path()),
            before,
            "{name} untouched, nothing beside it"
        );
    }
}

#[test]
fn a_newer_version_is_left_alone_and_not_counted() {
    for contents in [
        r#"{"format":"tictactoe-stats","version":3,"rows":"a shape this program does not know"}"#,
        r#"{"format": "tictactoe-stats", "version": 99, "rows": []}"#,
    ] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("stats.json");
        fs::write(&path, contents).unwrap();
        let before = snapshot(dir.path());
        let line = one_error_line(&stats_command(&path, &[]));
        assert!(line.contains("newer than this program's 2"), "{line}");
        assert!(one_error_line(&stats_command(&path, &["--reset"])).contains("newer"));
        let error = StatsFile::at(&path).record(loss_as_x()).unwrap_err();
        assert!(matches!(error, StatsError::Newer { .. }), "{error}");
        assert!(error.is_permanent());
        let out = plain_game(tictactoe(), &path, &[]);
        assert!(out.status.success());
        assert!(text(&out.stdout).contains("newer"));
        assert_eq!(snapshot(dir.path()), before);
    }
}

#[test]
fn a_file_over_the_cap_is_refused_unread_and_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("stats.json");
    let start = b"{\"format\":\"tictactoe-stats\",\"version\":2,\"rows\":[";
    fs::write(&path, start).unwrap();
    // Sparse: 2 GB on paper, no room on disk. Reading it whole would take
    // seconds and gigabytes of memory.
    let huge = 2_000_000_000;
    File::options()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(huge)
        .unwrap();
    let file = StatsFile::at(&path);
    for error in [
        file.read().unwrap_err(),
        file.record(loss_as_x()).unwrap_err(),
        file.reset().unwrap_err(),
    ] {
        assert!(
            matches!(error, StatsError::TooBig { size, .. } if size == huge),
            "{error}"
        );
        assert!(error.is_permanent());
    }
    let line = one_error_line(&stats_command(&path, &[]));
    assert!(line.contains("too big"), "{line}");
    assert_eq!(names_in(dir.path()), ["stats.json"], "nothing beside it");
    assert_eq!(fs::metadata(&path).unwrap().len(), huge);
}

#[test]
fn stats_creates_no_folder_and_no_lock_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("new/deeper/stats.json");
    let out = stats_command(&path, &[]);
    assert!(out.status.success());
    assert!(text(&out.stdout).starts_with("0 games against the AI"));
    let out = stats_command(&path, &["--json"]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["games"], 0);
    assert!(names_in(dir.path()).is_empty(), "no folder created");

    let path = dir.path().join("stats.json");
    StatsFile::at(&path).record(loss_as_x()).unwrap();
    fs::remove_file(dir.path().join("stats.json.lock")).unwrap();
    let before = snapshot(dir.path());
    let out = stats_command(&path, &[]);
    assert!(out.status.success());
    assert!(text(&out.stdout).starts_with("1 game against the AI"));
    assert_eq!(
        snapshot(dir.path()),
        before,
        "no lock file, nothing written"
    );
}

#[test]
fn a_held_lock_makes_a_writer_give_up_with_an_error_and_readers_go_on() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("stats.json");
    let file = StatsFile::at(&path);
    file.record(loss_as_x()).unwrap();
    let holder = hold_lock(&path);
    // The default wait: it ends, with the lock's error.
    let error = file.record(loss_as_x()).unwrap_err();
    assert!(matches!(error, StatsError::Locked { .. }), "{error}");
    assert!(!error.is_permanent());
    assert!(
        error.to_string().contains("is locked by another program")
            && error.to_string().contains(path.to_str().unwrap()),
        "{error}"
    );
    assert_eq!(
        file.read().unwrap().games(),
        1,
        "readers need no lock; nothing was counted"
    );
    let out = stats_command(&path, &[]);
    assert!(out.status.success());

    // A game goes on and says so.
    let out = plain_game(tictactoe(), &path, &[]);
    assert!(out.status.success());
    assert!(
        text(&out.stdout).contains("locked by another program"),
        "{}",
        text(&out.stdout)
    );
    drop(holder);
    file.record(loss_as_x()).unwrap();
    assert_eq!(games_in(&path), 2);
}

#[cfg(unix)]
#[test]
fn a_symlink_is_written_through_and_stays_a_link() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("real")).unwrap();
    let target = dir.path().join("real/data.json");
    StatsFile::at(&target).record(loss_as_x()).unwrap();
    let link = dir.path().join("stats.json");
    symlink("real/data.json", &link).unwrap();

    StatsFile::at(&link).record(loss_as_x()).unwrap();
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(fs::read_link(&link).unwrap(), Path::new("real/data.json"));
    assert_eq!(games_in(&target), 2, "counted in the target");
    assert_eq!(names_in(dir.path()), ["real", "stats.json"]);
    assert_eq!(
        names_in(&dir.path().join("real")),
        ["data.json", "data.json.lock"],
        "the lock and the temporary file go beside the target"
    );
    let out = stats_command(&link, &[]);
    assert!(text(&out.stdout).starts_with("2 games"));

    // A damaged target is moved aside beside it; the link still points to the new file.
    fs::write(&target, "{\"format\":\"tictactoe-stats\",\"rows\":[").unwrap();
    let kept = StatsFile::at(&link)
        .record(loss_as_x())
        .unwrap()
        .expect("moved aside");
    assert_eq!(
        kept.kept_as.parent(),
        target.canonicalize().unwrap().parent()
    );
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(games_in(&link), 1);
}

#[cfg(unix)]
#[test]
fn a_dangling_symlink_is_refused() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join("stats.json");
    symlink("gone/stats.json", &link).unwrap();
    let before = snapshot(dir.path());
    let file = StatsFile::at(&link);
    for error in [
        file.record(loss_as_x()).unwrap_err(),
        file.read().unwrap_err(),
        file.reset().unwrap_err(),
    ] {
        assert!(matches!(error, StatsError::DanglingLink { .. }), "{error}");
        assert!(error.is_permanent());
        assert!(error.to_string().contains("gone/stats.json"), "{error}");
    }
    let line = one_error_line(&stats_command(&link, &[]));
    assert!(line.contains("symbolic link"), "{line}");
    assert_eq!(
        snapshot(dir.path()),
        before,
        "the link stays, nothing created"
    );
}

#[test]
fn a_folder_at_the_path_is_an_error_and_is_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("stats.json");
    fs::create_dir(&path).unwrap();
    fs::write(path.join("inside"), "the user's").unwrap();
    let error = StatsFile::at(&path).record(loss_as_x()).unwrap_err();
    assert!(error.is_permanent());
    let error = error.to_string();
    assert!(error.contains("not a regular file"), "{error}");
    assert_eq!(
        fs::read_to_string(path.join("inside")).unwrap(),
        "the user's"
    );
    assert_eq!(
        names_in(dir.path()),
        ["stats.json"],
        "nothing renamed or created"
    );
    let line = one_error_line(&stats_command(&path, &[]));
    assert!(line.contains("not a regular file"), "{line}");
}

/// The program as someone the file system can refuse: as root, whom
/// permissions do not stop, it runs as `nobody` from a copy of the binary in
/// a folder anyone can reach; otherwise as this user. Keep the returned
/// folder until the command has run.
#[cfg(unix)]
fn as_someone_refusable() -> (Command, tempfile::TempDir) {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    use std::os::unix::process::CommandExt;
    let home = tempfile::tempdir().unwrap();
    fs::set_permissions(home.path(), fs::Permissions::from_mode(0o755)).unwrap();
    let is_root = fs::metadata(home.path()).unwrap().uid() == 0;
    if !is_root {
        return (tictactoe(), home);
    }
    let copy = home.path().join("tictactoe");
    // Copied by another process: a file this one had open for writing could
    // be inherited by a game forked meanwhile by another test, and then no
    // program could run from it ("text file busy").
    let copied = Command::new("cp")
        .arg(env!("CARGO_BIN_EXE_tictactoe"))
        .arg(&copy)
        .status()
        .unwrap();
    assert!(copied.success());
    fs::set_permissions(&copy, fs::Permissions::from_mode(0o755)).unwrap();
    let mut command = Command::new(copy);
    command.uid(65534).gid(65534).env("HOME", home.path());
    (command, home)
}

/// A folder the refusable user can enter, with a statistics file of one game.
#[cfg(unix)]
fn a_folder_with_one_game() -> (tempfile::TempDir, PathBuf) {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).unwrap();
    let path = dir.path().join("stats.json");
    StatsFile::at(&path).record(loss_as_x()).unwrap();
    fs::remove_file(dir.path().join("stats.json.lock")).unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o644)).unwrap();
    (dir, path)
}

#[cfg(unix)]
#[test]
fn a_file_that_cannot_be_read_is_reported_not_moved() {
    use std::os::unix::fs::PermissionsExt;
    let (dir, path) = a_folder_with_one_game();
    let contents = fs::read(&path).unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o000)).unwrap();

    let (mut command, _home) = as_someone_refusable();
    let out = command
        .args(["stats", "--stats-file"])
        .arg(&path)
        .output()
        .unwrap();
    let line = one_error_line(&out);
    assert!(
        line.contains("cannot read") && line.contains("ermission denied"),
        "{line}"
    );

    let (command, _home) = as_someone_refusable();
    let out = plain_game(command, &path, &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let shown = text(&out.stdout);
    assert!(shown.contains("ermission denied"), "{shown}");

    assert_eq!(
        names_in(dir.path()),
        ["stats.json"],
        "nothing moved or created"
    );
    fs::set_permissions(&path, fs::Permissions::from_mode(0o644)).unwrap();
    assert_eq!(fs::read(&path).unwrap(), contents);
}

#[cfg(unix)]
#[test]
fn a_read_only_folder_is_read_and_a_game_there_says_it_cannot_count() {
    use std::os::unix::fs::PermissionsExt;
    let (dir, path) = a_folder_with_one_game();
    let contents = fs::read(&path).unwrap();
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o555)).unwrap();

    let (mut command, _home) = as_someone_refusable();
    let out = command
        .args(["stats", "--stats-file"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with("1 game against the AI"));

    let (command, _home) = as_someone_refusable();
    let out = plain_game(command, &path, &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let shown = text(&out.stdout);
    let told: Vec<_> = shown
        .lines()
        .filter(|l| l.contains("ermission denied"))
        .collect();
    assert_eq!(told.len(), 1, "{shown}");
    assert!(told[0].contains(path.to_str().unwrap()), "{shown}");

    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(names_in(dir.path()), ["stats.json"]);
    assert_eq!(fs::read(&path).unwrap(), contents);
}

#[test]
fn the_default_location_follows_xdg_and_no_stats_writes_nothing() {
    let home = tempfile::tempdir().unwrap();
    let play = |extra: &[&str]| {
        let mut child = tictactoe()
            .arg("--plain")
            .args(extra)
            .env("XDG_DATA_HOME", home.path())
            .env("HOME", home.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(A_WHOLE_GAME).unwrap();
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
    let out = tictactoe()
        .args(["stats", "--json"])
        .env("XDG_DATA_HOME", home.path())
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["games"], 1);
    let reset = tictactoe()
        .args(["stats", "--reset"])
        .env("XDG_DATA_HOME", home.path())
        .output()
        .unwrap();
    assert!(text(&reset.stdout).starts_with("Statistics reset"));
}

/// A statistics file as this program writes it today, byte for byte.
const TODAYS_FILE: &str = "{
  \"format\": \"tictactoe-stats\",
  \"version\": 2,
  \"rows\": [
    {
      \"side\": \"x\",
      \"opponent\": \"perfect\",
      \"size\": 3,
      \"k\": 3,
      \"wins\": 0,
      \"losses\": 2,
      \"draws\": 1
    },
    {
      \"side\": \"o\",
      \"opponent\": \"easy\",
      \"size\": 4,
      \"k\": 4,
      \"wins\": 3,
      \"losses\": 0,
      \"draws\": 0
    }
  ]
}
";

#[test]
fn todays_file_is_read_and_a_game_counted_then_taken_back_leaves_it_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("stats.json");
    fs::write(&path, TODAYS_FILE).unwrap();
    let file = StatsFile::at(&path);
    let rows: Vec<_> = file
        .read()
        .unwrap()
        .rows()
        .iter()
        .map(|r| (r.board(), r.side, r.opponent, r.wins, r.losses, r.draws))
        .collect();
    assert_eq!(
        rows,
        [
            ("3x3".to_string(), Player::X, Level::Perfect, 0, 2, 1),
            ("4x4 k4".to_string(), Player::O, Level::Easy, 3, 0, 0)
        ]
    );
    let out = stats_command(&path, &[]);
    assert!(
        text(&out.stdout).starts_with("6 games against the AI: 3 won, 2 lost, 1 drawn"),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(file.record(loss_as_x()).unwrap(), None);
    assert_eq!(file.read().unwrap().games(), 7);
    assert_eq!(file.unrecord(loss_as_x()).unwrap(), None);
    assert_eq!(fs::read_to_string(&path).unwrap(), TODAYS_FILE);
}

/// A file of ours with a key this program does not know: read, and never
/// written, so the key is not lost.
#[test]
fn a_key_this_program_does_not_know_is_never_lost() {
    let row = r#"{"side": "x", "opponent": "perfect", "size": 3, "k": 3, "wins": 0, "losses": 3, "draws": 0"#;
    for (contents, key) in [
        (
            format!(
                r#"{{"format": "tictactoe-stats", "version": 2, "rows": [{row}}}], "important": "keep me"}}"#
            ),
            r#""important""#,
        ),
        (
            format!(
                r#"{{"format": "tictactoe-stats", "version": 2, "rows": [{row}, "colour": "red"}}]}}"#
            ),
            r#"rows[0]."colour""#,
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("stats.json");
        fs::write(&path, &contents).unwrap();
        let before = snapshot(dir.path());

        let out = stats_command(&path, &[]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert!(text(&out.stdout).starts_with("3 games against the AI"));
        let line = one_error_line(&stats_command(&path, &["--reset"]));
        assert!(
            line.contains(key) && line.contains("left untouched rather than lose it"),
            "{line}"
        );
        let file = StatsFile::at(&path);
        for error in [
            file.record(loss_as_x()).unwrap_err(),
            file.unrecord(loss_as_x()).unwrap_err(),
            file.reset().unwrap_err(),
        ] {
            assert!(matches!(error, StatsError::UnknownKey { .. }), "{error}");
            assert!(error.is_permanent());
        }
        let out = plain_game(tictactoe(), &path, &[]);
        assert!(out.status.success(), "the game plays on");
        let shown = text(&out.stdout);
        let told: Vec<_> = shown.lines().filter(|l| l.contains(key)).collect();
        assert_eq!(told.len(), 1, "{shown}");
        assert!(told[0].starts_with("error: "), "{shown}");
        assert_eq!(snapshot(dir.path()), before, "{key}: nothing written");
    }
}

/// A file nobody may write (0444) was made so on purpose: it is shown, and a
/// game says once, as a warning, that it is not counted.
#[cfg(unix)]
#[test]
fn a_read_only_file_is_read_and_never_rewritten() {
    use std::os::unix::fs::PermissionsExt;
    let (dir, path) = a_folder_with_one_game();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o444)).unwrap();
    let before = snapshot(dir.path());

    let out = stats_command(&path, &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with("1 game against the AI"));
    let line = one_error_line(&stats_command(&path, &["--reset"]));
    assert!(
        line.contains(path.to_str().unwrap()) && line.contains("is read-only"),
        "{line}"
    );
    let file = StatsFile::at(&path);
    for error in [
        file.record(loss_as_x()).unwrap_err(),
        file.reset().unwrap_err(),
    ] {
        assert!(matches!(error, StatsError::ReadOnly { .. }), "{error}");
        assert!(error.is_permanent());
    }
    // Damaged or not: not moved aside either.
    let mut counter = Counter::new(Some(file));
    let note = counter.record(loss_as_x()).expect("a note");
    assert!(note.is_warning(), "{note:?}");
    assert!(note.headline().starts_with("warning:"));
    assert!(counter.record(loss_as_x()).is_none(), "said once");

    let out = plain_game(tictactoe(), &path, &[]);
    assert!(out.status.success(), "the game plays on");
    let shown = text(&out.stdout);
    let told: Vec<_> = shown.lines().filter(|l| l.contains("read-only")).collect();
    assert_eq!(told.len(), 1, "{shown}");
    assert!(
        told[0].starts_with("warning: ")
            && told[0].contains(path.to_str().unwrap())
            && told[0].ends_with("no game is counted for the rest of this session"),
        "{shown}"
    );
    assert_eq!(snapshot(dir.path()), before, "nothing written or created");
    assert_eq!(
        fs::metadata(&path).unwrap().permissions().mode() & 0o777,
        0o444
    );

    let damaged = b"{\"format\": \"tictactoe-stats\", \"rows\": [";
    fs::set_permissions(&path, fs::Permissions::from_mode(0o644)).unwrap();
    fs::write(&path, damaged).unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o444)).unwrap();
    let error = StatsFile::at(&path).record(loss_as_x()).unwrap_err();
    assert!(matches!(error, StatsError::ReadOnly { .. }), "{error}");
    assert_eq!(names_in(dir.path()), ["stats.json"], "not moved aside");
    assert_eq!(fs::read(&path).unwrap(), damaged);
}

/// Puts something at a path.
type Make = fn(&Path);

/// What can sit where the lock file goes, none of it a regular file: what it
/// is, how the error names it, and how to make it.
#[cfg(unix)]
fn odd_locks() -> Vec<(&'static str, &'static str, Make)> {
    use std::os::unix::fs::symlink;
    vec![
        ("a named pipe", "a named pipe", support::named_pipe),
        // Opening it to create would make a file where it points.
        ("a link to nothing", "a symbolic link", |at: &Path| {
            symlink("made-through-the-link", at).unwrap()
        }),
        ("a link to a file", "a symbolic link", |at: &Path| {
            fs::write(at.with_file_name("real.lock"), "").unwrap();
            symlink("real.lock", at).unwrap();
        }),
        ("a folder", "a folder", |at: &Path| {
            fs::create_dir(at).unwrap()
        }),
    ]
}

/// A lock path that is not a regular file is one error line from every
/// writer, never a wait: opening a named pipe would wait for a reader for
/// ever, and a link to nothing would create a file where it points.
#[cfg(unix)]
#[test]
fn a_lock_path_that_is_not_a_regular_file_is_one_error_never_a_hang() {
    for (what, kind, make) in odd_locks() {
        let (dir, path) = a_folder_with_one_game();
        let lock = dir.path().join("stats.json.lock");
        make(&lock);
        let before = snapshot(dir.path());

        // Readers take no lock.
        let out = stats_command(&path, &[]);
        assert!(out.status.success(), "{what}: {}", text(&out.stderr));
        assert!(text(&out.stdout).starts_with("1 game against the AI"));

        let line = one_error_line(&stats_command(&path, &["--reset"]));
        assert!(
            line.contains(lock.to_str().unwrap()) && line.contains(&format!("is {kind}")),
            "{what}: {line}"
        );
        let out = plain_game(tictactoe(), &path, &[]);
        assert!(out.status.success(), "{what}: the game plays on");
        let shown = text(&out.stdout);
        let told: Vec<_> = shown.lines().filter(|l| l.contains(".lock")).collect();
        assert_eq!(told.len(), 1, "{what}: {shown}");
        assert!(told[0].starts_with("error: cannot lock"), "{shown}");

        let error = StatsFile::at(&path).record(loss_as_x()).unwrap_err();
        assert!(matches!(error, StatsError::BadLock { .. }), "{error}");
        assert!(error.is_permanent());
        assert_eq!(games_in(&path), 1, "{what}: nothing counted");
        assert_eq!(snapshot(dir.path()), before, "{what}: nothing touched");
        assert!(
            !dir.path().join("made-through-the-link").exists(),
            "{what}: no file made where a link points"
        );
    }
}

/// A named pipe at the statistics path itself is refused unopened too.
#[cfg(unix)]
#[test]
fn a_named_pipe_at_the_path_is_one_error_never_a_hang() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("stats.json");
    support::named_pipe(&path);
    let before = snapshot(dir.path());
    for extra in [&[][..], &["--reset"]] {
        let line = one_error_line(&stats_command(&path, extra));
        assert!(line.contains("not a regular file"), "{extra:?}: {line}");
    }
    let out = plain_game(tictactoe(), &path, &[]);
    assert!(out.status.success());
    let shown = text(&out.stdout);
    assert_eq!(
        shown
            .lines()
            .filter(|l| l.contains("not a regular file"))
            .count(),
        1,
        "{shown}"
    );
    assert_eq!(snapshot(dir.path()), before);
}

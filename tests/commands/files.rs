//! Files under a hostile user: writes that a full disk cannot
//! break, reads that cost what the file costs, and output files that are
//! never a pipe, a device, a link or someone's file.
//!
//! A full disk is stood in for without root: the child's files may not
//! grow past a size (RLIMIT_FSIZE) and a write past it fails (SIGXFSZ
//! ignored), as a write to a full disk fails. Memory is bounded the same way
//! (RLIMIT_AS): a reader whose memory follows the file's size runs out.

use std::fs;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::thread;
use std::time::Duration;

use tictactoe_game::record::{self, read_file};

use crate::support;

use support::{binary, eventually, output_within, run};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A finished game in the notation.
const GOOD: &str = "[Game \"tictactoe\"]\n[Size \"3\"]\n[K \"3\"]\n[X \"you\"]\n[O \"AI perfect\"]\n[Result \"1-0\"]\n\n1. b2 b1 2. a1 c1 3. c3 1-0\n";

/// `n` good games, a blank line between them.
fn games(n: usize) -> String {
    vec![GOOD; n].join("\n")
}

fn str(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

/// The names in `dir`, sorted.
fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .expect("the folder")
        .map(|entry| {
            entry
                .expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}

// A game appended past the disk's end is cut back off the
// file, which was left ending inside a tag; and the error goes to standard
// error with status 1 (the plain game printed it on standard output and
// exited 0).
#[test]
fn a_game_that_does_not_fit_on_the_disk_leaves_the_records_file_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("games.ttt");
    let before = games(29);
    fs::write(&file, &before).unwrap();
    for mode in ["--plain", "--screen-reader"] {
        // Room for 20 bytes more: the next game crosses the end.
        let out = run(
            support::binary_on_a_full_disk(before.len() as u64 + 20).args([
                mode,
                "--watch",
                "--no-stats",
                "--record",
                str(&file),
            ]),
            mode,
        );
        let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
        assert_eq!(out.status.code(), Some(1), "{mode}: {stderr}");
        assert!(!stdout.contains("error"), "{mode}: {stdout}");
        assert_eq!(stderr.lines().count(), 1, "{mode}: {stderr}");
        assert!(
            stderr.starts_with("error: ") && stderr.contains("the file is left as it was"),
            "{mode}: {stderr}"
        );
        assert_eq!(fs::read_to_string(&file).unwrap(), before, "{mode}");
    }
    assert_eq!(read_file(&file, &mut std::io::empty()).unwrap().len(), 29);
}

// Selfplay's batches of 64 KiB are each whole or absent.
#[test]
fn selfplay_on_a_full_disk_leaves_only_whole_games() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("games.ttt");
    let limit = 200_000;
    let out = run(
        support::binary_on_a_full_disk(limit).args([
            "selfplay",
            "--x",
            "random",
            "--o",
            "random",
            "--games",
            "10000",
            "--seed",
            "3",
            "--record",
            str(&file),
        ]),
        "selfplay",
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("the file is left as it was"), "{stderr}");
    assert!(stderr.contains("selfplay stopped after"), "{stderr}");
    assert!(text(&out.stdout).contains(" games, X (random) against O (random)"));
    let size = fs::metadata(&file).unwrap().len();
    assert!(size > 0 && size <= limit, "{size}");
    let read = read_file(&file, &mut std::io::empty()).expect("every game in the file is whole");
    assert!(!read.is_empty());
    assert_eq!(names_in(dir.path()), ["games.ttt"]);
}

// The game's r on a full disk left an empty dated file.
// The test binary runs itself on the full disk, in a folder of its own, to
// save one game as r does.
#[test]
fn a_record_saved_on_a_full_disk_leaves_no_empty_file() {
    if std::env::var_os("TICTACTOE_SAVE_ON_A_FULL_DISK").is_some() {
        let game = record::Record::new(tictactoe_engine::Board::new(), Vec::new()).unwrap();
        let error = record::save_new(&game).expect_err("the disk is full");
        println!("refused: {error}");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        support::on_a_full_disk(std::env::current_exe().unwrap(), 0)
            .args([
                "files::a_record_saved_on_a_full_disk_leaves_no_empty_file",
                "--exact",
                "--nocapture",
                "--test-threads",
                "1",
            ])
            .env("TICTACTOE_SAVE_ON_A_FULL_DISK", "1")
            .current_dir(dir.path()),
        "saving on a full disk",
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("refused: tictactoe-"), "{stdout}");
    assert_eq!(names_in(dir.path()), Vec::<String>::new());
}

// A damaged tail no longer costs the games before it:
// they are read, and the error names the damaged game.
#[test]
fn a_damaged_tail_is_named_and_every_game_before_it_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("games.ttt");
    // As a full disk left it: the 30th game ends inside a tag.
    fs::write(
        &file,
        format!("{}\n[Game \"tictactoe\"]\n[O \"AI pe", games(29)),
    )
    .unwrap();
    let out = run(binary().args(["review", str(&file)]), "review");
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stdout.matches("X won.").count(), 29, "{stdout}");
    assert!(stdout.contains("Game 29:"), "{stdout}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains(": game 30: line 263, column 10: "),
        "names the game and its line: {stderr}"
    );
    // --board takes a game before the damage, and reads no further.
    let out = support::tictactoe(
        &[
            "--plain",
            "--no-stats",
            "--board",
            str(&file),
            "--game",
            "29",
            "--move",
            "2",
        ],
        "quit\n",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = support::tictactoe(
        &[
            "--plain",
            "--no-stats",
            "--board",
            str(&file),
            "--game",
            "30",
        ],
        "quit\n",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("game 30"),
        "{}",
        text(&out.stderr)
    );
}

// Reading costs what the file costs. Each reader runs
// with 256 MiB to map: 64 MiB of newlines took 1.1 GB, a valid file of
// the most games one may hold took 480 MB, a 1 GiB line 1 GB.
#[test]
fn big_files_are_read_in_memory_bounded_by_a_game_or_a_line() {
    let dir = tempfile::tempdir().unwrap();
    let memory = 256 << 20;
    let newlines = dir.path().join("newlines.ttt");
    fs::write(&newlines, vec![b'\n'; 64 << 20]).unwrap();
    let out = run(
        support::binary_with_memory(memory).args(["review", str(&newlines)]),
        "review of newlines",
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("holds no game"),
        "{}",
        text(&out.stderr)
    );

    // As many games as fit under the cap; the last one is reviewed.
    let many = dir.path().join("many.ttt");
    let count = (record::READ_CAP as usize) / (GOOD.len() + 1);
    fs::write(&many, games(count)).unwrap();
    let last = count.to_string();
    let out = run(
        support::binary_with_memory(memory).args(["review", str(&many), "--game", &last]),
        "review of a full file",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains(&format!("Game {count}:")));

    // One line of a gigabyte (a sparse file: no disk is used).
    let line = dir.path().join("line.jsonl");
    fs::File::create(&line)
        .unwrap()
        .set_len((1 << 30) - 1)
        .unwrap();
    let out = run(
        support::binary_with_memory(memory).args(["verify", str(&line)]),
        "verify of one long line",
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("line 1: ") && stderr.contains("65,536 bytes"),
        "{stderr}"
    );
    let line = dir.path().join("line.ttt");
    fs::File::create(&line).unwrap().set_len(60 << 20).unwrap();
    let out = run(
        support::binary_with_memory(memory).args(["review", str(&line)]),
        "review of one long line",
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("game 1, from line 1, is longer than"),
        "{stderr}"
    );
}

// The "too big" message said 67,108,865 bytes whatever
// the size.
#[test]
fn a_records_file_over_the_cap_is_refused_with_its_real_size() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("big.ttt");
    fs::File::create(&file)
        .unwrap()
        .set_len(70_000_000)
        .unwrap();
    let out = run(binary().args(["review", str(&file)]), "review");
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr.contains("70,000,000 bytes"), "{stderr}");
}

/// Whether the lock on `file` is free: taken and let go at once.
fn lock_free(file: &Path) -> bool {
    let file = fs::File::open(file).expect("the records file");
    file.try_lock().is_ok()
}

// Selfplay held the records file's lock for its
// whole run, so a game finishing meanwhile waited 2 s and was not
// recorded. Selfplay is stopped (SIGSTOP) between two of its writes, and a
// game finishing then is recorded.
#[test]
fn a_game_finishing_while_selfplay_records_to_the_same_file_is_recorded() {
    use rustix::process::{Pid, Signal, WaitOptions, kill_process, waitpid};
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("games.ttt");
    let mut selfplay = binary()
        .args([
            "selfplay",
            "--x",
            "random",
            "--o",
            "random",
            "--games",
            "4000000000",
        ])
        .args(["--seed", "5", "--record", str(&file)])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("selfplay starts");
    let pid = Pid::from_child(&selfplay);
    eventually(
        || (fs::metadata(&file).map_or(0, |meta| meta.len()) > 0).then_some(()),
        || "selfplay wrote nothing".to_string(),
    );
    // Stopped where it holds no lock: between writes, where it spends
    // nearly all its time. Holding it for the whole run, it never is.
    let mut stops = 0;
    loop {
        kill_process(pid, Signal::STOP).unwrap();
        waitpid(Some(pid), WaitOptions::UNTRACED).unwrap();
        if lock_free(&file) {
            break;
        }
        kill_process(pid, Signal::CONT).unwrap();
        stops += 1;
        if stops == 100 {
            let _ = selfplay.kill();
            let _ = selfplay.wait();
            panic!("selfplay held the lock at each of 100 stops");
        }
        thread::sleep(Duration::from_millis(5));
    }
    let out = support::tictactoe(
        &["--plain", "--watch", "--no-stats", "--record", str(&file)],
        "",
    );
    kill_process(pid, Signal::CONT).unwrap();
    let _ = selfplay.kill();
    let _ = selfplay.wait();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let games = read_file(&file, &mut std::io::empty()).expect("whole games only");
    assert!(
        games
            .iter()
            .any(|game| game.x.as_deref() == Some("AI perfect")),
        "the game is recorded among selfplay's"
    );
}

// Selfplay wrote 419 MB, which review then refused: a
// file the program writes is one it can read. A file near the cap takes
// the games that fit, and selfplay stops and says so.
#[test]
fn selfplay_stops_before_the_file_passes_the_readers_cap() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("games.ttt");
    // 200 KiB short of the cap.
    let filler = games((record::READ_CAP as usize - (200 << 10)) / (GOOD.len() + 1));
    fs::write(&file, &filler).unwrap();
    let out = run(
        binary()
            .args([
                "selfplay", "--x", "random", "--o", "random", "--games", "100000",
            ])
            .args(["--seed", "9", "--record", str(&file)]),
        "selfplay",
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("full (67,108,864 bytes is the most"),
        "{stderr}"
    );
    assert!(stderr.contains("selfplay stopped after"), "{stderr}");
    let size = fs::metadata(&file).unwrap().len();
    assert!(
        size <= record::READ_CAP && size > filler.len() as u64,
        "{size}"
    );
    let out = run(
        binary().args(["review", str(&file), "--game", "1"]),
        "review",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
}

/// `solve` of a small board with its certificate at `path`, and `extra`.
fn solve_to(path: &Path, extra: &[&str]) -> Output {
    run(
        binary()
            .args([
                "solve",
                "--size",
                "4",
                "--k",
                "3",
                "--certificate",
                str(path),
            ])
            .args(extra),
        "solve",
    )
}

/// `solve` refused `path` with status 2 and one line saying `says`.
fn refused(out: &Output, says: &str) {
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("error: ") && stderr.contains(says),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
}

// A FIFO hung solve after the proof; an existing file was truncated. What
// may be at the path (a link, a dangling link, a device, a pipe, a folder)
// the files module's tests go through; here, solve's own word on one of
// them and on a file already there, and `--force`.
#[test]
fn a_certificate_goes_to_a_new_regular_file_or_replaces_one_with_force() {
    let dir = tempfile::tempdir().unwrap();
    let at = |name: &str| dir.path().join(name);
    support::named_pipe(&at("fifo"));
    fs::write(at("mine.txt"), "keep me").unwrap();
    refused(
        &solve_to(&at("fifo"), &["--force"]),
        "a named pipe, not a file",
    );
    refused(
        &solve_to(&at("mine.txt"), &[]),
        "a file is there already; --force replaces it",
    );
    assert_eq!(fs::read_to_string(at("mine.txt")).unwrap(), "keep me");
    assert_eq!(names_in(dir.path()), ["fifo", "mine.txt"]);

    let out = solve_to(&at("mine.txt"), &["--force"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = run(binary().args(["verify", str(&at("mine.txt"))]), "verify");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = solve_to(&at("new.jsonl"), &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(names_in(dir.path()), ["fifo", "mine.txt", "new.jsonl"]);
}

// A full disk left a partial certificate.
#[test]
fn a_certificate_that_does_not_fit_on_the_disk_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path: PathBuf = dir.path().join("proof.jsonl");
    let out = run(
        support::binary_on_a_full_disk(1000).args([
            "solve",
            "--size",
            "4",
            "--k",
            "3",
            "--certificate",
            str(&path),
        ]),
        "solve",
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.starts_with("error: cannot write the certificate"),
        "{stderr}"
    );
    assert_eq!(names_in(dir.path()), Vec::<String>::new());
}

// `solve --certificate /dev/stdout | head` exited 1 on
// the closed pipe, where every other command exits 0. Standard output
// takes the certificate alone, and `verify -` reads it from a pipe.
#[test]
fn a_certificate_on_standard_output_stops_quietly_when_the_reader_goes() {
    for path in ["/dev/stdout", "-"] {
        let mut child = binary()
            .args(["solve", "--size", "5", "--k", "4", "--certificate", path])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("solve starts");
        let mut first = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut first)
            .expect("the header");
        assert!(
            first.starts_with("{\"format\": \"tictactoe-proof\""),
            "{first}"
        );
        // The reader goes away, as `head -1` does.
        let out = output_within(child, "solve");
        assert_eq!(out.status.code(), Some(0), "{path}: {}", text(&out.stderr));
        assert!(out.stderr.is_empty(), "{path}: {}", text(&out.stderr));
    }
    let solved = run(
        binary().args(["solve", "--size", "4", "--k", "3", "--certificate", "-"]),
        "solve",
    );
    assert!(text(&solved.stderr).contains("X wins"));
    let verified = support::tictactoe(&["verify", "-"], &solved.stdout);
    assert!(verified.status.success(), "{}", text(&verified.stderr));
    assert!(text(&verified.stdout).starts_with("verified: "));
}

// Verify followed links and opened a FIFO blocking; it reads as the other
// readers read (the files module's tests say how: a link followed to what
// it names, and what that is decides). Here each command's word on a pipe
// and on a link to its file.
#[test]
fn verify_meets_links_and_pipes_as_review_does() {
    let dir = tempfile::tempdir().unwrap();
    let at = |name: &str| dir.path().join(name);
    support::named_pipe(&at("fifo"));
    std::os::unix::fs::symlink("fifo", at("to-fifo")).unwrap();
    let out = solve_to(&at("proof.jsonl"), &[]);
    assert!(out.status.success());
    std::os::unix::fs::symlink("proof.jsonl", at("to-proof")).unwrap();
    fs::write(at("games.ttt"), GOOD).unwrap();
    std::os::unix::fs::symlink("games.ttt", at("to-games")).unwrap();
    let verified = run(binary().args(["verify", str(&at("to-fifo"))]), "verify");
    let reviewed = run(binary().args(["review", str(&at("fifo"))]), "review");
    for out in [&verified, &reviewed] {
        assert_eq!(out.status.code(), Some(2));
        assert!(
            text(&out.stderr).contains("a named pipe"),
            "{}",
            text(&out.stderr)
        );
    }
    let verified = run(binary().args(["verify", str(&at("to-proof"))]), "verify");
    assert!(verified.status.success(), "{}", text(&verified.stderr));
    let reviewed = run(binary().args(["review", str(&at("to-games"))]), "review");
    assert!(reviewed.status.success(), "{}", text(&reviewed.stderr));
}

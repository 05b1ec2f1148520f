//! The real binary in a pseudo-terminal: a whole game played by keys, and
//! every way out (quitting, signals, suspending, the terminal going away)
//! leaves the terminal as it was, or as far as a terminal that is gone can be.
//!
//! The screen is fed by a reader thread that ends when the game's side of the
//! terminal closes (or when the test closes the terminal); assertions about
//! the final screen are made only after that thread has been joined, so no
//! byte the game wrote can arrive late.

use std::fs::{self, File};
use std::io::{Read, Write};
use std::num::NonZeroU16;
use std::os::fd::OwnedFd;
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use rustix::event::{PollFd, PollFlags, Timespec, poll};
use rustix::io::Errno;
use rustix::process::{Pid, Signal, kill_process, kill_process_group};
use rustix::pty::{OpenptFlags, grantpt, ioctl_tiocgptpeer, openpt, unlockpt};
use rustix::termios::{Winsize, tcsetwinsize};
use tictactoe_game::stats::StatsFile;

use crate::support;

use support::eventually;
use support::screen as screen_support;

const ROWS: u16 = 24;
const COLS: u16 = 80;

/// How the game is started in its terminal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Launch {
    /// As the terminal's session leader: it gets the terminal's SIGHUP when
    /// the terminal goes away, as a shell passes it on to its jobs.
    Directly,
    /// Under a shell that leads the session and ignores SIGHUP (as with
    /// `sh -c 'trap "" HUP; tictactoe'`, or nohup): when the terminal goes
    /// away the game gets no signal, only the end of its input.
    HangupsIgnored,
}

/// A running `tictactoe` whose screen is kept up to date by a reader thread.
struct Session {
    screen: Arc<Mutex<vt100::Parser>>,
    reader: Option<JoinHandle<()>>,
    /// Tells the reader to let go of the terminal.
    stop: Arc<AtomicBool>,
    /// The terminal's side the test holds: keys go in, the screen comes out.
    writer: Option<File>,
    master: Option<OwnedFd>,
    child: Child,
    launch: Launch,
    /// Where the game's standard error goes (the screen shows only the terminal).
    stderr: tempfile::NamedTempFile,
}

/// What is left once the game has ended and every byte it wrote was read.
struct Ended {
    status: ExitStatus,
    screen: vt100::Screen,
    /// Everything the game wrote on standard error.
    stderr: String,
}

impl Ended {
    /// The exit status, `None` if a signal killed the process.
    fn code(&self) -> Option<i32> {
        self.status.code()
    }
}

impl Session {
    fn start(args: &[&str]) -> Session {
        Session::start_in(args, Launch::Directly, (COLS, ROWS))
    }

    /// Starts the game with `args` in a new terminal of `(columns, rows)`.
    fn start_in(args: &[&str], launch: Launch, size: (u16, u16)) -> Session {
        Session::start_full(args, launch, size, None)
    }

    /// Starts the game with `args` in the folder `dir`.
    fn start_at(args: &[&str], dir: &Path) -> Session {
        Session::start_full(args, Launch::Directly, (COLS, ROWS), Some(dir))
    }

    fn start_full(
        args: &[&str],
        launch: Launch,
        (cols, rows): (u16, u16),
        dir: Option<&Path>,
    ) -> Session {
        let master = openpt(OpenptFlags::RDWR | OpenptFlags::NOCTTY | OpenptFlags::CLOEXEC)
            .expect("a pseudo-terminal");
        grantpt(&master).expect("the terminal granted");
        unlockpt(&master).expect("the terminal unlocked");
        let slave = ioctl_tiocgptpeer(
            &master,
            OpenptFlags::RDWR | OpenptFlags::NOCTTY | OpenptFlags::CLOEXEC,
        )
        .expect("the game's side of the terminal");
        tcsetwinsize(
            &slave,
            Winsize {
                ws_row: rows,
                ws_col: cols,
                ws_xpixel: 0,
                ws_ypixel: 0,
            },
        )
        .expect("the terminal's size");
        let stderr = tempfile::NamedTempFile::new().expect("a file for standard error");
        // `setsid -c`: a session of its own, with this terminal as its
        // controlling terminal, as a login shell has.
        let mut command = Command::new("setsid");
        command.arg("-c");
        if launch == Launch::HangupsIgnored {
            command.args(["sh", "-c", r#"trap "" HUP; "$0" "$@"; exit $?"#]);
        }
        command
            .arg(env!("CARGO_BIN_EXE_tictactoe"))
            .args(args)
            .env("TERM", "xterm-256color")
            .stdin(Stdio::from(slave.try_clone().expect("a copy")))
            .stdout(Stdio::from(slave))
            .stderr(Stdio::from(stderr.reopen().expect("standard error's file")));
        if let Some(dir) = dir {
            command.current_dir(dir);
        }
        let child = command.spawn().expect("the game starts");
        // Only the game holds its side now, so the reader sees the end when it exits.
        drop(command);
        let writer = File::from(master.try_clone().expect("a writer"));
        let reader = File::from(master.try_clone().expect("a reader"));
        let screen = Arc::new(Mutex::new(vt100::Parser::new(
            nonzero(rows),
            nonzero(cols),
            0,
        )));
        let stop = Arc::new(AtomicBool::new(false));
        let reader = {
            let (screen, stop) = (Arc::clone(&screen), Arc::clone(&stop));
            thread::spawn(move || read_screen(reader, &screen, &stop))
        };
        Session {
            screen,
            reader: Some(reader),
            stop,
            writer: Some(writer),
            master: Some(master),
            child,
            launch,
            stderr,
        }
    }

    fn contents(&self) -> String {
        self.screen.lock().expect("screen lock").screen().contents()
    }

    fn wait_for(&self, what: impl Fn(&str) -> bool, description: &str) -> String {
        self.wait_for_screen(|screen| what(&screen.contents()), description);
        self.contents()
    }

    fn wait_for_screen(&self, what: impl Fn(&vt100::Screen) -> bool, description: &str) {
        // The screen is copied out of its lock: `what` may look at the
        // session again (its board), which takes the lock itself.
        eventually(
            || {
                let screen = self.screen.lock().expect("screen lock").screen().clone();
                what(&screen).then_some(())
            },
            || format!("waiting for {description}; screen:\n{}", self.contents()),
        );
    }

    fn press(&mut self, keys: &str) {
        let writer = self.writer.as_mut().expect("the terminal is open");
        writer
            .write_all(keys.as_bytes())
            .expect("keys reach the game");
        writer.flush().expect("keys are sent");
    }

    /// The game's process id (under a shell, the shell's child).
    fn pid(&self) -> Pid {
        let id = match self.launch {
            Launch::Directly => self.child.id(),
            Launch::HangupsIgnored => {
                let shell = self.child.id();
                let children = fs::read_to_string(format!("/proc/{shell}/task/{shell}/children"))
                    .expect("the shell is running");
                children
                    .split_whitespace()
                    .next()
                    .expect("the game runs under the shell")
                    .parse()
                    .expect("a process id")
            }
        };
        Pid::from_raw(i32::try_from(id).expect("a pid fits")).expect("a real pid")
    }

    fn signal(&self, signal: Signal) {
        kill_process(self.pid(), signal).expect("the signal is delivered");
    }

    /// The process state letter from /proc: `T` while stopped.
    fn state(&self) -> char {
        proc_stat(self.pid()).expect("the game is alive").0
    }

    fn wait_until_stopped(&self) {
        eventually(
            || (self.state() == 'T').then_some(()),
            || "the game did not stop".to_string(),
        );
    }

    /// Closes the terminal, as closing its window does: the reader lets go,
    /// then the last of the terminal's side the test holds is closed. Then
    /// waits for the game to end, and returns the CPU time, in clock ticks,
    /// it used from the closing on.
    fn hang_up(&mut self) -> u64 {
        let pid = self.pid();
        let before = proc_stat(pid).expect("the game is running").1;
        self.stop.store(true, Ordering::Relaxed);
        self.reader
            .take()
            .expect("one reader")
            .join()
            .expect("the reader ends cleanly");
        drop(self.writer.take());
        drop(self.master.take());
        // A game that spins uses a second of CPU in a second or so; one that
        // ends uses a few milliseconds. Watched until it is gone or a zombie.
        let second = rustix::param::clock_ticks_per_second();
        let mut used = 0;
        eventually(
            || {
                let Some((state, ticks)) = proc_stat(pid) else {
                    return Some(());
                };
                used = ticks.saturating_sub(before);
                assert!(
                    used < second,
                    "the game used {used} clock ticks of CPU since its terminal went away: it spins"
                );
                (state == 'Z').then_some(())
            },
            || "the game did not end when its terminal went away".to_string(),
        );
        used
    }

    /// Waits for the game to exit, then for every byte it wrote.
    fn finish(mut self) -> Ended {
        let (child, screen) = (&mut self.child, &self.screen);
        let status = eventually(
            || child.try_wait().expect("the child can be waited on"),
            || {
                let screen = screen.lock().expect("screen lock").screen().contents();
                format!("the game did not exit; screen:\n{screen}")
            },
        );
        if let Some(reader) = self.reader.take() {
            reader.join().expect("the reader ends cleanly");
        }
        let screen = self.screen.lock().expect("screen lock").screen().clone();
        Ended {
            status,
            screen,
            stderr: fs::read_to_string(self.stderr.path()).expect("standard error's file"),
        }
    }

    /// The mark in each square, read off the screen at the game's own layout.
    fn board(&self) -> Vec<Option<char>> {
        let parser = self.screen.lock().expect("screen lock");
        screen_support::marks(parser.screen(), COLS, ROWS)
    }
}

/// A test that fails leaves nothing running: the session's whole process
/// group (the game, and the shell above it) is killed.
impl Drop for Session {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let group = i32::try_from(self.child.id())
                .ok()
                .and_then(Pid::from_raw)
                .expect("a process id");
            let _ = kill_process_group(group, Signal::KILL);
            let _ = self.child.wait();
        }
    }
}

/// Feeds the screen with what the game writes until its side of the
/// terminal closes, or until `stop` (looked at between waits of 20 ms).
fn read_screen(mut terminal: File, screen: &Mutex<vt100::Parser>, stop: &AtomicBool) {
    let mut bytes = [0u8; 4096];
    let pause = Timespec {
        tv_sec: 0,
        tv_nsec: 20_000_000,
    };
    while !stop.load(Ordering::Relaxed) {
        let mut ready = [PollFd::new(&terminal, PollFlags::IN)];
        match poll(&mut ready, Some(&pause)) {
            Ok(0) | Err(Errno::INTR) => continue,
            Ok(_) => {}
            Err(_) => return,
        }
        // End of file, or EIO once the game's side is closed.
        match terminal.read(&mut bytes) {
            Ok(0) => return,
            Ok(n) => screen.lock().expect("screen lock").process(&bytes[..n]),
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return,
        }
    }
}

/// A process's state letter and the CPU time it has used (user and system,
/// every thread, in clock ticks), from /proc; `None` once it is gone. A
/// zombie still has its times.
fn proc_stat(pid: Pid) -> Option<(char, u64)> {
    let stat = fs::read_to_string(format!("/proc/{}/stat", pid.as_raw_nonzero())).ok()?;
    // The command name is in parentheses and may hold spaces; fields follow it,
    // from the state (field 3) on: utime and stime are fields 14 and 15.
    let fields: Vec<&str> = stat[stat.rfind(')')? + 1..].split_whitespace().collect();
    let state = fields.first()?.chars().next()?;
    let ticks = |field: usize| fields.get(field - 3)?.parse::<u64>().ok();
    Some((state, ticks(14)? + ticks(15)?))
}

fn nonzero(n: u16) -> NonZeroU16 {
    NonZeroU16::new(n).expect("a screen has rows and columns")
}

/// The terminal as the game found it: main screen, cursor shown, no mouse reporting.
fn restored(screen: &vt100::Screen) -> bool {
    !screen.alternate_screen()
        && !screen.hide_cursor()
        && screen.mouse_protocol_mode() == vt100::MouseProtocolMode::None
}

fn assert_restored(screen: &vt100::Screen, what: &str) {
    assert!(
        !screen.alternate_screen(),
        "{what}: the alternate screen was left"
    );
    assert!(!screen.hide_cursor(), "{what}: the cursor is shown again");
    assert_eq!(
        screen.mouse_protocol_mode(),
        vt100::MouseProtocolMode::None,
        "{what}: mouse capture is off"
    );
}

fn game_over(screen: &str) -> bool {
    screen.contains("you lose")
        || screen.contains("you win")
        || screen.lines().any(|l| l.trim() == "Draw")
}

fn saved_games(path: &Path) -> u64 {
    StatsFile::at(path).read().map_or(0, |stats| stats.games())
}

/// True when X, who opened, is to move: both sides have as many marks.
fn my_turn(board: &[Option<char>]) -> bool {
    let count = |mark| board.iter().filter(|&&m| m == Some(mark)).count();
    count('X') == count('O')
}

/// Plays the first free square each turn until the game ends.
fn play_to_the_end(game: &mut Session) {
    play_until(game, game_over);
}

/// Plays the first free square each turn until `done` says the screen shows
/// the end (a note about the statistics hides the result for a while).
fn play_until(game: &mut Session, done: impl Fn(&str) -> bool) {
    let mut turns = 0;
    loop {
        // The status line is drawn below the board, so halfway through a
        // frame it can still say "Your turn" beside my mark just placed: the
        // marks must say so too. Once both do, nothing moves until I press.
        let screen = game.wait_for(
            |s| done(s) || (s.contains("Your turn") && my_turn(&game.board())),
            "my turn or the end",
        );
        if done(&screen) {
            return;
        }
        let board = game.board();
        let free = board
            .iter()
            .position(Option::is_none)
            .expect("a free square on my turn");
        game.press(&(free + 1).to_string());
        game.wait_for(|_| game.board()[free] == Some('X'), "my mark");
        turns += 1;
        assert!(turns < 6, "a game has at most five X moves");
    }
}

#[test]
fn a_whole_game_by_keys_then_quit() {
    let stats = tempfile::tempdir().expect("a temporary folder");
    let stats_file = stats.path().join("stats.json");
    let mut game = Session::start(&[
        "--ai-delay",
        "0",
        "--stats-file",
        stats_file.to_str().expect("UTF-8 path"),
    ]);
    game.wait_for(|s| s.contains("Your turn: you are X"), "the first frame");

    // Start with the cursor keys, then play the first free square by its digit each turn.
    game.press("\x1b[A\x1b[D\r"); // up, left, enter: the top-left square
    game.wait_for(|_| game.board()[0] == Some('X'), "my first mark");
    play_to_the_end(&mut game);
    let screen = game.contents();
    assert!(
        screen.contains("you lose") || screen.lines().any(|l| l.trim() == "Draw"),
        "perfect play never loses:\n{screen}"
    );
    assert!(screen.contains("X wins 0"), "{screen}");
    assert!(game.board().iter().filter(|m| m.is_some()).count() >= 5);

    // The finished game is counted while it is still on screen, not only when it is left.
    eventually(
        || (saved_games(&stats_file) > 0).then_some(()),
        || "the game was not counted".to_string(),
    );

    game.press("q");
    let ended = game.finish();
    assert_eq!(ended.code(), Some(0));
    assert_restored(&ended.screen, "quit");
    let saved = StatsFile::at(&stats_file)
        .read()
        .expect("the statistics are readable");
    assert_eq!(saved.games(), 1, "counted once");
    assert_eq!(saved.totals().0, 0, "nobody beats perfect play");
}

#[test]
fn quitting_while_the_ai_thinks_restores_the_terminal() {
    let mut game = Session::start(&["--ai-delay", "5000", "--no-stats"]);
    game.wait_for(|s| s.contains("Your turn"), "the first frame");
    game.press("5");
    game.wait_for(|s| s.contains("AI moves next"), "the AI's turn");
    game.press("\x1b"); // Esc
    let ended = game.finish();
    assert_eq!(ended.code(), Some(0));
    assert_restored(&ended.screen, "Esc while thinking");
}

/// Where a signal can find the game.
#[derive(Debug, Clone, Copy)]
enum Moment {
    WaitingForAKey,
    ThinkingOnSevenBySeven,
    Watching,
    GameOver,
}

impl Moment {
    /// Starts a game and brings it to this moment.
    fn reach(self, stats: &Path) -> Session {
        self.reach_in(stats, Launch::Directly)
    }

    /// Starts a game as `launch` says and brings it to this moment.
    fn reach_in(self, stats: &Path, launch: Launch) -> Session {
        let stats = stats.to_str().expect("UTF-8 path");
        let start = |args: &[&str]| Session::start_in(args, launch, (COLS, ROWS));
        match self {
            Moment::WaitingForAKey => {
                let game = start(&["--no-stats"]);
                game.wait_for(|s| s.contains("Your turn"), "the first frame");
                game
            }
            Moment::ThinkingOnSevenBySeven => {
                // Ten minutes to think: the signal comes long before the move.
                let mut game = start(&[
                    "--size",
                    "7",
                    "--think-ms",
                    "600000",
                    "--ai-delay",
                    "0",
                    "--no-stats",
                ]);
                game.wait_for(|s| s.contains("Your turn"), "the first frame");
                game.press("\r");
                game.wait_for(|s| s.contains("AI is thinking"), "the AI thinking");
                game
            }
            Moment::Watching => {
                let game = start(&["--watch", "--delay", "50", "--no-stats"]);
                game.wait_for(|s| s.contains(" 2 O "), "the AIs playing");
                game
            }
            Moment::GameOver => {
                let mut game = start(&["--ai-delay", "0", "--stats-file", stats]);
                play_to_the_end(&mut game);
                game
            }
        }
    }
}

/// Every way a signal can end the game: the terminal comes back, the exit
/// status is 128 + the signal's number, and a finished game is counted.
#[test]
fn signals_restore_the_terminal_and_exit_with_128_plus_n() {
    let mut cases = 0;
    for moment in [
        Moment::WaitingForAKey,
        Moment::ThinkingOnSevenBySeven,
        Moment::Watching,
        Moment::GameOver,
    ] {
        for (signal, number) in [(Signal::TERM, 15), (Signal::HUP, 1), (Signal::INT, 2)] {
            let folder = tempfile::tempdir().expect("a temporary folder");
            let stats = folder.path().join("stats.json");
            let game = moment.reach(&stats);
            game.signal(signal);
            let ended = game.finish();
            let case = format!("{moment:?}, signal {number}");
            assert_eq!(ended.code(), Some(128 + number), "{case}");
            assert_restored(&ended.screen, &case);
            if let Moment::GameOver = moment {
                assert_eq!(
                    saved_games(&stats),
                    1,
                    "{case}: the finished game is counted"
                );
            }
            cases += 1;
        }
    }
    assert_eq!(cases, 12);
}

/// Ctrl-Z and SIGTSTP give the terminal back before the game stops; after
/// SIGCONT (what `fg` sends) it takes the terminal again and redraws.
#[test]
fn suspending_gives_the_terminal_back_and_continuing_redraws() {
    let mut game = Session::start(&["--ai-delay", "0", "--no-stats"]);
    game.wait_for(|s| s.contains("Your turn"), "the first frame");
    for (how, suspend) in [("Ctrl-Z", None), ("SIGTSTP", Some(Signal::TSTP))] {
        match suspend {
            None => game.press("\x1a"),
            Some(signal) => game.signal(signal),
        }
        game.wait_for_screen(restored, &format!("{how}: the terminal given back"));
        game.wait_until_stopped();
        game.signal(Signal::CONT);
        // Entering the alternate screen clears it, so the board there now was drawn anew.
        game.wait_for_screen(
            |s| s.alternate_screen() && s.hide_cursor() && s.contents().contains("Your turn"),
            &format!("{how}: the game back on screen"),
        );
    }
    // Keys work again: raw mode is back.
    game.press("5");
    game.wait_for(|_| game.board()[4] == Some('X'), "a move after continuing");
    game.press("q");
    let ended = game.finish();
    assert_eq!(ended.code(), Some(0));
    assert_restored(&ended.screen, "quit after suspending");
}

/// Closing the terminal (its window, its SSH connection) under the game:
/// it ends with 129 as SIGHUP would, without a word on standard error (no
/// panic writing to the terminal that is gone), its finished game counted,
/// and without spinning on the input that has ended, whether it got the
/// terminal's SIGHUP or, under a shell that ignores it, only the end of input.
#[test]
fn closing_the_terminal_ends_the_game_with_129_counts_it_and_never_spins() {
    let mut cases = 0;
    for launch in [Launch::Directly, Launch::HangupsIgnored] {
        for moment in [Moment::WaitingForAKey, Moment::GameOver] {
            let folder = tempfile::tempdir().expect("a temporary folder");
            let stats = folder.path().join("stats.json");
            let mut game = moment.reach_in(&stats, launch);
            let case = format!("{launch:?}, {moment:?}");
            let cpu = game.hang_up();
            let ended = game.finish();
            assert_eq!(
                ended.code(),
                Some(129),
                "{case}: {:?}, standard error: {}",
                ended.status,
                ended.stderr
            );
            assert_eq!(ended.stderr, "", "{case}: CPU after closing {cpu} ticks");
            if let Moment::GameOver = moment {
                assert_eq!(saved_games(&stats), 1, "{case}: counted");
            }
            cases += 1;
        }
    }
    assert_eq!(cases, 4);
}

/// SIGHUP itself, sent while the shell above ignores it: the game still
/// takes it, gives the terminal back and ends with 129.
#[test]
fn sighup_under_a_shell_that_ignores_it_still_ends_the_game_cleanly() {
    for moment in [Moment::WaitingForAKey, Moment::GameOver] {
        let folder = tempfile::tempdir().expect("a temporary folder");
        let stats = folder.path().join("stats.json");
        let game = moment.reach_in(&stats, Launch::HangupsIgnored);
        game.signal(Signal::HUP);
        let ended = game.finish();
        let case = format!("{moment:?}");
        assert_eq!(ended.code(), Some(129), "{case}: {}", ended.stderr);
        assert_restored(&ended.screen, &case);
        assert_eq!(ended.stderr, "", "{case}");
        if let Moment::GameOver = moment {
            assert_eq!(saved_games(&stats), 1, "{case}: counted");
        }
    }
}

/// The plain game at a terminal that goes away, with SIGHUP ignored: its
/// reads fail, and it ends as the full-screen game does, with 129, its
/// finished game counted and no spinning.
#[test]
fn the_plain_game_at_a_terminal_that_goes_away_ends_with_129() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let stats = folder.path().join("stats.json");
    let path = stats.to_str().expect("UTF-8 path");
    let mut game = Session::start_in(
        &["--plain", "--stats-file", path],
        Launch::HangupsIgnored,
        (COLS, ROWS),
    );
    game.wait_for(|s| s.contains("Your turn"), "the first prompt");
    // Every square in turn: the game ends whatever the AI does.
    game.press("1\r2\r3\r4\r5\r6\r7\r8\r9\r");
    game.wait_for(|s| s.contains("the game is over"), "the end of the game");
    eventually(
        || (saved_games(&stats) > 0).then_some(()),
        || "the game was not counted".to_string(),
    );
    let cpu = game.hang_up();
    let ended = game.finish();
    assert_eq!(
        ended.code(),
        Some(129),
        "{:?}: {}",
        ended.status,
        ended.stderr
    );
    assert_eq!(ended.stderr, "", "CPU after closing {cpu} ticks");
    assert_eq!(saved_games(&stats), 1);
}

/// The screen-reader mode's quiz at a terminal that goes away: it ends as
/// the game at its own prompt does, with 129 and nothing on standard error
/// (it ended with 1 and "Input/output error").
#[test]
fn the_screen_readers_quiz_at_a_terminal_that_goes_away_ends_with_129() {
    let mut game = Session::start_in(
        &["--screen-reader", "--no-stats"],
        Launch::HangupsIgnored,
        (COLS, ROWS),
    );
    game.wait_for(|s| s.contains("Your turn"), "the first prompt");
    game.press("quiz\r");
    game.wait_for(|s| s.contains("Question 1"), "the quiz's first question");
    game.hang_up();
    let ended = game.finish();
    assert_eq!(
        ended.code(),
        Some(129),
        "{:?}: {}",
        ended.status,
        ended.stderr
    );
    assert_eq!(ended.stderr, "");
}

/// A named pipe where the statistics' lock file goes: the game says it
/// could not count, and quitting gives the terminal back and ends at once
/// (opening the pipe would wait for a reader for ever).
#[test]
fn a_named_pipe_at_the_lock_path_does_not_hold_the_game() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let stats = folder.path().join("stats.json");
    support::named_pipe(&folder.path().join("stats.json.lock"));
    let path = stats.to_str().expect("UTF-8 path");
    let mut game = Session::start(&["--ai-delay", "0", "--stats-file", path]);
    let told = |s: &str| s.contains("error: statistics not saved (details on exit)");
    play_until(&mut game, told);
    game.wait_for(told, "the game saying it could not count");
    game.press("q");
    let ended = game.finish();
    assert_eq!(ended.code(), Some(0), "{}", ended.stderr);
    assert_restored(&ended.screen, "quit");
    let said: Vec<_> = ended.stderr.lines().collect();
    assert_eq!(said.len(), 1, "{}", ended.stderr);
    assert!(
        said[0].starts_with("error: cannot lock the statistics file")
            && said[0].contains("is a named pipe"),
        "{}",
        said[0]
    );
    assert!(!stats.exists(), "nothing counted, nothing created");
}

/// A terminal bigger than the game draws on: the game sits centred in it,
/// nothing is drawn outside its area, and a click lands on the square under it.
#[test]
fn a_terminal_bigger_than_the_cap_shows_the_game_centred_and_clicks_land() {
    let size = (700, 210);
    let area = tictactoe_screen::layout::drawn_area(size);
    assert!(
        area.x > 0 && area.y > 0,
        "{area:?}: bigger than the cap both ways"
    );
    let mut game = Session::start_in(&["--no-stats", "--ai-delay", "0"], Launch::Directly, size);
    let screen = game.wait_for(|s| s.contains("Your turn"), "the first frame");
    assert!(screen.contains("Tic-tac-toe"));
    {
        let parser = game.screen.lock().expect("screen lock");
        let screen = parser.screen();
        for row in 0..size.1 {
            for col in 0..size.0 {
                let inside =
                    (area.x..area.right()).contains(&col) && (area.y..area.bottom()).contains(&row);
                let cell = screen
                    .cell(row, col)
                    .map(|c| c.contents())
                    .unwrap_or_default();
                assert!(
                    inside || cell.trim().is_empty(),
                    "{cell:?} drawn at {col},{row}, outside {area:?}"
                );
            }
        }
    }
    let board = screen_support::board(area.width, area.height);
    let centre = board.cell_rect(tictactoe_engine::Square::from_index(4, 3));
    let (x, y) = (area.x + centre.x + 1, area.y + centre.y + 1);
    // A left click, pressed and released, in SGR mouse reporting (1-based).
    game.press(&format!("\x1b[<0;{0};{1}M\x1b[<0;{0};{1}m", x + 1, y + 1));
    game.wait_for(|s| s.contains("1 X b2"), "the click playing the centre");
    game.press("q");
    let ended = game.finish();
    assert_eq!(ended.code(), Some(0));
    assert_restored(&ended.screen, "quit");
}

#[test]
fn the_walkthrough_is_driven_by_its_keys() {
    let mut game = Session::start(&[
        "--no-stats",
        "--x",
        "human",
        "--o",
        "human",
        "--board",
        "o.x/x.x/.oo",
    ]);
    game.wait_for(|s| s.contains("X to move"), "the first frame");
    game.press("c");
    game.wait_for(|s| s.contains("Minimax call 1:"), "call 1");
    game.press("ccccc");
    game.wait_for(|s| s.contains("Minimax call 6:"), "call 6, a3 X");
    game.press("b");
    game.wait_for(|s| s.contains("Minimax call 5:"), "back to call 5");
    game.press("f");
    game.wait_for(|s| s.contains("Call 5 returned +10"), "call 5 finished");
    game.press("G");
    game.wait_for(
        |s| s.contains("Call 1 returned +10: best move b2"),
        "the end of the walk",
    );
    game.press("a");
    game.wait_for(
        |s| s.contains("alpha-beta") && s.contains("Minimax call 1:"),
        "alpha-beta from call 1",
    );
    game.press("q");
    let ended = game.finish();
    assert_eq!(ended.code(), Some(0));
    assert_restored(&ended.screen, "quit from the walkthrough");
}

#[test]
fn a_finished_game_is_recorded_reviewed_on_the_board_and_saved_by_r() {
    use tictactoe_game::record::read_file;
    let dir = tempfile::tempdir().expect("a temporary folder");
    let records = dir.path().join("games.ttt");
    let records_arg = records.to_str().expect("UTF-8 path");
    let args = ["--ai-delay", "0", "--no-stats", "--record", records_arg];
    let mut game = Session::start_at(&args, dir.path());
    game.wait_for(|s| s.contains("Your turn: you are X"), "the first frame");
    play_to_the_end(&mut game);
    // Appended the moment it finished, while it is still on screen.
    let read = || read_file(&records, &mut std::io::empty()).unwrap_or_default();
    let recorded = eventually(
        || read().into_iter().next(),
        || "the game was not recorded".to_string(),
    );
    assert!(recorded.end().status().is_over());

    // v: the review on the board, from its start.
    game.press("v");
    game.wait_for(|s| s.contains("v/esc close"), "the review");
    game.press("g");
    game.wait_for(
        |s| s.contains("The start: Right steps through"),
        "the start",
    );
    game.wait_for(
        |_| game.board().iter().all(Option::is_none),
        "the empty board",
    );
    game.press("l");
    game.wait_for(|s| s.contains("1. "), "the first move's review");
    game.press("v");
    game.wait_for(|s| s.contains("v review"), "back to the game");

    // r: the record on screen, and in a new file of this folder.
    game.press("r");
    let screen = game.wait_for(|s| s.contains("the record is saved as"), "the record saved");
    assert!(screen.contains("[Game \"tictactoe\"]"), "{screen}");
    game.press("x");
    game.wait_for(|s| s.contains("v review"), "back to the game");
    game.press("q");
    let ended = game.finish();
    assert_eq!(ended.code(), Some(0), "{}", ended.stderr);
    assert_restored(&ended.screen, "quit");
    let saved: Vec<_> = fs::read_dir(dir.path())
        .expect("the folder")
        .map(|entry| entry.expect("an entry").path())
        .filter(|path| {
            path.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("tictactoe-"))
        })
        .collect();
    assert_eq!(saved.len(), 1, "{saved:?}");
    let saved = read_file(&saved[0], &mut std::io::empty()).expect("the saved record reads");
    assert_eq!(saved[0].moves(), recorded.moves());
    assert_eq!(read().len(), 1, "r does not append to --record");
}

/// Long work the screens start: each is started, and then the game is left
/// while it runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Work {
    /// The AI's move (it opens, and on bigger boards thinks for ten minutes).
    AiMove,
    /// Explain's scores (ten minutes of thinking on bigger boards).
    Explain,
    /// The tree's first level (the same).
    Tree,
    /// The walkthrough straight to the end (`G`): endless on bigger boards.
    WalkToEnd,
    /// The rest of call 2 (`f`): endless on bigger boards.
    FinishCall,
    /// The review of a finished game (ten minutes a move on bigger boards).
    Review,
    /// The quiz's answers (3x3 only: on the empty board a tenth of a second).
    Quiz,
}

impl Work {
    const ALL: [Work; 7] = [
        Work::AiMove,
        Work::Explain,
        Work::Tree,
        Work::WalkToEnd,
        Work::FinishCall,
        Work::Review,
        Work::Quiz,
    ];

    /// Starts a game of `size` squares a side and this work in it; returns
    /// once the screen shows the work begun.
    fn start(self, size: u8) -> Session {
        let side = size.to_string();
        let mut args = vec!["--no-stats", "--size", &side, "--think-ms", "600000"];
        let people = ["--x", "human", "--o", "human"];
        // On every size a row of three for X, one move from winning (four
        // in a row on bigger boards: X's fourth goes right of the three).
        let nearly = match size {
            3 => "xx./oo./...",
            4 => "xxx./ooo./..../....",
            _ => "xxx../ooo../...../...../.....",
        };
        match self {
            Work::AiMove => args.extend(["--player", "o", "--ai-delay", "0"]),
            Work::Review => args.extend(people.iter().copied().chain(["--board", nearly])),
            _ => args.extend(people),
        }
        let mut game = Session::start(&args);
        game.wait_for(|s| s.contains("Tic-tac-toe"), "the first frame");
        let shown =
            |what: &'static [&'static str]| move |s: &str| what.iter().any(|w| s.contains(w));
        match self {
            Work::AiMove => {
                game.wait_for(shown(&["AI is thinking", "Your turn"]), "the AI's move");
            }
            Work::Explain => {
                game.press("e");
                game.wait_for(shown(&["Explain"]), "the explain panel");
            }
            Work::Tree => {
                game.press("t");
                game.wait_for(shown(&["Minimax tree of"]), "the tree");
            }
            Work::WalkToEnd => {
                game.press("c");
                game.wait_for(shown(&["Minimax call 1:"]), "call 1");
                game.press("G");
                game.wait_for(shown(&["Walking to the end", "Call 1 returned"]), "the run");
            }
            Work::FinishCall => {
                game.press("cc");
                game.wait_for(shown(&["Minimax call 2:"]), "call 2");
                game.press("f");
                game.wait_for(shown(&["Finishing call 2", "Call 2 returned"]), "the run");
            }
            Work::Review => {
                // To the top row's next square, from the centre: X wins.
                let moves = match size {
                    3 => "\x1b[A\x1b[C\r",
                    _ => "\x1b[A\x1b[A\x1b[C\r",
                };
                game.press(moves);
                game.wait_for(shown(&["X wins 1"]), "X's win");
                game.press("v");
                game.wait_for(shown(&["start/end"]), "the review");
            }
            Work::Quiz => {
                game.press("z");
                game.wait_for(shown(&["Question 1 of"]), "the quiz");
                game.press("0\r");
            }
        }
        game
    }
}

/// Leaves a game of `size` squares a side while each long piece of work
/// runs, 200 ms after it began: by `q` (Ctrl-C in the quiz, where `q`
/// types), SIGTERM and SIGINT. The game ends as it should, with the
/// terminal given back, however long the work would take: most of it never
/// ends on 4x4 and 5x5 (a walk of the whole tree, ten minutes of thinking),
/// so a game that waited for it would never exit.
fn leaving_while_long_work_runs(size: u8) {
    let mut slowest = Duration::ZERO;
    for work in Work::ALL {
        if work == Work::Quiz && size > 3 {
            continue;
        }
        for (how, code) in [("q", 0), ("SIGTERM", 143), ("SIGINT", 130)] {
            let mut game = work.start(size);
            thread::sleep(Duration::from_millis(200));
            let left = Instant::now();
            match how {
                "q" if work == Work::Quiz => game.press("\x03"),
                "q" => game.press("q"),
                "SIGTERM" => game.signal(Signal::TERM),
                _ => game.signal(Signal::INT),
            }
            let case = format!("{size}x{size}, {work:?}, {how}");
            let ended = game.finish();
            slowest = slowest.max(left.elapsed());
            assert_eq!(ended.code(), Some(code), "{case}: {}", ended.stderr);
            assert_restored(&ended.screen, &case);
        }
    }
    eprintln!("{size}x{size}: the slowest exit took {slowest:?}");
}

#[test]
fn leaving_while_long_work_runs_on_3x3() {
    leaving_while_long_work_runs(3);
}

#[test]
fn leaving_while_long_work_runs_on_4x4() {
    leaving_while_long_work_runs(4);
}

#[test]
fn leaving_while_long_work_runs_on_5x5() {
    leaving_while_long_work_runs(5);
}

/// The rows the terminal wrapped itself, wherever a line met its edge
/// (mid-word): the program should have wrapped them, at words.
fn rows_the_terminal_wrapped(screen: &vt100::Screen) -> Vec<String> {
    let (rows, cols) = screen.size();
    let (rows, cols) = (rows.get(), cols.get());
    (0..rows)
        .filter(|&row| screen.row_wrapped(row))
        .map(|row| screen.contents_between(row, 0, row, cols))
        .collect()
}

/// Sentences wrap at words at the terminal's width: `tictactoe quiz` at 80
/// columns (its explanations run to 150 characters) and plain mode at 40
/// (its help's lines to 87).
#[test]
fn text_at_a_terminal_wraps_at_words() {
    let mut quiz = Session::start_in(
        &["quiz", "--seed", "3", "--count", "2"],
        Launch::Directly,
        (80, 40),
    );
    quiz.wait_for(|s| s.contains("Question 1 of 2"), "the first question");
    quiz.press("9\r");
    quiz.wait_for(|s| s.contains("Question 2 of 2"), "the second question");
    quiz.press("b2\r");
    quiz.wait_for(|s| s.contains("right."), "the score");
    let ended = quiz.finish();
    assert_eq!(ended.code(), Some(0), "{}", ended.stderr);
    let wrapped = rows_the_terminal_wrapped(&ended.screen);
    assert!(
        wrapped.is_empty(),
        "{wrapped:#?}\n{}",
        ended.screen.contents()
    );
    assert!(
        ended
            .screen
            .contents()
            .contains("X to move takes the maximum"),
        "{}",
        ended.screen.contents()
    );

    let mut plain = Session::start_in(&["--plain", "--no-stats"], Launch::Directly, (40, 40));
    plain.wait_for(|s| s.contains("help for the commands"), "the first board");
    plain.press("help\r");
    plain.wait_for(|s| s.contains("Commands:"), "the help");
    plain.press("quit\r");
    let ended = plain.finish();
    assert_eq!(ended.code(), Some(0), "{}", ended.stderr);
    let wrapped = rows_the_terminal_wrapped(&ended.screen);
    assert!(
        wrapped.is_empty(),
        "{wrapped:#?}\n{}",
        ended.screen.contents()
    );
}

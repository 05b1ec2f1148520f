//! The real binary in a pseudo-terminal: a whole game played by keys, and
//! every way out (quitting, signals, suspending) leaves the terminal as it was.
//!
//! The screen is fed by a reader thread that ends when the game's side of the
//! terminal closes; assertions about the final screen are made only after that
//! thread has been joined, so no byte the game wrote can arrive late.

use std::io::{Read, Write};
use std::num::NonZeroU16;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use portable_pty::{Child, CommandBuilder, MasterPty, PtySize, native_pty_system};
use rustix::process::{Pid, Signal, kill_process};
use tictactoe::stats::StatsFile;

mod support;

use support::screen as screen_support;

const ROWS: u16 = 24;
const COLS: u16 = 80;
/// How long to wait for something that should take milliseconds: generous,
/// so a loaded machine is slow, not wrong.
const PATIENCE: Duration = Duration::from_secs(30);

/// A running `tictactoe` whose screen is kept up to date by a reader thread.
struct Session {
    screen: Arc<Mutex<vt100::Parser>>,
    reader: Option<JoinHandle<()>>,
    writer: Box<dyn Write + Send>,
    child: Box<dyn Child + Send + Sync>,
    _master: Box<dyn MasterPty + Send>,
}

/// What is left once the game has ended and every byte it wrote was read.
struct Ended {
    code: u32,
    screen: vt100::Screen,
}

impl Session {
    fn start(args: &[&str]) -> Session {
        let pty = native_pty_system()
            .openpty(PtySize {
                rows: ROWS,
                cols: COLS,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("a pseudo-terminal");
        let mut command = CommandBuilder::new(env!("CARGO_BIN_EXE_tictactoe"));
        command.args(args);
        command.env("TERM", "xterm-256color");
        let child = pty.slave.spawn_command(command).expect("the game starts");
        // Only the game holds the other side now, so the reader sees the end when it exits.
        drop(pty.slave);
        let mut reader = pty.master.try_clone_reader().expect("a reader");
        let writer = pty.master.take_writer().expect("a writer");
        let screen = Arc::new(Mutex::new(vt100::Parser::new(
            nonzero(ROWS),
            nonzero(COLS),
            0,
        )));
        let feed = Arc::clone(&screen);
        let reader = thread::spawn(move || {
            let mut bytes = [0u8; 4096];
            // Ends at end of file, or with EIO once the game's side is closed.
            while let Ok(n) = reader.read(&mut bytes) {
                if n == 0 {
                    break;
                }
                feed.lock().expect("screen lock").process(&bytes[..n]);
            }
        });
        Session {
            screen,
            reader: Some(reader),
            writer,
            child,
            _master: pty.master,
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
        let deadline = Instant::now() + PATIENCE;
        loop {
            let screen = self.screen.lock().expect("screen lock").screen().clone();
            if what(&screen) {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {description}; screen:\n{}",
                screen.contents()
            );
            thread::sleep(Duration::from_millis(20));
        }
    }

    fn press(&mut self, keys: &str) {
        self.writer
            .write_all(keys.as_bytes())
            .expect("keys reach the game");
        self.writer.flush().expect("keys are sent");
    }

    fn pid(&self) -> Pid {
        let id = self.child.process_id().expect("the game has a process id");
        Pid::from_raw(i32::try_from(id).expect("a pid fits")).expect("a real pid")
    }

    fn signal(&self, signal: Signal) {
        kill_process(self.pid(), signal).expect("the signal is delivered");
    }

    /// The process state letter from /proc: `T` while stopped.
    fn state(&self) -> char {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.pid().as_raw_nonzero()))
            .expect("the game is alive");
        // The command name is in parentheses and may hold spaces; the state follows it.
        let after = &stat[stat.rfind(')').expect("a stat line") + 1..];
        after.trim_start().chars().next().expect("a state")
    }

    fn wait_until_stopped(&self) {
        let deadline = Instant::now() + PATIENCE;
        while self.state() != 'T' {
            assert!(Instant::now() < deadline, "the game did not stop");
            thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits for the game to exit, then for every byte it wrote.
    fn finish(mut self) -> Ended {
        let deadline = Instant::now() + PATIENCE;
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("the child can be waited on") {
                break status;
            }
            assert!(
                Instant::now() < deadline,
                "the game did not exit; screen:\n{}",
                self.contents()
            );
            thread::sleep(Duration::from_millis(20));
        };
        self.reader
            .take()
            .expect("one reader")
            .join()
            .expect("the reader ends cleanly");
        let screen = self.screen.lock().expect("screen lock").screen().clone();
        Ended {
            code: status.exit_code(),
            screen,
        }
    }

    /// The mark in each square, read off the screen at the game's own layout.
    fn board(&self) -> Vec<Option<char>> {
        let parser = self.screen.lock().expect("screen lock");
        screen_support::marks(parser.screen(), COLS, ROWS)
    }
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
    let mut turns = 0;
    loop {
        // The status line is drawn below the board, so halfway through a
        // frame it can still say "Your turn" beside my mark just placed: the
        // marks must say so too. Once both do, nothing moves until I press.
        let screen = game.wait_for(
            |s| game_over(s) || (s.contains("Your turn") && my_turn(&game.board())),
            "my turn or the end",
        );
        if game_over(&screen) {
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
    let deadline = Instant::now() + PATIENCE;
    while saved_games(&stats_file) == 0 {
        assert!(Instant::now() < deadline, "the game was not counted");
        thread::sleep(Duration::from_millis(20));
    }

    game.press("q");
    let ended = game.finish();
    assert_eq!(ended.code, 0);
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
    assert_eq!(ended.code, 0);
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
        let stats = stats.to_str().expect("UTF-8 path");
        match self {
            Moment::WaitingForAKey => {
                let game = Session::start(&["--no-stats"]);
                game.wait_for(|s| s.contains("Your turn"), "the first frame");
                game
            }
            Moment::ThinkingOnSevenBySeven => {
                // Ten minutes to think: the signal comes long before the move.
                let mut game = Session::start(&[
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
                let game = Session::start(&["--watch", "--delay", "50", "--no-stats"]);
                game.wait_for(|s| s.contains(" 2 O "), "the AIs playing");
                game
            }
            Moment::GameOver => {
                let mut game = Session::start(&["--ai-delay", "0", "--stats-file", stats]);
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
            assert_eq!(ended.code, 128 + number, "{case}");
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
    assert_eq!(ended.code, 0);
    assert_restored(&ended.screen, "quit after suspending");
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
    game.wait_for(|s| s.contains("Call 5 returned +9"), "call 5 finished");
    game.press("G");
    game.wait_for(
        |s| s.contains("Call 1 returned +9: best move b2"),
        "the end of the walk",
    );
    game.press("a");
    game.wait_for(
        |s| s.contains("alpha-beta") && s.contains("Minimax call 1:"),
        "alpha-beta from call 1",
    );
    game.press("q");
    let ended = game.finish();
    assert_eq!(ended.code, 0);
    assert_restored(&ended.screen, "quit from the walkthrough");
}

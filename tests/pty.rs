//! The real binary in a pseudo-terminal: a whole game played by keys.

use std::io::{Read, Write};
use std::num::NonZeroU16;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use portable_pty::{Child, CommandBuilder, MasterPty, PtySize, native_pty_system};
use ratatui::layout::Rect;
use tictactoe::engine::Move;
use tictactoe::tui::view::{Panels, ScreenLayout, layout};

const ROWS: u16 = 24;
const COLS: u16 = 80;
const PATIENCE: Duration = Duration::from_secs(20);

/// A running `tictactoe` whose screen is kept up to date by a reader thread.
struct Session {
    screen: Arc<Mutex<vt100::Parser>>,
    writer: Box<dyn Write + Send>,
    child: Box<dyn Child + Send + Sync>,
    _master: Box<dyn MasterPty + Send>,
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
        drop(pty.slave);
        let mut reader = pty.master.try_clone_reader().expect("a reader");
        let writer = pty.master.take_writer().expect("a writer");
        let screen = Arc::new(Mutex::new(vt100::Parser::new(
            nonzero(ROWS),
            nonzero(COLS),
            0,
        )));
        let feed = Arc::clone(&screen);
        thread::spawn(move || {
            let mut bytes = [0u8; 4096];
            while let Ok(n) = reader.read(&mut bytes) {
                if n == 0 {
                    break;
                }
                feed.lock().expect("screen lock").process(&bytes[..n]);
            }
        });
        Session {
            screen,
            writer,
            child,
            _master: pty.master,
        }
    }

    fn contents(&self) -> String {
        self.screen.lock().expect("screen lock").screen().contents()
    }

    fn wait_for(&self, what: impl Fn(&str) -> bool, description: &str) -> String {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let contents = self.contents();
            if what(&contents) {
                return contents;
            }
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {description}; screen:\n{contents}"
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

    /// The mark in each square, read off the screen at the game's own layout.
    fn board(&self) -> Vec<Option<char>> {
        let ScreenLayout::Game { board, .. } = layout(
            Rect::new(0, 0, COLS, ROWS),
            3,
            Panels {
                moves: true,
                explain: false,
            },
        ) else {
            panic!("80x24 fits the game")
        };
        let parser = self.screen.lock().expect("screen lock");
        (0..9)
            .map(|index| {
                let rect = board.cell_rect(Move::from_index(index, 3));
                let screen = parser.screen();
                let line = |y: u16| -> String {
                    (rect.x..rect.x + rect.width)
                        .filter_map(|x| screen.cell(y, x))
                        .map(|c| c.contents())
                        .collect()
                };
                if line(rect.y + 1).contains('╳') {
                    Some('X')
                } else if line(rect.y).contains('╭') {
                    Some('O')
                } else {
                    None
                }
            })
            .collect()
    }
}

fn nonzero(n: u16) -> NonZeroU16 {
    NonZeroU16::new(n).expect("a screen has rows and columns")
}

fn game_over(screen: &str) -> bool {
    screen.contains("you lose")
        || screen.contains("you win")
        || screen.lines().any(|l| l.trim() == "Draw")
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
    let mut turns = 0;
    loop {
        let screen = game.wait_for(
            |s| s.contains("Your turn") || game_over(s),
            "my turn or the end",
        );
        if game_over(&screen) {
            break;
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
    let screen = game.contents();
    assert!(
        screen.contains("you lose") || screen.lines().any(|l| l.trim() == "Draw"),
        "perfect play never loses:\n{screen}"
    );
    assert!(screen.contains("X wins 0"), "{screen}");
    let board = game.board();
    assert!(board.iter().filter(|m| m.is_some()).count() >= 5);

    game.press("q");
    let status = wait_exit(&mut game);
    assert!(status.success(), "exit status {status:?}");
    let parser = game.screen.lock().expect("screen lock");
    assert!(
        !parser.screen().alternate_screen(),
        "the alternate screen was left"
    );
    assert!(!parser.screen().hide_cursor(), "the cursor is shown again");
    assert_eq!(
        parser.screen().mouse_protocol_mode(),
        vt100::MouseProtocolMode::None,
        "mouse capture is off"
    );
    // The finished game was counted when it was left.
    let saved = tictactoe::stats::StatsFile::at(&stats_file)
        .read()
        .expect("the statistics are readable");
    assert_eq!(saved.games(), 1);
    assert_eq!(saved.totals().0, 0, "nobody beats perfect play");
}

#[test]
fn quitting_while_the_ai_thinks_restores_the_terminal() {
    let mut game = Session::start(&["--ai-delay", "5000", "--no-stats"]);
    game.wait_for(|s| s.contains("Your turn"), "the first frame");
    game.press("5");
    game.wait_for(|s| s.contains("AI is thinking"), "the AI's turn");
    game.press("\x1b"); // Esc
    let status = wait_exit(&mut game);
    assert!(status.success());
    assert!(
        !game
            .screen
            .lock()
            .expect("screen lock")
            .screen()
            .alternate_screen()
    );
}

fn wait_exit(session: &mut Session) -> portable_pty::ExitStatus {
    let deadline = Instant::now() + PATIENCE;
    loop {
        if let Some(status) = session
            .child
            .try_wait()
            .expect("the child can be waited on")
        {
            return status;
        }
        assert!(Instant::now() < deadline, "the game did not exit");
        thread::sleep(Duration::from_millis(20));
    }
}

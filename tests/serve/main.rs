//! `tictactoe serve` end to end: the real binary on an ephemeral port,
//! driven by russh's client, its screen read with vt100.
//!
//! Nothing here depends on timing but for patience: every wait is for a
//! state (a screen, a log line, an exit) with a generous limit.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::num::NonZeroU16;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use russh::client::{self, Msg};
use russh::{ChannelMsg, ChannelWriteHalf};
use rustix::process::{Pid, Signal, kill_process};
use tictactoe_engine::Square;
use tictactoe_screen::decode::KeyDecoder;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

#[path = "../support/mod.rs"]
mod support;

use support::frozen::Freezable;
use support::screen as screen_support;
use support::server::{self, Trusting};

/// How long to wait for what should take milliseconds.
const PATIENCE: Duration = Duration::from_secs(30);
const COLS: u32 = 80;
const ROWS: u32 = 24;

/// Asks `ready` every 20 ms until it gives a value; a test still waiting
/// after [`PATIENCE`] fails, saying `why`.
async fn eventually<T>(mut ready: impl FnMut() -> Option<T>, why: impl Fn() -> String) -> T {
    let deadline = Instant::now() + PATIENCE;
    loop {
        if let Some(value) = ready() {
            return value;
        }
        assert!(Instant::now() < deadline, "{}", why());
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A running server with its log.
struct Server {
    child: Child,
    address: SocketAddr,
    fingerprint: String,
    /// The log's lines as they come, and the log so far.
    log: Mutex<(mpsc::Receiver<(Instant, String)>, String)>,
    dir: Option<tempfile::TempDir>,
}

impl Server {
    fn start(args: &[&str]) -> Server {
        Server::start_in(tempfile::tempdir().expect("a temporary directory"), args)
    }

    /// A server whose host key, home and database are in `dir`.
    fn start_in(dir: tempfile::TempDir, args: &[&str]) -> Server {
        let key = dir.path().join("host_key");
        let home = dir.path().join("home");
        std::fs::create_dir_all(&home).expect("a home");
        let started = server::start(
            support::binary()
                .env("HOME", &home)
                .env("XDG_DATA_HOME", home.join("data"))
                .arg("serve")
                .args(["--listen", "127.0.0.1:0", "--host-key"])
                .arg(&key)
                .args(args),
        );
        assert!(
            std::fs::metadata(&key).is_ok_and(|m| {
                use std::os::unix::fs::PermissionsExt;
                m.permissions().mode() & 0o777 == 0o600
            }),
            "the host key is kept, readable by its owner only"
        );
        Server {
            child: started.child,
            address: started.address,
            fingerprint: started.fingerprint,
            log: Mutex::new((started.log, String::new())),
            dir: Some(dir),
        }
    }

    /// Kills the server with SIGKILL (nothing is said, nothing is
    /// flushed) and starts another on the same files.
    async fn killed_and_restarted(mut self, args: &[&str]) -> Server {
        self.signal(Signal::KILL);
        self.exit().await;
        let dir = self.dir.take().expect("a folder");
        Server::start_in(dir, args)
    }

    /// Files the server wrote in its user's home (its database: nothing else is kept).
    fn files_at_home(&self) -> Vec<std::path::PathBuf> {
        fn walk(dir: &std::path::Path, found: &mut Vec<std::path::PathBuf>) {
            for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    walk(&path, found);
                } else {
                    found.push(path);
                }
            }
        }
        let mut found = Vec::new();
        walk(
            &self.dir.as_ref().expect("a folder").path().join("home"),
            &mut found,
        );
        found
    }

    /// The log so far.
    fn log(&self) -> String {
        let mut guard = self.log.lock().expect("log lock");
        let (lines, log) = &mut *guard;
        for (_, line) in lines.try_iter() {
            log.push_str(&line);
            log.push('\n');
        }
        log.clone()
    }

    async fn wait_log(&self, needle: &str) {
        let found = || self.log().contains(needle).then_some(());
        let why = || {
            format!(
                "timed out waiting for `{needle}` in the log:\n{}",
                self.log()
            )
        };
        eventually(found, why).await;
    }

    fn signal(&self, signal: Signal) {
        let pid = Pid::from_raw(self.child.id() as i32).expect("a pid");
        kill_process(pid, signal).expect("the signal is delivered");
    }

    async fn exit(&mut self) -> ExitStatus {
        let child = &mut self.child;
        let why = || "the server did not exit".to_string();
        eventually(|| child.try_wait().expect("wait"), why).await
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An SSH connection, before or after it opens its terminal.
struct Connection {
    handle: client::Handle<Trusting>,
    fingerprint: Arc<Mutex<Option<String>>>,
}

impl Connection {
    /// Connects from `source` (any loopback address) as `user`.
    async fn open(server: &Server, user: &str, source: &str) -> Connection {
        Self::open_with(server, user, source, Arc::new(AtomicBool::new(false))).await
    }

    async fn open_with(
        server: &Server,
        user: &str,
        source: &str,
        frozen: Arc<AtomicBool>,
    ) -> Connection {
        let mut connection = Self::handshake(server, source, frozen).await;
        // A client without a key is a guest, let in without a question.
        let auth = connection
            .handle
            .authenticate_keyboard_interactive_start(user, None)
            .await
            .expect("auth answers");
        assert!(
            matches!(auth, client::KeyboardInteractiveAuthResponse::Success),
            "no password needed"
        );
        connection
    }

    /// Connects without authenticating yet.
    async fn handshake(server: &Server, source: &str, frozen: Arc<AtomicBool>) -> Connection {
        let socket = TcpSocket::new_v4().expect("a socket");
        socket
            .bind(format!("{source}:0").parse().expect("an address"))
            .expect("a loopback source address");
        let stream = socket.connect(server.address).await.expect("connects");
        let handler = Trusting::default();
        let seen = Arc::clone(&handler.seen);
        let config = Arc::new(client::Config::default());
        let stream = Freezable {
            inner: stream,
            frozen,
        };
        let handle = client::connect_stream(config, stream, handler)
            .await
            .expect("the SSH handshake");
        Connection {
            handle,
            fingerprint: seen,
        }
    }

    /// Opens the game: a terminal of `cols` x `rows` and a shell.
    async fn play(self, cols: u32, rows: u32, env: &[(&str, &str)]) -> Player {
        self.play_on("xterm-256color", cols, rows, env).await
    }

    async fn play_on(self, term: &str, cols: u32, rows: u32, env: &[(&str, &str)]) -> Player {
        let channel = self
            .handle
            .channel_open_session()
            .await
            .expect("a session channel");
        for (name, value) in env {
            channel.set_env(false, *name, *value).await.expect("env");
        }
        channel
            .request_pty(false, term, cols, rows, 0, 0, &[])
            .await
            .expect("a terminal");
        channel.request_shell(false).await.expect("a shell");
        let (mut read, write) = channel.split();
        let screen = Arc::new(Mutex::new(vt100::Parser::new(
            nonzero(rows),
            nonzero(cols),
            0,
        )));
        let exit = Arc::new(Mutex::new(None));
        let closed = Arc::new(AtomicBool::new(false));
        let clears = Arc::new(AtomicUsize::new(0));
        let (feed, status, done) = (Arc::clone(&screen), Arc::clone(&exit), Arc::clone(&closed));
        let cleared = Arc::clone(&clears);
        tokio::spawn(async move {
            while let Some(message) = read.wait().await {
                match message {
                    ChannelMsg::Data { data } => {
                        let whole = data.windows(4).filter(|w| w == b"\x1b[2J").count();
                        cleared.fetch_add(whole, Ordering::SeqCst);
                        feed.lock().expect("screen").process(&data);
                    }
                    ChannelMsg::ExitStatus { exit_status } => {
                        *status.lock().expect("status") = Some(exit_status)
                    }
                    ChannelMsg::Close => break,
                    _ => {}
                }
            }
            done.store(true, Ordering::SeqCst);
        });
        Player {
            connection: self,
            write,
            screen,
            exit,
            closed,
            clears,
        }
    }
}

/// A connection with the game on its screen.
struct Player {
    connection: Connection,
    write: ChannelWriteHalf<Msg>,
    screen: Arc<Mutex<vt100::Parser>>,
    exit: Arc<Mutex<Option<u32>>>,
    closed: Arc<AtomicBool>,
    /// Screens drawn whole (cleared first) so far.
    clears: Arc<AtomicUsize>,
}

impl Player {
    async fn join(server: &Server, user: &str) -> Player {
        let player = Connection::open(server, user, "127.0.0.1")
            .await
            .play(COLS, ROWS, &[])
            .await;
        player.wait_for(|s| s.contains("q quit"), "the lobby").await;
        player
    }

    fn contents(&self) -> String {
        self.screen.lock().expect("screen").screen().contents()
    }

    async fn press(&self, keys: &str) {
        self.send(keys.as_bytes()).await;
    }

    async fn send(&self, bytes: &[u8]) {
        self.write
            .data_bytes(bytes.to_vec())
            .await
            .expect("keys are sent");
    }

    async fn wait_for(&self, what: impl Fn(&str) -> bool, description: &str) -> String {
        self.wait_for_screen(|screen| what(&screen.contents()), description)
            .await;
        self.contents()
    }

    async fn wait_for_screen(&self, what: impl Fn(&vt100::Screen) -> bool, description: &str) {
        let shown = || {
            // A copy, so that `what` may read the screen again itself.
            let screen = self.screen.lock().expect("screen").screen().clone();
            what(&screen).then_some(())
        };
        let why = || {
            format!(
                "timed out waiting for {description}; screen:\n{}",
                self.contents()
            )
        };
        eventually(shown, why).await;
    }

    /// Waits for the server to close the channel; returns the exit status.
    async fn closed(&self) -> Option<u32> {
        let closed = || self.closed.load(Ordering::SeqCst).then_some(());
        let why = || format!("the channel was not closed; screen:\n{}", self.contents());
        eventually(closed, why).await;
        *self.exit.lock().expect("status")
    }

    /// The mark in each square, read off the screen at the game's own layout.
    fn board(&self) -> Vec<Option<char>> {
        let parser = self.screen.lock().expect("screen");
        screen_support::marks(parser.screen(), COLS as u16, ROWS as u16)
    }

    /// Plays `square` (1 to 9) and waits until it shows.
    async fn play_square(&self, square: usize) {
        self.press(&square.to_string()).await;
        self.wait_for_screen(
            |_| self.board()[square - 1].is_some(),
            &format!("square {square} taken"),
        )
        .await;
    }
}

/// alice and bob join and find each other: alice plays X, and it is her turn.
async fn paired(server: &Server) -> (Player, Player) {
    let alice = Player::join(server, "alice").await;
    let bob = Player::join(server, "bob").await;
    alice.press("f").await;
    alice
        .wait_for(|s| s.contains("Waiting for an opponent"), "waiting")
        .await;
    bob.press("f").await;
    for player in [&alice, &bob] {
        player
            .wait_for(|s| s.contains("alice: X  vs  bob: O"), "the pairing")
            .await;
    }
    alice
        .wait_for(|s| s.contains("Your turn: you are X"), "X's turn")
        .await;
    (alice, bob)
}

fn nonzero(n: u32) -> NonZeroU16 {
    NonZeroU16::new(n as u16).expect("a screen has rows and columns")
}

fn game_over(screen: &str) -> bool {
    screen.contains("you lose") || screen.contains("you win") || screen.contains("Draw")
}

/// Plays the first free square whenever it is this player's turn, to the end.
async fn play_to_the_end(player: &Player) -> String {
    for _ in 0..9 {
        let screen = player
            .wait_for(|s| s.contains("Your turn") || game_over(s), "a turn")
            .await;
        if game_over(&screen) {
            return screen;
        }
        let board = player.board();
        let free = board
            .iter()
            .position(Option::is_none)
            .expect("a free square");
        let marks = board.iter().flatten().count();
        player.press(&(free + 1).to_string()).await;
        player
            .wait_for_screen(
                |_| player.board().iter().flatten().count() > marks,
                "the move shows",
            )
            .await;
    }
    player.wait_for(game_over, "the end").await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_against_the_ai_to_its_end() {
    let server = Server::start(&[]);
    let alice = Player::join(&server, "alice").await;
    assert_eq!(
        alice
            .connection
            .fingerprint
            .lock()
            .expect("lock")
            .as_deref(),
        Some(server.fingerprint.as_str()),
        "the start line names the key the server presents"
    );
    let lobby = alice.contents();
    assert!(lobby.contains("you are alice"), "{lobby}");
    assert!(lobby.contains("a play the AI  f seek a game  w take/watch  q quit"));

    // Play O against the easiest AI.
    alice.press("o").await;
    alice.press(&"\x1b[D".repeat(3)).await;
    alice
        .wait_for(
            |s| s.contains("you play O") && s.contains("level easy"),
            "the choice",
        )
        .await;
    alice.press("a").await;
    alice
        .wait_for(|s| s.contains("AI (easy): X  vs  You: O"), "the game")
        .await;
    let end = play_to_the_end(&alice).await;
    assert!(game_over(&end));
    server.wait_log("game end AI (easy) (X) vs alice (O)").await;

    // A resize reaches the game: too small, then big enough again.
    alice
        .write
        .window_change(30, 10, 0, 0)
        .await
        .expect("resize");
    alice
        .wait_for(|s| s.contains("Terminal too small"), "too small")
        .await;
    alice
        .write
        .window_change(COLS, ROWS, 0, 0)
        .await
        .expect("resize");
    alice
        .wait_for(
            |s| s.contains("Tic-tac-toe") && game_over(s),
            "the game again",
        )
        .await;

    // q leaves the game for the lobby; q there closes with status 0.
    alice.press("q").await;
    alice
        .wait_for(|s| s.contains("f seek a game"), "the lobby")
        .await;
    alice.press("q").await;
    assert_eq!(alice.closed().await, Some(0));
    let screen = alice.screen.lock().expect("screen").screen().clone();
    assert!(!screen.alternate_screen() && !screen.hide_cursor());
    server.wait_log("disconnect alice from 127.0.0.1").await;
    assert!(server.log().contains("connect alice from 127.0.0.1"));
    let kept: Vec<String> = server
        .files_at_home()
        .iter()
        .filter_map(|path| path.file_name()?.to_str().map(str::to_string))
        .collect();
    assert!(
        kept.contains(&"tictactoe.db".to_string())
            && kept.iter().all(|name| name.starts_with("tictactoe.db")),
        "no statistics: the database (and its journal) alone, in the data folder: {kept:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_are_paired_play_each_other_and_are_watched() {
    let server = Server::start(&[]);
    let (alice, bob) = paired(&server).await;
    server.wait_log("pair alice (X) vs bob (O)").await;

    let carol = Player::join(&server, "carol").await;
    carol.press("w").await;
    carol
        .wait_for(|s| s.contains("alice (X) to move"), "watching")
        .await;

    // X takes the top row; O plays 4 and 5.
    for (player, square) in [(&alice, 1), (&bob, 4), (&alice, 2), (&bob, 5), (&alice, 3)] {
        player.wait_for(|s| s.contains("Your turn"), "a turn").await;
        player.play_square(square).await;
    }
    alice
        .wait_for(|s| s.contains("X wins: you win!"), "the win")
        .await;
    bob.wait_for(|s| s.contains("X wins: you lose"), "the loss")
        .await;
    carol
        .wait_for(|s| s.contains("alice (X) wins"), "the result")
        .await;
    server
        .wait_log("game end alice (X) vs bob (O): X wins")
        .await;

    // Undo is refused, with the reason.
    bob.press("u").await;
    bob.wait_for(|s| s.contains("No undo against a person"), "refused undo")
        .await;

    // A rematch swaps sides once both ask.
    bob.press("n").await;
    alice
        .wait_for(|s| s.contains("bob wants a rematch: press n"), "the offer")
        .await;
    alice.press("n").await;
    for player in [&alice, &bob, &carol] {
        player
            .wait_for(|s| s.contains("bob: X  vs  alice: O"), "the rematch")
            .await;
    }
    bob.wait_for(|s| s.contains("Your turn: you are X"), "bob opens")
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_dropping_mid_game_is_told_to_the_other() {
    let server = Server::start(&[]);
    let (alice, bob) = paired(&server).await;
    alice.play_square(5).await;
    bob.wait_for(|s| s.contains("Your turn"), "bob's turn")
        .await;
    let carol = Player::join(&server, "carol").await;
    carol.press("w").await;
    carol
        .wait_for(|s| s.contains("bob (O) to move"), "watching")
        .await;

    // bob's connection goes away without a word: both are told who left.
    drop(bob);
    for told in [&alice, &carol] {
        told.wait_for(
            |s| s.contains("bob left") && s.contains("any key returns to the lobby"),
            "told",
        )
        .await;
    }
    server
        .wait_log("game left alice (X) vs bob (O): bob left")
        .await;
    alice.press(" ").await;
    alice
        .wait_for(|s| s.contains("f seek a game"), "the lobby")
        .await;
}

/// Waits on a bare channel for the answer to a request.
async fn answer(channel: &mut russh::Channel<Msg>) -> (bool, String) {
    let mut said = String::new();
    loop {
        let message = tokio::time::timeout(PATIENCE, channel.wait())
            .await
            .expect("an answer in time");
        match message {
            Some(ChannelMsg::Success) => return (true, said),
            Some(ChannelMsg::Failure) => return (false, said),
            Some(ChannelMsg::ExtendedData { data, .. }) => {
                said.push_str(&String::from_utf8_lossy(&data));
            }
            Some(_) => {}
            None => panic!("the channel closed without an answer"),
        }
    }
}

/// Reads a bare channel to its close: what it said on standard error, and its exit status.
async fn to_the_end(channel: &mut russh::Channel<Msg>) -> (String, Option<u32>) {
    let (mut said, mut status) = (String::new(), None);
    loop {
        let message = tokio::time::timeout(PATIENCE, channel.wait())
            .await
            .expect("the channel closes in time");
        match message {
            Some(ChannelMsg::ExtendedData { data, .. }) => {
                said.push_str(&String::from_utf8_lossy(&data))
            }
            Some(ChannelMsg::ExitStatus { exit_status }) => status = Some(exit_status),
            Some(ChannelMsg::Close) | None => return (said, status),
            Some(_) => {}
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_request_but_a_terminal_and_a_shell_is_refused() {
    let server = Server::start(&[]);

    // `ssh host ls`: nothing runs, and the client is told why on its screen.
    let exec = Connection::open(&server, "eve", "127.0.0.1").await;
    let mut channel = exec.handle.channel_open_session().await.expect("channel");
    channel.exec(true, "cat /etc/passwd").await.expect("sent");
    let (said, status) = to_the_end(&mut channel).await;
    assert!(said.contains("only the game is served here"), "{said}");
    assert_eq!(status, Some(1));

    let sftp = Connection::open(&server, "eve", "127.0.0.1").await;
    let mut channel = sftp.handle.channel_open_session().await.expect("channel");
    channel.request_subsystem(true, "sftp").await.expect("sent");
    assert!(!answer(&mut channel).await.0, "sftp is refused");

    let other = Connection::open(&server, "eve", "127.0.0.1").await;
    let mut channel = other.handle.channel_open_session().await.expect("channel");
    channel.agent_forward(true).await.expect("sent");
    assert!(!answer(&mut channel).await.0, "agent forwarding is refused");
    channel
        .request_x11(true, false, "MIT-MAGIC-COOKIE-1", "00112233", 0)
        .await
        .expect("sent");
    assert!(!answer(&mut channel).await.0, "X11 forwarding is refused");
    assert!(
        other.handle.tcpip_forward("127.0.0.1", 0).await.is_err(),
        "remote port forwarding is refused"
    );
    assert!(
        other
            .handle
            .channel_open_direct_tcpip("127.0.0.1", 22, "127.0.0.1", 5000)
            .await
            .is_err(),
        "local port forwarding is refused"
    );
    assert!(
        other.handle.channel_open_session().await.is_err(),
        "one session per connection"
    );
    for refused in [
        "refused a command",
        "refused the sftp subsystem",
        "refused agent forwarding",
        "refused X11 forwarding",
        "refused remote port forwarding",
        "refused port forwarding",
        "refused a second session",
    ] {
        server.wait_log(refused).await;
    }

    // The game itself is still there.
    let player = Player::join(&server, "eve").await;
    assert!(player.contents().contains("you are eve"));
}

/// True when the lobby's lists of players and games stand side by side, as
/// they do on a wide screen; on a narrow one they are one above the other.
fn lists_side_by_side(screen: &str) -> bool {
    screen
        .lines()
        .any(|line| line.contains("Players (") && line.contains("Games ("))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn garbage_and_floods_of_input_neither_crash_nor_stall_the_server() {
    let server = Server::start(&[]);
    let mallory = Player::join(&server, "mallory").await;
    // Bytes of every kind but those that leave or start something in the lobby.
    let mut rng = fastrand::Rng::with_seed(12);
    let harmless = |b: &u8| !b"qafw\x03\x04".contains(b);
    let random: Vec<u8> = std::iter::repeat_with(|| rng.u8(..))
        .filter(harmless)
        .take(48_000)
        .collect();
    let crafted: &[&[u8]] = &[
        b"\x1b[99999999999999999999;99999999999999999M",
        b"\x1b[<0;65535;65535M",
        b"\x1b[<99999999999999;1;1M",
        b"\x1b[200~never ends",
        b"\xff\xfe\xfd\xc3\x28\xe2\x82",
        b"\x1bO",
        b"\x1b[",
        b"\x1b[1;2;3;4;5;6;7;8;9;10;11;12;13;14;15;16;17;18;19;20;21;22;23;24;25;26;27;28;29;30~",
    ];
    for chunk in random.chunks(1000) {
        mallory.send(chunk).await;
    }
    for bytes in crafted {
        mallory.send(bytes).await;
    }
    // A huge paste: 128 KiB at once. Past 64 KiB the server reads 16 KiB
    // a second, so this is read a few seconds after it was sent.
    mallory.send(&vec![b'x'; 128 << 10]).await;
    // Still served: a resize, which comes after every byte above, is drawn.
    mallory
        .write
        .window_change(44, ROWS, 0, 0)
        .await
        .expect("resize");
    mallory
        .wait_for(
            |s| s.contains("Games (") && !lists_side_by_side(s),
            "the narrow lobby",
        )
        .await;
    // Keys that came too fast were dropped. Every byte was read before the
    // resize, so no key comes from here on: after 2 s, what the session's
    // bucket takes to fill (100 keys at 50 a second), keys count again, and
    // the run of dropped keys is logged. (A pause on purpose: the bucket
    // fills with time and with nothing else, and a slow machine only waits
    // longer.)
    tokio::time::sleep(Duration::from_secs(2)).await;
    server.wait_log("keys from mallory: ").await;
    mallory
        .write
        .window_change(COLS, ROWS, 0, 0)
        .await
        .expect("resize");
    mallory
        .wait_for(lists_side_by_side, "the lobby again")
        .await;
    // The lobby answers keys.
    mallory.press("o").await;
    mallory
        .wait_for(|s| s.contains("you play O"), "the lobby answers")
        .await;
    mallory.press("x").await;
    mallory
        .wait_for(|s| s.contains("you play X"), "the lobby answers")
        .await;
    // And so are others.
    let bob = Player::join(&server, "bob").await;
    bob.press("a").await;
    bob.wait_for(|s| s.contains("Your turn"), "bob's game")
        .await;
    assert!(!server.log().contains("panicked"), "{}", server.log());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_never_reads_is_dropped_and_others_play_on() {
    let server = Server::start(&["--send-timeout", "2"]);
    let frozen = Arc::new(AtomicBool::new(false));
    let stuck = Connection::open_with(&server, "stuck", "127.0.0.1", Arc::clone(&frozen))
        .await
        .play(COLS, ROWS, &[])
        .await;
    stuck.wait_for(|s| s.contains("q quit"), "the lobby").await;
    frozen.store(true, Ordering::SeqCst);

    let bob = Player::join(&server, "bob").await;
    bob.press("a").await;
    bob.wait_for(|s| s.contains("Your turn"), "bob's game")
        .await;

    // Every resize redraws the whole screen; nothing of it is read. The
    // resizes stop once the server has given up on the client.
    for i in 0..200_000u32 {
        let cols = 200 + i % 2 * 50;
        if stuck.write.window_change(cols, 100, 0, 0).await.is_err() {
            break;
        }
        if i % 50 == 0 {
            // Let the server catch up before checking on it.
            tokio::time::sleep(Duration::from_millis(5)).await;
            if server.log().contains("disconnect stuck") {
                break;
            }
        }
    }
    server.wait_log("disconnect stuck from 127.0.0.1").await;
    let log = server.log();
    assert!(
        log.contains("too slow to read its screen") || log.contains("its output unread"),
        "{log}"
    );

    // bob played on all along and still does.
    let play = play_to_the_end(&bob).await;
    assert!(game_over(&play));
    bob.press("q").await;
    bob.wait_for(|s| s.contains("Players (1)"), "the stuck one is gone")
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_presses_keys_and_never_reads_is_dropped_before_its_window_fills() {
    /// Most arrow keys sent: their frames (a few hundred bytes each at
    /// most) come nowhere near the 2 MB of an SSH window, so only the
    /// unanswered pings can have the client dropped.
    const MOST_KEYS: u32 = 1_000;
    let server = Server::start(&["--send-timeout", "2"]);
    let frozen = Arc::new(AtomicBool::new(false));
    let stuck = Connection::open_with(&server, "stuck", "127.0.0.1", Arc::clone(&frozen))
        .await
        .play(COLS, ROWS, &[])
        .await;
    stuck.wait_for(|s| s.contains("q quit"), "the lobby").await;
    stuck.press("a").await;
    stuck
        .wait_for(|s| s.contains("Your turn"), "its game")
        .await;
    frozen.store(true, Ordering::SeqCst);

    // The cursor goes right and back: a small frame for each key, none read.
    let mut pressed = 0;
    while pressed < MOST_KEYS && !server.log().contains("disconnect stuck") {
        let key: &[u8] = if pressed % 2 == 0 {
            b"\x1b[C"
        } else {
            b"\x1b[D"
        };
        if stuck.write.data_bytes(key).await.is_err() {
            break;
        }
        pressed += 1;
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    server.wait_log("disconnect stuck from 127.0.0.1").await;
    assert!(
        server.log().contains("too slow to read its screen"),
        "{}",
        server.log()
    );
    assert!(pressed < MOST_KEYS, "dropped only after {pressed} keys");
    // And the place it held is free.
    let bob = Player::join(&server, "bob").await;
    bob.wait_for(|s| s.contains("Players (1)"), "the stuck one is gone")
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_past_the_limits_are_told_why() {
    let server = Server::start(&["--max-sessions", "2", "--max-per-address", "1"]);
    let one = Connection::open(&server, "one", "127.0.0.1")
        .await
        .play(COLS, ROWS, &[])
        .await;
    one.wait_for(|s| s.contains("q quit"), "the lobby").await;
    let two = Connection::open(&server, "two", "127.0.0.2")
        .await
        .play(COLS, ROWS, &[])
        .await;
    two.wait_for(|s| s.contains("q quit"), "the lobby").await;

    let full = Connection::open(&server, "three", "127.0.0.3")
        .await
        .play(COLS, ROWS, &[])
        .await;
    full.wait_for(|s| s.contains("the server is full (2 players)"), "refused")
        .await;
    assert_eq!(full.closed().await, Some(1));

    let same = Connection::open(&server, "four", "127.0.0.1")
        .await
        .play(COLS, ROWS, &[])
        .await;
    same.wait_for(
        |s| s.contains("too many players from your address (1)"),
        "refused",
    )
    .await;
    assert_eq!(same.closed().await, Some(1));
    server.wait_log("refused a game (server full)").await;
    server
        .wait_log("refused a game (too many from one address)")
        .await;

    // A place freed is a place taken.
    drop((full, same));
    two.press("q").await;
    assert_eq!(two.closed().await, Some(0));
    server.wait_log("disconnect two").await;
    let again = Connection::open(&server, "five", "127.0.0.3")
        .await
        .play(COLS, ROWS, &[])
        .await;
    again
        .wait_for(|s| s.contains("you are five"), "admitted")
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_client_is_disconnected_with_a_message() {
    let server = Server::start(&["--idle-timeout", "1"]);
    // Not `Player::join`: on a busy machine the lobby may be gone before it is seen.
    let idle = Connection::open(&server, "sleepy", "127.0.0.1")
        .await
        .play(COLS, ROWS, &[])
        .await;
    idle.wait_for(
        |s| s.contains("disconnected after 1s without a key press"),
        "the goodbye",
    )
    .await;
    assert_eq!(idle.closed().await, Some(1));
    server.wait_log("disconnect sleepy from 127.0.0.1").await;
    assert!(server.log().contains(": idle"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_tells_every_client_and_exits_zero() {
    let mut server = Server::start(&[]);
    let alice = Player::join(&server, "alice").await;
    let bob = Player::join(&server, "bob").await;
    bob.press("a").await;
    bob.wait_for(|s| s.contains("Your turn"), "a game").await;
    server.signal(Signal::TERM);
    for player in [&alice, &bob] {
        player
            .wait_for(|s| s.contains("the server is going down"), "the goodbye")
            .await;
        assert_eq!(player.closed().await, Some(1));
    }
    let status = server.exit().await;
    assert_eq!(status.code(), Some(0), "log:\n{}", server.log());
    server.wait_log("stopped").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_shutdown_log_counts_one_connection_in_the_singular() {
    let mut server = Server::start(&[]);
    let alice = Player::join(&server, "alice").await;
    server.signal(Signal::TERM);
    assert_eq!(alice.closed().await, Some(1));
    assert_eq!(server.exit().await.code(), Some(0));
    server.wait_log("shutting down: 1 connection told\n").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_color_from_the_client_is_respected() {
    let server = Server::start(&[]);
    let plain = Connection::open(&server, "plain", "127.0.0.1")
        .await
        .play(COLS, ROWS, &[("NO_COLOR", "1")])
        .await;
    let colour = Player::join(&server, "colour").await;
    let mut marks = Vec::new();
    for player in [&plain, &colour] {
        player.wait_for(|s| s.contains("q quit"), "the lobby").await;
        player.press("a").await;
        player.play_square(5).await;
        let centre = screen_support::board(COLS as u16, ROWS as u16).cell_rect(Square::new(1, 1));
        let parser = player.screen.lock().expect("screen");
        let cell = parser
            .screen()
            .cell(centre.y + 1, centre.x + centre.width / 2)
            .expect("a cell")
            .clone();
        marks.push(cell.fgcolor());
    }
    assert_eq!(marks[0], vt100::Color::Default, "no colour with NO_COLOR");
    assert_ne!(marks[1], vt100::Color::Default, "colour otherwise");
}

#[test]
fn any_bytes_decode_without_panicking_and_split_sequences_still_decode() {
    let mut rng = fastrand::Rng::with_seed(5);
    let mut decoder = KeyDecoder::default();
    for _ in 0..2_000 {
        let len = rng.usize(..64);
        let bytes: Vec<u8> = std::iter::repeat_with(|| rng.u8(..)).take(len).collect();
        decoder.feed(&bytes, |_| {});
    }
    // A fresh decoder reads an arrow key whole, and across two reads.
    let mut events = Vec::new();
    let mut decoder = KeyDecoder::default();
    decoder.feed(b"\x1b[A", |e| events.push(e));
    decoder.feed(b"\x1b[", |e| events.push(e));
    decoder.feed(b"B5", |e| events.push(e));
    let codes: Vec<_> = events
        .iter()
        .filter_map(|e| e.as_key_press_event().map(|k| k.code))
        .collect();
    use crossterm::event::KeyCode;
    assert_eq!(codes, vec![KeyCode::Up, KeyCode::Down, KeyCode::Char('5')]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_authorized_keys_only_those_keys_get_in() {
    use russh::keys::key::PrivateKeyWithHashAlg;
    use russh::keys::{Algorithm, PrivateKey};
    let guest = PrivateKey::random(&mut rand::rng(), Algorithm::Ed25519).expect("a key");
    let stranger = PrivateKey::random(&mut rand::rng(), Algorithm::Ed25519).expect("a key");
    let keys = tempfile::NamedTempFile::new().expect("a file");
    let line = guest.public_key().to_openssh().expect("openssh format");
    std::fs::write(
        keys.path(),
        format!("# the guest list\n{line} guest@example\n"),
    )
    .expect("written");
    let path = keys.path().to_str().expect("a path");
    let server = Server::start(&["--authorized-keys", path]);
    let never = Arc::new(AtomicBool::new(false));

    let mut nobody = Connection::handshake(&server, "127.0.0.1", Arc::clone(&never)).await;
    let none = nobody
        .handle
        .authenticate_none("nobody")
        .await
        .expect("answers");
    assert!(!none.success(), "no way in without a key");
    let with = |key: &PrivateKey| PrivateKeyWithHashAlg::new(Arc::new(key.clone()), None);
    let denied = nobody
        .handle
        .authenticate_publickey("nobody", with(&stranger))
        .await
        .expect("answers");
    assert!(!denied.success(), "a key not on the list is refused");

    let mut guest_connection = Connection::handshake(&server, "127.0.0.1", never).await;
    let granted = guest_connection
        .handle
        .authenticate_publickey("guest", with(&guest))
        .await
        .expect("answers");
    assert!(granted.success(), "a listed key gets in");
    let player = guest_connection.play(COLS, ROWS, &[]).await;
    player
        .wait_for(|s| s.contains("you are guest"), "the lobby")
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_are_sanitised_and_a_dumb_terminal_gets_the_game_in_sentences() {
    let server = Server::start(&[]);
    let odd = Connection::open(
        &server,
        "ev\u{1b}[31mil <script>very-long-name-here",
        "127.0.0.1",
    )
    .await
    .play(COLS, ROWS, &[])
    .await;
    odd.wait_for(
        |s| {
            s.lines()
                .any(|l| l.trim_end().ends_with("you are ev31milscriptver"))
        },
        "the lobby",
    )
    .await;
    assert!(
        !odd.contents().contains("ev31milscriptvery"),
        "at most 16 characters"
    );

    // TERM=dumb: the game in sentences, each key echoed, Backspace rubbing out.
    let dumb = Connection::open(&server, "dumb", "127.0.0.1")
        .await
        .play_on("dumb", COLS, ROWS, &[])
        .await;
    dumb.wait_for(|s| s.contains("Your turn, X"), "the game in sentences")
        .await;
    dumb.press("b3\x7f2\r").await;
    let said = dumb
        .wait_for(|s| s.contains("You play b2."), "the move")
        .await;
    assert!(said.contains("> b2\n"), "{said}");
    // Ctrl-D on an empty line: the end of input, a clean exit.
    dumb.press("\x04").await;
    dumb.wait_for(|s| s.contains("End of input"), "the end")
        .await;
    assert_eq!(dumb.closed().await, Some(0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_screen_reader_command_plays_in_sentences_without_a_terminal() {
    let server = Server::start(&[]);
    let mut alice = Sentences::open(&server, "alice", Ask::Command).await;
    alice
        .write
        .data(&b"b2\nboard\nsquare\nrecord\nquit\n"[..])
        .await
        .expect("lines sent");
    alice.hear_to_the_close().await;
    let said = String::from_utf8(alice.said.clone()).expect("UTF-8");
    assert_eq!(alice.status, Some(0), "{said}");
    assert!(said.contains("You play b2.\n"), "{said}");
    assert!(
        said.contains("Row 2: a2 empty, b2 X, c2 empty.\n"),
        "{said}"
    );
    assert!(said.contains("error: \"square\" is not a move"), "{said}");
    // Nothing drawn: no escape, carriage return, box, block or braille.
    let drawn =
        |c: char| matches!(c, '\x1b' | '\r' | '\u{2500}'..='\u{259f}' | '\u{2800}'..='\u{28ff}');
    assert!(!said.contains(drawn), "{said}");
    // The record it printed reads back: b2, then the AI's answer, as said.
    let start = said.find("[Game ").expect("a record");
    let end = start + said[start..].find(" *\n").expect("the record's end") + 3;
    let records = tictactoe_game::record::read_str(&said[start..end]).expect("a record that reads");
    let moves = records[0].moves();
    assert_eq!(moves.len(), 2);
    assert_eq!(moves[0].to_string(), "b2");
    assert!(said.contains(&format!("O plays {}.", moves[1])), "{said}");
    assert!(
        server.log().contains("connect alice from 127.0.0.1"),
        "{}",
        server.log()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_from_a_client_that_never_reads_stops_at_its_window_and_it_is_dropped() {
    /// The SSH window for a client's input, and a little over for the
    /// packets' own bytes.
    const WINDOW: u64 = 128 * 1024;
    let server = Server::start(&["--send-timeout", "2"]);
    let frozen = Arc::new(AtomicBool::new(false));
    let stuck = Connection::open_with(&server, "stuck", "127.0.0.1", Arc::clone(&frozen))
        .await
        .play(COLS, ROWS, &[])
        .await;
    stuck.wait_for(|s| s.contains("q quit"), "the lobby").await;
    frozen.store(true, Ordering::SeqCst);
    // Arrow keys as fast as they go; the client reads nothing, not even
    // the server's leave to send more, so it sends no more than its window.
    let sent = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let flood = {
        let sent = Arc::clone(&sent);
        let Player {
            connection, write, ..
        } = stuck;
        tokio::spawn(async move {
            let _open = connection;
            let keys = "\x1b[C\x1b[D".repeat(100).into_bytes();
            while write.data_bytes(keys.clone()).await.is_ok() {
                sent.fetch_add(keys.len() as u64, Ordering::SeqCst);
            }
        })
    };
    // Judged once the server has read it all: at most 8 s at 16 KiB a second.
    server.wait_log("disconnect stuck from 127.0.0.1").await;
    assert!(
        server.log().contains("too slow to read its screen"),
        "{}",
        server.log()
    );
    let sent = sent.load(Ordering::SeqCst);
    assert!(
        sent <= WINDOW,
        "{sent} bytes sent past a window of {WINDOW}"
    );
    flood.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_sends_faster_than_it_is_read_is_not_taken_for_one_that_does_not_read() {
    // 160 KB in packets of 1 KB: the server reads 64 KiB, then 16 KiB a
    // second, and the packets past its queue wait unread in the network,
    // so the answers to its pings wait behind them for 5 s and more, past
    // the send timeout; the client reads all the while.
    let server = Server::start(&["--send-timeout", "2"]);
    let mut carol = Sentences::open(&server, "carol", Ask::Command).await;
    let write = &carol.write;
    let mut sent = write.data(&b"b2\n"[..]).await.is_ok();
    for _ in 0..160 {
        sent &= write.data(&[b'x'; 1024][..]).await.is_ok();
    }
    sent &= write.data(&b"\nboard\nquit\n"[..]).await.is_ok();
    assert!(sent, "all sent");
    carol.hear_to_the_close().await;
    let said = carol.text();
    assert_eq!(carol.status, Some(0), "{said}\n{}", server.log());
    assert!(said.contains("Row 2: a2 empty, b2 X, c2 empty."), "{said}");
    assert!(!server.log().contains("too slow"), "{}", server.log());
}

/// How a session in sentences is asked for without a terminal.
#[derive(Clone, Copy)]
enum Ask {
    /// `ssh host screen-reader`.
    Command,
    /// `ssh -T host`, or ssh with its input from a file.
    Shell,
}

/// A session in sentences without a terminal: what it has said so far.
struct Sentences {
    _connection: Connection,
    read: russh::ChannelReadHalf,
    write: ChannelWriteHalf<Msg>,
    said: Vec<u8>,
    status: Option<u32>,
}

impl Sentences {
    async fn open(server: &Server, user: &str, ask: Ask) -> Sentences {
        let connection = Connection::open(server, user, "127.0.0.1").await;
        let channel = connection
            .handle
            .channel_open_session()
            .await
            .expect("channel");
        match ask {
            Ask::Command => channel.exec(true, "screen-reader").await,
            Ask::Shell => channel.request_shell(true).await,
        }
        .expect("sent");
        let (read, write) = channel.split();
        let mut sentences = Sentences {
            _connection: connection,
            read,
            write,
            said: Vec::new(),
            status: None,
        };
        sentences.hear("Your turn, X").await;
        sentences
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.said).into_owned()
    }

    /// Reads until `needle` has been said; false if the channel closed first.
    async fn hear(&mut self, needle: &str) -> bool {
        while !self.text().contains(needle) {
            let message = tokio::time::timeout(PATIENCE, self.read.wait())
                .await
                .unwrap_or_else(|_| panic!("`{needle}` not said in time:\n{}", self.text()));
            match message {
                Some(ChannelMsg::Data { data }) => self.said.extend_from_slice(&data),
                Some(ChannelMsg::ExitStatus { exit_status }) => self.status = Some(exit_status),
                Some(ChannelMsg::Close) | None => return false,
                Some(_) => {}
            }
        }
        true
    }

    /// Reads to the channel's close.
    async fn hear_to_the_close(&mut self) {
        assert!(!self.hear("\u{0}never said").await, "the channel closes");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_quiz_over_ssh_is_heard_before_it_is_answered() {
    let server = Server::start(&[]);
    let mut alice = Sentences::open(&server, "alice", Ask::Command).await;
    alice.write.data(&b"quiz\n"[..]).await.expect("sent");
    // Each question arrives before its answer is typed.
    alice.hear("Question 1 of 5").await;
    alice.hear("Row 3:").await;
    alice.write.eof().await.expect("the end sent");
    alice.hear_to_the_close().await;
    assert_eq!(alice.status, Some(0), "{}", alice.text());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn going_down_says_goodbye_to_every_session_in_sentences() {
    let mut server = Server::start(&[]);
    let mut sessions = Vec::new();
    for user in ["ann", "ben", "cat"] {
        let mut session = Sentences::open(&server, user, Ask::Command).await;
        session.write.data(&b"b2\n"[..]).await.expect("sent");
        session.hear("You play b2.").await;
        sessions.push(session);
    }
    server.signal(Signal::TERM);
    for session in &mut sessions {
        session.hear_to_the_close().await;
        let said = session.text();
        assert!(
            said.ends_with("tictactoe: the server is going down; goodbye\n"),
            "{said}"
        );
        // The server ended it, not the input.
        assert!(!said.contains("End of input"), "{said}");
        assert_eq!(session.status, Some(1));
    }
    assert_eq!(server.exit().await.code(), Some(0));
    assert!(!server.log().contains("cut off"), "{}", server.log());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_in_sentences_ends_with_its_connection() {
    let server = Server::start(&[]);
    let mut dan = Sentences::open(&server, "dan", Ask::Command).await;
    dan.write.data(&b"b2\n"[..]).await.expect("sent");
    dan.hear("You play b2.").await;
    // Gone without an end of input: the session does not play on.
    drop(dan);
    server.wait_log("disconnect dan from").await;
    assert!(
        server.log().contains("disconnect dan from 127.0.0.1"),
        "{}",
        server.log()
    );
    let log = server.log();
    let line = log
        .lines()
        .find(|line| line.contains("disconnect dan"))
        .expect("the line");
    assert!(line.ends_with(": connection closed"), "{line}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shell_without_a_terminal_plays_in_sentences_to_the_end_of_its_input() {
    let server = Server::start(&[]);
    let mut bob = Sentences::open(&server, "bob", Ask::Shell).await;
    bob.write.data(&b"5\n"[..]).await.expect("a line sent");
    bob.write.eof().await.expect("the end sent");
    bob.hear_to_the_close().await;
    let said = bob.text();
    assert_eq!(bob.status, Some(0), "{said}");
    assert!(said.contains("You play b2.\n"), "{said}");
    assert!(
        said.ends_with("End of input: the game was left unfinished.\n"),
        "{said}"
    );
    server.wait_log("disconnect bob").await;
}

/// A raw socket from `source` that the server has accepted (its version
/// line has arrived), and that sends nothing.
async fn silent(server: &Server, source: &str) -> TcpStream {
    let socket = TcpSocket::new_v4().expect("a socket");
    socket
        .bind(format!("{source}:0").parse().expect("an address"))
        .expect("a loopback source address");
    let mut stream = socket.connect(server.address).await.expect("connects");
    let mut line = Vec::new();
    let mut byte = [0u8; 1];
    while !line.ends_with(b"\n") {
        let read = tokio::time::timeout(PATIENCE, stream.read(&mut byte))
            .await
            .expect("the server's version line in time")
            .expect("reads");
        assert_eq!(read, 1, "closed before its version line: {line:?}");
        line.push(byte[0]);
    }
    assert!(line.starts_with(b"SSH-2.0-"), "{line:?}");
    stream
}

/// Reads a raw socket until the server closes it; what it said.
async fn until_closed(stream: &mut TcpStream) -> Vec<u8> {
    let mut said = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let read = tokio::time::timeout(PATIENCE, stream.read(&mut buf))
            .await
            .expect("closed in time");
        match read {
            Ok(0) | Err(_) => return said,
            Ok(n) => said.extend_from_slice(&buf[..n]),
        }
    }
}

fn key_line(key: &russh::keys::PrivateKey) -> String {
    key.public_key().to_openssh().expect("openssh format")
}

fn new_key() -> russh::keys::PrivateKey {
    russh::keys::PrivateKey::random(&mut rand::rng(), russh::keys::Algorithm::Ed25519)
        .expect("a key")
}

/// Logs in with `key` from `source`; whether the server let it in.
async fn log_in_with(
    server: &Server,
    key: &russh::keys::PrivateKey,
    source: &str,
) -> (bool, Connection) {
    use russh::keys::key::PrivateKeyWithHashAlg;
    let mut connection =
        Connection::handshake(server, source, Arc::new(AtomicBool::new(false))).await;
    let auth = connection
        .handle
        .authenticate_publickey(
            "guest",
            PrivateKeyWithHashAlg::new(Arc::new(key.clone()), None),
        )
        .await
        .expect("answers");
    (auth.success(), connection)
}

// Issue 18 point 1: places are for people, not sockets.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn silent_sockets_keep_no_player_out() {
    let server = Server::start(&[]);
    // Ten sockets from one address that never say a word...
    let mut held = Vec::new();
    for _ in 0..10 {
        held.push(silent(&server, "127.0.0.1").await);
    }
    // ...and a player from the same address still gets in.
    let alice = Player::join(&server, "alice").await;
    assert!(alice.contents().contains("you are alice"));
    server
        .wait_log("pushed out by newer connections (too many logging in)")
        .await;

    // Ten addresses with ten silent sockets each fill every login place:
    // a player from an eleventh address pushes out one of the crowd's.
    for address in 0..10 {
        for _ in 0..10 {
            held.push(silent(&server, &format!("127.0.1.{}", address + 1)).await);
        }
    }
    let bob = Connection::open(&server, "bob", "127.0.2.1")
        .await
        .play(COLS, ROWS, &[])
        .await;
    bob.wait_for(|s| s.contains("you are bob"), "bob in the lobby")
        .await;
}

// Issue 29 point 1: a churn of silent connections filled the login places
// and pushed out the oldest login overall, a real login taking its time. A
// login making progress is never pushed out while a silent one remains.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_login_taking_its_time_is_not_pushed_out_by_a_churn_of_silent_sockets() {
    let server = Server::start(&["--max-sessions", "4"]);
    // Alice's client is through the key exchange and has yet to authenticate.
    let mut alice =
        Connection::handshake(&server, "127.0.3.1", Arc::new(AtomicBool::new(false))).await;
    // Three times as many silent sockets as there are login places, each
    // from an address of its own.
    let mut held = Vec::new();
    for n in 0..12 {
        held.push(silent(&server, &format!("127.0.4.{}", n + 1)).await);
    }
    let auth = alice
        .handle
        .authenticate_keyboard_interactive_start("alice", None)
        .await
        .expect("alice's connection is still there");
    assert!(matches!(
        auth,
        client::KeyboardInteractiveAuthResponse::Success
    ));
    let alice = alice.play(COLS, ROWS, &[]).await;
    alice
        .wait_for(|s| s.contains("you are alice"), "alice in the lobby")
        .await;
    // The silent ones were pushed out, each by a newer one.
    server
        .wait_log("pushed out by newer connections (too many logging in)")
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn silent_sockets_keep_no_listed_key_out() {
    let guest = new_key();
    let keys = tempfile::NamedTempFile::new().expect("a file");
    std::fs::write(keys.path(), format!("{}\n", key_line(&guest))).expect("written");
    let server = Server::start(&["--authorized-keys", keys.path().to_str().expect("a path")]);
    let mut held = Vec::new();
    for _ in 0..10 {
        held.push(silent(&server, "127.0.0.1").await);
    }
    let (granted, connection) = log_in_with(&server, &guest, "127.0.0.1").await;
    assert!(granted, "a listed key gets in beside ten silent sockets");
    let player = connection.play(COLS, ROWS, &[]).await;
    player
        .wait_for(|s| s.contains("you are guest"), "the lobby")
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reconnecting_fast_is_refused_early_with_a_message_and_others_play() {
    // Two per address: four new connections at once, then two a minute.
    let server = Server::start(&["--max-per-address", "2"]);
    let mut held = Vec::new();
    for _ in 0..4 {
        held.push(silent(&server, "127.0.0.1").await);
    }
    let socket = TcpSocket::new_v4().expect("a socket");
    socket
        .bind("127.0.0.1:0".parse().expect("an address"))
        .expect("bound");
    let mut refused = socket.connect(server.address).await.expect("connects");
    let said = String::from_utf8_lossy(&until_closed(&mut refused).await).to_string();
    assert!(
        said.starts_with("tictactoe: too many new connections from your address"),
        "{said}"
    );
    assert!(
        said.contains("\r\nSSH-2.0-"),
        "an SSH client is told too: {said}"
    );
    server.wait_log("refused connection from 127.0.0.1:").await;
    // Another address is not held up.
    let bob = Connection::open(&server, "bob", "127.0.0.2")
        .await
        .play(COLS, ROWS, &[])
        .await;
    bob.wait_for(|s| s.contains("you are bob"), "bob in the lobby")
        .await;
}

/// Where the log says a connection from `address` ran out of its login
/// time (`timeout` as the log writes it).
async fn login_timed_out(server: &Server, address: &str, timeout: &str) -> usize {
    let line = format!("disconnect {address}:");
    server.wait_log(&line).await;
    let log = server.log();
    let at = log.find(&line).expect("logged");
    let ending = format!("not in the game {timeout} after connecting (--login-timeout)");
    assert!(
        log[at..]
            .lines()
            .next()
            .is_some_and(|l| l.ends_with(&ending)),
        "{log}"
    );
    at
}

// Issue 18 point 2: one deadline from the first byte, the version line included.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_login_deadline_counts_from_the_first_byte() {
    let server = Server::start(&["--login-timeout", "4"]);
    // `early` connects first and trickles its version line; `late` connects
    // two seconds later and sends nothing. `early` finishes its line after
    // that: counted from its first byte its time runs out two seconds before
    // `late`'s, counted from its version line it would outlast `late`. The
    // server's log says in which order it closed them.
    let mut early = silent(&server, "127.0.0.1").await;
    early.write_all(b"SSH-2.0-").await.expect("sent");
    tokio::time::sleep(Duration::from_secs(2)).await;
    let mut late = silent(&server, "127.0.0.2").await;
    for byte in b"trickle\r\n" {
        // Closed already, if the machine is slow enough: nothing more to send.
        if early.write_all(&[*byte]).await.is_err() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
    until_closed(&mut early).await;
    until_closed(&mut late).await;
    let early_at = login_timed_out(&server, "127.0.0.1", "4s").await;
    let late_at = login_timed_out(&server, "127.0.0.2", "4s").await;
    assert!(
        early_at < late_at,
        "the deadline counts from the first byte:\n{}",
        server.log()
    );
}

// Issue 18 point 3: the options of authorized_keys are enforced.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn authorized_keys_options_are_enforced() {
    let elsewhere = new_key();
    let expired = new_key();
    let no_pty = new_key();
    let command = new_key();
    let network = new_key();
    let keys = tempfile::NamedTempFile::new().expect("a file");
    std::fs::write(
        keys.path(),
        format!(
            "from=\"10.9.9.9\",no-pty,command=\"/bin/false\" {} elsewhere\n\
             expiry-time=\"19700101\" {} old\n\
             no-pty {} no terminal\n\
             command=\"/bin/false\" {} with a comment\n\
             from=\"127.0.0.0/8,!127.0.0.2\",no-agent-forwarding {} network\n",
            key_line(&elsewhere),
            key_line(&expired),
            key_line(&no_pty),
            key_line(&command),
            key_line(&network),
        ),
    )
    .expect("written");
    let server = Server::start(&["--authorized-keys", keys.path().to_str().expect("a path")]);
    assert!(
        !log_in_with(&server, &elsewhere, "127.0.0.1").await.0,
        "from= another address"
    );
    assert!(
        !log_in_with(&server, &expired, "127.0.0.1").await.0,
        "expired"
    );
    assert!(
        !log_in_with(&server, &network, "127.0.0.2").await.0,
        "a negated address"
    );
    let (granted, connection) = log_in_with(&server, &network, "127.0.0.3").await;
    assert!(granted, "inside the network");
    connection
        .play(COLS, ROWS, &[])
        .await
        .wait_for(|s| s.contains("you are guest"), "the lobby")
        .await;
    for (key, told) in [
        (&no_pty, "may not open a terminal"),
        (&command, "may only run its command"),
    ] {
        let (granted, connection) = log_in_with(&server, key, "127.0.0.1").await;
        assert!(granted, "logs in, but may not play");
        let player = connection.play(COLS, ROWS, &[]).await;
        player.wait_for(|s| s.contains(told), told).await;
        assert_eq!(player.closed().await, Some(1));
    }
}

/// Runs `tictactoe serve` expecting it to refuse to start: its status and standard error.
fn refused_start(args: &[&str], home: &std::path::Path) -> (Option<i32>, String) {
    let mut child = support::binary()
        .env("HOME", home)
        .env("XDG_DATA_HOME", home.join("data"))
        .args(["serve", "--listen", "127.0.0.1:0"])
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    let deadline = Instant::now() + PATIENCE;
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the server did not refuse {args:?}: it hangs or runs");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().expect("stderr"), &mut err)
        .expect("stderr");
    (status.code(), err)
}

/// An RSA public key as `ssh-keygen -t rsa -b 2048` writes it: a key the
/// server cannot check, so it is skipped with a warning.
const RSA_PUBLIC: &str = concat!(
    "ssh-rsa ",
    "AAAAB3NzaC1yc2EAAAADAQABAAABAQDr7Jx7A1PWtturReF0Td51ZU87JrOz8JY+",
    "nlGa6EreRoTpVIsKrWxpeGor4Xyi8ulz+CvzMwy1u6rXA5CDU06aefedfoYKyP3Z",
    "VgcbQ+/qYS2DXsUNfQFwlfIDlLMiVc1WnIRbDYLigKkNuWHHxlSSDDl3w7Uvx67m",
    "HihzyiFX7A52pmhVhUTow+m4J0+gui1zXBSln5CgX2SAprWNVE2WX6Od9LvnL3qo",
    "SyfwgsYeDOQtCR7fLJ3895BpV7n0+T9GZ/jlq5P39N7QDQoP4OqrrS9qSrlc9SC8",
    "KkxYgm6Mqp/WbFYplBy36XFoXzptyXb4GW/Wm8GAheq7BNGpX+33",
);

/// Writes a new ed25519 private key as OpenSSH does, protected by
/// `passphrase` unless it is empty, with file mode `mode`.
fn write_private_key(path: &std::path::Path, passphrase: &str, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    let mut key = new_key();
    if !passphrase.is_empty() {
        key = key
            .encrypt(&mut rand::rng(), passphrase)
            .expect("an encrypted key");
    }
    let text = key
        .to_openssh(russh::keys::ssh_key::LineEnding::LF)
        .expect("openssh format");
    std::fs::write(path, text.as_bytes()).expect("written");
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("chmod");
}

// Issue 18 point 4: the key files are checked before anything is read.
#[test]
fn unusable_key_files_stop_the_start_with_one_line() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("a directory");
    let path = |name: &str| dir.path().join(name);
    let text = |name: &str| path(name).to_str().expect("a path").to_string();
    write_private_key(&path("locked"), "secret", 0o600);
    write_private_key(&path("open"), "", 0o644);
    std::fs::write(path("rsa.pub"), format!("{RSA_PUBLIC}\n")).expect("written");
    let fifo = text("fifo");
    support::named_pipe(&path("fifo"));
    std::fs::write(path("huge"), vec![b'#'; 2 << 20]).expect("written");
    std::fs::set_permissions(path("huge"), std::fs::Permissions::from_mode(0o600)).expect("chmod");
    std::fs::write(
        path("options"),
        format!("cert-authority {}\n", key_line(&new_key())),
    )
    .expect("written");
    let host_key = text("host");
    // Issue 29 point 8: an empty key file, and a key of another kind than the help says.
    std::fs::write(path("empty"), "").expect("written");
    std::fs::set_permissions(path("empty"), std::fs::Permissions::from_mode(0o600)).expect("chmod");
    let made = Command::new("ssh-keygen")
        .args(["-q", "-t", "rsa", "-b", "2048", "-N", "", "-f"])
        .arg(path("rsa"))
        .status()
        .expect("ssh-keygen runs");
    assert!(made.success());
    for (args, says) in [
        (
            vec!["--host-key", &text("empty")],
            "host key {}: empty; remove it and a new key is made at the next start",
        ),
        (
            vec!["--host-key", &text("rsa")],
            "an ssh-rsa key; the server's key is ed25519",
        ),
        (
            vec!["--host-key", &text("locked")],
            "protected by a passphrase",
        ),
        (
            vec!["--host-key", &text("open")],
            "readable by others (mode 0644)",
        ),
        (vec!["--host-key", &fifo], "is a named pipe, not a file"),
        (vec!["--host-key", "/dev/zero"], "is a device, not a file"),
        (
            vec!["--host-key", &text("huge")],
            "2,097,152 bytes, more than the 65,536 read",
        ),
        (
            vec!["--host-key", &host_key, "--authorized-keys", &fifo],
            "is a named pipe",
        ),
        (
            vec!["--host-key", &host_key, "--authorized-keys", "/dev/zero"],
            "is a device",
        ),
        (
            vec![
                "--host-key",
                &host_key,
                "--authorized-keys",
                &text("rsa.pub"),
            ],
            "no key that can log in here",
        ),
        (
            vec![
                "--host-key",
                &host_key,
                "--authorized-keys",
                &text("options"),
            ],
            "the option cert-authority is not supported",
        ),
    ] {
        let (status, err) = refused_start(&args, dir.path());
        assert_eq!(status, Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: one line: {err}");
        let says = says.replace("{}", args[1]);
        assert!(
            err.starts_with("error: ") && err.contains(&says),
            "{args:?}: {err}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn key_folders_are_private_whatever_the_umask_and_unusable_keys_are_named() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("a directory");
    let keys = dir.path().join("keys");
    let guest = new_key();
    std::fs::write(&keys, format!("{RSA_PUBLIC}\n{}\n", key_line(&guest))).expect("written");
    let host_key = dir.path().join("a/b/host_key");
    let mut child = Command::new("sh")
        .arg("-c")
        .arg("umask 000; exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_tictactoe"))
        .args(["serve", "--listen", "127.0.0.1:0", "--host-key"])
        .arg(&host_key)
        .arg("--authorized-keys")
        .arg(&keys)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("the start line");
    assert!(line.contains("listening on"), "{line}");
    let _ = child.kill();
    let _ = child.wait();
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().expect("stderr"), &mut err)
        .expect("stderr");
    assert!(
        err.contains("line 1: ssh-rsa keys cannot log in here"),
        "the RSA key is named: {err}"
    );
    let mode = |path: &std::path::Path| {
        std::fs::metadata(path).expect("there").permissions().mode() & 0o777
    };
    assert_eq!(mode(&dir.path().join("a")), 0o700);
    assert_eq!(mode(&dir.path().join("a/b")), 0o700);
    assert_eq!(mode(&host_key), 0o600);
}

// Issue 18 point 5: keys beyond a rate are dropped, and the player told once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_keys_is_cut_to_the_rate_and_the_player_told() {
    let server = Server::start(&[]);
    let mallory = Player::join(&server, "mallory").await;
    mallory.press(&"xo".repeat(1000)).await;
    mallory
        .wait_for(|s| s.contains("Keys came faster than 50 a second"), "told")
        .await;
    // Once the keys slow down, the run of dropped keys is logged, and keys count again.
    server.wait_log("keys from mallory: ").await;
    assert!(
        server
            .log()
            .contains(" dropped (over 100 at once or 50 a second)")
    );
    mallory.press("o").await;
    mallory
        .wait_for(
            |s| s.contains("you play O") && !s.contains("Keys came"),
            "the key taken",
        )
        .await;
}

// Issue 29 point 5: window changes are rate limited as keys are (a flood
// of 80,646 of them held the server at 53-87 % CPU), the newest size winning.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_window_changes_is_cut_to_the_rate_and_the_newest_size_wins() {
    /// Sizes taken at once, then a second (crates/serve/src/limit.rs).
    const BURST: f64 = 20.0;
    const RATE: f64 = 10.0;
    let server = Server::start(&[]);
    let mallory = Player::join(&server, "mallory").await;
    let before = mallory.clears.load(Ordering::SeqCst);
    let started = Instant::now();
    // Every change of size redraws the whole screen, cleared first.
    for i in 0..2_000u32 {
        let (cols, rows) = if i % 2 == 0 { (250, 100) } else { (200, 60) };
        mallory
            .write
            .window_change(cols, rows, 0, 0)
            .await
            .expect("sent");
    }
    // The last size is the one drawn at, once its turn comes.
    mallory
        .write
        .window_change(100, 30, 0, 0)
        .await
        .expect("sent");
    mallory
        .screen
        .lock()
        .expect("screen")
        .set_size(nonzero(30), nonzero(100));
    mallory
        .wait_for_screen(
            |screen| {
                let rows: Vec<String> = screen.rows(0, 100).collect();
                // The lists' frame runs to the last of the 100 columns.
                rows[0].contains("Tic-tac-toe lobby")
                    && rows[2].trim_end().chars().count() == 100
                    && rows[2].trim_end().ends_with('┐')
                    && rows.iter().any(|row| row.contains("q quit"))
            },
            "the lobby drawn at the last size",
        )
        .await;
    let drawn = mallory.clears.load(Ordering::SeqCst) - before;
    let most = BURST + RATE * started.elapsed().as_secs_f64() + 2.0;
    assert!(
        (drawn as f64) <= most,
        "{drawn} screens drawn whole in {:?}, where the rate allows {most}",
        started.elapsed()
    );
}

// Issue 18 point 6: an idle session's memory does not follow its terminal's size.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_sessions_on_the_largest_screens_take_under_a_megabyte_each() {
    let server = Server::start(&["--max-per-address", "100"]);
    let pid = server.child.id();
    let rss = || -> u64 {
        std::fs::read_to_string(format!("/proc/{pid}/status"))
            .expect("the server's status")
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.split_whitespace().next()?.parse().ok())
            .expect("a resident size")
    };
    let first = Connection::open(&server, "p0", "127.0.0.1")
        .await
        .play(300, 120, &[])
        .await;
    first.wait_for(|s| s.contains("q quit"), "the lobby").await;
    let before = rss();
    let mut players = Vec::new();
    for i in 1..=20 {
        let player = Connection::open(&server, &format!("p{i}"), "127.0.0.1")
            .await
            .play(300, 120, &[])
            .await;
        player.wait_for(|s| s.contains("q quit"), "the lobby").await;
        players.push(player);
    }
    let per_session = rss().saturating_sub(before) / 20;
    assert!(
        per_session < 1024,
        "{per_session} KB per idle session at 300x120"
    );
}

// Issue 18 point 7: refused requests close the connection before they flood the log.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_few_refused_requests_close_the_connection() {
    let server = Server::start(&[]);
    let eve = Connection::open(&server, "eve", "127.0.0.1").await;
    let mut asked = 0;
    while !eve.handle.is_closed() && asked < 50 {
        let _ = eve
            .handle
            .channel_open_direct_tcpip("127.0.0.1", 22, "127.0.0.1", 5000)
            .await;
        asked += 1;
    }
    assert!(eve.handle.is_closed(), "still open after {asked} refusals");
    server.wait_log("disconnect 127.0.0.1:").await;
    server.wait_log("too many refused requests").await;
    // The fifth refusal closes the connection: nothing after it is read.
    let lines = server.log().matches("refused port forwarding").count();
    assert_eq!(lines, 5, "{}", server.log());
    // Others are still served.
    Player::join(&server, "bob").await;
}

// Issue 18 point 8: look-alike names, SIGHUP, and a client that reads nothing at shutdown.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_mixing_scripts_or_with_combining_marks_are_refused() {
    let server = Server::start(&[]);
    for (user, told) in [
        ("\u{430}lice", "mixes scripts (Cyrillic, Latin)"),
        ("jose\u{301}", "combining marks"),
    ] {
        let player = Connection::open(&server, user, "127.0.0.1")
            .await
            .play(COLS, ROWS, &[])
            .await;
        player.wait_for(|s| s.contains(told), told).await;
        assert_eq!(player.closed().await, Some(1));
    }
    let jose = Player::join(&server, "José").await;
    assert!(jose.contents().contains("you are José"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sighup_tells_every_client_and_exits_zero() {
    let mut server = Server::start(&[]);
    let alice = Player::join(&server, "alice").await;
    server.signal(Signal::HUP);
    alice
        .wait_for(|s| s.contains("the server is going down"), "the goodbye")
        .await;
    assert_eq!(alice.closed().await, Some(1));
    assert_eq!(server.exit().await.code(), Some(0), "{}", server.log());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn going_down_a_client_that_reads_nothing_is_not_waited_for() {
    let mut server = Server::start(&["--send-timeout", "600"]);
    let frozen = Arc::new(AtomicBool::new(false));
    let stuck = Connection::open_with(&server, "stuck", "127.0.0.1", Arc::clone(&frozen))
        .await
        .play(COLS, ROWS, &[])
        .await;
    stuck.wait_for(|s| s.contains("q quit"), "the lobby").await;
    frozen.store(true, Ordering::SeqCst);
    let alice = Player::join(&server, "alice").await;
    server.signal(Signal::TERM);
    alice
        .wait_for(|s| s.contains("the server is going down"), "the goodbye")
        .await;
    assert_eq!(server.exit().await.code(), Some(0), "{}", server.log());
    server.wait_log("disconnect stuck from 127.0.0.1").await;
}

// Issue 19 point 6: a game the other player left takes no more moves, and looks it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_the_other_player_left_shows_no_digits_and_no_cursor() {
    let server = Server::start(&[]);
    let (alice, bob) = paired(&server).await;
    let digits_and_cursor = |screen: &vt100::Screen| {
        let board = screen_support::board(COLS as u16, ROWS as u16);
        let mut digits = 0;
        let mut reversed = 0;
        for index in 0..9 {
            let rect = board.cell_rect(Square::from_index(index, 3));
            for y in rect.y..rect.y + rect.height {
                for x in rect.x..rect.x + rect.width {
                    let cell = screen.cell(y, x).expect("a cell");
                    digits += usize::from(cell.contents() == (index + 1).to_string());
                    reversed += usize::from(cell.inverse());
                }
            }
        }
        (digits, reversed)
    };
    alice
        .wait_for_screen(
            |s| digits_and_cursor(s).0 == 9 && digits_and_cursor(s).1 > 0,
            "digits and the cursor",
        )
        .await;
    drop(bob);
    alice.wait_for(|s| s.contains("bob left"), "told").await;
    alice
        .wait_for_screen(|s| digits_and_cursor(s) == (0, 0), "no digits, no cursor")
        .await;
}

// Issue 31: ranked play that survives a dropped connection.

/// Logs in with `key` as `name` and opens the game.
async fn keyed(server: &Server, key: &russh::keys::PrivateKey, name: &str) -> Player {
    use russh::keys::key::PrivateKeyWithHashAlg;
    let mut connection =
        Connection::handshake(server, "127.0.0.1", Arc::new(AtomicBool::new(false))).await;
    let auth = connection
        .handle
        .authenticate_publickey(
            name,
            PrivateKeyWithHashAlg::new(Arc::new(key.clone()), None),
        )
        .await
        .expect("answers");
    assert!(auth.success(), "any key gets in without a guest list");
    connection.play(COLS, ROWS, &[]).await
}

/// Runs `command` as `key`'s player: its output, what it said on
/// standard error, and its exit status.
async fn command(
    server: &Server,
    key: &russh::keys::PrivateKey,
    name: &str,
    command: &str,
) -> (String, String, Option<u32>) {
    use russh::keys::key::PrivateKeyWithHashAlg;
    let mut connection =
        Connection::handshake(server, "127.0.0.1", Arc::new(AtomicBool::new(false))).await;
    let auth = connection
        .handle
        .authenticate_publickey(
            name,
            PrivateKeyWithHashAlg::new(Arc::new(key.clone()), None),
        )
        .await
        .expect("answers");
    assert!(auth.success());
    let mut channel = connection
        .handle
        .channel_open_session()
        .await
        .expect("a session channel");
    channel
        .exec(true, command)
        .await
        .expect("the command is sent");
    let (mut out, mut err, mut status) = (String::new(), String::new(), None);
    loop {
        let message = tokio::time::timeout(PATIENCE, channel.wait())
            .await
            .expect("the command ends in time");
        match message {
            Some(ChannelMsg::Data { data }) => out.push_str(&String::from_utf8_lossy(&data)),
            Some(ChannelMsg::ExtendedData { data, .. }) => {
                err.push_str(&String::from_utf8_lossy(&data))
            }
            Some(ChannelMsg::ExitStatus { exit_status }) => status = Some(exit_status),
            Some(ChannelMsg::Close) | None => return (out, err, status),
            Some(_) => {}
        }
    }
}

impl Player {
    /// Clicks square `at` (`b2`) of a board of side `size`.
    async fn click(&self, size: u8, at: &str) {
        let square = tictactoe_engine::Board::empty(size, size.min(4))
            .map(|b| b.geometry())
            .ok()
            .and_then(|g| g.parse_square(at).ok())
            .expect("a square");
        let cell = screen_support::board_of(size, COLS as u16, ROWS as u16).cell_rect(square);
        let (x, y) = (cell.x + cell.width / 2 + 1, cell.y + cell.height / 2 + 1);
        self.press(&format!("\x1b[<0;{x};{y}M\x1b[<0;{x};{y}m"))
            .await;
    }

    /// Seeks a game on the board `b` presses away, rated when `rated`.
    async fn seek(&self, boards: usize, rated: bool) {
        self.press(&"b".repeat(boards)).await;
        if rated {
            self.press("r").await;
        }
        self.wait_for(
            |s| s.contains(if rated { "rated (r)" } else { "casual (r)" }),
            "the choice",
        )
        .await;
        self.press("f").await;
    }
}

/// alice (X) and bob (O) play `moves` on 4x4 with 3 in a row, each move
/// waited for on both screens.
async fn play_moves(alice: &Player, bob: &Player, moves: &[&str]) {
    for (i, at) in moves.iter().enumerate() {
        let (mover, other) = if i % 2 == 0 {
            (alice, bob)
        } else {
            (bob, alice)
        };
        mover.wait_for(|s| s.contains("Your turn"), "a turn").await;
        mover.click(4, at).await;
        // The move list says "3 X b1".
        let side = if i % 2 == 0 { 'X' } else { 'O' };
        let shown = format!("{} {side} {at}", i + 1);
        for player in [mover, other] {
            player
                .wait_for(|s| s.contains(&shown), &format!("{shown} in the list"))
                .await;
        }
    }
}

/// The leaderboard as `leaderboard --json` says it: name, rating, deviation, volatility.
async fn leaderboard(
    server: &Server,
    key: &russh::keys::PrivateKey,
    name: &str,
) -> Vec<(String, f64, f64, f64)> {
    let (out, err, status) = command(server, key, name, "leaderboard --json").await;
    assert_eq!(status, Some(0), "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    json["boards"][0]["players"]
        .as_array()
        .map(|players| {
            players
                .iter()
                .map(|p| {
                    (
                        p["name"].as_str().unwrap_or_default().to_string(),
                        p["rating"].as_f64().unwrap_or_default(),
                        p["deviation"].as_f64().unwrap_or_default(),
                        p["volatility"].as_f64().unwrap_or_default(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

/// alice and bob, each with a key, seated at a rated 4x4 game (3 in a row).
async fn rated_pair(
    server: &Server,
) -> (
    Player,
    Player,
    russh::keys::PrivateKey,
    russh::keys::PrivateKey,
) {
    let (alice_key, bob_key) = (new_key(), new_key());
    let alice = keyed(server, &alice_key, "alice").await;
    let bob = keyed(server, &bob_key, "bob").await;
    for player in [&alice, &bob] {
        player.wait_for(|s| s.contains("q quit"), "the lobby").await;
    }
    alice.seek(1, true).await;
    alice
        .wait_for(|s| s.contains("Waiting for an opponent"), "waiting")
        .await;
    // bob takes alice's seek from the list.
    bob.wait_for(|s| s.contains("4x4 k=3 · rated"), "the seek listed")
        .await;
    bob.press("\r").await;
    for player in [&alice, &bob] {
        player
            .wait_for(
                |s| s.contains("4x4, 3 in a row · rated") && s.contains("alice (1500?): X"),
                "the rated game",
            )
            .await;
    }
    (alice, bob, alice_key, bob_key)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_rates_both_players_as_glicko_2_does_and_shows_in_leaderboard_and_history() {
    use skillratings::Outcomes;
    use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};
    let server = Server::start(&[]);
    let (alice, bob, alice_key, bob_key) = rated_pair(&server).await;
    // X takes the top row: a1 b1 c1.
    play_moves(&alice, &bob, &["a1", "a2", "b1", "b2", "c1"]).await;
    alice
        .wait_for(|s| s.contains("X wins: you win!"), "the win")
        .await;
    bob.wait_for(|s| s.contains("X wins: you lose"), "the loss")
        .await;
    server
        .wait_log("game end alice (X) vs bob (O): X wins")
        .await;

    let (x, o) = glicko2(
        &Glicko2Rating::new(),
        &Glicko2Rating::new(),
        &Outcomes::WIN,
        &Glicko2Config::new(),
    );
    let board = leaderboard(&server, &bob_key, "bob").await;
    assert_eq!(
        board,
        vec![
            ("alice".to_string(), x.rating, x.deviation, x.volatility),
            ("bob".to_string(), o.rating, o.deviation, o.volatility),
        ]
    );
    // Both screens show the new ratings, provisional after one game.
    alice
        .wait_for(
            |s| s.contains(&format!("alice ({:.0}?): X", x.rating)),
            "the new rating",
        )
        .await;

    let (text, _, status) = command(&server, &alice_key, "alice", "leaderboard").await;
    assert_eq!(status, Some(0));
    let first = text
        .lines()
        .find(|line| line.trim_start().starts_with("1. "));
    assert!(text.contains("\n4x4 k=3\n"), "{text}");
    assert_eq!(
        first.map(|line| line.split_whitespace().collect::<Vec<_>>()),
        Some(vec![
            "1.",
            "alice",
            &format!("{:.0}?", x.rating),
            "1",
            "game"
        ]),
        "{text}"
    );

    // The history is a records file: tictactoe review reads it.
    let (history, err, status) = command(&server, &bob_key, "bob", "history").await;
    assert_eq!(status, Some(0), "{err}");
    assert!(history.contains("[Outcome \"x-wins\"]"), "{history}");
    assert!(history.contains("1. a1 a2 2. b1 b2 3. c1 1-0"), "{history}");
    let mut review = support::binary()
        .args(["review", "--json", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("review runs");
    std::io::Write::write_all(&mut review.stdin.take().expect("stdin"), history.as_bytes())
        .expect("written");
    let reviewed = review.wait_with_output().expect("review ends");
    assert!(
        reviewed.status.success(),
        "{}",
        String::from_utf8_lossy(&reviewed.stderr)
    );
    let last = String::from_utf8_lossy(&reviewed.stdout)
        .lines()
        .last()
        .map(str::to_string);
    let last: serde_json::Value = serde_json::from_str(&last.expect("a line")).expect("JSON");
    assert_eq!(
        (last["result"].as_str(), last["plies"].as_u64()),
        (Some("x-wins"), Some(5))
    );

    let (json, _, _) = command(&server, &bob_key, "bob", "history --json").await;
    let json: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    let game = &json["games"][0];
    assert_eq!(game["result"], "x-wins");
    assert_eq!(game["you"], "o");
    assert_eq!(
        game["moves"],
        serde_json::json!(["a1", "a2", "b1", "b2", "c1"])
    );
    assert_eq!(json["ratings"][0]["rating"].as_f64(), Some(o.rating));

    // A guest (no key) has no history.
    let (_, err, status) = {
        let connection = Connection::open(&server, "carol", "127.0.0.1").await;
        let mut channel = connection
            .handle
            .channel_open_session()
            .await
            .expect("a channel");
        channel.exec(true, "history").await.expect("sent");
        let (said, status) = to_the_end(&mut channel).await;
        ((), said, status)
    };
    assert_eq!(status, Some(1));
    assert!(err.contains("history is a key's"), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_with_no_games_kept_gets_an_empty_records_file_and_a_note_why() {
    let server = Server::start(&[]);
    let key = new_key();
    let (out, err, status) = command(&server, &key, "dana", "history").await;
    assert_eq!((out.as_str(), status), ("", Some(0)));
    assert!(err.contains("no games of this key's are kept yet"), "{err}");
    let (json, err, status) = command(&server, &key, "dana", "history --json").await;
    let json: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(json["games"], serde_json::json!([]));
    assert_eq!((err.as_str(), status), ("", Some(0)));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_name_taken_by_another_key_is_refused() {
    let server = Server::start(&[]);
    let alice = keyed(&server, &new_key(), "alice").await;
    alice
        .wait_for(|s| s.contains("you are alice"), "the lobby")
        .await;
    let impostor = keyed(&server, &new_key(), "alice").await;
    impostor
        .wait_for(
            |s| s.contains("the name alice belongs to another player's key"),
            "the refusal",
        )
        .await;
    assert_eq!(impostor.closed().await, Some(1));
    // A guest may not take it either.
    let guest = Connection::open(&server, "alice", "127.0.0.1")
        .await
        .play(COLS, ROWS, &[])
        .await;
    guest
        .wait_for(
            |s| s.contains("belongs to another player's key"),
            "the refusal",
        )
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_player_comes_back_within_the_grace_and_finishes_the_game() {
    let server = Server::start(&["--reconnect-grace", "120"]);
    let (alice, bob, _, bob_key) = rated_pair(&server).await;
    play_moves(&alice, &bob, &["a1", "a2", "b1"]).await;
    let carol = Player::join(&server, "carol").await;
    carol.press("w").await;
    carol
        .wait_for(|s| s.contains("bob (O) to move"), "watching")
        .await;

    drop(bob);
    for told in [&alice, &carol] {
        told.wait_for(
            |s| s.contains("bob (O) is away:") && s.contains("left to come back"),
            "away",
        )
        .await;
    }
    server.wait_log("away bob from alice (X) vs bob (O)").await;

    // The same key logs in again: the game, as it was.
    let bob = keyed(&server, &bob_key, "bob").await;
    bob.wait_for(
        |s| s.contains("Your turn: you are O") && s.contains("3 X b1"),
        "the game again",
    )
    .await;
    alice
        .wait_for(|s| s.contains("bob's turn (O)"), "bob is back")
        .await;
    // bob lets X finish the row: X wins.
    bob.click(4, "d4").await;
    alice
        .wait_for(|s| s.contains("Your turn"), "alice's turn")
        .await;
    alice.click(4, "c1").await;
    bob.wait_for(|s| s.contains("X wins: you lose"), "the end")
        .await;
    carol
        .wait_for(|s| s.contains("alice (X) wins"), "the end watched")
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_who_does_not_come_back_forfeits_a_rated_loss() {
    let server = Server::start(&["--reconnect-grace", "1"]);
    let (alice, bob, alice_key, _) = rated_pair(&server).await;
    play_moves(&alice, &bob, &["a1", "a2", "b1", "b2"]).await;
    drop(bob);
    alice
        .wait_for(|s| s.contains("bob did not come back"), "the forfeit")
        .await;
    server
        .wait_log("game end alice (X) vs bob (O): bob did not come back")
        .await;
    let board = leaderboard(&server, &alice_key, "alice").await;
    let names: Vec<&str> = board.iter().map(|(name, ..)| name.as_str()).collect();
    assert_eq!(names, ["alice", "bob"]);
    assert!(board[0].1 > 1500.0 && board[1].1 < 1500.0, "{board:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_early_drop_that_never_comes_back_aborts_unrated() {
    let server = Server::start(&["--reconnect-grace", "1"]);
    let (alice, bob, alice_key, _) = rated_pair(&server).await;
    play_moves(&alice, &bob, &["a1", "a2"]).await;
    drop(bob);
    alice
        .wait_for(
            |s| s.contains("bob did not come back: aborted, unrated"),
            "the abort",
        )
        .await;
    assert!(leaderboard(&server, &alice_key, "alice").await.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_login_with_one_key_takes_the_seat_and_the_first_is_told() {
    let server = Server::start(&[]);
    let (alice, bob, _, bob_key) = rated_pair(&server).await;
    play_moves(&alice, &bob, &["a1"]).await;
    let again = keyed(&server, &bob_key, "bob").await;
    again
        .wait_for(
            |s| s.contains("Your turn: you are O") && s.contains("1 X a1"),
            "the seat",
        )
        .await;
    bob.wait_for(
        |s| s.contains("logged in again from another connection"),
        "told why",
    )
    .await;
    assert_eq!(bob.closed().await, Some(1));
    again.click(4, "d4").await;
    alice
        .wait_for(|s| s.contains("Your turn") && s.contains("d4"), "the move")
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_sigkill_mid_game_a_restart_restores_the_game_and_both_go_on() {
    let server = Server::start(&[]);
    let (alice, bob, alice_key, bob_key) = rated_pair(&server).await;
    play_moves(&alice, &bob, &["a1", "a2", "b1", "b2"]).await;
    drop((alice, bob));
    let server = server.killed_and_restarted(&[]).await;
    server.wait_log("game restored alice (X) vs bob (O)").await;
    let alice = keyed(&server, &alice_key, "alice").await;
    alice
        .wait_for(
            |s| s.contains("4 O b2") && s.contains("bob (O) is away"),
            "the game restored",
        )
        .await;
    let bob = keyed(&server, &bob_key, "bob").await;
    bob.wait_for(|s| s.contains("alice's turn (X)"), "bob's seat")
        .await;
    alice
        .wait_for(|s| s.contains("Your turn: you are X"), "alice's turn")
        .await;
    alice.click(4, "c1").await;
    bob.wait_for(|s| s.contains("X wins: you lose"), "the end")
        .await;
    let board = leaderboard(&server, &alice_key, "alice").await;
    assert_eq!(board.len(), 2, "the game restored was rated as it ended");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unusable_databases_are_refused_at_start_and_left_as_they_were() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("a folder");
    let home = dir.path().join("home");
    std::fs::create_dir_all(&home).expect("a home");
    let key = dir.path().join("host_key");
    let path = |name: &str| dir.path().join(name);
    std::fs::write(
        path("notes.txt"),
        "shopping: eggs, milk, and a database of nothing\n",
    )
    .expect("written");
    rusqlite::Connection::open(path("other.db"))
        .and_then(|db| db.execute_batch("CREATE TABLE t (x); INSERT INTO t VALUES (42);"))
        .expect("another program's database");
    // A database of this program's, made by a first start and left by SIGTERM.
    let made = path("made.db");
    let mut first = Server::start(&["--db", made.to_str().expect("a path")]);
    first.signal(Signal::TERM);
    assert!(first.exit().await.success());
    let start = |db: &std::path::Path| {
        refused_start(
            &[
                "--host-key",
                key.to_str().expect("a path"),
                "--db",
                db.to_str().expect("a path"),
            ],
            &home,
        )
    };
    for name in ["newer.db", "readonly.db", "locked.db"] {
        std::fs::copy(&made, path(name)).expect("copied");
    }
    rusqlite::Connection::open(path("newer.db"))
        .and_then(|db| db.execute_batch("PRAGMA user_version = 99;"))
        .expect("a newer schema");
    std::fs::set_permissions(path("readonly.db"), std::fs::Permissions::from_mode(0o444))
        .expect("chmod");
    let holder = rusqlite::Connection::open(path("locked.db")).expect("opened");
    holder.execute_batch("BEGIN IMMEDIATE;").expect("locked");
    for (name, said) in [
        ("notes.txt", "not a tictactoe database (not an SQLite file)"),
        (
            "other.db",
            "not a tictactoe database (an SQLite database of another program)",
        ),
        (
            "newer.db",
            "made by a newer tictactoe (schema 99; this one reads up to 1)",
        ),
        (
            "readonly.db",
            "read-only (the file's mode allows no writing)",
        ),
        ("locked.db", "locked by another program"),
    ] {
        let before = std::fs::read(path(name)).expect("read");
        let (status, err) = start(&path(name));
        assert_eq!(status, Some(2), "{name}: {err}");
        assert_eq!(err.lines().count(), 1, "{name}: one line: {err}");
        assert!(err.contains(said), "{name}: {err}");
        assert_eq!(
            std::fs::read(path(name)).expect("read"),
            before,
            "{name} is as it was"
        );
    }
    drop(holder);
}

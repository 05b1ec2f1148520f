//! The SSH client the server's tests use: `tictactoe serve` started on an
//! ephemeral port with its log read line by line ([`Server`]), connections
//! by russh's client as a guest or with a key ([`Connection`]), a player
//! with the game on a vt100 screen ([`Player`]) or in sentences without a
//! terminal ([`Sentences`]), raw sockets, and commands. Every wait is for a
//! state (a screen, a log line, an exit) through [`eventually`] or a
//! timeout of [`PATIENCE`]: a slow machine waits longer, never fails.

use std::net::SocketAddr;
use std::num::NonZeroU16;
use std::process::{Child, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::Instant;

use russh::client::{self, Msg};
use russh::{ChannelMsg, ChannelWriteHalf};
use rustix::process::{Pid, Signal, kill_process};
use tokio::io::AsyncReadExt;
use tokio::net::{TcpSocket, TcpStream};

use super::frozen::Freezable;
use super::screen as screen_support;
use super::server::{self, Trusting};

/// How long to wait for what should take milliseconds.
pub use super::PATIENCE;
use super::Pacing;
/// The terminal a player opens, unless a test says otherwise.
pub const COLS: u32 = 80;
pub const ROWS: u32 = 24;

/// [`super::eventually`] for async tests: asks `ready` at the same
/// [`Pacing`] until it gives a value; a test still waiting after
/// [`PATIENCE`] fails, saying `why`.
pub async fn eventually<T>(
    mut ready: impl FnMut() -> Option<T>,
    why: impl FnOnce() -> String,
) -> T {
    let mut pacing = Pacing::new();
    loop {
        if let Some(value) = ready() {
            return value;
        }
        match pacing.next() {
            Some(pause) => tokio::time::sleep(pause).await,
            None => panic!("{} (still waiting after {PATIENCE:?})", why()),
        }
    }
}

/// A running server with its log.
pub struct Server {
    pub child: Child,
    pub address: SocketAddr,
    pub fingerprint: String,
    /// The log's lines as they come, and the log so far.
    pub log: Mutex<(mpsc::Receiver<(Instant, String)>, String)>,
    pub dir: Option<tempfile::TempDir>,
}

impl Server {
    pub fn start(args: &[&str]) -> Server {
        Server::start_in(tempfile::tempdir().expect("a temporary directory"), args)
    }

    /// A server whose host key, home and database are in `dir`.
    pub fn start_in(dir: tempfile::TempDir, args: &[&str]) -> Server {
        Server::start_limited(dir, args, None)
    }

    /// The database file of a server started in `dir` without `--db`.
    pub fn database(&self) -> std::path::PathBuf {
        let dir = self.dir.as_ref().expect("a folder").path();
        dir.join("home/data/tictactoe/tictactoe.db")
    }

    /// As [`Server::start_in`], no file it writes growing past
    /// `file_size` bytes (RLIMIT_FSIZE, SIGXFSZ left as it is: the server
    /// must not die of it).
    pub fn start_limited(dir: tempfile::TempDir, args: &[&str], file_size: Option<u64>) -> Server {
        let key = dir.path().join("host_key");
        let home = dir.path().join("home");
        std::fs::create_dir_all(&home).expect("a home");
        let mut command = super::binary();
        command
            .env("HOME", &home)
            .env("XDG_DATA_HOME", home.join("data"))
            .arg("serve")
            .args(["--listen", "127.0.0.1:0", "--host-key"])
            .arg(&key)
            .args(args);
        if let Some(bytes) = file_size {
            use std::os::unix::process::CommandExt;
            let limit = rustix::process::Rlimit {
                current: Some(bytes),
                maximum: Some(bytes),
            };
            // SAFETY: setrlimit is async-signal-safe and touches no memory of the parent.
            unsafe {
                command.pre_exec(move || {
                    rustix::process::setrlimit(rustix::process::Resource::Fsize, limit)
                        .map_err(std::io::Error::from)
                });
            }
        }
        let started = server::start(&mut command);
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

    /// Stops the server with SIGTERM and starts another on the same files,
    /// no file growing past `file_size` bytes when given.
    pub async fn stopped_and_restarted(mut self, args: &[&str], file_size: Option<u64>) -> Server {
        self.signal(Signal::TERM);
        self.exit().await;
        let dir = self.dir.take().expect("a folder");
        Server::start_limited(dir, args, file_size)
    }

    /// Kills the server with SIGKILL (nothing is said, nothing is
    /// flushed) and starts another on the same files.
    pub async fn killed_and_restarted(mut self, args: &[&str]) -> Server {
        self.signal(Signal::KILL);
        self.exit().await;
        let dir = self.dir.take().expect("a folder");
        Server::start_in(dir, args)
    }

    /// Files the server wrote in its user's home (its database: nothing else is kept).
    pub fn files_at_home(&self) -> Vec<std::path::PathBuf> {
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
    pub fn log(&self) -> String {
        let mut guard = self.log.lock().expect("log lock");
        let (lines, log) = &mut *guard;
        for (_, line) in lines.try_iter() {
            log.push_str(&line);
            log.push('\n');
        }
        log.clone()
    }

    pub async fn wait_log(&self, needle: &str) {
        let found = || self.log().contains(needle).then_some(());
        let why = || {
            format!(
                "timed out waiting for `{needle}` in the log:\n{}",
                self.log()
            )
        };
        eventually(found, why).await;
    }

    pub fn signal(&self, signal: Signal) {
        let pid = Pid::from_raw(self.child.id() as i32).expect("a pid");
        kill_process(pid, signal).expect("the signal is delivered");
    }

    pub async fn exit(&mut self) -> ExitStatus {
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
pub struct Connection {
    pub handle: client::Handle<Trusting>,
    pub fingerprint: Arc<Mutex<Option<String>>>,
}

impl Connection {
    /// Connects from `source` (any loopback address) as `user`.
    pub async fn open(server: &Server, user: &str, source: &str) -> Connection {
        Self::open_with(server, user, source, Arc::new(AtomicBool::new(false))).await
    }

    pub async fn open_with(
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
    pub async fn handshake(server: &Server, source: &str, frozen: Arc<AtomicBool>) -> Connection {
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
    pub async fn play(self, cols: u32, rows: u32, env: &[(&str, &str)]) -> Player {
        self.play_on("xterm-256color", cols, rows, env).await
    }

    pub async fn play_on(self, term: &str, cols: u32, rows: u32, env: &[(&str, &str)]) -> Player {
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
pub struct Player {
    pub connection: Connection,
    pub write: ChannelWriteHalf<Msg>,
    pub screen: Arc<Mutex<vt100::Parser>>,
    pub exit: Arc<Mutex<Option<u32>>>,
    pub closed: Arc<AtomicBool>,
    /// Screens drawn whole (cleared first) so far.
    pub clears: Arc<AtomicUsize>,
}

impl Player {
    pub async fn join(server: &Server, user: &str) -> Player {
        let player = Connection::open(server, user, "127.0.0.1")
            .await
            .play(COLS, ROWS, &[])
            .await;
        player.wait_for(|s| s.contains("q quit"), "the lobby").await;
        player
    }

    pub fn contents(&self) -> String {
        self.screen.lock().expect("screen").screen().contents()
    }

    pub async fn press(&self, keys: &str) {
        self.send(keys.as_bytes()).await;
    }

    pub async fn send(&self, bytes: &[u8]) {
        self.write
            .data_bytes(bytes.to_vec())
            .await
            .expect("keys are sent");
    }

    pub async fn wait_for(&self, what: impl Fn(&str) -> bool, description: &str) -> String {
        self.wait_for_screen(|screen| what(&screen.contents()), description)
            .await;
        self.contents()
    }

    pub async fn wait_for_screen(&self, what: impl Fn(&vt100::Screen) -> bool, description: &str) {
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
    pub async fn closed(&self) -> Option<u32> {
        let closed = || self.closed.load(Ordering::SeqCst).then_some(());
        let why = || format!("the channel was not closed; screen:\n{}", self.contents());
        eventually(closed, why).await;
        *self.exit.lock().expect("status")
    }

    /// The mark in each square, read off the screen at the game's own layout.
    pub fn board(&self) -> Vec<Option<char>> {
        let parser = self.screen.lock().expect("screen");
        screen_support::marks(parser.screen(), COLS as u16, ROWS as u16)
    }

    /// Plays `square` (1 to 9) and waits until it shows.
    pub async fn play_square(&self, square: usize) {
        self.press(&square.to_string()).await;
        self.wait_for_screen(
            |_| self.board()[square - 1].is_some(),
            &format!("square {square} taken"),
        )
        .await;
    }
}

/// alice and bob join and find each other: alice plays X, and it is her turn.
pub async fn paired(server: &Server) -> (Player, Player) {
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

pub fn nonzero(n: u32) -> NonZeroU16 {
    NonZeroU16::new(n as u16).expect("a screen has rows and columns")
}

pub fn game_over(screen: &str) -> bool {
    screen.contains("you lose") || screen.contains("you win") || screen.contains("Draw")
}

/// Plays the first free square whenever it is this player's turn, to the end.
pub async fn play_to_the_end(player: &Player) -> String {
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

/// Waits on a bare channel for the answer to a request.
pub async fn answer(channel: &mut russh::Channel<Msg>) -> (bool, String) {
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
pub async fn to_the_end(channel: &mut russh::Channel<Msg>) -> (String, Option<u32>) {
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

/// How a session in sentences is asked for without a terminal.
#[derive(Clone, Copy)]
pub enum Ask {
    /// `ssh host screen-reader`.
    Command,
    /// `ssh -T host`, or ssh with its input from a file.
    Shell,
}

/// A session in sentences without a terminal: what it has said so far.
pub struct Sentences {
    pub _connection: Connection,
    pub read: russh::ChannelReadHalf,
    pub write: ChannelWriteHalf<Msg>,
    pub said: Vec<u8>,
    pub status: Option<u32>,
}

impl Sentences {
    pub async fn open(server: &Server, user: &str, ask: Ask) -> Sentences {
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

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.said).into_owned()
    }

    /// Reads until `needle` has been said; false if the channel closed first.
    pub async fn hear(&mut self, needle: &str) -> bool {
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
    pub async fn hear_to_the_close(&mut self) {
        assert!(!self.hear("\u{0}never said").await, "the channel closes");
    }
}

/// A raw socket from `source` that the server has accepted (its version
/// line has arrived), and that sends nothing.
pub async fn silent(server: &Server, source: &str) -> TcpStream {
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
pub async fn until_closed(stream: &mut TcpStream) -> Vec<u8> {
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

pub fn key_line(key: &russh::keys::PrivateKey) -> String {
    key.public_key().to_openssh().expect("openssh format")
}

pub fn new_key() -> russh::keys::PrivateKey {
    russh::keys::PrivateKey::random(&mut rand::rng(), russh::keys::Algorithm::Ed25519)
        .expect("a key")
}

/// Logs in with `key` from `source`; whether the server let it in.
pub async fn log_in_with(
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

/// Runs `tictactoe serve` expecting it to refuse to start: its status and standard error.
pub fn refused_start(args: &[&str], home: &std::path::Path) -> (Option<i32>, String) {
    let child = super::binary()
        .env("HOME", home)
        .env("XDG_DATA_HOME", home.join("data"))
        .args(["serve", "--listen", "127.0.0.1:0"])
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    let what = format!("a server that should have refused to start with {args:?}");
    let output = super::output_within(child, &what);
    let err = String::from_utf8_lossy(&output.stderr).into_owned();
    (output.status.code(), err)
}

/// Logs in with `key` as `name` and opens the game.
pub async fn keyed(server: &Server, key: &russh::keys::PrivateKey, name: &str) -> Player {
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
pub async fn command(
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
    pub async fn click(&self, size: u8, at: &str) {
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
    pub async fn seek(&self, boards: usize, rated: bool) {
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
pub async fn play_moves(alice: &Player, bob: &Player, moves: &[&str]) {
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
pub async fn leaderboard(
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
pub async fn rated_pair(
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

/// `history --json` as `key`'s player, parsed.
pub async fn history_json(
    server: &Server,
    key: &russh::keys::PrivateKey,
    name: &str,
) -> serde_json::Value {
    let (out, err, status) = command(server, key, name, "history --json").await;
    assert_eq!(status, Some(0), "{err}");
    serde_json::from_str(&out).expect("JSON")
}

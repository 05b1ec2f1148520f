//! Load on `tictactoe serve`: N clients at once, each playing a game against
//! the AI over SSH. Reports the sessions served, the server's memory per idle
//! session (resident set growth over N clients sitting in the lobby), and
//! the time from a key press to the updated screen reaching the client,
//! with the clients pressing keys as people do (at random moments) and all
//! at once (a burst every move).
//!
//! `cargo bench --features serve --bench serve` (N = 50, 100, 200), or `cargo bench --bench
//! serve -- 20 40` for other counts. Clients and server share this machine,
//! so the times include the clients' own decrypting and parsing.
//!
//! `cargo bench --features serve --bench serve -- flood`: 5 clients at 300x120 press arrow
//! keys in their games as fast as the server takes them (reading, not
//! drawing, what it sends back) while another player at 80x24 plays ten
//! games against the AI; reports that player's key to screen.
//!
//! `cargo bench --features serve --bench serve -- stuck`: a client at 300x120 presses arrow
//! keys in its game as fast as it can send them and never reads; reports
//! the server's CPU time over the 20 s after it stopped reading, and
//! whether the server dropped it within five minutes more.
//!
//! `cargo bench --features serve --bench serve -- idle`: the server's memory per idle
//! session, 100 clients in the lobby at 80x24, then (a fresh server) at
//! 300x120.
//!
//! `cargo bench --features serve --bench serve -- churn`: 200 silent connections a second
//! from 400 loopback addresses (the server at its default 100 logins, 20
//! per address so the churn stays within each address's rate), while real
//! logins from other addresses complete or not: 10 at once that pause 0.5 s
//! (half after the key exchange, half after authenticating), then 10 that
//! pause 1 s, then 10 that pause 2 s. Reports how many of each reached the
//! lobby, and the silent connections made.
//!
//! `cargo bench --features serve --bench serve -- ranked [N] [GAMES] [THINK_MS]`: N clients
//! (100), each with a key of its own, pair up in rated seeks and play GAMES
//! rated games (20) each against the same opponent (rematches), every key
//! pressed THINK_MS (0: at once) after it is their turn; reports the moves per second the server took,
//! key to screen (a mark pressed until it shows: checked, written to the
//! database and sent back), and the database's size per 1,000 games.
//!
//! `cargo bench --features serve --bench serve -- history`: 4 players play
//! the AI flat out for 15.6 s, then again while 1,000 `history --json`
//! requests come at 64 a second from 50 addresses, for a key with 100
//! games kept (an answer of about 43 KB); reports their key to screen in
//! both, and the ratio of the p99s.
//!
//! `TICTACTOE_SERVER=PATH` runs that binary as the server instead of this
//! build's, to measure another version with the same clients.

use std::net::SocketAddr;
use std::num::NonZeroU16;
use std::process::{Child, Command};
use std::sync::Arc;
use std::time::{Duration, Instant};

use russh::client::{self, Msg};
use russh::{ChannelMsg, ChannelReadHalf, ChannelWriteHalf};
use tictactoe_screen::layout::BoardLayout;
use tokio::sync::Barrier;

#[path = "../tests/support/frozen.rs"]
mod frozen;
// What the SSH tests share; the bench uses part of it.
#[allow(dead_code)]
#[path = "../tests/support/screen.rs"]
mod screen;
#[allow(dead_code)]
#[path = "../tests/support/server.rs"]
mod server;

use server::Trusting;

const COLS: u16 = 80;
const ROWS: u16 = 24;
/// How long any one step may take before the run counts as failed.
const PATIENCE: Duration = Duration::from_secs(60);

/// One client's view: the channel and its screen.
struct Client {
    _handle: client::Handle<Trusting>,
    read: ChannelReadHalf,
    write: ChannelWriteHalf<Msg>,
    screen: vt100::Parser,
    board: BoardLayout,
}

impl Client {
    async fn connect(address: SocketAddr, name: &str, board: BoardLayout) -> Option<Client> {
        Client::connect_sized(address, name, board, COLS, ROWS).await
    }

    async fn connect_sized(
        address: SocketAddr,
        name: &str,
        board: BoardLayout,
        cols: u16,
        rows: u16,
    ) -> Option<Client> {
        Client::connect_as(address, name, None, board, (cols, rows)).await
    }

    /// Connects as `name`, with `key` or as a guest.
    async fn connect_as(
        address: SocketAddr,
        name: &str,
        key: Option<russh::keys::PrivateKey>,
        board: BoardLayout,
        (cols, rows): (u16, u16),
    ) -> Option<Client> {
        // As ssh does for interactive sessions: keys leave at once.
        let config = Arc::new(client::Config {
            nodelay: true,
            ..client::Config::default()
        });
        let mut handle = client::connect(config, address, Trusting::default())
            .await
            .ok()?;
        match key {
            Some(key) => {
                let key = russh::keys::key::PrivateKeyWithHashAlg::new(Arc::new(key), None);
                if !handle
                    .authenticate_publickey(name, key)
                    .await
                    .ok()?
                    .success()
                {
                    return None;
                }
            }
            None => {
                let auth = handle
                    .authenticate_keyboard_interactive_start(name, None)
                    .await
                    .ok()?;
                if !matches!(auth, client::KeyboardInteractiveAuthResponse::Success) {
                    return None;
                }
            }
        }
        let channel = handle.channel_open_session().await.ok()?;
        channel
            .request_pty(false, "xterm-256color", cols.into(), rows.into(), 0, 0, &[])
            .await
            .ok()?;
        channel.request_shell(false).await.ok()?;
        let (read, write) = channel.split();
        let size = |n| NonZeroU16::new(n).expect("a screen size");
        Some(Client {
            _handle: handle,
            read,
            write,
            screen: vt100::Parser::new(size(rows), size(cols), 0),
            board,
        })
    }

    /// Reads until the screen satisfies `done`; false if the channel ends or patience runs out.
    async fn until(&mut self, done: impl Fn(&Client) -> bool) -> bool {
        let deadline = tokio::time::Instant::now() + PATIENCE;
        while !done(self) {
            match tokio::time::timeout_at(deadline, self.read.wait()).await {
                Ok(Some(ChannelMsg::Data { data })) => self.screen.process(&data),
                Ok(Some(_)) => {}
                Ok(None) | Err(_) => return false,
            }
        }
        true
    }

    fn shows(&self, text: &str) -> bool {
        self.screen.screen().contents().contains(text)
    }

    fn marked(&self, index: usize) -> bool {
        screen::mark(self.screen.screen(), &self.board, index).is_some()
    }

    fn over(&self) -> bool {
        self.shows("you win") || self.shows("you lose") || self.shows("Draw")
    }
}

/// What one client measured.
#[derive(Default)]
struct Played {
    finished: bool,
    latencies: Vec<Duration>,
}

/// How the clients press their keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pace {
    /// Like people: each starts within two seconds and thinks 0.2-1 s per move.
    People,
    /// All at the same moment, every move (the AI's pause keeps them in step).
    Burst,
}

/// Connects, waits for everyone, then plays one game as X and measures each
/// key press until its mark is on the client's screen.
async fn play(
    address: SocketAddr,
    name: String,
    board: BoardLayout,
    connected: Arc<Barrier>,
    start: Arc<Barrier>,
    pace: Pace,
    seed: u64,
) -> Played {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut think = |from: u64, to: u64| {
        let ms = if pace == Pace::People {
            rng.u64(from..to)
        } else {
            0
        };
        tokio::time::sleep(Duration::from_millis(ms))
    };
    let mut played = Played::default();
    let mut client = Client::connect(address, &name, board).await;
    if let Some(lobby) = client.as_mut()
        && !lobby.until(|c| c.shows("q quit")).await
    {
        client = None;
    }
    connected.wait().await;
    start.wait().await;
    let Some(client) = client.as_mut() else {
        return played;
    };
    think(0, 2000).await;
    if client.write.data_bytes(&b"a"[..]).await.is_err()
        || !client.until(|c| c.shows("Your turn")).await
    {
        return played;
    }
    for _ in 0..5 {
        let Some(free) = (0..9).find(|&i| !client.marked(i)) else {
            break;
        };
        think(200, 1000).await;
        let pressed = Instant::now();
        let key = (free + 1).to_string();
        if client.write.data_bytes(key.into_bytes()).await.is_err()
            || !client.until(|c| c.marked(free)).await
        {
            return played;
        }
        played.latencies.push(pressed.elapsed());
        if !client.until(|c| c.shows("Your turn") || c.over()).await {
            return played;
        }
        if client.over() {
            break;
        }
    }
    played.finished = client.over();
    let _ = client.write.data_bytes(&b"qq"[..]).await;
    played
}

/// The server's resident memory, in kilobytes.
fn rss_kb(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

struct Server {
    child: Child,
    address: SocketAddr,
    /// The server's database.
    db: std::path::PathBuf,
    /// The server's log, line by line, each with when it was read.
    log: std::sync::mpsc::Receiver<(Instant, String)>,
    _dir: tempfile::TempDir,
}

impl Server {
    fn start() -> Server {
        Server::start_with(&["--max-sessions", "1000", "--max-per-address", "1000"])
    }

    fn start_with(limits: &[&str]) -> Server {
        Server::start_in(tempfile::tempdir().expect("a temporary directory"), limits)
    }

    /// Another server on the files of one stopped.
    fn again(stopped: Server) -> Server {
        let mut stopped = stopped;
        let _ = stopped.child.wait();
        let dir = std::mem::replace(&mut stopped._dir, tempfile::tempdir().expect("a folder"));
        Server::start_in(dir, &["--max-sessions", "1000", "--max-per-address", "100"])
    }

    fn start_in(dir: tempfile::TempDir, limits: &[&str]) -> Server {
        let binary = std::env::var_os("TICTACTOE_SERVER")
            .unwrap_or_else(|| env!("CARGO_BIN_EXE_tictactoe").into());
        let db = dir.path().join("tictactoe.db");
        let started = server::start(
            Command::new(binary)
                .args(["serve", "--listen", "127.0.0.1:0"])
                .args(limits)
                .arg("--host-key")
                .arg(dir.path().join("host_key"))
                .arg("--db")
                .arg(&db),
        );
        Server {
            child: started.child,
            address: started.address,
            db,
            log: started.log,
            _dir: dir,
        }
    }

    /// Waits for a log line containing `text`; when it was written, or
    /// `None` if none came in time.
    fn wait_log(&self, text: &str, patience: Duration) -> Option<Instant> {
        let deadline = Instant::now() + patience;
        while let Some(left) = deadline.checked_duration_since(Instant::now()) {
            match self.log.recv_timeout(left) {
                Ok((at, line)) if line.contains(text) => return Some(at),
                Ok(_) => {}
                Err(_) => return None,
            }
        }
        None
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

async fn run(n: usize, board: BoardLayout, pace: Pace) {
    // A fresh server for each N, so memory is measured from the same start.
    let server = Server::start();
    let pid = server.child.id();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let before = rss_kb(pid);
    let connected = Arc::new(Barrier::new(n + 1));
    let start = Arc::new(Barrier::new(n + 1));
    let tasks: Vec<_> = (0..n)
        .map(|i| {
            tokio::spawn(play(
                server.address,
                format!("p{i}"),
                board,
                Arc::clone(&connected),
                Arc::clone(&start),
                pace,
                i as u64,
            ))
        })
        .collect();
    connected.wait().await;
    // Everyone is in the lobby, idle: let the server settle, then measure.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let idle = rss_kb(pid);
    let began = Instant::now();
    start.wait().await;
    let mut served = 0;
    let mut latencies = Vec::new();
    for task in tasks {
        let played = task.await.unwrap_or_default();
        served += usize::from(played.finished);
        latencies.extend(played.latencies);
    }
    let took = began.elapsed();
    latencies.sort();
    let per_session = idle.saturating_sub(before) as f64 / n as f64;
    println!(
        "{n:>4} clients, {pace:?}: {served:>4} games played to the end in {:>5.1} s; server memory {before} KB at start, {idle} KB with {n} idle ({per_session:.0} KB per session); key to screen p50 {:.1} ms, p99 {:.1} ms ({} presses)",
        took.as_secs_f64(),
        percentile(&latencies, 50.0).as_secs_f64() * 1e3,
        percentile(&latencies, 99.0).as_secs_f64() * 1e3,
        latencies.len(),
    );
}

/// Presses arrow keys as fast as the server takes them until `stop`,
/// while another task reads (and drops) whatever the server sends.
async fn flood(client: Client, stop: Arc<std::sync::atomic::AtomicBool>) -> u64 {
    use std::sync::atomic::Ordering;
    let Client {
        _handle: handle,
        mut read,
        write,
        ..
    } = client;
    let reading = tokio::spawn(async move { while read.wait().await.is_some() {} });
    let mut sent = 0;
    if write.data_bytes(&b"a"[..]).await.is_ok() {
        let keys = "\x1b[C\x1b[B\x1b[D\x1b[A".repeat(8).into_bytes();
        while !stop.load(Ordering::SeqCst) && write.data_bytes(keys.clone()).await.is_ok() {
            sent += 32;
        }
    }
    drop(handle);
    reading.abort();
    sent
}

/// Games the other player plays while the flood goes on.
const FLOOD_GAMES: u64 = 10;

async fn flood_run(board: BoardLayout) {
    use std::sync::atomic::{AtomicBool, Ordering};
    let server = Server::start();
    let stop = Arc::new(AtomicBool::new(false));
    let mut flooders = Vec::new();
    for i in 0..5 {
        let name = format!("flood{i}");
        let mut client = Client::connect_sized(server.address, &name, board, 300, 120)
            .await
            .expect("a flooder");
        assert!(client.until(|c| c.shows("q quit")).await);
        flooders.push(tokio::spawn(flood(client, Arc::clone(&stop))));
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let connected = Arc::new(Barrier::new(1));
    let start = Arc::new(Barrier::new(1));
    let mut latencies = Vec::new();
    let mut finished = 0;
    for game in 0..FLOOD_GAMES {
        let played = play(
            server.address,
            format!("victim{game}"),
            board,
            Arc::clone(&connected),
            Arc::clone(&start),
            Pace::People,
            game,
        )
        .await;
        finished += usize::from(played.finished);
        latencies.extend(played.latencies);
    }
    stop.store(true, Ordering::SeqCst);
    let mut keys = 0;
    for flooder in flooders {
        keys += flooder.await.unwrap_or(0);
    }
    latencies.sort();
    println!(
        "flood: 5 clients at 300x120 sent {keys} arrow keys; the other player finished {finished}/{FLOOD_GAMES} games, key to screen p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms ({} presses)",
        percentile(&latencies, 50.0).as_secs_f64() * 1e3,
        percentile(&latencies, 99.0).as_secs_f64() * 1e3,
        latencies.last().copied().unwrap_or_default().as_secs_f64() * 1e3,
        latencies.len(),
    );
}

/// The CPU time a process has used so far, all its threads (those gone
/// included): utime and stime of `/proc/PID/stat`, in the kernel's 100
/// ticks a second.
fn cpu_time(pid: u32) -> Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // The fields after the command's name, which is in parentheses and may hold spaces.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or(Vec::new(), |(_, rest)| rest.split_whitespace().collect());
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
    let ticks: u64 = fields[11..13]
        .iter()
        .filter_map(|f| f.parse::<u64>().ok())
        .sum();
    Duration::from_millis(ticks * 10)
}

/// A client that presses arrow keys as fast as it can send them and never
/// reads: what the server spends on it, and when it lets go.
async fn stuck_run(board: BoardLayout) {
    use std::sync::atomic::{AtomicBool, Ordering};
    /// How long the server's CPU time is counted after the client stops reading.
    const WINDOW: Duration = Duration::from_secs(20);
    let server = Server::start();
    let pid = server.child.id();
    let frozen = Arc::new(AtomicBool::new(false));
    let stream = tokio::net::TcpStream::connect(server.address)
        .await
        .expect("connects");
    let stream = frozen::Freezable {
        inner: stream,
        frozen: Arc::clone(&frozen),
    };
    let config = Arc::new(client::Config::default());
    let mut handle = client::connect_stream(config, stream, Trusting::default())
        .await
        .expect("the SSH handshake");
    assert!(matches!(
        handle
            .authenticate_keyboard_interactive_start("stuck", None)
            .await
            .expect("auth answers"),
        client::KeyboardInteractiveAuthResponse::Success
    ));
    let channel = handle.channel_open_session().await.expect("a channel");
    channel
        .request_pty(false, "xterm-256color", 300, 120, 0, 0, &[])
        .await
        .expect("a terminal");
    channel.request_shell(false).await.expect("a shell");
    let (read, write) = channel.split();
    let mut client = Client {
        _handle: handle,
        read,
        write,
        screen: vt100::Parser::new(
            NonZeroU16::new(120).expect("rows"),
            NonZeroU16::new(300).expect("columns"),
            0,
        ),
        board,
    };
    assert!(client.until(|c| c.shows("q quit")).await);
    client.write.data_bytes(&b"a"[..]).await.expect("sent");
    assert!(client.until(|c| c.shows("Your turn")).await);
    frozen.store(true, Ordering::SeqCst);
    let Client { _handle, write, .. } = client;
    // Bytes of keys sent so far: the sender waits, without end, once the
    // server's window for them is spent, since the window's updates are
    // never read.
    let sent = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let sending = {
        let sent = Arc::clone(&sent);
        tokio::spawn(async move {
            let keys = "\x1b[C\x1b[B\x1b[D\x1b[A".repeat(8).into_bytes();
            while write.data_bytes(keys.clone()).await.is_ok() {
                sent.fetch_add(keys.len() as u64, Ordering::SeqCst);
            }
        })
    };
    let began = Instant::now();
    let cpu_before = cpu_time(pid);
    tokio::time::sleep(WINDOW).await;
    let cpu = cpu_time(pid).saturating_sub(cpu_before);
    let dropped = server.wait_log("disconnect stuck", Duration::from_secs(300));
    let cpu_after = cpu_time(pid);
    tokio::time::sleep(Duration::from_secs(5)).await;
    let cpu_gone = cpu_time(pid).saturating_sub(cpu_after);
    sending.abort();
    let sent = sent.load(Ordering::SeqCst);
    let dropped = match dropped {
        Some(at) => format!(
            "dropped {:.1} s after it stopped reading",
            at.duration_since(began).as_secs_f64()
        ),
        None => format!(
            "not dropped {:.0} s after it stopped reading",
            began.elapsed().as_secs_f64()
        ),
    };
    println!(
        "stuck: a client at 300x120 sending arrow keys, never reading: server CPU {:.1} % of a core over the {} s after it stopped reading; {dropped}; then {:.1} % over 5 s ({} KiB of keys sent)",
        cpu.as_secs_f64() / WINDOW.as_secs_f64() * 100.0,
        WINDOW.as_secs(),
        cpu_gone.as_secs_f64() / 5.0 * 100.0,
        sent / 1024,
    );
}

/// One real login from `source` that pauses half of `pause` after the key
/// exchange and half after authenticating: whether it reached the lobby.
async fn slow_login(
    server: SocketAddr,
    source: std::net::Ipv4Addr,
    pause: Duration,
    board: BoardLayout,
) -> bool {
    let login = async {
        let socket = tokio::net::TcpSocket::new_v4().ok()?;
        socket.bind((source, 0).into()).ok()?;
        let stream = socket.connect(server).await.ok()?;
        let config = Arc::new(client::Config::default());
        let mut handle = client::connect_stream(config, stream, Trusting::default())
            .await
            .ok()?;
        tokio::time::sleep(pause / 2).await;
        let auth = handle
            .authenticate_keyboard_interactive_start("slow", None)
            .await
            .ok()?;
        if !matches!(auth, client::KeyboardInteractiveAuthResponse::Success) {
            return None;
        }
        tokio::time::sleep(pause / 2).await;
        let channel = handle.channel_open_session().await.ok()?;
        channel
            .request_pty(false, "xterm-256color", COLS.into(), ROWS.into(), 0, 0, &[])
            .await
            .ok()?;
        channel.request_shell(false).await.ok()?;
        let (read, write) = channel.split();
        let size = |n| NonZeroU16::new(n).expect("a screen size");
        let mut client = Client {
            _handle: handle,
            read,
            write,
            screen: vt100::Parser::new(size(ROWS), size(COLS), 0),
            board,
        };
        Some(client.until(|c| c.shows("q quit")).await)
    };
    login.await == Some(true)
}

/// 200 silent connections a second from 400 addresses, and real logins
/// that take their time beside them.
async fn churn_run(board: BoardLayout) {
    use std::net::Ipv4Addr;
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    use tokio::io::AsyncReadExt;
    const PER_SECOND: u64 = 200;
    const ADDRESSES: u64 = 400;
    const LOGINS: u8 = 10;
    let server = Server::start_with(&["--max-sessions", "100", "--max-per-address", "20"]);
    let address = server.address;
    let stop = Arc::new(AtomicBool::new(false));
    let made = Arc::new(AtomicU64::new(0));
    let churn = {
        let (stop, made) = (Arc::clone(&stop), Arc::clone(&made));
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(Duration::from_secs(1) / PER_SECOND as u32);
            let mut n = 0u64;
            while !stop.load(Ordering::SeqCst) {
                tick.tick().await;
                let source =
                    Ipv4Addr::new(127, 2, (n % ADDRESSES / 200) as u8, (n % 200) as u8 + 1);
                n += 1;
                let made = Arc::clone(&made);
                // Silent: it reads until the server closes it, and never writes.
                tokio::spawn(async move {
                    let Ok(socket) = tokio::net::TcpSocket::new_v4() else {
                        return;
                    };
                    if socket.bind((source, 0).into()).is_err() {
                        return;
                    }
                    let Ok(mut stream) = socket.connect(address).await else {
                        return;
                    };
                    made.fetch_add(1, Ordering::SeqCst);
                    let mut buf = [0u8; 512];
                    while matches!(stream.read(&mut buf).await, Ok(n) if n > 0) {}
                });
            }
        })
    };
    // The login places full of the churn first.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let began = Instant::now();
    let mut results = Vec::new();
    for (round, pause) in [500u64, 1000, 2000].into_iter().enumerate() {
        let pause = Duration::from_millis(pause);
        let logins = (0..LOGINS).map(|i| {
            let source = Ipv4Addr::new(127, 3, round as u8, i + 1);
            tokio::spawn(slow_login(address, source, pause, board))
        });
        let mut completed = 0;
        for login in logins.collect::<Vec<_>>() {
            completed += u32::from(login.await.unwrap_or(false));
        }
        results.push(format!(
            "pausing {:.1} s: {completed} of {LOGINS}",
            pause.as_secs_f64()
        ));
    }
    stop.store(true, Ordering::SeqCst);
    let elapsed = began.elapsed();
    churn.abort();
    println!(
        "churn: {} silent connections from {ADDRESSES} addresses at {PER_SECOND} a second; real logins reaching the lobby within {:.1} s: {}",
        made.load(Ordering::SeqCst),
        elapsed.as_secs_f64(),
        results.join(", ")
    );
}

/// What one client of the ranked run measured.
#[derive(Default)]
struct Ranked {
    games: usize,
    moves: usize,
    latencies: Vec<Duration>,
}

/// One client of the ranked run: seeks a rated classic game at the same
/// moment as every other (seeks of the same pair at once), then plays
/// `games` games with the opponent it got, the first free square each
/// turn, asking for the rematch after each.
async fn ranked_client(
    address: SocketAddr,
    i: usize,
    board: BoardLayout,
    barriers: [Arc<Barrier>; 2],
    games: usize,
    pace: Duration,
) -> Ranked {
    let mut played = Ranked::default();
    let key = russh::keys::PrivateKey::random(&mut rand::rng(), russh::keys::Algorithm::Ed25519)
        .expect("a key");
    let client =
        Client::connect_as(address, &format!("r{i}"), Some(key), board, (COLS, ROWS)).await;
    let [connected, paired] = barriers;
    let mut client = match client {
        Some(mut client) => client.until(|c| c.shows("q quit")).await.then_some(client),
        None => None,
    };
    connected.wait().await;
    let mut in_game = false;
    if let Some(client) = client.as_mut() {
        // The players' line of a rated game names their ratings.
        in_game = client.write.data_bytes(&b"rf"[..]).await.is_ok()
            && client.until(|c| c.shows("(1500?): O")).await;
    }
    paired.wait().await;
    let Some(client) = client.as_mut().filter(|_| in_game) else {
        return played;
    };
    for _ in 0..games {
        loop {
            if !client.until(|c| c.shows("Your turn") || c.over()).await {
                return played;
            }
            if client.over() {
                break;
            }
            let Some(free) = (0..9).find(|&i| !client.marked(i)) else {
                return played;
            };
            // A person thinks before pressing; the clock starts at the key.
            tokio::time::sleep(pace).await;
            let pressed = Instant::now();
            if client
                .write
                .data_bytes((free + 1).to_string().into_bytes())
                .await
                .is_err()
                || !client.until(|c| c.marked(free)).await
            {
                return played;
            }
            played.latencies.push(pressed.elapsed());
            played.moves += 1;
        }
        played.games += 1;
        // The rematch: both ask, and the new game's turn line replaces the
        // result. (Not "the board empties": the new game's X may move
        // before this client's screen is drawn again, and the empty board
        // never shows.)
        let turn = |c: &Client| !c.over() && (c.shows("Your turn") || c.shows("'s turn ("));
        if client.write.data_bytes(&b"n"[..]).await.is_err() || !client.until(turn).await {
            return played;
        }
    }
    played
}

/// N clients playing rated games at once: moves a second, key to screen,
/// and the database's size per 1,000 games.
async fn ranked_run(n: usize, games: usize, pace: Duration, board: BoardLayout) {
    let mut server = Server::start();
    let barriers = [(); 2].map(|()| Arc::new(Barrier::new(n + 1)));
    let tasks: Vec<_> = (0..n)
        .map(|i| {
            let barriers = barriers.clone();
            tokio::spawn(ranked_client(
                server.address,
                i,
                board,
                barriers,
                games,
                pace,
            ))
        })
        .collect();
    for barrier in &barriers {
        barrier.wait().await;
    }
    let began = Instant::now();
    let (mut finished, mut moves, mut latencies) = (0, 0, Vec::new());
    for task in tasks {
        let played = task.await.unwrap_or_default();
        finished += played.games;
        moves += played.moves;
        latencies.extend(played.latencies);
    }
    let took = began.elapsed();
    latencies.sort();
    // Each game is counted by both its players.
    let games_played = finished / 2;
    // A clean stop folds the journal into the file: its size is what is kept.
    let _ = rustix::process::kill_process(
        rustix::process::Pid::from_raw(server.child.id() as i32).expect("a pid"),
        rustix::process::Signal::TERM,
    );
    let _ = server.child.wait();
    let size = std::fs::metadata(&server.db).map_or(0, |m| m.len());
    println!(
        "ranked: {n} clients thinking {} ms a move, {games_played} rated games ({moves} moves) in {:.1} s: {:.0} moves a second; key to screen p50 {:.1} ms, p99 {:.1} ms; database {} KB, {:.0} KB per 1,000 games",
        pace.as_millis(),
        took.as_secs_f64(),
        moves as f64 / took.as_secs_f64(),
        percentile(&latencies, 50.0).as_secs_f64() * 1e3,
        percentile(&latencies, 99.0).as_secs_f64() * 1e3,
        size / 1024,
        size as f64 / 1024.0 / games_played.max(1) as f64 * 1000.0,
    );
}

/// The server's memory with 100 idle clients of `cols` x `rows` in the lobby.
async fn idle_run(board: BoardLayout, cols: u16, rows: u16) {
    const CLIENTS: u64 = 100;
    let server = Server::start();
    let pid = server.child.id();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let before = rss_kb(pid);
    let mut idle = Vec::new();
    for i in 0..CLIENTS {
        let mut client =
            Client::connect_sized(server.address, &format!("idle{i}"), board, cols, rows)
                .await
                .expect("a client");
        assert!(client.until(|c| c.shows("q quit")).await);
        idle.push(client);
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let after = rss_kb(pid);
    println!(
        "idle: {CLIENTS} sessions at {cols}x{rows}: server memory {before} KB at start, {after} KB with them ({:.0} KB per session)",
        after.saturating_sub(before) as f64 / CLIENTS as f64
    );
}

/// Requests of the history flood, how fast they come, and from how many addresses.
const HISTORY_REQUESTS: usize = 1_000;
const HISTORY_RATE: f64 = 64.0;
const HISTORY_ADDRESSES: usize = 50;
/// Games kept for the flooding key: its `history --json` is about 43 KB.
const HISTORY_GAMES: i64 = 100;
/// Players whose key to screen is measured, each playing the AI.
const MEASURED: usize = 4;

/// One `history --json` as `key`'s player from `source`: the bytes of the
/// answer, or `None` when refused (or it failed).
async fn history_request(
    address: SocketAddr,
    source: std::net::IpAddr,
    key: russh::keys::PrivateKey,
) -> Option<usize> {
    let socket = tokio::net::TcpSocket::new_v4().ok()?;
    socket.bind(SocketAddr::new(source, 0)).ok()?;
    let stream = socket.connect(address).await.ok()?;
    let config = Arc::new(client::Config {
        nodelay: true,
        ..client::Config::default()
    });
    let mut handle = client::connect_stream(config, stream, Trusting::default())
        .await
        .ok()?;
    let key = russh::keys::key::PrivateKeyWithHashAlg::new(Arc::new(key), None);
    if !handle
        .authenticate_publickey("flood", key)
        .await
        .ok()?
        .success()
    {
        return None;
    }
    let mut channel = handle.channel_open_session().await.ok()?;
    channel.exec(true, "history --json").await.ok()?;
    let (mut bytes, mut status) = (0, None);
    loop {
        match tokio::time::timeout(PATIENCE, channel.wait()).await.ok()? {
            Some(ChannelMsg::Data { data }) => bytes += data.len(),
            Some(ChannelMsg::ExitStatus { exit_status }) => status = Some(exit_status),
            Some(ChannelMsg::Close) | None => break,
            Some(_) => {}
        }
    }
    (status == Some(0)).then_some(bytes)
}

/// Keeps `games` finished games between the flooding key's player and
/// another in the database at `db` (the server stopped), each of 9 moves.
fn keep_history(db: &std::path::Path, key: &russh::keys::PrivateKey, games: i64) {
    let fingerprint = key
        .public_key()
        .fingerprint(russh::keys::HashAlg::Sha256)
        .to_string();
    let db = rusqlite::Connection::open(db).expect("the server's database");
    db.execute_batch("BEGIN").expect("a transaction");
    for (name, print) in [("flood", fingerprint.as_str()), ("mate", "SHA256:mate")] {
        db.execute(
            "INSERT INTO players (fingerprint, name, joined, skeleton) VALUES (?1, ?2, '2026-01-01T00:00:00Z', ?2)",
            rusqlite::params![print, name],
        )
        .expect("a player");
    }
    let moves = ["a1", "b2", "c3", "b1", "b3", "a3", "c1", "c2", "a2"];
    for game in 1..=games {
        db.execute(
            "INSERT INTO games (id, size, k, rated, x, o, started, ended, result, ending)
             VALUES (?1, 3, 3, 0, 1, 2, '2026-01-01T00:00:00Z', '2026-01-01T00:01:00Z', 'draw', 'board')",
            [game],
        )
        .expect("a game");
        for (ply, square) in moves.iter().enumerate() {
            db.execute(
                "INSERT INTO moves (game, ply, square) VALUES (?1, ?2, ?3)",
                rusqlite::params![game, ply as i64, square],
            )
            .expect("a move");
        }
    }
    db.execute_batch("COMMIT").expect("committed");
}

/// Players playing the AI flat out until `until`: every key press's time
/// until its mark is on the player's own screen.
async fn measure(
    address: SocketAddr,
    board: BoardLayout,
    until: Instant,
    seed: u64,
) -> Vec<Duration> {
    let tasks: Vec<_> = (0..MEASURED)
        .map(|i| {
            tokio::spawn(async move {
                let mut latencies = Vec::new();
                let mut game = 0;
                while Instant::now() < until {
                    let one = Arc::new(Barrier::new(1));
                    let played = play(
                        address,
                        format!("m{seed}x{i}x{game}"),
                        board,
                        Arc::clone(&one),
                        one,
                        Pace::Burst,
                        seed + game,
                    )
                    .await;
                    latencies.extend(played.latencies);
                    game += 1;
                }
                latencies
            })
        })
        .collect();
    let mut latencies = Vec::new();
    for task in tasks {
        latencies.extend(task.await.unwrap_or_default());
    }
    latencies.sort();
    latencies
}

/// Other players' key to screen with no flood, then during a flood of
/// 1,000 `history --json` requests at 64 a second from 50 addresses (the
/// answer 43 KB), in the same run.
async fn history_run(board: BoardLayout) {
    let key = russh::keys::PrivateKey::random(&mut rand::rng(), russh::keys::Algorithm::Ed25519)
        .expect("a key");
    let first = Server::start();
    let _ = rustix::process::kill_process(
        rustix::process::Pid::from_raw(first.child.id() as i32).expect("a pid"),
        rustix::process::Signal::TERM,
    );
    let mut first = first;
    let _ = first.child.wait();
    keep_history(&first.db, &key, HISTORY_GAMES);
    let server = Server::again(first);
    let flood_for = Duration::from_secs_f64(HISTORY_REQUESTS as f64 / HISTORY_RATE);
    let quiet = measure(server.address, board, Instant::now() + flood_for, 0).await;
    // The flood runs on a runtime of its own: its clients must not hold up
    // the measured players' tasks in this one (on another machine they would
    // not share a scheduler either; they still share this machine's cores).
    let flood = {
        let (address, key) = (server.address, key.clone());
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .expect("a runtime");
            runtime.block_on(async move {
                let mut requests = Vec::new();
                let began = tokio::time::Instant::now();
                for n in 0..HISTORY_REQUESTS {
                    let at = began + Duration::from_secs_f64(n as f64 / HISTORY_RATE);
                    tokio::time::sleep_until(at).await;
                    let source =
                        std::net::IpAddr::from([127, 0, 5, 1 + (n % HISTORY_ADDRESSES) as u8]);
                    requests.push(tokio::spawn(history_request(address, source, key.clone())));
                }
                let (mut answered, mut bytes) = (0, 0);
                for request in requests {
                    if let Ok(Some(size)) = request.await {
                        answered += 1;
                        bytes = size;
                    }
                }
                (answered, bytes)
            })
        })
    };
    let flooded = measure(server.address, board, Instant::now() + flood_for, 1_000).await;
    let (answered, bytes) = flood.join().unwrap_or_default();
    let p99 = |l: &[Duration]| percentile(l, 99.0).as_secs_f64() * 1e3;
    let p50 = |l: &[Duration]| percentile(l, 50.0).as_secs_f64() * 1e3;
    println!(
        "history: {MEASURED} players on the AI, key to screen without the flood p50 {:.1} ms, p99 {:.1} ms ({} presses); during {HISTORY_REQUESTS} history --json requests from {HISTORY_ADDRESSES} addresses at {HISTORY_RATE} a second ({answered} answered, {bytes} bytes each, the rest refused for their rate) p50 {:.1} ms, p99 {:.1} ms ({} presses): p99 {:.2}x",
        p50(&quiet),
        p99(&quiet),
        quiet.len(),
        p50(&flooded),
        p99(&flooded),
        flooded.len(),
        p99(&flooded) / p99(&quiet).max(f64::MIN_POSITIVE),
    );
}

fn main() {
    let board = screen::board(COLS, ROWS);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    if std::env::args().any(|a| a == "history") {
        runtime.block_on(history_run(board));
        return;
    }
    if std::env::args().any(|a| a == "flood") {
        runtime.block_on(flood_run(board));
        return;
    }
    if std::env::args().any(|a| a == "stuck") {
        runtime.block_on(stuck_run(board));
        return;
    }
    if std::env::args().any(|a| a == "churn") {
        runtime.block_on(churn_run(board));
        return;
    }
    if std::env::args().any(|a| a == "ranked") {
        let numbers: Vec<usize> = std::env::args().filter_map(|a| a.parse().ok()).collect();
        let n = numbers.first().copied().unwrap_or(100);
        let games = numbers.get(1).copied().unwrap_or(20);
        let pace = Duration::from_millis(numbers.get(2).copied().unwrap_or(0) as u64);
        runtime.block_on(ranked_run(n, games, pace, board));
        return;
    }
    if std::env::args().any(|a| a == "idle") {
        runtime.block_on(idle_run(board, COLS, ROWS));
        runtime.block_on(idle_run(board, 300, 120));
        return;
    }
    let counts: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let counts = if counts.is_empty() {
        vec![50, 100, 200]
    } else {
        counts
    };
    for pace in [Pace::People, Pace::Burst] {
        for &n in &counts {
            runtime.block_on(run(n, board, pace));
        }
    }
}

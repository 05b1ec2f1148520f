//! `tictactoe serve`: the game over SSH, for players on other machines with
//! nothing but an `ssh` client. A third front end beside [`tictactoe_screen::terminal`] and
//! [`tictactoe_console::plain`], over the same screen model ([`tictactoe_screen`]).
//!
//! - `admission`: places for logins and for players, kept apart, and the
//!   rate of new connections per address.
//! - `connection`: the SSH side of a connection: authentication, and
//!   refusing every request but one terminal with a shell.
//! - `session`: one client's screens (the lobby, a game), drawn by `frame`
//!   through `output` at the client's pace, from keys decoded by
//!   [`tictactoe_screen::decode`].
//! - `pool`: the engine's work for every session, bounded and fair.
//! - `lobby`: who is here, the open seeks, the games in progress with their
//!   clocks and absent players; `lobby_screen` draws it; `names` says
//!   which names may play.
//! - `store`: what is kept across restarts (players, ratings, games), in
//!   SQLite, on a thread of its own; `table` holds a game between people
//!   (its rules are `tictactoe_game::versus`) and what is kept of it;
//!   `commands` answers `leaderboard` and `history` from the store.
//! - `host_key`: the server's key, checked (or made) at start;
//!   `authorized_keys`: the guest list and its options.
//! - `limit`: token buckets, for keys, connections and log lines.
//!
//! This module listens, supervises each connection's life, and shuts down.

mod admission;
mod authorized_keys;
mod commands;
mod connection;
mod frame;
mod host_key;
mod limit;
mod lines;
mod lobby;
mod lobby_screen;
mod names;
mod output;
mod pool;
mod reads;
mod session;
mod store;
mod table;

use std::fmt;
use std::io::{self, Write};
use std::net::{Shutdown, SocketAddr};
use std::os::fd::AsFd;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use russh::keys::HashAlg;
use russh::server::Config;
use russh::{Disconnect, MethodKind, MethodSet};
use thiserror::Error;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::signal::unix::{SignalKind, signal};
use tokio::sync::watch;
use tokio::task::JoinSet;

use self::admission::{Admission, LoginSlot, Progress, Watched};
use self::authorized_keys::Guests;
use self::connection::Connection;
pub use self::host_key::FileProblem;
use self::limit::LogBudget;
use self::lobby::Lobby;
pub use self::store::StoreProblem;
use tictactoe_game::text;

/// How long a client may keep a connection open after its game closed.
const CLOSE_GRACE: Duration = Duration::from_secs(5);
/// How long a client is given to hang up itself after its channel closed.
const HANG_UP_AFTER: Duration = Duration::from_secs(1);
/// How long clients are given to take their goodbye when the server goes
/// down; one that does not read is cut off then.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(2);
/// Connections refused for their address's rate that are still told why
/// at once; past these they are closed without a word.
const REFUSAL_ROOM: usize = 16;
/// How long a refused connection is given to read why.
const REFUSAL_TIME: Duration = Duration::from_secs(1);

/// How the server is run: the flags of `tictactoe serve`.
#[derive(Debug, Clone)]
pub struct Options {
    /// Address and port to listen on.
    pub listen: SocketAddr,
    /// The host key file; `None` for the platform's data directory.
    pub host_key: Option<PathBuf>,
    /// Most players at once, and most connections logging in at once.
    pub max_sessions: usize,
    /// Most players from one address at once, and most connections logging in from one.
    pub max_per_address: usize,
    /// A client with no key press for this long is disconnected.
    pub idle_timeout: Duration,
    /// A connection not in the game this long after its first byte is closed.
    pub login_timeout: Duration,
    /// A client that has not read its screen for this long is disconnected.
    pub send_timeout: Duration,
    /// Only these public keys get in, when given.
    pub authorized_keys: Option<PathBuf>,
    /// The database; `None` for the platform's data directory.
    pub db: Option<PathBuf>,
    /// How long a player whose connection dropped keeps their seat.
    pub reconnect_grace: Duration,
    /// In a game without a clock, how long the side to move may go without
    /// moving before the other may claim the game.
    pub claim_after: Duration,
    /// How often the database file is looked at (still there, still the same).
    pub db_check: Duration,
}

/// Why the server could not start.
#[derive(Debug, Error)]
pub enum ServeError {
    /// No place for the host key.
    #[error("no data directory for the host key; give --host-key PATH")]
    NoKeyPath,
    /// No place for the database.
    #[error("no data directory for the database; give --db PATH")]
    NoDbPath,
    /// The database cannot be used; it is left as it was.
    #[error("--db {}: {problem}", path.display())]
    Database {
        /// The database file.
        path: PathBuf,
        /// What is wrong.
        problem: store::StoreProblem,
    },
    /// The host key could not be read, used or made.
    #[error("host key {}: {problem}", path.display())]
    HostKey {
        /// The key file.
        path: PathBuf,
        /// What is wrong.
        problem: host_key::FileProblem,
    },
    /// The authorized keys could not be read or used.
    #[error("--authorized-keys {}: {problem}", path.display())]
    AuthorizedKeys {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        problem: host_key::FileProblem,
    },
    /// The address cannot be listened on.
    #[error("cannot listen on {address}: {source}")]
    Listen {
        /// The address.
        address: SocketAddr,
        /// Why.
        source: io::Error,
    },
    /// The runtime or the signal handlers could not start.
    #[error("{0}")]
    Io(#[from] io::Error),
}

impl ServeError {
    /// True when a file given to the server is unusable as it is (exit
    /// status 2); false for failures to read, listen or run (status 1).
    pub fn is_bad_input(&self) -> bool {
        match self {
            ServeError::HostKey { problem, .. } | ServeError::AuthorizedKeys { problem, .. } => {
                problem.is_bad_input()
            }
            ServeError::Database { problem, .. } => problem.is_bad_input(),
            _ => false,
        }
    }
}

/// Where a connection is in its life, as its supervisor watches it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Key exchange and authentication, up to the shell.
    Handshake,
    /// Pushed out of the logins by newer connections.
    PushedOut,
    /// Too many refused requests: close now.
    Refused,
    /// A game (or the lobby) on screen.
    Playing,
    /// The channel is closed; the client should hang up.
    Finished,
    /// Close the connection now (a client that does not read).
    Kill,
}

/// What every connection shares.
struct Shared {
    lobby: Lobby,
    idle_timeout: Duration,
    send_timeout: Duration,
    admission: Arc<Admission>,
    guests: Option<Guests>,
    shutdown: watch::Receiver<bool>,
    engine: Arc<pool::Pool>,
    /// The commands' limits, answers kept and log.
    reads: reads::Reads,
    /// Log lines of connections closed before they reached the game.
    closed_early: std::sync::Mutex<LogBudget>,
}

impl Shared {
    /// A line about a connection closed before it reached the game: a churn
    /// of them writes no more than any one connection may.
    fn log_closed_early(&self, message: fmt::Arguments) {
        self.closed_early
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .log(message);
    }
}

/// One line on standard error, with the time: the server's log.
fn log(message: fmt::Arguments) {
    let now = humantime::format_rfc3339_seconds(std::time::SystemTime::now());
    let _ = writeln!(io::stderr().lock(), "{now} {message}");
}

/// Runs the server until SIGTERM, SIGHUP or Ctrl-C; prints the start line
/// to `out`, warnings about the files to `err`.
pub fn run(options: &Options, out: &mut dyn Write, err: &mut dyn Write) -> Result<(), ServeError> {
    let key_path = match &options.host_key {
        Some(path) => path.clone(),
        None => host_key::default_path().ok_or(ServeError::NoKeyPath)?,
    };
    let key = host_key::load_or_create(&key_path)?;
    let guests = match options.authorized_keys.as_deref() {
        Some(path) => {
            let (guests, warnings) = authorized_keys::read_authorized(path)?;
            for warning in warnings {
                writeln!(err, "warning: {warning}")?;
            }
            Some(guests)
        }
        None => None,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    // A write past a file-size limit fails (and is told) rather than
    // killing the server: SIGXFSZ is caught, for the life of the process.
    let _file_size = runtime.block_on(async { signal(SignalKind::from_raw(XFSZ)) })?;
    let db_path = match &options.db {
        Some(path) => path.clone(),
        None => store::default_path().ok_or(ServeError::NoDbPath)?,
    };
    let database = store::Database::open(&db_path).map_err(|problem| ServeError::Database {
        path: db_path.clone(),
        problem,
    })?;
    let fingerprint = key.public_key().fingerprint(HashAlg::Sha256);
    // A player is their key; without a guest list a client with no key
    // gets in as a guest through keyboard-interactive, asked nothing.
    let mut methods = MethodSet::empty();
    methods.push(MethodKind::PublicKey);
    if guests.is_none() {
        methods.push(MethodKind::KeyboardInteractive);
    }
    let config = Config {
        keys: vec![key],
        methods,
        auth_rejection_time: Duration::from_secs(1),
        // OpenSSH asks with "none" first to learn the methods: no need to wait on that.
        auth_rejection_time_initial: Some(Duration::ZERO),
        max_auth_attempts: MAX_AUTH_ATTEMPTS,
        // The session's own idle timeout says goodbye first; this is the backstop.
        inactivity_timeout: Some(options.idle_timeout + options.login_timeout),
        keepalive_interval: Some(Duration::from_secs(30)),
        keepalive_max: 3,
        // How far a client's input may run ahead of the server: keys need
        // little, and a flood waits in the network no longer than this
        // takes to read at the input rate (so its pings are judged soon).
        window_size: INPUT_WINDOW,
        nodelay: true,
        ..Config::default()
    };
    // Games in progress at the last stop come back now, each seat with a fresh grace.
    let rules = tictactoe_game::versus::Rules {
        control: None,
        grace: options.reconnect_grace,
        claim_after: options.claim_after,
    };
    let lobby = Lobby::new(store::Store::start(database, options.db_check), rules);
    let result = runtime.block_on(serve(
        options,
        Arc::new(config),
        (guests, lobby.clone()),
        &format!("{fingerprint}"),
        out,
    ));
    runtime.shutdown_timeout(Duration::from_secs(1));
    // What was handed to the store is written before the server stops.
    lobby.store().close();
    result
}

/// SIGXFSZ: a write went past the file-size limit (RLIMIT_FSIZE).
const XFSZ: i32 = 25;

/// The SSH window for a client's input: 128 KiB, 8 s of reading at the
/// input rate once the burst is spent.
const INPUT_WINDOW: u32 = 128 * 1024;

/// Authentication attempts one connection may make.
const MAX_AUTH_ATTEMPTS: usize = 6;

async fn serve(
    options: &Options,
    config: Arc<Config>,
    (guests, lobby): (Option<Guests>, Lobby),
    fingerprint: &str,
    out: &mut dyn Write,
) -> Result<(), ServeError> {
    let listen_error = |source| ServeError::Listen {
        address: options.listen,
        source,
    };
    let listener = TcpListener::bind(options.listen)
        .await
        .map_err(listen_error)?;
    let address = listener.local_addr().map_err(listen_error)?;
    let mut terminate = signal(SignalKind::terminate())?;
    let mut interrupt = signal(SignalKind::interrupt())?;
    let mut hangup = signal(SignalKind::hangup())?;
    writeln!(
        out,
        "tictactoe serve: listening on {address}, host key {fingerprint}"
    )?;
    out.flush()?;
    let (shutdown_tx, shutdown) = watch::channel(false);
    let limits = admission::Limits {
        max_sessions: options.max_sessions,
        max_per_address: options.max_per_address,
    };
    let versions = lobby.store().versions();
    let shared = Arc::new(Shared {
        lobby,
        idle_timeout: options.idle_timeout,
        send_timeout: options.send_timeout,
        admission: Arc::new(Admission::new(limits)),
        guests,
        shutdown,
        engine: pool::Pool::start(ENGINE_THREADS),
        reads: reads::Reads::new(versions),
        closed_early: std::sync::Mutex::new(LogBudget::new("connections closed before the game")),
    });
    let referee = {
        let shared = Arc::clone(&shared);
        tokio::spawn(async move { shared.lobby.referee(shared.shutdown.clone()).await })
    };
    let refusing = Arc::new(AtomicUsize::new(0));
    let mut refusals = LogBudget::new("refused connections");
    let mut connections = JoinSet::new();
    loop {
        tokio::select! {
            _ = terminate.recv() => break,
            _ = interrupt.recv() => break,
            _ = hangup.recv() => break,
            Some(_) = connections.join_next() => {}
            accepted = listener.accept() => match accepted {
                Ok((tcp, peer)) => {
                    // Config::nodelay is russh's own listener's: a stream
                    // handed to it keeps Nagle's algorithm unless told here,
                    // and a frame sent right after another waited for the
                    // client's delayed ACK (40 ms).
                    let _ = tcp.set_nodelay(true);
                    let phase = Arc::new(watch::channel(Phase::Handshake).0);
                    let progress = Arc::new(Progress::new(Instant::now()));
                    match shared.admission.arrive(peer.ip(), &phase, &progress, Instant::now()) {
                        Ok(ticket) => {
                            let login = Login { ticket, phase, progress };
                            connections.spawn(supervise(
                                Arc::clone(&shared),
                                Arc::clone(&config),
                                tcp,
                                peer,
                                login,
                                options.login_timeout,
                            ));
                        }
                        Err(refusal) => {
                            refusals.log(format_args!("refused connection from {peer}: {}", refusal.reason()));
                            refuse_early(tcp, &refusal.message(shared.admission.limits()), &refusing);
                        }
                    }
                }
                // Out of file descriptors, or a connection reset before it was
                // accepted: wait a moment rather than spin.
                Err(error) => {
                    refusals.log(format_args!("accept failed: {error}"));
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            },
        }
    }
    drop(listener);
    let told = text::count(connections.len() as u64, "connection", "connections");
    log(format_args!("shutting down: {told} told"));
    shutdown_tx.send_replace(true);
    // Every connection ends within its own grace; this is the backstop.
    let all_closed = async { while connections.join_next().await.is_some() {} };
    if tokio::time::timeout(SHUTDOWN_GRACE + CLOSE_GRACE, all_closed)
        .await
        .is_err()
    {
        connections.abort_all();
    }
    let _ = referee.await;
    log(format_args!("stopped"));
    Ok(())
}

/// Threads answering the engine's requests for every session.
const ENGINE_THREADS: usize = 2;

/// The SSH disconnect reason "too many connections" (RFC 4253).
const TOO_MANY_CONNECTIONS: u32 = 12;

/// What a connection refused before its handshake receives: the reason
/// as a line of text (what `nc` shows), then the SSH version and a
/// disconnect message in the clear (what `ssh` shows: "Received disconnect
/// ... too many new connections ...").
fn refusal_bytes(message: &str) -> Vec<u8> {
    let mut bytes = format!("tictactoe: {message}\r\nSSH-2.0-tictactoe\r\n").into_bytes();
    let mut payload = vec![1u8]; // SSH_MSG_DISCONNECT
    payload.extend_from_slice(&TOO_MANY_CONNECTIONS.to_be_bytes());
    let text = format!("tictactoe: {message}");
    payload.extend_from_slice(&(text.len() as u32).to_be_bytes());
    payload.extend_from_slice(text.as_bytes());
    payload.extend_from_slice(&0u32.to_be_bytes()); // no language tag
    // Unencrypted packets are padded to 8 bytes, with at least 4 of padding.
    let mut padding = 8 - (5 + payload.len()) % 8;
    if padding < 4 {
        padding += 8;
    }
    let length = 1 + payload.len() + padding;
    bytes.extend_from_slice(&(length as u32).to_be_bytes());
    bytes.push(padding as u8);
    bytes.extend_from_slice(&payload);
    bytes.extend(std::iter::repeat_n(0u8, padding));
    bytes
}

/// Tells a connection why it is refused and closes it, without a key
/// exchange; past [`REFUSAL_ROOM`] at once it is closed without a word.
fn refuse_early(tcp: TcpStream, message: &str, refusing: &Arc<AtomicUsize>) {
    if refusing.fetch_add(1, Ordering::SeqCst) >= REFUSAL_ROOM {
        refusing.fetch_sub(1, Ordering::SeqCst);
        return;
    }
    let bytes = refusal_bytes(message);
    let refusing = Arc::clone(refusing);
    tokio::spawn(async move {
        let mut tcp = tcp;
        let told = async {
            tcp.write_all(&bytes).await?;
            tcp.shutdown().await?;
            // Read what the client sends until it hangs up, so that closing
            // does not reset the connection before it has read the reason.
            let mut sink = [0u8; 1024];
            while tcp.read(&mut sink).await? > 0 {}
            io::Result::Ok(())
        };
        let _ = tokio::time::timeout(REFUSAL_TIME, told).await;
        refusing.fetch_sub(1, Ordering::SeqCst);
    });
}

/// Runs one connection and makes sure it ends: a login that does not reach
/// the game within the login timeout or is pushed out, a client that does
/// not read, or one that stays after its game closed is cut off by closing
/// the socket under the SSH session.
async fn supervise(
    shared: Arc<Shared>,
    config: Arc<Config>,
    tcp: TcpStream,
    peer: SocketAddr,
    login: Login,
    login_timeout: Duration,
) {
    let Login {
        mut ticket,
        phase,
        progress,
    } = login;
    // One deadline for the whole login, from the first byte: reading the
    // client's version line counts too.
    let login_ends = tokio::time::Instant::now() + login_timeout;
    // A second handle on the socket, to shut it down from outside the session.
    let Ok(killer) = tcp.as_fd().try_clone_to_owned() else {
        return;
    };
    let killer = std::net::TcpStream::from(killer);
    let mut phases = phase.subscribe();
    let handler = Connection::new(
        Arc::clone(&shared),
        peer,
        Arc::clone(&phase),
        Arc::clone(&progress),
    );
    let mut shutdown = shared.shutdown.clone();
    let mut why = None;
    // What the client sends tells the admission how far it has come.
    let tcp = Watched::new(tcp, progress);
    let started = tokio::select! {
        started = russh::server::run_stream(config, tcp, handler) => started.ok(),
        () = tokio::time::sleep_until(login_ends) => {
            why = Some(LoginEnd::LoginTimeout);
            None
        }
        _ = phases.wait_for(|phase| *phase == Phase::PushedOut) => {
            why = Some(LoginEnd::PushedOut);
            None
        }
        _ = shutdown.wait_for(|down| *down) => None,
    };
    let Some(running) = started else {
        let _ = killer.shutdown(Shutdown::Both);
        if let Some(why) = why {
            shared.log_closed_early(format_args!(
                "disconnect {peer}: {}",
                why.describe(login_timeout)
            ));
        }
        return;
    };
    tokio::pin!(running);
    let mut finished_at = None;
    loop {
        let phase = *phases.borrow_and_update();
        let going_down = *shutdown.borrow_and_update();
        if phase != Phase::Handshake {
            ticket.leave();
        }
        let deadline = match phase {
            Phase::Handshake if going_down => break,
            Phase::Handshake => Some(login_ends),
            Phase::PushedOut => {
                why = Some(LoginEnd::PushedOut);
                break;
            }
            Phase::Refused => {
                // The connection said why and stops reading: let it send that.
                why = Some(LoginEnd::Refused);
                let _ = tokio::time::timeout(CLOSE_GRACE, &mut running).await;
                break;
            }
            Phase::Playing => None,
            Phase::Finished => Some(*finished_at.get_or_insert_with(|| {
                // The channel is closed and the client should hang up (ssh
                // does, at once, with the exit status): else hang up on it,
                // and past the grace cut it off. Not at once, going down
                // too: ssh exits on a disconnect before it writes what it
                // still holds, the goodbye included.
                let grace = if going_down {
                    SHUTDOWN_GRACE
                } else {
                    CLOSE_GRACE
                };
                let handle = running.handle();
                tokio::spawn(async move {
                    tokio::time::sleep(HANG_UP_AFTER).await;
                    let _ = handle
                        .disconnect(Disconnect::ByApplication, "goodbye".into(), String::new())
                        .await;
                });
                tokio::time::Instant::now() + grace
            })),
            Phase::Kill => break,
        };
        tokio::select! {
            _ = &mut running => break,
            changed = phases.changed() => {
                if changed.is_err() {
                    let _ = tokio::time::timeout(CLOSE_GRACE, &mut running).await;
                    break;
                }
            }
            _ = shutdown.changed(), if phase == Phase::Handshake => {}
            () = sleep_until(deadline) => {
                if phase == Phase::Handshake {
                    why = Some(LoginEnd::LoginTimeout);
                }
                break;
            }
        }
    }
    let _ = killer.shutdown(Shutdown::Both);
    // The session may end before the loop saw why: a connection refused too
    // often closes as soon as the client is told, and the loop may wake to
    // both at once. The last phase says.
    let why = why.or(match *phases.borrow() {
        Phase::Refused => Some(LoginEnd::Refused),
        Phase::PushedOut => Some(LoginEnd::PushedOut),
        _ => None,
    });
    match why {
        Some(why) => shared.log_closed_early(format_args!(
            "disconnect {peer}: {}",
            why.describe(login_timeout)
        )),
        None if *phases.borrow() == Phase::Handshake => shared.log_closed_early(format_args!(
            "disconnect {peer}: before any game (not let in, or no shell asked for)"
        )),
        None => {}
    }
}

/// A connection's place among the logins, its phase and how far it has come.
struct Login {
    ticket: LoginSlot,
    phase: Arc<watch::Sender<Phase>>,
    progress: Arc<Progress>,
}

/// Why the supervisor closed a connection.
#[derive(Debug, Clone, Copy)]
enum LoginEnd {
    LoginTimeout,
    PushedOut,
    Refused,
}

impl LoginEnd {
    fn describe(self, login_timeout: Duration) -> String {
        match self {
            LoginEnd::LoginTimeout => format!(
                "not in the game {} after connecting (--login-timeout)",
                humantime::format_duration(login_timeout)
            ),
            LoginEnd::PushedOut => {
                "pushed out by newer connections (too many logging in)".to_string()
            }
            LoginEnd::Refused => connection::TOO_MANY_REFUSED.to_string(),
        }
    }
}

/// Sleeps until `at`, or forever without one.
async fn sleep_until(at: Option<tokio::time::Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

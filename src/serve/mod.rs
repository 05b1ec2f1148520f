//! `tictactoe serve`: the game over SSH, for players on other machines with
//! nothing but an `ssh` client. A third front end beside [`crate::tui`] and
//! [`crate::plain`], over the same screen model ([`crate::screen`]).
//!
//! - `connection`: the SSH side of a connection: authentication, and
//!   refusing every request but one terminal with a shell.
//! - `session`: one client's screens (the lobby, a game), drawn through a
//!   bounded buffer (`output`) from keys decoded by
//!   [`crate::screen::decode`].
//! - `lobby`: who is here, who waits, the games in progress;
//!   `lobby_screen` draws it.
//! - `host_key`: the server's key and the guest list.
//!
//! This module listens, applies the connection limits, and shuts down.

mod connection;
mod host_key;
mod lobby;
mod lobby_screen;
mod output;
mod session;

use std::collections::HashMap;
use std::fmt;
use std::io::{self, Write};
use std::net::{IpAddr, Shutdown, SocketAddr};
use std::os::fd::AsFd;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use russh::keys::HashAlg;
use russh::keys::ssh_key::public::KeyData;
use russh::server::Config;
use russh::{Disconnect, MethodKind, MethodSet};
use thiserror::Error;
use tokio::net::{TcpListener, TcpStream};
use tokio::signal::unix::{SignalKind, signal};
use tokio::sync::watch;
use tokio::task::JoinSet;

use self::connection::Connection;
use self::lobby::Lobby;
use crate::text;

/// How long a connection may take from its first byte to its game.
const HANDSHAKE_TIME: Duration = Duration::from_secs(30);
/// How long a client may keep a connection open after its game closed.
const CLOSE_GRACE: Duration = Duration::from_secs(5);
/// How long a client is given to hang up itself after its channel closed.
const HANG_UP_AFTER: Duration = Duration::from_secs(1);
/// How long clients are given to hear that the server is going down.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);
/// Connections beyond the limits that are still answered with a message;
/// past these they are closed at once.
const REFUSAL_ROOM: usize = 16;

/// How the server is run: the flags of `tictactoe serve`.
#[derive(Debug, Clone)]
pub struct Options {
    /// Address and port to listen on.
    pub listen: SocketAddr,
    /// The host key file; `None` for the platform's data directory.
    pub host_key: Option<PathBuf>,
    /// Most games at once.
    pub max_sessions: usize,
    /// Most connections from one address at once.
    pub max_per_address: usize,
    /// A client with no key press for this long is disconnected.
    pub idle_timeout: Duration,
    /// Only these public keys get in, when given.
    pub authorized_keys: Option<PathBuf>,
}

/// Why the server could not start.
#[derive(Debug, Error)]
pub enum ServeError {
    /// No place for the host key.
    #[error("no data directory for the host key; give --host-key PATH")]
    NoKeyPath,
    /// The host key could not be read or made.
    #[error("host key {}: {reason}", path.display())]
    HostKey {
        /// The key file.
        path: PathBuf,
        /// What went wrong.
        reason: String,
    },
    /// The authorized keys could not be read.
    #[error("--authorized-keys {}: {reason}", path.display())]
    AuthorizedKeys {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        reason: String,
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

/// Where a connection is in its life, as its supervisor watches it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Key exchange and authentication, up to the shell.
    Handshake,
    /// A game (or the lobby) on screen.
    Playing,
    /// The channel is closed; the client should hang up.
    Finished,
    /// Close the connection now (a client that does not read).
    Kill,
}

/// Why a connection is turned away.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Refusal {
    /// `--max-sessions` games are in progress.
    Full,
    /// `--max-per-address` connections from this address.
    Address,
}

impl Refusal {
    fn reason(self) -> &'static str {
        match self {
            Refusal::Full => "server full",
            Refusal::Address => "too many from one address",
        }
    }

    fn message(self, shared: &Shared) -> String {
        match self {
            Refusal::Full => format!(
                "the server is full ({} players); try again later",
                shared.max_sessions
            ),
            Refusal::Address => format!(
                "too many connections from your address ({}); close one and try again",
                shared.max_per_address
            ),
        }
    }
}

/// What every connection shares.
struct Shared {
    lobby: Lobby,
    idle_timeout: Duration,
    max_sessions: usize,
    max_per_address: usize,
    authorized: Option<Vec<KeyData>>,
    shutdown: watch::Receiver<bool>,
    counts: Mutex<Counts>,
}

#[derive(Default)]
struct Counts {
    connections: usize,
    games: usize,
    by_address: HashMap<IpAddr, usize>,
}

/// A connection's place in the counts, given back when it closes.
struct Slot {
    shared: Arc<Shared>,
    address: IpAddr,
    game: bool,
}

impl Slot {
    /// The game is over: its place is free for another, while the
    /// connection still counts until it closes.
    fn end_game(&mut self) {
        if std::mem::take(&mut self.game) {
            self.shared.counts().games -= 1;
        }
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.end_game();
        let mut counts = self.shared.counts();
        counts.connections -= 1;
        if let Some(n) = counts.by_address.get_mut(&self.address) {
            *n -= 1;
            if *n == 0 {
                counts.by_address.remove(&self.address);
            }
        }
    }
}

impl Shared {
    fn counts(&self) -> MutexGuard<'_, Counts> {
        self.counts.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Counts a new connection in: admitted to a game, refused with a
    /// message, or (`None`) past even the room for refusals.
    fn admit(self: &Arc<Shared>, address: IpAddr) -> Option<(Slot, Option<Refusal>)> {
        let mut counts = self.counts();
        let from_address = counts.by_address.get(&address).copied().unwrap_or(0);
        if counts.connections >= self.max_sessions + REFUSAL_ROOM
            || from_address >= self.max_per_address + REFUSAL_ROOM
        {
            return None;
        }
        let refusal = if from_address >= self.max_per_address {
            Some(Refusal::Address)
        } else if counts.games >= self.max_sessions {
            Some(Refusal::Full)
        } else {
            None
        };
        counts.connections += 1;
        *counts.by_address.entry(address).or_default() += 1;
        if refusal.is_none() {
            counts.games += 1;
        }
        drop(counts);
        let slot = Slot {
            shared: Arc::clone(self),
            address,
            game: refusal.is_none(),
        };
        Some((slot, refusal))
    }
}

/// One line on standard error, with the time: the server's log.
fn log(message: fmt::Arguments) {
    let now = humantime::format_rfc3339_seconds(std::time::SystemTime::now());
    let _ = writeln!(io::stderr().lock(), "{now} {message}");
}

/// Runs the server until SIGTERM or Ctrl-C; prints the start line to `out`.
pub fn run(options: &Options, out: &mut dyn Write) -> Result<(), ServeError> {
    let key_path = match &options.host_key {
        Some(path) => path.clone(),
        None => host_key::default_path().ok_or(ServeError::NoKeyPath)?,
    };
    let key = host_key::load_or_create(&key_path)?;
    let authorized = options
        .authorized_keys
        .as_deref()
        .map(host_key::read_authorized)
        .transpose()?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        // The engine's work: 3x3 answers take microseconds, explanations a little more.
        .max_blocking_threads(2)
        .enable_all()
        .build()?;
    let fingerprint = key.public_key().fingerprint(HashAlg::Sha256);
    let mut methods = MethodSet::empty();
    methods.push(if authorized.is_some() {
        MethodKind::PublicKey
    } else {
        MethodKind::None
    });
    let config = Config {
        keys: vec![key],
        methods,
        auth_rejection_time: Duration::from_secs(1),
        // OpenSSH asks with "none" first to learn the methods: no need to wait on that.
        auth_rejection_time_initial: Some(Duration::ZERO),
        // The session's own idle timeout says goodbye first; this is the backstop.
        inactivity_timeout: Some(options.idle_timeout + HANDSHAKE_TIME),
        keepalive_interval: Some(Duration::from_secs(30)),
        keepalive_max: 3,
        nodelay: true,
        ..Config::default()
    };
    let result = runtime.block_on(serve(
        options,
        Arc::new(config),
        authorized,
        &format!("{fingerprint}"),
        out,
    ));
    runtime.shutdown_timeout(Duration::from_secs(1));
    result
}

async fn serve(
    options: &Options,
    config: Arc<Config>,
    authorized: Option<Vec<KeyData>>,
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
    writeln!(
        out,
        "tictactoe serve: listening on {address}, host key {fingerprint}"
    )?;
    out.flush()?;
    let (shutdown_tx, shutdown) = watch::channel(false);
    let shared = Arc::new(Shared {
        lobby: Lobby::default(),
        idle_timeout: options.idle_timeout,
        max_sessions: options.max_sessions,
        max_per_address: options.max_per_address,
        authorized,
        shutdown,
        counts: Mutex::default(),
    });
    let mut connections = JoinSet::new();
    loop {
        tokio::select! {
            _ = terminate.recv() => break,
            _ = interrupt.recv() => break,
            Some(_) = connections.join_next() => {}
            accepted = listener.accept() => match accepted {
                Ok((tcp, peer)) => match shared.admit(peer.ip()) {
                    Some((slot, refusal)) => {
                        connections.spawn(supervise(
                            Arc::clone(&shared),
                            Arc::clone(&config),
                            tcp,
                            peer,
                            slot,
                            refusal,
                        ));
                    }
                    None => log(format_args!("refused connection from {peer}: too many connections")),
                },
                // Out of file descriptors, or a connection reset before it was
                // accepted: wait a moment rather than spin.
                Err(error) => {
                    log(format_args!("accept failed: {error}"));
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            },
        }
    }
    drop(listener);
    let told = text::count(connections.len() as u64, "connection", "connections");
    log(format_args!("shutting down: {told} told"));
    shutdown_tx.send_replace(true);
    let all_closed = async { while connections.join_next().await.is_some() {} };
    if tokio::time::timeout(SHUTDOWN_GRACE, all_closed)
        .await
        .is_err()
    {
        connections.abort_all();
    }
    log(format_args!("stopped"));
    Ok(())
}

/// Runs one connection and makes sure it ends: a handshake that never gets
/// to a game, a client that does not read, or one that stays after its
/// game closed is cut off by closing the socket under the SSH session.
async fn supervise(
    shared: Arc<Shared>,
    config: Arc<Config>,
    tcp: TcpStream,
    peer: SocketAddr,
    mut slot: Slot,
    refusal: Option<Refusal>,
) {
    // A second handle on the socket, to shut it down from outside the session.
    let Ok(killer) = tcp.as_fd().try_clone_to_owned() else {
        return;
    };
    let killer = std::net::TcpStream::from(killer);
    let phase = Arc::new(watch::channel(Phase::Handshake).0);
    let mut phases = phase.subscribe();
    let handler = Connection::new(Arc::clone(&shared), peer, refusal, phase);
    let started = tokio::time::timeout(
        HANDSHAKE_TIME,
        russh::server::run_stream(config, tcp, handler),
    );
    let Ok(Ok(running)) = started.await else {
        let _ = killer.shutdown(Shutdown::Both);
        return;
    };
    tokio::pin!(running);
    let handshake_ends = tokio::time::Instant::now() + HANDSHAKE_TIME;
    let mut finished_at = None;
    let mut shutdown = shared.shutdown.clone();
    loop {
        let phase = *phases.borrow_and_update();
        let deadline = match phase {
            Phase::Handshake if *shutdown.borrow_and_update() => break,
            Phase::Handshake => Some(handshake_ends),
            Phase::Playing => None,
            Phase::Finished => Some(*finished_at.get_or_insert_with(|| {
                slot.end_game();
                // The channel is closed and the client should hang up (ssh
                // does, at once, with the exit status): else hang up on it,
                // and past the grace cut it off.
                let handle = running.handle();
                tokio::spawn(async move {
                    tokio::time::sleep(HANG_UP_AFTER).await;
                    let _ = handle
                        .disconnect(Disconnect::ByApplication, "goodbye".into(), String::new())
                        .await;
                });
                tokio::time::Instant::now() + CLOSE_GRACE
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
            () = sleep_until(deadline) => break,
        }
    }
    let _ = killer.shutdown(Shutdown::Both);
    if let Some(refusal) = refusal {
        log(format_args!("disconnect {peer}: {}", refusal.reason()));
    } else if *phases.borrow() == Phase::Handshake {
        log(format_args!(
            "disconnect {peer}: before any game (not let in, or no shell asked for)"
        ));
    }
}

/// Sleeps until `at`, or forever without one.
async fn sleep_until(at: Option<tokio::time::Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

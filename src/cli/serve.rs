//! The flags of `tictactoe serve`.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use std::io::{self, Write};

use clap::Args;

use super::ExitStatus;
use tictactoe_serve::Options;

/// Options of `tictactoe serve`.
#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    /// Address and port to listen on; 0.0.0.0:2222 opens the game to the network.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:2222")]
    pub listen: SocketAddr,
    /// The server's ed25519 key, made on first start [default: host_key in the platform's data directory].
    #[arg(long, value_name = "PATH")]
    pub host_key: Option<PathBuf>,
    /// Most players at once (more are told the server is full), and most connections logging in at once.
    #[arg(long, value_name = "N", default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub max_sessions: u32,
    /// Most players from one address at once, and most connections logging in from one.
    #[arg(long, value_name = "N", default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub max_per_address: u32,
    /// Disconnect a player after this many seconds without a key press.
    #[arg(long, value_name = "SECS", default_value_t = 600, value_parser = clap::value_parser!(u64).range(1..=604_800))]
    pub idle_timeout: u64,
    /// Close a connection that is not in the game this many seconds after connecting.
    #[arg(long, value_name = "SECS", default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub login_timeout: u64,
    /// Disconnect a client that has not read its screen for this many seconds.
    #[arg(long, value_name = "SECS", default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub send_timeout: u64,
    /// Let in only the public keys in this file (OpenSSH authorized_keys format) [default: anyone, no password].
    #[arg(long, value_name = "PATH")]
    pub authorized_keys: Option<PathBuf>,
    /// The SQLite database of players, ratings and games, made on first start [default: tictactoe.db beside the host key].
    #[arg(long, value_name = "PATH")]
    pub db: Option<PathBuf>,
    /// Keep the seat of a player whose connection dropped mid-game this many seconds; then they forfeit.
    #[arg(long, value_name = "SECS", default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub reconnect_grace: u64,
    /// In a game without a clock, let the waiting player claim the game once the other has not moved for this many seconds.
    #[arg(long, value_name = "SECS", default_value_t = 120, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub claim_after: u64,
    /// Look this often, in seconds, whether the database file is still the one opened (not deleted or replaced).
    #[arg(long, value_name = "SECS", default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub db_check: u64,
}

impl ServeArgs {
    /// Runs the server until it is told to stop, on the process's own streams.
    pub fn run(&self) -> io::Result<ExitStatus> {
        self.run_with(&mut io::stdout(), &mut io::stderr())
    }

    /// Runs the server until it is told to stop: what it says goes to `out`,
    /// the error that stops it to `err`.
    pub fn run_with(&self, out: &mut dyn Write, err: &mut dyn Write) -> io::Result<ExitStatus> {
        match tictactoe_serve::run(&self.options(), out, err) {
            Ok(()) => Ok(ExitStatus::Success),
            Err(error) => {
                let status = if error.is_bad_input() {
                    ExitStatus::BadInput
                } else {
                    ExitStatus::Failure
                };
                writeln!(err, "error: {error}").map(|()| status)
            }
        }
    }

    /// The server's options.
    pub fn options(&self) -> Options {
        Options {
            listen: self.listen,
            host_key: self.host_key.clone(),
            max_sessions: self.max_sessions as usize,
            max_per_address: self.max_per_address as usize,
            idle_timeout: Duration::from_secs(self.idle_timeout),
            login_timeout: Duration::from_secs(self.login_timeout),
            send_timeout: Duration::from_secs(self.send_timeout),
            authorized_keys: self.authorized_keys.clone(),
            db: self.db.clone(),
            reconnect_grace: Duration::from_secs(self.reconnect_grace),
            claim_after: Duration::from_secs(self.claim_after),
            db_check: Duration::from_secs(self.db_check),
        }
    }
}

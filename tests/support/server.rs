//! Starting `tictactoe serve` and trusting its host key: shared by the SSH
//! tests (`tests/serve.rs`, through `support`) and the server's benchmark
//! (`benches/serve.rs`, which includes this file by its path).

use std::io::{BufRead, BufReader, Read};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use russh::client;
use russh::keys::{HashAlg, PublicKeyOrCertificate};

/// A server started on a free port of 127.0.0.1.
pub struct Started {
    /// The server's process.
    pub child: Child,
    /// Where it listens, from its start line.
    pub address: SocketAddr,
    /// Its host key's fingerprint (`SHA256:...`), from its start line.
    pub fingerprint: String,
    /// Its log (standard error), line by line as each is read, with when.
    pub log: mpsc::Receiver<(Instant, String)>,
}

/// Starts `command` (the binary with `serve` and its options, listening on
/// `127.0.0.1:0`) and reads its start line: "tictactoe serve: listening on
/// ADDR, host key SHA256:...". Panics with what the server said if there is
/// no such line.
pub fn start(command: &mut Command) -> Started {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the server starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("the start line");
    let field = |after: &str| line.split(after).nth(1).map(|rest| rest.trim());
    let address = field("listening on ")
        .and_then(|rest| rest.split(',').next())
        .and_then(|address| address.parse().ok());
    let fingerprint = field("host key ").map(str::to_string);
    let (Some(address), Some(fingerprint)) = (address, fingerprint) else {
        let mut said = String::new();
        let stderr = child.stderr.as_mut().expect("stderr");
        let _ = stderr.read_to_string(&mut said);
        panic!("no address and fingerprint in the start line: {line}{said}")
    };
    let (lines, log) = mpsc::channel();
    let stderr = BufReader::new(child.stderr.take().expect("stderr"));
    std::thread::spawn(move || {
        for line in stderr.lines().map_while(Result::ok) {
            // Nobody may be listening any more: the line is dropped then.
            let _ = lines.send((Instant::now(), line));
        }
    });
    Started {
        child,
        address,
        fingerprint,
        log,
    }
}

/// A client's handler that trusts any host key, remembering its fingerprint.
#[derive(Default)]
pub struct Trusting {
    /// The fingerprint of the key the server showed, once it has.
    pub seen: Arc<Mutex<Option<String>>>,
}

impl client::Handler for Trusting {
    type Error = russh::Error;

    async fn check_server_key(
        &mut self,
        key: &PublicKeyOrCertificate,
    ) -> Result<bool, Self::Error> {
        if let PublicKeyOrCertificate::PublicKey { key, .. } = key {
            *self.seen.lock().expect("lock") = Some(key.fingerprint(HashAlg::Sha256).to_string());
        }
        Ok(true)
    }
}

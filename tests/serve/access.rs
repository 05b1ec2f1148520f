//! Keys and names: the guest list and its options, the key files checked
//! at start, and names that look like others'.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::support;
use crate::support::ssh::*;

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

// The options of authorized_keys are enforced.
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

// The key files are checked before anything is read.
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
    // An empty key file, and a key of another kind than the help says.
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

// Look-alike names, SIGHUP, and a client that reads nothing at shutdown.
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

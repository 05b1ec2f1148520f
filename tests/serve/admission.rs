//! Who gets in: requests refused, places for people and not sockets,
//! logins' deadline, and connections refused past their rate.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use russh::client;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpSocket;

use crate::support::ssh::*;

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

// Places are for people, not sockets.
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

// A churn of silent connections filled the login places
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

// One deadline from the first byte, the version line included.
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

// Refused requests close the connection before they flood the log.
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

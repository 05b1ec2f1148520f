//! Going down on SIGTERM and SIGHUP: every client told, none waited for
//! that does not read.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use rustix::process::Signal;

use crate::support::ssh::*;

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

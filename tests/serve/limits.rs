//! What a client cannot do to the server: floods of bytes, keys and
//! window sizes, screens it never reads, idling, and the memory a session takes.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::support::ssh::*;
use tictactoe_screen::decode::KeyDecoder;

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

// Keys beyond a rate are dropped, and the player told once.
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

// Window changes are rate limited as keys are (a flood
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

// An idle session's memory does not follow its terminal's size.
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

//! Ranked play: ratings, the leaderboard and history, names that belong to
//! keys, seats kept for the grace, a restart after SIGKILL, and unusable
//! databases refused.

use std::process::Stdio;

use rustix::process::Signal;

use crate::support;
use crate::support::ssh::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_rates_both_players_as_glicko_2_does_and_shows_in_leaderboard_and_history() {
    use skillratings::Outcomes;
    use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};
    let server = Server::start(&[]);
    let (alice, bob, alice_key, bob_key) = rated_pair(&server).await;
    // X takes the top row: a1 b1 c1.
    play_moves(&alice, &bob, &["a1", "a2", "b1", "b2", "c1"]).await;
    alice
        .wait_for(|s| s.contains("X wins: you win!"), "the win")
        .await;
    bob.wait_for(|s| s.contains("X wins: you lose"), "the loss")
        .await;
    server
        .wait_log("game end alice (X) vs bob (O): X wins")
        .await;

    let (x, o) = glicko2(
        &Glicko2Rating::new(),
        &Glicko2Rating::new(),
        &Outcomes::WIN,
        &Glicko2Config::new(),
    );
    let board = leaderboard(&server, &bob_key, "bob").await;
    assert_eq!(
        board,
        vec![
            ("alice".to_string(), x.rating, x.deviation, x.volatility),
            ("bob".to_string(), o.rating, o.deviation, o.volatility),
        ]
    );
    // Both screens show the new ratings, provisional after one game.
    alice
        .wait_for(
            |s| s.contains(&format!("alice ({:.0}?): X", x.rating)),
            "the new rating",
        )
        .await;

    let (text, _, status) = command(&server, &alice_key, "alice", "leaderboard").await;
    assert_eq!(status, Some(0));
    let first = text
        .lines()
        .find(|line| line.trim_start().starts_with("1. "));
    assert!(text.contains("\n4x4 k=3\n"), "{text}");
    assert_eq!(
        first.map(|line| line.split_whitespace().collect::<Vec<_>>()),
        Some(vec![
            "1.",
            "alice",
            &format!("{:.0}?", x.rating),
            "1",
            "game"
        ]),
        "{text}"
    );

    // The history is a records file: tictactoe review reads it.
    let (history, err, status) = command(&server, &bob_key, "bob", "history").await;
    assert_eq!(status, Some(0), "{err}");
    assert!(history.contains("[Outcome \"x-wins\"]"), "{history}");
    assert!(history.contains("1. a1 a2 2. b1 b2 3. c1 1-0"), "{history}");
    let mut review = support::binary()
        .args(["review", "--json", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("review runs");
    std::io::Write::write_all(&mut review.stdin.take().expect("stdin"), history.as_bytes())
        .expect("written");
    let reviewed = review.wait_with_output().expect("review ends");
    assert!(
        reviewed.status.success(),
        "{}",
        String::from_utf8_lossy(&reviewed.stderr)
    );
    let last = String::from_utf8_lossy(&reviewed.stdout)
        .lines()
        .last()
        .map(str::to_string);
    let last: serde_json::Value = serde_json::from_str(&last.expect("a line")).expect("JSON");
    assert_eq!(
        (last["result"].as_str(), last["plies"].as_u64()),
        (Some("x-wins"), Some(5))
    );

    let (json, _, _) = command(&server, &bob_key, "bob", "history --json").await;
    let json: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    let game = &json["games"][0];
    assert_eq!(game["result"], "x-wins");
    assert_eq!(game["you"], "o");
    assert_eq!(
        game["moves"],
        serde_json::json!(["a1", "a2", "b1", "b2", "c1"])
    );
    assert_eq!(json["ratings"][0]["rating"].as_f64(), Some(o.rating));

    // A guest (no key) has no history.
    let (_, err, status) = {
        let connection = Connection::open(&server, "carol", "127.0.0.1").await;
        let mut channel = connection
            .handle
            .channel_open_session()
            .await
            .expect("a channel");
        channel.exec(true, "history").await.expect("sent");
        let (said, status) = to_the_end(&mut channel).await;
        ((), said, status)
    };
    assert_eq!(status, Some(1));
    assert!(err.contains("history is a key's"), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_with_no_games_kept_gets_an_empty_records_file_and_a_note_why() {
    let server = Server::start(&[]);
    let key = new_key();
    let (out, err, status) = command(&server, &key, "dana", "history").await;
    assert_eq!((out.as_str(), status), ("", Some(0)));
    assert!(err.contains("no games of this key's are kept yet"), "{err}");
    let (json, err, status) = command(&server, &key, "dana", "history --json").await;
    let json: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(json["games"], serde_json::json!([]));
    assert_eq!((err.as_str(), status), ("", Some(0)));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_name_taken_by_another_key_is_refused() {
    let server = Server::start(&[]);
    let alice = keyed(&server, &new_key(), "alice").await;
    alice
        .wait_for(|s| s.contains("you are alice"), "the lobby")
        .await;
    let impostor = keyed(&server, &new_key(), "alice").await;
    impostor
        .wait_for(
            |s| s.contains("the name alice belongs to another player's key"),
            "the refusal",
        )
        .await;
    assert_eq!(impostor.closed().await, Some(1));
    // A guest may not take it either.
    let guest = Connection::open(&server, "alice", "127.0.0.1")
        .await
        .play(COLS, ROWS, &[])
        .await;
    guest
        .wait_for(
            |s| s.contains("belongs to another player's key"),
            "the refusal",
        )
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_player_comes_back_within_the_grace_and_finishes_the_game() {
    let server = Server::start(&["--reconnect-grace", "120"]);
    let (alice, bob, _, bob_key) = rated_pair(&server).await;
    play_moves(&alice, &bob, &["a1", "a2", "b1"]).await;
    let carol = Player::join(&server, "carol").await;
    carol.press("w").await;
    carol
        .wait_for(|s| s.contains("bob (O) to move"), "watching")
        .await;

    drop(bob);
    for told in [&alice, &carol] {
        told.wait_for(
            |s| s.contains("bob (O) is away:") && s.contains("left to come back"),
            "away",
        )
        .await;
    }
    server.wait_log("away bob from alice (X) vs bob (O)").await;

    // The same key logs in again: the game, as it was.
    let bob = keyed(&server, &bob_key, "bob").await;
    bob.wait_for(
        |s| s.contains("Your turn: you are O") && s.contains("3 X b1"),
        "the game again",
    )
    .await;
    alice
        .wait_for(|s| s.contains("bob's turn (O)"), "bob is back")
        .await;
    // bob lets X finish the row: X wins.
    bob.click(4, "d4").await;
    alice
        .wait_for(|s| s.contains("Your turn"), "alice's turn")
        .await;
    alice.click(4, "c1").await;
    bob.wait_for(|s| s.contains("X wins: you lose"), "the end")
        .await;
    carol
        .wait_for(|s| s.contains("alice (X) wins"), "the end watched")
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_who_does_not_come_back_forfeits_a_rated_loss() {
    let server = Server::start(&["--reconnect-grace", "1"]);
    let (alice, bob, alice_key, _) = rated_pair(&server).await;
    play_moves(&alice, &bob, &["a1", "a2", "b1", "b2"]).await;
    drop(bob);
    alice
        .wait_for(|s| s.contains("bob did not come back"), "the forfeit")
        .await;
    server
        .wait_log("game end alice (X) vs bob (O): bob did not come back")
        .await;
    let board = leaderboard(&server, &alice_key, "alice").await;
    let names: Vec<&str> = board.iter().map(|(name, ..)| name.as_str()).collect();
    assert_eq!(names, ["alice", "bob"]);
    assert!(board[0].1 > 1500.0 && board[1].1 < 1500.0, "{board:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_early_drop_that_never_comes_back_aborts_unrated() {
    let server = Server::start(&["--reconnect-grace", "1"]);
    let (alice, bob, alice_key, _) = rated_pair(&server).await;
    play_moves(&alice, &bob, &["a1", "a2"]).await;
    drop(bob);
    alice
        .wait_for(
            |s| s.contains("bob did not come back: aborted, unrated"),
            "the abort",
        )
        .await;
    assert!(leaderboard(&server, &alice_key, "alice").await.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_login_with_one_key_takes_the_seat_and_the_first_is_told() {
    let server = Server::start(&[]);
    let (alice, bob, _, bob_key) = rated_pair(&server).await;
    play_moves(&alice, &bob, &["a1"]).await;
    let again = keyed(&server, &bob_key, "bob").await;
    again
        .wait_for(
            |s| s.contains("Your turn: you are O") && s.contains("1 X a1"),
            "the seat",
        )
        .await;
    bob.wait_for(
        |s| s.contains("logged in again from another connection"),
        "told why",
    )
    .await;
    assert_eq!(bob.closed().await, Some(1));
    again.click(4, "d4").await;
    alice
        .wait_for(|s| s.contains("Your turn") && s.contains("d4"), "the move")
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_sigkill_mid_game_a_restart_restores_the_game_and_both_go_on() {
    let server = Server::start(&[]);
    let (alice, bob, alice_key, bob_key) = rated_pair(&server).await;
    play_moves(&alice, &bob, &["a1", "a2", "b1", "b2"]).await;
    drop((alice, bob));
    let server = server.killed_and_restarted(&[]).await;
    server.wait_log("game restored alice (X) vs bob (O)").await;
    let alice = keyed(&server, &alice_key, "alice").await;
    alice
        .wait_for(
            |s| s.contains("4 O b2") && s.contains("bob (O) is away"),
            "the game restored",
        )
        .await;
    let bob = keyed(&server, &bob_key, "bob").await;
    bob.wait_for(|s| s.contains("alice's turn (X)"), "bob's seat")
        .await;
    alice
        .wait_for(|s| s.contains("Your turn: you are X"), "alice's turn")
        .await;
    alice.click(4, "c1").await;
    bob.wait_for(|s| s.contains("X wins: you lose"), "the end")
        .await;
    let board = leaderboard(&server, &alice_key, "alice").await;
    assert_eq!(board.len(), 2, "the game restored was rated as it ended");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unusable_databases_are_refused_at_start_and_left_as_they_were() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("a folder");
    let home = dir.path().join("home");
    std::fs::create_dir_all(&home).expect("a home");
    let key = dir.path().join("host_key");
    let path = |name: &str| dir.path().join(name);
    std::fs::write(
        path("notes.txt"),
        "shopping: eggs, milk, and a database of nothing\n",
    )
    .expect("written");
    rusqlite::Connection::open(path("other.db"))
        .and_then(|db| db.execute_batch("CREATE TABLE t (x); INSERT INTO t VALUES (42);"))
        .expect("another program's database");
    // A database of this program's, made by a first start and left by SIGTERM.
    let made = path("made.db");
    let mut first = Server::start(&["--db", made.to_str().expect("a path")]);
    first.signal(Signal::TERM);
    assert!(first.exit().await.success());
    let start = |db: &std::path::Path| {
        refused_start(
            &[
                "--host-key",
                key.to_str().expect("a path"),
                "--db",
                db.to_str().expect("a path"),
            ],
            &home,
        )
    };
    for name in [
        "newer.db",
        "readonly.db",
        "locked.db",
        "read.db",
        "negative.db",
        "no-moves.db",
    ] {
        std::fs::copy(&made, path(name)).expect("copied");
    }
    let change = |name: &str, sql: &str| {
        rusqlite::Connection::open(path(name))
            .and_then(|db| db.execute_batch(sql))
            .expect("changed");
    };
    change("newer.db", "PRAGMA user_version = 99;");
    change("negative.db", "PRAGMA user_version = -1;");
    change("no-moves.db", "DROP TABLE moves;");
    std::os::unix::fs::symlink(&made, path("link.db")).expect("a link");

    std::fs::set_permissions(path("readonly.db"), std::fs::Permissions::from_mode(0o444))
        .expect("chmod");
    let refused = [
        ("notes.txt", "not a tictactoe database (not an SQLite file)"),
        (
            "other.db",
            "not a tictactoe database (an SQLite database of another program)",
        ),
        (
            "newer.db",
            "made by a newer tictactoe (schema 99; this one reads up to 2)",
        ),
        (
            "negative.db",
            "a damaged tictactoe database (user_version -1, which no tictactoe writes)",
        ),
        (
            "no-moves.db",
            "a damaged tictactoe database (its moves table is missing)",
        ),
        (
            "readonly.db",
            "read-only (the file's mode allows no writing)",
        ),
        ("locked.db", "locked by another program"),
        (
            "read.db",
            "locked by another program (another tictactoe serve, or one reading it)",
        ),
        ("link.db", "is a symbolic link to "),
    ];
    // Each file as it was, read before the programs below hold two of them:
    // this process closing a file it reads would let go of their locks.
    let before: Vec<Vec<u8>> = refused
        .iter()
        .map(|(name, _)| std::fs::read(path(name)).expect("read"))
        .collect();
    // A program writing one copy, and one holding a read transaction on another.
    let holder = rusqlite::Connection::open(path("locked.db")).expect("opened");
    holder.execute_batch("BEGIN IMMEDIATE;").expect("locked");
    let reader = rusqlite::Connection::open(path("read.db")).expect("opened");
    reader
        .execute_batch("BEGIN; SELECT count(*) FROM players;")
        .expect("reading");
    let mut after = Vec::new();
    for (name, said) in refused {
        let (status, err) = start(&path(name));
        assert_eq!(status, Some(2), "{name}: {err}");
        assert_eq!(err.lines().count(), 1, "{name}: one line: {err}");
        assert!(err.contains(said), "{name}: {err}");
    }
    drop((holder, reader));
    for (name, _) in refused {
        after.push(std::fs::read(path(name)).expect("read"));
    }
    for (((name, _), before), after) in refused.iter().zip(before).zip(after) {
        assert_eq!(after, before, "{name} is as it was");
    }
}

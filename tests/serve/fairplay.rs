//! Fair play on the server, tried as someone looking for the rules' gaps: a
//! player who stalls instead of moving, one who leaves a lost game, games
//! nobody sits at, a database that vanishes or fills up, names that look
//! like others', rating farming, and a guest asking for a rated game.

use std::time::Duration;

use crate::support::ssh::*;

/// How long the server waits in these tests before a claim, and before it
/// disconnects a player for idling: short, so the tests need not wait minutes.
const CLAIM: &str = "12";
const IDLE: &str = "8";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_staller_is_timed_out_by_moves_alone_and_the_waiter_claims_the_win() {
    let server = Server::start(&["--claim-after", CLAIM, "--idle-timeout", IDLE]);
    let (alice, bob, _, bob_key) = rated_pair(&server).await;
    play_moves(&alice, &bob, &["a1", "a2", "b1", "b2"]).await;
    // alice, to move, presses arrows instead of moving: keys are no move.
    for _ in 0..120 {
        let pressed = alice.write.data_bytes(&b"\x1b[C"[..]).await;
        if pressed.is_err() || server.log().contains("disconnect alice") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    server
        .wait_log(": no move on their turn for the idle timeout")
        .await;
    assert!(server.log().contains("disconnect alice from 127.0.0.1"));
    alice
        .wait_for(
            |s| s.contains("disconnected after 8s without a move on your turn"),
            "alice told why",
        )
        .await;
    // bob, who waits, pressed nothing all the while and is still here; he
    // may claim once alice has not moved for the claim time.
    bob.wait_for(
        |s| s.contains("alice has not moved in the time allowed: v claims the win, x aborts"),
        "the claim offered",
    )
    .await;
    assert!(!server.log().contains("disconnect bob"), "{}", server.log());
    bob.press("v").await;
    bob.wait_for(
        |s| s.contains("alice did not move in the time allowed: bob claimed the win"),
        "the claim taken",
    )
    .await;
    let history = history_json(&server, &bob_key, "bob").await;
    let game = &history["games"][0];
    assert_eq!(
        (game["result"].as_str(), game["ending"].as_str()),
        (Some("o-wins"), Some("claimed"))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lost_game_left_first_is_a_forfeit_and_q_while_the_other_is_away_resigns_nothing() {
    let server = Server::start(&["--reconnect-grace", "4"]);
    let (alice, bob, alice_key, _) = rated_pair(&server).await;
    // X threatens c1; O, losing, closes the connection.
    play_moves(&alice, &bob, &["a1", "a2", "b1", "b2"]).await;
    let carol = Player::join(&server, "carol").await;
    carol
        .wait_for(|s| s.contains("Games (1)"), "the game listed")
        .await;
    drop(bob);
    alice
        .wait_for(|s| s.contains("bob (O) is away"), "bob away")
        .await;
    // alice leaves too: her seat is kept, nothing is resigned.
    alice.press("q").await;
    alice
        .wait_for(|s| s.contains("f seek a game"), "the lobby")
        .await;
    server
        .wait_log("away alice from alice (X) vs bob (O)")
        .await;
    // A game nobody sits at is gone from the list, and cannot be watched.
    carol
        .wait_for(|s| s.contains("Games (0)"), "the game unlisted")
        .await;
    // bob left first: his grace runs out first, and he forfeits.
    server
        .wait_log("game end alice (X) vs bob (O): bob did not come back")
        .await;
    assert!(!server.log().contains("resigned"), "{}", server.log());
    let history = history_json(&server, &alice_key, "alice").await;
    let game = &history["games"][0];
    assert_eq!(
        (game["result"].as_str(), game["ending"].as_str()),
        (Some("x-wins"), Some("forfeit"))
    );
    carol.press("w").await;
    carol
        .wait_for(
            |s| s.contains("No seek or game in the list yet"),
            "nothing to watch",
        )
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deleted_database_is_noticed_and_no_game_is_kept_after() {
    let server = Server::start(&["--db-check", "1"]);
    let (alice, bob, _, _) = rated_pair(&server).await;
    play_moves(&alice, &bob, &["a1"]).await;
    std::fs::remove_file(server.database()).expect("the database deleted");
    server
        .wait_log("tictactoe.db was deleted while the server ran")
        .await;
    for player in [&alice, &bob] {
        player
            .wait_for(
                |s| s.contains("database file is gone"),
                "told the game stops",
            )
            .await;
    }
    // Back in the lobby, a rated seek is a casual game now.
    for player in [&alice, &bob] {
        player.press(" ").await;
        player
            .wait_for(|s| s.contains("f seek a game"), "the lobby")
            .await;
    }
    alice.press("f").await;
    bob.wait_for(|s| s.contains("alice seeks"), "the seek")
        .await;
    bob.press("\r").await;
    alice
        .wait_for(|s| s.contains("· casual"), "a casual game")
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_file_size_limit_is_survived_told_and_kept_as_told() {
    // The players' keys are known, then the server runs with no file
    // allowed past 48 KiB: its journal fills after a few moves.
    let server = Server::start(&[]);
    let (alice_key, bob_key) = (new_key(), new_key());
    for (key, name) in [(&alice_key, "alice"), (&bob_key, "bob")] {
        let player = keyed(&server, key, name).await;
        player.wait_for(|s| s.contains("q quit"), "the lobby").await;
    }
    let server = server.stopped_and_restarted(&[], Some(48 * 1024)).await;
    let alice = keyed(&server, &alice_key, "alice").await;
    let bob = keyed(&server, &bob_key, "bob").await;
    alice.seek(1, true).await;
    bob.wait_for(|s| s.contains("4x4 k=3 · rated"), "the seek")
        .await;
    bob.press("\r").await;
    alice
        .wait_for(|s| s.contains("Your turn: you are X"), "the game")
        .await;
    // Fourteen moves in which neither side makes a line.
    let squares = [
        "c1", "c3", "a1", "c4", "c2", "b2", "d1", "a3", "d2", "d3", "d4", "b1", "a4", "b4",
    ];
    let stopped = |s: &str| s.contains("could not save");
    for (i, at) in squares.iter().enumerate() {
        let mover = if i % 2 == 0 { &alice } else { &bob };
        mover
            .wait_for(
                |s| s.contains("Your turn") || stopped(s),
                "a turn or the stop",
            )
            .await;
        if stopped(&mover.contents()) {
            break;
        }
        mover.click(4, at).await;
    }
    for player in [&alice, &bob] {
        player
            .wait_for(
                |s| s.contains("back when the server restarts"),
                "told the game stops as kept",
            )
            .await;
    }
    server.wait_log("database: could not save game").await;
    // The server lives on.
    Player::join(&server, "carol").await;
    drop((alice, bob));
    // As told: the game is back at a restart, as it was kept.
    let server = server.stopped_and_restarted(&[], None).await;
    server.wait_log("game restored alice (X) vs bob (O)").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn look_alike_and_invisible_names_are_refused_and_commands_claim_no_name() {
    let server = Server::start(&[]);
    let alice = keyed(&server, &new_key(), "alice").await;
    alice
        .wait_for(|s| s.contains("you are alice"), "alice")
        .await;
    for (user, told) in [
        (
            "ａｌｉｃｅ",
            "the name alice belongs to another player's key",
        ),
        (
            "\u{1d5ba}lice",
            "the name alice belongs to another player's key",
        ),
        ("aIice", "the name aIice looks like alice, another player's"),
        ("\u{3164}\u{3164}\u{3164}", "may show as blank (U+3164)"),
    ] {
        let guest = Connection::open(&server, user, "127.0.0.1")
            .await
            .play(COLS, ROWS, &[])
            .await;
        guest.wait_for(|s| s.contains(told), told).await;
        assert_eq!(guest.closed().await, Some(1));
    }
    let impostor = keyed(&server, &new_key(), "aIice").await;
    impostor
        .wait_for(|s| s.contains("looks like alice"), "a key refused too")
        .await;
    // A guest's name is not a new key's while the guest is here.
    let zed = Player::join(&server, "zed").await;
    let key = keyed(&server, &new_key(), "zed").await;
    key.wait_for(
        |s| s.contains("the name zed is a guest's here now"),
        "refused",
    )
    .await;
    drop(zed);
    // A command reads: it takes no name for good.
    let (zoe, other) = (new_key(), new_key());
    let (_, err, status) = command(&server, &zoe, "zoe", "history").await;
    assert_eq!(status, Some(0), "{err}");
    let zoe_player = keyed(&server, &other, "zoe").await;
    zoe_player
        .wait_for(|s| s.contains("you are zoe"), "zoe free for another key")
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quick_wins_over_one_opponent_are_flagged_past_two_a_day() {
    let server = Server::start(&[]);
    let (alice, bob, alice_key, _) = rated_pair(&server).await;
    for round in 1..=3 {
        if round > 1 {
            alice.press("f").await;
            bob.wait_for(|s| s.contains("alice seeks"), "the seek")
                .await;
            bob.press("\r").await;
            alice
                .wait_for(|s| s.contains("Your turn: you are X"), "the game")
                .await;
        }
        play_moves(&alice, &bob, &["a1", "a2", "b1", "b2"]).await;
        // bob resigns four moves in.
        bob.press("q").await;
        let said = alice
            .wait_for(|s| s.contains("bob resigned"), "the resignation")
            .await;
        assert_eq!(
            said.contains("unrated: quick win 3"),
            round == 3,
            "round {round}:\n{said}"
        );
        alice.press(" ").await;
        alice
            .wait_for(|s| s.contains("f seek a game"), "the lobby")
            .await;
        bob.wait_for(|s| s.contains("f seek a game"), "the lobby")
            .await;
    }
    server
        .wait_log("farming guard alice (X) vs bob (O): unrated: quick win 3")
        .await;
    let history = history_json(&server, &alice_key, "alice").await;
    assert_eq!(
        history["ratings"][0]["games"].as_u64(),
        Some(2),
        "{history}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guest_pressing_r_is_told_rated_games_need_a_key() {
    let server = Server::start(&[]);
    let guest = Player::join(&server, "gus").await;
    guest.press("r").await;
    guest
        .wait_for(|s| s.contains("Rated games need a key"), "told")
        .await;
    assert!(guest.contents().contains("casual (r)"));
}

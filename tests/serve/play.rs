//! Games on the server: against the AI, between two people and watched,
//! a player who leaves, colour as the client asks.

use crate::support::screen as screen_support;
use crate::support::ssh::*;
use tictactoe_engine::Square;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_against_the_ai_to_its_end() {
    let server = Server::start(&[]);
    let alice = Player::join(&server, "alice").await;
    assert_eq!(
        alice
            .connection
            .fingerprint
            .lock()
            .expect("lock")
            .as_deref(),
        Some(server.fingerprint.as_str()),
        "the start line names the key the server presents"
    );
    let lobby = alice.contents();
    assert!(lobby.contains("you are alice"), "{lobby}");
    assert!(lobby.contains("a play the AI  f seek a game  w take/watch  q quit"));

    // Play O against the easiest AI.
    alice.press("o").await;
    alice.press(&"\x1b[D".repeat(3)).await;
    alice
        .wait_for(
            |s| s.contains("you play O") && s.contains("level easy"),
            "the choice",
        )
        .await;
    alice.press("a").await;
    alice
        .wait_for(|s| s.contains("AI (easy): X  vs  You: O"), "the game")
        .await;
    let end = play_to_the_end(&alice).await;
    assert!(game_over(&end));
    server.wait_log("game end AI (easy) (X) vs alice (O)").await;

    // A resize reaches the game: too small, then big enough again.
    alice
        .write
        .window_change(30, 10, 0, 0)
        .await
        .expect("resize");
    alice
        .wait_for(|s| s.contains("Terminal too small"), "too small")
        .await;
    alice
        .write
        .window_change(COLS, ROWS, 0, 0)
        .await
        .expect("resize");
    alice
        .wait_for(
            |s| s.contains("Tic-tac-toe") && game_over(s),
            "the game again",
        )
        .await;

    // q leaves the game for the lobby; q there closes with status 0.
    alice.press("q").await;
    alice
        .wait_for(|s| s.contains("f seek a game"), "the lobby")
        .await;
    alice.press("q").await;
    assert_eq!(alice.closed().await, Some(0));
    let screen = alice.screen.lock().expect("screen").screen().clone();
    assert!(!screen.alternate_screen() && !screen.hide_cursor());
    server.wait_log("disconnect alice from 127.0.0.1").await;
    assert!(server.log().contains("connect alice from 127.0.0.1"));
    let kept: Vec<String> = server
        .files_at_home()
        .iter()
        .filter_map(|path| path.file_name()?.to_str().map(str::to_string))
        .collect();
    assert!(
        kept.contains(&"tictactoe.db".to_string())
            && kept.iter().all(|name| name.starts_with("tictactoe.db")),
        "no statistics: the database (and its journal) alone, in the data folder: {kept:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_are_paired_play_each_other_and_are_watched() {
    let server = Server::start(&[]);
    let (alice, bob) = paired(&server).await;
    server.wait_log("pair alice (X) vs bob (O)").await;

    let carol = Player::join(&server, "carol").await;
    carol.press("w").await;
    carol
        .wait_for(|s| s.contains("alice (X) to move"), "watching")
        .await;

    // X takes the top row; O plays 4 and 5.
    for (player, square) in [(&alice, 1), (&bob, 4), (&alice, 2), (&bob, 5), (&alice, 3)] {
        player.wait_for(|s| s.contains("Your turn"), "a turn").await;
        player.play_square(square).await;
    }
    alice
        .wait_for(|s| s.contains("X wins: you win!"), "the win")
        .await;
    bob.wait_for(|s| s.contains("X wins: you lose"), "the loss")
        .await;
    carol
        .wait_for(|s| s.contains("alice (X) wins"), "the result")
        .await;
    server
        .wait_log("game end alice (X) vs bob (O): X wins")
        .await;

    // Undo is refused, with the reason.
    bob.press("u").await;
    bob.wait_for(|s| s.contains("No undo against a person"), "refused undo")
        .await;

    // A rematch swaps sides once both ask.
    bob.press("n").await;
    alice
        .wait_for(|s| s.contains("bob wants a rematch: press n"), "the offer")
        .await;
    alice.press("n").await;
    for player in [&alice, &bob, &carol] {
        player
            .wait_for(|s| s.contains("bob: X  vs  alice: O"), "the rematch")
            .await;
    }
    bob.wait_for(|s| s.contains("Your turn: you are X"), "bob opens")
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_dropping_mid_game_is_told_to_the_other() {
    let server = Server::start(&[]);
    let (alice, bob) = paired(&server).await;
    alice.play_square(5).await;
    bob.wait_for(|s| s.contains("Your turn"), "bob's turn")
        .await;
    let carol = Player::join(&server, "carol").await;
    carol.press("w").await;
    carol
        .wait_for(|s| s.contains("bob (O) to move"), "watching")
        .await;

    // bob's connection goes away without a word: both are told who left.
    drop(bob);
    for told in [&alice, &carol] {
        told.wait_for(
            |s| s.contains("bob left") && s.contains("any key returns to the lobby"),
            "told",
        )
        .await;
    }
    server
        .wait_log("game left alice (X) vs bob (O): bob left")
        .await;
    alice.press(" ").await;
    alice
        .wait_for(|s| s.contains("f seek a game"), "the lobby")
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_color_from_the_client_is_respected() {
    let server = Server::start(&[]);
    let plain = Connection::open(&server, "plain", "127.0.0.1")
        .await
        .play(COLS, ROWS, &[("NO_COLOR", "1")])
        .await;
    let colour = Player::join(&server, "colour").await;
    let mut marks = Vec::new();
    for player in [&plain, &colour] {
        player.wait_for(|s| s.contains("q quit"), "the lobby").await;
        player.press("a").await;
        player.play_square(5).await;
        let centre = screen_support::board(COLS as u16, ROWS as u16).cell_rect(Square::new(1, 1));
        let parser = player.screen.lock().expect("screen");
        let cell = parser
            .screen()
            .cell(centre.y + 1, centre.x + centre.width / 2)
            .expect("a cell")
            .clone();
        marks.push(cell.fgcolor());
    }
    assert_eq!(marks[0], vt100::Color::Default, "no colour with NO_COLOR");
    assert_ne!(marks[1], vt100::Color::Default, "colour otherwise");
}

// A game the other player left takes no more moves, and looks it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_the_other_player_left_shows_no_digits_and_no_cursor() {
    let server = Server::start(&[]);
    let (alice, bob) = paired(&server).await;
    let digits_and_cursor = |screen: &vt100::Screen| {
        let board = screen_support::board(COLS as u16, ROWS as u16);
        let mut digits = 0;
        let mut reversed = 0;
        for index in 0..9 {
            let rect = board.cell_rect(Square::from_index(index, 3));
            for y in rect.y..rect.y + rect.height {
                for x in rect.x..rect.x + rect.width {
                    let cell = screen.cell(y, x).expect("a cell");
                    digits += usize::from(cell.contents() == (index + 1).to_string());
                    reversed += usize::from(cell.inverse());
                }
            }
        }
        (digits, reversed)
    };
    alice
        .wait_for_screen(
            |s| digits_and_cursor(s).0 == 9 && digits_and_cursor(s).1 > 0,
            "digits and the cursor",
        )
        .await;
    drop(bob);
    alice.wait_for(|s| s.contains("bob left"), "told").await;
    alice
        .wait_for_screen(|s| digits_and_cursor(s) == (0, 0), "no digits, no cursor")
        .await;
}

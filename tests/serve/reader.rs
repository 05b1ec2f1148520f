//! The game in sentences over SSH: a dumb terminal, no terminal, the
//! `screen-reader` command, the quiz, and how such a session ends.

use rustix::process::Signal;

use crate::support::ssh::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_are_sanitised_and_a_dumb_terminal_gets_the_game_in_sentences() {
    let server = Server::start(&[]);
    let odd = Connection::open(
        &server,
        "ev\u{1b}[31mil <script>very-long-name-here",
        "127.0.0.1",
    )
    .await
    .play(COLS, ROWS, &[])
    .await;
    odd.wait_for(
        |s| {
            s.lines()
                .any(|l| l.trim_end().ends_with("you are ev31milscriptver"))
        },
        "the lobby",
    )
    .await;
    assert!(
        !odd.contents().contains("ev31milscriptvery"),
        "at most 16 characters"
    );

    // TERM=dumb: the game in sentences, each key echoed, Backspace rubbing out.
    let dumb = Connection::open(&server, "dumb", "127.0.0.1")
        .await
        .play_on("dumb", COLS, ROWS, &[])
        .await;
    dumb.wait_for(|s| s.contains("Your turn, X"), "the game in sentences")
        .await;
    dumb.press("b3\x7f2\r").await;
    let said = dumb
        .wait_for(|s| s.contains("You play b2."), "the move")
        .await;
    assert!(said.contains("> b2\n"), "{said}");
    // Ctrl-D on an empty line: the end of input, a clean exit.
    dumb.press("\x04").await;
    dumb.wait_for(|s| s.contains("End of input"), "the end")
        .await;
    assert_eq!(dumb.closed().await, Some(0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_screen_reader_command_plays_in_sentences_without_a_terminal() {
    let server = Server::start(&[]);
    let mut alice = Sentences::open(&server, "alice", Ask::Command).await;
    alice
        .write
        .data(&b"b2\nboard\nsquare\nrecord\nquit\n"[..])
        .await
        .expect("lines sent");
    alice.hear_to_the_close().await;
    let said = String::from_utf8(alice.said.clone()).expect("UTF-8");
    assert_eq!(alice.status, Some(0), "{said}");
    assert!(said.contains("You play b2.\n"), "{said}");
    assert!(
        said.contains("Row 2: a2 empty, b2 X, c2 empty.\n"),
        "{said}"
    );
    assert!(said.contains("error: \"square\" is not a move"), "{said}");
    // Nothing drawn: no escape, carriage return, box, block or braille.
    let drawn =
        |c: char| matches!(c, '\x1b' | '\r' | '\u{2500}'..='\u{259f}' | '\u{2800}'..='\u{28ff}');
    assert!(!said.contains(drawn), "{said}");
    // The record it printed reads back: b2, then the AI's answer, as said.
    let start = said.find("[Game ").expect("a record");
    let end = start + said[start..].find(" *\n").expect("the record's end") + 3;
    let records = tictactoe_game::record::read_str(&said[start..end]).expect("a record that reads");
    let moves = records[0].moves();
    assert_eq!(moves.len(), 2);
    assert_eq!(moves[0].to_string(), "b2");
    assert!(said.contains(&format!("O plays {}.", moves[1])), "{said}");
    assert!(
        server.log().contains("connect alice from 127.0.0.1"),
        "{}",
        server.log()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_sends_faster_than_it_is_read_is_not_taken_for_one_that_does_not_read() {
    // 160 KB in packets of 1 KB: the server reads 64 KiB, then 16 KiB a
    // second, and the packets past its queue wait unread in the network,
    // so the answers to its pings wait behind them for 5 s and more, past
    // the send timeout; the client reads all the while.
    let server = Server::start(&["--send-timeout", "2"]);
    let mut carol = Sentences::open(&server, "carol", Ask::Command).await;
    let write = &carol.write;
    let mut sent = write.data(&b"b2\n"[..]).await.is_ok();
    for _ in 0..160 {
        sent &= write.data(&[b'x'; 1024][..]).await.is_ok();
    }
    sent &= write.data(&b"\nboard\nquit\n"[..]).await.is_ok();
    assert!(sent, "all sent");
    carol.hear_to_the_close().await;
    let said = carol.text();
    assert_eq!(carol.status, Some(0), "{said}\n{}", server.log());
    assert!(said.contains("Row 2: a2 empty, b2 X, c2 empty."), "{said}");
    assert!(!server.log().contains("too slow"), "{}", server.log());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_quiz_over_ssh_is_heard_before_it_is_answered() {
    let server = Server::start(&[]);
    let mut alice = Sentences::open(&server, "alice", Ask::Command).await;
    alice.write.data(&b"quiz\n"[..]).await.expect("sent");
    // Each question arrives before its answer is typed.
    alice.hear("Question 1 of 5").await;
    alice.hear("Row 3:").await;
    alice.write.eof().await.expect("the end sent");
    alice.hear_to_the_close().await;
    assert_eq!(alice.status, Some(0), "{}", alice.text());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn going_down_says_goodbye_to_every_session_in_sentences() {
    let mut server = Server::start(&[]);
    let mut sessions = Vec::new();
    for user in ["ann", "ben", "cat"] {
        let mut session = Sentences::open(&server, user, Ask::Command).await;
        session.write.data(&b"b2\n"[..]).await.expect("sent");
        session.hear("You play b2.").await;
        sessions.push(session);
    }
    server.signal(Signal::TERM);
    for session in &mut sessions {
        session.hear_to_the_close().await;
        let said = session.text();
        assert!(
            said.ends_with("tictactoe: the server is going down; goodbye\n"),
            "{said}"
        );
        // The server ended it, not the input.
        assert!(!said.contains("End of input"), "{said}");
        assert_eq!(session.status, Some(1));
    }
    assert_eq!(server.exit().await.code(), Some(0));
    assert!(!server.log().contains("cut off"), "{}", server.log());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_in_sentences_ends_with_its_connection() {
    let server = Server::start(&[]);
    let mut dan = Sentences::open(&server, "dan", Ask::Command).await;
    dan.write.data(&b"b2\n"[..]).await.expect("sent");
    dan.hear("You play b2.").await;
    // Gone without an end of input: the session does not play on.
    drop(dan);
    server.wait_log("disconnect dan from").await;
    assert!(
        server.log().contains("disconnect dan from 127.0.0.1"),
        "{}",
        server.log()
    );
    let log = server.log();
    let line = log
        .lines()
        .find(|line| line.contains("disconnect dan"))
        .expect("the line");
    assert!(line.ends_with(": connection closed"), "{line}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shell_without_a_terminal_plays_in_sentences_to_the_end_of_its_input() {
    let server = Server::start(&[]);
    let mut bob = Sentences::open(&server, "bob", Ask::Shell).await;
    bob.write.data(&b"5\n"[..]).await.expect("a line sent");
    bob.write.eof().await.expect("the end sent");
    bob.hear_to_the_close().await;
    let said = bob.text();
    assert_eq!(bob.status, Some(0), "{said}");
    assert!(said.contains("You play b2.\n"), "{said}");
    assert!(
        said.ends_with("End of input: the game was left unfinished.\n"),
        "{said}"
    );
    server.wait_log("disconnect bob").await;
}

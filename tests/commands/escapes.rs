//! Text from outside is shown escaped: `quiz` and the
//! screen reader echoed escape sequences typed at them as they were (a
//! cleared screen, a retitled terminal), and `review` printed a U+202E (which
//! turns a line around) from a record's tag.

use crate::support;

/// What a hostile user types: clear the screen, retitle the terminal.
const TYPED: &str = "\u{1b}[2J\u{1b}]0;pwned\u{7}";

fn shown(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8 output")
}

/// No control character but line ends, and no character that reorders text.
fn clean(text: &str) -> bool {
    !text
        .chars()
        .any(|ch| (ch.is_control() && ch != '\n') || ('\u{202a}'..='\u{202e}').contains(&ch))
}

#[test]
fn an_answer_typed_at_the_quiz_is_echoed_escaped() {
    let out = support::tictactoe(
        &["quiz", "--count", "1", "--seed", "1"],
        format!("{TYPED}\n"),
    );
    let text = shown(&out.stdout);
    assert!(clean(&text), "{text:?}");
    assert!(text.contains("> \\u{1b}[2J\\u{1b}]0;pwned\\u{7}"), "{text}");
}

#[test]
fn the_screen_readers_quiz_echoes_escaped_too() {
    let out = support::tictactoe(
        &["--screen-reader", "--no-stats", "--seed", "1"],
        format!("quiz\n{TYPED}\n\u{202e}b2\nquit\nquit\n"),
    );
    let text = shown(&out.stdout);
    assert!(clean(&text), "{text:?}");
    assert!(text.contains("\\u{202e}b2"), "{text}");
}

#[test]
fn a_records_tags_are_reviewed_escaped() {
    let record = "[Game \"tictactoe\"]\n[Size \"3\"]\n[K \"3\"]\n[X \"\u{202e}evil\"]\n[O \"AI perfect\"]\n[Date \"\u{2066}2026\"]\n[Result \"*\"]\n\n1. b2 *\n";
    let out = support::tictactoe(&["review", "-"], record);
    assert!(out.status.success(), "{}", shown(&out.stderr));
    let text = shown(&out.stdout);
    assert!(clean(&text), "{text:?}");
    assert!(
        text.contains("Game 1: \\u{202e}evil (X) against AI perfect (O), \\u{2066}2026"),
        "{text}"
    );
}

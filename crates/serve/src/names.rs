//! Player names from SSH user names: printable, short, and not made to look
//! like someone else's. A name that mixes scripts ("аlice" with a Cyrillic
//! а) or holds combining marks is refused with the reason, never shown.

use unicode_script::{Script, UnicodeScript};

use super::lobby::MAX_NAME;

/// Scripts written together in one name: Japanese mixes kanji with kana,
/// Korean hangul with hanja, Chinese han with bopomofo.
const MIXED_BY_USE: [&[Script]; 3] = [
    &[Script::Han, Script::Hiragana, Script::Katakana],
    &[Script::Han, Script::Hangul],
    &[Script::Han, Script::Bopomofo],
];

/// The player's name for an SSH user name: letters, digits and `-_.@+`
/// (anything else is dropped), at most [`MAX_NAME`] characters, `guest`
/// when nothing is left. Refused, with the reason, when it holds combining
/// marks or letters of more than one script.
pub(super) fn player_name(user: &str) -> Result<String, String> {
    // Combining marks (and joiners) belong to no script of their own.
    if user.chars().any(|c| c.script() == Script::Inherited) {
        return Err(
            "the name has combining marks; connect as a name without them (ssh NAME@host)"
                .to_string(),
        );
    }
    let name: String = user
        .chars()
        .filter(|c| c.is_alphanumeric() || "-_.@+".contains(*c))
        .take(MAX_NAME)
        .collect();
    let mut scripts: Vec<Script> = name
        .chars()
        .map(|c| c.script())
        .filter(|s| !matches!(s, Script::Common | Script::Inherited | Script::Unknown))
        .collect();
    scripts.sort_by_key(|s| s.full_name());
    scripts.dedup();
    let mixed = scripts.len() > 1
        && !MIXED_BY_USE
            .iter()
            .any(|allowed| scripts.iter().all(|s| allowed.contains(s)));
    if mixed {
        let names: Vec<&str> = scripts.iter().map(|s| s.full_name()).collect();
        return Err(format!(
            "the name mixes scripts ({}), as look-alike names do; connect as a name in one script (ssh NAME@host)",
            names.join(", ")
        ));
    }
    Ok(if name.is_empty() {
        "guest".to_string()
    } else {
        name
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_in_one_script_are_taken_look_alikes_are_refused() {
        assert_eq!(player_name("alice").unwrap(), "alice");
        assert_eq!(player_name("José_2").unwrap(), "José_2");
        assert_eq!(player_name("дмитрий").unwrap(), "дмитрий");
        assert_eq!(player_name("山田さくら").unwrap(), "山田さくら");
        assert_eq!(player_name("ev\u{1b}[31mil").unwrap(), "ev31mil");
        assert_eq!(player_name("").unwrap(), "guest");
        // A Cyrillic а among Latin letters.
        let refused = player_name("\u{430}lice").unwrap_err();
        assert!(
            refused.contains("Cyrillic") && refused.contains("Latin"),
            "{refused}"
        );
        // e followed by a combining acute accent.
        assert!(player_name("jose\u{301}").is_err());
        assert!(player_name("a\u{200d}b").is_err());
    }
}

//! Player names from SSH user names: printable, short, visible, and not
//! made to look like someone else's. A name is taken in its NFKC form (so
//! fullwidth `ａｌｉｃｅ` is `alice`) and compared with others by its
//! [`name_key`]: the confusable skeleton of Unicode TR39 (mathematical
//! letters, Cyrillic look-alikes, `I` for `l`), case aside. A name that
//! mixes scripts ("аlice" with a Cyrillic а), holds combining marks,
//! characters that show as nothing (Hangul fillers) or none of a letter or
//! digit is refused with the reason, never shown.

use unicode_normalization::UnicodeNormalization;
use unicode_script::{Script, UnicodeScript};
use unicode_security::{GeneralSecurityProfile, skeleton};

/// The longest player name, in characters.
pub(super) const MAX_NAME: usize = 16;

/// Scripts written together in one name: Japanese mixes kanji with kana,
/// Korean hangul with hanja, Chinese han with bopomofo.
const MIXED_BY_USE: [&[Script]; 3] = [
    &[Script::Han, Script::Hiragana, Script::Katakana],
    &[Script::Han, Script::Hangul],
    &[Script::Han, Script::Bopomofo],
];

/// Characters a name may hold besides letters and digits.
const MARKS: &str = "-_.@+";

/// The player's name for an SSH user name: in NFKC form, letters, digits
/// and `-_.@+` (anything else is dropped), at most [`MAX_NAME`] characters,
/// `guest` when nothing is left. Refused, with the reason, when it holds
/// combining marks, letters of more than one script, characters not used
/// in names (those that show as blank among them), or no letter or digit.
pub(super) fn player_name(user: &str) -> Result<String, String> {
    // Combining marks (and joiners) belong to no script of their own.
    if user.chars().any(|c| c.script() == Script::Inherited) {
        return Err(
            "the name has combining marks; connect as a name without them (ssh NAME@host)"
                .to_string(),
        );
    }
    let name: String = user
        .nfkc()
        .filter(|c| c.is_alphanumeric() || MARKS.contains(*c))
        .take(MAX_NAME)
        .collect();
    if name.is_empty() {
        return Ok("guest".to_string());
    }
    // Said as typed: NFKC makes a Hangul filler another filler.
    let unused = |c: char| {
        let normal: String = c.to_string().nfkc().collect();
        normal
            .chars()
            .any(|n| n.is_alphanumeric() && !n.identifier_allowed())
    };
    if let Some(odd) = user.chars().find(|&c| unused(c)) {
        return Err(format!(
            "the name has a character not used in names, which may show as blank (U+{:04X}); connect as another name (ssh NAME@host)",
            u32::from(odd)
        ));
    }
    if !name.chars().any(char::is_alphanumeric) {
        return Err(
            "the name has no letter or digit; connect as a name with one (ssh NAME@host)"
                .to_string(),
        );
    }
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
    Ok(name)
}

/// What two names that look alike have in common: the TR39 skeleton of the
/// NFKC form, lower case, and its skeleton again (`aIice`, `𝖺lice`,
/// `ａｌｉｃｅ` and `Alice` all give `alice`).
pub(super) fn name_key(name: &str) -> String {
    let normal: String = name.nfkc().collect();
    let lower = skeleton(&normal).collect::<String>().to_lowercase();
    skeleton(&lower).collect()
}

/// Why `name` may not be taken when `holder` holds a name with the same key.
pub(super) fn taken(name: &str, holder: &str) -> String {
    if name == holder {
        format!(
            "the name {name} belongs to another player's key; connect as another name (ssh NAME@host)"
        )
    } else {
        format!(
            "the name {name} looks like {holder}, another player's; connect as another name (ssh NAME@host)"
        )
    }
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

    #[test]
    fn look_alikes_share_a_key_and_invisible_names_are_refused() {
        // Fullwidth letters are taken in their NFKC form.
        assert_eq!(player_name("ａｌｉｃｅ").unwrap(), "alice");
        for like in ["ａｌｉｃｅ", "\u{1d5ba}lice", "aIice", "Alice", "alice"] {
            assert_eq!(name_key(like), "alice", "{like}");
        }
        assert_ne!(name_key("bob"), name_key("alice"));
        // Hangul fillers show as blank.
        let refused = player_name("\u{3164}\u{3164}\u{3164}").unwrap_err();
        assert!(refused.contains("U+3164"), "{refused}");
        let refused = player_name("-_.").unwrap_err();
        assert!(refused.contains("no letter or digit"), "{refused}");
        assert_eq!(
            taken("aIice", "alice"),
            "the name aIice looks like alice, another player's; connect as another name (ssh NAME@host)"
        );
    }
}

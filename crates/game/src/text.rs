//! Text shared by every front end: numbers for people, echoes of bad input,
//! and lines read from input without trusting their length.

use std::borrow::Cow;
use std::io::{self, BufRead};

use thiserror::Error;

/// True for a `TERM` that draws nothing (`dumb`, as Emacs's shell and some
/// screen readers' consoles set it): the game speaks in sentences there,
/// at a local terminal and over SSH.
pub fn draws_nothing(term: &str) -> bool {
    term == "dumb"
}

/// A count with thousands separators, as text output shows numbers: `1,554,898`.
/// (JSON keeps plain digits.)
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// A score as the overlay and `analyze` write it: a sign on wins (`+10`), none on a draw (`0`).
pub fn signed(score: i32) -> String {
    if score > 0 {
        format!("+{score}")
    } else {
        score.to_string()
    }
}

/// How much of `whole` doing only `part` saves, in percent, with as many
/// decimals as it takes for the figure not to round to 100 % or to 0 % when
/// it is neither: `percent_saved(222, 549_945)` is `99.96`, not `100.0`.
/// At least one decimal; `None` when `whole` is 0.
pub fn percent_saved(part: u64, whole: u64) -> Option<String> {
    if whole == 0 {
        return None;
    }
    let saved = 100.0 * (1.0 - part as f64 / whole as f64);
    let honest = |text: &str| {
        let shown: f64 = text.parse().unwrap_or(saved);
        (part == 0 || shown < 100.0) && (part >= whole || shown > 0.0)
    };
    // f64 carries about 15 significant digits: enough for any count that fits in u64.
    (1..=15)
        .map(|decimals| format!("{saved:.decimals$}"))
        .find(|text| honest(text))
        .or_else(|| Some(format!("{saved:.1}")))
}

/// A count and its noun, singular or plural as the count wants: `1 game`, `10,000 games`.
pub fn count(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", thousands(n), if n == 1 { one } else { many })
}

/// How much of a bad input an error echoes: the engine's rule, for every error.
pub use tictactoe_engine::{ECHO_LIMIT, echo};

/// Text from outside (typed at the program, or read from a file) as it may
/// be shown: control characters (escape sequences among them) and the
/// characters that reorder text (bidirectional controls such as U+202E)
/// written out as `\u{1b}`, so nothing shown can move the cursor, retitle
/// the terminal or turn a line around.
pub fn escaped(text: &str) -> Cow<'_, str> {
    let hidden = |ch: char| {
        ch.is_control()
            || matches!(ch, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    };
    if !text.chars().any(hidden) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars()
            .map(|ch| {
                if hidden(ch) {
                    format!("\\u{{{:x}}}", u32::from(ch))
                } else {
                    ch.to_string()
                }
            })
            .collect(),
    )
}

/// Most bytes of one input line that are kept; the rest of a longer line is
/// read and dropped. Far more than any move or board needs.
pub const LINE_LIMIT: usize = 4096;

/// One line of input, read by [`read_line`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputLine {
    /// The line without its line ending, cut at [`LINE_LIMIT`] bytes; bytes
    /// that are not UTF-8 become `U+FFFD`.
    pub text: String,
    /// The line's whole length in bytes (without its line ending).
    pub len: usize,
}

impl InputLine {
    /// True when the line was longer than [`LINE_LIMIT`] and `text` holds only its start.
    pub fn is_cut(&self) -> bool {
        self.len > LINE_LIMIT
    }

    /// The line as echoed in an error (see [`echo`]); a cut line always ends in `…`.
    pub fn echo(&self) -> Cow<'_, str> {
        match echo(&self.text) {
            Cow::Borrowed(whole) if self.is_cut() => Cow::Owned(format!("{whole}…")),
            shown => shown,
        }
    }
}

/// Reading the input failed.
#[derive(Debug, Error)]
#[error("cannot read standard input: {0}")]
pub struct ReadError(#[from] io::Error);

impl ReadError {
    /// True when the input was a terminal that has gone away.
    pub fn is_hangup(&self) -> bool {
        is_hangup(&self.0)
    }
}

/// True when using a terminal failed because it has gone away (its window
/// closed, its connection dropped): reads and writes on it answer EIO, and
/// reopening it (`/dev/tty`) ENXIO. A [`ReadError`] turned into an
/// `io::Error` is looked into.
pub fn is_hangup(error: &io::Error) -> bool {
    use rustix::io::Errno;
    let code = error.raw_os_error().or_else(|| {
        let read = error.get_ref()?.downcast_ref::<ReadError>()?;
        read.0.raw_os_error()
    });
    [Errno::IO, Errno::NXIO]
        .iter()
        .any(|errno| code == Some(errno.raw_os_error()))
}

impl From<ReadError> for io::Error {
    fn from(error: ReadError) -> io::Error {
        io::Error::new(error.0.kind(), error)
    }
}

/// Reads one line, holding at most [`LINE_LIMIT`] bytes of it in memory
/// however long it is. `None` at the end of the input.
pub fn read_line(input: &mut dyn BufRead) -> Result<Option<InputLine>, ReadError> {
    let mut kept = Vec::new();
    let mut len = 0;
    let mut any = false;
    let mut last = None;
    loop {
        let available = match input.fill_buf() {
            Ok(available) => available,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error.into()),
        };
        if available.is_empty() {
            break;
        }
        any = true;
        let newline = available.iter().position(|&byte| byte == b'\n');
        let part = &available[..newline.unwrap_or(available.len())];
        let room = LINE_LIMIT.saturating_sub(kept.len());
        kept.extend_from_slice(&part[..part.len().min(room)]);
        len += part.len();
        last = part.last().copied().or(last);
        let used = newline.map_or(part.len(), |at| at + 1);
        input.consume(used);
        if newline.is_some() {
            break;
        }
    }
    if !any {
        return Ok(None);
    }
    if last == Some(b'\r') {
        len -= 1;
        kept.truncate(len);
    }
    Ok(Some(InputLine {
        text: String::from_utf8_lossy(&kept).into_owned(),
        len,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8]) -> Vec<InputLine> {
        let mut reader = io::BufReader::with_capacity(16, input);
        std::iter::from_fn(|| read_line(&mut reader).unwrap()).collect()
    }

    #[test]
    fn numbers_get_separators_every_three_digits() {
        for (n, text) in [
            (0, "0"),
            (999, "999"),
            (1000, "1,000"),
            (1_554_898, "1,554,898"),
            (u64::MAX, "18,446,744,073,709,551,615"),
        ] {
            assert_eq!(thousands(n), text);
        }
        assert_eq!(count(1, "game", "games"), "1 game");
        assert_eq!(count(0, "game", "games"), "0 games");
        assert_eq!(count(10_000, "game", "games"), "10,000 games");
    }

    #[test]
    fn savings_never_round_to_all_or_nothing() {
        assert_eq!(percent_saved(222, 549_945).as_deref(), Some("99.96"));
        assert_eq!(percent_saved(34_202, 549_945).as_deref(), Some("93.8"));
        assert_eq!(percent_saved(1, 1_000_000).as_deref(), Some("99.9999"));
        assert_eq!(percent_saved(999_999, 1_000_000).as_deref(), Some("0.0001"));
        assert_eq!(percent_saved(0, 932).as_deref(), Some("100.0"));
        assert_eq!(percent_saved(932, 932).as_deref(), Some("0.0"));
        assert_eq!(percent_saved(21, 932).as_deref(), Some("97.7"));
        assert_eq!(percent_saved(1, 0), None);
    }

    #[test]
    fn echoes_are_cut_at_the_limit_in_characters() {
        assert_eq!(escaped("b2 é"), "b2 é");
        assert_eq!(
            escaped("\u{1b}[2J\u{1b}]0;pwned\u{7} \u{202e}abc"),
            "\\u{1b}[2J\\u{1b}]0;pwned\\u{7} \\u{202e}abc"
        );
        assert_eq!(echo("b2"), "b2");
        let exact = "é".repeat(ECHO_LIMIT);
        assert_eq!(echo(&exact), exact);
        let long = "é".repeat(ECHO_LIMIT + 1);
        assert_eq!(echo(&long), format!("{}…", "é".repeat(ECHO_LIMIT)));
    }

    #[test]
    fn lines_end_at_newlines_with_or_without_a_carriage_return() {
        let read = lines(b"b2\r\n\nlast");
        let texts: Vec<&str> = read.iter().map(|line| line.text.as_str()).collect();
        assert_eq!(texts, ["b2", "", "last"]);
        assert!(read.iter().all(|line| !line.is_cut()));
        assert!(lines(b"").is_empty());
    }

    #[test]
    fn bytes_that_are_not_utf8_become_replacement_characters() {
        let read = lines(b"\xff\xfe\nb2\n");
        assert_eq!(read[0].text, "\u{fffd}\u{fffd}");
        assert_eq!(read[1].text, "b2");
    }

    #[test]
    fn a_long_line_keeps_its_start_and_its_length_and_the_next_line_is_whole() {
        let mut input = vec![b'x'; 3 * LINE_LIMIT + 7];
        input.extend(b"\nb2\n");
        let read = lines(&input);
        assert_eq!(read.len(), 2);
        assert_eq!(read[0].text.len(), LINE_LIMIT);
        assert_eq!(read[0].len, 3 * LINE_LIMIT + 7);
        assert!(read[0].is_cut());
        assert_eq!(read[1].text, "b2");
        // A line just at the limit, with a carriage return, is whole.
        let mut input = vec![b'x'; LINE_LIMIT];
        input.extend(b"\r\n");
        let read = lines(&input);
        assert_eq!((read[0].len, read[0].is_cut()), (LINE_LIMIT, false));
        assert_eq!(read[0].text.len(), LINE_LIMIT);
    }

    #[test]
    fn read_errors_name_standard_input() {
        struct Broken;
        impl io::Read for Broken {
            fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
                Err(io::Error::from_raw_os_error(21))
            }
        }
        let error = read_line(&mut io::BufReader::new(Broken)).unwrap_err();
        let error = io::Error::from(error);
        assert_eq!(error.kind(), io::ErrorKind::IsADirectory);
        assert!(
            error
                .to_string()
                .starts_with("cannot read standard input: Is a directory"),
            "{error}"
        );
    }
}

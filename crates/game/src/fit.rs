//! Text made to fit a width: wrapping by pieces or words, shortening a
//! sentence, picking the fullest variant that fits or the most important
//! items that do, and a writer that wraps every line it is given
//! ([`WordWrap`]). Pure text, for every front end: the screens, the key bar
//! and the line-based modes.

use std::io::{self, Write};

/// Joins `pieces` with spaces into lines at most `width` wide, breaking only
/// between pieces; a piece too long for a line of its own is broken after a
/// `/` (a board's rows), or else where the line ends.
pub fn wrap<'a>(pieces: impl IntoIterator<Item = &'a str>, width: u16) -> Vec<String> {
    wrap_with(pieces, " ", width)
}

/// [`wrap`] with another separator between pieces on a line.
pub fn wrap_with<'a>(
    pieces: impl IntoIterator<Item = &'a str>,
    separator: &str,
    width: u16,
) -> Vec<String> {
    let width = usize::from(width);
    let gap = separator.chars().count();
    let mut lines: Vec<String> = Vec::new();
    for piece in pieces {
        let piece_width = piece.chars().count();
        match lines.last_mut() {
            Some(line) if line.chars().count() + gap + piece_width <= width => {
                line.push_str(separator);
                line.push_str(piece);
            }
            _ => lines.extend(broken(piece, width)),
        }
    }
    lines
}

/// A piece as lines at most `width` wide: whole if it fits, else broken
/// after the last `/` that fits, or where the line ends.
fn broken(piece: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut rest: Vec<char> = piece.chars().collect();
    while rest.len() > width.max(1) {
        let at = rest[..width.max(1)]
            .iter()
            .rposition(|&c| c == '/')
            .map_or(width.max(1), |slash| slash + 1);
        lines.push(rest.drain(..at).collect());
    }
    lines.push(rest.into_iter().collect());
    lines
}

/// Joins pieces with " · " into lines at most `width` wide; a piece too long
/// for a line of its own is wrapped by words.
pub fn pack_pieces(pieces: &[&String], width: u16) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut fitting: Vec<&str> = Vec::new();
    let flush = |fitting: &mut Vec<&str>, lines: &mut Vec<String>| {
        lines.extend(wrap_with(fitting.drain(..), " · ", width));
    };
    for piece in pieces {
        if piece.chars().count() <= usize::from(width) {
            fitting.push(piece);
        } else {
            flush(&mut fitting, &mut lines);
            lines.extend(wrap_words(piece, width));
        }
    }
    flush(&mut fitting, &mut lines);
    lines
}

/// Wraps `text` by words into lines at most `width` wide.
pub fn wrap_words(text: &str, width: u16) -> Vec<String> {
    let lines = wrap(text.split(' ').filter(|word| !word.is_empty()), width);
    if lines.is_empty() {
        vec![String::new()]
    } else {
        lines
    }
}

/// `text` made to fit `width` columns without cutting a word: the last
/// clause (after ", " or ": ") goes first, since a status line says what
/// matters most first; a single clause still too long loses its last words
/// for an ellipsis.
pub fn shortened(text: &str, width: u16) -> String {
    let width = usize::from(width);
    let fits = |text: &str| text.chars().count() <= width;
    let mut text = text.to_string();
    while !fits(&text) {
        match text.rfind(", ").max(text.rfind(": ")) {
            Some(cut) if cut > 0 => text.truncate(cut),
            _ => break,
        }
    }
    while !fits(&text) {
        match text.trim_end_matches('…').rfind(' ') {
            Some(cut) if cut > 0 => {
                text.truncate(cut);
                text.push('…');
            }
            _ => break,
        }
    }
    text
}

/// The first of `variants` (fullest first) that fits in `width` columns, or
/// else the last and shortest.
pub fn first_fitting<S: AsRef<str>>(variants: &[S], width: u16) -> &str {
    let texts = variants.iter().map(AsRef::as_ref);
    texts
        .clone()
        .find(|text| text.chars().count() <= usize::from(width))
        .or_else(|| texts.last())
        .unwrap_or_default()
}

/// The items that fit, in their order, chosen most important first (1 is
/// the most; in their order within one importance): `fits` tells whether a
/// selection does.
pub fn most_important<T>(items: Vec<(u8, T)>, fits: impl Fn(&[&T]) -> bool) -> Vec<T> {
    let mut by_importance: Vec<usize> = (0..items.len()).collect();
    by_importance.sort_by_key(|&i| items[i].0);
    let mut chosen = vec![false; items.len()];
    for i in by_importance {
        chosen[i] = true;
        let selection: Vec<&T> = items
            .iter()
            .zip(&chosen)
            .filter(|(_, chosen)| **chosen)
            .map(|((_, said), _)| said)
            .collect();
        if !fits(&selection) {
            chosen[i] = false;
        }
    }
    items
        .into_iter()
        .zip(chosen)
        .filter(|(_, chosen)| *chosen)
        .map(|((_, said), _)| said)
        .collect()
}

/// A writer that wraps each line written through it at word boundaries to
/// `width` columns, as a terminal would not (it breaks a long line wherever
/// its width ends, mid-word). A wrapped line's continuation keeps the line's
/// indentation; a word longer than a line stays whole. What is flushed
/// before its line ends (a prompt) goes out as it is.
#[derive(Debug)]
pub struct WordWrap<W: Write> {
    out: W,
    width: usize,
    /// The line so far, until its end is written.
    line: Vec<u8>,
}

impl<W: Write> WordWrap<W> {
    /// Wraps what is written to `out` at `width` columns.
    pub fn new(out: W, width: u16) -> WordWrap<W> {
        WordWrap {
            out,
            width: usize::from(width).max(1),
            line: Vec::new(),
        }
    }

    /// Writes the line so far, wrapped, and forgets it.
    fn emit(&mut self) -> io::Result<()> {
        let line = String::from_utf8_lossy(&self.line).into_owned();
        self.line.clear();
        let indent: String = line.chars().take_while(|&c| c == ' ').collect();
        let room = self.width.saturating_sub(indent.len()).max(1);
        let mut text = String::new();
        let mut column = 0;
        for word in line.split(' ').filter(|word| !word.is_empty()) {
            let width = word.chars().count();
            if column > 0 && column + 1 + width > room {
                text.push('\n');
                column = 0;
            }
            if column == 0 {
                text.push_str(&indent);
            } else {
                text.push(' ');
                column += 1;
            }
            text.push_str(word);
            column += width;
        }
        self.out.write_all(text.as_bytes())
    }
}

impl<W: Write> Write for WordWrap<W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        for part in bytes.split_inclusive(|&byte| byte == b'\n') {
            match part.strip_suffix(b"\n") {
                Some(end) => {
                    self.line.extend_from_slice(end);
                    self.emit()?;
                    self.out.write_all(b"\n")?;
                }
                None => self.line.extend_from_slice(part),
            }
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        // A line not ended yet (a prompt) goes out as it is.
        let partial = std::mem::take(&mut self.line);
        self.out.write_all(&partial)?;
        self.out.flush()
    }
}

impl<W: Write> Drop for WordWrap<W> {
    fn drop(&mut self) {
        let _ = self.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wrapped(text: &str, width: u16) -> String {
        let mut out = Vec::new();
        {
            let mut wrap = WordWrap::new(&mut out, width);
            wrap.write_all(text.as_bytes()).unwrap();
        }
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn lines_wrap_at_words_and_keep_their_indentation() {
        assert_eq!(
            wrapped("Why: the trace counts every call\n", 16),
            "Why: the trace\ncounts every\ncall\n"
        );
        assert_eq!(
            wrapped("  . X O\n  one two three four\n", 10),
            "  . X O\n  one two\n  three\n  four\n"
        );
        // Short lines, blank lines and a prompt not yet ended are as they were.
        assert_eq!(wrapped("ok\n\n> ", 10), "ok\n\n> ");
        // A word longer than the line stays whole.
        assert_eq!(wrapped("a verylongword b\n", 5), "a\nverylongword\nb\n");
    }

    #[test]
    fn a_piece_too_long_breaks_after_a_slash() {
        let rows = "......./......./.......";
        assert_eq!(wrap([rows], 17), vec!["......./......./", "......."]);
        assert_eq!(wrap(["abcdefgh"], 3), vec!["abc", "def", "gh"]);
    }
}

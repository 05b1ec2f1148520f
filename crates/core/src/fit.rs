//! Text made to fit a width: wrapping by pieces or words, shortening a
//! sentence, picking the fullest variant that fits or the most important
//! items that do. Pure text, for every front end: the screens, the key bar
//! and the line-based modes.

/// Joins `pieces` with spaces into lines at most `width` wide, breaking only
/// between pieces; a piece too long for a line of its own is cut.
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
            _ => lines.push(piece.chars().take(width).collect()),
        }
    }
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

//! The client's screen, drawn with little memory per session. ratatui's
//! `Terminal` keeps two whole buffers per screen (about 40 bytes a cell:
//! 2.9 MB at 300x120); here each frame is drawn into one scratch buffer per
//! thread, and the session keeps only a hash of every run of
//! [`SEGMENT`] cells as last sent (8 bytes per 16 cells: 18 KB at
//! 300x120). A run whose hash changed is sent whole; the rest is not sent.
//!
//! Every cell of every frame is hashed, so the hash is a fast one (foldhash
//! over a few words per cell; SipHash field by field took three quarters of
//! a flooded server's time), seeded at random for each screen so that
//! nobody can aim for a collision that would leave a run unsent.

use std::cell::RefCell;
use std::hash::{BuildHasher, Hasher};
use std::io;

use crossterm::queue;
use crossterm::terminal::{Clear, ClearType};
use foldhash::quality::RandomState;
use ratatui::backend::{Backend, CrosstermBackend};
use ratatui::buffer::{Buffer, Cell, CellDiffOption};
use ratatui::layout::Rect;
use ratatui::style::Color;
use ratatui::text::Span;

use super::output::OutboxWriter;
use tictactoe_screen::layout::drawn_area;

/// Cells per hashed run: small enough that a change sends little more than
/// itself, large enough that the hashes take little memory.
const SEGMENT: usize = 16;

thread_local! {
    /// The frame being drawn: one per thread, as big as the largest screen drawn on it.
    static SCRATCH: RefCell<Buffer> = RefCell::new(Buffer::empty(Rect::ZERO));
}

/// One client's screen.
pub(super) struct Screen {
    backend: CrosstermBackend<OutboxWriter>,
    area: Rect,
    /// The hash of each run of each row as the client has it.
    sent: Vec<u64>,
    /// This screen's hash function.
    hashing: RandomState,
    /// The client's screen is unknown: clear it before the next frame.
    stale: bool,
}

fn runs_per_row(width: u16) -> usize {
    usize::from(width).div_ceil(SEGMENT)
}

fn width_of(cell: &Cell) -> usize {
    match cell.symbol().as_bytes() {
        // Most cells: one printable ASCII character.
        [byte] if byte.is_ascii_graphic() || *byte == b' ' => 1,
        _ => Span::raw(cell.symbol()).width(),
    }
}

/// A colour as a number, for hashing: a tag in the top bits, the value below.
fn color_code(color: Color) -> u64 {
    let named = |n: u64| 1 << 24 | n;
    match color {
        Color::Rgb(r, g, b) => 2 << 24 | u64::from(r) << 16 | u64::from(g) << 8 | u64::from(b),
        Color::Indexed(i) => 3 << 24 | u64::from(i),
        Color::Reset => named(0),
        Color::Black => named(1),
        Color::Red => named(2),
        Color::Green => named(3),
        Color::Yellow => named(4),
        Color::Blue => named(5),
        Color::Magenta => named(6),
        Color::Cyan => named(7),
        Color::Gray => named(8),
        Color::DarkGray => named(9),
        Color::LightRed => named(10),
        Color::LightGreen => named(11),
        Color::LightYellow => named(12),
        Color::LightBlue => named(13),
        Color::LightMagenta => named(14),
        Color::LightCyan => named(15),
        Color::White => named(16),
    }
}

fn diff_code(option: CellDiffOption) -> u64 {
    match option {
        CellDiffOption::None => 0,
        CellDiffOption::Skip => 1,
        CellDiffOption::AlwaysUpdate => 2,
        CellDiffOption::ForcedWidth(width) => 3 << 16 | u64::from(width.get()),
    }
}

/// The hash of a run of cells: what each shows and how. Each cell is its
/// symbol's bytes and two words (its colours and the symbol's length; its
/// underline colour, modifiers and diff option), three writes where hashing
/// each field would take a dozen. Colours take 26 bits, modifiers 16, the
/// diff option 18.
fn hash_run(hashing: &RandomState, cells: &[Cell]) -> u64 {
    let mut hasher = hashing.build_hasher();
    for cell in cells {
        let symbol = cell.symbol();
        hasher.write(symbol.as_bytes());
        let length = symbol.len().min(0xfff) as u64;
        hasher.write_u64(color_code(cell.fg) << 38 | color_code(cell.bg) << 12 | length);
        hasher.write_u64(
            color_code(cell.underline_color) << 38
                | u64::from(cell.modifier.bits()) << 22
                | diff_code(cell.diff_option),
        );
    }
    hasher.finish()
}

impl Screen {
    pub(super) fn new(writer: OutboxWriter, cols: u16, rows: u16) -> Screen {
        let mut screen = Screen {
            backend: CrosstermBackend::new(writer),
            area: Rect::ZERO,
            sent: Vec::new(),
            hashing: RandomState::default(),
            stale: true,
        };
        screen.resize(cols, rows);
        screen
    }

    /// The client's window has a new size: the next frame is drawn whole,
    /// on at most [`tictactoe_screen::layout::MAX_SCREEN`] of it, centred,
    /// as at the local terminal.
    pub(super) fn resize(&mut self, cols: u16, rows: u16) {
        self.area = drawn_area((cols, rows));
        self.sent = vec![0; runs_per_row(self.area.width) * usize::from(self.area.height)];
        self.stale = true;
    }

    /// Where the screen is drawn on the client's terminal.
    pub(super) fn area(&self) -> Rect {
        self.area
    }

    /// Where escape sequences go that are no part of a frame.
    pub(super) fn writer(&mut self) -> &mut CrosstermBackend<OutboxWriter> {
        &mut self.backend
    }

    /// Draws a frame with `render` and sends what changed.
    pub(super) fn draw(&mut self, render: impl FnOnce(Rect, &mut Buffer)) -> io::Result<()> {
        SCRATCH.with_borrow_mut(|buffer| {
            buffer.resize(self.area);
            buffer.reset();
            render(self.area, buffer);
            self.send(buffer)
        })
    }

    fn send(&mut self, buffer: &Buffer) -> io::Result<()> {
        let width = usize::from(self.area.width);
        let runs = runs_per_row(self.area.width);
        if std::mem::take(&mut self.stale) {
            queue!(self.backend, Clear(ClearType::All))?;
            // A cleared screen is blank: runs of blanks need not be sent.
            let blank = hash_run(&self.hashing, &[Cell::EMPTY; SEGMENT]);
            let short_blank = hash_run(
                &self.hashing,
                &vec![Cell::EMPTY; width - (runs - 1) * SEGMENT],
            );
            for row in self.sent.chunks_mut(runs) {
                row.fill(blank);
                row[runs - 1] = short_blank;
            }
        }
        let mut changes: Vec<(u16, u16, &Cell)> = Vec::new();
        // Columns of the row at hand covered by a wide character to their left.
        let mut covered = vec![false; width];
        for (y, row) in buffer.content.chunks(width.max(1)).enumerate() {
            let mut skip = 0;
            for (x, cell) in row.iter().enumerate() {
                covered[x] = skip > 0;
                if skip > 0 {
                    skip -= 1;
                } else {
                    skip = width_of(cell).saturating_sub(1);
                }
            }
            for run in 0..runs {
                let start = run * SEGMENT;
                let end = (start + SEGMENT).min(row.len());
                let hash = hash_run(&self.hashing, &row[start..end]);
                let sent = &mut self.sent[y * runs + run];
                if *sent == hash {
                    continue;
                }
                *sent = hash;
                // A run that starts inside a wide character sends that character too.
                let mut from = start;
                while from > 0 && covered[from] {
                    from -= 1;
                }
                for (x, cell) in row.iter().enumerate().take(end).skip(from) {
                    if !covered[x] {
                        let (x, y) = (self.area.x + x as u16, self.area.y + y as u16);
                        changes.push((x, y, cell));
                    }
                }
            }
        }
        if changes.is_empty() {
            return Ok(());
        }
        self.backend.draw(changes.into_iter())?;
        Backend::flush(&mut self.backend)
    }

    /// Sends what was written outside frames.
    pub(super) fn flush(&mut self) -> io::Result<()> {
        Backend::flush(&mut self.backend)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use ratatui::style::{Color, Style};

    use super::*;
    use crate::output::Outbox;

    type Frame<'a> = &'a dyn Fn(Rect, &mut Buffer);

    /// Draws frames on a screen and replays what was sent on a vt100 terminal.
    fn replay(frames: &[Frame<'_>], cols: u16, rows: u16) -> (vt100::Parser, usize) {
        let outbox = Arc::new(Outbox::default());
        let mut screen = Screen::new(OutboxWriter::new(Arc::clone(&outbox)), cols, rows);
        let size = |n: u16| std::num::NonZeroU16::new(n).expect("a size");
        let mut parser = vt100::Parser::new(size(rows), size(cols), 0);
        let mut last = 0;
        for frame in frames {
            screen.draw(|area, buf| frame(area, buf)).unwrap();
            let bytes = outbox.take();
            last = bytes.len();
            parser.process(&bytes);
        }
        (parser, last)
    }

    #[test]
    fn the_client_sees_each_frame_and_little_more_than_changes_are_sent() {
        let first = |_: Rect, buf: &mut Buffer| {
            buf.set_string(0, 0, "hello 世界 world", Style::new());
            buf.set_string(20, 3, "X", Style::new().fg(Color::Red));
        };
        let second = |_: Rect, buf: &mut Buffer| {
            buf.set_string(0, 0, "hello wide world", Style::new());
            buf.set_string(21, 3, "X", Style::new().fg(Color::Red));
        };
        let third = |_: Rect, buf: &mut Buffer| {
            buf.set_string(0, 0, "hello wide world", Style::new());
            buf.set_string(21, 3, "X", Style::new().fg(Color::Red));
            buf.set_string(70, 9, "世", Style::new());
        };
        let (parser, last) = replay(&[&first, &second, &third], 80, 10);
        let screen = parser.screen();
        assert_eq!(screen.contents_between(0, 0, 0, 16), "hello wide world");
        assert!(screen.cell(3, 20).unwrap().contents().trim().is_empty());
        assert_eq!(screen.cell(3, 21).unwrap().contents(), "X");
        assert_eq!(screen.cell(3, 21).unwrap().fgcolor(), vt100::Color::Idx(1));
        assert_eq!(screen.cell(9, 70).unwrap().contents(), "世");
        // The last frame changed one run: sixteen cells at most, and the escapes.
        assert!(last < 64, "{last} bytes sent for one changed character");
    }

    #[test]
    fn a_terminal_bigger_than_the_cap_gets_the_frame_centred() {
        let (cols, rows) = (340, 130);
        let frame = |area: Rect, buf: &mut Buffer| {
            buf.set_string(area.x, area.y, "top left", Style::new());
        };
        let (parser, _) = replay(&[&frame], cols, rows);
        let screen = parser.screen();
        // 300x120 of it, centred: from column 20, row 5.
        assert_eq!(screen.contents_between(5, 20, 5, 28), "top left");
        assert!(screen.contents_between(0, 0, 4, cols).trim().is_empty());
    }

    #[test]
    fn a_change_of_colour_or_modifier_alone_is_sent() {
        use ratatui::style::Modifier;
        let styles = [
            Style::new(),
            Style::new().fg(Color::Red),
            Style::new().fg(Color::Rgb(255, 0, 0)),
            Style::new().fg(Color::Indexed(1)),
            Style::new().fg(Color::Indexed(1)).bg(Color::Blue),
            Style::new().fg(Color::Indexed(1)).bg(Color::Indexed(4)),
            Style::new()
                .bg(Color::Indexed(4))
                .add_modifier(Modifier::BOLD),
            Style::new().add_modifier(Modifier::REVERSED),
        ];
        let outbox = Arc::new(Outbox::default());
        let mut screen = Screen::new(OutboxWriter::new(Arc::clone(&outbox)), 20, 3);
        for style in styles {
            screen
                .draw(|_, buf| {
                    buf.set_string(3, 1, "o", style);
                })
                .unwrap();
            assert!(outbox.take().contains(&b'o'), "{style:?}: nothing sent");
        }
    }
}

//! The screen-reader mode over SSH: the game in sentences, a line for each
//! event, as `tictactoe --screen-reader` plays it on a local terminal (the
//! same session and voice: [`tictactoe_console::reader`]). A client gets it with the
//! command `screen-reader`, or when its terminal cannot show the
//! full-screen game: `TERM=dumb`, or no terminal at all (`ssh -T`). It
//! plays the AI on the classic board; people pair up in the full-screen
//! lobby only.
//!
//! The session is a blocking one (it reads a line, answers, reads the
//! next), so it runs on a thread of its own, fed the client's lines. With
//! no terminal, the client's own terminal edits and echoes each line;
//! with one, the client sends each key as typed, and [`LineEditor`] echoes
//! it and handles Backspace, Ctrl-U, Ctrl-C and Ctrl-D.

use std::io::{self, Read, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use tokio::sync::mpsc;

use super::admission::PlayerSlot;
use super::limit::Bucket;
use super::output::{Outbox, OutboxWriter, Pumped};
use super::session::{self, Input, SessionEnd, Wire};
use super::{Shared, log, sleep_until};
use tictactoe_console::reader::Sentences;
use tictactoe_engine::Level;
use tictactoe_game::game::{Seat, Seats};
use tictactoe_game::record::Archive;
use tictactoe_game::text::LINE_LIMIT;

/// The command that asks for this mode (`ssh host screen-reader`).
pub(super) const COMMAND: &str = "screen-reader";

/// Lines on their way to the session before the client waits.
const LINE_QUEUE: usize = 16;

/// What the SSH side learned about a client that reads in sentences.
pub(super) struct LineClient {
    /// The sanitised SSH user name.
    pub name: String,
    /// Where from, for the log.
    pub peer: String,
    /// The client has a terminal (sends keys as typed, shows `\r\n`).
    pub terminal: bool,
}

/// Runs one client's screen-reader session until it ends, then says
/// goodbye and closes the channel.
pub(super) async fn run(
    shared: Arc<Shared>,
    client: LineClient,
    place: PlayerSlot,
    (wire, mut input): (Wire, mpsc::Receiver<Input>),
) {
    let (_hang_up, mut pumping) = wire.start(shared.send_timeout);
    let outbox = &wire.outbox;
    let LineClient {
        name,
        peer,
        terminal,
    } = client;
    log(format_args!("connect {name} from {peer} (screen reader)"));
    let (lines, received) = mpsc::channel::<Vec<u8>>(LINE_QUEUE);
    let mut writer = Lines::new(Arc::clone(outbox), terminal);
    let output = Arc::clone(outbox);
    let cut = Arc::new(AtomicBool::new(false));
    let thread_cut = Arc::clone(&cut);
    let mut reading = tokio::task::spawn_blocking(move || {
        let settings = session::ai_settings(Seats {
            x: Seat::Human,
            o: Seat::Ai(Level::Perfect),
        });
        let keep = Archive {
            stats: None,
            records: None,
        };
        let mut input = io::BufReader::new(Received {
            lines: received,
            line: Vec::new(),
            at: 0,
            cut: thread_cut,
        });
        let mut output = Lines::new(output, terminal);
        let lines = tictactoe_console::Lines {
            input: &mut input,
            output: &mut output,
            errors: &mut io::sink(),
            prompt: terminal,
        };
        let ended = tictactoe_console::run(&mut Sentences, &settings, keep, lines);
        // The session's last words (the end of input said) go out before the goodbye.
        let _ = output.flush();
        ended
    });
    let mut lines = Some(lines);
    let mut editor = LineEditor::new(terminal);
    let mut budget = Bucket::new(
        session::INPUT_BURST,
        f64::from(session::INPUT_RATE),
        Instant::now(),
    );
    let mut shutdown = shared.shutdown.clone();
    let mut last_key = tokio::time::Instant::now();
    let ending = loop {
        if *shutdown.borrow_and_update() {
            break SessionEnd::Shutdown;
        }
        let resumes = budget
            .owing_until(Instant::now())
            .map(tokio::time::Instant::from_std);
        let idle_at = last_key + shared.idle_timeout;
        tokio::select! {
            _ = shutdown.changed() => break SessionEnd::Shutdown,
            pumped = &mut pumping => break match pumped {
                Ok(Pumped::Stalled) => SessionEnd::TooSlow,
                Ok(Pumped::Behind) => SessionEnd::Behind,
                _ => SessionEnd::Gone,
            },
            _ = &mut reading => break SessionEnd::Quit,
            received = input.recv(), if resumes.is_none() && lines.is_some() => match received {
                // The connection went (it says so before its input ends).
                None if outbox.is_gone() => break SessionEnd::Gone,
                // The client sent its end of input: the session reads it
                // and finishes what it says.
                None => lines = None,
                Some(Input::Resize(..)) => {}
                Some(Input::Bytes(bytes)) => {
                    budget.spend(bytes.len(), Instant::now());
                    last_key = tokio::time::Instant::now();
                    let mut quit = false;
                    for typed in editor.feed(&bytes) {
                        match typed {
                            Typed::Echo(echo) => writer.send(&echo),
                            Typed::Line(line) => {
                                if let Some(sender) = &lines {
                                    let _ = sender.send(line).await;
                                }
                            }
                            Typed::End => quit = true,
                        }
                    }
                    if quit {
                        lines = None;
                    }
                }
            },
            () = sleep_until(resumes) => {}
            () = tokio::time::sleep_until(idle_at) => break SessionEnd::Idle,
        }
    };
    drop(place);
    // The session ends with its input, and says nothing more when the
    // server ended it; what it still says goes out before the goodbye.
    cut.store(ending != SessionEnd::Quit, Ordering::SeqCst);
    drop(lines);
    if ending != SessionEnd::Quit {
        let _ = tokio::time::timeout(session::GOODBYE_TIME, &mut reading).await;
    }
    let say = |goodbye: &str| {
        if !goodbye.is_empty() {
            // On a terminal the prompt (or a line half typed) is on screen.
            let start = if terminal { "\n" } else { "" };
            writeln!(writer, "{start}{goodbye}")?;
        }
        writer.flush()
    };
    let ended = session::Ended {
        ending,
        name: &name,
        peer: &peer,
    };
    session::finish(&shared, ended, say, &wire, &mut pumping).await;
}

/// The session's input: the client's lines, as they come.
struct Received {
    lines: mpsc::Receiver<Vec<u8>>,
    line: Vec<u8>,
    at: usize,
    /// Set when the server ends the session (idle, going down): its input
    /// is then gone, as a closed terminal's is, rather than at its end.
    cut: Arc<AtomicBool>,
}

impl Read for Received {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.at == self.line.len() {
            match self.lines.blocking_recv() {
                Some(line) => (self.line, self.at) = (line, 0),
                // The session says nothing more: the server says why.
                None if self.cut.load(Ordering::SeqCst) => {
                    return Err(io::Error::from_raw_os_error(
                        rustix::io::Errno::IO.raw_os_error(),
                    ));
                }
                // The end of the client's input.
                None => return Ok(0),
            }
        }
        let n = buf.len().min(self.line.len() - self.at);
        buf[..n].copy_from_slice(&self.line[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// Text on its way to the client: a line break is `\r\n` on a terminal
/// (the client's is raw while it shows ours).
struct Lines {
    writer: OutboxWriter,
    terminal: bool,
}

impl Lines {
    fn new(outbox: Arc<Outbox>, terminal: bool) -> Lines {
        Lines {
            writer: OutboxWriter::new(outbox),
            terminal,
        }
    }

    /// Sends bytes at once; a client too far behind misses them (and is
    /// dropped for not reading).
    fn send(&mut self, bytes: &[u8]) {
        let _ = self.write_all(bytes).and_then(|()| self.flush());
    }
}

impl Write for Lines {
    /// Whole lines go out at once, as a terminal's output would: what the
    /// session says before it reads is heard whether or not it flushes.
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        for piece in buf.split_inclusive(|&byte| byte == b'\n') {
            match piece.strip_suffix(b"\n") {
                Some(line) => {
                    self.writer.write_all(line)?;
                    let end: &[u8] = if self.terminal { b"\r\n" } else { b"\n" };
                    self.writer.write_all(end)?;
                    self.writer.flush()?;
                }
                None => self.writer.write_all(piece)?,
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.writer.flush()
    }
}

/// What the client's keys amount to.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Typed {
    /// Bytes to show the client (its keys echoed, or a line rubbed out).
    Echo(Vec<u8>),
    /// A whole line, its `\n` included.
    Line(Vec<u8>),
    /// Ctrl-C, or Ctrl-D on an empty line: the end of input.
    End,
}

/// Where the editor is in an escape sequence the client's keys sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Escape {
    None,
    /// After ESC.
    Started,
    /// Inside `ESC [` or `ESC O`: up to a final byte.
    Sequence,
}

/// Turns keys into lines. Without a terminal the client's own terminal
/// has edited each line already: bytes pass through as they are.
struct LineEditor {
    terminal: bool,
    line: Vec<u8>,
    /// The last key was a carriage return: a line feed after it ends no line.
    after_return: bool,
    escape: Escape,
}

/// How a key rubbed out is shown: back, a blank, back.
const RUB_OUT: &[u8] = b"\x08 \x08";

impl LineEditor {
    fn new(terminal: bool) -> LineEditor {
        LineEditor {
            terminal,
            line: Vec::new(),
            after_return: false,
            escape: Escape::None,
        }
    }

    fn feed(&mut self, bytes: &[u8]) -> Vec<Typed> {
        if !self.terminal {
            return vec![Typed::Line(bytes.to_vec())];
        }
        let mut typed = Vec::new();
        let mut echo = Vec::new();
        for &byte in bytes {
            let after_return = std::mem::take(&mut self.after_return);
            match self.escape {
                Escape::Started => {
                    self.escape = Escape::None;
                    if matches!(byte, b'[' | b'O') {
                        self.escape = Escape::Sequence;
                        continue;
                    }
                    // Esc alone, then a key: the key is typed.
                }
                Escape::Sequence => {
                    if (0x40..=0x7e).contains(&byte) {
                        self.escape = Escape::None;
                    }
                    continue;
                }
                Escape::None => {}
            }
            match byte {
                0x1b => self.escape = Escape::Started,
                b'\n' if after_return => {}
                b'\r' | b'\n' => {
                    self.after_return = byte == b'\r';
                    echo.extend_from_slice(b"\r\n");
                    typed.push(Typed::Echo(std::mem::take(&mut echo)));
                    let mut line = std::mem::take(&mut self.line);
                    line.push(b'\n');
                    typed.push(Typed::Line(line));
                }
                // Backspace or DEL: the last character goes.
                0x08 | 0x7f => {
                    if let Some(start) = last_char_start(&self.line) {
                        self.line.truncate(start);
                        echo.extend_from_slice(RUB_OUT);
                    }
                }
                // Ctrl-U: the whole line goes.
                0x15 => {
                    let mut start = self.line.len();
                    while let Some(previous) = last_char_start(&self.line[..start]) {
                        start = previous;
                        echo.extend_from_slice(RUB_OUT);
                    }
                    self.line.clear();
                }
                0x03 => {
                    echo.extend_from_slice(b"\r\n");
                    typed.push(Typed::Echo(echo));
                    typed.push(Typed::End);
                    return typed;
                }
                0x04 if self.line.is_empty() => {
                    echo.extend_from_slice(b"\r\n");
                    typed.push(Typed::Echo(echo));
                    typed.push(Typed::End);
                    return typed;
                }
                _ if byte < 0x20 => {}
                // A character, kept within the longest line read.
                _ if self.line.len() < LINE_LIMIT => {
                    self.line.push(byte);
                    echo.push(byte);
                }
                _ => {}
            }
        }
        if !echo.is_empty() {
            typed.push(Typed::Echo(echo));
        }
        typed
    }
}

/// Where the last UTF-8 character of `line` starts, if it has one.
fn last_char_start(line: &[u8]) -> Option<usize> {
    let last = line.len().checked_sub(1)?;
    Some(
        (0..=last)
            .rev()
            .take(4)
            .find(|&i| line[i] & 0xc0 != 0x80)
            .unwrap_or(last),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(typed: &[Typed]) -> Vec<String> {
        typed
            .iter()
            .filter_map(|t| match t {
                Typed::Line(line) => Some(String::from_utf8_lossy(line).into_owned()),
                _ => None,
            })
            .collect()
    }

    fn echoed(typed: &[Typed]) -> Vec<u8> {
        typed
            .iter()
            .flat_map(|t| match t {
                Typed::Echo(echo) => echo.clone(),
                _ => Vec::new(),
            })
            .collect()
    }

    #[test]
    fn keys_are_echoed_and_make_lines() {
        let mut editor = LineEditor::new(true);
        let typed = editor.feed(b"b2\r");
        assert_eq!(lines(&typed), ["b2\n"]);
        assert_eq!(echoed(&typed), b"b2\r\n");
        // A CR LF pair is one line end; a bare LF is one too.
        let typed = editor.feed(b"\nboard\nlast\r\n");
        assert_eq!(lines(&typed), ["board\n", "last\n"]);
    }

    #[test]
    fn backspace_and_ctrl_u_rub_out() {
        let mut editor = LineEditor::new(true);
        let typed = editor.feed("bé\x7f2\x08\x081\r".as_bytes());
        assert_eq!(lines(&typed), ["1\n"]);
        let typed = editor.feed(b"scores\x15c3\r");
        assert_eq!(lines(&typed), ["c3\n"]);
        assert_eq!(
            echoed(&typed),
            [&b"scores"[..], &RUB_OUT.repeat(6), b"c3\r\n"].concat()
        );
        // Nothing to rub out: nothing echoed.
        assert!(echoed(&editor.feed(b"\x7f")).is_empty());
    }

    #[test]
    fn arrows_and_control_keys_are_not_typed() {
        let mut editor = LineEditor::new(true);
        let typed = editor.feed(b"\x1b[A\x1bOBa\x1b[1;5C1\x07\t\r");
        assert_eq!(lines(&typed), ["a1\n"]);
    }

    #[test]
    fn esc_alone_takes_no_key_with_it() {
        let mut editor = LineEditor::new(true);
        assert_eq!(lines(&editor.feed(b"\x1bc3\r")), ["c3\n"]);
        assert_eq!(lines(&editor.feed(b"b2\x1b\r")), ["b2\n"]);
    }

    #[test]
    fn ctrl_c_and_ctrl_d_on_an_empty_line_end_the_input() {
        let mut editor = LineEditor::new(true);
        assert_eq!(
            editor.feed(b"a\x04").last(),
            Some(&Typed::Echo(b"a".to_vec()))
        );
        assert_eq!(editor.feed(b"\x15\x04").last(), Some(&Typed::End));
        let mut editor = LineEditor::new(true);
        assert_eq!(editor.feed(b"b2\x03").last(), Some(&Typed::End));
    }

    #[test]
    fn lines_are_capped_at_the_longest_line_read() {
        let mut editor = LineEditor::new(true);
        let typed = editor.feed(&[b'x'; LINE_LIMIT + 10]);
        assert_eq!(echoed(&typed).len(), LINE_LIMIT);
    }

    #[test]
    fn without_a_terminal_bytes_pass_through() {
        let mut editor = LineEditor::new(false);
        assert_eq!(
            editor.feed(b"b2\n\x7fboard\n"),
            [Typed::Line(b"b2\n\x7fboard\n".to_vec())]
        );
    }

    #[test]
    fn a_terminal_gets_carriage_returns() {
        let outbox = Arc::new(Outbox::default());
        let mut lines = Lines::new(Arc::clone(&outbox), true);
        write!(lines, "You play b2.\nO plays a1.\n> ").expect("written");
        lines.flush().expect("flushed");
        assert_eq!(outbox.take(), b"You play b2.\r\nO plays a1.\r\n> ");
        let mut lines = Lines::new(Arc::clone(&outbox), false);
        writeln!(lines, "You play b2.").expect("written");
        lines.flush().expect("flushed");
        assert_eq!(outbox.take(), b"You play b2.\n");
    }
}

//! `tictactoe-console`: the line-based front ends, beside the full-screen
//! one (`tictactoe-screen`): plain mode ([`plain`]) and the screen-reader
//! mode ([`reader`]), over any reader and writer (a terminal, a pipe, an SSH
//! channel). The width text wraps to is the caller's to read, where the
//! terminal is opened.
//!
//! The line-by-line session both share is [`run`]. It
//! reads a line at a time (a move: a digit 1-9 on 3x3 or a square such as
//! `b2`; or a command of the key table's words for the front end's mode),
//! plays the AI's moves, saves results and records the moment they happen,
//! and leaves what is said about each event to the front end's [`Voice`].

#![deny(missing_docs)]

pub mod plain;
pub mod reader;

use std::io::{self, BufRead, Write};

use tictactoe_engine::{Ai, Geometry, IllegalMove, Square, Status};
use tictactoe_game::action::Action;
use tictactoe_game::game::{Game, ResultChange, Seat};
use tictactoe_game::keys::{self, Context, Mode};
use tictactoe_game::record::{self, Archive};
use tictactoe_game::settings::{Settings, title};
use tictactoe_game::stats::Counter;
use tictactoe_game::text::{self, InputLine, echo, read_line};

/// Where a line-based session reads and writes: the player's lines come
/// from `input`, the game goes to `output`, and what could not be saved to
/// `errors`; `prompt` writes a `>` before each read (for a person at a
/// terminal).
pub struct Lines<'a> {
    /// The player's lines: moves and commands.
    pub input: &'a mut dyn BufRead,
    /// What the front end says about the game.
    pub output: &'a mut dyn Write,
    /// Results or records that could not be saved.
    pub errors: &'a mut dyn Write,
    /// A `>` before each read.
    pub prompt: bool,
}

/// How a text front end tells what happens: the session calls it at every
/// event, with the game as it stands after the event.
pub trait Voice {
    /// The key table's mode whose words this front end reads.
    fn mode(&self) -> Mode;

    /// A move was just played: the game's last move.
    fn moved(&mut self, game: &Game, settings: &Settings, out: &mut dyn Write) -> io::Result<()>;

    /// Where the game stands, at the start and after a new game, undo or redo:
    /// the position as this voice shows it, and whose turn it is.
    fn state(&mut self, game: &Game, settings: &Settings, out: &mut dyn Write) -> io::Result<()>;

    /// Whose turn it is or how the game ended, after input that was refused.
    fn turn(&mut self, game: &Game, settings: &Settings, out: &mut dyn Write) -> io::Result<()>;

    /// A command of this front end's own (a word of its mode only).
    fn own(&mut self, action: Action, here: Here<'_>) -> io::Result<()> {
        let _ = (action, here);
        Ok(())
    }
}

/// What a front end's own command may look at and use.
pub struct Here<'a> {
    /// The game on screen.
    pub game: &'a Game,
    /// The session's settings.
    pub settings: &'a Settings,
    /// The input, for commands that ask questions of their own.
    pub input: &'a mut dyn BufRead,
    /// The output.
    pub out: &'a mut dyn Write,
    /// A person types at a terminal: a `>` before each read.
    pub prompt: bool,
}

/// What a line of input asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Command {
    Play(Square),
    Undo,
    Redo,
    New,
    Help,
    Quit,
    Own(Action),
    Nothing,
}

fn parse(line: &InputLine, shape: &Geometry, mode: Mode) -> Result<Command, String> {
    if line.is_cut() {
        return Err(not_a_move(&line.echo(), shape));
    }
    let word = line.text.trim().to_ascii_lowercase();
    if word.is_empty() {
        return Ok(Command::Nothing);
    }
    // The commands are the key table's words for the mode.
    let command = match keys::typed(mode, &word) {
        Some(Action::Undo) => Command::Undo,
        Some(Action::Redo) => Command::Redo,
        Some(Action::NewGame) => Command::New,
        Some(Action::ToggleHelp) => Command::Help,
        Some(Action::Quit) => Command::Quit,
        Some(action) => Command::Own(action),
        None => match shape.parse_square(&word) {
            Ok(mv) => Command::Play(mv),
            Err(_) => return Err(not_a_move(&echo(line.text.trim()), shape)),
        },
    };
    Ok(command)
}

/// The refusal of a line that is no move nor command, showing it as `shown`.
fn not_a_move(shown: &str, shape: &Geometry) -> String {
    let size = shape.size();
    let last = Square::new(size - 1, size - 1);
    let digits = if shape.is_classic() {
        "a digit 1-9 or "
    } else {
        ""
    };
    format!("{shown:?} is not a move: type {digits}a square from a1 to {last}, or help")
}

/// How a text session ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionEnd {
    /// `quit`, the end of the input, or a game of AIs played out.
    Done,
    /// The terminal went away (reading or writing it failed with EIO, as
    /// after its window was closed with SIGHUP ignored): the session ends as
    /// SIGHUP would have ended it.
    TerminalGone,
}

/// Plays sessions on `input` and `output` until `quit` or the end of input,
/// telling each event in `voice`'s words. `prompt` writes a `>` before each
/// read (for a person at a terminal). A game that cannot be recorded is
/// said on `errors`, a line each (`error: ...`).
///
/// If `output` fails (the reader has gone, as with `| head`), the moves
/// still to come in `input` are played all the same, silently, so a game
/// they finish is counted; the first failure is returned at the end. With
/// `prompt`, a failure that says the terminal has gone away is no error but
/// the session's [`SessionEnd::TerminalGone`].
pub fn run(
    voice: &mut dyn Voice,
    settings: &Settings,
    keep: Archive,
    lines: Lines<'_>,
) -> io::Result<SessionEnd> {
    let prompt = lines.prompt;
    let mut sink = Sink {
        output: lines.output,
        failed: None,
    };
    let lines = Lines {
        input: lines.input,
        output: &mut sink,
        errors: lines.errors,
        prompt,
    };
    let played = play(voice, settings, keep, lines);
    let gone = |error: &io::Error| prompt && text::is_hangup(error);
    match (played, sink.failed) {
        (Ok(SessionEnd::TerminalGone), _) => Ok(SessionEnd::TerminalGone),
        (Ok(SessionEnd::Done), None) => Ok(SessionEnd::Done),
        (Ok(SessionEnd::Done), Some(error)) if gone(&error) => Ok(SessionEnd::TerminalGone),
        (Ok(SessionEnd::Done), Some(error)) | (Err(error), _) => Err(error),
    }
}

/// Output that may go away: the first failure is kept, and whatever is
/// written after it is dropped.
struct Sink<'a> {
    output: &'a mut dyn Write,
    failed: Option<io::Error>,
}

impl Write for Sink<'_> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        if self.failed.is_none()
            && let Err(error) = self.output.write_all(bytes)
        {
            self.failed = Some(error);
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.failed.is_none()
            && let Err(error) = self.output.flush()
        {
            self.failed = Some(error);
        }
        Ok(())
    }
}

/// The session itself, writing to output that never fails.
fn play(
    voice: &mut dyn Voice,
    settings: &Settings,
    keep: Archive,
    lines: Lines<'_>,
) -> io::Result<SessionEnd> {
    let Lines {
        input,
        output,
        errors,
        prompt,
    } = lines;
    let seats = settings.seats;
    let mode = voice.mode();
    // One AI for the session: on big boards it keeps what it searched.
    let mut ai = Ai::new();
    let mut dice = settings.dice();
    let mut counter = Counter::new(keep.stats);
    let records = keep.records;
    // Saves a result the moment it appears or goes away, and records a
    // finished game, before anything is written about it.
    let mut save = |before: Status, game: &Game| {
        let Some(change) = ResultChange::between(before, game.status()) else {
            return Vec::new();
        };
        let notes: Vec<String> = counter
            .save(change, seats, settings.start)
            .iter()
            .map(ToString::to_string)
            .collect();
        if let (ResultChange::Finished(_), Some(file)) = (change, &records)
            && let Err(error) = file.append(&record::of_game(game, seats, record::today()))
        {
            // An error, not a note: standard error hears it, whatever the output.
            let _ = writeln!(errors, "error: {error}");
        }
        notes
    };
    let mut game = Game::new(settings.start);
    let shape = settings.start.geometry();
    writeln!(
        output,
        "{}, {}. Type help for the commands.",
        title(settings.start),
        players(settings)
    )?;
    voice.state(&game, settings, output)?;
    loop {
        let board = game.board();
        if let Status::InProgress { to_move } = board.status()
            && let Seat::Ai(level) = seats.of(to_move)
        {
            // The AIs choose among legal moves: a refusal is a bug, reported
            // rather than asking the AI again for ever.
            let refused = |why: String| io::Error::other(format!("the AI ({level}) {why}"));
            let decision = ai
                .choose(&board, level, &mut dice, settings.limits)
                .ok_or_else(|| refused("found no move in a game still on".into()))?;
            game.play(decision.mv)
                .map_err(|error| refused(format!("chose a move the board refused: {error}")))?;
            let notes = save(board.status(), &game);
            voice.moved(&game, settings, output)?;
            tell(&notes, output)?;
            continue;
        }
        if seats.is_watch() {
            // Nobody to ask: the AI has played the game out.
            return Ok(SessionEnd::Done);
        }
        if prompt {
            write!(output, "> ")?;
        }
        output.flush()?;
        let line = match read_line(input) {
            Ok(line) => line,
            Err(error) if prompt && error.is_hangup() => return Ok(SessionEnd::TerminalGone),
            Err(error) => return Err(error.into()),
        };
        let Some(line) = line else {
            if !game.status().is_over() {
                writeln!(output, "End of input: the game was left unfinished.")?;
            }
            return Ok(SessionEnd::Done);
        };
        let command = match parse(&line, shape, mode) {
            Ok(command) => command,
            Err(message) => {
                writeln!(output, "error: {message}")?;
                voice.turn(&game, settings, output)?;
                continue;
            }
        };
        match command {
            Command::Nothing => {}
            Command::Help => help(shape, mode, output)?,
            Command::Quit => return Ok(SessionEnd::Done),
            Command::Own(action) => {
                let here = Here {
                    game: &game,
                    settings,
                    input,
                    out: output,
                    prompt,
                };
                match voice.own(action, here) {
                    // The terminal went away while the command read from it
                    // (the screen reader's quiz): as at the game's own prompt.
                    Err(error) if prompt && text::is_hangup(&error) => {
                        return Ok(SessionEnd::TerminalGone);
                    }
                    done => done?,
                }
            }
            Command::New => {
                game.restart();
                writeln!(output, "New game.")?;
                voice.state(&game, settings, output)?;
            }
            Command::Undo | Command::Redo => {
                let before = game.status();
                let (moved, done, nothing) = if command == Command::Undo {
                    (game.undo_turn(seats), "Undone.", "error: nothing to undo")
                } else {
                    (game.redo_turn(seats), "Redone.", "error: nothing to redo")
                };
                if moved == 0 {
                    writeln!(output, "{nothing}")?;
                    voice.turn(&game, settings, output)?;
                } else {
                    let notes = save(before, &game);
                    writeln!(output, "{done}")?;
                    voice.state(&game, settings, output)?;
                    tell(&notes, output)?;
                }
            }
            Command::Play(mv) => {
                let before = game.board();
                match game.play(mv) {
                    Ok(()) => {
                        let notes = save(before.status(), &game);
                        voice.moved(&game, settings, output)?;
                        tell(&notes, output)?;
                    }
                    Err(error) => {
                        writeln!(output, "error: {}", refusal(error, mv))?;
                        voice.turn(&game, settings, output)?;
                    }
                }
            }
        }
    }
}

/// What a person can do after a game ends.
const AGAIN: &str = "Type new for another game, or quit.";

/// How the game ended, in the words every text front end ends a game with
/// ("O wins: you lose. Type new for another game, or quit."); `None` while
/// it goes on.
pub fn ending(game: &Game, settings: &Settings) -> Option<String> {
    let seats = settings.seats;
    let result = seats.result_line(game.status())?;
    let stop = if result.ends_with('!') { "" } else { "." };
    // With nobody at the keyboard the session ends here: nothing to type.
    Some(if seats.is_watch() {
        format!("{result}{stop}")
    } else {
        format!("{result}{stop} {AGAIN}")
    })
}

fn players(settings: &Settings) -> String {
    let seats = settings.seats;
    let name = |seat: Seat| match seat {
        Seat::Human => "a person".to_string(),
        Seat::Ai(level) => format!("the AI ({level})"),
    };
    match seats.lone_human() {
        Some(side) => format!(
            "you are {side}, {} plays {}",
            name(seats.of(side.other())),
            side.other()
        ),
        None => format!("X is {}, O is {}", name(seats.x), name(seats.o)),
    }
}

fn refusal(error: IllegalMove, mv: Square) -> String {
    match error {
        IllegalMove::Occupied { .. } => format!("{mv} is taken"),
        IllegalMove::GameOver => "the game is over: type new or quit".to_string(),
        IllegalMove::OutOfRange { .. } => format!("{mv} is off the board"),
    }
}

fn help(shape: &Geometry, mode: Mode, output: &mut dyn Write) -> io::Result<()> {
    let size = shape.size();
    let last = Square::new(size - 1, size - 1);
    if shape.is_classic() {
        writeln!(
            output,
            "Moves: a digit 1-9 in reading order (1 top left, 9 bottom right), or a square a1 to c3."
        )?;
    } else {
        writeln!(output, "Moves: a square from a1 to {last}.")?;
    }
    writeln!(
        output,
        "Squares: a letter for the column (a is left) and a number for the row (1 is the top)."
    )?;
    // The commands from the key table, one a line.
    writeln!(output, "Commands:")?;
    let context = Context::new(mode);
    keys::entries(mode, &context)
        .try_for_each(|entry| writeln!(output, "  {}: {}.", entry.names(), entry.help))
}

/// Lines about the statistics and the records, one each.
fn tell(notes: &[String], output: &mut dyn Write) -> io::Result<()> {
    notes.iter().try_for_each(|note| writeln!(output, "{note}"))
}

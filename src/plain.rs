//! The game as plain lines of text, for screen readers, simple terminals and
//! pipes. After every move: the board as rows of `X`, `O` and `.`, then whose
//! turn it is. One move per line in: a digit 1-9 (3x3) or a square like `b2`,
//! or a command of the key table's plain mode (`undo`, `redo`, `new`, `help`,
//! `quit`).

use std::io::{self, BufRead, Write};

use crate::engine::{Ai, Move, Status};
use crate::game::{Game, ResultChange, Seat};
use crate::screen::Action;
use crate::screen::keys::{self, Context, Mode};
use crate::settings::{Settings, title};
use crate::stats::{Counter, Note, StatsFile};
use crate::text::{self, InputLine, echo, read_line};

/// What a line of input asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Command {
    Play(Move),
    Undo,
    Redo,
    New,
    Help,
    Quit,
    Nothing,
}

fn parse(line: &InputLine, size: u8) -> Result<Command, String> {
    if line.is_cut() {
        return Err(not_a_move(&line.echo(), size));
    }
    let word = line.text.trim().to_ascii_lowercase();
    if word.is_empty() {
        return Ok(Command::Nothing);
    }
    // The commands are the key table's words for plain mode.
    let command = match keys::typed(&word) {
        Some(Action::Undo) => Command::Undo,
        Some(Action::Redo) => Command::Redo,
        Some(Action::NewGame) => Command::New,
        Some(Action::ToggleHelp) => Command::Help,
        Some(Action::Quit) => Command::Quit,
        Some(_) | None => {
            if size == 3
                && let Ok(digit @ 1..=9) = word.parse::<usize>()
            {
                Command::Play(Move::from_index(digit - 1, size))
            } else if let Some(mv) = Move::parse_coordinate(&word, size) {
                Command::Play(mv)
            } else {
                return Err(not_a_move(&echo(line.text.trim()), size));
            }
        }
    };
    Ok(command)
}

/// The refusal of a line that is no move nor command, showing it as `shown`.
fn not_a_move(shown: &str, size: u8) -> String {
    let last = Move::new(size - 1, size - 1).coordinate();
    let digits = if size == 3 { "a digit 1-9 or " } else { "" };
    format!("{shown:?} is not a move: type {digits}a square from a1 to {last}, or help")
}

/// How a plain session ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// `quit`, the end of the input, or a game of AIs played out.
    Done,
    /// The terminal went away (reading or writing it failed with EIO, as
    /// after its window was closed with SIGHUP ignored): the session ends as
    /// SIGHUP would have ended it.
    TerminalGone,
}

/// Plays sessions on `input` and `output` until `quit` or the end of input.
/// `prompt` writes a `>` before each read (for a person at a terminal).
///
/// If `output` fails (the reader has gone, as with `| head`), the moves
/// still to come in `input` are played all the same, silently, so a game
/// they finish is counted; the first failure is returned at the end. With
/// `prompt`, a failure that says the terminal has gone away is no error but
/// the session's [`Ending::TerminalGone`].
pub fn run(
    settings: &Settings,
    stats: Option<StatsFile>,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
    prompt: bool,
) -> io::Result<Ending> {
    let mut sink = Sink {
        output,
        failed: None,
    };
    let played = play(settings, stats, input, &mut sink, prompt);
    let gone = |error: &io::Error| prompt && text::is_hangup(error);
    match (played, sink.failed) {
        (Ok(Ending::TerminalGone), _) => Ok(Ending::TerminalGone),
        (Ok(Ending::Done), None) => Ok(Ending::Done),
        (Ok(Ending::Done), Some(error)) if gone(&error) => Ok(Ending::TerminalGone),
        (Ok(Ending::Done), Some(error)) | (Err(error), _) => Err(error),
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
    settings: &Settings,
    stats: Option<StatsFile>,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
    prompt: bool,
) -> io::Result<Ending> {
    let seats = settings.seats;
    // One AI for the session: on big boards it keeps what it searched.
    let mut ai = Ai::new();
    let mut dice = settings.dice();
    let mut counter = Counter::new(stats);
    // Saves a result the moment it appears or goes away, before anything is
    // written about it.
    let mut save = |before: Status, game: &Game| match ResultChange::between(before, game.status())
    {
        Some(change) => counter.save(change, seats, settings.start),
        None => None,
    };
    let mut game = Game::new(settings.start);
    let size = settings.start.size();
    writeln!(
        output,
        "{}, {}. Type help for the commands.",
        title(settings.start),
        players(settings)
    )?;
    show(&game, settings, output)?;
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
            let note = save(board.status(), &game);
            writeln!(output, "{to_move} plays {}.", decision.mv.coordinate())?;
            show(&game, settings, output)?;
            tell(note.as_ref(), output)?;
            continue;
        }
        if seats.is_watch() {
            // Nobody to ask: the AI has played the game out.
            return Ok(Ending::Done);
        }
        if prompt {
            write!(output, "> ")?;
        }
        output.flush()?;
        let line = match read_line(input) {
            Ok(line) => line,
            Err(error) if prompt && error.is_hangup() => return Ok(Ending::TerminalGone),
            Err(error) => return Err(error.into()),
        };
        let Some(line) = line else {
            if !game.status().is_over() {
                writeln!(output, "End of input: the game was left unfinished.")?;
            }
            return Ok(Ending::Done);
        };
        let command = match parse(&line, size) {
            Ok(command) => command,
            Err(message) => {
                writeln!(output, "error: {message}")?;
                prompt_again(&game, settings, output)?;
                continue;
            }
        };
        match command {
            Command::Nothing => {}
            Command::Help => help(size, output)?,
            Command::Quit => return Ok(Ending::Done),
            Command::New => {
                game.restart();
                writeln!(output, "New game.")?;
                show(&game, settings, output)?;
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
                    prompt_again(&game, settings, output)?;
                } else {
                    let note = save(before, &game);
                    writeln!(output, "{done}")?;
                    show(&game, settings, output)?;
                    tell(note.as_ref(), output)?;
                }
            }
            Command::Play(mv) => {
                let before = game.board();
                match game.play(mv) {
                    Ok(()) => {
                        let note = save(before.status(), &game);
                        writeln!(output, "{} plays {}.", before.to_move(), mv.coordinate())?;
                        show(&game, settings, output)?;
                        tell(note.as_ref(), output)?;
                    }
                    Err(error) => {
                        writeln!(output, "error: {}", refusal(error, mv))?;
                        prompt_again(&game, settings, output)?;
                    }
                }
            }
        }
    }
}

/// The board as rows, then whose turn it is or how the game ended.
fn show(game: &Game, settings: &Settings, output: &mut dyn Write) -> io::Result<()> {
    writeln!(output, "{}", game.board().to_grid())?;
    prompt_again(game, settings, output)
}

/// What a person can do after a game ends.
const AGAIN: &str = "Type new for another game, or quit.";

/// Whose turn it is or how the game ended: the line that asks for input.
fn prompt_again(game: &Game, settings: &Settings, output: &mut dyn Write) -> io::Result<()> {
    let seats = settings.seats;
    let line = match game.status() {
        Status::InProgress { to_move } => match seats.of(to_move) {
            Seat::Human if seats.lone_human().is_some() => format!("Your move: you are {to_move}."),
            Seat::Human => format!("{to_move} to move."),
            Seat::Ai(level) => format!("{to_move} to move (AI, {level})."),
        },
        status => {
            let result = seats.result_line(status).unwrap_or_default();
            let stop = if result.ends_with('!') { "" } else { "." };
            // With nobody at the keyboard the session ends here: nothing to type.
            if seats.is_watch() {
                format!("{result}{stop}")
            } else {
                format!("{result}{stop} {AGAIN}")
            }
        }
    };
    writeln!(output, "{line}")
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

fn refusal(error: crate::engine::IllegalMove, mv: Move) -> String {
    use crate::engine::IllegalMove;
    match error {
        IllegalMove::Occupied { .. } => format!("{} is taken", mv.coordinate()),
        IllegalMove::GameOver => "the game is over: type new or quit".to_string(),
        IllegalMove::OutOfRange { .. } => format!("{} is off the board", mv.coordinate()),
    }
}

fn help(size: u8, output: &mut dyn Write) -> io::Result<()> {
    let last = Move::new(size - 1, size - 1).coordinate();
    if size == 3 {
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
    let context = Context::new(Mode::Plain);
    keys::entries(Mode::Plain, &context)
        .try_for_each(|entry| writeln!(output, "  {}: {}.", entry.names, entry.help))
}

/// A line about the statistics, if there is one.
fn tell(note: Option<&Note>, output: &mut dyn Write) -> io::Result<()> {
    note.map_or(Ok(()), |note| writeln!(output, "{note}"))
}

//! The game as plain lines of text, for screen readers, simple terminals and
//! pipes. After every move: the board as rows of `X`, `O` and `.`, then whose
//! turn it is. One move per line in: a digit 1-9 (3x3) or a square like `b2`,
//! or `undo`, `redo`, `new`, `help`, `quit`.

use std::io::{self, BufRead, Write};

use crate::cli::ExitStatus;
use crate::engine::{Ai, Move, Status};
use crate::game::{Game, Seat};
use crate::stats::{GameRecord, StatsFile};
use crate::tui::app::Settings;

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

fn parse(line: &str, size: u8) -> Result<Command, String> {
    let word = line.trim().to_ascii_lowercase();
    let command = match word.as_str() {
        "" => Command::Nothing,
        "undo" | "u" => Command::Undo,
        "redo" => Command::Redo,
        "new" | "n" => Command::New,
        "help" | "h" | "?" => Command::Help,
        "quit" | "q" | "exit" => Command::Quit,
        _ => {
            if size == 3
                && let Ok(digit @ 1..=9) = word.parse::<usize>()
            {
                Command::Play(Move::from_index(digit - 1, size))
            } else if let Some(mv) = Move::parse_coordinate(&word, size) {
                Command::Play(mv)
            } else {
                let last = Move::new(size - 1, size - 1).coordinate();
                let digits = if size == 3 { "a digit 1-9 or " } else { "" };
                return Err(format!(
                    "{:?} is not a move: type {digits}a square from a1 to {last}, or help",
                    line.trim()
                ));
            }
        }
    };
    Ok(command)
}

/// Plays sessions on `input` and `output` until `quit` or the end of input.
/// `prompt` writes a `>` before each read (for a person at a terminal).
pub fn run(
    settings: &Settings,
    stats: Option<&StatsFile>,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
    prompt: bool,
) -> io::Result<ExitStatus> {
    let seats = settings.seats;
    // One AI for the session: on big boards it keeps what it searched.
    let mut ai = Ai::new();
    let mut rng = settings
        .seed
        .map_or_else(fastrand::Rng::new, fastrand::Rng::with_seed);
    let mut game = Game::new(settings.start);
    let size = settings.start.size();
    writeln!(
        output,
        "{}, {}. Type help for the commands.",
        crate::tui::view::title(settings.start),
        players(settings)
    )?;
    show(&game, settings, output)?;
    let mut line = String::new();
    loop {
        let board = game.board();
        if let Status::InProgress { to_move } = board.status()
            && let Seat::Ai(level) = seats.of(to_move)
        {
            if let Some(decision) = ai.choose(&board, level, &mut rng, settings.limits)
                && game.play(decision.mv).is_ok()
            {
                writeln!(output, "{to_move} plays {}.", decision.mv.coordinate())?;
                show(&game, settings, output)?;
            }
            continue;
        }
        if seats.is_watch() {
            // Nobody to ask: the AI has played the game out.
            return Ok(ExitStatus::Success);
        }
        if prompt {
            write!(output, "> ")?;
        }
        output.flush()?;
        line.clear();
        if input.read_line(&mut line)? == 0 {
            if !game.status().is_over() {
                writeln!(output, "End of input: the game was left unfinished.")?;
            }
            leave(&game, settings, stats, output)?;
            return Ok(ExitStatus::Success);
        }
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
            Command::Quit => {
                leave(&game, settings, stats, output)?;
                return Ok(ExitStatus::Success);
            }
            Command::New => {
                leave(&game, settings, stats, output)?;
                game.restart();
                writeln!(output, "New game.")?;
                show(&game, settings, output)?;
            }
            Command::Undo | Command::Redo => {
                let (moved, done, nothing) = if command == Command::Undo {
                    (game.undo_turn(seats), "Undone.", "error: nothing to undo")
                } else {
                    (game.redo_turn(seats), "Redone.", "error: nothing to redo")
                };
                if moved == 0 {
                    writeln!(output, "{nothing}")?;
                    prompt_again(&game, settings, output)?;
                } else {
                    writeln!(output, "{done}")?;
                    show(&game, settings, output)?;
                }
            }
            Command::Play(mv) => {
                let to_move = game.board().to_move();
                match game.play(mv) {
                    Ok(()) => {
                        writeln!(output, "{to_move} plays {}.", mv.coordinate())?;
                        show(&game, settings, output)?;
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

/// Whose turn it is or how the game ended: the line that asks for input.
fn prompt_again(game: &Game, settings: &Settings, output: &mut dyn Write) -> io::Result<()> {
    let seats = settings.seats;
    let line = match game.status() {
        Status::InProgress { to_move } => match seats.of(to_move) {
            Seat::Human if seats.lone_human().is_some() => format!("Your move: you are {to_move}."),
            Seat::Human => format!("{to_move} to move."),
            Seat::Ai(level) => format!("{to_move} to move (AI, {level})."),
        },
        Status::Won(winner) => match seats.lone_human() {
            Some(human) if human == winner => {
                format!("{winner} wins: you win! Type new for another game, or quit.")
            }
            Some(_) => format!("{winner} wins: you lose. Type new for another game, or quit."),
            None => format!("{winner} wins. Type new for another game, or quit."),
        },
        Status::Draw => "Draw. Type new for another game, or quit.".to_string(),
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
    writeln!(
        output,
        "Commands: undo (your last move and the AI's reply), redo, new, help, quit."
    )
}

/// Counts a finished game in the statistics as it is left.
fn leave(
    game: &Game,
    settings: &Settings,
    stats: Option<&StatsFile>,
    output: &mut dyn Write,
) -> io::Result<()> {
    let (Some(stats), Some(record)) = (
        stats,
        GameRecord::of(settings.seats, game.start(), game.status()),
    ) else {
        return Ok(());
    };
    match stats.record(record) {
        Ok(warnings) => warnings
            .iter()
            .try_for_each(|warning| writeln!(output, "{warning}")),
        Err(error) => writeln!(output, "warning: the game was not counted: {error}"),
    }
}

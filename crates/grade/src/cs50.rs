//! CS50 AI's tic-tac-toe project, checked function by function: `player`,
//! `actions`, `result` (with its error on an illegal action), `winner`,
//! `terminal`, `utility`, each on every reachable position, simplest first,
//! then `minimax`, the one that searches: on the finished positions and
//! every position with up to [`MINIMAX_ALL_UP_TO`] empty squares, then a
//! sample of the bigger ones, the biggest last ([`Minimax`]). The cheap
//! functions come first, so a broken module is reported in seconds.
//!
//! The student's module is Python: a small shim that ships inside the
//! program ([`SHIM`]) is written to a temporary folder and run with Python
//! 3. It imports the module from its path without writing anything beside
//! it, and calls one function per request line; what it answers is judged
//! here against the engine. The shim is a program like any other to the
//! grader: it is killed and started again when it fails ([`super::Session`]).

use std::ffi::OsString;
use std::fs;
use std::io;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use serde_json::{Value, json};
use tictactoe_engine::teach::reference::{Algorithm, move_values};
use tictactoe_engine::{Board, Player, Scoring, Square, reachable_positions};

use super::child::{Guard, Program};
use super::diagnosis::Article;
use super::players::{Keep, Memo, Model, catalogue};
use super::words::sentence;
use super::{Ended, Failure, LEAST_TIME, Reply, Session, Ties, sample, simplest_first, time_for};
use tictactoe_game::text::thousands;

/// The shim that calls the student's functions, run with Python 3.
pub const SHIM: &str = include_str!("cs50_shim.py");

/// One of CS50's functions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Function {
    /// Whose turn it is.
    Player,
    /// The empty cells, as `(row, col)` pairs.
    Actions,
    /// A new board with the action played; an error for an illegal action.
    Result,
    /// The side with a line, or `None`.
    Winner,
    /// Whether the game is over.
    Terminal,
    /// 1 when X has won, -1 when O has, 0 otherwise (asked only of finished games).
    Utility,
    /// An optimal action for the side to move, `None` once the game is over.
    Minimax,
}

impl Function {
    /// In the order checked: the order CS50 asks for them.
    pub const ALL: [Function; 7] = [
        Function::Player,
        Function::Actions,
        Function::Result,
        Function::Winner,
        Function::Terminal,
        Function::Utility,
        Function::Minimax,
    ];

    /// Its Python name.
    pub const fn name(self) -> &'static str {
        match self {
            Function::Player => "player",
            Function::Actions => "actions",
            Function::Result => "result",
            Function::Winner => "winner",
            Function::Terminal => "terminal",
            Function::Utility => "utility",
            Function::Minimax => "minimax",
        }
    }
}

/// One call the checker makes: a function, a position, and for `result` an action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Call {
    /// The function.
    pub function: Function,
    /// The board it is given.
    pub board: Board,
    /// `result`'s action.
    pub action: Option<Square>,
}

impl Call {
    /// The request line for the shim.
    fn request(&self) -> String {
        let mut line = format!("{} {}", self.function.name(), self.board);
        if let Some(action) = self.action {
            line += &format!(" {} {}", action.row, action.col);
        }
        line
    }

    /// The call as Python writes it: `result(x.o/.../..., (0, 1))`.
    pub fn words(&self) -> String {
        let action = self.action.map(|to| format!(", ({}, {})", to.row, to.col));
        let action = action.unwrap_or_default();
        format!("{}({}{action})", self.function.name(), self.board)
    }
}

/// Up to how many empty squares `minimax` is asked about every position
/// (4,438 unfinished ones, and the finished): their minimax trees hold
/// 475,708 positions together, the 82 bigger ones' 1,649,827, the empty
/// board's alone 549,946.
pub const MINIMAX_ALL_UP_TO: usize = 6;

/// How many of the 82 positions with more empty squares `minimax` is asked
/// about by default.
pub const MINIMAX_SAMPLE: usize = 8;

/// Which positions `minimax` is asked about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Minimax {
    /// Every reachable position.
    Every,
    /// Every position with up to [`MINIMAX_ALL_UP_TO`] empty squares, and
    /// this many of the bigger ones picked with this seed, the biggest last.
    Sample(usize, u64),
}

impl Minimax {
    /// The default: [`MINIMAX_SAMPLE`] of the big positions, seed 1.
    pub const DEFAULT: Minimax = Minimax::Sample(MINIMAX_SAMPLE, 1);

    /// What is asked, in words.
    pub fn words(self) -> String {
        match self {
            Minimax::Every => "every reachable position".into(),
            Minimax::Sample(count, seed) => format!(
                "every position with up to {MINIMAX_ALL_UP_TO} empty squares and {count} of the \
                 82 bigger ones (--seed {seed}; --every-position asks all)"
            ),
        }
    }
}

/// Every call the checker makes, function by function, each function's
/// positions simplest first, `minimax` on the positions `which` says.
pub fn calls(which: Minimax) -> Vec<Call> {
    let positions = simplest_first(reachable_positions());
    let minimax_positions = match which {
        Minimax::Every => positions.clone(),
        Minimax::Sample(count, seed) => {
            let (small, big): (Vec<Board>, Vec<Board>) = positions
                .iter()
                .partition(|board| board.empty_cells().len() <= MINIMAX_ALL_UP_TO);
            let mut picked = small;
            picked.extend(simplest_first(sample(big, count, seed)));
            picked
        }
    };
    let call = |function, board: &Board, action| Call {
        function,
        board: *board,
        action,
    };
    let mut calls = Vec::new();
    for function in Function::ALL {
        let positions = match function {
            Function::Minimax => &minimax_positions,
            _ => &positions,
        };
        for board in positions {
            let over = board.status().is_over();
            match function {
                // CS50: any answer will do on a finished board.
                Function::Player | Function::Actions if over => {}
                Function::Utility if !over => {}
                Function::Result if over => {}
                Function::Result => {
                    for action in board.legal_moves() {
                        calls.push(call(function, board, Some(action)));
                    }
                    // One illegal action: the first taken square.
                    let size = board.size();
                    let taken = (0..usize::from(size) * usize::from(size))
                        .map(|index| Square::from_index(index, size))
                        .find(|&square| board.get(square).is_some());
                    if let Some(taken) = taken {
                        calls.push(call(function, board, Some(taken)));
                    }
                }
                _ => calls.push(call(function, board, None)),
            }
        }
    }
    calls
}

/// A mark as the shim writes it.
fn mark(player: Option<Player>) -> Value {
    match player {
        Some(Player::X) => json!("x"),
        Some(Player::O) => json!("o"),
        None => Value::Null,
    }
}

/// An action as the shim writes it.
fn action(square: Square) -> Value {
    json!([square.row, square.col])
}

/// What the shim answered for one call.
#[derive(Debug, Clone, PartialEq)]
pub struct Answered {
    /// The value returned, or the exception raised (`Err`).
    pub returned: Result<Value, String>,
    /// The function changed the board it was given.
    pub modified: bool,
    /// The value as Python writes it (`'O'`, `(2, 1)`), when returned.
    pub shown: Option<String>,
}

/// Reads the shim's answer line.
fn read_reply(line: &str) -> Result<Answered, String> {
    let reply: Value =
        serde_json::from_str(line).map_err(|_| "not a reply of the shim".to_string())?;
    let modified = reply["modified"] == json!(true);
    let returned = match (reply.get("value"), reply.get("error")) {
        (Some(value), None) => Ok(value.clone()),
        (None, Some(Value::String(error))) => Err(error.clone()),
        _ => return Err("not a reply of the shim".into()),
    };
    let shown = reply
        .get("repr")
        .and_then(Value::as_str)
        .map(str::to_string);
    Ok(Answered {
        returned,
        modified,
        shown,
    })
}

/// A value as Python writes it: `(2, 1)`, `'x'`, `None`, `True`.
fn python(value: &Value) -> String {
    match value {
        Value::Null => "None".into(),
        Value::Bool(true) => "True".into(),
        Value::Bool(false) => "False".into(),
        Value::String(text) => format!("'{text}'"),
        Value::Array(items) if items.len() == 2 && items.iter().all(Value::is_number) => {
            format!("({}, {})", items[0], items[1])
        }
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(python).collect();
            format!("[{}]", items.join(", "))
        }
        other => other.to_string(),
    }
}

/// Why an answer is wrong, in words; `None` when it is right.
pub fn judge(call: &Call, answered: &Answered) -> Option<String> {
    let board = &call.board;
    if answered.modified {
        return Some(format!(
            "{} changed the board it was given",
            call.function.name()
        ));
    }
    let illegal = call
        .action
        .is_some_and(|square| board.get(square).is_some());
    // What the module returned, as it wrote it.
    let written = |value: &Value| answered.shown.clone().unwrap_or_else(|| python(value));
    let returned = match (&answered.returned, illegal) {
        (Err(_), true) => return None,
        (Ok(value), true) => {
            return Some(format!(
                "returned {} for a taken square, where CS50 asks for an exception",
                written(value)
            ));
        }
        (Err(error), false) => return Some(format!("raised {error}")),
        (Ok(value), false) => value,
    };
    let expected = match call.function {
        Function::Player => mark(Some(board.to_move())),
        Function::Actions => {
            let mut wanted: Vec<Value> = board.legal_moves().into_iter().map(action).collect();
            wanted.sort_by_key(Value::to_string);
            Value::Array(wanted)
        }
        Function::Result => {
            let square = call.action.expect("result has an action");
            json!(board.play(square).map(|after| after.to_string()).ok())
        }
        Function::Winner => mark(board.winner()),
        Function::Terminal => json!(board.status().is_over()),
        Function::Utility => json!(match board.winner() {
            Some(Player::X) => 1,
            Some(Player::O) => -1,
            None => 0,
        }),
        Function::Minimax => {
            if board.status().is_over() {
                Value::Null
            } else {
                let right = optimal(board);
                let given = as_square(returned);
                return match given {
                    Some(square) if right.contains(&square) => None,
                    _ => Some(format!(
                        "returned {}, where an optimal action is {}",
                        written(returned),
                        either(&right)
                    )),
                };
            }
        }
    };
    let same = match (call.function, returned) {
        // Python's True is 1.
        (Function::Terminal, Value::Number(n)) => json!(n.as_i64() == Some(1)) == expected,
        // A set: in any order.
        (Function::Actions, Value::Array(given)) => {
            let mut given = given.clone();
            given.sort_by_key(Value::to_string);
            Value::Array(given) == expected
        }
        _ => *returned == expected,
    };
    (!same).then(|| {
        let right = match (call.function, &answered.shown, returned) {
            // The mark as the module writes it: its X or O.
            (Function::Player | Function::Winner, Some(shown), Value::String(_))
                if shown.len() >= 3 =>
            {
                let quote = &shown[..1];
                match expected.as_str() {
                    Some(mark) => format!("{quote}{}{quote}", mark.to_uppercase()),
                    None => python(&expected),
                }
            }
            _ => python(&expected),
        };
        format!("returned {}, not {right}", written(returned))
    })
}

/// The optimal actions on an unfinished board: the moves with CS50's best
/// utility for the side to move, as GeeksforGeeks' minimax with bare scores
/// finds them (CS50's ±1 is the bare ±10 scaled).
fn optimal(board: &Board) -> Vec<Square> {
    Ties::Any.right(&move_values(board, Algorithm::Minimax, Scoring::Plain).moves)
}

/// `[row, col]` as a square of the 3×3 board.
fn as_square(value: &Value) -> Option<Square> {
    let pair = value.as_array()?;
    let (row, col) = (pair.first()?.as_u64()?, pair.get(1)?.as_u64()?);
    (pair.len() == 2 && row < 3 && col < 3).then(|| Square::new(row as u8, col as u8))
}

/// Actions in words: `(0, 1) or (2, 2)`.
fn either(squares: &[Square]) -> String {
    let words: Vec<String> = squares
        .iter()
        .map(|square| format!("({}, {})", square.row, square.col))
        .collect();
    match words.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, init)) => format!("{} or {last}", init.join(", ")),
        None => "none".into(),
    }
}

/// A wrong answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Wrong {
    /// The call.
    pub call: Call,
    /// What was wrong with what it returned.
    pub why: String,
}

/// How one function did.
#[derive(Debug, Clone, PartialEq)]
pub struct Checked {
    /// The function.
    pub function: Function,
    /// Calls answered.
    pub answered: usize,
    /// Calls answered right.
    pub right: usize,
    /// Calls to make in all.
    pub calls: usize,
    /// Every wrong answer, in the order asked.
    pub wrong: Vec<Wrong>,
    /// For `minimax`: its answers on unfinished boards, to name a mistake.
    moves: Vec<(Board, Option<Square>)>,
}

/// The outcome of checking a module.
#[derive(Debug, Clone, PartialEq)]
pub struct Cs50Summary {
    /// Each function, in the order checked.
    pub functions: Vec<Checked>,
    /// The shim's failures.
    pub failures: Vec<Failure>,
    /// How it ended.
    pub ended: Ended,
}

impl Cs50Summary {
    /// True when every call was made and answered right.
    pub fn all_right(&self) -> bool {
        self.ended == Ended::Done
            && self
                .functions
                .iter()
                .all(|checked| checked.right == checked.calls)
    }
}

/// What to run the shim with.
#[derive(Debug, Clone)]
pub struct Python {
    /// The Python 3 interpreter.
    pub command: OsString,
}

/// What checking tells as it goes.
#[derive(Debug, Clone, Copy)]
pub enum Cs50Event<'a> {
    /// The shim failed on a call.
    Failed(&'a Failure),
    /// A function has been asked every call.
    Checked(&'a Checked),
}

/// Checks the module at `module` with `python` run as `guard` says,
/// `minimax` on the positions `which` says, allowed `timeout` on the empty
/// board and a share of it elsewhere ([`time_for`]); `on_event` hears of
/// each failure of the shim and of each function done as it happens.
pub fn check(
    module: &Path,
    python: &Python,
    guard: &Guard,
    (timeout, which): (Duration, Minimax),
    stop: &AtomicBool,
    on_event: &mut dyn FnMut(Cs50Event<'_>),
) -> io::Result<Cs50Summary> {
    let folder = tempfile::Builder::new()
        .prefix("tictactoe-cs50-")
        .tempdir()?;
    let shim = folder.path().join("cs50_shim.py");
    fs::write(&shim, SHIM)?;
    let program = Program {
        command: python.command.clone(),
        args: vec!["-B".into(), shim.into_os_string(), module.into()],
    };
    let calls = calls(which);
    let mut session = Session::new(&program, guard, true, timeout, stop);
    let mut functions: Vec<Checked> = Function::ALL
        .into_iter()
        .map(|function| Checked {
            function,
            answered: 0,
            right: 0,
            calls: calls
                .iter()
                .filter(|call| call.function == function)
                .count(),
            wrong: Vec::new(),
            moves: Vec::new(),
        })
        .collect();
    let mut ended = Ended::Done;
    for (index, call) in calls.iter().enumerate() {
        // Only minimax searches: every other function is a glance.
        let time = match call.function {
            Function::Minimax => time_for(&call.board, timeout),
            _ => LEAST_TIME.min(timeout),
        };
        // The previous function is done.
        if index > 0 && calls[index - 1].function != call.function {
            let done = calls[index - 1].function;
            if let Some(checked) = functions.iter().find(|checked| checked.function == done) {
                on_event(Cs50Event::Checked(checked));
            }
        }
        let reply = session.ask(
            &call.request(),
            (index + 1, &call.board),
            time,
            read_reply,
            &mut |failure| on_event(Cs50Event::Failed(failure)),
        );
        let answered = match reply {
            Reply::Answer(_, answered) => answered,
            Reply::Failed => continue,
            Reply::Stop(why) => {
                ended = why;
                break;
            }
        };
        let checked = functions
            .iter_mut()
            .find(|checked| checked.function == call.function)
            .expect("every function is listed");
        checked.answered += 1;
        if call.function == Function::Minimax && !call.board.status().is_over() {
            let given = answered.returned.as_ref().ok().and_then(as_square);
            checked.moves.push((call.board, given));
        }
        match judge(call, &answered) {
            None => checked.right += 1,
            Some(why) => checked.wrong.push(Wrong { call: *call, why }),
        }
    }
    if ended == Ended::Done
        && let Some(last) = functions.last()
    {
        on_event(Cs50Event::Checked(last));
    }
    session.finish();
    Ok(Cs50Summary {
        functions,
        failures: std::mem::take(&mut session.failures),
        ended,
    })
}

/// A hint for a function with wrong answers: the CS50 rule it breaks.
pub fn hint(checked: &Checked) -> Option<String> {
    let first = checked.wrong.first()?;
    let said = |why: &str| checked.wrong.iter().any(|wrong| wrong.why.contains(why));
    Some(match checked.function {
        _ if said("changed the board it was given") => format!(
            "{} changed the board it was given: CS50's result returns a new board \
             (copy.deepcopy(board)) and every function leaves its argument as it was.",
            checked.function.name()
        ),
        Function::Result if said("where CS50 asks for an exception") => {
            "result accepted a taken square: CS50 asks it to raise an exception when the \
             action is not a valid action for the board."
                .into()
        }
        Function::Player => {
            "X moves first, and the turns alternate: it is X's turn when X and O have as \
             many marks, O's when X has one more."
                .into()
        }
        Function::Minimax if !first.call.board.status().is_over() => {
            return minimax_hint(checked).or_else(|| {
                Some(
                    "minimax must return an optimal action for the player to move: X \
                     maximizes utility, O minimizes it."
                        .into(),
                )
            });
        }
        Function::Minimax => {
            "minimax must return None on a finished board (terminal(board) is True).".into()
        }
        Function::Utility => "utility is 1 when X has won, -1 when O has, 0 otherwise.".into(),
        Function::Terminal => {
            "terminal is True once someone has a line or the board is full.".into()
        }
        _ => return None,
    })
}

/// The usual minimax mistake that explains every answer of `checked`, in
/// words: the reference player (one slip or two, see
/// [`crate::players`]) that gives every action the module gave.
fn minimax_hint(checked: &Checked) -> Option<String> {
    let model = minimax_model(checked)?;
    let words: Vec<String> = model
        .slips
        .iter()
        .map(|&slip| sentence(slip, Article::Cs50, Scoring::Cs50))
        .collect();
    Some(words.join(" "))
}

/// The reference player whose actions are the module's `minimax`'s on
/// every unfinished position asked, when `minimax` has wrong answers.
pub fn minimax_model(checked: &Checked) -> Option<Model> {
    if checked.function != Function::Minimax || checked.wrong.is_empty() {
        return None;
    }
    let right = Model::right(Scoring::Cs50, Keep::First);
    let fits = |model: &Model| {
        let mut memo = Memo::new();
        checked.moves.iter().all(|(board, given)| {
            let top = model.play(board, &mut memo).top();
            given.is_some_and(|square| top.contains(&Some(square)))
        })
    };
    catalogue(Scoring::Cs50, None, false)
        .into_iter()
        .find(|model| *model != right && fits(model))
}

/// The line of one function: `player    4,520/4,520 right`.
pub fn function_line(checked: &Checked) -> String {
    let mut line = format!(
        "{:<9} {:>6}/{} right",
        checked.function.name(),
        thousands(checked.right as u64),
        thousands(checked.calls as u64),
    );
    let unanswered = checked.calls - checked.answered;
    if unanswered > 0 {
        line.push_str(&format!(" ({} not answered)", thousands(unanswered as u64)));
    }
    format!("{}\n", line.trim_end())
}

/// The check in text: a line per function (unless `streamed`, when they
/// were printed as each function was done), then the first wrong answers
/// of each function with its hint.
pub fn text(summary: &Cs50Summary, shown: usize, streamed: bool) -> String {
    let mut out = String::new();
    if let Ended::NotStarted(why) = &summary.ended {
        return format!("The module could not be checked: {why}.\n");
    }
    for checked in &summary.functions {
        if !streamed || checked.answered < checked.calls {
            out.push_str(&function_line(checked));
        }
    }
    match summary.ended {
        Ended::GaveUp => out.push_str(&format!(
            "Checking stopped after the module failed {} times.\n",
            summary.failures.len()
        )),
        Ended::Interrupted => out.push_str("Checking was stopped.\n"),
        _ => {}
    }
    for checked in &summary.functions {
        if checked.wrong.is_empty() {
            continue;
        }
        out.push_str(&format!(
            "\n{}: {} wrong. The first, simplest first:\n",
            checked.function.name(),
            thousands(checked.wrong.len() as u64)
        ));
        for wrong in checked.wrong.iter().take(shown.max(1)) {
            out.push_str(&format!(
                "  {} ({} to move): {}\n",
                wrong.call.words(),
                wrong.call.board.to_move(),
                wrong.why
            ));
        }
        if let Some(hint) = hint(checked) {
            out.push_str(&format!("  {hint}\n"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(function: Function, board: &str) -> Call {
        Call {
            function,
            board: board.parse().unwrap(),
            action: None,
        }
    }

    #[test]
    fn values_are_echoed_as_the_module_wrote_them() {
        // X to move, a module whose marks are "X" and "O" answered O.
        let answered = read_reply(r#"{"value": "o", "repr": "'O'"}"#).unwrap();
        let why = judge(&call(Function::Player, "xo./.../..."), &answered).unwrap();
        assert_eq!(why, "returned 'O', not 'X'");
        let answered = read_reply(r#"{"value": [2, 1], "repr": "(2, 1)"}"#).unwrap();
        let why = judge(&call(Function::Minimax, "xox/oxx/o.."), &answered).unwrap();
        assert_eq!(why, "returned (2, 1), where an optimal action is (2, 2)");
    }

    #[test]
    fn minimax_is_asked_about_the_small_positions_and_a_sample_of_the_big() {
        let minimax = |which| {
            calls(which)
                .into_iter()
                .filter(|call| call.function == Function::Minimax)
                .map(|call| call.board)
                .collect::<Vec<_>>()
        };
        let every = minimax(Minimax::Every);
        assert_eq!(every.len(), 5_478);
        let sampled = minimax(Minimax::DEFAULT);
        let big = sampled
            .iter()
            .filter(|board| board.empty_cells().len() > MINIMAX_ALL_UP_TO)
            .count();
        assert_eq!(big, MINIMAX_SAMPLE);
        assert_eq!(sampled.len(), 5_478 - 82 + MINIMAX_SAMPLE);
        let sizes: Vec<usize> = sampled.iter().map(|b| b.empty_cells().len()).collect();
        assert!(sizes.is_sorted(), "simplest first, the biggest last");
    }
}

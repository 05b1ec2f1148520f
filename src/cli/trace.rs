//! `tictactoe trace`: the seed's minimax replayed call by call, numbered as
//! the freeCodeCamp article numbers its calls.

use std::io::{self, Write};

use clap::Args;
use serde::Serialize;

use super::{Cell, ExitStatus, GivenShape, Streams};
use crate::engine::reference::{self, Algorithm};
use crate::engine::trace::{Call, Traced, Walk, Window, trace};
use crate::engine::{Board, Status};
use crate::text::{signed, thousands};

/// The arguments of `tictactoe trace`.
#[derive(Debug, Args)]
pub struct TraceArgs {
    /// The board, such as o.x/x.x/.oo
    #[arg(value_name = "BOARD", allow_hyphen_values = true)]
    pub board: String,
    /// One line of JSON per call instead of text.
    #[arg(long)]
    pub json: bool,
    /// Trace minimax with alpha-beta pruning, marking the replies it cuts.
    #[arg(long)]
    pub alpha_beta: bool,
    /// Refuse a trace of more calls than this (1 to 1000000).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_CALLS,
          value_parser = clap::value_parser!(u64).range(1..=MOST_CALLS))]
    pub max_calls: u64,
    /// The board's shape.
    #[command(flatten)]
    pub shape: GivenShape,
}

impl TraceArgs {
    /// Prints the trace of the board given.
    pub fn run(&self, io: &mut Streams) -> io::Result<ExitStatus> {
        let board = match self.shape.shape.parse(&self.board) {
            Ok(board) => board,
            Err(error) => return io.error_line(&error, ExitStatus::BadInput),
        };
        let algorithm = if self.alpha_beta {
            Algorithm::AlphaBeta
        } else {
            Algorithm::Minimax
        };
        run_trace(&board, algorithm, self.max_calls, self.json, io.out, io.err)
    }
}

/// Traces of more calls than this are refused unless `--max-calls` allows them.
pub const DEFAULT_MAX_CALLS: u64 = 5_000;

/// The most `--max-calls` accepts: enough for the whole empty 3x3 board.
pub const MOST_CALLS: u64 = 1_000_000;

/// One call of `trace --json`.
#[derive(Debug, Serialize)]
struct CallRecord {
    call: u64,
    parent: Option<u64>,
    depth: u32,
    #[serde(rename = "move")]
    mv: Option<Cell>,
    board: String,
    maximizing: bool,
    score: i32,
    /// Alpha-beta only: the window as the call began (`null` for no bound yet).
    #[serde(skip_serializing_if = "Option::is_none")]
    alpha: Option<Option<i32>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    beta: Option<Option<i32>>,
    /// Alpha-beta only: the replies not searched.
    #[serde(skip_serializing_if = "Option::is_none")]
    cut: Option<Vec<Cell>>,
}

/// A bound of the window, `None` while there is none (±infinity).
fn bound(value: i32) -> Option<i32> {
    (value != i32::MIN && value != i32::MAX).then_some(value)
}

impl CallRecord {
    fn new(traced: &Traced) -> CallRecord {
        let call = &traced.call;
        CallRecord {
            call: call.number,
            parent: call.parent,
            depth: call.depth,
            mv: call.mv.map(Cell::from),
            board: call.board.to_string(),
            maximizing: call.maximizing,
            score: traced.score,
            alpha: call.window.map(|window| bound(window.alpha)),
            beta: call.window.map(|window| bound(window.beta)),
            cut: call
                .window
                .map(|_| traced.cut.iter().map(Cell::from).collect()),
        }
    }
}

/// Answers `trace BOARD`: every call of the seed's minimax (or alpha-beta)
/// from the board, in call order, as text or one JSON object per line.
pub fn run_trace(
    board: &Board,
    algorithm: Algorithm,
    max_calls: u64,
    json: bool,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> io::Result<ExitStatus> {
    let calls = match trace(board, algorithm, max_calls) {
        Ok(calls) => calls,
        Err(too_many) => {
            let total = total_calls(board, algorithm)
                .map(|n| format!(" ({} calls)", thousands(n)))
                .unwrap_or_default();
            let raise = if too_many.limit < MOST_CALLS {
                format!("raise --max-calls (up to {}) or ", thousands(MOST_CALLS))
            } else {
                String::new()
            };
            writeln!(
                err,
                "error: the trace of {board}{total} is longer than --max-calls {}: {raise}trace a position with fewer empty squares",
                thousands(too_many.limit),
            )?;
            return Ok(ExitStatus::Failure);
        }
    };
    if json {
        for traced in &calls {
            let record =
                serde_json::to_string(&CallRecord::new(traced)).map_err(io::Error::other)?;
            writeln!(out, "{record}")?;
        }
    } else {
        out.write_all(describe(board, algorithm, &calls).as_bytes())?;
    }
    Ok(ExitStatus::Success)
}

/// How many calls the whole trace has, when that is quick to count (so a
/// refusal can say how long the trace would be).
fn total_calls(board: &Board, algorithm: Algorithm) -> Option<u64> {
    if !reference::is_countable(board) {
        return None;
    }
    Some(match algorithm {
        Algorithm::Minimax => reference::tree_size(board),
        Algorithm::AlphaBeta => {
            let mut walk = Walk::new(board, algorithm);
            walk.by_ref().for_each(drop);
            walk.calls()
        }
    })
}

/// The trace as a table: a row per call in call order, the move column drawn
/// as a tree, then what call 1 chose.
pub fn describe(board: &Board, algorithm: Algorithm, calls: &[Traced]) -> String {
    let pruning = algorithm == Algorithm::AlphaBeta;
    let name = if pruning {
        "minimax with alpha-beta pruning"
    } else {
        "minimax"
    };
    let mut text = format!("The seed's {name} on {board}, call by call");
    match board.status() {
        Status::InProgress { to_move } => {
            text.push_str(&format!(": {to_move} to move, so {to_move} maximizes.\n"));
        }
        _ => text.push_str(": the game is over.\n"),
    }
    text.push_str(
        "Call 1 is the position itself, at depth 0. Scores are the seed's, from the maximizer's\nside: a win found at depth d scores 10 - d, a loss -10 + d, a draw 0.\n\n",
    );

    let last_child = last_children(calls);
    let (prefixes, rails) = tree_prefixes(calls, &last_child);
    let move_width = prefixes
        .iter()
        .zip(calls)
        .map(|(prefix, traced)| prefix.chars().count() + move_label(&traced.call).len())
        .max()
        .unwrap_or(0)
        .max("move".len());
    let board_width = board.to_string().len();
    let window_header = if pruning { "  alpha   beta" } else { "" };
    text.push_str(&format!(
        "call  depth  {:<move_width$}  {:<board_width$}  turn   {window_header}  returns\n",
        "move", "position"
    ));
    // A cut is drawn as one more branch of the call that cut, after its last call.
    let mut cuts_after: Vec<Vec<usize>> = vec![Vec::new(); calls.len()];
    for (i, traced) in calls.iter().enumerate() {
        if !traced.cut.is_empty() {
            cuts_after[subtree_end(calls, i)].push(i);
        }
    }
    for (i, traced) in calls.iter().enumerate() {
        let call = &traced.call;
        let label = format!("{}{}", prefixes[i], move_label(call));
        let side = call.board.to_move();
        let turn = format!("{side} {}", if call.maximizing { "max" } else { "min" });
        let window = call.window.map_or(String::new(), |Window { alpha, beta }| {
            format!("  {:>5}  {:>5}", window_bound(alpha), window_bound(beta))
        });
        let end = match call.board.status() {
            Status::InProgress { .. } => String::new(),
            ended => format!("  {ended}"),
        };
        text.push_str(&format!(
            "{:>4}  {:>5}  {label:<move_width$}  {}  {turn}  {window}  {:>7}{end}\n",
            call.number,
            call.depth,
            call.board,
            signed(traced.score),
        ));
        // Innermost first: the deepest call's cut is the nearest.
        for &cutting in cuts_after[i].iter().rev() {
            text.push_str(&cut_row(calls, cutting, &rails[cutting]));
        }
    }
    text.push('\n');
    text.push_str(&summary(board, algorithm, calls));
    text
}

/// `b1 X`: the move that led to a call, and who played it; empty for call 1.
fn move_label(call: &Call) -> String {
    call.mv.map_or(String::new(), |mv| {
        format!("{} {}", mv.coordinate(), call.board.to_move().other())
    })
}

fn window_bound(value: i32) -> String {
    match bound(value) {
        Some(value) => signed(value),
        None if value == i32::MIN => "-inf".to_string(),
        None => "+inf".to_string(),
    }
}

/// The index of the last call made below call `i` (itself when it made none).
fn subtree_end(calls: &[Traced], i: usize) -> usize {
    let depth = calls[i].call.depth;
    calls[i + 1..]
        .iter()
        .position(|c| c.call.depth <= depth)
        .map_or(calls.len() - 1, |n| i + n)
}

/// For each call, whether it is drawn as the last branch of its parent: the
/// last call its parent made, unless the parent cut replies after it.
fn last_children(calls: &[Traced]) -> Vec<bool> {
    let mut last = vec![true; calls.len()];
    let mut latest_child: Vec<Option<usize>> = vec![None; calls.len()];
    for (i, traced) in calls.iter().enumerate() {
        if let Some(parent) = traced.call.parent {
            let parent = (parent - 1) as usize;
            if let Some(previous) = latest_child[parent] {
                last[previous] = false;
            }
            latest_child[parent] = Some(i);
            if !calls[parent].cut.is_empty() {
                last[i] = false;
            }
        }
    }
    last
}

/// The tree drawing before each call's move (`│  ├─ ` and the like), and
/// the drawing before the branches of its own calls (`│  │  `).
fn tree_prefixes(calls: &[Traced], last_child: &[bool]) -> (Vec<String>, Vec<String>) {
    let mut prefixes = Vec::with_capacity(calls.len());
    let mut below: Vec<String> = Vec::with_capacity(calls.len());
    for (i, traced) in calls.iter().enumerate() {
        let Some(parent) = traced.call.parent else {
            prefixes.push(String::new());
            below.push(String::new());
            continue;
        };
        let rail = &below[(parent - 1) as usize];
        let (branch, more) = if last_child[i] {
            ("└─ ", "   ")
        } else {
            ("├─ ", "│  ")
        };
        prefixes.push(format!("{rail}{branch}"));
        below.push(format!("{rail}{more}"));
    }
    (prefixes, below)
}

/// The row after the last call of a call that cut its remaining replies,
/// drawn as its last branch: which replies were not searched, and why.
fn cut_row(calls: &[Traced], i: usize, rail: &str) -> String {
    let traced = &calls[i];
    let call = &traced.call;
    let mover = call.board.to_move();
    let cut: Vec<String> = traced
        .cut
        .iter()
        .map(|mv| format!("{} {mover}", mv.coordinate()))
        .collect();
    let window = call.window.unwrap_or(Window {
        alpha: i32::MIN,
        beta: i32::MAX,
    });
    // The side that already has better elsewhere is the one choosing above.
    let (reached, bound) = if call.maximizing {
        (">= beta", window.beta)
    } else {
        ("<= alpha", window.alpha)
    };
    let why = format!(
        "{} {reached} {}: {} has better elsewhere",
        signed(traced.score),
        window_bound(bound),
        mover.other()
    );
    let last = calls
        .iter()
        .rposition(|c| c.call.parent == Some(call.number))
        .map_or(call.number, |k| calls[k].call.number);
    format!(
        "{:13}{rail}└─ cut after call {last}: {} not searched ({why})\n",
        "",
        cut.join(", ")
    )
}

/// What call 1 chose, in words.
fn summary(board: &Board, algorithm: Algorithm, calls: &[Traced]) -> String {
    let count = calls.len() as u64;
    let mut text = crate::text::count(count, "call", "calls");
    if algorithm == Algorithm::AlphaBeta
        && let Some(plain) = total_calls(board, Algorithm::Minimax)
    {
        text.push_str(&format!(" (plain minimax makes {})", thousands(plain)));
    }
    text.push_str(". ");
    let replies: Vec<&Traced> = calls.iter().filter(|c| c.call.parent == Some(1)).collect();
    let Some(root) = calls.first() else {
        return text + "\n";
    };
    if replies.is_empty() {
        text.push_str(&format!(
            "The game is over: call 1 returns {}.\n",
            signed(root.score)
        ));
        return text;
    }
    let best =
        reference::first_best(replies.iter().copied(), |reply| reply.score).expect("a reply");
    let scores: Vec<String> = replies.iter().map(|c| signed(c.score)).collect();
    let mv = best.call.mv.expect("a reply has a move");
    text.push_str(&format!(
        "Call 1 takes the maximum of {}: {}.\nBest move: {} (row {}, col {}), call {}.\n",
        scores.join(", "),
        signed(root.score),
        mv.coordinate(),
        mv.row,
        mv.col,
        best.call.number,
    ));
    text
}

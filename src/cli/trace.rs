//! `tictactoe trace`: the articles' minimax replayed call by call, numbered
//! as the freeCodeCamp article numbers its calls.
//!
//! The walk is lazy, so the trace is walked twice instead of being kept: once
//! for what each call returns (a few bytes a call), then again to print the
//! calls in order with what they returned. A million calls take about 20 MB.

use std::io::{self, Write};

use clap::Args;

use super::{ExitStatus, GivenGeometryArgs, ScoresArg, Streams};
use tictactoe_engine::teach::reference::{self, Algorithm, Bound, Window};
use tictactoe_engine::teach::trace::{Call, Step, Walk};
use tictactoe_engine::{Board, CellSet, Limits, Outlook, Role, Scoring, Status, analyze};
use tictactoe_game::json;
use tictactoe_game::present::teach::{call_move, cut_moves, turn, window_bound};
use tictactoe_game::present::{
    bounded, cut_reason, ended, role_does, role_takes, score_reason, tree_legend,
};
use tictactoe_game::text::{signed, thousands};

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
    /// How scores are counted.
    #[command(flatten)]
    pub scores: ScoresArg,
    /// The board's geometry: `--size` and `--k`.
    #[command(flatten)]
    pub geometry: GivenGeometryArgs,
}

impl TraceArgs {
    /// Prints the trace of the board given.
    pub fn run(&self, io: &mut Streams) -> io::Result<ExitStatus> {
        if let Some(refusal) = super::one_board_only("trace", &self.board) {
            return io.error_line(&refusal, ExitStatus::BadInput);
        }
        let board = match self.geometry.geometry.parse(&self.board) {
            Ok(board) => board,
            Err(error) => return io.error_line(&error, ExitStatus::BadInput),
        };
        let algorithm = if self.alpha_beta {
            Algorithm::AlphaBeta
        } else {
            Algorithm::Minimax
        };
        let traced = Traced {
            board,
            algorithm,
            scoring: self.scores.scores,
        };
        run_trace(&traced, self.max_calls, self.json, io.out, io.err)
    }
}

/// Traces of more calls than this are refused unless `--max-calls` allows them.
pub const DEFAULT_MAX_CALLS: u64 = 5_000;

/// The most `--max-calls` accepts: enough for the whole empty 3x3 board.
pub const MOST_CALLS: u64 = 1_000_000;

/// What is traced: a position, by which algorithm, with which scores.
#[derive(Debug, Clone, Copy)]
pub struct Traced {
    /// Call 1's position.
    pub board: Board,
    /// Plain minimax or alpha-beta.
    pub algorithm: Algorithm,
    /// How scores are counted.
    pub scoring: Scoring,
}

impl Traced {
    fn walk(&self) -> Walk {
        Walk::new(&self.board, self.algorithm, self.scoring)
    }

    fn pruning(&self) -> bool {
        self.algorithm == Algorithm::AlphaBeta
    }
}

/// What a call returned, kept from the first walk for the second.
#[derive(Debug, Clone, Copy)]
struct Returned {
    score: i32,
    bound: Bound,
    cut: CellSet,
    /// Drawn as the last branch of its caller: its last call, unless the
    /// caller cut replies after it (the cut is drawn as the last branch).
    last: bool,
}

/// The first walk: what every call returned, in call order, or `None` when
/// there are more than `max_calls` calls.
fn outcomes(traced: &Traced, max_calls: u64) -> Option<Vec<Returned>> {
    let mut outcomes: Vec<Returned> = Vec::new();
    // The open calls' numbers with the latest call each made.
    let mut open: Vec<(u64, Option<u64>)> = Vec::new();
    for step in traced.walk() {
        match step {
            Step::Enter(call) => {
                if call.number > max_calls {
                    return None;
                }
                if let Some((_, latest)) = open.last_mut()
                    && let Some(previous) = latest.replace(call.number)
                {
                    outcomes[index(previous)].last = false;
                }
                open.push((call.number, None));
                outcomes.push(Returned {
                    score: 0,
                    bound: Bound::Exact,
                    cut: CellSet::empty(traced.board.size()),
                    last: true,
                });
            }
            Step::Return(done) => {
                let (_, latest) = open.pop().expect("an open call returns");
                let outcome = &mut outcomes[index(done.number)];
                (outcome.score, outcome.bound, outcome.cut) = (done.score, done.bound, done.cut);
                if !done.cut.is_empty()
                    && let Some(latest) = latest
                {
                    outcomes[index(latest)].last = false;
                }
            }
        }
    }
    Some(outcomes)
}

/// A call's place in call order.
fn index(number: u64) -> usize {
    (number - 1) as usize
}

/// One call of `trace --json`.
fn call_record(call: &Call, outcome: &Returned) -> json::TraceCall {
    json::TraceCall {
        call: call.number,
        parent: call.parent,
        depth: call.depth(),
        at: json::Located::new(call.mv),
        board: call.board,
        maximizing: call.role.is_max(),
        score: outcome.score,
        bound: outcome.bound,
        alpha: call.window.map(|window| window.alpha),
        beta: call.window.map(|window| window.beta),
        cut: call.window.map(|_| outcome.cut.iter().collect()),
    }
}

/// Answers `trace BOARD`: every call of the articles' minimax (or alpha-beta)
/// from the board, in call order, as text or one JSON object per line.
pub fn run_trace(
    traced: &Traced,
    max_calls: u64,
    json: bool,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> io::Result<ExitStatus> {
    let board = traced.board;
    let Some(outcomes) = outcomes(traced, max_calls) else {
        let total = total_calls(traced)
            .map(|n| format!(" ({} calls)", thousands(n)))
            .unwrap_or_default();
        let raise = if max_calls < MOST_CALLS {
            format!("raise --max-calls (up to {}) or ", thousands(MOST_CALLS))
        } else {
            String::new()
        };
        writeln!(
            err,
            "error: the trace of {board}{total} is longer than --max-calls {}: {raise}trace a position with fewer empty squares",
            thousands(max_calls),
        )?;
        return Ok(ExitStatus::Failure);
    };
    if json {
        for step in traced.walk() {
            if let Step::Enter(call) = step {
                json::write_line(out, &call_record(&call, &outcomes[index(call.number)]))?;
            }
        }
        Ok(ExitStatus::Success)
    } else {
        write_text(traced, &outcomes, out)?;
        Ok(ExitStatus::Success)
    }
}

/// How many calls the whole trace has, when that is quick to count (so a
/// refusal can say how long the trace would be).
fn total_calls(traced: &Traced) -> Option<u64> {
    if !reference::is_countable(&traced.board) {
        return None;
    }
    Some(match traced.algorithm {
        Algorithm::Minimax => reference::tree_size(&traced.board),
        Algorithm::AlphaBeta => {
            let mut walk = traced.walk();
            walk.by_ref().for_each(drop);
            walk.calls()
        }
    })
}

/// The trace as a table: a row per call in call order, the move column drawn
/// as a tree, then what call 1 chose.
fn write_text(traced: &Traced, outcomes: &[Returned], out: &mut dyn Write) -> io::Result<()> {
    let board = traced.board;
    let name = if traced.pruning() {
        "minimax with alpha-beta pruning"
    } else {
        "minimax"
    };
    write!(
        out,
        "The articles' {name} on {board}, call by call as freeCodeCamp numbers them"
    )?;
    let to_move = board.to_move();
    let maximizer = traced.scoring.maximizer(to_move);
    match board.status() {
        Status::InProgress { .. } => {
            let role = Role::of(to_move, maximizer);
            writeln!(
                out,
                ": {to_move} to move, so {to_move} {}.",
                role_does(role)
            )?
        }
        _ => writeln!(out, ": the game is over.")?,
    }
    writeln!(
        out,
        "Call 1 is the position itself. Scores are from {maximizer}'s side:\n{}.",
        tree_legend(traced.scoring, board.geometry().win_score())
    )?;
    if traced.pruning() {
        writeln!(
            out,
            "A score at or below the alpha its call began with is only an upper bound (<=),\none at or above its beta only a lower bound (>=)."
        )?;
    }
    writeln!(out)?;

    // The widest move label decides the column: the deepest call's.
    let deepest = traced
        .walk()
        .filter_map(|step| match step {
            Step::Enter(call) => Some(call.ply),
            Step::Return(_) => None,
        })
        .max()
        .unwrap_or(0) as usize;
    let move_width = (deepest * 3 + 4).max("move".len());
    let board_width = board.to_string().len();
    let window_header = if traced.pruning() {
        "  alpha   beta"
    } else {
        ""
    };
    writeln!(
        out,
        "call  depth  {:<move_width$}  {:<board_width$}  turn   {window_header}  returns",
        "move", "position"
    )?;
    // The drawing before the branches of each open call (`│  │  `), and the
    // open calls with the latest call each made.
    let mut rails: Vec<String> = Vec::new();
    let mut open: Vec<(Call, Option<u64>)> = Vec::new();
    for step in traced.walk() {
        match step {
            Step::Enter(call) => {
                let outcome = &outcomes[index(call.number)];
                let prefix = match rails.last() {
                    None => String::new(),
                    Some(rail) if outcome.last => format!("{rail}└─ "),
                    Some(rail) => format!("{rail}├─ "),
                };
                let more = match rails.last() {
                    None => String::new(),
                    Some(rail) if outcome.last => format!("{rail}   "),
                    Some(rail) => format!("{rail}│  "),
                };
                let label = format!("{prefix}{}", call_move(&call));
                let turn = turn(&call);
                let window = call.window.map_or(String::new(), |window| {
                    format!(
                        "  {:>5}  {:>5}",
                        window_bound(window.alpha, false),
                        window_bound(window.beta, true)
                    )
                });
                let end = match call.board.status() {
                    Status::InProgress { .. } => String::new(),
                    status => format!("  {}", ended(status).unwrap_or_default()),
                };
                let returns = bounded(outcome.score, outcome.bound);
                let depth = call
                    .depth()
                    .map_or("-".to_string(), |depth| depth.to_string());
                writeln!(
                    out,
                    "{:>4}  {depth:>5}  {label:<move_width$}  {}  {turn}  {window}  {returns:>7}{end}",
                    call.number, call.board,
                )?;
                if let Some((_, latest)) = open.last_mut() {
                    *latest = Some(call.number);
                }
                rails.push(more);
                open.push((call, None));
            }
            Step::Return(done) => {
                let (call, latest) = open.pop().expect("an open call returns");
                let rail = rails.pop().unwrap_or_default();
                if !done.cut.is_empty() {
                    let after = latest.unwrap_or(call.number);
                    writeln!(
                        out,
                        "{}",
                        cut_row(&call, after, done.score, done.cut, &rail)
                    )?;
                }
            }
        }
    }
    writeln!(out)?;
    out.write_all(summary(traced, outcomes).as_bytes())
}

/// The row after call `after`, the last call of a call that cut its
/// remaining replies, drawn as its last branch: which replies were not
/// searched, and why.
fn cut_row(call: &Call, after: u64, score: i32, cut: CellSet, rail: &str) -> String {
    let window = call.window.unwrap_or(Window::OPEN);
    format!(
        "{:13}{rail}└─ cut after call {after}: {} not searched ({})",
        "",
        cut_moves(call, cut),
        cut_reason(call, score, window)
    )
}

/// What call 1 chose, in words.
fn summary(traced: &Traced, outcomes: &[Returned]) -> String {
    let count = outcomes.len() as u64;
    let mut text = tictactoe_game::text::count(count, "call", "calls");
    if traced.pruning()
        && let Some(plain) = total_calls(&Traced {
            algorithm: Algorithm::Minimax,
            ..*traced
        })
    {
        text.push_str(&format!(" (plain minimax makes {})", thousands(plain)));
    }
    text.push_str(". ");
    let Some(root) = outcomes.first() else {
        return text + "\n";
    };
    let replies: Vec<(Call, Returned)> = traced
        .walk()
        .filter_map(|step| match step {
            Step::Enter(call) if call.parent == Some(1) => {
                Some((call, outcomes[index(call.number)]))
            }
            _ => None,
        })
        .collect();
    let Status::InProgress { to_move } = traced.board.status() else {
        text.push_str(&format!(
            "The game is over: call 1 returns {}.\n",
            signed(root.score)
        ));
        return text;
    };
    // findBestMove keeps the first reply with the best score; a bound never
    // beats an exact score it cannot be sure to exceed.
    let role = Role::of(to_move, traced.scoring.maximizer(to_move));
    let (best_call, best) = replies
        .iter()
        .copied()
        .reduce(|best, next| {
            if role.prefers(next.1.score, best.1.score) {
                next
            } else {
                best
            }
        })
        .expect("a position in progress has replies");
    let scores: Vec<String> = replies
        .iter()
        .map(|(_, outcome)| bounded(outcome.score, outcome.bound))
        .collect();
    let mv = best_call.mv.expect("a reply has a move");
    let win = traced.board.geometry().win_score();
    // What the move means, from the engine's scores: plain scores no longer
    // say how far away a win is.
    let analysis = analyze(&traced.board, Limits::ToTheEnd);
    let outlook = analysis
        .moves
        .iter()
        .find(|scored| scored.mv == mv)
        .map_or(Outlook::Estimate, |scored| analysis.outlook_of(*scored));
    text.push_str(&format!(
        "Call 1 takes the {} of {}: {}.\nBest move: {mv} (row {}, col {}), call {}: {}.\n",
        role_takes(role),
        scores.join(", "),
        signed(root.score),
        mv.row,
        mv.col,
        best_call.number,
        score_reason(best.score, outlook, to_move, traced.scoring, win),
    ));
    text
}

//! `tictactoe analyze` and `tictactoe best`: the engine's reasoning for scripts and readers.

use std::io::{self, BufRead, Write};

use serde::Serialize;

use super::{BoardOptions, ExitStatus};
use crate::engine::{
    Analysis, Board, BoardError, Limits, Method, Move, Player, Status, analyze, analyze_by_search,
};

/// Longest input echoed back in a batch error, so one huge line cannot flood the output.
const ECHO_LIMIT: usize = 120;

/// One answer of `analyze --json`.
#[derive(Debug, Serialize)]
pub struct Report {
    board: String,
    size: u8,
    k: u8,
    to_move: Option<String>,
    status: &'static str,
    value: Option<i32>,
    best: Option<Cell>,
    moves: Vec<ScoredCell>,
    nodes: u64,
    method: &'static str,
    /// Every score proven ("exact" in JSON, kept for compatibility).
    #[serde(rename = "exact")]
    proven: bool,
    verdict: String,
}

#[derive(Debug, Serialize)]
struct Cell {
    row: u8,
    col: u8,
}

#[derive(Debug, Serialize)]
struct ScoredCell {
    row: u8,
    col: u8,
    score: i32,
    /// The score is proven ("exact" in JSON, kept for compatibility).
    #[serde(rename = "exact")]
    proven: bool,
}

/// A batch line that could not be read as a board.
#[derive(Debug, Serialize)]
struct LineError<'a> {
    line: usize,
    input: &'a str,
    error: String,
}

impl Report {
    /// The JSON answer for an analysis.
    pub fn new(analysis: &Analysis) -> Report {
        let board = analysis.board;
        let status = match analysis.status() {
            Status::InProgress { .. } => "in_progress",
            Status::Won(Player::X) => "x_won",
            Status::Won(Player::O) => "o_won",
            Status::Draw => "draw",
        };
        Report {
            board: board.to_string(),
            size: board.size(),
            k: board.k(),
            to_move: analysis.to_move().map(|p| p.notation().to_string()),
            status,
            value: analysis.value(),
            best: analysis.best().map(|b| Cell {
                row: b.mv.row,
                col: b.mv.col,
            }),
            moves: analysis
                .moves
                .iter()
                .map(|m| ScoredCell {
                    row: m.mv.row,
                    col: m.mv.col,
                    score: m.score,
                    proven: m.proven,
                })
                .collect(),
            nodes: analysis.nodes(),
            method: match analysis.method {
                Method::Table => "table",
                Method::Search { .. } => "search",
            },
            proven: analysis.proven(),
            verdict: analysis.verdict(),
        }
    }
}

/// Answers `analyze BOARD`, or every line of `input` when the argument is `-`.
pub fn run_analyze(
    board_arg: &str,
    json: bool,
    options: &BoardOptions,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> io::Result<ExitStatus> {
    if board_arg != "-" {
        return match options.parse(board_arg) {
            Ok(board) => {
                write_analysis(&analyze(&board, options.limits()), json, out)?;
                Ok(ExitStatus::Success)
            }
            Err(error) => {
                writeln!(err, "error: {error}")?;
                Ok(ExitStatus::BadInput)
            }
        };
    }

    let mut status = ExitStatus::Success;
    let mut raw = Vec::new();
    let mut number = 0;
    // Text answers are separated by a blank line; errors go to stderr.
    let mut answered = 0;
    loop {
        raw.clear();
        if input.read_until(b'\n', &mut raw)? == 0 {
            break;
        }
        number += 1;
        // Undecodable bytes become U+FFFD, which the parser then names as the bad character.
        let text = String::from_utf8_lossy(&raw);
        let line = text.strip_suffix('\n').unwrap_or(&text);
        let line = line.strip_suffix('\r').unwrap_or(line);
        match options.parse(line) {
            Ok(board) => {
                if !json && answered > 0 {
                    writeln!(out)?;
                }
                answered += 1;
                write_analysis(&analyze(&board, options.limits()), json, out)?;
            }
            Err(error) => {
                status = ExitStatus::BadInput;
                report_bad_line(number, line, &error, json, out, err)?;
            }
        }
    }
    Ok(status)
}

fn report_bad_line(
    number: usize,
    line: &str,
    error: &BoardError,
    json: bool,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> io::Result<()> {
    if json {
        let echoed: String = if line.chars().count() > ECHO_LIMIT {
            line.chars().take(ECHO_LIMIT).chain(['…']).collect()
        } else {
            line.to_string()
        };
        let record = LineError {
            line: number,
            input: &echoed,
            error: error.to_string(),
        };
        writeln!(
            out,
            "{}",
            serde_json::to_string(&record).map_err(io::Error::other)?
        )
    } else {
        writeln!(err, "line {number}: error: {error}")
    }
}

fn write_analysis(analysis: &Analysis, json: bool, out: &mut dyn Write) -> io::Result<()> {
    if json {
        let line = serde_json::to_string(&Report::new(analysis)).map_err(io::Error::other)?;
        writeln!(out, "{line}")
    } else {
        out.write_all(describe(analysis).as_bytes())
    }
}

/// The text report: the board with each empty cell's score, the moves in
/// words, then the seed's own summary lines.
pub fn describe(analysis: &Analysis) -> String {
    let board = analysis.board;
    let mut text = format!(
        "Board {board} ({0}x{0}, {1} in a row)\n\n",
        board.size(),
        board.k()
    );
    text.push_str(&score_grid(analysis));
    text.push('\n');
    let Some(to_move) = analysis.to_move() else {
        text.push_str(&format!("Game over: {}.\n", analysis.verdict()));
        return text;
    };
    text.push_str(&format!(
        "{to_move} to move. Score of each move for {to_move} (win +, loss -, sooner is bigger):\n"
    ));
    let best = analysis.best().map(|b| b.mv);
    for scored in &analysis.moves {
        let marker = if Some(scored.mv) == best {
            "  <- best"
        } else {
            ""
        };
        let proof = if scored.proven { "" } else { " (estimated)" };
        text.push_str(&format!(
            "  {:<16} {:>4}  {}{proof}{marker}\n",
            scored.mv.to_string(),
            signed(scored.score),
            analysis.outlook_of(*scored),
        ));
    }
    if let Some(best) = analysis.best() {
        text.push_str(&format!(
            "\nThe value of the best move is: {}\n",
            best.score
        ));
        text.push_str(&format!("The optimal move is: {}\n", best.mv));
    }
    text.push_str(&format!("Verdict: {}\n", analysis.verdict()));
    text.push_str(&format!("Positions searched: {}", analysis.nodes()));
    match analysis.method {
        Method::Table => text.push_str(&format!(
            " (answered from the compiled table; searching takes {})\n",
            analyze_by_search(&board, Limits::Solve).nodes()
        )),
        Method::Search {
            depth: Some(depth), ..
        } => text.push_str(&format!(" (to depth {depth}, not every score proven)\n")),
        Method::Search { depth: None, .. } => text.push('\n'),
    }
    text
}

/// The board with marks where they are and each empty cell's score in its place.
fn score_grid(analysis: &Analysis) -> String {
    let board = analysis.board;
    let size = board.size();
    let mut text = String::from("     ");
    for col in 0..size {
        text.push_str(&format!("{:>5}", format!("c{col}")));
    }
    text.push('\n');
    for row in 0..size {
        text.push_str(&format!("  r{row} "));
        for col in 0..size {
            let mv = Move::new(row, col);
            let cell = match board.get(mv) {
                Some(player) => player.symbol().to_string(),
                None => analysis.moves.iter().find(|m| m.mv == mv).map_or_else(
                    || ".".to_string(),
                    |m| format!("{}{}", signed(m.score), if m.proven { "" } else { "?" }),
                ),
            };
            text.push_str(&format!("{cell:>5}"));
        }
        text.push('\n');
    }
    text
}

fn signed(score: i32) -> String {
    if score > 0 {
        format!("+{score}")
    } else {
        score.to_string()
    }
}

/// Answers `best BOARD` with `ROW COL`.
pub fn run_best(
    board_arg: &str,
    options: &BoardOptions,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> io::Result<ExitStatus> {
    if board_arg == "-" {
        writeln!(
            err,
            "error: best takes one board; for many, use `tictactoe analyze - --json`"
        )?;
        return Ok(ExitStatus::BadInput);
    }
    let board: Board = match options.parse(board_arg) {
        Ok(board) => board,
        Err(error) => {
            writeln!(err, "error: {error}")?;
            return Ok(ExitStatus::BadInput);
        }
    };
    let analysis = analyze(&board, options.limits());
    match analysis.best() {
        Some(best) => {
            writeln!(out, "{} {}", best.mv.row, best.mv.col)?;
            Ok(ExitStatus::Success)
        }
        None => {
            writeln!(err, "error: no move to make: {}", analysis.verdict())?;
            Ok(ExitStatus::Failure)
        }
    }
}

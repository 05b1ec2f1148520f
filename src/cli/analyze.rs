//! `tictactoe analyze` and `tictactoe best`: the engine's reasoning for scripts and readers.

use std::io::{self, BufRead, Write};

use clap::Args;
use serde::Serialize;

use super::{BoardOptions, Cell, ExitStatus, Streams};
use crate::engine::line::{Line, move_list};
use crate::engine::{
    Ai, Analysis, Board, Limits, Method, Move, Outlook, Player, Status, analyze, analyze_by_search,
};
use crate::text::{read_line, signed, thousands};

/// The arguments of `tictactoe analyze`.
#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    /// The board, such as xox/oox/... (or - to read one board per line from standard input).
    #[arg(value_name = "BOARD | -", allow_hyphen_values = true)]
    pub board: String,
    /// One line of JSON per board instead of text.
    #[arg(long)]
    pub json: bool,
    /// Board shape and search limits.
    #[command(flatten)]
    pub options: BoardOptions,
}

impl AnalyzeArgs {
    /// Answers the board given, or every line of standard input for `-`.
    pub fn run(&self, io: &mut Streams) -> io::Result<ExitStatus> {
        run_analyze(
            &self.board,
            self.json,
            &self.options,
            io.input,
            io.out,
            io.err,
        )
    }
}

/// The arguments of `tictactoe best`.
#[derive(Debug, Args)]
pub struct BestArgs {
    /// The board, such as xox/oox/...
    #[arg(value_name = "BOARD", allow_hyphen_values = true)]
    pub board: String,
    /// Print the square as the game names it, such as c3, instead of ROW COL.
    #[arg(long)]
    pub coord: bool,
    /// Board shape and search limits.
    #[command(flatten)]
    pub options: BoardOptions,
}

impl BestArgs {
    /// Prints the best move of the board given.
    pub fn run(&self, io: &mut Streams) -> io::Result<ExitStatus> {
        run_best(&self.board, self.coord, &self.options, io.out, io.err)
    }
}

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
struct ScoredCell {
    row: u8,
    col: u8,
    score: i32,
    /// The score is proven ("exact" in JSON, kept for compatibility).
    #[serde(rename = "exact")]
    proven: bool,
    /// The moves that follow with best play from both sides.
    line: Vec<Cell>,
    /// The line is proven best play to the end of the game.
    line_exact: bool,
}

/// A batch line that could not be read as a board.
#[derive(Debug, Serialize)]
struct LineError<'a> {
    line: usize,
    input: &'a str,
    error: String,
}

impl Report {
    /// The JSON answer for an analysis and the line behind each move's
    /// score (as [`Ai::lines`] gives them, in the analysis' order).
    pub fn new(analysis: &Analysis, lines: &[Line]) -> Report {
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
            best: analysis.best().map(|b| b.mv.into()),
            moves: analysis
                .moves
                .iter()
                .zip(lines.iter().map(Some).chain(std::iter::repeat(None)))
                .map(|(m, line)| ScoredCell {
                    row: m.mv.row,
                    col: m.mv.col,
                    score: m.score,
                    proven: m.proven,
                    line: line.map_or_else(Vec::new, |line| {
                        line.moves.iter().map(|&mv| mv.into()).collect()
                    }),
                    line_exact: line.is_some_and(|line| line.proven),
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
                write_analysis(&board, options.limits(), json, out)?;
                Ok(ExitStatus::Success)
            }
            Err(error) => {
                writeln!(err, "error: {error}")?;
                Ok(ExitStatus::BadInput)
            }
        };
    }

    let mut status = ExitStatus::Success;
    let mut number = 0;
    // Text answers are separated by a blank line; errors go to stderr.
    let mut answered = 0;
    while let Some(line) = read_line(input)? {
        number += 1;
        let board = if line.is_cut() {
            Err(format!(
                "a line of {} bytes is too long to be a board",
                thousands(line.len as u64)
            ))
        } else {
            options.parse(&line.text).map_err(|error| error.to_string())
        };
        match board {
            Ok(board) => {
                if !json && answered > 0 {
                    writeln!(out)?;
                }
                answered += 1;
                write_analysis(&board, options.limits(), json, out)?;
            }
            Err(error) => {
                status = ExitStatus::BadInput;
                if json {
                    let record = LineError {
                        line: number,
                        input: &line.echo(),
                        error,
                    };
                    let record = serde_json::to_string(&record).map_err(io::Error::other)?;
                    writeln!(out, "{record}")?;
                } else {
                    writeln!(err, "line {number}: error: {error}")?;
                }
            }
        }
    }
    Ok(status)
}

/// Analyses one board, with a fresh AI so that no answer depends on the
/// boards before it, and writes the answer.
fn write_analysis(
    board: &Board,
    limits: Limits,
    json: bool,
    out: &mut dyn Write,
) -> io::Result<()> {
    let mut ai = Ai::new();
    let analysis = ai.analyze(board, limits);
    let lines = ai.lines(&analysis);
    if json {
        let report = Report::new(&analysis, &lines);
        let line = serde_json::to_string(&report).map_err(io::Error::other)?;
        writeln!(out, "{line}")
    } else {
        out.write_all(describe(&analysis, &lines).as_bytes())
    }
}

/// The text report: the board with each empty cell's score, the moves in
/// words, then the seed's own summary lines and the best move's line.
pub fn describe(analysis: &Analysis, lines: &[Line]) -> String {
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
    let best = analysis.best();
    for scored in &analysis.moves {
        let marker = if Some(scored.mv) == best.map(|b| b.mv) {
            "  <- best"
        } else {
            ""
        };
        let outlook = analysis.outlook_of(*scored);
        let proof = if scored.proven || outlook == Outlook::Estimate {
            ""
        } else {
            " (estimated)"
        };
        text.push_str(&format!(
            "  {:<18} {:>4}  {outlook}{proof}{marker}\n",
            square(scored.mv),
            signed(scored.score),
        ));
    }
    if let Some(best) = best {
        text.push('\n');
        if analysis.proven() {
            text.push_str(&format!("The value of the best move is: {}\n", best.score));
            text.push_str(&format!("The optimal move is: {}\n", square(best.mv)));
        } else {
            let estimated = if best.proven { "" } else { " (estimated)" };
            text.push_str(&format!(
                "The value of the best move found is: {}{estimated}\n",
                best.score
            ));
            text.push_str(&format!(
                "The best move found is: {}, not proven optimal\n",
                square(best.mv)
            ));
        }
    }
    if let Some(best) = best
        && let Some(index) = analysis.moves.iter().position(|m| m.mv == best.mv)
        && let Some(line) = lines.get(index)
    {
        let moves = move_list(
            &board,
            std::iter::once(best.mv).chain(line.moves.iter().copied()),
        );
        if line.proven {
            let result = analysis.outlook_of(best).result_for(to_move);
            text.push_str(&format!("Best play: {moves}: {result}\n"));
        } else {
            text.push_str(&format!("Best play as far as the search looked: {moves}\n"));
        }
    }
    text.push_str(&format!("Verdict: {}\n", analysis.verdict()));
    text.push_str(&format!(
        "Positions searched: {}",
        thousands(analysis.nodes())
    ));
    match analysis.method {
        Method::Table => text.push_str(&format!(
            " (answered from the compiled table; searching takes {})\n",
            thousands(analyze_by_search(&board, Limits::Solve).nodes())
        )),
        Method::Search {
            depth: Some(depth), ..
        } => text.push_str(&format!(" (to depth {depth}, not every score proven)\n")),
        Method::Search { depth: None, .. } => text.push('\n'),
    }
    text
}

/// A square in both notations: `c3 (row 2, col 2)`.
fn square(mv: Move) -> String {
    format!("{mv} (row {}, col {})", mv.row, mv.col)
}

/// The board with marks where they are and each empty cell's score in its
/// place, labelled as the game labels it: columns a, b, c… and rows 1, 2, 3….
fn score_grid(analysis: &Analysis) -> String {
    let board = analysis.board;
    let size = board.size();
    let mut text = String::from("    ");
    for col in 0..size {
        text.push_str(&format!("{:>5}", char::from(b'a' + col)));
    }
    text.push('\n');
    for row in 0..size {
        text.push_str(&format!("{:>4}", row + 1));
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

/// Answers `best BOARD` with `ROW COL`, or with the square such as `c3` when `coord` is set.
pub fn run_best(
    board_arg: &str,
    coord: bool,
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
            if coord {
                writeln!(out, "{}", best.mv.coordinate())?;
            } else {
                writeln!(out, "{} {}", best.mv.row, best.mv.col)?;
            }
            Ok(ExitStatus::Success)
        }
        None => {
            writeln!(err, "error: no move to make: {}", analysis.verdict())?;
            Ok(ExitStatus::Failure)
        }
    }
}

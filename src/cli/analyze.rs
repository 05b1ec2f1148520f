//! `tictactoe analyze` and `tictactoe best`: the engine's reasoning for scripts and readers.

use std::io::{self, BufRead, Write};

use clap::Args;
use serde::Serialize;

use super::{BoardOptions, Cell, ExitStatus, ScoresArg, Streams};
use tictactoe_core::text::{read_line, signed, thousands};
use tictactoe_core::words::{
    move_list, result_for, score_reason, scoring_legend, settled_words, verdict,
};
use tictactoe_engine::solve::{Keep, Value};
use tictactoe_engine::teach::line::Line;
use tictactoe_engine::{
    Ai, Analysis, Board, Limits, Method, Outlook, Player, ScoredMove, Scoring, Square, Status,
    analyze, analyze_by_search,
};

/// The arguments of `tictactoe analyze`.
#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    /// The board, such as xox/oox/... (or - to read one board per line from standard input).
    #[arg(value_name = "BOARD | -", allow_hyphen_values = true)]
    pub board: String,
    /// One line of JSON per board instead of text.
    #[arg(long)]
    pub json: bool,
    /// How scores are counted.
    #[command(flatten)]
    pub scores: ScoresArg,
    /// Board shape and search limits.
    #[command(flatten)]
    pub options: BoardOptions,
}

impl AnalyzeArgs {
    /// Answers the board given, or every line of standard input for `-`.
    pub fn run(&self, io: &mut Streams) -> io::Result<ExitStatus> {
        let answer = Answer {
            json: self.json,
            scoring: self.scores.scores,
            // With --solve the prover proves every move; the scores keep --think-ms.
            limits: if self.options.solve {
                self.options.score_limits()
            } else {
                self.options.limits()
            },
        };
        run_analyze(&self.board, answer, &self.options, io.input, io.out, io.err)
    }
}

/// How `analyze` answers each board: as text or JSON, with which scores,
/// thinking how long.
#[derive(Debug, Clone, Copy)]
pub struct Answer {
    /// One line of JSON instead of text.
    pub json: bool,
    /// How scores are counted.
    pub scoring: Scoring,
    /// How long to think on bigger boards.
    pub limits: Limits,
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
    /// How scores are counted: with plain scores every win ties, and the first in reading order is best.
    #[command(flatten)]
    pub scores: ScoresArg,
    /// Board shape and search limits.
    #[command(flatten)]
    pub options: BoardOptions,
}

impl BestArgs {
    /// Prints the best move of the board given.
    pub fn run(&self, io: &mut Streams) -> io::Result<ExitStatus> {
        run_best(
            &self.board,
            self.coord,
            self.scores.scores,
            &self.options,
            io.out,
            io.err,
        )
    }
}

/// Every move of `analysis` with its score counted by `scoring`, in its order.
pub fn counted(analysis: &Analysis, scoring: Scoring) -> Vec<ScoredMove> {
    let win = analysis.board.geometry().win_score();
    analysis
        .moves
        .iter()
        .map(|scored| ScoredMove {
            score: scoring.of(scored.score, scored.proven, win),
            ..*scored
        })
        .collect()
}

/// The seed's choice among moves counted by `scoring`: the first with the
/// highest score. With plain scores a slower win ties with a quicker one.
pub fn best_counted(analysis: &Analysis, scoring: Scoring) -> Option<ScoredMove> {
    let win = analysis.board.geometry().win_score();
    analysis.best_by(scoring).map(|best| ScoredMove {
        score: scoring.of(best.score, best.proven, win),
        ..best
    })
}

/// One answer of `analyze --json`.
#[derive(Debug, Serialize)]
pub struct Report {
    board: String,
    size: u8,
    k: u8,
    /// How the scores are counted: `depth` or `plain`.
    scores: &'static str,
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
    /// What the prover proved, on boards bigger than 3x3 (left out on 3x3,
    /// where the table knows every score).
    #[serde(skip_serializing_if = "Option::is_none")]
    proof: Option<ProofReport>,
}

/// What the prover proved about a position in `analyze --json`.
#[derive(Debug, Serialize)]
struct ProofReport {
    /// `x-wins`, `o-wins` or `draw`, once proven.
    value: Option<&'static str>,
    /// A proven move: one that wins, or else one that does not lose.
    #[serde(rename = "move")]
    keep: Option<Cell>,
    /// `win` or `hold`: what that move keeps.
    keeps: Option<&'static str>,
    /// The value after each move the prover proved (every move with `--solve`).
    moves: Vec<ProvenCell>,
}

#[derive(Debug, Serialize)]
struct ProvenCell {
    row: u8,
    col: u8,
    value: &'static str,
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
    /// score (as [`Ai::lines`] gives them, in the analysis' order), with
    /// scores counted by `scoring`.
    pub fn new(analysis: &Analysis, lines: &[Line], scoring: Scoring) -> Report {
        let moves = counted(analysis, scoring);
        let best = best_counted(analysis, scoring);
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
            scores: scoring.name(),
            to_move: analysis.to_move().map(|p| p.notation().to_string()),
            status,
            value: best.map(|best| best.score),
            best: best.map(|b| b.mv.into()),
            moves: moves
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
            verdict: verdict(analysis),
            proof: analysis.settled.as_ref().map(|settled| ProofReport {
                value: settled.value.map(Value::name),
                keep: settled.keep.map(|keep| keep.mv().into()),
                keeps: settled.keep.map(|keep| match keep {
                    Keep::Win(_) => "win",
                    Keep::Hold(_) => "hold",
                }),
                moves: settled
                    .moves
                    .iter()
                    .map(|&(mv, value)| ProvenCell {
                        row: mv.row,
                        col: mv.col,
                        value: value.name(),
                    })
                    .collect(),
            }),
        }
    }
}

/// Answers `analyze BOARD`, or every line of `input` when the argument is `-`.
pub fn run_analyze(
    board_arg: &str,
    answer: Answer,
    options: &BoardOptions,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> io::Result<ExitStatus> {
    if board_arg != "-" {
        return match options.parse(board_arg) {
            Ok(board) => {
                write_analysis(&board, answer, options.solve, out)?;
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
                if !answer.json && answered > 0 {
                    writeln!(out)?;
                }
                answered += 1;
                write_analysis(&board, answer, options.solve, out)?;
            }
            Err(error) => {
                status = ExitStatus::BadInput;
                if answer.json {
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

/// Analyses one board with a fresh AI (no answer depends on the boards
/// before it), proving every move with the prover when `prove` (`--solve`),
/// and writes the answer.
fn write_analysis(
    board: &Board,
    answer: Answer,
    prove: bool,
    out: &mut dyn Write,
) -> io::Result<()> {
    let mut ai = Ai::new();
    let mut analysis = ai.analyze(board, answer.limits);
    if prove && let Some(settled) = ai.settle_all(board) {
        analysis.settled = Some(settled);
    }
    let lines = ai.lines(&analysis);
    if answer.json {
        let report = Report::new(&analysis, &lines, answer.scoring);
        let line = serde_json::to_string(&report).map_err(io::Error::other)?;
        writeln!(out, "{line}")
    } else {
        out.write_all(describe(&analysis, &lines, answer.scoring).as_bytes())
    }
}

/// The text report: the board with each empty cell's score, the moves in
/// words, then the seed's own summary lines and the best move's line.
pub fn describe(analysis: &Analysis, lines: &[Line], scoring: Scoring) -> String {
    let board = analysis.board;
    let win = board.geometry().win_score();
    let moves = counted(analysis, scoring);
    let mut text = format!(
        "Board {board} ({0}x{0}, {1} in a row)\n\n",
        board.size(),
        board.k()
    );
    text.push_str(&score_grid(&board, &moves));
    text.push('\n');
    let Some(to_move) = analysis.to_move() else {
        text.push_str(&format!("Game over: {}.\n", verdict(analysis)));
        return text;
    };
    text.push_str(&format!(
        "{to_move} to move. Score of each move for {to_move}, the position after it at depth 1:\n"
    ));
    let best = best_counted(analysis, scoring);
    // What a move means comes from its depth score, whatever is shown.
    let outlook = |mv: Square| outlook_of_move(analysis, mv);
    for scored in &moves {
        let marker = if Some(scored.mv) == best.map(|b| b.mv) {
            "  <- best"
        } else {
            ""
        };
        let outlook = outlook(scored.mv);
        let proof = if scored.proven || outlook == Outlook::Estimate {
            ""
        } else {
            " (estimated)"
        };
        // Where the search only estimated, the prover may have proved the result.
        let meaning = match proven_after(analysis, scored.mv) {
            Some(value) if outlook == Outlook::Estimate => match value {
                Value::Win(winner) => format!("{winner} wins (proven)"),
                Value::Draw => "draw (proven)".to_string(),
            },
            _ => outlook.to_string(),
        };
        text.push_str(&format!(
            "  {:<18} {:>4}  {meaning}{proof}{marker}\n",
            square(scored.mv),
            signed(scored.score),
        ));
    }
    text.push_str(&format!("Scores: {}.\n", scoring_legend(scoring, win)));
    if let Some(best) = best {
        text.push('\n');
        if analysis.proven() {
            let reason = score_reason(best.score, outlook(best.mv), to_move, scoring, win);
            text.push_str(&format!(
                "The value of the best move is: {} ({reason})\n",
                best.score
            ));
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
            let result = result_for(outlook(best.mv), to_move);
            text.push_str(&format!("Best play: {moves}: {result}\n"));
        } else {
            text.push_str(&format!("Best play as far as the search looked: {moves}\n"));
        }
    }
    text.push_str(&format!("Verdict: {}\n", verdict(analysis)));
    // The proof's own line when it names a move; its value alone is the verdict's.
    if let Some(words) = analysis
        .settled
        .as_ref()
        .filter(|settled| settled.keep.is_some())
        .and_then(|settled| settled_words(settled, to_move))
    {
        text.push_str(&format!("Proof: {words}\n"));
    }
    text.push_str(&format!(
        "Positions searched: {}",
        thousands(analysis.nodes())
    ));
    match analysis.method {
        Method::Table => text.push_str(&format!(
            " (answered from the compiled table; searching takes {})\n",
            thousands(analyze_by_search(&board, Limits::ToTheEnd).nodes())
        )),
        Method::Search {
            depth: Some(depth), ..
        } => text.push_str(&format!(" (to depth {depth}, not every score proven)\n")),
        Method::Search { depth: None, .. } => text.push('\n'),
    }
    text
}

/// The value the prover proved for the position after `mv`, if it did.
fn proven_after(analysis: &Analysis, mv: Square) -> Option<Value> {
    let settled = analysis.settled.as_ref()?;
    settled
        .moves
        .iter()
        .find(|&&(proven, _)| proven == mv)
        .map(|&(_, value)| value)
}

/// What the move `mv` of `analysis` means for its mover.
fn outlook_of_move(analysis: &Analysis, mv: Square) -> Outlook {
    analysis
        .moves
        .iter()
        .find(|scored| scored.mv == mv)
        .map_or(Outlook::Estimate, |scored| analysis.outlook_of(*scored))
}

/// A square in both notations: `c3 (row 2, col 2)`.
fn square(mv: Square) -> String {
    format!("{mv} (row {}, col {})", mv.row, mv.col)
}

/// The board with marks where they are and each empty cell's score in its
/// place, labelled as the game labels it: columns a, b, c… and rows 1, 2, 3….
fn score_grid(board: &Board, moves: &[ScoredMove]) -> String {
    let size = board.size();
    let mut text = String::from("    ");
    for col in 0..size {
        text.push_str(&format!("{:>5}", char::from(b'a' + col)));
    }
    text.push('\n');
    for row in 0..size {
        text.push_str(&format!("{:>4}", row + 1));
        for col in 0..size {
            let mv = Square::new(row, col);
            let cell = match board.get(mv) {
                Some(player) => player.symbol().to_string(),
                None => moves.iter().find(|m| m.mv == mv).map_or_else(
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
    scoring: Scoring,
    options: &BoardOptions,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> io::Result<ExitStatus> {
    if let Some(refusal) = super::one_board_only("best", board_arg) {
        writeln!(err, "error: {refusal}")?;
        return Ok(ExitStatus::BadInput);
    }
    let board: Board = match options.parse(board_arg) {
        Ok(board) => board,
        Err(error) => {
            writeln!(err, "error: {error}")?;
            return Ok(ExitStatus::BadInput);
        }
    };
    // With --solve, bigger boards are proven by the prover and the move
    // it stands behind is the answer; the search alone answers otherwise.
    let (analysis, proven) = if options.solve && !board.is_classic() {
        let mut ai = Ai::new();
        let mut analysis = ai.analyze(&board, options.score_limits());
        analysis.settled = ai.settle_all(&board);
        let proven = analysis.proven_move();
        (analysis, proven)
    } else {
        (analyze(&board, options.limits()), None)
    };
    match proven.or_else(|| best_counted(&analysis, scoring).map(|best| best.mv)) {
        Some(best) => {
            if coord {
                writeln!(out, "{}", best)?;
            } else {
                writeln!(out, "{} {}", best.row, best.col)?;
            }
            Ok(ExitStatus::Success)
        }
        None => {
            writeln!(err, "error: no move to make: {}", verdict(&analysis))?;
            Ok(ExitStatus::Failure)
        }
    }
}

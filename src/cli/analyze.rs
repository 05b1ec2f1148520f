//! `tictactoe analyze` and `tictactoe best`: the engine's reasoning for scripts and readers.

use std::io::{self, BufRead, Write};

use super::{BoardOptions, ExitStatus, ProofBounds, ScoresArg, Streams};
use clap::Args;
use tictactoe_engine::solve::{Goal, Keep, Stop, Unproven};
use tictactoe_engine::teach::line::Line;
use tictactoe_engine::{Ai, Analysis, Board, Limits, Method, Scoring, Square, analyze_by_search};
use tictactoe_game::json;
use tictactoe_game::present::{
    MoveRow, PROVEN_LEGEND, move_list, move_rows, proof_words, result_for, score_reason,
    scoring_legend, unproven_words, verdict,
};
use tictactoe_game::text::{read_line, signed, thousands};

/// The arguments of `tictactoe analyze`.
#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    /// The board, such as xox/oox/... (or - to read one board per line from standard input).
    #[arg(value_name = "BOARD | -", allow_hyphen_values = true)]
    pub board: String,
    /// One line of JSON per board instead of text.
    #[arg(long)]
    pub json: bool,
    /// How scores are counted and how far the search goes.
    #[command(flatten)]
    pub search: Search,
}

/// What `analyze` and `best` share: how scores are counted, the board's
/// shape and search limits, and how far the prover may go with --solve.
#[derive(Debug, Args)]
pub struct Search {
    /// How scores are counted.
    #[command(flatten)]
    pub scores: ScoresArg,
    /// Board shape and search limits.
    #[command(flatten)]
    pub options: BoardOptions,
    /// How far the prover may go with --solve.
    #[command(flatten)]
    pub bounds: ProofBounds,
}

impl AnalyzeArgs {
    /// Answers the board given, or every line of standard input for `-`.
    pub fn run(&self, io: &mut Streams) -> io::Result<ExitStatus> {
        let answer = Answer {
            json: self.json,
            scoring: self.search.scores.scores,
            // With --solve the prover proves every move; the scores keep --think-ms.
            limits: if self.search.options.solve {
                self.search.options.score_limits()
            } else {
                self.search.options.limits()
            },
        };
        run_analyze(
            &self.board,
            answer,
            &self.search.options,
            &self.search.bounds,
            io.input,
            io.out,
            io.err,
        )
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
    /// How scores are counted and how far the search goes. (With plain
    /// scores every win ties, and the first in reading order is best.)
    #[command(flatten)]
    pub search: Search,
}

impl BestArgs {
    /// Prints the best move of the board given.
    pub fn run(&self, io: &mut Streams) -> io::Result<ExitStatus> {
        run_best(
            &self.board,
            self.coord,
            self.search.scores.scores,
            &self.search.options,
            &self.search.bounds,
            io.out,
            io.err,
        )
    }
}

/// The JSON answer for an analysis and the line behind each move's score
/// (as [`Ai::lines`] gives them, in the analysis' order), with scores
/// counted by `scoring`.
pub fn report(analysis: &Analysis, lines: &[Line], scoring: Scoring) -> json::Analysis {
    let rows = move_rows(analysis, scoring);
    let best = rows.iter().find(|row| row.best);
    let board = analysis.board;
    let mover = board.to_move();
    json::Analysis {
        board,
        size: board.size(),
        k: board.k(),
        scores: scoring,
        to_move: analysis.to_move(),
        status: analysis.status(),
        value: best.and_then(|best| best.score),
        value_exact: analysis.value_exact(),
        result: analysis.result(),
        best: best.map(|best| best.mv),
        moves: rows
            .iter()
            .zip(lines.iter().map(Some).chain(std::iter::repeat(None)))
            .map(|(row, line)| json::AnalyzedMove {
                at: json::Located::new(Some(row.mv)),
                score: row.score,
                score_exact: row.score_exact,
                result: row.result(mover),
                unproven: row.unproven,
                line: line.map_or_else(Vec::new, |line| line.moves.clone()),
                line_proven: line.is_some_and(|line| line.proven),
            })
            .collect(),
        nodes: analysis.nodes(),
        method: match analysis.method {
            Method::Table => "table",
            Method::Search { .. } => "search",
        },
        verdict: verdict(analysis),
        proof: analysis.settled.as_ref().map(|settled| json::Proof {
            result: settled.value,
            keep: settled.keep.map(|keep| keep.mv()),
            keeps: settled.keep.map(|keep| match keep {
                Keep::Win(_) => Goal::Win,
                Keep::Hold(_) => Goal::Hold,
            }),
        }),
    }
}

/// Answers `analyze BOARD`, or every line of `input` when the argument is `-`.
pub fn run_analyze(
    board_arg: &str,
    answer: Answer,
    options: &BoardOptions,
    bounds: &ProofBounds,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> io::Result<ExitStatus> {
    if board_arg != "-" {
        return match options.parse(board_arg) {
            Ok(board) => {
                match write_analysis(&board, answer, options.solve.then_some(bounds), out)? {
                    Ok(()) => Ok(ExitStatus::Success),
                    Err(stop) => {
                        writeln!(err, "error: {}", bounds.stopped(stop))?;
                        Ok(bounds.status(stop))
                    }
                }
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
    // Answers are written in blocks, not a write a line: each block as far
    // as the whole lines read so far go, so that a program that writes one
    // board and waits for its answer has it before this waits for more.
    let mut input = io::BufReader::new(input);
    let mut out = io::BufWriter::new(out);
    loop {
        if !input.buffer().contains(&b'\n') {
            out.flush()?;
        }
        let Some(line) = read_line(&mut input)? else {
            break;
        };
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
                if let Err(stop) =
                    write_analysis(&board, answer, options.solve.then_some(bounds), &mut out)?
                {
                    status = bounds.status(stop);
                    out.flush()?;
                    writeln!(err, "line {number}: error: {}", bounds.stopped(stop))?;
                    // Ctrl-C ends the whole run, not one board.
                    if let ExitStatus::Signal(_) = status {
                        break;
                    }
                }
            }
            Err(error) => {
                status = ExitStatus::BadInput;
                if answer.json {
                    let record = json::LineError {
                        line: number,
                        input: &line.echo(),
                        error,
                    };
                    json::write_line(&mut out, &record)?;
                } else {
                    out.flush()?;
                    writeln!(err, "line {number}: error: {error}")?;
                }
            }
        }
    }
    out.flush()?;
    Ok(status)
}

/// Analyses one board with a fresh AI (no answer depends on the boards
/// before it), proving every move with the prover when `prove` (`--solve`),
/// and writes the answer.
fn write_analysis(
    board: &Board,
    answer: Answer,
    prove: Option<&ProofBounds>,
    out: &mut dyn Write,
) -> io::Result<Result<(), Stop>> {
    let mut ai = Ai::new();
    let analysis = match analysis_of(&mut ai, board, answer.limits, prove, answer.json) {
        Ok(analysis) => analysis,
        Err(stop) => return Ok(Err(stop)),
    };
    let lines = ai.lines(&analysis);
    if answer.json {
        json::write_line(out, &report(&analysis, &lines, answer.scoring))?;
    } else {
        out.write_all(describe(&analysis, &lines, answer.scoring).as_bytes())?;
    }
    Ok(Ok(()))
}

/// What `analyze` and `best` answer from, one and the same: the search's
/// scores within `limits`, and with `prove` (`--solve`) what the prover
/// proves of the position and then of each move ([`Ai::settle_all`]). The
/// stop when the position itself is not proven within the bounds, where
/// `solve` would stop too.
fn analysis_of(
    ai: &mut Ai,
    board: &Board,
    limits: Limits,
    prove: Option<&ProofBounds>,
    json: bool,
) -> Result<Analysis, Stop> {
    let mut analysis = ai.analyze(board, limits);
    if let Some(bounds) = prove {
        // Progress on standard error while the moves are proven.
        let watch = bounds.watch(json);
        ai.set_bounds(watch.bounds());
        let settled = ai.settle_all(board);
        watch.finish();
        if let Some(stop) = ai.stopped() {
            return Err(stop);
        }
        if let Some(settled) = settled {
            analysis.settle(settled);
        }
    }
    Ok(analysis)
}

/// The text report: the board with each empty cell's score, the moves in
/// words, then the articles' own summary lines and the best move's line.
pub fn describe(analysis: &Analysis, lines: &[Line], scoring: Scoring) -> String {
    let board = analysis.board;
    let win = board.geometry().win_score();
    let rows = move_rows(analysis, scoring);
    let mut text = format!(
        "Board {board} ({0}x{0}, {1} in a row)\n\n",
        board.size(),
        board.k()
    );
    text.push_str(&score_grid(&board, &rows));
    text.push('\n');
    let Some(to_move) = analysis.to_move() else {
        text.push_str(&format!("Game over: {}.\n", verdict(analysis)));
        return text;
    };
    let maximizer = scoring.maximizer(to_move);
    let whose = if maximizer == to_move {
        format!("for {to_move}")
    } else {
        format!("for {maximizer}, the lowest best for {to_move}")
    };
    let depth = if scoring == Scoring::Depth {
        ", the position after it at depth 0"
    } else {
        ""
    };
    text.push_str(&format!(
        "{to_move} to move. Score of each move {whose}{depth}:\n"
    ));
    for row in &rows {
        let marker = if row.best { "  <- best" } else { "" };
        text.push_str(&format!(
            "  {:<18} {:>4}  {}{marker}\n",
            square(row.mv),
            row.number(),
            row.meaning(),
        ));
    }
    text.push_str(&format!("Scores: {}.\n", scoring_legend(scoring, win)));
    if !analysis.exact() {
        text.push_str(&format!("Results: {PROVEN_LEGEND}.\n"));
    }
    if let Some(settled) = &analysis.settled {
        for why in [Unproven::Share, Unproven::Time, Unproven::Interrupted] {
            let left: Vec<String> = settled
                .unproven
                .iter()
                .filter(|(_, reason)| *reason == why)
                .map(|(mv, _)| mv.to_string())
                .collect();
            if !left.is_empty() {
                text.push_str(&format!(
                    "Left unproven ({}): {}.\n",
                    unproven_words(why),
                    left.join(" ")
                ));
            }
        }
    }
    let best = rows.iter().find(|row| row.best);
    if let Some(best) = best {
        text.push('\n');
        match best.score {
            Some(score) if analysis.exact() => {
                let reason = score_reason(score, best.outlook, to_move, scoring, win);
                text.push_str(&format!(
                    "The value of the best move is {score} ({reason})\n"
                ));
                text.push_str(&format!("The optimal move is: {}\n", square(best.mv)));
            }
            score => {
                if let Some(score) = score {
                    let estimated = if best.score_exact { "" } else { " (estimated)" };
                    text.push_str(&format!(
                        "The value of the best move found is: {}{estimated}\n",
                        signed(score)
                    ));
                }
                if best.outlook.is_known() {
                    text.push_str(&format!(
                        "The best move is: {}: {} (proven)\n",
                        square(best.mv),
                        result_for(best.outlook, to_move)
                    ));
                } else {
                    text.push_str(&format!(
                        "The best move found is: {}, not proven optimal\n",
                        square(best.mv)
                    ));
                }
            }
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
            let result = result_for(best.outlook, to_move);
            text.push_str(&format!("Best play: {moves}: {result}\n"));
        } else {
            text.push_str(&format!("Best play as far as the search looked: {moves}\n"));
        }
    }
    text.push_str(&format!("Verdict: {}\n", verdict(analysis)));
    // The proof's own line when it names a move; its value alone is the verdict's.
    let keeps = analysis.settled.as_ref().is_some_and(|s| s.keep.is_some());
    if let Some(words) = proof_words(analysis).filter(|_| keeps && !analysis.exact()) {
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

/// A square in both notations: `c3 (row 2, col 2)`.
fn square(mv: Square) -> String {
    format!("{mv} (row {}, col {})", mv.row, mv.col)
}

/// The board with marks where they are and each empty cell's score in its
/// place, labelled as the game labels it: columns a, b, c… and rows 1, 2, 3….
fn score_grid(board: &Board, rows: &[MoveRow]) -> String {
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
                None => rows
                    .iter()
                    .find(|row| row.mv == mv)
                    .map_or_else(|| ".".to_string(), MoveRow::number),
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
    bounds: &ProofBounds,
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
    // The best move every view names (Analysis::best_by), from the
    // analysis `analyze` answers with.
    let mut ai = Ai::new();
    let limits = if options.solve {
        options.score_limits()
    } else {
        options.limits()
    };
    let prove = options.solve.then_some(bounds);
    let analysis = match analysis_of(&mut ai, &board, limits, prove, false) {
        Ok(analysis) => analysis,
        Err(stop) => {
            writeln!(err, "error: {}", bounds.stopped(stop))?;
            return Ok(bounds.status(stop));
        }
    };
    match analysis.best_by(scoring).map(|best| best.mv) {
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

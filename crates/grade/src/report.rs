//! What grading says: the heading, a line for each failure of the program
//! as it happens, and the summary (`N/4520 right`, the first wrong
//! positions with GeeksforGeeks' minimax on each, the diagnosis), in text
//! or as one JSON object per position and one for the summary.

use tictactoe_engine::teach::reference::Algorithm;
use tictactoe_engine::{Board, Limits, Square, analyze, find_best_move};

use super::child::{Program, Trouble, seconds};
use super::diagnosis::{Diagnosis, Named};
use super::protocol::{Answer, Ask, Said};
use super::{Ended, Failure, Fault, Graded, LEAST_TIME, Options, RESTARTS, Summary, Ties};
use tictactoe_game::json::{self, Scores};
use tictactoe_game::present::{move_list, result_for, scoring_legend};
use tictactoe_game::text::{count, signed, thousands};

/// How many wrong positions the text report shows, unless told otherwise.
pub const DEFAULT_SHOWN: usize = 3;

/// A square with GeeksforGeeks' indices: `c3 (row 2, col 2)`.
pub fn square_words(square: Square) -> String {
    format!("{square} (row {}, col {})", square.row, square.col)
}

/// The moves in words: `c3`, `a1 or c3`, `a1, c1 or c3`.
fn either(squares: &[Square]) -> String {
    match squares {
        [] => "none".to_string(),
        [one] => square_words(*one),
        [init @ .., last] => {
            let init: Vec<String> = init.iter().map(Square::to_string).collect();
            format!("{} or {last}", init.join(", "))
        }
    }
}

/// Scores in words: `a3 -8, b3 0, c3 +9`.
fn scores_words(scores: impl IntoIterator<Item = (Square, i64)>) -> String {
    let words: Vec<String> = scores
        .into_iter()
        .map(|(square, score)| format!("{square} {}", signed_wide(score)))
        .collect();
    if words.is_empty() {
        "none".to_string()
    } else {
        words.join(", ")
    }
}

fn signed_wide(score: i64) -> String {
    if score > 0 {
        format!("+{score}")
    } else {
        score.to_string()
    }
}

/// What is asked, in a sentence.
fn asked_words(options: &Options) -> String {
    let asked = match (options.ask, options.ties) {
        (Ask::Best, Ties::Any) => "the best move (any of equally good moves is right)",
        (Ask::Best, Ties::First) => {
            "the best move (of equally good moves, the first in reading order, as the articles keep it)"
        }
        (Ask::Best, Ties::Last) => {
            "the best move (of equally good moves, the last in reading order)"
        }
        (Ask::Scores, _) => "every legal move's score",
    };
    let calls = match options.calls {
        Some(algorithm) => format!(
            ", ending with `calls N`: the calls {} makes, as trace numbers them",
            algorithm_words(algorithm)
        ),
        None => String::new(),
    };
    format!("{asked}{calls}")
}

fn algorithm_words(algorithm: Algorithm) -> &'static str {
    match algorithm {
        Algorithm::Minimax => "plain minimax",
        Algorithm::AlphaBeta => "alpha-beta",
    }
}

/// The heading: what is run, on how many positions, asking what.
pub fn heading(program: &Program, positions: usize, options: &Options) -> String {
    let win = Board::new().geometry().win_score();
    format!(
        "Grading `{program}` on {}, simplest first.\n\
         Asked: {}.\n\
         Scores: {} (GeeksforGeeks' minimax, --scores {}).\n\
         Time: {} for the empty board, a share of it by the size of its minimax tree \
         elsewhere (at least {}).\n\n",
        count(positions as u64, "position", "positions"),
        asked_words(options),
        scoring_legend(options.scoring, win),
        options.scoring.name(),
        seconds(options.timeout),
        seconds(LEAST_TIME.min(options.timeout)),
    )
}

/// One line for a failure of the program, as it happens.
pub fn failure_line(failure: &Failure) -> String {
    let killed = match failure.trouble {
        Trouble::Exited {
            status: Some(_), ..
        } => "",
        _ => "killed, ",
    };
    let next = match failure.restarts_left {
        Some(left) => format!(
            "{killed}started again for the next position ({} left)",
            count(u64::from(left), "restart", "restarts")
        ),
        None => format!(
            "{killed}grading stops (it was started again {})",
            count(u64::from(RESTARTS), "time", "times")
        ),
    };
    format!(
        "Position {} ({}): the program {}; {next}.\n",
        failure.number, failure.board, failure.trouble
    )
}

/// The move an answer named, in words, or what it was.
fn yours_words(answer: &Answer, board: &Board) -> String {
    match &answer.said {
        Said::Move { row, col } => match answer.square(board) {
            Some(square) if board.get(square).is_some() => {
                format!("{} (taken)", square_words(square))
            }
            Some(square) => square_words(square),
            None => format!("row {row}, col {col} (off the board)"),
        },
        Said::Scores(scores) => scores_words(scores.iter().copied()),
    }
}

/// The line of best play after `mv`: `c3 X: X wins in 1`.
fn best_line(board: &Board, mv: Square) -> Option<String> {
    let analysis = analyze(board, Limits::ToTheEnd);
    let scored = analysis.moves.iter().find(|scored| scored.mv == mv)?;
    let result = result_for(analysis.outlook_of(*scored), board.to_move());
    let mut moves = vec![mv];
    let mut after = board.play(mv).ok()?;
    while let Some(next) = find_best_move(&after) {
        moves.push(next);
        after = after.play(next).ok()?;
    }
    Some(format!("{}: {result}", move_list(board, moves)))
}

/// One wrong position, as the text report shows it.
fn wrong_words(graded: &Graded, options: &Options) -> String {
    let board = &graded.board;
    let to_move = board.to_move();
    let mut out = format!("  #{}  {board}  {to_move} to move\n", graded.number);
    let grid = board.to_grid();
    for row in grid.lines() {
        out.push_str(&format!("        {row}\n"));
    }
    let answers_wrong = graded
        .faults
        .iter()
        .any(|fault| !matches!(fault, Fault::Calls { .. }));
    if answers_wrong {
        out.push_str(&format!(
            "    yours: {}\n",
            yours_words(&graded.answer, board)
        ));
        let right = match options.ask {
            Ask::Best => either(&graded.expected.moves),
            Ask::Scores => scores_words(
                graded
                    .expected
                    .scores
                    .iter()
                    .map(|&(square, score)| (square, i64::from(score))),
            ),
        };
        out.push_str(&format!("    right: {right}\n"));
    }
    for fault in &graded.faults {
        match fault {
            Fault::Calls { yours, right } => out.push_str(&format!(
                "    calls: yours {}, right {}\n",
                yours.map_or_else(|| "missing".to_string(), thousands),
                thousands(*right)
            )),
            Fault::ScoredTaken(square) => {
                out.push_str(&format!("    {square} is taken: it has no score\n"));
            }
            _ => {}
        }
    }
    // Asked for scores, the right answer is already GeeksforGeeks' minimax's.
    if options.ask == Ask::Best || !answers_wrong {
        let scores: Vec<String> = graded
            .expected
            .scores
            .iter()
            .map(|&(square, score)| format!("{square} {}", signed(score)))
            .collect();
        out.push_str(&format!(
            "    GeeksforGeeks' minimax: {}\n",
            scores.join(", ")
        ));
    }
    if let Some(&best) = graded.expected.moves.first()
        && let Some(line) = best_line(board, best)
    {
        out.push_str(&format!("    line behind {best}: {line}\n"));
    }
    out
}

/// The diagnosis in words.
fn diagnosis_words(diagnosis: &Diagnosis, options: &Options) -> String {
    let mut out = String::new();
    let mut say = |named: &Option<Named>, unexplained: bool, what: &str| {
        if let Some(named) = named {
            out.push_str(&format!(
                "Diagnosis ({}): {}\n",
                named.slip.name(),
                named.slip.sentence(options)
            ));
        } else if unexplained {
            out.push_str(&format!(
                "No usual mistake explains every wrong {what}: compare yours with the article's line by line on the first position above.\n"
            ));
        }
    };
    say(
        &diagnosis.answers,
        diagnosis.answers_unexplained,
        match options.ask {
            Ask::Best => "move",
            Ask::Scores => "score",
        },
    );
    say(
        &diagnosis.calls,
        diagnosis.calls_unexplained,
        "count of calls",
    );
    out
}

/// The summary: `N/M right`, the first `shown` wrong positions, failures, the diagnosis.
pub fn summary_text(summary: &Summary, options: &Options, shown: usize) -> String {
    let mut out = String::new();
    if let Ended::NotStarted(why) = &summary.ended {
        return format!("The program could not be started: {why}.\n");
    }
    out.push_str(&format!(
        "{}/{} right\n",
        thousands(summary.right() as u64),
        thousands(summary.positions as u64)
    ));
    let wrong: Vec<&Graded> = summary.graded.iter().filter(|g| !g.right()).collect();
    let failed = summary.failures.len();
    let mut notes = Vec::new();
    if !wrong.is_empty() {
        notes.push(format!("{} wrong", thousands(wrong.len() as u64)));
    }
    if failed > 0 {
        notes.push(format!(
            "{} lost to the program's failures",
            thousands(failed as u64)
        ));
    }
    let unasked = summary.positions - summary.reached();
    if unasked > 0 {
        notes.push(format!("{} not asked", thousands(unasked as u64)));
    }
    if !notes.is_empty() {
        out.push_str(&format!("({})\n", notes.join(", ")));
    }
    match summary.ended {
        Ended::GaveUp => out.push_str(&format!(
            "Grading stopped after the program failed {} times: {} of {} positions reached.\n",
            failed,
            thousands(summary.reached() as u64),
            thousands(summary.positions as u64)
        )),
        Ended::Interrupted => out.push_str(&format!(
            "Grading was stopped: {} of {} positions reached.\n",
            thousands(summary.reached() as u64),
            thousands(summary.positions as u64)
        )),
        _ => {}
    }
    if !wrong.is_empty() && shown > 0 {
        let first = wrong.len().min(shown);
        out.push_str(&format!(
            "\nWrong answers (the first {first} of {}, simplest first):\n\n",
            thousands(wrong.len() as u64)
        ));
        for graded in wrong.iter().take(first) {
            out.push_str(&wrong_words(graded, options));
            out.push('\n');
        }
    } else if !wrong.is_empty() {
        out.push('\n');
    }
    let diagnosis = diagnosis_words(&summary.diagnosis, options);
    if !diagnosis.is_empty() {
        if shown == 0 {
            out.push('\n');
        }
        out.push_str(&diagnosis);
    }
    out
}

/// What a fault says, for JSON.
fn fault_words(fault: &Fault) -> String {
    match fault {
        Fault::OffBoard => "the move is off the board".into(),
        Fault::Taken(square) => format!("{square} is taken"),
        Fault::NotBest(square) => format!("{square} is not a best move"),
        Fault::Score {
            square,
            yours: Some(yours),
            right,
        } => format!(
            "{square} scores {}, not {}",
            signed(*right),
            signed_wide(*yours)
        ),
        Fault::Score {
            square,
            yours: None,
            right,
        } => format!("no score for {square} ({})", signed(*right)),
        Fault::ScoredTaken(square) => format!("{square} is taken: it has no score"),
        Fault::Calls {
            yours: Some(yours),
            right,
        } => format!("{right} calls, not {yours}"),
        Fault::Calls { yours: None, right } => {
            format!("no `calls N` at the end ({right} calls)")
        }
    }
}

/// The JSON of a position answered.
pub fn graded_json(graded: &Graded) -> json::Graded {
    let board = graded.board;
    let yours = match &graded.answer.said {
        &Said::Move { row, col } => json::Yours::Move {
            mv: graded.answer.square(&board),
            row,
            col,
        },
        Said::Scores(scores) => json::Yours::Scores {
            scores: Scores(scores.clone()),
        },
    };
    let expected = &graded.expected;
    json::Graded {
        number: graded.number,
        board,
        to_move: board.to_move(),
        answer: graded.line.clone(),
        right: graded.right(),
        yours,
        calls: graded.answer.calls,
        expected: json::Expected {
            moves: expected.moves.clone(),
            scores: Scores(
                expected
                    .scores
                    .iter()
                    .map(|&(square, score)| (square, i64::from(score)))
                    .collect(),
            ),
            calls: expected.calls,
        },
        faults: graded.faults.iter().map(fault_words).collect(),
    }
}

/// The JSON of a failure of the program.
pub fn failure_json(failure: &Failure) -> json::Failed {
    json::Failed {
        number: failure.number,
        board: failure.board,
        trouble: failure.trouble.to_string(),
        restarts_left: failure.restarts_left,
    }
}

/// The summary's JSON: `{"summary": {...}}`.
pub fn summary_json(summary: &Summary, options: &Options) -> json::GradeSummary {
    let named = |named: &Option<Named>| {
        named.as_ref().map(|named| json::Named {
            mistake: named.slip.name(),
            explains: named.explains,
            says: named.slip.sentence(options),
        })
    };
    json::GradeSummary {
        summary: json::GradeTotals {
            positions: summary.positions,
            reached: summary.reached(),
            right: summary.right(),
            wrong: summary.graded.len() - summary.right(),
            failed: summary.failures.len(),
            ended: summary.ended.name(),
            not_started: summary.ended.not_started(),
            ask: options.ask.name(),
            scores: options.scoring,
            ties: options.ties.name(),
            diagnosis: json::Diagnosis {
                answers: named(&summary.diagnosis.answers),
                calls: named(&summary.diagnosis.calls),
            },
        },
    }
}

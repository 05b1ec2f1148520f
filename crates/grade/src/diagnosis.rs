//! The usual mistakes, named: which one explains a student's wrong answers.
//!
//! Each [`Slip`] predicts what a program with that mistake answers about a
//! position: the engine's [`mistake`](tictactoe_engine::teach::mistake)
//! variants of the article's minimax for the scores, the wrong rule for
//! ties, a count of calls off by the first call or by pruning. A slip is
//! named when its prediction matches every answer the program gave and at
//! least one of them is wrong; of several such, the nearest: the one that
//! differs from the right answers on the fewest positions. Moves or scores
//! and calls are diagnosed apart.

use tictactoe_engine::teach::mistake::{Mistake, move_values};
use tictactoe_engine::teach::reference::Algorithm;
use tictactoe_engine::{Board, Scoring, Square, first_best};

use super::protocol::{Ask, Said};
use super::{Fault, Graded, Options, Ties, calls};

/// A usual mistake.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Slip {
    /// One of the article's lines changed (see [`Mistake`]).
    Minimax(Mistake),
    /// On equal scores the last move kept, where the first is asked for (`>=` for `>`).
    KeepsLast,
    /// On equal scores the first move kept, where the last is asked for.
    KeepsFirst,
    /// The squares tried column by column, so another of equal moves is kept.
    ColumnOrder,
    /// The count of calls leaves out the call on the position itself.
    FirstCallNotCounted,
    /// The count is alpha-beta's where plain minimax's is asked for.
    Pruned,
    /// The count is plain minimax's where alpha-beta's is asked for.
    NotPruned,
}

impl Slip {
    /// Its name, for tests and JSON: `no-depth`, `depth-one-off`,
    /// `x-always-max`, `player-always-x`, `wrong-side`, `full-board-first`, `keeps-last`,
    /// `keeps-first`, `column-order`, `first-call-not-counted`, `pruned`,
    /// `not-pruned` (and `scores-NAME` for another way of counting).
    pub fn name(self) -> String {
        match self {
            Slip::Minimax(Mistake::Scores(Scoring::Plain)) => "no-depth".into(),
            Slip::Minimax(Mistake::Scores(other)) => format!("scores-{}", other.name()),
            Slip::Minimax(Mistake::Deeper | Mistake::Shallower) => "depth-one-off".into(),
            Slip::Minimax(Mistake::XAlwaysMax) => "x-always-max".into(),
            Slip::Minimax(Mistake::PlayerAlwaysX) => "player-always-x".into(),
            Slip::Minimax(Mistake::WrongSide) => "wrong-side".into(),
            Slip::Minimax(Mistake::FullBoardFirst) => "full-board-first".into(),
            Slip::KeepsLast => "keeps-last".into(),
            Slip::KeepsFirst => "keeps-first".into(),
            Slip::ColumnOrder => "column-order".into(),
            Slip::FirstCallNotCounted => "first-call-not-counted".into(),
            Slip::Pruned => "pruned".into(),
            Slip::NotPruned => "not-pruned".into(),
        }
    }

    /// What the mistake is, in a sentence a student understands, pointing
    /// at the line of the article it breaks.
    pub fn sentence(self, options: &Options) -> String {
        match self {
            Slip::Minimax(Mistake::Scores(Scoring::Plain)) => {
                "Your minimax scores every win +10 however deep it lies, so it may take a slow \
                 win over a quick one (or a quick loss over a slow one). GeeksforGeeks subtracts \
                 the depth: \"return WIN_SCORE - depth\" and \"return LOOSE_SCORE + depth\" \
                 (a win in 2 moves scores 10 - 2 = 8, one in 4 scores 6), though its code \
                 listing leaves it out."
                    .into()
            }
            Slip::Minimax(Mistake::Scores(other)) => format!(
                "Your scores are counted as `--scores {}` counts them, where `--scores {}` is \
                 asked for.",
                other.name(),
                options.scoring.name()
            ),
            Slip::Minimax(Mistake::Deeper) => {
                "Every win and loss you score is one step nearer zero than GeeksforGeeks' \
                 minimax: your depth starts one ply too deep. The article's findBestMove \
                 scores each move with \"minimax(board, 0, false)\" on the board after it."
                    .into()
            }
            Slip::Minimax(Mistake::Shallower) => {
                "Every win and loss you score is one step further from zero than \
                 GeeksforGeeks' minimax: your depth starts one ply too shallow. The article's \
                 findBestMove scores each move with \"minimax(board, 0, false)\" on the board \
                 after it."
                    .into()
            }
            Slip::Minimax(Mistake::XAlwaysMax) => {
                "With O to move your program places O's mark but still scores for X and keeps \
                 the highest score, which is O's worst move. The side choosing the move is the \
                 maximizer: GeeksforGeeks' evaluate gives +10 to `player`, and findBestMove \
                 keeps the highest score for `player`; with O to move, `player` is O."
                    .into()
            }
            Slip::Minimax(Mistake::PlayerAlwaysX) => {
                "With O to move your program places X's mark, as if X moved again: \
                 GeeksforGeeks declares \"char player = 'x', opponent = 'o';\" once, for its \
                 example with X to move. Set `player` to the side to move (X when X and O \
                 have as many marks, else O, as CS50's player(board) does) and `opponent` to \
                 the other."
                    .into()
            }
            Slip::Minimax(Mistake::WrongSide) => {
                "You score each move for the opponent, so you keep the worst move. In \
                 GeeksforGeeks' evaluate, +10 is a line of `player`, the side choosing the \
                 move, and findBestMove calls \"minimax(board, 0, false)\": after the move \
                 the opponent, the minimizer, replies."
                    .into()
            }
            Slip::Minimax(Mistake::FullBoardFirst) => {
                "A full board with a line on it is scored as a draw: your minimax asks whether \
                 moves are left before it looks for a winner. GeeksforGeeks evaluates first \
                 (\"int score = evaluate(board); if (score == 10) return score;\") and only \
                 then \"if (isMovesLeft(board)==false) return 0;\"."
                    .into()
            }
            Slip::KeepsLast => {
                "On equal scores you keep the last move. GeeksforGeeks replaces its best move \
                 only \"if (moveVal > bestVal)\", strictly better, so the first best move in \
                 reading order stays (freeCodeCamp: on a tie only the first is stored)."
                    .into()
            }
            Slip::KeepsFirst => "On equal scores you keep the first move, as the articles do \
                 (\"if (moveVal > bestVal)\"); `--ties last` asks for the last: replace the \
                 best move on equal scores too (>=)."
                .into(),
            Slip::ColumnOrder => {
                "You try the squares column by column, so of equal moves you keep another \
                 than the article. GeeksforGeeks walks the board row by row: \
                 \"for (int i = 0; i<3; i++) for (int j = 0; j<3; j++)\", i the row."
                    .into()
            }
            Slip::FirstCallNotCounted => {
                "Your count is one short: freeCodeCamp counts the call on the position itself \
                 as the first (FC1; 9 calls on its board o.x/x.x/.oo). Count at the top of \
                 minimax, and call it on the position itself."
                    .into()
            }
            Slip::Pruned => {
                "Your count is alpha-beta's: it prunes, where plain minimax visits every \
                 position. Grade it with --calls --alpha-beta."
                    .into()
            }
            Slip::NotPruned => {
                "Your count is plain minimax's: nothing is pruned. Stop trying replies once \
                 alpha >= beta."
                    .into()
            }
        }
    }
}

/// A slip that explains the answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named {
    /// The mistake.
    pub slip: Slip,
    /// Wrong answers it explains (it explains every answer given).
    pub explains: usize,
}

/// What explains the wrong answers: one slip for the moves or scores, one
/// for the counts of calls, where one does.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Diagnosis {
    /// The slip behind the wrong moves or scores.
    pub answers: Option<Named>,
    /// The slip behind the wrong counts of calls.
    pub calls: Option<Named>,
    /// True when some moves or scores are wrong and no slip explains them all.
    pub answers_unexplained: bool,
    /// True when some counts are wrong and no slip explains them all.
    pub calls_unexplained: bool,
}

/// What a slip predicts about one position.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Prediction {
    /// Any of these moves.
    Moves(Vec<Square>),
    /// These scores.
    Scores(Vec<(Square, i32)>),
    /// This count.
    Calls(u64),
    /// Nothing: the slip does not apply here.
    Nothing,
}

/// The slips that could explain wrong moves or scores under `options`.
fn answer_slips(options: &Options) -> Vec<Slip> {
    let mut slips: Vec<Slip> = Scoring::ALL
        .into_iter()
        .filter(|&other| other != options.scoring)
        .map(|other| Slip::Minimax(Mistake::Scores(other)))
        .collect();
    slips.extend(
        [
            Mistake::Deeper,
            Mistake::Shallower,
            Mistake::XAlwaysMax,
            Mistake::PlayerAlwaysX,
            Mistake::WrongSide,
            Mistake::FullBoardFirst,
        ]
        .map(Slip::Minimax),
    );
    if options.ask == Ask::Best {
        match options.ties {
            Ties::Any => {}
            Ties::First => slips.extend([Slip::KeepsLast, Slip::ColumnOrder]),
            Ties::Last => slips.extend([Slip::KeepsFirst, Slip::ColumnOrder]),
        }
    }
    slips
}

/// The slips that could explain wrong counts of calls.
fn call_slips(options: &Options) -> Vec<Slip> {
    match options.calls {
        None => Vec::new(),
        Some(Algorithm::Minimax) => vec![Slip::FirstCallNotCounted, Slip::Pruned],
        Some(Algorithm::AlphaBeta) => vec![Slip::FirstCallNotCounted, Slip::NotPruned],
    }
}

/// The moves of `scores` in the order a column-by-column loop tries them.
fn by_columns(scores: &[(Square, i32)]) -> Vec<(Square, i32)> {
    let mut columns = scores.to_vec();
    columns.sort_by_key(|(square, _)| (square.col, square.row));
    columns
}

/// What `slip` predicts about `board`, given the right answers.
fn predict(slip: Slip, graded: &Graded, options: &Options) -> Prediction {
    let board: &Board = &graded.board;
    let right = &graded.expected;
    let moves = |scores: Vec<(Square, i32)>| match options.ask {
        Ask::Best => Prediction::Moves(options.ties.right(&scores)),
        Ask::Scores => Prediction::Scores(scores),
    };
    match slip {
        Slip::Minimax(mistake) => moves(move_values(board, options.scoring, mistake)),
        Slip::KeepsLast => Prediction::Moves(Ties::Last.right(&right.scores)),
        Slip::KeepsFirst => Prediction::Moves(Ties::First.right(&right.scores)),
        Slip::ColumnOrder => {
            let columns = by_columns(&right.scores);
            let pick = match options.ties {
                Ties::Last => first_best(columns.iter().rev(), |scored| scored.1),
                _ => first_best(columns.iter(), |scored| scored.1),
            };
            Prediction::Moves(pick.map(|scored| scored.0).into_iter().collect())
        }
        Slip::FirstCallNotCounted => match right.calls {
            Some(count) => Prediction::Calls(count.saturating_sub(1)),
            None => Prediction::Nothing,
        },
        Slip::Pruned => Prediction::Calls(calls(board, Algorithm::AlphaBeta, options.scoring)),
        Slip::NotPruned => Prediction::Calls(calls(board, Algorithm::Minimax, options.scoring)),
    }
}

/// True when the answer in `graded` is what `prediction` says.
fn matches(prediction: &Prediction, graded: &Graded) -> bool {
    let answer = &graded.answer;
    match prediction {
        Prediction::Moves(moves) => answer
            .square(&graded.board)
            .is_some_and(|square| moves.contains(&square)),
        Prediction::Scores(scores) => {
            let Said::Scores(given) = &answer.said else {
                return false;
            };
            scores
                .iter()
                .all(|&(square, score)| answer.score(square) == Some(i64::from(score)))
                && given
                    .iter()
                    .all(|(square, _)| graded.board.get(*square).is_none())
        }
        Prediction::Calls(count) => answer.calls == Some(*count),
        Prediction::Nothing => false,
    }
}

/// True when the prediction is also what the right answer asks for.
fn is_right(prediction: &Prediction, graded: &Graded) -> bool {
    let right = &graded.expected;
    match prediction {
        Prediction::Moves(moves) => *moves == right.moves,
        Prediction::Scores(scores) => *scores == right.scores,
        Prediction::Calls(count) => right.calls == Some(*count),
        Prediction::Nothing => true,
    }
}

/// Whether a fault is about the count of calls.
fn is_call_fault(fault: &Fault) -> bool {
    matches!(fault, Fault::Calls { .. })
}

/// The nearest of `slips` that explains every answer, judging each
/// position's answer by the faults `relevant` picks.
fn nearest(
    slips: &[Slip],
    graded: &[Graded],
    options: &Options,
    relevant: fn(&Fault) -> bool,
) -> (Option<Named>, bool) {
    let wrong: Vec<&Graded> = graded
        .iter()
        .filter(|graded| graded.faults.iter().any(relevant))
        .collect();
    if wrong.is_empty() {
        return (None, false);
    }
    let mut best: Option<(usize, Named)> = None;
    for &slip in slips {
        let mut differs = 0;
        let fits = graded.iter().all(|graded| {
            let prediction = predict(slip, graded, options);
            if !is_right(&prediction, graded) {
                differs += 1;
            }
            matches(&prediction, graded)
        });
        if fits && best.as_ref().is_none_or(|(most, _)| differs < *most) {
            best = Some((
                differs,
                Named {
                    slip,
                    explains: wrong.len(),
                },
            ));
        }
    }
    let named = best.map(|(_, named)| named);
    let unexplained = named.is_none();
    (named, unexplained)
}

/// The slips that explain the wrong answers among `graded`.
pub fn diagnose(graded: &[Graded], options: &Options) -> Diagnosis {
    let answer_fault = |fault: &Fault| !is_call_fault(fault);
    let (answers, answers_unexplained) =
        nearest(&answer_slips(options), graded, options, answer_fault);
    let (calls, calls_unexplained) = nearest(&call_slips(options), graded, options, is_call_fault);
    Diagnosis {
        answers,
        calls,
        answers_unexplained,
        calls_unexplained,
    }
}

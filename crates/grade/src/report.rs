//! What grading says: the heading, a line for each failure of the program
//! and the first wrong answer as they happen, a line as each size of
//! position is done, and the summary (`N/4520 right`, the diagnosis, the
//! first example of each mistake with the line that refutes the student's
//! move), in text; or, in the part at the end of this file, as JSON: one
//! object per position and one for the summary, and Gradescope's
//! `results.json`.

use tictactoe_engine::teach::reference::Algorithm;
use tictactoe_engine::{Board, Scoring, Square};

use super::child::{Program, Trouble, seconds};
use super::diagnosis::{Article, Diagnosis, Named, likeliest};
use super::players::Model;
use super::protocol::{Answer, Ask, Said};
use super::words::{after, printed, sentence};
use super::{Ended, Failure, Fault, Graded, LEAST_TIME, Options, RESTARTS, Summary, Ties};
use tictactoe_game::json;
use tictactoe_game::present::scoring_legend;
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

/// Whose minimax the right scores are, in the article's words.
fn scores_source(options: &Options) -> String {
    let flag = options.scoring.name();
    match (options.article, options.scoring) {
        (Article::Fcc, Scoring::Depth) => format!(
            "GeeksforGeeks' minimax with the depth, --scores {flag}; freeCodeCamp's code counts \
             the bare ±10: --scores plain"
        ),
        (Article::Fcc, _) => format!("freeCodeCamp's minimax, --scores {flag}"),
        (Article::Cs50, Scoring::Cs50) => format!("CS50's utility, --scores {flag}"),
        (Article::Gfg, Scoring::Plain) => {
            format!("GeeksforGeeks' minimax as its code listing counts, --scores {flag}")
        }
        _ => format!("GeeksforGeeks' minimax, --scores {flag}"),
    }
}

/// The heading: what is run, on how many positions, asking what, in whose
/// words (`why`: how the article was chosen).
pub fn heading(program: &Program, positions: usize, options: &Options, why: &str) -> String {
    let win = Board::new().geometry().win_score();
    format!(
        "Grading `{program}` on {}, simplest first.\n\
         Asked: {}.\n\
         Scores: {} ({}).\n\
         Words: {} ({why}; --article gfg, fcc or cs50 says another).\n\
         Time: {} for the empty board, a share of it by the size of its minimax tree \
         elsewhere (at least {}).\n\n",
        count(positions as u64, "position", "positions"),
        asked_words(options),
        scoring_legend(options.scoring, win),
        scores_source(options),
        options.article.possessive(),
        seconds(options.timeout),
        seconds(LEAST_TIME.min(options.timeout)),
    )
}

/// One line for a failure of the program, as it happens.
pub fn failure_line(failure: &Failure) -> String {
    let killed = match failure.trouble {
        Trouble::Exited {
            status: Some(_), ..
        }
        | Trouble::Memory { .. } => "",
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

/// The student's wrong move on `graded`'s board, if it answered one.
fn wrong_move(graded: &Graded) -> Option<Square> {
    let square = graded.answer.square(&graded.board)?;
    let legal = graded.board.get(square).is_none();
    (legal && !graded.expected.moves.contains(&square)).then_some(square)
}

/// One wrong position, as the text report shows it; `shows` names the
/// mistakes it is the first example of.
fn wrong_words(graded: &Graded, options: &Options, named: Option<&Named>, shows: &str) -> String {
    let board = &graded.board;
    let to_move = board.to_move();
    let mut out = format!("  #{}  {board}  {to_move} to move{shows}\n", graded.number);
    for row in board.to_grid().lines() {
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
    // Asked for scores, the right answer is already the reference's scores.
    if options.ask == Ask::Best || !answers_wrong {
        let scores: Vec<String> = graded
            .expected
            .scores
            .iter()
            .map(|&(square, score)| format!("{square} {}", signed(score)))
            .collect();
        out.push_str(&format!("    right scores: {}\n", scores.join(", ")));
    }
    let model = named.map(|named| &named.model);
    if let Some(mine) = wrong_move(graded)
        && let Some(line) = after(board, mine, model, options.article)
    {
        out.push_str(&format!("    after your {mine}: {line}\n"));
    }
    if answers_wrong
        && let Some(&best) = graded.expected.moves.first()
        && let Some(line) = after(board, best, None, options.article)
    {
        out.push_str(&format!("    after {best}: {line}\n"));
    }
    out
}

/// The diagnosis of the moves or scores in words.
fn named_words(named: &Named, options: &Options) -> String {
    let slips = &named.model.slips;
    let mut out = format!("Diagnosis ({}): ", named.name());
    if !named.explains_all() {
        let exceptions: Vec<String> = named
            .exceptions
            .iter()
            .take(5)
            .map(|number| format!("#{number}"))
            .collect();
        let more = if named.exceptions.len() > 5 {
            ", …"
        } else {
            ""
        };
        out.push_str(&format!(
            "it explains {} of the {} wrong answers, and not {}{more}: compare those with the \
             article line by line. ",
            thousands(named.explains as u64),
            thousands(named.wrong as u64),
            exceptions.join(", "),
        ));
    }
    if named.model.is_printed() {
        out.push_str(&printed(options.article, options.scoring));
        out.push('\n');
        for &slip in slips {
            out.push_str(&format!(
                "  {}: {}\n",
                slip.name(),
                sentence(slip, options.article, options.scoring)
            ));
        }
    } else if let [slip] = slips.as_slice() {
        out.push_str(&sentence(*slip, options.article, options.scoring));
        out.push('\n');
    } else {
        out.push_str(&format!("{} mistakes together.\n", slips.len()));
        for &slip in slips {
            out.push_str(&format!(
                "  {}: {}\n",
                slip.name(),
                sentence(slip, options.article, options.scoring)
            ));
        }
    }
    out
}

/// The diagnosis in words.
fn diagnosis_words(diagnosis: &Diagnosis, options: &Options) -> String {
    let mut out = String::new();
    if let Some(named) = &diagnosis.answers {
        out.push_str(&named_words(named, options));
    } else if diagnosis.answers_unexplained {
        let what = match options.ask {
            Ask::Best => "move",
            Ask::Scores => "score",
        };
        out.push_str(&format!(
            "No usual mistake explains most wrong {what}s: compare yours with the article's line \
             by line on the first position above.\n"
        ));
    }
    if let Some(named) = &diagnosis.calls {
        out.push_str(&format!(
            "Diagnosis ({}): {}\n",
            named.slip.name(),
            named.slip.sentence()
        ));
    } else if diagnosis.calls_unexplained {
        out.push_str(
            "No usual mistake explains every wrong count of calls: compare yours with the \
             article's line by line on the first position above.\n",
        );
    }
    out
}

/// The wrong positions shown: the first example of each mistake named,
/// then the first wrong ones, simplest first, `shown` at least; each with
/// the names of the mistakes it is the first example of.
fn shown_positions(summary: &Summary, shown: usize) -> Vec<(&Graded, Vec<&'static str>)> {
    if shown == 0 {
        return Vec::new();
    }
    let mut picked: Vec<(&Graded, Vec<&'static str>)> = Vec::new();
    if let Some(named) = &summary.diagnosis.answers {
        for &(slip, number) in &named.examples {
            let Some(graded) = summary.graded.iter().find(|one| one.number == number) else {
                continue;
            };
            match picked.iter_mut().find(|(one, _)| one.number == number) {
                Some((_, names)) => names.push(slip.name()),
                None => picked.push((graded, vec![slip.name()])),
            }
        }
    }
    for graded in summary.graded.iter().filter(|one| !one.right()) {
        if picked.len() >= shown {
            break;
        }
        if !picked.iter().any(|(one, _)| one.number == graded.number) {
            picked.push((graded, Vec::new()));
        }
    }
    picked.sort_by_key(|(one, _)| (one.board.empty_cells().len(), one.number));
    picked
}

/// The summary: `N/M right`, the diagnosis, the first example of each
/// mistake and the first wrong positions (`shown` at least), failures.
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
    let wrong = summary.graded.iter().filter(|g| !g.right()).count();
    let failed = summary.failures.len();
    let mut notes = Vec::new();
    if wrong > 0 {
        notes.push(format!("{} wrong", thousands(wrong as u64)));
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
    let picked = shown_positions(summary, shown);
    if !picked.is_empty() {
        let examples = picked.iter().filter(|(_, names)| !names.is_empty()).count();
        let title = if examples > 0 {
            format!(
                "Wrong answers ({} of {}: the first example of each mistake, and the first, \
                 simplest first):",
                picked.len(),
                thousands(wrong as u64)
            )
        } else {
            format!(
                "Wrong answers (the first {} of {}, simplest first):",
                picked.len(),
                thousands(wrong as u64)
            )
        };
        out.push_str(&format!("\n{title}\n\n"));
        let named = summary.diagnosis.answers.as_ref();
        for (graded, names) in &picked {
            let shows = if names.is_empty() {
                String::new()
            } else {
                format!("  (first example: {})", names.join(", "))
            };
            out.push_str(&wrong_words(graded, options, named, &shows));
            out.push('\n');
        }
    } else if wrong > 0 {
        out.push('\n');
    }
    out.push_str(&diagnosis_words(&summary.diagnosis, options));
    out
}

/// How many of the mistakes that explain the first wrong answer alike
/// are named.
const GUESSES_NAMED: usize = 4;

/// What grading says as it goes, in text: the first wrong answer at once
/// (with what explains the answers so far), and a line as each size of
/// position (its number of empty squares) is done.
#[derive(Debug, Default)]
pub struct Progress {
    graded: Vec<Graded>,
    /// Empty squares of the positions being asked, and how many so far.
    size: Option<(usize, usize, usize)>,
    told_wrong: bool,
}

impl Progress {
    /// A position answered: the lines to print now.
    pub fn graded(&mut self, graded: &Graded, options: &Options) -> String {
        let mut out = String::new();
        let empties = graded.board.empty_cells().len();
        if let Some((size, _, _)) = self.size
            && size != empties
        {
            out.push_str(&self.done());
        }
        let (_, asked, right) = self.size.get_or_insert((empties, 0, 0));
        *asked += 1;
        if graded.right() {
            *right += 1;
        }
        self.graded.push(graded.clone());
        if !graded.right() && !self.told_wrong {
            self.told_wrong = true;
            out.push_str(&self.first_wrong(graded, options));
        }
        out
    }

    /// Grading ended: the last size's line.
    pub fn finish(&mut self) -> String {
        self.done()
    }

    fn done(&mut self) -> String {
        match self.size.take() {
            Some((size, asked, right)) => format!(
                "{}: {}/{} right\n",
                count(size as u64, "empty square", "empty squares"),
                thousands(right as u64),
                thousands(asked as u64)
            ),
            None => String::new(),
        }
    }

    fn first_wrong(&self, graded: &Graded, options: &Options) -> String {
        let board = &graded.board;
        let mut out = format!(
            "First wrong answer, #{} {board} ({} to move): yours {}",
            graded.number,
            board.to_move(),
            yours_words(&graded.answer, board)
        );
        if options.ask == Ask::Best {
            out.push_str(&format!(", right {}", either(&graded.expected.moves)));
        }
        if options.ask == Ask::Scores {
            let right = graded
                .expected
                .scores
                .iter()
                .map(|&(square, score)| (square, i64::from(score)));
            out.push_str(&format!(", right {}", scores_words(right)));
        }
        let guesses = likeliest(&self.graded, options);
        if let Some(mine) = wrong_move(graded) {
            // A line the student's evaluate misses is said so only when
            // every guess so far misses it.
            let lines: Vec<Option<String>> = guesses
                .iter()
                .map(|model| after(board, mine, Some(model), options.article))
                .collect();
            let line = match lines.split_first() {
                Some((first, rest)) if rest.iter().all(|line| line == first) => first.clone(),
                _ => after(board, mine, None, options.article),
            };
            if let Some(line) = line {
                out.push_str(&format!("; after your {mine}: {line}"));
            }
        }
        out.push_str(".\n");
        // Two slips may share a name (the board read column by column and
        // the move printed column first): each name once.
        let mut names: Vec<String> = Vec::new();
        for name in guesses.iter().map(Model::name) {
            if !names.contains(&name) {
                names.push(name);
            }
        }
        let guess = match names.as_slice() {
            [] => None,
            [one] => Some(format!("looks like {one}")),
            [some @ .., last] if names.len() <= GUESSES_NAMED => {
                Some(format!("could be {} or {last}", some.join(", ")))
            }
            _ => Some(format!(
                "could be {} or {} more",
                names[..GUESSES_NAMED - 1].join(", "),
                names.len() - (GUESSES_NAMED - 1)
            )),
        };
        if let Some(guess) = guess {
            out.push_str(&format!(
                "  So far this {guess}; the diagnosis comes at the end.\n"
            ));
        }
        out
    }
}

// JSON: everything `grade` writes as JSON is filled in here, in the
// shapes of the program's one JSON module (tictactoe_game::json).

/// Scores in JSON: `{"a3": -8, "b3": 0, "c3": 9}`, in reading order.
fn scores_json(scores: impl IntoIterator<Item = (Square, i64)>) -> json::Scores {
    json::Scores(scores.into_iter().collect())
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

/// One line of JSON for a position answered.
pub fn graded_json(graded: &Graded) -> String {
    let board = graded.board;
    let yours = match &graded.answer.said {
        Said::Move { .. } => json::Yours::Move {
            mv: graded.answer.square(&board),
        },
        Said::Scores(scores) => json::Yours::Scores {
            scores: scores_json(scores.iter().copied()),
        },
    };
    let expected = &graded.expected;
    json::line(&json::Graded {
        number: graded.number,
        board,
        to_move: board.to_move(),
        answer: graded.line.clone(),
        right: graded.right(),
        yours,
        calls: graded.answer.calls,
        expected: json::Expected {
            moves: expected.moves.clone(),
            scores: scores_json(expected.scores.iter().map(|&(s, v)| (s, i64::from(v)))),
            calls: expected.calls,
        },
        faults: graded.faults.iter().map(fault_words).collect(),
    })
}

/// One line of JSON for a failure of the program.
pub fn failure_json(failure: &Failure) -> String {
    json::line(&json::Failed {
        number: failure.number,
        board: failure.board,
        trouble: failure.trouble.to_string(),
        restarts_left: failure.restarts_left,
    })
}

/// The diagnosis of the moves or scores, in JSON.
fn named_json(named: &Named, options: &Options) -> json::Program {
    let says: Vec<String> = named
        .model
        .slips
        .iter()
        .map(|&slip| sentence(slip, options.article, options.scoring))
        .collect();
    json::Program {
        mistake: named.name(),
        mistakes: named.model.slips.iter().map(|slip| slip.name()).collect(),
        as_printed: named.model.is_printed(),
        explains: named.explains,
        wrong: named.wrong,
        exceptions: named.exceptions.clone(),
        examples: named
            .examples
            .iter()
            .map(|&(slip, number)| json::Example {
                mistake: slip.name(),
                number,
            })
            .collect(),
        says: says.join(" "),
        printed: named
            .model
            .is_printed()
            .then(|| printed(options.article, options.scoring)),
    }
}

/// The summary as one line of JSON: `{"summary": {...}}`.
pub fn summary_json(summary: &Summary, options: &Options) -> String {
    let calls = summary.diagnosis.calls.as_ref().map(|named| json::Named {
        mistake: named.slip.name().to_string(),
        explains: named.explains,
        says: named.slip.sentence(),
    });
    json::line(&json::GradeSummary {
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
            article: options.article.name(),
            diagnosis: json::Diagnosis {
                answers: summary
                    .diagnosis
                    .answers
                    .as_ref()
                    .map(|named| named_json(named, options)),
                calls,
            },
        },
    })
}

/// One test of Gradescope's `results.json`: worth one point, the share of
/// its answers right.
fn gradescope_test(
    name: String,
    right: usize,
    asked: usize,
    output: String,
) -> json::GradescopeTest {
    let score = if asked == 0 {
        0.0
    } else {
        (right as f64 / asked as f64 * 10_000.0).round() / 10_000.0
    };
    json::GradescopeTest {
        name,
        score,
        max_score: 1,
        output,
        visibility: "visible",
    }
}

/// Gradescope's `results.json` for a whole file: the `score`, the time,
/// the `output` (the report in text) and the `tests`.
fn gradescope(tests: Vec<json::GradescopeTest>, output: String, seconds: f64) -> String {
    let score: f64 = tests.iter().map(|test| test.score).sum();
    json::document(&json::Gradescope {
        score: (score * 10_000.0).round() / 10_000.0,
        execution_time: seconds.round(),
        output,
        visibility: "visible",
        tests,
    })
}

/// Gradescope's `results.json` for a program graded: a test per size of
/// position (its number of empty squares), each worth a point, scored by
/// the share of its positions answered right; `output` is the report.
pub fn gradescope_program(summary: &Summary, output: String, seconds: f64) -> String {
    let mut sizes: Vec<usize> = summary
        .graded
        .iter()
        .map(|one| one.board.empty_cells().len())
        .chain(
            summary
                .failures
                .iter()
                .map(|one| one.board.empty_cells().len()),
        )
        .collect();
    sizes.sort_unstable();
    sizes.dedup();
    let tests = sizes
        .into_iter()
        .map(|size| {
            let of_size = |board: &Board| board.empty_cells().len() == size;
            let graded: Vec<&Graded> = summary
                .graded
                .iter()
                .filter(|one| of_size(&one.board))
                .collect();
            let failed = summary.failures.iter().filter(|one| of_size(&one.board));
            let right = graded.iter().filter(|one| one.right()).count();
            let asked = graded.len() + failed.clone().count();
            let mut said = format!("{right}/{asked} right");
            if let Some(first) = graded.iter().find(|one| !one.right()) {
                said.push_str(&format!(
                    "; the first wrong: #{} {} ({} to move), answered `{}`",
                    first.number,
                    first.board,
                    first.board.to_move(),
                    first.line
                ));
            }
            for failure in failed {
                said.push_str(&format!("; #{}: {}", failure.number, failure.trouble));
            }
            gradescope_test(
                format!(
                    "positions with {}",
                    count(size as u64, "empty square", "empty squares")
                ),
                right,
                asked,
                said,
            )
        })
        .collect();
    gradescope(tests, output, seconds)
}

/// Gradescope's `results.json` for a CS50 module: a test per function,
/// each worth a point, scored by the share of its calls answered right.
pub fn gradescope_cs50(summary: &super::cs50::Cs50Summary, output: String, seconds: f64) -> String {
    let tests = summary
        .functions
        .iter()
        .map(|checked| {
            let mut said = format!("{}/{} right", checked.right, checked.calls);
            if let Some(wrong) = checked.wrong.first() {
                said.push_str(&format!(
                    "; the first wrong: {}: {}",
                    wrong.call.words(),
                    wrong.why
                ));
            }
            if let Some(hint) = super::cs50::hint(checked) {
                said.push_str(&format!("\n{hint}"));
            }
            gradescope_test(
                checked.function.name().to_string(),
                checked.right,
                checked.calls,
                said,
            )
        })
        .collect();
    gradescope(tests, output, seconds)
}

/// One submission's row of a class, as one line of JSON: `submission`,
/// `right`, `wrong`, `failed`, `asked`, `diagnosis`, `ended`, `seconds`.
pub fn row_json(row: &super::class::Row) -> String {
    json::line(&json::ClassRow {
        submission: row.name.clone(),
        right: row.right,
        wrong: row.wrong,
        failed: row.failed,
        asked: row.asked,
        diagnosis: row.diagnosis.clone(),
        ended: row.ended,
        seconds: (row.time.as_secs_f64() * 10.0).round() / 10.0,
    })
}

/// The check as JSON: one line per function, then `{"summary": ...}`.
pub fn cs50_json_lines(summary: &super::cs50::Cs50Summary) -> Vec<String> {
    let mut lines: Vec<String> = summary
        .functions
        .iter()
        .map(|checked| {
            json::line(&json::Cs50Function {
                function: checked.function.name(),
                calls: checked.calls,
                answered: checked.answered,
                right: checked.right,
                wrong: checked
                    .wrong
                    .iter()
                    .map(|wrong| json::Cs50Wrong {
                        call: wrong.call.words(),
                        board: wrong.call.board,
                        why: wrong.why.clone(),
                    })
                    .collect(),
                hint: super::cs50::hint(checked),
                mistake: super::cs50::minimax_model(checked).map(|model| model.name()),
            })
        })
        .collect();
    lines.push(json::line(&json::Cs50Summary {
        summary: json::Cs50Totals {
            ended: summary.ended.name(),
            not_started: summary.ended.not_started(),
            failed: summary.failures.len(),
            all_right: summary.all_right(),
        },
    }));
    lines
}

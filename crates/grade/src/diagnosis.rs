//! The usual mistakes, named: which reference player explains a student's
//! answers.
//!
//! Every [`Model`] of the [`catalogue`], the
//! article's program with one slip or with two (the articles' code as
//! printed among them), answers every position the student answered. A
//! model that gives the student's answer everywhere, and a wrong one
//! somewhere, explains the answers: of several, the one whose own choice
//! among equal moves is the student's most often, then the articles'
//! printed code, then the one with the fewest slips, then the one nearest
//! the right answers (differing from them on the fewest positions). When none explains every answer, the one that
//! explains most of the wrong ones is named with the answers it does not
//! explain. For each slip of the model named, the first example is the
//! simplest position (fewest empty squares) where that slip alone gives
//! the student's wrong answer.
//!
//! The counts of calls (`--calls`) are diagnosed apart ([`CallSlip`]).

use tictactoe_engine::teach::reference::Algorithm;

use super::players::{Keep, Memo, Model, Slip, catalogue};
use super::protocol::{Ask, Said};
use super::{Fault, Graded, Options, Ties, calls};

/// The article a student followed, whose names the report speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Article {
    /// GeeksforGeeks' `findBestMove`, `minimax(board, depth, isMax)`,
    /// `evaluate`, `isMovesLeft`.
    #[default]
    Gfg,
    /// freeCodeCamp's `minimax(newBoard, player)`, `winning`,
    /// `emptyIndexies`, `aiPlayer` and `huPlayer`.
    Fcc,
    /// CS50's `player`, `actions`, `result`, `winner`, `terminal`,
    /// `utility`, `minimax`.
    Cs50,
}

impl Article {
    /// All three, for `--article`.
    pub const ALL: [Article; 3] = [Article::Gfg, Article::Fcc, Article::Cs50];

    /// Its name for `--article`: `gfg`, `fcc`, `cs50`.
    pub const fn name(self) -> &'static str {
        match self {
            Article::Gfg => "gfg",
            Article::Fcc => "fcc",
            Article::Cs50 => "cs50",
        }
    }

    /// Its name for people, as an owner: `GeeksforGeeks'`, `freeCodeCamp's`.
    pub const fn possessive(self) -> &'static str {
        match self {
            Article::Gfg => "GeeksforGeeks'",
            Article::Fcc => "freeCodeCamp's",
            Article::Cs50 => "CS50's",
        }
    }

    /// Its name for people.
    pub const fn title(self) -> &'static str {
        match self {
            Article::Gfg => "GeeksforGeeks",
            Article::Fcc => "freeCodeCamp",
            Article::Cs50 => "CS50",
        }
    }
}

/// A usual mistake in counting calls (`--calls`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CallSlip {
    /// The count of calls leaves out the call on the position itself.
    FirstCallNotCounted,
    /// The count is alpha-beta's where plain minimax's is asked for.
    Pruned,
    /// The count is plain minimax's where alpha-beta's is asked for.
    NotPruned,
}

impl CallSlip {
    /// Its name: `first-call-not-counted`, `pruned`, `not-pruned`.
    pub const fn name(self) -> &'static str {
        match self {
            CallSlip::FirstCallNotCounted => "first-call-not-counted",
            CallSlip::Pruned => "pruned",
            CallSlip::NotPruned => "not-pruned",
        }
    }

    /// What the mistake is, in a sentence.
    pub fn sentence(self) -> String {
        match self {
            CallSlip::FirstCallNotCounted => {
                "Your count is one short: freeCodeCamp counts the call on the position itself \
                 as the first (FC1; 9 calls on its board o.x/x.x/.oo). Count at the top of \
                 minimax, and call it on the position itself."
            }
            CallSlip::Pruned => {
                "Your count is alpha-beta's: it prunes, where plain minimax visits every \
                 position. Grade it with --calls --alpha-beta."
            }
            CallSlip::NotPruned => {
                "Your count is plain minimax's: nothing is pruned. Stop trying replies once \
                 alpha >= beta."
            }
        }
        .into()
    }
}

/// A reference player that explains the answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named {
    /// The program: the article's with these slips.
    pub model: Model,
    /// Wrong answers it explains.
    pub explains: usize,
    /// Wrong answers in all.
    pub wrong: usize,
    /// The numbers of the answers it does not give (none when it explains
    /// every answer).
    pub exceptions: Vec<usize>,
    /// For each slip, the number of its first example: the simplest wrong
    /// answer that slip alone gives.
    pub examples: Vec<(Slip, usize)>,
}

impl Named {
    /// The slips, by name, joined with `+`: `player-always-x+no-depth`.
    pub fn name(&self) -> String {
        self.model.name()
    }

    /// True when it explains every answer.
    pub fn explains_all(&self) -> bool {
        self.exceptions.is_empty()
    }
}

/// A count slip that explains the counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedCalls {
    /// The mistake.
    pub slip: CallSlip,
    /// Wrong counts it explains (it explains every count given).
    pub explains: usize,
}

/// What explains the wrong answers.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Diagnosis {
    /// The program behind the wrong moves or scores.
    pub answers: Option<Named>,
    /// The slip behind the wrong counts of calls.
    pub calls: Option<NamedCalls>,
    /// True when some moves or scores are wrong and no program explains
    /// most of them.
    pub answers_unexplained: bool,
    /// True when some counts are wrong and no slip explains them all.
    pub calls_unexplained: bool,
}

/// What a model predicts about one answer.
enum Prediction {
    /// One of these moves, where the model itself answers the first
    /// (`None`: no move, `-1 -1`).
    Move(
        Option<tictactoe_engine::Square>,
        Vec<Option<tictactoe_engine::Square>>,
    ),
    /// These scores.
    Scores(Vec<(tictactoe_engine::Square, i32)>),
}

/// Which of equal moves the grader asks for, as a model keeps it.
fn keep(ties: Ties) -> Option<Keep> {
    match ties {
        Ties::Any => None,
        Ties::First => Some(Keep::First),
        Ties::Last => Some(Keep::Last),
    }
}

fn predict(model: &Model, graded: &Graded, options: &Options, memo: &mut Memo) -> Prediction {
    let played = model.play(&graded.board, memo);
    match (options.ask, options.ties) {
        (Ask::Scores, _) => Prediction::Scores(played.scores),
        (Ask::Best, Ties::Any) => Prediction::Move(played.chosen, played.top()),
        (Ask::Best, _) => Prediction::Move(played.chosen, vec![played.chosen]),
    }
}

/// True when the answer in `graded` is what `prediction` says.
fn matches(prediction: &Prediction, graded: &Graded) -> bool {
    let answer = &graded.answer;
    match prediction {
        Prediction::Move(_, moves) => match &answer.said {
            Said::Move { .. } => moves.contains(&answer.square(&graded.board)),
            Said::Scores(_) => false,
        },
        Prediction::Scores(scores) => {
            let Said::Scores(given) = &answer.said else {
                return false;
            };
            scores
                .iter()
                .all(|&(square, score)| answer.score(square) == Some(i64::from(score)))
                && given
                    .iter()
                    .all(|(square, _)| scores.iter().any(|(scored, _)| scored == square))
        }
    }
}

/// True when the prediction is also what the right answer asks for.
fn is_right(prediction: &Prediction, graded: &Graded) -> bool {
    let right = &graded.expected;
    match prediction {
        Prediction::Move(_, moves) => {
            moves.len() == right.moves.len()
                && right
                    .moves
                    .iter()
                    .all(|square| moves.contains(&Some(*square)))
        }
        Prediction::Scores(scores) => *scores == right.scores,
    }
}

fn is_call_fault(fault: &Fault) -> bool {
    matches!(fault, Fault::Calls { .. })
}

fn answer_wrong(graded: &Graded) -> bool {
    graded.faults.iter().any(|fault| !is_call_fault(fault))
}

/// How one model did on the answers.
struct Tally {
    model: Model,
    explains: usize,
    exceptions: Vec<usize>,
    /// Positions where it differs from the right answers.
    differs: usize,
    /// Answers that are the very move the model itself answers (of equal
    /// moves, a program keeps one the same way every time).
    exact: usize,
}

/// Runs `model` on every answer, giving up once it misses more than `budget`.
fn tally(model: &Model, graded: &[Graded], options: &Options, budget: usize) -> Option<Tally> {
    let mut memo = Memo::new();
    let mut tally = Tally {
        model: model.clone(),
        explains: 0,
        exceptions: Vec::new(),
        differs: 0,
        exact: 0,
    };
    for one in graded {
        let prediction = predict(model, one, options, &mut memo);
        if !is_right(&prediction, one) {
            tally.differs += 1;
        }
        if let Prediction::Move(chosen, _) = &prediction
            && matches!(one.answer.said, Said::Move { .. })
            && one.answer.square(&one.board) == *chosen
        {
            tally.exact += 1;
        }
        if matches(&prediction, one) {
            if answer_wrong(one) {
                tally.explains += 1;
            }
        } else {
            tally.exceptions.push(one.number);
            if tally.exceptions.len() > budget {
                return None;
            }
        }
    }
    Some(tally)
}

/// The reference player that explains the wrong moves or scores among
/// `graded`, if any explains most of them.
pub fn name_program(graded: &[Graded], options: &Options) -> Option<Named> {
    let wrong = graded.iter().filter(|one| answer_wrong(one)).count();
    if wrong == 0 {
        return None;
    }
    let models = catalogue(
        options.scoring,
        keep(options.ties),
        options.ask == Ask::Scores,
    );
    // Most of the wrong answers, and few answers it does not give.
    let budget = wrong / 4;
    let mut best: Option<Tally> = None;
    for model in &models {
        let budget = match &best {
            Some(best) if best.exceptions.is_empty() => 0,
            Some(best) => best.exceptions.len(),
            None => budget,
        };
        let Some(tally) = tally(model, graded, options, budget) else {
            continue;
        };
        if tally.explains * 2 <= wrong || tally.explains == 0 {
            continue;
        }
        // Of the programs that explain as much: the one that answers the
        // very moves the student did, the articles' printed code (the
        // first most students try), the fewest slips, the nearest right.
        let rank = |tally: &Tally| {
            (
                tally.exceptions.len(),
                usize::MAX - tally.explains,
                usize::MAX - tally.exact,
                !tally.model.is_printed(),
                tally.model.slips.len(),
                tally.differs,
            )
        };
        if best.as_ref().is_none_or(|best| rank(&tally) < rank(best)) {
            best = Some(tally);
        }
    }
    let best = best?;
    let examples = examples(&best.model, graded, options);
    Some(Named {
        model: best.model,
        explains: best.explains,
        wrong,
        exceptions: best.exceptions,
        examples,
    })
}

/// The reference players that give every answer among `graded`, wrong
/// ones among them, as likely as each other while few answers are in: of
/// those that answer the student's very moves most often, the articles'
/// printed code (first, where it is among them) and those with the fewest
/// slips, in the catalogue's order. Each of them is a guess.
pub fn likeliest(graded: &[Graded], options: &Options) -> Vec<Model> {
    if !graded.iter().any(answer_wrong) {
        return Vec::new();
    }
    let models = catalogue(
        options.scoring,
        keep(options.ties),
        options.ask == Ask::Scores,
    );
    let fits: Vec<Tally> = models
        .iter()
        .filter_map(|model| tally(model, graded, options, 0))
        .filter(|tally| tally.explains > 0)
        .collect();
    let Some(exact) = fits.iter().map(|tally| tally.exact).max() else {
        return Vec::new();
    };
    let fits: Vec<Model> = fits
        .into_iter()
        .filter(|tally| tally.exact == exact)
        .map(|tally| tally.model)
        .collect();
    let fewest = fits
        .iter()
        .filter(|model| !model.is_printed())
        .map(|model| model.slips.len())
        .min();
    let (printed, others): (Vec<Model>, Vec<Model>) = fits.into_iter().partition(Model::is_printed);
    printed
        .into_iter()
        .chain(
            others
                .into_iter()
                .filter(|model| Some(model.slips.len()) == fewest),
        )
        .collect()
}

/// For each slip of `model`, its first example: the simplest wrong answer
/// the slip alone gives, else the simplest the whole model gives.
fn examples(model: &Model, graded: &[Graded], options: &Options) -> Vec<(Slip, usize)> {
    let base = Model::right(model.scoring, model.keep);
    let mut positions: Vec<&Graded> = graded.iter().filter(|one| answer_wrong(one)).collect();
    positions.sort_by_key(|one| (one.board.empty_cells().len(), one.number));
    let first = |model: &Model| {
        let mut memo = Memo::new();
        positions
            .iter()
            .find(|one| matches(&predict(model, one, options, &mut memo), one))
            .map(|one| one.number)
    };
    let whole = first(model);
    model
        .slips
        .iter()
        .filter_map(|&slip| {
            let alone = if model.slips.len() > 1 {
                first(&base.with(&[slip]))
            } else {
                whole
            };
            alone.or(whole).map(|number| (slip, number))
        })
        .collect()
}

/// The slip that explains every wrong count of calls.
fn name_calls(graded: &[Graded], options: &Options) -> (Option<NamedCalls>, bool) {
    let wrong = graded
        .iter()
        .filter(|one| one.faults.iter().any(is_call_fault))
        .count();
    let Some(algorithm) = options.calls else {
        return (None, false);
    };
    if wrong == 0 {
        return (None, false);
    }
    let slips = match algorithm {
        Algorithm::Minimax => [CallSlip::FirstCallNotCounted, CallSlip::Pruned],
        Algorithm::AlphaBeta => [CallSlip::FirstCallNotCounted, CallSlip::NotPruned],
    };
    let predicted = |slip: CallSlip, one: &Graded| match slip {
        CallSlip::FirstCallNotCounted => one.expected.calls.map(|count| count.saturating_sub(1)),
        CallSlip::Pruned => Some(calls(&one.board, Algorithm::AlphaBeta, options.scoring)),
        CallSlip::NotPruned => Some(calls(&one.board, Algorithm::Minimax, options.scoring)),
    };
    let named = slips.into_iter().find(|&slip| {
        graded
            .iter()
            .all(|one| one.answer.calls.is_some() && one.answer.calls == predicted(slip, one))
    });
    match named {
        Some(slip) => (
            Some(NamedCalls {
                slip,
                explains: wrong,
            }),
            false,
        ),
        None => (None, true),
    }
}

/// What explains the wrong answers among `graded`.
pub fn diagnose(graded: &[Graded], options: &Options) -> Diagnosis {
    let answers = name_program(graded, options);
    let some_wrong = graded.iter().any(answer_wrong);
    let (calls, calls_unexplained) = name_calls(graded, options);
    Diagnosis {
        answers_unexplained: some_wrong && answers.is_none(),
        answers,
        calls,
        calls_unexplained,
    }
}

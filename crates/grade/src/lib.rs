//! `tictactoe-grade`: the teaching tools that stand without the game.
//!
//! Grading a student's minimax: `tictactoe grade` runs the student's
//! program as a child process ([`child`]), asks it about every position
//! over a line protocol ([`protocol`]), compares each answer with the
//! engine's port of the articles' algorithm
//! ([`tictactoe_engine::teach::reference`]), and names the usual mistake
//! that explains the wrong answers ([`diagnosis`]). CS50's API is checked
//! function by function through a shim ([`cs50`]). [`report`] says it all
//! in text or JSON. Beside it, [`lab`]: what each search technique buys on
//! one position.
//!
//! Positions are asked simplest first (fewest empty squares), so the first
//! wrong answer is the smallest counterexample. A program that crashes,
//! hangs, floods its output or stops reading is killed with everything it
//! started and started again for the next position, at most [`RESTARTS`]
//! times; then grading stops with the positions it reached.

#![deny(missing_docs)]

pub mod child;
pub mod class;
pub mod cs50;
pub mod diagnosis;
pub mod keeper;
pub mod lab;
pub mod players;
pub mod protocol;
pub mod report;
pub mod words;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use tictactoe_engine::teach::reference::{Algorithm, move_values, tree_size};
use tictactoe_engine::teach::trace::{Step, Walk};
use tictactoe_engine::{Board, Scoring, Square, first_best, reachable_positions};

use child::{Guard, Program, Student, Trouble, seconds, shown};
use diagnosis::{Article, Diagnosis};
use protocol::{Answer, Ask, Said, read_answer, request};

/// How many times a program that failed is started again: after its
/// fourth failure in all, grading stops.
pub const RESTARTS: u32 = 3;

/// How long a program may think about the empty board, unless told
/// otherwise: a plain minimax in Python takes from a few seconds (the
/// article's, marks placed and taken back) to twenty (CS50's, a deep copy of
/// the board for every move) on a busy machine. Other positions get a share
/// of it ([`time_for`]).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// The least time any position gets (or the whole timeout, if shorter):
/// starting a program and answering a small position take about as long.
pub const LEAST_TIME: Duration = Duration::from_secs(2);

/// How long a program may think about `board` when the empty board gets
/// `timeout`: a share as big as the position's share of the article's
/// minimax tree (its calls over the empty board's 549,946), and never less
/// than [`LEAST_TIME`]. So a slow program has the time it needs where the
/// tree is big, and one that hangs is stopped soon where it is small.
///
/// ```
/// use std::time::Duration;
/// use tictactoe_grade::time_for;
/// use tictactoe_engine::Board;
///
/// let minute = Duration::from_secs(60);
/// assert_eq!(time_for(&Board::new(), minute), minute);
/// assert_eq!(time_for(&"xox/oox/...".parse().unwrap(), minute), Duration::from_secs(2));
/// assert_eq!(time_for(&"xox/oox/...".parse().unwrap(), Duration::from_secs(1)), Duration::from_secs(1));
/// ```
pub fn time_for(board: &Board, timeout: Duration) -> Duration {
    let share = tree_size(board) as f64 / tree_size(&Board::new()) as f64;
    timeout.mul_f64(share.min(1.0)).max(LEAST_TIME.min(timeout))
}

/// Which of several equally good moves is right.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Ties {
    /// Any of them.
    #[default]
    Any,
    /// The first in reading order, as the articles keep it
    /// (`if (moveVal > bestVal)`: only a strictly better move replaces it).
    First,
    /// The last in reading order (what `>=` keeps).
    Last,
}

impl Ties {
    /// All three, the default first.
    pub const ALL: [Ties; 3] = [Ties::Any, Ties::First, Ties::Last];

    /// Its name for `--ties`: `any`, `first`, `last`.
    pub const fn name(self) -> &'static str {
        match self {
            Ties::Any => "any",
            Ties::First => "first",
            Ties::Last => "last",
        }
    }

    /// The right moves among `scores` (every legal move and its score, in
    /// the order tried): every move with the highest score, or the first or
    /// last of them.
    ///
    /// ```
    /// use tictactoe_grade::Ties;
    /// use tictactoe_engine::Square;
    ///
    /// let scores = [(Square::new(0, 0), 0), (Square::new(0, 1), 9), (Square::new(0, 2), 9)];
    /// assert_eq!(Ties::Any.right(&scores), [Square::new(0, 1), Square::new(0, 2)]);
    /// assert_eq!(Ties::First.right(&scores), [Square::new(0, 1)]);
    /// assert_eq!(Ties::Last.right(&scores), [Square::new(0, 2)]);
    /// ```
    pub fn right(self, scores: &[(Square, i32)]) -> Vec<Square> {
        let by_score = |scored: &&(Square, i32)| scored.1;
        match self {
            Ties::Any => {
                let best = scores.iter().map(|scored| scored.1).max();
                scores
                    .iter()
                    .filter(|scored| Some(scored.1) == best)
                    .map(|scored| scored.0)
                    .collect()
            }
            Ties::First => first_best(scores.iter(), by_score)
                .map(|scored| scored.0)
                .into_iter()
                .collect(),
            Ties::Last => first_best(scores.iter().rev(), by_score)
                .map(|scored| scored.0)
                .into_iter()
                .collect(),
        }
    }
}

/// What is asked and how answers are judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// The best move or every move's score.
    pub ask: Ask,
    /// How the right scores are counted.
    pub scoring: Scoring,
    /// Which of equally good moves is right.
    pub ties: Ties,
    /// With `Some`, every answer must end with `calls N`, the calls this
    /// algorithm makes (as `trace` numbers them).
    pub calls: Option<Algorithm>,
    /// How long the program may think about the empty board; other
    /// positions get a share of it ([`time_for`]).
    pub timeout: Duration,
    /// The article whose names the report speaks.
    pub article: Article,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            ask: Ask::Best,
            scoring: Scoring::Depth,
            ties: Ties::Any,
            calls: None,
            timeout: DEFAULT_TIMEOUT,
            article: Article::Gfg,
        }
    }
}

/// The right answers about one position, from the engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expected {
    /// Every legal move in reading order with its score: GeeksforGeeks'
    /// minimax as the engine's reference computes it.
    pub scores: Vec<(Square, i32)>,
    /// The moves that are a right answer to `best`.
    pub moves: Vec<Square>,
    /// The calls the algorithm makes, as `trace` numbers them (the call on
    /// the position itself included), when asked.
    pub calls: Option<u64>,
}

/// The right answers about `board`.
pub fn expected(board: &Board, options: &Options) -> Expected {
    let scores = move_values(board, Algorithm::Minimax, options.scoring).moves;
    Expected {
        moves: options.ties.right(&scores),
        scores,
        calls: options
            .calls
            .map(|algorithm| calls(board, algorithm, options.scoring)),
    }
}

/// The calls `algorithm` makes on `board`, as `trace` numbers them: call 1
/// is the position itself, as freeCodeCamp counts FC1.
pub fn calls(board: &Board, algorithm: Algorithm, scoring: Scoring) -> u64 {
    Walk::new(board, algorithm, scoring)
        .filter(|step| matches!(step, Step::Enter(_)))
        .count() as u64
}

/// What is wrong with an answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// A move off the board.
    OffBoard,
    /// A move on a taken square.
    Taken(Square),
    /// A legal move, not a right one.
    NotBest(Square),
    /// A legal move's score missing or wrong.
    Score {
        /// The move.
        square: Square,
        /// The answer's score for it, if any.
        yours: Option<i64>,
        /// The right score.
        right: i32,
    },
    /// A score for a square that is taken.
    ScoredTaken(Square),
    /// The count of calls missing or wrong.
    Calls {
        /// The answer's count, if any.
        yours: Option<u64>,
        /// The right count.
        right: u64,
    },
}

/// Everything wrong with `answer` about `board` (nothing: right).
pub fn judge(answer: &Answer, board: &Board, expected: &Expected) -> Vec<Fault> {
    let mut faults = Vec::new();
    match &answer.said {
        Said::Move { .. } => match answer.square(board) {
            None => faults.push(Fault::OffBoard),
            Some(square) if board.get(square).is_some() => faults.push(Fault::Taken(square)),
            Some(square) if !expected.moves.contains(&square) => {
                faults.push(Fault::NotBest(square));
            }
            Some(_) => {}
        },
        Said::Scores(scores) => {
            for &(square, right) in &expected.scores {
                let yours = answer.score(square);
                if yours != Some(i64::from(right)) {
                    faults.push(Fault::Score {
                        square,
                        yours,
                        right,
                    });
                }
            }
            for &(square, _) in scores {
                if board.get(square).is_some() {
                    faults.push(Fault::ScoredTaken(square));
                }
            }
        }
    }
    if let Some(right) = expected.calls
        && answer.calls != Some(right)
    {
        faults.push(Fault::Calls {
            yours: answer.calls,
            right,
        });
    }
    faults
}

/// One position answered and judged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Graded {
    /// Its place in the order asked, from 1.
    pub number: usize,
    /// The position.
    pub board: Board,
    /// The answer line as written.
    pub line: String,
    /// The answer, read.
    pub answer: Answer,
    /// The right answers.
    pub expected: Expected,
    /// What is wrong with it (nothing: right).
    pub faults: Vec<Fault>,
}

impl Graded {
    /// True when the answer is right.
    pub fn right(&self) -> bool {
        self.faults.is_empty()
    }
}

/// A position the program failed on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// Its place in the order asked, from 1.
    pub number: usize,
    /// The position.
    pub board: Board,
    /// What went wrong.
    pub trouble: Trouble,
    /// How many more times the program will be started, once this failure
    /// is counted; `None` when grading stops here.
    pub restarts_left: Option<u32>,
}

/// What grading tells as it goes.
#[derive(Debug, Clone, Copy)]
pub enum Event<'a> {
    /// A position was answered.
    Graded(&'a Graded),
    /// The program failed on a position.
    Failed(&'a Failure),
}

/// How grading ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ended {
    /// Every position was asked.
    Done,
    /// The program failed more than [`RESTARTS`] times after it was started.
    GaveUp,
    /// The program could not be started at all.
    NotStarted(String),
    /// Grading was stopped from outside (a signal).
    Interrupted,
}

impl Ended {
    /// Its name in JSON: `done`, `gave-up`, `not-started`, `interrupted`.
    pub const fn name(&self) -> &'static str {
        match self {
            Ended::Done => "done",
            Ended::GaveUp => "gave-up",
            Ended::NotStarted(_) => "not-started",
            Ended::Interrupted => "interrupted",
        }
    }

    /// Why the program could not be started, if it could not.
    pub fn not_started(&self) -> Option<String> {
        match self {
            Ended::NotStarted(why) => Some(why.clone()),
            _ => None,
        }
    }
}

/// The outcome of grading.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// Positions to ask.
    pub positions: usize,
    /// Every position answered, in the order asked.
    pub graded: Vec<Graded>,
    /// Every position the program failed on.
    pub failures: Vec<Failure>,
    /// How it ended.
    pub ended: Ended,
    /// The usual mistakes that explain the wrong answers, if any does.
    pub diagnosis: Diagnosis,
}

impl Summary {
    /// Positions answered right.
    pub fn right(&self) -> usize {
        self.graded.iter().filter(|graded| graded.right()).count()
    }

    /// Positions reached: answered, or failed on.
    pub fn reached(&self) -> usize {
        self.graded.len() + self.failures.len()
    }

    /// True when every position was asked and answered right.
    pub fn all_right(&self) -> bool {
        self.ended == Ended::Done && self.right() == self.positions
    }
}

/// Every unfinished 3×3 position, 4,520 of them, simplest first.
pub fn all_positions() -> Vec<Board> {
    simplest_first(
        reachable_positions()
            .into_iter()
            .filter(|board| !board.status().is_over())
            .collect(),
    )
}

/// `count` of `positions` picked at random with `seed` (all of them when
/// there are no more), the same seed picking the same ones.
pub fn sample(mut positions: Vec<Board>, count: usize, seed: u64) -> Vec<Board> {
    let mut rng = fastrand::Rng::with_seed(seed);
    rng.shuffle(&mut positions);
    positions.truncate(count);
    positions
}

/// The positions ordered simplest first: fewest empty squares, and in the
/// order given among equals.
pub fn simplest_first(mut positions: Vec<Board>) -> Vec<Board> {
    positions.sort_by_key(|board| board.empty_cells().len());
    positions
}

/// The program over a whole grading: started when first needed, killed
/// and started again after a failure, at most [`RESTARTS`] times.
pub struct Session<'a> {
    program: &'a Program,
    guard: &'a Guard,
    student: Option<Student>,
    /// Programs that greet with a line of their own before the first request
    /// (the CS50 shim says it imported the module).
    greets: bool,
    /// How long a greeting, or the first answer after a start, may take:
    /// starting a program (Python, node) takes long on a busy machine.
    timeout: Duration,
    stop: &'a AtomicBool,
    /// Every failure so far.
    pub failures: Vec<Failure>,
    /// Requests answered so far.
    pub answered: usize,
}

/// What a request to a [`Session`] came to.
#[derive(Debug)]
pub enum Reply<T> {
    /// The answer line, read.
    Answer(String, T),
    /// The program failed on it (recorded in the session); grading goes on.
    Failed,
    /// Grading stops.
    Stop(Ended),
}

impl<'a> Session<'a> {
    /// A session that starts `program` as `guard` says when first asked.
    pub fn new(
        program: &'a Program,
        guard: &'a Guard,
        greets: bool,
        timeout: Duration,
        stop: &'a AtomicBool,
    ) -> Session<'a> {
        Session {
            program,
            guard,
            student: None,
            greets,
            timeout,
            stop,
            failures: Vec::new(),
            answered: 0,
        }
    }

    /// Sends `request` about position `number` (`board`), waits at most
    /// `timeout` and reads the answer with `read`; an answer it cannot read
    /// is garbage, a failure.
    pub fn ask<T>(
        &mut self,
        request: &str,
        (number, board): (usize, &Board),
        timeout: Duration,
        read: impl FnOnce(&str) -> Result<T, String>,
        on_failure: &mut dyn FnMut(&Failure),
    ) -> Reply<T> {
        if self.stop.load(Ordering::SeqCst) {
            return Reply::Stop(Ended::Interrupted);
        }
        let stop = self.stop;
        // A program about to be started may take the whole timeout for its
        // first answer.
        let timeout = if self.student.is_none() {
            timeout.max(self.timeout)
        } else {
            timeout
        };
        let answered = self.running().and_then(|student| {
            let line = student.ask(request, timeout, stop)?;
            match read(&line) {
                Ok(read) => Ok((line, read)),
                Err(why) => Err(Trouble::Garbage {
                    line: shown(&line),
                    why,
                }),
            }
        });
        match answered {
            Ok((line, read)) => {
                self.answered += 1;
                Reply::Answer(line, read)
            }
            Err(trouble) => {
                if let Some(student) = self.student.take() {
                    student.stop();
                }
                match trouble {
                    Trouble::Interrupted => Reply::Stop(Ended::Interrupted),
                    Trouble::NotStarted(why)
                        if self.greets || (self.answered == 0 && self.failures.is_empty()) =>
                    {
                        Reply::Stop(Ended::NotStarted(why))
                    }
                    trouble => {
                        let failed = self.failures.len() as u32 + 1;
                        let failure = Failure {
                            number,
                            board: *board,
                            trouble,
                            restarts_left: RESTARTS.checked_sub(failed),
                        };
                        on_failure(&failure);
                        let giving_up = failure.restarts_left.is_none();
                        self.failures.push(failure);
                        if giving_up {
                            Reply::Stop(Ended::GaveUp)
                        } else {
                            Reply::Failed
                        }
                    }
                }
            }
        }
    }

    /// The running program, started (and greeted) if need be.
    fn running(&mut self) -> Result<&mut Student, Trouble> {
        if self.student.is_none() {
            let mut student = Student::start(self.program, self.guard)?;
            if self.greets {
                let hello = student.hello(self.timeout, self.stop);
                if let Err(trouble) = hello {
                    student.stop();
                    // A program that cannot even greet (a module that does
                    // not import) is not started again: it would fail the
                    // same way.
                    return Err(match trouble {
                        Trouble::Exited { status, said } => Trouble::NotStarted(
                            said.or(status).unwrap_or_else(|| "it said nothing".into()),
                        ),
                        Trouble::Hung(waited) => Trouble::NotStarted(format!(
                            "importing the module took more than {}: does it play a game, \
                             wait for input or loop when imported? Keep that under \
                             `if __name__ == \"__main__\":`",
                            seconds(waited)
                        )),
                        Trouble::Memory { .. } | Trouble::Garbage { .. } => {
                            Trouble::NotStarted(format!("importing it: {trouble}"))
                        }
                        trouble => trouble,
                    });
                }
            }
            self.student = Some(student);
        }
        Ok(self.student.as_mut().expect("started"))
    }

    /// Kills the program, if it runs.
    pub fn finish(&mut self) {
        if let Some(student) = self.student.take() {
            student.stop();
        }
    }
}

/// Asks `program` about each of `positions` in turn and judges its
/// answers, telling `on_event` about each position as it goes. `stop`
/// stops grading (and the program) at once when set.
pub fn grade(
    program: &Program,
    guard: &Guard,
    positions: &[Board],
    options: &Options,
    stop: &AtomicBool,
    on_event: &mut dyn FnMut(Event<'_>),
) -> Summary {
    let mut session = Session::new(program, guard, false, options.timeout, stop);
    let mut graded = Vec::new();
    let mut ended = Ended::Done;
    for (index, board) in positions.iter().enumerate() {
        let reply = session.ask(
            &request(board, options.ask),
            (index + 1, board),
            time_for(board, options.timeout),
            |line| read_answer(line, options.ask, board).map_err(|unreadable| unreadable.why),
            &mut |failure| on_event(Event::Failed(failure)),
        );
        match reply {
            Reply::Answer(line, answer) => {
                let expected = expected(board, options);
                let faults = judge(&answer, board, &expected);
                let one = Graded {
                    number: index + 1,
                    board: *board,
                    line,
                    answer,
                    expected,
                    faults,
                };
                on_event(Event::Graded(&one));
                graded.push(one);
            }
            Reply::Failed => {}
            Reply::Stop(why) => {
                ended = why;
                break;
            }
        }
    }
    session.finish();
    let diagnosis = diagnosis::diagnose(&graded, options);
    Summary {
        positions: positions.len(),
        graded,
        failures: std::mem::take(&mut session.failures),
        ended,
        diagnosis,
    }
}

//! The quiz: questions about positions from real games, answered by the
//! articles' own minimax, and explained with the numbers every other view
//! shows, and the session that asks them a line at a time ([`ask_all`]) on
//! any input and output, for the command (`tictactoe quiz`) and the
//! screen-reader mode alike.
//!
//! Four kinds of question, on the classic board where plain minimax can be
//! counted by hand:
//! - `value`: the position's value, its best move's score as
//!   GeeksforGeeks' `findBestMove` prints it (call 1 of `tictactoe trace`);
//! - `best`: a move with the best score, in a1 notation (any of them is
//!   right; `findBestMove` keeps the first);
//! - `calls`: how many calls plain minimax makes from the position, call 1
//!   included;
//! - `pruned`: which branches alpha-beta never searches, each as the path
//!   of moves from the position to the move not searched (`b1 b2, c3`), or
//!   `none`.

use std::io::{self, BufRead, Write};
use tictactoe_engine::teach::reference::{self, Algorithm, Window};
use tictactoe_engine::teach::trace::{Call, Step, Walk};
use tictactoe_engine::{Ai, Board, Dice, Level, Limits, Role, Scoring, Square, Status, analyze};

use crate::present::{cut_reason, role_takes, score_reason, scoring_legend};
use crate::text::{echo, escaped, read_line, signed, thousands};

/// What a question asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ask {
    /// The value of the position: call 1 of the trace.
    Value,
    /// A best move.
    Best,
    /// Plain minimax's calls from the position, call 1 included.
    Calls,
    /// The branches alpha-beta cuts.
    Pruned,
}

impl Ask {
    /// Every kind, in the order a quiz cycles through them.
    pub const ALL: [Ask; 4] = [Ask::Value, Ask::Best, Ask::Calls, Ask::Pruned];

    /// The name the key and JSON give it.
    pub const fn name(self) -> &'static str {
        match self {
            Ask::Value => "value",
            Ask::Best => "best",
            Ask::Calls => "calls",
            Ask::Pruned => "pruned",
        }
    }

    /// The empty squares a position may have for this question: enough to
    /// think about, few enough to work out by hand.
    fn empty_squares(self) -> std::ops::RangeInclusive<usize> {
        match self {
            Ask::Value | Ask::Best => 3..=7,
            Ask::Calls | Ask::Pruned => 3..=5,
        }
    }
}

/// The answer to a question.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// A score.
    Value(i32),
    /// Every best move, in reading order (any one of them is right).
    Best(Vec<Square>),
    /// A count of calls.
    Calls(u64),
    /// The paths to the moves alpha-beta does not search, in the order it
    /// meets them.
    Pruned(Vec<Vec<Square>>),
}

/// One question: a position, what is asked about it, and how scores count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Question {
    /// The position, X or O to move.
    pub board: Board,
    /// What is asked.
    pub ask: Ask,
    /// How scores are counted, for `value` and `best` (and alpha-beta's cuts).
    pub scoring: Scoring,
}

impl Question {
    /// The answer, from the articles' own minimax.
    pub fn answer(&self) -> Answer {
        match self.ask {
            Ask::Value => Answer::Value(reference::minimax_value(&self.board, self.scoring)),
            Ask::Best => {
                let values = self.move_values();
                let top = self.role().pick(values.iter().map(|&(_, value)| value));
                Answer::Best(
                    values
                        .iter()
                        .filter(|&&(_, value)| Some(value) == top)
                        .map(|&(mv, _)| mv)
                        .collect(),
                )
            }
            Ask::Calls => Answer::Calls(reference::tree_size(&self.board)),
            Ask::Pruned => Answer::Pruned(self.cuts().into_iter().map(|cut| cut.path).collect()),
        }
    }

    /// The question in words.
    pub fn prompt(&self) -> String {
        self.words().0
    }

    /// The question in a few words, for a line of a small screen.
    pub fn short_prompt(&self) -> String {
        self.words().1
    }

    /// The question in full and in a few words.
    fn words(&self) -> (String, String) {
        let to_move = self.board.to_move();
        let maximizer = self.scoring.maximizer(to_move);
        match self.ask {
            Ask::Value => (
                format!("What is this position worth to {maximizer}: its best move's score, as findBestMove prints it (call 1 of the trace)? A number."),
                format!("what is the position worth to {maximizer}?"),
            ),
            Ask::Best => (
                format!("Which move scores best for {to_move}? A square named by column and row (a1 is top left), its digit 1-9 in reading order, or ROW COL from 0 (1 1)."),
                format!("which move scores best for {to_move}?"),
            ),
            Ask::Calls => (
                "How many calls does plain minimax make from this position, this one included? A number.".to_string(),
                "how many calls does plain minimax make?".to_string(),
            ),
            Ask::Pruned => (
                "Which branches does alpha-beta never search? Each as the moves from here to the move it skips, moves apart by spaces, branches by commas (b1 b2, c3), or none.".to_string(),
                "which branches does alpha-beta skip?".to_string(),
            ),
        }
    }

    /// Whether `text` is a right answer; `Err` says why it is no answer at all.
    pub fn check(&self, text: &str) -> Result<bool, String> {
        self.check_with(self.answer(), text)
    }

    /// The question with its answer and why worked out once ([`Solved`]),
    /// so that checking an answer takes no more thinking.
    pub fn solve(&self) -> Solved {
        let answer = self.answer();
        Solved {
            question: *self,
            key: Question::key_of(&answer),
            explanation: self.explain_with(&answer),
            answer,
        }
    }

    fn check_with(&self, answer: Answer, text: &str) -> Result<bool, String> {
        let text = text.trim();
        match (self.ask, answer) {
            (Ask::Value, Answer::Value(value)) => parse_number(text)
                .map(|given| given == i64::from(value))
                .ok_or_else(|| format!("{:?} is not a number such as +10, -9 or 0", echo(text))),
            (Ask::Best, Answer::Best(best)) => match self.board.geometry().parse_square(text) {
                Ok(given) if self.board.get(given).is_some() => {
                    Err(format!("{given} is taken: a move goes on a free square"))
                }
                Ok(given) => Ok(best.contains(&given)),
                Err(error) => Err(error.to_string()),
            },
            (Ask::Calls, Answer::Calls(calls)) => parse_number(text)
                .map(|given| given == calls as i64)
                .ok_or_else(|| format!("{:?} is not a number such as 9", echo(text))),
            (Ask::Pruned, Answer::Pruned(paths)) => {
                let given = self.parse_paths(text)?;
                let (mut given, mut expected) = (given, paths);
                given.sort();
                expected.sort();
                Ok(given == expected)
            }
            _ => unreachable!("each kind of question has its kind of answer"),
        }
    }

    /// What a right answer `text` is told: the move given where the
    /// question asks for the best move (`b3`, one of several that tie:
    /// the explanation names them all), else the answer
    /// ([`Question::key`]).
    pub fn right_words(&self, text: &str) -> String {
        let answer = self.answer();
        match (&answer, self.board.geometry().parse_square(text)) {
            (Answer::Best(_), Ok(given)) => given.to_string(),
            _ => Question::key_of(&answer),
        }
    }

    /// The answer exactly as [`Question::check`] accepts it: `+10`, `b2`,
    /// `9`, `b1 b2, c3` or `none`. Where several moves score best, the
    /// first, as `findBestMove` keeps it.
    pub fn key(&self) -> String {
        Question::key_of(&self.answer())
    }

    fn key_of(answer: &Answer) -> String {
        match answer {
            Answer::Value(value) => signed(*value),
            Answer::Best(best) => best.first().map_or_else(String::new, Square::to_string),
            Answer::Calls(calls) => calls.to_string(),
            Answer::Pruned(paths) if paths.is_empty() => "none".to_string(),
            Answer::Pruned(paths) => paths
                .iter()
                .map(|path| squares(path))
                .collect::<Vec<_>>()
                .join(", "),
        }
    }

    /// Why the answer is what it is, with the numbers the other views show:
    /// the position's moves and their values, and where the tree is small
    /// the calls under them.
    pub fn explain(&self) -> String {
        self.explain_with(&self.answer())
    }

    fn explain_with(&self, answer: &Answer) -> String {
        let to_move = self.board.to_move();
        let values = self.move_values();
        let listed: Vec<String> = values
            .iter()
            .map(|(mv, value)| format!("{mv} {}", signed(*value)))
            .collect();
        let moves = format!("{to_move}'s moves score {}", listed.join(", "));
        match answer {
            Answer::Value(value) => format!(
                "{moves}; {to_move} to move takes the {}: {}.",
                role_takes(self.role()),
                self.reason(*value)
            ),
            Answer::Best(best) => {
                let names: Vec<String> = best.iter().map(Square::to_string).collect();
                let which = if names.len() == 1 {
                    format!("{} scores best", names[0])
                } else {
                    format!(
                        "{} score best, any of them (findBestMove keeps the first, {})",
                        names.join(", "),
                        names[0]
                    )
                };
                let top = self
                    .role()
                    .pick(values.iter().map(|&(_, value)| value))
                    .unwrap_or(0);
                format!("{moves}; {which}: {}.", self.reason(top))
            }
            Answer::Calls(calls) => {
                let below: Vec<(Square, u64)> = self
                    .board
                    .legal_moves()
                    .into_iter()
                    .filter_map(|mv| Some((mv, reference::tree_size(&self.board.play(mv).ok()?))))
                    .collect();
                let each: Vec<String> = below
                    .iter()
                    .map(|(mv, size)| format!("{mv} {}", thousands(*size)))
                    .collect();
                let sum: Vec<String> = below.iter().map(|(_, size)| thousands(*size)).collect();
                format!(
                    "Call 1 is this position, and each move adds the calls below it: {}. In all 1 + {} = {}.",
                    each.join(", "),
                    sum.join(" + "),
                    thousands(*calls)
                )
            }
            Answer::Pruned(_) => {
                let cuts = self.cuts();
                if cuts.is_empty() {
                    return format!(
                        "Alpha-beta searches every branch here: no reply ever settles a call before the last. {moves}."
                    );
                }
                let told: Vec<String> = cuts
                    .iter()
                    .map(|cut| format!("{} ({})", squares(&cut.path), cut.why))
                    .collect();
                format!("Alpha-beta skips {}.", told.join("; "))
            }
        }
    }

    /// How the best value is counted: "+10 = 10 - depth 0: X wins on this move".
    fn reason(&self, top: i32) -> String {
        let analysis = analyze(&self.board, Limits::ToTheEnd);
        let win = self.board.geometry().win_score();
        let best = analysis.moves.iter().find(|scored| {
            let mover = self.board.to_move();
            self.scoring.shown(scored.score, scored.exact, win, mover) == top
        });
        best.map_or_else(
            || signed(top),
            |scored| {
                score_reason(
                    top,
                    analysis.outlook_of(*scored),
                    self.board.to_move(),
                    self.scoring,
                    win,
                )
            },
        )
    }

    /// The part of the side to move: max, or min for O with CS50's scores.
    fn role(&self) -> Role {
        let to_move = self.board.to_move();
        Role::of(to_move, self.scoring.maximizer(to_move))
    }

    /// Every move's score by plain minimax, in reading order.
    fn move_values(&self) -> Vec<(Square, i32)> {
        reference::move_values(&self.board, Algorithm::Minimax, self.scoring).moves
    }

    /// Every branch alpha-beta skips, with the reason, in the order it skips them.
    fn cuts(&self) -> Vec<Cut> {
        let mut cuts = Vec::new();
        // The open calls, each with the moves that led to it.
        let mut open: Vec<(Call, Vec<Square>)> = Vec::new();
        for step in Walk::new(&self.board, Algorithm::AlphaBeta, self.scoring) {
            match step {
                Step::Enter(call) => {
                    let mut path = open
                        .last()
                        .map(|(_, path)| path.clone())
                        .unwrap_or_default();
                    path.extend(call.mv);
                    open.push((call, path));
                }
                Step::Return(done) => {
                    let Some((call, path)) = open.pop() else {
                        break;
                    };
                    let window = call.window.unwrap_or(Window::OPEN);
                    for mv in done.cut.iter() {
                        let mut skipped = path.clone();
                        skipped.push(mv);
                        cuts.push(Cut {
                            path: skipped,
                            why: cut_reason(&call, done.score, window),
                        });
                    }
                }
            }
        }
        cuts
    }

    /// Reads a list of paths: `none`, or squares apart by spaces, paths by commas.
    fn parse_paths(&self, text: &str) -> Result<Vec<Vec<Square>>, String> {
        if text.eq_ignore_ascii_case("none") {
            return Ok(Vec::new());
        }
        text.split(',')
            .map(|path| {
                let squares: Option<Vec<Square>> = path
                    .split_whitespace()
                    .map(|square| self.board.geometry().parse_square(square).ok())
                    .collect();
                squares
                    .filter(|squares| !squares.is_empty())
                    .ok_or_else(|| {
                        format!(
                            "{:?} is not a path of squares such as b1 b2",
                            echo(path.trim())
                        )
                    })
            })
            .collect()
    }
}

/// A question with its answer, the answer's key and why, worked out once:
/// checking an answer against it is instant (on the empty board working it
/// out takes a tenth of a second, which the full screen spends on the
/// engine's thread).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solved {
    /// The question.
    pub question: Question,
    answer: Answer,
    key: String,
    explanation: String,
}

impl Solved {
    /// Whether `text` is a right answer; `Err` says why it is no answer at
    /// all (as [`Question::check`]).
    pub fn check(&self, text: &str) -> Result<bool, String> {
        self.question.check_with(self.answer.clone(), text)
    }

    /// The answer as [`Question::key`] gives it.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// Why the answer is what it is, as [`Question::explain`] says it.
    pub fn explanation(&self) -> &str {
        &self.explanation
    }
}

/// A branch alpha-beta skips, and why.
struct Cut {
    path: Vec<Square>,
    why: String,
}

/// Squares apart by spaces: `b1 b2`.
fn squares(path: &[Square]) -> String {
    path.iter()
        .map(Square::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// A whole number, with a sign or thousands separators if given.
fn parse_number(text: &str) -> Option<i64> {
    let digits: String = text.chars().filter(|&c| c != ',' && c != '_').collect();
    digits.strip_prefix('+').unwrap_or(&digits).parse().ok()
}

/// The questions the game asks about the position on screen (its quiz
/// key): on an unfinished 3x3 board, its value and a best move always, and
/// the calls and the pruned branches once few enough squares are free to
/// count them by hand. Empty when there is nothing to ask.
pub fn about(board: &Board, scoring: Scoring) -> Vec<Question> {
    if !board.is_classic() || board.status().is_over() {
        return Vec::new();
    }
    let free = board.empty_cells().len();
    Ask::ALL
        .into_iter()
        .filter(|ask| free <= *ask.empty_squares().end())
        .chain([Ask::Value, Ask::Best].into_iter().filter(|_| free > 7))
        .map(|ask| Question {
            board: *board,
            ask,
            scoring,
        })
        .collect()
}

/// `count` questions about positions from games the AIs play, the same for
/// the same seed: the kinds in turn, each position from a game of its own
/// with the side to move at a point that suits the question.
pub fn questions(seed: u64, count: usize, scoring: Scoring) -> Vec<Question> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut ai = Ai::new();
    let mut asked: Vec<Question> = Vec::with_capacity(count);
    while asked.len() < count {
        let ask = Ask::ALL[asked.len() % Ask::ALL.len()];
        // A real game: two AIs of levels that make mistakes now and then.
        let levels = [Level::Medium, Level::Hard, Level::Perfect];
        let (x, o) = (
            levels[rng.usize(..levels.len())],
            levels[rng.usize(..levels.len())],
        );
        let mut dice = Dice::with_seed(rng.u64(..));
        let mut board = Board::new();
        let mut positions = Vec::new();
        while let Status::InProgress { to_move } = board.status() {
            if ask.empty_squares().contains(&board.empty_cells().len()) {
                positions.push(board);
            }
            let level = if to_move == tictactoe_engine::Player::X {
                x
            } else {
                o
            };
            let Some(decision) = ai.choose(&board, level, &mut dice, Limits::ToTheEnd) else {
                break;
            };
            let Ok(next) = board.play(decision.mv) else {
                break;
            };
            board = next;
        }
        if positions.is_empty() {
            continue;
        }
        let board = positions[rng.usize(..positions.len())];
        if asked.iter().any(|q| q.board == board && q.ask == ask) {
            continue;
        }
        asked.push(Question {
            board,
            ask,
            scoring,
        });
    }
    asked
}

/// Asks each question, reads an answer a line, says right or wrong and why,
/// and ends with the score. The input ending ends the quiz. On a terminal
/// the answer is typed after a `>` prompt; otherwise it is written back
/// after one, so the transcript reads the same. `show` gives the lines a
/// position is shown in; a line of one of the `leave` words stops the quiz
/// early, its questions left unanswered.
pub fn ask_all(
    asked: &[Question],
    seed: u64,
    terminal: bool,
    show: &dyn Fn(&Board) -> Vec<String>,
    leave: &[&str],
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> io::Result<()> {
    let stop = leave
        .first()
        .map(|word| format!("; {word} stops it"))
        .unwrap_or_default();
    writeln!(
        out,
        "The quiz: {} questions about positions from real games (seed {seed}){stop}.",
        asked.len()
    )?;
    if let Some(first) = asked.first() {
        let win = first.board.geometry().win_score();
        writeln!(out, "Scores: {}.", scoring_legend(first.scoring, win))?;
    }
    let mut right = 0;
    let mut answered = 0;
    'questions: for (number, question) in asked.iter().enumerate() {
        writeln!(out)?;
        writeln!(
            out,
            "Question {} of {}: {}, {} to move.",
            number + 1,
            asked.len(),
            question.board,
            question.board.to_move()
        )?;
        for line in show(&question.board) {
            writeln!(out, "{line}")?;
        }
        writeln!(out, "{}", question.prompt())?;
        loop {
            if terminal {
                write!(out, "> ")?;
                out.flush()?;
            }
            let Some(line) = read_line(input)? else {
                if terminal {
                    writeln!(out)?;
                }
                break 'questions;
            };
            if !terminal {
                writeln!(out, "> {}", escaped(&line.echo()))?;
            }
            let word = line.text.trim().to_ascii_lowercase();
            if leave.contains(&word.as_str()) {
                break 'questions;
            }
            match question.check(&line.text) {
                Ok(correct) => {
                    answered += 1;
                    if correct {
                        right += 1;
                        writeln!(out, "Right: {}.", question.right_words(&line.text))?;
                    } else {
                        writeln!(out, "Not quite: the answer is {}.", question.key())?;
                    }
                    writeln!(out, "{}", question.explain())?;
                    break;
                }
                Err(problem) => writeln!(out, "That is no answer: {problem}. Try again.")?,
            }
        }
    }
    writeln!(out)?;
    let unanswered = asked.len() - answered;
    if unanswered > 0 {
        writeln!(out, "{right}/{answered} right ({unanswered} not answered).")?;
    } else {
        writeln!(out, "{right}/{answered} right.")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn question(board: &str, ask: Ask) -> Question {
        Question {
            board: board.parse().unwrap(),
            ask,
            scoring: Scoring::Depth,
        }
    }

    #[test]
    fn the_freecodecamp_board_answers_as_the_article_does() {
        let value = question("o.x/x.x/.oo", Ask::Value);
        assert_eq!(value.key(), "+10");
        assert_eq!(value.check("10"), Ok(true));
        assert_eq!(value.check("+9"), Ok(false));
        assert!(value.check("nine").is_err());
        let best = question("o.x/x.x/.oo", Ask::Best);
        assert_eq!(best.key(), "b2");
        assert_eq!(best.check(" B2 "), Ok(true));
        // A digit names a square, as in the game.
        assert_eq!(best.check("5"), Ok(true));
        assert_eq!(
            best.check("9"),
            Err("c3 is taken: a move goes on a free square".to_string())
        );
        assert_eq!(
            best.check("c3"),
            Err("c3 is taken: a move goes on a free square".to_string())
        );
        assert_eq!(question("o.x/x.x/.oo", Ask::Calls).key(), "9");
        let pruned = question("o.x/x.x/.oo", Ask::Pruned);
        // Call 6 (a3 X) cuts O's reply b2 after b1 O returns +8.
        assert_eq!(pruned.key(), "a3 b2");
        assert_eq!(pruned.check("a3 b2"), Ok(true));
        assert_eq!(pruned.check("none"), Ok(false));
        assert!(
            pruned
                .explain()
                .contains("+8 <= alpha +10: X has better elsewhere")
        );
    }

    #[test]
    fn the_game_asks_what_can_be_counted_by_hand() {
        let kinds = |board: &str| -> Vec<Ask> {
            about(&board.parse().unwrap(), Scoring::Depth)
                .iter()
                .map(|q| q.ask)
                .collect()
        };
        assert_eq!(kinds("o.x/x.x/.oo"), Ask::ALL);
        assert_eq!(kinds("x../.o./..."), [Ask::Value, Ask::Best]);
        assert_eq!(kinds("........."), [Ask::Value, Ask::Best]);
        assert!(kinds("xxx/oo./...").is_empty());
        let big: Board = "..../..../..../....".parse().unwrap();
        assert!(about(&big, Scoring::Depth).is_empty());
    }

    #[test]
    fn the_same_seed_asks_the_same_questions() {
        let a = questions(7, 8, Scoring::Depth);
        assert_eq!(a, questions(7, 8, Scoring::Depth));
        assert_eq!(a.len(), 8);
        for (i, question) in a.iter().enumerate() {
            assert_eq!(question.ask, Ask::ALL[i % 4]);
            assert!(!question.board.status().is_over());
            assert_eq!(question.check(&question.key()), Ok(true), "{question:?}");
        }
    }
}

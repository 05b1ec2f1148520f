//! The quiz opened with `z`: the questions of `tictactoe quiz`, asked about
//! the position on the board. The answer is typed into the panel, Enter
//! checks it against the articles' minimax and says why, Enter again asks the
//! next question, and after the last the panel gives the score. The answers
//! are worked out on the engine's thread as the quiz opens
//! ([`Request::Quiz`]); an Enter before they are in is checked when they come.

use super::message::{Request, Said};
use tictactoe_engine::{Board, Scoring};
use tictactoe_game::present::scoring_legend;
use tictactoe_game::quiz::{self, Ask, Question, Solved};

/// Longest answer kept: more than any list of pruned branches needs.
const MOST_TYPED: usize = 120;

/// What the last Enter found.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Checked {
    /// Nothing checked yet for this question.
    Open,
    /// Enter was pressed before the answers were worked out: checked when they are.
    Waiting,
    /// The text is no answer at all: why, and the player types again.
    NotAnswer(String),
    /// Right, with the explanation.
    Right(String),
    /// Wrong, with the expected answer and the explanation.
    Wrong { key: String, why: String },
}

/// The quiz on screen: its questions, the one asked, the answer typed.
#[derive(Debug, Clone)]
pub struct QuizView {
    questions: Vec<Question>,
    /// Each question with its answer, once the engine has worked them out.
    solved: Option<Vec<Solved>>,
    /// The answers are asked of the engine.
    asked: bool,
    at: usize,
    typed: String,
    checked: Checked,
    right: usize,
}

impl QuizView {
    /// The quiz about `board`, or `None` where there is nothing to ask (a
    /// finished game, a board bigger than 3x3).
    pub fn new(board: &Board, scoring: Scoring) -> Option<QuizView> {
        let questions = quiz::about(board, scoring);
        (!questions.is_empty()).then_some(QuizView {
            questions,
            solved: None,
            asked: false,
            at: 0,
            typed: String::new(),
            checked: Checked::Open,
            right: 0,
        })
    }

    /// The position asked about.
    pub fn board(&self) -> Board {
        self.questions[0].board
    }

    /// The work for the engine, once: the answers to every question.
    pub fn request(&mut self) -> Option<Request> {
        if self.asked || self.solved.is_some() {
            return None;
        }
        self.asked = true;
        Some(Request::Quiz {
            questions: self.questions.clone(),
        })
    }

    /// True until the answers are in.
    pub fn waiting(&self) -> bool {
        self.solved.is_none()
    }

    /// Takes the engine's answers to the questions, if they are this
    /// quiz's; an Enter that waited for them is checked now.
    pub fn receive(&mut self, solved: Vec<Solved>) {
        let ours = solved
            .iter()
            .map(|solved| solved.question)
            .eq(self.questions.iter().copied());
        if !ours || self.solved.is_some() {
            return;
        }
        self.solved = Some(solved);
        if self.checked == Checked::Waiting {
            self.check();
        }
    }

    /// True once every question has been answered.
    pub fn is_done(&self) -> bool {
        self.at >= self.questions.len()
    }

    /// True once the answer to the question asked is checked.
    pub fn answered(&self) -> bool {
        matches!(self.checked, Checked::Right(_) | Checked::Wrong { .. })
    }

    /// A character of the answer. Ignored once it is checked (Enter moves on).
    pub fn type_char(&mut self, c: char) {
        let waiting = self.checked == Checked::Waiting;
        if self.is_done() || self.answered() || waiting || c.is_control() {
            return;
        }
        if self.typed.chars().count() < MOST_TYPED {
            self.typed.push(c);
        }
        self.checked = Checked::Open;
    }

    /// Takes back the last character typed.
    pub fn erase(&mut self) {
        if !self.answered() && self.checked != Checked::Waiting {
            self.typed.pop();
            self.checked = Checked::Open;
        }
    }

    /// Enter: checks the answer typed, or after a checked answer asks the
    /// next question. Returns false once the quiz is over and Enter closes it.
    pub fn enter(&mut self) -> bool {
        if self.is_done() {
            return false;
        }
        if self.answered() {
            self.at += 1;
            self.typed.clear();
            self.checked = Checked::Open;
            return true;
        }
        if self.typed.trim().is_empty() {
            return true;
        }
        self.checked = Checked::Waiting;
        self.check();
        true
    }

    /// Checks the answer typed against the worked-out answer, if it is in.
    fn check(&mut self) {
        let Some(solved) = self.solved.as_ref().and_then(|solved| solved.get(self.at)) else {
            return;
        };
        let why = solved.explanation().to_string();
        self.checked = match solved.check(&self.typed) {
            Ok(true) => {
                self.right += 1;
                Checked::Right(why)
            }
            Ok(false) => Checked::Wrong {
                key: solved.key().to_string(),
                why,
            },
            Err(why) => Checked::NotAnswer(why),
        };
    }

    /// The status line under the board.
    pub fn status(&self) -> String {
        let total = self.questions.len();
        if self.is_done() {
            return format!("Quiz over: {}/{total} right", self.right);
        }
        let number = self.at + 1;
        match &self.checked {
            Checked::Right(_) => format!("Question {number} of {total}: right"),
            Checked::Wrong { .. } => format!("Question {number} of {total}: wrong"),
            Checked::Waiting => format!("Question {number} of {total}: checking…"),
            // What is typed shows here too, for screens with no room for the panel's line.
            Checked::Open | Checked::NotAnswer(_) if self.typed.is_empty() => {
                format!("Question {number} of {total}: type your answer")
            }
            Checked::Open | Checked::NotAnswer(_) => {
                format!("Question {number} of {total}: {}_", self.typed)
            }
        }
    }

    /// The panel's lines, each with its importance (1 most); `short` for
    /// the few lines a small screen has in the panel's place.
    pub fn items(&self, short: bool) -> Vec<(u8, Said)> {
        let mut items = Vec::new();
        let total = self.questions.len();
        if self.is_done() {
            items.push((1, Said::Heading(format!("Quiz on {}:", self.board()))));
            items.push((1, Said::Text(format!("{}/{total} right.", self.right))));
            items.push((
                3,
                Said::Faint("tictactoe quiz asks more, about positions from real games.".into()),
            ));
            return items;
        }
        let question = &self.questions[self.at];
        let answered = self.answered();
        // Small screens keep the question while it is open, then the verdict
        // and its reasons; the heading and the legend go first.
        if short {
            // A line or two under the title: the question in a few words.
            let asked = format!("{}/{total}: {}", self.at + 1, question.short_prompt());
            items.push((if answered { 4 } else { 1 }, Said::Text(asked)));
        } else {
            let heading = format!(
                "Question {} of {total}: {}",
                self.at + 1,
                question.ask.name()
            );
            items.push((3, Said::Heading(heading)));
            items.push((if answered { 4 } else { 1 }, Said::Text(question.prompt())));
        }
        if matches!(question.ask, Ask::Value | Ask::Best) {
            let win = question.board.geometry().win_score();
            let legend = format!("Scores: {}.", scoring_legend(question.scoring, win));
            items.push((5, Said::Faint(legend)));
        }
        if !answered {
            items.push((6, Said::Gap));
        }
        let cursor = if answered { "" } else { "_" };
        // The status line shows what is typed too, so this line may go.
        items.push((2, Said::Text(format!("Answer: {}{cursor}", self.typed))));
        let reasons = |why: &str, items: &mut Vec<(u8, Said)>| {
            // A sentence an item, so that a short panel keeps what fits.
            // The last says how the answer's number is counted: it stays longest.
            let parts: Vec<&str> = why.split("; ").collect();
            for (i, part) in parts.iter().enumerate() {
                let importance = if i + 1 == parts.len() { 2 } else { 3 };
                items.push((importance, Said::Text(part.to_string())));
            }
        };
        match &self.checked {
            Checked::Open | Checked::Waiting => {}
            Checked::NotAnswer(why) => items.push((1, Said::Text(format!("{why}.")))),
            Checked::Right(why) => {
                items.push((1, Said::Text("Right.".into())));
                reasons(why, &mut items);
            }
            Checked::Wrong { key, why } => {
                items.push((1, Said::Text(format!("Not quite: the answer is {key}."))));
                reasons(why, &mut items);
            }
        }
        items
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The quiz about `board`, its answers worked out as the engine would.
    fn solved(board: &Board, scoring: Scoring) -> QuizView {
        let mut view = QuizView::new(board, scoring).expect("questions");
        let Some(Request::Quiz { questions }) = view.request() else {
            panic!("the answers are asked for")
        };
        view.receive(questions.iter().map(Question::solve).collect());
        view
    }

    fn typed(view: &mut QuizView, text: &str) {
        for c in text.chars() {
            view.type_char(c);
        }
    }

    fn said(view: &QuizView) -> String {
        view.items(false)
            .into_iter()
            .map(|(_, said)| match said {
                Said::Text(text) | Said::Heading(text) | Said::Faint(text) => text,
                Said::Figure(a, b) => format!("{a} {b}"),
                Said::Gap => String::new(),
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn the_freecodecamp_board_is_asked_all_four_kinds() {
        let board: Board = "o.x/x.x/.oo".parse().unwrap();
        let mut view = solved(&board, Scoring::Depth);
        assert_eq!(view.status(), "Question 1 of 4: type your answer");
        // Not a number: said, and typing again clears it.
        typed(&mut view, "nine");
        view.enter();
        assert!(said(&view).contains("is not a number"), "{}", said(&view));
        for _ in 0..4 {
            view.erase();
        }
        typed(&mut view, "+10");
        assert_eq!(view.status(), "Question 1 of 4: +10_");
        view.enter();
        assert_eq!(view.status(), "Question 1 of 4: right");
        assert!(said(&view).contains("Right."));
        // Typing after the check does nothing; Enter asks the next.
        typed(&mut view, "x");
        assert!(said(&view).contains("Answer: +10\n"));
        view.enter();
        // A taken square is no answer: said, and the question stays open.
        typed(&mut view, "c3");
        view.enter();
        assert!(said(&view).contains("c3 is taken"), "{}", said(&view));
        view.erase();
        view.erase();
        typed(&mut view, "a3");
        view.enter();
        assert_eq!(view.status(), "Question 2 of 4: wrong");
        assert!(said(&view).contains("Not quite: the answer is b2."));
        view.enter();
        typed(&mut view, "9");
        view.enter();
        view.enter();
        typed(&mut view, "a3 b2");
        view.enter();
        assert!(view.enter());
        assert!(view.is_done());
        assert_eq!(view.status(), "Quiz over: 3/4 right");
        assert!(!view.enter());
    }

    #[test]
    fn an_enter_before_the_answers_are_in_is_checked_when_they_come() {
        let board: Board = "o.x/x.x/.oo".parse().unwrap();
        let mut view = QuizView::new(&board, Scoring::Depth).unwrap();
        let Some(Request::Quiz { questions }) = view.request() else {
            panic!("the answers are asked for")
        };
        assert!(view.request().is_none(), "once");
        typed(&mut view, "+10");
        view.enter();
        assert_eq!(view.status(), "Question 1 of 4: checking…");
        // Keys wait with it: the answer checked is the one typed.
        typed(&mut view, "0");
        view.erase();
        view.receive(questions.iter().map(Question::solve).collect());
        assert_eq!(view.status(), "Question 1 of 4: right");
        assert!(said(&view).contains("Answer: +10\n"), "{}", said(&view));
    }

    #[test]
    fn plain_scores_are_the_articles() {
        let board: Board = "o.x/x.x/.oo".parse().unwrap();
        let mut view = solved(&board, Scoring::Plain);
        typed(&mut view, "10");
        view.enter();
        assert_eq!(view.status(), "Question 1 of 4: right");
    }

    #[test]
    fn nothing_to_ask_on_a_finished_or_bigger_board() {
        for board in ["xxx/oo./...", "..../..../..../...."] {
            let board: Board = board.parse().unwrap();
            assert!(QuizView::new(&board, Scoring::Depth).is_none());
        }
    }
}

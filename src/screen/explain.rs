//! The explain overlay: every move's score on the board, the line behind
//! the score under the cursor, and what scoring the position costs each
//! way. Everything it says is about the position on screen.

use std::time::Duration;

use super::app::{App, Request};
use crate::engine::line::{Line, move_list};
use crate::engine::{Analysis, Board, Level, Limits, Method, Move, Status};
use crate::text::{percent_saved, thousands};

/// What scoring every move of one position costs, idea by idea, so the
/// explain panel can say what each saves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Costs {
    /// Calls of the seed's plain minimax; `None` when far too many to count.
    pub minimax: Option<u64>,
    /// Calls of the seed's minimax with alpha-beta pruning alone; `None` when too many.
    pub alpha_beta: Option<u64>,
    /// Positions the engine's search examines (alpha-beta, its table, the
    /// symmetries and its shortcuts) on 3x3, where the answer itself comes
    /// from the compiled table; bigger boards report their own search.
    pub search: Option<u64>,
    /// How long that search took.
    pub search_time: Option<Duration>,
}

/// Every move's score in one position and the line behind each.
#[derive(Debug, Clone)]
struct Scored {
    analysis: Analysis,
    lines: Vec<Line>,
}

/// The explain overlay's state: whether it is on, and what the engine said
/// about the positions asked about. Answers are kept by position, so they
/// are shown only while their position is on screen.
#[derive(Debug, Default)]
pub struct Explain {
    on: bool,
    scored: Option<Scored>,
    costs: Option<(Board, Costs)>,
    /// Positions already sent off for scoring or counting, so each is asked once.
    asked_scores: Option<Board>,
    asked_costs: Option<Board>,
}

impl Explain {
    /// Shows or hides the overlay.
    pub fn toggle(&mut self) {
        self.on = !self.on;
    }

    /// True while the overlay is on.
    pub fn is_on(&self) -> bool {
        self.on
    }

    /// What the overlay still needs to know about `board`, if anything:
    /// the scores first, then the costs. Each is asked once.
    pub fn request(&mut self, board: Board, limits: Limits) -> Option<Request> {
        if !self.on || board.status().is_over() {
            return None;
        }
        if self.analysis(board).is_none() && self.asked_scores != Some(board) {
            self.asked_scores = Some(board);
            return Some(Request::Explain { board, limits });
        }
        if self.costs(board).is_none() && self.asked_costs != Some(board) {
            self.asked_costs = Some(board);
            return Some(Request::Costs { board });
        }
        None
    }

    /// Takes the scores of a position and the lines behind them.
    pub fn receive_scores(&mut self, analysis: Analysis, lines: Vec<Line>) {
        self.scored = Some(Scored { analysis, lines });
    }

    /// Takes what scoring a position costs.
    pub fn receive_costs(&mut self, board: Board, costs: Costs) {
        self.costs = Some((board, costs));
    }

    /// Every move's score in `board`, once the engine has answered.
    pub fn analysis(&self, board: Board) -> Option<&Analysis> {
        self.scored
            .as_ref()
            .map(|scored| &scored.analysis)
            .filter(|analysis| analysis.board == board)
    }

    /// The line behind `mv`'s score in `board`, once known.
    pub fn line(&self, board: Board, mv: Move) -> Option<&Line> {
        let scored = self.scored.as_ref().filter(|s| s.analysis.board == board)?;
        let index = scored.analysis.moves.iter().position(|m| m.mv == mv)?;
        scored.lines.get(index)
    }

    /// What scoring `board` costs each way, once counted.
    pub fn costs(&self, board: Board) -> Option<&Costs> {
        self.costs
            .as_ref()
            .filter(|(counted, _)| *counted == board)
            .map(|(_, costs)| costs)
    }

    /// True while the scores of `board` are asked for and not in yet. (Only
    /// a position in progress is ever asked about.)
    pub fn scoring(&self, board: Board) -> bool {
        self.on && self.asked_scores == Some(board) && self.analysis(board).is_none()
    }

    /// True while the costs of `board` are asked for and not in yet.
    pub fn counting(&self, board: Board) -> bool {
        self.on && self.asked_costs == Some(board) && self.costs(board).is_none()
    }
}

/// The moves of a line from `board`, `mv` first, with the result:
/// "b2 X, a1 O, c3 X: X wins in 2". `None` unless `mv` has been scored.
pub fn line_text(analysis: &Analysis, line: &Line, mv: Move) -> Option<String> {
    let scored = analysis.moves.iter().find(|m| m.mv == mv)?;
    // A move and its side stay on one line: a no-break space joins them.
    let moves = move_list(
        &analysis.board,
        std::iter::once(mv).chain(line.moves.iter().copied()),
    )
    .replace(" X", "\u{a0}X")
    .replace(" O", "\u{a0}O");
    let result = if line.proven {
        analysis
            .outlook_of(*scored)
            .result_for(analysis.board.to_move())
    } else {
        "as far as the search looked".to_string()
    };
    Some(format!("{moves}: {result}"))
}

/// One thing the explain panel says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Said {
    /// A sentence, wrapped by words when it is too long for a line.
    Text(String),
    /// A sentence in a faint style: a legend or a note.
    Faint(String),
    /// An empty line between topics.
    Gap,
    /// A named figure, such as positions searched.
    Figure(String, String),
}

/// What the explain panel says about the position on screen, each with its
/// importance: 1 is kept longest when space is short.
pub fn explain_items(app: &App) -> Vec<(u8, Said)> {
    let mut items: Vec<(u8, Said)> = Vec::new();
    let board = app.board();
    let Status::InProgress { to_move } = board.status() else {
        let end = match board.status() {
            Status::Won(winner) => format!("{winner} won"),
            _ => "A draw".to_string(),
        };
        items.push((1, Said::Text(format!("{end}: no move left to score."))));
        return items;
    };
    let analysis = app.overlay();
    items.push((2, Said::Text(format!("Scores for {to_move} to move:"))));
    // One item, so a short screen drops the legend whole, never half a sentence.
    items.push((
        5,
        Said::Faint("+ win, - loss, 0 draw; sooner wins score higher".into()),
    ));
    if analysis.is_some_and(|a| !a.proven()) {
        items.push((3, Said::Faint("? estimated, not proven".into())));
    }
    items.push((6, Said::Gap));
    // The line of the square under the cursor; on a taken square, the best move's.
    let cursor = app.cursor();
    let best = analysis.and_then(Analysis::best).map(|best| best.mv);
    let (label, shown) = match (board.get(cursor), best) {
        (None, _) => ("Line", Some(cursor)),
        (Some(_), best) => ("Best", best),
    };
    let line = analysis.zip(shown).and_then(|(analysis, mv)| {
        let line = app.line(mv)?;
        line_text(analysis, line, mv)
    });
    match line {
        Some(text) => items.push((1, Said::Text(format!("{label}: {text}")))),
        None => items.push((2, Said::Faint(format!("{label}: …")))),
    }
    if board.get(cursor).is_some() {
        items.push((
            5,
            Said::Faint("(an empty square under the cursor shows its own line)".into()),
        ));
    }
    items.push((6, Said::Gap));
    costs(app, board, analysis, &mut items);
    if let Some(note) = slip_note(app) {
        items.push((6, Said::Gap));
        items.push((1, Said::Text(note)));
    }
    items
}

/// What scoring every move of the position costs: plain minimax, what
/// alpha-beta saves, what the engine's table and symmetries save beyond it,
/// and on 3x3 the compiled table that makes it a lookup.
fn costs(app: &App, board: Board, analysis: Option<&Analysis>, items: &mut Vec<(u8, Said)>) {
    let costs = app.costs();
    items.push((4, Said::Text("To score every move:".into())));
    let figure = |label: &str, value: String| Said::Figure(label.to_string(), value);
    let counted = |count: Option<Option<u64>>| match count {
        None => "counting…".to_string(),
        Some(None) => "too many".to_string(),
        Some(Some(n)) => thousands(n),
    };
    let minimax = costs.map(|c| c.minimax);
    let alpha_beta = costs.map(|c| c.alpha_beta);
    items.push((1, figure("plain minimax", counted(minimax))));
    if alpha_beta != Some(None) {
        items.push((2, figure("alpha-beta", counted(alpha_beta))));
        if let Some(saving) = saving(alpha_beta.flatten(), minimax.flatten()) {
            items.push((2, figure(" pruning saves", saving)));
        }
    }
    let table = analysis.is_some_and(|a| a.method == Method::Table);
    let searched = match analysis.map(|a| a.method) {
        Some(Method::Search { nodes, .. }) => Some(nodes),
        _ => costs.and_then(|c| c.search),
    };
    let search_label = if board.size() == 3 {
        "engine search"
    } else {
        "engine"
    };
    match searched {
        Some(nodes) => {
            items.push((1, figure(search_label, thousands(nodes))));
            if let Some(saving) = saving(Some(nodes), alpha_beta.flatten()) {
                items.push((2, figure(" table, symmetry", saving)));
            }
            if let Some(saving) = saving(Some(nodes), minimax.flatten()) {
                items.push((4, figure(" in all", saving)));
            }
        }
        None => items.push((1, figure(search_label, "scoring…".into()))),
    }
    if let Some(depth) = analysis.and_then(Analysis::depth) {
        items.push((3, figure(" depth", format!("{depth} plies"))));
    }
    let ms = |time: Duration| format!("{:.3} ms", time.as_secs_f64() * 1e3);
    if let Some(time) = costs.and_then(|c| c.search_time).filter(|_| table) {
        items.push((5, figure(" search time", ms(time))));
    }
    if table {
        items.push((1, figure("compiled table", "a lookup".into())));
    }
    if let Some(analysis) = analysis {
        let label = if table { "lookup time" } else { "time" };
        items.push((3, figure(label, ms(analysis.elapsed))));
    }
}

/// "93.8 %" for what doing `part` instead of `whole` saves; "+5.0 %" when
/// it costs more.
fn saving(part: Option<u64>, whole: Option<u64>) -> Option<String> {
    let (part, whole) = (part?, whole?);
    if part > whole {
        let more = percent_saved(whole, part)?;
        return Some(format!("costs more ({more} % less)"));
    }
    percent_saved(part, whole).map(|percent| format!("{percent} %"))
}

/// When the last move on the board was the hard level's deliberate slip,
/// what it chose instead of its best.
fn slip_note(app: &App) -> Option<String> {
    let report = app.report()?;
    let analysis = report.decision.analysis.as_ref()?;
    let after = report.before.play(report.decision.mv).ok()?;
    // Only while its move is the last one on the board.
    if report.level != Level::Hard || after != app.board() {
        return None;
    }
    let chosen = analysis.moves.iter().find(|m| m.mv == report.decision.mv)?;
    let best = analysis.best()?;
    if chosen.score >= best.score {
        return None;
    }
    Some(format!(
        "{} (hard) played {} on purpose: its second-best move ({}), where {} was {}.",
        report.player,
        report.decision.mv.coordinate(),
        analysis.outlook_of(*chosen),
        best.mv.coordinate(),
        analysis.outlook_of(best),
    ))
}

//! The explain overlay's state: every move's score on the board, the line
//! behind each, and what scoring the position costs each way (or, with the
//! lab on, the ladder of search techniques), kept by position. What the
//! panel says about them is [`super::panel`]'s.

use super::message::{Costs, Request};
use tictactoe_engine::teach::line::Line;
use tictactoe_engine::{Analysis, Board, Limits, Scoring, Square};
use tictactoe_grade::lab::Ladder;

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
    /// The panel shows the lab's ladder in place of the costs.
    lab: bool,
    scored: Option<Scored>,
    costs: Option<(Board, Costs)>,
    ladder: Option<Ladder>,
    /// Positions already sent off for scoring or counting, so each is asked once.
    asked_scores: Option<Board>,
    asked_costs: Option<Board>,
    asked_ladder: Option<Board>,
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

    /// The lab: turns the overlay on with the ladder in the panel, or with
    /// the ladder shown, back to the costs.
    pub fn toggle_lab(&mut self) {
        if self.on && self.lab {
            self.lab = false;
        } else {
            self.on = true;
            self.lab = true;
        }
    }

    /// True while the panel shows the lab's ladder.
    pub fn lab_on(&self) -> bool {
        self.on && self.lab
    }

    /// What the overlay still needs to know about `board`, if anything:
    /// the scores first, then the costs. Each is asked once.
    pub fn request(&mut self, board: Board, limits: Limits, scoring: Scoring) -> Option<Request> {
        if !self.on || board.status().is_over() {
            return None;
        }
        if self.analysis(board).is_none() && self.asked_scores != Some(board) {
            self.asked_scores = Some(board);
            return Some(Request::Explain { board, limits });
        }
        if self.lab {
            if self.ladder(board).is_none() && self.asked_ladder != Some(board) {
                self.asked_ladder = Some(board);
                return Some(Request::Lab { board, scoring });
            }
            return None;
        }
        if self.costs(board).is_none() && self.asked_costs != Some(board) {
            self.asked_costs = Some(board);
            return Some(Request::Costs { board, scoring });
        }
        None
    }

    /// Takes the lab's ladder of a position.
    pub fn receive_ladder(&mut self, ladder: Ladder) {
        self.ladder = Some(ladder);
    }

    /// The lab's ladder of `board`, once searched.
    pub fn ladder(&self, board: Board) -> Option<&Ladder> {
        self.ladder.as_ref().filter(|ladder| ladder.board == board)
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
    pub fn line(&self, board: Board, mv: Square) -> Option<&Line> {
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

    /// True while the costs of `board` (or its ladder, with the lab on)
    /// are asked for and not in yet.
    pub fn counting(&self, board: Board) -> bool {
        if self.lab {
            return self.on && self.asked_ladder == Some(board) && self.ladder(board).is_none();
        }
        self.on && self.asked_costs == Some(board) && self.costs(board).is_none()
    }
}

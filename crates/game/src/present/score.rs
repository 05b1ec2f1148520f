//! Scores in words: how they are counted (the legends, in the articles'
//! words), what one move's score means, and every move of a position as
//! each view lists it, the prover's results folded in, the best move marked.

use crate::text::{signed, thousands};
use tictactoe_engine::solve::{MOVE_SHARE, Unproven};
use tictactoe_engine::{Analysis, Outcome, Outlook, Player, Scoring, Square};

/// How scores are counted, in one line for a legend, in the articles'
/// words.
pub fn scoring_legend(scoring: Scoring, win: i32) -> String {
    match scoring {
        Scoring::Depth => format!(
            "depth 0 is the position after the move; a win at depth d scores {win} - d, \
             a loss -{win} + d, a draw 0"
        ),
        Scoring::Plain => format!("a win scores +{win}, a loss -{win}, a draw 0, however deep"),
        Scoring::Cs50 => "CS50's utility: +1 when X wins, -1 when O wins, a draw 0".to_string(),
    }
}

/// The legend of a tree or a trace, whose deeper scores the article's
/// recursion counts from the root: depth 0 is the position after the root's
/// move, and the depth goes on counting below it.
pub fn tree_legend(scoring: Scoring, win: i32) -> String {
    match scoring {
        Scoring::Depth => format!(
            "depth 0 is the position after the root's move; a win at depth d scores {win} - d, \
             a loss -{win} + d, a draw 0, counted from the root"
        ),
        Scoring::Plain | Scoring::Cs50 => scoring_legend(scoring, win),
    }
}

/// [`tree_legend`] in a few words, for a screen's header line.
pub fn tree_legend_short(scoring: Scoring, win: i32) -> String {
    match scoring {
        Scoring::Depth => format!("depth 0 after the root's move, a win at depth d is {win} - d"),
        Scoring::Plain => format!("plain scores: a win is +{win}, a loss -{win}"),
        Scoring::Cs50 => "CS50's utility: +1 X wins, -1 O wins".to_string(),
    }
}

/// How one move's score is counted, for the move's mover: "+10 = 10 -
/// depth 0: X wins on this move", "-9 = -10 + depth 1: O wins on the
/// reply", "0: a draw", "+10: X wins" (plain), "-1: O wins on the reply"
/// (CS50, for X), or "estimate" when not proven. `shown` is the score as
/// [`Scoring::shown`] shows it.
pub fn score_reason(
    shown: i32,
    outlook: Outlook,
    mover: Player,
    scoring: Scoring,
    win: i32,
) -> String {
    let number = signed(shown);
    let (Some(winner), Some(moves)) = (outlook.winner(mover), outlook.moves()) else {
        return match outlook {
            Outlook::Draw => format!("{number}: a draw with best play"),
            _ => format!("{number}: an estimate, not proven"),
        };
    };
    // The position after the move is depth 0: the mover's moves are at
    // depths 0, 2, 4, …, the other side's replies at 1, 3, ….
    let depth = if winner == mover {
        2 * (moves - 1)
    } else {
        2 * moves - 1
    };
    let when = match (winner == mover, moves) {
        (true, 1) => format!("{winner} wins on this move"),
        (false, 1) => format!("{winner} wins on the reply"),
        _ => format!("{winner} wins at depth {depth}"),
    };
    match scoring {
        Scoring::Depth if winner == mover => format!("{number} = {win} - depth {depth}: {when}"),
        Scoring::Depth => format!("{number} = -{win} + depth {depth}: {when}"),
        Scoring::Plain | Scoring::Cs50 => format!("{number}: {when}"),
    }
}

/// One move of a position as every view shows it: `analyze` (the grid, the
/// list, the JSON), the explain overlay and its panel, the screen reader.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveRow {
    /// The move.
    pub mv: Square,
    /// Its score as the scoring shows it ([`Scoring::shown`]); `None` where
    /// the prover proved the result but the search did not find how many
    /// moves it takes, so GeeksforGeeks' depth score is not known.
    pub score: Option<i32>,
    /// The score is exact ([`ScoredMove::exact`](tictactoe_engine::ScoredMove)),
    /// not an estimate. (The result, where proven, is the outlook's.)
    pub score_exact: bool,
    /// What the move means for its mover, the prover's results included.
    pub outlook: Outlook,
    /// The best move ([`Analysis::best_by`]): one per position.
    pub best: bool,
    /// Why the prover, asked for every move's result (`analyze --solve`),
    /// left this one unproven.
    pub unproven: Option<Unproven>,
}

impl MoveRow {
    /// The number as a view writes it: `+10`, `-9`, `0`, `+3?` for an
    /// estimate, or `win` / `loss` where only the result is known.
    pub fn number(&self) -> String {
        match self.score {
            Some(score) if self.score_exact => signed(score),
            Some(score) => format!("{}?", signed(score)),
            None if self.outlook == Outlook::ProvenWin => "win".to_string(),
            None => "loss".to_string(),
        }
    }

    /// What the move means, in a few words: its result where it is proven
    /// (`win in 2`, `loss in 1`, `draw`, or `win, length not found` where
    /// the search did not find how long it takes), else `estimate` (and
    /// why the prover left it, where it was asked).
    pub fn meaning(&self) -> String {
        match (self.outlook, self.unproven) {
            (Outlook::ProvenWin | Outlook::ProvenLoss, _) => {
                format!("{}, length not found", self.outlook)
            }
            (Outlook::Estimate, Some(why)) => format!("estimate: {}", unproven_words(why)),
            (outlook, _) => outlook.to_string(),
        }
    }

    /// The result with best play after the move, when `mover` plays it;
    /// `None` while not known.
    pub fn result(&self, mover: Player) -> Option<Outcome> {
        self.outlook.outcome(mover)
    }
}

/// Why the prover left a move unproven, in words.
pub fn unproven_words(why: Unproven) -> String {
    match why {
        Unproven::Share => format!(
            "not proven in its share of {} positions",
            thousands(MOVE_SHARE)
        ),
        Unproven::Time => "not proven by the time limit".to_string(),
        Unproven::Interrupted => "not proven: interrupted".to_string(),
    }
}

/// The legend of the words beside the scores: what they say is proven.
pub const PROVEN_LEGEND: &str =
    "a win, loss or draw named is proven; a score with ? is an estimate";

/// How one row's number is counted ([`score_reason`]), or, where only the
/// result is proven, that result: "win, length not found".
pub fn row_reason(row: &MoveRow, mover: Player, scoring: Scoring, win: i32) -> String {
    match row.score {
        Some(score) => score_reason(score, row.outlook, mover, scoring, win),
        None => format!("{}: {}", row.number(), row.meaning()),
    }
}

/// Every move of `analysis` in reading order as the views show it, counted
/// by `scoring`, the best one marked.
pub fn move_rows(analysis: &Analysis, scoring: Scoring) -> Vec<MoveRow> {
    let win = analysis.board.geometry().win_score();
    let mover = analysis.board.to_move();
    let best = analysis.best_by(scoring).map(|best| best.mv);
    analysis
        .moves
        .iter()
        .map(|&scored| {
            let outlook = analysis.outlook_of(scored);
            // Only the length of a proven result is missing: plain and CS50
            // scores do without it.
            let (score, score_exact) = match (outlook, scoring) {
                (Outlook::ProvenWin | Outlook::ProvenLoss, Scoring::Depth) => (None, false),
                (Outlook::ProvenWin, _) => (Some(scoring.shown(win, true, win, mover)), true),
                (Outlook::ProvenLoss, _) => (Some(scoring.shown(-win, true, win, mover)), true),
                _ => (
                    Some(scoring.shown(scored.score, scored.exact, win, mover)),
                    scored.exact,
                ),
            };
            MoveRow {
                mv: scored.mv,
                score,
                score_exact,
                outlook,
                best: Some(scored.mv) == best,
                unproven: analysis.settled.as_ref().and_then(|settled| {
                    settled
                        .unproven
                        .iter()
                        .find(|(mv, _)| *mv == scored.mv)
                        .map(|&(_, why)| why)
                }),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_score_says_how_it_is_counted() {
        let win = Outlook::Win { moves: 1 };
        let loss = Outlook::Loss { moves: 1 };
        assert_eq!(
            score_reason(10, win, Player::X, Scoring::Depth, 10),
            "+10 = 10 - depth 0: X wins on this move"
        );
        assert_eq!(
            score_reason(-9, loss, Player::X, Scoring::Depth, 10),
            "-9 = -10 + depth 1: O wins on the reply"
        );
        assert_eq!(
            score_reason(8, Outlook::Win { moves: 2 }, Player::X, Scoring::Depth, 10),
            "+8 = 10 - depth 2: X wins at depth 2"
        );
        assert_eq!(
            score_reason(1, loss, Player::O, Scoring::Cs50, 10),
            "+1: X wins on the reply"
        );
        assert_eq!(
            score_reason(10, win, Player::X, Scoring::Plain, 10),
            "+10: X wins on this move"
        );
        assert_eq!(
            score_reason(0, Outlook::Draw, Player::O, Scoring::Depth, 10),
            "0: a draw with best play"
        );
    }
}

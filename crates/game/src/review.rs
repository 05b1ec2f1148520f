//! The review of a recorded game: for every move, what the position was
//! worth to the side that moved, before the move and after it, in the one
//! convention of scores (the value before is the best move's score, the
//! value after the score of the move played), and a mark where the move
//! threw something away:
//!
//! - `??`: with best play from both sides, the move changed the result for
//!   the worse (a win let go, or a draw turned into a loss);
//! - `?`: the result stayed, but a win came later or a loss sooner.
//!
//! A marked move carries the best moves there and both lines: the best
//! move's and the one after the move played. On 3x3 everything is proven;
//! bigger boards are searched within a time per move, and a move whose
//! scores are estimates is never marked. Pure: the command, the
//! screen-reader mode and the game's review screen show it their own way.

use crate::present::{move_list, recorded_result, result_for, scoring_legend};
use crate::record::{MoveNumber, Record, result_token};
use crate::text::{escaped, signed};
use tictactoe_engine::teach::line::Line;
use tictactoe_engine::{Ai, Analysis, Board, Limits, Outlook, Player, ScoredMove, Scoring, Square};

/// What a move threw away.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mark {
    /// `??`: the result with best play got worse for the mover.
    Blunder,
    /// `?`: the same result, but a win later or a loss sooner.
    Mistake,
}

impl Mark {
    /// As annotations write it: `??` or `?`.
    pub const fn symbol(self) -> &'static str {
        match self {
            Mark::Blunder => "??",
            Mark::Mistake => "?",
        }
    }
}

/// One move of a game, reviewed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveReview {
    /// The position before the move.
    pub board: Board,
    /// The move's number in the notation (`2...`).
    pub number: MoveNumber,
    /// The move played.
    pub mv: Square,
    /// The position's value for the mover before the move: the best move's score.
    pub before: i32,
    /// The value for the mover after the move: the played move's score.
    pub after: i32,
    /// What the best move's score means.
    pub best_outlook: Outlook,
    /// What the played move's score means.
    pub outlook: Outlook,
    /// Both scores proven (always on 3x3).
    pub proven: bool,
    /// The best move there ([`Analysis::best_by`]), whose score is `before`.
    pub best: Square,
    /// Every move with the best move's score, in reading order.
    pub tied: Vec<Square>,
    /// The mark, if the move threw something away.
    pub mark: Option<Mark>,
    /// For a marked move: the line after the first best move, then the line
    /// after the move played.
    pub lines: Option<(Line, Line)>,
}

impl MoveReview {
    /// Who played the move.
    pub fn mover(&self) -> Player {
        self.number.mover
    }
}

/// The mark a move gets from its score and the best score there: `??` when
/// its result (win, draw, loss) is worse, `?` when the same result scores
/// less. `None` for a move as good as the best, or where a score is an estimate.
pub fn mark(played: Outlook, played_score: i32, best: Outlook, best_score: i32) -> Option<Mark> {
    let rank = |outlook: Outlook| match outlook {
        Outlook::Win { .. } | Outlook::ProvenWin => Some(2),
        Outlook::Draw => Some(1),
        Outlook::Loss { .. } | Outlook::ProvenLoss => Some(0),
        Outlook::Estimate => None,
    };
    let (played_rank, best_rank) = (rank(played)?, rank(best)?);
    if played_rank < best_rank {
        Some(Mark::Blunder)
    } else if played_score < best_score {
        Some(Mark::Mistake)
    } else {
        None
    }
}

/// Reviews every move of `record`, thinking within `limits` on boards
/// bigger than 3x3 with one `ai` (which keeps what it searched from move to move).
pub fn review(record: &Record, limits: Limits, ai: &mut Ai) -> Vec<MoveReview> {
    record
        .steps()
        .filter_map(|(board, mv)| review_one(&board, mv, limits, ai))
        .collect()
}

/// Reviews one move, `mv` played on `board`, thinking within `limits` on
/// boards bigger than 3x3: what [`review`] does for each move of a game,
/// for a screen that reviews a game move by move while it is looked at.
/// `None` for a move not legal there.
pub fn review_one(board: &Board, mv: Square, limits: Limits, ai: &mut Ai) -> Option<MoveReview> {
    let analysis = ai.analyze(board, limits);
    // A game's numbering follows from the position: ply 0 counted from it.
    review_move(MoveNumber::of(*board, 0), &analysis, mv, ai)
}

/// One move from the analysis of the position it was played in.
fn review_move(
    number: MoveNumber,
    analysis: &Analysis,
    mv: Square,
    ai: &mut Ai,
) -> Option<MoveReview> {
    let played: ScoredMove = *analysis.moves.iter().find(|scored| scored.mv == mv)?;
    let best = analysis.best_by(Scoring::Depth)?;
    let (outlook, best_outlook) = (analysis.outlook_of(played), analysis.outlook_of(best));
    let proven = played.exact && best.exact;
    let mark = if proven {
        mark(outlook, played.score, best_outlook, best.score)
    } else {
        None
    };
    let lines = mark.map(|_| {
        let lines = ai.lines(analysis);
        let line_of = |mv: Square| {
            analysis
                .moves
                .iter()
                .position(|scored| scored.mv == mv)
                .and_then(|i| lines.get(i).cloned())
                .unwrap_or_default()
        };
        (line_of(best.mv), line_of(mv))
    });
    Some(MoveReview {
        board: analysis.board,
        number,
        mv,
        before: best.score,
        after: played.score,
        best_outlook,
        outlook,
        proven,
        best: best.mv,
        tied: analysis
            .moves
            .iter()
            .filter(|scored| scored.score == best.score)
            .map(|scored| scored.mv)
            .collect(),
        mark,
        lines,
    })
}

/// The legend printed before reviews: how the numbers count and what the marks say.
pub fn legend(win: i32) -> [String; 2] {
    [
        format!(
            "Each move: (best: the value before it, its best move's score; played: the score of the move played) for the side that plays it; {}.",
            scoring_legend(Scoring::Depth, win)
        ),
        "?? changed the result with best play for the worse; ? kept it, but delayed a win or hastened a loss."
            .to_string(),
    ]
}

/// The first line of a game's review: who played, when, from where, and the result.
pub fn heading(game: usize, record: &Record) -> String {
    // The tags are the file's: shown escaped, as anything read from outside.
    let side = |name: &Option<String>, player: Player| match name {
        Some(name) => format!("{} ({player})", escaped(name)),
        None => player.to_string(),
    };
    let mut text = format!(
        "Game {game}: {} against {}",
        side(&record.x, Player::X),
        side(&record.o, Player::O)
    );
    let start = record.start();
    if !start.is_classic() {
        text.push_str(&format!(
            " on {0}x{0}, {1} in a row",
            start.size(),
            start.k()
        ));
    }
    if let Some(date) = &record.date {
        text.push_str(&format!(", {}", escaped(date)));
    }
    if start.move_count() > 0 {
        text.push_str(&format!(", from {start}"));
    }
    let result = record.result();
    text.push_str(&format!(
        "; {}: {}.",
        result_token(result),
        recorded_result(result)
    ));
    text
}

/// One move in words, as an annotated game reads: `1. b2 (best 0, played
/// 0): draw.`, or for a marked move what it threw away, what was best and
/// what follows: `2... b1?? (best 0, played -9) turns a draw into a loss:
/// a1, b3 or c1 draw; after b1, X wins in 2: a1 X, c3 O, c1 X.`
pub fn sentence(review: &MoveReview) -> String {
    let mover = review.mover();
    let mark = review.mark.map_or("", Mark::symbol);
    let values = if review.proven {
        format!(
            "(best {}, played {})",
            signed(review.before),
            signed(review.after)
        )
    } else {
        format!(
            "(best {}, played {}, estimates)",
            signed(review.before),
            signed(review.after)
        )
    };
    let head = format!("{} {}{mark} {values}", review.number, review.mv);
    let (Some(mark), Some((_, played_line))) = (review.mark, &review.lines) else {
        return format!("{head}: {}.", result_for(review.outlook, mover));
    };
    let what = match (mark, review.best_outlook, review.outlook) {
        (Mark::Blunder, best, played) => {
            format!("turns {} into {}", result_noun(best), result_noun(played))
        }
        (Mark::Mistake, Outlook::Win { .. }, _) => "delays the win".to_string(),
        (Mark::Mistake, _, _) => "hastens the loss".to_string(),
    };
    let best = or_list(&review.tied);
    let verb = match (review.best_outlook, review.tied.len()) {
        (Outlook::Win { moves }, 1) => format!("wins in {moves}"),
        (Outlook::Win { moves }, _) => format!("win in {moves}"),
        (Outlook::Loss { moves }, 1) => format!("loses in {moves}"),
        (Outlook::Loss { moves }, _) => format!("lose in {moves}"),
        (_, 1) => "draws".to_string(),
        _ => "draw".to_string(),
    };
    let after = match review.board.play(review.mv) {
        Ok(after) if !played_line.moves.is_empty() => format!(
            "; after {}, {}: {}",
            review.mv,
            result_for(review.outlook, mover),
            move_list(&after, played_line.moves.iter().copied())
        ),
        _ => String::new(),
    };
    format!("{head} {what}: {best} {verb}{after}.")
}

/// A result as a noun: "a win", "a draw", "a loss".
fn result_noun(outlook: Outlook) -> &'static str {
    match outlook {
        Outlook::Win { .. } | Outlook::ProvenWin => "a win",
        Outlook::Draw => "a draw",
        Outlook::Loss { .. } | Outlook::ProvenLoss => "a loss",
        Outlook::Estimate => "an estimate",
    }
}

/// Squares as a list read aloud: "a1", "a1 or c3", "a1, b3 or c1".
fn or_list(moves: &[Square]) -> String {
    let names: Vec<String> = moves.iter().map(Square::to_string).collect();
    match names.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

/// The last line of a game's review: the marked moves, or that there were none.
pub fn summary(reviews: &[MoveReview]) -> String {
    let marked: Vec<String> = reviews
        .iter()
        .filter_map(|review| {
            review.mark.map(|mark| {
                format!(
                    "{} {}{} ({})",
                    review.number,
                    review.mv,
                    mark.symbol(),
                    review.mover()
                )
            })
        })
        .collect();
    let estimates = reviews.iter().filter(|review| !review.proven).count();
    let unproven = match estimates {
        0 => String::new(),
        1 => " (1 move's scores are estimates, not marked)".to_string(),
        n => format!(" ({n} moves' scores are estimates, not marked)"),
    };
    if marked.is_empty() {
        format!("Marked: none, every move kept what best play gave its side{unproven}.")
    } else {
        format!("Marked: {}{unproven}.", marked.join(", "))
    }
}

/// A whole game's review in lines: the heading, a sentence per move, the summary.
pub fn game_text(game: usize, record: &Record, reviews: &[MoveReview]) -> Vec<String> {
    let mut lines = vec![heading(game, record)];
    lines.extend(reviews.iter().map(sentence));
    lines.push(summary(reviews));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::read_str;

    fn reviewed(moves: &str) -> Vec<MoveReview> {
        let text =
            format!("[Game \"tictactoe\"]\n[Size \"3\"]\n[K \"3\"]\n[Result \"*\"]\n\n{moves} *\n");
        let record = read_str(&text).unwrap().remove(0);
        review(&record, Limits::ToTheEnd, &mut Ai::new())
    }

    #[test]
    fn an_edge_reply_to_the_centre_is_a_blunder() {
        // After X takes the centre, O's edge loses: only corners draw.
        let reviews = reviewed("1. b2 b1");
        assert_eq!(reviews[0].mark, None);
        assert_eq!(sentence(&reviews[0]), "1. b2 (best 0, played 0): draw.");
        let edge = &reviews[1];
        assert_eq!(edge.mark, Some(Mark::Blunder));
        assert_eq!(edge.before, 0);
        assert!(edge.after < 0);
        let text = sentence(edge);
        assert!(
            text.starts_with("1... b1?? (best 0, played -5) turns a draw into a loss: a1, c1, a3 or c3 draw; after b1, X wins in 3: "),
            "{text}"
        );
    }

    #[test]
    fn a_slower_win_and_a_quicker_loss_are_mistakes() {
        // X a1 b2, O b1 b3: c3 wins at once, c1 only later.
        let reviews = reviewed("1. b2 b1 2. a1 b3 3. c1");
        let slow = reviews.last().unwrap();
        assert_eq!(
            (slow.mark, slow.before, slow.after),
            (Some(Mark::Mistake), 10, 8)
        );
        assert_eq!(
            (slow.best, &slow.tied[..]),
            (Square::new(2, 2), &[Square::new(2, 2)][..])
        );
        let text = sentence(slow);
        assert!(
            text.starts_with(
                "3. c1? (best +10, played +8) delays the win: c3 wins in 1; after c1, X wins in 2: "
            ),
            "{text}"
        );
        // X a1 a2 threatens a3: O blocking holds out longer than c3.
        let reviews = reviewed("1. a1 b1 2. a2 c3");
        let quick = reviews.last().unwrap();
        assert_eq!(
            (quick.mark, quick.before, quick.after),
            (Some(Mark::Mistake), -7, -9)
        );
        assert_eq!(
            sentence(quick),
            "2... c3? (best -7, played -9) hastens the loss: a3 loses in 2; after c3, X wins in 1: a3 X."
        );
        assert_eq!(
            summary(&reviews),
            format!(
                "Marked: 1... b1{} (O), 2... c3? (O).",
                reviews[1].mark.map_or("", Mark::symbol)
            )
        );
    }
}

//! The messages the parts of the screen pass one another: work for the
//! engine and its answers ([`Request`], [`Reply`]), and what a panel says
//! ([`Said`]). (What the player asks for is the game model's
//! [`tictactoe_game::action`].) A leaf: it names only the engine's types and
//! a reviewed move ([`MoveReview`]).

use std::time::Duration;

use tictactoe_engine::teach::line::Line;
use tictactoe_engine::{Analysis, Board, Decision, Dice, Level, Limits, Scoring, Square};
use tictactoe_game::quiz::{Question, Solved};
use tictactoe_game::review::MoveReview;
use tictactoe_grade::lab::Ladder;

/// Work for the engine, done off the screen's thread so that a long think
/// never freezes the screen.
#[derive(Debug, Clone)]
pub enum Request {
    /// Choose the AI's move.
    Move {
        /// Matches the reply to the turn that asked.
        id: u64,
        /// The position to move in.
        board: Board,
        /// How well to play.
        level: Level,
        /// The session's dice as they stand: its random choices.
        dice: Dice,
        /// Thinking time on bigger boards.
        limits: Limits,
    },
    /// Score every move of a position for the explain overlay.
    Explain {
        /// The position.
        board: Board,
        /// Thinking time on bigger boards.
        limits: Limits,
    },
    /// Count what scoring every move of a position costs each way.
    Costs {
        /// The position.
        board: Board,
        /// How scores are counted: alpha-beta cuts differently with plain scores.
        scoring: Scoring,
    },
    /// Search a position with each rung of the lab's ladder.
    Lab {
        /// The position.
        board: Board,
        /// How values are counted.
        scoring: Scoring,
    },
    /// Score every move of a position of the minimax tree, and count the positions below each.
    Tree {
        /// The position.
        board: Board,
        /// Thinking time on bigger boards.
        limits: Limits,
    },
    /// Review one move of a finished game (on boards bigger than 3x3, where
    /// that takes thinking): its value before and after, and its mark.
    Review {
        /// Matches the reply to the review that asked.
        id: u64,
        /// The move's index in the game, from 0.
        ply: usize,
        /// The position the move was played in.
        board: Board,
        /// The move played.
        mv: Square,
        /// Thinking time per move.
        limits: Limits,
    },
    /// Work out the answers to the quiz's questions (a tenth of a second
    /// on the empty board).
    Quiz {
        /// The questions, in the quiz's order.
        questions: Vec<Question>,
    },
}

/// The answer to a [`Request`].
#[derive(Debug, Clone)]
pub enum Reply {
    /// The AI's choice; `None` if the game was already over.
    Move {
        /// The request answered.
        id: u64,
        /// The move and the scores behind it.
        decision: Option<Decision>,
        /// The dice as the choice left them.
        dice: Dice,
    },
    /// Every move's score and the line behind each, in the analysis' order.
    Explain {
        /// The scores.
        analysis: Analysis,
        /// The lines.
        lines: Vec<Line>,
    },
    /// What scoring every move of a position costs each way.
    Costs {
        /// The position.
        board: Board,
        /// The counts.
        costs: Costs,
    },
    /// The lab's ladder for a position.
    Lab(Ladder),
    /// A level of the minimax tree.
    Tree {
        /// Every move's score.
        analysis: Analysis,
        /// Positions in the whole tree below each move, in the analysis'
        /// order; `None` where too many to count.
        below: Vec<Option<u64>>,
    },
    /// One move of a game, reviewed.
    Review {
        /// The review that asked.
        id: u64,
        /// The move's index in the game, from 0.
        ply: usize,
        /// The move's review; `None` only if the move was not legal there.
        review: Option<MoveReview>,
    },
    /// The quiz's questions, each with its answer.
    Quiz {
        /// In the questions' order.
        solved: Vec<Solved>,
    },
}

/// What answering one position costs, idea by idea, so the explain panel
/// can say what each saves. Calls are counted as `trace` counts them, call
/// 1 (the position itself) included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Costs {
    /// Calls of the articles' plain minimax: the calls of `trace`; `None`
    /// when far too many to count.
    pub minimax: Option<u64>,
    /// Calls of the same minimax with alpha-beta pruning, finding the best
    /// move: the calls of `trace --alpha-beta`; `None` when too many.
    pub alpha_beta: Option<u64>,
    /// Positions the engine's search examines (alpha-beta, its table, the
    /// symmetries and its shortcuts) on 3x3, where the answer itself comes
    /// from the compiled table; bigger boards report their own search.
    pub search: Option<u64>,
    /// How long that search took.
    pub search_time: Option<Duration>,
}

/// One thing the explain panel says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Said {
    /// A sentence, wrapped by words when it is too long for a line.
    Text(String),
    /// The panel's heading: what its numbers are about. A summary in the
    /// title's place leaves it out, the status line below naming the side.
    Heading(String),
    /// A sentence in a faint style: a legend or a note.
    Faint(String),
    /// An empty line between topics.
    Gap,
    /// A named figure, such as positions searched.
    Figure(String, String),
}

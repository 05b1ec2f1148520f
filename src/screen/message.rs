//! The messages the parts of the screen pass one another: what the player
//! asked for ([`Action`], and in the server's lobby [`LobbyAction`]), work
//! for the engine and its answers ([`Request`], [`Reply`]), and what a panel
//! says ([`Said`]). A leaf: it names only the engine's types and a
//! reviewed move ([`MoveReview`]).

use std::time::Duration;

use crate::engine::teach::line::Line;
use crate::engine::{Analysis, Board, Decision, Level, Limits, Move, Player, Scoring};
use crate::review::MoveReview;

/// A direction for the cursor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// One row up.
    Up,
    /// One row down.
    Down,
    /// One column left.
    Left,
    /// One column right.
    Right,
}

/// Something the player asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Move the cursor.
    Cursor(Direction),
    /// Place a mark under the cursor.
    PlaceAtCursor,
    /// Place a mark in this cell (a digit key or a click).
    Place(Move),
    /// Start a new game.
    NewGame,
    /// Take back the last full turn.
    Undo,
    /// Play again what the last undo took back.
    Redo,
    /// Show or hide every move's score, the line behind it and what scoring costs.
    ToggleExplain,
    /// Open or close the minimax tree of the position on the board.
    ToggleTree,
    /// The walkthrough of minimax from the position on the board: open it,
    /// or show its next call.
    TraceStep,
    /// In the walkthrough: anything but the next call.
    Trace(TraceMove),
    /// Backspace: up one level in the tree.
    GoUp,
    /// Show or hide the help.
    ToggleHelp,
    /// Leave (`q`, Ctrl-C): also from the help.
    Quit,
    /// Esc: close what is open, or leave when nothing is.
    Back,
    /// A key or click with no action of its own: it only closes the help.
    Unbound,
    /// Watch mode: stop or resume.
    TogglePause,
    /// Watch mode: play one move while paused.
    Step,
    /// Watch mode: shorter pause between moves.
    Faster,
    /// Watch mode: longer pause between moves.
    Slower,
    /// The quiz: in the game, about the position on the board; in the
    /// screen-reader mode, questions about positions from real games.
    Quiz,
    /// In the quiz: a character of the answer.
    Type(char),
    /// Ctrl-Z at the local terminal: give the terminal back until `fg`. The
    /// front end does it; the model has nothing to change.
    Suspend,
    /// The screen-reader mode: say something about the position again.
    Read(Reading),
    /// The review of the game on screen: in the full-screen game, opened
    /// on the board (and closed again); in the screen-reader mode, read out.
    Review,
    /// A step through the game under review.
    Browse(Browse),
    /// The record of the game on screen: shown to copy, and saved to a new
    /// file by a front end that can write one.
    ShowRecord,
}

/// A step through the moves of the game under review.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Browse {
    /// One move back.
    Back,
    /// One move on.
    Forward,
    /// To the position the game started from.
    Start,
    /// To the end of the game.
    End,
}

/// What the screen-reader mode can be asked to say again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reading {
    /// The board, row by row, in words.
    Board,
    /// The last move.
    Last,
    /// Every free square's score and what it means.
    Scores,
}

/// Something a player asked for in the SSH server's lobby. The lobby acts
/// on it; it is here, below both, because the one key table
/// ([`super::keys`]) names the lobby's keys with the game's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LobbyAction {
    /// A game against the AI with the side and level chosen.
    PlayAi,
    /// Choose the side to play against the AI.
    Side(Player),
    /// A weaker AI.
    LevelDown,
    /// A stronger AI.
    LevelUp,
    /// Pair with the player waiting longest, or wait.
    FindOpponent,
    /// Stop waiting for an opponent.
    StopWaiting,
    /// Select the game above in the list.
    SelectUp,
    /// Select the game below in the list.
    SelectDown,
    /// Watch the game selected.
    Watch,
    /// Close the connection.
    Quit,
}

/// A move through the walkthrough other than the next call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TraceMove {
    /// Back one call.
    Back,
    /// The rest of the current call, until it returns.
    Finish,
    /// Straight to the end: call 1 returns.
    End,
    /// Plain minimax or alpha-beta, from call 1 again.
    AlphaBeta,
}

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
        /// Seed for this move's random choices.
        seed: u64,
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
        mv: Move,
        /// Thinking time per move.
        limits: Limits,
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
}

/// What scoring every move of one position costs, idea by idea, so the
/// explain panel can say what each saves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Costs {
    /// Calls of the seed's plain minimax; `None` when far too many to count.
    pub minimax: Option<u64>,
    /// Calls of the seed's minimax with alpha-beta pruning alone, each move
    /// searched on its own with an open window (so nothing is cut at the
    /// top); `None` when too many.
    pub alpha_beta: Option<u64>,
    /// Calls of alpha-beta finding only the best move, each move searched
    /// for beating the best so far: what `trace --alpha-beta` walks below
    /// call 1; `None` when too many.
    pub alpha_beta_best: Option<u64>,
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

//! What a player asks for, in every front end: the game's actions
//! ([`Action`]) and the server lobby's ([`LobbyAction`]). The key table
//! ([`crate::keys`]) binds keys and typed words to them; each front end's
//! model acts on them.

use tictactoe_engine::{Player, Square};

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
    /// Enter: act on what is selected. In the game, place a mark under the
    /// cursor (a click is this, at the square clicked); in the minimax tree,
    /// open the position selected; in the quiz, check the answer typed, or
    /// go on once it is checked.
    Confirm,
    /// Place a mark in this cell (a digit key or a click).
    Place(Square),
    /// Start a new game.
    NewGame,
    /// Against a person who has not moved for the claim time: take the win
    /// (`win`), or stop the game unrated.
    Claim {
        /// Take the win; false: abort the game.
        win: bool,
    },
    /// Take back the last full turn.
    Undo,
    /// Play again what the last undo took back.
    Redo,
    /// Show or hide every move's score, the line behind it and what scoring costs.
    ToggleExplain,
    /// The lab in the explain panel: what scoring costs, as a ladder of
    /// search techniques (opens explain if it is off; again, back to the costs).
    ToggleLab,
    /// Open or close the minimax tree of the position on the board.
    ToggleTree,
    /// Open the walkthrough of minimax from the position on the board.
    Walkthrough,
    /// In the walkthrough: a move through its calls.
    Trace(TraceMove),
    /// In the minimax tree: close the position selected, or go up to the one above.
    Collapse,
    /// In the quiz: take back the last character typed.
    Erase,
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
/// ([`crate::keys`]) names the lobby's keys with the game's.
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
    /// Seek a game between people as chosen: pair with the oldest seek of
    /// the same kind, or list this one and wait.
    Seek,
    /// The next board for a seek (size and how many in a row).
    Board,
    /// A seek rated or not.
    Rated,
    /// The next time control for a seek (or none).
    Clock,
    /// Stop waiting for an opponent.
    StopWaiting,
    /// Select the game above in the list.
    SelectUp,
    /// Select the game below in the list.
    SelectDown,
    /// Take the seek selected, or watch the game selected.
    Choose,
    /// Close the connection.
    Quit,
}

/// A move through the walkthrough's calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TraceMove {
    /// The next call; after the last, call 1's result, and then from the start again.
    Next,
    /// Back one call.
    Back,
    /// The rest of the current call, until it returns.
    Finish,
    /// Straight to the end: call 1 returns.
    End,
    /// Plain minimax or alpha-beta, from call 1 again.
    AlphaBeta,
}

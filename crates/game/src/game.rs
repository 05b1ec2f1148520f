//! A game in progress: seats, moves, undo and redo, and the session tally.
//! Pure state with no terminal and no clock, shared by every front end.

use std::fmt;

use tictactoe_engine::{Board, IllegalMove, Level, Outcome, Player, Square, Standing, Status};

/// Who plays one side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seat {
    /// A person at the keyboard.
    Human,
    /// The computer at the given strength.
    Ai(Level),
}

impl Seat {
    /// True for a person.
    pub fn is_human(self) -> bool {
        self == Seat::Human
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Seat::Human => f.write_str("human"),
            Seat::Ai(level) => write!(f, "AI, {level}"),
        }
    }
}

/// Who plays X and who plays O.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seats {
    /// The side that moves first.
    pub x: Seat,
    /// The side that moves second.
    pub o: Seat,
}

impl Seats {
    /// The seat of one side.
    pub fn of(&self, player: Player) -> Seat {
        match player {
            Player::X => self.x,
            Player::O => self.o,
        }
    }

    /// No human at all: the AI plays itself and the user watches.
    pub fn is_watch(&self) -> bool {
        !self.x.is_human() && !self.o.is_human()
    }

    /// The only human's side, when exactly one side is human.
    pub fn lone_human(&self) -> Option<Player> {
        match (self.x.is_human(), self.o.is_human()) {
            (true, false) => Some(Player::X),
            (false, true) => Some(Player::O),
            _ => None,
        }
    }

    /// How a finished game went for the one person playing, if one person played.
    pub fn human_standing(&self, status: Status) -> Option<Standing> {
        Some(status.outcome()?.standing(self.lone_human()?))
    }

    /// A finished game's result in words, from the person's side when one
    /// person plays (see [`result_line`]).
    pub fn result_line(&self, status: Status) -> Option<String> {
        result_line(status, self.lone_human())
    }
}

pub use crate::present::result_line;

/// The moves of one game from its starting position, with the moves undone kept for redo.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    start: Board,
    board: Board,
    played: Vec<Square>,
    undone: Vec<Square>,
}

impl Game {
    /// A game from `start` (the empty board, or a position given on the command line).
    pub fn new(start: Board) -> Game {
        Game {
            start,
            board: start,
            played: Vec::new(),
            undone: Vec::new(),
        }
    }

    /// The position now.
    pub fn board(&self) -> Board {
        self.board
    }

    /// The position the game started from.
    pub fn start(&self) -> Board {
        self.start
    }

    /// Moves played since the start, oldest first.
    pub fn moves(&self) -> &[Square] {
        &self.played
    }

    /// The most recent move, if any.
    pub fn last_move(&self) -> Option<Square> {
        self.played.last().copied()
    }

    /// Won, drawn or in progress.
    pub fn status(&self) -> Status {
        self.board.status()
    }

    /// Plays a move for the side to move. A new move forgets what could be redone.
    pub fn play(&mut self, mv: Square) -> Result<(), IllegalMove> {
        self.board = self.board.play(mv)?;
        self.played.push(mv);
        self.undone.clear();
        Ok(())
    }

    /// Takes back the last move; `None` at the start.
    pub fn undo(&mut self) -> Option<Square> {
        let mv = self.played.pop()?;
        self.undone.push(mv);
        self.board = self.replay();
        Some(mv)
    }

    /// Plays again the last move taken back; `None` when nothing was undone.
    pub fn redo(&mut self) -> Option<Square> {
        let mv = self.undone.pop()?;
        // Undone moves were legal here before, so replaying one cannot fail.
        self.board = self.board.play(mv).ok()?;
        self.played.push(mv);
        Some(mv)
    }

    /// The side that made move `i` (0-based) of this game: the sides
    /// alternate from whoever was to move at the start.
    pub fn mover(&self, i: usize) -> Player {
        let starter = self.start.to_move();
        if i.is_multiple_of(2) {
            starter
        } else {
            starter.other()
        }
    }

    /// Takes back the last full turn of a person: their last move and the AI
    /// replies after it. With nobody human, one move. An AI's opening with no
    /// human move before it stays. Returns how many moves were taken back.
    pub fn undo_turn(&mut self, seats: Seats) -> usize {
        let Some(target) = self.undo_target(seats) else {
            return 0;
        };
        let count = self.played.len() - target;
        for _ in 0..count {
            self.undo();
        }
        count
    }

    /// Plays again what [`Game::undo_turn`] took back: a person's move and the
    /// AI replies that followed it, or one move with nobody human.
    /// Returns how many moves were played again.
    pub fn redo_turn(&mut self, seats: Seats) -> usize {
        if self.redo().is_none() {
            return 0;
        }
        let mut count = 1;
        while !seats.is_watch() && self.can_redo() && !seats.of(self.board.to_move()).is_human() {
            self.redo();
            count += 1;
        }
        count
    }

    /// True when [`Game::undo_turn`] would take something back.
    pub fn can_undo_turn(&self, seats: Seats) -> bool {
        self.undo_target(seats).is_some()
    }

    /// The index of the first move [`Game::undo_turn`] takes back.
    fn undo_target(&self, seats: Seats) -> Option<usize> {
        if seats.is_watch() {
            self.played.len().checked_sub(1)
        } else {
            (0..self.played.len())
                .rev()
                .find(|&i| seats.of(self.mover(i)).is_human())
        }
    }

    /// True when a move can be played again.
    pub fn can_redo(&self) -> bool {
        !self.undone.is_empty()
    }

    /// Back to the starting position with no history.
    pub fn restart(&mut self) {
        *self = Game::new(self.start);
    }

    fn replay(&self) -> Board {
        self.played
            .iter()
            .fold(self.start, |board, &mv| board.play(mv).unwrap_or(board))
    }
}

/// A result entering or leaving a session's results: what front ends save.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResultChange {
    /// A game just finished with this result.
    Finished(Status),
    /// Undo took a finished game's result back out.
    TakenBack(Status),
}

impl ResultChange {
    /// What changed when a game went from `before` to `after` (a move, an
    /// undo or a redo): a result that appeared, one that went away, or none.
    pub fn between(before: Status, after: Status) -> Option<ResultChange> {
        match (before.is_over(), after.is_over()) {
            (false, true) => Some(ResultChange::Finished(after)),
            (true, false) => Some(ResultChange::TakenBack(before)),
            _ => None,
        }
    }
}

/// Results of the games finished in this session.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games X won.
    pub x_wins: u32,
    /// Games O won.
    pub o_wins: u32,
    /// Drawn games.
    pub draws: u32,
}

impl Tally {
    /// The count of games that ended so.
    pub fn of(&self, outcome: Outcome) -> u32 {
        match outcome {
            Outcome::Win(Player::X) => self.x_wins,
            Outcome::Win(Player::O) => self.o_wins,
            Outcome::Draw => self.draws,
        }
    }

    fn of_mut(&mut self, outcome: Outcome) -> &mut u32 {
        match outcome {
            Outcome::Win(Player::X) => &mut self.x_wins,
            Outcome::Win(Player::O) => &mut self.o_wins,
            Outcome::Draw => &mut self.draws,
        }
    }

    /// Counts a finished game; a game still in progress changes nothing.
    pub fn record(&mut self, status: Status) {
        if let Some(outcome) = status.outcome() {
            *self.of_mut(outcome) += 1;
        }
    }

    /// Takes back a result counted by [`Tally::record`] (its game was undone).
    pub fn unrecord(&mut self, status: Status) {
        if let Some(outcome) = status.outcome() {
            let count = self.of_mut(outcome);
            *count = count.saturating_sub(1);
        }
    }

    /// The players changed sides (a rematch): each keeps the wins they had.
    pub fn swap_sides(&mut self) {
        std::mem::swap(&mut self.x_wins, &mut self.o_wins);
    }

    /// Counts a result that appeared, or takes back one that went away.
    pub fn apply(&mut self, change: ResultChange) {
        match change {
            ResultChange::Finished(status) => self.record(status),
            ResultChange::TakenBack(status) => self.unrecord(status),
        }
    }

    /// Games counted.
    pub fn games(&self) -> u32 {
        self.x_wins + self.o_wins + self.draws
    }
}

impl fmt::Display for Tally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "X wins {} · O wins {} · draws {}",
            self.x_wins, self.o_wins, self.draws
        )
    }
}

/// The names shown for X and O in a game with people at other terminals.
/// The screen shows them; the server's lobby hands them out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Names {
    /// Who plays X.
    pub x: String,
    /// Who plays O.
    pub o: String,
}

impl Names {
    /// The name of one side.
    pub fn of(&self, player: Player) -> &str {
        match player {
            Player::X => &self.x,
            Player::O => &self.o,
        }
    }
}

/// Something the player did that the other end of a game between two
/// people must hear of. The screen's model queues it and the front end
/// relays it to the other player's model, which takes it as a remote move
/// or rematch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outgoing {
    /// This player's move.
    Square(Square),
    /// This player asks for a rematch.
    Rematch,
    /// This player claims the game against an opponent who has not moved
    /// for the claim time: the win, or (false) an abort.
    Claim {
        /// The win; false: an abort.
        win: bool,
    },
}

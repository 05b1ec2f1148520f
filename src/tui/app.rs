//! The game screen's model and its transitions.
//!
//! Pure: no terminal, no threads, no clock of its own. Every transition takes
//! the time as an argument, and the AI's thinking leaves the model as an
//! [`AiRequest`] and comes back as an [`AiReply`], so tests drive the whole
//! game synchronously while the real front end thinks on another thread.

use std::time::{Duration, Instant};

use crate::engine::{Board, Decision, Level, Limits, Move, Player, Status, choose_move};
use crate::game::{Game, Seat, Seats, Tally};

/// How long a message about refused input stays on the status line.
const FLASH_TIME: Duration = Duration::from_millis(2000);
/// Fastest and slowest pace of watch mode.
const FASTEST_WATCH: Duration = Duration::from_millis(50);
const SLOWEST_WATCH: Duration = Duration::from_millis(5000);

/// Everything the command line decides about a session.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Who plays X and O.
    pub seats: Seats,
    /// The position every game starts from.
    pub start: Board,
    /// Pause before the AI answers a person, so its move is seen arriving.
    pub ai_delay: Duration,
    /// Pause between moves when the AI plays itself.
    pub watch_delay: Duration,
    /// How long the AI may think on boards bigger than 3x3.
    pub limits: Limits,
    /// Seed for every random choice, for games that replay exactly.
    pub seed: Option<u64>,
    /// Colours on screen (off when `NO_COLOR` is set).
    pub color: bool,
}

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
    /// Show or hide the help.
    ToggleHelp,
    /// Close the help if it is open.
    CloseHelp,
    /// Leave.
    Quit,
    /// Watch mode: stop or resume.
    TogglePause,
    /// Watch mode: play one move while paused.
    Step,
    /// Watch mode: shorter pause between moves.
    Faster,
    /// Watch mode: longer pause between moves.
    Slower,
}

/// Work for the AI, done off the screen's thread.
#[derive(Debug, Clone)]
pub struct AiRequest {
    /// Matches the reply to the turn that asked.
    pub id: u64,
    /// The position to move in.
    pub board: Board,
    /// How well to play.
    pub level: Level,
    /// Seed for this move's random choices.
    pub seed: u64,
    /// Thinking time on bigger boards.
    pub limits: Limits,
}

/// The AI's answer to an [`AiRequest`].
#[derive(Debug, Clone)]
pub struct AiReply {
    /// The request answered.
    pub id: u64,
    /// The move and the scores behind it; `None` if the game was already over.
    pub decision: Option<Decision>,
}

impl AiRequest {
    /// Thinks: the same answer every time for the same request.
    pub fn run(&self) -> AiReply {
        let mut rng = fastrand::Rng::with_seed(self.seed);
        AiReply {
            id: self.id,
            decision: choose_move(&self.board, self.level, &mut rng, self.limits),
        }
    }
}

/// An AI turn under way.
#[derive(Debug, Clone)]
struct AiTurn {
    id: u64,
    started: Instant,
    requested: bool,
    reply: Option<Decision>,
}

/// The model of the game screen.
#[derive(Debug)]
pub struct App {
    settings: Settings,
    game: Game,
    tally: Tally,
    cursor: Move,
    help: bool,
    paused: bool,
    watch_delay: Duration,
    /// One move to play at once while paused.
    step: bool,
    ai_turn: Option<AiTurn>,
    next_id: u64,
    last_decision: Option<Decision>,
    flash: Option<(String, Instant)>,
    quit: bool,
    rng: fastrand::Rng,
}

impl App {
    /// A session starting its first game at `now`.
    pub fn new(settings: Settings, now: Instant) -> App {
        let rng = settings
            .seed
            .map_or_else(fastrand::Rng::new, fastrand::Rng::with_seed);
        let centre = settings.start.size() / 2;
        let mut app = App {
            game: Game::new(settings.start),
            watch_delay: settings.watch_delay,
            settings,
            tally: Tally::default(),
            cursor: Move::new(centre, centre),
            help: false,
            paused: false,
            step: false,
            ai_turn: None,
            next_id: 0,
            last_decision: None,
            flash: None,
            quit: false,
            rng,
        };
        app.begin_turn(now);
        app
    }

    /// Applies one action of the player's.
    pub fn update(&mut self, action: Action, now: Instant) {
        if self.help && !matches!(action, Action::Quit | Action::ToggleHelp) {
            // Any other key just closes the help.
            self.help = false;
            return;
        }
        match action {
            Action::Quit => self.quit = true,
            Action::ToggleHelp => self.help = !self.help,
            Action::CloseHelp => self.help = false,
            Action::Cursor(direction) => self.move_cursor(direction),
            Action::PlaceAtCursor => self.place(self.cursor, now),
            Action::Place(mv) => {
                self.cursor = mv;
                self.place(mv, now);
            }
            Action::NewGame => {
                self.game.restart();
                self.paused = false;
                self.flash = None;
                self.begin_turn(now);
            }
            Action::TogglePause if self.is_watch() => self.paused = !self.paused,
            Action::Step if self.is_watch() => {
                self.paused = true;
                self.step = !self.game.status().is_over();
            }
            Action::Faster if self.is_watch() => {
                self.watch_delay = (self.watch_delay / 2).max(FASTEST_WATCH)
            }
            Action::Slower if self.is_watch() => {
                self.watch_delay = (self.watch_delay * 2).min(SLOWEST_WATCH)
            }
            Action::TogglePause | Action::Step | Action::Faster | Action::Slower => {}
        }
    }

    /// Work for the AI, if it is its turn and nobody has asked yet.
    pub fn take_request(&mut self) -> Option<AiRequest> {
        let turn = self.ai_turn.as_mut().filter(|turn| !turn.requested)?;
        turn.requested = true;
        let board = self.game.board();
        let Seat::Ai(level) = self.settings.seats.of(board.to_move()) else {
            return None;
        };
        Some(AiRequest {
            id: turn.id,
            board,
            level,
            seed: self.rng.u64(..),
            limits: self.settings.limits,
        })
    }

    /// Takes the AI's answer; it is played once its pause is over (see [`App::tick`]).
    pub fn receive(&mut self, reply: AiReply, now: Instant) {
        match self.ai_turn.as_mut() {
            Some(turn) if turn.id == reply.id => turn.reply = reply.decision,
            _ => return, // an answer for a game or turn that no longer exists
        }
        self.tick(now);
    }

    /// Lets time pass: plays an AI move whose pause is over, clears old messages.
    pub fn tick(&mut self, now: Instant) {
        if self.flash.as_ref().is_some_and(|(_, until)| now >= *until) {
            self.flash = None;
        }
        let Some(turn) = &self.ai_turn else { return };
        let Some(decision) = &turn.reply else { return };
        let due = turn.started + self.pause();
        if self.step || (!self.paused && now >= due) {
            let decision = decision.clone();
            self.step = false;
            self.ai_turn = None;
            if self.game.play(decision.mv).is_ok() {
                self.last_decision = Some(decision);
                self.after_move(now);
            }
        }
    }

    /// When [`App::tick`] next has something to do, if anything: the front end
    /// sleeps until then, or until a key, whichever comes first.
    pub fn wake_at(&self) -> Option<Instant> {
        let flash = self.flash.as_ref().map(|(_, until)| *until);
        let ai = self
            .ai_turn
            .as_ref()
            .filter(|turn| turn.reply.is_some() && (self.step || !self.paused))
            .map(|turn| turn.started + self.pause());
        flash.into_iter().chain(ai).min()
    }

    /// True while an AI request is out and unanswered.
    pub fn is_thinking(&self) -> bool {
        self.ai_turn
            .as_ref()
            .is_some_and(|turn| turn.requested && turn.reply.is_none())
    }

    /// True once the player asked to leave.
    pub fn should_quit(&self) -> bool {
        self.quit
    }

    fn pause(&self) -> Duration {
        if self.is_watch() {
            self.watch_delay
        } else {
            self.settings.ai_delay
        }
    }

    fn place(&mut self, mv: Move, now: Instant) {
        let board = self.game.board();
        if board.status().is_over() {
            return self.say("The game is over: press n for a new one", now);
        }
        if !self.settings.seats.of(board.to_move()).is_human() {
            return self.say("Not your turn: the AI is thinking", now);
        }
        match self.game.play(mv) {
            Ok(()) => {
                self.flash = None;
                self.after_move(now);
            }
            Err(_) => self.say("That square is taken", now),
        }
    }

    fn after_move(&mut self, now: Instant) {
        let status = self.game.status();
        if status.is_over() {
            self.tally.record(status);
        }
        self.begin_turn(now);
    }

    /// Starts the AI's turn if the side to move is an AI.
    fn begin_turn(&mut self, now: Instant) {
        self.ai_turn = None;
        self.step = false;
        let board = self.game.board();
        if let Status::InProgress { to_move } = board.status()
            && !self.settings.seats.of(to_move).is_human()
        {
            self.next_id += 1;
            self.ai_turn = Some(AiTurn {
                id: self.next_id,
                started: now,
                requested: false,
                reply: None,
            });
        }
    }

    fn move_cursor(&mut self, direction: Direction) {
        let last = self.game.board().size() - 1;
        let Move { row, col } = self.cursor;
        self.cursor = match direction {
            Direction::Up => Move::new(row.saturating_sub(1), col),
            Direction::Down => Move::new((row + 1).min(last), col),
            Direction::Left => Move::new(row, col.saturating_sub(1)),
            Direction::Right => Move::new(row, (col + 1).min(last)),
        };
    }

    fn say(&mut self, text: &str, now: Instant) {
        self.flash = Some((text.to_string(), now + FLASH_TIME));
    }

    // What the view reads.

    /// The position on screen.
    pub fn board(&self) -> Board {
        self.game.board()
    }

    /// The game, with its history.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Results so far this session.
    pub fn tally(&self) -> Tally {
        self.tally
    }

    /// The cell under the cursor.
    pub fn cursor(&self) -> Move {
        self.cursor
    }

    /// True when the screen may use colour.
    pub fn color(&self) -> bool {
        self.settings.color
    }

    /// Who plays which side.
    pub fn seats(&self) -> Seats {
        self.settings.seats
    }

    /// True when the AI plays both sides.
    pub fn is_watch(&self) -> bool {
        self.settings.seats.is_watch()
    }

    /// True while the help is shown.
    pub fn help_open(&self) -> bool {
        self.help
    }

    /// True while watch mode is paused.
    pub fn paused(&self) -> bool {
        self.paused
    }

    /// Pause between moves in watch mode.
    pub fn watch_delay(&self) -> Duration {
        self.watch_delay
    }

    /// The AI's most recent decision, with the scores it chose from.
    pub fn last_decision(&self) -> Option<&Decision> {
        self.last_decision.as_ref()
    }

    /// True when a person may place a mark now.
    pub fn human_to_move(&self) -> bool {
        match self.game.status() {
            Status::InProgress { to_move } => self.settings.seats.of(to_move).is_human(),
            _ => false,
        }
    }

    /// The status line: whose turn, or how the game ended, or a message about refused input.
    pub fn status_line(&self) -> String {
        if let Some((text, _)) = &self.flash {
            return text.clone();
        }
        let seats = self.settings.seats;
        match self.game.status() {
            Status::Won(winner) => match seats.lone_human() {
                Some(human) if human == winner => format!("{winner} wins: you win!"),
                Some(_) => format!("{winner} wins: you lose"),
                None => format!("{winner} wins"),
            },
            Status::Draw => "Draw".to_string(),
            Status::InProgress { to_move } => match seats.of(to_move) {
                Seat::Human if seats.lone_human().is_some() => {
                    format!("Your turn: you are {to_move}")
                }
                Seat::Human => format!("{to_move} to move"),
                Seat::Ai(_) if self.is_watch() && self.paused => {
                    format!("Paused, {to_move} to move: space resumes, . steps")
                }
                Seat::Ai(level) if self.is_watch() => format!("{to_move} ({level}) is thinking…"),
                Seat::Ai(_) => "AI is thinking…".to_string(),
            },
        }
    }

    /// The line naming the players, such as "You: X  vs  AI (perfect): O".
    pub fn players_line(&self) -> String {
        let seats = self.settings.seats;
        let name = |player: Player| match seats.of(player) {
            Seat::Human if seats.lone_human().is_some() => format!("You: {player}"),
            Seat::Human => format!("Human: {player}"),
            Seat::Ai(level) => format!("AI ({level}): {player}"),
        };
        format!("{}  vs  {}", name(Player::X), name(Player::O))
    }
}

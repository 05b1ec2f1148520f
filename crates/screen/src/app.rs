//! The game screen's model and its transitions.
//!
//! Pure: no terminal, no threads, no clock of its own. Every transition takes
//! the time as an argument, and work for the engine leaves the model as a
//! [`Request`] and comes back as a [`Reply`] (answered by
//! [`super::worker::Worker`]), so tests drive the whole game synchronously
//! while the front ends think on another thread.

use std::time::{Duration, Instant};

use tictactoe_game::action::{Action, Browse, Direction, TraceMove};
use tictactoe_game::clock::{self, Clock};
use tictactoe_game::keys::{Context, Mode, QuizStage, WalkStage};

use super::explain::Explain;
use super::message::{Costs, Reply, Request};
use super::quiz::QuizView;
use super::trace::{self, Walkthrough};
use super::tree::TreeView;
use tictactoe_engine::teach::line::Line;
use tictactoe_engine::{
    Ai, Analysis, Board, Decision, Dice, Level, Limits, Player, Scoring, Square, Status,
};
use tictactoe_game::game::{Game, ResultChange, Seat, Seats, Tally, result_line};
pub use tictactoe_game::game::{Names, Outgoing};
use tictactoe_game::present::your_turn;
use tictactoe_game::record::{self, MoveNumber};
use tictactoe_game::review::{Mark, MoveReview, review, sentence};
use tictactoe_game::settings::Settings;
use tictactoe_grade::lab::Ladder;

/// How long a message about refused input stays on the status line.
const FLASH_TIME: Duration = Duration::from_millis(2000);
/// Fastest and slowest pace of watch mode.
const FASTEST_WATCH: Duration = Duration::from_millis(50);
const SLOWEST_WATCH: Duration = Duration::from_millis(5000);

/// A game shared with people at other terminals (the SSH server).
#[derive(Debug, Clone)]
enum Link {
    /// Against a person elsewhere: `me` moves from this screen, the other
    /// side's moves arrive from outside.
    Versus {
        me: Player,
        names: Names,
        /// Who asked for a rematch since the game ended.
        mine: bool,
        theirs: bool,
    },
    /// Someone else's game: every move arrives from outside.
    Watching { names: Names },
}

/// What the server says about a game between people beyond its moves:
/// what kind of game it is, the players' ratings, the clocks, and who is
/// away. The server keeps the clocks that count; this is its copy to draw.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Served {
    /// After the title: `rated · 3+2`.
    pub caption: Option<String>,
    /// X's and O's ratings as shown (`1662?`), in a rated game.
    pub ratings: Option<[String; 2]>,
    /// The clocks, in a game with a time control.
    pub clock: Option<Clock>,
    /// The side whose player is away, and when they lose unless back.
    pub away: Option<(Player, Instant)>,
    /// From when the side not to move may claim the game against the side
    /// to move, which has not moved: a game without a clock.
    pub claim: Option<Instant>,
}

/// A message on the status line until `until`.
#[derive(Debug, Clone)]
struct Flash {
    text: String,
    until: Instant,
    /// A key refused in the position on screen, rather than news from outside.
    refusal: bool,
}

/// The AI's most recent move and why it chose it.
#[derive(Debug, Clone)]
pub struct SearchReport {
    /// The side that moved.
    pub player: Player,
    /// Its level.
    pub level: Level,
    /// The position it moved in.
    pub before: Board,
    /// The move and the scores it came from.
    pub decision: Decision,
}

/// An AI turn under way.
#[derive(Debug, Clone)]
struct AiTurn {
    id: u64,
    started: Instant,
    requested: bool,
    reply: Option<Decision>,
}

/// The most finished games kept for a front end that has not looked.
const FINISHED_KEPT: usize = 16;

/// A finished game under review on the board: the position after the
/// moves stepped through so far, and each move's review. On 3x3 every
/// value is proven at once; on bigger boards the engine reviews one move
/// at a time within the game's thinking time ([`Request::Review`]), the
/// move on the board first, while the player steps through the game.
/// Closed, it asks for nothing more.
#[derive(Debug, Clone)]
pub struct GameReview {
    game: Game,
    /// The position before each move.
    before: Vec<Board>,
    /// Each move's review, once it is in.
    reviews: Vec<Option<MoveReview>>,
    /// The moves asked of the engine (answered, or `waiting`).
    asked: Vec<bool>,
    /// The move the engine is reviewing now.
    waiting: Option<usize>,
    /// Matches the engine's replies to this review, not to one closed before.
    id: u64,
    /// Thinking time per move on bigger boards.
    limits: Limits,
    /// How many of the game's moves are on the board.
    at: usize,
    shown: Game,
}

impl GameReview {
    /// The review of `game`, as `seats` played it, shown at its end; on a
    /// bigger board its moves are asked of the engine as review `id`,
    /// each within `limits`.
    fn new(game: &Game, seats: Seats, id: u64, limits: Limits) -> GameReview {
        let record = record::of_game(game, seats, String::new());
        let before: Vec<Board> = record.steps().map(|(board, _)| board).collect();
        let moves = before.len();
        let (reviews, asked) = if game.start().is_classic() {
            // Proven from the compiled table at once: nothing for the engine's thread.
            let reviews = review(&record, Limits::ToTheEnd, &mut Ai::new());
            (reviews.into_iter().map(Some).collect(), vec![true; moves])
        } else {
            (vec![None; moves], vec![false; moves])
        };
        let mut opened = GameReview {
            game: game.clone(),
            before,
            reviews,
            asked,
            waiting: None,
            id,
            limits,
            at: 0,
            shown: Game::new(game.start()),
        };
        opened.step(Browse::End);
        opened
    }

    fn step(&mut self, browse: Browse) {
        let last = self.game.moves().len();
        self.at = match browse {
            Browse::Back => self.at.saturating_sub(1),
            Browse::Forward => (self.at + 1).min(last),
            Browse::Start => 0,
            Browse::End => last,
        };
        let mut shown = Game::new(self.game.start());
        for &mv in &self.game.moves()[..self.at] {
            // The moves were played on this board once already.
            if shown.play(mv).is_err() {
                break;
            }
        }
        self.shown = shown;
    }

    /// The next move for the engine to review, if none is under way: the
    /// move on the board, else the first after it not yet asked, else the
    /// first before it.
    fn request(&mut self) -> Option<Request> {
        if self.waiting.is_some() {
            return None;
        }
        let here = self.at.saturating_sub(1);
        let ply = (here..self.asked.len())
            .chain(0..here)
            .find(|&ply| !self.asked[ply])?;
        self.asked[ply] = true;
        self.waiting = Some(ply);
        Some(Request::Review {
            id: self.id,
            ply,
            board: self.before[ply],
            mv: self.game.moves()[ply],
            limits: self.limits,
        })
    }

    /// Takes the engine's review of move `ply`, if it answers this review.
    fn receive(&mut self, id: u64, ply: usize, reviewed: Option<MoveReview>) {
        if id != self.id || self.waiting != Some(ply) {
            return;
        }
        self.waiting = None;
        self.reviews[ply] = reviewed;
    }

    /// True while moves are left for the engine to review.
    pub fn reviewing(&self) -> bool {
        self.waiting.is_some() || self.asked.contains(&false)
    }

    /// How many of the game's moves are reviewed so far.
    pub fn reviewed(&self) -> usize {
        self.reviews.iter().flatten().count()
    }

    /// The whole game under review.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// How many of the game's moves are on the board.
    pub fn at(&self) -> usize {
        self.at
    }

    /// Each move's review, once it is in.
    pub fn reviews(&self) -> &[Option<MoveReview>] {
        &self.reviews
    }

    /// The mark of each move of the game (none for a move not reviewed yet).
    pub fn marks(&self) -> Vec<Option<Mark>> {
        self.reviews
            .iter()
            .map(|reviewed| reviewed.as_ref().and_then(|reviewed| reviewed.mark))
            .collect()
    }

    /// The status line: the last move on the board and what it did, or
    /// that the engine is still thinking about it.
    pub fn status(&self) -> String {
        let moves = self.game.moves().len();
        if self.at == 0 {
            let start = format!("The start: Right steps through the {moves} moves");
            return if self.reviewing() {
                format!("{start}; {} reviewed so far", self.reviewed())
            } else {
                start
            };
        }
        let ply = self.at - 1;
        match &self.reviews[ply] {
            Some(reviewed) => sentence(reviewed),
            None => {
                let number = MoveNumber::of(self.before[ply], 0);
                let mv = self.game.moves()[ply];
                if self.asked[ply] && self.waiting != Some(ply) {
                    // Answered without a review: the engine found no such move there.
                    format!("{number} {mv}: not reviewed")
                } else {
                    format!("{number} {mv}: thinking…")
                }
            }
        }
    }
}

/// What the screen shows: the game, or one view over it at a time. The
/// help opens over any of them (and the key table's mode is the view's:
/// [`App::key_context`]).
#[derive(Debug)]
enum View {
    /// The game itself, with the explain overlay if it is on.
    Game,
    /// The record of the game, to copy (`r`): any key closes it.
    Record(String),
    /// The review of the finished game, on the board (`v`).
    Review(GameReview),
    /// The minimax tree of the position (`t`).
    Tree(TreeView),
    /// The walkthrough of minimax call by call (`c`).
    Walkthrough(Walkthrough),
    /// The quiz about the position (`z`).
    Quiz(QuizView),
}

/// The model of the game screen.
#[derive(Debug)]
pub struct App {
    settings: Settings,
    game: Game,
    tally: Tally,
    cursor: Square,
    /// What the screen shows.
    view: View,
    /// The help, open over the view.
    help: bool,
    paused: bool,
    watch_delay: Duration,
    /// One move to play at once while paused.
    step: bool,
    ai_turn: Option<AiTurn>,
    next_id: u64,
    report: Option<SearchReport>,
    explain: Explain,
    flash: Option<Flash>,
    /// Results that entered or left the tally since the front end last looked.
    results: Vec<ResultChange>,
    /// Games that finished since the front end last looked, as they ended.
    finished: Vec<Game>,
    /// The game to save to a new records file, until the front end takes it.
    to_save: Option<Game>,
    quit: bool,
    /// The AI's random choices, one after another through the session, as
    /// every front end makes them: the same seed and moves, the same games.
    dice: Dice,
    /// Colours on screen (off when the user's terminal asks for none).
    color: bool,
    /// People at other terminals in this game, if any.
    link: Option<Link>,
    /// Moves and requests for the other end, since the front end last looked.
    outgoing: Vec<Outgoing>,
    /// Why the game can go on no longer (the opponent left): any key leaves.
    ended: Option<String>,
    /// Games begun in this session, the first counted as 0.
    round: u32,
    /// Leaving returns to a lobby rather than ending the program (the SSH server).
    in_lobby: bool,
    /// What the server says about a game between people.
    served: Served,
    /// A move of this screen's sent to the server and not yet back.
    pending: bool,
    /// The time the screen shows (clocks count down to it), as of the last [`App::tick`].
    now: Instant,
    /// When the countdowns on screen next change.
    next_second: Option<Instant>,
}

impl App {
    /// A session starting its first game at `now`.
    pub fn new(settings: Settings, now: Instant) -> App {
        let dice = settings.dice();
        let centre = settings.start.size() / 2;
        let mut app = App {
            game: Game::new(settings.start),
            watch_delay: settings.watch_delay,
            settings,
            tally: Tally::default(),
            cursor: Square::new(centre, centre),
            view: View::Game,
            help: false,
            paused: false,
            step: false,
            ai_turn: None,
            next_id: 0,
            report: None,
            explain: Explain::default(),
            flash: None,
            results: Vec::new(),
            finished: Vec::new(),
            to_save: None,
            quit: false,
            dice,
            color: true,
            link: None,
            outgoing: Vec::new(),
            ended: None,
            round: 0,
            in_lobby: false,
            served: Served::default(),
            pending: false,
            now,
            next_second: None,
        };
        app.begin_turn(now);
        app
    }

    /// The same session drawn with colours or without (`NO_COLOR`).
    pub fn with_color(mut self, color: bool) -> App {
        self.color = color;
        self
    }

    /// The same session reached from a lobby (the SSH server): quitting
    /// returns there, and the keys say so.
    pub fn in_lobby(mut self) -> App {
        self.in_lobby = true;
        self
    }

    /// True once the game can go on no longer (the opponent left): any key leaves.
    pub fn link_ended(&self) -> bool {
        self.ended.is_some()
    }

    /// True when quitting returns to a lobby: a game on the SSH server.
    pub fn leaves_to_lobby(&self) -> bool {
        self.in_lobby || self.link.is_some()
    }

    /// The same session as a game against a person at another terminal:
    /// this screen plays `me`, the other side's moves come from
    /// [`App::sync`]. Both seats are people, so nothing is asked of
    /// the engine but explanations, and undo is refused.
    pub fn versus(mut self, me: Player, names: Names, now: Instant) -> App {
        self.settings.seats = Seats {
            x: Seat::Human,
            o: Seat::Human,
        };
        self.link = Some(Link::Versus {
            me,
            names,
            mine: false,
            theirs: false,
        });
        self.begin_turn(now);
        self
    }

    /// The same session as a spectator of someone else's game, whose moves
    /// come from [`App::follow`]. Nothing can be played from this screen.
    pub fn watching(mut self, names: Names, now: Instant) -> App {
        self.settings.seats = Seats {
            x: Seat::Human,
            o: Seat::Human,
        };
        self.link = Some(Link::Watching { names });
        self.begin_turn(now);
        self
    }

    /// Applies one action of the player's.
    pub fn update(&mut self, action: Action, now: Instant) {
        if self.ended.is_some() {
            // The game is gone: any key leaves it.
            self.help = false;
            self.quit = true;
            return;
        }
        if self.help {
            // Any key closes the help; quitting still quits.
            self.help = false;
            self.quit = action == Action::Quit;
            return;
        }
        // Leaving and the help are the same in every view.
        match action {
            Action::Quit => {
                self.quit = true;
                return;
            }
            Action::ToggleHelp if !matches!(self.view, View::Game | View::Record(_)) => {
                self.help = true;
                return;
            }
            _ => {}
        }
        let closed = match &mut self.view {
            View::Game => return self.update_game(action, now),
            // Any key closes the record.
            View::Record(_) => true,
            View::Review(review) => match action {
                Action::Back | Action::Review => true,
                Action::Browse(browse) => {
                    review.step(browse);
                    false
                }
                _ => false,
            },
            View::Tree(tree) => match action {
                Action::Back | Action::ToggleTree => true,
                Action::Cursor(direction) => {
                    tree.navigate(direction);
                    false
                }
                Action::Confirm => {
                    tree.open();
                    false
                }
                Action::Collapse => {
                    tree.up();
                    false
                }
                _ => false,
            },
            View::Walkthrough(walkthrough) => match action {
                // Esc stops a run where it got to; otherwise it closes.
                Action::Back if walkthrough.running().is_some() => {
                    walkthrough.stop();
                    false
                }
                Action::Back => true,
                // While a run is under way nothing else moves the walk.
                _ if walkthrough.running().is_some() => false,
                Action::Trace(step) => {
                    match step {
                        TraceMove::Next => walkthrough.next(),
                        TraceMove::Back => walkthrough.back(),
                        TraceMove::Finish => walkthrough.finish(),
                        TraceMove::End => walkthrough.end(),
                        TraceMove::AlphaBeta => walkthrough.toggle_alpha_beta(),
                    }
                    false
                }
                _ => false,
            },
            View::Quiz(quiz) => match action {
                Action::Back => true,
                Action::Type(typed) => {
                    quiz.type_char(typed);
                    false
                }
                Action::Erase => {
                    quiz.erase();
                    false
                }
                // Enter checks or moves on; after the score it closes the quiz.
                Action::Confirm => !quiz.enter(),
                _ => false,
            },
        };
        if closed {
            self.view = View::Game;
        }
    }

    /// Keys on the game itself, with no view over it.
    fn update_game(&mut self, action: Action, now: Instant) {
        let watch = self.is_watch();
        match action {
            // Esc closes what is open before it leaves: explain is an overlay too.
            Action::Back if self.explain.is_on() => self.explain.toggle(),
            Action::Quit | Action::Back => self.quit = true,
            Action::ToggleHelp => self.help = true,
            // Ctrl-Z is the front end's: the local terminal suspends.
            // The views' keys and the text front ends' own words mean
            // nothing on the game.
            Action::Unbound
            | Action::Collapse
            | Action::Erase
            | Action::Suspend
            | Action::Trace(_)
            | Action::Read(_)
            | Action::Browse(_)
            | Action::Type(_) => {}
            Action::Quiz => match QuizView::new(&self.board(), self.settings.scoring) {
                Some(quiz) => {
                    self.hold_watch();
                    self.view = View::Quiz(quiz);
                }
                None => self.say("The quiz asks about unfinished 3x3 positions", now),
            },
            Action::Review => {
                if self.game.status().is_over() {
                    self.next_id += 1;
                    let (id, limits) = (self.next_id, self.settings.limits);
                    let review = GameReview::new(&self.game, self.settings.seats, id, limits);
                    self.view = View::Review(review);
                } else {
                    self.say("the review opens once the game is over", now);
                }
            }
            Action::ShowRecord => {
                let record = record::of_game(&self.game, self.settings.seats, record::today());
                self.view = View::Record(record::write(&record));
                self.to_save = Some(self.game.clone());
            }
            Action::ToggleExplain => self.explain.toggle(),
            Action::ToggleLab => self.explain.toggle_lab(),
            Action::ToggleTree => {
                self.hold_watch();
                let (limits, scoring) = (self.settings.limits, self.settings.scoring);
                self.view = View::Tree(TreeView::new(self.board(), limits, scoring));
            }
            Action::Walkthrough => {
                self.hold_watch();
                let walkthrough = Walkthrough::new(self.board(), self.settings.scoring);
                self.view = View::Walkthrough(walkthrough);
            }
            Action::Cursor(direction) => self.move_cursor(direction),
            Action::Confirm => self.place(self.cursor, now),
            Action::Place(mv) => {
                self.cursor = mv;
                self.place(mv, now);
            }
            Action::NewGame if self.is_versus() => self.ask_rematch(now),
            Action::Claim { win } if self.claimable() => {
                self.outgoing.push(Outgoing::Claim { win });
            }
            Action::Claim { .. } => self.say(
                "Nothing to claim: the other player is within their time",
                now,
            ),
            Action::NewGame | Action::Undo | Action::Redo if self.is_watching() => {
                self.say("You are watching: q returns to the lobby", now)
            }
            Action::Undo | Action::Redo if self.is_versus() => {
                self.say("No undo against a person: every move stands", now)
            }
            Action::NewGame => {
                self.paused = false;
                self.flash = None;
                self.next_round(now);
            }
            Action::Undo => self.undo(now),
            Action::Redo => self.redo(now),
            Action::TogglePause if watch => self.paused = !self.paused,
            Action::Step if watch => {
                self.paused = true;
                self.step = !self.game.status().is_over();
            }
            Action::Faster if watch => self.watch_delay = (self.watch_delay / 2).max(FASTEST_WATCH),
            Action::Slower if watch => self.watch_delay = (self.watch_delay * 2).min(SLOWEST_WATCH),
            Action::TogglePause | Action::Step | Action::Faster | Action::Slower => {}
        }
    }

    /// Watch mode pauses while the tree or the walkthrough is studied.
    fn hold_watch(&mut self) {
        if self.is_watch() {
            self.paused = true;
        }
    }

    /// The next piece of work for the engine, if any: the AI's move first,
    /// then the tree's next level, then what the explain overlay and panel
    /// show. Call until `None`.
    pub fn take_request(&mut self) -> Option<Request> {
        let board = self.game.board();
        if let Some(turn) = self.ai_turn.as_mut().filter(|turn| !turn.requested)
            && let Seat::Ai(level) = self.settings.seats.of(board.to_move())
        {
            turn.requested = true;
            return Some(Request::Move {
                id: turn.id,
                board,
                level,
                dice: self.dice.clone(),
                limits: self.settings.limits,
            });
        }
        match &mut self.view {
            // A review open is a finished game: no AI move comes before it.
            View::Review(review) => review.request(),
            View::Tree(tree) => tree.request(),
            View::Quiz(quiz) => quiz.request(),
            View::Walkthrough(_) | View::Record(_) => None,
            View::Game => self
                .explain
                .request(board, self.settings.limits, self.settings.scoring),
        }
    }

    /// Takes the engine's answer. An AI move is played once its pause is over
    /// (see [`App::tick`]); answers about positions no longer relevant are dropped.
    pub fn receive(&mut self, reply: Reply, now: Instant) {
        match reply {
            Reply::Move { id, decision, dice } => match self.ai_turn.as_mut() {
                Some(turn) if turn.id == id => {
                    turn.reply = decision;
                    // The dice as the choice left them, for the next.
                    self.dice = dice;
                }
                _ => return,
            },
            Reply::Explain { analysis, lines } => {
                if analysis.board == self.game.board() {
                    self.explain.receive_scores(analysis, lines);
                }
            }
            Reply::Costs { board, costs } => self.explain.receive_costs(board, costs),
            Reply::Lab(ladder) => self.explain.receive_ladder(ladder),
            Reply::Tree { analysis, below } => {
                if let View::Tree(tree) = &mut self.view {
                    tree.receive(&analysis, &below);
                }
            }
            // A review closed since asked drops its answer with it.
            Reply::Review { id, ply, review } => {
                if let View::Review(open) = &mut self.view {
                    open.receive(id, ply, review);
                }
            }
            // So does a quiz, and another quiz takes only its own answers.
            Reply::Quiz { solved } => {
                if let View::Quiz(quiz) = &mut self.view {
                    quiz.receive(solved);
                }
            }
        }
        self.tick(now);
    }

    /// Lets time pass: plays an AI move whose pause is over, clears old
    /// messages, and takes the next slice of the walkthrough's work (a run
    /// to a call far away, counting its calls).
    pub fn tick(&mut self, now: Instant) {
        self.now = now;
        self.next_second = self.next_second(now);
        if let View::Walkthrough(walkthrough) = &mut self.view {
            walkthrough.work(trace::SLICE);
        }
        if self.flash.as_ref().is_some_and(|flash| now >= flash.until) {
            self.flash = None;
        }
        let Some(turn) = &self.ai_turn else { return };
        let Some(decision) = &turn.reply else { return };
        let due = turn.started + self.pause();
        if self.step || (!self.paused && now >= due) {
            let decision = decision.clone();
            let before = self.game.status();
            let position = self.game.board();
            let player = position.to_move();
            self.step = false;
            self.ai_turn = None;
            if self.game.play(decision.mv).is_ok() {
                if let Seat::Ai(level) = self.settings.seats.of(player) {
                    self.report = Some(SearchReport {
                        player,
                        level,
                        before: position,
                        decision,
                    });
                }
                self.after_move(before, now);
            }
        }
    }

    /// When [`App::tick`] next has something to do, if anything: the front end
    /// sleeps until then, or until a key, whichever comes first. While the
    /// walkthrough has work under way that is at once: the front end reads
    /// what keys have come and ticks again.
    pub fn wake_at(&self) -> Option<Instant> {
        if self.walkthrough().is_some_and(Walkthrough::busy) {
            return Some(self.now);
        }
        let flash = self.flash.as_ref().map(|flash| flash.until);
        let ai = self
            .ai_turn
            .as_ref()
            .filter(|turn| turn.reply.is_some() && (self.step || !self.paused))
            .map(|turn| turn.started + self.pause());
        flash.into_iter().chain(ai).chain(self.next_second).min()
    }

    /// When what counts down on screen (a running clock, the time an
    /// absent player has left) next shows another second, as of `now`.
    fn next_second(&self, now: Instant) -> Option<Instant> {
        if self.ended.is_some() || self.game.status().is_over() {
            return None;
        }
        let clock = self.served.clock.and_then(|clock| clock.next_tick(now));
        let away = self.served.away.and_then(|(_, until)| {
            let left = until.checked_duration_since(now)?;
            let into = Duration::from_nanos((left.as_nanos() % 1_000_000_000) as u64);
            Some(
                now + if into.is_zero() {
                    Duration::from_secs(1)
                } else {
                    into
                },
            )
        });
        let claim = self.served.claim.filter(|&at| at > now);
        clock.into_iter().chain(away).chain(claim).min()
    }

    /// True when this player may claim the game: the other player, to
    /// move in a game without a clock, has not moved for the claim time.
    pub fn claimable(&self) -> bool {
        let Some(Link::Versus { me, .. }) = &self.link else {
            return false;
        };
        let waiting =
            matches!(self.game.status(), Status::InProgress { to_move } if to_move != *me);
        waiting && self.ended.is_none() && self.served.claim.is_some_and(|at| self.now >= at)
    }

    /// True while a request is out and its answer would change the screen.
    pub fn is_waiting(&self) -> bool {
        let counting = self.explain.counting(self.game.board());
        let tree = self.tree().is_some_and(TreeView::waiting);
        let review = self.game_review().is_some_and(GameReview::reviewing);
        let quiz = self.quiz().is_some_and(QuizView::waiting);
        self.ai_thinking() || self.scoring() || counting || tree || review || quiz
    }

    /// True while the engine works on the AI's move: asked, and no answer yet.
    /// (Once the answer is in, the AI only waits out its pause.)
    pub fn ai_thinking(&self) -> bool {
        self.ai_turn
            .as_ref()
            .is_some_and(|turn| turn.requested && turn.reply.is_none())
    }

    /// True while the explain overlay's scores for the position on screen are
    /// being computed: asked, and no answer yet.
    pub fn scoring(&self) -> bool {
        self.explain.scoring(self.game.board())
    }

    /// How the teaching views count scores (`--scores`).
    pub fn scores(&self) -> Scoring {
        self.settings.scoring
    }

    /// True once the player asked to leave.
    pub fn should_quit(&self) -> bool {
        self.quit
    }

    /// Results counted or taken back since the last call, oldest first: the
    /// front end saves them the moment they happen, so closing the terminal
    /// on a finished game loses nothing.
    pub fn take_result_changes(&mut self) -> Vec<ResultChange> {
        std::mem::take(&mut self.results)
    }

    /// The games that finished since the last call, each as it ended (for
    /// the front end to record).
    pub fn take_finished_games(&mut self) -> Vec<Game> {
        std::mem::take(&mut self.finished)
    }

    /// The record of the game on screen, while it is shown (`r`).
    pub fn record_shown(&self) -> Option<&str> {
        match &self.view {
            View::Record(record) => Some(record),
            _ => None,
        }
    }

    /// The game the player asked to save to a new records file, once.
    pub fn take_game_to_save(&mut self) -> Option<Game> {
        self.to_save.take()
    }

    /// The message on the status line, if one is up.
    pub fn flash_text(&self) -> Option<&str> {
        self.flash.as_ref().map(|flash| flash.text.as_str())
    }

    /// Shows a message from outside the game (a warning about saved statistics).
    pub fn notify(&mut self, text: &str, now: Instant) {
        self.flash = Some(Flash {
            text: text.to_string(),
            until: now + FLASH_TIME * 3,
            refusal: false,
        });
    }

    /// Moves and rematch requests of this player's since the last call, for
    /// the front end to relay to the other end of a game between two people.
    pub fn take_outgoing(&mut self) -> Vec<Outgoing> {
        std::mem::take(&mut self.outgoing)
    }

    /// The game between people as the server has it: its moves from the
    /// start, either side's (this screen's own come back this way once
    /// the server has kept them). Moves past those on screen are played;
    /// a history that does not extend the one on screen is ignored.
    pub fn sync(&mut self, moves: &[Square], now: Instant) {
        if !self.is_versus() || !moves.starts_with(self.game.moves()) {
            return;
        }
        for &mv in &moves[self.game.moves().len()..] {
            let before = self.game.status();
            if self.game.play(mv).is_err() {
                break;
            }
            self.pending = false;
            self.after_move(before, now);
        }
    }

    /// The server did not take the move this screen sent: it may be played again.
    pub fn move_refused(&mut self, now: Instant) {
        if std::mem::take(&mut self.pending) {
            self.say("The server did not take that move", now);
        }
    }

    /// What the server says about the game beyond its moves, at `now`.
    pub fn serve(&mut self, served: Served, now: Instant) {
        self.served = served;
        self.tick(now);
    }

    /// What the server said about the game beyond its moves.
    pub fn served(&self) -> &Served {
        &self.served
    }

    /// The other person asks for a rematch; it starts once both have asked.
    pub fn remote_rematch(&mut self, now: Instant) {
        if let Some(Link::Versus { theirs, .. }) = &mut self.link {
            *theirs = true;
            self.start_rematch(now);
        }
    }

    /// The watched game as it is now: who plays and the moves so far from
    /// the start. Moves that extend what is on screen are played on; any
    /// other history (a new game) replaces it.
    pub fn follow(&mut self, names: Names, moves: &[Square], now: Instant) {
        let Some(Link::Watching { names: shown }) = &mut self.link else {
            return;
        };
        // A rematch swaps the sides: the tally follows the players.
        if names.x == shown.o && names.o == shown.x {
            self.tally.swap_sides();
        }
        *shown = names;
        if !moves.starts_with(self.game.moves()) {
            self.next_round(now);
        }
        for &mv in &moves[self.game.moves().len()..] {
            let before = self.game.status();
            if self.game.play(mv).is_err() {
                break;
            }
            self.after_move(before, now);
        }
    }

    /// The game can go on no longer (the opponent left, the watched game
    /// ended): says why until a key is pressed, which leaves.
    pub fn end_link(&mut self, reason: &str) {
        self.pending = false;
        self.ended = Some(reason.to_string());
    }

    fn ask_rematch(&mut self, now: Instant) {
        if !self.game.status().is_over() {
            return self.say("A rematch once this game is over", now);
        }
        if let Some(Link::Versus { mine, .. }) = &mut self.link
            && !*mine
        {
            *mine = true;
            self.outgoing.push(Outgoing::Rematch);
            self.start_rematch(now);
        }
    }

    /// Once both have asked: a new game with the sides swapped.
    fn start_rematch(&mut self, now: Instant) {
        let Some(Link::Versus {
            me,
            names,
            mine,
            theirs,
        }) = &mut self.link
        else {
            return;
        };
        if !(*mine && *theirs) {
            return;
        }
        *me = me.other();
        std::mem::swap(&mut names.x, &mut names.o);
        (*mine, *theirs) = (false, false);
        self.tally.swap_sides();
        self.flash = None;
        self.next_round(now);
    }

    /// A new game from the start position, counted as a new round.
    fn next_round(&mut self, now: Instant) {
        self.round += 1;
        self.game.restart();
        self.begin_turn(now);
    }

    fn pause(&self) -> Duration {
        if self.is_watch() {
            self.watch_delay
        } else {
            self.settings.ai_delay
        }
    }

    fn place(&mut self, mv: Square, now: Instant) {
        let board = self.game.board();
        if board.status().is_over() {
            return self.say("The game is over: press n for a new one", now);
        }
        match &self.link {
            Some(Link::Watching { .. }) => {
                return self.say("You are watching: q returns to the lobby", now);
            }
            Some(Link::Versus { me, names, .. }) if board.to_move() != *me => {
                let text = format!("Not your turn: waiting for {}", names.of(me.other()));
                return self.say(&text, now);
            }
            _ => {}
        }
        if !self.settings.seats.of(board.to_move()).is_human() {
            return self.say("Not your turn: the AI is thinking", now);
        }
        if self.is_versus() {
            // The server checks and keeps the move: it shows once the server sends it back.
            if self.pending {
                return;
            }
            return match board.play(mv) {
                Ok(_) => {
                    self.pending = true;
                    self.flash = None;
                    self.outgoing.push(Outgoing::Square(mv));
                }
                Err(_) => self.say("That square is taken", now),
            };
        }
        match self.game.play(mv) {
            Ok(()) => {
                self.flash = None;
                self.after_move(board.status(), now);
            }
            Err(_) => self.say("That square is taken", now),
        }
    }

    fn undo(&mut self, now: Instant) {
        let before = self.game.status();
        if self.game.undo_turn(self.settings.seats) == 0 {
            return self.say("Nothing to undo", now);
        }
        self.after_rewind(before, now);
    }

    fn redo(&mut self, now: Instant) {
        let before = self.game.status();
        if self.game.redo_turn(self.settings.seats) == 0 {
            return self.say("Nothing to redo", now);
        }
        self.after_rewind(before, now);
    }

    /// After undo or redo: a result that is no longer on the board leaves the
    /// tally, a result that is back enters it, and the turn starts afresh.
    fn after_rewind(&mut self, before: Status, now: Instant) {
        self.note_result(before);
        if self.is_watch() {
            self.paused = true;
        }
        self.flash = None;
        self.begin_turn(now);
    }

    fn after_move(&mut self, before: Status, now: Instant) {
        self.note_result(before);
        self.begin_turn(now);
        // A key refused while waiting ("Not your turn") is stale once the
        // awaited move is in: the player's turn or the result shows at once.
        let turn_passed = self.human_to_move() || self.game.status().is_over();
        if turn_passed && self.flash.as_ref().is_some_and(|flash| flash.refusal) {
            self.flash = None;
        }
    }

    /// Counts a result that appeared since `before`, or takes back one that went away.
    fn note_result(&mut self, before: Status) {
        if let Some(change) = ResultChange::between(before, self.game.status()) {
            self.tally.apply(change);
            self.results.push(change);
            if let ResultChange::Finished(_) = change {
                // A front end that never looks keeps only the latest few.
                if self.finished.len() == FINISHED_KEPT {
                    self.finished.remove(0);
                }
                self.finished.push(self.game.clone());
            }
        }
    }

    /// Starts the AI's turn if the side to move is an AI.
    fn begin_turn(&mut self, now: Instant) {
        self.ai_turn = None;
        self.step = false;
        if let Status::InProgress { to_move } = self.game.status()
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
        let Square { row, col } = self.cursor;
        self.cursor = match direction {
            Direction::Up => Square::new(row.saturating_sub(1), col),
            Direction::Down => Square::new((row + 1).min(last), col),
            Direction::Left => Square::new(row, col.saturating_sub(1)),
            Direction::Right => Square::new(row, (col + 1).min(last)),
        };
    }

    fn say(&mut self, text: &str, now: Instant) {
        self.flash = Some(Flash {
            text: text.to_string(),
            until: now + FLASH_TIME,
            refusal: true,
        });
    }

    // What the view reads.

    /// The position on screen.
    pub fn board(&self) -> Board {
        self.game().board()
    }

    /// The game, with its history.
    pub fn game(&self) -> &Game {
        self.game_review()
            .map_or(&self.game, |review| &review.shown)
    }

    /// The review of the finished game, while it is open on the board.
    pub fn game_review(&self) -> Option<&GameReview> {
        match &self.view {
            View::Review(review) => Some(review),
            _ => None,
        }
    }

    /// Results so far this session.
    pub fn tally(&self) -> Tally {
        self.tally
    }

    /// The cell under the cursor.
    pub fn cursor(&self) -> Square {
        self.cursor
    }

    /// True when the screen may use colour.
    pub fn color(&self) -> bool {
        self.color
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

    /// True when `u` would take a turn back.
    pub fn can_undo(&self) -> bool {
        self.game.can_undo_turn(self.settings.seats)
    }

    /// True when `U` would play a taken-back turn again.
    pub fn can_redo(&self) -> bool {
        self.game.can_redo()
    }

    /// True while watch mode is paused.
    pub fn paused(&self) -> bool {
        self.paused
    }

    /// Pause between moves in watch mode.
    pub fn watch_delay(&self) -> Duration {
        self.watch_delay
    }

    /// The AI's most recent move and the search behind it.
    pub fn report(&self) -> Option<&SearchReport> {
        self.report.as_ref()
    }

    /// True while the explain overlay is on.
    pub fn explain_on(&self) -> bool {
        self.explain.is_on()
    }

    /// Every move's score in the position on screen, once the engine has answered.
    pub fn overlay(&self) -> Option<&Analysis> {
        self.explain.analysis(self.game.board())
    }

    /// The line behind the score of `mv` in the position on screen, once known.
    pub fn line(&self, mv: Square) -> Option<&Line> {
        self.explain.line(self.game.board(), mv)
    }

    /// What scoring every move of the position on screen costs each way, once counted.
    pub fn costs(&self) -> Option<&Costs> {
        self.explain.costs(self.game.board())
    }

    /// True while the explain panel shows the lab's ladder.
    pub fn lab_on(&self) -> bool {
        self.explain.lab_on()
    }

    /// The lab's ladder of the position on screen, once searched.
    pub fn ladder(&self) -> Option<&Ladder> {
        self.explain.ladder(self.game.board())
    }

    /// The minimax tree, while it is open.
    pub fn tree(&self) -> Option<&TreeView> {
        match &self.view {
            View::Tree(tree) => Some(tree),
            _ => None,
        }
    }

    /// The walkthrough of minimax call by call, while it is open.
    pub fn walkthrough(&self) -> Option<&Walkthrough> {
        match &self.view {
            View::Walkthrough(walkthrough) => Some(walkthrough),
            _ => None,
        }
    }

    /// The quiz, while it is open.
    pub fn quiz(&self) -> Option<&QuizView> {
        match &self.view {
            View::Quiz(quiz) => Some(quiz),
            _ => None,
        }
    }

    /// True when a person may place a mark now.
    pub fn human_to_move(&self) -> bool {
        // A game whose other end is gone takes no more moves.
        if self.ended.is_some() {
            return false;
        }
        match (self.game.status(), &self.link) {
            (Status::InProgress { .. }, Some(Link::Watching { .. })) => false,
            (Status::InProgress { to_move }, Some(Link::Versus { me, .. })) => to_move == *me,
            (Status::InProgress { to_move }, None) => self.settings.seats.of(to_move).is_human(),
            _ => false,
        }
    }

    /// The status line: whose turn, or how the game ended, or a message about refused input.
    pub fn status_line(&self) -> String {
        if let Some(reason) = &self.ended {
            // The key bar says that any key returns to the lobby.
            return reason.clone();
        }
        if let Some(flash) = &self.flash {
            return flash.text.clone();
        }
        if let Some(link) = &self.link {
            return self.linked_status(link);
        }
        let seats = self.settings.seats;
        let status = self.game.status();
        if let Some(result) = seats.result_line(status) {
            return result;
        }
        match status {
            Status::Won(_) | Status::Draw => String::new(),
            Status::InProgress { to_move } => match seats.of(to_move) {
                Seat::Human if seats.lone_human().is_some() => your_turn(to_move),
                Seat::Human => format!("{to_move} to move"),
                Seat::Ai(_) if self.is_watch() && self.paused => {
                    format!("Paused, {to_move} to move: space resumes, . steps")
                }
                Seat::Ai(level) => {
                    let who = if self.is_watch() {
                        format!("{to_move} ({level})")
                    } else {
                        "AI".to_string()
                    };
                    // Thinking only until the answer is in; then it only waits out its pause.
                    let answered = self
                        .ai_turn
                        .as_ref()
                        .is_some_and(|turn| turn.reply.is_some());
                    if answered {
                        format!("{who} moves next…")
                    } else {
                        format!("{who} is thinking…")
                    }
                }
            },
        }
    }

    fn linked_status(&self, link: &Link) -> String {
        let status = self.game.status();
        // What the player may do comes first, away or not.
        if self.claimable()
            && let Link::Versus { me, names, .. } = link
        {
            return format!(
                "{} has not moved in the time allowed: v claims the win, x aborts",
                names.of(me.other())
            );
        }

        if let (Some((side, until)), Status::InProgress { .. }) = (self.served.away, status) {
            let names = match link {
                Link::Versus { names, .. } | Link::Watching { names } => names,
            };
            let left = clock::show(until.saturating_duration_since(self.now));
            return format!(
                "{} ({side}) is away: {left} left to come back",
                names.of(side)
            );
        }
        if self.pending {
            return "Your move is on its way…".to_string();
        }
        match (link, status) {
            (Link::Versus { me, names, .. }, Status::InProgress { to_move }) if to_move != *me => {
                format!("{}'s turn ({to_move})", names.of(to_move))
            }
            (Link::Versus { me, .. }, Status::InProgress { .. }) => your_turn(*me),
            (
                Link::Versus {
                    me,
                    names,
                    mine,
                    theirs,
                },
                _,
            ) => {
                let result = result_line(status, Some(*me)).unwrap_or_default();
                let them = names.of(me.other());
                let rematch = if *theirs {
                    format!("{them} wants a rematch: press n")
                } else if *mine {
                    format!("waiting for {them} to accept")
                } else {
                    "n for a rematch".to_string()
                };
                format!("{result} · {rematch}")
            }
            (Link::Watching { names }, Status::InProgress { to_move }) => {
                format!("{} ({to_move}) to move", names.of(to_move))
            }
            (Link::Watching { names }, Status::Won(winner)) => {
                format!("{} ({winner}) wins", names.of(winner))
            }
            (Link::Watching { .. }, Status::Draw) => "Draw".to_string(),
        }
    }

    /// The title above the board: the board's, and what the server says of the game.
    pub fn title(&self) -> String {
        let title = tictactoe_game::settings::title(self.board());
        match &self.served.caption {
            Some(caption) => format!("{title} · {caption}"),
            None => title,
        }
    }

    /// True in a game against a person at another terminal.
    pub fn is_versus(&self) -> bool {
        matches!(self.link, Some(Link::Versus { .. }))
    }

    /// True while watching someone else's game.
    pub fn is_watching(&self) -> bool {
        matches!(self.link, Some(Link::Watching { .. }))
    }

    /// The session's tally in words, from the fullest to the shortest: by
    /// player in a game between people ("alice wins 1 · bob wins 0 ·
    /// draws 0", names in the order X, O), by side otherwise.
    pub fn tally_lines(&self) -> Vec<String> {
        let tally = self.tally;
        match self.names() {
            Some(names) => vec![
                format!(
                    "{} wins {} · {} wins {} · draws {}",
                    names.x, tally.x_wins, names.o, tally.o_wins, tally.draws
                ),
                format!(
                    "{} {} · {} {} · draws {}",
                    names.x, tally.x_wins, names.o, tally.o_wins, tally.draws
                ),
            ],
            None => vec![tally.to_string()],
        }
    }

    /// This screen's side in a game against a person elsewhere.
    pub fn my_side(&self) -> Option<Player> {
        match &self.link {
            Some(Link::Versus { me, .. }) => Some(*me),
            _ => None,
        }
    }

    /// Who plays X and O, in a game with people at other terminals.
    pub fn names(&self) -> Option<&Names> {
        match &self.link {
            Some(Link::Versus { names, .. } | Link::Watching { names }) => Some(names),
            None => None,
        }
    }

    /// Games begun in this session before the one on screen (a new game or
    /// a rematch adds one).
    pub fn round(&self) -> u32 {
        self.round
    }

    /// The line naming the players, such as "You: X  vs  AI (perfect): O",
    /// or "alice: X  vs  bob: O" with people at other terminals.
    pub fn players_line(&self) -> String {
        self.players(false)
    }

    /// The players in fewer words, for narrow screens: "X (perfect)  vs  O (hard)".
    pub fn players_line_short(&self) -> String {
        self.players(true)
    }

    fn players(&self, short: bool) -> String {
        if let Some(names) = self.names() {
            let side = |player: Player, name: &str| {
                let mut said = name.to_string();
                if let Some(ratings) = &self.served.ratings
                    && !short
                {
                    let rating = &ratings[usize::from(player == Player::O)];
                    said.push_str(&format!(" ({rating})"));
                }
                said.push_str(&format!(": {player}"));
                if let Some(clock) = &self.served.clock {
                    said.push_str(&format!(" {}", clock::show(clock.left(player, self.now))));
                }
                said
            };
            return format!(
                "{}  vs  {}",
                side(Player::X, &names.x),
                side(Player::O, &names.o)
            );
        }
        let seats = self.settings.seats;
        let name = |player: Player| match (seats.of(player), short) {
            (Seat::Human, _) if seats.lone_human().is_some() => format!("You: {player}"),
            (Seat::Human, false) => format!("Human: {player}"),
            (Seat::Human, true) => player.to_string(),
            (Seat::Ai(level), false) => format!("AI ({level}): {player}"),
            (Seat::Ai(level), true) => format!("{player} ({level})"),
        };
        format!("{}  vs  {}", name(Player::X), name(Player::O))
    }
}

impl App {
    /// The moment keys are read in on this screen: its mode (the view's,
    /// or on the game how it is played) and what is possible in it.
    pub fn key_context(&self) -> Context {
        let mode = match (&self.view, &self.link) {
            _ if self.ended.is_some() => Mode::Ended,
            (View::Review(_), _) => Mode::Review,
            (View::Tree(_), _) => Mode::Tree,
            (View::Walkthrough(_), _) => Mode::Walkthrough,
            (View::Quiz(_), _) => Mode::Quiz,
            (View::Game | View::Record(_), Some(Link::Versus { .. })) => Mode::Versus,
            (View::Game | View::Record(_), Some(Link::Watching { .. })) => Mode::Watching,
            (View::Game | View::Record(_), None) if self.is_watch() => Mode::Watch,
            (View::Game | View::Record(_), None) => Mode::Play,
        };
        let over = self.board().status().is_over();
        let quiz = self.quiz().map(|quiz| {
            if quiz.is_done() {
                QuizStage::Over
            } else if quiz.answered() {
                QuizStage::Checked
            } else {
                QuizStage::Answering
            }
        });
        Context {
            help: self.help && mode != Mode::Ended,
            classic: self.board().is_classic(),
            local: !self.leaves_to_lobby(),
            can_undo: self.can_undo(),
            can_redo: self.can_redo(),
            over,
            playable: !over && matches!(mode, Mode::Play | Mode::Versus),
            paused: self.paused,
            delay: self.watch_delay,
            walk: self.walkthrough().map(|walkthrough| {
                if walkthrough.running().is_some() {
                    WalkStage::Running
                } else if walkthrough.current().is_none() {
                    WalkStage::Over
                } else {
                    WalkStage::Walking
                }
            }),
            quiz,
            claimable: mode == Mode::Versus && self.claimable(),
            ..Context::new(mode)
        }
    }
}

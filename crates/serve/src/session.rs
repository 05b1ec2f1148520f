//! One client's session: the lobby screen or a game screen, drawn into the
//! client's terminal over SSH. Everything that can happen to a session
//! arrives on channels the task sleeps on (keys, resizes, the engine's
//! answers, the other players, the lobby, shutdown), as in the local
//! terminal: nothing polls.

use std::io::Write;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossterm::cursor;
use crossterm::event::{DisableMouseCapture, EnableMouseCapture, Event, MouseEventKind};
use crossterm::queue;
use crossterm::terminal::{EnterAlternateScreen, LeaveAlternateScreen};
use ratatui::layout::Rect;
use russh::ChannelId;
use russh::server::Handle;
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;

use super::admission::PlayerSlot;
use super::frame::Screen;
use super::limit::{Bucket, Resizes};
use super::lobby::{self, Activity, GameId, IdleClock, Notice, Offer, PlayerId, Snapshot, View};
use super::lobby_screen::{Command, LobbyScreen};
use super::output::{BACKLOG_LIMIT, Outbox, OutboxWriter, Pumped, pump};
use super::pool::Jobs;
use super::store::Account;
use super::{Phase, Shared, log, sleep_until};
use tictactoe_engine::{Board, DEFAULT_THINK, Limits, Player};
use tictactoe_game::game::{Seat, Seats};
use tictactoe_game::settings::{DEFAULT_AI_DELAY, DEFAULT_WATCH_DELAY, Settings};
use tictactoe_screen::app::{App, Served};
use tictactoe_screen::decode::KeyDecoder;
use tictactoe_screen::input;
use tictactoe_screen::message::Reply;

/// How long a client's screen may still be on its way when the server
/// goes down before the client counts as not reading.
const BEHIND_AT_SHUTDOWN: Duration = Duration::from_millis(500);
/// How long the last bytes (a goodbye) may take to reach a client.
pub(super) const GOODBYE_TIME: Duration = Duration::from_secs(5);
/// The lobby screen follows the others' comings and goings at most this
/// often: with many players, every move elsewhere would redraw every lobby.
const LOBBY_REFRESH: Duration = Duration::from_millis(250);
/// Keys (and clicks) a session takes at once; past that, [`KEY_RATE`] a
/// second, and the rest are dropped.
const KEY_BURST: u32 = 100;
/// Keys a session takes a second once its burst is spent: faster than
/// any key repeat.
const KEY_RATE: u32 = 50;
/// Bytes of input a session reads at once; past that, [`INPUT_RATE`] a
/// second, and the client waits (its connection is not read meanwhile):
/// a flood costs the server no more than that, whatever the client sends.
pub(super) const INPUT_BURST: u32 = 64 * 1024;
/// Bytes of input a session reads a second once its burst is spent: keys
/// at [`KEY_RATE`] take a few hundred, mouse motion a few thousand.
pub(super) const INPUT_RATE: u32 = 16 * 1024;

/// What the SSH side learned about the client before the game began.
pub(super) struct Client {
    /// The sanitised SSH user name.
    pub name: String,
    /// Where from, for the log.
    pub peer: String,
    /// The terminal's size.
    pub cols: u16,
    pub rows: u16,
    /// False when the client's NO_COLOR or TERM ask for no colour.
    pub color: bool,
    /// The key's player, when the client logged in with a key.
    pub account: Option<Account>,
}

/// A session's way to its client (its input, keys and resizes from the
/// SSH side, comes beside it).
pub(super) struct Wire {
    /// The SSH session, to send on.
    pub handle: Handle,
    /// The client's channel.
    pub channel: ChannelId,
    /// What is drawn, on its way out.
    pub outbox: Arc<Outbox>,
    /// Where the connection is, shared with the SSH side.
    pub phase: Arc<watch::Sender<Phase>>,
}

impl Wire {
    /// Starts the pump that sends the outbox to the client. The guard ends
    /// the connection and the pump however the session ends (a panic
    /// included).
    pub(super) fn start(&self, send_timeout: Duration) -> (HangUp, JoinHandle<Pumped>) {
        let hang_up = HangUp::new(Arc::clone(&self.phase), Arc::clone(&self.outbox));
        let pumping = tokio::spawn(pump(
            Arc::clone(&self.outbox),
            self.handle.clone(),
            self.channel,
            send_timeout,
        ));
        (hang_up, pumping)
    }
}

/// Input from the SSH side.
pub(super) enum Input {
    /// Bytes typed (or pasted) by the client.
    Bytes(Vec<u8>),
    /// The client's window has a new size.
    Resize(u16, u16),
}

/// Why a session ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum SessionEnd {
    /// The player quit from the lobby.
    Quit,
    /// No key for the idle timeout.
    Idle,
    /// No move on the player's turn in a game between people for the idle timeout.
    Stalled,
    /// The server is going down.
    Shutdown,
    /// The client did not read its screen.
    TooSlow,
    /// More was drawn for the client than may wait for it.
    Behind,
    /// The connection went away.
    Gone,
    /// The same key logged in again elsewhere.
    Replaced,
}

impl SessionEnd {
    /// Why, for the log. A client too far behind may be reading at full
    /// speed (one that sends a line a moment asks for more than any link
    /// carries): what is said is what the server saw, its output unread.
    fn reason(self, send_timeout: Duration) -> String {
        match self {
            SessionEnd::Quit => "quit".to_string(),
            SessionEnd::Idle => "idle".to_string(),
            SessionEnd::Stalled => "no move on their turn for the idle timeout".to_string(),
            SessionEnd::Shutdown => "server going down".to_string(),
            SessionEnd::TooSlow => format!(
                "too slow to read its screen (nothing read for {})",
                humantime::format_duration(send_timeout)
            ),
            SessionEnd::Behind => format!(
                "its output unread ({} KiB waiting; it asked for more than it read)",
                BACKLOG_LIMIT / 1024
            ),
            SessionEnd::Gone => "connection closed".to_string(),
            SessionEnd::Replaced => "logged in again elsewhere".to_string(),
        }
    }
}

/// A game on screen and what the lobby knows of it.
struct GameScreen {
    app: App,
    game: GameId,
    /// What was last reported to the lobby (round and number of moves).
    reported: Option<(u32, Vec<tictactoe_engine::Square>)>,
}

/// The client's terminal size as a terminal's: at least 1x1, and at most
/// what a terminal can say (the screen draws on at most
/// [`tictactoe_screen::layout::MAX_SCREEN`] of it).
pub(super) fn clamp_size(cols: u32, rows: u32) -> (u16, u16) {
    let fit = |n: u32| u16::try_from(n).unwrap_or(u16::MAX).max(1);
    (fit(cols), fit(rows))
}

/// Runs one client's session until it ends, then says goodbye and closes
/// the channel. The player's place is given back as the game ends,
/// before the goodbye.
pub(super) async fn run(
    shared: Arc<Shared>,
    client: Client,
    place: PlayerSlot,
    (wire, input): (Wire, mpsc::Receiver<Input>),
) {
    let (_hang_up, mut pumping) = wire.start(shared.send_timeout);
    let outbox = &wire.outbox;
    let mut screen = Screen::new(
        OutboxWriter::new(Arc::clone(outbox)),
        client.cols,
        client.rows,
    );
    let (notices_tx, notices) = mpsc::unbounded_channel();
    let name = match &client.account {
        Some(account) => account.name.clone(),
        None => shared.lobby.guest_name(&client.name).await,
    };
    let joined = shared.lobby.join(&name, client.account.clone(), notices_tx);
    let (id, name) = (joined.id, joined.name);
    let membership = Membership {
        shared: Arc::clone(&shared),
        id,
    };
    log(format_args!("connect {name} from {}", client.peer));
    let (replies_tx, replies) = mpsc::unbounded_channel::<Reply>();
    let mut session = Session {
        shared: Arc::clone(&shared),
        id,
        name: name.clone(),
        lobby_screen: LobbyScreen::new(id, client.color, client.account.is_some()),
        shown: Snapshot::default(),
        game: None,
        color: client.color,
        jobs: Jobs::new(&shared.engine, &replies_tx),
        keys: Bucket::new(KEY_BURST, f64::from(KEY_RATE), Instant::now()),
        dropped: 0,
        input: Bucket::new(INPUT_BURST, f64::from(INPUT_RATE), Instant::now()),
        resizes: Resizes::new(Instant::now()),
    };
    let started = queue!(
        screen.writer(),
        EnterAlternateScreen,
        cursor::Hide,
        EnableMouseCapture
    );
    let ending = match started {
        Ok(()) => {
            session
                .play(&mut screen, outbox, &mut pumping, input, notices, replies)
                .await
        }
        Err(_) => SessionEnd::TooSlow,
    };
    session.end_throttle();
    // Out of the lobby first, so an opponent hears at once; no more engine
    // work; the place is free for the next player before the log says so.
    drop(membership);
    drop(session);
    drop(place);
    let say = |goodbye: &str| {
        let writer = screen.writer();
        queue!(
            writer,
            DisableMouseCapture,
            cursor::Show,
            LeaveAlternateScreen
        )?;
        if !goodbye.is_empty() {
            write!(writer, "{goodbye}\r\n")?;
        }
        screen.flush()
    };
    let ended = Ended {
        ending,
        name: &name,
        peer: &client.peer,
    };
    finish(&shared, ended, say, &wire, &mut pumping).await;
}

/// How a session ended, and whose.
pub(super) struct Ended<'a> {
    pub ending: SessionEnd,
    pub name: &'a str,
    pub peer: &'a str,
}

/// The end of a session, whichever kind: the log says why, a client that
/// went or does not read is cut off, and one that reads is given a goodbye
/// (`say` shows it: the full-screen game gives the terminal back first),
/// its exit status (0 after `quit`) and the channel's close.
pub(super) async fn finish(
    shared: &Shared,
    ended: Ended<'_>,
    say: impl FnOnce(&str) -> std::io::Result<()>,
    wire: &Wire,
    pumping: &mut tokio::task::JoinHandle<Pumped>,
) {
    let Ended { ending, name, peer } = ended;
    let Wire {
        handle,
        channel,
        outbox,
        phase,
    } = wire;
    let why = ending.reason(shared.send_timeout);
    log(format_args!("disconnect {name} from {peer}: {why}"));
    if matches!(
        ending,
        SessionEnd::TooSlow | SessionEnd::Behind | SessionEnd::Gone
    ) {
        phase.send_replace(Phase::Kill);
        return;
    }
    // Going down, a client still behind on its screen a moment later is
    // not reading: it is cut off rather than waited for.
    if ending == SessionEnd::Shutdown && outbox.busy() {
        let _ = tokio::time::timeout(BEHIND_AT_SHUTDOWN, outbox.idle()).await;
    }
    if ending == SessionEnd::Shutdown && outbox.busy() {
        log(format_args!("cut off {name} from {peer}: not reading"));
        phase.send_replace(Phase::Kill);
        return;
    }
    let goodbye = match ending {
        SessionEnd::Idle => format!(
            "tictactoe: disconnected after {} without a key press",
            humantime::format_duration(shared.idle_timeout)
        ),
        SessionEnd::Stalled => format!(
            "tictactoe: disconnected after {} without a move on your turn",
            humantime::format_duration(shared.idle_timeout)
        ),
        SessionEnd::Shutdown => "tictactoe: the server is going down; goodbye".to_string(),
        SessionEnd::Replaced => {
            "tictactoe: your key logged in again from another connection, which now has your seat; this one is closed"
                .to_string()
        }
        _ => String::new(),
    };
    let said = say(&goodbye);
    outbox.close();
    let grace = if ending == SessionEnd::Shutdown {
        super::SHUTDOWN_GRACE
    } else {
        GOODBYE_TIME
    };
    let sent = said.is_ok()
        && matches!(
            tokio::time::timeout(grace, pumping).await,
            Ok(Ok(Pumped::Done))
        );
    if !sent {
        phase.send_replace(Phase::Kill);
        return;
    }
    let status = if ending == SessionEnd::Quit { 0 } else { 1 };
    let _ = handle.exit_status_request(*channel, status).await;
    let _ = handle.eof(*channel).await;
    let _ = handle.close(*channel).await;
    phase.send_replace(Phase::Finished);
}

/// Closes the connection when a session ends without saying goodbye, and
/// ends the pump in any case.
pub(super) struct HangUp {
    phase: Arc<watch::Sender<Phase>>,
    outbox: Arc<Outbox>,
}

impl HangUp {
    fn new(phase: Arc<watch::Sender<Phase>>, outbox: Arc<Outbox>) -> HangUp {
        HangUp { phase, outbox }
    }
}

impl Drop for HangUp {
    fn drop(&mut self) {
        self.outbox.close();
        self.phase.send_if_modified(|phase| {
            let playing = *phase == Phase::Playing;
            if playing {
                *phase = Phase::Kill;
            }
            playing
        });
    }
}

/// A player's place in the lobby, given up when the session ends however
/// it ends (a panic included), so no one waits for a ghost.
struct Membership {
    shared: Arc<Shared>,
    id: PlayerId,
}

impl Drop for Membership {
    fn drop(&mut self) {
        self.shared.lobby.leave(self.id);
    }
}

struct Session {
    shared: Arc<Shared>,
    id: PlayerId,
    name: String,
    lobby_screen: LobbyScreen,
    /// The lobby as last drawn: keys choose among the games on screen.
    shown: Snapshot,
    game: Option<GameScreen>,
    color: bool,
    /// This session's engine work.
    jobs: Jobs,
    /// Keys it may still send.
    keys: Bucket,
    /// Keys dropped since the bucket ran dry; nonzero while throttled.
    dropped: u64,
    /// Bytes of input it may still send before it waits.
    input: Bucket,
    /// Window sizes it may still send before they wait.
    resizes: Resizes,
}

impl Session {
    async fn play(
        &mut self,
        screen: &mut Screen,
        outbox: &Outbox,
        pumping: &mut tokio::task::JoinHandle<Pumped>,
        mut input: mpsc::Receiver<Input>,
        mut notices: mpsc::UnboundedReceiver<Notice>,
        mut replies: mpsc::UnboundedReceiver<Reply>,
    ) -> SessionEnd {
        let mut lobby_changes = self.shared.lobby.subscribe();
        let mut shutdown = self.shared.shutdown.clone();
        let mut decoder = KeyDecoder::default();
        let mut last_key = tokio::time::Instant::now();
        // When the lobby screen is next redrawn for changes elsewhere.
        let mut lobby_refresh = None;
        // Something changed that the client has not seen yet.
        let mut dirty = true;
        loop {
            if *shutdown.borrow_and_update() {
                return SessionEnd::Shutdown;
            }
            self.settle();
            // One frame on its way at a time: the next shows the latest state.
            if dirty && !outbox.busy() {
                if self.draw(screen).is_err() {
                    return SessionEnd::TooSlow;
                }
                dirty = false;
            }
            let wake = self
                .game
                .as_ref()
                .and_then(|g| g.app.wake_at())
                .map(tokio::time::Instant::from_std);
            let throttle_ends =
                (self.dropped > 0).then(|| tokio::time::Instant::from_std(self.keys.full_at()));
            // In a game between people only a move counts, and only on the
            // player's turn: pressing other keys holds nobody hostage.
            let idle = self.shared.idle_timeout;
            let clock = self.shared.lobby.idle_clock(self.id);
            let idle_at = match clock {
                IdleClock::Keys => Some(last_key + idle),
                IdleClock::TurnSince(since) => Some(tokio::time::Instant::from_std(since) + idle),
                IdleClock::Waiting => None,
            };
            let reading_resumes = self
                .input
                .owing_until(Instant::now())
                .map(tokio::time::Instant::from_std);
            let resize_at = self.resizes.due_at().map(tokio::time::Instant::from_std);
            let mut redraw = true;
            tokio::select! {
                _ = shutdown.changed() => return SessionEnd::Shutdown,
                pumped = &mut *pumping => return match pumped {
                    Ok(Pumped::Stalled) => SessionEnd::TooSlow,
                    Ok(Pumped::Behind) => SessionEnd::Behind,
                    _ => SessionEnd::Gone,
                },
                () = outbox.idle(), if dirty && outbox.busy() => {}
                received = input.recv(), if reading_resumes.is_none() => match received {
                    None => return SessionEnd::Gone,
                    Some(Input::Resize(cols, rows)) => {
                        match self.resizes.offer((cols, rows), Instant::now()) {
                            Some((cols, rows)) => screen.resize(cols, rows),
                            None => redraw = false,
                        }
                    }
                    Some(Input::Bytes(bytes)) => {
                        let now = Instant::now();
                        self.input.spend(bytes.len(), now);
                        let mut events = Vec::new();
                        decoder.feed(&bytes, |event| events.push(event));
                        // Keys dropped change nothing on screen: no frame for them.
                        redraw = false;
                        for event in events.iter().filter(|e| counts(e)) {
                            if !self.keys.take(now) {
                                redraw |= self.throttle(now);
                                continue;
                            }
                            redraw = true;
                            last_key = tokio::time::Instant::now();
                            if self.on_event(event, screen.area()) {
                                return SessionEnd::Quit;
                            }
                        }
                    }
                },
                Some(notice) = notices.recv() => {
                    if self.on_notice(notice) {
                        return SessionEnd::Replaced;
                    }
                }
                Some(reply) = replies.recv() => {
                    if let Some(screen) = &mut self.game {
                        screen.app.receive(reply, Instant::now());
                    }
                }
                Ok(()) = lobby_changes.changed(), if self.game.is_none() && lobby_refresh.is_none() => {
                    lobby_refresh = Some(tokio::time::Instant::now() + LOBBY_REFRESH);
                    redraw = false;
                }
                () = sleep_until(lobby_refresh) => lobby_refresh = None,
                () = sleep_until(wake) => {}
                () = sleep_until(reading_resumes) => redraw = false,
                () = sleep_until(resize_at) => {
                    match self.resizes.take_due(Instant::now()) {
                        Some((cols, rows)) => screen.resize(cols, rows),
                        None => redraw = false,
                    }
                }
                () = sleep_until(throttle_ends) => {
                    if self.keys.is_full(Instant::now()) {
                        self.end_throttle();
                    }
                    redraw = false;
                }
                () = sleep_until(idle_at) => return match clock {
                    IdleClock::TurnSince(_) => SessionEnd::Stalled,
                    _ => SessionEnd::Idle,
                },
            }
            dirty |= redraw;
        }
    }

    /// A key dropped for coming too fast: the first of a run is told on
    /// screen (true then: the screen changed).
    fn throttle(&mut self, now: Instant) -> bool {
        let first = self.dropped == 0;
        if first {
            let message = format!("Keys came faster than {KEY_RATE} a second: some were dropped");
            match &mut self.game {
                Some(screen) => screen.app.notify(&message, now),
                None => self.lobby_screen.say(message),
            }
        }
        self.dropped += 1;
        first
    }

    /// The keys have slowed down: the run of dropped keys goes to the log.
    fn end_throttle(&mut self) {
        if self.dropped > 0 {
            log(format_args!(
                "keys from {}: {} dropped (over {KEY_BURST} at once or {KEY_RATE} a second)",
                self.name,
                std::mem::take(&mut self.dropped)
            ));
        }
    }

    /// After anything happened: time passes in the game, its requests go to
    /// the engine, its moves to the other player and its state to the
    /// lobby; a game left returns to the lobby screen.
    fn settle(&mut self) {
        let Some(screen) = &mut self.game else { return };
        let lobby = &self.shared.lobby;
        let now = Instant::now();
        screen.app.tick(now);
        while let Some(request) = screen.app.take_request() {
            self.jobs.submit(request);
        }
        for message in screen.app.take_outgoing() {
            let round = screen.app.round();
            if lobby::relay(lobby, self.id, screen.game, round, message).is_err() {
                screen.app.move_refused(now);
            }
        }
        if !screen.app.is_watching() && !screen.app.is_versus() {
            let (round, moves) = (screen.app.round(), screen.app.game().moves());
            let reported = screen.reported.as_ref().map(|(r, m)| (*r, m.as_slice()));
            if reported != Some((round, moves)) {
                lobby.report(screen.game, round, moves);
                screen.reported = Some((round, moves.to_vec()));
            }
        }
        if screen.app.should_quit() {
            self.game = None;
            lobby.back_to_lobby(self.id);
        }
    }

    fn draw(&mut self, screen: &mut Screen) -> std::io::Result<()> {
        match &self.game {
            Some(game) => screen
                .draw(|area, buffer| ratatui::widgets::Widget::render(&game.app, area, buffer)),
            None => {
                self.shown = self.shared.lobby.snapshot();
                let (lobby_screen, lobby) = (&self.lobby_screen, &self.shown);
                screen.draw(|area, buffer| lobby_screen.render(lobby, area, buffer))
            }
        }
    }

    /// Acts on one key or click on a screen of `area`; true when the player quits.
    fn on_event(&mut self, event: &Event, area: Rect) -> bool {
        let now = Instant::now();
        if let Some(screen) = &mut self.game {
            if let Some(action) = input::action_for(event, &screen.app, area) {
                screen.app.update(action, now);
            }
            // Quitting the game (q) is settled after the batch: back to the lobby.
            return false;
        }
        let lobby = &self.shared.lobby;
        let waiting = lobby.activity(self.id) == Some(Activity::Waiting);
        match self.lobby_screen.key(
            event,
            waiting,
            self.shown.seeks.len() + self.shown.games.len(),
        ) {
            Command::None => {}
            Command::Quit => return true,
            Command::StopWaiting => lobby.stop_waiting(self.id),
            // A game that begins is told as a notice, to both players alike.
            Command::Seek(offer) => {
                lobby.seek(self.id, offer);
            }
            Command::PlayAi(side, level) => {
                let game = lobby.start_ai_game(self.id, side, level);
                let seats = match side {
                    Player::X => Seats {
                        x: Seat::Human,
                        o: Seat::Ai(level),
                    },
                    Player::O => Seats {
                        x: Seat::Ai(level),
                        o: Seat::Human,
                    },
                };
                let app = App::new(ai_settings(seats), now)
                    .in_lobby()
                    .with_color(self.color);
                self.game = Some(GameScreen {
                    app,
                    game,
                    reported: None,
                });
            }
            Command::Choose(index) => {
                let seeks = self.shown.seeks.len();
                if let Some(seek) = self.shown.seeks.get(index) {
                    if lobby.accept(self.id, seek.by).is_none() {
                        self.lobby_screen
                            .say("That seek is gone, yours, or rated (rated games need a key)");
                    }
                    return false;
                }
                let watched = self
                    .shown
                    .games
                    .get(index - seeks)
                    .and_then(|g| lobby.watch(self.id, g.id).map(|seen| (g.id, seen)));
                match watched {
                    Some((game, view)) => {
                        let mut app = App::new(people_settings(start(&view)), now)
                            .watching(view.names.clone(), now)
                            .with_color(self.color);
                        app.follow(view.names.clone(), &view.moves, now);
                        app.serve(served(&view), now);
                        if let Some(over) = &view.over {
                            app.end_link(over);
                        }
                        self.game = Some(GameScreen {
                            app,
                            game,
                            reported: None,
                        });
                    }
                    None => self.lobby_screen.say("That game is yours or over"),
                }
            }
        }
        false
    }

    /// Seated at a game between people: a new one, or one taken back.
    fn start_versus(&mut self, game: GameId, me: Player, view: View, now: Instant) {
        let mut app = App::new(people_settings(start(&view)), now)
            .versus(me, view.names.clone(), now)
            .with_color(self.color);
        app.sync(&view.moves, now);
        app.serve(served(&view), now);
        self.game = Some(GameScreen {
            app,
            game,
            reported: None,
        });
    }

    /// Acts on news from the others; true when this session must end (its
    /// key logged in again elsewhere).
    fn on_notice(&mut self, notice: Notice) -> bool {
        let now = Instant::now();
        match (notice, &mut self.game) {
            (Notice::Replaced, _) => return true,
            (Notice::Seated { game, me, view }, None) => self.start_versus(game, me, view, now),
            // Seated while starting something else at the same moment.
            (Notice::Seated { game, .. }, Some(_)) => self.shared.lobby.abandon(self.id, game),
            // A view of another game, or of another round, is stale (or
            // comes before its rematch is heard).
            (Notice::Table(game, _), Some(screen)) if game != screen.game => {}
            (Notice::Table(_, view), Some(screen))
                if screen.app.is_versus() && view.round == screen.app.round() =>
            {
                screen.app.sync(&view.moves, now);
                screen.app.serve(served(&view), now);
                if let Some(over) = &view.over {
                    screen.app.end_link(over);
                }
            }
            (Notice::Table(_, view), Some(screen)) if screen.app.is_watching() => {
                screen.app.follow(view.names.clone(), &view.moves, now);
                screen.app.serve(served(&view), now);
                if let Some(over) = &view.over {
                    screen.app.end_link(over);
                }
            }
            (Notice::Rematch, Some(screen)) => screen.app.remote_rematch(now),
            (Notice::OpponentLeft(name), Some(screen)) if screen.app.is_versus() => {
                screen.app.end_link(&format!("{name} left"));
            }
            (Notice::WatchedGone(name), Some(screen)) if screen.app.is_watching() => {
                screen.app.end_link(&format!("{name} left"));
            }
            (Notice::OpponentLeft(name), None) => self.lobby_screen.say(format!("{name} left")),
            (Notice::Stopped(why), Some(screen))
                if screen.app.is_versus() || screen.app.is_watching() =>
            {
                screen.app.end_link(&why);
            }
            (Notice::Stopped(why), None) => self.lobby_screen.say(why),
            (Notice::Said(text), Some(screen)) => screen.app.notify(&text, now),
            (Notice::Said(text), None) => self.lobby_screen.say(text),
            _ => {}
        }
        false
    }
}

/// The board a game begins from: its offer's, or the classic one against the AI.
fn start(view: &View) -> Board {
    view.offer.map_or_else(Board::new, |offer| offer.board())
}

/// What the screen shows of a game beyond its moves.
fn served(view: &View) -> Served {
    let caption = view.offer.map(|offer: Offer| {
        let mut caption = if offer.rated { "rated" } else { "casual" }.to_string();
        if let Some(control) = offer.control {
            caption.push_str(&format!(" · {control}"));
        }
        caption
    });
    Served {
        caption,
        ratings: view.ratings.map(|(x, o)| [x.to_string(), o.to_string()]),
        clock: view.clock,
        away: view.away,
        claim: view.claim_at,
    }
}

/// A game between people on `start`: nobody's moves come from the engine.
fn people_settings(start: Board) -> Settings {
    Settings {
        start,
        ..ai_settings(Seats {
            x: Seat::Human,
            o: Seat::Human,
        })
    }
}

/// A game against the AI on the classic board.
pub(super) fn ai_settings(seats: Seats) -> Settings {
    Settings {
        seats,
        start: Board::new(),
        ai_delay: DEFAULT_AI_DELAY,
        watch_delay: DEFAULT_WATCH_DELAY,
        limits: Limits::Think(DEFAULT_THINK),
        seed: None,
        scoring: Default::default(),
    }
}

/// Whether an event is taken as a key: key presses and clicks count (and
/// are rate limited); mouse motion and the rest are dropped unread.
fn counts(event: &Event) -> bool {
    match event {
        Event::Key(key) => key.is_press(),
        Event::Mouse(mouse) => matches!(mouse.kind, MouseEventKind::Down(_)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_too_far_behind_is_said_to_leave_its_output_unread() {
        // It may read at full speed: "too slow to read its screen" was wrong.
        let why = SessionEnd::Behind.reason(Duration::from_secs(30));
        assert_eq!(
            why,
            "its output unread (512 KiB waiting; it asked for more than it read)"
        );
        let why = SessionEnd::TooSlow.reason(Duration::from_secs(30));
        assert_eq!(why, "too slow to read its screen (nothing read for 30s)");
    }
}

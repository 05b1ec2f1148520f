//! Who is connected, the open seeks, and the games in progress: the state
//! the sessions share. Sessions change it through short calls under one
//! lock and hear of what concerns them through [`Notice`]s; every change
//! also wakes the lobby screens to redraw.
//!
//! A game between people is the lobby's, not its players' screens': a move
//! a screen asks for is checked here, written to the database ([`Store`])
//! and only then sent to both screens and the watchers, as the whole game
//! ([`View`]). Its clocks run here; [`Lobby::referee`] ends a game whose
//! clock ran out or whose absent player did not come back in time. A
//! player whose connection drops keeps their seat for the grace and finds
//! the game as it was when they log in again with the same key.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use tokio::sync::{mpsc, watch};

use super::log;
use super::store::{
    Account, Ending, Finish, Kind, NewGame, Outcome, Rating, Store, StoredGame, StoredMove,
};
use tictactoe_engine::{Board, Level, Player, Square, Status};
use tictactoe_game::clock::{Clock, TimeControl};
use tictactoe_game::game::{Names, Outgoing, result_line};

/// A connected player.
pub(super) type PlayerId = u64;
/// A game in progress.
pub(super) type GameId = u64;

/// A side's place in a table's seats: X first.
fn seat(side: Player) -> usize {
    match side {
        Player::X => 0,
        Player::O => 1,
    }
}

/// The longest player name, in characters.
pub(super) const MAX_NAME: usize = 16;

/// Players listed per board kind on the leaderboards.
pub(super) const LEADERS: u32 = 10;

/// What a game between people is played as: the board, rated or not, the clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct Offer {
    pub kind: Kind,
    pub rated: bool,
    pub control: Option<TimeControl>,
}

impl Offer {
    /// The classic board, unrated, no clock: the lobby's first choice.
    #[cfg(test)]
    pub fn casual() -> Offer {
        Offer {
            kind: Kind { size: 3, k: 3 },
            rated: false,
            control: None,
        }
    }

    /// The empty board of the offer's kind.
    pub fn board(&self) -> Board {
        Board::empty(self.kind.size, self.kind.k).unwrap_or_default()
    }
}

/// `4x4 k=3 · rated · 3+2`.
impl fmt::Display for Offer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rated = if self.rated { "rated" } else { "casual" };
        write!(f, "{} · {rated}", self.kind)?;
        if let Some(control) = self.control {
            write!(f, " · {control}")?;
        }
        Ok(())
    }
}

/// A game between people as its players and watchers see it.
#[derive(Debug, Clone)]
pub(super) struct View {
    /// Rematches counted from 0: a screen drops what belongs to another round.
    pub round: u32,
    pub names: Names,
    /// The game's board, rating and clock; `None` against the AI.
    pub offer: Option<Offer>,
    pub moves: Vec<Square>,
    pub clock: Option<Clock>,
    /// The side away, and when it loses unless it comes back.
    pub away: Option<(Player, Instant)>,
    /// How the game ended when its board does not say (time, a
    /// resignation, a forfeit, an abort), in words for everyone.
    pub over: Option<String>,
    /// X's and O's ratings, in a rated game.
    pub ratings: Option<(Rating, Rating)>,
}

/// What a session hears from the others.
#[derive(Debug, Clone)]
pub(super) enum Notice {
    /// Seated at a game between people, as `me`: a new one, or the one
    /// this player's key sat at before.
    Seated {
        game: GameId,
        me: Player,
        view: View,
    },
    /// The game played or watched, as it is now.
    Table(View),
    /// The opponent asks for a rematch.
    Rematch,
    /// The opponent (a guest: no seat is kept for a guest) left the game.
    OpponentLeft(String),
    /// The watched game is over for good: this player left it.
    WatchedGone(String),
    /// The same key logged in again: this connection is done.
    Replaced,
}

/// What a player is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Activity {
    /// On the lobby screen.
    Idle,
    /// Waiting for an opponent (their seek is listed).
    Waiting,
    /// In a game.
    Playing(GameId),
    /// Watching a game.
    Watching(GameId),
}

struct Member {
    name: String,
    account: Option<Account>,
    activity: Activity,
    notices: mpsc::UnboundedSender<Notice>,
}

/// One side of a game between people.
#[derive(Debug, Clone)]
struct Seat {
    name: String,
    /// The session playing it, while connected.
    member: Option<PlayerId>,
    /// The key's player; `None` for a guest (no key), whose seat is not kept.
    account: Option<Account>,
    /// Gone: loses unless back by then.
    away_until: Option<Instant>,
}

/// What a game between people has beyond its moves.
struct Table {
    offer: Offer,
    /// X's seat then O's, this round.
    seats: [Seat; 2],
    /// The game's row in the database; `None` when a guest plays (nothing is kept).
    row: Option<i64>,
    clock: Option<Clock>,
    /// The end, when the board does not say it.
    over: Option<String>,
    /// Who asked for a rematch, X then O.
    rematch: [bool; 2],
    ratings: Option<(Rating, Rating)>,
}

struct Game {
    names: Names,
    /// The person playing the AI; `None` in a game between people.
    alone: Option<PlayerId>,
    table: Option<Table>,
    round: u32,
    start: Board,
    moves: Vec<Square>,
    watchers: BTreeSet<PlayerId>,
}

impl Game {
    fn board(&self) -> Board {
        self.moves
            .iter()
            .try_fold(self.start, |board, &mv| board.play(mv))
            .unwrap_or(self.start)
    }

    fn status(&self) -> Status {
        self.board().status()
    }

    fn is_over(&self) -> bool {
        self.status().is_over() || self.table.as_ref().is_some_and(|t| t.over.is_some())
    }

    fn title(&self) -> String {
        format!("{} (X) vs {} (O)", self.names.x, self.names.o)
    }

    /// The sessions playing it now.
    fn people(&self) -> Vec<PlayerId> {
        match &self.table {
            Some(table) => table.seats.iter().filter_map(|s| s.member).collect(),
            None => self.alone.into_iter().collect(),
        }
    }

    /// The side `id` plays, in a game between people.
    fn side_of(&self, id: PlayerId) -> Option<Player> {
        let table = self.table.as_ref()?;
        let index = table.seats.iter().position(|s| s.member == Some(id))?;
        Some(if index == 0 { Player::X } else { Player::O })
    }

    fn view(&self) -> View {
        let table = self.table.as_ref();
        let away = table.and_then(|table| {
            [Player::X, Player::O]
                .into_iter()
                .zip(&table.seats)
                .filter_map(|(side, seat)| seat.away_until.map(|until| (side, until)))
                .min_by_key(|(_, until)| *until)
        });
        View {
            round: self.round,
            names: self.names.clone(),
            offer: table.map(|t| t.offer),
            moves: self.moves.clone(),
            clock: table.and_then(|t| t.clock),
            away,
            over: table.and_then(|t| t.over.clone()),
            ratings: table.and_then(|t| t.ratings),
        }
    }

    /// Both sides have moved twice: an end now counts (and is rated if the game is).
    fn under_way(&self) -> bool {
        self.moves.len() >= 4
    }
}

/// One game as the lobby screen lists it.
#[derive(Debug, Clone)]
pub(super) struct GameSummary {
    pub id: GameId,
    pub names: Names,
    pub moves: usize,
    pub status: Status,
    /// The offer, for a game between people.
    pub offer: Option<Offer>,
    /// A player is away.
    pub away: bool,
}

/// One open seek as the lobby screen lists it.
#[derive(Debug, Clone)]
pub(super) struct SeekSummary {
    pub by: PlayerId,
    pub name: String,
    pub offer: Offer,
}

/// One player as the lobby screen lists it.
#[derive(Debug, Clone)]
pub(super) struct PlayerSummary {
    pub id: PlayerId,
    pub name: String,
    pub activity: Activity,
}

/// The lobby as a screen shows it.
#[derive(Debug, Clone, Default)]
pub(super) struct Snapshot {
    pub players: Vec<PlayerSummary>,
    pub seeks: Vec<SeekSummary>,
    pub games: Vec<GameSummary>,
    /// The best of each board kind with rated games.
    pub leaders: BTreeMap<Kind, Vec<(String, Rating)>>,
}

/// What joining the lobby gave a session.
pub(super) struct Joined {
    pub id: PlayerId,
    pub name: String,
}

/// Why a move was not taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Refused {
    /// Not this player's turn, or the game is over, or gone.
    NotNow,
    /// The database could not write it: the game has stopped.
    NotSaved,
}

struct Inner {
    next_id: u64,
    members: BTreeMap<PlayerId, Member>,
    /// Open seeks, oldest first: who seeks and what.
    seeks: VecDeque<(PlayerId, Offer)>,
    games: BTreeMap<GameId, Game>,
    store: Store,
    leaders: BTreeMap<Kind, Vec<(String, Rating)>>,
}

impl Inner {
    fn new_id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    fn send(&self, to: PlayerId, notice: Notice) {
        if let Some(member) = self.members.get(&to) {
            let _ = member.notices.send(notice);
        }
    }

    /// The game as it is now, to its players and watchers.
    fn broadcast(&self, game: GameId) {
        let Some(record) = self.games.get(&game) else {
            return;
        };
        let view = record.view();
        for to in record
            .people()
            .into_iter()
            .chain(record.watchers.iter().copied())
        {
            self.send(to, Notice::Table(view.clone()));
        }
    }

    /// A game ends because `leaver` left it: its other player and its
    /// watchers are told and back in the lobby.
    fn end_game(&mut self, game: GameId, leaver: PlayerId, name: &str) {
        let Some(record) = self.games.remove(&game) else {
            return;
        };
        if record.table.is_some() {
            log(format_args!("game left {}: {name} left", record.title()));
        }
        for person in record.people().into_iter().filter(|&p| p != leaver) {
            if let Some(other) = self.members.get_mut(&person) {
                other.activity = Activity::Idle;
                let _ = other.notices.send(Notice::OpponentLeft(name.to_string()));
            }
        }
        for watcher in &record.watchers {
            if let Some(other) = self.members.get_mut(watcher) {
                other.activity = Activity::Idle;
                let _ = other.notices.send(Notice::WatchedGone(name.to_string()));
            }
        }
    }

    /// Ends a game between people the board has not decided: `loser` lost
    /// (or, with `None`, nobody won); an end before each side has moved
    /// twice is an abort, unrated. Written before anyone is told.
    fn decide(&mut self, game: GameId, loser: Option<Player>, ending: Ending, why: String) {
        let Some(record) = self.games.get_mut(&game) else {
            return;
        };
        let (board_over, under_way) = (record.status().is_over(), record.under_way());
        let Some(table) = record.table.as_mut() else {
            return;
        };
        if table.over.is_some() || board_over {
            return;
        }
        let (outcome, ending, why) = if !under_way {
            (
                Outcome::Aborted,
                Ending::Aborted,
                format!("{why}: aborted, unrated"),
            )
        } else {
            let outcome = match loser {
                Some(Player::X) => Outcome::OWins,
                Some(Player::O) => Outcome::XWins,
                None => Outcome::Draw,
            };
            (outcome, ending, why)
        };
        if let Some(clock) = table.clock.as_mut() {
            clock.stop(Instant::now());
        }
        table.over = Some(why.clone());
        let row = table.row;
        let finish = Finish { outcome, ending };
        log(format_args!("game end {}: {why}", record.title()));
        if let Some(row) = row {
            match self.store.finish(row, finish) {
                Ok(ratings) => self.rated(game, ratings),
                Err(error) => log(format_args!(
                    "database: could not save the end of game {row}: {error}"
                )),
            }
        }
        self.broadcast(game);
    }

    /// New ratings after a game: on its table and the leaderboard.
    fn rated(&mut self, game: GameId, ratings: Option<(Rating, Rating)>) {
        let Some((x, o)) = ratings else { return };
        let Some(table) = self.games.get_mut(&game).and_then(|g| g.table.as_mut()) else {
            return;
        };
        table.ratings = Some((x, o));
        let kind = table.offer.kind;
        match self.store.leaderboard(kind, LEADERS) {
            Ok(leaders) => {
                self.leaders.insert(kind, leaders);
            }
            Err(error) => log(format_args!(
                "database: could not read the leaderboard: {error}"
            )),
        }
    }

    /// Starts a game between the player who seeks (X) and the one who takes the seek (O).
    fn pair(&mut self, seeker: PlayerId, taker: PlayerId, offer: Offer) -> Option<GameId> {
        let seat = |inner: &Inner, id: PlayerId| {
            inner.members.get(&id).map(|m| Seat {
                name: m.name.clone(),
                member: Some(id),
                account: m.account.clone(),
                away_until: None,
            })
        };
        let (x, o) = (seat(self, seeker)?, seat(self, taker)?);
        let mut offer = offer;
        // Only two keys play rated, and only two keys' games are kept.
        let both_keyed = x.account.is_some() && o.account.is_some();
        offer.rated &= both_keyed;
        let row = match (&x.account, &o.account) {
            (Some(ax), Some(ao)) => {
                let new = NewGame {
                    kind: offer.kind,
                    rated: offer.rated,
                    control: offer.control,
                    x: ax.id,
                    o: ao.id,
                };
                match self.store.start_game(new) {
                    Ok(row) => Some(row),
                    Err(error) => {
                        log(format_args!("database: could not start a game: {error}"));
                        return None;
                    }
                }
            }
            _ => None,
        };
        let ratings = match (&x.account, &o.account) {
            (Some(ax), Some(ao)) if offer.rated => self
                .store
                .rating(ax.id, offer.kind)
                .and_then(|rx| Ok((rx, self.store.rating(ao.id, offer.kind)?)))
                .ok(),
            _ => None,
        };
        let game = self.new_id();
        let names = Names {
            x: x.name.clone(),
            o: o.name.clone(),
        };
        let mut clock = offer.control.map(Clock::new);
        if let Some(clock) = clock.as_mut() {
            clock.start(Player::X, Instant::now());
        }
        let record = Game {
            names,
            alone: None,
            table: Some(Table {
                offer,
                seats: [x, o],
                row,
                clock,
                over: None,
                rematch: [false; 2],
                ratings,
            }),
            round: 0,
            start: offer.board(),
            moves: Vec::new(),
            watchers: BTreeSet::new(),
        };
        log(format_args!("pair {} ({offer})", record.title()));
        let view = record.view();
        self.games.insert(game, record);
        self.seeks.retain(|(id, _)| *id != seeker && *id != taker);
        for (id, me) in [(seeker, Player::X), (taker, Player::O)] {
            if let Some(member) = self.members.get_mut(&id) {
                member.activity = Activity::Playing(game);
                let _ = member.notices.send(Notice::Seated {
                    game,
                    me,
                    view: view.clone(),
                });
            }
        }
        Some(game)
    }

    /// The player's seat at a game whose seat their key holds, if any.
    fn seat_of(&self, account: &Account) -> Option<(GameId, usize)> {
        self.games.iter().find_map(|(&id, game)| {
            let table = game.table.as_ref()?;
            let index = table
                .seats
                .iter()
                .position(|s| s.account.as_ref().is_some_and(|a| a.id == account.id))?;
            (!game.is_over()).then_some((id, index))
        })
    }
}

/// The shared lobby.
pub(super) struct Lobby {
    inner: Mutex<Inner>,
    changed: watch::Sender<()>,
    /// Wakes the referee: a clock or an absence has a new deadline.
    deadlines: watch::Sender<()>,
    /// How long a dropped player's seat is kept.
    grace: Duration,
}

impl Lobby {
    /// The lobby over `store`, with the games it holds unfinished back in
    /// play: both seats away, each with a fresh grace.
    pub(super) fn new(store: Store, grace: Duration) -> Lobby {
        let mut inner = Inner {
            next_id: 0,
            members: BTreeMap::new(),
            seeks: VecDeque::new(),
            games: BTreeMap::new(),
            store,
            leaders: BTreeMap::new(),
        };
        let kinds = inner.store.rated_kinds().unwrap_or_default();
        for kind in kinds {
            if let Ok(leaders) = inner.store.leaderboard(kind, LEADERS) {
                inner.leaders.insert(kind, leaders);
            }
        }
        let now = Instant::now();
        match inner.store.unfinished() {
            Ok(games) => {
                for stored in games {
                    if let Some(game) = restored(&inner.store, stored, now + grace) {
                        let id = inner.new_id();
                        log(format_args!("game restored {}", game.title()));
                        inner.games.insert(id, game);
                    }
                }
            }
            Err(error) => log(format_args!(
                "database: could not read the games in progress: {error}"
            )),
        }
        Lobby {
            inner: Mutex::new(inner),
            changed: watch::Sender::new(()),
            deadlines: watch::Sender::new(()),
            grace,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn touch(&self) {
        self.changed.send_replace(());
    }

    /// Wakes on every change, for the lobby screens.
    pub(super) fn subscribe(&self) -> watch::Receiver<()> {
        self.changed.subscribe()
    }

    /// Runs a read of the database under the lobby's lock.
    pub(super) fn with_store<T>(&self, read: impl FnOnce(&mut Store) -> T) -> T {
        read(&mut self.lock().store)
    }

    /// A new player under `wanted`, made unique among the guests
    /// ("alice", "alice2", ...) within [`MAX_NAME`] characters; a key's
    /// player has its own name. The same key connected already: the older
    /// session is told to go. A seat the key holds is taken back: the
    /// session hears [`Notice::Seated`] at once.
    pub(super) fn join(
        &self,
        wanted: &str,
        account: Option<Account>,
        notices: mpsc::UnboundedSender<Notice>,
    ) -> Joined {
        let mut guard = self.lock();
        let inner = &mut *guard;
        let name = match &account {
            Some(account) => account.name.clone(),
            None => {
                let taken = |name: &str| {
                    inner.members.values().any(|m| m.name == name)
                        || inner.store.owner(name).ok().flatten().is_some()
                };
                let mut name = wanted.to_string();
                let mut n = 2;
                while taken(&name) {
                    let suffix = n.to_string();
                    let stem: String = wanted.chars().take(MAX_NAME - suffix.len()).collect();
                    name = format!("{stem}{suffix}");
                    n += 1;
                }
                name
            }
        };
        let id = inner.new_id();
        // The same key in an older session: it goes, and gives up what it did.
        if let Some(account) = &account {
            let older: Vec<PlayerId> = inner
                .members
                .iter()
                .filter(|(_, m)| m.account.as_ref().is_some_and(|a| a.id == account.id))
                .map(|(&id, _)| id)
                .collect();
            for old in older {
                if let Some(member) = inner.members.get_mut(&old) {
                    let activity = std::mem::replace(&mut member.activity, Activity::Idle);
                    let _ = member.notices.send(Notice::Replaced);
                    inner.seeks.retain(|(by, _)| *by != old);
                    if let Activity::Watching(game) = activity
                        && let Some(record) = inner.games.get_mut(&game)
                    {
                        record.watchers.remove(&old);
                    }
                }
            }
        }
        inner.members.insert(
            id,
            Member {
                name: name.clone(),
                account: account.clone(),
                activity: Activity::Idle,
                notices: notices.clone(),
            },
        );
        if let Some((game, index)) = account.as_ref().and_then(|a| inner.seat_of(a)) {
            let record = inner.games.get_mut(&game).expect("the seat's game");
            let table = record.table.as_mut().expect("a table");
            let seat = &mut table.seats[index];
            seat.member = Some(id);
            seat.away_until = None;
            let me = if index == 0 { Player::X } else { Player::O };
            log(format_args!("back {name} in {}", record.title()));
            if let Some(member) = inner.members.get_mut(&id) {
                member.activity = Activity::Playing(game);
            }
            let view = inner.games[&game].view();
            let _ = notices.send(Notice::Seated { game, me, view });
            inner.broadcast(game);
            drop(guard);
            self.deadlines.send_replace(());
        } else {
            drop(guard);
        }
        self.touch();
        Joined { id, name }
    }

    /// The player is gone: out of any seek or audience; a game between
    /// people keeps a key's seat for the grace, a guest's ends.
    pub(super) fn leave(&self, id: PlayerId) {
        let mut guard = self.lock();
        let inner = &mut *guard;
        let Some(member) = inner.members.get(&id) else {
            return;
        };
        let name = member.name.clone();
        if let Activity::Playing(game) = member.activity {
            let until = Instant::now() + self.grace;
            let held = inner.games.get_mut(&game).is_some_and(|record| {
                let over = record.is_over();
                let seat = record
                    .table
                    .as_mut()
                    .and_then(|t| t.seats.iter_mut().find(|s| s.member == Some(id)));
                match seat {
                    Some(seat) if seat.account.is_some() && !over => {
                        seat.member = None;
                        seat.away_until = Some(until);
                        true
                    }
                    _ => false,
                }
            });
            if held {
                log(format_args!(
                    "away {name} from {}: {} to come back",
                    inner.games[&game].title(),
                    humantime::format_duration(self.grace)
                ));
                inner.broadcast(game);
            } else {
                inner.end_game(game, id, &name);
            }
            if let Some(member) = inner.members.get_mut(&id) {
                member.activity = Activity::Idle;
            }
        }
        drop(guard);
        self.back_to_lobby(id);
        self.lock().members.remove(&id);
        self.deadlines.send_replace(());
        self.touch();
    }

    /// Seeks a game as `offer` says: paired with the oldest seek of the same
    /// offer (whose player plays X), or the player's own seek is listed.
    /// Returns the game if one began. A guest cannot seek a rated game.
    pub(super) fn seek(&self, id: PlayerId, offer: Offer) -> Option<GameId> {
        let mut guard = self.lock();
        let inner = &mut *guard;
        let keyed = inner.members.get(&id)?.account.is_some();
        let mut offer = offer;
        offer.rated &= keyed;
        let matching = inner
            .seeks
            .iter()
            .find(|(by, wanted)| *by != id && *wanted == offer)
            .map(|(by, _)| *by);
        let game = match matching {
            Some(seeker) => inner.pair(seeker, id, offer),
            None => {
                inner.seeks.retain(|(by, _)| *by != id);
                inner.seeks.push_back((id, offer));
                if let Some(me) = inner.members.get_mut(&id) {
                    me.activity = Activity::Waiting;
                }
                None
            }
        };
        drop(guard);
        self.deadlines.send_replace(());
        self.touch();
        game
    }

    /// Takes the seek of `seeker`: a game as it offers. `None` when it is
    /// gone, is this player's own, or is rated and this player a guest.
    pub(super) fn accept(&self, id: PlayerId, seeker: PlayerId) -> Option<GameId> {
        let mut guard = self.lock();
        let inner = &mut *guard;
        let keyed = inner.members.get(&id)?.account.is_some();
        let offer = inner
            .seeks
            .iter()
            .find(|(by, offer)| *by == seeker && seeker != id && (keyed || !offer.rated))
            .map(|(_, offer)| *offer)?;
        inner.seeks.retain(|(by, _)| *by != id);
        let game = inner.pair(seeker, id, offer);
        drop(guard);
        self.deadlines.send_replace(());
        self.touch();
        game
    }

    /// What the player is doing, while connected.
    pub(super) fn activity(&self, id: PlayerId) -> Option<Activity> {
        self.lock().members.get(&id).map(|m| m.activity)
    }

    /// Back from waiting to the lobby screen.
    pub(super) fn stop_waiting(&self, id: PlayerId) {
        let mut inner = self.lock();
        inner.seeks.retain(|(by, _)| *by != id);
        // Paired at this very moment: the game goes on.
        if let Some(member) = inner
            .members
            .get_mut(&id)
            .filter(|m| m.activity == Activity::Waiting)
        {
            member.activity = Activity::Idle;
        }
        drop(inner);
        self.touch();
    }

    /// A game of the player's against the AI, for the list and for watchers.
    pub(super) fn start_ai_game(&self, id: PlayerId, side: Player, level: Level) -> GameId {
        let mut inner = self.lock();
        inner.seeks.retain(|(by, _)| *by != id);
        let game = inner.new_id();
        let name = inner
            .members
            .get(&id)
            .map(|m| m.name.clone())
            .unwrap_or_default();
        let ai = format!("AI ({level})");
        let names = match side {
            Player::X => Names { x: name, o: ai },
            Player::O => Names { x: ai, o: name },
        };
        if let Some(member) = inner.members.get_mut(&id) {
            member.activity = Activity::Playing(game);
        }
        inner.games.insert(
            game,
            Game {
                names,
                alone: Some(id),
                table: None,
                round: 0,
                start: Board::new(),
                moves: Vec::new(),
                watchers: BTreeSet::new(),
            },
        );
        drop(inner);
        self.touch();
        game
    }

    /// A game against the AI as its player's screen has it now (a game
    /// between people is the lobby's own, and is not reported).
    pub(super) fn report(&self, game: GameId, round: u32, moves: &[Square]) {
        let mut guard = self.lock();
        let inner = &mut *guard;
        let Some(record) = inner.games.get_mut(&game).filter(|g| g.table.is_none()) else {
            return;
        };
        if round == record.round && moves == record.moves {
            return;
        }
        let was_over = record.status().is_over();
        record.round = round;
        record.moves = moves.to_vec();
        if !was_over && let Some(result) = result_line(record.status(), None) {
            log(format_args!("game end {}: {result}", record.title()));
        }
        inner.broadcast(game);
        drop(guard);
        self.touch();
    }

    /// A move asked for by `from` in the round `round` of `game`: checked,
    /// written, then sent to everyone at the game (the mover included).
    pub(super) fn play(
        &self,
        from: PlayerId,
        game: GameId,
        round: u32,
        mv: Square,
    ) -> Result<(), Refused> {
        let now = Instant::now();
        let mut guard = self.lock();
        let inner = &mut *guard;
        let record = inner.games.get_mut(&game).ok_or(Refused::NotNow)?;
        let side = record.side_of(from).ok_or(Refused::NotNow)?;
        let board = record.board();
        let table = record.table.as_mut().ok_or(Refused::NotNow)?;
        if record.round != round || table.over.is_some() || board.to_move() != side {
            return Err(Refused::NotNow);
        }
        let after = board.play(mv).map_err(|_| Refused::NotNow)?;
        let mut clock = table.clock;
        if let Some(clock) = clock.as_mut()
            && !clock.moved(side, now)
        {
            // The flag fell before the referee saw it.
            drop(guard);
            self.enforce(now);
            return Err(Refused::NotNow);
        }
        let status = after.status();
        let finish = status.is_over().then_some(Finish {
            outcome: match status {
                Status::Won(Player::X) => Outcome::XWins,
                Status::Won(Player::O) => Outcome::OWins,
                _ => Outcome::Draw,
            },
            ending: Ending::Board,
        });
        if let Some(clock) = clock.as_mut()
            && finish.is_some()
        {
            clock.stop(now);
        }
        let ply = record.moves.len();
        let row = table.row;
        let stored = StoredMove {
            square: mv.to_string(),
            clock: clock.map(|c| c.left(side, now)),
        };
        let written = match row {
            Some(row) => inner.store.play(row, ply, &stored, finish).map(Some),
            None => Ok(None),
        };
        let record = inner.games.get_mut(&game).expect("the game");
        let table = record.table.as_mut().expect("a table");
        match written {
            Ok(ratings) => {
                record.moves.push(mv);
                table.clock = clock;
                if finish.is_some()
                    && let Some(result) = result_line(status, None)
                {
                    log(format_args!("game end {}: {result}", record.title()));
                }
                inner.rated(game, ratings.flatten());
                inner.broadcast(game);
                drop(guard);
                self.deadlines.send_replace(());
                self.touch();
                Ok(())
            }
            Err(error) => {
                log(format_args!(
                    "database: could not save a move of game {row:?}: {error}"
                ));
                table.over =
                    Some("the server could not save the last move: the game stops".to_string());
                if let Some(clock) = table.clock.as_mut() {
                    clock.stop(now);
                }
                inner.broadcast(game);
                drop(guard);
                self.touch();
                Err(Refused::NotSaved)
            }
        }
    }

    /// Hands a player's rematch request to the other player of the game;
    /// once both asked, the next round begins with the sides swapped.
    pub(super) fn rematch(&self, from: PlayerId, game: GameId) {
        let mut guard = self.lock();
        let inner = &mut *guard;
        let Some(record) = inner.games.get_mut(&game) else {
            return;
        };
        let Some(side) = record.side_of(from) else {
            return;
        };
        let over = record.is_over();
        let Some(table) = record.table.as_mut() else {
            return;
        };
        if !over {
            return;
        }
        table.rematch[seat(side)] = true;
        let other = table.seats[seat(side.other())].member;
        let both = table.rematch == [true, true];
        if both {
            table.seats.swap(0, 1);
            table.rematch = [false; 2];
            table.over = None;
            let mut clock = table.offer.control.map(Clock::new);
            if let Some(clock) = clock.as_mut() {
                clock.start(Player::X, Instant::now());
            }
            table.clock = clock;
            std::mem::swap(&mut record.names.x, &mut record.names.o);
            record.round += 1;
            record.moves.clear();
            table.row = None;
            table.ratings = None;
            if let (Some(x), Some(o)) = (&table.seats[0].account, &table.seats[1].account) {
                let new = NewGame {
                    kind: table.offer.kind,
                    rated: table.offer.rated,
                    control: table.offer.control,
                    x: x.id,
                    o: o.id,
                };
                match inner.store.start_game(new) {
                    Ok(row) => table.row = Some(row),
                    Err(error) => log(format_args!("database: could not start a game: {error}")),
                }
                if table.offer.rated {
                    let (kind, x, o) = (table.offer.kind, x.id, o.id);
                    table.ratings = inner
                        .store
                        .rating(x, kind)
                        .and_then(|rx| Ok((rx, inner.store.rating(o, kind)?)))
                        .ok();
                }
            }
            log(format_args!("rematch {}", record.title()));
        }
        if let Some(other) = other {
            inner.send(other, Notice::Rematch);
        }
        if both {
            inner.broadcast(game);
        }
        drop(guard);
        self.deadlines.send_replace(());
        self.touch();
    }

    /// Starts watching a game: who plays and its moves so far.
    pub(super) fn watch(&self, id: PlayerId, game: GameId) -> Option<View> {
        let mut guard = self.lock();
        let inner = &mut *guard;
        let record = inner.games.get_mut(&game)?;
        if record.people().contains(&id) {
            return None;
        }
        record.watchers.insert(id);
        let seen = record.view();
        inner.seeks.retain(|(by, _)| *by != id);
        if let Some(member) = inner.members.get_mut(&id) {
            member.activity = Activity::Watching(game);
        }
        drop(guard);
        self.touch();
        Some(seen)
    }

    /// The player leaves whatever they were doing for the lobby screen: a
    /// game between people still going is resigned (aborted before each
    /// side moved twice), a finished one or one against the AI ends (its
    /// other player and watchers are told), a game watched goes on.
    pub(super) fn back_to_lobby(&self, id: PlayerId) {
        let mut guard = self.lock();
        let inner = &mut *guard;
        let Some(member) = inner.members.get_mut(&id) else {
            return;
        };
        let activity = std::mem::replace(&mut member.activity, Activity::Idle);
        let name = member.name.clone();
        match activity {
            Activity::Idle => return,
            Activity::Waiting => inner.seeks.retain(|(by, _)| *by != id),
            Activity::Watching(game) => {
                if let Some(record) = inner.games.get_mut(&game) {
                    record.watchers.remove(&id);
                }
            }
            Activity::Playing(game) => {
                let side = inner.games.get(&game).and_then(|g| g.side_of(id));
                let going = inner.games.get(&game).is_some_and(|g| !g.is_over());
                match side {
                    Some(side) if going => {
                        inner.decide(
                            game,
                            Some(side),
                            Ending::Resigned,
                            format!("{name} resigned"),
                        );
                        // The game is over: its seat is free, the others read the end.
                        if let Some(table) =
                            inner.games.get_mut(&game).and_then(|g| g.table.as_mut())
                            && let Some(seat) =
                                table.seats.iter_mut().find(|s| s.member == Some(id))
                        {
                            seat.member = None;
                        }
                    }
                    _ => inner.end_game(game, id, &name),
                }
            }
        }
        drop(guard);
        self.deadlines.send_replace(());
        self.touch();
    }

    /// A game the player was paired into but cannot play (they started
    /// another at the same moment): it ends as if they had left it.
    pub(super) fn abandon(&self, id: PlayerId, game: GameId) {
        let mut guard = self.lock();
        let inner = &mut *guard;
        let Some(name) = inner.members.get(&id).map(|m| m.name.clone()) else {
            return;
        };
        let side = inner.games.get(&game).and_then(|g| g.side_of(id));
        inner.decide(
            game,
            side,
            Ending::Aborted,
            format!("{name} could not play"),
        );
        inner.end_game(game, id, &name);
        drop(guard);
        self.touch();
    }

    /// Everyone, every seek and every game, for the lobby screen.
    pub(super) fn snapshot(&self) -> Snapshot {
        let inner = self.lock();
        Snapshot {
            players: inner
                .members
                .iter()
                .map(|(&id, m)| PlayerSummary {
                    id,
                    name: m.name.clone(),
                    activity: m.activity,
                })
                .collect(),
            seeks: inner
                .seeks
                .iter()
                .filter_map(|&(by, offer)| {
                    let name = inner.members.get(&by)?.name.clone();
                    Some(SeekSummary { by, name, offer })
                })
                .collect(),
            games: inner
                .games
                .iter()
                .map(|(&id, g)| GameSummary {
                    id,
                    names: g.names.clone(),
                    moves: g.moves.len(),
                    status: g.status(),
                    offer: g.table.as_ref().map(|t| t.offer),
                    away: g
                        .table
                        .as_ref()
                        .is_some_and(|t| t.seats.iter().any(|s| s.away_until.is_some())),
                })
                .collect(),
            leaders: inner.leaders.clone(),
        }
    }

    /// The next moment a clock runs out or an absent player's grace ends.
    fn next_deadline(&self) -> Option<Instant> {
        let inner = self.lock();
        inner
            .games
            .values()
            .filter(|g| !g.is_over())
            .filter_map(|g| g.table.as_ref())
            .flat_map(|t| {
                let flag = t.clock.and_then(|c| c.flag_at()).map(|(_, at)| at);
                let away = t.seats.iter().filter_map(|s| s.away_until);
                flag.into_iter().chain(away)
            })
            .min()
    }

    /// Ends the games whose deadlines have passed at `now`: a flag fallen
    /// (a loss, or a draw when the other side has no line left to make), a
    /// grace run out (a forfeit; with both players away, an abort).
    fn enforce(&self, now: Instant) {
        let mut guard = self.lock();
        let inner = &mut *guard;
        let mut decisions = Vec::new();
        for (&id, game) in &inner.games {
            let Some(table) = game.table.as_ref().filter(|_| !game.is_over()) else {
                continue;
            };
            if let Some((side, at)) = table.clock.and_then(|c| c.flag_at())
                && at <= now
            {
                let name = game.names.of(side).to_string();
                let (loser, why) = if game.board().can_still_win(side.other()) {
                    (Some(side), format!("{name} ran out of time"))
                } else {
                    (
                        None,
                        format!(
                            "{name} ran out of time, but {} had no line left to make: a draw",
                            game.names.of(side.other())
                        ),
                    )
                };
                decisions.push((id, loser, Ending::Time, why));
                continue;
            }
            let gone: Vec<Player> = [Player::X, Player::O]
                .into_iter()
                .filter(|side| {
                    table.seats[seat(*side)]
                        .away_until
                        .is_some_and(|until| until <= now)
                })
                .collect();
            if let Some(&side) = gone.first() {
                let other_away = table.seats[seat(side.other())].away_until.is_some();
                let name = game.names.of(side).to_string();
                if other_away {
                    let why = "neither player came back".to_string();
                    decisions.push((id, None, Ending::Aborted, why));
                } else {
                    decisions.push((
                        id,
                        Some(side),
                        Ending::Forfeit,
                        format!("{name} did not come back"),
                    ));
                }
            }
        }
        let changed = !decisions.is_empty();
        for (game, loser, ending, why) in decisions {
            if ending == Ending::Aborted {
                // Neither is here: no result for anyone, whatever the moves.
                if let Some(record) = inner.games.get_mut(&game) {
                    let row = record.table.as_ref().and_then(|t| t.row);
                    if let Some(table) = record.table.as_mut() {
                        table.over = Some(format!("{why}: aborted, unrated"));
                    }
                    log(format_args!("game end {}: {why}", record.title()));
                    if let Some(row) = row {
                        let finish = Finish {
                            outcome: Outcome::Aborted,
                            ending,
                        };
                        if let Err(error) = inner.store.finish(row, finish) {
                            log(format_args!(
                                "database: could not save the end of game {row}: {error}"
                            ));
                        }
                    }
                }
            } else {
                inner.decide(game, loser, ending, why);
            }
            // A game nobody sits at any more leaves the list.
            if inner
                .games
                .get(&game)
                .is_some_and(|g| g.people().is_empty() && g.watchers.is_empty())
            {
                inner.games.remove(&game);
            }
        }
        drop(guard);
        if changed {
            self.touch();
        }
    }

    /// Ends games on time and on absence as their deadlines pass, until shutdown.
    pub(super) async fn referee(&self, mut shutdown: watch::Receiver<bool>) {
        let mut deadlines = self.deadlines.subscribe();
        loop {
            deadlines.borrow_and_update();
            let next = self.next_deadline().map(tokio::time::Instant::from_std);
            tokio::select! {
                _ = shutdown.wait_for(|down| *down) => return,
                _ = deadlines.changed() => {}
                () = super::sleep_until(next) => self.enforce(Instant::now()),
            }
        }
    }
}

/// A game the database holds unfinished, back in the lobby: both seats
/// away until `until`, the clock of the side to move running from now.
fn restored(store: &Store, stored: StoredGame, until: Instant) -> Option<Game> {
    let StoredGame {
        id: row,
        kind,
        rated,
        control,
        x,
        o,
        moves: stored_moves,
        ..
    } = stored;
    let offer = Offer {
        kind,
        rated,
        control,
    };
    let start = Board::empty(kind.size, kind.k).ok()?;
    let geometry = start.geometry();
    let mut moves = Vec::new();
    let mut board = start;
    let mut left = [control.map(|c| c.base); 2];
    for (ply, stored) in stored_moves.iter().enumerate() {
        let mv = geometry.parse_square(&stored.square).ok()?;
        board = board.play(mv).ok()?;
        moves.push(mv);
        left[ply % 2] = stored.clock.or(left[ply % 2]);
    }
    let clock = control.map(|control| {
        let mut clock = Clock::restored(
            control,
            left[0].unwrap_or(control.base),
            left[1].unwrap_or(control.base),
        );
        clock.start(board.to_move(), Instant::now());
        clock
    });
    let ratings = if rated {
        store
            .rating(x.id, kind)
            .and_then(|rx| Ok((rx, store.rating(o.id, kind)?)))
            .ok()
    } else {
        None
    };
    let names = Names {
        x: x.name.clone(),
        o: o.name.clone(),
    };
    let away = |account: Account| Seat {
        name: account.name.clone(),
        member: None,
        account: Some(account),
        away_until: Some(until),
    };
    Some(Game {
        names,
        alone: None,
        table: Some(Table {
            offer,
            seats: [away(x), away(o)],
            row: Some(row),
            clock,
            over: None,
            rematch: [false; 2],
            ratings,
        }),
        round: 0,
        start,
        moves,
        watchers: BTreeSet::new(),
    })
}

/// What a screen that leaves a game between people sends the lobby.
pub(super) fn relay(
    lobby: &Lobby,
    from: PlayerId,
    game: GameId,
    round: u32,
    message: Outgoing,
) -> Result<(), Refused> {
    match message {
        Outgoing::Square(mv) => lobby.play(from, game, round, mv),
        Outgoing::Rematch => {
            lobby.rematch(from, game);
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lobby(dir: &tempfile::TempDir, grace: Duration) -> Lobby {
        let store = Store::open(&dir.path().join("lobby.db")).expect("a database");
        Lobby::new(store, grace)
    }

    /// A player with a key of their own.
    fn keyed(lobby: &Lobby, name: &str) -> (PlayerId, mpsc::UnboundedReceiver<Notice>) {
        let account = lobby
            .with_store(|store| store.sign_in(&format!("SHA256:{name}"), name))
            .expect("signed in")
            .expect("a free name");
        let (notices, received) = mpsc::unbounded_channel();
        (lobby.join(name, Some(account), notices).id, received)
    }

    fn rated(control: Option<&str>) -> Offer {
        Offer {
            kind: Kind { size: 4, k: 3 },
            rated: true,
            control: control.map(|c| c.parse().expect("a time control")),
        }
    }

    fn seated(received: &mut mpsc::UnboundedReceiver<Notice>) -> (GameId, Player) {
        loop {
            match received.try_recv() {
                Ok(Notice::Seated { game, me, .. }) => return (game, me),
                Ok(_) => {}
                Err(error) => panic!("no seat: {error:?}"),
            }
        }
    }

    fn last_view(received: &mut mpsc::UnboundedReceiver<Notice>) -> Option<View> {
        let mut last = None;
        while let Ok(notice) = received.try_recv() {
            if let Notice::Table(view) = notice {
                last = Some(view);
            }
        }
        last
    }

    #[test]
    fn seeks_pair_only_with_the_same_offer_and_guests_seek_casual_games() {
        let dir = tempfile::tempdir().expect("a folder");
        let lobby = lobby(&dir, Duration::from_secs(60));
        let (alice, mut alice_rx) = keyed(&lobby, "alice");
        let (bob, _) = keyed(&lobby, "bob");
        let (guest_tx, _guest_rx) = mpsc::unbounded_channel();
        let guest = lobby.join("guest", None, guest_tx).id;
        assert_eq!(lobby.seek(alice, rated(None)), None);
        assert_eq!(
            lobby.seek(bob, rated(Some("3+2"))),
            None,
            "another clock: both wait"
        );
        // A guest's rated seek is a casual one: it takes no rated seek.
        assert_eq!(lobby.seek(guest, rated(None)), None);
        let seeks = lobby.snapshot().seeks;
        assert_eq!(seeks.len(), 3);
        assert!(
            !seeks
                .iter()
                .find(|s| s.by == guest)
                .expect("listed")
                .offer
                .rated
        );
        assert_eq!(
            lobby.accept(guest, alice),
            None,
            "a guest cannot take a rated seek"
        );
        // bob takes alice's seek as it is: she plays X.
        let game = lobby.accept(bob, alice).expect("a game");
        assert_eq!(seated(&mut alice_rx), (game, Player::X));
        assert!(lobby.snapshot().seeks.iter().all(|s| s.by == guest));
    }

    #[test]
    fn a_dropped_seat_is_kept_then_forfeited_and_the_ratings_move() {
        let dir = tempfile::tempdir().expect("a folder");
        let grace = Duration::from_secs(60);
        let lobby = lobby(&dir, grace);
        let (alice, mut alice_rx) = keyed(&lobby, "alice");
        let (bob, _) = keyed(&lobby, "bob");
        lobby.seek(alice, rated(None));
        let game = lobby.seek(bob, rated(None)).expect("paired");
        for (who, at) in [(alice, "a1"), (bob, "a2"), (alice, "b1"), (bob, "b2")] {
            let mv = Board::empty(4, 3)
                .expect("4x4")
                .geometry()
                .parse_square(at)
                .expect("a square");
            assert_eq!(lobby.play(who, game, 0, mv), Ok(()));
        }
        // Out of turn, or a square taken: refused.
        assert_eq!(
            lobby.play(bob, game, 0, Square::new(3, 3)),
            Err(Refused::NotNow)
        );
        lobby.leave(bob);
        let view = last_view(&mut alice_rx).expect("told");
        assert_eq!(view.away.map(|(side, _)| side), Some(Player::O));
        // Back before the grace ends: the seat again, the game as it was.
        let (bob, mut bob_rx) = keyed(&lobby, "bob");
        assert_eq!(seated(&mut bob_rx), (game, Player::O));
        lobby.leave(bob);
        lobby.enforce(Instant::now() + grace + Duration::from_secs(1));
        let view = last_view(&mut alice_rx).expect("told");
        assert_eq!(view.over.as_deref(), Some("bob did not come back"));
        let (x, o) = view.ratings.expect("rated");
        assert!(x.glicko.rating > 1500.0 && o.glicko.rating < 1500.0);
        assert_eq!(lobby.with_store(|s| s.unfinished()).expect("read").len(), 0);
    }

    #[test]
    fn a_fallen_flag_is_a_draw_when_the_other_side_has_no_line_left_to_make() {
        let dir = tempfile::tempdir().expect("a folder");
        let lobby = lobby(&dir, Duration::from_secs(60));
        let (alice, mut alice_rx) = keyed(&lobby, "alice");
        let (bob, _) = keyed(&lobby, "bob");
        let classic = || Offer {
            kind: Kind { size: 3, k: 3 },
            ..rated(Some("1+0"))
        };
        lobby.seek(alice, classic());
        let game = lobby.seek(bob, classic()).expect("paired");
        // X a1 b1 c2 a3, O c1 a2 b2 b3: every line holds an X, nobody has
        // won, c3 is free and X is to move.
        let moves = [0, 2, 1, 3, 5, 4, 6, 7];
        for (mv, who) in moves.into_iter().zip([alice, bob].into_iter().cycle()) {
            assert_eq!(lobby.play(who, game, 0, Square::from_index(mv, 3)), Ok(()));
        }
        // X's minute runs out, but O could never make a line: a draw.
        lobby.enforce(Instant::now() + Duration::from_secs(61));
        let view = last_view(&mut alice_rx).expect("told");
        assert!(view.over.is_some(), "the game is over");
        let stored = lobby.with_store(|s| s.history(1, 1)).expect("read");
        assert_eq!(
            stored[0].finish,
            Some(Finish {
                outcome: Outcome::Draw,
                ending: Ending::Time
            })
        );
        assert_eq!(stored[0].moves.len(), moves.len());
    }

    #[test]
    fn a_fallen_flag_loses_on_time_while_the_other_side_can_still_make_a_line() {
        let dir = tempfile::tempdir().expect("a folder");
        let lobby = lobby(&dir, Duration::from_secs(60));
        let (alice, mut alice_rx) = keyed(&lobby, "alice");
        let (bob, _) = keyed(&lobby, "bob");
        lobby.seek(alice, rated(Some("1+0")));
        let game = lobby.seek(bob, rated(Some("1+0"))).expect("paired");
        for (who, mv) in [(alice, 0), (bob, 1), (alice, 4), (bob, 5)] {
            let square = Square::from_index(mv, 4);
            assert_eq!(lobby.play(who, game, 0, square), Ok(()));
        }
        // X's minute runs out: O still has open lines, so O wins on time.
        lobby.enforce(Instant::now() + Duration::from_secs(61));
        let view = last_view(&mut alice_rx).expect("told");
        assert_eq!(view.over.as_deref(), Some("alice ran out of time"));
        let stored = lobby.with_store(|s| s.history(1, 1)).expect("read");
        assert_eq!(
            stored[0].finish,
            Some(Finish {
                outcome: Outcome::OWins,
                ending: Ending::Time
            })
        );
    }
}

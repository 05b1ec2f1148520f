//! Who is connected, the open seeks, and the games in the list: the state
//! the sessions share, and the routing between them. Sessions change it
//! through short calls under one lock and hear of what concerns them
//! through [`Notice`]s; every change also wakes the lobby screens.
//!
//! A game between people is the lobby's, not its players' screens': its
//! rules are a [`Match`](tictactoe_game::versus::Match) ([`Table`]), and a
//! move a screen asks for is checked there. What is to be kept goes to the
//! store's thread ([`Store`]), never waited for under the lock; a game's
//! screens are shown each change once everything before it is written, so
//! nobody sees a move the database does not hold. [`Lobby::referee`] ends
//! the games whose clock ran out or whose absent player did not come back.

use std::collections::{BTreeMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Instant;

use tokio::sync::{mpsc, watch};

pub(super) use super::lobby_screen::{GameSummary, PlayerSummary, SeekSummary, Snapshot};
use super::log;
use super::names::{MAX_NAME, name_key};
use super::store::{Account, Kind, Lane, NewGame, Rating, Store};
use super::table::{AiGame, Listed, Play, Sitter, Table, Write, restored};
pub(super) use super::table::{GameId, LEADERS, Offer, PlayerId, View};
use tictactoe_engine::{Level, Player, Square};
use tictactoe_game::game::{Names, result_line};
use tictactoe_game::versus::{Cause, Rules, TableSeat};

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
    Table(GameId, View),
    /// The opponent asks for a rematch.
    Rematch,
    /// The opponent (a guest: no seat is kept for a guest) left the game.
    OpponentLeft(String),
    /// The watched game is over for good: this player left it.
    WatchedGone(String),
    /// The game cannot go on, and why (the server could not keep it).
    Stopped(String),
    /// Something every player here should read.
    Said(String),
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

/// What joining the lobby gave a session.
pub(super) struct Joined {
    pub id: PlayerId,
    pub name: String,
}

/// A move not taken: not this player's turn, the game over or gone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct NotNow;

struct Inner {
    next_id: u64,
    members: BTreeMap<PlayerId, Member>,
    /// Open seeks, oldest first: who seeks and what.
    seeks: VecDeque<(PlayerId, Offer)>,
    games: BTreeMap<GameId, Listed>,
    leaders: BTreeMap<Kind, Vec<(String, Rating)>>,
    /// The last game's number in the database.
    last_row: i64,
    /// Games are kept (and may be rated): false once the database file is gone.
    keeping: bool,
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

    fn table_mut(&mut self, game: GameId) -> Option<&mut Table> {
        self.games.get_mut(&game).and_then(Listed::table_mut)
    }

    /// Each of `ids` is back on the lobby screen.
    fn idle(&mut self, ids: &[PlayerId]) {
        for id in ids {
            if let Some(member) = self.members.get_mut(id) {
                member.activity = Activity::Idle;
            }
        }
    }

    /// A game ends because `leaver` left it: its other player and its
    /// watchers are told and back in the lobby.
    fn end_game(&mut self, game: GameId, leaver: PlayerId, name: &str) {
        let Some(listed) = self.games.remove(&game) else {
            return;
        };
        if listed.table().is_some() {
            log(format_args!("game left {}: {name} left", listed.title()));
        }
        let others: Vec<PlayerId> = listed
            .people()
            .into_iter()
            .filter(|&p| p != leaver)
            .collect();
        let watchers: Vec<PlayerId> = listed.watchers.iter().copied().collect();
        self.idle(&others);
        self.idle(&watchers);
        for person in others {
            self.send(person, Notice::OpponentLeft(name.to_string()));
        }
        for watcher in watchers {
            self.send(watcher, Notice::WatchedGone(name.to_string()));
        }
    }

    /// A game over that nobody sits at any more leaves the list (its
    /// watchers keep the last of it on their screens).
    fn clear_if_deserted(&mut self, game: GameId) {
        let deserted = self
            .games
            .get(&game)
            .is_some_and(|g| g.is_over() && g.people().is_empty());
        if deserted {
            self.games.remove(&game);
        }
    }

    /// The game the key's player has a seat at, and the side, if any.
    fn seat_of(&self, account: &Account) -> Option<(GameId, Player)> {
        self.games.iter().find_map(|(&id, listed)| {
            let table = listed.table().filter(|t| !t.game.is_over())?;
            let side = table
                .game
                .side_where(|s| s.account.as_ref().is_some_and(|a| a.id == account.id))?;
            Some((id, side))
        })
    }

    fn sitter(&self, id: PlayerId) -> Option<TableSeat<Sitter>> {
        let member = self.members.get(&id)?;
        let sitter = Sitter {
            member: Some(id),
            account: member.account.clone(),
        };
        Some(TableSeat::new(member.name.clone(), sitter))
    }
}

/// What the lobby shares with the store's thread, which shows each game's
/// changes once written.
struct Core {
    inner: Mutex<Inner>,
    changed: watch::Sender<()>,
    /// Wakes the referee: a clock or an absence has a new deadline.
    deadlines: watch::Sender<()>,
    store: Store,
    /// How a game between people is played beyond its offer.
    rules: Rules,
}

/// The shared lobby.
#[derive(Clone)]
pub(super) struct Lobby(Arc<Core>);

impl Lobby {
    /// The lobby over `store`, with the games it holds unfinished back in
    /// play: both seats away, each with a fresh grace.
    pub(super) fn new(store: Store, rules: Rules) -> Lobby {
        let now = Instant::now();
        let loaded = store.ask_now(move |db| {
            let mut leaders = BTreeMap::new();
            for kind in db.rated_kinds().unwrap_or_default() {
                if let Ok(best) = db.leaderboard(kind, LEADERS) {
                    leaders.insert(kind, best);
                }
            }
            let mut games = Vec::new();
            match db.unfinished() {
                Ok(unfinished) => {
                    for stored in unfinished {
                        let (kind, x, o) = (stored.kind, stored.x.id, stored.o.id);
                        let ratings = stored
                            .rated
                            .then(|| Some((db.rating(x, kind).ok()?, db.rating(o, kind).ok()?)))
                            .flatten();
                        games.extend(restored(stored, ratings, rules, now));
                    }
                }
                Err(error) => log(format_args!(
                    "database: could not read the games in progress: {error}"
                )),
            }
            (leaders, games, db.last_game().unwrap_or(0))
        });
        let (leaders, tables, last_row) = loaded.unwrap_or_default();
        let mut inner = Inner {
            next_id: 0,
            members: BTreeMap::new(),
            seeks: VecDeque::new(),
            games: BTreeMap::new(),
            leaders,
            last_row,
            keeping: true,
        };
        for table in tables {
            let id = inner.new_id();
            let listed = Listed {
                play: Play::People(Box::new(table)),
                watchers: Default::default(),
            };
            log(format_args!("game restored {}", listed.title()));
            inner.games.insert(id, listed);
        }
        let lobby = Lobby(Arc::new(Core {
            inner: Mutex::new(inner),
            changed: watch::Sender::new(()),
            deadlines: watch::Sender::new(()),
            store,
            rules,
        }));
        let weak = Arc::downgrade(&lobby.0);
        lobby.store().when_lost(move |lost| {
            if let Some(core) = weak.upgrade() {
                Lobby(core).lost(&lost);
            }
        });
        lobby
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.0.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn touch(&self) {
        self.0.changed.send_replace(());
    }

    fn wake_referee(&self) {
        self.0.deadlines.send_replace(());
    }

    /// Wakes on every change, for the lobby screens.
    pub(super) fn subscribe(&self) -> watch::Receiver<()> {
        self.0.changed.subscribe()
    }

    /// The store, for what is read without the lobby.
    pub(super) fn store(&self) -> &Store {
        &self.0.store
    }

    /// A new player under `name` (a guest's made free by
    /// [`Lobby::guest_name`]). The same key connected already: the older
    /// session is told to go. A seat the key holds is taken back: the
    /// session hears [`Notice::Seated`].
    pub(super) fn join(
        &self,
        name: &str,
        account: Option<Account>,
        notices: mpsc::UnboundedSender<Notice>,
    ) -> Joined {
        let mut guard = self.lock();
        let inner = &mut *guard;
        let name = match &account {
            Some(account) => account.name.clone(),
            None => name.to_string(),
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
                        && let Some(listed) = inner.games.get_mut(&game)
                    {
                        listed.watchers.remove(&old);
                    }
                }
            }
        }
        let member = Member {
            name: name.clone(),
            account: account.clone(),
            activity: Activity::Idle,
            notices,
        };
        inner.members.insert(id, member);
        if let Some((game, side)) = account.as_ref().and_then(|a| inner.seat_of(a))
            && let Some(table) = inner.table_mut(game)
        {
            table.game.back(side);
            table.game.seat_mut(side).player.member = Some(id);
            log(format_args!(
                "back {name} in {} (X) vs {} (O)",
                table.names().x,
                table.names().o
            ));
            if let Some(member) = inner.members.get_mut(&id) {
                member.activity = Activity::Playing(game);
            }
            self.keep(inner, game, Write::Nothing, vec![(id, side)]);
            self.wake_referee();
        }
        drop(guard);
        self.touch();
        Joined { id, name }
    }

    /// `wanted`, or the first of "alice2", "alice3", ... (within
    /// [`MAX_NAME`] characters) that neither a player here nor a key
    /// holds, nor a name that looks like it.
    pub(super) async fn guest_name(&self, wanted: &str) -> String {
        let mut n = 1;
        loop {
            let name = if n == 1 {
                wanted.to_string()
            } else {
                let suffix = n.to_string();
                let stem: String = wanted.chars().take(MAX_NAME - suffix.len()).collect();
                format!("{stem}{suffix}")
            };
            n += 1;
            let key = name_key(&name);
            if self
                .lock()
                .members
                .values()
                .any(|m| name_key(&m.name) == key)
            {
                continue;
            }
            let asked = name.clone();
            let held = self
                .0
                .store
                .ask(Lane::Game, move |db| db.holder(&asked))
                .await;
            if !matches!(held, Some(Ok(Some(_)))) {
                return name;
            }
        }
    }

    /// The name of a guest here now that is `name` or looks like it.
    pub(super) fn guest_like(&self, name: &str) -> Option<String> {
        let key = name_key(name);
        self.lock()
            .members
            .values()
            .find(|m| m.account.is_none() && name_key(&m.name) == key)
            .map(|m| m.name.clone())
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
            let now = Instant::now();
            let held = inner.table_mut(game).is_some_and(|table| {
                let Some(side) = table.side_of(id) else {
                    return false;
                };
                let keyed = table.game.seat(side).player.account.is_some();
                if !keyed || !table.game.leave(side, now) {
                    return false;
                }
                table.game.seat_mut(side).player.member = None;
                true
            });
            if held {
                log(format_args!(
                    "away {name} from {}: {} to come back",
                    inner.games[&game].title(),
                    humantime::format_duration(self.0.rules.grace)
                ));
                self.keep(inner, game, Write::Nothing, Vec::new());
            } else {
                inner.end_game(game, id, &name);
            }
            inner.idle(&[id]);
        }
        drop(guard);
        self.back_to_lobby(id);
        self.lock().members.remove(&id);
        self.wake_referee();
        self.touch();
    }

    /// Starts a game between the player who seeks (X) and the one who
    /// takes the seek (O); both are seated once it is written.
    fn pair(
        &self,
        inner: &mut Inner,
        seeker: PlayerId,
        taker: PlayerId,
        offer: Offer,
    ) -> Option<GameId> {
        let (x, o) = (inner.sitter(seeker)?, inner.sitter(taker)?);
        let mut offer = offer;
        // Only two keys play rated, and only two keys' games are kept (while
        // the database is there).
        let (ax, ao) = match inner.keeping {
            true => (x.player.account.clone(), o.player.account.clone()),
            false => (None, None),
        };
        offer.rated &= ax.is_some() && ao.is_some();
        let row = match (&ax, &ao) {
            (Some(_), Some(_)) => {
                inner.last_row += 1;
                Some(inner.last_row)
            }
            _ => None,
        };
        let rules = Rules {
            control: offer.control,
            ..self.0.rules
        };
        let table = Table::new(offer, rules, [x, o], row, Instant::now());
        let game = inner.new_id();
        let listed = Listed {
            play: Play::People(Box::new(table)),
            watchers: Default::default(),
        };
        log(format_args!("pair {} ({offer})", listed.title()));
        inner.games.insert(game, listed);
        inner.seeks.retain(|(id, _)| *id != seeker && *id != taker);
        for id in [seeker, taker] {
            if let Some(member) = inner.members.get_mut(&id) {
                member.activity = Activity::Playing(game);
            }
        }
        let write = match (ax, ao) {
            (Some(x), Some(o)) => Write::Start(NewGame {
                kind: offer.kind,
                rated: offer.rated,
                control: offer.control,
                x: x.id,
                o: o.id,
            }),
            _ => Write::Nothing,
        };
        self.keep(
            inner,
            game,
            write,
            vec![(seeker, Player::X), (taker, Player::O)],
        );
        Some(game)
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
            Some(seeker) => self.pair(inner, seeker, id, offer),
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
        self.wake_referee();
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
        let game = self.pair(inner, seeker, id, offer);
        drop(guard);
        self.wake_referee();
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
        let play = Play::Ai(AiGame {
            names,
            player: id,
            round: 0,
            moves: Vec::new(),
        });
        let listed = Listed {
            play,
            watchers: Default::default(),
        };
        inner.games.insert(game, listed);
        drop(inner);
        self.touch();
        game
    }

    /// A game against the AI as its player's screen has it now (a game
    /// between people is the lobby's own, and is not reported).
    pub(super) fn report(&self, game: GameId, round: u32, moves: &[Square]) {
        let mut guard = self.lock();
        let inner = &mut *guard;
        let Some(listed) = inner.games.get_mut(&game) else {
            return;
        };
        let Play::Ai(ai) = &mut listed.play else {
            return;
        };
        if round == ai.round && moves == ai.moves {
            return;
        }
        let was_over = ai.board().status().is_over();
        ai.round = round;
        ai.moves = moves.to_vec();
        if !was_over && let Some(result) = result_line(ai.board().status(), None) {
            log(format_args!("game end {}: {result}", listed.title()));
        }
        let view = listed.view();
        for to in listed.audience() {
            inner.send(to, Notice::Table(game, view.clone()));
        }
        drop(guard);
        self.touch();
    }

    /// Starts watching a game: who plays and its moves so far.
    pub(super) fn watch(&self, id: PlayerId, game: GameId) -> Option<View> {
        let mut guard = self.lock();
        let inner = &mut *guard;
        let listed = inner.games.get_mut(&game)?;
        let people = listed.people();
        if people.is_empty() || people.contains(&id) {
            return None;
        }
        listed.watchers.insert(id);
        let seen = listed.shown();
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
    /// side moved twice), unless the other player left it first: then the
    /// seat is kept for the grace, as for a dropped connection. A finished
    /// game or one against the AI ends (its other player and watchers are
    /// told); a game watched goes on.
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
                if let Some(listed) = inner.games.get_mut(&game) {
                    listed.watchers.remove(&id);
                }
                inner.clear_if_deserted(game);
            }
            Activity::Playing(game) => {
                let now = Instant::now();
                let grace = self.0.rules.grace;
                let left = inner.table_mut(game).and_then(|table| {
                    let side = table.side_of(id)?;
                    let keyed = table.game.seat(side).player.account.is_some();
                    let other_away = table.game.seat(side.other()).away_until().is_some();
                    let left = if keyed && other_away && table.game.leave(side, now) {
                        // The other left first: this seat is kept, nothing resigned.
                        None
                    } else {
                        Some(table.game.resign(side, now)?)
                    };
                    // Its seat is free; the others read the end, or who is away.
                    table.game.seat_mut(side).player.member = None;
                    Some(left)
                });
                match left {
                    Some(Some(end)) => self.ended(inner, game, end, None),
                    Some(None) => {
                        log(format_args!(
                            "away {name} from {}: {} to come back",
                            inner.games[&game].title(),
                            humantime::format_duration(grace)
                        ));
                        self.keep(inner, game, Write::Nothing, Vec::new());
                    }
                    None => inner.end_game(game, id, &name),
                }
                inner.clear_if_deserted(game);
            }
        }
        drop(guard);
        self.wake_referee();
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
        let now = Instant::now();
        let ended = inner.table_mut(game).and_then(|table| {
            let side = table.side_of(id)?;
            table.game.finish(Cause::CouldNotPlay(side), now)
        });
        if let Some(end) = ended {
            self.ended(inner, game, end, None);
        }
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
            // A game both players left waits for them unlisted.
            games: inner
                .games
                .iter()
                .filter(|(_, g)| !g.people().is_empty())
                .map(|(&id, g)| GameSummary {
                    id,
                    names: g.names(),
                    moves: match &g.play {
                        Play::People(table) => table.game.moves().len(),
                        Play::Ai(ai) => ai.moves.len(),
                    },
                    status: g.status(),
                    offer: g.table().map(|t| t.offer),
                    away: g.table().is_some_and(|t| t.game.away().is_some()),
                })
                .collect(),
            leaders: inner.leaders.clone(),
        }
    }
}

mod games;
#[cfg(test)]
mod tests;

pub(super) use games::{IdleClock, relay};

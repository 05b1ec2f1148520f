//! Who is connected, who waits for an opponent, and the games in progress:
//! the one piece of state the sessions share. Sessions change it through
//! short calls under one lock and hear of what concerns them through
//! [`Notice`]s; every change also wakes the lobby screens to redraw.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::{Mutex, PoisonError};

use tokio::sync::{mpsc, watch};

use super::log;
use tictactoe_core::game::{Names, Outgoing, result_line};
use tictactoe_engine::{Board, Level, Player, Square, Status};

/// A connected player.
pub(super) type PlayerId = u64;
/// A game in progress.
pub(super) type GameId = u64;

/// The longest player name, in characters.
pub(super) const MAX_NAME: usize = 16;

/// What a session hears from the others.
#[derive(Debug, Clone)]
pub(super) enum Notice {
    /// Paired with the player who waited: a game between the two begins.
    Paired {
        game: GameId,
        me: Player,
        names: Names,
    },
    /// The opponent's move.
    Square(Square),
    /// The opponent asks for a rematch.
    Rematch,
    /// The opponent left the game.
    OpponentLeft(String),
    /// The watched game as it is now.
    Watched { names: Names, moves: Vec<Square> },
    /// The watched game is over for good: this player left it.
    WatchedGone(String),
}

/// What a player is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Activity {
    /// On the lobby screen.
    Idle,
    /// Waiting for an opponent.
    Waiting,
    /// In a game.
    Playing(GameId),
    /// Watching a game.
    Watching(GameId),
}

struct Member {
    name: String,
    activity: Activity,
    notices: mpsc::UnboundedSender<Notice>,
}

struct Game {
    names: Names,
    /// The people playing: one against the AI, two against each other.
    people: Vec<PlayerId>,
    round: u32,
    moves: Vec<Square>,
    watchers: BTreeSet<PlayerId>,
}

impl Game {
    fn status(&self) -> Status {
        self.moves
            .iter()
            .try_fold(Board::new(), |board, &mv| board.play(mv))
            .map_or(Status::Draw, |board| board.status())
    }

    fn title(&self) -> String {
        format!("{} (X) vs {} (O)", self.names.x, self.names.o)
    }
}

/// One game as the lobby screen lists it.
#[derive(Debug, Clone)]
pub(super) struct GameSummary {
    pub id: GameId,
    pub names: Names,
    pub moves: usize,
    pub status: Status,
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
    pub games: Vec<GameSummary>,
}

#[derive(Default)]
struct Inner {
    next_id: u64,
    members: BTreeMap<PlayerId, Member>,
    /// Waiting players, longest waiting first.
    waiting: VecDeque<PlayerId>,
    games: BTreeMap<GameId, Game>,
}

impl Inner {
    /// A game ends because `leaver` left it: its other player and its
    /// watchers are told and back in the lobby.
    fn end_game(&mut self, game: GameId, leaver: PlayerId, name: &str) {
        let Some(record) = self.games.remove(&game) else {
            return;
        };
        if record.people.len() > 1 {
            log(format_args!("game left {}: {name} left", record.title()));
        }
        for person in record.people.iter().filter(|&&p| p != leaver) {
            if let Some(other) = self.members.get_mut(person) {
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
}

/// The shared lobby.
pub(super) struct Lobby {
    inner: Mutex<Inner>,
    changed: watch::Sender<()>,
}

impl Default for Lobby {
    fn default() -> Lobby {
        Lobby {
            inner: Mutex::default(),
            changed: watch::Sender::new(()),
        }
    }
}

impl Lobby {
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

    /// A new player under `wanted`, made unique ("alice", "alice2", ...)
    /// within [`MAX_NAME`] characters.
    pub(super) fn join(
        &self,
        wanted: &str,
        notices: mpsc::UnboundedSender<Notice>,
    ) -> (PlayerId, String) {
        let mut inner = self.lock();
        let taken = |name: &str| inner.members.values().any(|m| m.name == name);
        let mut name = wanted.to_string();
        let mut n = 2;
        while taken(&name) {
            let suffix = n.to_string();
            let stem: String = wanted.chars().take(MAX_NAME - suffix.len()).collect();
            name = format!("{stem}{suffix}");
            n += 1;
        }
        inner.next_id += 1;
        let id = inner.next_id;
        inner.members.insert(
            id,
            Member {
                name: name.clone(),
                activity: Activity::Idle,
                notices,
            },
        );
        drop(inner);
        self.touch();
        (id, name)
    }

    /// The player is gone: out of any game, queue or audience, then off the list.
    pub(super) fn leave(&self, id: PlayerId) {
        self.back_to_lobby(id);
        self.lock().members.remove(&id);
        self.touch();
    }

    /// Pairs the player with the one waiting longest, who plays X; with
    /// nobody waiting, the player waits. Returns the game if one began.
    pub(super) fn find_opponent(&self, id: PlayerId) -> Option<(GameId, Player, Names)> {
        let mut guard = self.lock();
        let inner = &mut *guard;
        let my_name = inner.members.get(&id)?.name.clone();
        let result = match inner.waiting.pop_front() {
            None => {
                inner.waiting.push_back(id);
                if let Some(me) = inner.members.get_mut(&id) {
                    me.activity = Activity::Waiting;
                }
                None
            }
            Some(other) => {
                inner.next_id += 1;
                let game = inner.next_id;
                let their_name = inner.members.get(&other).map(|m| m.name.clone());
                let names = Names {
                    x: their_name.unwrap_or_default(),
                    o: my_name,
                };
                for (player, me) in [(other, Player::X), (id, Player::O)] {
                    if let Some(member) = inner.members.get_mut(&player) {
                        member.activity = Activity::Playing(game);
                        if player == other {
                            let _ = member.notices.send(Notice::Paired {
                                game,
                                me,
                                names: names.clone(),
                            });
                        }
                    }
                }
                let record = Game {
                    names: names.clone(),
                    people: vec![other, id],
                    round: 0,
                    moves: Vec::new(),
                    watchers: BTreeSet::new(),
                };
                log(format_args!("pair {}", record.title()));
                inner.games.insert(game, record);
                Some((game, Player::O, names))
            }
        };
        drop(guard);
        self.touch();
        result
    }

    /// What the player is doing, while connected.
    pub(super) fn activity(&self, id: PlayerId) -> Option<Activity> {
        self.lock().members.get(&id).map(|m| m.activity)
    }

    /// Back from waiting to the lobby screen.
    pub(super) fn stop_waiting(&self, id: PlayerId) {
        let mut inner = self.lock();
        inner.waiting.retain(|&w| w != id);
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
        inner.waiting.retain(|&w| w != id);
        inner.next_id += 1;
        let game = inner.next_id;
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
                people: vec![id],
                round: 0,
                moves: Vec::new(),
                watchers: BTreeSet::new(),
            },
        );
        drop(inner);
        self.touch();
        game
    }

    /// The game as one of its players' screens has it now. With two people
    /// both report, each after its own change, so only news is taken: a
    /// later round, or more moves of the same round (a game against the AI
    /// has one reporter, whose undo is news too).
    pub(super) fn report(&self, game: GameId, round: u32, names: Option<&Names>, moves: &[Square]) {
        let mut guard = self.lock();
        let inner = &mut *guard;
        let Some(record) = inner.games.get_mut(&game) else {
            return;
        };
        let news = if record.people.len() == 1 {
            round != record.round || moves != record.moves
        } else {
            (round, moves.len()) > (record.round, record.moves.len())
        };
        if !news {
            return;
        }
        let was_over = record.status().is_over();
        record.round = round;
        if let Some(names) = names {
            record.names = names.clone();
        }
        record.moves = moves.to_vec();
        if !was_over && let Some(result) = result_line(record.status(), None) {
            log(format_args!("game end {}: {result}", record.title()));
        }
        for watcher in &record.watchers {
            if let Some(member) = inner.members.get(watcher) {
                let _ = member.notices.send(Notice::Watched {
                    names: record.names.clone(),
                    moves: record.moves.clone(),
                });
            }
        }
        drop(guard);
        self.touch();
    }

    /// Hands a player's move or rematch request to the other player of the game.
    pub(super) fn relay(&self, from: PlayerId, game: GameId, message: Outgoing) {
        let inner = self.lock();
        let Some(record) = inner.games.get(&game) else {
            return;
        };
        for person in record.people.iter().filter(|&&p| p != from) {
            if let Some(member) = inner.members.get(person) {
                let _ = member.notices.send(match message {
                    Outgoing::Square(mv) => Notice::Square(mv),
                    Outgoing::Rematch => Notice::Rematch,
                });
            }
        }
    }

    /// Starts watching a game: who plays and its moves so far.
    pub(super) fn watch(&self, id: PlayerId, game: GameId) -> Option<(Names, Vec<Square>)> {
        let mut guard = self.lock();
        let inner = &mut *guard;
        let record = inner.games.get_mut(&game)?;
        if record.people.contains(&id) {
            return None;
        }
        record.watchers.insert(id);
        let seen = (record.names.clone(), record.moves.clone());
        inner.waiting.retain(|&w| w != id);
        if let Some(member) = inner.members.get_mut(&id) {
            member.activity = Activity::Watching(game);
        }
        drop(guard);
        self.touch();
        Some(seen)
    }

    /// The player leaves whatever they were doing for the lobby screen: a
    /// game they play ends (its other player and watchers are told), a game
    /// they watch goes on without them.
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
            Activity::Waiting => inner.waiting.retain(|&w| w != id),
            Activity::Watching(game) => {
                if let Some(record) = inner.games.get_mut(&game) {
                    record.watchers.remove(&id);
                }
            }
            Activity::Playing(game) => inner.end_game(game, id, &name),
        }
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
        inner.end_game(game, id, &name);
        drop(guard);
        self.touch();
    }

    /// Everyone and every game, for the lobby screen.
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
            games: inner
                .games
                .iter()
                .map(|(&id, g)| GameSummary {
                    id,
                    names: g.names.clone(),
                    moves: g.moves.len(),
                    status: g.status(),
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn member(lobby: &Lobby, name: &str) -> (PlayerId, mpsc::UnboundedReceiver<Notice>) {
        let (notices, received) = mpsc::unbounded_channel();
        (lobby.join(name, notices).0, received)
    }

    #[test]
    fn names_are_made_unique_within_sixteen_characters() {
        let lobby = Lobby::default();
        let (tx, _rx) = mpsc::unbounded_channel();
        assert_eq!(lobby.join("alice", tx.clone()).1, "alice");
        assert_eq!(lobby.join("alice", tx.clone()).1, "alice2");
        let long = "abcdefghijklmnop";
        assert_eq!(lobby.join(long, tx.clone()).1, long);
        assert_eq!(lobby.join(long, tx).1, "abcdefghijklmno2");
    }

    #[test]
    fn the_one_who_waited_plays_x_and_hears_of_the_pairing() {
        let lobby = Lobby::default();
        let (first, mut first_rx) = member(&lobby, "first");
        let (second, _second_rx) = member(&lobby, "second");
        let (third, _third_rx) = member(&lobby, "third");
        assert!(lobby.find_opponent(first).is_none());
        assert_eq!(lobby.activity(first), Some(Activity::Waiting));
        let (game, me, names) = lobby.find_opponent(second).expect("paired");
        assert_eq!(me, Player::O);
        assert_eq!((names.x.as_str(), names.o.as_str()), ("first", "second"));
        let Ok(Notice::Paired { game: g, me, .. }) = first_rx.try_recv() else {
            panic!("the waiting player is told")
        };
        assert_eq!((g, me), (game, Player::X));
        // Nobody waits now: the next one waits.
        assert!(lobby.find_opponent(third).is_none());
        assert_eq!(lobby.activity(third), Some(Activity::Waiting));
    }

    #[test]
    fn leaving_a_game_tells_the_opponent_and_the_watchers() {
        let lobby = Lobby::default();
        let (alice, mut alice_rx) = member(&lobby, "alice");
        let (bob, _bob_rx) = member(&lobby, "bob");
        let (carol, mut carol_rx) = member(&lobby, "carol");
        lobby.find_opponent(alice);
        let (game, ..) = lobby.find_opponent(bob).expect("paired");
        let _ = alice_rx.try_recv();
        assert!(lobby.watch(carol, game).is_some());
        assert!(
            lobby.watch(bob, game).is_none(),
            "no watching one's own game"
        );
        lobby.leave(bob);
        assert!(matches!(alice_rx.try_recv(), Ok(Notice::OpponentLeft(name)) if name == "bob"));
        assert!(matches!(carol_rx.try_recv(), Ok(Notice::WatchedGone(name)) if name == "bob"));
        assert_eq!(lobby.activity(alice), Some(Activity::Idle));
        assert!(lobby.snapshot().games.is_empty());
    }

    #[test]
    fn paired_while_starting_something_else_ends_that_pairing() {
        let lobby = Lobby::default();
        let (alice, mut alice_rx) = member(&lobby, "alice");
        let (bob, mut bob_rx) = member(&lobby, "bob");
        lobby.find_opponent(alice);
        let (game, ..) = lobby.find_opponent(bob).expect("paired");
        // alice stopped waiting at that moment: the pairing stands...
        lobby.stop_waiting(alice);
        assert_eq!(lobby.activity(alice), Some(Activity::Playing(game)));
        // ...unless she had started a game of her own, and abandons it.
        assert!(matches!(alice_rx.try_recv(), Ok(Notice::Paired { .. })));
        lobby.start_ai_game(alice, Player::X, Level::Easy);
        lobby.abandon(alice, game);
        assert!(matches!(bob_rx.try_recv(), Ok(Notice::OpponentLeft(name)) if name == "alice"));
        assert_eq!(
            lobby.snapshot().games.len(),
            1,
            "alice's game against the AI"
        );
    }

    #[test]
    fn between_two_people_only_news_is_taken_and_watchers_get_it() {
        let lobby = Lobby::default();
        let (alice, _a) = member(&lobby, "alice");
        let (bob, _b) = member(&lobby, "bob");
        let (carol, mut carol_rx) = member(&lobby, "carol");
        lobby.find_opponent(alice);
        let (game, _, names) = lobby.find_opponent(bob).expect("paired");
        lobby.watch(carol, game);
        let one = [Square::new(1, 1)];
        lobby.report(game, 0, Some(&names), &one);
        // bob's screen reports the same a moment later, or an older state.
        lobby.report(game, 0, Some(&names), &one);
        lobby.report(game, 0, Some(&names), &[]);
        let mut seen = Vec::new();
        while let Ok(Notice::Watched { moves, .. }) = carol_rx.try_recv() {
            seen.push(moves);
        }
        assert_eq!(seen, vec![one.to_vec()]);
        // A rematch is a new round, with no moves yet.
        lobby.report(game, 1, Some(&names), &[]);
        assert!(
            matches!(carol_rx.try_recv(), Ok(Notice::Watched { moves, .. }) if moves.is_empty())
        );
    }
}

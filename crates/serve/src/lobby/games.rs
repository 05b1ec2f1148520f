//! The games between people in the lobby: their moves, rematches and
//! ends, the referee that ends them on time and on absence, and what is
//! kept of them. A change is written by the store's thread and shown to
//! the game's screens once written, in the order made.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

use tokio::sync::watch;

use super::{Activity, Inner, Lobby, NotNow, Notice, PlayerId};
use crate::log;
use crate::store::{Finish, Flag, Lost, NewGame, StoredMove, WriteError};
use crate::table::{GameId, Listed, View, Write, Written};
use tictactoe_engine::{Player, Square};
use tictactoe_game::game::Outgoing;
use tictactoe_game::present::versus::end_line;
use tictactoe_game::versus::{End, Refusal, Rematch};

/// What resets a player's idle time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum IdleClock {
    /// Any key.
    Keys,
    /// Only a move: their turn began then.
    TurnSince(Instant),
    /// Nothing times them out: the other player is to move.
    Waiting,
}

/// What a game's screens are shown once its write is done: the game as it
/// was when handed over, who is seated at it, and who was at it then.
pub(super) struct Shown {
    view: View,
    seated: Vec<(PlayerId, Player)>,
    audience: Vec<PlayerId>,
}

impl Lobby {
    /// Keeps `write` for a game between people, then shows the game as it is
    /// now to its players and watchers (and seats `seated` at it): once
    /// written when the game is kept, at once when it is not. A write that
    /// fails stops the game: its players are told, and it is kept as it was.
    pub(super) fn keep(
        &self,
        inner: &mut Inner,
        game: GameId,
        write: Write,
        seated: Vec<(PlayerId, Player)>,
    ) {
        let Some(listed) = inner.games.get(&game) else {
            return;
        };
        let shown = Shown {
            view: listed.view(),
            seated,
            audience: listed.audience(),
        };
        let Some(table) = listed.table() else {
            return;
        };
        let Some(row) = table.row else {
            self.show(inner, game, shown, Written::default());
            return;
        };
        let (spoiled, kind) = (Arc::clone(&table.spoiled), table.offer.kind);
        let starting = matches!(write, Write::Start(_));
        let players: Vec<i64> = table
            .game
            .seats()
            .filter_map(|(_, seat)| seat.player.account.as_ref().map(|a| a.id))
            .collect();
        let versions = self.0.store.versions();
        let lobby = self.clone();
        self.0.store.write(
            move |db| {
                if spoiled.load(Ordering::SeqCst) {
                    return None;
                }
                let written = write.run(db, row, kind);
                // What the commands show of these players changed.
                if let Ok(written) = &written {
                    versions.written(&players);
                    if written.leaders.is_some() {
                        versions.rated();
                    }
                }
                Some(written)
            },
            move |written| {
                let mut guard = lobby.lock();
                match written {
                    None => {}
                    Some(Ok(written)) => lobby.show(&mut guard, game, shown, written),
                    Some(Err(WriteError::Lost(lost))) => lobby.lost_with(&mut guard, &lost),
                    Some(Err(error)) => {
                        log(format_args!("database: could not save game {row}: {error}"));
                        let why = if starting {
                            "the server could not start this game (a full disk?); try again later".to_string()
                        } else {
                            "could not save (disk full?): kept as before, back when the server restarts".to_string()
                        };
                        lobby.stop(&mut guard, game, &why);
                    }
                }
                drop(guard);
                lobby.touch();
            },
        );
    }

    /// Shows `view` of a game to its players and watchers (`audience`, as
    /// it was, if the game has left the list since), with what its write
    /// brought back; those in `seated` are seated at it.
    pub(super) fn show(&self, inner: &mut Inner, game: GameId, shown: Shown, written: Written) {
        let Shown {
            mut view,
            seated,
            audience,
        } = shown;
        if let (Some(leaders), Some(offer)) = (written.leaders, view.offer) {
            inner.leaders.insert(offer.kind, leaders);
        }
        let Some(listed) = inner.games.get_mut(&game) else {
            for id in audience {
                inner.send(id, Notice::Table(game, view.clone()));
            }
            return;
        };
        let title = listed.title();
        if let Some(table) = listed.table_mut() {
            if view.round == table.game.round() {
                table.ratings = written.ratings.or(table.ratings);
                view.ratings = table.ratings;
                if let Some(flag) = written.flagged {
                    log(format_args!("farming guard {title}: {flag}"));
                    match flag {
                        Flag::PairCap => {
                            table.offer.rated = false;
                            view.offer = Some(table.offer);
                        }
                        Flag::QuickWins(_) => {
                            table.flagged = Some(flag);
                            if let Some(over) = &mut view.over {
                                *over = format!("{over} · {flag}");
                            }
                        }
                    }
                }
            }
            table.shown = view.clone();
        }
        let audience = listed.audience();
        for &(id, me) in &seated {
            let view = view.clone();
            inner.send(id, Notice::Seated { game, me, view });
        }
        for id in audience
            .into_iter()
            .filter(|id| !seated.iter().any(|s| s.0 == *id))
        {
            inner.send(id, Notice::Table(game, view.clone()));
        }
    }

    /// A game the database could not keep stops where the database has it:
    /// it leaves the list, and its players and watchers are told why.
    pub(super) fn stop(&self, inner: &mut Inner, game: GameId, why: &str) {
        let Some(listed) = inner.games.remove(&game) else {
            return;
        };
        if let Some(table) = listed.table() {
            table.spoiled.store(true, Ordering::SeqCst);
        }
        log(format_args!("game stopped {}: {why}", listed.title()));
        let audience = listed.audience();
        inner.idle(&audience);
        for id in audience {
            inner.send(id, Notice::Stopped(why.to_string()));
        }
    }

    /// The database file is gone: nothing more can be kept. It is logged,
    /// every game kept stops where it is (its players and watchers told),
    /// everyone else hears it, and games from now on are casual and not kept.
    pub(crate) fn lost(&self, lost: &Lost) {
        let mut guard = self.lock();
        self.lost_with(&mut guard, lost);
        drop(guard);
        self.touch();
    }

    pub(super) fn lost_with(&self, inner: &mut Inner, lost: &Lost) {
        if !inner.keeping {
            return;
        }
        inner.keeping = false;
        log(format_args!(
            "database: {lost}: nothing more is kept and no game is rated until the server restarts on a database"
        ));
        let kept: Vec<GameId> = inner
            .games
            .iter()
            .filter(|(_, g)| g.table().is_some_and(|t| t.row.is_some()))
            .map(|(&id, _)| id)
            .collect();
        let why = "the server's database file is gone: the game stops here, unkept";
        for game in kept {
            self.stop(inner, game, why);
        }
        let said = "The database file is gone: games are casual, unkept, until a restart";
        for member in inner.members.values() {
            let _ = member.notices.send(Notice::Said(said.to_string()));
        }
    }

    /// Writes down how a game between people ended, and says it in the log.
    pub(super) fn ended(&self, inner: &mut Inner, game: GameId, end: End, write: Option<Write>) {
        let Some(listed) = inner.games.get(&game) else {
            return;
        };
        let status = listed.status();
        let names = listed.names();
        log(format_args!(
            "game end {}: {}",
            listed.title(),
            end_line(&end, &names, status)
        ));
        let write = write.unwrap_or(Write::Finish(Finish::of(&end)));
        self.keep(inner, game, write, Vec::new());
    }

    /// A move asked for by `from` in the round `round` of `game`: checked,
    /// then written, then sent to everyone at the game (the mover included).
    pub(crate) fn play(
        &self,
        from: PlayerId,
        game: GameId,
        round: u32,
        mv: Square,
    ) -> Result<(), NotNow> {
        let now = Instant::now();
        let mut guard = self.lock();
        let inner = &mut *guard;
        let table = inner.table_mut(game).ok_or(NotNow)?;
        let side = table.side_of(from).ok_or(NotNow)?;
        if table.game.round() != round {
            return Err(NotNow);
        }
        let played = match table.game.play(side, mv, now) {
            Ok(played) => played,
            Err(Refusal::OutOfTime) => {
                // The flag fell before the referee saw it: the game ended on time.
                if let Some(end) = table.game.end() {
                    self.ended(inner, game, end, None);
                }
                drop(guard);
                self.wake_referee();
                self.touch();
                return Err(NotNow);
            }
            Err(_) => return Err(NotNow),
        };
        let write = Write::Move {
            ply: played.ply,
            mv: StoredMove {
                square: played.square.to_string(),
                clock: played.left,
            },
            finish: played.end.as_ref().map(Finish::of),
        };
        match played.end {
            Some(end) => self.ended(inner, game, end, Some(write)),
            None => self.keep(inner, game, write, Vec::new()),
        }
        drop(guard);
        self.wake_referee();
        self.touch();
        Ok(())
    }

    /// What keeps `id` from being disconnected for idling: in a game between
    /// people, only a move on their turn, and nothing while the other is to
    /// move (the one who waits is never the one timed out); elsewhere, any key.
    pub(crate) fn idle_clock(&self, id: PlayerId) -> IdleClock {
        let inner = self.lock();
        let Some(Activity::Playing(game)) = inner.members.get(&id).map(|m| m.activity) else {
            return IdleClock::Keys;
        };
        let Some(table) = inner.games.get(&game).and_then(Listed::table) else {
            return IdleClock::Keys;
        };
        match table.side_of(id) {
            Some(side) if !table.game.is_over() => {
                if table.game.board().to_move() == side {
                    IdleClock::TurnSince(table.game.turn_began())
                } else {
                    IdleClock::Waiting
                }
            }
            _ => IdleClock::Keys,
        }
    }

    /// `from` claims the game against the other player, to move without a
    /// clock, who has not moved for the claim time: the win, or an abort.
    pub(crate) fn claim(&self, from: PlayerId, game: GameId, win: bool) {
        let mut guard = self.lock();
        let inner = &mut *guard;
        let Some(table) = inner.table_mut(game) else {
            return;
        };
        let Some(side) = table.side_of(from) else {
            return;
        };
        let Ok(end) = table.game.claim(side, win, Instant::now()) else {
            return;
        };
        self.ended(inner, game, end, None);
        drop(guard);
        self.wake_referee();
        self.touch();
    }

    /// Hands a player's rematch request to the other player of the game;
    /// once both asked, the next round begins with the sides swapped.
    pub(crate) fn rematch(&self, from: PlayerId, game: GameId) {
        let mut guard = self.lock();
        let inner = &mut *guard;
        let Some(table) = inner.table_mut(game) else {
            return;
        };
        let Some(side) = table.side_of(from) else {
            return;
        };
        // Asked before the sides swap: the other player's seat as it is.
        let other = table.game.seat(side.other()).player.member;
        let asked = table.game.ask_rematch(side, Instant::now());
        if asked == Rematch::Refused {
            return;
        }
        if let Some(other) = other {
            inner.send(other, Notice::Rematch);
        }
        if asked == Rematch::Started {
            let table = inner.table_mut(game).expect("the game");
            table.ratings = None;
            table.flagged = None;
            let accounts =
                [Player::X, Player::O].map(|s| table.game.seat(s).player.account.clone());
            let offer = table.offer;
            let write = match accounts {
                [Some(x), Some(o)] => {
                    inner.last_row += 1;
                    let row = inner.last_row;
                    let table = inner.table_mut(game).expect("the game");
                    table.row = Some(row);
                    Write::Start(NewGame {
                        kind: offer.kind,
                        rated: offer.rated,
                        control: offer.control,
                        x: x.id,
                        o: o.id,
                    })
                }
                _ => Write::Nothing,
            };
            log(format_args!("rematch {}", inner.games[&game].title()));
            self.keep(inner, game, write, Vec::new());
        }
        drop(guard);
        self.wake_referee();
        self.touch();
    }

    /// The next moment a clock runs out or an absent player's grace ends.
    pub(super) fn next_deadline(&self) -> Option<Instant> {
        let inner = self.lock();
        inner
            .games
            .values()
            .filter_map(Listed::table)
            .filter_map(|t| t.game.deadline())
            .min()
    }

    /// Ends the games whose deadlines have passed at `now`: a flag fallen,
    /// a grace run out.
    pub(super) fn enforce(&self, now: Instant) {
        let mut guard = self.lock();
        let inner = &mut *guard;
        let ended: Vec<(GameId, End)> = inner
            .games
            .iter_mut()
            .filter_map(|(&id, listed)| Some((id, listed.table_mut()?.game.referee(now)?)))
            .collect();
        let changed = !ended.is_empty();
        for (game, end) in ended {
            self.ended(inner, game, end, None);
            inner.clear_if_deserted(game);
        }
        drop(guard);
        if changed {
            self.touch();
        }
    }

    /// Ends games on time and on absence as their deadlines pass, until shutdown.
    pub(crate) async fn referee(&self, mut shutdown: watch::Receiver<bool>) {
        let mut deadlines = self.0.deadlines.subscribe();
        loop {
            deadlines.borrow_and_update();
            let next = self.next_deadline().map(tokio::time::Instant::from_std);
            tokio::select! {
                _ = shutdown.wait_for(|down| *down) => return,
                _ = deadlines.changed() => {}
                () = crate::sleep_until(next) => self.enforce(Instant::now()),
            }
        }
    }
}

/// What a screen that leaves a game between people sends the lobby.
pub(crate) fn relay(
    lobby: &Lobby,
    from: PlayerId,
    game: GameId,
    round: u32,
    message: Outgoing,
) -> Result<(), NotNow> {
    match message {
        Outgoing::Square(mv) => lobby.play(from, game, round, mv),
        Outgoing::Rematch => {
            lobby.rematch(from, game);
            Ok(())
        }
        Outgoing::Claim { win } => {
            lobby.claim(from, game, win);
            Ok(())
        }
    }
}

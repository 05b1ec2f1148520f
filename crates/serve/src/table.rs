//! The games the lobby lists: a game between people (a [`Match`], the
//! rules, with what the server keeps beside it: its row in the database,
//! the ratings, what its screens were last shown) or one person's game
//! against the AI (kept in step with their screen, for the list and its
//! watchers), and what a screen is sent of either ([`View`]).

use std::collections::BTreeSet;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::store::{
    Account, Database, Finish, Flag, Kind, NewGame, Rating, StoredGame, StoredMove, WriteError,
};
use tictactoe_engine::{Board, Player, Square, Status};
use tictactoe_game::clock::{Clock, TimeControl};
use tictactoe_game::game::Names;
use tictactoe_game::present::versus::end_told;
use tictactoe_game::versus::{Match, Rules, TableSeat};

/// A connected player.
pub(super) type PlayerId = u64;
/// A game in the lobby's list.
pub(super) type GameId = u64;

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

/// A game as its players and watchers see it.
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
    /// From when the side not to move may claim the game (no clock).
    pub claim_at: Option<Instant>,
}

/// Who sits at a seat of a game between people, as the server knows them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Sitter {
    /// The session playing it, while connected.
    pub member: Option<PlayerId>,
    /// The key's player; `None` for a guest (no key), whose seat is not kept.
    pub account: Option<Account>,
}

/// A game between people as the server holds it.
pub(super) struct Table {
    pub game: Match<Sitter>,
    pub offer: Offer,
    /// The game's row in the database; `None` when a guest plays (nothing is kept).
    pub row: Option<i64>,
    /// X's and O's ratings this round, in a rated game.
    pub ratings: Option<(Rating, Rating)>,
    /// What the screens were last shown: everything in it is kept.
    pub shown: View,
    /// Set once a write for this game failed: nothing more is written for it.
    pub spoiled: Arc<AtomicBool>,
    /// What the farming guard said of this round, for its end.
    pub flagged: Option<Flag>,
}

impl Table {
    /// A new game of `offer` between two sitters (X first), kept as `row`.
    pub fn new(
        offer: Offer,
        rules: Rules,
        [x, o]: [TableSeat<Sitter>; 2],
        row: Option<i64>,
        now: Instant,
    ) -> Table {
        let game = Match::new(offer.board(), rules, x, o, now);
        Table::holding(game, offer, row, None)
    }

    fn holding(
        game: Match<Sitter>,
        offer: Offer,
        row: Option<i64>,
        ratings: Option<(Rating, Rating)>,
    ) -> Table {
        let mut table = Table {
            game,
            offer,
            row,
            ratings,
            shown: View {
                round: 0,
                names: Names {
                    x: String::new(),
                    o: String::new(),
                },
                offer: None,
                moves: Vec::new(),
                clock: None,
                away: None,
                over: None,
                ratings: None,
                claim_at: None,
            },
            spoiled: Arc::new(AtomicBool::new(false)),
            flagged: None,
        };
        table.shown = table.view();
        table
    }

    pub fn names(&self) -> Names {
        Names {
            x: self.game.seat(Player::X).name.clone(),
            o: self.game.seat(Player::O).name.clone(),
        }
    }

    /// The game as it is now.
    pub fn view(&self) -> View {
        let names = self.names();
        View {
            round: self.game.round(),
            offer: Some(self.offer),
            moves: self.game.moves().to_vec(),
            clock: self.game.clock(),
            away: self.game.away(),
            over: self.game.end().and_then(|end| {
                let told = end_told(&end, &names)?;
                Some(match self.flagged {
                    Some(flag) => format!("{told} · {flag}"),
                    None => told,
                })
            }),
            ratings: self.ratings,
            claim_at: self.game.claim_at(),
            names,
        }
    }

    /// The side the session `id` plays.
    pub fn side_of(&self, id: PlayerId) -> Option<Player> {
        self.game.side_where(|sitter| sitter.member == Some(id))
    }
}

/// One person's game against the AI, as their screen reports it.
pub(super) struct AiGame {
    pub names: Names,
    pub player: PlayerId,
    pub round: u32,
    pub moves: Vec<Square>,
}

impl AiGame {
    pub fn board(&self) -> Board {
        self.moves
            .iter()
            .try_fold(Board::new(), |board, &mv| board.play(mv))
            .unwrap_or_default()
    }
}

/// What is played at a game of the list.
pub(super) enum Play {
    People(Box<Table>),
    Ai(AiGame),
}

/// A game of the lobby's list, and who watches it.
pub(super) struct Listed {
    pub play: Play,
    pub watchers: BTreeSet<PlayerId>,
}

impl Listed {
    pub fn names(&self) -> Names {
        match &self.play {
            Play::People(table) => table.names(),
            Play::Ai(game) => game.names.clone(),
        }
    }

    pub fn title(&self) -> String {
        let names = self.names();
        format!("{} (X) vs {} (O)", names.x, names.o)
    }

    pub fn status(&self) -> Status {
        match &self.play {
            Play::People(table) => table.game.status(),
            Play::Ai(game) => game.board().status(),
        }
    }

    pub fn is_over(&self) -> bool {
        match &self.play {
            Play::People(table) => table.game.is_over(),
            Play::Ai(game) => game.board().status().is_over(),
        }
    }

    pub fn table(&self) -> Option<&Table> {
        match &self.play {
            Play::People(table) => Some(table),
            Play::Ai(_) => None,
        }
    }

    pub fn table_mut(&mut self) -> Option<&mut Table> {
        match &mut self.play {
            Play::People(table) => Some(table),
            Play::Ai(_) => None,
        }
    }

    /// The sessions playing it now.
    pub fn people(&self) -> Vec<PlayerId> {
        match &self.play {
            Play::People(table) => table
                .game
                .seats()
                .filter_map(|(_, seat)| seat.player.member)
                .collect(),
            Play::Ai(game) => vec![game.player],
        }
    }

    /// The sessions playing it and watching it.
    pub fn audience(&self) -> Vec<PlayerId> {
        let mut audience = self.people();
        audience.extend(self.watchers.iter().copied());
        audience
    }

    /// The game as it is now.
    pub fn view(&self) -> View {
        match &self.play {
            Play::People(table) => table.view(),
            Play::Ai(game) => View {
                round: game.round,
                names: game.names.clone(),
                offer: None,
                moves: game.moves.clone(),
                clock: None,
                away: None,
                over: None,
                ratings: None,
                claim_at: None,
            },
        }
    }

    /// What a new watcher is shown: what the players were last shown.
    pub fn shown(&self) -> View {
        match &self.play {
            Play::People(table) => table.shown.clone(),
            Play::Ai(_) => self.view(),
        }
    }
}

/// A game the database holds unfinished, back in the lobby: both seats
/// away for the grace, the clock of the side to move running from `now`.
pub(super) fn restored(
    stored: StoredGame,
    ratings: Option<(Rating, Rating)>,
    rules: Rules,
    now: Instant,
) -> Option<Table> {
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
    let mut left = [None; 2];
    for (ply, stored) in stored_moves.iter().enumerate() {
        moves.push(geometry.parse_square(&stored.square).ok()?);
        left[ply % 2] = stored.clock.or(left[ply % 2]);
    }
    let sitter = |account: Account| {
        TableSeat::new(
            account.name.clone(),
            Sitter {
                member: None,
                account: Some(account),
            },
        )
    };
    let rules = Rules { control, ..rules };
    let game = Match::restored(start, rules, [sitter(x), sitter(o)], moves, left, now)?;
    Some(Table::holding(game, offer, Some(row), ratings))
}

/// What is written for a game between people, in order with the rest.
pub(super) enum Write {
    /// Nothing: the game is shown once what came before is written.
    Nothing,
    /// The game begins: its row, and the players' ratings to show.
    Start(NewGame),
    /// A move, and the game's end when it ended it.
    Move {
        ply: usize,
        mv: StoredMove,
        finish: Option<Finish>,
    },
    /// The end of a game, without a move.
    Finish(Finish),
}

/// What a write brought back.
#[derive(Default)]
pub(super) struct Written {
    /// X's and O's ratings, when the game began or ended rated.
    pub ratings: Option<(Rating, Rating)>,
    /// The leaderboard of the game's board, when its end changed ratings.
    pub leaders: Option<Vec<(String, Rating)>>,
    /// What the farming guard did: a game begun casual, a result not rated.
    pub flagged: Option<Flag>,
}

impl Write {
    /// Writes it for game `row` of `kind`.
    pub fn run(self, db: &mut Database, row: i64, kind: Kind) -> Result<Written, WriteError> {
        let rated = match self {
            Write::Nothing => return Ok(Written::default()),
            Write::Start(new) => {
                let flagged = db.start_game(row, new)?;
                let ratings = if new.rated && flagged.is_none() {
                    Some((db.rating(new.x, kind)?, db.rating(new.o, kind)?))
                } else {
                    None
                };
                return Ok(Written {
                    ratings,
                    leaders: None,
                    flagged,
                });
            }
            Write::Move { ply, mv, finish } => db.play(row, ply, &mv, finish)?,
            Write::Finish(finish) => db.finish(row, finish)?,
        };
        let leaders = match rated.ratings {
            Some(_) => Some(db.leaderboard(kind, LEADERS)?),
            None => None,
        };
        Ok(Written {
            ratings: rated.ratings,
            leaders,
            flagged: rated.flagged,
        })
    }
}

/// Players listed per board kind on the leaderboards.
pub(super) const LEADERS: u32 = 10;

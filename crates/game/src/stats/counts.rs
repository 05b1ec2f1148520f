//! The numbers: finished games, and the counts they add up to by board
//! shape, the person's side and the AI's level.

use std::collections::BTreeMap;

use crate::game::{Seat, Seats};
use tictactoe_engine::{Board, Geometry, Level, Player, Standing, Status};

/// One finished game of a person against the AI.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameRecord {
    /// The person's side.
    pub side: Player,
    /// The AI's level.
    pub opponent: Level,
    /// How the game went for the person.
    pub standing: Standing,
    /// The board's side: 3 for 3x3.
    pub size: u8,
    /// Marks in a row that win.
    pub k: u8,
}

impl GameRecord {
    /// The record of a finished game, when one person played one AI from the
    /// empty board. Games between two people or two AIs are not counted, nor
    /// games started from a position (`--board`): they are not whole games
    /// against that level.
    pub fn of(seats: Seats, start: Board, status: Status) -> Option<GameRecord> {
        if start.move_count() != 0 {
            return None;
        }
        let side = seats.lone_human()?;
        let Seat::Ai(opponent) = seats.of(side.other()) else {
            return None;
        };
        let standing = seats.human_standing(status)?;
        Some(GameRecord {
            side,
            opponent,
            standing,
            size: start.size(),
            k: start.k(),
        })
    }
}

/// Wins, losses and draws on one board shape against one opponent level from one side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Row {
    /// The person's side.
    pub side: Player,
    /// The AI's level.
    pub opponent: Level,
    /// The board's side.
    pub size: u8,
    /// Marks in a row that win.
    pub k: u8,
    /// Games the person won.
    pub wins: u64,
    /// Games the person lost.
    pub losses: u64,
    /// Drawn games.
    pub draws: u64,
}

impl Row {
    /// Games in this row.
    pub fn games(&self) -> u64 {
        self.wins
            .saturating_add(self.losses)
            .saturating_add(self.draws)
    }

    /// The board's shape for people: `3x3`, or `4x4 k4` for bigger boards.
    pub fn board(&self) -> String {
        let classic = Geometry::get(self.size, self.k).is_ok_and(Geometry::is_classic);
        if classic {
            "3x3".to_string()
        } else {
            format!("{0}x{0} k{1}", self.size, self.k)
        }
    }
}

/// Wins, losses and draws of one row. Counts saturate rather than wrap, so
/// even a file edited to absurd numbers cannot make a total overflow.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Counts {
    wins: u64,
    losses: u64,
    draws: u64,
}

impl Counts {
    fn add(&mut self, wins: u64, losses: u64, draws: u64) {
        self.wins = self.wins.saturating_add(wins);
        self.losses = self.losses.saturating_add(losses);
        self.draws = self.draws.saturating_add(draws);
    }

    fn of_mut(&mut self, standing: Standing) -> &mut u64 {
        match standing {
            Standing::Win => &mut self.wins,
            Standing::Loss => &mut self.losses,
            Standing::Draw => &mut self.draws,
        }
    }

    fn is_empty(&self) -> bool {
        *self == Counts::default()
    }
}

/// Rows are kept by board shape (size, k), then side, then level.
type Key = (u8, u8, Player, Level);

/// Every count, by board shape, the person's side and the AI's level.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stats {
    counts: BTreeMap<Key, Counts>,
}

impl Stats {
    /// Counts one game.
    pub fn add(&mut self, record: GameRecord) {
        let counts = self.counts.entry(key(record)).or_default();
        let count = counts.of_mut(record.standing);
        *count = count.saturating_add(1);
    }

    /// Takes one counted game back out; a count already at zero stays there.
    pub fn remove(&mut self, record: GameRecord) {
        let Some(counts) = self.counts.get_mut(&key(record)) else {
            return;
        };
        let count = counts.of_mut(record.standing);
        *count = count.saturating_sub(1);
        if counts.is_empty() {
            self.counts.remove(&key(record));
        }
    }

    /// Adds a row as read from a file: rows of the same shape, side and level
    /// add up, and a row of no games leaves nothing behind.
    pub(super) fn add_row(&mut self, row: Row) {
        let key = (row.size, row.k, row.side, row.opponent);
        let counts = self.counts.entry(key).or_default();
        counts.add(row.wins, row.losses, row.draws);
        if counts.is_empty() {
            self.counts.remove(&key);
        }
    }

    /// One row per shape, side and level played, ordered by shape, side, then level.
    pub fn rows(&self) -> Vec<Row> {
        self.counts
            .iter()
            .map(|(&(size, k, side, opponent), c)| Row {
                side,
                opponent,
                size,
                k,
                wins: c.wins,
                losses: c.losses,
                draws: c.draws,
            })
            .collect()
    }

    /// All games counted.
    pub fn games(&self) -> u64 {
        let (wins, losses, draws) = self.totals();
        wins.saturating_add(losses).saturating_add(draws)
    }

    /// Totals over every row: (wins, losses, draws).
    pub fn totals(&self) -> (u64, u64, u64) {
        let mut total = Counts::default();
        for counts in self.counts.values() {
            total.add(counts.wins, counts.losses, counts.draws);
        }
        (total.wins, total.losses, total.draws)
    }
}

fn key(record: GameRecord) -> Key {
    (record.size, record.k, record.side, record.opponent)
}

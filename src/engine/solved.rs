//! Every 3×3 position solved once, for callers that ask about the same few
//! thousand positions again and again (self-play), where even a fast search adds up.

use std::sync::OnceLock;
use std::time::Instant;

use super::analysis::{Analysis, ScoredMove};
use super::board::{Board, Move, Player};
use super::search::{Searcher, UNLIMITED, shrink};

/// The value, for the side to move, of every unfinished position a 3×3 game can reach.
pub struct SolvedTable {
    /// Indexed by X's and O's marks side by side (18 bits); `UNSOLVED` elsewhere.
    values: Vec<i8>,
    solved: usize,
}

const UNSOLVED: i8 = i8::MIN;

fn index(board: &Board) -> Option<usize> {
    (board.size() == 3).then(|| (board.marks(Player::X) << 9 | board.marks(Player::O)) as usize)
}

impl SolvedTable {
    /// The table, solved by the fast search on first use (a few milliseconds).
    pub fn classic() -> &'static SolvedTable {
        static TABLE: OnceLock<SolvedTable> = OnceLock::new();
        TABLE.get_or_init(SolvedTable::solve)
    }

    fn solve() -> SolvedTable {
        let start = Board::new();
        let mut searcher = Searcher::new(start.geometry());
        let mut values = vec![UNSOLVED; 1 << 18];
        let mut solved = 0;
        let mut frontier = vec![start];
        while let Some(board) = frontier.pop() {
            let Some(slot) = index(&board) else { continue };
            if board.status().is_over() || values[slot] != UNSOLVED {
                continue;
            }
            let (value, _) = searcher.value(&board, UNLIMITED);
            values[slot] = value as i8;
            solved += 1;
            frontier.extend(
                board
                    .legal_moves()
                    .into_iter()
                    .filter_map(|mv| board.play(mv).ok()),
            );
        }
        SolvedTable { values, solved }
    }

    /// Number of unfinished positions solved (4,520).
    pub fn len(&self) -> usize {
        self.solved
    }

    /// Always false: the table holds every unfinished position.
    pub fn is_empty(&self) -> bool {
        self.solved == 0
    }

    /// The seed's score of playing `mv`, exactly as the search gives it.
    /// `None` if the position is not a 3×3 position in progress or `mv` is illegal.
    pub fn score(&self, board: &Board, mv: Move) -> Option<i32> {
        let after = board.play(mv).ok()?;
        if after.winner().is_some() {
            Some(after.geometry().win_score())
        } else if after.empty_cells() == 0 {
            Some(0)
        } else {
            // The opponent's value, one ply further away and seen from our side.
            let value = self.values[index(&after)?];
            (value != UNSOLVED).then(|| -shrink(i32::from(value)))
        }
    }

    /// Every legal move with its exact score, as [`super::analyze`] would give
    /// them (no positions are searched, so `nodes` is 0).
    pub fn analysis(&self, board: &Board) -> Option<Analysis> {
        let started = Instant::now();
        let moves = board
            .legal_moves()
            .into_iter()
            .map(|mv| {
                Some(ScoredMove {
                    mv,
                    score: self.score(board, mv)?,
                    exact: true,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        Some(Analysis {
            board: *board,
            moves,
            nodes: 0,
            elapsed: started.elapsed(),
            depth: None,
        })
    }
}

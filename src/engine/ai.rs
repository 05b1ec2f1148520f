//! Opponents of every strength, all built on the minimax scores.

use std::fmt;

use super::analysis::{Analysis, Limits, ScoredMove, analyze};
use super::board::{Board, Move};
use super::search::Searcher;

/// How well an AI plays. Each level is strictly stronger than the one before.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// Any legal move, uniformly at random.
    Random,
    /// Random, except that it takes a win on the move.
    Easy,
    /// Looks two plies ahead: takes wins, blocks, sees a fork coming.
    Medium,
    /// Searches the whole game but now and then plays its second-best move.
    Hard,
    /// Always optimal: the fastest win, the slowest loss, a draw otherwise.
    Perfect,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 5] = [
        Level::Random,
        Level::Easy,
        Level::Medium,
        Level::Hard,
        Level::Perfect,
    ];

    /// The level's name as the command line spells it.
    pub fn name(self) -> &'static str {
        match self {
            Level::Random => "random",
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Perfect => "perfect",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Plies the medium level searches before estimating.
const MEDIUM_DEPTH: u32 = 2;

/// How often, in percent, the hard level settles for its second-best move.
const HARD_SLIP_PERCENT: u32 = 15;

/// A move chosen by an AI, with the analysis it rested on (none for random play).
#[derive(Debug, Clone)]
pub struct Decision {
    /// The move to play.
    pub mv: Move,
    /// The scores the choice was made from.
    pub analysis: Option<Analysis>,
}

/// Chooses a move for the side to move at `level`; `None` once the game is over.
/// Every random choice comes from `rng`, so a seeded generator replays a game exactly.
pub fn choose_move(
    board: &Board,
    level: Level,
    rng: &mut fastrand::Rng,
    limits: Limits,
) -> Option<Decision> {
    let legal = board.legal_moves();
    if legal.is_empty() {
        return None;
    }
    let random = |rng: &mut fastrand::Rng| legal[rng.usize(..legal.len())];
    let decision = match level {
        Level::Random => Decision {
            mv: random(rng),
            analysis: None,
        },
        Level::Easy => {
            let wins: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|&mv| board.play(mv).is_ok_and(|next| next.winner().is_some()))
                .collect();
            let mv = if wins.is_empty() {
                random(rng)
            } else {
                wins[rng.usize(..wins.len())]
            };
            Decision { mv, analysis: None }
        }
        Level::Medium => {
            let analysis = shallow_analysis(board, MEDIUM_DEPTH);
            Decision {
                mv: pick_among_best(&analysis, rng),
                analysis: Some(analysis),
            }
        }
        Level::Hard => {
            let analysis = analyze(board, limits);
            let mv = if rng.u32(..100) < HARD_SLIP_PERCENT {
                pick_second_best(&analysis, rng).unwrap_or_else(|| pick_among_best(&analysis, rng))
            } else {
                pick_among_best(&analysis, rng)
            };
            Decision {
                mv,
                analysis: Some(analysis),
            }
        }
        Level::Perfect => {
            let analysis = analyze(board, limits);
            Decision {
                mv: pick_among_best(&analysis, rng),
                analysis: Some(analysis),
            }
        }
    };
    Some(decision)
}

/// Every move scored `depth` plies deep, estimates beyond.
fn shallow_analysis(board: &Board, depth: u32) -> Analysis {
    let mut searcher = Searcher::new(board.geometry());
    let started = std::time::Instant::now();
    let moves = board
        .legal_moves()
        .into_iter()
        .map(|mv| {
            let (score, exact) = searcher.score_move(board, mv, depth);
            ScoredMove { mv, score, exact }
        })
        .collect();
    Analysis {
        board: *board,
        moves,
        nodes: searcher.nodes(),
        elapsed: started.elapsed(),
        depth: Some(depth),
    }
}

/// A uniformly random move among those with the top score.
fn pick_among_best(analysis: &Analysis, rng: &mut fastrand::Rng) -> Move {
    let top = analysis.value().unwrap_or(0);
    let best: Vec<Move> = analysis
        .moves
        .iter()
        .filter(|m| m.score == top)
        .map(|m| m.mv)
        .collect();
    best[rng.usize(..best.len())]
}

/// A random move among those with the highest score below the top, if any.
fn pick_second_best(analysis: &Analysis, rng: &mut fastrand::Rng) -> Option<Move> {
    let top = analysis.value()?;
    let second = analysis
        .moves
        .iter()
        .map(|m| m.score)
        .filter(|&s| s < top)
        .max()?;
    let moves: Vec<Move> = analysis
        .moves
        .iter()
        .filter(|m| m.score == second)
        .map(|m| m.mv)
        .collect();
    Some(moves[rng.usize(..moves.len())])
}

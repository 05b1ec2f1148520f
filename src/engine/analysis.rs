//! Scores for every move of a position, as `analyze` and the explain overlay show them.

use std::fmt;
use std::time::{Duration, Instant};

use super::board::{Board, Move, Player, Status};
use super::geometry::Geometry;
use super::search::{Searcher, UNLIMITED};

/// How long the search may think about a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limits {
    /// Search until every score is proven, however long it takes.
    Solve,
    /// Deepen step by step and stop at this budget with the deepest complete result.
    Think(Duration),
}

/// One legal move and its score for the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScoredMove {
    /// The move.
    pub mv: Move,
    /// The seed's score of the move: `W - d` for a win `d` plies after it, `-W + d` for a loss, 0 for a draw.
    pub score: i32,
    /// Proven by searching to the end, rather than estimated at a depth limit.
    pub exact: bool,
}

/// What a score means for the side that plays the move, counted in its own moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outlook {
    /// A forced win; this move counts as the first.
    Win {
        /// The mover's moves until the win, this one included.
        moves: u32,
    },
    /// The opponent forces a win however the mover defends.
    Loss {
        /// The mover's moves before the opponent's line, this one included.
        moves: u32,
    },
    /// A proven draw.
    Draw,
    /// Not proven either way; the score is an estimate.
    Estimate,
}

impl Outlook {
    /// Reads a move's score on a board of this shape.
    pub fn of(score: i32, exact: bool, geometry: &Geometry) -> Outlook {
        let win = geometry.win_score();
        // A proven score is a win or a loss whenever it is not 0; and the search's
        // estimates stay within ±W/2, so a score beyond that is a forced line.
        let decided = exact || score.abs() > win / 2;
        match score.signum() {
            1 if decided => Outlook::Win {
                moves: ((win - score) / 2 + 1) as u32,
            },
            -1 if decided => Outlook::Loss {
                moves: ((win + score + 1) / 2) as u32,
            },
            0 if exact => Outlook::Draw,
            _ => Outlook::Estimate,
        }
    }
}

impl fmt::Display for Outlook {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outlook::Win { moves } => write!(f, "win in {moves}"),
            Outlook::Loss { moves } => write!(f, "loss in {moves}"),
            Outlook::Draw => f.write_str("draw"),
            Outlook::Estimate => f.write_str("estimate"),
        }
    }
}

/// Every legal move of a position with its score, and what the search cost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Analysis {
    /// The position analysed.
    pub board: Board,
    /// Every legal move in reading order; empty once the game is over.
    pub moves: Vec<ScoredMove>,
    /// Positions searched.
    pub nodes: u64,
    /// Wall time of the search.
    pub elapsed: Duration,
    /// Plies searched when a limit applied; `None` when searched to the end.
    pub depth: Option<u32>,
}

impl Analysis {
    /// Won, drawn or in progress.
    pub fn status(&self) -> Status {
        self.board.status()
    }

    /// The side to move, while the game is on.
    pub fn to_move(&self) -> Option<Player> {
        match self.status() {
            Status::InProgress { to_move } => Some(to_move),
            _ => None,
        }
    }

    /// The seed's choice: the first move in reading order with the highest score.
    pub fn best(&self) -> Option<ScoredMove> {
        self.moves
            .iter()
            .copied()
            .reduce(|best, next| if next.score > best.score { next } else { best })
    }

    /// The best move's score: the value of the position for the side to move.
    pub fn value(&self) -> Option<i32> {
        self.best().map(|best| best.score)
    }

    /// True when every score is proven.
    pub fn exact(&self) -> bool {
        self.moves.iter().all(|mv| mv.exact)
    }

    /// What the best move means for the side to move.
    pub fn outlook(&self) -> Option<Outlook> {
        self.best().map(|best| self.outlook_of(best))
    }

    /// What one move's score means for the side to move.
    pub fn outlook_of(&self, scored: ScoredMove) -> Outlook {
        Outlook::of(scored.score, scored.exact, self.board.geometry())
    }

    /// The result in words: "X wins in 2", "draw with best play", "O won".
    pub fn verdict(&self) -> String {
        match self.status() {
            Status::Won(winner) => format!("{winner} won"),
            Status::Draw => "draw: the board is full".to_string(),
            Status::InProgress { to_move } => match self.outlook() {
                Some(Outlook::Win { moves }) => format!("{to_move} wins in {moves}"),
                Some(Outlook::Loss { moves }) => format!("{} wins in {moves}", to_move.other()),
                Some(Outlook::Draw) => "draw with best play".to_string(),
                _ => format!(
                    "not proven: estimated {:+} for {to_move}",
                    self.value().unwrap_or(0)
                ),
            },
        }
    }
}

/// Scores every legal move of `board` for the side to move.
///
/// On 3×3 every score is exact whatever the limits: the whole game is searched in
/// microseconds. Bigger boards deepen one ply at a time until every score is proven
/// or the time is up.
pub fn analyze(board: &Board, limits: Limits) -> Analysis {
    // Proving a big board visits tens of millions of positions: give the table room.
    let mut searcher = match limits {
        Limits::Solve if board.geometry().cells() >= 25 => {
            Searcher::with_table_bits(board.geometry(), SOLVE_TABLE_BITS)
        }
        _ => Searcher::new(board.geometry()),
    };
    analyze_with(&mut searcher, board, limits)
}

/// Table size for proving boards of 5×5 and up: 4M slots, 96 MiB at most.
const SOLVE_TABLE_BITS: u32 = 22;

/// [`analyze`] with a caller's searcher, whose table may already know related positions.
pub fn analyze_with(searcher: &mut Searcher, board: &Board, limits: Limits) -> Analysis {
    let started = Instant::now();
    let nodes_before = searcher.nodes();
    let legal = board.legal_moves();
    let (moves, depth) = match limits {
        // 3×3 is always searched to the end: the whole game takes microseconds.
        Limits::Think(budget) if !board.geometry().is_classic() => {
            deepen(searcher, board, &legal, started, budget)
        }
        _ => {
            searcher.set_deadline(None);
            (score_all(searcher, board, &legal, UNLIMITED, None), None)
        }
    };

    Analysis {
        board: *board,
        moves,
        nodes: searcher.nodes() - nodes_before,
        elapsed: started.elapsed(),
        depth,
    }
}

/// Positions with this many empty squares or fewer are first tried as a whole
/// proof: a 4×4 board, or a bigger board late in the game.
const PROOF_ATTEMPT_MAX_EMPTY: u32 = 16;

/// Scores within a time budget. A small position is first searched to the end
/// with half the budget: a proof beats any estimate. Otherwise, or if that runs
/// out of time, iterative deepening: whole passes at depth 1, 2, … until all
/// scores are proven or the time is up; the deepest complete pass is the answer.
/// Whatever an unfinished pass proved stays in the table for the next.
fn deepen(
    searcher: &mut Searcher,
    board: &Board,
    legal: &[Move],
    started: Instant,
    budget: Duration,
) -> (Vec<ScoredMove>, Option<u32>) {
    if board.empty_cells().count_ones() <= PROOF_ATTEMPT_MAX_EMPTY {
        searcher.set_deadline(Some(started + budget / 2));
        let proof = score_all(searcher, board, legal, UNLIMITED, None);
        if !searcher.out_of_time() {
            searcher.set_deadline(None);
            return (proof, None);
        }
    }
    let deadline = started + budget;
    // The first pass always completes, so there is always an answer.
    searcher.set_deadline(None);
    let mut moves = score_all(searcher, board, legal, 1, None);
    let mut depth = 1;
    searcher.set_deadline(Some(deadline));
    while !moves.iter().all(|mv| mv.exact) && depth < board.empty_cells().count_ones() {
        let deeper = score_all(searcher, board, legal, depth + 1, Some(&moves));
        if searcher.out_of_time() {
            break;
        }
        moves = deeper;
        depth += 1;
    }
    searcher.set_deadline(None);
    let proven = moves.iter().all(|mv| mv.exact);
    (moves, (!proven).then_some(depth))
}

/// Scores every move at `depth`. Moves that a symmetry of the position maps onto
/// an earlier one share its score; moves already proven in `previous` keep theirs.
/// Stops early, with a partial list, when the searcher runs out of time.
fn score_all(
    searcher: &mut Searcher,
    board: &Board,
    legal: &[Move],
    depth: u32,
    previous: Option<&[ScoredMove]>,
) -> Vec<ScoredMove> {
    let symmetries = board.symmetries();
    let mut scored: Vec<ScoredMove> = Vec::with_capacity(legal.len());
    for (i, &mv) in legal.iter().enumerate() {
        let twin_of = symmetries.first_twin(mv);
        let twin = (twin_of != mv)
            .then(|| scored.iter().find(|earlier| earlier.mv == twin_of).copied())
            .flatten();
        let known = previous.map(|p| p[i]).filter(|p| p.exact);
        let result = match (twin, known) {
            (Some(twin), _) => ScoredMove { mv, ..twin },
            (None, Some(known)) => known,
            (None, None) => {
                let (score, exact) = searcher.exact_score(board, mv, depth);
                if searcher.out_of_time() {
                    break;
                }
                // A win or loss found within a depth limit is a forced line:
                // estimates never reach beyond ±W/2.
                let forced = score.abs() > board.geometry().win_score() / 2;
                ScoredMove {
                    mv,
                    score,
                    exact: exact || forced,
                }
            }
        };
        scored.push(result);
    }
    scored
}

//! Scores for every move of a position, as `analyze` and the explain overlay show them.

use std::fmt;
use std::time::{Duration, Instant};

use super::board::{Board, Status};
use super::geometry::Geometry;
use super::outcome::Outcome;
use super::player::Player;
use super::score::{ScoredMove, Scoring};
use super::search::{Searcher, UNLIMITED};
use super::solve::{Keep, Settled};
use super::solved;
use super::square::Square;

/// How long the search may think about a position bigger than 3×3. (On 3×3
/// every answer is proven: read from the table, or searched to the end in
/// microseconds by [`analyze_by_search`].)
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limits {
    /// Search to the end of the game: every score proven, however long it
    /// takes.
    ToTheEnd,
    /// Deepen step by step and stop at this budget with the deepest complete result.
    Think(Duration),
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
    /// A win the prover proved, where the search only estimated how long it
    /// takes: the score's number is not known.
    ProvenWin,
    /// A loss the prover proved, its length not known.
    ProvenLoss,
    /// Not proven either way; the score is an estimate.
    Estimate,
}

impl Outlook {
    /// Reads a move's score (see [the convention](crate::score)) on a board of this shape.
    ///
    /// ```
    /// use tictactoe_engine::{Geometry, Outlook};
    ///
    /// let classic = Geometry::classic();
    /// assert_eq!(Outlook::of(10, true, classic), Outlook::Win { moves: 1 });
    /// assert_eq!(Outlook::of(8, true, classic), Outlook::Win { moves: 2 });
    /// assert_eq!(Outlook::of(-9, true, classic).to_string(), "loss in 1");
    /// assert_eq!(Outlook::of(-7, true, classic).to_string(), "loss in 2");
    /// assert_eq!(Outlook::of(0, false, classic), Outlook::Estimate);
    /// ```
    pub fn of(score: i32, proven: bool, geometry: &Geometry) -> Outlook {
        let win = geometry.win_score();
        // A proven score is a win or a loss whenever it is not 0; and a score
        // beyond any estimate is a forced line.
        let decided = proven || geometry.is_forced(score);
        // A win at depth d scores W - d: the mover's moves are at depths 0,
        // 2, 4, … and the opponent's at 1, 3, ….
        match score.signum() {
            1 if decided => Outlook::Win {
                moves: ((win - score) / 2 + 1) as u32,
            },
            -1 if decided => Outlook::Loss {
                moves: ((win + score + 1) / 2) as u32,
            },
            0 if proven => Outlook::Draw,
            _ => Outlook::Estimate,
        }
    }

    /// Who wins with best play when `mover` plays the move, if anyone does.
    ///
    /// ```
    /// use tictactoe_engine::{Outlook, Player};
    ///
    /// assert_eq!(Outlook::Win { moves: 2 }.winner(Player::X), Some(Player::X));
    /// assert_eq!(Outlook::Loss { moves: 1 }.winner(Player::X), Some(Player::O));
    /// assert_eq!(Outlook::Draw.winner(Player::X), None);
    /// ```
    pub fn winner(self, mover: Player) -> Option<Player> {
        match self {
            Outlook::Win { .. } | Outlook::ProvenWin => Some(mover),
            Outlook::Loss { .. } | Outlook::ProvenLoss => Some(mover.other()),
            Outlook::Draw | Outlook::Estimate => None,
        }
    }

    /// How the game ends with best play when `mover` plays the move, where
    /// that is known.
    ///
    /// ```
    /// use tictactoe_engine::{Outcome, Outlook, Player};
    ///
    /// assert_eq!(Outlook::ProvenLoss.outcome(Player::X), Some(Outcome::Win(Player::O)));
    /// assert_eq!(Outlook::Draw.outcome(Player::X), Some(Outcome::Draw));
    /// assert_eq!(Outlook::Estimate.outcome(Player::X), None);
    /// ```
    pub fn outcome(self, mover: Player) -> Option<Outcome> {
        match self {
            Outlook::Draw => Some(Outcome::Draw),
            Outlook::Estimate => None,
            known => known.winner(mover).map(Outcome::Win),
        }
    }

    /// True when the result is known: a win, a loss or a draw, proven.
    pub fn is_known(self) -> bool {
        !matches!(self, Outlook::Estimate)
    }

    /// True when the score's number is not known although the result is:
    /// [`Outlook::ProvenWin`] and [`Outlook::ProvenLoss`].
    pub fn lacks_length(self) -> bool {
        matches!(self, Outlook::ProvenWin | Outlook::ProvenLoss)
    }

    /// The winner's moves until the win, counting from the move scored
    /// (the mover's counting it, the opponent's from its reply); `None` for
    /// a draw or an estimate.
    pub fn moves(self) -> Option<u32> {
        match self {
            Outlook::Win { moves } | Outlook::Loss { moves } => Some(moves),
            Outlook::Draw | Outlook::ProvenWin | Outlook::ProvenLoss | Outlook::Estimate => None,
        }
    }
}

impl fmt::Display for Outlook {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outlook::Win { moves } => write!(f, "win in {moves}"),
            Outlook::Loss { moves } => write!(f, "loss in {moves}"),
            Outlook::Draw => f.write_str("draw"),
            Outlook::ProvenWin => f.write_str("win"),
            Outlook::ProvenLoss => f.write_str("loss"),
            Outlook::Estimate => f.write_str("estimate"),
        }
    }
}

/// Where the scores of an [`Analysis`] came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Read from the table of every 3×3 position that the compiler built:
    /// nothing was searched. [`analyze_by_search`] shows what the search takes.
    Table,
    /// Searched.
    Search {
        /// Positions examined.
        nodes: u64,
        /// Plies searched when a limit applied; `None` when searched to the end.
        depth: Option<u32>,
    },
}

/// Every legal move of a position with its score, and where the scores came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Analysis {
    /// The position analysed.
    pub board: Board,
    /// Every legal move in reading order; empty once the game is over.
    pub moves: Vec<ScoredMove>,
    /// The table or a search, and what the search cost.
    pub method: Method,
    /// Wall time of the lookup or the search.
    pub elapsed: Duration,
    /// What the prover settled about the position, where it was asked: by
    /// an [`Ai`](crate::Ai) on boards bigger than 3×3, and by
    /// [`settle_all`](crate::solve::settle_all) for every move.
    pub settled: Option<Settled>,
}

impl Analysis {
    /// Positions searched: 0 when the scores came from the table.
    pub fn nodes(&self) -> u64 {
        match self.method {
            Method::Table => 0,
            Method::Search { nodes, .. } => nodes,
        }
    }

    /// Plies searched when a depth limit applied; `None` when every score
    /// comes from the table or a search to the end.
    pub fn depth(&self) -> Option<u32> {
        match self.method {
            Method::Table => None,
            Method::Search { depth, .. } => depth,
        }
    }

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

    /// The best move with depth-counted scores ([`Analysis::best_by`] with
    /// [`Scoring::Depth`]): on 3×3, and wherever every score is exact, the
    /// article's choice, the first move in reading order with the highest
    /// score.
    pub fn best(&self) -> Option<ScoredMove> {
        self.best_by(Scoring::Depth)
    }

    /// The set of best moves, in reading order, from everything known about
    /// the position, with scores counted by `scoring`: the quickest proven
    /// win first (its highest score), then a win the prover proved whose
    /// length the search did not find, then a proven draw (or a move the
    /// prover proved does not lose), then the estimates by their scores,
    /// then a loss the prover proved whose length is not known, then the
    /// longest proven loss. With plain or CS50 scores every win ties, and
    /// so does every loss, as those scores count them.
    ///
    /// Every view that names one move names the first of the set
    /// ([`Analysis::best_by`]); the perfect AI chooses among them at random.
    ///
    /// ```
    /// use tictactoe_engine::{Board, Limits, Scoring, analyze};
    ///
    /// // X wins on the move at c3 (+10) or later by b3 (+8? no: b3 draws).
    /// let board: Board = "xox/oox/...".parse().unwrap();
    /// let best: Vec<String> = analyze(&board, Limits::ToTheEnd)
    ///     .best_moves(Scoring::Depth)
    ///     .iter()
    ///     .map(|m| m.mv.to_string())
    ///     .collect();
    /// assert_eq!(best, ["c3"]);
    /// ```
    pub fn best_moves(&self, scoring: Scoring) -> Vec<ScoredMove> {
        let merits: Vec<(u8, i32)> = self
            .moves
            .iter()
            .map(|&scored| self.merit(scored, scoring))
            .collect();
        let Some(top) = merits.iter().max().copied() else {
            return Vec::new();
        };
        self.moves
            .iter()
            .zip(&merits)
            .filter(|(_, merit)| **merit == top)
            .map(|(scored, _)| *scored)
            .collect()
    }

    /// The best move, the one every view names, with the scores counted by
    /// `scoring`: the first in reading order of [`Analysis::best_moves`]
    /// (the articles' rule, as `findBestMove` keeps the first of the best).
    /// The move keeps its score in the convention.
    pub fn best_by(&self, scoring: Scoring) -> Option<ScoredMove> {
        self.best_moves(scoring).first().copied()
    }

    /// How good a move is for its mover, by everything known: a tier
    /// (proven win, proven win of unknown length, proven draw or hold,
    /// estimate, proven loss of unknown length, proven loss), then the
    /// score within it as `scoring` counts it for the mover. Higher is better.
    fn merit(&self, scored: ScoredMove, scoring: Scoring) -> (u8, i32) {
        let win = self.board.geometry().win_score();
        let counted = |score: i32, exact: bool| scoring.of(score, exact, win);
        // Plain and CS50 scores do not count the length of a win or loss.
        let by_length = scoring == Scoring::Depth;
        match self.outlook_of(scored) {
            Outlook::Win { .. } => (6, counted(scored.score, true)),
            Outlook::ProvenWin if by_length => (5, 0),
            Outlook::ProvenWin => (6, counted(win, true)),
            Outlook::Draw => (4, 0),
            Outlook::Estimate if self.holds_with(scored.mv) => (4, 0),
            Outlook::Estimate => (3, counted(scored.score, false)),
            Outlook::ProvenLoss if by_length => (2, 0),
            Outlook::ProvenLoss => (1, counted(-win, true)),
            Outlook::Loss { .. } => (1, counted(scored.score, true)),
        }
    }

    /// True when the prover proved that `mv` does not lose (the move its
    /// proof keeps for a hold), though not what it leads to.
    fn holds_with(&self, mv: Square) -> bool {
        self.settled
            .as_ref()
            .is_some_and(|settled| settled.keep == Some(Keep::Hold(mv)))
    }

    /// The result of the position with best play, where it is proven: by
    /// the prover, by a proven win among its moves, or by every move's
    /// result being known.
    pub fn result(&self) -> Option<Outcome> {
        if let Some(value) = self.settled.as_ref().and_then(|settled| settled.value) {
            return Some(value);
        }
        let mover = self.to_move()?;
        let best = self.outlook_of(self.best()?).outcome(mover)?;
        let every = self
            .moves
            .iter()
            .all(|&scored| self.outlook_of(scored).is_known());
        (best == Outcome::Win(mover) || every).then_some(best)
    }

    /// True when the best move's depth-counted score is exact (not an
    /// estimate, and not a result whose length is unknown).
    pub fn value_exact(&self) -> bool {
        self.best().is_some_and(|best| best.exact)
    }

    /// The best move's score: the value of the position for the side to move.
    pub fn value(&self) -> Option<i32> {
        self.best_by(Scoring::Depth).map(|best| best.score)
    }

    /// True when every score is exact ([`ScoredMove::exact`]).
    pub fn exact(&self) -> bool {
        self.moves.iter().all(|mv| mv.exact)
    }

    /// What the best move means for the side to move.
    pub fn outlook(&self) -> Option<Outlook> {
        self.best_by(Scoring::Depth)
            .map(|best| self.outlook_of(best))
    }

    /// What one move's score means for the side to move, with what the
    /// prover proved about the position after it where the search only
    /// estimated its score ([`Outlook::ProvenWin`], [`Outlook::ProvenLoss`]).
    pub fn outlook_of(&self, scored: ScoredMove) -> Outlook {
        let outlook = Outlook::of(scored.score, scored.exact, self.board.geometry());
        if outlook.is_known() {
            return outlook;
        }
        let mover = self.board.to_move();
        let after = self.proven_after(scored.mv).or_else(|| {
            // What the position's own proof says of this move: a lost
            // position loses after every move; the move a proof keeps
            // keeps its value.
            let settled = self.settled.as_ref()?;
            match (settled.value?, settled.keep) {
                (Outcome::Win(winner), _) if winner != mover => Some(Outcome::Win(winner)),
                (value, Some(keep)) if keep.mv() == scored.mv => Some(value),
                _ => None,
            }
        });
        match after {
            Some(Outcome::Win(winner)) if winner == mover => Outlook::ProvenWin,
            Some(Outcome::Win(_)) => Outlook::ProvenLoss,
            Some(Outcome::Draw) => Outlook::Draw,
            None => Outlook::Estimate,
        }
    }

    /// The value the prover proved for the position after `mv`, where it
    /// proved one ([`Settled::moves`](crate::solve::Settled)).
    pub fn proven_after(&self, mv: Square) -> Option<Outcome> {
        let settled = self.settled.as_ref()?;
        settled
            .moves
            .iter()
            .find(|&&(proven, _)| proven == mv)
            .map(|&(_, value)| value)
    }

    /// Takes what the prover settled about the position: a move it proved a
    /// draw scores 0, proven, whatever the search estimated; a move it
    /// proved won or lost keeps its estimate only as a number
    /// ([`Analysis::outlook_of`] says the result).
    pub fn settle(&mut self, settled: Settled) {
        for scored in &mut self.moves {
            let kept_draw = settled.value == Some(Outcome::Draw)
                && settled.keep.is_some_and(|keep| keep.mv() == scored.mv);
            let drawn = kept_draw
                || settled
                    .moves
                    .iter()
                    .any(|&(mv, value)| mv == scored.mv && value == Outcome::Draw);
            if drawn && !scored.exact {
                scored.score = 0;
                scored.exact = true;
            }
        }
        self.settled = Some(settled);
    }
}

/// Scores every legal move of `board` for the side to move, in the engine's
/// [convention](crate::score).
///
/// On 3×3 every score is proven and read from the table the compiler built
/// ([`Method::Table`]), whatever the limits. Bigger boards are searched: to
/// the end with [`Limits::ToTheEnd`], or deepening one ply at a time until every
/// score is proven or the time is up.
///
/// ```
/// use tictactoe_engine::{Board, Limits, Method, Square, Outlook, analyze};
///
/// // The GeeksforGeeks example, as the article scores it: a win on the
/// // move is +10, a loss on the reply -9.
/// let board: Board = "xox/oox/...".parse().unwrap();
/// let analysis = analyze(&board, Limits::ToTheEnd);
/// let scores: Vec<i32> = analysis.moves.iter().map(|m| m.score).collect();
/// assert_eq!(scores, [-9, 0, 10]);
/// let best = analysis.best().unwrap();
/// assert_eq!(best.mv, Square::new(2, 2));
/// assert_eq!(analysis.outlook_of(best), Outlook::Win { moves: 1 });
/// assert_eq!(analysis.method, Method::Table);
/// ```
pub fn analyze(board: &Board, limits: Limits) -> Analysis {
    let started = Instant::now();
    match solved::scored_moves(board) {
        Some(moves) => Analysis {
            board: *board,
            moves,
            method: Method::Table,
            elapsed: started.elapsed(),
            settled: None,
        },
        None => analyze_by_search(board, limits),
    }
}

/// [`analyze`] by searching, even on 3×3 where the table knows every answer:
/// the same scores, and what the search costs ([`Method::Search`]). For
/// teaching and for cross-checking the table.
///
/// ```
/// use tictactoe_engine::{Board, Limits, analyze, analyze_by_search};
///
/// let board = Board::new();
/// let searched = analyze_by_search(&board, Limits::ToTheEnd);
/// assert_eq!(searched.moves, analyze(&board, Limits::ToTheEnd).moves);
/// assert!(searched.nodes() > 0 && searched.depth().is_none());
/// ```
pub fn analyze_by_search(board: &Board, limits: Limits) -> Analysis {
    analyze_with(&mut searcher_for(board.geometry(), limits), board, limits)
}

/// A searcher for boards of this shape, its table sized for the limits.
pub(crate) fn searcher_for(geometry: &'static Geometry, limits: Limits) -> Searcher {
    match limits {
        // Proving a big board visits tens of millions of positions: give the table room.
        Limits::ToTheEnd if geometry.cells() >= 25 => {
            Searcher::with_table_bits(geometry, SOLVE_TABLE_BITS)
        }
        _ => Searcher::new(geometry),
    }
}

/// Table size for proving boards of 5×5 and up: 4M slots, 96 MiB at most.
const SOLVE_TABLE_BITS: u32 = 22;

/// [`analyze_by_search`] with a caller's searcher, whose table may already know related positions.
pub(crate) fn analyze_with(searcher: &mut Searcher, board: &Board, limits: Limits) -> Analysis {
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
        method: Method::Search {
            nodes: searcher.nodes() - nodes_before,
            depth,
        },
        elapsed: started.elapsed(),
        settled: None,
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
    legal: &[Square],
    started: Instant,
    budget: Duration,
) -> (Vec<ScoredMove>, Option<u32>) {
    let empty = board.empty_cells().len() as u32;
    if empty <= PROOF_ATTEMPT_MAX_EMPTY {
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
    while !moves.iter().all(|mv| mv.exact) && depth < empty {
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
    legal: &[Square],
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
                let (score, proven) = searcher.score_move_draw_first(board, mv, depth);
                if searcher.out_of_time() {
                    break;
                }
                // A win or loss found within a depth limit is a forced line.
                let geometry = board.geometry();
                let proven = proven || geometry.is_forced(score);
                ScoredMove {
                    mv,
                    score,
                    exact: proven,
                }
            }
        };
        scored.push(result);
    }
    scored
}

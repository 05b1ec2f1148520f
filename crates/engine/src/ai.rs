//! Opponents of every strength, all built on the minimax scores.

use std::time::Instant;

use super::analysis::{Analysis, Limits, Method, analyze, analyze_with, searcher_for};
use super::board::Board;
use super::geometry::Geometry;
use super::names::named;
use super::score::{ScoredMove, Scoring};
use super::search::Searcher;
use super::solve::{self, Solver};
use super::square::Square;
use super::teach::line::{Line, lines_of};

named! {
    /// How well an AI plays. Each level is strictly stronger than the one
    /// before. It goes by its name (`random` … `perfect`), which
    /// [`FromStr`](std::str::FromStr) reads:
    ///
    /// ```
    /// use tictactoe_engine::Level;
    ///
    /// assert_eq!("hard".parse(), Ok(Level::Hard));
    /// assert_eq!(Level::Perfect.to_string(), "perfect");
    /// assert_eq!(Level::ALL.len(), Level::NAMES.len());
    /// ```
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub enum Level as "level" {
        /// Any legal move, uniformly at random.
        Random = "random",
        /// Random, except that it takes a win on the move.
        Easy = "easy",
        /// Looks two plies ahead: takes a win, blocks a loss, blind to forks.
        Medium = "medium",
        /// Searches the whole game but now and then (one move in five) plays its
        /// second-best move: never when it can win on the move, and never one that
        /// loses on the spot.
        Hard = "hard",
        /// Always optimal: the fastest win, the slowest loss, a draw otherwise.
        Perfect = "perfect",
    }
}

/// Where an [`Ai`]'s random choices come from: seeded dice replay the same
/// choices, so a game can be played again move for move.
#[derive(Debug, Clone)]
pub struct Dice(fastrand::Rng);

impl Dice {
    /// Dice seeded from the system: different choices every run.
    pub fn new() -> Dice {
        Dice(fastrand::Rng::new())
    }

    /// Dice that make the same choices for the same seed.
    pub fn with_seed(seed: u64) -> Dice {
        Dice(fastrand::Rng::with_seed(seed))
    }
}

impl Default for Dice {
    fn default() -> Dice {
        Dice::new()
    }
}

/// How often, in percent, the hard level settles for its second-best move.
const HARD_SLIP_PERCENT: u32 = 20;

/// A move chosen by an AI, with the analysis it rested on (none for random play).
#[derive(Debug, Clone)]
pub struct Decision {
    /// The move to play.
    pub mv: Square,
    /// The scores the choice was made from.
    pub analysis: Option<Analysis>,
}

impl Decision {
    /// True when what the move leads to is proven: the prover stands behind
    /// it, proved the position after it, or the search scored it exactly.
    /// False where the AI played an estimate: on 8×8 with five in a row,
    /// say, whose book is beyond reach ([`solve::book_within_reach`]), until
    /// the game comes near enough to its end for a proof.
    ///
    /// ```
    /// use tictactoe_engine::{Ai, Board, Dice, Level, Limits};
    ///
    /// let board = Board::empty(4, 4)?;
    /// let decision = Ai::new().choose(&board, Level::Perfect, &mut Dice::with_seed(1), Limits::ToTheEnd);
    /// assert!(decision.expect("a move").proven(), "4x4 is a proven draw");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn proven(&self) -> bool {
        let Some(analysis) = &self.analysis else {
            return false;
        };
        analysis
            .moves
            .iter()
            .find(|scored| scored.mv == self.mv)
            .is_some_and(|&scored| {
                analysis.outlook_of(scored).is_known()
                    || analysis
                        .settled
                        .as_ref()
                        .is_some_and(|settled| settled.keep == Some(solve::Keep::Hold(self.mv)))
            })
    }
}

/// An AI player for a whole game or session.
///
/// On 3×3 every score comes from the table the compiler built. On bigger
/// boards it keeps its search table from move to move, so what one move
/// proved the next one need not prove again.
#[derive(Default)]
pub struct Ai {
    searcher: Option<Searcher>,
    /// The prover, on boards bigger than 3×3: it keeps what it proved from
    /// move to move, like the searcher.
    solver: Option<Solver>,
    /// The bounds of its prover.
    bounds: solve::Bounds,
}

impl Ai {
    /// An AI with nothing searched yet.
    pub fn new() -> Ai {
        Ai::default()
    }

    /// Every legal move's score, as [`analyze`] gives them. On boards bigger
    /// than 3×3 the analysis also says what the prover settled
    /// ([`Analysis::settled`]): the book of the shape if it is ready
    /// ([`solve::book`], proven once per process) and this AI's prover,
    /// which may take half of a [`Limits::Think`] budget; the search scores
    /// the moves in the rest.
    pub fn analyze(&mut self, board: &Board, limits: Limits) -> Analysis {
        if board.is_classic() {
            return analyze(board, limits);
        }
        let started = Instant::now();
        let (deadline, left) = match limits {
            Limits::Think(budget) => (Some(started + budget / 2), None),
            Limits::ToTheEnd => (None, Some(Limits::ToTheEnd)),
        };
        // The book if it is ready: the AI's own moves wait for it (see `choose`).
        let book = solve::book_ready(board.geometry());
        let settled = solve::settle(self.solver(board.geometry()), book, board, deadline);
        let left = left.unwrap_or_else(|| match limits {
            Limits::Think(budget) => Limits::Think(budget.saturating_sub(started.elapsed())),
            Limits::ToTheEnd => Limits::ToTheEnd,
        });
        let mut analysis = analyze_with(self.searcher(board.geometry(), left), board, left);
        analysis.settle(settled);
        analysis.elapsed = started.elapsed();
        analysis
    }

    /// What the prover settles about `board`, however long that takes, with
    /// this AI's prover: the value and a move that keeps it, what `best
    /// --solve` needs. Nothing on 3×3, where the table knows every score.
    pub fn settle(&mut self, board: &Board) -> solve::Settled {
        if board.is_classic() {
            return solve::Settled::default();
        }
        let book = solve::book_ready(board.geometry());
        solve::settle(self.solver(board.geometry()), book, board, None)
    }

    /// What the prover settles about `board` and the value after each of
    /// its moves ([`solve::settle_all`]), within this AI's bounds: what
    /// `analyze --solve` shows. `None` on 3×3, where the table knows every
    /// score. It starts from a fresh prover, so that what each move's share
    /// proves does not depend on how long earlier questions had to think.
    pub fn settle_all(&mut self, board: &Board) -> Option<solve::Settled> {
        self.solver = None;
        let book = solve::book_ready(board.geometry());
        (!board.is_classic()).then(|| solve::settle_all(self.solver(board.geometry()), book, board))
    }

    /// Bounds this AI's prover (see [`solve::Bounds`]): what it cannot
    /// settle within them it leaves unsettled, and [`Ai::stopped`] says why.
    pub fn set_bounds(&mut self, bounds: solve::Bounds) {
        if let Some(solver) = &mut self.solver {
            solver.set_bounds(bounds.clone());
        }
        self.bounds = bounds;
    }

    /// Why this AI's prover left a question without an answer since its
    /// bounds were set, if it did.
    pub fn stopped(&self) -> Option<solve::Stop> {
        self.solver.as_ref().and_then(Solver::stopped)
    }

    /// This AI's prover for boards of `geometry`: kept while the shape stays.
    fn solver(&mut self, geometry: &'static Geometry) -> &mut Solver {
        if !self
            .solver
            .as_ref()
            .is_some_and(|solver| std::ptr::eq(solver.geometry(), geometry))
        {
            self.solver = None;
        }
        let bounds = self.bounds.clone();
        self.solver.get_or_insert_with(|| {
            let mut solver = Solver::new(geometry);
            solver.set_bounds(bounds);
            solver
        })
    }

    /// The line behind every move's score of `analysis`, in its order: the
    /// moves that follow with best play from both sides, which the score
    /// counts (a win at depth `d` scores `W - d`, the move being depth 1).
    ///
    /// On 3×3 every line comes from the compiled table and runs to the end
    /// of the game. On bigger boards, pass an analysis this AI made: a proven
    /// score's line is searched to the end, helped by what the analysis left
    /// in this AI's table, for at most half as long as the analysis took;
    /// an estimate's line, or one not finished in that time, goes as far as
    /// the search looked ([`Line::proven`] says which).
    ///
    /// ```
    /// use tictactoe_engine::{Ai, Board, Limits, Square};
    ///
    /// let board: Board = "x../.o./...".parse().unwrap();
    /// let mut ai = Ai::new();
    /// let analysis = ai.analyze(&board, Limits::ToTheEnd);
    /// let lines = ai.lines(&analysis);
    /// let best = analysis.best().unwrap();
    /// let line = &lines[analysis.moves.iter().position(|m| m.mv == best.mv).unwrap()];
    /// assert!(line.proven);
    /// let squares: Vec<String> = line.moves.iter().map(Square::to_string).collect();
    /// assert_eq!((best.mv.to_string(), squares.join(" ")), ("b1".into(), "c1 a3 a2 c2 b3 c3".into()));
    /// ```
    pub fn lines(&mut self, analysis: &Analysis) -> Vec<Line> {
        let searcher = self.searcher(analysis.board.geometry(), Limits::ToTheEnd);
        lines_of(analysis, searcher)
    }

    /// This AI's searcher for boards of `geometry`: kept while the shape stays.
    fn searcher(&mut self, geometry: &'static Geometry, limits: Limits) -> &mut Searcher {
        if !self
            .searcher
            .as_ref()
            .is_some_and(|searcher| std::ptr::eq(searcher.geometry(), geometry))
        {
            self.searcher = None;
        }
        self.searcher
            .get_or_insert_with(|| searcher_for(geometry, limits))
    }

    /// Chooses a move for the side to move at `level`; `None` once the game is over.
    /// Every random choice comes from `dice`, so seeded dice replay a game exactly.
    /// `limits` bounds the search on boards bigger than 3×3.
    ///
    /// ```
    /// use tictactoe_engine::{Ai, Board, Dice, Level, Limits, Method};
    ///
    /// let board: Board = "xx./oo./...".parse().unwrap();
    /// let mut ai = Ai::new();
    /// let mut dice = Dice::with_seed(7);
    /// let decision = ai.choose(&board, Level::Perfect, &mut dice, Limits::ToTheEnd).unwrap();
    /// assert_eq!(decision.mv.to_string(), "c1", "X completes the top row");
    /// let analysis = decision.analysis.expect("perfect play reads every score");
    /// assert_eq!(analysis.method, Method::Table);
    /// ```
    pub fn choose(
        &mut self,
        board: &Board,
        level: Level,
        dice: &mut Dice,
        limits: Limits,
    ) -> Option<Decision> {
        let rng = &mut dice.0;
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
                let wins: Vec<Square> = legal
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
                let analysis = two_ply_analysis(board);
                Decision {
                    mv: pick_among_best(&analysis, rng),
                    analysis: Some(analysis),
                }
            }
            Level::Hard => {
                let analysis = self.analyze(board, limits);
                // A slip, never a blunder: a win on the move is always taken.
                let wins_now = top_score(&analysis) == Some(win_on_move(board));
                let mv = if !wins_now && rng.u32(..100) < HARD_SLIP_PERCENT {
                    pick_second_best(&analysis, rng)
                        .unwrap_or_else(|| pick_among_best(&analysis, rng))
                } else {
                    pick_among_best(&analysis, rng)
                };
                Decision {
                    mv,
                    analysis: Some(analysis),
                }
            }
            Level::Perfect => {
                // The book of the shape, proven once per process (front ends
                // warm it up when a game starts), which the analysis then
                // plays; where it is beyond reach (8x8 with five in a row)
                // this returns at once, and the analysis searches.
                if !board.is_classic() {
                    solve::book(board.geometry());
                }
                let analysis = self.analyze(board, limits);
                // Every view's best moves; exact ties at random.
                let best = analysis.best_moves(Scoring::Depth);
                Decision {
                    mv: best[rng.usize(..best.len())].mv,
                    analysis: Some(analysis),
                }
            }
        };
        Some(decision)
    }
}

/// The score of a win on the move: `W`.
fn win_on_move(board: &Board) -> i32 {
    Scoring::Depth.end(Some(true), 0, board.geometry().win_score())
}

/// The score of a move the opponent wins against at once: `-(W - 1)`.
fn loss_on_reply(board: &Board) -> i32 {
    Scoring::Depth.end(Some(false), 1, board.geometry().win_score())
}

/// Minimax two plies deep, with everything beyond counted as 0: a move that
/// wins scores `W`, one that lets the opponent win at once `-(W - 1)`,
/// any other 0. Sees the next move and the reply, nothing further.
fn two_ply_analysis(board: &Board) -> Analysis {
    let started = std::time::Instant::now();
    let opponent = board.to_move().other();
    let mut nodes = 0;
    let moves = board
        .legal_moves()
        .into_iter()
        .filter_map(|mv| {
            let after = board.play(mv).ok()?;
            nodes += 1;
            let score = if after.winner().is_some() {
                win_on_move(board)
            } else if !after.threats(opponent).is_empty() {
                loss_on_reply(board)
            } else {
                0
            };
            Some(ScoredMove {
                mv,
                score,
                exact: after.winner().is_some() || score != 0,
            })
        })
        .collect();
    Analysis {
        board: *board,
        moves,
        method: Method::Search {
            nodes,
            depth: Some(2),
        },
        elapsed: started.elapsed(),
        settled: None,
    }
}

/// The highest score among the moves (the AI's levels choose by the
/// scores, the prover's moves aside).
fn top_score(analysis: &Analysis) -> Option<i32> {
    analysis.moves.iter().map(|m| m.score).max()
}

/// A uniformly random move among those with the top score (as the levels
/// below perfect see them: by the scores alone).
fn pick_among_best(analysis: &Analysis, rng: &mut fastrand::Rng) -> Square {
    pick_scoring(analysis, top_score(analysis).unwrap_or(0), rng)
}

/// A random move among those with the highest score below the top, if that
/// score does not hand the opponent a win on the spot (a slip, not a blunder).
fn pick_second_best(analysis: &Analysis, rng: &mut fastrand::Rng) -> Option<Square> {
    let top = top_score(analysis)?;
    let loses_at_once = loss_on_reply(&analysis.board);
    let second = analysis
        .moves
        .iter()
        .map(|m| m.score)
        .filter(|&s| s < top && s > loses_at_once)
        .max()?;
    Some(pick_scoring(analysis, second, rng))
}

/// A uniformly random move among those scoring exactly `score` (one must).
fn pick_scoring(analysis: &Analysis, score: i32, rng: &mut fastrand::Rng) -> Square {
    let moves: Vec<Square> = analysis
        .moves
        .iter()
        .filter(|m| m.score == score)
        .map(|m| m.mv)
        .collect();
    moves[rng.usize(..moves.len())]
}

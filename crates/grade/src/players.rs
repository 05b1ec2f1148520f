//! Reference players: minimax programs written the way students write
//! them, each run by the grader on every position it asks, so that a
//! student's answers can be matched against them.
//!
//! A [`Model`] is GeeksforGeeks' printed code (`evaluate`, `isMovesLeft`,
//! `minimax(board, depth, isMax)`, `findBestMove`) run literally on a
//! mutable board, `player` and `opponent` and all, with some of its lines
//! changed: each change a [`Slip`]. The same program is freeCodeCamp's
//! (`winning`, `emptyIndexies`, `minimax(newBoard, player)` with
//! `aiPlayer` and `huPlayer`) and, counting ±1 for X, CS50's: their
//! algorithms are the same tree walked in the same order. Two mistakes of
//! another shape, scoring every position for X and scoring each move for
//! the opponent, are the engine's ([`tictactoe_engine::teach::mistake`]).
//!
//! GeeksforGeeks' code as printed is the model with `player` fixed at X
//! and scores without the depth ([`Model::printed`]); freeCodeCamp's as
//! printed is the same program (`aiPlayer = "X"`, bare ±10).

use std::collections::HashMap;

use tictactoe_engine::teach::mistake::{Mistake, move_values as mistaken_values};
use tictactoe_engine::{Board, Player, Scoring, Square};

/// One line of the article's program changed, as students change it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Slip {
    /// `player` fixed at X whoever is to move (GeeksforGeeks' `char player
    /// = 'x'`, freeCodeCamp's `aiPlayer = "X"`).
    PlayerAlwaysX,
    /// `player` fixed at O: the program always plays for O.
    PlayerAlwaysO,
    /// Wins and losses scored without the depth (the bare ±10 of the
    /// articles' code), or with a depth that never grows (`depth` passed
    /// on where the article passes `depth + 1`).
    NoDepth,
    /// The depth counted where it is not asked for (`--scores plain`).
    Depth,
    /// `findBestMove` starts the board after a move at depth 1.
    Deeper,
    /// `findBestMove` starts it at depth -1.
    Shallower,
    /// `evaluate` checks the rows only.
    RowsOnly,
    /// `evaluate` leaves out the columns.
    NoColumns,
    /// `evaluate` leaves out both diagonals.
    NoDiagonals,
    /// `evaluate` leaves out the anti-diagonal (c1, b2, a3).
    NoAntiDiagonal,
    /// `evaluate` scores for X whoever `player` is (`'x'` and `'o'` where
    /// the article compares with `player` and `opponent`): with O to move
    /// the top keeps X's best and every level below picks its own worst.
    /// CS50's minimax for X only (the action whose minvalue is highest,
    /// whoever is to move) is the same program.
    EvaluateForX,
    /// `isMovesLeft` answers the opposite (`return false` and `return true`
    /// swapped).
    MovesLeftInverted,
    /// `isMovesLeft` asked before `evaluate`: a full board with a line on
    /// it is a draw.
    FullBoardFirst,
    /// `findBestMove`'s `bestVal` starts at 0, not -1000: when no move
    /// scores above 0 it keeps none and answers `-1 -1`.
    BestValZero,
    /// `minimax`'s `best` starts at 0, not -1000 and 1000.
    BestZero,
    /// The board not restored after the recursive call in `minimax` (the
    /// undo line, `board[i][j] = '_'`, missing).
    NoUndo,
    /// The board not restored in `findBestMove`.
    RootNoUndo,
    /// The board not restored in `minimax`'s maximizer's branch only.
    MaxNoUndo,
    /// The board not restored in `minimax`'s minimizer's branch only.
    MinNoUndo,
    /// `findBestMove` calls `minimax(board, 0, true)`: after its move the
    /// same side moves again.
    RootIsMax,
    /// Of equally good moves the last kept (`>=` for `>`).
    KeepsLast,
    /// Of equally good moves the first kept where the last is asked for.
    KeepsFirst,
    /// The squares tried column by column.
    ColumnOrder,
    /// The board read column by column (`board[j][i]`): the program
    /// searches the board with every square's row and column swapped.
    Transposed,
    /// The move printed column first (`print(bestMove[1], bestMove[0])`):
    /// the search right, the answer's row and column swapped (its scores
    /// named right). Of equal moves it keeps another than the board read
    /// column by column, so `--ties first` tells the two apart.
    PrintedSwapped,
    /// Alpha-beta whose `findBestMove` passes its best so far down as
    /// alpha: every move after the first scored by a bound (fail-soft, as
    /// GeeksforGeeks' alpha-beta article writes it).
    AlphaBetaBound,
    /// The same, failing hard: a bound returned as alpha or beta itself.
    AlphaBetaClamp,
    /// Every position scored for X, and the highest score kept for O too:
    /// O's worst move (the engine's `XAlwaysMax`).
    XAlwaysMax,
    /// Every move scored for the opponent, who replies (the engine's
    /// `WrongSide`): the worst move kept.
    WrongSide,
}

impl Slip {
    /// Every slip, in the order they are tried and named.
    pub const ALL: [Slip; 29] = [
        Slip::PlayerAlwaysX,
        Slip::PlayerAlwaysO,
        Slip::NoDepth,
        Slip::Depth,
        Slip::Deeper,
        Slip::Shallower,
        Slip::RowsOnly,
        Slip::NoColumns,
        Slip::NoDiagonals,
        Slip::NoAntiDiagonal,
        Slip::EvaluateForX,
        Slip::MovesLeftInverted,
        Slip::FullBoardFirst,
        Slip::BestValZero,
        Slip::BestZero,
        Slip::NoUndo,
        Slip::RootNoUndo,
        Slip::MaxNoUndo,
        Slip::MinNoUndo,
        Slip::RootIsMax,
        Slip::KeepsLast,
        Slip::KeepsFirst,
        Slip::ColumnOrder,
        Slip::Transposed,
        Slip::PrintedSwapped,
        Slip::AlphaBetaBound,
        Slip::AlphaBetaClamp,
        Slip::XAlwaysMax,
        Slip::WrongSide,
    ];

    /// Its name, for tests, JSON and CSV.
    pub const fn name(self) -> &'static str {
        match self {
            Slip::PlayerAlwaysX => "player-always-x",
            Slip::PlayerAlwaysO => "player-always-o",
            Slip::NoDepth => "no-depth",
            Slip::Depth => "scores-depth",
            Slip::Deeper | Slip::Shallower => "depth-one-off",
            Slip::RowsOnly => "rows-only",
            Slip::NoColumns => "no-columns",
            Slip::NoDiagonals => "no-diagonals",
            Slip::NoAntiDiagonal => "no-anti-diagonal",
            Slip::EvaluateForX => "evaluate-for-x",
            Slip::MovesLeftInverted => "moves-left-inverted",
            Slip::FullBoardFirst => "full-board-first",
            Slip::BestValZero => "best-val-zero",
            Slip::BestZero => "best-zero",
            Slip::NoUndo => "board-not-restored",
            Slip::RootNoUndo => "root-board-not-restored",
            Slip::MaxNoUndo => "max-board-not-restored",
            Slip::MinNoUndo => "min-board-not-restored",
            Slip::RootIsMax => "root-is-max",
            Slip::KeepsLast => "keeps-last",
            Slip::KeepsFirst => "keeps-first",
            Slip::ColumnOrder => "column-order",
            Slip::Transposed | Slip::PrintedSwapped => "row-column-swapped",
            Slip::AlphaBetaBound => "alpha-beta-bound",
            Slip::AlphaBetaClamp => "alpha-beta-bound-hard",
            Slip::XAlwaysMax => "x-always-max",
            Slip::WrongSide => "wrong-side",
        }
    }

    /// True for the slips seen only in every move's score, not in the move
    /// chosen.
    pub const fn scores_only(self) -> bool {
        matches!(
            self,
            Slip::Deeper | Slip::Shallower | Slip::AlphaBetaBound | Slip::AlphaBetaClamp
        )
    }

    /// True for the slips about which of equal moves is kept.
    pub const fn ties_only(self) -> bool {
        matches!(self, Slip::KeepsLast | Slip::KeepsFirst | Slip::ColumnOrder)
    }

    /// True for the engine's mistakes of another shape, which combine with
    /// nothing but the way of counting.
    const fn other_shape(self) -> bool {
        matches!(self, Slip::XAlwaysMax | Slip::WrongSide)
    }

    /// Slips that cannot be made together.
    fn excludes(self, other: Slip) -> bool {
        use Slip::*;
        let pair = |a: Slip, b: Slip| (self == a && other == b) || (self == b && other == a);
        let group = |members: &[Slip]| members.contains(&self) && members.contains(&other);
        self == other
            || group(&[PlayerAlwaysX, PlayerAlwaysO])
            || group(&[NoDepth, Depth])
            || group(&[Deeper, Shallower])
            || group(&[RowsOnly, NoColumns, NoDiagonals, NoAntiDiagonal])
            || group(&[KeepsLast, KeepsFirst])
            || group(&[AlphaBetaBound, AlphaBetaClamp])
            || group(&[BestZero, AlphaBetaBound, AlphaBetaClamp])
            || group(&[NoUndo, MaxNoUndo, MinNoUndo, AlphaBetaBound, AlphaBetaClamp])
            || group(&[PlayerAlwaysX, EvaluateForX])
            || group(&[Transposed, PrintedSwapped])
            || pair(MovesLeftInverted, FullBoardFirst)
            || (self.other_shape() && !matches!(other, NoDepth | Depth))
            || (other.other_shape() && !matches!(self, NoDepth | Depth))
    }
}

/// Which of equally good moves the grader asks for, as the model keeps it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Keep {
    /// The first in the loop's order (`>`).
    First,
    /// The last (`>=`).
    Last,
}

/// A reference player: the article's program with some slips.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Model {
    /// The slips, in [`Slip::ALL`]'s order.
    pub slips: Vec<Slip>,
    /// How the correct program counts (the grader's `--scores`).
    pub scoring: Scoring,
    /// Which of equal moves the correct program keeps.
    pub keep: Keep,
}

/// What a model answers about one position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Played {
    /// Each move it scored, in the order it scored them, with its score.
    pub scores: Vec<(Square, i32)>,
    /// The move it answers, or `None` for `-1 -1` (none kept).
    pub chosen: Option<Square>,
    /// True when it answers the move it found with the row and the column
    /// swapped ([`Slip::PrintedSwapped`]): `chosen` is swapped, `scores`
    /// are not.
    pub swapped: bool,
}

impl Played {
    /// The moves with the highest score it gave (any of them is its answer
    /// when the grader accepts any of equal moves), or `None` alone when it
    /// answers no move.
    pub fn top(&self) -> Vec<Option<Square>> {
        let Some(chosen) = self.chosen else {
            return vec![None];
        };
        // Swapping twice is no swap: the move found, then as answered.
        let answered = |square: Square| {
            if self.swapped {
                Square::new(square.col, square.row)
            } else {
                square
            }
        };
        let found = answered(chosen);
        let best = self
            .scores
            .iter()
            .find(|(square, _)| *square == found)
            .map(|&(_, score)| score);
        self.scores
            .iter()
            .filter(|&&(_, score)| Some(score) == best)
            .map(|&(square, _)| Some(answered(square)))
            .collect()
    }
}

impl Model {
    /// The correct program for the grader's way of counting and ties.
    pub fn right(scoring: Scoring, keep: Keep) -> Model {
        Model {
            slips: Vec::new(),
            scoring,
            keep,
        }
    }

    /// The model with `slips` as well.
    pub fn with(&self, slips: &[Slip]) -> Model {
        let mut model = self.clone();
        model.slips.extend_from_slice(slips);
        model.slips.sort();
        model.slips.dedup();
        model
    }

    /// Its slips by name, joined with `+`: `player-always-x+no-depth`.
    pub fn name(&self) -> String {
        let names: Vec<&str> = self.slips.iter().map(|slip| slip.name()).collect();
        names.join("+")
    }

    /// True when it has `slip`.
    pub fn has(&self, slip: Slip) -> bool {
        self.slips.contains(&slip)
    }

    /// The articles' code as printed, for a grader counting by `scoring`:
    /// `player` fixed at X, and no depth (the slip only where the depth is
    /// asked for).
    pub fn printed(scoring: Scoring, keep: Keep) -> Model {
        let right = Model::right(scoring, keep);
        match scoring {
            Scoring::Depth => right.with(&[Slip::PlayerAlwaysX, Slip::NoDepth]),
            _ => right.with(&[Slip::PlayerAlwaysX]),
        }
    }

    /// True when this is [`Model::printed`].
    pub fn is_printed(&self) -> bool {
        *self == Model::printed(self.scoring, self.keep)
    }

    /// The way it counts scores.
    fn counting(&self) -> Scoring {
        if self.has(Slip::NoDepth) {
            Scoring::Plain
        } else if self.has(Slip::Depth) {
            Scoring::Depth
        } else {
            self.scoring
        }
    }

    /// What it answers about `board` (an unfinished 3×3 position).
    pub fn play(&self, board: &Board, memo: &mut Memo) -> Played {
        if self.has(Slip::XAlwaysMax) || self.has(Slip::WrongSide) {
            let mistake = if self.has(Slip::XAlwaysMax) {
                Mistake::XAlwaysMax
            } else {
                Mistake::WrongSide
            };
            let scores = mistaken_values(board, self.counting(), mistake);
            let chosen = self.keep(&scores);
            return Played {
                scores,
                chosen,
                swapped: false,
            };
        }
        Program::new(self, board).find_best_move(memo)
    }

    /// The move kept of `scores` by `>` or `>=`, starting from -1000.
    fn keep(&self, scores: &[(Square, i32)]) -> Option<Square> {
        let last = self.keeps_last();
        let mut best: Option<(Square, i32)> = None;
        for &(square, score) in scores {
            if best.is_none_or(|(_, value)| score > value || (last && score == value)) {
                best = Some((square, score));
            }
        }
        best.map(|(square, _)| square)
    }

    fn keeps_last(&self) -> bool {
        match self.keep {
            Keep::First => self.has(Slip::KeepsLast),
            Keep::Last => !self.has(Slip::KeepsFirst),
        }
    }
}

/// Values a model has found, by position: the same program meets the same
/// positions again under other roots.
pub type Memo = HashMap<(u32, u32, bool, i32, u8), i32>;

const EMPTY: u8 = b'_';

/// GeeksforGeeks' program on a mutable board, as a student's would run.
struct Program<'a> {
    model: &'a Model,
    board: [u8; 9],
    player: u8,
    opponent: u8,
    counting: Scoring,
    /// The squares in the order the loops try them.
    order: [usize; 9],
    /// Results can be remembered: the board is always restored.
    pure: bool,
}

impl<'a> Program<'a> {
    fn new(model: &'a Model, board: &Board) -> Program<'a> {
        let mut cells = [EMPTY; 9];
        let transposed = model.has(Slip::Transposed);
        for (index, cell) in cells.iter_mut().enumerate() {
            // Read column by column, the program's square (r, c) is the
            // board's (c, r); its answers name its own squares.
            let read = if transposed {
                Square::new((index % 3) as u8, (index / 3) as u8)
            } else {
                Square::from_index(index, 3)
            };
            *cell = match board.get(read) {
                Some(Player::X) => b'x',
                Some(Player::O) => b'o',
                None => EMPTY,
            };
        }
        let side = if model.has(Slip::PlayerAlwaysX) {
            Player::X
        } else if model.has(Slip::PlayerAlwaysO) {
            Player::O
        } else {
            board.to_move()
        };
        let (player, opponent) = match side {
            Player::X => (b'x', b'o'),
            Player::O => (b'o', b'x'),
        };
        let mut order = [0, 1, 2, 3, 4, 5, 6, 7, 8];
        if model.has(Slip::ColumnOrder) {
            order = [0, 3, 6, 1, 4, 7, 2, 5, 8];
        }
        let pure = ![
            Slip::NoUndo,
            Slip::RootNoUndo,
            Slip::MaxNoUndo,
            Slip::MinNoUndo,
        ]
        .iter()
        .any(|&slip| model.has(slip));
        Program {
            model,
            board: cells,
            player,
            opponent,
            counting: model.counting(),
            order,
            pure,
        }
    }

    /// `evaluate`: +10 for a line of `player`, -10 for one of `opponent`.
    fn evaluate(&self) -> i32 {
        const ROWS: [[usize; 3]; 3] = [[0, 1, 2], [3, 4, 5], [6, 7, 8]];
        const COLUMNS: [[usize; 3]; 3] = [[0, 3, 6], [1, 4, 7], [2, 5, 8]];
        const DIAGONAL: [usize; 3] = [0, 4, 8];
        const ANTI_DIAGONAL: [usize; 3] = [2, 4, 6];
        let model = self.model;
        let columns = !model.has(Slip::RowsOnly) && !model.has(Slip::NoColumns);
        let diagonal = !model.has(Slip::RowsOnly) && !model.has(Slip::NoDiagonals);
        let anti = diagonal && !model.has(Slip::NoAntiDiagonal);
        let lines = ROWS
            .iter()
            .chain(COLUMNS.iter().filter(|_| columns))
            .chain(std::iter::once(&DIAGONAL).filter(|_| diagonal))
            .chain(std::iter::once(&ANTI_DIAGONAL).filter(|_| anti));
        let (mine, theirs) = if model.has(Slip::EvaluateForX) {
            (b'x', b'o')
        } else {
            (self.player, self.opponent)
        };
        let b = &self.board;
        for &[first, middle, last] in lines {
            if b[first] == b[middle] && b[middle] == b[last] {
                if b[first] == mine {
                    return 10;
                } else if b[first] == theirs {
                    return -10;
                }
            }
        }
        0
    }

    fn is_moves_left(&self) -> bool {
        let left = self.board.contains(&EMPTY);
        left != self.model.has(Slip::MovesLeftInverted)
    }

    /// The score of a finished position, or `None` while it goes on.
    fn finished(&self, depth: i32) -> Option<i32> {
        if self.model.has(Slip::FullBoardFirst) && !self.is_moves_left() {
            return Some(0);
        }
        let score = self.evaluate();
        let with_depth = self.counting == Scoring::Depth;
        if score == 10 {
            return Some(if with_depth { score - depth } else { score });
        }
        if score == -10 {
            return Some(if with_depth { score + depth } else { score });
        }
        if !self.is_moves_left() {
            return Some(0);
        }
        None
    }

    fn key(&self, depth: i32, is_max: bool) -> (u32, u32, bool, i32, u8) {
        let mut x = 0u32;
        let mut o = 0u32;
        for (index, &cell) in self.board.iter().enumerate() {
            if cell == b'x' {
                x |= 1 << index;
            } else if cell == b'o' {
                o |= 1 << index;
            }
        }
        let depth = if self.counting == Scoring::Depth {
            depth
        } else {
            0
        };
        (x, o, is_max, depth, self.player)
    }

    /// `minimax(board, depth, isMax)`.
    fn minimax(&mut self, depth: i32, is_max: bool, memo: &mut Memo) -> i32 {
        if let Some(score) = self.finished(depth) {
            return score;
        }
        let key = self.pure.then(|| self.key(depth, is_max));
        if let Some(key) = key
            && let Some(&value) = memo.get(&key)
        {
            return value;
        }
        let zero = self.model.has(Slip::BestZero);
        let mut best = match (zero, is_max) {
            (true, _) => 0,
            (false, true) => -1000,
            (false, false) => 1000,
        };
        for index in self.order {
            if self.board[index] != EMPTY {
                continue;
            }
            self.board[index] = if is_max { self.player } else { self.opponent };
            let value = self.minimax(depth + 1, !is_max, memo);
            best = if is_max {
                best.max(value)
            } else {
                best.min(value)
            };
            let undone = if is_max {
                Slip::MaxNoUndo
            } else {
                Slip::MinNoUndo
            };
            if !self.model.has(Slip::NoUndo) && !self.model.has(undone) {
                self.board[index] = EMPTY;
            }
        }
        if let Some(key) = key {
            memo.insert(key, best);
        }
        best
    }

    /// GeeksforGeeks' alpha-beta article's minimax, fail-soft, or failing
    /// hard (a bound returned as alpha or beta itself).
    fn alpha_beta(&mut self, depth: i32, is_max: bool, mut alpha: i32, mut beta: i32) -> i32 {
        if let Some(score) = self.finished(depth) {
            return score;
        }
        let hard = self.model.has(Slip::AlphaBetaClamp);
        let mut best = if is_max { -1000 } else { 1000 };
        for index in self.order {
            if self.board[index] != EMPTY {
                continue;
            }
            self.board[index] = if is_max { self.player } else { self.opponent };
            let value = self.alpha_beta(depth + 1, !is_max, alpha, beta);
            self.board[index] = EMPTY;
            if is_max {
                best = best.max(value);
                alpha = alpha.max(best);
            } else {
                best = best.min(value);
                beta = beta.min(best);
            }
            if beta <= alpha {
                break;
            }
        }
        if hard {
            if is_max { alpha } else { beta }
        } else {
            best
        }
    }

    /// `findBestMove`.
    fn find_best_move(&mut self, memo: &mut Memo) -> Played {
        let model = self.model;
        let depth = if model.has(Slip::Deeper) {
            1
        } else if model.has(Slip::Shallower) {
            -1
        } else {
            0
        };
        let is_max = model.has(Slip::RootIsMax);
        let pruning = model.has(Slip::AlphaBetaBound) || model.has(Slip::AlphaBetaClamp);
        let last = model.keeps_last();
        let mut best_val = if model.has(Slip::BestValZero) {
            0
        } else {
            -1000
        };
        let mut chosen = None;
        let mut scores = Vec::new();
        let mut alpha = -1000;
        for index in self.order {
            if self.board[index] != EMPTY {
                continue;
            }
            self.board[index] = self.player;
            let value = if pruning {
                self.alpha_beta(depth, is_max, alpha, 1000)
            } else {
                self.minimax(depth, is_max, memo)
            };
            if !model.has(Slip::RootNoUndo) {
                self.board[index] = EMPTY;
            }
            let square = Square::from_index(index, 3);
            scores.push((square, value));
            alpha = alpha.max(value);
            if value > best_val || (last && value == best_val) {
                best_val = value;
                chosen = Some(square);
            }
        }
        // Scores in reading order, as the grader lists them.
        scores.sort_by_key(|(square, _)| square.index(3));
        let swapped = model.has(Slip::PrintedSwapped);
        if swapped {
            chosen = chosen.map(|square| Square::new(square.col, square.row));
        }
        Played {
            scores,
            chosen,
            swapped,
        }
    }
}

/// The models tried for a grader counting by `scoring` and keeping `keep`
/// of equal moves: every slip alone, then every pair that can be made
/// together, the printed code first among the pairs. `scores` says whether
/// every move's score is asked (the slips seen only in scores are tried
/// then only); ties slips only when one of equal moves is asked for.
pub fn catalogue(scoring: Scoring, keep: Option<Keep>, scores: bool) -> Vec<Model> {
    let right = Model::right(scoring, keep.unwrap_or(Keep::First));
    let useful = |slip: Slip| {
        let counting_differs = match slip {
            Slip::NoDepth => scoring == Scoring::Depth,
            Slip::Depth => scoring == Scoring::Plain,
            _ => true,
        };
        let ties = match slip {
            Slip::KeepsLast => keep == Some(Keep::First),
            Slip::KeepsFirst => keep == Some(Keep::Last),
            Slip::ColumnOrder => keep.is_some(),
            _ => true,
        };
        // CS50 counts ±1 for X: only moves are compared there.
        let cs50 = scoring != Scoring::Cs50 || !scores || slip.other_shape();
        counting_differs && ties && cs50 && (scores || !slip.scores_only())
    };
    let singles: Vec<Slip> = Slip::ALL.into_iter().filter(|&slip| useful(slip)).collect();
    let mut models: Vec<Model> = singles.iter().map(|&slip| right.with(&[slip])).collect();
    let printed = Model::printed(scoring, keep.unwrap_or(Keep::First));
    if printed.slips.len() == 2 && !models.contains(&printed) {
        models.push(printed);
    }
    for (at, &first) in singles.iter().enumerate() {
        for &second in &singles[at + 1..] {
            if first.excludes(second) {
                continue;
            }
            let model = right.with(&[first, second]);
            if !models.contains(&model) {
                models.push(model);
            }
        }
    }
    models
}

#[cfg(test)]
mod tests {
    use super::*;
    use tictactoe_engine::teach::reference::{Algorithm, move_values};

    fn board(text: &str) -> Board {
        text.parse().unwrap()
    }

    fn play(model: &Model, text: &str) -> Played {
        model.play(&board(text), &mut Memo::new())
    }

    #[test]
    fn the_right_model_is_the_engines_reference_everywhere() {
        for scoring in [Scoring::Depth, Scoring::Plain] {
            let model = Model::right(scoring, Keep::First);
            let mut memo = Memo::new();
            for board in crate::all_positions().into_iter().step_by(7) {
                let played = model.play(&board, &mut memo);
                let right = move_values(&board, Algorithm::Minimax, scoring).moves;
                assert_eq!(played.scores, right, "{board}");
            }
        }
    }

    #[test]
    fn the_articles_boards_as_the_articles_print_them() {
        // GeeksforGeeks: x o x / o o x / _ _ _, the best move row 2 col 2,
        // value 10 (as printed, no depth): -10, 0, +10 for a3, b3, c3.
        let printed = Model::printed(Scoring::Depth, Keep::First);
        let played = play(&printed, "xox/oox/...");
        assert_eq!(
            played.scores,
            [
                (Square::new(2, 0), -10),
                (Square::new(2, 1), 0),
                (Square::new(2, 2), 10)
            ]
        );
        assert_eq!(played.chosen, Some(Square::new(2, 2)));
        // freeCodeCamp: O _ X / X _ X / _ O O, AI X: -10, +10, -10, index 4.
        let played = play(&printed, "o.x/x.x/.oo");
        let scores: Vec<i32> = played.scores.iter().map(|&(_, score)| score).collect();
        assert_eq!(scores, [-10, 10, -10]);
        assert_eq!(played.chosen, Some(Square::new(1, 1)));
    }

    #[test]
    fn each_slip_changes_what_its_line_changes() {
        let right = Model::right(Scoring::Depth, Keep::First);
        // O to move on xox/oxx/o..: X threatens c3 (column c); rows only
        // does not see it, so b3 and c3 look alike and b3 comes first... in
        // reading order a3 is taken, b3 then c3.
        let rows = play(&right.with(&[Slip::RowsOnly]), "xox/oxx/o..");
        assert_eq!(rows.chosen, Some(Square::new(2, 1)));
        assert_eq!(play(&right, "xox/oxx/o..").chosen, Some(Square::new(2, 2)));
        // bestVal at 0: no move above 0, none kept.
        let zero = play(&right.with(&[Slip::BestValZero]), "xox/oxx/o..");
        assert_eq!(zero.chosen, None);
        // The printed code with O to move plays for X.
        let printed = Model::printed(Scoring::Depth, Keep::First);
        let played = play(&printed, "xox/ox./...");
        let score = |square: Square| played.scores.iter().find(|s| s.0 == square).unwrap().1;
        assert_eq!(
            (score(Square::new(2, 0)), score(Square::new(2, 2))),
            (10, 10)
        );
    }

    #[test]
    fn a_board_read_column_by_column_answers_right_moves_transposed() {
        let right = Model::right(Scoring::Depth, Keep::First);
        let swapped = right.with(&[Slip::Transposed]);
        let transpose = |square: Option<Square>| square.map(|s| Square::new(s.col, s.row));
        let (mut memo, mut other) = (Memo::new(), Memo::new());
        for board in crate::all_positions().into_iter().step_by(11) {
            let mut theirs: Vec<_> = swapped.play(&board, &mut memo).top();
            let mut ours: Vec<_> = right.play(&board, &mut other).top();
            theirs = theirs.into_iter().map(transpose).collect();
            theirs.sort_by_key(|square| square.map(|s| s.index(3)));
            ours.sort_by_key(|square| square.map(|s| s.index(3)));
            assert_eq!(theirs, ours, "{board}");
        }
    }

    #[test]
    fn a_move_printed_column_first_is_the_right_one_swapped() {
        let right = Model::right(Scoring::Depth, Keep::First);
        let printed = right.with(&[Slip::PrintedSwapped]);
        let read = right.with(&[Slip::Transposed]);
        let swap = |square: Option<Square>| square.map(|s| Square::new(s.col, s.row));
        let mut told_apart = 0;
        let (mut a, mut b, mut c) = (Memo::new(), Memo::new(), Memo::new());
        for board in crate::all_positions().into_iter().step_by(5) {
            let (ours, theirs) = (right.play(&board, &mut a), printed.play(&board, &mut b));
            assert_eq!(theirs.scores, ours.scores, "{board}");
            assert_eq!(theirs.chosen, swap(ours.chosen), "{board}");
            let ours: Vec<_> = ours.top().into_iter().map(swap).collect();
            assert_eq!(theirs.top(), ours, "{board}");
            told_apart += usize::from(read.play(&board, &mut c).chosen != theirs.chosen);
        }
        // The board read column by column keeps another of equal moves.
        assert!(told_apart > 0);
    }

    #[test]
    fn an_evaluate_for_x_plays_for_x_only() {
        let right = Model::right(Scoring::Depth, Keep::First);
        let for_x = right.with(&[Slip::EvaluateForX]);
        let (mut memo, mut other) = (Memo::new(), Memo::new());
        for board in crate::all_positions().into_iter().step_by(13) {
            if board.to_move() == Player::X {
                assert_eq!(
                    for_x.play(&board, &mut memo),
                    right.play(&board, &mut other)
                );
            }
        }
        // O to move on xox/oxx/o..: c3 stops column c; played for X, O
        // takes b3, as CS50's minimax for X only does.
        assert_eq!(play(&for_x, "xox/oxx/o..").chosen, Some(Square::new(2, 1)));
    }

    #[test]
    fn a_board_not_restored_by_the_minimizer_alone_answers_as_by_neither() {
        // Its moves are the same as with the undo left out of both
        // branches everywhere (so the words of board-not-restored say so);
        // its scores, and the maximizer's slip, tell them apart.
        let (mut scores_differ, mut max_differs) = (0, 0);
        for keep in [Keep::First, Keep::Last] {
            let right = Model::right(Scoring::Depth, keep);
            let min = right.with(&[Slip::MinNoUndo]);
            let both = right.with(&[Slip::NoUndo]);
            let max = right.with(&[Slip::MaxNoUndo]);
            // A board not restored is never remembered: no memo is kept.
            let play = |model: &Model, board: &Board| model.play(board, &mut Memo::new());
            for board in crate::all_positions() {
                let (min, both) = (play(&min, &board), play(&both, &board));
                assert_eq!(min.chosen, both.chosen, "{board}");
                assert_eq!(min.top(), both.top(), "{board}");
                scores_differ += usize::from(min.scores != both.scores);
                max_differs += usize::from(play(&max, &board).top() != both.top());
            }
        }
        assert!(scores_differ > 0 && max_differs > 0);
    }

    #[test]
    fn pairs_never_repeat_and_the_printed_code_is_among_them() {
        let models = catalogue(Scoring::Depth, None, false);
        let printed = Model::printed(Scoring::Depth, Keep::First);
        assert!(models.contains(&printed));
        let mut seen = std::collections::HashSet::new();
        assert!(models.iter().all(|model| seen.insert(model.clone())));
        assert!(
            models
                .iter()
                .all(|model| !model.slips.iter().any(|slip| slip.scores_only()))
        );
    }
}

//! The book: each shape's empty board proven once per process, with the
//! strategies behind its value, so that the AI plays them without proving
//! anything again, and what the prover settles about a position as the AI
//! and `analyze` use it.

use std::time::{Duration, Instant};

use super::lines::{PerGeometry, cells};
use super::strategy::{Goal, Strategy};
use super::{Counts, Outcome, Proof, Solver, Stop};
use crate::board::{Board, Status};
use crate::geometry::Geometry;
use crate::player::Player;
use crate::square::Square;

/// The empty board of one shape, proven, with its strategies.
#[derive(Debug)]
pub struct Book {
    /// The empty board's value with best play.
    pub value: Outcome,
    /// The winner's win, or each side's hold for a draw (empty if reading
    /// them failed, which would be a bug).
    pub strategies: Vec<Strategy>,
    /// What proving and reading them cost.
    pub counts: Counts,
    /// How long proving and reading them took.
    pub elapsed: Duration,
}

/// The most positions a book's proof may create: about ten times what the
/// hardest book the engine proves takes (7×7 with five in a row, 8×8 with
/// four), a few seconds of one core.
pub const BOOK_POSITIONS: u64 = 5_000_000;

/// The shapes whose empty board is known not to be proven within
/// [`BOOK_POSITIONS`]: 8×8 with five in a row, whose proof (Hsu et al.,
/// 2020) took 17 hours.
const BEYOND_THE_BOOK: [(u8, u8); 1] = [(8, 5)];

/// True when the book of a shape is within reach: [`book`] proves it in a
/// second or two at most. For the other shapes (8×8 with five in a row)
/// it gives up at once, and the perfect AI plays by search.
///
/// ```
/// use tictactoe_engine::Geometry;
/// use tictactoe_engine::solve::book_within_reach;
///
/// assert!(book_within_reach(Geometry::get(7, 5)?));
/// assert!(book_within_reach(Geometry::get(8, 6)?));
/// assert!(!book_within_reach(Geometry::get(8, 5)?));
/// # Ok::<(), tictactoe_engine::GeometryError>(())
/// ```
pub fn book_within_reach(geometry: &Geometry) -> bool {
    !BEYOND_THE_BOOK.contains(&(geometry.size(), geometry.k()))
}

/// The book of a shape, proven on first use (at most a second or two of
/// work on the biggest boards, less than 0.2 s on most) and kept for the
/// life of the process; `None` when the empty board is not proven within
/// [`BOOK_POSITIONS`], or is beyond that at once ([`book_within_reach`]
/// says which shapes). Front ends warm it up on a thread of their own
/// when a game starts, so the first move need not wait for it.
///
/// ```
/// use tictactoe_engine::{Geometry, Player};
/// use tictactoe_engine::solve::{Outcome, book};
///
/// let book = book(Geometry::get(4, 3)?).expect("4x4 is proven at once");
/// assert_eq!(book.value, Outcome::Win(Player::X));
/// assert!(book.strategies.len() == 1);
/// assert!(tictactoe_engine::solve::book(Geometry::get(8, 5)?).is_none(), "beyond reach");
/// # Ok::<(), tictactoe_engine::GeometryError>(())
/// ```
pub fn book(geometry: &'static Geometry) -> Option<&'static Book> {
    BOOKS
        .get_or_init(geometry, || {
            book_within_reach(geometry)
                .then(|| prove_book(geometry, BOOK_POSITIONS))
                .flatten()
        })
        .as_ref()
}

/// The book of `geometry` if its proof creates at most `positions` positions.
fn prove_book(geometry: &'static Geometry, positions: u64) -> Option<Book> {
    let started = Instant::now();
    let board = Board::empty(geometry.size(), geometry.k()).expect("a shape the engine built");
    let mut solver = Solver::new(geometry);
    solver.limit_positions(Some(positions));
    let value = solver.value(&board, None)?;
    let mut proof = Proof {
        board,
        value,
        counts: solver.counts(),
        elapsed: started.elapsed(),
        solver,
    };
    let strategies = proof.strategies().ok()?;
    if proof.stopped().is_some() {
        return None;
    }
    Some(Book {
        value: proof.value,
        strategies,
        counts: proof.solver.counts(),
        elapsed: started.elapsed(),
    })
}

/// The book of a shape if it is proven already (see [`book`]), without waiting.
pub fn book_ready(geometry: &'static Geometry) -> Option<&'static Book> {
    BOOKS.get(geometry).and_then(Option::as_ref)
}

/// Every shape's book, once proven or given up.
static BOOKS: PerGeometry<Option<Book>> = PerGeometry::new();

impl Book {
    /// True when the book proves that the side to move at `board` cannot
    /// win: the board is the book's own drawn or lost start, or the other
    /// side has just played its book's hold.
    pub fn holds_against(&self, board: &Board) -> bool {
        let Status::InProgress { to_move } = board.status() else {
            return false;
        };
        if board.move_count() == 0 {
            return self.value != Outcome::Win(to_move);
        }
        let mover = to_move.other();
        let Some(hold) = self
            .strategies
            .iter()
            .find(|strategy| strategy.player == mover && strategy.goal == Goal::Hold)
        else {
            return false;
        };
        let (mine, theirs) = (board.bits(mover), board.bits(to_move));
        cells(mine).any(|cell| {
            let without = mine & !(1 << cell);
            let before = match mover {
                Player::X => Board::from_bits(board.geometry(), without, theirs),
                Player::O => Board::from_bits(board.geometry(), theirs, without),
            };
            before
                .ok()
                .and_then(|before| hold.reply(&before))
                .is_some_and(|mv| mv == Square::from_index(cell, board.size()))
        })
    }

    /// The move the book plays for the side to move at `board`, and what it
    /// keeps: `None` where the book's strategies do not reach.
    pub fn reply(&self, board: &Board) -> Option<(Square, Goal)> {
        let Status::InProgress { to_move } = board.status() else {
            return None;
        };
        self.strategies
            .iter()
            .filter(|strategy| strategy.player == to_move)
            .find_map(|strategy| strategy.reply(board).map(|mv| (mv, strategy.goal)))
    }
}

/// A proven move for the side to move, and what it keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keep {
    /// Playing it wins.
    Win(Square),
    /// Playing it does not lose.
    Hold(Square),
}

impl Keep {
    /// The move.
    pub fn mv(self) -> Square {
        match self {
            Keep::Win(mv) | Keep::Hold(mv) => mv,
        }
    }
}

/// What the prover settled about a position, for the side to move.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Settled {
    /// The position's value with best play, once proven.
    pub value: Option<Outcome>,
    /// A proven move: one that wins, or else one that does not lose.
    pub keep: Option<Keep>,
    /// The value after each move, for the moves proven (`analyze --solve`
    /// tries them all; the AI only the one it plays).
    pub moves: Vec<(Square, Outcome)>,
    /// The moves [`settle_all`] tried and left unproven, and why.
    pub unproven: Vec<(Square, Unproven)>,
}

/// Why [`settle_all`] left a move's result unproven.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Unproven {
    /// Its share of the prover's work ([`MOVE_SHARE`] positions) ran out.
    Share,
    /// The bounds' deadline came before its turn or during it.
    Time,
    /// The monitor interrupted the prover.
    Interrupted,
}

/// The positions the prover may create for each move of a position after
/// the position itself (and the move its proof keeps) is proven, in
/// [`settle_all`]: about a second or two of one core. A result that takes
/// more is left unproven ([`Unproven::Share`]). Counted in positions, not
/// seconds, so the same moves are proven on any machine.
pub const MOVE_SHARE: u64 = 400_000;

impl Unproven {
    /// As JSON names it: `share`, `time` or `interrupted`.
    pub fn name(self) -> &'static str {
        match self {
            Unproven::Share => "share",
            Unproven::Time => "time",
            Unproven::Interrupted => "interrupted",
        }
    }
}

/// What `book` (if given) and `solver` settle about `board` by `deadline`: a win for
/// the side to move if it has one (also one that a mistake of the other
/// side offered), else a move that does not lose, and the value when both
/// questions are answered. X's chances are asked about first: it moved
/// first or has just moved, so it is the likelier winner.
pub fn settle(
    solver: &mut Solver,
    book: Option<&Book>,
    board: &Board,
    deadline: Option<Instant>,
) -> Settled {
    let Status::InProgress { to_move } = board.status() else {
        return Settled::default();
    };
    let opponent = to_move.other();
    let booked = book.and_then(|book| book.reply(board));
    if let Some((mv, Goal::Win)) = booked {
        return Settled {
            value: Some(Outcome::Win(to_move)),
            keep: Some(Keep::Win(mv)),
            ..Settled::default()
        };
    }
    let mut settled = Settled::default();
    let wins = |solver: &mut Solver, player| match booked {
        // The book holds for the side to move: the other cannot win.
        Some((_, Goal::Hold)) if player == opponent => Some(false),
        // The other side has just played its book's hold.
        _ if player == to_move && book.is_some_and(|book| book.holds_against(board)) => Some(false),
        _ => solver.wins(board, player, deadline),
    };
    // X first; a side proven to win settles the other's question.
    let mut wins_of = [None, None];
    for player in [Player::X, Player::O] {
        wins_of[player as usize] = if wins_of[player.other() as usize] == Some(true) {
            Some(false)
        } else {
            wins(solver, player)
        };
    }
    let (mine, theirs) = (wins_of[to_move as usize], wins_of[opponent as usize]);
    settled.value = match (mine, theirs) {
        (Some(true), _) => Some(Outcome::Win(to_move)),
        (_, Some(true)) => Some(Outcome::Win(opponent)),
        (Some(false), Some(false)) => Some(Outcome::Draw),
        _ => None,
    };
    settled.keep = match (mine, theirs, booked) {
        (Some(true), ..) => solver.winning_move(board, deadline).map(Keep::Win),
        (_, _, Some((mv, Goal::Hold))) => Some(Keep::Hold(mv)),
        (_, Some(false), _) => solver.holding_move(board, deadline).map(Keep::Hold),
        _ => None,
    };
    settled
}

/// [`settle`] within the solver's bounds, then the value after every
/// legal move, what `analyze --solve` shows: first what the position's
/// proof says of them (after a move that keeps its value, that value; in a
/// lost position, a loss after every move), then each other move in
/// reading order, a move that a symmetry of the position maps onto an
/// earlier one taking its result, each with a share of the prover's work
/// of at most [`MOVE_SHARE`] positions on the same table (what the proof
/// of the position left there helps). A move whose result is not proven
/// within its share, or by the deadline, is listed in
/// [`Settled::unproven`] with the reason.
///
/// When the position itself is not proven within the bounds, nothing is
/// tried of its moves and [`Solver::stopped`] says why; otherwise a move
/// left unproven leaves no stop behind.
pub fn settle_all(solver: &mut Solver, book: Option<&Book>, board: &Board) -> Settled {
    let mut settled = settle(solver, book, board, None);
    let Status::InProgress { to_move } = board.status() else {
        return settled;
    };
    let Some(value) = settled.value else {
        return settled;
    };
    let opponent = to_move.other();
    let bounds = solver.bounds.clone();
    let symmetries = board.symmetries();
    let mut results: Vec<(Square, Result<Outcome, Unproven>)> = Vec::new();
    let mut stopped = None;
    for mv in board.legal_moves() {
        let twin = symmetries.first_twin(mv);
        let earlier = (twin != mv)
            .then(|| results.iter().find(|(done, _)| *done == twin))
            .flatten();
        let result = if let Some(&(_, result)) = earlier {
            result
        } else if let Some(known) = known_after(&settled, value, mv, opponent) {
            Ok(known)
        } else if let Some(why) = stopped {
            Err(why)
        } else {
            let Ok(after) = board.play(mv) else {
                continue;
            };
            let result = prove_after(solver, &after, value, to_move);
            // A share spent leaves the prover ready for the next move.
            let why = match solver.stopped() {
                None => None,
                Some(Stop::Time) => Some(Unproven::Time),
                Some(Stop::Interrupted) if solver.positions_left() == Some(0) => {
                    Some(Unproven::Share)
                }
                Some(Stop::Interrupted) => Some(Unproven::Interrupted),
            };
            solver.set_bounds(bounds.clone());
            if let Some(why @ (Unproven::Time | Unproven::Interrupted)) = why {
                stopped = Some(why);
            }
            result.ok_or(why.unwrap_or(Unproven::Share))
        };
        results.push((mv, result));
    }
    solver.limit_positions(None);
    for (mv, result) in results {
        match result {
            Ok(outcome) => settled.moves.push((mv, outcome)),
            Err(why) => settled.unproven.push((mv, why)),
        }
    }
    settled
}

/// What the proof of a position of value `value` says of the position
/// after `mv`, where it says something.
fn known_after(settled: &Settled, value: Outcome, mv: Square, opponent: Player) -> Option<Outcome> {
    match (value, settled.keep) {
        (Outcome::Win(winner), _) if winner == opponent => Some(value),
        (_, Some(keep)) if keep.mv() == mv => Some(value),
        _ => None,
    }
}

/// The value of `after`, a position after a move of `mover` from a
/// position of value `value`, proven within [`MOVE_SHARE`] positions more:
/// `None` when not. In a drawn position no move of the mover wins (its
/// proof showed as much), so only the other side's chances are asked.
fn prove_after(
    solver: &mut Solver,
    after: &Board,
    value: Outcome,
    mover: Player,
) -> Option<Outcome> {
    let opponent = mover.other();
    let spent = solver.counts().positions;
    solver.limit_positions(Some(spent + MOVE_SHARE));
    if value != Outcome::Draw && solver.wins(after, mover, None)? {
        return Some(Outcome::Win(mover));
    }
    Some(if solver.wins(after, opponent, None)? {
        Outcome::Win(opponent)
    } else {
        Outcome::Draw
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_book_answers_every_reply_of_the_loser_and_keeps_its_promise() {
        // 4x4 with three in a row: X wins; follow the book against every O reply.
        let geometry = Geometry::get(4, 3).unwrap();
        let book = book(geometry).expect("a book");
        assert_eq!(book.value, Outcome::Win(Player::X));
        let mut boards = vec![Board::empty(4, 3).unwrap()];
        while let Some(board) = boards.pop() {
            match board.status() {
                Status::Won(winner) => assert_eq!(winner, Player::X, "{board}"),
                Status::Draw => panic!("a draw at {board}"),
                Status::InProgress { to_move: Player::X } => {
                    let (mv, goal) = book.reply(&board).expect("the book covers X's turns");
                    assert_eq!(goal, Goal::Win);
                    boards.push(board.play(mv).unwrap());
                }
                Status::InProgress { to_move: Player::O } => {
                    boards.extend(
                        board
                            .legal_moves()
                            .into_iter()
                            .map(|mv| board.play(mv).unwrap()),
                    );
                }
            }
        }
    }

    /// Plays `holder` by the book against every reply (or, `sampled`, against
    /// random replies in that many games) and checks it never loses.
    fn book_holds(size: u8, k: u8, holder: Player, sampled: Option<u32>) {
        let geometry = Geometry::get(size, k).unwrap();
        let book = book(geometry).expect("a book");
        let start = Board::empty(size, k).unwrap();
        let mut seen = std::collections::HashSet::new();
        let mut rng = fastrand::Rng::with_seed(u64::from(size) * 10 + u64::from(k));
        let mut games = vec![start; sampled.map_or(1, |n| n as usize)];
        while let Some(board) = games.pop() {
            if sampled.is_none() && !seen.insert(board) {
                continue;
            }
            match board.status() {
                Status::Won(winner) => assert_eq!(winner, holder, "{board}"),
                Status::Draw => {}
                Status::InProgress { to_move } if to_move == holder => {
                    let (mv, _) = book
                        .reply(&board)
                        .unwrap_or_else(|| panic!("the book has no move at {board}"));
                    games.push(board.play(mv).unwrap());
                }
                Status::InProgress { .. } => {
                    let moves = board.legal_moves();
                    if sampled.is_some() {
                        games.push(board.play(moves[rng.usize(..moves.len())]).unwrap());
                    } else {
                        games.extend(moves.into_iter().map(|mv| board.play(mv).unwrap()));
                    }
                }
            }
        }
    }

    #[test]
    fn on_small_drawn_boards_the_book_holds_against_every_reply_for_both_sides() {
        for (size, k) in [(3, 3), (4, 4)] {
            for holder in [Player::X, Player::O] {
                book_holds(size, k, holder, None);
            }
        }
    }

    #[test]
    fn on_bigger_drawn_boards_the_book_holds_against_random_replies_for_both_sides() {
        for (size, k) in [
            (5, 4),
            (5, 5),
            (6, 5),
            (6, 6),
            (7, 6),
            (7, 7),
            (8, 6),
            (8, 7),
            (8, 8),
        ] {
            for holder in [Player::X, Player::O] {
                book_holds(size, k, holder, Some(100));
            }
        }
    }

    #[test]
    fn a_book_not_proven_within_its_positions_is_none() {
        // 5x5 with four in a row takes some 110,000 positions.
        assert!(prove_book(Geometry::get(5, 4).unwrap(), 20_000).is_none());
        let book = prove_book(Geometry::get(5, 4).unwrap(), BOOK_POSITIONS).expect("a book");
        assert_eq!(book.value, Outcome::Draw);
        assert!(book.counts.positions > 20_000);
    }
}

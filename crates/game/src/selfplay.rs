//! Games of AI against AI with no screen: `tictactoe selfplay`, the level
//! tests and the benchmarks all play them here.

use std::ops::ControlFlow;
use std::time::Instant;

use thiserror::Error;

use crate::game::Tally;
use tictactoe_engine::{Ai, Board, Dice, IllegalMove, Level, Limits, Player, Square};

/// The result of a run of games.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SelfplayReport {
    /// Games played.
    pub games: u32,
    /// Games X won.
    pub x_wins: u32,
    /// Games O won.
    pub o_wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Wall time of the run.
    pub seconds: f64,
    /// The seed the run used: the same seed plays the same games.
    pub seed: u64,
}

/// An AI chose a move the board refused. The AIs pick among legal moves, so
/// this is a bug; it is reported rather than letting the game end unfinished.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("selfplay game {game}: {player} ({level}) chose a move the board refused: {source}")]
pub struct SelfplayError {
    /// The game, counted from 1.
    pub game: u32,
    /// The side that chose the move.
    pub player: Player,
    /// That side's level.
    pub level: Level,
    /// Why the board refused it.
    pub source: IllegalMove,
}

/// A run of games between two AIs: `games` games from `start`, X at `x`
/// against O at `o`. All random choices come from one generator seeded
/// with `seed`, so a run repeats exactly.
#[derive(Debug, Clone, Copy)]
pub struct Series {
    /// The position every game starts from.
    pub start: Board,
    /// X's level.
    pub x: Level,
    /// O's level.
    pub o: Level,
    /// How many games.
    pub games: u32,
    /// The seed of every random choice.
    pub seed: u64,
    /// How long each AI may think on bigger boards.
    pub limits: Limits,
}

/// Plays `games` games from `start`, X at `x` against O at `o`, as a
/// [`Series`] does. Every game is played to its end.
pub fn play_games(
    start: Board,
    x: Level,
    o: Level,
    games: u32,
    seed: u64,
    limits: Limits,
) -> Result<SelfplayReport, SelfplayError> {
    let series = Series {
        start,
        x,
        o,
        games,
        seed,
        limits,
    };
    play_games_each(series, |_| ControlFlow::Continue(()))
}

/// Plays the series, handing `each` every game's moves as the game ends
/// (so a run of any length keeps one game's moves in memory). `each`
/// breaking ends the run there: the report counts the games played until
/// then.
pub fn play_games_each(
    series: Series,
    mut each: impl FnMut(&[Square]) -> ControlFlow<()>,
) -> Result<SelfplayReport, SelfplayError> {
    let started = Instant::now();
    let mut dice = Dice::with_seed(series.seed);
    let mut tally = Tally::default();
    // The compiled table answers 3×3 at once; bigger boards are
    // searched, each AI keeping its table from move to move and game to game.
    let (mut x_ai, mut o_ai) = (Ai::new(), Ai::new());
    // One game's moves, the buffer reused from game to game.
    let mut moves = Vec::with_capacity(series.start.empty_cells().len());
    let mut played = 0;
    for game in 1..=series.games {
        let end = play_out(series.start, &mut moves, |board| {
            let (ai, level) = match board.to_move() {
                Player::X => (&mut x_ai, series.x),
                Player::O => (&mut o_ai, series.o),
            };
            ai.choose(board, level, &mut dice, series.limits)
                .map(|decision| decision.mv)
        })
        .map_err(|(board, source)| {
            let player = board.to_move();
            let level = if player == Player::X {
                series.x
            } else {
                series.o
            };
            SelfplayError {
                game,
                player,
                level,
                source,
            }
        })?;
        tally.record(end.status());
        played = game;
        if each(&moves).is_break() {
            break;
        }
    }
    Ok(SelfplayReport {
        games: played,
        x_wins: tally.x_wins,
        o_wins: tally.o_wins,
        draws: tally.draws,
        seconds: started.elapsed().as_secs_f64(),
        seed: series.seed,
    })
}

/// Plays from `start` with the moves `choose` picks until it has none (the
/// game is over), keeping them in `moves` (emptied first): the final
/// board, or the board and why it refused a move.
fn play_out(
    start: Board,
    moves: &mut Vec<Square>,
    mut choose: impl FnMut(&Board) -> Option<Square>,
) -> Result<Board, (Board, IllegalMove)> {
    moves.clear();
    let mut board = start;
    while let Some(mv) = choose(&board) {
        board = board.play(mv).map_err(|error| (board, error))?;
        moves.push(mv);
    }
    Ok(board)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_is_played_until_no_move_is_left() {
        let mut moves = vec![Square::new(2, 2)];
        let end = play_out(Board::new(), &mut moves, |board| {
            board.legal_moves().first().copied()
        })
        .unwrap();
        assert!(end.status().is_over(), "{end:?}");
        let replayed = moves
            .iter()
            .try_fold(Board::new(), |board, &mv| board.play(mv));
        assert_eq!(replayed, Ok(end), "the moves kept are the game's");
    }

    #[test]
    fn a_refused_move_is_an_error_not_the_end_of_the_game() {
        // Plays the centre, then the centre again.
        let (board, error) =
            play_out(Board::new(), &mut Vec::new(), |_| Some(Square::new(1, 1))).unwrap_err();
        assert_eq!(board.to_string(), ".../.x./...");
        assert_eq!(error, IllegalMove::Occupied { row: 1, col: 1 });
    }
}

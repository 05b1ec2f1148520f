//! The AI levels: perfect never loses, each level beats the one below, seeds replay.

use tictactoe_engine::{Ai, Board, Dice, Level, Limits, Square, analyze};
use tictactoe_game::selfplay::play_games;

const LEVELS: [Level; 5] = Level::ALL;

#[test]
fn perfect_never_loses_to_any_level_on_either_side() {
    for (seed, &other) in LEVELS.iter().enumerate() {
        let as_x = play_games(
            Board::new(),
            Level::Perfect,
            other,
            1000,
            seed as u64,
            Limits::ToTheEnd,
        )
        .unwrap();
        assert_eq!(as_x.o_wins, 0, "perfect as X lost to {other}");
        let as_o = play_games(
            Board::new(),
            other,
            Level::Perfect,
            1000,
            100 + seed as u64,
            Limits::ToTheEnd,
        )
        .unwrap();
        assert_eq!(as_o.x_wins, 0, "perfect as O lost to {other}");
    }
}

#[test]
fn perfect_against_perfect_always_draws() {
    let report = play_games(
        Board::new(),
        Level::Perfect,
        Level::Perfect,
        2000,
        9,
        Limits::ToTheEnd,
    )
    .unwrap();
    assert_eq!(report.draws, 2000);
}

#[test]
fn each_level_loses_less_often_to_random_than_the_one_below_over_10000_games() {
    let losses_as_o: Vec<u32> = LEVELS
        .iter()
        .map(|&level| {
            play_games(
                Board::new(),
                Level::Random,
                level,
                10_000,
                1,
                Limits::ToTheEnd,
            )
            .unwrap()
            .x_wins
        })
        .collect();
    for pair in LEVELS.windows(2).zip(losses_as_o.windows(2)) {
        let ([weaker, stronger], [weaker_losses, stronger_losses]) = pair else {
            unreachable!()
        };
        assert!(
            stronger_losses < weaker_losses,
            "{stronger} lost {stronger_losses} times, {weaker} {weaker_losses}: {losses_as_o:?}"
        );
    }
    assert_eq!(losses_as_o[4], 0, "perfect never loses");
    assert!(losses_as_o[3] > 0, "hard can be beaten");
}

#[test]
fn each_level_beats_the_one_below_head_to_head() {
    for pair in LEVELS.windows(2) {
        let [weaker, stronger] = [pair[0], pair[1]];
        let stronger_first =
            play_games(Board::new(), stronger, weaker, 2000, 5, Limits::ToTheEnd).unwrap();
        let weaker_first =
            play_games(Board::new(), weaker, stronger, 2000, 6, Limits::ToTheEnd).unwrap();
        let stronger_wins = stronger_first.x_wins + weaker_first.o_wins;
        let weaker_wins = stronger_first.o_wins + weaker_first.x_wins;
        assert!(
            stronger_wins > weaker_wins,
            "{stronger} won {stronger_wins}, {weaker} won {weaker_wins}"
        );
    }
}

#[test]
fn a_seed_replays_the_same_games() {
    for level in LEVELS {
        let first = play_games(
            Board::new(),
            level,
            Level::Random,
            300,
            42,
            Limits::ToTheEnd,
        )
        .unwrap();
        let again = play_games(
            Board::new(),
            level,
            Level::Random,
            300,
            42,
            Limits::ToTheEnd,
        )
        .unwrap();
        assert_eq!(
            (first.x_wins, first.o_wins, first.draws),
            (again.x_wins, again.o_wins, again.draws),
            "{level}"
        );
    }
    // Move by move: the same seed picks the same move, and seeds do vary the choice.
    let board = Board::new();
    let pick = |seed| {
        Ai::new()
            .choose(
                &board,
                Level::Perfect,
                &mut Dice::with_seed(seed),
                Limits::ToTheEnd,
            )
            .unwrap()
            .mv
    };
    assert_eq!(pick(3), pick(3));
    let distinct: std::collections::HashSet<_> = (0..50).map(pick).collect();
    assert!(
        distinct.len() > 1,
        "perfect play varies between equally good moves"
    );
}

#[test]
fn perfect_picks_only_among_the_best_and_takes_the_fastest_win() {
    for notation in ["xox/oox/...", "x.o/.x./..o", "xo./.o./x..", "........."] {
        let board: Board = notation.parse().unwrap();
        let analysis = analyze(&board, Limits::ToTheEnd);
        let best = analysis.value().unwrap();
        for seed in 0..40 {
            let decision = Ai::new()
                .choose(
                    &board,
                    Level::Perfect,
                    &mut Dice::with_seed(seed),
                    Limits::ToTheEnd,
                )
                .unwrap();
            let score = analysis
                .moves
                .iter()
                .find(|m| m.mv == decision.mv)
                .unwrap()
                .score;
            assert_eq!(
                score, best,
                "{notation}: {} scores {score}, the best is {best}",
                decision.mv
            );
        }
    }
}

#[test]
fn easy_takes_a_win_and_medium_blocks() {
    // X to move can win at (0,2); O threatens (1,2) too.
    let board: Board = "xx./oo./...".parse().unwrap();
    for seed in 0..20 {
        let mut rng = Dice::with_seed(seed);
        assert_eq!(
            Ai::new()
                .choose(&board, Level::Easy, &mut rng, Limits::ToTheEnd)
                .unwrap()
                .mv,
            Square::new(0, 2)
        );
    }
    // O to move must block X's row at (0,2); it has no win of its own.
    let board: Board = "xx./o../...".parse().unwrap();
    for seed in 0..20 {
        let mut rng = Dice::with_seed(seed);
        assert_eq!(
            Ai::new()
                .choose(&board, Level::Medium, &mut rng, Limits::ToTheEnd)
                .unwrap()
                .mv,
            Square::new(0, 2)
        );
    }
}

#[test]
fn no_move_once_the_game_is_over() {
    let board: Board = "xxx/oo./...".parse().unwrap();
    for level in LEVELS {
        assert!(
            Ai::new()
                .choose(&board, level, &mut Dice::with_seed(1), Limits::ToTheEnd)
                .is_none()
        );
    }
}

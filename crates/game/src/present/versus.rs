//! How a game between people ended, in the words its players, its watchers
//! and the server's log read: "bob resigned", "alice ran out of time", "bob
//! did not come back: aborted, unrated".

use tictactoe_engine::Status;

use super::result_line;
use crate::game::Names;
use crate::versus::{Cause, End};
use tictactoe_engine::Outcome;

/// How `end` came about, in words; the board's own result ("X wins",
/// "Draw") when a line or a full board ended it (`status` is the board's).
pub fn end_line(end: &End, names: &Names, status: Status) -> String {
    let said = match end.cause {
        Cause::Board => return result_line(status, None).unwrap_or_default(),
        Cause::Resigned(side) => format!("{} resigned", names.of(side)),
        Cause::OutOfTime(side) if end.verdict == Some(Outcome::Draw) => format!(
            "{} ran out of time, but {} had no line left to make: a draw",
            names.of(side),
            names.of(side.other())
        ),
        Cause::OutOfTime(side) => format!("{} ran out of time", names.of(side)),
        Cause::DidNotComeBack(side) => format!("{} did not come back", names.of(side)),
        Cause::NeitherCameBack => "neither player came back".to_string(),
        Cause::CouldNotPlay(side) => format!("{} could not play", names.of(side)),
        Cause::Claimed { staller, win: true } => format!(
            "{} did not move in the time allowed: {} claimed the win",
            names.of(staller),
            names.of(staller.other())
        ),
        Cause::Claimed {
            staller,
            win: false,
        } => format!(
            "{} did not move in the time allowed: {} stopped the game",
            names.of(staller),
            names.of(staller.other())
        ),
    };
    if end.aborted() {
        format!("{said}: aborted, unrated")
    } else {
        said
    }
}

/// What a screen says of an end its board does not show: every end but a
/// line or a full board.
pub fn end_told(end: &End, names: &Names) -> Option<String> {
    (end.cause != Cause::Board).then(|| end_line(end, names, Status::Draw))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tictactoe_engine::Player;

    #[test]
    fn ends_are_said_with_the_players_names() {
        let names = Names {
            x: "alice".to_string(),
            o: "bob".to_string(),
        };
        let end = |cause, verdict| End { cause, verdict };
        let win = Some(Outcome::Win(Player::X));
        assert_eq!(
            end_told(&end(Cause::Resigned(Player::O), win), &names).as_deref(),
            Some("bob resigned")
        );
        assert_eq!(
            end_told(&end(Cause::DidNotComeBack(Player::O), None), &names).as_deref(),
            Some("bob did not come back: aborted, unrated")
        );
        assert_eq!(
            end_line(
                &end(Cause::OutOfTime(Player::X), Some(Outcome::Draw)),
                &names,
                Status::InProgress { to_move: Player::X }
            ),
            "alice ran out of time, but bob had no line left to make: a draw"
        );
        let line = end(Cause::Board, win);
        assert_eq!(end_told(&line, &names), None);
        assert_eq!(end_line(&line, &names, Status::Won(Player::X)), "X wins");
    }
}

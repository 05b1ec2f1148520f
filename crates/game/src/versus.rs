//! A game between two people as the referee holds it: the seats, the moves,
//! the clocks, who is away and until when, and how the game ended. Pure: no
//! thread, no network, no database; the caller says what time it is, as
//! [`crate::clock`] does. The SSH server keeps one [`Match`] per game between
//! people and writes down what it says; the rules are here, tested alone.
//!
//! Every way a game ends goes through one path, [`Match::finish`]: a line or
//! a full board, a resignation, a fallen flag, a player who did not come
//! back, a claim against a player who does not move. An end before each
//! side has moved twice is an abort: no result.
//!
//! Leaving is decided by who left: a player away past the grace loses the
//! game, whatever the other did after they left (the other may have left
//! too, later); only players who left at the same moment (a restart of the
//! server) have the game aborted. Without a clock, the side to move that
//! has not moved for [`Rules::claim_after`] may be claimed against: the
//! other side takes the win, or aborts the game, as they choose.

use std::time::{Duration, Instant};

use tictactoe_engine::{Board, Outcome, Player, Square, Status};

use crate::clock::{Clock, TimeControl};

/// Moves played before an end counts: both sides have moved twice. An end
/// before then is an abort, with no result.
pub const UNDER_WAY: usize = 4;

/// How a game between people is played.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rules {
    /// The time control, if the game has a clock.
    pub control: Option<TimeControl>,
    /// How long a player who left keeps their seat.
    pub grace: Duration,
    /// Without a clock: how long the side to move may go without moving
    /// before the other may claim the game.
    pub claim_after: Duration,
}

/// What ended a game, and whose doing it was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cause {
    /// A line, or a full board: the moves say it.
    Board,
    /// This side resigned.
    Resigned(Player),
    /// This side's clock ran out.
    OutOfTime(Player),
    /// This side left and did not come back within the grace.
    DidNotComeBack(Player),
    /// Both sides left at the same moment (a restart of the server) and
    /// neither came back.
    NeitherCameBack,
    /// This side was seated while starting something else, and could not play.
    CouldNotPlay(Player),
    /// `staller`, to move, did not move for the claim time: the other side
    /// claimed the win, or (with `win` false) stopped the game.
    Claimed {
        /// The side that did not move.
        staller: Player,
        /// The other side took the win; false: they aborted the game.
        win: bool,
    },
}

/// How an end is written down: what the record's `Termination` says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Termination {
    /// A line or a full board.
    Board,
    /// A resignation.
    Resigned,
    /// A clock ran out.
    Time,
    /// A player did not come back.
    Forfeit,
    /// The side to move did not move for the claim time, and the other claimed the win.
    Claimed,
    /// Ended before it was under way, or by nobody's doing: no result.
    Aborted,
}

impl Termination {
    /// Every termination, as [`Termination::word`] spells them.
    pub const ALL: [Termination; 6] = [
        Termination::Board,
        Termination::Resigned,
        Termination::Time,
        Termination::Forfeit,
        Termination::Claimed,
        Termination::Aborted,
    ];

    /// The word records and the database use: `board`, `resigned`, `time`,
    /// `forfeit`, `claimed`, `aborted`.
    pub fn word(self) -> &'static str {
        match self {
            Termination::Board => "board",
            Termination::Resigned => "resigned",
            Termination::Time => "time",
            Termination::Forfeit => "forfeit",
            Termination::Claimed => "claimed",
            Termination::Aborted => "aborted",
        }
    }

    /// The termination a word names.
    pub fn from_word(word: &str) -> Option<Termination> {
        Termination::ALL.into_iter().find(|t| t.word() == word)
    }
}

/// How a game ended: its cause, and its result (`None`: aborted).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct End {
    /// What ended it.
    pub cause: Cause,
    /// Who won; `None` when the game was aborted.
    pub verdict: Option<Outcome>,
}

impl End {
    /// True when the game ended with no result.
    pub fn aborted(&self) -> bool {
        self.verdict.is_none()
    }

    /// How the end is written down.
    pub fn termination(&self) -> Termination {
        match (self.verdict, self.cause) {
            (None, _) => Termination::Aborted,
            (Some(_), Cause::Board) => Termination::Board,
            (Some(_), Cause::Resigned(_)) => Termination::Resigned,
            (Some(_), Cause::OutOfTime(_)) => Termination::Time,
            (Some(_), Cause::DidNotComeBack(_)) => Termination::Forfeit,
            (Some(_), Cause::Claimed { .. }) => Termination::Claimed,
            (Some(_), Cause::NeitherCameBack | Cause::CouldNotPlay(_)) => Termination::Aborted,
        }
    }
}

/// A side's place at the table: the name shown, who plays it (the
/// caller's own data: a connection, an account), and whether they are away.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableSeat<P> {
    /// The name shown.
    pub name: String,
    /// Who plays this seat, as the caller knows them.
    pub player: P,
    /// Gone since then: the seat is lost unless they are back by `until`.
    away: Option<Away>,
}

/// A seat's player is gone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Away {
    since: Instant,
    until: Instant,
}

impl<P> TableSeat<P> {
    /// A seat with its player present.
    pub fn new(name: impl Into<String>, player: P) -> TableSeat<P> {
        TableSeat {
            name: name.into(),
            player,
            away: None,
        }
    }

    /// When the seat is lost unless its player comes back, while they are away.
    pub fn away_until(&self) -> Option<Instant> {
        self.away.map(|away| away.until)
    }
}

/// Why a move was not taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The game is over.
    Over,
    /// It is the other side's turn.
    NotYourTurn,
    /// The square is taken or off the board.
    Illegal,
    /// The mover's clock had run out: the game ended on time instead.
    OutOfTime,
}

/// Why a claim was not taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoClaim {
    /// The game is over, or has a clock (time settles it).
    NotThisGame,
    /// It is the claimer's own turn.
    YourTurn,
    /// The side to move has not taken that long yet: a claim from then.
    NotYet(Instant),
}

/// A move taken: its number from 0, and on a clock what the mover had left
/// after it (the increment added).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Played {
    /// The move's number, from 0.
    pub ply: usize,
    /// The square.
    pub square: Square,
    /// The mover's time left after it, on a clock.
    pub left: Option<Duration>,
    /// The end it made, if it ended the game.
    pub end: Option<End>,
}

/// What a rematch request came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rematch {
    /// Not now: the game goes on, or a player is away.
    Refused,
    /// Asked; the other side has not yet.
    Asked,
    /// Both asked: a new round began, the sides swapped.
    Started,
}

/// One game between two people, round after round.
#[derive(Debug, Clone)]
pub struct Match<P> {
    start: Board,
    rules: Rules,
    /// X's seat then O's, this round.
    seats: [TableSeat<P>; 2],
    moves: Vec<Square>,
    clock: Option<Clock>,
    end: Option<End>,
    /// Rematches played, from 0.
    round: u32,
    /// Who asked for a rematch, X then O.
    rematch: [bool; 2],
    /// When the side to move's turn began: the game's start or the last move.
    turn_began: Instant,
}

/// A side's index among the seats: X first.
fn index(side: Player) -> usize {
    match side {
        Player::X => 0,
        Player::O => 1,
    }
}

impl<P> Match<P> {
    /// A new game from `start`: `x` plays X, `o` plays O, and X's clock (if
    /// any) runs from `now`.
    pub fn new(start: Board, rules: Rules, x: TableSeat<P>, o: TableSeat<P>, now: Instant) -> Self {
        let mut clock = rules.control.map(Clock::new);
        if let Some(clock) = clock.as_mut() {
            clock.start(start.to_move(), now);
        }
        Match {
            start,
            rules,
            seats: [x, o],
            moves: Vec::new(),
            clock,
            end: None,
            round: 0,
            rematch: [false; 2],
            turn_began: now,
        }
    }

    /// A game kept unfinished, back after a restart: `moves` from `start`
    /// (`None` if they do not play), each side's time left as it was saved,
    /// both players away until `now` plus the grace, and the clock of the
    /// side to move running from `now` (the time the server was down is not
    /// charged to anyone).
    pub fn restored(
        start: Board,
        rules: Rules,
        [x, o]: [TableSeat<P>; 2],
        moves: Vec<Square>,
        left: [Option<Duration>; 2],
        now: Instant,
    ) -> Option<Self> {
        let board = moves
            .iter()
            .try_fold(start, |board, &mv| board.play(mv).ok())?;
        let clock = rules.control.map(|control| {
            let [x_left, o_left] = left.map(|left| left.unwrap_or(control.base));
            let mut clock = Clock::restored(control, x_left, o_left);
            clock.start(board.to_move(), now);
            clock
        });
        let away = Some(Away {
            since: now,
            until: now + rules.grace,
        });
        let mut seats = [x, o];
        for seat in &mut seats {
            seat.away = away;
        }
        Some(Match {
            start,
            rules,
            seats,
            moves,
            clock,
            end: None,
            round: 0,
            rematch: [false; 2],
            turn_began: now,
        })
    }

    /// The board the game began from.
    pub fn start(&self) -> Board {
        self.start
    }

    /// How the game is played.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The board now.
    pub fn board(&self) -> Board {
        self.moves
            .iter()
            .try_fold(self.start, |board, &mv| board.play(mv))
            .unwrap_or(self.start)
    }

    /// The board's status now (a game ended otherwise may show one in progress).
    pub fn status(&self) -> Status {
        self.board().status()
    }

    /// The moves of this round, from the start.
    pub fn moves(&self) -> &[Square] {
        &self.moves
    }

    /// The clocks, on a game with a time control.
    pub fn clock(&self) -> Option<Clock> {
        self.clock
    }

    /// How the game ended, once it has.
    pub fn end(&self) -> Option<End> {
        self.end
    }

    /// True once the game has ended, however it did.
    pub fn is_over(&self) -> bool {
        self.end.is_some()
    }

    /// Both sides have moved twice: an end now has a result.
    pub fn under_way(&self) -> bool {
        self.moves.len() >= UNDER_WAY
    }

    /// When the side to move's turn began: the start of the round, or the last move.
    pub fn turn_began(&self) -> Instant {
        self.turn_began
    }

    /// Rematches played, from 0.
    pub fn round(&self) -> u32 {
        self.round
    }

    /// One side's seat.
    pub fn seat(&self, side: Player) -> &TableSeat<P> {
        &self.seats[index(side)]
    }

    /// One side's seat, to change who plays it.
    pub fn seat_mut(&mut self, side: Player) -> &mut TableSeat<P> {
        &mut self.seats[index(side)]
    }

    /// Both seats, X's first, with their sides.
    pub fn seats(&self) -> impl Iterator<Item = (Player, &TableSeat<P>)> {
        [Player::X, Player::O].into_iter().zip(&self.seats)
    }

    /// The side whose seat `is` picks out, if any.
    pub fn side_where(&self, is: impl Fn(&P) -> bool) -> Option<Player> {
        self.seats()
            .find(|(_, seat)| is(&seat.player))
            .map(|(side, _)| side)
    }

    /// The side away whose seat is lost first, and when, if one is away.
    pub fn away(&self) -> Option<(Player, Instant)> {
        self.seats()
            .filter_map(|(side, seat)| seat.away_until().map(|until| (side, until)))
            .min_by_key(|&(_, until)| until)
    }

    /// `side` plays `mv` at `now`. A move that ends the game (a line, a full
    /// board) ends it here. A mover whose clock had run out moves no more:
    /// the game ends on time, and the move is refused.
    pub fn play(&mut self, side: Player, mv: Square, now: Instant) -> Result<Played, Refusal> {
        if self.is_over() {
            return Err(Refusal::Over);
        }
        let board = self.board();
        if board.to_move() != side {
            return Err(Refusal::NotYourTurn);
        }
        let after = board.play(mv).map_err(|_| Refusal::Illegal)?;
        if let Some(clock) = self.clock.as_mut()
            && !clock.moved(side, now)
        {
            self.finish(Cause::OutOfTime(side), now);
            return Err(Refusal::OutOfTime);
        }
        let ply = self.moves.len();
        self.moves.push(mv);
        self.turn_began = now;
        let left = self.clock.map(|clock| clock.left(side, now));
        let end = if after.status().is_over() {
            self.finish(Cause::Board, now)
        } else {
            None
        };
        Ok(Played {
            ply,
            square: mv,
            left,
            end,
        })
    }

    /// Ends the game by `cause` at `now`: the one way every game ends. The
    /// clocks stop. Before each side has moved twice it is an abort; a flag
    /// that falls when the other side has no line left to make is a draw.
    /// `None` (and nothing changes) when the game had ended already.
    pub fn finish(&mut self, cause: Cause, now: Instant) -> Option<End> {
        if self.is_over() {
            return None;
        }
        let board = self.board();
        let verdict = match cause {
            Cause::Board => match board.status() {
                Status::Won(winner) => Some(Outcome::Win(winner)),
                _ => Some(Outcome::Draw),
            },
            Cause::NeitherCameBack | Cause::CouldNotPlay(_) => None,
            Cause::Claimed { win: false, .. } => None,
            _ if !self.under_way() => None,
            Cause::Resigned(side)
            | Cause::DidNotComeBack(side)
            | Cause::Claimed { staller: side, .. } => Some(Outcome::Win(side.other())),
            Cause::OutOfTime(side) if board.can_still_win(side.other()) => {
                Some(Outcome::Win(side.other()))
            }
            Cause::OutOfTime(_) => Some(Outcome::Draw),
        };
        if let Some(clock) = self.clock.as_mut() {
            clock.stop(now);
        }
        let end = End { cause, verdict };
        self.end = Some(end);
        Some(end)
    }

    /// `side` resigns at `now` (an abort before the game is under way).
    pub fn resign(&mut self, side: Player, now: Instant) -> Option<End> {
        self.finish(Cause::Resigned(side), now)
    }

    /// `side`'s player left at `now`: their seat is kept for the grace.
    /// False (and nothing changes) once the game is over.
    pub fn leave(&mut self, side: Player, now: Instant) -> bool {
        if self.is_over() {
            return false;
        }
        self.seats[index(side)].away = Some(Away {
            since: now,
            until: now + self.rules.grace,
        });
        true
    }

    /// `side`'s player is back at their seat.
    pub fn back(&mut self, side: Player) {
        self.seats[index(side)].away = None;
    }

    /// The next moment something may end the game: a flag falling, a grace
    /// running out. `None` once it is over.
    pub fn deadline(&self) -> Option<Instant> {
        if self.is_over() {
            return None;
        }
        let flag = self.clock.and_then(|c| c.flag_at()).map(|(_, at)| at);
        let away = self.seats.iter().filter_map(TableSeat::away_until);
        flag.into_iter().chain(away).min()
    }

    /// Ends the game if a deadline has passed at `now`: a fallen flag (a
    /// loss, or a draw when the other side has no line left to make), or a
    /// grace run out: a forfeit of the player who left first, whether or
    /// not the other left after them (players who left at the same moment,
    /// as a restart leaves them, have the game aborted).
    pub fn referee(&mut self, now: Instant) -> Option<End> {
        if self.is_over() {
            return None;
        }
        if let Some((side, at)) = self.clock.and_then(|c| c.flag_at())
            && at <= now
        {
            return self.finish(Cause::OutOfTime(side), now);
        }
        let (side, until) = self.away()?;
        if until > now {
            return None;
        }
        let since = |side: Player| self.seats[index(side)].away.map(|away| away.since);
        let cause = if since(side.other()) == since(side) {
            Cause::NeitherCameBack
        } else {
            Cause::DidNotComeBack(side)
        };
        self.finish(cause, now)
    }

    /// From when the side not to move may claim the game against the side
    /// to move: a game without a clock that goes on.
    pub fn claim_at(&self) -> Option<Instant> {
        (!self.is_over() && self.clock.is_none()).then(|| self.turn_began + self.rules.claim_after)
    }

    /// `side` claims the game at `now` against the side to move, which has
    /// not moved for the claim time: the win (an abort before the game is
    /// under way), or with `win` false an abort.
    pub fn claim(&mut self, side: Player, win: bool, now: Instant) -> Result<End, NoClaim> {
        let at = self.claim_at().ok_or(NoClaim::NotThisGame)?;
        let staller = self.board().to_move();
        if staller == side {
            return Err(NoClaim::YourTurn);
        }
        if now < at {
            return Err(NoClaim::NotYet(at));
        }
        self.finish(Cause::Claimed { staller, win }, now)
            .ok_or(NoClaim::NotThisGame)
    }

    /// `side` asks for a rematch after the end; once both have, the next
    /// round begins at `now` with the sides swapped.
    pub fn ask_rematch(&mut self, side: Player, now: Instant) -> Rematch {
        if !self.is_over() || self.seats.iter().any(|seat| seat.away.is_some()) {
            return Rematch::Refused;
        }
        self.rematch[index(side)] = true;
        if self.rematch != [true, true] {
            return Rematch::Asked;
        }
        self.seats.swap(0, 1);
        self.rematch = [false; 2];
        self.end = None;
        self.moves.clear();
        self.round += 1;
        self.turn_began = now;
        self.clock = self.rules.control.map(|control| {
            let mut clock = Clock::new(control);
            clock.start(self.start.to_move(), now);
            clock
        });
        Rematch::Started
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GRACE: Duration = Duration::from_secs(60);

    const CLAIM: Duration = Duration::from_secs(120);

    fn rules(control: Option<&str>) -> Rules {
        Rules {
            control: control.map(|c| c.parse().expect("a time control")),
            grace: GRACE,
            claim_after: CLAIM,
        }
    }

    /// alice (X, 1) and bob (O, 2) on 4x4 with 3 in a row.
    fn game(control: Option<&str>, now: Instant) -> Match<u8> {
        let start = Board::empty(4, 3).expect("4x4");
        Match::new(
            start,
            rules(control),
            TableSeat::new("alice", 1),
            TableSeat::new("bob", 2),
            now,
        )
    }

    fn square(at: &str) -> Square {
        Board::empty(4, 3)
            .expect("4x4")
            .geometry()
            .parse_square(at)
            .expect("a square")
    }

    fn play(game: &mut Match<u8>, moves: &[&str], now: Instant) {
        for at in moves {
            let side = game.board().to_move();
            game.play(side, square(at), now).expect("a legal move");
        }
    }

    #[test]
    fn moves_are_taken_in_turn_and_a_line_ends_the_game_through_finish() {
        let t0 = Instant::now();
        let mut game = game(None, t0);
        assert_eq!(
            game.play(Player::O, square("a1"), t0),
            Err(Refusal::NotYourTurn)
        );
        play(&mut game, &["a1", "a2"], t0);
        assert_eq!(
            game.play(Player::X, square("a2"), t0),
            Err(Refusal::Illegal)
        );
        play(&mut game, &["b1", "b2"], t0);
        let played = game.play(Player::X, square("c1"), t0).expect("taken");
        assert_eq!(played.ply, 4);
        let end = played.end.expect("a line");
        assert_eq!(end.verdict, Some(Outcome::Win(Player::X)));
        assert_eq!(end.termination(), Termination::Board);
        assert_eq!(game.end(), Some(end));
        assert_eq!(game.play(Player::O, square("d4"), t0), Err(Refusal::Over));
        // A game ends once: a resignation after the line changes nothing.
        assert_eq!(game.resign(Player::O, t0), None);
    }

    #[test]
    fn an_end_before_each_side_moved_twice_is_an_abort() {
        let t0 = Instant::now();
        let mut game = game(None, t0);
        play(&mut game, &["a1", "a2", "b1"], t0);
        let end = game.resign(Player::O, t0).expect("ended");
        assert!(end.aborted());
        assert_eq!(end.termination(), Termination::Aborted);
        let mut game = self::game(None, t0);
        play(&mut game, &["a1", "a2", "b1", "b2"], t0);
        let end = game.resign(Player::O, t0).expect("ended");
        assert_eq!(end.verdict, Some(Outcome::Win(Player::X)));
        assert_eq!(end.termination(), Termination::Resigned);
    }

    #[test]
    fn a_fallen_flag_loses_or_draws_and_a_late_move_is_refused() {
        let t0 = Instant::now();
        let mut game = game(Some("1+0"), t0);
        play(&mut game, &["a1", "b1", "b2", "c2"], t0);
        assert_eq!(game.deadline(), Some(t0 + Duration::from_secs(60)));
        let late = t0 + Duration::from_secs(61);
        // X moves too late: the move is refused and X has lost on time.
        assert_eq!(
            game.play(Player::X, square("d4"), late),
            Err(Refusal::OutOfTime)
        );
        let end = game.end().expect("over");
        assert_eq!(end.cause, Cause::OutOfTime(Player::X));
        assert_eq!(end.verdict, Some(Outcome::Win(Player::O)));
        assert_eq!(end.termination(), Termination::Time);
        assert_eq!(game.deadline(), None);

        // X a1 b1 c2 a3, O c1 a2 b2 b3 on 3x3: O can make no line.
        let start = Board::new();
        let mut classic = Match::new(
            start,
            rules(Some("1+0")),
            TableSeat::new("alice", 1u8),
            TableSeat::new("bob", 2),
            t0,
        );
        for mv in [0, 2, 1, 3, 5, 4, 6, 7] {
            let side = classic.board().to_move();
            classic
                .play(side, Square::from_index(mv, 3), t0)
                .expect("legal");
        }
        assert_eq!(classic.referee(t0 + Duration::from_secs(59)), None);
        let end = classic.referee(late).expect("the flag fell");
        assert_eq!(end.verdict, Some(Outcome::Draw));
    }

    #[test]
    fn a_player_away_past_the_grace_forfeits_and_one_back_in_time_plays_on() {
        let t0 = Instant::now();
        let mut game = game(None, t0);
        play(&mut game, &["a1", "a2", "b1", "b2"], t0);
        assert!(game.leave(Player::O, t0));
        assert_eq!(game.away(), Some((Player::O, t0 + GRACE)));
        assert_eq!(game.deadline(), Some(t0 + GRACE));
        game.back(Player::O);
        assert_eq!(game.deadline(), None);
        let later = t0 + Duration::from_secs(10);
        game.leave(Player::O, later);
        assert_eq!(game.referee(later + GRACE - Duration::from_secs(1)), None);
        let end = game.referee(later + GRACE).expect("forfeited");
        assert_eq!(end.cause, Cause::DidNotComeBack(Player::O));
        assert_eq!(end.verdict, Some(Outcome::Win(Player::X)));
        assert_eq!(end.termination(), Termination::Forfeit);
        assert!(!game.leave(Player::X, later), "no seat kept once over");
    }

    #[test]
    fn the_player_who_left_first_loses_whatever_the_other_does_after() {
        let t0 = Instant::now();
        let mut game = game(None, t0);
        play(&mut game, &["a1", "a2", "b1", "b2"], t0);
        // O, losing, leaves; X leaves a second later.
        game.leave(Player::O, t0);
        game.leave(Player::X, t0 + Duration::from_secs(1));
        let end = game.referee(t0 + GRACE).expect("ended");
        assert_eq!(end.cause, Cause::DidNotComeBack(Player::O));
        assert_eq!(end.verdict, Some(Outcome::Win(Player::X)));
        // O comes back while X is away: X, the one away now, loses.
        let mut game = self::game(None, t0);
        play(&mut game, &["a1", "a2", "b1", "b2"], t0);
        game.leave(Player::O, t0);
        game.leave(Player::X, t0 + Duration::from_secs(1));
        game.back(Player::O);
        let end = game
            .referee(t0 + GRACE + Duration::from_secs(1))
            .expect("ended");
        assert_eq!(end.cause, Cause::DidNotComeBack(Player::X));
    }

    #[test]
    fn players_who_left_at_the_same_moment_have_the_game_aborted() {
        let t0 = Instant::now();
        let start = Board::empty(4, 3).expect("4x4");
        let seats = [TableSeat::new("alice", 1u8), TableSeat::new("bob", 2)];
        let moves = ["a1", "a2", "b1", "b2"].map(square).to_vec();
        let mut game = Match::restored(start, rules(None), seats, moves, [None; 2], t0)
            .expect("the moves play");
        let end = game.referee(t0 + GRACE).expect("ended");
        assert_eq!(end.cause, Cause::NeitherCameBack);
        assert!(end.aborted());
    }

    #[test]
    fn without_a_clock_the_waiting_side_may_claim_after_the_claim_time() {
        let t0 = Instant::now();
        let mut game = game(None, t0);
        play(&mut game, &["a1", "a2", "b1", "b2"], t0);
        // X to move since t0: O may claim from t0 + CLAIM, X never.
        assert_eq!(game.claim_at(), Some(t0 + CLAIM));
        assert_eq!(
            game.claim(Player::X, true, t0 + CLAIM),
            Err(NoClaim::YourTurn)
        );
        let early = t0 + CLAIM - Duration::from_secs(1);
        assert_eq!(
            game.claim(Player::O, true, early),
            Err(NoClaim::NotYet(t0 + CLAIM))
        );
        let end = game.claim(Player::O, true, t0 + CLAIM).expect("claimed");
        assert_eq!(end.verdict, Some(Outcome::Win(Player::O)));
        assert_eq!(end.termination(), Termination::Claimed);
        // Or the waiting side aborts instead; a move restarts the time.
        let mut game = self::game(None, t0);
        play(&mut game, &["a1", "a2", "b1", "b2"], t0);
        let later = t0 + Duration::from_secs(100);
        play(&mut game, &["d4"], later);
        assert_eq!(game.claim_at(), Some(later + CLAIM));
        let end = game
            .claim(Player::X, false, later + CLAIM)
            .expect("claimed");
        assert!(end.aborted());
        // A clock settles it by time: no claim.
        let game = self::game(Some("3+2"), t0);
        assert_eq!(game.claim_at(), None);
    }

    #[test]
    fn a_rematch_needs_both_and_swaps_the_sides() {
        let t0 = Instant::now();
        let mut game = game(Some("3+2"), t0);
        assert_eq!(game.ask_rematch(Player::X, t0), Rematch::Refused);
        play(&mut game, &["a1", "a2", "b1", "b2", "c1"], t0);
        assert_eq!(game.ask_rematch(Player::O, t0), Rematch::Asked);
        assert_eq!(game.ask_rematch(Player::X, t0), Rematch::Started);
        assert_eq!(game.round(), 1);
        assert_eq!(game.seat(Player::X).name, "bob");
        assert_eq!(game.seat(Player::O).player, 1);
        assert!(game.moves().is_empty() && !game.is_over());
        let clock = game.clock().expect("a clock");
        assert_eq!(clock.running, Some((Player::X, t0)));
        assert_eq!(game.side_where(|&p| p == 2), Some(Player::X));
    }

    #[test]
    fn a_restored_game_has_both_seats_away_and_the_mover_clock_running() {
        let t0 = Instant::now();
        let start = Board::empty(4, 3).expect("4x4");
        let seats = [TableSeat::new("alice", 1u8), TableSeat::new("bob", 2)];
        let moves = vec![square("a1"), square("a2"), square("b1")];
        let left = [Some(Duration::from_secs(100)), None];
        let game = Match::restored(start, rules(Some("3+2")), seats, moves, left, t0)
            .expect("the moves play");
        assert!(
            game.seats()
                .all(|(_, s)| s.away_until() == Some(t0 + GRACE))
        );
        let clock = game.clock().expect("a clock");
        assert_eq!(clock.x, Duration::from_secs(100));
        assert_eq!(clock.running, Some((Player::O, t0)));
        // Moves that do not play are not a game.
        let seats = [TableSeat::new("alice", 1u8), TableSeat::new("bob", 2)];
        let bad = vec![square("a1"), square("a1")];
        assert!(Match::restored(start, rules(None), seats, bad, [None; 2], t0).is_none());
    }
}

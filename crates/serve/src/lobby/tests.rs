use super::*;
use crate::store::{Database, Finish, Kind};
use std::time::Duration;
use tictactoe_engine::Board;
use tictactoe_engine::Outcome;
use tictactoe_game::versus::Termination;

fn lobby(dir: &tempfile::TempDir, grace: Duration) -> Lobby {
    let database = Database::open(&dir.path().join("lobby.db")).expect("a database");
    let rules = Rules {
        control: None,
        grace,
        claim_after: Duration::from_secs(120),
    };
    Lobby::new(Store::start(database, Duration::from_secs(60)), rules)
}

impl Lobby {
    /// Waits until everything handed to the store so far is written and shown.
    fn settled(&self) -> &Lobby {
        self.store().settle();
        self
    }

    fn read<T: Send + 'static>(&self, read: impl FnOnce(&mut Database) -> T + Send + 'static) -> T {
        self.store().ask_now(read).expect("the store answers")
    }
}

/// A player with a key of their own.
fn keyed(lobby: &Lobby, name: &str) -> (PlayerId, mpsc::UnboundedReceiver<Notice>) {
    let owned = name.to_string();
    let account = lobby
        .read(move |db| db.sign_in(&format!("SHA256:{owned}"), &owned))
        .expect("signed in")
        .expect("a free name");
    let (notices, received) = mpsc::unbounded_channel();
    (lobby.join(name, Some(account), notices).id, received)
}

fn rated(control: Option<&str>) -> Offer {
    Offer {
        kind: Kind { size: 4, k: 3 },
        rated: true,
        control: control.map(|c| c.parse().expect("a time control")),
    }
}

fn seated(lobby: &Lobby, received: &mut mpsc::UnboundedReceiver<Notice>) -> (GameId, Player) {
    lobby.settled();
    loop {
        match received.try_recv() {
            Ok(Notice::Seated { game, me, .. }) => return (game, me),
            Ok(_) => {}
            Err(error) => panic!("no seat: {error:?}"),
        }
    }
}

fn last_view(lobby: &Lobby, received: &mut mpsc::UnboundedReceiver<Notice>) -> Option<View> {
    lobby.settled();
    let mut last = None;
    while let Ok(notice) = received.try_recv() {
        if let Notice::Table(_, view) = notice {
            last = Some(view);
        }
    }
    last
}

#[test]
fn seeks_pair_only_with_the_same_offer_and_guests_seek_casual_games() {
    let dir = tempfile::tempdir().expect("a folder");
    let lobby = lobby(&dir, Duration::from_secs(60));
    let (alice, mut alice_rx) = keyed(&lobby, "alice");
    let (bob, _) = keyed(&lobby, "bob");
    let (guest_tx, _guest_rx) = mpsc::unbounded_channel();
    let guest = lobby.join("guest", None, guest_tx).id;
    assert_eq!(lobby.seek(alice, rated(None)), None);
    assert_eq!(
        lobby.seek(bob, rated(Some("3+2"))),
        None,
        "another clock: both wait"
    );
    // A guest's rated seek is a casual one: it takes no rated seek.
    assert_eq!(lobby.seek(guest, rated(None)), None);
    let seeks = lobby.snapshot().seeks;
    assert_eq!(seeks.len(), 3);
    assert!(
        !seeks
            .iter()
            .find(|s| s.by == guest)
            .expect("listed")
            .offer
            .rated
    );
    assert_eq!(
        lobby.accept(guest, alice),
        None,
        "a guest cannot take a rated seek"
    );
    // bob takes alice's seek as it is: she plays X.
    let game = lobby.accept(bob, alice).expect("a game");
    assert_eq!(seated(&lobby, &mut alice_rx), (game, Player::X));
    assert!(lobby.snapshot().seeks.iter().all(|s| s.by == guest));
}

#[test]
fn a_dropped_seat_is_kept_then_forfeited_and_the_ratings_move() {
    let dir = tempfile::tempdir().expect("a folder");
    let grace = Duration::from_secs(60);
    let lobby = lobby(&dir, grace);
    let (alice, mut alice_rx) = keyed(&lobby, "alice");
    let (bob, _) = keyed(&lobby, "bob");
    lobby.seek(alice, rated(None));
    let game = lobby.seek(bob, rated(None)).expect("paired");
    for (who, at) in [(alice, "a1"), (bob, "a2"), (alice, "b1"), (bob, "b2")] {
        let mv = Board::empty(4, 3)
            .expect("4x4")
            .geometry()
            .parse_square(at)
            .expect("a square");
        assert_eq!(lobby.play(who, game, 0, mv), Ok(()));
    }
    // Out of turn, or a square taken: refused.
    assert_eq!(lobby.play(bob, game, 0, Square::new(3, 3)), Err(NotNow));
    lobby.leave(bob);
    let view = last_view(&lobby, &mut alice_rx).expect("told");
    assert_eq!(view.away.map(|(side, _)| side), Some(Player::O));
    // Back before the grace ends: the seat again, the game as it was.
    let (bob, mut bob_rx) = keyed(&lobby, "bob");
    assert_eq!(seated(&lobby, &mut bob_rx), (game, Player::O));
    lobby.leave(bob);
    lobby
        .settled()
        .enforce(Instant::now() + grace + Duration::from_secs(1));
    let view = last_view(&lobby, &mut alice_rx).expect("told");
    assert_eq!(view.over.as_deref(), Some("bob did not come back"));
    let (x, o) = view.ratings.expect("rated");
    assert!(x.glicko.rating > 1500.0 && o.glicko.rating < 1500.0);
    assert_eq!(lobby.read(|db| db.unfinished()).expect("read").len(), 0);
}

#[test]
fn a_fallen_flag_is_a_draw_when_the_other_side_has_no_line_left_to_make() {
    let dir = tempfile::tempdir().expect("a folder");
    let lobby = lobby(&dir, Duration::from_secs(60));
    let (alice, mut alice_rx) = keyed(&lobby, "alice");
    let (bob, _) = keyed(&lobby, "bob");
    let classic = || Offer {
        kind: Kind { size: 3, k: 3 },
        ..rated(Some("1+0"))
    };
    lobby.seek(alice, classic());
    let game = lobby.seek(bob, classic()).expect("paired");
    // X a1 b1 c2 a3, O c1 a2 b2 b3: every line holds an X, nobody has
    // won, c3 is free and X is to move.
    let moves = [0, 2, 1, 3, 5, 4, 6, 7];
    for (mv, who) in moves.into_iter().zip([alice, bob].into_iter().cycle()) {
        assert_eq!(lobby.play(who, game, 0, Square::from_index(mv, 3)), Ok(()));
    }
    // X's minute runs out, but O could never make a line: a draw.
    lobby
        .settled()
        .enforce(Instant::now() + Duration::from_secs(61));
    let view = last_view(&lobby, &mut alice_rx).expect("told");
    assert!(view.over.is_some(), "the game is over");
    let stored = lobby.read(|db| db.history(1, 1)).expect("read");
    assert_eq!(
        stored[0].finish,
        Some(Finish {
            verdict: Some(Outcome::Draw),
            termination: Termination::Time
        })
    );
    assert_eq!(stored[0].moves.len(), moves.len());
}

#[test]
fn a_fallen_flag_loses_on_time_while_the_other_side_can_still_make_a_line() {
    let dir = tempfile::tempdir().expect("a folder");
    let lobby = lobby(&dir, Duration::from_secs(60));
    let (alice, mut alice_rx) = keyed(&lobby, "alice");
    let (bob, _) = keyed(&lobby, "bob");
    lobby.seek(alice, rated(Some("1+0")));
    let game = lobby.seek(bob, rated(Some("1+0"))).expect("paired");
    for (who, mv) in [(alice, 0), (bob, 1), (alice, 4), (bob, 5)] {
        let square = Square::from_index(mv, 4);
        assert_eq!(lobby.play(who, game, 0, square), Ok(()));
    }
    // X's minute runs out: O still has open lines, so O wins on time.
    lobby
        .settled()
        .enforce(Instant::now() + Duration::from_secs(61));
    let view = last_view(&lobby, &mut alice_rx).expect("told");
    assert_eq!(view.over.as_deref(), Some("alice ran out of time"));
    let stored = lobby.read(|db| db.history(1, 1)).expect("read");
    assert_eq!(
        stored[0].finish,
        Some(Finish {
            verdict: Some(Outcome::Win(Player::O)),
            termination: Termination::Time
        })
    );
}

//! Certificates as the checker reads them: in replay order as it reads,
//! the first version's too, the line cap, unreachable nodes, hold claims.

use std::io::BufReader;

use tictactoe_engine::solve::certificate::{
    self, CheckError, Claim, MAX_LINE_BYTES, ReadError, check, check_reader,
};
use tictactoe_engine::solve::{Outcome, Techniques, solve};
use tictactoe_engine::{Board, Player};

/// The lines of the certificate `solve --certificate` writes for `board`.
fn certificate_lines(board: &Board) -> Vec<String> {
    let mut proof = solve(board, Techniques::all());
    let strategies = proof.strategies().expect("the strategies");
    certificate::lines(board, proof.value, &strategies).collect()
}

fn join(lines: &[String]) -> String {
    lines.iter().map(|line| format!("{line}\n")).collect()
}

/// The same certificate written as version 1.
fn as_version_1(lines: &[String]) -> Vec<String> {
    let mut lines = lines.to_vec();
    lines[0] = lines[0].replace(r#""version": 2"#, r#""version": 1"#);
    lines
}

#[test]
fn a_certificate_in_replay_order_is_checked_as_it_is_read_with_no_node_held() {
    for (size, k) in [
        (3, 3),
        (4, 3),
        (5, 4),
        (6, 4),
        (6, 5),
        (7, 3),
        (7, 5),
        (8, 6),
    ] {
        let board = Board::empty(size, k).unwrap();
        let lines = certificate_lines(&board);
        assert!(lines[0].contains(r#""version": 2"#), "{}", lines[0]);
        let verified = check(join(&lines)).unwrap_or_else(|e| panic!("{size}x{size} k={k}: {e}"));
        for replayed in &verified.strategies {
            assert_eq!(replayed.held, 0, "{size}x{size} k={k}: {replayed:?}");
            assert_eq!(replayed.unreachable, 0, "{size}x{size} k={k}: {replayed:?}");
            assert!(replayed.positions as usize >= replayed.nodes);
        }
        // The same lines as version 1: held whole, replayed at the end, the same result.
        let old = check(join(&as_version_1(&lines))).expect("version 1 is read too");
        assert_eq!(old.claim, verified.claim);
        for (new, old) in verified.strategies.iter().zip(&old.strategies) {
            assert_eq!((new.positions, new.nodes), (old.positions, old.nodes));
            assert_eq!(old.held, old.nodes, "every node held till the end");
        }
    }
}

#[test]
fn nodes_out_of_order_are_held_until_needed_and_version_1_takes_any_order() {
    // X's win on 4x4 with three in a row: every node is a move of X.
    let board = Board::empty(4, 3).unwrap();
    let lines = certificate_lines(&board);
    let mut shuffled = lines.clone();
    shuffled[2..].reverse();
    let verified = check(join(&shuffled)).expect("move nodes may come in any order");
    assert_eq!(verified.claim, Outcome::Win(Player::X));
    assert!(verified.strategies[0].held > 0);
    // A drawn board's holds, shuffled: version 1 promises no order and reads it.
    let board = Board::empty(5, 4).unwrap();
    let mut lines = as_version_1(&certificate_lines(&board));
    let second = lines
        .iter()
        .position(|l| l.contains(r#""player": "o""#))
        .unwrap();
    lines[2..second].reverse();
    lines[second + 1..].reverse();
    assert_eq!(check(join(&lines)).expect("any order").claim, Outcome::Draw);
}

#[test]
fn nodes_the_replay_never_reaches_are_counted() {
    let board = Board::empty(4, 3).unwrap();
    let mut lines = certificate_lines(&board);
    // A move of X from a position X's strategy never lets the game reach.
    let stray = r#"{"board": "xo../xo../..../....", "move": "a3"}"#;
    lines.push(stray.to_string());
    lines.insert(
        3,
        stray.replace("a3", "a4").replace("xo../xo..", "xo../x.o."),
    );
    let verified = check(join(&lines)).expect("still a proof");
    assert_eq!(verified.claim, Outcome::Win(Player::X));
    assert_eq!(
        verified.strategies[0].unreachable, 2,
        "{:?}",
        verified.strategies
    );
}

#[test]
fn the_line_cap_is_64_kib_exactly_and_a_reader_is_read_a_line_at_a_time() {
    let board = Board::empty(4, 3).unwrap();
    let lines = certificate_lines(&board);
    // JSON allows spaces: a header padded to exactly the cap is read...
    let padded = |len: usize| {
        let header = &lines[0];
        format!(
            "{}{}}}",
            &header[..header.len() - 1],
            " ".repeat(len - header.len())
        )
    };
    let mut at_cap = lines.clone();
    at_cap[0] = padded(MAX_LINE_BYTES);
    assert_eq!(at_cap[0].len(), 65_536);
    for capacity in [1, 7, 8192, 1 << 20] {
        let text = join(&at_cap).into_bytes();
        let verified = check_reader(BufReader::with_capacity(capacity, text.as_slice()))
            .unwrap_or_else(|e| panic!("capacity {capacity}: {e}"));
        assert_eq!(verified.claim, Outcome::Win(Player::X));
        // ... and with \r\n endings too.
        let crlf: Vec<u8> = text
            .iter()
            .flat_map(|&b| {
                if b == b'\n' {
                    vec![b'\r', b'\n']
                } else {
                    vec![b]
                }
            })
            .collect();
        assert!(check_reader(BufReader::with_capacity(capacity, crlf.as_slice())).is_ok());
    }
    assert!(check(join(&at_cap)).is_ok());
    // ... one byte more is refused, by the reader before it reads further.
    let mut over = lines.clone();
    over[0] = padded(MAX_LINE_BYTES + 1);
    assert_eq!(check(join(&over)), Err(CheckError::LineTooLong(1)));
    let endless = std::io::repeat(b' ');
    let error = check_reader(BufReader::new(endless)).unwrap_err();
    assert!(
        matches!(error, ReadError::Refused(CheckError::LineTooLong(1))),
        "{error}"
    );
    let mut second = lines.clone();
    second[1] = format!(
        "{}{}",
        lines[1],
        " ".repeat(MAX_LINE_BYTES + 1 - lines[1].len())
    );
    assert!(matches!(
        check_reader(join(&second).as_bytes()),
        Err(ReadError::Refused(CheckError::LineTooLong(2)))
    ));
}

#[test]
fn a_hold_alone_is_claimed_in_version_2_only() {
    // O holds 5x5 with four in a row: X never gets four.
    let board = Board::empty(5, 4).unwrap();
    let mut proof = solve(&board, Techniques::all());
    let strategies = proof.strategies().unwrap();
    let hold_of_o: Vec<_> = strategies
        .into_iter()
        .filter(|s| s.player == Player::O)
        .collect();
    let lines: Vec<String> =
        certificate::claim_lines(&board, Claim::Holds(Player::O), &hold_of_o).collect();
    assert!(lines[0].contains(r#""claim": "o-holds""#), "{}", lines[0]);
    let verified = check(join(&lines)).expect("a hold alone");
    assert_eq!(verified.claim, Claim::Holds(Player::O));
    assert_eq!(verified.strategies.len(), 1);
    // The hold of X is no part of that claim, and a win is no hold.
    let error = check(join(&as_version_1(&lines))).unwrap_err();
    assert!(error.to_string().contains("needs version 2"), "{error}");
    let wrong: Vec<String> =
        certificate::claim_lines(&board, Claim::Holds(Player::X), &hold_of_o).collect();
    assert!(matches!(
        check(join(&wrong)),
        Err(CheckError::ExtraStrategy { .. })
    ));
}

//! The prover against the literature and against the exhaustive search, its
//! certificates against the checker, and the checker against damaged
//! certificates; `solve` and `verify` through the real binary.

use crate::support;

use std::collections::HashSet;
use std::process::Stdio;
use std::time::Duration;

use tictactoe_engine::solve::certificate::{self, CheckError, Verified, check};
use tictactoe_engine::solve::{Goal, Outcome, Techniques, solve};
use tictactoe_engine::{
    Ai, Board, Dice, Level, Limits, Player, Status, analyze, reachable_positions,
};

use support::tictactoe;

/// Every board the game offers with its value as the literature gives it:
/// k=3 is a first-player win from 4x4 up, four in a row from 6x6 up (Uiterwijk
/// 2019: 6x5 is the smallest board the first player wins), and everything
/// else is a draw (7x7 with five in a row: Hsu, Ko, Chen et al., TCS 815, 2020).
const LITERATURE: [(u8, u8, Outcome); 15] = [
    (3, 3, Outcome::Draw),
    (4, 3, Outcome::Win(Player::X)),
    (4, 4, Outcome::Draw),
    (5, 3, Outcome::Win(Player::X)),
    (5, 4, Outcome::Draw),
    (5, 5, Outcome::Draw),
    (6, 3, Outcome::Win(Player::X)),
    (6, 4, Outcome::Win(Player::X)),
    (6, 5, Outcome::Draw),
    (6, 6, Outcome::Draw),
    (7, 3, Outcome::Win(Player::X)),
    (7, 4, Outcome::Win(Player::X)),
    (7, 5, Outcome::Draw),
    (7, 6, Outcome::Draw),
    (7, 7, Outcome::Draw),
];

/// The certificate of a proof as the text `solve --certificate` writes.
fn certificate_text(board: &Board) -> String {
    let mut proof = solve(board, Techniques::all());
    let strategies = proof.strategies().expect("the proof gives its strategies");
    certificate::lines(board, proof.value, &strategies)
        .map(|line| line + "\n")
        .collect()
}

fn checked(text: &str) -> Result<Verified, CheckError> {
    check(text)
}

#[test]
fn every_board_has_the_literature_value_and_a_certificate_that_checks() {
    for (size, k, value) in LITERATURE {
        let board = Board::empty(size, k).unwrap();
        let text = certificate_text(&board);
        let verified = checked(&text).unwrap_or_else(|e| panic!("{size}x{size} k={k}: {e}"));
        assert_eq!(verified.claim, value, "{size}x{size} k={k}");
        assert_eq!(verified.board, board);
        let wanted = match value {
            Outcome::Win(player) => vec![(Goal::Win, player)],
            Outcome::Draw => vec![(Goal::Hold, Player::X), (Goal::Hold, Player::O)],
        };
        let got: Vec<(Goal, Player)> = verified
            .strategies
            .iter()
            .map(|s| (s.goal, s.player))
            .collect();
        assert_eq!(got, wanted, "{size}x{size} k={k}");
    }
}

/// The exhaustive search's value of a position as the prover names it.
fn searched(board: &Board) -> Outcome {
    match board.status() {
        Status::Won(winner) => Outcome::Win(winner),
        Status::Draw => Outcome::Draw,
        Status::InProgress { to_move } => {
            let value = analyze(board, Limits::ToTheEnd).value().expect("a move");
            match value.signum() {
                1 => Outcome::Win(to_move),
                -1 => Outcome::Win(to_move.other()),
                _ => Outcome::Draw,
            }
        }
    }
}

/// Every position `plies` moves from the empty board, one of each symmetric family.
fn positions_after(size: u8, k: u8, plies: usize) -> Vec<Board> {
    let mut boards = vec![Board::empty(size, k).unwrap()];
    for _ in 0..plies {
        let mut seen = HashSet::new();
        boards = boards
            .iter()
            .flat_map(|board| {
                board
                    .legal_moves()
                    .into_iter()
                    .map(|mv| board.play(mv).unwrap())
            })
            .filter(|board| seen.insert(canonical(board)))
            .collect();
    }
    boards
}

/// The smallest notation among a board's rotations and reflections.
fn canonical(board: &Board) -> String {
    let n = usize::from(board.size());
    let cells: Vec<char> = board.to_string().replace('/', "").chars().collect();
    (0..8)
        .map(|s| {
            let mut image = vec!['.'; n * n];
            for (i, &cell) in cells.iter().enumerate() {
                let (mut r, mut c) = (i / n, i % n);
                if s >= 4 {
                    (r, c) = (c, r);
                }
                for _ in 0..s % 4 {
                    (r, c) = (c, n - 1 - r);
                }
                image[r * n + c] = cell;
            }
            image.into_iter().collect::<String>()
        })
        .min()
        .unwrap()
}

#[test]
fn the_prover_agrees_with_the_exhaustive_search_on_every_4x4_position_after_two_and_three_moves() {
    let mut compared = 0;
    for k in [3, 4] {
        for plies in [2, 3] {
            for board in positions_after(4, k, plies) {
                assert_eq!(
                    solve(&board, Techniques::all()).value,
                    searched(&board),
                    "{board} k={k}"
                );
                compared += 1;
            }
        }
    }
    assert!(compared > 400, "{compared} positions");
}

#[test]
fn the_prover_agrees_with_the_table_on_every_3x3_position() {
    for board in reachable_positions() {
        assert_eq!(
            solve(&board, Techniques::all()).value,
            searched(&board),
            "{board}"
        );
    }
}

#[test]
fn the_prover_agrees_with_the_exhaustive_search_on_5x5_positions_with_four_in_a_row() {
    let mut rng = fastrand::Rng::with_seed(20);
    for _ in 0..12 {
        let mut board = Board::empty(5, 4).unwrap();
        for _ in 0..6 {
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            board = board.play(moves[rng.usize(..moves.len())]).unwrap();
        }
        assert_eq!(
            solve(&board, Techniques::all()).value,
            searched(&board),
            "{board}"
        );
    }
}

#[test]
fn without_any_one_technique_the_prover_finds_the_same_values() {
    use tictactoe_engine::solve::Technique;
    for technique in Technique::ALL {
        for (size, k, value) in [
            (4, 3, Outcome::Win(Player::X)),
            (4, 4, Outcome::Draw),
            (5, 5, Outcome::Draw),
        ] {
            let board = Board::empty(size, k).unwrap();
            let mut proof = solve(&board, Techniques::all().without(technique));
            assert_eq!(
                proof.value, value,
                "{size}x{size} k={k} without {technique:?}"
            );
            // The certificate still answers in pairs where it can: without
            // them it would list every position the potential holds.
            let strategies = proof.strategies().unwrap();
            let text: String = certificate::lines(&board, proof.value, &strategies)
                .map(|line| line + "\n")
                .collect();
            assert!(
                checked(&text).is_ok(),
                "{size}x{size} k={k} without {technique:?}"
            );
        }
    }
}

// The checker refuses what does not prove its claim.

/// A small certificate with moves and pairs: 3x3 is a draw.
fn classic() -> Vec<String> {
    certificate_text(&Board::new())
        .lines()
        .map(str::to_string)
        .collect()
}

fn join(lines: &[String]) -> String {
    lines.iter().map(|line| format!("{line}\n")).collect()
}

/// The first line holding `needle`.
fn line_with(lines: &[String], needle: &str) -> usize {
    lines
        .iter()
        .position(|line| line.contains(needle))
        .unwrap_or_else(|| panic!("no line with {needle}"))
}

#[test]
fn the_checker_accepts_the_classic_certificate_and_says_what_it_proved() {
    let verified = checked(&join(&classic())).unwrap();
    assert_eq!(verified.board, Board::new());
    assert_eq!(verified.claim, Outcome::Draw);
    assert!(
        verified
            .strategies
            .iter()
            .all(|s| s.positions > 0 && s.nodes > 0)
    );
}

#[test]
fn a_move_removed_leaves_a_position_not_covered() {
    let mut lines = classic();
    // The hold for O answers each first move of X: drop the first of those answers.
    let section = line_with(&lines, r#""player": "o""#);
    let answer = (section + 1..lines.len())
        .find(|&i| lines[i].contains(r#""move""#))
        .unwrap();
    lines.remove(answer);
    let error = checked(&join(&lines)).unwrap_err();
    assert!(matches!(error, CheckError::NotCovered { .. }), "{error}");
    assert!(
        error
            .to_string()
            .starts_with("not covered: the hold strategy for o has no move at "),
        "{error}"
    );
}

/// The index of a line with at least two pairs, and its pairs.
fn pairs_line(lines: &[String]) -> (usize, serde_json::Value) {
    lines
        .iter()
        .enumerate()
        .find_map(|(i, line)| {
            let value: serde_json::Value = serde_json::from_str(line).ok()?;
            (value["pairs"].as_array()?.len() >= 2).then_some((i, value))
        })
        .expect("a node with two pairs or more")
}

/// What the checker says of the classic certificate once `damage` has
/// changed the pairs of a node that has two or more.
fn pairs_damaged(damage: impl FnOnce(&mut Vec<serde_json::Value>)) -> String {
    let mut lines = classic();
    let (i, mut node) = pairs_line(&lines);
    damage(node["pairs"].as_array_mut().unwrap());
    lines[i] = node.to_string();
    checked(&join(&lines)).unwrap_err().to_string()
}

#[test]
fn a_pair_missing_leaves_a_line_open() {
    let error = pairs_damaged(|pairs| {
        pairs.pop();
    });
    assert!(error.contains("no pair lies on the line"), "{error}");
}

#[test]
fn two_pairs_crossed_leave_a_line_open() {
    let error = pairs_damaged(|pairs| {
        let last = pairs.len() - 1;
        let (b, d) = (pairs[0][1].clone(), pairs[last][1].clone());
        pairs[0][1] = d;
        pairs[last][1] = b;
    });
    assert!(error.contains("no pair lies on the line"), "{error}");
}

#[test]
fn a_pair_used_twice_is_refused() {
    let error = pairs_damaged(|pairs| pairs[1][0] = pairs[0][0].clone());
    assert!(error.contains("not disjoint"), "{error}");
}

#[test]
fn a_wrong_claim_is_refused() {
    let lines = classic();
    for claim in ["x-wins", "o-wins"] {
        let mut wrong = lines.clone();
        wrong[0] = wrong[0].replace(r#""claim": "draw""#, &format!(r#""claim": "{claim}""#));
        let error = checked(&join(&wrong)).unwrap_err();
        // The win it claims is missing, and the holds it has are no part of the claim.
        assert!(
            matches!(
                error,
                CheckError::ExtraStrategy { .. } | CheckError::MissingStrategy { .. }
            ),
            "{error}"
        );
    }
    // A hold passed off as a win does not win.
    let mut faked = lines.clone();
    faked[0] = faked[0].replace(r#""claim": "draw""#, r#""claim": "x-wins""#);
    let x_hold = line_with(&faked, r#""strategy": "hold", "player": "x""#);
    faked[x_hold] = r#"{"strategy": "win", "player": "x"}"#.to_string();
    let o_hold = line_with(&faked, r#""player": "o""#);
    faked.truncate(o_hold);
    let error = checked(&join(&faked)).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("pairs hold a position but cannot win it"),
        "{error}"
    );
}

#[test]
fn a_win_claimed_on_a_drawn_board_fails_the_replay() {
    // 4x4 with three in a row is a win for X; claim it for 4x4 with four.
    let text = certificate_text(&Board::empty(4, 3).unwrap());
    let moved = text.replacen(r#""k": 3"#, r#""k": 4"#, 1);
    let error = checked(&moved).unwrap_err();
    assert!(
        matches!(
            error,
            CheckError::NotCovered { .. } | CheckError::BoardFills { .. }
        ),
        "{error}"
    );
}

#[test]
fn a_bad_move_in_a_win_is_caught() {
    let text = certificate_text(&Board::empty(4, 3).unwrap());
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    // X's first move, moved to a corner.
    let first = line_with(&lines, r#""move""#);
    let mut node: serde_json::Value = serde_json::from_str(&lines[first]).unwrap();
    node["move"] = "a1".into();
    lines[first] = node.to_string();
    assert!(checked(&join(&lines)).is_err());
}

#[test]
fn malformed_certificates_name_the_line() {
    let lines = classic();
    let cases: Vec<(String, &str)> = vec![
        (String::new(), "the certificate is empty"),
        ("nonsense\n".to_string(), "line 1: "),
        (
            join(&lines).replacen("tictactoe-proof", "chess-proof", 1),
            "line 1: not a tictactoe proof",
        ),
        (
            join(&lines).replacen(r#""version": 2"#, r#""version": 3"#, 1),
            "line 1: version 3",
        ),
        (
            join(&lines).replacen(r#""claim": "draw""#, r#""claim": "maybe""#, 1),
            "line 1: \"maybe\" is not a claim",
        ),
        (
            join(&lines).replacen(r#""player": "o""#, r#""player": "O""#, 1),
            "\"O\" is not a player",
        ),
        (
            join(&[lines[0].clone(), lines[2].clone()]),
            "line 2: a node before any strategy section",
        ),
        (
            join(&[lines[0].clone(), lines[1].clone(), lines[1].clone()]),
            "line 3: a second hold strategy for x",
        ),
        (
            join(&lines) + r#"{"board": "xxx/oo./...", "move": "c3"}"# + "\n",
            "the game is over",
        ),
        (
            join(&lines) + r#"{"board": "xo./ox./...", "move": "c3"}"# + "\n",
            "a move for o where x is to move",
        ),
    ];
    for (text, wanted) in cases {
        let error = checked(&text).unwrap_err().to_string();
        assert!(error.contains(wanted), "{error:?} should say {wanted:?}");
    }
    // Not UTF-8.
    let error = check(b"\xff\xfe\n").unwrap_err();
    assert_eq!(error, CheckError::NotText(1));
    // Another program's JSON is named as such, whatever its other fields.
    let error = checked("{\"format\": \"tictactoe-stats\", \"version\": 1, \"games\": 3}\n");
    assert!(
        error
            .unwrap_err()
            .to_string()
            .starts_with("line 1: not a tictactoe proof"),
    );
}

#[test]
fn a_position_listed_twice_up_to_symmetry_is_refused() {
    let lines = classic();
    let node = line_with(&lines, r#""move""#);
    let mut twice = lines.clone();
    twice.insert(node + 1, lines[node].clone());
    let error = checked(&join(&twice)).unwrap_err();
    assert!(error.to_string().contains("listed twice"), "{error}");
}

// The commands.

#[test]
fn solve_prints_the_value_and_json_gives_the_fields() {
    let out = tictactoe(&["solve", "--size", "4", "--k", "3", "--json"], "");
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["size"], 4);
    assert_eq!(json["k"], 3);
    assert_eq!(json["board"], "..../..../..../....");
    assert_eq!(json["result"], "x-wins");
    assert!(json["positions"].as_u64().unwrap() > 0);
    assert!(json["ms"].is_u64());

    let out = tictactoe(&["solve", "--board", "x../.o./..x"], "");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("3x3, 3 in a row, from x../.o./..x: draw\n"),
        "{text}"
    );
}

#[test]
fn solve_refuses_bad_input_in_one_line() {
    for args in [
        vec!["solve", "--size", "5", "--k", "6"],
        vec!["solve", "--board", "xx"],
        vec!["solve", "--size", "4", "--board", "x../.../..."],
        vec!["solve", "--without", "magic"],
    ] {
        let out = tictactoe(&args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
    let out = tictactoe(
        &["solve", "--certificate", "/nonexistent/dir/proof.jsonl"],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with("error: cannot write the certificate"),
        "{err}"
    );
}

/// Runs `tictactoe verify path` and fails the test if it hangs.
fn verify(path: &std::path::Path) -> std::process::Output {
    let child = support::binary()
        .args(["verify", path.to_str().unwrap()])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    support::output_within(child, "verify")
}

/// `verify` refused `path` with status 2 and one line saying `wanted`.
fn refused(path: &std::path::Path, wanted: &str) {
    let out = verify(path);
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{path:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{path:?}: {err}");
    assert!(err.starts_with("error: "), "{path:?}: {err}");
    assert!(
        err.contains(wanted),
        "{path:?}: {err:?} should say {wanted:?}"
    );
    assert!(out.stdout.is_empty(), "{path:?}");
}

#[test]
fn a_certificate_written_by_solve_is_verified_by_verify() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("proof.jsonl");
    let out = tictactoe(
        &[
            "solve",
            "--size",
            "4",
            "--k",
            "3",
            "--certificate",
            path.to_str().unwrap(),
        ],
        "",
    );
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Certificate: "), "{text}");
    let out = verify(&path);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("verified: ..../..../..../.... (4x4, 3 in a row): X wins\n"),
        "{text}"
    );

    // Damaged: status 2, and one line says what is wrong.
    let good = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = good.lines().collect();
    let damaged = dir.path().join("damaged.jsonl");
    let write = |text: String| std::fs::write(&damaged, text).unwrap();

    write(good.replace(r#""claim": "x-wins""#, r#""claim": "draw""#));
    refused(
        &damaged,
        "a win strategy for x is no part of the claim draw",
    );

    // A line cut short: not JSON any more.
    let mut cut: Vec<String> = lines.iter().map(|line| line.to_string()).collect();
    let half = cut[2].len() / 2;
    cut[2].truncate(half);
    write(join(&cut));
    refused(&damaged, "line 3: ");

    // X's answer to one of O's replies removed.
    let reply = lines
        .iter()
        .enumerate()
        .skip(3)
        .find(|(_, line)| line.contains(r#""move""#))
        .map(|(i, _)| i)
        .unwrap();
    let mut missing: Vec<String> = lines.iter().map(|line| line.to_string()).collect();
    missing.remove(reply);
    write(join(&missing));
    refused(
        &damaged,
        "not covered: the win strategy for x has no move at ",
    );
}

#[test]
fn verify_refuses_what_is_not_a_certificate_file_without_hanging() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    support::named_pipe(&fifo);
    let huge = dir.path().join("huge.jsonl");
    let file = std::fs::File::create(&huge).unwrap();
    // Sparse: no disk is used.
    file.set_len(tictactoe::cli::verify::MAX_CERTIFICATE_BYTES + 1)
        .unwrap();
    let binary = dir.path().join("binary");
    std::fs::write(&binary, b"\xff\xfe\xfd\n").unwrap();
    // A header that is fine, then bytes that are not UTF-8.
    let tail = dir.path().join("tail.jsonl");
    let mut bytes = certificate_text(&Board::new()).into_bytes();
    bytes.extend_from_slice(b"{\"board\": \"\xc3\x28\"}\n");
    std::fs::write(&tail, bytes).unwrap();
    for (path, wanted) in [
        (fifo.as_path(), "not a regular file"),
        (dir.path(), "not a regular file"),
        (std::path::Path::new("/dev/zero"), "not a regular file"),
        (huge.as_path(), "too big"),
        (binary.as_path(), "line 1: not UTF-8"),
        (tail.as_path(), ": not UTF-8"),
        (std::path::Path::new("/nonexistent.jsonl"), "cannot read it"),
    ] {
        refused(path, wanted);
    }
}

#[test]
fn analyze_solve_gives_every_move_the_provers_value() {
    // 5x5 with four in a row after X takes the centre: O has draws and losses.
    let centre = "c3".parse::<tictactoe_engine::Square>().unwrap();
    let board = Board::empty(5, 4).unwrap().play(centre).unwrap();
    let out = tictactoe(
        &[
            "analyze",
            &board.to_string(),
            "--k",
            "4",
            "--think-ms",
            "50",
            "--solve",
            "--json",
        ],
        "",
    );
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let proof = &json["proof"];
    assert_eq!(proof["result"], "draw");
    assert_eq!(proof["keeps"], "hold");
    let moves = json["moves"].as_array().unwrap();
    assert_eq!(moves.len(), board.legal_moves().len());
    let value_after = |name: &serde_json::Value| {
        let mv = name
            .as_str()
            .unwrap()
            .parse::<tictactoe_engine::Square>()
            .unwrap();
        solve(&board.play(mv).unwrap(), Techniques::all()).value
    };
    for proven in moves {
        assert_eq!(
            proven["result"],
            value_after(&proven["move"]).name(),
            "{proven}"
        );
    }
    assert_eq!(value_after(&proof["move"]), Outcome::Draw);
    assert_eq!(
        json["best"], proof["move"],
        "the best move is the one the proof keeps"
    );

    // On 3x3 the table knows every score, and there is no proof to report.
    let out = tictactoe(&["analyze", "x../.../...", "--solve", "--json"], "");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(json.get("proof").is_none(), "{json}");
}

// The perfect AI plays the proofs.

/// Plays one game from `start` and returns the result.
fn game(start: Board, x: Level, o: Level, seed: u64) -> Status {
    let limits = Limits::Think(Duration::from_millis(20));
    let (mut ai_x, mut ai_o) = (Ai::new(), Ai::new());
    let mut dice = Dice::with_seed(seed);
    let mut board = start;
    while let Status::InProgress { to_move } = board.status() {
        let (ai, level) = match to_move {
            Player::X => (&mut ai_x, x),
            Player::O => (&mut ai_o, o),
        };
        let decision = ai.choose(&board, level, &mut dice, limits).expect("a move");
        board = board.play(decision.mv).unwrap();
    }
    board.status()
}

#[test]
fn perfect_x_wins_every_game_with_four_in_a_row_on_6x6_and_7x7() {
    for size in [6, 7] {
        let start = Board::empty(size, 4).unwrap();
        for (seed, opponent) in [
            Level::Random,
            Level::Easy,
            Level::Medium,
            Level::Hard,
            Level::Perfect,
        ]
        .into_iter()
        .enumerate()
        {
            let result = game(start, Level::Perfect, opponent, seed as u64);
            assert_eq!(
                result,
                Status::Won(Player::X),
                "{size}x{size} against {opponent}"
            );
        }
    }
}

#[test]
fn perfect_never_loses_on_a_drawn_board_on_either_side() {
    for (size, k) in [(4, 4), (5, 4), (6, 5), (7, 5), (7, 6)] {
        let start = Board::empty(size, k).unwrap();
        for (seed, opponent) in [Level::Random, Level::Medium, Level::Hard]
            .into_iter()
            .enumerate()
        {
            let seed = seed as u64;
            let as_x = game(start, Level::Perfect, opponent, seed);
            assert_ne!(
                as_x,
                Status::Won(Player::O),
                "{size}x{size} k={k} X against {opponent}"
            );
            let as_o = game(start, opponent, Level::Perfect, seed);
            assert_ne!(
                as_o,
                Status::Won(Player::X),
                "{size}x{size} k={k} O against {opponent}"
            );
        }
        assert_eq!(
            game(start, Level::Perfect, Level::Perfect, 1),
            Status::Draw,
            "{size}x{size} k={k}"
        );
    }
}

#[test]
fn perfect_takes_the_win_a_mistake_offers() {
    // 5x5 with four in a row is a draw, but here X has let O build two
    // open lines: O wins, and the book's hold alone would not see it.
    let mut rng = fastrand::Rng::with_seed(5);
    let mut found = 0;
    while found < 5 {
        // Random play until O, to move, has a proven win.
        let mut board = Board::empty(5, 4).unwrap();
        while !board.status().is_over() && board.move_count() < 9 {
            let moves = board.legal_moves();
            board = board.play(moves[rng.usize(..moves.len())]).unwrap();
        }
        if board.status() != (Status::InProgress { to_move: Player::O })
            || solve(&board, Techniques::all()).value != Outcome::Win(Player::O)
        {
            continue;
        }
        found += 1;
        let decision = Ai::new()
            .choose(
                &board,
                Level::Perfect,
                &mut Dice::with_seed(1),
                Limits::Think(Duration::from_millis(200)),
            )
            .unwrap();
        let after = board.play(decision.mv).unwrap();
        assert_eq!(
            solve(&after, Techniques::all()).value,
            Outcome::Win(Player::O),
            "{board}: {} lets the win go",
            decision.mv
        );
    }
}

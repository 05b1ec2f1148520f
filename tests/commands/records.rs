//! Game records end to end: self-play games written and read back, the
//! review's marks against the articles' plain minimax, bad records refused in
//! one line, and the screen-reader mode through pipes.

use std::collections::HashMap;
use std::fs;
use std::ops::ControlFlow;
use std::path::Path;
use std::process::{Output, Stdio};

use tictactoe_engine::teach::reference::{Algorithm, move_values};
use tictactoe_engine::{Ai, Board, Level, Limits, Outcome, Player, Scoring, Square};
use tictactoe_game::record::{self, Record, read_file};
use tictactoe_game::review::{Mark, review};
use tictactoe_game::selfplay::{Series, play_games_each};

use crate::support;

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8 output")
}

fn squares(text: &str) -> Vec<Square> {
    text.split_whitespace()
        .map(|square| square.parse::<Square>().expect("a square"))
        .collect()
}

#[test]
fn ten_thousand_selfplay_games_are_written_and_read_back_move_for_move() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("games.ttt");
    let (games, seed) = (10_000, 2126);
    let out = support::tictactoe(
        &[
            "selfplay",
            "--x",
            "random",
            "--o",
            "easy",
            "--games",
            "10000",
            "--seed",
            "2126",
            "--record",
            file.to_str().unwrap(),
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    // The same seed plays the same games in this process.
    let mut played: Vec<Vec<Square>> = Vec::new();
    let start = Board::new();
    let series = Series {
        start,
        x: Level::Random,
        o: Level::Easy,
        games,
        seed,
        limits: Limits::Think(tictactoe_engine::DEFAULT_THINK),
    };
    play_games_each(series, |moves| {
        played.push(moves.to_vec());
        ControlFlow::Continue(())
    })
    .unwrap();
    let read = read_file(&file, &mut std::io::empty()).expect("the file reads back");
    assert_eq!(read.len(), games as usize);
    for (number, (record, moves)) in read.iter().zip(&played).enumerate() {
        assert_eq!(record.moves(), &moves[..], "game {}", number + 1);
        let end = moves
            .iter()
            .fold(start, |board, &mv| board.play(mv).unwrap());
        assert_eq!(record.end(), end, "game {}", number + 1);
        assert_eq!(record.result(), end.status().outcome());
    }
    // Written again from what was read, the file is the same text (but
    // for the blank line the appender leaves after the last game).
    let again = record::notation::write_all(&read);
    let written = fs::read_to_string(&file).unwrap();
    let differ = again.lines().zip(written.lines()).position(|(a, b)| a != b);
    assert_eq!(differ, None, "the first line that differs");
    assert_eq!(again.trim_end(), written.trim_end());
}

/// Every game from `board` on, each a list of moves from the start.
fn every_game(board: Board, moves: &mut Vec<Square>, games: &mut Vec<Vec<Square>>) {
    if board.status().is_over() {
        games.push(moves.clone());
        return;
    }
    for mv in board.legal_moves() {
        moves.push(mv);
        every_game(board.play(mv).unwrap(), moves, games);
        moves.pop();
    }
}

#[test]
fn the_reviews_marks_agree_with_plain_minimax_on_every_game_from_a_few_openings() {
    // Every way to finish a game from each opening: 3,000-odd games.
    let openings = ["b2 a1 c3", "a1 b2 c3", "b1 b2 b3", "c3 a2 b2", "a1 c3 b2"];
    let mut games = Vec::new();
    for opening in openings {
        let mut moves = squares(opening);
        let board = moves
            .iter()
            .fold(Board::new(), |board, &mv| board.play(mv).unwrap());
        every_game(board, &mut moves, &mut games);
    }
    assert!(games.len() > 1_000, "{} games", games.len());
    let mut reference: HashMap<Board, Vec<(Square, i32)>> = HashMap::new();
    let mut ai = Ai::new();
    let (mut blunders, mut mistakes) = (0, 0);
    for moves in &games {
        let record = Record::new(Board::new(), moves.clone()).unwrap();
        let reviews = review(&record, Limits::ToTheEnd, &mut ai);
        assert_eq!(reviews.len(), moves.len());
        for (ply, reviewed) in reviews.iter().enumerate() {
            let values = reference.entry(reviewed.board).or_insert_with(|| {
                move_values(&reviewed.board, Algorithm::Minimax, Scoring::Depth).moves
            });
            let best = values.iter().map(|&(_, value)| value).max().unwrap();
            let after = values
                .iter()
                .find(|&&(mv, _)| mv == reviewed.mv)
                .map(|&(_, value)| value)
                .unwrap();
            let at = format!("{:?} ply {}", record.moves(), ply + 1);
            assert_eq!((reviewed.before, reviewed.after), (best, after), "{at}");
            assert!(reviewed.proven, "{at}");
            let best_moves: Vec<Square> = values
                .iter()
                .filter(|&&(_, value)| value == best)
                .map(|&(mv, _)| mv)
                .collect();
            assert_eq!(reviewed.tied, best_moves, "{at}");
            assert_eq!(reviewed.best, best_moves[0], "{at}: findBestMove's first");
            // Worse by sign (win, draw, loss) is ??; the same sign but less is ?.
            let expected = if after.signum() < best.signum() {
                blunders += 1;
                Some(Mark::Blunder)
            } else if after < best {
                mistakes += 1;
                Some(Mark::Mistake)
            } else {
                None
            };
            assert_eq!(reviewed.mark, expected, "{at}");
            assert_eq!(reviewed.lines.is_some(), expected.is_some(), "{at}");
        }
    }
    // The games hold both kinds of mark, so both were checked.
    assert!(
        blunders > 0 && mistakes > 0,
        "{blunders} ?? and {mistakes} ?"
    );
}

/// The one line on stderr, with exit status 2 and nothing on stdout.
fn refused(out: &Output, what: &str) -> String {
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{what}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{what}: {stderr}");
    assert!(stderr.starts_with("error: "), "{what}: {stderr}");
    assert!(out.stdout.is_empty(), "{what}");
    stderr
}

const GOOD: &str = "[Game \"tictactoe\"]\n[Size \"3\"]\n[K \"3\"]\n[Result \"1-0\"]\n\n1. b2 b1 2. a1 c1 3. c3 1-0\n";

#[test]
fn garbage_truncated_illegal_and_non_utf8_records_are_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&str, Vec<u8>, &str); 9] = [
        ("garbage", b"\x00\x01 lorem ipsum {{{\n".to_vec(), "line 1"),
        (
            "non-UTF-8",
            b"[Game \"tic\xfftactoe\"]\n".to_vec(),
            "line 1",
        ),
        (
            "truncated in the tags",
            GOOD.as_bytes()[..30].to_vec(),
            "line",
        ),
        (
            "truncated in the moves",
            GOOD.as_bytes()[..GOOD.len() - 8].to_vec(),
            "line 6",
        ),
        (
            "taken square",
            GOOD.replace("c3 1-0", "b2 1-0").into_bytes(),
            "line 6",
        ),
        (
            "off the board",
            GOOD.replace("c3 1-0", "d4 1-0").into_bytes(),
            "line 6",
        ),
        (
            "wrong result",
            GOOD.replace("c3 1-0", "c3 0-1").into_bytes(),
            "line 6",
        ),
        (
            "move after the end",
            GOOD.replace("c3 1-0", "c3 a3 1-0").into_bytes(),
            "line 6",
        ),
        ("empty", Vec::new(), "no game"),
    ];
    for (what, bytes, says) in cases {
        let file = dir.path().join(format!("{}.ttt", what.replace(' ', "-")));
        fs::write(&file, &bytes).unwrap();
        let path = file.to_str().unwrap();
        let line = refused(&support::tictactoe(&["review", path], ""), what);
        assert!(line.contains(says), "{what}: {line}");
        // --board reads records the same way.
        let args = ["--plain", "--no-stats", "--board", path];
        if what != "empty" {
            refused(&support::tictactoe(&args, "quit\n"), what);
        }
        // And from standard input.
        refused(&support::tictactoe(&["review", "-"], &bytes), what);
    }
    // A good record passes all three ways.
    let file = dir.path().join("good.ttt");
    fs::write(&file, GOOD).unwrap();
    assert!(
        support::tictactoe(&["review", file.to_str().unwrap()], "")
            .status
            .success()
    );
}

/// Runs the binary with `args`, no input, and waits (a hang fails the test).
fn run_without_input(args: &[&str]) -> Output {
    let child = support::binary()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    support::output_within(child, &args.join(" "))
}

/// A named pipe or a folder where a records file should be: one line from
/// each command that reads or writes records, never a wait. Each command
/// meets one of the two (the files module's tests meet both for every way
/// a file is opened).
#[test]
fn a_named_pipe_or_a_folder_as_a_records_file_is_one_line_and_no_hang() {
    let dir = tempfile::tempdir().unwrap();
    let pipe = dir.path().join("pipe.ttt");
    support::named_pipe(&pipe);
    let folder = dir.path().join("folder.ttt");
    fs::create_dir(&folder).unwrap();
    let (pipe, folder) = (pipe.to_str().unwrap(), folder.to_str().unwrap());
    for (args, kind) in [
        (vec!["review", folder], "a folder"),
        (
            vec!["--plain", "--no-stats", "--board", pipe],
            "a named pipe",
        ),
        (
            vec!["--plain", "--no-stats", "--record", folder],
            "a folder",
        ),
        (
            vec!["--screen-reader", "--no-stats", "--record", pipe],
            "a named pipe",
        ),
        (
            vec![
                "selfplay", "--x", "easy", "--o", "easy", "--games", "1", "--record", folder,
            ],
            "a folder",
        ),
    ] {
        let line = refused(&run_without_input(&args), &args.join(" "));
        assert!(line.contains(kind), "{args:?}: {line}");
    }
}

/// The characters a speech synthesizer stumbles over: box drawing, blocks, braille.
fn drawing(text: &str) -> Vec<char> {
    text.chars()
        .filter(|&c| matches!(c, '\u{2500}'..='\u{257F}' | '\u{2580}'..='\u{259F}' | '\u{2800}'..='\u{28FF}'))
        .collect()
}

fn reader(args: &[&str], input: &str) -> String {
    let args: Vec<&str> = ["--screen-reader", "--no-stats"]
        .iter()
        .chain(args)
        .copied()
        .collect();
    let out = support::tictactoe(&args, input);
    assert!(out.status.success(), "{}", text(&out.stderr));
    text(&out.stdout)
}

#[test]
fn a_screen_reader_session_over_pipes_is_sentences_without_drawing() {
    let session = "help\nboard\nb2\nlast\nscores\nzz\nb2\nundo\nredo\nreview\nnew\nquit\n";
    let mut transcripts = vec![
        reader(&["--seed", "7"], session),
        reader(&["--seed", "7", "--size", "4"], session),
        // The quiz asks until the input ends, then the game goes on.
        reader(&["--seed", "7"], "quiz\n0\nb2\n"),
        reader(&["--x", "ai", "--o", "ai", "--seed", "3"], ""),
    ];
    // TERM=dumb chooses the mode.
    let dumb = support::binary()
        .args(["--no-stats", "--seed", "7"])
        .env("TERM", "dumb")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut dumb = dumb;
    use std::io::Write;
    dumb.stdin
        .take()
        .unwrap()
        .write_all(session.as_bytes())
        .unwrap();
    let dumb = support::output_within(dumb, "TERM=dumb");
    assert!(dumb.status.success());
    assert_eq!(text(&dumb.stdout), transcripts[0]);
    // A review from a records file reads the same way.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("lost.ttt");
    let lost = GOOD.replace(
        "1. b2 b1 2. a1 c1 3. c3",
        "1. b2 b1 2. a1 c3 3. a3 a2 4. c1",
    );
    fs::write(&file, lost).unwrap();
    transcripts.push(text(
        &support::tictactoe(&["review", file.to_str().unwrap()], "").stdout,
    ));
    for transcript in &transcripts {
        assert_eq!(drawing(transcript), Vec::<char>::new(), "{transcript}");
        // Nothing redrawn in place: no escape sequences, no carriage returns.
        assert!(!transcript.contains(['\u{1b}', '\r']), "{transcript}");
    }
    let reviewed = transcripts.last().unwrap();
    assert!(
        reviewed.contains("1... b1?? (best 0, played -5) turns a draw into a loss"),
        "{reviewed}"
    );
    let first = &transcripts[0];
    for said in [
        "Your turn, X: the board is empty, every square is free.",
        "Row 1: a1 empty, b1 empty, c1 empty.",
        "You play b2.",
        "error: b2 is taken",
        "Scores for X, each the value after the move:",
        "Undone.",
        "Game 1: you (X) against AI perfect (O)",
        "New game.",
    ] {
        assert!(first.contains(said), "missing {said:?} in:\n{first}");
    }
    let quiz = &transcripts[2];
    assert!(
        quiz.contains("The quiz: 5 questions") && quiz.contains("Back to the game."),
        "{quiz}"
    );
    // The AI's game is said to its end, in words.
    assert!(transcripts[3].contains("X plays"), "{}", transcripts[3]);
    assert!(
        transcripts[3].trim_end().ends_with("Draw."),
        "{}",
        transcripts[3]
    );
}

#[test]
fn the_quiz_in_sentences_can_be_left_with_the_word_that_leaves() {
    // `quit` in the quiz stops the quiz, not the session; the game goes on.
    let said = reader(&["--seed", "7"], "quiz\nquit\nb2\nquit\n");
    assert!(said.contains("quit stops it."), "{said}");
    assert!(said.contains("0/0 right (5 not answered)."), "{said}");
    let back = said.find("Back to the game.").expect("back to the game");
    assert!(said[back..].contains("You play b2."), "{said}");
    assert!(!said.contains("That is no answer"), "{said}");
}

#[test]
fn the_record_of_a_plain_game_is_appended_when_it_ends() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mine.ttt");
    let path = file.to_str().unwrap();
    // Two people at one keyboard: X takes column a twice, then a game is left unfinished.
    let input = "a1\nb1\na2\nb2\na3\nnew\na1\nb1\na2\nb2\na3\nnew\nb2\nquit\n";
    let args = [
        "--plain",
        "--no-stats",
        "--x",
        "human",
        "--o",
        "human",
        "--record",
        path,
    ];
    let out = support::tictactoe(&args, input);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let games = read_file(Path::new(path), &mut std::io::empty()).unwrap();
    assert_eq!(games.len(), 2, "{}", fs::read_to_string(&file).unwrap());
    for game in &games {
        assert_eq!(game.result(), Some(Outcome::Win(Player::X)));
        assert_eq!(game.moves(), squares("a1 b1 a2 b2 a3"));
    }
    let tags = fs::read_to_string(&file).unwrap();
    assert!(
        tags.contains("[X \"human\"]") && tags.contains("[O \"human\"]"),
        "{tags}"
    );
}

#[test]
fn r_in_the_game_shows_the_record_unframed_and_hands_the_game_over_to_save() {
    use std::time::Instant;
    use tictactoe_game::action::Action;
    use tictactoe_game::game::Seat;
    use tictactoe_screen::app::App;
    let t0 = Instant::now();
    let mut app = App::new(support::settings(Seat::Human, Seat::Human), t0);
    for square in squares("a1 b1 a2") {
        app.update(Action::Place(square), t0);
    }
    app.update(Action::ShowRecord, t0);
    let shown = app.record_shown().expect("the record is shown").to_string();
    assert!(shown.contains("1. a1 b1 2. a2 *"), "{shown}");
    let record = &record::read_str(&shown).expect("the record shown reads back")[0];
    assert_eq!(record.moves(), squares("a1 b1 a2"));
    let saved = app.take_game_to_save().expect("the game is handed over");
    assert_eq!(saved.moves(), squares("a1 b1 a2"));
    assert!(app.take_game_to_save().is_none(), "handed over once");
    // On screen: the record's lines from the left edge, with no frame to copy.
    let buffer = support::draw(&app, 80, 24);
    let row = |y: u16| -> String {
        (0..80)
            .map(|x| buffer[(x, y)].symbol().to_string())
            .collect::<String>()
    };
    assert_eq!(row(0).trim_end(), "[Game \"tictactoe\"]");
    assert!(drawing(&(0..24).map(row).collect::<String>()).is_empty());
    // Any key goes back to the game, and does nothing more.
    app.update(Action::Place(Square::new(2, 2)), t0);
    assert!(app.record_shown().is_none());
    assert_eq!(app.board().move_count(), 3);
}

#[test]
fn v_after_a_game_opens_its_review_on_the_board_and_steps_through_it() {
    use std::time::Instant;
    use tictactoe_game::action::{Action, Browse};
    use tictactoe_game::game::Seat;
    use tictactoe_screen::app::App;
    let t0 = Instant::now();
    let mut app = App::new(support::settings(Seat::Human, Seat::Human), t0);
    let moves = squares("b2 b1 a1 c3 a3 a2 c1");
    for &square in &moves[..6] {
        app.update(Action::Place(square), t0);
    }
    // Not before the game is over.
    app.update(Action::Review, t0);
    assert!(app.game_review().is_none());
    app.update(Action::Place(moves[6]), t0);
    let end = app.board();
    assert!(end.status().is_over());
    app.update(Action::Review, t0);
    let review = app.game_review().expect("the review is open");
    assert_eq!(review.at(), 7);
    let marks: Vec<Option<&str>> = review
        .marks()
        .iter()
        .map(|mark| mark.map(Mark::symbol))
        .collect();
    assert_eq!(marks, [None, Some("??"), None, None, None, None, None]);
    // To the start, then the blunder: the board and the status follow.
    app.update(Action::Browse(Browse::Start), t0);
    assert_eq!(app.board(), Board::new());
    app.update(Action::Browse(Browse::Forward), t0);
    app.update(Action::Browse(Browse::Forward), t0);
    let review = app.game_review().unwrap();
    assert!(
        review
            .status()
            .starts_with("1... b1?? (best 0, played -5) turns a draw into a loss")
    );
    assert_eq!(app.board().move_count(), 2);
    app.update(Action::Browse(Browse::Back), t0);
    assert_eq!(app.board().move_count(), 1);
    // The move list shows the whole game with the mark.
    let buffer = support::draw(&app, 80, 24);
    let screen: String = (0..24)
        .flat_map(|y| (0..80).map(move |x| (x, y)))
        .map(|at| buffer[at].symbol().to_string())
        .collect();
    assert!(screen.contains("b1??"), "{screen}");
    // Closed, the game is as it ended.
    app.update(Action::Back, t0);
    assert!(app.game_review().is_none());
    assert_eq!(app.board(), end);
}

/// A 4x4 game, four in a row, that O wins once X lets column d go with
/// 7. c2: a draw until then.
const LOST_ON_4X4: &str = "a1 d1 b3 d3 a3 a2 b4 b1 c4 a4 c3 d4 c2 d2";

/// A session of two people on 4x4 at the end of [`LOST_ON_4X4`], its
/// review thinking with `limits`.
fn lost_on_4x4(limits: Limits) -> tictactoe_screen::app::App {
    use std::time::Instant;
    use tictactoe_game::action::Action;
    use tictactoe_game::game::Seat;
    use tictactoe_screen::app::App;
    let mut settings =
        support::settings_from(Board::empty(4, 4).unwrap(), Seat::Human, Seat::Human);
    settings.limits = limits;
    let mut app = App::new(settings, Instant::now());
    for square in LOST_ON_4X4.split_whitespace() {
        let mv = square.parse::<Square>().expect("a square");
        app.update(Action::Place(mv), Instant::now());
    }
    assert!(app.board().status().is_over());
    app
}

/// The review's request for the engine, if the next request is one: the
/// move's index and the thinking time asked.
fn review_request(
    app: &mut tictactoe_screen::app::App,
) -> Option<(tictactoe_screen::message::Request, usize, Limits)> {
    use tictactoe_screen::message::Request;
    match app.take_request()? {
        request @ Request::Review { ply, limits, .. } => Some((request, ply, limits)),
        _ => None,
    }
}

#[test]
fn v_on_a_bigger_board_reviews_each_move_on_the_engines_thread_as_review_does() {
    use std::time::Instant;
    use tictactoe_game::action::{Action, Browse};
    use tictactoe_screen::worker::Worker;
    // Proven, so that the values and marks do not hang on a busy machine's clock.
    let mut app = lost_on_4x4(Limits::ToTheEnd);
    let plies = LOST_ON_4X4.split_whitespace().count();
    let now = Instant::now();
    app.update(Action::Review, now);
    // Open at once, at the end, nothing reviewed yet: the last move says it waits.
    let review = app.game_review().expect("the review is open");
    assert_eq!((review.at(), review.reviewed()), (plies, 0));
    assert_eq!(review.status(), "7... d2: thinking…");
    assert!(app.is_waiting());
    // One move at a time, the one on the board first, with the game's thinking time.
    let (request, ply, limits) = review_request(&mut app).expect("the last move asked");
    assert_eq!((ply, limits), (plies - 1, Limits::ToTheEnd));
    assert!(app.take_request().is_none(), "one move asked at a time");
    // One worker for the session, as the front ends have.
    let mut worker = Worker::default();
    app.receive(worker.answer(&request), now);
    let review = app.game_review().unwrap();
    assert_eq!(review.reviewed(), 1);
    assert!(
        review.status().starts_with("7... d2 (best +"),
        "{}",
        review.status()
    );
    // Stepped back, the move now on the board is asked next.
    app.update(Action::Browse(Browse::Back), now);
    assert_eq!(app.game_review().unwrap().status(), "7. c2: thinking…");
    let (request, ply, _) = review_request(&mut app).expect("the move on the board asked");
    assert_eq!(ply, plies - 2);
    app.receive(worker.answer(&request), now);
    // Then every other move, until nothing is left to ask.
    while let Some(request) = app.take_request() {
        app.receive(worker.answer(&request), now);
    }
    assert!(!app.is_waiting());
    let review = app.game_review().unwrap();
    assert_eq!(review.reviewed(), plies);
    assert!(
        review
            .reviews()
            .iter()
            .all(|r| r.as_ref().is_some_and(|r| r.proven))
    );
    // Each move's status line is tictactoe review's sentence for it.
    let record = record::write(&record::of_game(review.game(), app.seats(), String::new()));
    let out = support::tictactoe(&["review", "-", "--solve"], &record);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let printed = text(&out.stdout);
    let lines: Vec<&str> = printed.lines().collect();
    let heading = lines
        .iter()
        .position(|line| line.starts_with("Game 1:"))
        .expect("a heading");
    let sentences = &lines[heading + 1..heading + 1 + plies];
    app.update(Action::Browse(Browse::Start), now);
    for (ply, sentence) in sentences.iter().enumerate() {
        app.update(Action::Browse(Browse::Forward), now);
        assert_eq!(app.game_review().unwrap().status(), *sentence, "ply {ply}");
    }
    // The blunder is marked as tictactoe review marks it, in the move list too.
    let marks = app.game_review().unwrap().marks();
    assert!(marks.contains(&Some(Mark::Blunder)), "{marks:?}\n{printed}");
    assert_eq!(
        marks[plies - 2],
        Some(Mark::Blunder),
        "7. c2 lets the column go"
    );
    app.update(Action::Browse(Browse::Back), now);
    let buffer = support::draw(&app, 80, 24);
    let screen: String = (0..24)
        .flat_map(|y| (0..80).map(move |x| (x, y)))
        .map(|at| buffer[at].symbol().to_string())
        .collect();
    assert!(screen.contains("c2??"), "{screen}");
}

#[test]
fn an_estimate_on_the_board_is_worded_as_tictactoe_review_words_it_and_never_marked() {
    use std::time::{Duration, Instant};
    use tictactoe_game::action::{Action, Browse};
    use tictactoe_game::review::sentence;
    use tictactoe_screen::message::Reply;
    use tictactoe_screen::worker::Worker;
    // With no time to think, the values are estimates, but for what the
    // prover proves at once (the 4x4 draw, and the move its proof keeps):
    // the first move reviewed with estimates.
    let spent = Limits::Think(Duration::ZERO);
    let mut app = lost_on_4x4(spent);
    let now = Instant::now();
    app.update(Action::Review, now);
    app.update(Action::Browse(Browse::Start), now);
    let mut worker = Worker::default();
    for _ in 0..LOST_ON_4X4.split_whitespace().count() {
        app.update(Action::Browse(Browse::Forward), now);
        let Some((request, ply, limits)) = review_request(&mut app) else {
            continue;
        };
        assert_eq!(limits, spent);
        let reply = worker.answer(&request);
        let Reply::Review {
            review: Some(reviewed),
            ..
        } = &reply
        else {
            panic!("a review of the move: {reply:?}")
        };
        if reviewed.proven {
            app.receive(reply, now);
            continue;
        }
        assert_eq!(reviewed.mark, None, "an estimate is never marked");
        // The one sentence tictactoe review prints for it.
        let expected = sentence(reviewed);
        assert!(expected.contains(", estimates)"), "{expected}");
        app.receive(reply, now);
        let review = app.game_review().unwrap();
        assert_eq!(review.status(), expected);
        assert_eq!(review.marks()[ply], None);
        return;
    }
    panic!("no move reviewed with estimates");
}

#[test]
fn closing_the_review_asks_nothing_more_and_drops_the_answer_under_way() {
    use std::time::Instant;
    use tictactoe_game::action::Action;
    use tictactoe_screen::message::Request;
    use tictactoe_screen::worker::Worker;
    let mut app = lost_on_4x4(Limits::ToTheEnd);
    let now = Instant::now();
    app.update(Action::Review, now);
    let (under_way, _, _) = review_request(&mut app).expect("a move asked");
    app.update(Action::Back, now);
    assert!(app.game_review().is_none());
    // Nothing more for the engine; its answer, when it comes, changes nothing.
    assert!(app.take_request().is_none());
    let mut worker = Worker::default();
    let late = worker.answer(&under_way);
    // Opened again: a review of its own, which the old answer does not fill.
    app.update(Action::Review, now);
    app.receive(late, now);
    let review = app.game_review().unwrap();
    assert_eq!(review.reviewed(), 0);
    assert_eq!(review.status(), "7... d2: thinking…");
    let Some(Request::Review { id: new, .. }) = app.take_request() else {
        panic!("the reopened review asks again")
    };
    let Request::Review { id: old, .. } = under_way else {
        unreachable!()
    };
    assert_ne!(new, old);
    // q still quits from the review.
    app.update(Action::Quit, now);
    assert!(app.should_quit());
    // A new game once it is closed: no review, nothing of it asked.
    let mut app = lost_on_4x4(Limits::ToTheEnd);
    app.update(Action::Review, now);
    let _ = review_request(&mut app).expect("a move asked");
    app.update(Action::Review, now);
    app.update(Action::NewGame, now);
    assert_eq!(app.board().move_count(), 0);
    assert!(app.game_review().is_none());
    assert!(app.take_request().is_none());
}

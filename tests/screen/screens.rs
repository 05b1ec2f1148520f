//! Every view of the game screen at every size from 40x15 to 200x60, drawn
//! on ratatui's TestBackend: snapshotted (insta), and read back panel by
//! panel to check that no word is cut at a panel's edge, nothing of what
//! the key table offers for the view is missing from the key bar at 80x24,
//! and each panel keeps its heading.

use std::time::{Duration, Instant};

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use tictactoe_engine::{Board, Square};
use tictactoe_game::action::{Action, Browse, TraceMove};
use tictactoe_game::game::Seat;
use tictactoe_game::keys;
use tictactoe_screen::app::App;
use tictactoe_screen::layout::{ExplainPlace, ScreenLayout, layout_for};
use tictactoe_screen::message::Said;
use tictactoe_screen::panel::explain_items;
use tictactoe_screen::tree::Row;
use tictactoe_screen::tree_view::{detail, row_text};

use crate::support;

use support::docs::{assert_shown, pages};
use support::{AI_DELAY, PERFECT, answer_all, draw, settings, settings_from};

/// The sizes every view is drawn at.
const SIZES: [(u16, u16); 5] = [(40, 15), (60, 20), (80, 24), (120, 40), (200, 60)];

/// The article's board (freeCodeCamp): X to move, nine calls.
fn article() -> Board {
    "o.x/x.x/.oo".parse().expect("the article's board")
}

/// A game between two people at one keyboard, after `moves`.
fn people(start: Board, moves: &[(u8, u8)], t0: Instant) -> App {
    let mut app = App::new(settings_from(start, Seat::Human, Seat::Human), t0);
    for &(row, col) in moves {
        app.update(Action::Place(Square::new(row, col)), t0);
    }
    app
}

/// Two people's game that X has won down the a column.
fn won(t0: Instant) -> App {
    people(Board::new(), &[(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)], t0)
}

/// `app` after `actions`, every request answered and every slice of work done.
fn after(mut app: App, actions: &[Action], t0: Instant) -> App {
    for &action in actions {
        app.update(action, t0);
        settle(&mut app, t0);
    }
    app
}

/// Answers every request and does the walkthrough's work until none is left.
fn settle(app: &mut App, t0: Instant) {
    for _ in 0..10_000 {
        answer_all(app, t0);
        if app.wake_at() != Some(t0) {
            return;
        }
        app.tick(t0);
    }
}

const NEXT: Action = Action::Trace(TraceMove::Next);

/// Every view of the game screen, each with its name.
fn views() -> Vec<(&'static str, App)> {
    let t0 = Instant::now();
    let mut against_ai = App::new(settings(Seat::Human, PERFECT), t0);
    against_ai.update(Action::Place(Square::new(1, 1)), t0);
    answer_all(&mut against_ai, t0);
    against_ai.tick(t0 + AI_DELAY);
    let won = || won(t0);
    let big = Board::empty(4, 4).expect("4x4");
    let mut running = after(people(big, &[], t0), &[Action::Walkthrough], t0);
    running.update(Action::Trace(TraceMove::End), t0);
    let quiz_over = {
        let mut app = after(people(article(), &[], t0), &[Action::Quiz], t0);
        for answer in ["9", "b2", "9", "none"] {
            for typed in answer.chars() {
                app.update(Action::Type(typed), t0);
            }
            app.update(Action::Confirm, t0);
            app.update(Action::Confirm, t0);
        }
        app
    };
    vec![
        ("game", App::new(settings(Seat::Human, PERFECT), t0)),
        ("game_after_two_moves", against_ai),
        ("game_won", won()),
        (
            "game_5x5",
            people(Board::empty(5, 4).expect("5x5"), &[(2, 2), (1, 1)], t0),
        ),
        (
            "explain",
            after(
                people(Board::new(), &[(1, 1), (0, 0)], t0),
                &[Action::ToggleExplain],
                t0,
            ),
        ),
        (
            "explain_on_the_empty_board",
            after(people(Board::new(), &[], t0), &[Action::ToggleExplain], t0),
        ),
        (
            "tree",
            after(
                people(article(), &[], t0),
                &[
                    Action::ToggleTree,
                    Action::Confirm,
                    Action::Cursor(tictactoe_game::action::Direction::Down),
                    Action::Confirm,
                ],
                t0,
            ),
        ),
        (
            "tree_deep",
            after(
                people(Board::new(), &[], t0),
                &[
                    Action::ToggleTree,
                    Action::Confirm,
                    Action::Confirm,
                    Action::Confirm,
                    Action::Confirm,
                    Action::Confirm,
                    Action::Confirm,
                ],
                t0,
            ),
        ),
        (
            "walkthrough",
            after(
                people(article(), &[], t0),
                &[Action::Walkthrough, NEXT, NEXT, NEXT, NEXT, NEXT],
                t0,
            ),
        ),
        (
            "walkthrough_alpha_beta",
            after(
                people(article(), &[], t0),
                &[
                    Action::Walkthrough,
                    Action::Trace(TraceMove::AlphaBeta),
                    NEXT,
                    NEXT,
                    NEXT,
                    NEXT,
                    NEXT,
                    NEXT,
                    Action::Trace(TraceMove::Finish),
                    Action::Trace(TraceMove::Finish),
                ],
                t0,
            ),
        ),
        (
            "walkthrough_end",
            after(
                people(Board::new(), &[(1, 1), (0, 0)], t0),
                &[Action::Walkthrough, Action::Trace(TraceMove::End)],
                t0,
            ),
        ),
        (
            "walkthrough_end_alpha_beta",
            after(
                people(Board::new(), &[(1, 1), (0, 0)], t0),
                &[
                    Action::Walkthrough,
                    Action::Trace(TraceMove::AlphaBeta),
                    Action::Trace(TraceMove::End),
                ],
                t0,
            ),
        ),
        ("walkthrough_running", running),
        (
            "quiz",
            after(
                people(article(), &[], t0),
                &[Action::Quiz, Action::Type('+'), Action::Type('9')],
                t0,
            ),
        ),
        (
            "quiz_answered",
            after(
                people(article(), &[], t0),
                &[
                    Action::Quiz,
                    Action::Type('+'),
                    Action::Type('9'),
                    Action::Confirm,
                ],
                t0,
            ),
        ),
        ("quiz_over", quiz_over),
        (
            "review",
            after(
                won(),
                &[
                    Action::Review,
                    Action::Browse(Browse::Back),
                    Action::Browse(Browse::Back),
                ],
                t0,
            ),
        ),
        ("help", after(won(), &[Action::ToggleHelp], t0)),
        (
            "help_in_the_walkthrough",
            after(
                people(article(), &[], t0),
                &[Action::Walkthrough, Action::ToggleHelp],
                t0,
            ),
        ),
        ("record", after(won(), &[Action::ShowRecord], t0)),
    ]
}

/// The screen's text, a line a row, trailing blanks gone.
fn text(buffer: &Buffer) -> String {
    rows(buffer)
        .iter()
        .map(|row| row.trim_end())
        .collect::<Vec<_>>()
        .join("\n")
}

fn rows(buffer: &Buffer) -> Vec<String> {
    let width = usize::from(buffer.area.width);
    buffer
        .content
        .chunks(width)
        .map(|row| row.iter().map(|cell| cell.symbol()).collect())
        .collect()
}

#[test]
fn every_view_at_every_size() {
    for (name, app) in views() {
        for (width, height) in SIZES {
            let buffer = draw(&app, width, height);
            // Times and the record's date (today's) vary from run to run.
            let filters = vec![
                (r"\d+\.\d{3} ms", "[time]"),
                (r#"\[Date "\d{4}-\d{2}-\d{2}"\]"#, r#"[Date "[date]"]"#),
            ];
            insta::with_settings!({filters => filters}, {
                insta::assert_snapshot!(format!("{name}_{width}x{height}"), text(&buffer));
            });
        }
    }
}

/// A framed box on the screen: its title and the text inside it, a row each.
#[derive(Debug)]
struct Framed {
    title: String,
    inner: Rect,
    rows: Vec<String>,
}

/// Every framed box drawn (the board's grid is no box: its top edge has ┬).
fn framed(buffer: &Buffer) -> Vec<Framed> {
    let area = buffer.area;
    let symbol = |x: u16, y: u16| buffer[(x, y)].symbol().to_string();
    let mut boxes = Vec::new();
    for y in area.top()..area.bottom() {
        for x in area.left()..area.right() {
            if symbol(x, y) != "┌" {
                continue;
            }
            let Some(right) = (x + 1..area.right()).find(|&r| symbol(r, y) == "┐") else {
                continue;
            };
            let top: String = (x + 1..right).map(|c| symbol(c, y)).collect();
            if top.contains('┬') || top.contains('┌') {
                continue;
            }
            let Some(bottom) = (y + 1..area.bottom()).find(|&b| symbol(x, b) != "│") else {
                continue;
            };
            let inner = Rect::new(x + 1, y + 1, right - x - 1, bottom - y - 1);
            let rows = (inner.top()..inner.bottom())
                .map(|row| {
                    (inner.left()..inner.right())
                        .map(|c| symbol(c, row))
                        .collect()
                })
                .collect();
            let title = top.trim_matches(|c| c == '─' || c == ' ').to_string();
            boxes.push(Framed { title, inner, rows });
        }
    }
    boxes
}

/// Text with every run of blanks (no-break spaces too) one space.
fn normal(text: &str) -> String {
    text.replace('\u{a0}', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The sentences of a panel's items: a figure's label and value each one.
fn sentences(items: &[(u8, Said)]) -> Vec<String> {
    items
        .iter()
        .flat_map(|(_, said)| match said {
            Said::Text(text) | Said::Heading(text) | Said::Faint(text) => vec![text.clone()],
            Said::Figure(label, value) => {
                vec![label.clone(), value.clone(), format!("{label} {value}")]
            }
            Said::Gap => Vec::new(),
        })
        .map(|text| normal(&text))
        .collect()
}

/// True if `piece` is a run of whole words of one of the `sentences`: it
/// starts and ends where words do.
fn whole_words(piece: &str, sentences: &[String]) -> bool {
    sentences.iter().any(|sentence| {
        sentence.match_indices(piece).any(|(at, _)| {
            let before = sentence[..at].chars().next_back();
            let after = sentence[at + piece.len()..].chars().next();
            before.is_none_or(|c| c == ' ') && after.is_none_or(|c| c == ' ')
        })
    })
}

/// The pieces of a panel's row: runs of text two or more blanks apart (a
/// figure's label and value, the help's keys and what they do).
fn pieces(row: &str) -> Vec<String> {
    row.replace('\u{a0}', " ")
        .split("  ")
        .map(normal)
        .filter(|piece| !piece.is_empty())
        .collect()
}

/// What each panel on `app`'s screen says, by the panel's title.
fn said_in(app: &App, title: &str, inner: Rect) -> Option<Vec<String>> {
    // The panel's inside less its padding.
    let (rows, width) = (usize::from(inner.height), inner.width.saturating_sub(2));
    let items = match title {
        "Explain" => explain_items(app),
        "Call stack" => app.walkthrough()?.items(rows, width),
        "Quiz" => app.quiz()?.items(false),
        "Position" => {
            let tree = app.tree()?;
            let said = detail(tree).into_iter().map(|(text, _)| normal(&text));
            return Some(said.collect());
        }
        "Keys" => {
            let context = app.key_context();
            let mut said: Vec<String> = context.mode.note().map(normal).into_iter().collect();
            for (_, names, what) in keys::help(&context) {
                said.push(normal(&names));
                said.push(normal(what));
            }
            return Some(said);
        }
        _ => return None,
    };
    Some(sentences(&items))
}

/// The words cut on `app`'s screen at `size`: in every panel, and in the
/// summary of a panel above the board.
fn cut_words(app: &App, (width, height): (u16, u16)) -> Vec<String> {
    let buffer = draw(app, width, height);
    let mut cut = Vec::new();
    for panel in framed(&buffer) {
        let Some(said) = said_in(app, &panel.title, panel.inner) else {
            continue;
        };
        for row in &panel.rows {
            for piece in pieces(row) {
                if !whole_words(&piece, &said) {
                    cut.push(format!("{}: {piece:?}", panel.title));
                }
            }
        }
    }
    let area = Rect::new(0, 0, width, height);
    // The help and the record stand alone, over everything else.
    if app.help_open() || app.record_shown().is_some() {
        return cut;
    }
    // The tree's rows, between its two lines of heading and the key bar:
    // every word is one of a row's whole words.
    if let Some(tree) = app.tree() {
        let words: Vec<String> = tree
            .rows()
            .into_iter()
            .filter_map(|row| match row {
                Row::Node(i) => Some(row_text(tree, tree.node(i), usize::MAX)),
                Row::Waiting(_) => None,
            })
            .flat_map(|row| row.split_whitespace().map(String::from).collect::<Vec<_>>())
            .chain(["scoring…".to_string()])
            .collect();
        let all = rows(&buffer);
        for row in &all[2..all.len() - 1] {
            // Left of the panel beside the rows, where there is one.
            let list = row.split(['┌', '│', '└']).next().unwrap_or_default();
            for word in list.split_whitespace() {
                if !words.iter().any(|known| known == word) {
                    cut.push(format!("tree: {word:?} in {list:?}"));
                }
            }
        }
        return cut;
    }
    if let ScreenLayout::Game {
        explain: Some(ExplainPlace::Summary(rect)),
        ..
    } = layout_for(area, app)
    {
        let items = match (app.walkthrough(), app.quiz()) {
            (Some(walkthrough), _) => walkthrough.summary_items(rect.width),
            (_, Some(quiz)) => quiz.items(true),
            _ => explain_items(app),
        };
        let said = sentences(&items);
        let all = rows(&buffer);
        for row in &all[usize::from(rect.top())..usize::from(rect.bottom())] {
            for piece in row.split(" · ").map(normal).filter(|p| !p.is_empty()) {
                if !whole_words(piece.trim_end_matches(':'), &said) && !whole_words(&piece, &said) {
                    cut.push(format!("summary: {piece:?}"));
                }
            }
        }
    }
    cut
}

#[test]
fn no_word_is_cut_at_a_panels_edge() {
    let mut cut = Vec::new();
    for (name, app) in views() {
        for size in SIZES {
            for word in cut_words(&app, size) {
                cut.push(format!("{name} at {}x{}: {word}", size.0, size.1));
            }
        }
    }
    assert!(cut.is_empty(), "cut:\n{}", cut.join("\n"));
}

#[test]
fn the_cut_word_check_finds_a_cut_word() {
    let said = vec![normal("best move only 1,185 calls")];
    assert!(whole_words("best move only", &said));
    assert!(whole_words("1,185 calls", &said));
    assert!(!whole_words("best move only 1,185 call", &said));
    assert!(!whole_words("1,185 cal", &said));
    assert!(!whole_words("est move", &said));
}

#[test]
fn the_key_bar_at_80x24_has_every_key_that_matters_most() {
    for (name, app) in views() {
        let context = app.key_context();
        let bar = keys::bar(&context, 80);
        for entry in keys::entries(context.mode, &context) {
            if entry.label.is_none() || !entry.offered.holds(&context) || entry.importance > 2 {
                continue;
            }
            assert!(
                bar.contains(&entry.short()),
                "{name}: {} ({}) in {bar:?}",
                entry.short(),
                entry.help
            );
        }
    }
}

#[test]
fn a_run_to_the_end_on_4x4_says_how_far_it_got_and_esc_stops_it() {
    let t0 = Instant::now();
    let big = Board::empty(4, 4).expect("4x4");
    let mut app = after(people(big, &[], t0), &[Action::Walkthrough], t0);
    app.update(Action::Trace(TraceMove::End), t0);
    let running = |app: &App| {
        app.walkthrough()
            .is_some_and(|walkthrough| walkthrough.running().is_some())
    };
    assert!(running(&app), "4x4's walk is far too long for one slice");
    // The front end is told to come back at once, and each tick walks on.
    assert_eq!(app.wake_at(), Some(t0));
    let calls = |app: &App| app.walkthrough().map_or(0, |w| w.calls());
    let before = calls(&app);
    app.tick(t0 + Duration::from_millis(1));
    assert!(calls(&app) > before);
    let status = app.walkthrough().expect("open").status();
    assert!(
        status.starts_with("Walking to the end, at call "),
        "{status}"
    );
    assert!(keys::bar(&app.key_context(), 80).contains("esc stop"));
    // Keys that would move the walk wait; Esc stops it where it got to.
    app.update(NEXT, t0);
    assert!(running(&app));
    app.update(Action::Back, t0);
    assert!(!running(&app));
    let stopped = calls(&app);
    assert!(stopped > before);
    app.tick(t0);
    assert_eq!(calls(&app), stopped, "nothing more is walked");
    assert_eq!(app.wake_at(), None);
    // It stands where it got to: the next call follows on.
    app.update(NEXT, t0);
    assert_eq!(calls(&app), stopped + 1);
    assert!(
        app.walkthrough().is_some(),
        "Esc stopped it; it did not close"
    );
}

/// The screens in docs/LEARN.md are the game's own at 80x24, on
/// freeCodeCamp's board: the walkthrough at call 8 (`c` eight times), in
/// alpha-beta mode (`c`, `a`, `c` six times, `f` twice), and the tree.
#[test]
fn the_walkthrough_screens_in_learn_md_are_the_games() {
    let t0 = Instant::now();
    let mut plain = vec![Action::Walkthrough];
    plain.extend([NEXT; 7]);
    let mut pruned = vec![Action::Walkthrough, Action::Trace(TraceMove::AlphaBeta)];
    pruned.extend([NEXT; 6]);
    pruned.extend([Action::Trace(TraceMove::Finish); 2]);
    // And the tree, after `t` and `↓ ↓ ↓ Enter`.
    let down = Action::Cursor(tictactoe_game::action::Direction::Down);
    let tree = vec![Action::ToggleTree, down, down, down, Action::Confirm];
    for actions in [plain, pruned, tree] {
        let app = after(people(article(), &[], t0), &actions, t0);
        assert_shown("docs/LEARN.md", &text(&draw(&app, 80, 24)));
    }
}

/// docs/GUIDE.md quotes the key bar after a game at 80x24 as it is drawn.
#[test]
fn the_key_bar_after_a_game_in_guide_md_is_the_games() {
    let guide = pages()
        .into_iter()
        .find(|page| page.path == "docs/GUIDE.md");
    let guide = guide.expect("docs/GUIDE.md").text;
    let screen = text(&draw(&won(Instant::now()), 80, 24));
    let bar = screen.lines().last().expect("a key bar").trim();
    assert!(guide.contains(&format!("`{bar}`")), "{bar}");
}

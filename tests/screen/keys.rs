//! The one key table (`tictactoe_game::keys::KEYS`) against everything
//! that reads it: every key of every entry asks for its action in every mode
//! it acts in (game screen, lobby, plain mode); no key means two things at
//! once; and the key bar, the help popup, plain mode's help, the man page
//! and the docs' key tables all say what the table says.

use crate::support;

use std::collections::BTreeSet;
use std::time::Instant;

use crossterm::event::{
    Event, KeyCode as TermKey, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use tictactoe_engine::{Board, Player, Square};
use tictactoe_game::action::Action;
use tictactoe_game::game::{Names, Seat};
use tictactoe_game::keys::{self, Context, Does, Entry, GROUPS, KEYS, Key, KeyCode, Mode, When};
use tictactoe_screen::app::App;
use tictactoe_screen::input::action_for;
use tictactoe_screen::input::key_press;
use tictactoe_screen::layout::{ScreenLayout, layout_for};

use support::{PERFECT, draw, settings, settings_from, tictactoe};

fn names() -> Names {
    Names {
        x: "alice".to_string(),
        o: "bob".to_string(),
    }
}

/// The game screen in each of its modes (and at the local terminal and on
/// the server), each with what it is.
fn screens() -> Vec<(&'static str, App)> {
    let t0 = Instant::now();
    let play = || App::new(settings(Seat::Human, PERFECT), t0);
    let after = |mut app: App, action: Action| {
        app.update(action, t0);
        app
    };
    let big = Board::empty(5, 4).expect("5x5 with four in a row");
    let mut gone = play().versus(Player::X, names(), t0);
    gone.end_link("bob left");
    vec![
        ("a game against the AI", play()),
        (
            "a game after a move",
            after(play(), Action::Place(Square::new(1, 1))),
        ),
        (
            "a 5x5 game",
            App::new(settings_from(big, Seat::Human, PERFECT), t0),
        ),
        ("watch mode", App::new(settings(PERFECT, PERFECT), t0)),
        ("a game against the AI over SSH", play().in_lobby()),
        (
            "a game against a person",
            play().versus(Player::X, names(), t0),
        ),
        (
            "a game whose other player has not moved for the claim time",
            {
                // O at this screen, X to move and over its time.
                let mut app = play().versus(Player::O, names(), t0);
                let claim = Some(t0);
                app.serve(
                    tictactoe_screen::app::Served {
                        claim,
                        ..Default::default()
                    },
                    t0,
                );
                app
            },
        ),
        ("watching a game", play().watching(names(), t0)),
        ("the tree", after(play(), Action::ToggleTree)),
        ("the walkthrough", after(play(), Action::Walkthrough)),
        ("the quiz", after(play(), Action::Quiz)),
        ("the help", after(play(), Action::ToggleHelp)),
        (
            "the tree over SSH",
            after(play().in_lobby(), Action::ToggleTree),
        ),
        (
            "the help in watch mode",
            after(App::new(settings(PERFECT, PERFECT), t0), Action::ToggleHelp),
        ),
        ("a game the other player left", gone),
        ("the review of a finished game", {
            // Two people: X takes column a.
            let mut app = App::new(settings(Seat::Human, Seat::Human), t0);
            for (row, col) in [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)] {
                app.update(Action::Place(Square::new(row, col)), t0);
            }
            after(app, Action::Review)
        }),
    ]
}

const AREA: Rect = Rect::new(0, 0, 80, 24);

/// The key press a key of the table is, if it is a key press.
fn press(key: Key) -> Option<KeyEvent> {
    match key {
        Key::Code(code) => {
            let upper = matches!(code, KeyCode::Char(c) if c.is_ascii_uppercase());
            let shift = if upper {
                KeyModifiers::SHIFT
            } else {
                KeyModifiers::NONE
            };
            Some(KeyEvent::new(terminal_key(code), shift))
        }
        Key::Ctrl(letter) => Some(KeyEvent::new(TermKey::Char(letter), KeyModifiers::CONTROL)),
        // Typing: a character no other key of the mode takes.
        Key::Text => Some(KeyEvent::new(TermKey::Char('7'), KeyModifiers::NONE)),
        Key::Click | Key::Any | Key::Word(_) => None,
    }
}

/// The terminal's key for a key of the table.
fn terminal_key(code: KeyCode) -> TermKey {
    match code {
        KeyCode::Char(letter) => TermKey::Char(letter),
        KeyCode::Up => TermKey::Up,
        KeyCode::Down => TermKey::Down,
        KeyCode::Left => TermKey::Left,
        KeyCode::Right => TermKey::Right,
        KeyCode::Enter => TermKey::Enter,
        KeyCode::Esc => TermKey::Esc,
        KeyCode::Backspace => TermKey::Backspace,
        KeyCode::Home => TermKey::Home,
        KeyCode::End => TermKey::End,
        KeyCode::F(number) => TermKey::F(number),
        KeyCode::Other => TermKey::Null,
    }
}

/// A left click on the middle of `mv`'s square of `app` drawn on [`AREA`].
fn click_on(app: &App, mv: Square) -> Event {
    let ScreenLayout::Game { board, .. } = layout_for(AREA, app) else {
        panic!("the game fits 80x24")
    };
    let rect = board.cell_rect(mv);
    Event::Mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: rect.x + rect.width / 2,
        row: rect.y + rect.height / 2,
        modifiers: KeyModifiers::NONE,
    })
}

#[test]
fn every_key_of_the_table_asks_for_its_action_wherever_it_acts() {
    let mut tried = BTreeSet::new();
    for (what, app) in screens() {
        let context = app.key_context();
        let mode = context.acting();
        for (index, entry) in KEYS.iter().enumerate() {
            if !entry.applies(mode, &context) {
                continue;
            }
            tried.insert(index);
            for &(key, does) in entry.keys {
                let Does::Game(wanted) = does else {
                    panic!("{what}: {} asks the lobby", entry.names())
                };
                let (event, wanted) = match key {
                    // A click acts at the square clicked.
                    Key::Click => {
                        let centre = Square::new(1, 1);
                        let wanted = match wanted {
                            Action::Confirm => Action::Place(centre),
                            other => other,
                        };
                        (click_on(&app, centre), wanted)
                    }
                    // A key bound nowhere stands for any key.
                    Key::Any => (Event::Key(KeyEvent::from(TermKey::F(5))), wanted),
                    // The action carries the character typed.
                    Key::Text => (
                        Event::Key(press(key).expect("a key press")),
                        Action::Type('7'),
                    ),
                    _ => (Event::Key(press(key).expect("a key press")), wanted),
                };
                assert_eq!(
                    action_for(&event, &app, AREA),
                    Some(wanted),
                    "{what}: {key:?} of {:?}",
                    entry.names()
                );
            }
        }
    }
    for waiting in [false, true] {
        let context = Context::lobby(waiting);
        for (index, entry) in KEYS.iter().enumerate() {
            if !entry.applies(Mode::Lobby, &context) {
                continue;
            }
            tried.insert(index);
            for &(key, does) in entry.keys {
                let press = press(key).expect("the lobby reads key presses");
                assert_eq!(
                    keys::action(&context, key_press(press)),
                    Some(does),
                    "lobby: {key:?}"
                );
            }
        }
    }
    for mode in [Mode::Plain, Mode::Reader] {
        for (index, entry) in KEYS.iter().enumerate() {
            if !entry.modes.has(mode) {
                continue;
            }
            tried.insert(index);
            for &(key, does) in entry.keys {
                let (Key::Word(word), Does::Game(action)) = (key, does) else {
                    panic!("{mode:?} reads words: {key:?}")
                };
                assert_eq!(keys::typed(mode, word), Some(action), "{mode:?}: {word}");
            }
        }
    }
    let untried: Vec<String> = (0..KEYS.len())
        .filter(|index| !tried.contains(index))
        .map(|index| KEYS[index].names())
        .collect();
    assert!(untried.is_empty(), "entries no mode tried: {untried:?}");
}

#[test]
fn keys_bound_nowhere_in_the_mode_ask_for_nothing() {
    let t0 = Instant::now();
    let app = App::new(settings(Seat::Human, PERFECT), t0);
    for code in [
        TermKey::F(5),
        TermKey::Char('0'),
        TermKey::Backspace,
        TermKey::Char('.'),
    ] {
        let event = Event::Key(KeyEvent::from(code));
        assert_eq!(
            action_for(&event, &app, AREA),
            Some(Action::Unbound),
            "{code:?}"
        );
    }
    // Digits name squares on 3x3 only.
    let big = Board::empty(5, 4).expect("5x5");
    let app = App::new(settings_from(big, Seat::Human, PERFECT), t0);
    let five = Event::Key(KeyEvent::from(TermKey::Char('5')));
    assert_eq!(action_for(&five, &app, AREA), Some(Action::Unbound));
    assert_eq!(keys::typed(Mode::Plain, "five"), None);
}

/// True if no moment satisfies both.
fn exclusive(a: When, b: When) -> bool {
    let pairs = [
        (When::Local, When::Served),
        (When::Waiting, When::NotWaiting),
        (When::Classic, When::Bigger),
    ];
    pairs
        .iter()
        .any(|&(x, y)| (a, b) == (x, y) || (a, b) == (y, x))
}

#[test]
fn a_key_means_one_thing_at_a_time() {
    for mode in Mode::ALL {
        let in_mode: Vec<&Entry> = KEYS.iter().filter(|e| e.modes.has(mode)).collect();
        for (i, first) in in_mode.iter().enumerate() {
            for second in &in_mode[i + 1..] {
                for (key, _) in first.keys {
                    let shared = second.keys.iter().any(|(other, _)| other == key);
                    assert!(
                        !shared || exclusive(first.only, second.only),
                        "{mode:?}: {key:?} is in {:?} and {:?}",
                        first.names(),
                        second.names()
                    );
                }
            }
        }
    }
}

fn lines(buffer: &Buffer) -> Vec<String> {
    let width = usize::from(buffer.area.width);
    buffer
        .content
        .chunks(width)
        .map(|row| row.iter().map(|cell| cell.symbol()).collect::<String>())
        .collect()
}

#[test]
fn the_key_bar_offers_what_the_table_offers_now() {
    for (what, app) in screens() {
        let context = app.key_context();
        let wide = keys::bar(&context, 500);
        for entry in keys::entries(context.mode, &context) {
            let Some(_) = entry.label else { continue };
            if !entry.offered.holds(&context) {
                continue;
            }
            assert!(
                wide.contains(&entry.short()),
                "{what}: {:?} in {wide:?}",
                entry.short()
            );
        }
        // What is drawn is the table's bar at the screen's width.
        let drawn = lines(&draw(&app, 80, 24)).pop().unwrap_or_default();
        if !context.help {
            assert_eq!(drawn.trim(), keys::bar(&context, 80), "{what}");
        }
    }
    // Offered only when it acts.
    let t0 = Instant::now();
    let mut app = App::new(settings(Seat::Human, Seat::Human), t0);
    let bar = |app: &App| keys::bar(&app.key_context(), 500);
    assert!(!bar(&app).contains("undo") && !bar(&app).contains("redo"));
    app.update(Action::Place(Square::new(1, 1)), t0);
    assert!(bar(&app).contains("u undo") && !bar(&app).contains("redo"));
    app.update(Action::Undo, t0);
    assert!(bar(&app).contains("U redo") && !bar(&app).contains("undo"));
}

/// The words of the help popup of `app`, drawn tall enough for every entry.
fn help_words(app: &App) -> Vec<String> {
    let buffer = draw(app, 80, 60);
    lines(&buffer)
        .join("\n")
        .split_whitespace()
        .map(|word| word.trim_matches(|c| c == '│' || c == '─').to_string())
        .filter(|word| !word.is_empty())
        .collect()
}

#[test]
fn the_help_of_each_mode_lists_its_entries_from_the_table() {
    let t0 = Instant::now();
    for (what, mut app) in screens() {
        let context = app.key_context();
        if context.help || context.mode == Mode::Ended {
            continue;
        }
        app.update(Action::ToggleHelp, t0);
        // The help's moment: the same mode, with the help open.
        let context = app.key_context();
        let words = help_words(&app);
        let text = words.join(" ");
        let notes = context.mode.note().map(String::from).into_iter();
        // Offered now: what does nothing at this moment is left out.
        let offered = keys::entries(context.mode, &context).filter(|e| e.offered.holds(&context));
        for entry in offered {
            for said in notes.clone().chain([entry.names(), entry.help.to_string()]) {
                for word in said.split_whitespace() {
                    assert!(
                        words.iter().any(|w| w == word),
                        "{what}: {word:?} of {said:?} in the help:\n{text}"
                    );
                }
            }
        }
        assert!(text.contains("any key closes"), "{what}:\n{text}");
    }
}

#[test]
fn the_help_stands_alone_so_nothing_beside_it_is_cut() {
    let t0 = Instant::now();
    let mut explaining = App::new(settings(Seat::Human, PERFECT), t0);
    explaining.update(Action::Place(Square::new(1, 1)), t0);
    explaining.update(Action::ToggleExplain, t0);
    let more = [("explain", explaining)];
    for (what, mut app) in screens().into_iter().chain(more) {
        if !app.help_open() {
            app.update(Action::ToggleHelp, t0);
        }
        if !app.help_open() {
            continue; // a game gone leaves at any key
        }
        for (width, height) in [(120, 40), (80, 24), (60, 20), (40, 15), (30, 15)] {
            let rows = lines(&draw(&app, width, height));
            let top = rows.iter().position(|row| row.contains("┌ Keys"));
            let top = top.unwrap_or_else(|| panic!("{what} {width}x{height}: a popup"));
            let left = rows[top].chars().position(|c| c == '┌').expect("a corner");
            let right = left
                + rows[top]
                    .chars()
                    .skip(left)
                    .position(|c| c == '┐')
                    .expect("a corner");
            let bottom = top
                + rows[top..]
                    .iter()
                    .position(|row| row.contains('┘'))
                    .expect("a bottom");
            for (y, row) in rows.iter().enumerate() {
                for (x, c) in row.chars().enumerate() {
                    let inside = (top..=bottom).contains(&y) && (left..=right).contains(&x);
                    assert!(
                        inside || c == ' ',
                        "{what} {width}x{height}: {c:?} beside the help at {x},{y}\n{}",
                        rows.join("\n")
                    );
                }
            }
        }
    }
}

#[test]
fn plain_modes_help_lists_its_commands_from_the_table() {
    let out = tictactoe(&["--plain", "--no-stats"], "help\nquit\n");
    let transcript = String::from_utf8(out.stdout).expect("text");
    let context = Context::new(Mode::Plain);
    let commands: Vec<&Entry> = keys::entries(Mode::Plain, &context).collect();
    assert!(commands.len() >= 5, "undo, redo, new, help, quit");
    for entry in commands {
        let line = format!("  {}: {}.", entry.names(), entry.help);
        assert!(
            transcript.lines().any(|l| l == line),
            "{line:?} in\n{transcript}"
        );
    }
    // Each word of a command is read, in any case.
    let out = tictactoe(
        &["--plain", "--no-stats", "--seed", "1"],
        "5\nU\nREDO\nh\nn\nexit\n",
    );
    let transcript = String::from_utf8(out.stdout).expect("text");
    for said in ["Undone.", "Redone.", "Commands:", "New game."] {
        assert!(transcript.contains(said), "{said:?} in\n{transcript}");
    }
    assert!(!transcript.contains("error:"), "{transcript}");
}

/// Roff's escapes undone, as far as the key table's words use them.
fn unroff(roff: &str) -> String {
    roff.replace("\\-", "-")
        .replace("\\&", "")
        .replace("\\*(Aq", "'")
        .replace("\\(aq", "'")
        .replace("\\fB", "")
        .replace("\\fR", "")
        .replace('"', "")
}

#[test]
fn the_man_page_has_every_table_of_keys() {
    let out = tictactoe(&["man"], "");
    assert_eq!(out.status.code(), Some(0));
    let page = unroff(&String::from_utf8(out.stdout).expect("roff is text"));
    let keys_at = page.find(".SH KEYS").expect("a KEYS section");
    let section = &page[keys_at..];
    let section = &section[..section[1..]
        .find(".SH ")
        .map_or(section.len(), |end| end + 1)];
    let mut documented = BTreeSet::new();
    for group in &GROUPS {
        assert!(
            section.contains(&format!(".SS {}", group.title)),
            "{:?}",
            group.title
        );
        for entry in group.entries() {
            let item = format!(".TP\n{}\n{}\n", entry.names(), entry.doc);
            assert!(section.contains(&item), "{item:?} in\n{section}");
            documented.insert(entry.names() + entry.doc);
        }
    }
    for entry in KEYS {
        assert!(
            documented.contains(&(entry.names() + entry.doc)),
            "{:?} is in no table of the manuals",
            entry.names()
        );
    }
}

#[test]
fn the_docs_tables_of_keys_are_the_key_tables() {
    let docs: String = support::docs::pages()
        .iter()
        .map(|page| format!("{}\n", page.text))
        .collect();
    let mut wrong = Vec::new();
    for group in &GROUPS {
        let table = group.markdown();
        // The whole table, and no row of another after it.
        let whole = docs
            .match_indices(&table)
            .any(|(at, _)| !docs[at + table.len()..].starts_with('|'));
        if !whole {
            wrong.push(format!("{} ({:?}):\n\n{table}", group.title, group.mode));
        }
    }
    assert!(
        wrong.is_empty(),
        "the docs should show these tables as they are (`tictactoe keys` prints them all):\n\n{}",
        wrong.join("\n")
    );
}

#[test]
fn tictactoe_keys_prints_every_table_in_markdown() {
    let out = tictactoe(&["keys"], "");
    assert_eq!(out.status.code(), Some(0));
    let printed = String::from_utf8(out.stdout).expect("Markdown is text");
    assert_eq!(printed, keys::markdown());
    for group in &GROUPS {
        let titled = format!("{}:\n\n{}", group.title, group.markdown());
        assert!(printed.contains(&titled), "{titled}");
    }
}

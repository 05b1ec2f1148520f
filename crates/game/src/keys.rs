//! Every key of the program in one table, [`KEYS`], and what reads it.
//!
//! Each [`Entry`] holds its keys with the action each asks for, a label for
//! the key bar, the help's words and the manual's, its importance, and when
//! it applies: the [`Mode`]s it acts in, a condition for acting at all (its
//! `only`) and one for being offered (its `offered`: on the key bar and in
//! the help). The keys' names (for the help, the manuals and the key bar)
//! are made from the keys themselves ([`Entry::names`]): each key is written
//! once.
//!
//! Everything that shows or reads a key draws on the table: the mapping of
//! key presses ([`action`], for the full-screen game and the server's lobby,
//! which turn their terminal's events into a [`KeyPress`]), the key bar ([`bar`]: the game's, the tree's, the
//! lobby's hint line and the help's closing hint), the help popup ([`help`]),
//! plain mode's typed commands and their help ([`typed`], [`Mode::Plain`]),
//! and the man page's KEYS section and the manuals' key tables ([`GROUPS`],
//! in Markdown by [`markdown`]).
//!
//! To add a key, add its entry (and, for a new action, the action's variant
//! and what the model does with it): the mapping, key bar, help, the
//! manuals' tables (their test prints the new row) and man page follow.

use std::fmt::Write as _;
use std::time::Duration;

use tictactoe_engine::{Player, Square};

use crate::action::{Action, Browse, Direction, LobbyAction, Reading, TraceMove};
use crate::fit::most_important;
/// A key of the keyboard, as the table names it: the front ends turn their
/// terminal's key events into these (the game's model knows no terminal).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KeyCode {
    /// A character key (a letter's case is Shift's).
    Char(char),
    /// Arrow up.
    Up,
    /// Arrow down.
    Down,
    /// Arrow left.
    Left,
    /// Arrow right.
    Right,
    /// Enter (Return).
    Enter,
    /// Escape.
    Esc,
    /// Backspace.
    Backspace,
    /// Home.
    Home,
    /// End.
    End,
    /// A function key, F1 to F12.
    F(u8),
    /// Any other key: bound to nothing by name.
    Other,
}

/// One key press: the key and whether Ctrl was held.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KeyPress {
    /// The key.
    pub code: KeyCode,
    /// Ctrl was held.
    pub ctrl: bool,
}

impl KeyPress {
    /// `code` pressed without Ctrl.
    pub const fn new(code: KeyCode) -> KeyPress {
        KeyPress { code, ctrl: false }
    }

    /// `letter` pressed with Ctrl held.
    pub const fn ctrl(letter: char) -> KeyPress {
        KeyPress {
            code: KeyCode::Char(letter),
            ctrl: true,
        }
    }
}

/// Where keys are read. A game screen is in one mode at a time; the help,
/// while open, takes the keys of the mode under it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// A local game with a person at the keyboard (also against the AI over SSH).
    Play,
    /// The AI plays both sides (`--watch`).
    Watch,
    /// Over SSH, against a person at another terminal.
    Versus,
    /// Over SSH, watching someone else's game.
    Watching,
    /// The minimax tree (`t`).
    Tree,
    /// The walkthrough of minimax call by call (`c`).
    Walkthrough,
    /// The quiz about the position on the board (`z`).
    Quiz,
    /// The help popup is open.
    Help,
    /// Over SSH, the game is gone (the other player left).
    Ended,
    /// The SSH server's lobby.
    Lobby,
    /// Plain mode (`--plain`): commands typed on a line.
    Plain,
    /// The screen-reader mode (`--screen-reader`): plain mode's commands and its own.
    Reader,
    /// The review of a finished game on the board (`v`).
    Review,
}

impl Mode {
    /// Every mode.
    pub const ALL: [Mode; 13] = [
        Mode::Play,
        Mode::Watch,
        Mode::Versus,
        Mode::Watching,
        Mode::Tree,
        Mode::Walkthrough,
        Mode::Quiz,
        Mode::Help,
        Mode::Ended,
        Mode::Lobby,
        Mode::Plain,
        Mode::Reader,
        Mode::Review,
    ];

    /// A sentence the help opens with in this mode, if any.
    pub fn note(self) -> Option<&'static str> {
        match self {
            Mode::Watch => Some("The AI plays both sides."),
            Mode::Watching => Some("You are watching this game."),
            Mode::Tree => Some("The minimax tree of the position on the board."),
            Mode::Review => Some(
                "The review of the game: ?? lost the result, ? delayed a win or hastened a loss.",
            ),
            Mode::Walkthrough => {
                Some("The articles' minimax from the position on the board, one call at a time.")
            }
            Mode::Quiz => Some(
                "Questions about the position on the board, answered by the articles' minimax.",
            ),
            _ => None,
        }
    }

    const fn bit(self) -> u16 {
        1 << self as u16
    }
}

/// A set of modes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Modes(u16);

impl Modes {
    const fn of(modes: &[Mode]) -> Modes {
        let mut bits = 0;
        let mut i = 0;
        while i < modes.len() {
            bits |= modes[i].bit();
            i += 1;
        }
        Modes(bits)
    }

    /// True if `mode` is one of them.
    pub fn has(self, mode: Mode) -> bool {
        self.0 & mode.bit() != 0
    }
}

/// A key, as the table names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    /// A key pressed without Ctrl (a letter's case is Shift's).
    Code(KeyCode),
    /// A letter with Ctrl held.
    Ctrl(char),
    /// A left click on the board: the action is taken at the square clicked.
    Click,
    /// Any key or click not bound otherwise in the mode.
    Any,
    /// A word typed on a line, in plain mode.
    Word(&'static str),
    /// Any character typed without Ctrl: the action gets the character.
    Text,
}

impl Key {
    /// True if the key press `key` is this key.
    pub fn matches(self, key: KeyPress) -> bool {
        let ctrl = key.ctrl;
        match self {
            Key::Code(code) => !ctrl && key.code == code,
            Key::Ctrl(letter) => ctrl && key.code == KeyCode::Char(letter),
            Key::Text => !ctrl && matches!(key.code, KeyCode::Char(_)),
            Key::Click | Key::Any | Key::Word(_) => false,
        }
    }

    /// The key's name: the character it types (`q`, `?`) or the word typed,
    /// or a name in words (Enter, Space, Ctrl-C, any key).
    pub fn name(self) -> KeyName {
        let word = |name: &str| KeyName::Word(name.to_string());
        match self {
            Key::Code(KeyCode::Char(' ')) => word("Space"),
            Key::Code(KeyCode::Char(c)) => KeyName::Typed(c.to_string()),
            Key::Code(KeyCode::Up) => word("Up"),
            Key::Code(KeyCode::Down) => word("Down"),
            Key::Code(KeyCode::Left) => word("Left"),
            Key::Code(KeyCode::Right) => word("Right"),
            Key::Code(KeyCode::Enter) => word("Enter"),
            Key::Code(KeyCode::Esc) => word("Esc"),
            Key::Code(KeyCode::Backspace) => word("Backspace"),
            Key::Code(KeyCode::Home) => word("Home"),
            Key::Code(KeyCode::End) => word("End"),
            Key::Code(KeyCode::F(number)) => KeyName::Word(format!("F{number}")),
            Key::Code(KeyCode::Other) => word("another key"),
            Key::Ctrl(letter) => KeyName::Word(format!("Ctrl-{}", letter.to_ascii_uppercase())),
            Key::Click => word("Mouse click"),
            Key::Any => word("any key"),
            Key::Word(typed) => KeyName::Typed(typed.to_string()),
            Key::Text => word("any character"),
        }
    }

    fn char(self) -> Option<char> {
        match self {
            Key::Code(KeyCode::Char(c)) => Some(c),
            _ => None,
        }
    }
}

/// The name of a key, or of a few keys that go together, as the help, the
/// manuals and the key bar give it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyName {
    /// Keys named in words: Enter, Space, Ctrl-C, Arrows, any key.
    Word(String),
    /// Keys named by what they type: `q`, `hjkl`, `1-9`; or a word typed in
    /// plain mode (`undo`).
    Typed(String),
    /// Two keys of opposite effect, such as `+` / `-`.
    Pair(String, String),
}

impl KeyName {
    /// The name in the help and the man page: `Arrows`, `hjkl`, `+ / -`.
    pub fn text(&self) -> String {
        match self {
            KeyName::Word(name) | KeyName::Typed(name) => name.clone(),
            KeyName::Pair(first, second) => format!("{first} / {second}"),
        }
    }

    /// The name in Markdown: what is typed in code, the rest as words.
    pub fn markdown(&self) -> String {
        match self {
            KeyName::Word(name) => name.clone(),
            KeyName::Typed(name) => format!("`{name}`"),
            KeyName::Pair(first, second) => format!("`{first}` / `{second}`"),
        }
    }

    /// The name on the key bar, where room is short: `arrows`, `←`, `enter`, `+/-`.
    pub fn short(&self) -> String {
        match self {
            KeyName::Word(name) => match name.as_str() {
                "Up" => "↑".to_string(),
                "Down" => "↓".to_string(),
                "Left" => "←".to_string(),
                "Right" => "→".to_string(),
                "Arrows" | "Enter" | "Esc" | "Space" | "Backspace" => name.to_lowercase(),
                _ => name.clone(),
            },
            KeyName::Typed(name) => name.clone(),
            KeyName::Pair(first, second) => format!("{first}/{second}"),
        }
    }
}

/// The keys of a list, named: each key by its own name ([`Key::name`]), but
///
/// - the four arrow keys together are `Arrows`;
/// - four letters together that move the cursor every way are one run (`hjkl`);
/// - the digits 1 to 9 together are `1-9`;
/// - a key's Shift twin for the same action goes unnamed (`+` is also `=`, `-` also `_`);
/// - two symbols together for different actions are a pair (`+ / -`).
pub fn key_names(keys: &[(Key, Does)]) -> Vec<KeyName> {
    const ARROWS: [KeyCode; 4] = [KeyCode::Up, KeyCode::Down, KeyCode::Left, KeyCode::Right];
    const TWINS: [(char, char); 2] = [('+', '='), ('-', '_')];
    // The keys worth a name: not a Shift twin of the key before it.
    let mut named: Vec<(Key, Does)> = Vec::new();
    for &(key, does) in keys {
        let twin = named.last().is_some_and(|&(before, bound)| {
            let pair = before.char().zip(key.char());
            bound == does && pair.is_some_and(|pair| TWINS.contains(&pair))
        });
        if !twin {
            named.push((key, does));
        }
    }
    let mut names = Vec::new();
    let mut rest = named.as_slice();
    while let Some(&(key, does)) = rest.first() {
        let run = |n: usize| rest.get(..n).unwrap_or_default();
        let four = run(4);
        let arrows = four.len() == 4
            && ARROWS
                .iter()
                .all(|&code| four.iter().any(|&(key, _)| key == Key::Code(code)));
        let directions = four.len() == 4
            && four
                .iter()
                .all(|(key, _)| key.char().is_some_and(|c| c.is_ascii_alphabetic()))
            && [
                Direction::Up,
                Direction::Down,
                Direction::Left,
                Direction::Right,
            ]
            .iter()
            .all(|&way| {
                four.iter()
                    .any(|&(_, does)| does == Does::Game(Action::Cursor(way)))
            });
        let digits = run(9)
            .iter()
            .map(|(key, _)| key.char())
            .eq(('1'..='9').map(Some));
        let symbol = |key: Key| key.char().is_some_and(|c| c.is_ascii_punctuation());
        let pair = match rest.get(1) {
            Some(&(second, other)) if symbol(key) && symbol(second) && other != does => {
                Some((key.name().text(), second.name().text()))
            }
            _ => None,
        };
        let (name, taken) = if arrows {
            (KeyName::Word("Arrows".to_string()), 4)
        } else if directions {
            let letters = four.iter().filter_map(|(key, _)| key.char()).collect();
            (KeyName::Typed(letters), 4)
        } else if digits {
            (KeyName::Typed("1-9".to_string()), 9)
        } else if let Some((first, second)) = pair {
            (KeyName::Pair(first, second), 2)
        } else {
            (key.name(), 1)
        };
        names.push(name);
        rest = &rest[taken..];
    }
    names
}

/// What a key asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Does {
    /// An action of the game screen (and of plain mode's commands).
    Game(Action),
    /// An action of the server's lobby.
    Lobby(LobbyAction),
}

/// What a key bar says a key does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Label {
    /// Always these words.
    Text(&'static str),
    /// The first words while the condition holds, else the second ("resume"
    /// while paused, else "pause").
    Either(When, &'static str, &'static str),
    /// The pause between moves, such as "delay 500 ms".
    Delay,
}

/// A condition on the moment, for acting or for being offered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum When {
    /// Always.
    Always,
    /// On 3x3, whose squares the digits name.
    Classic,
    /// On a board bigger than 3x3.
    Bigger,
    /// At the local terminal.
    Local,
    /// On the SSH server.
    Served,
    /// With a turn to take back.
    CanUndo,
    /// With a taken-back turn to play again.
    CanRedo,
    /// Once the game is over.
    Over,
    /// While the game goes on.
    NotOver,
    /// On 3x3 while the game goes on: what the quiz asks about.
    Quizzable,
    /// While a person at this screen can still place a mark (also while
    /// the AI answers: the person's turn comes straight back, and a bar
    /// that changes with every move reads worse).
    Playable,
    /// While the help is closed.
    HelpClosed,
    /// In the lobby, while waiting for an opponent.
    Waiting,
    /// In the lobby, while not waiting.
    NotWaiting,
    /// Watch mode, while paused.
    Paused,
    /// The walkthrough, while it runs to a call far away (Esc stops it).
    Running,
    /// The walkthrough, while it stands at a call (not running).
    Still,
    /// The walkthrough, at a call before the end: there is a call to finish.
    Walking,
    /// The walkthrough, once call 1 has returned.
    WalkOver,
    /// The quiz, while a question waits for its answer to be checked.
    Answering,
    /// The quiz, until its last question is answered.
    Asking,
    /// Against a person on the server, who has not moved for the claim time.
    Claimable,
}

impl When {
    /// True at the moment `context` describes.
    pub fn holds(self, context: &Context) -> bool {
        match self {
            When::Always => true,
            When::Classic => context.classic,
            When::Bigger => !context.classic,
            When::Local => context.local,
            When::Served => !context.local,
            When::CanUndo => context.can_undo,
            When::CanRedo => context.can_redo,
            When::Over => context.over,
            When::NotOver => !context.over,
            When::Quizzable => context.classic && !context.over,
            When::Playable => context.playable,
            When::HelpClosed => !context.help,
            When::Waiting => context.waiting,
            When::NotWaiting => !context.waiting,
            When::Paused => context.paused,
            When::Running => context.walk == Some(WalkStage::Running),
            When::Still => context.walk != Some(WalkStage::Running),
            When::Walking => context.walk == Some(WalkStage::Walking),
            When::WalkOver => context.walk == Some(WalkStage::Over),
            When::Answering => context.quiz == Some(QuizStage::Answering),
            When::Claimable => context.claimable,
            When::Asking => matches!(
                context.quiz,
                Some(QuizStage::Answering | QuizStage::Checked)
            ),
        }
    }
}

/// Where the walkthrough on screen stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WalkStage {
    /// At a call before the end.
    Walking,
    /// Running to a call far away: Esc stops it.
    Running,
    /// Call 1 has returned.
    Over,
}

/// Where the quiz on screen stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuizStage {
    /// A question waits for its answer (typed or not) to be checked.
    Answering,
    /// The answer is checked: Enter asks the next question.
    Checked,
    /// Every question is answered: the score is shown.
    Over,
}

/// The moment keys are read in: the mode and what is possible in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Context {
    /// The screen's mode (under the help, if it is open).
    pub mode: Mode,
    /// The help popup is open over it.
    pub help: bool,
    /// The board is 3x3.
    pub classic: bool,
    /// At the local terminal rather than on the SSH server.
    pub local: bool,
    /// A turn can be taken back.
    pub can_undo: bool,
    /// A taken-back turn can be played again.
    pub can_redo: bool,
    /// The game is over.
    pub over: bool,
    /// A person at this screen can still place a mark.
    pub playable: bool,
    /// Waiting in the lobby for an opponent.
    pub waiting: bool,
    /// Watch mode is paused.
    pub paused: bool,
    /// Watch mode's pause between moves.
    pub delay: Duration,
    /// Where the walkthrough stands, while it is open.
    pub walk: Option<WalkStage>,
    /// Where the quiz stands, while it is open.
    pub quiz: Option<QuizStage>,
    /// The opponent has not moved for the claim time: the game may be claimed.
    pub claimable: bool,
}

impl Context {
    /// A context in `mode` with nothing open, at the local terminal, on 3x3,
    /// nothing to undo or redo, the game going on.
    pub fn new(mode: Mode) -> Context {
        Context {
            mode,
            help: false,
            classic: true,
            local: true,
            can_undo: false,
            can_redo: false,
            over: false,
            playable: false,
            waiting: false,
            paused: false,
            delay: Duration::ZERO,
            walk: None,
            quiz: None,
            claimable: false,
        }
    }

    /// The server's lobby, with this player waiting for an opponent or not.
    pub fn lobby(waiting: bool) -> Context {
        Context {
            local: false,
            waiting,
            ..Context::new(Mode::Lobby)
        }
    }

    /// The mode whose keys act now: the help's while it is open.
    pub fn acting(&self) -> Mode {
        if self.help { Mode::Help } else { self.mode }
    }
}

/// One line of the key table.
#[derive(Debug, Clone, Copy)]
pub struct Entry {
    /// The keys, each with what it asks for.
    pub keys: &'static [(Key, Does)],
    /// How many of the keys' names the key bar gives ("c/enter": two).
    pub on_bar: usize,
    /// What the key bar says they do; `None`: they are not on the key bar.
    pub label: Option<Label>,
    /// What they do, in the help popup.
    pub help: &'static str,
    /// What they do, in the manuals and the man page.
    pub doc: &'static str,
    /// 1 for the most important: the key bar and a short help drop the least first.
    pub importance: u8,
    /// A higher importance while a condition holds (`n` once the game is over).
    pub raised: Option<(When, u8)>,
    /// Where the keys act.
    pub modes: Modes,
    /// They act only when this holds (else they are not bound, nor in the help).
    pub only: When,
    /// The key bar and the help offer them only when this holds.
    pub offered: When,
}

impl Entry {
    const fn new(modes: &[Mode], keys: &'static [(Key, Does)], help: &'static str) -> Entry {
        Entry {
            keys,
            on_bar: 1,
            label: None,
            help,
            doc: help,
            importance: 9,
            raised: None,
            modes: Modes::of(modes),
            only: When::Always,
            offered: When::Always,
        }
    }

    /// On the key bar as the first key's name and `label`, with this importance.
    const fn bar(self, label: &'static str, importance: u8) -> Entry {
        self.bar_as(Label::Text(label), importance)
    }

    const fn bar_as(self, label: Label, importance: u8) -> Entry {
        Entry {
            label: Some(label),
            importance,
            ..self
        }
    }

    /// The key bar names the first `on_bar` keys ("c/enter").
    const fn naming(self, on_bar: usize) -> Entry {
        Entry { on_bar, ..self }
    }

    const fn importance(self, importance: u8) -> Entry {
        Entry { importance, ..self }
    }

    const fn doc(self, doc: &'static str) -> Entry {
        Entry { doc, ..self }
    }

    const fn only(self, only: When) -> Entry {
        Entry { only, ..self }
    }

    const fn offered(self, offered: When) -> Entry {
        Entry { offered, ..self }
    }

    /// Of `importance` while `when` holds.
    const fn raised(self, when: When, importance: u8) -> Entry {
        Entry {
            raised: Some((when, importance)),
            ..self
        }
    }

    /// True if the entry acts at the moment `context` describes, in `mode`.
    pub fn applies(&self, mode: Mode, context: &Context) -> bool {
        self.modes.has(mode) && self.only.holds(context)
    }

    /// The keys' names, one for each key or group of keys ([`key_names`]).
    pub fn key_names(&self) -> Vec<KeyName> {
        key_names(self.keys)
    }

    /// The keys' names as the help and the man page give them ("Arrows, hjkl, wasd").
    pub fn names(&self) -> String {
        let names: Vec<String> = self.key_names().iter().map(KeyName::text).collect();
        names.join(", ")
    }

    /// The keys as the key bar names them ("arrows", "c/enter").
    pub fn short(&self) -> String {
        let names: Vec<String> = self
            .key_names()
            .iter()
            .take(self.on_bar)
            .map(KeyName::short)
            .collect();
        names.join("/")
    }

    fn importance_at(&self, context: &Context) -> u8 {
        match self.raised {
            Some((when, importance)) if when.holds(context) => importance,
            _ => self.importance,
        }
    }
}
const fn ch(letter: char) -> Key {
    Key::Code(KeyCode::Char(letter))
}

const fn on(key: Key, action: Action) -> (Key, Does) {
    (key, Does::Game(action))
}

const fn lobby(key: Key, action: LobbyAction) -> (Key, Does) {
    (key, Does::Lobby(action))
}

const fn up(key: Key) -> (Key, Does) {
    on(key, Action::Cursor(Direction::Up))
}

const fn down(key: Key) -> (Key, Does) {
    on(key, Action::Cursor(Direction::Down))
}

const fn left(key: Key) -> (Key, Does) {
    on(key, Action::Cursor(Direction::Left))
}

const fn right(key: Key) -> (Key, Does) {
    on(key, Action::Cursor(Direction::Right))
}

const UP: Key = Key::Code(KeyCode::Up);
const DOWN: Key = Key::Code(KeyCode::Down);
const LEFT: Key = Key::Code(KeyCode::Left);
const RIGHT: Key = Key::Code(KeyCode::Right);
const ENTER: Key = Key::Code(KeyCode::Enter);
const SPACE: Key = ch(' ');
const ESC: Key = Key::Code(KeyCode::Esc);
const BACKSPACE: Key = Key::Code(KeyCode::Backspace);

/// The digits 1 to 9, each placing in its square of 3x3, in reading order.
const DIGITS: [(Key, Does); 9] = {
    let mut digits = [on(ch('1'), Action::Unbound); 9];
    let mut i = 0;
    while i < 9 {
        digits[i] = on(
            ch((b'1' + i as u8) as char),
            Action::Place(Square::from_index(i, 3)),
        );
        i += 1;
    }
    digits
};

use Mode::{
    Ended, Help, Lobby, Plain, Play, Quiz, Reader, Review, Tree, Versus, Walkthrough, Watch,
    Watching,
};

/// The modes whose commands are typed on a line.
const TYPED: &[Mode] = &[Plain, Reader];

/// The game's modes: where the board is on screen.
const GAME: &[Mode] = &[Play, Watch, Versus, Watching];
/// Every mode of the game screen but the help and a game gone.
const SCREEN: &[Mode] = &[Play, Watch, Versus, Watching, Tree, Walkthrough, Review];

/// Every key of the program. In each mode the first entry holding a key
/// takes it; two entries of one mode share a key only under conditions that
/// exclude each other (a test checks).
pub static KEYS: &[Entry] = &[
    // The game.
    Entry::new(
        GAME,
        &[
            up(UP),
            down(DOWN),
            left(LEFT),
            right(RIGHT),
            left(ch('h')),
            down(ch('j')),
            up(ch('k')),
            right(ch('l')),
            up(ch('w')),
            left(ch('a')),
            down(ch('s')),
            right(ch('d')),
        ],
        "move the cursor",
    )
    .bar("play", 4)
    .raised(When::Bigger, 2)
    .offered(When::Playable)
    .doc("move the cursor (with explain on, to the square whose line is shown)"),
    Entry::new(
        &[Play, Versus],
        &[on(ENTER, Action::Confirm), on(SPACE, Action::Confirm)],
        "place your mark",
    )
    .bar("play", 4)
    .raised(When::Bigger, 2)
    .offered(When::Playable)
    .doc("place your mark under the cursor"),
    Entry::new(&[Play, Versus], &DIGITS, "place in that square")
        .bar("play", 2)
        .only(When::Classic)
        .offered(When::Playable)
        .doc("place in that square, in reading order (1 top left, 9 bottom right); 3x3 only"),
    Entry::new(
        &[Play, Versus],
        &[on(Key::Click, Action::Confirm)],
        "place in that square",
    )
    .importance(6)
    .offered(When::Playable)
    .doc("place in the square clicked"),
    Entry::new(&[Watch], &[on(SPACE, Action::TogglePause)], "pause or resume")
        .bar_as(Label::Either(When::Paused, "resume", "pause"), 2)
        .offered(When::NotOver),
    Entry::new(&[Watch], &[on(ch('.'), Action::Step)], "play one move")
        .bar("step", 3)
        .offered(When::NotOver)
        .doc("play one move (and stay paused)"),
    Entry::new(
        &[Watch],
        &[
            on(ch('+'), Action::Faster),
            on(ch('='), Action::Faster),
            on(ch('-'), Action::Slower),
            on(ch('_'), Action::Slower),
        ],
        "faster / slower",
    )
    .bar_as(Label::Delay, 2)
    .offered(When::NotOver)
    .doc("faster / slower: halves or doubles the pause between moves, 50 ms to 5 s"),
    Entry::new(&[Play, Watch], &[on(ch('u'), Action::Undo)], "undo the last turn")
        .bar("undo", 3)
        .offered(When::CanUndo)
        .doc(
            "undo the last full turn: your move and the AI's reply (one move with two people \
             at one keyboard; in watch mode one move, and it pauses)",
        ),
    Entry::new(
        &[Play, Watch],
        &[on(ch('U'), Action::Redo), on(Key::Ctrl('r'), Action::Redo)],
        "redo",
    )
    .bar("redo", 3)
    .offered(When::CanRedo)
    .doc("redo what the last undo took back (the AI's replies as they were)"),
    Entry::new(
        &[Versus],
        &[
            on(ch('u'), Action::Undo),
            on(ch('U'), Action::Redo),
            on(Key::Ctrl('r'), Action::Redo),
        ],
        "no undo against a person",
    )
    .importance(5)
    .doc("refused against a person: every move stands"),
    Entry::new(
        GAME,
        &[on(ch('e'), Action::ToggleExplain)],
        "explain: every move's score",
    )
    .bar("explain", 4)
    .doc(
        "explain: every move's score on the board, the line behind the score under the \
         cursor, and what scoring the position costs",
    ),
    Entry::new(
        GAME,
        &[on(ch('L'), Action::ToggleLab)],
        "the lab: what each search technique buys",
    )
    .importance(6)
    .doc(
        "the lab in the explain panel: the position on the board searched by GeeksforGeeks' \
         minimax, then with alpha-beta, move ordering, a table, symmetry and iterative \
         deepening added, each row's positions and gain (again: back to explain's counts)",
    ),
    Entry::new(
        GAME,
        &[on(ch('t'), Action::ToggleTree)],
        "minimax tree of the position",
    )
    .bar("tree", 5)
    .doc("the minimax tree of the position on the board"),
    Entry::new(
        GAME,
        &[on(ch('c'), Action::Walkthrough)],
        "minimax call by call",
    )
    .bar("calls", 5)
    .offered(When::NotOver)
    .doc("the walkthrough: minimax from the position on the board, one call per press"),
    Entry::new(
        &[Play, Watch, Watching],
        &[on(ch('z'), Action::Quiz)],
        "quiz on the position",
    )
    .bar("quiz", 6)
    .offered(When::Quizzable)
    .doc("the quiz on the position on the board: its value, a best move, and on few free squares minimax's calls and alpha-beta's cuts (3x3)"),
    Entry::new(&[Play, Watch], &[on(ch('n'), Action::NewGame)], "new game")
        .bar("new game", 5)
        .raised(When::Over, 1)
        .doc("new game (the tally is kept)"),
    Entry::new(
        &[Play, Watch, Versus],
        &[on(ch('r'), Action::ShowRecord)],
        "the game's record, to copy; at your own terminal also saved to a new file",
    )
    .doc("the record of the game on screen (see Game records), to copy from the screen; at the local terminal also written to a new file in the current folder, named on the status line"),
    Entry::new(
        &[Versus],
        &[on(ch('n'), Action::NewGame)],
        "rematch once the game is over (both ask; the sides swap)",
    )
    .bar("rematch", 1)
    .offered(When::Over),
    Entry::new(
        &[Versus],
        &[on(ch('v'), Action::Claim { win: true })],
        "claim the win: the other player has not moved for the claim time",
    )
    .bar("claim the win", 1)
    .only(When::Claimable)
    .offered(When::Claimable)
    .doc("once the other player has not moved for the claim time (a game without a clock): the win is yours, rated as the game is"),
    Entry::new(
        &[Versus],
        &[on(ch('x'), Action::Claim { win: false })],
        "abort the game: the other player has not moved for the claim time",
    )
    .bar("abort", 1)
    .only(When::Claimable)
    .offered(When::Claimable)
    .doc("once the other player has not moved for the claim time: stop the game instead, aborted and unrated"),
    Entry::new(
        &[Play, Watch],
        &[on(ch('v'), Action::Review)],
        "review the game: step through its moves, the mistakes marked",
    )
    .bar("review", 3)
    .offered(When::Over)
    .doc("once the game is over: its review on the board, every move's value and the mistakes marked; on bigger boards the values arrive move by move, each thought about for --think-ms (see Game records)"),
    // The review of a finished game.
    Entry::new(
        &[Review],
        &[
            on(LEFT, Action::Browse(Browse::Back)),
            on(RIGHT, Action::Browse(Browse::Forward)),
            on(ch('h'), Action::Browse(Browse::Back)),
            on(ch('l'), Action::Browse(Browse::Forward)),
            on(SPACE, Action::Browse(Browse::Forward)),
        ],
        "one move back or on",
    )
    .bar("step", 1)
    .naming(2),
    Entry::new(
        &[Review],
        &[
            on(ch('g'), Action::Browse(Browse::Start)),
            on(ch('G'), Action::Browse(Browse::End)),
            on(Key::Code(KeyCode::Home), Action::Browse(Browse::Start)),
            on(Key::Code(KeyCode::End), Action::Browse(Browse::End)),
        ],
        "to the start or the end of the game",
    )
    .bar("start/end", 3)
    .naming(2),
    Entry::new(
        &[Review],
        &[on(ch('v'), Action::Review), on(ESC, Action::Back)],
        "close the review",
    )
    .bar("close", 1)
    .naming(2),
    // The minimax tree.
    Entry::new(
        &[Tree],
        &[
            up(UP),
            down(DOWN),
            up(ch('k')),
            down(ch('j')),
            up(ch('w')),
            down(ch('s')),
        ],
        "move between positions",
    )
    .bar("move", 2)
    .naming(2),
    Entry::new(
        &[Tree],
        &[
            on(RIGHT, Action::Confirm),
            on(ENTER, Action::Confirm),
            on(SPACE, Action::Confirm),
            on(ch('l'), Action::Confirm),
        ],
        "open a position's replies",
    )
    .bar("open", 2)
    .naming(2)
    .doc("open a position into its replies; on an open one, go to its first reply"),
    Entry::new(
        &[Tree],
        &[
            on(LEFT, Action::Collapse),
            on(BACKSPACE, Action::Collapse),
            on(ch('h'), Action::Collapse),
        ],
        "close it, or go up",
    )
    .bar("up", 3)
    .naming(2)
    .doc("close an open position, or go up to the one above"),
    Entry::new(
        &[Tree],
        &[on(ch('t'), Action::ToggleTree), on(ESC, Action::Back)],
        "close the tree",
    )
    .bar("close", 1)
    .naming(2),
    // The walkthrough. Its further keys go here, one entry each. While it
    // runs to a call far away, only Esc (which stops it), the help and
    // leaving act.
    Entry::new(
        &[Walkthrough],
        &[
            on(ch('c'), Action::Trace(TraceMove::Next)),
            on(ENTER, Action::Trace(TraceMove::Next)),
            on(SPACE, Action::Trace(TraceMove::Next)),
            on(RIGHT, Action::Trace(TraceMove::Next)),
            on(ch('l'), Action::Trace(TraceMove::Next)),
            on(ch('d'), Action::Trace(TraceMove::Next)),
        ],
        "the next call",
    )
    .bar_as(Label::Either(When::WalkOver, "again", "next call"), 1)
    .naming(2)
    .only(When::Still)
    .doc("the next call; after the last, call 1's result, and then from the start again"),
    Entry::new(
        &[Walkthrough],
        &[
            on(ch('b'), Action::Trace(TraceMove::Back)),
            on(BACKSPACE, Action::Trace(TraceMove::Back)),
            on(LEFT, Action::Trace(TraceMove::Back)),
            on(ch('h'), Action::Trace(TraceMove::Back)),
        ],
        "back one call",
    )
    .bar("back", 2)
    .only(When::Still)
    .doc("back one call: the walk as it stood when the call before began"),
    Entry::new(
        &[Walkthrough],
        &[on(ch('f'), Action::Trace(TraceMove::Finish))],
        "finish the current call",
    )
    .bar("finish", 2)
    .only(When::Still)
    .offered(When::Walking)
    .doc("finish the current call: every call it makes, until it returns"),
    Entry::new(
        &[Walkthrough],
        &[
            on(ch('G'), Action::Trace(TraceMove::End)),
            on(Key::Code(KeyCode::End), Action::Trace(TraceMove::End)),
        ],
        "jump to the last call",
    )
    .bar("end", 4)
    .only(When::Still)
    .offered(When::Walking)
    .doc("straight to the end: call 1 returns, with the best move"),
    Entry::new(
        &[Walkthrough],
        &[on(ch('a'), Action::Trace(TraceMove::AlphaBeta))],
        "alpha-beta on or off",
    )
    .bar("alpha-beta", 2)
    .only(When::Still)
    .doc("alpha-beta mode on or off, from call 1: alpha and beta at every call, bounds marked as bounds, the pruned replies and why they are pruned"),
    Entry::new(
        &[Walkthrough],
        &[on(ESC, Action::Back)],
        "close the walkthrough; while it runs to a call, stop it where it got to",
    )
    .bar_as(Label::Either(When::Running, "stop", "close"), 1),
    // The quiz: every character types, so only keys that type nothing act.
    Entry::new(
        &[Quiz],
        &[on(ENTER, Action::Confirm)],
        "check the answer; once checked, the next question",
    )
    .bar_as(Label::Either(When::Answering, "check", "next"), 1)
    .offered(When::Asking),
    Entry::new(
        &[Quiz],
        &[on(BACKSPACE, Action::Erase)],
        "take back the last character typed",
    )
    .bar("erase", 3)
    .offered(When::Answering),
    Entry::new(&[Quiz], &[on(ESC, Action::Back)], "close the quiz").bar("close", 1),
    Entry::new(
        &[Quiz],
        &[on(Key::Ctrl('c'), Action::Quit)],
        "quit, or back to the lobby over SSH",
    )
    .importance(6),
    Entry::new(
        &[Quiz],
        &[on(Key::Text, Action::Type(' '))],
        "type the answer: a number (+10), a square (b2), branches (b1 b2, c3) or none",
    )
    .importance(7)
    .offered(When::Answering),
    Entry::new(
        &[Quiz],
        &[on(Key::Code(KeyCode::F(1)), Action::ToggleHelp)],
        "show this help (? is typed)",
    )
    .bar("help", 4),
    // Every mode of the game screen.
    Entry::new(
        SCREEN,
        &[on(ch('?'), Action::ToggleHelp)],
        "show or hide this help",
    )
    .bar("help", 1)
    .offered(When::HelpClosed)
    .doc("help: the keys of the moment (on a small screen, the most useful that fit)"),
    Entry::new(
        SCREEN,
        &[on(ch('q'), Action::Quit), on(Key::Ctrl('c'), Action::Quit)],
        "quit",
    )
    .bar("quit", 1)
    .only(When::Local)
    .doc("quit (also while the AI is thinking)"),
    Entry::new(
        SCREEN,
        &[on(ch('q'), Action::Quit), on(Key::Ctrl('c'), Action::Quit)],
        "back to the lobby",
    )
    .bar("lobby", 1)
    .only(When::Served),
    Entry::new(GAME, &[on(ESC, Action::Back)], "close explain, or leave")
        .importance(5)
        .doc("close explain if it is on; otherwise leave, as q does"),
    Entry::new(
        &[Play, Watch, Tree, Walkthrough, Review, Help],
        &[on(Key::Ctrl('z'), Action::Suspend)],
        "suspend; fg resumes",
    )
    .importance(6)
    .only(When::Local)
    .doc("suspend: the terminal is given back; fg brings the game back, redrawn"),
    // The help popup.
    Entry::new(
        &[Help],
        &[on(ch('q'), Action::Quit), on(Key::Ctrl('c'), Action::Quit)],
        "quit, or back to the lobby over SSH",
    )
    .importance(1),
    Entry::new(
        &[Help],
        &[on(Key::Any, Action::ToggleHelp)],
        "close the help",
    )
    .bar("closes", 1)
    .doc("close the help, and nothing more"),
    // A game over SSH that the other player left.
    Entry::new(&[Ended], &[on(Key::Any, Action::Quit)], "back to the lobby")
        .bar("returns to the lobby", 1),
    // The SSH server's lobby.
    Entry::new(
        &[Lobby],
        &[lobby(ch('a'), LobbyAction::PlayAi)],
        "play the AI now",
    )
    .bar("play the AI", 2)
    .doc("play the AI now, with the side and level chosen"),
    Entry::new(
        &[Lobby],
        &[
            lobby(ch('x'), LobbyAction::Side(Player::X)),
            lobby(ch('o'), LobbyAction::Side(Player::O)),
        ],
        "your side against the AI",
    )
    .naming(2)
    .importance(4)
    .doc("the side you play against the AI (X moves first)"),
    Entry::new(
        &[Lobby],
        &[
            lobby(LEFT, LobbyAction::LevelDown),
            lobby(RIGHT, LobbyAction::LevelUp),
            lobby(ch('h'), LobbyAction::LevelDown),
            lobby(ch('l'), LobbyAction::LevelUp),
            lobby(ch('-'), LobbyAction::LevelDown),
            lobby(ch('_'), LobbyAction::LevelDown),
            lobby(ch('+'), LobbyAction::LevelUp),
            lobby(ch('='), LobbyAction::LevelUp),
            lobby(ch('<'), LobbyAction::LevelDown),
            lobby(ch('>'), LobbyAction::LevelUp),
        ],
        "the AI's level",
    )
    .naming(2)
    .importance(4)
    .doc("the AI's level: easy, medium, hard, perfect"),
    Entry::new(
        &[Lobby],
        &[lobby(ch('f'), LobbyAction::Seek)],
        "seek a game with a person",
    )
    .bar("seek a game", 2)
    .only(When::NotWaiting)
    .doc(
        "seek a game with a person on the board, rating and clock chosen: pairs you with \
         the oldest seek of the same (its player plays X); with none, yours is listed and you wait",
    ),
    Entry::new(
        &[Lobby],
        &[lobby(ch('b'), LobbyAction::Board)],
        "the board of your seek",
    )
    .importance(4)
    .doc("the board of your seek, in turn: 3x3, 4x4 (3 in a row), 4x4, 5x5, 6x6, 7x7 (5 in a row)"),
    Entry::new(
        &[Lobby],
        &[lobby(ch('r'), LobbyAction::Rated)],
        "rated or casual",
    )
    .importance(4)
    .doc("rated or casual: a rated game changes both players' ratings (a key's players only)"),
    Entry::new(
        &[Lobby],
        &[lobby(ch('c'), LobbyAction::Clock)],
        "the clock of your seek",
    )
    .importance(4)
    .doc("the clock of your seek, in turn: none, 1+0, 3+2, 5+3, 10+5 (minutes each + seconds a move)"),
    Entry::new(
        &[Lobby],
        &[
            lobby(ch('f'), LobbyAction::StopWaiting),
            lobby(ESC, LobbyAction::StopWaiting),
        ],
        "stop waiting",
    )
    .bar("stop waiting", 1)
    .naming(2)
    .only(When::Waiting),
    Entry::new(
        &[Lobby],
        &[
            lobby(UP, LobbyAction::SelectUp),
            lobby(DOWN, LobbyAction::SelectDown),
            lobby(ch('k'), LobbyAction::SelectUp),
            lobby(ch('j'), LobbyAction::SelectDown),
        ],
        "choose a seek or a game in the list",
    )
    .importance(4),
    Entry::new(
        &[Lobby],
        &[
            lobby(ch('w'), LobbyAction::Choose),
            lobby(ENTER, LobbyAction::Choose),
        ],
        "take the seek or watch the game chosen",
    )
    .bar("take/watch", 3),
    Entry::new(
        &[Lobby],
        &[
            lobby(ch('q'), LobbyAction::Quit),
            lobby(Key::Ctrl('c'), LobbyAction::Quit),
            lobby(Key::Ctrl('d'), LobbyAction::Quit),
        ],
        "quit",
    )
    .bar("quit", 1)
    .doc("quit: the connection closes with exit status 0"),
    // The commands of plain mode and the screen-reader mode, typed on a
    // line (in any case).
    Entry::new(
        TYPED,
        &[
            on(Key::Word("undo"), Action::Undo),
            on(Key::Word("u"), Action::Undo),
        ],
        "take back your last move and the AI's reply",
    ),
    Entry::new(
        TYPED,
        &[on(Key::Word("redo"), Action::Redo)],
        "play again what undo took back",
    ),
    Entry::new(
        TYPED,
        &[
            on(Key::Word("new"), Action::NewGame),
            on(Key::Word("n"), Action::NewGame),
        ],
        "a new game",
    ),
    Entry::new(
        TYPED,
        &[
            on(Key::Word("help"), Action::ToggleHelp),
            on(Key::Word("h"), Action::ToggleHelp),
            on(Key::Word("?"), Action::ToggleHelp),
        ],
        "these commands",
    ),
    Entry::new(
        TYPED,
        &[
            on(Key::Word("quit"), Action::Quit),
            on(Key::Word("q"), Action::Quit),
            on(Key::Word("exit"), Action::Quit),
        ],
        "leave",
    ),
    // The screen-reader mode's own.
    Entry::new(
        &[Reader],
        &[
            on(Key::Word("board"), Action::Read(Reading::Board)),
            on(Key::Word("b"), Action::Read(Reading::Board)),
        ],
        "the board, row by row",
    ),
    Entry::new(
        &[Reader],
        &[
            on(Key::Word("last"), Action::Read(Reading::Last)),
            on(Key::Word("l"), Action::Read(Reading::Last)),
        ],
        "the last move again",
    ),
    Entry::new(
        &[Reader],
        &[
            on(Key::Word("scores"), Action::Read(Reading::Scores)),
            on(Key::Word("s"), Action::Read(Reading::Scores)),
        ],
        "every free square's score and what it means",
    ),
    Entry::new(
        &[Reader],
        &[
            on(Key::Word("review"), Action::Review),
            on(Key::Word("r"), Action::Review),
        ],
        "the review of the game so far: every move's value, the mistakes marked",
    ),
    Entry::new(
        &[Reader],
        &[on(Key::Word("record"), Action::ShowRecord)],
        "the game's record so far, to copy (see Game records)",
    ),
    Entry::new(
        &[Reader],
        &[on(Key::Word("quiz"), Action::Quiz)],
        "five quiz questions about minimax, then back to the game",
    ),
];

/// The entries that act in `mode` at the moment `context` describes, in the table's order.
pub fn entries(mode: Mode, context: &Context) -> impl Iterator<Item = &'static Entry> + '_ {
    KEYS.iter()
        .filter(move |entry| entry.applies(mode, context))
}

/// What a key press asks for at the moment `context` describes, if anything.
pub fn action(context: &Context, key: KeyPress) -> Option<Does> {
    match (bound(context, |bound| bound.matches(key)), key.code) {
        // Typing: the entry binds every character, the action carries the one typed.
        (Some(Does::Game(Action::Type(_))), KeyCode::Char(typed)) => {
            Some(Does::Game(Action::Type(typed)))
        }
        (does, _) => does,
    }
}

/// What a left click asks for: the action a click is bound to in the mode
/// (taken at the square clicked), or else the mode's action for any key.
pub fn click(context: &Context) -> Option<Does> {
    bound(context, |bound| bound == Key::Click)
}

/// The action of the first key that `wanted` accepts, or else of `Key::Any`.
fn bound(context: &Context, wanted: impl Fn(Key) -> bool) -> Option<Does> {
    let keys = || entries(context.acting(), context).flat_map(|entry| entry.keys);
    keys()
        .find(|(key, _)| wanted(*key))
        .or_else(|| keys().find(|(key, _)| *key == Key::Any))
        .map(|(_, does)| *does)
}

/// The action a word typed in a text mode (plain or screen reader) asks
/// for, if it is one of the mode's commands.
pub fn typed(mode: Mode, word: &str) -> Option<Action> {
    let context = Context::new(mode);
    let keys = entries(mode, &context).flat_map(|entry| entry.keys);
    keys.into_iter()
        .find(|(key, _)| matches!(key, Key::Word(bound) if *bound == word))
        .and_then(|(_, does)| match does {
            Does::Game(action) => Some(*action),
            Does::Lobby(_) => None,
        })
}

/// The words typed in `mode` for `action`, in the table's order (`quit`,
/// `q`, `exit` to leave).
pub fn words(mode: Mode, action: Action) -> Vec<&'static str> {
    let context = Context::new(mode);
    entries(mode, &context)
        .flat_map(|entry| entry.keys)
        .filter_map(|(key, does)| match (key, does) {
            (Key::Word(word), Does::Game(bound)) if *bound == action => Some(*word),
            _ => None,
        })
        .collect()
}

/// The key bar: the keys offered at the moment `context` describes, the
/// most important that fit in `width` columns, in the table's order. Keys
/// side by side with the same label share it ("arrows, enter, 1-9 play").
pub fn bar(context: &Context, width: u16) -> String {
    let items = entries(context.mode, context)
        .filter(|entry| entry.offered.holds(context))
        .filter_map(|entry| {
            let label = label_text(entry.label?, context);
            Some((entry.importance_at(context), (entry.short(), label)))
        })
        .collect();
    let fits = |chosen: &[&(String, String)]| joined(chosen).chars().count() <= usize::from(width);
    let chosen = most_important(items, fits);
    joined(&chosen.iter().collect::<Vec<_>>())
}

/// The key bar of the help popup, for its frame: what any key does.
pub fn help_bar(context: &Context, width: u16) -> String {
    bar(
        &Context {
            mode: Mode::Help,
            ..*context
        },
        width,
    )
}

fn label_text(label: Label, context: &Context) -> String {
    match label {
        Label::Text(text) => text.to_string(),
        Label::Either(when, then, otherwise) => {
            if when.holds(context) { then } else { otherwise }.to_string()
        }
        Label::Delay => format!("delay {} ms", context.delay.as_millis()),
    }
}

/// `short label` pieces two spaces apart, keys with the same label as their
/// neighbour's sharing it.
fn joined(chosen: &[&(String, String)]) -> String {
    let mut pieces: Vec<(Vec<&str>, &str)> = Vec::new();
    for (short, label) in chosen {
        match pieces.last_mut() {
            Some((shorts, last)) if *last == label.as_str() => shorts.push(short),
            _ => pieces.push((vec![short], label)),
        }
    }
    pieces
        .iter()
        .map(|(shorts, label)| format!("{} {label}", shorts.join(", ")))
        .collect::<Vec<_>>()
        .join("  ")
}

/// The help popup's lines at the moment `context` describes: each entry of
/// the mode under the help that is offered now (not `u` with nothing to
/// undo, nor placing a mark once the game is over), with its importance,
/// its keys' names and what they do.
pub fn help(context: &Context) -> Vec<(u8, String, &'static str)> {
    entries(context.mode, context)
        .filter(|entry| entry.offered.holds(context))
        .map(|entry| (entry.importance_at(context), entry.names(), entry.help))
        .collect()
}

/// The short name of the keys that ask for `does` ("x/o" for a side in the
/// lobby), for a line that names them beside what they choose.
pub fn short(does: Does) -> String {
    KEYS.iter()
        .find(|entry| entry.keys.iter().any(|(_, bound)| *bound == does))
        .map_or_else(String::new, Entry::short)
}

/// A table of keys in the manuals (the guide, the man page): the entries of
/// one mode, at the local terminal or on the server.
#[derive(Debug, Clone, Copy)]
pub struct Group {
    /// What the table is about.
    pub title: &'static str,
    /// Its mode.
    pub mode: Mode,
    /// On the SSH server rather than at the local terminal.
    pub served: bool,
    /// Leaves out the entries that also act in this mode (told already).
    pub besides: Option<Mode>,
}

impl Group {
    /// The group's entries, in the table's order.
    pub fn entries(&self) -> Vec<&'static Entry> {
        let where_ = Context {
            local: !self.served,
            ..Context::new(self.mode)
        };
        KEYS.iter()
            .filter(|entry| {
                let only = match entry.only {
                    When::Local | When::Served => entry.only.holds(&where_),
                    _ => true,
                };
                let told = self.besides.is_some_and(|mode| entry.modes.has(mode));
                entry.modes.has(self.mode) && only && !told
            })
            .collect()
    }
}

/// Every table of keys in the manuals, in their order.
pub static GROUPS: [Group; 13] = [
    group("In the game", Play, false, None),
    group(
        "In watch mode (--watch), besides the game's keys",
        Watch,
        false,
        Some(Play),
    ),
    group("In the minimax tree (t)", Tree, false, None),
    group("In the walkthrough (c)", Walkthrough, false, None),
    group("In the review of a finished game (v)", Review, false, None),
    group("In the quiz (z)", Quiz, false, None),
    group("While the help is open", Help, false, None),
    group(
        "In plain mode (--plain), typed on a line",
        Plain,
        false,
        None,
    ),
    group(
        "In the screen-reader mode (--screen-reader), besides plain mode's commands",
        Reader,
        false,
        Some(Plain),
    ),
    group("In the lobby of the SSH server", Lobby, true, None),
    group("In a game against a person over SSH", Versus, true, None),
    group("Watching a game over SSH", Watching, true, None),
    group("Once the other player has left", Ended, true, None),
];

const fn group(title: &'static str, mode: Mode, served: bool, besides: Option<Mode>) -> Group {
    Group {
        title,
        mode,
        served,
        besides,
    }
}

impl Group {
    /// True for the commands typed on a line (plain mode, the screen reader).
    pub fn typed(&self) -> bool {
        TYPED.contains(&self.mode)
    }

    /// The group as a Markdown table: a row an entry, its keys' names (what
    /// is typed in code) and what they do.
    pub fn markdown(&self) -> String {
        let head = if self.typed() { "typed" } else { "key" };
        let mut table = format!("| {head} | action |\n|---|---|\n");
        for entry in self.entries() {
            let names: Vec<String> = entry.key_names().iter().map(KeyName::markdown).collect();
            let _ = writeln!(table, "| {} | {} |", names.join(", "), entry.doc);
        }
        table
    }
}

/// Every table of the manuals ([`GROUPS`]) in Markdown, each under its
/// title, for the guide to show as they are (a test checks it does).
pub fn markdown() -> String {
    GROUPS
        .iter()
        .map(|group| format!("{}:\n\n{}", group.title, group.markdown()))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry_of(mode: Mode, does: Does) -> &'static Entry {
        KEYS.iter()
            .find(|entry| entry.modes.has(mode) && entry.keys.iter().any(|(_, d)| *d == does))
            .expect("an entry")
    }

    #[test]
    fn keys_are_named_from_the_keys_themselves() {
        let cursor = entry_of(Mode::Play, Does::Game(Action::Cursor(Direction::Up)));
        assert_eq!(cursor.names(), "Arrows, hjkl, wasd");
        assert_eq!(cursor.short(), "arrows");
        let faster = entry_of(Mode::Watch, Does::Game(Action::Faster));
        assert_eq!(faster.names(), "+ / -");
        assert_eq!(faster.short(), "+/-");
        let digits = entry_of(Mode::Play, Does::Game(Action::Place(Square::new(0, 0))));
        assert_eq!(digits.names(), "1-9");
        let redo = entry_of(Mode::Play, Does::Game(Action::Redo));
        assert_eq!(redo.names(), "U, Ctrl-R");
        let level = entry_of(Mode::Lobby, Does::Lobby(LobbyAction::LevelUp));
        assert_eq!(level.names(), "Left, Right, h, l, - / +, < / >");
        assert_eq!(level.short(), "←/→");
        let next = entry_of(
            Mode::Walkthrough,
            Does::Game(Action::Trace(TraceMove::Next)),
        );
        assert_eq!(next.names(), "c, Enter, Space, Right, l, d");
        assert_eq!(next.short(), "c/enter");
        let tree = entry_of(Mode::Tree, Does::Game(Action::Cursor(Direction::Up)));
        assert_eq!(tree.names(), "Up, Down, k, j, w, s");
        let quit = entry_of(Mode::Plain, Does::Game(Action::Quit));
        assert_eq!(quit.names(), "quit, q, exit");
        let types = entry_of(Mode::Quiz, Does::Game(Action::Type(' ')));
        assert_eq!(types.names(), "any character");
    }

    #[test]
    fn every_key_is_named_once() {
        // Each key is named on its own, in a group, or as the Shift twin of
        // the key before it: the names' count of keys is the keys'.
        for entry in KEYS {
            let keys = entry.key_names().iter().fold(0, |sum, name| {
                sum + match name {
                    KeyName::Word(word) if word == "Arrows" => 4,
                    KeyName::Typed(run) if run == "1-9" => 9,
                    KeyName::Typed(run)
                        if run.len() == 4
                            && !entry.modes.has(Mode::Plain)
                            && !entry.modes.has(Mode::Reader) =>
                    {
                        4
                    }
                    KeyName::Pair(..) => 2,
                    _ => 1,
                }
            });
            let twins = entry
                .keys
                .iter()
                .filter(|(key, _)| matches!(key.char(), Some('=' | '_')))
                .count();
            assert_eq!(keys + twins, entry.keys.len(), "{}", entry.names());
        }
    }

    #[test]
    fn a_group_in_markdown_puts_what_is_typed_in_code() {
        let table = GROUPS[1].markdown();
        assert!(table.starts_with("| key | action |\n|---|---|\n| Space | pause or resume |\n"));
        assert!(table.contains("| `+` / `-` | faster / slower"), "{table}");
        let typed = GROUPS[7].markdown();
        assert!(typed.contains("| `quit`, `q`, `exit` | leave |"), "{typed}");
    }
}

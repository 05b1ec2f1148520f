//! The lobby screen: who is here, the open seeks, the games in progress and
//! the leaderboard of the board chosen, and the keys to play the AI, seek
//! or take a game with a person, watch or quit.

use std::collections::BTreeMap;

use crossterm::event::Event;
use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Padding, Paragraph, Widget, Wrap};

use super::lobby::{Activity, GameId, Offer, PlayerId};
use super::store::{Kind, Rating};
use tictactoe_engine::{Level, Player, Status};
use tictactoe_game::action::LobbyAction;
use tictactoe_game::clock::TimeControl;
use tictactoe_game::fit::first_fitting;
use tictactoe_game::game::Names;
use tictactoe_game::keys::{self, Context, Does};
use tictactoe_game::text;
use tictactoe_screen::fit::render_too_small;
use tictactoe_screen::input::key_press;

/// One game as the lobby screen lists it.
#[derive(Debug, Clone)]
pub(super) struct GameSummary {
    pub id: GameId,
    pub names: Names,
    pub moves: usize,
    pub status: Status,
    /// The offer, for a game between people.
    pub offer: Option<Offer>,
    /// A player is away.
    pub away: bool,
}

/// One open seek as the lobby screen lists it.
#[derive(Debug, Clone)]
pub(super) struct SeekSummary {
    pub by: PlayerId,
    pub name: String,
    pub offer: Offer,
}

/// One player as the lobby screen lists it.
#[derive(Debug, Clone)]
pub(super) struct PlayerSummary {
    pub id: PlayerId,
    pub name: String,
    pub activity: Activity,
}

/// The lobby as a screen shows it.
#[derive(Debug, Clone, Default)]
pub(super) struct Snapshot {
    pub players: Vec<PlayerSummary>,
    pub seeks: Vec<SeekSummary>,
    pub games: Vec<GameSummary>,
    /// The best of each board kind with rated games.
    pub leaders: BTreeMap<Kind, Vec<(String, Rating)>>,
}

/// The smallest screen the lobby is drawn on: as narrow as the game's own
/// smallest (3x3), one row shorter.
const MIN_WIDTH: u16 = 30;
const MIN_HEIGHT: u16 = 14;
/// From this width the two lists stand side by side; below it, one above the other.
const WIDE: u16 = 64;
/// From this width the leaderboard stands beside them.
const WIDEST: u16 = 80;

/// The levels offered, weakest first (random is for `selfplay`, as in the game).
const LEVELS: [Level; 4] = [Level::Easy, Level::Medium, Level::Hard, Level::Perfect];

/// The boards a seek may name, in the order `b` steps through them.
const BOARDS: [Kind; 6] = [
    Kind { size: 3, k: 3 },
    Kind { size: 4, k: 3 },
    Kind { size: 4, k: 4 },
    Kind { size: 5, k: 4 },
    Kind { size: 6, k: 4 },
    Kind { size: 7, k: 5 },
];

/// The clocks a seek may have, in the order `c` steps through them (minutes, seconds a move).
const CLOCKS: [Option<(u64, u64)>; 5] = [
    None,
    Some((1, 0)),
    Some((3, 2)),
    Some((5, 3)),
    Some((10, 5)),
];

/// Why a guest's `r` changes nothing.
pub(super) const GUEST_RATED: &str =
    "Rated games need a key: connect with ssh -i KEY to play rated";

/// What a key on the lobby screen asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Command {
    /// Nothing beyond redrawing.
    None,
    /// A game against the AI with the chosen side and level.
    PlayAi(Player, Level),
    /// Seek a game as offered: paired with a seek of the same, or listed.
    Seek(Offer),
    /// Stop waiting.
    StopWaiting,
    /// Take the seek, or watch the game, at this place in the list (seeks first).
    Choose(usize),
    /// Close the connection.
    Quit,
}

/// The lobby screen's own state: choices for the next game against the AI,
/// the game selected in the list, and a message.
#[derive(Debug)]
pub(super) struct LobbyScreen {
    me: PlayerId,
    side: Player,
    level: usize,
    selected: usize,
    message: Option<String>,
    color: bool,
    board: usize,
    rated: bool,
    clock: usize,
    /// The player has a key: a guest's seeks are casual.
    keyed: bool,
}

impl LobbyScreen {
    pub(super) fn new(me: PlayerId, color: bool, keyed: bool) -> LobbyScreen {
        LobbyScreen {
            me,
            side: Player::X,
            level: LEVELS.len() - 1,
            selected: 0,
            message: None,
            color,
            board: 0,
            rated: false,
            clock: 0,
            keyed,
        }
    }

    /// The game a seek of this player's asks for now.
    pub(super) fn offer(&self) -> Offer {
        Offer {
            kind: BOARDS[self.board],
            rated: self.rated,
            control: CLOCKS[self.clock].map(|(minutes, seconds)| TimeControl {
                base: std::time::Duration::from_secs(minutes * 60),
                increment: std::time::Duration::from_secs(seconds),
            }),
        }
    }

    /// A line for the next time the lobby is drawn ("bob left").
    pub(super) fn say(&mut self, message: impl Into<String>) {
        self.message = Some(message.into());
    }

    /// The command for a key, as the key table binds it in the lobby;
    /// `waiting` says whether this player waits, `listed` how many seeks and games are listed.
    pub(super) fn key(&mut self, event: &Event, waiting: bool, listed: usize) -> Command {
        let games = listed;
        let Some(key) = event.as_key_press_event() else {
            return Command::None;
        };
        self.message = None;
        let Some(Does::Lobby(action)) = keys::action(&Context::lobby(waiting), key_press(key))
        else {
            return Command::None;
        };
        self.selected = self.selected.min(games.saturating_sub(1));
        match action {
            LobbyAction::Quit => return Command::Quit,
            LobbyAction::StopWaiting => return Command::StopWaiting,
            LobbyAction::Seek => return Command::Seek(self.offer()),
            LobbyAction::Board => self.board = (self.board + 1) % BOARDS.len(),
            LobbyAction::Rated if !self.keyed => {
                self.message = Some(GUEST_RATED.to_string());
            }
            LobbyAction::Rated => self.rated = !self.rated,
            LobbyAction::Clock => self.clock = (self.clock + 1) % CLOCKS.len(),
            LobbyAction::PlayAi => return Command::PlayAi(self.side, LEVELS[self.level]),
            LobbyAction::Choose if games > 0 => return Command::Choose(self.selected),
            LobbyAction::Choose => {
                self.message = Some("No seek or game in the list yet".to_string())
            }
            LobbyAction::Side(side) => self.side = side,
            LobbyAction::LevelDown => self.level = self.level.saturating_sub(1),
            LobbyAction::LevelUp => self.level = (self.level + 1).min(LEVELS.len() - 1),
            LobbyAction::SelectUp => self.selected = self.selected.saturating_sub(1),
            LobbyAction::SelectDown => {
                self.selected = (self.selected + 1).min(games.saturating_sub(1));
            }
        }
        Command::None
    }

    fn paint(&self, style: Style, color: Color) -> Style {
        if self.color { style.fg(color) } else { style }
    }

    /// Draws the lobby as `lobby` has it. Below [`WIDE`] columns the two
    /// lists are stacked; lines too long for their place take shorter forms
    /// or drop trailing words whole, so no word is cut, down to the game's
    /// own smallest screen.
    pub(super) fn render(&self, lobby: &Snapshot, area: Rect, buf: &mut Buffer) {
        if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
            // Said as the game screen says it: what is needed and what there is.
            render_too_small(area, (MIN_WIDTH, MIN_HEIGHT), buf);
            return;
        }
        let me = lobby.players.iter().find(|p| p.id == self.me);
        let waiting = me.is_some_and(|p| p.activity == Activity::Waiting);
        let name = me.map_or("", |p| p.name.as_str());
        let [title, _, lists, choice, seek, hints, _, status] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Length(1),
            Constraint::Min(4),
            Constraint::Length(1),
            Constraint::Length(1),
            Constraint::Length(1),
            Constraint::Length(1),
            Constraint::Length(1),
        ])
        .areas(area);
        let bold = Style::new().add_modifier(Modifier::BOLD);
        let heading = [
            format!("Tic-tac-toe lobby · you are {name}"),
            format!("Lobby · you are {name}"),
            format!("Lobby · {name}"),
        ];
        Paragraph::new(Line::styled(first_fitting(&heading, area.width), bold))
            .alignment(Alignment::Center)
            .render(title, buf);

        // Side by side when wide; stacked when narrow, the leaderboard only
        // where each list keeps a few rows.
        let [players, games, leaders] = if area.width >= WIDEST {
            Layout::horizontal([
                Constraint::Percentage(30),
                Constraint::Percentage(42),
                Constraint::Percentage(28),
            ])
            .areas(lists)
        } else if area.width >= WIDE {
            let [players, games] =
                Layout::horizontal([Constraint::Percentage(40), Constraint::Percentage(60)])
                    .areas(lists);
            [players, games, Rect::default()]
        } else if lists.height >= 15 {
            Layout::vertical([
                Constraint::Ratio(1, 3),
                Constraint::Ratio(1, 3),
                Constraint::Ratio(1, 3),
            ])
            .areas(lists)
        } else {
            let [players, games] =
                Layout::vertical([Constraint::Ratio(1, 2), Constraint::Ratio(1, 2)]).areas(lists);
            [players, games, Rect::default()]
        };
        let faint = self.paint(Style::new(), Color::Gray);
        let list = |title: String| {
            Block::new()
                .borders(Borders::ALL)
                .padding(Padding::horizontal(1))
                .title(title)
        };
        let players_list = list(format!(" Players ({}) ", lobby.players.len()));
        let room = usize::from(players_list.inner(players).width);
        // You first: on a short screen the list may not show everyone.
        let (mine, others): (Vec<_>, Vec<_>) = lobby.players.iter().partition(|p| p.id == self.me);
        let you = |p: &PlayerSummary| if p.id == self.me { " (you)" } else { "" };
        // One wording down the list: "in the lobby" where every such row
        // has room for it, "in lobby" on each otherwise.
        let idle: &[&str] = if lobby.players.iter().all(|p| {
            p.activity != Activity::Idle
                || Line::from(format!("{}{} in the lobby", p.name, you(p))).width() <= room
        }) {
            &["in the lobby", "in lobby"]
        } else {
            &["in lobby"]
        };
        let player_lines: Vec<Line> = mine
            .into_iter()
            .chain(others)
            .map(|p| {
                let doing: &[&str] = match p.activity {
                    Activity::Idle => idle,
                    Activity::Waiting => &["waiting"],
                    Activity::Playing(_) => &["playing"],
                    Activity::Watching(_) => &["watching"],
                };
                let forms = doing.iter().map(|doing| {
                    vec![
                        Span::raw(p.name.as_str()),
                        Span::raw(you(p)),
                        Span::styled(format!(" {doing}"), faint),
                    ]
                });
                fit_pieces(forms.collect(), room)
            })
            .collect();
        Paragraph::new(player_lines)
            .block(players_list)
            .render(players, buf);
        let listed = lobby.seeks.len() + lobby.games.len();
        let selected = self.selected.min(listed.saturating_sub(1));
        let games_list = list(format!(
            " Seeks ({}) · Games ({}) ",
            lobby.seeks.len(),
            lobby.games.len()
        ));
        let room = usize::from(games_list.inner(games).width);
        let seek_lines = lobby.seeks.iter().map(|seek| {
            let offer = seek.offer.to_string();
            let forms = vec![
                vec![
                    Span::raw(seek.name.as_str()),
                    Span::styled(" seeks", faint),
                    Span::raw(format!(" {offer}")),
                ],
                vec![
                    Span::raw(seek.name.as_str()),
                    Span::raw(format!(" {offer}")),
                ],
            ];
            fit_pieces(forms, room)
        });
        let game_lines = lobby.games.iter().map(|g| {
            let mut states = vec![format!(" {}", g.status)];
            if let tictactoe_engine::Status::InProgress { .. } = g.status {
                let moves = text::count(g.moves as u64, "move", "moves");
                states.insert(0, format!(" {moves}, {}", g.status));
            }
            let players = format!("{} vs {}", g.names.x, g.names.o);
            let mut forms: Vec<Vec<Span>> = states
                .into_iter()
                .map(|state| vec![Span::raw(players.clone()), Span::styled(state, faint)])
                .collect();
            if let Some(form) = forms.first_mut() {
                if let Some(offer) = g.offer {
                    form.push(Span::styled(format!(" · {offer}"), faint));
                }
                if g.away {
                    form.push(Span::styled(" · a player is away", faint));
                }
            }
            fit_pieces(forms, room)
        });
        let game_lines: Vec<Line> = if listed == 0 {
            vec![Line::styled("none yet", faint)]
        } else {
            seek_lines
                .chain(game_lines)
                .enumerate()
                .map(|(i, line)| {
                    if i == selected {
                        line.style(Style::new().add_modifier(Modifier::REVERSED))
                    } else {
                        line
                    }
                })
                .collect()
        };
        // Two long names may not fit side by side: they go on two rows.
        Paragraph::new(game_lines)
            .wrap(Wrap { trim: true })
            .block(games_list)
            .render(games, buf);

        let offer = self.offer();
        let leaders_list = list(format!(" Best {} ", offer.kind));
        let board = lobby
            .leaders
            .get(&offer.kind)
            .map_or(&[][..], Vec::as_slice);
        let leader_lines: Vec<Line> = if board.is_empty() {
            vec![Line::styled("no rated games yet", faint)]
        } else {
            board
                .iter()
                .enumerate()
                .map(|(i, (name, rating))| {
                    let pieces = vec![
                        Span::raw(name.as_str()),
                        Span::styled(format!(" {rating}"), faint),
                    ];
                    let mut line = fit_pieces(vec![pieces], room.saturating_sub(4));
                    line.spans
                        .insert(0, Span::styled(format!("{:>2}. ", i + 1), faint));
                    line
                })
                .collect()
        };
        Paragraph::new(leader_lines)
            .block(leaders_list)
            .render(leaders, buf);

        let side = self.side;
        let level = LEVELS[self.level];
        // The keys that choose are named from the key table, as is the hint line.
        let sides = keys::short(Does::Lobby(LobbyAction::Side(side)));
        let levels = keys::short(Does::Lobby(LobbyAction::LevelUp));
        let choice_line = [
            format!("Against the AI you play {side} ({sides}), level {level} ({levels})"),
            format!("vs the AI: you {side} ({sides}), {level} ({levels})"),
            format!("AI: you {side} ({sides}), {level} ({levels})"),
        ];
        Paragraph::new(first_fitting(&choice_line, area.width))
            .alignment(Alignment::Center)
            .render(choice, buf);
        let key = |action| keys::short(Does::Lobby(action));
        let (b, r, c) = (
            key(LobbyAction::Board),
            key(LobbyAction::Rated),
            key(LobbyAction::Clock),
        );
        let rated = if offer.rated { "rated" } else { "casual" };
        let clock = offer
            .control
            .map_or("no clock".to_string(), |control| control.to_string());
        let kind = offer.kind;
        let seek_line = vec![
            vec![
                Span::raw(format!("A seek: board {kind} ({b})")),
                Span::raw(format!(", {rated} ({r})")),
                Span::raw(format!(", {clock} ({c})")),
            ],
            vec![
                Span::raw(format!("Seek: {kind} ({b})")),
                Span::raw(format!(", {rated} ({r})")),
                Span::raw(format!(", {clock} ({c})")),
            ],
            vec![
                Span::raw(format!("{kind} ({b})")),
                Span::raw(format!(" {rated} ({r})")),
                Span::raw(format!(" {clock} ({c})")),
            ],
        ];
        Paragraph::new(fit_pieces(seek_line, usize::from(area.width)))
            .alignment(Alignment::Center)
            .render(seek, buf);
        let hint = keys::bar(&Context::lobby(waiting), area.width);
        Paragraph::new(Line::styled(hint, bold))
            .alignment(Alignment::Center)
            .render(hints, buf);
        let status_text = match (&self.message, waiting) {
            (Some(message), _) => message.as_str(),
            (None, true) => "Waiting for an opponent…",
            (None, false) => "",
        };
        let words = status_text.split(' ').enumerate().map(|(i, word)| {
            Span::raw(if i == 0 {
                word.to_string()
            } else {
                format!(" {word}")
            })
        });
        Paragraph::new(fit_pieces(vec![words.collect()], usize::from(area.width)))
            .alignment(Alignment::Center)
            .render(status, buf);
    }
}

/// The first of `forms` that fits in `width` columns; when none does, the
/// last with its trailing pieces dropped whole until it fits. Pieces (a
/// name, " in the lobby") are never cut, so neither is a word; the first
/// piece always stays.
fn fit_pieces(forms: Vec<Vec<Span<'_>>>, width: usize) -> Line<'_> {
    let wide = |pieces: &[Span]| pieces.iter().map(Span::width).sum::<usize>();
    let mut forms = forms.into_iter().peekable();
    let mut pieces = Vec::new();
    while let Some(form) = forms.next() {
        pieces = form;
        if wide(&pieces) <= width || forms.peek().is_none() {
            break;
        }
    }
    while pieces.len() > 1 && wide(&pieces) > width {
        pieces.pop();
    }
    Line::from(pieces)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lobby::GameSummary;
    use tictactoe_engine::Status;
    use tictactoe_game::game::Names;

    fn lobby() -> Snapshot {
        let player = |id, name: &str, activity| PlayerSummary {
            id,
            name: name.to_string(),
            activity,
        };
        Snapshot {
            players: vec![
                player(2, "bob", Activity::Playing(7)),
                player(3, "carol", Activity::Playing(7)),
                player(1, "alice", Activity::Idle),
            ],
            games: vec![GameSummary {
                id: 7,
                names: Names {
                    x: "bob".to_string(),
                    o: "carol".to_string(),
                },
                moves: 1,
                status: Status::InProgress { to_move: Player::O },
                offer: None,
                away: false,
            }],
            seeks: Vec::new(),
            leaders: Default::default(),
        }
    }

    fn drawn(screen: &LobbyScreen, width: u16, height: u16) -> String {
        let area = Rect::new(0, 0, width, height);
        let mut buf = Buffer::empty(area);
        screen.render(&lobby(), area, &mut buf);
        (0..height)
            .map(|y| (0..width).map(|x| buf[(x, y)].symbol()).collect::<String>())
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn every_line_is_whole_from_a_wide_screen_down_to_the_games_smallest() {
        let screen = LobbyScreen::new(1, false, true);
        for (width, height) in [(80, 24), (63, 20), (44, 14), (40, 15), (30, 14)] {
            let text = drawn(&screen, width, height);
            let size = format!("{width}x{height}");
            for whole in [
                "alice (you) in",
                "bob playing",
                "bob vs carol 1 move, O to move",
                "q quit",
                "(x/o)",
                "perfect (←/→)",
            ] {
                // The games list is the narrowest place: at 30 columns the
                // game's line takes its shorter form.
                let whole = if width < 34 && whole.starts_with("bob vs") {
                    "bob vs carol O to move"
                } else {
                    whole
                };
                assert!(text.contains(whole), "{size}: {whole:?} in\n{text}");
            }
            assert!(!text.contains("1 moves"), "{size}:\n{text}");
        }
    }

    #[test]
    fn players_in_the_lobby_are_said_to_be_there_in_one_wording() {
        let mut two = lobby();
        two.players[0].activity = Activity::Idle;
        let screen = LobbyScreen::new(1, false, true);
        let area = Rect::new(0, 0, 80, 24);
        let mut buf = Buffer::empty(area);
        screen.render(&two, area, &mut buf);
        let text: String = (0..24)
            .map(|y| (0..80).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n")
            .collect();
        // "alice (you) in the lobby" has no room at 80 columns, so bob's row,
        // which would have, says it as alice's does.
        assert!(text.contains("alice (you) in lobby"), "{text}");
        assert!(text.contains("bob in lobby"), "{text}");
        assert!(!text.contains("in the lobby"), "{text}");
    }

    /// Every player and game a lobby can hold at its longest: 16-character
    /// names (the most a name may have), an AI game, a finished game.
    fn long_lobby() -> Snapshot {
        let long = |suffix: &str| format!("averyveryverylo{suffix}");
        let player = |id, name: String, activity| PlayerSummary { id, name, activity };
        let names = |x: String, o: String| Names { x, o };
        Snapshot {
            players: vec![
                player(1, long("n"), Activity::Idle),
                player(2, long("2"), Activity::Idle),
                player(3, long("3"), Activity::Waiting),
                player(4, long("4"), Activity::Playing(7)),
                player(5, long("5"), Activity::Playing(7)),
                player(6, long("6"), Activity::Watching(7)),
                player(7, long("7"), Activity::Playing(8)),
            ],
            games: vec![
                GameSummary {
                    id: 7,
                    names: names(long("4"), long("5")),
                    moves: 3,
                    status: Status::InProgress { to_move: Player::O },
                    offer: None,
                    away: false,
                },
                GameSummary {
                    id: 8,
                    names: names("AI (perfect)".to_string(), long("7")),
                    moves: 5,
                    status: Status::Won(Player::X),
                    offer: None,
                    away: false,
                },
            ],
            seeks: Vec::new(),
            leaders: Default::default(),
        }
    }

    #[test]
    fn no_line_is_cut_mid_word_at_any_size_the_lobby_accepts() {
        // Every word the lobby can show with `long_lobby`.
        let vocabulary = "Tic-tac-toe lobby · you are Lobby Players (7) Games (2) (you) \
            in the lobby waiting playing watching vs 3 moves, O to move X won none yet \
            Against AI play X (x/o), level perfect (←/→) AI: (perfect) \
            a play the f find an opponent w watch q quit f/esc stop waiting \
            Seeks (0) · Best 3x3 k=3 no rated games yet A seek: board (b), casual (r), \
            no clock (c) Seek: 3x3 k=3 seek game take/watch (b) (r) (c) \
            Waiting for an opponent… \
            That game is yours or over averyveryverylon left \
            averyveryverylo2 averyveryverylo3 averyveryverylo4 averyveryverylo5 \
            averyveryverylo6 averyveryverylo7 averyveryverylon";
        let known: Vec<&str> = vocabulary.split_whitespace().collect();
        for (me, message) in [
            (1, Some("That game is yours or over")),
            (3, None),
            (6, Some("averyveryverylon left")),
        ] {
            let mut screen = LobbyScreen::new(me, false, true);
            if let Some(message) = message {
                screen.say(message);
            }
            for width in MIN_WIDTH..=120 {
                // The height only decides how many rows of the lists show.
                for height in [MIN_HEIGHT, 20, 26] {
                    let area = Rect::new(0, 0, width, height);
                    let mut buf = Buffer::empty(area);
                    screen.render(&long_lobby(), area, &mut buf);
                    for y in 0..height {
                        // Box-drawing characters are the lists' borders.
                        let row: String = (0..width)
                            .map(|x| buf[(x, y)].symbol())
                            .collect::<String>()
                            .chars()
                            .map(|c| {
                                if ('\u{2500}'..='\u{257f}').contains(&c) {
                                    ' '
                                } else {
                                    c
                                }
                            })
                            .collect();
                        for word in row.split_whitespace() {
                            assert!(
                                known.contains(&word),
                                "{width}x{height}, player {me}: {word:?} is cut in\n{row}"
                            );
                        }
                    }
                }
            }
        }
    }

    /// The lobby at the sizes every view of the game is drawn at: a player
    /// idle among a game and its watcher, and one waiting among the longest
    /// names.
    #[test]
    fn the_lobby_at_every_size() {
        for (name, me, lobby) in [("lobby", 1, lobby()), ("lobby_long", 3, long_lobby())] {
            let screen = LobbyScreen::new(me, false, true);
            for (width, height) in [(40, 15), (60, 20), (80, 24), (120, 40), (200, 60)] {
                let area = Rect::new(0, 0, width, height);
                let mut buf = Buffer::empty(area);
                screen.render(&lobby, area, &mut buf);
                let text = (0..height)
                    .map(|y| {
                        let row: String = (0..width).map(|x| buf[(x, y)].symbol()).collect();
                        row.trim_end().to_string()
                    })
                    .collect::<Vec<_>>()
                    .join("\n");
                insta::assert_snapshot!(format!("{name}_{width}x{height}"), text);
            }
        }
    }

    #[test]
    fn keys_act_as_the_key_table_binds_them() {
        use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
        let key = |code| Event::Key(KeyEvent::from(code));
        let ctrl = |letter| Event::Key(KeyEvent::new(KeyCode::Char(letter), KeyModifiers::CONTROL));
        let mut screen = LobbyScreen::new(1, false, true);
        let none = Command::None;
        assert_eq!(screen.key(&key(KeyCode::Char('o')), false, 0), none);
        assert_eq!(screen.key(&key(KeyCode::Left), false, 0), none);
        let ai = screen.key(&key(KeyCode::Char('a')), false, 0);
        assert_eq!(ai, Command::PlayAi(Player::O, Level::Hard));
        assert_eq!(screen.key(&key(KeyCode::Char('=')), false, 0), none);
        assert_eq!(screen.key(&key(KeyCode::Char('x')), false, 0), none);
        let ai = screen.key(&key(KeyCode::Char('a')), false, 0);
        assert_eq!(ai, Command::PlayAi(Player::X, Level::Perfect));
        // b, r and c choose what a seek asks for.
        for letter in ['b', 'r', 'c', 'c'] {
            assert_eq!(screen.key(&key(KeyCode::Char(letter)), false, 0), none);
        }
        let chosen = Offer {
            kind: Kind { size: 4, k: 3 },
            rated: true,
            control: Some("3+2".parse().expect("a time control")),
        };
        assert_eq!(
            screen.key(&key(KeyCode::Char('f')), false, 0),
            Command::Seek(chosen)
        );
        let mut screen = LobbyScreen::new(1, false, true);
        let f = key(KeyCode::Char('f'));
        assert_eq!(screen.key(&f, false, 0), Command::Seek(Offer::casual()));
        assert_eq!(screen.key(&f, true, 0), Command::StopWaiting);
        assert_eq!(
            screen.key(&key(KeyCode::Esc), true, 0),
            Command::StopWaiting
        );
        assert_eq!(screen.key(&key(KeyCode::Esc), false, 0), none);
        assert_eq!(screen.key(&key(KeyCode::Char('w')), false, 0), none);
        assert_eq!(
            screen.message.as_deref(),
            Some("No seek or game in the list yet")
        );
        // A guest's r says why it changes nothing: their seek stays casual.
        let mut guest = LobbyScreen::new(1, false, false);
        assert_eq!(guest.key(&key(KeyCode::Char('r')), false, 0), none);
        assert_eq!(guest.message.as_deref(), Some(GUEST_RATED));
        assert_eq!(guest.key(&f, false, 0), Command::Seek(Offer::casual()));
        assert_eq!(screen.key(&key(KeyCode::Char('j')), false, 2), none);
        assert_eq!(screen.message, None, "a key clears the message");
        assert_eq!(
            screen.key(&key(KeyCode::Enter), false, 2),
            Command::Choose(1)
        );
        assert_eq!(screen.key(&key(KeyCode::Up), false, 2), none);
        assert_eq!(
            screen.key(&key(KeyCode::Char('w')), false, 2),
            Command::Choose(0)
        );
        for quit in [key(KeyCode::Char('q')), ctrl('c'), ctrl('d')] {
            assert_eq!(screen.key(&quit, false, 0), Command::Quit, "{quit:?}");
        }
        assert_eq!(screen.key(&ctrl('x'), false, 0), none);
    }

    #[test]
    fn the_hint_line_is_the_key_tables_bar_and_the_choices_name_their_keys() {
        for waiting in [false, true] {
            let mut lobby = lobby();
            if waiting {
                lobby.players[2].activity = Activity::Waiting;
            }
            let screen = LobbyScreen::new(1, false, true);
            for width in [30, 44, 64, 80] {
                let height = 20;
                let area = Rect::new(0, 0, width, height);
                let mut buf = Buffer::empty(area);
                screen.render(&lobby, area, &mut buf);
                let row = |y: u16| -> String {
                    (0..width).map(|x| buf[(x, y)].symbol()).collect::<String>()
                };
                let hint = keys::bar(&Context::lobby(waiting), width);
                assert_eq!(row(height - 3).trim(), hint, "{width}, waiting {waiting}");
                assert!(row(height - 5).contains("(x/o)"), "{}", row(height - 5));
                assert!(row(height - 5).contains("(←/→)"), "{}", row(height - 5));
                assert!(
                    row(height - 4).contains("3x3 k=3 (b)"),
                    "{}",
                    row(height - 4)
                );
            }
        }
    }

    #[test]
    fn a_screen_too_small_says_what_it_needs_and_has_as_the_game_does() {
        let screen = LobbyScreen::new(1, false, true);
        let text = drawn(&screen, 20, 8);
        let words: Vec<&str> = text.split_whitespace().collect();
        assert_eq!(
            words.join(" "),
            "Terminal too small: needs 30x14, now 20x8",
            "\n{text}"
        );
    }
}

//! The lobby screen: who is here, the games in progress, and the keys to
//! play the AI, find an opponent, watch or quit.

use crossterm::event::{Event, KeyCode, KeyModifiers};
use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Padding, Paragraph, Widget};

use super::lobby::{Activity, PlayerId, Snapshot};
use crate::engine::{Level, Player, Status};
use crate::screen::view::render_too_small;

/// The smallest screen the lobby is drawn on: as narrow as the game's own
/// smallest (3x3), one row shorter.
const MIN_WIDTH: u16 = 30;
const MIN_HEIGHT: u16 = 14;
/// From this width the two lists stand side by side; below it, one above the other.
const WIDE: u16 = 64;

/// The levels offered, weakest first (random is for `selfplay`, as in the game).
const LEVELS: [Level; 4] = [Level::Easy, Level::Medium, Level::Hard, Level::Perfect];

/// What a key on the lobby screen asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Command {
    /// Nothing beyond redrawing.
    None,
    /// A game against the AI with the chosen side and level.
    PlayAi(Player, Level),
    /// Pair with the player waiting longest, or wait.
    FindOpponent,
    /// Stop waiting.
    StopWaiting,
    /// Watch the game at this place in the list.
    Watch(usize),
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
}

impl LobbyScreen {
    pub(super) fn new(me: PlayerId, color: bool) -> LobbyScreen {
        LobbyScreen {
            me,
            side: Player::X,
            level: LEVELS.len() - 1,
            selected: 0,
            message: None,
            color,
        }
    }

    /// A line for the next time the lobby is drawn ("bob left").
    pub(super) fn say(&mut self, message: impl Into<String>) {
        self.message = Some(message.into());
    }

    /// The command for a key; `waiting` says whether this player waits, `games` how many games are listed.
    pub(super) fn key(&mut self, event: &Event, waiting: bool, games: usize) -> Command {
        let Some(key) = event.as_key_press_event() else {
            return Command::None;
        };
        self.message = None;
        if key.modifiers.contains(KeyModifiers::CONTROL) {
            return match key.code {
                KeyCode::Char('c' | 'd') => Command::Quit,
                _ => Command::None,
            };
        }
        self.selected = self.selected.min(games.saturating_sub(1));
        match key.code {
            KeyCode::Char('q') => Command::Quit,
            KeyCode::Esc if waiting => Command::StopWaiting,
            KeyCode::Char('f') if waiting => Command::StopWaiting,
            KeyCode::Char('f') => Command::FindOpponent,
            KeyCode::Char('a') => Command::PlayAi(self.side, LEVELS[self.level]),
            KeyCode::Char('x' | 'X') => {
                self.side = Player::X;
                Command::None
            }
            KeyCode::Char('o' | 'O') => {
                self.side = Player::O;
                Command::None
            }
            KeyCode::Left | KeyCode::Char('h' | '-' | '<') => {
                self.level = self.level.saturating_sub(1);
                Command::None
            }
            KeyCode::Right | KeyCode::Char('l' | '+' | '=' | '>') => {
                self.level = (self.level + 1).min(LEVELS.len() - 1);
                Command::None
            }
            KeyCode::Up | KeyCode::Char('k') => {
                self.selected = self.selected.saturating_sub(1);
                Command::None
            }
            KeyCode::Down | KeyCode::Char('j') => {
                self.selected = (self.selected + 1).min(games.saturating_sub(1));
                Command::None
            }
            KeyCode::Char('w') | KeyCode::Enter if games > 0 => Command::Watch(self.selected),
            KeyCode::Char('w') => {
                self.message = Some("No game to watch yet".to_string());
                Command::None
            }
            _ => Command::None,
        }
    }

    fn paint(&self, style: Style, color: Color) -> Style {
        if self.color { style.fg(color) } else { style }
    }

    /// Draws the lobby as `lobby` has it. Below [`WIDE`] columns the two
    /// lists are stacked and the lines take their shorter forms, so nothing is
    /// cut down to the game's own smallest screen.
    pub(super) fn render(&self, lobby: &Snapshot, area: Rect, buf: &mut Buffer) {
        if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
            // Said as the game screen says it: what is needed and what there is.
            render_too_small(area, (MIN_WIDTH, MIN_HEIGHT), buf);
            return;
        }
        let me = lobby.players.iter().find(|p| p.id == self.me);
        let waiting = me.is_some_and(|p| p.activity == Activity::Waiting);
        let name = me.map_or("", |p| p.name.as_str());
        let [title, _, lists, _, choice, keys, _, status] = Layout::vertical([
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
        let fitting = |variants: Vec<String>| {
            let last = variants.last().cloned().unwrap_or_default();
            variants
                .into_iter()
                .find(|text| text.chars().count() <= usize::from(area.width))
                .unwrap_or(last)
        };
        let heading = fitting(vec![
            format!("Tic-tac-toe lobby · you are {name}"),
            format!("Lobby · you are {name}"),
            format!("Lobby · {name}"),
        ]);
        Paragraph::new(Line::styled(heading, bold))
            .alignment(Alignment::Center)
            .render(title, buf);

        let [players, games] = if area.width >= WIDE {
            Layout::horizontal([Constraint::Percentage(40), Constraint::Percentage(60)])
                .areas(lists)
        } else {
            Layout::vertical([Constraint::Ratio(1, 2), Constraint::Ratio(1, 2)]).areas(lists)
        };
        let faint = self.paint(Style::new(), Color::Gray);
        // You first: on a short screen the list may not show everyone.
        let (mine, others): (Vec<_>, Vec<_>) = lobby.players.iter().partition(|p| p.id == self.me);
        let player_lines: Vec<Line> = mine
            .into_iter()
            .chain(others)
            .map(|p| {
                let doing = match p.activity {
                    Activity::Idle => "in the lobby",
                    Activity::Waiting => "waiting",
                    Activity::Playing(_) => "playing",
                    Activity::Watching(_) => "watching",
                };
                let you = if p.id == self.me { " (you)" } else { "" };
                Line::from(vec![
                    Span::raw(format!("{}{you} ", p.name)),
                    Span::styled(doing, faint),
                ])
            })
            .collect();
        let list = |title: String| {
            Block::new()
                .borders(Borders::ALL)
                .padding(Padding::horizontal(1))
                .title(title)
        };
        Paragraph::new(player_lines)
            .block(list(format!(" Players ({}) ", lobby.players.len())))
            .render(players, buf);
        let selected = self.selected.min(lobby.games.len().saturating_sub(1));
        let game_lines: Vec<Line> = if lobby.games.is_empty() {
            vec![Line::styled("none yet", faint)]
        } else {
            lobby
                .games
                .iter()
                .enumerate()
                .map(|(i, g)| {
                    let state = match g.status {
                        Status::InProgress { .. } => {
                            let moves = if g.moves == 1 { "move" } else { "moves" };
                            format!("{} {moves}, {}", g.moves, g.status)
                        }
                        ended => ended.to_string(),
                    };
                    let line = Line::from(vec![
                        Span::raw(format!("{} vs {} ", g.names.x, g.names.o)),
                        Span::styled(state, faint),
                    ]);
                    if i == selected {
                        line.style(Style::new().add_modifier(Modifier::REVERSED))
                    } else {
                        line
                    }
                })
                .collect()
        };
        Paragraph::new(game_lines)
            .block(list(format!(" Games ({}) ", lobby.games.len())))
            .render(games, buf);

        let side = self.side;
        let level = LEVELS[self.level];
        let choice_line = fitting(vec![
            format!("Against the AI you play {side} (x/o), level {level} (←/→)"),
            format!("vs the AI: you {side} (x/o), {level} (←/→)"),
            format!("AI: you {side} (x/o), {level} (←/→)"),
        ]);
        Paragraph::new(choice_line)
            .alignment(Alignment::Center)
            .render(choice, buf);
        let key_variants = if waiting {
            [
                "f or Esc stop waiting  a play the AI  w watch  q quit",
                "f/Esc stop  a AI  w watch  q quit",
                "f stop  a AI  w watch  q quit",
            ]
        } else {
            [
                "a play the AI  f find an opponent  w watch  q quit",
                "a AI  f find opponent  w watch  q quit",
                "a AI  f find  w watch  q quit",
            ]
        };
        let key_line = fitting(key_variants.map(String::from).to_vec());
        Paragraph::new(Line::styled(key_line, bold))
            .alignment(Alignment::Center)
            .render(keys, buf);
        let status_text = match (&self.message, waiting) {
            (Some(message), _) => message.clone(),
            (None, true) => "Waiting for an opponent…".to_string(),
            (None, false) => String::new(),
        };
        Paragraph::new(status_text)
            .alignment(Alignment::Center)
            .render(status, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::screen::app::Names;
    use crate::serve::lobby::{GameSummary, PlayerSummary};

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
            }],
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
        let screen = LobbyScreen::new(1, false);
        for (width, height) in [(80, 24), (63, 20), (44, 14), (40, 15), (30, 14)] {
            let text = drawn(&screen, width, height);
            let size = format!("{width}x{height}");
            for whole in [
                "alice (you) in the lobby",
                "bob playing",
                "bob vs carol 1 move, O to move",
                "w watch  q quit",
                "(x/o)",
                "perfect (←/→)",
            ] {
                // The games list is the narrowest place: at 30 columns only
                // its start need show.
                let whole = if width < 34 && whole.starts_with("bob vs") {
                    "bob vs carol"
                } else {
                    whole
                };
                assert!(text.contains(whole), "{size}: {whole:?} in\n{text}");
            }
            assert!(!text.contains("1 moves"), "{size}:\n{text}");
        }
    }

    #[test]
    fn a_screen_too_small_says_what_it_needs_and_has_as_the_game_does() {
        let screen = LobbyScreen::new(1, false);
        let text = drawn(&screen, 20, 8);
        let words: Vec<&str> = text.split_whitespace().collect();
        assert_eq!(
            words.join(" "),
            "Terminal too small: needs 30x14, now 20x8",
            "\n{text}"
        );
    }
}

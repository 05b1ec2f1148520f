//! The lobby screen: who is here, the games in progress, and the keys to
//! play the AI, find an opponent, watch or quit.

use crossterm::event::{Event, KeyCode, KeyModifiers};
use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Widget};

use super::lobby::{Activity, PlayerId, Snapshot};
use crate::engine::{Level, Player, Status};
use crate::screen::view::render_too_small;

/// The smallest screen the lobby is drawn on.
const MIN_WIDTH: u16 = 44;
const MIN_HEIGHT: u16 = 14;

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

    /// Draws the lobby as `lobby` has it.
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
        Paragraph::new(Line::styled(
            format!("Tic-tac-toe lobby · you are {name}"),
            bold,
        ))
        .alignment(Alignment::Center)
        .render(title, buf);

        let [players, games] =
            Layout::horizontal([Constraint::Percentage(40), Constraint::Percentage(60)])
                .areas(lists);
        let faint = self.paint(Style::new(), Color::Gray);
        let player_lines: Vec<Line> = lobby
            .players
            .iter()
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
        Paragraph::new(player_lines)
            .block(
                Block::new()
                    .borders(Borders::ALL)
                    .title(format!(" Players ({}) ", lobby.players.len())),
            )
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
                        Status::InProgress { .. } => format!("{} moves, {}", g.moves, g.status),
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
            .block(
                Block::new()
                    .borders(Borders::ALL)
                    .title(format!(" Games ({}) ", lobby.games.len())),
            )
            .render(games, buf);

        let level = LEVELS[self.level];
        Paragraph::new(format!(
            "Against the AI you play {} (x/o), level {level} (←/→)",
            self.side
        ))
        .alignment(Alignment::Center)
        .render(choice, buf);
        let key_line = if waiting {
            "f or Esc stop waiting  a play the AI  w watch  q quit"
        } else {
            "a play the AI  f find an opponent  w watch  q quit"
        };
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

//! The screen's styles: each side's colour, the grid, hints, faint text and
//! scores, all plain when colour is off. A leaf.

use ratatui::style::{Color, Modifier, Style};

use tictactoe_engine::{Outlook, Player};

/// Styles of the screen; plain when colour is off.
pub(crate) struct Theme {
    color: bool,
}

impl Theme {
    /// The styles, in colour or not.
    pub(crate) fn new(color: bool) -> Theme {
        Theme { color }
    }

    fn paint(&self, style: Style, color: Color) -> Style {
        if self.color { style.fg(color) } else { style }
    }

    /// A side's colour, for its marks wherever they appear.
    fn side_color(player: Player) -> Color {
        match player {
            Player::X => Color::Cyan,
            Player::O => Color::Yellow,
        }
    }

    pub(crate) fn mark(&self, player: Player) -> Style {
        let style = Style::new().add_modifier(Modifier::BOLD);
        self.paint(style, Theme::side_color(player))
    }

    pub(crate) fn grid(&self) -> Style {
        self.paint(Style::new(), Color::DarkGray)
    }

    pub(crate) fn hint(&self) -> Style {
        self.paint(Style::new().add_modifier(Modifier::DIM), Color::DarkGray)
    }

    pub(crate) fn faint(&self) -> Style {
        self.paint(Style::new(), Color::Gray)
    }

    /// A numbered mark of a line or a path: the side's colour, not bold.
    pub(crate) fn numbered(&self, player: Player) -> Style {
        let style = Style::new().add_modifier(Modifier::ITALIC);
        self.paint(style, Theme::side_color(player))
    }

    /// Scores: green for a win, red for a loss; estimates (nothing
    /// proven) dimmed.
    pub(crate) fn score(&self, outlook: Outlook) -> Style {
        let style = if outlook.is_known() {
            Style::new()
        } else {
            Style::new().add_modifier(Modifier::DIM)
        };
        match outlook {
            Outlook::Win { .. } | Outlook::ProvenWin => self.paint(style, Color::Green),
            Outlook::Loss { .. } | Outlook::ProvenLoss => self.paint(style, Color::Red),
            Outlook::Draw | Outlook::Estimate => style,
        }
    }
}

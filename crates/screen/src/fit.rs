//! The notice of a terminal too small, shared with the server's lobby. The
//! text fitting itself is the game model's ([`tictactoe_game::fit`]).

use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Constraint, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget};

use tictactoe_game::fit::wrap;

/// What the screen needs and what it has, broken only between phrases.
pub fn render_too_small(area: Rect, (width, height): (u16, u16), buf: &mut Buffer) {
    let needs = format!("needs {width}x{height},");
    let now = format!("now {}x{}", area.width, area.height);
    let lines = wrap(
        ["Terminal too small:", needs.as_str(), now.as_str()],
        area.width,
    );
    let text: Vec<Line> = lines.into_iter().map(Line::from).collect();
    let rect = area.centered_vertically(Constraint::Length(text.len() as u16));
    Paragraph::new(text)
        .alignment(Alignment::Center)
        .render(rect, buf);
}

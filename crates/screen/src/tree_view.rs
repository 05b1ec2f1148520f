//! Drawing the minimax tree ([`super::tree::TreeView`]) full screen: the
//! rows with the selection, the selected position beside them and the keys.
//! What the rows and the panel say ([`row_text`], [`detail`]) is public for
//! the tests that read them back off the screen.

use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Padding, Paragraph, Widget, Wrap};

use super::theme::Theme;
use super::tree::{Node, Row, TreeView};
use tictactoe_engine::Status;
use tictactoe_game::fit::first_fitting;
use tictactoe_game::keys::{self, Context};
use tictactoe_game::present::teach::{choice, chooser, node_move, tree_result, tree_value};
use tictactoe_game::present::{ended, move_list, role_name, role_takes, tree_legend_short};
use tictactoe_game::text::{count, signed, thousands};

/// What a row says about its position after the move, in at most `width`
/// characters where it can: the fullest of value and result, whose turn and
/// how that side chooses, the positions below and the choice mark, dropped
/// from the least telling (the positions below first); the value alone
/// when nothing more fits.
pub fn describe(view: &TreeView, node: &Node, width: usize) -> String {
    let Some(value) = tree_value(node) else {
        return "…".to_string();
    };
    let result = format!("{value} {}", tree_result(node));
    let turn = match node.board.status() {
        Status::InProgress { to_move } => format!(" · {to_move} {}", role_name(view.role(node))),
        _ => String::new(),
    };
    let below = node
        .below
        .filter(|&below| below > 0)
        .map_or(String::new(), |below| {
            format!(" · {} below", thousands(below))
        });
    // The side that played the move chose it.
    let (choice, mark) = if node.chosen {
        (format!("  {}", choice(node)), "  ◀".to_string())
    } else {
        (String::new(), String::new())
    };
    let variants = [
        format!("{result}{turn}{below}{choice}"),
        format!("{result}{turn}{choice}"),
        format!("{result}{choice}"),
        format!("{result}{mark}"),
        format!("{value}{mark}"),
    ];
    first_fitting(&variants, width as u16).to_string()
}

/// A row of the tree in at most `width` characters where it can: the
/// position's place and name, its call number while there is room, and
/// what it is worth ([`describe`]).
pub fn row_text(view: &TreeView, node: &Node, width: usize) -> String {
    let glyph = if node.is_leaf() {
        "·"
    } else if view.is_open(node) {
        "▾"
    } else {
        "▸"
    };
    // A big board's notation would crowd out the row: the title has it.
    let name = match node.mv {
        Some(_) => node_move(node),
        None if node.board.is_classic() => node.board.to_string(),
        None => "position".to_string(),
    };
    let indent = "  ".repeat(node.depth as usize);
    // The call number of the trace, as freeCodeCamp numbers them.
    let call = node.call.map_or(String::new(), |call| format!(" #{call}"));
    let heads = [
        format!("{indent}{glyph} {name}{call}  "),
        format!("{indent}{glyph} {name}  "),
    ];
    let fits = |text: &str| text.chars().count() <= width;
    let rows = heads.iter().map(|head| {
        let room = width.saturating_sub(head.chars().count());
        format!("{head}{}", describe(view, node, room))
    });
    let rows: Vec<String> = rows.collect();
    rows.iter()
        .find(|row| fits(row))
        .unwrap_or(&rows[rows.len() - 1])
        .clone()
}

/// Draws the tree full screen: the title, the rows with the selection in
/// reverse video, the selected position beside them when there is room,
/// and the keys.
pub(crate) fn render(
    view: &TreeView,
    context: &Context,
    area: Rect,
    theme: &Theme,
    buf: &mut Buffer,
) {
    let [title, legend, body, key_bar] = area.layout(&Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Fill(1),
        Constraint::Length(1),
    ]));
    let root = view.root();
    let heading = format!("Minimax tree of {}", root.board);
    Paragraph::new(Line::styled(
        heading,
        Style::new().add_modifier(Modifier::BOLD),
    ))
    .alignment(Alignment::Center)
    .render(title, buf);
    let maximizer = view.maximizer();
    let minimizer = maximizer.other();
    let win = root.board.geometry().win_score();
    let counted = tree_legend_short(view.scoring(), win);
    let legends = [
        format!("{maximizer} maximizes, {minimizer} minimizes; {counted}; #n: call n of the trace"),
        format!("{maximizer} maximizes, {minimizer} minimizes; {counted}"),
        format!("{maximizer} max, {minimizer} min; {counted}"),
        format!("{maximizer} max, {minimizer} min"),
    ];
    Paragraph::new(Line::styled(
        first_fitting(&legends, legend.width),
        theme.faint(),
    ))
    .alignment(Alignment::Center)
    .render(legend, buf);
    let wide = body.width >= 66 && body.height >= 9;
    let (list, detail) = if wide {
        let [list, _, detail] = body.layout(&Layout::horizontal([
            Constraint::Fill(1),
            Constraint::Length(1),
            Constraint::Length(26),
        ]));
        (list, Some(detail))
    } else {
        (body, None)
    };
    render_rows(view, list, theme, buf);
    if let Some(detail) = detail {
        render_detail(view, detail, theme, buf);
    }
    Paragraph::new(Line::styled(
        keys::bar(context, key_bar.width),
        theme.faint(),
    ))
    .alignment(Alignment::Center)
    .render(key_bar, buf);
}

fn render_rows(view: &TreeView, area: Rect, theme: &Theme, buf: &mut Buffer) {
    let rows = view.rows();
    let height = usize::from(area.height);
    if height == 0 {
        return;
    }
    let selected = view.selected_row(&rows);
    // Keep the selection in view, half a screen from the edge when it can be.
    let first = selected
        .saturating_sub(height / 2)
        .min(rows.len().saturating_sub(height));
    for (y, row) in rows.iter().skip(first).take(height).enumerate() {
        let (text, style) = match *row {
            Row::Node(i) => {
                let node = view.node(i);
                let text = row_text(view, node, usize::from(area.width));
                let mut style = if node.chosen {
                    Style::new().add_modifier(Modifier::BOLD)
                } else {
                    Style::new()
                };
                if i == view.selected_index() {
                    style = style.add_modifier(Modifier::REVERSED);
                }
                (text, style)
            }
            Row::Waiting(i) => {
                let indent = "  ".repeat(view.node(i).depth as usize + 1);
                (format!("{indent}  scoring…"), theme.faint())
            }
        };
        let text: String = text.chars().take(usize::from(area.width)).collect();
        buf.set_string(area.x, area.y + y as u16, text, style);
    }
}

/// The selected position: the moves that lead to it, its board, and what it is worth.
/// What the panel beside the tree says about the selected position, a
/// line each, and whether the line is a faint one: the moves that lead to
/// it, its board, and what it is worth.
pub fn detail(view: &TreeView) -> Vec<(String, bool)> {
    let node = view.selected();
    let path = view.path();
    let mut lines: Vec<(String, bool)> = Vec::new();
    let mut say = |text: String, faint: bool| lines.push((text, faint));
    if path.is_empty() {
        say("the position on the board".to_string(), false);
    } else {
        let moves = move_list(&view.root().board, path.iter().copied());
        say(format!("after {moves}"), false);
    }
    say(String::new(), false);
    for row in node.board.to_grid().lines() {
        say(format!("  {row}"), false);
    }
    say(String::new(), false);
    match node.board.status() {
        Status::InProgress { to_move } => {
            let how = role_takes(view.role(node));
            say(format!("{to_move} to move, takes the {how}"), false);
        }
        status => say(ended(status).unwrap_or_default(), false),
    }
    if let Some(value) = node.value {
        say(
            format!("value {}: {}", signed(value), tree_result(node)),
            false,
        );
    }
    if let Some(replies) = view.replies(view.selected_index()) {
        let how = role_name(view.role(node));
        let text = if replies.len() <= 9 {
            let values: Vec<String> = replies.iter().map(|&v| signed(v)).collect();
            format!("{how} of {}", values.join(", "))
        } else {
            format!("{how} of its {} replies", replies.len())
        };
        say(text, true);
    }
    if let Some(below) = node.below {
        say(
            format!("{} below", count(below, "position", "positions")),
            true,
        );
    }
    if let Some(call) = node.call {
        say(format!("call {} of the trace", thousands(call)), true);
    }
    if node.chosen {
        say(format!("{} would choose it", chooser(node)), true);
    }
    lines
}

/// The selected position, framed beside the tree ([`detail`]).
fn render_detail(view: &TreeView, area: Rect, theme: &Theme, buf: &mut Buffer) {
    let lines: Vec<Line> = detail(view)
        .into_iter()
        .map(|(text, faint)| {
            if faint {
                Line::styled(text, theme.faint())
            } else {
                Line::from(text)
            }
        })
        .collect();
    Paragraph::new(lines)
        .wrap(Wrap { trim: true })
        .block(
            Block::new()
                .borders(Borders::ALL)
                .padding(Padding::horizontal(1))
                .title(" Position "),
        )
        .render(area, buf);
}

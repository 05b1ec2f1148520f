//! What the game screen looks like. Side-effect free: the same [`App`] and
//! area always draw the same buffer. Where things go is [`super::layout`]'s.

use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Constraint, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Padding, Paragraph, Widget};

use super::app::App;
use super::layout::{
    BoardLayout, CellSize, ExplainPlace, ROW_LABEL_WIDTH, ScreenLayout, TextRows, layout_for,
};
use super::message::Said;
use super::panel::explain_items;
use super::theme::Theme;
use crate::fit::render_too_small;
use tictactoe_engine::{Board, Player, Square};
use tictactoe_game::fit::{first_fitting, most_important, pack_pieces, shortened, wrap_words};
use tictactoe_game::keys::{self, Context};
use tictactoe_game::present::{MoveRow, move_rows};

impl Widget for &App {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = Theme::new(self.color());
        if let Some(tree) = self.tree() {
            super::tree_view::render(tree, &self.key_context(), area, &theme, buf);
            if self.help_open() {
                render_help(self, area, buf);
            }
            return;
        }
        match layout_for(area, self) {
            ScreenLayout::TooSmall { width, height } => {
                render_too_small(area, (width, height), buf);
            }
            ScreenLayout::Game {
                board,
                text,
                moves,
                explain,
            } => {
                render_text(self, &theme, text, buf);
                render_labels(board, &theme, buf);
                render_board(self, board, &theme, buf);
                if let Some(rect) = moves {
                    render_moves(self, rect, &theme, buf);
                }
                // The walkthrough's call stack and the quiz take the explain panel's place.
                match (explain, self.quiz()) {
                    (Some(ExplainPlace::Panel(rect)), Some(quiz)) => {
                        render_panel(" Quiz ", quiz.items(false), rect, &theme, buf);
                    }
                    (Some(ExplainPlace::Summary(rect)), Some(quiz)) => {
                        render_summary(quiz.items(true), rect, text.axis, buf);
                    }
                    _ => {}
                }
                match (explain, self.walkthrough()) {
                    _ if self.quiz().is_some() => {}
                    (Some(ExplainPlace::Panel(rect)), Some(walkthrough)) => {
                        // The panel's inside: within its frame and padding.
                        let rows = usize::from(rect.height.saturating_sub(2));
                        let width = rect.width.saturating_sub(4);
                        let items = walkthrough.items(rows, width);
                        render_panel(" Call stack ", items, rect, &theme, buf);
                    }
                    (Some(ExplainPlace::Panel(rect)), None) => {
                        render_panel(" Explain ", explain_items(self), rect, &theme, buf);
                    }
                    (Some(ExplainPlace::Summary(rect)), Some(walkthrough)) => {
                        render_summary(walkthrough.summary_items(rect.width), rect, text.axis, buf);
                    }
                    (Some(ExplainPlace::Summary(rect)), None) => {
                        render_summary(explain_items(self), rect, text.axis, buf);
                    }
                    (None, _) => {}
                }
            }
        }
        if self.help_open() {
            render_help(self, area, buf);
        }
        if let Some(record) = self.record_shown() {
            render_record(self, record, area, buf);
        }
    }
}

/// The record of the game (`r`), alone on the screen from its left edge and
/// without a frame, so that a mouse selection copies its lines as they are.
fn render_record(app: &App, record: &str, area: Rect, buf: &mut Buffer) {
    Clear.render(area, buf);
    let mut lines: Vec<Line> = record.lines().map(Line::raw).collect();
    lines.push(Line::raw(""));
    if let Some(said) = app.flash_text() {
        lines.push(Line::raw(said.to_string()));
    }
    lines.push(Line::raw("Any key: back to the game."));
    Paragraph::new(lines).render(area, buf);
}

/// Draws one line of text in `row`, centred on column `axis` when it fits
/// there, otherwise moved just enough to stay on the row.
fn centre_on(line: Line, row: Rect, axis: u16, buf: &mut Buffer) {
    let width = (line.width() as u16).min(row.width);
    let x = axis
        .saturating_sub(width / 2)
        .clamp(row.x, row.right() - width);
    line.render(Rect::new(x, row.y, width, 1), buf);
}

fn render_text(app: &App, theme: &Theme, rows: TextRows, buf: &mut Buffer) {
    let bold = Style::new().add_modifier(Modifier::BOLD);
    if let Some(title) = rows.title {
        let text = match app.walkthrough() {
            Some(walkthrough) => format!("Minimax on {}, call by call", walkthrough.start()),
            None => app.title(),
        };
        let text = shortened(&text, title.width);
        centre_on(Line::styled(text, bold), title, rows.axis, buf);
    }
    if let Some(players) = rows.players {
        let names = [app.players_line(), app.players_line_short()];
        let names = first_fitting(&names, players.width).to_string();
        centre_on(Line::styled(names, theme.faint()), players, rows.axis, buf);
    }
    let status = match (app.walkthrough(), app.quiz(), app.game_review()) {
        (Some(walkthrough), _, _) => walkthrough.status(),
        (None, Some(quiz), _) => quiz.status(),
        (None, None, Some(review)) => review.status(),
        (None, None, None) => app.status_line(),
    };
    let status = shortened(&status, rows.status.width);
    centre_on(Line::styled(status, bold), rows.status, rows.axis, buf);
    let tally = first_fitting(&app.tally_lines(), rows.footer.width).to_string();
    centre_on(Line::from(tally), rows.tally, rows.axis, buf);
    let bar = keys::bar(&app.key_context(), rows.footer.width);
    Paragraph::new(Line::styled(bar, theme.faint()))
        .alignment(Alignment::Center)
        .render(rows.footer, buf);
}

/// Column letters above the board and row numbers to its left, as in `a1`..`c3`.
fn render_labels(board: BoardLayout, theme: &Theme, buf: &mut Buffer) {
    for i in 0..board.size {
        let cell = board.cell_rect(Square::new(i, i));
        let letter = char::from(b'a' + i).to_string();
        buf.set_string(cell.x + cell.width / 2, board.y - 1, letter, theme.faint());
        let number = format!("{:>2}", i + 1);
        buf.set_string(
            board.x - ROW_LABEL_WIDTH,
            cell.y + cell.height / 2,
            number,
            theme.faint(),
        );
    }
}

/// A small numbered mark on a square: a move of the line under the cursor,
/// or of the walkthrough's path from the position traced.
struct Numbered {
    mv: Square,
    number: usize,
    player: Player,
}

/// The moves numbered from 1 in `board`, the side to move playing the first.
fn numbered(board: &Board, moves: impl IntoIterator<Item = Square>) -> Vec<Numbered> {
    let mut player = board.to_move();
    moves
        .into_iter()
        .enumerate()
        .map(|(i, mv)| {
            let mark = Numbered {
                mv,
                number: i + 1,
                player,
            };
            player = player.other();
            mark
        })
        .collect()
}

fn render_board(app: &App, board: BoardLayout, theme: &Theme, buf: &mut Buffer) {
    draw_grid(board, theme.grid(), buf);
    let walkthrough = app.walkthrough();
    // The walkthrough shows its call's position, the quiz the one it asks
    // about (no scores, cursor or digits to give answers away); the game its own.
    let position = match (walkthrough, app.quiz()) {
        (Some(walkthrough), _) => walkthrough.board(),
        (None, Some(quiz)) => quiz.board(),
        (None, None) => app.board(),
    };
    let in_game = walkthrough.is_none() && app.quiz().is_none();
    let winning = position.winning_cells();
    let last = match walkthrough {
        Some(walkthrough) => walkthrough.path().last().copied(),
        None => app.game().last_move(),
    };
    let explaining =
        in_game && app.explain_on() && !position.status().is_over() && !app.link_ended();
    // In explain mode the cursor picks the square whose line is shown, whoever is to move.
    let show_cursor = in_game && !app.help_open() && (app.human_to_move() || explaining);
    let overlay = if explaining { app.overlay() } else { None };
    let rows = overlay.map(|analysis| move_rows(analysis, app.scores()));
    let scoring = in_game && app.scoring();
    // Digits name the squares only when a person can place one now.
    let hints =
        in_game && position.is_classic() && app.human_to_move() && overlay.is_none() && !scoring;
    let marks = match walkthrough {
        Some(walkthrough) => numbered(&walkthrough.start(), walkthrough.path()),
        // The line under the cursor goes on squares big enough to keep their
        // scores beside it; on small ones the panel has it.
        None => match (overlay, app.line(app.cursor())) {
            (Some(_), Some(line))
                if position.get(app.cursor()).is_none() && board.cell.draws_marks() =>
            {
                numbered(
                    &position,
                    std::iter::once(app.cursor()).chain(line.moves.iter().copied()),
                )
            }
            _ => Vec::new(),
        },
    };
    for row in 0..board.size {
        for col in 0..board.size {
            let mv = Square::new(row, col);
            let rect = board.cell_rect(mv);
            let mut base = Style::new();
            if winning.contains(mv) {
                // Not colour alone: bold reverse video marks the line.
                base = base.add_modifier(Modifier::BOLD | Modifier::REVERSED);
            } else if show_cursor && mv == app.cursor() {
                base = base.add_modifier(Modifier::REVERSED);
            }
            buf.set_style(rect, base);
            let (x, y) = (rect.x + rect.width / 2, rect.y + rect.height / 2);
            let mark = marks.iter().find(|mark| mark.mv == mv);
            match position.get(mv) {
                Some(player) => {
                    let mut style = theme.mark(player).patch(base);
                    // On one-row squares a path's marks are told apart by the underline alone.
                    if Some(mv) == last || (mark.is_some() && !board.cell.draws_marks()) {
                        style = style.add_modifier(Modifier::UNDERLINED);
                    }
                    draw_mark(player, rect, board.cell, style, buf);
                }
                None if mark.is_some() && !board.cell.draws_marks() => {
                    // No room for the score beside the mark: the panel has it.
                }
                None => {
                    if let Some(row) = rows.iter().flatten().find(|row| row.mv == mv) {
                        let shown = Shown {
                            cell: board.cell,
                            base,
                        };
                        draw_score(row, rect, &shown, theme, buf);
                    } else if scoring {
                        buf.set_string(x, y, "…", theme.hint().patch(base));
                    } else if hints {
                        let digit = (mv.index(board.size) + 1).to_string();
                        buf.set_string(x, y, digit, theme.hint().patch(base));
                    }
                }
            }
            if let Some(mark) = mark {
                draw_numbered(
                    mark,
                    rect,
                    board.cell,
                    theme,
                    base,
                    position.get(mv).is_some(),
                    buf,
                );
            }
        }
    }
}

/// A numbered mark: in the top-left corner of a big square ("1X"), or in
/// place of the score on a one-row square. A mark already on the board (the
/// walkthrough's path) gets its number only.
fn draw_numbered(
    mark: &Numbered,
    rect: Rect,
    cell: CellSize,
    theme: &Theme,
    base: Style,
    occupied: bool,
    buf: &mut Buffer,
) {
    let style = theme.numbered(mark.player).patch(base);
    let label = if occupied {
        mark.number.to_string()
    } else {
        format!("{}{}", mark.number, mark.player)
    };
    if cell.draws_marks() {
        buf.set_string(rect.x, rect.y, label, style);
    } else if !occupied {
        draw_centred(&[label], rect, style, buf);
    }
}

/// How a score is drawn in its square.
struct Shown {
    /// The squares' size.
    cell: CellSize,
    /// The square's own style (cursor, winning line).
    base: Style,
}

/// A move's score in its square, counted as `--scores` says: the number
/// (with `?` when only estimated), and on big squares the meaning in words;
/// the best move ([`MoveRow::best`]) in bold, underlined.
fn draw_score(row: &MoveRow, rect: Rect, shown: &Shown, theme: &Theme, buf: &mut Buffer) {
    let mut style = theme.score(row.outlook).patch(shown.base);
    if row.best {
        style = style.add_modifier(Modifier::BOLD | Modifier::UNDERLINED);
    }
    let lines = if shown.cell.draws_marks() {
        let third = if row.best { "best" } else { "" };
        vec![row.number(), row.outlook.to_string(), third.to_string()]
    } else {
        vec![row.number()]
    };
    draw_centred(&lines, rect, style, buf);
}

/// Draws `lines` in the middle of `rect`, each centred across it and cut to its width.
fn draw_centred(lines: &[impl AsRef<str>], rect: Rect, style: Style, buf: &mut Buffer) {
    let top = rect.y + (rect.height - lines.len() as u16) / 2;
    for (dy, line) in lines.iter().enumerate() {
        let text: String = line
            .as_ref()
            .chars()
            .take(usize::from(rect.width))
            .collect();
        let width = text.chars().count() as u16;
        buf.set_string(
            rect.x + (rect.width - width) / 2,
            top + dy as u16,
            text,
            style,
        );
    }
}

fn draw_grid(board: BoardLayout, style: Style, buf: &mut Buffer) {
    let (w, h) = (board.cell.width + 1, board.cell.height + 1);
    let n = u16::from(board.size);
    for i in 0..=n {
        let y = board.y + i * h;
        for x in board.x..board.x + board.width() {
            buf[(x, y)].set_symbol("─").set_style(style);
        }
        let x = board.x + i * w;
        for y in board.y..board.y + board.height() {
            buf[(x, y)].set_symbol("│").set_style(style);
        }
    }
    for i in 0..=n {
        for j in 0..=n {
            let symbol = match (i, j) {
                (0, 0) => "┌",
                (0, j) if j == n => "┐",
                (0, _) => "┬",
                (i, 0) if i == n => "└",
                (i, j) if i == n && j == n => "┘",
                (i, _) if i == n => "┴",
                (_, 0) => "├",
                (_, j) if j == n => "┤",
                _ => "┼",
            };
            buf[(board.x + j * w, board.y + i * h)]
                .set_symbol(symbol)
                .set_style(style);
        }
    }
}

fn draw_mark(player: Player, rect: Rect, cell: CellSize, style: Style, buf: &mut Buffer) {
    draw_centred(&mark_art(player, cell), rect, style, buf);
}

/// A mark as it fits the square: a letter in one-row squares; otherwise a
/// picture as tall as the square and twice as wide less one, which looks
/// square in a terminal: X from two diagonal strokes, O as a rounded box.
fn mark_art(player: Player, cell: CellSize) -> Vec<String> {
    if !cell.draws_marks() {
        return vec![player.symbol().to_string()];
    }
    let rows = usize::from(cell.height);
    let width = 2 * rows - 1;
    match player {
        Player::X => (0..rows)
            .map(|row| {
                let mut line = vec![' '; width];
                // Two columns across for each row down: a slope the eye reads as 45°.
                let (falling, rising) = (2 * row, width - 1 - 2 * row);
                line[falling] = '╲';
                line[rising] = if rising == falling { '╳' } else { '╱' };
                line.into_iter().collect()
            })
            .collect(),
        Player::O => {
            let inside = width - 2;
            let mut art = vec![format!("╭{}╮", "─".repeat(inside))];
            art.extend((2..rows).map(|_| format!("│{}│", " ".repeat(inside))));
            art.push(format!("╰{}╯", "─".repeat(inside)));
            art
        }
    }
}

/// The moves so far in coordinates, numbered; the latest at the bottom. A
/// game from a given position first says how many marks were given, and
/// numbers its moves on from there.
fn render_moves(app: &App, rect: Rect, theme: &Theme, buf: &mut Buffer) {
    // Under review: the whole game, its marks after the moves, and the last
    // move on the board in reverse.
    let review = app.game_review();
    let game = review.map_or(app.game(), |review| review.game());
    let given = game.start().move_count() as usize;
    let header = (given > 0).then(|| Line::styled(format!("{given:>2} given"), theme.faint()));
    let room =
        usize::from(rect.height.saturating_sub(2)).saturating_sub(usize::from(header.is_some()));
    let moves = game.moves();
    let marks = review.map(|review| review.marks());
    // The list ends at the newest move, or under review at least at the
    // move on the board.
    let at = review.map_or(moves.len(), |review| review.at());
    let first_shown = at.max(room.min(moves.len())).saturating_sub(room);
    let numbered = moves.iter().enumerate().skip(first_shown).map(|(i, mv)| {
        let player = game.mover(i);
        let mark = marks
            .as_ref()
            .and_then(|marks| marks.get(i).copied().flatten())
            .map_or("", |mark| mark.symbol());
        let line = Line::from(vec![
            Span::styled(format!("{:>2} ", given + i + 1), theme.faint()),
            Span::styled(player.symbol().to_string(), theme.mark(player)),
            Span::raw(format!(" {}{mark}", mv)),
        ]);
        if review.is_some() && i + 1 == at {
            line.patch_style(Style::new().add_modifier(Modifier::REVERSED))
        } else {
            line
        }
    });
    let lines: Vec<Line> = header.into_iter().chain(numbered).collect();
    Paragraph::new(lines)
        .block(Block::new().borders(Borders::ALL).title(" Moves "))
        .render(rect, buf);
}

/// The lines one item takes in a panel `width` wide.
fn said_lines(said: &Said, width: u16, theme: &Theme) -> Vec<Line<'static>> {
    match said {
        Said::Text(text) | Said::Heading(text) => wrap_words(text, width)
            .into_iter()
            .map(Line::from)
            .collect(),
        Said::Faint(text) => wrap_words(text, width)
            .into_iter()
            .map(|line| Line::styled(line, theme.faint()))
            .collect(),
        Said::Gap => vec![Line::from("")],
        Said::Figure(label, value) => {
            // Value flush right, at least one space after the label; when
            // both do not fit on a line, the value flush right below it.
            let width = usize::from(width);
            let (label_width, value_width) = (label.chars().count(), value.chars().count());
            if label_width + 1 + value_width <= width {
                let pad = width - label_width - value_width;
                return vec![Line::from(format!("{label}{}{value}", " ".repeat(pad)))];
            }
            let mut lines: Vec<Line> = wrap_words(label, width as u16)
                .into_iter()
                .map(Line::from)
                .collect();
            lines.extend(
                wrap_words(value, width as u16)
                    .into_iter()
                    .map(|part| Line::from(format!("{part:>width$}"))),
            );
            lines
        }
    }
}

/// A framed panel beside the board: the explain panel, or the walkthrough's call stack.
fn render_panel(title: &str, items: Vec<(u8, Said)>, rect: Rect, theme: &Theme, buf: &mut Buffer) {
    let block = Block::new()
        .borders(Borders::ALL)
        .padding(Padding::horizontal(1))
        .title(title.to_string());
    let inner = block.inner(rect);
    let room = usize::from(inner.height);
    // Each item wrapped once; choosing what fits only counts their lines.
    let wrapped = items
        .into_iter()
        .map(|(importance, said)| (importance, said_lines(&said, inner.width, theme)))
        .collect();
    let rows = |chosen: &[&Vec<Line>]| chosen.iter().map(|lines| lines.len()).sum::<usize>();
    let lines: Vec<Line> = most_important(wrapped, |chosen| rows(chosen) <= room)
        .into_iter()
        .flatten()
        .collect();
    Clear.render(rect, buf);
    Paragraph::new(lines).block(block).render(rect, buf);
}

/// A panel's key figures in a few lines, where the title and players are,
/// when there is no room for the panel beside the board.
fn render_summary(items: Vec<(u8, Said)>, rect: Rect, axis: u16, buf: &mut Buffer) {
    // Each item in words once; choosing what fits packs them (gaps say nothing here).
    let pieces = items
        .into_iter()
        .filter_map(|(importance, said)| {
            let piece = match said {
                Said::Text(text) | Said::Faint(text) => {
                    text.trim().trim_end_matches(':').to_string()
                }
                Said::Gap | Said::Heading(_) => return None,
                Said::Figure(label, value) => format!("{} {value}", label.trim()),
            };
            Some((importance, piece))
        })
        .collect();
    let pack = |pieces: &[&String]| pack_pieces(pieces, rect.width);
    let room = usize::from(rect.height);
    let shown = most_important(pieces, |chosen| pack(chosen).len() <= room);
    let lines = pack(&shown.iter().collect::<Vec<_>>());
    // Flush with the bottom, next to the board.
    let top = rect.bottom().saturating_sub(lines.len() as u16).max(rect.y);
    for (dy, line) in lines.into_iter().take(room).enumerate() {
        let row = Rect::new(rect.x, top + dy as u16, rect.width, 1);
        centre_on(Line::from(line), row, axis, buf);
    }
}

/// One entry of the help.
enum HelpEntry {
    /// A sentence across the whole width.
    Note(&'static str),
    /// Keys, and what they do.
    Keys(String, &'static str),
}

/// The help's entries with their importance (1 most): a short screen shows
/// the most important that fit. The keys of the mode under the help, from
/// the key table, after a sentence about the mode.
fn help_entries(context: &Context) -> Vec<(u8, HelpEntry)> {
    let note = context.mode.note().map(|note| {
        let gap = (5, HelpEntry::Note(""));
        [(2, HelpEntry::Note(note)), gap]
    });
    let lines = keys::help(context)
        .into_iter()
        .map(|(importance, names, what)| (importance, HelpEntry::Keys(names, what)));
    note.into_iter().flatten().chain(lines).collect()
}

fn render_help(app: &App, area: Rect, buf: &mut Buffer) {
    // The help stands alone: drawn over the screen, its edges would cut the
    // words of whatever runs beside it (explain's panel, the tree, a long
    // status line on a narrow screen).
    Clear.render(area, buf);
    let context = app.key_context();
    let entries = help_entries(&context);
    let width = area.width.min(56);
    let inner_width = width.saturating_sub(4);
    let keys = entries.iter().filter_map(|(_, entry)| match entry {
        HelpEntry::Keys(keys, what) => Some((keys.as_str(), *what)),
        HelpEntry::Note(_) => None,
    });
    let longest = |texts: &mut dyn Iterator<Item = &str>| {
        texts
            .map(|text| text.chars().count() as u16)
            .max()
            .unwrap_or(0)
    };
    let widest_keys = longest(&mut keys.clone().map(|(keys, _)| keys));
    let longest_word = longest(&mut keys.clone().flat_map(|(keys, _)| keys.split(' ')));
    let longest_what_word = longest(&mut keys.clone().flat_map(|(_, what)| what.split(' ')));
    let lines_of = |entry: &HelpEntry, key_column: u16| -> Vec<String> {
        match entry {
            HelpEntry::Note(text) => wrap_words(text, inner_width),
            HelpEntry::Keys(keys, what) => {
                // Two spaces at least between the keys and what they do.
                let keys = wrap_words(keys, key_column.saturating_sub(2));
                let what = wrap_words(what, inner_width.saturating_sub(key_column));
                (0..keys.len().max(what.len()))
                    .map(|i| {
                        let key = keys.get(i).map_or("", String::as_str);
                        let what = what.get(i).map_or("", String::as_str);
                        let pad = usize::from(key_column);
                        format!("{key:<pad$}{what}").trim_end().to_string()
                    })
                    .collect()
            }
        }
    };
    // The key column that makes the help shortest, the widest of those: on a
    // wide screen every entry takes one line, on a narrow one keys and words
    // wrap inside their columns.
    let rows_with = |key_column: u16| -> usize {
        entries
            .iter()
            .map(|(_, entry)| lines_of(entry, key_column).len())
            .sum()
    };
    let narrowest = longest_word + 2;
    let widest = (widest_keys + 3)
        .min(inner_width.saturating_sub(longest_what_word))
        .max(narrowest);
    let key_column = (narrowest..=widest)
        .rev()
        .min_by_key(|&column| rows_with(column))
        .unwrap_or(narrowest);
    let laid_out = entries
        .iter()
        .map(|(importance, entry)| (*importance, lines_of(entry, key_column)))
        .collect();
    // The most important entries that fit the screen's height, in their order.
    let room = usize::from(area.height.saturating_sub(2));
    let rows = |chosen: &[&Vec<String>]| chosen.iter().map(|lines| lines.len()).sum::<usize>();
    let lines: Vec<Line> = most_important(laid_out, |chosen| rows(chosen) <= room)
        .into_iter()
        .flatten()
        .map(Line::from)
        .collect();
    let popup = area.centered(
        Constraint::Length(width),
        Constraint::Length(lines.len() as u16 + 2),
    );
    Paragraph::new(lines)
        .block(
            Block::new()
                .borders(Borders::ALL)
                .padding(Padding::horizontal(1))
                .title(" Keys ")
                .title_bottom(format!(
                    " {} ",
                    keys::help_bar(&context, width.saturating_sub(4))
                )),
        )
        .render(popup, buf);
}

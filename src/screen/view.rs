//! What the game screen looks like. Side-effect free: the same [`App`] and
//! area always draw the same buffer. Where things go is [`super::layout`]'s.

use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Constraint, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Padding, Paragraph, Widget, Wrap};

use super::app::App;
use super::layout::{BoardLayout, CellSize, ROW_LABEL_WIDTH, ScreenLayout, TextRows, layout_for};
use crate::engine::{Analysis, Level, Move, Outlook, Player, ScoredMove};

/// Styles of the screen; plain when colour is off.
struct Theme {
    color: bool,
}

impl Theme {
    fn paint(&self, style: Style, color: Color) -> Style {
        if self.color { style.fg(color) } else { style }
    }

    fn mark(&self, player: Player) -> Style {
        let color = match player {
            Player::X => Color::Cyan,
            Player::O => Color::Yellow,
        };
        self.paint(Style::new().add_modifier(Modifier::BOLD), color)
    }

    fn grid(&self) -> Style {
        self.paint(Style::new(), Color::DarkGray)
    }

    fn hint(&self) -> Style {
        self.paint(Style::new().add_modifier(Modifier::DIM), Color::DarkGray)
    }

    fn faint(&self) -> Style {
        self.paint(Style::new(), Color::Gray)
    }

    /// Scores: green for a win, red for a loss; estimates dimmed.
    fn score(&self, scored: ScoredMove, outlook: Outlook) -> Style {
        let style = if scored.exact {
            Style::new()
        } else {
            Style::new().add_modifier(Modifier::DIM)
        };
        match outlook {
            Outlook::Win { .. } => self.paint(style, Color::Green),
            Outlook::Loss { .. } => self.paint(style, Color::Red),
            Outlook::Draw | Outlook::Estimate => style,
        }
    }
}

impl Widget for &App {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = Theme {
            color: self.color(),
        };
        match layout_for(area, self) {
            ScreenLayout::TooSmall { width, height } => {
                let text = format!("Terminal too small: need at least {width} x {height}");
                let y = area.y + area.height / 2;
                Paragraph::new(text)
                    .alignment(Alignment::Center)
                    .wrap(Wrap { trim: true })
                    .render(
                        Rect::new(
                            area.x,
                            y.saturating_sub(1),
                            area.width,
                            area.height - (y - area.y) + 1,
                        ),
                        buf,
                    );
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
                if let Some(rect) = explain {
                    render_explain(self, rect, &theme, buf);
                }
            }
        }
        if self.help_open() {
            render_help(self, area, buf);
        }
    }
}

fn render_text(app: &App, theme: &Theme, rows: TextRows, buf: &mut Buffer) {
    let centred = |text: String, style: Style, area: Rect, buf: &mut Buffer| {
        Paragraph::new(Line::styled(text, style))
            .alignment(Alignment::Center)
            .render(area, buf);
    };
    centred(
        crate::session::title(app.board()),
        Style::new().add_modifier(Modifier::BOLD),
        rows.title,
        buf,
    );
    centred(app.players_line(), theme.faint(), rows.players, buf);
    centred(
        app.status_line(),
        Style::new().add_modifier(Modifier::BOLD),
        rows.status,
        buf,
    );
    centred(app.tally().to_string(), Style::new(), rows.tally, buf);
    let pause = if app.paused() { "resume" } else { "pause" };
    let variants = if app.is_watch() {
        vec![
            format!(
                "space {pause}  . step  +/- speed ({} ms)  u undo  e explain  n new  ? help  q quit",
                app.watch_delay().as_millis()
            ),
            format!("space {pause}  . step  +/- speed  e explain  n new  ? help  q quit"),
            format!("space {pause}  . step  ? help  q quit"),
            "? help  q quit".to_string(),
        ]
    } else if app.is_watching() {
        vec![
            "e explain  ? help  q back to the lobby".to_string(),
            "? help  q lobby".to_string(),
        ]
    } else if app.is_versus() {
        vec![
            "arrows move  enter place  1-9 place  e explain  n rematch  ? help  q lobby"
                .to_string(),
            "arrows, enter, 1-9 play  e explain  n rematch  q lobby".to_string(),
            "1-9 play  n rematch  q lobby".to_string(),
            "? help  q lobby".to_string(),
        ]
    } else if app.board().size() == 3 {
        vec![
            "arrows move  enter place  1-9 place  u undo  e explain  n new  ? help  q quit"
                .to_string(),
            "arrows, enter, 1-9 play  u undo  e explain  ? help  q quit".to_string(),
            "1-9 play  u undo  ? help  q quit".to_string(),
            "? help  q quit".to_string(),
        ]
    } else {
        // Digits only name the squares of 3x3.
        vec![
            "arrows move  enter place  click place  u undo  e explain  n new  ? help  q quit"
                .to_string(),
            "arrows, enter play  u undo  e explain  ? help  q quit".to_string(),
            "arrows, enter play  ? help  q quit".to_string(),
            "? help  q quit".to_string(),
        ]
    };
    // The most complete list of keys that fits the width.
    let fits = |text: &&String| text.chars().count() <= usize::from(rows.footer.width);
    let keys = variants
        .iter()
        .find(fits)
        .or(variants.last())
        .cloned()
        .unwrap_or_default();
    centred(keys, theme.faint(), rows.footer, buf);
}

/// Column letters above the board and row numbers to its left, as in `a1`..`c3`.
fn render_labels(board: BoardLayout, theme: &Theme, buf: &mut Buffer) {
    for i in 0..board.size {
        let cell = board.cell_rect(Move::new(i, i));
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

fn render_board(app: &App, board: BoardLayout, theme: &Theme, buf: &mut Buffer) {
    draw_grid(board, theme.grid(), buf);
    let position = app.board();
    let winning = position.winning_cells();
    let last = app.game().last_move();
    let show_cursor = app.human_to_move() && !app.help_open();
    let overlay = app.explain_on().then(|| app.overlay()).flatten();
    let hints = board.size == 3 && !position.status().is_over() && overlay.is_none();
    for row in 0..board.size {
        for col in 0..board.size {
            let mv = Move::new(row, col);
            let rect = board.cell_rect(mv);
            let mut base = Style::new();
            if winning & (1 << mv.index(board.size)) != 0 {
                // Not colour alone: bold reverse video marks the line.
                base = base.add_modifier(Modifier::BOLD | Modifier::REVERSED);
            } else if show_cursor && mv == app.cursor() {
                base = base.add_modifier(Modifier::REVERSED);
            }
            buf.set_style(rect, base);
            match position.get(mv) {
                Some(player) => {
                    let mut style = theme.mark(player).patch(base);
                    if Some(mv) == last {
                        style = style.add_modifier(Modifier::UNDERLINED);
                    }
                    draw_mark(player, rect, board.cell, style, buf);
                }
                None => {
                    if let Some(analysis) = overlay
                        && let Some(scored) = analysis.moves.iter().find(|m| m.mv == mv)
                    {
                        draw_score(analysis, *scored, rect, board.cell, theme, base, buf);
                    } else if hints {
                        let digit = (mv.index(board.size) + 1).to_string();
                        let at = (rect.x + rect.width / 2, rect.y + rect.height / 2);
                        buf.set_string(at.0, at.1, digit, theme.hint().patch(base));
                    }
                }
            }
        }
    }
}

/// A move's score in its square: the number (with `?` when only estimated),
/// and on big squares the meaning in words; the best moves in bold, underlined.
fn draw_score(
    analysis: &Analysis,
    scored: ScoredMove,
    rect: Rect,
    cell: CellSize,
    theme: &Theme,
    base: Style,
    buf: &mut Buffer,
) {
    let outlook = analysis.outlook_of(scored);
    let best = analysis.value() == Some(scored.score);
    let mut style = theme.score(scored, outlook).patch(base);
    if best {
        style = style.add_modifier(Modifier::BOLD | Modifier::UNDERLINED);
    }
    let number = format!(
        "{}{}",
        signed(scored.score),
        if scored.exact { "" } else { "?" }
    );
    let lines = match cell {
        CellSize::Large => vec![
            number,
            outlook.to_string(),
            if best {
                "best".to_string()
            } else {
                String::new()
            },
        ],
        CellSize::Medium | CellSize::Small => vec![number],
    };
    for (dy, line) in lines.iter().enumerate() {
        let width = (line.chars().count() as u16).min(rect.width);
        let text: String = line.chars().take(usize::from(rect.width)).collect();
        buf.set_string(
            rect.x + (rect.width - width) / 2,
            rect.y + dy as u16,
            text,
            style,
        );
    }
}

fn signed(score: i32) -> String {
    if score > 0 {
        format!("+{score}")
    } else {
        score.to_string()
    }
}

fn draw_grid(board: BoardLayout, style: Style, buf: &mut Buffer) {
    let (w, h) = (board.cell.width() + 1, board.cell.height() + 1);
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
    let art: &[&str] = match (cell, player) {
        (CellSize::Small | CellSize::Medium, Player::X) => &["X"],
        (CellSize::Small | CellSize::Medium, Player::O) => &["O"],
        (CellSize::Large, Player::X) => &["╲   ╱", "  ╳  ", "╱   ╲"],
        (CellSize::Large, Player::O) => &["╭───╮", "│   │", "╰───╯"],
    };
    for (dy, line) in art.iter().enumerate() {
        let width = line.chars().count() as u16;
        buf.set_string(
            rect.x + (rect.width - width) / 2,
            rect.y + dy as u16,
            line,
            style,
        );
    }
}

/// The moves so far in coordinates, numbered; the latest at the bottom.
fn render_moves(app: &App, rect: Rect, theme: &Theme, buf: &mut Buffer) {
    let start = app.game().start();
    let starter = start.to_move();
    let inner = rect.height.saturating_sub(2) as usize;
    let moves = app.game().moves();
    let first_shown = moves.len().saturating_sub(inner);
    let lines: Vec<Line> = moves
        .iter()
        .enumerate()
        .skip(first_shown)
        .map(|(i, mv)| {
            let player = if i.is_multiple_of(2) {
                starter
            } else {
                starter.other()
            };
            Line::from(vec![
                Span::styled(format!("{:>2} ", i + 1), theme.faint()),
                Span::styled(player.symbol().to_string(), theme.mark(player)),
                Span::raw(format!(" {}", mv.coordinate())),
            ])
        })
        .collect();
    Paragraph::new(lines)
        .block(Block::new().borders(Borders::ALL).title(" Moves "))
        .render(rect, buf);
}

/// The AI's last search, and what the overlay's numbers mean. When space is
/// short the least telling lines go first (higher number, lower priority).
fn render_explain(app: &App, rect: Rect, theme: &Theme, buf: &mut Buffer) {
    let mut lines: Vec<(u8, Line)> = Vec::new();
    let board = app.board();
    if !board.status().is_over() {
        lines.push((
            3,
            Line::from(format!("Scores for {} to move:", board.to_move())),
        ));
        lines.push((5, Line::styled("+ win, - loss, 0 draw;", theme.faint())));
        lines.push((5, Line::styled("sooner wins score higher", theme.faint())));
        if app.overlay().is_some_and(|o| !o.exact()) {
            lines.push((3, Line::styled("? estimated, not proven", theme.faint())));
        }
    }
    match app.report() {
        None if app.is_versus() || app.is_watching() => {
            lines.push((1, Line::from("The scores are what minimax")));
            lines.push((1, Line::from("finds for this position.")));
        }
        None => lines.push((1, Line::from("The AI has not moved yet."))),
        Some(report) => {
            lines.push((6, Line::from("")));
            let moved = report.decision.mv.coordinate();
            lines.push((
                2,
                Line::from(format!(
                    "AI ({}) played {} {moved}",
                    report.level, report.player
                )),
            ));
            let width = usize::from(rect.width.saturating_sub(2)).max(15);
            let row = |label: &str, value: String| {
                Line::from(format!("{label:<14}{value:>w$}", w = width - 14))
            };
            lines.push((4, row("search", search_name(report.level).into())));
            if let Some(analysis) = report
                .decision
                .analysis
                .as_ref()
                .filter(|_| report.level >= Level::Hard)
            {
                let depth = analysis
                    .depth
                    .map_or("to the end".into(), |d| format!("{d} plies"));
                lines.push((5, row("depth", depth)));
            }
            if let Some(analysis) = &report.decision.analysis {
                lines.push((1, row("positions", thousands(analysis.nodes))));
                lines.push((
                    4,
                    row(
                        "time",
                        format!("{:.3} ms", analysis.elapsed.as_secs_f64() * 1e3),
                    ),
                ));
                if let Some(best) = analysis.best() {
                    let value = format!("{} {}", signed(best.score), analysis.outlook_of(best));
                    lines.push((2, row("value", value)));
                }
                match report.seed_visits {
                    None => lines.push((1, row("plain minimax", "counting…".into()))),
                    Some(None) => lines.push((1, row("plain minimax", "too many".into()))),
                    Some(Some(visits)) => {
                        lines.push((1, row("plain minimax", thousands(visits))));
                        // Only a full search prunes; shallower levels cut the tree short.
                        if visits > 0 && analysis.nodes > 0 && report.level >= Level::Hard {
                            let saved = 100.0 * (1.0 - analysis.nodes as f64 / visits as f64);
                            lines.push((1, row("pruning saves", format!("{saved:.1} %"))));
                        }
                    }
                }
            }
        }
    }
    let room = usize::from(rect.height.saturating_sub(2));
    let mut cutoff = 6;
    while lines
        .iter()
        .filter(|(priority, _)| *priority <= cutoff)
        .count()
        > room
        && cutoff > 1
    {
        cutoff -= 1;
    }
    let shown: Vec<Line> = lines
        .into_iter()
        .filter(|(priority, _)| *priority <= cutoff)
        .map(|(_, line)| line)
        .collect();
    Clear.render(rect, buf);
    Paragraph::new(shown)
        .block(Block::new().borders(Borders::ALL).title(" Explain "))
        .render(rect, buf);
}

/// What kind of search a level does, in a few words.
fn search_name(level: Level) -> &'static str {
    match level {
        Level::Random => "random move",
        Level::Easy => "win or random",
        Level::Medium => "two plies",
        Level::Hard | Level::Perfect => "alpha-beta",
    }
}

fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

fn render_help(app: &App, area: Rect, buf: &mut Buffer) {
    let mut lines: Vec<Line> = if app.is_watch() {
        vec![
            Line::from("The AI plays both sides."),
            Line::from(""),
            Line::from("Space                pause or resume"),
            Line::from(".                    play one move"),
            Line::from("+ / -                faster / slower"),
        ]
    } else {
        let mut keys = vec![
            Line::from("Arrows, hjkl, wasd   move the cursor"),
            Line::from("Enter, Space         place your mark"),
        ];
        if app.board().size() == 3 {
            keys.push(Line::from("1-9                  place in that square"));
            keys.push(Line::from(
                "                     (1 top left, 9 bottom right)",
            ));
        }
        keys.push(Line::from("Mouse click          place in that square"));
        keys
    };
    lines.extend([
        Line::from("u                    undo the last turn"),
        Line::from("U, Ctrl-r            redo"),
        Line::from("e                    explain: every move's score"),
        Line::from("n                    new game"),
        Line::from("?                    show or hide this help"),
        Line::from("q, Ctrl-C            quit"),
        Line::from("Esc                  close the help, or quit"),
    ]);
    if app.is_versus() || app.is_watching() {
        lines = linked_help(app);
    }
    let popup = area.centered(
        Constraint::Length(56),
        Constraint::Length(lines.len() as u16 + 2),
    );
    Clear.render(popup, buf);
    Paragraph::new(lines)
        .block(
            Block::new()
                .borders(Borders::ALL)
                .padding(Padding::horizontal(1))
                .title(" Keys ")
                .title_bottom(" any key closes "),
        )
        .render(popup, buf);
}

/// The keys of a game with people at other terminals (the SSH server).
fn linked_help(app: &App) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    if app.is_versus() {
        lines.extend([
            Line::from("Arrows, hjkl, wasd   move the cursor"),
            Line::from("Enter, Space         place your mark"),
            Line::from("1-9                  place in that square"),
            Line::from("Mouse click          place in that square"),
            Line::from("n                    rematch once the game is over"),
            Line::from("                     (both ask; the sides swap)"),
        ]);
    } else {
        lines.push(Line::from("You are watching this game."));
    }
    lines.extend([
        Line::from("e                    explain: every move's score"),
        Line::from("?                    show or hide this help"),
        Line::from("q, Esc               back to the lobby"),
    ]);
    lines
}

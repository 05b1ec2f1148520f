//! What the game screen looks like. Side-effect free: the same [`App`] and
//! area always draw the same buffer.

use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Padding, Paragraph, Widget, Wrap};

use super::app::App;
use crate::engine::{
    Analysis, Level, Limits, Method, Move, Outlook, Player, ScoredMove, analyze_by_search,
};

/// Lines of text around the board: title, players, a gap, column labels
/// above; a gap, status, tally and footer below.
const CHROME_ROWS: u16 = 8;
/// The width the text lines need to be readable.
const MIN_TEXT_WIDTH: u16 = 30;
/// Width of the row labels left of the board.
const ROW_LABEL_WIDTH: u16 = 3;
/// Width of the explain panel beside the board.
const EXPLAIN_WIDTH: u16 = 30;
/// Width of the move list beside the board.
const MOVES_WIDTH: u16 = 11;
/// Space between the board and a panel.
const GAP: u16 = 2;

/// How big each square is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CellSize {
    /// Drawings of X and O, and room for a score and a word under the overlay.
    Large,
    /// A letter, or a score of up to five characters.
    Medium,
    /// A letter, or a short score.
    Small,
}

impl CellSize {
    fn width(self) -> u16 {
        match self {
            CellSize::Large => 9,
            CellSize::Medium => 5,
            CellSize::Small => 3,
        }
    }

    fn height(self) -> u16 {
        match self {
            CellSize::Large => 3,
            CellSize::Medium | CellSize::Small => 1,
        }
    }
}

/// Where the board's squares are on screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoardLayout {
    /// Left edge of the grid's outer frame.
    pub x: u16,
    /// Top edge of the grid's outer frame.
    pub y: u16,
    /// Squares per side.
    pub size: u8,
    cell: CellSize,
}

impl BoardLayout {
    fn new(size: u8, cell: CellSize) -> BoardLayout {
        BoardLayout {
            x: 0,
            y: 0,
            size,
            cell,
        }
    }

    /// Width of the grid including its frame.
    pub fn width(&self) -> u16 {
        u16::from(self.size) * (self.cell.width() + 1) + 1
    }

    /// Height of the grid including its frame.
    pub fn height(&self) -> u16 {
        u16::from(self.size) * (self.cell.height() + 1) + 1
    }

    /// The inside of one square.
    pub fn cell_rect(&self, mv: Move) -> Rect {
        Rect::new(
            self.x + 1 + u16::from(mv.col) * (self.cell.width() + 1),
            self.y + 1 + u16::from(mv.row) * (self.cell.height() + 1),
            self.cell.width(),
            self.cell.height(),
        )
    }

    /// The square at a screen position, if any (frame lines belong to no square).
    pub fn cell_at(&self, column: u16, row: u16) -> Option<Move> {
        (0..self.size)
            .flat_map(|r| (0..self.size).map(move |c| Move::new(r, c)))
            .find(|&mv| self.cell_rect(mv).contains((column, row).into()))
    }
}

/// Which panels the screen would like to show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Panels {
    /// The list of moves played.
    pub moves: bool,
    /// Every move's score and the AI's last search.
    pub explain: bool,
}

/// Where everything goes on a screen of a given size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScreenLayout {
    /// The screen fits the game.
    Game {
        /// The board.
        board: BoardLayout,
        /// The text lines above and below the board.
        text: TextRows,
        /// The move list, when it fits.
        moves: Option<Rect>,
        /// The explain panel: beside the board, or over the screen when space is short.
        explain: Option<Rect>,
    },
    /// The screen is smaller than the game needs.
    TooSmall {
        /// Columns needed.
        width: u16,
        /// Rows needed.
        height: u16,
    },
}

/// The full-width rows of text around the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextRows {
    /// "Tic-tac-toe".
    pub title: Rect,
    /// Who plays which side.
    pub players: Rect,
    /// Whose turn, or the result.
    pub status: Rect,
    /// Games won and drawn.
    pub tally: Rect,
    /// The main keys.
    pub footer: Rect,
}

/// The layout of `app`'s screen in `area`.
pub fn layout_for(area: Rect, app: &App) -> ScreenLayout {
    layout(
        area,
        app.board().size(),
        Panels {
            moves: true,
            explain: app.explain_on(),
        },
    )
}

/// Places the board, the panels and the text in `area`: the biggest squares
/// that fit with the explain panel beside the board, then with the move list
/// too; without room beside the board the explain panel floats over the screen.
pub fn layout(area: Rect, size: u8, wanted: Panels) -> ScreenLayout {
    let cells = [CellSize::Large, CellSize::Medium, CellSize::Small];
    let fits_height = |board: &BoardLayout| area.height >= board.height() + CHROME_ROWS;
    let block_width = |board: &BoardLayout, explain: bool, moves: bool| {
        let mut width = board.width() + ROW_LABEL_WIDTH;
        if explain {
            width += GAP + EXPLAIN_WIDTH;
        }
        if moves {
            width += GAP + MOVES_WIDTH;
        }
        width
    };
    // The largest squares for which the board and the wanted explain panel fit.
    let with_explain = |explain: bool| {
        cells
            .into_iter()
            .map(|cell| BoardLayout::new(size, cell))
            .find(|board| {
                fits_height(board)
                    && area.width >= block_width(board, explain, false).max(MIN_TEXT_WIDTH)
            })
    };
    let (mut board, explain_beside) = match with_explain(wanted.explain) {
        Some(board) => (board, wanted.explain),
        None => match with_explain(false) {
            Some(board) => (board, false),
            None => {
                let small = BoardLayout::new(size, CellSize::Small);
                return ScreenLayout::TooSmall {
                    width: (small.width() + ROW_LABEL_WIDTH).max(MIN_TEXT_WIDTH),
                    height: small.height() + CHROME_ROWS,
                };
            }
        },
    };
    let used = board.height() + CHROME_ROWS;
    let top = area.y + (area.height - used) / 2;
    let panel_y = top + 3;
    let panel_height = board.height() + 1;
    // The board stays centred unless the explain panel needs the room; then
    // the whole row of board and panels is centred.
    let centred = area.x + (area.width - board.width() - ROW_LABEL_WIDTH) / 2;
    let moves_left_of_centre = centred >= area.x + MOVES_WIDTH + GAP;
    let moves;
    if explain_beside {
        let with_moves = wanted.moves && area.width >= block_width(&board, true, true);
        let mut x = area.x + (area.width - block_width(&board, true, with_moves)) / 2;
        moves = with_moves.then(|| {
            let rect = Rect::new(x, panel_y, MOVES_WIDTH, panel_height);
            x += MOVES_WIDTH + GAP;
            rect
        });
        board.x = x + ROW_LABEL_WIDTH;
    } else {
        board.x = centred + ROW_LABEL_WIDTH;
        moves = (wanted.moves && moves_left_of_centre).then(|| {
            Rect::new(
                centred - MOVES_WIDTH - GAP,
                panel_y,
                MOVES_WIDTH,
                panel_height,
            )
        });
    }
    board.y = top + 4;
    let explain = if explain_beside {
        Some(Rect::new(
            board.x + board.width() + GAP,
            panel_y,
            EXPLAIN_WIDTH,
            panel_height,
        ))
    } else if wanted.explain {
        // No room beside the board: float below it, across the screen and over
        // the status lines, leaving the board and its scores in view.
        let y = board.y + board.height();
        let height = (area.y + area.height)
            .saturating_sub(y)
            .max(3)
            .min(area.height);
        let y = (area.y + area.height - height).min(y);
        Some(Rect::new(area.x, y, area.width, height))
    } else {
        None
    };
    let row = |y: u16| Rect::new(area.x, y, area.width, 1);
    let below = board.y + board.height();
    let text = TextRows {
        title: row(top),
        players: row(top + 1),
        status: row(below + 1),
        tally: row(below + 2),
        footer: row(area.y + area.height - 1),
    };
    ScreenLayout::Game {
        board,
        text,
        moves,
        explain,
    }
}

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
        let style = if scored.proven {
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
        title(app.board()),
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

/// "Tic-tac-toe", with the shape when it is not the classic one.
pub fn title(board: crate::engine::Board) -> String {
    if board.size() == 3 {
        "Tic-tac-toe".to_string()
    } else {
        format!("Tic-tac-toe {0}x{0}, {1} in a row", board.size(), board.k())
    }
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
            if winning.contains(mv) {
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
        if scored.proven { "" } else { "?" }
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
        if app.overlay().is_some_and(|o| !o.proven()) {
            lines.push((3, Line::styled("? estimated, not proven", theme.faint())));
        }
    }
    match app.report() {
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
            let from_table = report
                .decision
                .analysis
                .as_ref()
                .is_some_and(|analysis| analysis.method == Method::Table);
            let search = if from_table {
                "table lookup"
            } else {
                search_name(report.level)
            };
            lines.push((4, row("search", search.into())));
            if let Some(analysis) = report
                .decision
                .analysis
                .as_ref()
                .filter(|_| report.level >= Level::Hard)
            {
                let depth = analysis
                    .depth()
                    .map_or("to the end".into(), |d| format!("{d} plies"));
                lines.push((5, row("depth", depth)));
            }
            if let Some(analysis) = &report.decision.analysis {
                // A table answer searched nothing: say so, and what the search would take.
                let searched = match analysis.method {
                    Method::Table => analyze_by_search(&analysis.board, Limits::Solve).nodes(),
                    Method::Search { nodes, .. } => nodes,
                };
                let positions = if from_table {
                    format!("0 (search {})", thousands(searched))
                } else {
                    thousands(searched)
                };
                lines.push((1, row("positions", positions)));
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
                        if visits > 0 && searched > 0 && report.level >= Level::Hard {
                            let saved = 100.0 * (1.0 - searched as f64 / visits as f64);
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
        Line::from("q, Esc, Ctrl-C       quit"),
    ]);
    let height = (lines.len() as u16 + 2).min(area.height);
    let width = 56.min(area.width);
    let popup = Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
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

//! What the game screen looks like. Side-effect free: the same [`App`] and
//! area always draw the same buffer.

use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Clear, Padding, Paragraph, Widget, Wrap};

use super::app::App;
use crate::engine::{Move, Player};

/// Lines of text around the board: title, players, a gap, column labels
/// above; a gap, status, tally and footer below.
const CHROME_ROWS: u16 = 8;
/// The width the text lines need to be readable.
const MIN_TEXT_WIDTH: u16 = 30;
/// Width of the row labels left of the board.
const ROW_LABEL_WIDTH: u16 = 2;

/// How big each square is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CellSize {
    /// Five-wide drawings of X and O.
    Large,
    /// One letter per square.
    Small,
}

impl CellSize {
    fn width(self) -> u16 {
        match self {
            CellSize::Large => 7,
            CellSize::Small => 3,
        }
    }

    fn height(self) -> u16 {
        match self {
            CellSize::Large => 3,
            CellSize::Small => 1,
        }
    }
}

/// Where the board's squares are on screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoardLayout {
    /// Top-left corner of the grid's outer frame.
    pub x: u16,
    /// Top-left corner of the grid's outer frame.
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

/// Where everything goes on a screen of a given size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScreenLayout {
    /// The screen fits the game.
    Game {
        /// The board.
        board: BoardLayout,
        /// The text lines above and below the board.
        text: TextRows,
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

/// Places the board and the text in `area`, with the biggest squares that fit.
pub fn layout(area: Rect, size: u8) -> ScreenLayout {
    let fits = |board: &BoardLayout| {
        area.width >= (board.width() + ROW_LABEL_WIDTH).max(MIN_TEXT_WIDTH)
            && area.height >= board.height() + CHROME_ROWS
    };
    let Some(mut board) = [CellSize::Large, CellSize::Small]
        .into_iter()
        .map(|cell| BoardLayout::new(size, cell))
        .find(fits)
    else {
        let small = BoardLayout::new(size, CellSize::Small);
        return ScreenLayout::TooSmall {
            width: (small.width() + ROW_LABEL_WIDTH).max(MIN_TEXT_WIDTH),
            height: small.height() + CHROME_ROWS,
        };
    };
    let used = board.height() + CHROME_ROWS;
    let top = area.y + (area.height - used) / 2;
    board.x = area.x + (area.width - board.width() + ROW_LABEL_WIDTH) / 2;
    board.y = top + 4;
    let row = |y: u16| Rect::new(area.x, y, area.width, 1);
    let below = board.y + board.height();
    let text = TextRows {
        title: row(top),
        players: row(top + 1),
        status: row(below + 1),
        tally: row(below + 2),
        footer: row(area.y + area.height - 1),
    };
    ScreenLayout::Game { board, text }
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
}

impl Widget for &App {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = Theme {
            color: self.color(),
        };
        match layout(area, self.board().size()) {
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
            ScreenLayout::Game { board, text } => {
                render_text(self, &theme, text, buf);
                render_labels(board, &theme, buf);
                render_board(self, board, &theme, buf);
                if self.help_open() {
                    render_help(self, area, buf);
                }
            }
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
        "Tic-tac-toe".into(),
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
                "space {pause}  . step  +/- speed ({} ms)  n new  ? help  q quit",
                app.watch_delay().as_millis()
            ),
            format!("space {pause}  . step  +/- speed  ? help  q quit"),
            format!("space {pause}  . step  ? help  q quit"),
            "? help  q quit".to_string(),
        ]
    } else {
        vec![
            "arrows move  enter place  1-9 place  n new  ? help  q quit".to_string(),
            "arrows, enter, 1-9 play  n new  ? help  q quit".to_string(),
            "1-9 play  n new  ? help  q quit".to_string(),
            "? help  q quit".to_string(),
        ]
    };
    // The most complete list of keys that fits the width.
    let fits = |text: &String| text.chars().count() <= usize::from(rows.footer.width);
    let keys = variants
        .iter()
        .find(|text| fits(text))
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
        let number = (i + 1).to_string();
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
    let hints = board.size == 3 && !position.status().is_over();
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
                None if hints => {
                    let digit = (mv.index(board.size) + 1).to_string();
                    buf.set_string(
                        rect.x + rect.width / 2,
                        rect.y + rect.height / 2,
                        digit,
                        theme.hint().patch(base),
                    );
                }
                None => {}
            }
        }
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
        (CellSize::Small, Player::X) => &["X"],
        (CellSize::Small, Player::O) => &["O"],
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

fn render_help(app: &App, area: Rect, buf: &mut Buffer) {
    let mut lines: Vec<Line> = if app.is_watch() {
        vec![
            Line::from("The AI plays both sides."),
            Line::from(""),
            Line::from("Space                pause or resume"),
            Line::from(".                    play one move"),
            Line::from("+ / -                faster / slower"),
            Line::from("n                    new game"),
        ]
    } else {
        vec![
            Line::from("Arrows, hjkl, wasd   move the cursor"),
            Line::from("Enter, Space         place your mark"),
            Line::from("1-9                  place in that square"),
            Line::from("                     (1 top left, 9 bottom right)"),
            Line::from("Mouse click          place in that square"),
            Line::from("n                    new game"),
        ]
    };
    lines.extend([
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

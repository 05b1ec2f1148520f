//! Where everything goes on the game screen: the board's squares, the panels
//! and the lines of text, for a screen of any size. Drawing ([`super::view`])
//! and hit-testing clicks ([`super::input`]) both read it.
//!
//! The board's place and size depend only on the screen and the board, never
//! on whether the explain overlay is on: toggling it changes the panel alone.

use ratatui::layout::{Constraint, Flex, Layout, Rect};

use super::app::App;
use tictactoe_engine::Square;

/// The largest screen the game draws on, in columns and rows, at the local
/// terminal and over SSH alike. A terminal may claim any size (10000x10000),
/// and the screen's buffers grow with it, so a bigger terminal shows the
/// game centred in this much of it ([`drawn_area`]): some 36,000 cells,
/// about 1.4 MB a buffer, where every view has long had all the room it
/// can use (the biggest squares of the tests are at 200x60).
pub const MAX_SCREEN: (u16, u16) = (300, 120);

/// Where the game is drawn on a terminal of `(columns, rows)`: all of it up
/// to [`MAX_SCREEN`], centred in a bigger one.
pub fn drawn_area((columns, rows): (u16, u16)) -> Rect {
    let (max_columns, max_rows) = MAX_SCREEN;
    let (width, height) = (columns.min(max_columns), rows.min(max_rows));
    Rect::new((columns - width) / 2, (rows - height) / 2, width, height)
}

/// Lines of text around the board: title, players, a gap, column labels
/// above; a gap, status and tally below; the key bar at the bottom.
const CHROME_ROWS: u16 = 8;
/// The same without the two gaps, where a board fits no other way (8x8 on
/// 80x24).
const TIGHT_CHROME_ROWS: u16 = CHROME_ROWS - 2;
/// The width the text lines need to be readable.
const MIN_TEXT_WIDTH: u16 = 30;
/// Width of the row labels left of the board.
pub(crate) const ROW_LABEL_WIDTH: u16 = 3;
/// Width of the move list beside the board.
const MOVES_WIDTH: u16 = 11;
/// Space between the board and a panel.
const GAP: u16 = 2;

/// How big each square is drawn, inside its frame lines.
///
/// Squares three rows high or more draw X and O as pictures; the family grows
/// two rows and four columns at a time, so the pictures keep their shape and
/// stay centred. One-row squares show letters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct CellSize {
    // Field order matters: sizes compare by height first.
    /// Rows inside the square.
    pub height: u16,
    /// Columns inside the square.
    pub width: u16,
}

impl CellSize {
    /// A letter, or a short score.
    pub const SMALL: CellSize = CellSize {
        height: 1,
        width: 3,
    };
    /// A letter, or a score of up to five characters.
    pub const MEDIUM: CellSize = CellSize {
        height: 1,
        width: 5,
    };
    /// The smallest square with drawn marks (the size at 80x24), and room
    /// for a score and a word under the overlay.
    pub const LARGE: CellSize = CellSize::drawn(3);

    /// A square `height` rows high (odd, 3 or more) for drawn marks.
    const fn drawn(height: u16) -> CellSize {
        CellSize {
            height,
            width: 2 * height + 3,
        }
    }

    /// True when marks are drawn as pictures rather than letters.
    pub fn draws_marks(self) -> bool {
        self.height >= CellSize::LARGE.height
    }

    /// Every size a board of `size` squares per side could use on a screen
    /// `rows` high, largest first.
    fn candidates(size: u8, rows: u16, chrome: u16) -> impl Iterator<Item = CellSize> {
        let n = u16::from(size);
        // Tallest drawn square whose board still leaves room for the text.
        let tallest = (rows.saturating_sub(chrome + 1) / n).saturating_sub(1);
        let tallest_odd = if tallest.is_multiple_of(2) {
            tallest.saturating_sub(1)
        } else {
            tallest
        };
        (CellSize::LARGE.height..=tallest_odd)
            .rev()
            .step_by(2)
            .map(CellSize::drawn)
            .chain([CellSize::MEDIUM, CellSize::SMALL])
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
    /// The inside of each square.
    pub cell: CellSize,
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
        u16::from(self.size) * (self.cell.width + 1) + 1
    }

    /// Height of the grid including its frame.
    pub fn height(&self) -> u16 {
        u16::from(self.size) * (self.cell.height + 1) + 1
    }

    /// The grid including its frame.
    pub fn area(&self) -> Rect {
        Rect::new(self.x, self.y, self.width(), self.height())
    }

    /// The inside of one square.
    pub fn cell_rect(&self, mv: Square) -> Rect {
        Rect::new(
            self.x + 1 + u16::from(mv.col) * (self.cell.width + 1),
            self.y + 1 + u16::from(mv.row) * (self.cell.height + 1),
            self.cell.width,
            self.cell.height,
        )
    }

    /// The square at a screen position, if any (frame lines belong to no square).
    pub fn cell_at(&self, column: u16, row: u16) -> Option<Square> {
        (0..self.size)
            .flat_map(|r| (0..self.size).map(move |c| Square::new(r, c)))
            .find(|&mv| self.cell_rect(mv).contains((column, row).into()))
    }
}

/// Where the explain overlay's words go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExplainPlace {
    /// A framed panel beside the board.
    Panel(Rect),
    /// No room beside the board: a few lines of key numbers where the title
    /// and players are, so the board, status and tally stay in view.
    Summary(Rect),
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
        /// The explain overlay's words, while it is on.
        explain: Option<ExplainPlace>,
    },
    /// The screen is smaller than the game needs.
    TooSmall {
        /// Columns needed.
        width: u16,
        /// Rows needed.
        height: u16,
    },
}

/// The rows of text around the board: the title and the players as wide as
/// the move list and the board together (the panel beside them starts on
/// the title's row), the status and the tally across the screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextRows {
    /// "Tic-tac-toe"; none while the explain summary takes its place.
    pub title: Option<Rect>,
    /// Who plays which side; none while the explain summary takes its place.
    pub players: Option<Rect>,
    /// Whose turn, or the result.
    pub status: Rect,
    /// Games won and drawn.
    pub tally: Rect,
    /// The keys that work now, across the whole screen.
    pub footer: Rect,
    /// The column the title, players, status and tally are centred on: the
    /// middle of the move list and the board, so they read as one column.
    pub axis: u16,
}

/// Which panels the screen would like to show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Panels {
    /// The list of moves played.
    pub moves: bool,
    /// The explain overlay's words (toggling it moves nothing else).
    pub explain: bool,
}

/// The panel's width where room allows.
const PANEL_WIDTH: u16 = 30;
/// The narrowest panel beside the board: any narrower and its words wrap
/// every few of them.
const MIN_PANEL_WIDTH: u16 = 28;

/// What sits beside the board, from the most to the least.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Arrangement {
    /// The move list left of the board, the panel right of it.
    BothBeside,
    /// The move list left of the board; the panel's words above it.
    MovesBeside,
    /// The board alone; the panel's words above it.
    BoardAlone,
}

impl Arrangement {
    const ALL: [Arrangement; 3] = [
        Arrangement::BothBeside,
        Arrangement::MovesBeside,
        Arrangement::BoardAlone,
    ];

    /// Columns the move list (with its gap) and the board take.
    fn game_width(self, board: &BoardLayout) -> u16 {
        let moves = match self {
            Arrangement::BoardAlone => 0,
            _ => MOVES_WIDTH + GAP,
        };
        moves + ROW_LABEL_WIDTH + board.width()
    }

    /// Columns the narrowest panel (with its gap) takes.
    fn least_panel(self) -> u16 {
        match self {
            Arrangement::BothBeside => GAP + MIN_PANEL_WIDTH,
            _ => 0,
        }
    }

    /// The largest squares for which this arrangement fits in `area` with
    /// `chrome` rows of text around the board.
    fn best_cell(self, area: Rect, size: u8, chrome: u16) -> Option<CellSize> {
        CellSize::candidates(size, area.height, chrome).find(|&cell| {
            let board = BoardLayout::new(size, cell);
            let game = self.game_width(&board).max(MIN_TEXT_WIDTH);
            area.height >= board.height() + chrome && area.width >= game + self.least_panel()
        })
    }
}

/// The layout of `app`'s screen in `area`.
pub fn layout_for(area: Rect, app: &App) -> ScreenLayout {
    // The walkthrough's call stack and the quiz take the explain panel's place.
    let panels = Panels {
        moves: true,
        explain: app.explain_on() || app.walkthrough().is_some() || app.quiz().is_some(),
    };
    layout(area, app.board().size(), panels)
}

/// Places the board, the panels and the text in `area` for a board of
/// `size` squares per side, by the same rules at every size:
///
/// 1. Left to right: the move list, the board, the panel (explain, the
///    walkthrough's call stack, the quiz). None changes sides, and the
///    panel's place is kept while it is closed: opening or closing it
///    changes the panel alone.
/// 2. The move list and the panel come before big squares: the board gets
///    the biggest squares with which both fit beside it, the panel 28 to
///    30 columns wide. The panel runs from the title's row to the board's
///    bottom edge.
/// 3. Where even the smallest squares leave no room for the panel, its
///    words go in a few lines above the board, in the title's place; the
///    move list stays beside the board if it fits, and the squares are as
///    big as fit.
/// 4. Where not even the board fits, the screen says what it needs.
///
/// The text around the board is centred on the move list and the board.
pub fn layout(area: Rect, size: u8, wanted: Panels) -> ScreenLayout {
    let explain_on = wanted.explain;
    let fitting = |chrome| {
        Arrangement::ALL
            .into_iter()
            .filter(|arrangement| wanted.moves || *arrangement == Arrangement::BoardAlone)
            .find_map(|arrangement| Some((arrangement, arrangement.best_cell(area, size, chrome)?)))
    };
    // The gaps above and below the board go only where nothing else fits.
    let (gap, fits) = match fitting(CHROME_ROWS) {
        Some(fits) => (1, fits),
        None => match fitting(TIGHT_CHROME_ROWS) {
            Some(fits) => (0, fits),
            None => {
                let small = BoardLayout::new(size, CellSize::SMALL);
                return ScreenLayout::TooSmall {
                    width: (small.width() + ROW_LABEL_WIDTH).max(MIN_TEXT_WIDTH),
                    height: small.height() + TIGHT_CHROME_ROWS,
                };
            }
        },
    };
    let (arrangement, cell) = fits;
    let mut board = BoardLayout::new(size, cell);
    let game_width = arrangement.game_width(&board).max(MIN_TEXT_WIDTH);
    let panel_width = match arrangement {
        Arrangement::BothBeside => PANEL_WIDTH.min(area.width - game_width - GAP),
        _ => 0,
    };
    let [body, footer] = area.layout(&Layout::vertical([
        Constraint::Fill(1),
        Constraint::Length(1),
    ]));
    // The game and the panel, side by side, centred across the screen.
    let panel_part = if panel_width > 0 {
        GAP + panel_width
    } else {
        0
    };
    let [game, panel] = body.layout(
        &Layout::horizontal([
            Constraint::Length(game_width),
            Constraint::Length(panel_part),
        ])
        .flex(Flex::Center),
    );
    let rows = [1, 1, gap, 1, board.height(), gap, 1, 1];
    // Centred, with an odd spare row below rather than above.
    let spare = body.height - rows.iter().sum::<u16>();
    let block = Rect {
        y: body.y + spare / 2,
        height: body.height - spare / 2,
        ..game
    };
    let [title, players, _, labels, grid_rows, _, status, tally] =
        block.layout(&Layout::vertical(rows.map(Constraint::Length)));
    // The move list and the board, centred in the game's columns.
    let board_width = ROW_LABEL_WIDTH + board.width();
    let columns: &[u16] = match arrangement {
        Arrangement::BoardAlone => &[board_width],
        _ => &[MOVES_WIDTH, GAP, board_width],
    };
    let placed = game.layout_vec(
        &Layout::horizontal(columns.iter().map(|&width| Constraint::Length(width)))
            .flex(Flex::Center),
    );
    let board_column = placed.last().copied().unwrap_or(game);
    board.x = board_column.x + ROW_LABEL_WIDTH;
    board.y = grid_rows.y;
    // The move list runs from the column labels' row to the board's bottom edge.
    let moves = (arrangement != Arrangement::BoardAlone)
        .then(|| Rect::new(placed[0].x, labels.y, MOVES_WIDTH, board.height() + 1));
    let explain = match arrangement {
        Arrangement::BothBeside => {
            let rect = Rect::new(
                panel.x + GAP,
                title.y,
                panel_width,
                grid_rows.bottom() - title.y,
            );
            explain_on.then_some(ExplainPlace::Panel(rect))
        }
        _ => {
            let summary = Rect::new(area.x, body.y, area.width, players.bottom() - body.y);
            explain_on.then_some(ExplainPlace::Summary(summary))
        }
    };
    let heading = !matches!(explain, Some(ExplainPlace::Summary(_)));
    // The status and the tally may run under the panel: it ends with the board.
    let across = |row: Rect| Rect::new(area.x, row.y, area.width, 1);
    let text = TextRows {
        title: heading.then_some(title),
        players: heading.then_some(players),
        status: across(status),
        tally: across(tally),
        footer,
        axis: game.x + game.width / 2,
    };
    ScreenLayout::Game {
        board,
        text,
        moves,
        explain,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_drawn_area_is_the_terminal_up_to_the_cap_then_centred() {
        assert_eq!(drawn_area((80, 24)), Rect::new(0, 0, 80, 24));
        assert_eq!(drawn_area(MAX_SCREEN), Rect::new(0, 0, 300, 120));
        assert_eq!(drawn_area((301, 24)), Rect::new(0, 0, 300, 24));
        assert_eq!(drawn_area((302, 123)), Rect::new(1, 1, 300, 120));
        assert_eq!(
            drawn_area((10_000, 10_000)),
            Rect::new(4850, 4940, 300, 120)
        );
        assert_eq!(
            drawn_area((u16::MAX, u16::MAX)),
            Rect::new(32617, 32707, 300, 120)
        );
        assert_eq!(drawn_area((0, 0)), Rect::new(0, 0, 0, 0));
    }
}

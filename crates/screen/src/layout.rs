//! Where everything goes on the game screen: the board's squares, the panels
//! and the lines of text, for a screen of any size. Drawing ([`super::view`])
//! and hit-testing clicks ([`super::input`]) both read it.
//!
//! The board's place and size depend only on the screen and the board, never
//! on whether the explain overlay is on: toggling it changes the panel alone.

use ratatui::layout::{Constraint, Flex, Layout, Rect};

use super::app::App;
use tictactoe_engine::Square;

/// Lines of text around the board: title, players, a gap, column labels
/// above; a gap, status and tally below; the key bar at the bottom.
const CHROME_ROWS: u16 = 8;
/// The width the text lines need to be readable.
const MIN_TEXT_WIDTH: u16 = 30;
/// Width of the row labels left of the board.
pub(crate) const ROW_LABEL_WIDTH: u16 = 3;
/// Width of the explain panel beside the board.
const EXPLAIN_WIDTH: u16 = 30;
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
    fn candidates(size: u8, rows: u16) -> impl Iterator<Item = CellSize> {
        let n = u16::from(size);
        // Tallest drawn square whose board still leaves room for the text.
        let tallest = (rows.saturating_sub(CHROME_ROWS + 1) / n).saturating_sub(1);
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

/// The full-width rows of text around the board.
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
    /// The keys that work now.
    pub footer: Rect,
    /// The column the title, players, status and tally are centred on: the
    /// board's middle, so they read as one column with it.
    pub axis: u16,
}

/// One column of the row that holds the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Column {
    Moves,
    Gap,
    /// The row labels and the board.
    Board,
    Explain,
}

impl Column {
    fn width(self, board: &BoardLayout) -> u16 {
        match self {
            Column::Moves => MOVES_WIDTH,
            Column::Gap => GAP,
            Column::Board => ROW_LABEL_WIDTH + board.width(),
            Column::Explain => EXPLAIN_WIDTH,
        }
    }
}

/// Which panels the screen would like to show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Panels {
    /// The list of moves played.
    pub moves: bool,
    /// The explain overlay's words (toggling it moves nothing else).
    pub explain: bool,
}

/// What sits beside the board, from the most to the least.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Arrangement {
    /// The move list left of the board, the explain panel right of it.
    BothBeside,
    /// One slot right of the board: the explain panel while it is on, the move list otherwise.
    SharedSlot,
    /// The move list left of the board; explain as a summary.
    MovesBeside,
    /// The board alone; explain as a summary.
    BoardAlone,
}

impl Arrangement {
    const ALL: [Arrangement; 4] = [
        Arrangement::BothBeside,
        Arrangement::SharedSlot,
        Arrangement::MovesBeside,
        Arrangement::BoardAlone,
    ];

    /// The columns from left to right.
    fn columns(self) -> &'static [Column] {
        use Column::{Board, Explain, Gap, Moves};
        match self {
            Arrangement::BothBeside => &[Moves, Gap, Board, Gap, Explain],
            Arrangement::SharedSlot => &[Board, Gap, Explain],
            Arrangement::MovesBeside => &[Moves, Gap, Board],
            Arrangement::BoardAlone => &[Board],
        }
    }

    fn has_moves(self) -> bool {
        self.columns().contains(&Column::Moves)
    }

    fn width(self, board: &BoardLayout) -> u16 {
        self.columns()
            .iter()
            .map(|column| column.width(board))
            .sum()
    }

    /// The largest squares for which this arrangement fits in `area`.
    fn best_cell(self, area: Rect, size: u8) -> Option<CellSize> {
        CellSize::candidates(size, area.height).find(|&cell| {
            let board = BoardLayout::new(size, cell);
            area.height >= board.height() + CHROME_ROWS
                && area.width >= self.width(&board).max(MIN_TEXT_WIDTH)
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
/// `size` squares per side. Whether explain is on changes the panels only.
///
/// Panels beside the board come first, then big squares: the arrangement
/// with the most beside the board whose squares are as big as any
/// arrangement's, counting sizes only up to [`CellSize::LARGE`]; within it
/// the largest squares that fit, so big screens get a bigger board.
pub fn layout(area: Rect, size: u8, wanted: Panels) -> ScreenLayout {
    let explain_on = wanted.explain;
    let Some(biggest) = Arrangement::BoardAlone.best_cell(area, size) else {
        let small = BoardLayout::new(size, CellSize::SMALL);
        return ScreenLayout::TooSmall {
            width: (small.width() + ROW_LABEL_WIDTH).max(MIN_TEXT_WIDTH),
            height: small.height() + CHROME_ROWS,
        };
    };
    let enough = biggest.min(CellSize::LARGE);
    let (arrangement, cell) = Arrangement::ALL
        .into_iter()
        .filter(|arrangement| wanted.moves || !arrangement.has_moves())
        .find_map(|arrangement| {
            let cell = arrangement.best_cell(area, size)?;
            (cell >= enough).then_some((arrangement, cell))
        })
        .unwrap_or((Arrangement::BoardAlone, biggest));
    let mut board = BoardLayout::new(size, cell);

    let [body, footer] = area.layout(&Layout::vertical([
        Constraint::Fill(1),
        Constraint::Length(1),
    ]));
    let rows = [1, 1, 1, 1, board.height(), 1, 1, 1];
    // Centred, with an odd spare row below rather than above.
    let spare = body.height - rows.iter().sum::<u16>();
    let block = Rect {
        y: body.y + spare / 2,
        height: body.height - spare / 2,
        ..body
    };
    let [title, players, _, labels, grid_rows, _, status, tally] =
        block.layout(&Layout::vertical(rows.map(Constraint::Length)));
    let columns = arrangement.columns();
    let widths = columns
        .iter()
        .map(|column| Constraint::Length(column.width(&board)));
    let placed = area.layout_vec(&Layout::horizontal(widths).flex(Flex::Center));
    // Panels run from the column labels' row to the board's bottom edge.
    let panel_height = board.height() + 1;
    let column_of = |wanted: Column| {
        let i = columns.iter().position(|&column| column == wanted)?;
        Some(Rect::new(
            placed[i].x,
            labels.y,
            placed[i].width,
            panel_height,
        ))
    };
    board.x = column_of(Column::Board).map_or(area.x, |column| column.x) + ROW_LABEL_WIDTH;
    board.y = grid_rows.y;

    let (moves, explain) = match (arrangement, column_of(Column::Explain)) {
        (Arrangement::SharedSlot, Some(slot)) if !explain_on => {
            let moves = Rect {
                width: MOVES_WIDTH,
                ..slot
            };
            (wanted.moves.then_some(moves), None)
        }
        (_, Some(panel)) => (
            column_of(Column::Moves),
            explain_on.then_some(ExplainPlace::Panel(panel)),
        ),
        (_, None) => {
            let summary = Rect::new(area.x, body.y, area.width, players.bottom() - body.y);
            (
                column_of(Column::Moves),
                explain_on.then_some(ExplainPlace::Summary(summary)),
            )
        }
    };
    let heading = !matches!(explain, Some(ExplainPlace::Summary(_)));
    let text = TextRows {
        title: heading.then_some(title),
        players: heading.then_some(players),
        status,
        tally,
        footer,
        axis: board.x + board.width() / 2,
    };
    ScreenLayout::Game {
        board,
        text,
        moves,
        explain,
    }
}

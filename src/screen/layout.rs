//! Where everything goes on the game screen: the board's squares, the panels
//! and the lines of text, for a screen of any size. Drawing ([`super::view`])
//! and hit-testing clicks ([`super::input`]) both read it.

use ratatui::layout::Rect;

use super::app::App;
use crate::engine::Move;

/// Lines of text around the board: title, players, a gap, column labels
/// above; a gap, status, tally and footer below.
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

/// How big each square is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CellSize {
    /// Drawings of X and O, and room for a score and a word under the overlay.
    Large,
    /// A letter, or a score of up to five characters.
    Medium,
    /// A letter, or a short score.
    Small,
}

impl CellSize {
    pub(crate) fn width(self) -> u16 {
        match self {
            CellSize::Large => 9,
            CellSize::Medium => 5,
            CellSize::Small => 3,
        }
    }

    pub(crate) fn height(self) -> u16 {
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
    pub(crate) cell: CellSize,
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

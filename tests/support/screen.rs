//! The game read off a terminal screen that vt100 parsed, at the game's own
//! layout: shared by the tests that drive the real binary through a
//! pseudo-terminal (`pty.rs`) and through an SSH client (`serve.rs`), and by
//! the server's benchmark (`benches/serve.rs`, which includes this file by
//! its path).

use ratatui::layout::Rect;
use tictactoe_engine::Square;
use tictactoe_screen::layout::{BoardLayout, Panels, ScreenLayout, layout};

/// Where the 3x3 board is drawn on a `cols` x `rows` screen (explain off).
pub fn board(cols: u16, rows: u16) -> BoardLayout {
    board_of(3, cols, rows)
}

/// Where a board of side `size` is drawn on a `cols` x `rows` screen (explain off).
pub fn board_of(size: u8, cols: u16, rows: u16) -> BoardLayout {
    let ScreenLayout::Game { board, .. } = layout(
        Rect::new(0, 0, cols, rows),
        size,
        Panels {
            moves: true,
            explain: false,
        },
    ) else {
        panic!("{cols}x{rows} fits the game")
    };
    board
}

/// The mark in each square of a 3x3 game drawn on a `cols` x `rows` screen
/// (explain off), in reading order.
pub fn marks(screen: &vt100::Screen, cols: u16, rows: u16) -> Vec<Option<char>> {
    let board = board(cols, rows);
    (0..9).map(|index| mark(screen, &board, index)).collect()
}

/// The mark in square `index` (reading order) of a 3x3 game drawn at
/// `board`: a drawn X has its crossing on the square's middle row, a drawn
/// O its rounded corner on the top row.
pub fn mark(screen: &vt100::Screen, board: &BoardLayout, index: usize) -> Option<char> {
    let rect = board.cell_rect(Square::from_index(index, 3));
    let line = |y: u16| -> String {
        (rect.x..rect.x + rect.width)
            .filter_map(|x| screen.cell(y, x))
            .map(|c| c.contents())
            .collect()
    };
    if line(rect.y + 1).contains('╳') {
        Some('X')
    } else if line(rect.y).contains('╭') {
        Some('O')
    } else {
        None
    }
}

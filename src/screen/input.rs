//! Keys and mouse clicks to actions. Only presses count: terminals that also
//! report releases and repeats (Windows) would otherwise act twice.

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEventKind};
use ratatui::layout::Rect;

use super::app::App;
use super::layout::{ScreenLayout, layout_for};
use super::message::{Action, Direction};
use crate::engine::Move;

/// The action an event asks for, if any. `area` is the screen the app was drawn on.
pub fn action_for(event: &Event, app: &App, area: Rect) -> Option<Action> {
    let board = match layout_for(area, app) {
        ScreenLayout::Game { board, .. } => Some(board),
        ScreenLayout::TooSmall { .. } => None,
    };
    if let Some(key) = event.as_key_press_event() {
        let action = key_action(key, app);
        // A game that cannot be seen cannot be played: only leaving and help
        // act, and any key while the help is open or the game has ended,
        // since it only closes or leaves.
        let unseen_ok = matches!(action, Action::Quit | Action::Back | Action::ToggleHelp)
            || app.help_open()
            || app.link_ended();
        return (board.is_some() || unseen_ok).then_some(action);
    }
    let mouse = event.as_mouse_event()?;
    if mouse.kind != MouseEventKind::Down(MouseButton::Left) {
        return None;
    }
    let square = board.and_then(|board| board.cell_at(mouse.column, mouse.row));
    Some(square.map_or(Action::Unbound, Action::Place))
}

fn key_action(key: KeyEvent, app: &App) -> Action {
    let watch = app.is_watch();
    if key.modifiers.contains(KeyModifiers::CONTROL) {
        return match key.code {
            KeyCode::Char('c') => Action::Quit,
            KeyCode::Char('r') => Action::Redo,
            _ => Action::Unbound,
        };
    }
    // In the tree and the walkthrough Space and Enter act on them, even in watch mode.
    let viewing = app.tree().is_some() || app.walkthrough().is_some();
    match key.code {
        KeyCode::Enter | KeyCode::Char(' ') if viewing => Action::PlaceAtCursor,
        KeyCode::Backspace => Action::GoUp,
        KeyCode::Char('t') => Action::ToggleTree,
        KeyCode::Char('c') => Action::TraceStep,
        KeyCode::Char('q') => Action::Quit,
        KeyCode::Esc => Action::Back,
        KeyCode::Char('?') => Action::ToggleHelp,
        KeyCode::Char('n') => Action::NewGame,
        KeyCode::Char('u') => Action::Undo,
        KeyCode::Char('U') => Action::Redo,
        KeyCode::Char('e') => Action::ToggleExplain,
        KeyCode::Char(' ') if watch => Action::TogglePause,
        KeyCode::Char('.') if watch => Action::Step,
        KeyCode::Char('+' | '=') if watch => Action::Faster,
        KeyCode::Char('-' | '_') if watch => Action::Slower,
        KeyCode::Up | KeyCode::Char('k' | 'w') => Action::Cursor(Direction::Up),
        KeyCode::Down | KeyCode::Char('j' | 's') => Action::Cursor(Direction::Down),
        KeyCode::Left | KeyCode::Char('h' | 'a') => Action::Cursor(Direction::Left),
        KeyCode::Right | KeyCode::Char('l' | 'd') => Action::Cursor(Direction::Right),
        KeyCode::Enter | KeyCode::Char(' ') => Action::PlaceAtCursor,
        KeyCode::Char(digit @ '1'..='9') if app.board().size() == 3 => {
            let index = digit as usize - '1' as usize;
            Action::Place(Move::from_index(index, 3))
        }
        _ => Action::Unbound,
    }
}

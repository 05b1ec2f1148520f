//! Keys and mouse clicks to actions. Only presses count: terminals that also
//! report releases and repeats (Windows) would otherwise act twice.

use ratatui::crossterm::event::{
    Event, KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEventKind,
};
use ratatui::layout::Rect;

use super::app::{Action, App, Direction};
use super::view::{ScreenLayout, layout_for};
use crate::engine::Move;

/// The action an event asks for, if any. `area` is the screen the app was drawn on.
pub fn action_for(event: &Event, app: &App, area: Rect) -> Option<Action> {
    let board = match layout_for(area, app) {
        ScreenLayout::Game { board, .. } => Some(board),
        ScreenLayout::TooSmall { .. } => None,
    };
    if let Some(key) = event.as_key_press_event() {
        let action = key_action(key, app)?;
        // A game that cannot be seen cannot be played: only leaving and help act.
        let unseen_ok = matches!(
            action,
            Action::Quit | Action::ToggleHelp | Action::CloseHelp
        );
        return (board.is_some() || unseen_ok).then_some(action);
    }
    let mouse = event.as_mouse_event()?;
    if mouse.kind != MouseEventKind::Down(MouseButton::Left) {
        return None;
    }
    board?.cell_at(mouse.column, mouse.row).map(Action::Place)
}

fn key_action(key: KeyEvent, app: &App) -> Option<Action> {
    let control = key.modifiers.contains(KeyModifiers::CONTROL);
    if control && key.code == KeyCode::Char('c') {
        return Some(Action::Quit);
    }
    if app.help_open() {
        // Any key closes the help; q still quits.
        return Some(if key.code == KeyCode::Char('q') && !control {
            Action::Quit
        } else {
            Action::CloseHelp
        });
    }
    if control {
        return (key.code == KeyCode::Char('r')).then_some(Action::Redo);
    }
    let watch = app.is_watch();
    let action = match key.code {
        KeyCode::Char('q') | KeyCode::Esc => Action::Quit,
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
        _ => return None,
    };
    Some(action)
}

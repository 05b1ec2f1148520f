//! Keys and mouse clicks to actions, as the key table ([`tictactoe_game::keys`])
//! binds them in the mode on screen. Only presses count: terminals that
//! also report releases and repeats (Windows) would otherwise act twice.

use crossterm::event::{self, Event, KeyEvent, KeyModifiers, MouseButton, MouseEventKind};
use ratatui::layout::Rect;
use tictactoe_game::action::Action;
use tictactoe_game::keys::{self, Does, KeyCode, KeyPress};

use super::app::App;
use super::layout::{ScreenLayout, layout_for};

/// A terminal's key event as the key table names keys.
pub fn key_press(key: KeyEvent) -> KeyPress {
    let code = match key.code {
        event::KeyCode::Char(letter) => KeyCode::Char(letter),
        event::KeyCode::Up => KeyCode::Up,
        event::KeyCode::Down => KeyCode::Down,
        event::KeyCode::Left => KeyCode::Left,
        event::KeyCode::Right => KeyCode::Right,
        event::KeyCode::Enter => KeyCode::Enter,
        event::KeyCode::Esc => KeyCode::Esc,
        event::KeyCode::Backspace => KeyCode::Backspace,
        event::KeyCode::Home => KeyCode::Home,
        event::KeyCode::End => KeyCode::End,
        event::KeyCode::F(number) => KeyCode::F(number),
        _ => KeyCode::Other,
    };
    KeyPress {
        code,
        ctrl: key.modifiers.contains(KeyModifiers::CONTROL),
    }
}

/// The action an event asks for, if any. `area` is the screen the app was drawn on.
pub fn action_for(event: &Event, app: &App, area: Rect) -> Option<Action> {
    let board = match layout_for(area, app) {
        ScreenLayout::Game { board, .. } => Some(board),
        ScreenLayout::TooSmall { .. } => None,
    };
    let context = app.key_context();
    if let Some(key) = event.as_key_press_event() {
        let action = game_action(keys::action(&context, key_press(key)));
        // A game that cannot be seen cannot be played: only leaving, help
        // and suspending act, and any key while the help is open or the game
        // has ended, since it only closes or leaves.
        let unseen_ok = matches!(
            action,
            Action::Quit | Action::Back | Action::ToggleHelp | Action::Suspend
        ) || app.help_open()
            || app.link_ended();
        return (board.is_some() || unseen_ok).then_some(action);
    }
    let mouse = event.as_mouse_event()?;
    if mouse.kind != MouseEventKind::Down(MouseButton::Left) {
        return None;
    }
    Some(match game_action(keys::click(&context)) {
        // A click places where it is, not at the cursor; outside the board, nothing.
        Action::Confirm => board
            .and_then(|board| board.cell_at(mouse.column, mouse.row))
            .map_or(Action::Unbound, Action::Place),
        action => action,
    })
}

fn game_action(does: Option<Does>) -> Action {
    match does {
        Some(Does::Game(action)) => action,
        Some(Does::Lobby(_)) | None => Action::Unbound,
    }
}

//! Keys and mouse clicks to actions, as the key table ([`super::keys`])
//! binds them in the mode on screen. Only presses count: terminals that
//! also report releases and repeats (Windows) would otherwise act twice.

use crossterm::event::{Event, MouseButton, MouseEventKind};
use ratatui::layout::Rect;

use super::app::App;
use super::keys::{self, Context, Does};
use super::layout::{ScreenLayout, layout_for};
use super::message::Action;

/// The action an event asks for, if any. `area` is the screen the app was drawn on.
pub fn action_for(event: &Event, app: &App, area: Rect) -> Option<Action> {
    let board = match layout_for(area, app) {
        ScreenLayout::Game { board, .. } => Some(board),
        ScreenLayout::TooSmall { .. } => None,
    };
    let context = Context::of(app);
    if let Some(key) = event.as_key_press_event() {
        let action = game_action(keys::action(&context, key));
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
        Action::PlaceAtCursor => board
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

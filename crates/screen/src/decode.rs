//! Keystrokes and clicks as bytes (read off the local terminal, or off an
//! SSH channel) into the terminal events the game screens read. The parsing
//! is terminput's (crossterm's own parser, usable on any bytes); this keeps
//! what is left of a sequence split across reads, and throws away what
//! cannot be parsed.

use crossterm::event::Event;

/// Longest unfinished sequence kept between reads: real escape sequences are
/// far shorter, so anything longer is garbage.
const MAX_PENDING: usize = 64;

/// Turns bytes into events, remembering an unfinished sequence.
#[derive(Debug, Default)]
pub struct KeyDecoder {
    pending: Vec<u8>,
}

impl KeyDecoder {
    /// Decodes `bytes`, handing each complete event to `emit`. Never fails:
    /// bytes that are no event are dropped.
    pub fn feed(&mut self, bytes: &[u8], mut emit: impl FnMut(Event)) {
        for (i, &byte) in bytes.iter().enumerate() {
            self.pending.push(byte);
            // A lone Esc is the Esc key only if nothing follows it in the same
            // read; otherwise it starts a sequence (arrows, mouse).
            let more = i + 1 < bytes.len();
            if self.pending == [0x1b] && more {
                continue;
            }
            match terminput::Event::parse_from(&self.pending) {
                Ok(Some(event)) => {
                    self.pending.clear();
                    if let Ok(event) = terminput_crossterm::to_crossterm(event) {
                        emit(event);
                    }
                }
                Ok(None) if self.pending.len() < MAX_PENDING => {}
                Ok(None) | Err(_) => self.pending.clear(),
            }
        }
    }
}

//! The screen's bytes on their way to the client, through a bounded buffer:
//! drawing never waits for the network, and a client that stops reading is
//! dropped once its backlog passes [`BACKLOG_LIMIT`], never buffered without end.

use std::io::{self, Write};
use std::sync::{Arc, Mutex, PoisonError};

use russh::ChannelId;
use russh::server::Handle;
use tokio::sync::Notify;

/// Bytes waiting for a client before it counts as too slow: dozens of whole
/// screens, far more than a client that reads ever has waiting.
const BACKLOG_LIMIT: usize = 512 * 1024;

/// Bytes drawn but not yet handed to the SSH session.
#[derive(Default)]
pub(super) struct Outbox {
    state: Mutex<Backlog>,
    ready: Notify,
}

#[derive(Default)]
struct Backlog {
    bytes: Vec<u8>,
    closed: bool,
}

impl Outbox {
    /// Queues bytes; an error once the client is too far behind.
    fn push(&self, bytes: Vec<u8>) -> io::Result<()> {
        let mut backlog = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if backlog.bytes.len() + bytes.len() > BACKLOG_LIMIT {
            return Err(io::Error::new(
                io::ErrorKind::WouldBlock,
                "the client is not reading its screen",
            ));
        }
        if backlog.bytes.is_empty() {
            backlog.bytes = bytes;
        } else {
            backlog.bytes.extend_from_slice(&bytes);
        }
        drop(backlog);
        self.ready.notify_one();
        Ok(())
    }

    /// No more bytes will come: the pump ends once it has sent what is queued.
    pub(super) fn close(&self) {
        self.state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .closed = true;
        self.ready.notify_one();
    }

    /// Everything queued, waiting for some; `None` once closed and empty.
    async fn next(&self) -> Option<Vec<u8>> {
        loop {
            {
                let mut backlog = self.state.lock().unwrap_or_else(PoisonError::into_inner);
                if !backlog.bytes.is_empty() {
                    return Some(std::mem::take(&mut backlog.bytes));
                }
                if backlog.closed {
                    return None;
                }
            }
            self.ready.notified().await;
        }
    }
}

/// Sends what the outbox holds to the client's channel, as fast as the
/// client reads. Returns true once the outbox is closed and everything was
/// sent, false if the session went away first.
pub(super) async fn pump(outbox: Arc<Outbox>, handle: Handle, channel: ChannelId) -> bool {
    while let Some(bytes) = outbox.next().await {
        if handle.data(channel, bytes).await.is_err() {
            return false;
        }
    }
    true
}

/// What the terminal backend writes to: one frame is collected, then queued
/// in the outbox on flush (ratatui flushes once a frame).
pub(super) struct OutboxWriter {
    outbox: Arc<Outbox>,
    frame: Vec<u8>,
}

impl OutboxWriter {
    pub(super) fn new(outbox: Arc<Outbox>) -> OutboxWriter {
        OutboxWriter {
            outbox,
            frame: Vec::new(),
        }
    }
}

impl Write for OutboxWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.frame.len() + buf.len() > BACKLOG_LIMIT {
            return Err(io::Error::other("a frame larger than any screen"));
        }
        self.frame.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.frame.is_empty() {
            return Ok(());
        }
        self.outbox.push(std::mem::take(&mut self.frame))
    }
}

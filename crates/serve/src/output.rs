//! The screen's bytes on their way to the client. Frames go at the client's
//! pace: while one is on its way, the session draws no other, and draws the
//! latest state once it has gone (so a flood of keys costs one frame per
//! round trip, not one per key). A client whose frame has not gone for
//! `--send-timeout` is not reading, and is dropped; so is one that leaves
//! a ping unanswered that long (see [`Reading`]).

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use russh::ChannelId;
use russh::server::{Handle, Session};
use tokio::sync::{Notify, oneshot, watch};

/// Bytes that may wait for a client at once: far more than a frame of the
/// largest screen. A client further behind is not reading.
pub(super) const BACKLOG_LIMIT: usize = 512 * 1024;

/// Bytes drawn but not yet handed to the SSH session.
pub(super) struct Outbox {
    state: Mutex<Backlog>,
    ready: Notify,
    /// True while bytes wait or are being sent.
    busy: watch::Sender<bool>,
    /// Set once the client is known not to read, or gone: the pump gives up.
    cut: watch::Sender<Option<Pumped>>,
    /// Since when the server has been up to date with the client's input;
    /// `None` while it is behind.
    read_up: Mutex<Option<Instant>>,
}

impl Default for Outbox {
    fn default() -> Outbox {
        Outbox {
            state: Mutex::default(),
            ready: Notify::new(),
            busy: watch::Sender::new(false),
            cut: watch::Sender::new(None),
            read_up: Mutex::new(Some(Instant::now())),
        }
    }
}

#[derive(Default)]
struct Backlog {
    bytes: Vec<u8>,
    closed: bool,
}

impl Outbox {
    fn state(&self) -> MutexGuard<'_, Backlog> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Queues bytes; an error once the client is too far behind, which
    /// then counts as not reading.
    fn push(&self, bytes: Vec<u8>) -> io::Result<()> {
        let mut backlog = self.state();
        if backlog.bytes.len() + bytes.len() > BACKLOG_LIMIT {
            drop(backlog);
            self.cut_off(Pumped::Behind);
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
        self.busy.send_replace(true);
        drop(backlog);
        self.ready.notify_one();
        Ok(())
    }

    /// No more bytes will come: the pump ends once it has sent what is queued.
    pub(super) fn close(&self) {
        self.state().closed = true;
        self.ready.notify_one();
    }

    /// True while a frame is on its way.
    pub(super) fn busy(&self) -> bool {
        *self.busy.borrow()
    }

    /// Waits until nothing is on its way.
    pub(super) async fn idle(&self) {
        let mut busy = self.busy.subscribe();
        let _ = busy.wait_for(|busy| !busy).await;
    }

    /// The server is behind on the client's input (true) or has caught
    /// up (false): an answer to a ping may wait behind that input, unread.
    pub(super) fn behind(&self, behind: bool) {
        let mut read_up = self.read_up.lock().unwrap_or_else(PoisonError::into_inner);
        *read_up = if behind { None } else { Some(Instant::now()) };
    }

    /// Since when the server has been up to date with the client's input
    /// (now while it is behind).
    fn read_up_at(&self) -> Instant {
        let read_up = *self.read_up.lock().unwrap_or_else(PoisonError::into_inner);
        read_up.unwrap_or_else(Instant::now)
    }

    /// The client does not read what it is sent: the pump ends, stalled.
    pub(super) fn stall(&self) {
        self.cut_off(Pumped::Stalled);
    }

    /// The connection is gone: the pump ends, and the session with it,
    /// whatever input it still holds.
    pub(super) fn gone(&self) {
        self.cut_off(Pumped::Gone);
    }

    /// True once the connection is gone.
    pub(super) fn is_gone(&self) -> bool {
        *self.cut.borrow() == Some(Pumped::Gone)
    }

    fn cut_off(&self, why: Pumped) {
        self.cut.send_if_modified(|cut| {
            let first = cut.is_none();
            if first {
                *cut = Some(why);
            }
            first
        });
    }

    /// Waits until the client is known not to read, or gone.
    async fn cut(&self) -> Pumped {
        let mut cut = self.cut.subscribe();
        match cut.wait_for(Option::is_some).await {
            Ok(why) => why.unwrap_or(Pumped::Gone),
            Err(_) => Pumped::Gone,
        }
    }

    /// Everything queued, waiting for some; `None` once closed and empty.
    async fn next(&self) -> Option<Vec<u8>> {
        loop {
            {
                let mut backlog = self.state();
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

    /// What was queued has been handed on.
    fn sent(&self) {
        let backlog = self.state();
        if backlog.bytes.is_empty() {
            self.busy.send_replace(false);
        }
    }

    /// Takes what is queued, as the pump would (for tests).
    #[cfg(test)]
    pub(super) fn take(&self) -> Vec<u8> {
        let bytes = std::mem::take(&mut self.state().bytes);
        self.sent();
        bytes
    }
}

/// How the pump ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Pumped {
    /// The outbox was closed and everything sent.
    Done,
    /// The connection went away.
    Gone,
    /// The client took nothing for the send timeout, or left a ping
    /// unanswered that long.
    Stalled,
    /// More was drawn for the client than may wait for it ([`BACKLOG_LIMIT`]).
    Behind,
}

/// Sends what the outbox holds to the client's channel, as fast as the
/// client reads.
pub(super) async fn pump(
    outbox: Arc<Outbox>,
    handle: Handle,
    channel: ChannelId,
    send_timeout: Duration,
) -> Pumped {
    loop {
        let next = tokio::select! {
            biased;
            why = outbox.cut() => return why,
            next = outbox.next() => next,
        };
        let Some(bytes) = next else {
            return Pumped::Done;
        };
        let sending = tokio::time::timeout(send_timeout, handle.data(channel, bytes));
        tokio::select! {
            biased;
            why = outbox.cut() => return why,
            sent = sending => match sent {
                Ok(Ok(())) => outbox.sent(),
                Ok(Err(_)) => return Pumped::Gone,
                Err(_) => return Pumped::Stalled,
            },
        }
    }
}

/// Least time between two pings to one client.
const PING_EVERY: Duration = Duration::from_secs(1);

/// Whether a client reads what it is sent, as its answers to pings show.
///
/// A frame counts as gone once SSH takes it, and SSH takes frames until
/// the client's window is spent (2 MB with OpenSSH) and the network's
/// buffers are full: with a game's small frames, minutes after the client
/// stopped reading. A ping (OpenSSH's `keepalive@openssh.com` global
/// request) comes after every frame sent before it, so its answer says the
/// client has read them all. While the client sends, a ping is kept on its
/// way ([`Reading::on_input`]), and one left unanswered for the send
/// timeout means the client is not reading ([`await_answer`]). (A client
/// that sends nothing is asked by SSH's own keepalive.)
///
/// The answer comes behind whatever the client sent before it, and the
/// server reads a client's input no faster than its rate: while the
/// server is behind on a client's input, its clock does not run
/// ([`Outbox::behind`]).
#[derive(Default)]
pub(super) struct Reading {
    /// When the last ping went.
    last: Option<Instant>,
    /// True while a ping waits for its answer.
    waiting: Arc<AtomicBool>,
}

impl Reading {
    /// Called on each message from the client: sends a ping if none is on
    /// its way and the last went [`PING_EVERY`] ago or more, and has its
    /// answer awaited for `patience`.
    pub(super) fn on_input(
        &mut self,
        now: Instant,
        patience: Duration,
        session: &mut Session,
        outbox: &Arc<Outbox>,
    ) {
        let due = self
            .last
            .is_none_or(|last| now.saturating_duration_since(last) >= PING_EVERY);
        if !due || self.waiting.load(Ordering::SeqCst) {
            return;
        }
        let (answer, answered) = oneshot::channel();
        if session.send_ping(answer).is_ok() {
            self.last = Some(now);
            self.waiting.store(true, Ordering::SeqCst);
            tokio::spawn(await_answer(
                answered,
                Arc::clone(outbox),
                patience,
                Arc::clone(&self.waiting),
                now,
            ));
        }
    }
}

/// Waits for a ping's answer: one not there `patience` after the ping went
/// (or after the server last caught up with the client's input, if later)
/// means the client is not reading, and its session ends.
async fn await_answer(
    answered: oneshot::Receiver<()>,
    outbox: Arc<Outbox>,
    patience: Duration,
    waiting: Arc<AtomicBool>,
    sent: Instant,
) {
    tokio::pin!(answered);
    loop {
        let from = outbox.read_up_at().max(sent);
        let deadline = tokio::time::Instant::from_std(from + patience);
        tokio::select! {
            // Answered, or given up by SSH as the connection closes.
            _ = &mut answered => break,
            () = tokio::time::sleep_until(deadline) => {
                if outbox.read_up_at().max(sent) + patience <= Instant::now() {
                    outbox.stall();
                    break;
                }
            }
        }
    }
    waiting.store(false, Ordering::SeqCst);
}

/// What the terminal backend writes to: one frame is collected, then queued
/// in the outbox on flush.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_too_far_behind_is_cut_off_and_the_first_reason_stays() {
        let outbox = Outbox::default();
        assert!(outbox.push(vec![b'x'; BACKLOG_LIMIT]).is_ok());
        assert!(outbox.push(vec![b'x']).is_err());
        assert_eq!(*outbox.cut.borrow(), Some(Pumped::Behind));
        assert!(!outbox.is_gone());
        outbox.gone();
        assert_eq!(*outbox.cut.borrow(), Some(Pumped::Behind));
        // What was queued is still there to send.
        assert_eq!(outbox.take().len(), BACKLOG_LIMIT);
    }

    #[test]
    fn a_closed_connection_is_gone() {
        let outbox = Outbox::default();
        outbox.gone();
        assert!(outbox.is_gone());
        outbox.stall();
        assert_eq!(*outbox.cut.borrow(), Some(Pumped::Gone));
    }
}

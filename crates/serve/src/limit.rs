//! Token buckets: how often something may happen, with room for a burst.
//! Used for new connections per address, keys, window sizes and bytes of
//! input per session, and log lines per connection.

use std::fmt;
use std::time::{Duration, Instant};

use super::log;

/// A bucket that holds up to `burst` tokens and gains `per_second` a second.
#[derive(Debug, Clone)]
pub(super) struct Bucket {
    tokens: f64,
    burst: f64,
    per_second: f64,
    last: Instant,
}

impl Bucket {
    /// A full bucket.
    pub(super) fn new(burst: u32, per_second: f64, now: Instant) -> Bucket {
        Bucket {
            tokens: f64::from(burst),
            burst: f64::from(burst),
            per_second,
            last: now,
        }
    }

    fn refill(&mut self, now: Instant) {
        let gained = now.saturating_duration_since(self.last).as_secs_f64() * self.per_second;
        self.tokens = (self.tokens + gained).min(self.burst);
        self.last = now;
    }

    /// Takes a token if there is one.
    pub(super) fn take(&mut self, now: Instant) -> bool {
        self.refill(now);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    /// True once the bucket is full again: nothing was taken for long enough.
    pub(super) fn is_full(&mut self, now: Instant) -> bool {
        self.refill(now);
        self.tokens >= self.burst
    }

    /// When the bucket will be full if nothing more is taken.
    pub(super) fn full_at(&self) -> Instant {
        self.holds_at(self.burst)
    }

    /// When the bucket will hold `tokens` if nothing more is taken.
    pub(super) fn holds_at(&self, tokens: f64) -> Instant {
        let missing = (tokens - self.tokens).max(0.0);
        self.last + Duration::from_secs_f64(missing / self.per_second)
    }

    /// Takes `amount` tokens whatever the bucket holds: it may owe some.
    pub(super) fn spend(&mut self, amount: usize, now: Instant) {
        self.refill(now);
        self.tokens -= amount as f64;
    }

    /// Until when the bucket owes tokens, if it does.
    pub(super) fn owing_until(&mut self, now: Instant) -> Option<Instant> {
        self.refill(now);
        (self.tokens < 0.0).then(|| self.holds_at(0.0))
    }
}

/// Window sizes a session takes at once; past that, [`RESIZE_RATE`] a second.
pub(super) const RESIZE_BURST: u32 = 20;
/// Window sizes a session takes a second once its burst is spent: a window
/// dragged by hand still follows within a tenth of a second.
pub(super) const RESIZE_RATE: u32 = 10;

/// A client's window sizes, rate limited as keys are: a burst, then
/// [`RESIZE_RATE`] a second. A size that comes too soon waits, and a newer
/// one takes its place: the newest size wins, once a token is there.
pub(super) struct Resizes {
    bucket: Bucket,
    waiting: Option<(u16, u16)>,
}

impl Resizes {
    pub(super) fn new(now: Instant) -> Resizes {
        Resizes {
            bucket: Bucket::new(RESIZE_BURST, f64::from(RESIZE_RATE), now),
            waiting: None,
        }
    }

    /// A new size from the client: the size to draw at now, or `None` when
    /// it must wait (it replaces any size already waiting).
    pub(super) fn offer(&mut self, size: (u16, u16), now: Instant) -> Option<(u16, u16)> {
        if self.waiting.is_none() && self.bucket.take(now) {
            return Some(size);
        }
        self.waiting = Some(size);
        None
    }

    /// When the size waiting may be drawn at, if one waits.
    pub(super) fn due_at(&self) -> Option<Instant> {
        self.waiting.map(|_| self.bucket.holds_at(1.0))
    }

    /// The size waiting, once its time has come.
    pub(super) fn take_due(&mut self, now: Instant) -> Option<(u16, u16)> {
        if self.waiting.is_some() && self.bucket.take(now) {
            return self.waiting.take();
        }
        None
    }
}

/// Log lines one connection may write: [`LOG_BURST`] at once, then one a
/// second. Lines past that are counted, and the count is logged with the
/// next line that may be written and when the connection ends.
pub(super) struct LogBudget {
    bucket: Bucket,
    left_out: u64,
    who: String,
}

/// Log lines a connection may write at once.
const LOG_BURST: u32 = 10;

impl LogBudget {
    pub(super) fn new(who: impl Into<String>) -> LogBudget {
        LogBudget {
            bucket: Bucket::new(LOG_BURST, 1.0, Instant::now()),
            left_out: 0,
            who: who.into(),
        }
    }

    /// Logs a line if the budget allows.
    pub(super) fn log(&mut self, message: fmt::Arguments) {
        if !self.bucket.take(Instant::now()) {
            self.left_out += 1;
            return;
        }
        self.flush();
        log(message);
    }

    fn flush(&mut self) {
        if self.left_out > 0 {
            log(format_args!(
                "{}: {} more log lines left out (over {LOG_BURST} at once or 1 a second)",
                self.who,
                std::mem::take(&mut self.left_out)
            ));
        }
    }
}

impl Drop for LogBudget {
    fn drop(&mut self) {
        self.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_allows_its_burst_then_its_rate() {
        let start = Instant::now();
        let mut bucket = Bucket::new(3, 2.0, start);
        assert!((0..3).all(|_| bucket.take(start)));
        assert!(!bucket.take(start));
        assert_eq!(bucket.full_at(), start + Duration::from_millis(1500));
        assert!(bucket.take(start + Duration::from_millis(500)));
        assert!(!bucket.take(start + Duration::from_millis(500)));
        assert!(bucket.is_full(start + Duration::from_secs(10)));
    }

    #[test]
    fn resizes_past_the_rate_wait_and_the_newest_wins() {
        let start = Instant::now();
        let mut resizes = Resizes::new(start);
        for i in 0..RESIZE_BURST {
            let size = (80 + i as u16, 24);
            assert_eq!(resizes.offer(size, start), Some(size));
        }
        assert_eq!(resizes.due_at(), None);
        assert_eq!(resizes.offer((100, 30), start), None);
        assert_eq!(resizes.offer((120, 40), start), None);
        let due = resizes.due_at().expect("a size waits");
        assert_eq!(due, start + Duration::from_millis(100));
        assert_eq!(resizes.take_due(start), None);
        assert_eq!(resizes.take_due(due), Some((120, 40)));
        assert_eq!(resizes.due_at(), None);
    }

    #[test]
    fn a_bucket_spent_beyond_its_tokens_owes_until_refilled() {
        let start = Instant::now();
        let mut bytes = Bucket::new(100, 50.0, start);
        bytes.spend(60, start);
        assert_eq!(bytes.owing_until(start), None);
        bytes.spend(140, start);
        // 100 short at 50 a second: two seconds.
        assert_eq!(
            bytes.owing_until(start),
            Some(start + Duration::from_secs(2))
        );
        let later = start + Duration::from_secs(1);
        assert_eq!(
            bytes.owing_until(later),
            Some(start + Duration::from_secs(2))
        );
        assert_eq!(bytes.owing_until(start + Duration::from_secs(2)), None);
    }
}

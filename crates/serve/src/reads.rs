//! The commands' reads (`leaderboard`, `history`), kept off the game's
//! path: each address and each key may ask [`READ_BURST`] at once, then one
//! every [`READ_EVERY`]; an answer is kept and given again while what it
//! shows has not changed (no game of the key's written since, no rated game
//! ended since); and each is logged, who, what, how long, within a budget
//! of log lines shared by all of them.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use super::admission::address_key;
use super::limit::{Bucket, LogBudget};

/// Requests one address, or one key, may make at once.
pub(super) const READ_BURST: u32 = 10;
/// Then one request every this long.
pub(super) const READ_EVERY: Duration = Duration::from_secs(6);
/// Answers kept; past this, the cache starts over.
const CACHED: usize = 1024;
/// Addresses and keys whose rate is remembered; past this, those whose
/// bucket is full again are forgotten.
const TRACKED: usize = 16_384;

/// What changes what the commands show: a version per player, moved on
/// whenever a game of theirs is written, and one for the leaderboards,
/// moved on whenever a rated game ends. The store's thread moves them on
/// once a write is committed.
#[derive(Debug, Default)]
pub(crate) struct Versions {
    players: Mutex<HashMap<i64, u64>>,
    leaders: AtomicU64,
}

impl Versions {
    fn players(&self) -> MutexGuard<'_, HashMap<i64, u64>> {
        self.players.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A game of these players was written.
    pub(crate) fn written(&self, players: &[i64]) {
        let mut versions = self.players();
        for player in players {
            *versions.entry(*player).or_default() += 1;
        }
    }

    /// A rated game ended: the leaderboards changed.
    pub(crate) fn rated(&self) {
        self.leaders.fetch_add(1, Ordering::SeqCst);
    }

    fn of(&self, player: i64) -> u64 {
        self.players().get(&player).copied().unwrap_or(0)
    }
}

/// Which answer: the command, `--json` or not, and whose (the leaderboard is everyone's).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) struct Asked {
    pub command: &'static str,
    pub json: bool,
    pub player: Option<i64>,
}

/// A kept answer's text and note.
pub(super) type Kept = Arc<(String, Option<String>)>;

/// The limits, the answers kept, and the log of the commands.
pub(super) struct Reads {
    versions: Arc<Versions>,
    buckets: Mutex<HashMap<Who, Bucket>>,
    cache: Mutex<HashMap<Asked, (u64, Kept)>>,
    log: Mutex<LogBudget>,
}

/// Who a rate is counted for.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Who {
    Address(IpAddr),
    Key(String),
}

impl Reads {
    pub(super) fn new(versions: Arc<Versions>) -> Reads {
        Reads {
            versions,
            buckets: Mutex::new(HashMap::new()),
            cache: Mutex::new(HashMap::new()),
            log: Mutex::new(LogBudget::new("commands")),
        }
    }

    /// Takes a request of `address` (and `key`, for a client with one) at
    /// `now`; `Err` with how long to wait when either has asked too often.
    pub(super) fn admit(
        &self,
        address: IpAddr,
        key: Option<&str>,
        now: Instant,
    ) -> Result<(), Duration> {
        let mut buckets = self.buckets.lock().unwrap_or_else(PoisonError::into_inner);
        if buckets.len() > TRACKED {
            buckets.retain(|_, bucket| !bucket.is_full(now));
        }
        let per_second = 1.0 / READ_EVERY.as_secs_f64();
        let mut whos = vec![Who::Address(address_key(address))];
        whos.extend(key.map(|key| Who::Key(key.to_string())));
        let mut wait = Duration::ZERO;
        for who in &whos {
            let bucket = buckets
                .entry(who.clone())
                .or_insert_with(|| Bucket::new(READ_BURST, per_second, now));
            if !bucket.take(now) {
                wait = wait.max(bucket.holds_at(1.0).saturating_duration_since(now));
            }
        }
        if wait.is_zero() { Ok(()) } else { Err(wait) }
    }

    /// What `asked` shows changes with this version.
    pub(super) fn version(&self, asked: &Asked) -> u64 {
        match asked.player {
            Some(player) => self.versions.of(player),
            None => self.versions.leaders.load(Ordering::SeqCst),
        }
    }

    /// The answer kept for `asked` at `version`, if there is one.
    pub(super) fn cached(&self, asked: &Asked, version: u64) -> Option<Kept> {
        let cache = self.cache.lock().unwrap_or_else(PoisonError::into_inner);
        cache
            .get(asked)
            .filter(|(kept, _)| *kept == version)
            .map(|(_, answer)| Arc::clone(answer))
    }

    /// Keeps `answer` for `asked` as of `version` (read at or after it).
    pub(super) fn keep(&self, asked: Asked, version: u64, answer: Kept) {
        let mut cache = self.cache.lock().unwrap_or_else(PoisonError::into_inner);
        if cache.len() >= CACHED {
            cache.clear();
        }
        cache.insert(asked, (version, answer));
    }

    /// One line in the commands' log, within their budget.
    pub(super) fn log(&self, message: std::fmt::Arguments) {
        self.log
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .log(message);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_or_a_key_asking_too_often_waits_and_answers_are_kept_until_they_change() {
        let reads = Reads::new(Arc::new(Versions::default()));
        let t0 = Instant::now();
        let here: IpAddr = "192.0.2.1".parse().unwrap();
        let there: IpAddr = "192.0.2.2".parse().unwrap();
        for _ in 0..READ_BURST {
            assert_eq!(reads.admit(here, None, t0), Ok(()));
        }
        assert_eq!(reads.admit(here, None, t0), Err(READ_EVERY));
        // Another address is not held up; the same key from it is, once spent.
        for _ in 0..READ_BURST {
            assert_eq!(reads.admit(there, Some("SHA256:k"), t0), Ok(()));
        }
        let third: IpAddr = "192.0.2.3".parse().unwrap();
        assert!(reads.admit(third, Some("SHA256:k"), t0).is_err());
        assert_eq!(reads.admit(here, None, t0 + READ_EVERY), Ok(()));

        let asked = Asked {
            command: "history",
            json: true,
            player: Some(7),
        };
        let version = reads.version(&asked);
        reads.keep(
            asked.clone(),
            version,
            Arc::new(("games".to_string(), None)),
        );
        assert!(reads.cached(&asked, reads.version(&asked)).is_some());
        reads.versions.written(&[7]);
        assert!(reads.cached(&asked, reads.version(&asked)).is_none());
    }
}

//! The store: the database on a thread of its own, reached by messages. Its
//! callers hand it jobs and never wait for SQLite under a lock of theirs: the
//! lobby hands it what to write and hears of each write's result through a
//! callback, in the order written; the commands ask it what to read and
//! await the answer.
//!
//! The thread also looks, every `--db-check` seconds and before every
//! write, whether the file at the database's path is still the one it has
//! open; once it is not (deleted, replaced), the store says so once
//! ([`Store::when_lost`]) and writes nothing more.
//!
//! Jobs come in two lanes. The game's lane (moves, results, new games,
//! sign-ins) goes first: a job waiting there is taken before any read
//! waiting, so a flood of reads delays a move by at most the one read
//! running. The reading lane (leaderboards, histories) takes the rest of
//! the thread's time, oldest first.

mod database;

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use tokio::sync::oneshot;

use crate::reads::Versions;

pub use database::StoreProblem;
pub(crate) use database::{
    Account, Database, Finish, Flag, Kind, Lost, NewGame, Rating, StoredGame, StoredMove,
    WriteError, default_path,
};

/// A job for the store's thread: it runs with the database.
type Job = Box<dyn FnOnce(&mut Database) + Send>;

/// Which jobs a job goes before.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Lane {
    /// The game's own work: taken before any read waiting.
    Game,
    /// Reads for commands: taken when no game's job waits.
    Reading,
}

#[derive(Default)]
struct Queues {
    game: VecDeque<Job>,
    reading: VecDeque<Job>,
    closed: bool,
}

/// What is told once the database file is lost.
type LostHandler = Box<dyn FnOnce(Lost) + Send>;

struct Shared {
    queues: Mutex<Queues>,
    ready: Condvar,
    when_lost: Mutex<Option<LostHandler>>,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Queues> {
        self.queues.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The database behind its thread.
pub(crate) struct Store {
    shared: Arc<Shared>,
    thread: Mutex<Option<JoinHandle<()>>>,
    versions: Arc<Versions>,
}

impl Store {
    /// Starts the thread that owns `database`, looking every `check` at
    /// whether its file is still there.
    pub(crate) fn start(database: Database, check: Duration) -> Store {
        let shared = Arc::new(Shared {
            queues: Mutex::new(Queues::default()),
            ready: Condvar::new(),
            when_lost: Mutex::new(None),
        });
        let thread = {
            let shared = Arc::clone(&shared);
            std::thread::Builder::new()
                .name("store".to_string())
                .spawn(move || work(&shared, database, check))
                .expect("the store's thread starts")
        };
        Store {
            shared,
            thread: Mutex::new(Some(thread)),
            versions: Arc::new(Versions::default()),
        }
    }

    /// What changes what the commands show, moved on by each write.
    pub(crate) fn versions(&self) -> Arc<Versions> {
        Arc::clone(&self.versions)
    }

    fn send(&self, lane: Lane, job: Job) -> bool {
        let mut queues = self.shared.lock();
        if queues.closed {
            return false;
        }
        match lane {
            Lane::Game => queues.game.push_back(job),
            Lane::Reading => queues.reading.push_back(job),
        }
        drop(queues);
        self.shared.ready.notify_one();
        true
    }

    /// Has `handler` told (on the store's thread) when the database file is
    /// found deleted or replaced.
    pub(crate) fn when_lost(&self, handler: impl FnOnce(Lost) + Send + 'static) {
        *self
            .shared
            .when_lost
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Some(Box::new(handler));
    }

    /// Runs `job` on the game's lane, in order with the other writes, and
    /// then `done` with its result, on the store's thread. Nothing runs
    /// once the store is closed.
    pub(crate) fn write<T: 'static>(
        &self,
        job: impl FnOnce(&mut Database) -> T + Send + 'static,
        done: impl FnOnce(T) + Send + 'static,
    ) {
        self.send(Lane::Game, Box::new(move |db| done(job(db))));
    }

    /// Runs `job` on `lane` and answers with its result; `None` when the
    /// store is closed.
    pub(crate) async fn ask<T: Send + 'static>(
        &self,
        lane: Lane,
        job: impl FnOnce(&mut Database) -> T + Send + 'static,
    ) -> Option<T> {
        let (answer, answered) = oneshot::channel();
        let sent = self.send(
            lane,
            Box::new(move |db| {
                let _ = answer.send(job(db));
            }),
        );
        if !sent {
            return None;
        }
        answered.await.ok()
    }

    /// As [`Store::ask`], waiting on this thread: for the start, before the
    /// server runs, and for tests.
    pub(crate) fn ask_now<T: Send + 'static>(
        &self,
        job: impl FnOnce(&mut Database) -> T + Send + 'static,
    ) -> Option<T> {
        let (answer, answered) = std::sync::mpsc::channel();
        let sent = self.send(
            Lane::Game,
            Box::new(move |db| {
                let _ = answer.send(job(db));
            }),
        );
        if !sent {
            return None;
        }
        answered.recv().ok()
    }

    /// Waits until every job of the game's lane handed over so far is done,
    /// its callback included. Never under a lock a callback takes.
    #[cfg(test)]
    pub(crate) fn settle(&self) {
        self.ask_now(|_| ());
    }

    /// Takes no more jobs, finishes those handed over, and stops the thread.
    pub(crate) fn close(&self) {
        self.shared.lock().closed = true;
        self.shared.ready.notify_one();
        let thread = self
            .thread
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        // The last handle may go on the store's own thread (a job holding
        // it): that thread ends once its queue is empty, unjoined.
        if let Some(thread) = thread.filter(|t| t.thread().id() != std::thread::current().id()) {
            let _ = thread.join();
        }
    }
}

impl Drop for Store {
    fn drop(&mut self) {
        self.close();
    }
}

/// The store's thread: the game's lane first, then the reads, until closed
/// and empty; every `check`, whether the file is still the one open.
fn work(shared: &Shared, mut database: Database, check: Duration) {
    let mut next_check = Instant::now() + check;
    loop {
        let job = {
            let mut queues = shared.lock();
            loop {
                if let Some(job) = queues.game.pop_front() {
                    break Some(job);
                }
                if let Some(job) = queues.reading.pop_front() {
                    break Some(job);
                }
                if queues.closed {
                    return;
                }
                let wait = next_check.saturating_duration_since(Instant::now());
                if wait.is_zero() {
                    break None;
                }
                queues = shared
                    .ready
                    .wait_timeout(queues, wait)
                    .unwrap_or_else(PoisonError::into_inner)
                    .0;
            }
        };
        if Instant::now() >= next_check {
            next_check = Instant::now() + check;
            if let Err(lost) = database.intact() {
                let handler = shared
                    .when_lost
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .take();
                if let Some(handler) = handler {
                    handler(lost);
                }
            }
        }
        if let Some(job) = job {
            job(&mut database);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_game_lane_goes_before_reads_waiting_and_writes_keep_their_order() {
        let dir = tempfile::tempdir().expect("a folder");
        let database = Database::open(&dir.path().join("store.db")).expect("a database");
        let store = Store::start(database, Duration::from_secs(60));
        let (hold, held) = std::sync::mpsc::channel::<()>();
        let order = Arc::new(Mutex::new(Vec::new()));
        // The thread waits inside a first job while the others queue up.
        store.write(move |_| held.recv().ok(), |_| ());
        for (lane, name) in [
            (Lane::Reading, "read 1"),
            (Lane::Game, "write 1"),
            (Lane::Reading, "read 2"),
            (Lane::Game, "write 2"),
        ] {
            let order = Arc::clone(&order);
            store.send(
                lane,
                Box::new(move |_| order.lock().expect("order").push(name)),
            );
        }
        hold.send(()).expect("the first job waits");
        store.close();
        assert_eq!(
            *order.lock().expect("order"),
            ["write 1", "write 2", "read 1", "read 2"]
        );
        assert_eq!(store.ask_now(|_| 1), None, "closed");
    }

    #[test]
    fn a_database_file_deleted_is_told_once_and_refuses_writes() {
        let dir = tempfile::tempdir().expect("a folder");
        let path = dir.path().join("store.db");
        let database = Database::open(&path).expect("a database");
        let store = Store::start(database, Duration::from_millis(10));
        let (told, heard) = std::sync::mpsc::channel();
        store.when_lost(move |lost| told.send(lost.to_string()).expect("heard"));
        std::fs::remove_file(&path).expect("deleted");
        let said = heard
            .recv_timeout(Duration::from_secs(30))
            .expect("told within the check");
        assert!(
            said.ends_with("store.db was deleted while the server ran"),
            "{said}"
        );
        let signed = store
            .ask_now(|db| db.sign_in("SHA256:a", "alice").map(|_| ()))
            .expect("answered");
        assert!(matches!(signed, Err(WriteError::Lost(Lost::Deleted(_)))));
    }
}

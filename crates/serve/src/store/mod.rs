//! The store: the database on a thread of its own, reached by messages. Its
//! callers hand it jobs and never wait for SQLite under a lock of theirs: the
//! lobby hands it what to write and hears of each write's result through a
//! callback, in the order written; the commands ask it what to read and
//! await the answer.
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

use tokio::sync::oneshot;

pub use database::StoreProblem;
pub(crate) use database::{
    Account, Database, Finish, Kind, NewGame, Rating, StoredGame, StoredMove, default_path,
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

struct Shared {
    queues: Mutex<Queues>,
    ready: Condvar,
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
}

impl Store {
    /// Starts the thread that owns `database`.
    pub(crate) fn start(database: Database) -> Store {
        let shared = Arc::new(Shared {
            queues: Mutex::new(Queues::default()),
            ready: Condvar::new(),
        });
        let thread = {
            let shared = Arc::clone(&shared);
            std::thread::Builder::new()
                .name("store".to_string())
                .spawn(move || work(&shared, database))
                .expect("the store's thread starts")
        };
        Store {
            shared,
            thread: Mutex::new(Some(thread)),
        }
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
        if let Some(thread) = thread {
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
/// and empty.
fn work(shared: &Shared, mut database: Database) {
    loop {
        let job = {
            let mut queues = shared.lock();
            loop {
                if let Some(job) = queues.game.pop_front() {
                    break job;
                }
                if let Some(job) = queues.reading.pop_front() {
                    break job;
                }
                if queues.closed {
                    return;
                }
                queues = shared
                    .ready
                    .wait(queues)
                    .unwrap_or_else(PoisonError::into_inner);
            }
        };
        job(&mut database);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_game_lane_goes_before_reads_waiting_and_writes_keep_their_order() {
        let dir = tempfile::tempdir().expect("a folder");
        let database = Database::open(&dir.path().join("store.db")).expect("a database");
        let store = Store::start(database);
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
}

//! A thread that does a session's writing, so a file locked by another
//! program (or slow to reach) delays the writing, never the game: the game
//! hands each job over and goes on.

use std::fmt;
use std::sync::mpsc::{self, Sender};
use std::thread::{self, JoinHandle};

/// Jobs done in order on a thread of their own; what some of them leave
/// (an error, a note) is kept and handed back by [`Background::finish`].
pub struct Background<J, R> {
    jobs: Option<Sender<J>>,
    thread: Option<JoinHandle<Vec<R>>>,
}

impl<J: Send + 'static, R: Send + 'static> Background<J, R> {
    /// Starts the thread: `work` does each job handed over, in order, and
    /// says what to keep of it.
    pub fn start(mut work: impl FnMut(J) -> Option<R> + Send + 'static) -> Background<J, R> {
        let (jobs, incoming) = mpsc::channel::<J>();
        let thread = thread::spawn(move || incoming.into_iter().filter_map(&mut work).collect());
        Background {
            jobs: Some(jobs),
            thread: Some(thread),
        }
    }

    /// Hands a job over.
    pub fn send(&self, job: J) {
        if let Some(jobs) = &self.jobs {
            // The thread only ends when the jobs stop; a send cannot fail before that.
            let _ = jobs.send(job);
        }
    }

    /// Waits until every job handed over is done; returns what was kept, in order.
    pub fn finish(mut self) -> Vec<R> {
        drop(self.jobs.take());
        self.thread
            .take()
            .and_then(|thread| thread.join().ok())
            .unwrap_or_default()
    }
}

impl<J, R> fmt::Debug for Background<J, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Background")
            .field("running", &self.jobs.is_some())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jobs_are_done_in_order_and_what_they_leave_is_kept() {
        let worker = Background::start(|n: u32| (n % 2 == 1).then_some(n * 10));
        for n in 0..6 {
            worker.send(n);
        }
        assert_eq!(worker.finish(), [10, 30, 50]);
    }
}

//! The engine's work for every session, on a few threads of its own: the
//! network threads never wait for the engine, and no session can queue work
//! without end. Each session has one slot per kind of request (the AI's
//! move, explain's scores, their costs, the tree, a move of a game under
//! review, the quiz's answers); a slot holds at most one job waiting and one running. A newer
//! request of the same kind replaces the one waiting, which is then never
//! run, and a session that ends cancels what it left waiting. Slots take
//! turns, so a session asking for much waits behind the others' single jobs.

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread;

use tokio::sync::mpsc;

use tictactoe_screen::message::{Reply, Request};
use tictactoe_screen::worker::Worker;

/// The kinds of request, one slot each.
const KINDS: usize = 6;

fn kind(request: &Request) -> usize {
    match request {
        Request::Move { .. } => 0,
        Request::Explain { .. } => 1,
        // The panel shows the costs or the lab's ladder: one slot for both.
        Request::Costs { .. } | Request::Lab { .. } => 2,
        Request::Tree { .. } => 3,
        // The server's games are 3x3, reviewed without the engine's thread;
        // a slot of its own all the same, should bigger boards come.
        Request::Review { .. } => 4,
        Request::Quiz { .. } => 5,
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Answers requests: one per thread, made by the pool.
type Answer = Box<dyn FnMut(&Request) -> Reply + Send>;

/// The threads and the slots waiting for them, oldest first.
pub(super) struct Pool {
    queue: Mutex<VecDeque<Arc<Slot>>>,
    ready: Condvar,
}

#[derive(Default)]
struct SlotState {
    /// The newest request not yet started.
    waiting: Option<Request>,
    /// In the pool's queue or on a thread.
    active: bool,
    /// The session is gone.
    cancelled: bool,
}

struct Slot {
    state: Mutex<SlotState>,
    replies: mpsc::UnboundedSender<Reply>,
}

impl Pool {
    /// A pool of `threads` threads, each answering with the engine's worker.
    pub(super) fn start(threads: usize) -> Arc<Pool> {
        Pool::start_with(threads, || {
            let mut worker = Worker::default();
            Box::new(move |request: &Request| worker.answer(request))
        })
    }

    fn start_with(threads: usize, make: impl Fn() -> Answer) -> Arc<Pool> {
        let pool = Arc::new(Pool {
            queue: Mutex::default(),
            ready: Condvar::new(),
        });
        for _ in 0..threads {
            let pool = Arc::clone(&pool);
            let answer = make();
            thread::Builder::new()
                .name("engine".to_string())
                .spawn(move || pool.work(answer))
                .expect("an engine thread");
        }
        pool
    }

    fn push(&self, slot: Arc<Slot>) {
        lock(&self.queue).push_back(slot);
        self.ready.notify_one();
    }

    fn work(&self, mut answer: Answer) {
        loop {
            let slot = {
                let mut queue = lock(&self.queue);
                loop {
                    if let Some(slot) = queue.pop_front() {
                        break slot;
                    }
                    queue = self
                        .ready
                        .wait(queue)
                        .unwrap_or_else(PoisonError::into_inner);
                }
            };
            let request = {
                let mut state = lock(&slot.state);
                match state.waiting.take().filter(|_| !state.cancelled) {
                    Some(request) => request,
                    None => {
                        state.active = false;
                        continue;
                    }
                }
            };
            let reply = answer(&request);
            let _ = slot.replies.send(reply);
            let mut state = lock(&slot.state);
            if state.waiting.is_some() && !state.cancelled {
                drop(state);
                // To the back of the queue: the others' jobs go first.
                self.push(slot);
            } else {
                state.active = false;
            }
        }
    }
}

/// One session's slots.
pub(super) struct Jobs {
    pool: Arc<Pool>,
    slots: [Arc<Slot>; KINDS],
}

impl Jobs {
    /// Slots whose replies go to `replies`.
    pub(super) fn new(pool: &Arc<Pool>, replies: &mpsc::UnboundedSender<Reply>) -> Jobs {
        Jobs {
            pool: Arc::clone(pool),
            slots: std::array::from_fn(|_| {
                Arc::new(Slot {
                    state: Mutex::default(),
                    replies: replies.clone(),
                })
            }),
        }
    }

    /// Hands a request to the engine, replacing one of its kind still waiting.
    pub(super) fn submit(&self, request: Request) {
        let slot = &self.slots[kind(&request)];
        let mut state = lock(&slot.state);
        state.waiting = Some(request);
        if !state.active {
            state.active = true;
            drop(state);
            self.pool.push(Arc::clone(slot));
        }
    }
}

impl Drop for Jobs {
    fn drop(&mut self) {
        for slot in &self.slots {
            let mut state = lock(&slot.state);
            state.cancelled = true;
            state.waiting = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc as std_mpsc;
    use std::time::Duration;

    use super::*;
    use tictactoe_engine::{Board, Scoring, Square};
    use tictactoe_screen::message::Costs;

    fn costs(board: Board) -> Request {
        Request::Costs {
            board,
            scoring: Scoring::Depth,
        }
    }

    /// A pool of one thread whose jobs each wait for a go-ahead, and tell
    /// which board they started on.
    fn gated() -> (Arc<Pool>, std_mpsc::Sender<()>, std_mpsc::Receiver<Board>) {
        let (go, gate) = std_mpsc::channel::<()>();
        let (started_tx, started) = std_mpsc::channel();
        let gate = Mutex::new(gate);
        let gate = Arc::new(gate);
        let pool = Pool::start_with(1, move || {
            let (gate, started) = (Arc::clone(&gate), started_tx.clone());
            Box::new(move |request: &Request| {
                let Request::Costs { board, .. } = request else {
                    unreachable!()
                };
                started.send(*board).unwrap();
                lock(&gate).recv().unwrap();
                Reply::Costs {
                    board: *board,
                    costs: Costs {
                        minimax: None,
                        alpha_beta: None,
                        search: None,
                        search_time: None,
                    },
                }
            })
        });
        (pool, go, started)
    }

    fn board(moves: &[(u8, u8)]) -> Board {
        moves.iter().fold(Board::new(), |b, &(r, c)| {
            b.play(Square::new(r, c)).unwrap()
        })
    }

    #[test]
    fn the_newest_request_replaces_the_one_waiting() {
        let (pool, go, started) = gated();
        let (replies_tx, mut replies) = mpsc::unbounded_channel();
        let jobs = Jobs::new(&pool, &replies_tx);
        let boards: Vec<Board> = (0..9u8).map(|i| board(&[(i / 3, i % 3)])).collect();
        jobs.submit(costs(boards[0]));
        assert_eq!(started.recv().unwrap(), boards[0]);
        // Of the eight asked while the first runs, only the last will.
        for &b in &boards[1..] {
            jobs.submit(costs(b));
        }
        go.send(()).unwrap();
        assert_eq!(started.recv().unwrap(), boards[8]);
        go.send(()).unwrap();
        let mut answered = Vec::new();
        for _ in 0..2 {
            let reply = replies.blocking_recv().unwrap();
            let Reply::Costs { board, .. } = reply else {
                unreachable!()
            };
            answered.push(board);
        }
        assert_eq!(answered, vec![boards[0], boards[8]]);
        assert!(started.recv_timeout(Duration::from_millis(200)).is_err());
    }

    #[test]
    fn a_session_gone_leaves_nothing_to_run_and_others_take_turns() {
        let (pool, go, started) = gated();
        let (replies_tx, _replies) = mpsc::unbounded_channel();
        let busy = Jobs::new(&pool, &replies_tx);
        let other = Jobs::new(&pool, &replies_tx);
        let gone = Jobs::new(&pool, &replies_tx);
        busy.submit(costs(board(&[(0, 0)])));
        assert_eq!(started.recv().unwrap(), board(&[(0, 0)]));
        // While it runs: another job of busy's, then other's, then one of a session that leaves.
        busy.submit(costs(board(&[(0, 1)])));
        other.submit(costs(board(&[(1, 1)])));
        gone.submit(costs(board(&[(2, 2)])));
        drop(gone);
        // The other session's job before busy's second; nothing of the one gone.
        go.send(()).unwrap();
        assert_eq!(started.recv().unwrap(), board(&[(1, 1)]));
        go.send(()).unwrap();
        assert_eq!(started.recv().unwrap(), board(&[(0, 1)]));
        go.send(()).unwrap();
        assert!(started.recv_timeout(Duration::from_millis(200)).is_err());
    }
}

//! The engine's side of the game screen: answers the model's requests. The
//! front ends run it on a thread of their own, so a long think never
//! freezes a screen.

use std::sync::mpsc::{self, Sender};
use std::thread;

use super::message::{Costs, Reply, Request};
use tictactoe_engine::solve;
use tictactoe_engine::teach::reference::{Algorithm, best_move, is_countable, tree_size};
use tictactoe_engine::teach::tree::below;
use tictactoe_engine::{Ai, Board, Limits, Scoring, analyze_by_search};
use tictactoe_game::quiz::Question;
use tictactoe_game::review::review_one;
use tictactoe_grade::lab::{self, ladder};

/// Answers requests with one AI, which on bigger boards remembers what it
/// searched for earlier requests.
pub struct Worker {
    ai: Ai,
}

impl Default for Worker {
    fn default() -> Worker {
        Worker { ai: Ai::new() }
    }
}

impl Worker {
    /// Does the work a request asks for.
    pub fn answer(&mut self, request: &Request) -> Reply {
        match request {
            Request::Move {
                id,
                board,
                level,
                dice,
                limits,
            } => {
                let mut dice = dice.clone();
                let decision = self.ai.choose(board, *level, &mut dice, *limits);
                Reply::Move {
                    id: *id,
                    decision,
                    dice,
                }
            }
            Request::Explain { board, limits } => {
                let analysis = self.ai.analyze(board, *limits);
                let lines = self.ai.lines(&analysis);
                Reply::Explain { analysis, lines }
            }
            Request::Tree { board, limits } => {
                let analysis = self.ai.analyze(board, *limits);
                let below = below(&analysis);
                Reply::Tree { analysis, below }
            }
            Request::Review {
                id,
                ply,
                board,
                mv,
                limits,
            } => Reply::Review {
                id: *id,
                ply: *ply,
                review: review_one(board, *mv, *limits, &mut self.ai),
            },
            Request::Lab { board, scoring } => {
                Reply::Lab(ladder(board, *scoring, lab::DEFAULT_BUDGET))
            }
            Request::Quiz { questions } => Reply::Quiz {
                solved: questions.iter().map(Question::solve).collect(),
            },
            Request::Costs { board, scoring } => Reply::Costs {
                board: *board,
                costs: costs(board, *scoring),
            },
        }
    }
}

/// What scoring every move of `board` costs each way, scores counted by
/// `scoring`. Plain minimax's calls are read from the compiled table on 3x3
/// (the tree below the position), not made again.
pub fn costs(board: &Board, scoring: Scoring) -> Costs {
    let countable = is_countable(board);
    let search = board
        .is_classic()
        .then(|| analyze_by_search(board, Limits::ToTheEnd));
    Costs {
        // Plain minimax calls every position once per path: the tree's size
        // (on 3x3 read from the compiled table), not a fresh count. Call 1,
        // the position itself, is one of them, as in the trace.
        minimax: countable.then(|| tree_size(board)),
        alpha_beta: countable.then(|| {
            1 + best_move(board, Algorithm::AlphaBeta, scoring).map_or(0, |best| best.calls)
        }),
        search: search.as_ref().map(|search| search.nodes()),
        search_time: search.map(|search| search.elapsed),
    }
}

/// Proves the book of `start`'s shape ([`solve::book`]) on a thread of its
/// own, so that the AI's first move on a bigger board need not wait for it:
/// at most a second or two of work, once per process (3x3 has its table).
pub fn warm_up(start: &Board) {
    if start.is_classic() {
        return;
    }
    let geometry = start.geometry();
    thread::spawn(move || {
        solve::book(geometry);
    });
}

/// Starts a worker on a thread of its own: requests go in through the
/// returned sender, each reply goes to `deliver`, which returns false once
/// nobody wants replies any more. The thread ends when the sender is dropped.
pub fn spawn(mut deliver: impl FnMut(Reply) -> bool + Send + 'static) -> Sender<Request> {
    let (requests, incoming) = mpsc::channel::<Request>();
    thread::spawn(move || {
        // One worker for the session: on big boards it keeps what it searched.
        let mut worker = Worker::default();
        for request in incoming {
            if !deliver(worker.answer(&request)) {
                break;
            }
        }
    });
    requests
}

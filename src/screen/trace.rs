//! The walkthrough opened with `c`: the seed's plain minimax from the
//! position on the board, one call per key press, as `tictactoe trace`
//! prints it. The board shows the call's position, the panel beside it the
//! calls still open (the call stack) and what returned since the last step.

use super::message::Said;
use crate::engine::teach::reference::{Algorithm, is_countable, minimax, tree_size};
use crate::engine::teach::trace::{Call, Step, Walk};
use crate::engine::{Board, Move, Scoring, Status, first_best};
use crate::text::{signed, thousands};

/// A call that returned, and what.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Returned {
    /// The call.
    pub call: Call,
    /// Its score.
    pub score: i32,
}

/// The walkthrough's state.
#[derive(Debug, Clone)]
pub struct Walkthrough {
    start: Board,
    walk: Walk,
    /// The calls begun and not returned, call 1 first; the last is the current call.
    stack: Vec<Call>,
    /// Calls that returned since the last call began, in order.
    returned: Vec<Returned>,
    /// Call 1's replies that have returned: the move, its score, its call.
    replies: Vec<Returned>,
    /// Call 1's score, once the walk is over.
    result: Option<i32>,
    total: Option<u64>,
}

impl Walkthrough {
    /// A walk of the seed's minimax from `board`, at call 1.
    pub fn new(board: Board) -> Walkthrough {
        let mut walkthrough = Walkthrough {
            start: board,
            walk: Walk::new(&board, Algorithm::Minimax, Scoring::Depth),
            stack: Vec::new(),
            returned: Vec::new(),
            replies: Vec::new(),
            result: None,
            // Counted where quick, so the walkthrough can say "call 7 of 9".
            total: is_countable(&board).then(|| tree_size(&board)),
        };
        walkthrough.step();
        walkthrough
    }

    /// The next call: the calls that end before it return on the way.
    /// Once call 1 has returned, starts again.
    pub fn step(&mut self) {
        if self.result.is_some() {
            *self = Walkthrough::new(self.start);
            return;
        }
        self.returned.clear();
        for step in self.walk.by_ref() {
            match step {
                Step::Enter(call) => {
                    self.stack.push(call);
                    return;
                }
                Step::Return(done) => {
                    let Some(call) = self.stack.pop() else { break };
                    let returned = Returned {
                        call,
                        score: done.score,
                    };
                    self.returned.push(returned);
                    match call.parent {
                        None => self.result = Some(done.score),
                        Some(1) => self.replies.push(returned),
                        Some(_) => {}
                    }
                }
            }
        }
    }

    /// The position traced.
    pub fn start(&self) -> Board {
        self.start
    }

    /// The call shown: the latest one begun, or call 1 once it has returned.
    pub fn current(&self) -> Option<&Call> {
        self.stack.last()
    }

    /// The position to show on the board: the current call's, or the start
    /// once the walk is over.
    pub fn board(&self) -> Board {
        self.current().map_or(self.start, |call| call.board)
    }

    /// The moves from the start to the current call's position.
    pub fn path(&self) -> Vec<Move> {
        self.stack.iter().filter_map(|call| call.mv).collect()
    }

    /// Call 1's score once the walk is over.
    pub fn result(&self) -> Option<i32> {
        self.result
    }

    /// The best move once the walk is over: the first of call 1's replies
    /// with the highest score, as `findBestMove` keeps it.
    pub fn best(&self) -> Option<Returned> {
        first_best(self.replies.iter().copied(), |reply| reply.score)
    }

    /// The status line: what the current call is.
    pub fn status(&self) -> String {
        match (self.current(), self.best()) {
            (Some(call), _) => format!("Minimax call {}: {}", thousands(call.number), role(call)),
            (None, Some(best)) => format!(
                "Call 1 returned {}: best move {}",
                signed(best.score),
                best.call.mv.map_or(String::new(), Move::coordinate)
            ),
            (None, None) => format!(
                "Call 1 returned {}: the game is over",
                signed(self.result.unwrap_or(0))
            ),
        }
    }

    /// What the panel beside the board says, with importance (1 kept longest).
    pub fn items(&self) -> Vec<(u8, Said)> {
        let mut items: Vec<(u8, Said)> = Vec::new();
        items.push((3, Said::Faint(format!("From {}:", self.start))));
        items.push((2, Said::Figure(" call  move".into(), "turn   best".into())));
        let best = self.walk.best_so_far().collect::<Vec<_>>();
        for (i, call) in self.stack.iter().enumerate() {
            let mv = call.mv.map_or(String::new(), |mv| {
                format!("{} {}", mv.coordinate(), call.board.to_move().other())
            });
            let side = call.board.to_move();
            let turn = call.role;
            let so_far = match (finished(call), best.get(i).copied().flatten()) {
                (Some(score), _) => signed(score),
                (None, Some(value)) if call.role.is_max() => format!(">={}", signed(value)),
                (None, Some(value)) => format!("<={}", signed(value)),
                (None, None) => "…".to_string(),
            };
            let label = format!("{:>5}  {mv}", thousands(call.number));
            // A deep stack keeps call 1 and the current call, then the calls
            // nearest the current one: they are what the next steps return to.
            let below = self.stack.len() - 1 - i;
            let importance = if i == 0 || below == 0 {
                1
            } else {
                u8::try_from(below).map_or(u8::MAX, |below| below.saturating_add(3))
            };
            items.push((
                importance,
                Said::Figure(label, format!("{side} {turn}  {so_far:>5}")),
            ));
        }
        items.push((6, Said::Gap));
        for returned in &self.returned {
            let end = match returned.call.board.status() {
                ended @ (Status::Won(_) | Status::Draw) => format!(": {ended}"),
                Status::InProgress { .. } => {
                    format!(", the {} of its calls", returned.call.role)
                }
            };
            let text = format!(
                "call {} returned {}{end}",
                thousands(returned.call.number),
                signed(returned.score)
            );
            items.push((2, Said::Faint(text)));
        }
        if let Some(best) = self.best().filter(|_| self.current().is_none()) {
            let mv = best.call.mv.map_or(String::new(), Move::coordinate);
            let text = format!(
                "Best move {mv} (call {}): the first reply with the highest score.",
                best.call.number
            );
            items.push((1, Said::Text(text)));
        }
        let progress = match (self.current(), self.total) {
            (Some(call), Some(total)) => {
                format!("call {} of {}", thousands(call.number), thousands(total))
            }
            (Some(call), None) => format!("call {}", thousands(call.number)),
            (None, _) => format!("{} calls", thousands(self.walk.calls())),
        };
        items.push((6, Said::Gap));
        items.push((3, Said::Faint(progress)));
        items
    }

    /// The same in a few words, for a screen with no room for the panel.
    pub fn summary_items(&self) -> Vec<(u8, Said)> {
        let mut items: Vec<(u8, Said)> = Vec::new();
        let chain: Vec<String> = self
            .stack
            .iter()
            .map(|call| thousands(call.number))
            .collect();
        if !chain.is_empty() {
            items.push((1, Said::Text(format!("calls open: {}", chain.join(" › ")))));
        }
        for returned in &self.returned {
            let text = format!(
                "call {} returned {}",
                thousands(returned.call.number),
                signed(returned.score)
            );
            items.push((2, Said::Text(text)));
        }
        if let (Some(call), Some(total)) = (self.current(), self.total) {
            let text = format!("{} of {}", thousands(call.number), thousands(total));
            items.push((3, Said::Text(text)));
        }
        items
    }
}

/// The seed's score of a finished position, which its call returns at once.
fn finished(call: &Call) -> Option<i32> {
    call.board
        .status()
        .is_over()
        .then(|| minimax(&call.board, call.depth as i32, call.role.is_max()))
}

/// Whose turn it is in a call and what it does: "X to move, maximizes".
fn role(call: &Call) -> String {
    match call.board.status() {
        Status::InProgress { to_move } => {
            format!("{to_move} to move, {}", call.role.verb())
        }
        Status::Won(winner) => format!(
            "{winner} won, returns {}",
            signed(finished(call).unwrap_or(0))
        ),
        Status::Draw => "a draw, returns 0".to_string(),
    }
}

//! The walkthrough opened with `c`: the articles' minimax from the position on
//! the board, call by call, as `tictactoe trace` prints it, driven from the
//! keyboard: the next call, back one call, the rest of the current call, the
//! last call, and alpha-beta's pruning at every call. The board shows the
//! call's position, the panel beside it the calls still open (the call
//! stack, never cut without saying so) and what returned since the last step.

use super::message::Said;
use tictactoe_engine::teach::reference::{Algorithm, Bound, Window, is_countable, tree_size};
use tictactoe_engine::teach::trace::{Call, Step, Walk};
use tictactoe_engine::{Board, CellSet, Scoring, Square, Status, first_best};
use tictactoe_game::fit::wrap_words;
use tictactoe_game::present::teach::{self, call_move, cut_moves, turn};
use tictactoe_game::present::{bounded, cut_reason, ended, role_does, role_name};
use tictactoe_game::text::{count, signed, thousands};

/// A call that returned, and what.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Returned {
    /// The call.
    pub call: Call,
    /// Its score.
    pub score: i32,
    /// The value, or a bound on it (alpha-beta).
    pub bound: Bound,
    /// The replies it did not search (alpha-beta).
    pub cut: CellSet,
}

/// Where a walk stands: after a call began, or after one returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stop {
    /// The latest call began.
    Entered,
    /// A call returned and nothing began since (`f` stops here).
    Returned,
    /// Call 1 returned: the walk is over.
    Over,
}

/// Most of the calls that returned since the last step the panel lists.
const RETURNS_KEPT: usize = 6;

/// Calls between two saved places of a walk at first, from which going
/// back replays; the spacing doubles whenever [`MOST_CHECKPOINTS`] are kept,
/// so a walk of any length keeps a few dozen places and going back replays
/// a small part of it.
const CHECKPOINT_EVERY: u64 = 2048;
/// Most places of a walk kept.
const MOST_CHECKPOINTS: usize = 64;

/// Steps of a walk (a call beginning or returning) taken at once: a few
/// milliseconds' work. A run to a call far away (`f`, `G`, going back
/// after a long run) takes this many and then waits for
/// [`Walkthrough::work`], so the screen answers keys between them.
pub const SLICE: u64 = 1 << 16;

/// Where a run through many calls stops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Goal {
    /// The current call returns (`f`): the stack is this deep again.
    Return(usize),
    /// Call 1 returns (`G`).
    End,
    /// This call begins (going back, replayed from a saved place).
    Call(u64),
}

/// Where a run to a call far away stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Running {
    /// Where it goes: the end, the end of a call, or back to a call.
    goal: Goal,
    /// Calls begun when it started.
    from: u64,
}

impl Running {
    /// True for a run straight to the end (`G`).
    pub fn to_end(&self) -> bool {
        self.goal == Goal::End
    }
}

/// A walk and where it stands; cheap to copy, since the walk keeps only the
/// calls still open.
#[derive(Debug, Clone)]
struct State {
    walk: Walk,
    stop: Stop,
    /// The calls begun and not returned, call 1 first; the last is the current call.
    stack: Vec<Call>,
    /// The latest calls that returned since the last step, oldest first.
    returned: Vec<Returned>,
    /// How many returned since the last step, all told.
    returned_count: u64,
    /// Call 1's replies that have returned: the move, its score, its call.
    replies: Vec<Returned>,
    /// What call 1 returned, once the walk is over.
    result: Option<Returned>,
}

impl State {
    fn new(board: &Board, algorithm: Algorithm, scoring: Scoring) -> State {
        State {
            walk: Walk::new(board, algorithm, scoring),
            stop: Stop::Over,
            stack: Vec::new(),
            returned: Vec::new(),
            returned_count: 0,
            replies: Vec::new(),
            result: None,
        }
    }

    /// Calls begun so far.
    fn calls(&self) -> u64 {
        self.walk.calls()
    }

    /// Takes one step of the walk; false once there is none left.
    fn advance(&mut self) -> bool {
        match self.walk.next() {
            Some(Step::Enter(call)) => {
                self.stack.push(call);
                self.stop = Stop::Entered;
                true
            }
            Some(Step::Return(done)) => {
                let Some(call) = self.stack.pop() else {
                    return false;
                };
                let returned = Returned {
                    call,
                    score: done.score,
                    bound: done.bound,
                    cut: done.cut,
                };
                self.returned_count += 1;
                if self.returned.len() == RETURNS_KEPT {
                    self.returned.remove(0);
                }
                self.returned.push(returned);
                match call.parent {
                    None => self.result = Some(returned),
                    Some(1) => self.replies.push(returned),
                    Some(_) => {}
                }
                self.stop = if call.parent.is_none() {
                    Stop::Over
                } else {
                    Stop::Returned
                };
                true
            }
            None => false,
        }
    }

    /// Forgets what returned before this step.
    fn begin_step(&mut self) {
        self.returned.clear();
        self.returned_count = 0;
    }
}

/// The walkthrough's state.
#[derive(Debug, Clone)]
pub struct Walkthrough {
    start: Board,
    algorithm: Algorithm,
    scoring: Scoring,
    state: State,
    /// The walk as it stood when calls 1, 1 + `spacing`, 1 + 2 `spacing`, … began.
    checkpoints: Vec<State>,
    /// Calls between two of the `checkpoints`.
    spacing: u64,
    /// Calls of the whole walk, where counted.
    total: Option<u64>,
    /// Alpha-beta's walk, counted a slice at a time for `total`.
    counting: Option<Walk>,
    /// A run to a call far away, under way.
    running: Option<Running>,
}

impl Walkthrough {
    /// A walk of the articles' plain minimax from `board`, at call 1.
    pub fn new(board: Board, scoring: Scoring) -> Walkthrough {
        Walkthrough::with(board, Algorithm::Minimax, scoring)
    }

    fn with(board: Board, algorithm: Algorithm, scoring: Scoring) -> Walkthrough {
        // Counted where quick, so the walkthrough can say "call 7 of 9":
        // plain minimax's calls are the tree's size, alpha-beta's are
        // counted by walking it, a slice at a time.
        let countable = is_countable(&board);
        let (total, counting) = match algorithm {
            Algorithm::Minimax => (countable.then(|| tree_size(&board)), None),
            Algorithm::AlphaBeta => (
                None,
                countable.then(|| Walk::new(&board, algorithm, scoring)),
            ),
        };
        let mut walkthrough = Walkthrough {
            start: board,
            algorithm,
            scoring,
            state: State::new(&board, algorithm, scoring),
            checkpoints: Vec::new(),
            spacing: CHECKPOINT_EVERY,
            total,
            counting,
            running: None,
        };
        walkthrough.next();
        walkthrough.count(SLICE);
        walkthrough
    }

    /// Counts up to `steps` more of alpha-beta's walk for the total.
    fn count(&mut self, steps: u64) {
        let Some(walk) = self.counting.as_mut() else {
            return;
        };
        if walk.by_ref().take(steps as usize).count() < steps as usize {
            self.total = Some(walk.calls());
            self.counting = None;
        }
    }

    /// The run to a call far away under way, if any: keys but Esc wait
    /// until it is over or stopped.
    pub fn running(&self) -> Option<Running> {
        self.running
    }

    /// True while work is left for [`Walkthrough::work`]: a run under way,
    /// or the walk's calls still being counted.
    pub fn busy(&self) -> bool {
        self.running.is_some() || self.counting.is_some()
    }

    /// Does up to `steps` steps of what is under way: the run first, then
    /// counting the calls.
    pub fn work(&mut self, steps: u64) {
        if self.running.is_some() {
            self.run(steps);
        } else {
            self.count(steps);
        }
    }

    /// Stops the run under way where it got to (Esc): the calls it walked
    /// stay walked.
    pub fn stop(&mut self) {
        self.running = None;
    }

    /// Starts a run to `goal`, and takes its first slice at once: a short
    /// run is over before the screen is drawn again.
    fn start_run(&mut self, goal: Goal) {
        self.running = Some(Running {
            goal,
            from: self.state.calls(),
        });
        self.run(SLICE);
    }

    /// Up to `steps` steps of the run under way; it ends at its goal, or
    /// at the end of the walk.
    fn run(&mut self, steps: u64) {
        let Some(Running { goal, .. }) = self.running else {
            return;
        };
        for _ in 0..steps {
            if !self.state.advance() {
                self.running = None;
                return;
            }
            let entered = self.state.stop == Stop::Entered;
            if entered {
                self.keep_place();
            }
            let reached = match goal {
                Goal::Return(depth) => self.state.stack.len() == depth,
                Goal::End => self.state.stop == Stop::Over,
                Goal::Call(target) if entered && self.state.calls() < target => {
                    // Each call before the target is a step of its own, as
                    // `next` takes them: what returned is since the last.
                    self.state.begin_step();
                    false
                }
                Goal::Call(target) => entered && self.state.calls() >= target,
            };
            if reached || self.state.stop == Stop::Over {
                self.running = None;
                return;
            }
        }
    }

    /// Saves the walk as it stands, just after a call began, when it is
    /// the next place to keep; thins the places kept when there are too many.
    fn keep_place(&mut self) {
        let calls = self.state.calls();
        if calls % self.spacing != 1 || self.checkpoints.len() as u64 != calls / self.spacing {
            return;
        }
        self.checkpoints.push(self.state.clone());
        if self.checkpoints.len() == MOST_CHECKPOINTS {
            let kept = std::mem::take(&mut self.checkpoints);
            self.checkpoints = kept.into_iter().step_by(2).collect();
            self.spacing *= 2;
        }
    }

    /// Plain minimax or alpha-beta.
    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    /// Switches between plain minimax and alpha-beta, from call 1 again.
    pub fn toggle_alpha_beta(&mut self) {
        let other = match self.algorithm {
            Algorithm::Minimax => Algorithm::AlphaBeta,
            Algorithm::AlphaBeta => Algorithm::Minimax,
        };
        *self = Walkthrough::with(self.start, other, self.scoring);
    }

    /// The next call: the calls that end before it return on the way. Once
    /// call 1 has returned, starts again.
    pub fn next(&mut self) {
        if self.state.stop == Stop::Over && self.state.calls() > 0 {
            *self = Walkthrough::with(self.start, self.algorithm, self.scoring);
            return;
        }
        self.state.begin_step();
        while self.state.advance() {
            if self.state.stop == Stop::Entered {
                self.keep_place();
                return;
            }
        }
    }

    /// Back one call: the walk as it stood when the call before the current
    /// one began (after `f` or at the end, when the latest call began).
    pub fn back(&mut self) {
        let calls = self.state.calls();
        let target = if self.state.stop == Stop::Entered {
            calls.saturating_sub(1).max(1)
        } else {
            calls.max(1)
        };
        let saved = ((target - 1) / self.spacing) as usize;
        self.state = match self.checkpoints.get(saved) {
            Some(state) => state.clone(),
            None => {
                let mut state = State::new(&self.start, self.algorithm, self.scoring);
                state.advance();
                state
            }
        };
        if self.state.calls() < target {
            self.state.begin_step();
            self.start_run(Goal::Call(target));
        }
    }

    /// The rest of the current call: every call it makes, until it returns.
    /// A long one runs a slice at a time ([`Walkthrough::work`]).
    pub fn finish(&mut self) {
        let Some(depth) = self.state.stack.len().checked_sub(1) else {
            return;
        };
        self.state.begin_step();
        self.start_run(Goal::Return(depth));
    }

    /// Straight to the end: call 1 returns. A long walk runs a slice at a
    /// time ([`Walkthrough::work`]).
    pub fn end(&mut self) {
        if self.state.stop == Stop::Over {
            return;
        }
        self.state.begin_step();
        self.start_run(Goal::End);
    }

    /// The position traced.
    pub fn start(&self) -> Board {
        self.start
    }

    /// The call shown: the latest one open; none once call 1 has returned.
    pub fn current(&self) -> Option<&Call> {
        self.state.stack.last()
    }

    /// The position to show on the board: the current call's, or the start
    /// once the walk is over.
    pub fn board(&self) -> Board {
        self.current().map_or(self.start, |call| call.board)
    }

    /// The moves from the start to the current call's position.
    pub fn path(&self) -> Vec<Square> {
        self.state.stack.iter().filter_map(|call| call.mv).collect()
    }

    /// Call 1's score once the walk is over.
    pub fn result(&self) -> Option<i32> {
        self.state.result.map(|returned| returned.score)
    }

    /// Calls begun so far: the number of the latest.
    pub fn calls(&self) -> u64 {
        self.state.calls()
    }

    /// The best move once the walk is over: the first of call 1's replies
    /// with the highest score, as `findBestMove` keeps it.
    pub fn best(&self) -> Option<Returned> {
        first_best(self.state.replies.iter().copied(), |reply| reply.score)
    }

    /// The status line: how far a run has got, what the current call is,
    /// or what the last step did.
    pub fn status(&self) -> String {
        if let Some(running) = self.running {
            let at = thousands(self.calls());
            let whither = match running.goal {
                Goal::End => "Walking to the end".to_string(),
                Goal::Return(depth) => {
                    let call = self.state.stack.get(depth).map_or(0, |call| call.number);
                    format!("Finishing call {}", thousands(call))
                }
                Goal::Call(target) => format!("Going back to call {}", thousands(target)),
            };
            return format!("{whither}, at call {at}: Esc stops");
        }
        let last = self.state.returned.last();
        match (self.state.stop, self.current(), last) {
            (Stop::Returned, _, Some(done)) => format!(
                "Call {} returned {}",
                thousands(done.call.number),
                bounded(done.score, done.bound)
            ),
            (_, Some(call), _) => {
                format!(
                    "Minimax call {}: {}",
                    thousands(call.number),
                    role(call, self.scoring)
                )
            }
            (_, None, _) => match self.best() {
                Some(best) => format!(
                    "Call 1 returned {}: best move {}",
                    signed(self.result().unwrap_or(0)),
                    best.call.mv.map_or(String::new(), |mv| mv.to_string())
                ),
                None => format!(
                    "Call 1 returned {}: the game is over",
                    signed(self.result().unwrap_or(0))
                ),
            },
        }
    }

    /// What the panel beside the board says, with importance (1 kept
    /// longest), for a panel `rows` lines tall and `width` columns wide:
    /// every open call is listed, or a line says which are left out.
    pub fn items(&self, rows: usize, width: u16) -> Vec<(u8, Said)> {
        let mut items: Vec<(u8, Said)> = Vec::new();
        let pruning = self.algorithm == Algorithm::AlphaBeta;
        let title = if pruning {
            format!("From {}, alpha-beta:", self.start)
        } else {
            format!("From {}:", self.start)
        };
        // The panel's heading: the position, and in alpha-beta mode what says so.
        items.push((1, Said::Faint(title)));
        if self.current().is_none() {
            self.end_items(&mut items);
            return items;
        }
        let panel_width = width;
        // The call column as wide as the widest of the walk's call numbers:
        // its last, where counted, and the open ones.
        let labels = self.state.stack.iter().map(|call| call.number);
        let width = labels
            .chain(self.total)
            .map(|n| call_label(n).chars().count())
            .max()
            .unwrap_or(0)
            .max(5);
        let head = format!("{:>width$}  move", "call");
        items.push((1, Said::Figure(head, "turn   best".into())));
        let best = self.state.walk.best_so_far().collect::<Vec<_>>();
        let stack = &self.state.stack;
        // Room for the stack beside the column heads; the rest may go. The
        // line that names the calls left out may take more than one.
        let numbers: Vec<u64> = stack.iter().map(|call| call.number).collect();
        let shown = shown_frames(&numbers, rows.saturating_sub(2), panel_width);
        let mut hidden_said = false;
        for (i, call) in stack.iter().enumerate() {
            if !shown(i) {
                if !hidden_said {
                    let hidden: Vec<u64> = (0..stack.len())
                        .filter(|&j| !shown(j))
                        .map(|j| stack[j].number)
                        .collect();
                    items.push((1, Said::Faint(hidden_line(&hidden))));
                    hidden_said = true;
                }
                continue;
            }
            let mv = call_move(call);
            let so_far = match (call.finished(self.scoring), best.get(i).copied().flatten()) {
                (Some(score), _) => signed(score),
                (None, Some(value)) if call.role.is_max() => format!(">={}", signed(value)),
                (None, Some(value)) => format!("<={}", signed(value)),
                (None, None) => "…".to_string(),
            };
            let label = format!("{:>width$}  {mv}", call_label(call.number));
            items.push((
                1,
                Said::Figure(label, format!("{}  {so_far:>5}", turn(call))),
            ));
        }
        if pruning && let Some(window) = self.current().and_then(|call| call.window) {
            items.push((2, Said::Text(teach::window(window))));
        }
        items.push((6, Said::Gap));
        if self.state.returned_count > self.state.returned.len() as u64 {
            let earlier = self.state.returned_count - self.state.returned.len() as u64;
            items.push((
                4,
                Said::Faint(format!("… {} returned before these", thousands(earlier))),
            ));
        }
        for returned in &self.state.returned {
            items.push((2, Said::Faint(returned_line(returned))));
            // Why a cut happened outranks what returned before it.
            if !returned.cut.is_empty() {
                items.push((1, Said::Text(cut_line(returned))));
            }
        }
        items.push((6, Said::Gap));
        items.push((3, Said::Faint(self.progress())));
        items
    }

    /// The panel once call 1 has returned, however the end was reached:
    /// what each of call 1's replies returned, what call 1 returned, and
    /// its choice.
    fn end_items(&self, items: &mut Vec<(u8, Said)>) {
        for returned in self.state.replies.iter().chain(&self.state.result) {
            items.push((2, Said::Faint(returned_line(returned))));
            if !returned.cut.is_empty() {
                items.push((2, Said::Text(cut_line(returned))));
            }
        }
        if let Some(best) = self.best() {
            let mv = best.call.mv.map_or(String::new(), |mv| mv.to_string());
            let text = format!(
                "Best move {mv} (call {}): the first reply with the highest score.",
                best.call.number
            );
            items.push((1, Said::Text(text)));
        }
        items.push((6, Said::Gap));
        items.push((3, Said::Faint(self.progress())));
    }

    /// How far the walk is: "call 7 of 9", or the calls it made.
    fn progress(&self) -> String {
        match (self.current(), self.total) {
            (Some(call), Some(total)) if call.number == self.calls() => {
                format!("call {} of {}", thousands(call.number), thousands(total))
            }
            (Some(_), Some(total)) => format!(
                "{} of {} calls begun",
                thousands(self.calls()),
                thousands(total)
            ),
            (Some(_), None) => count(self.calls(), "call begun", "calls begun"),
            (None, _) => count(self.calls(), "call", "calls"),
        }
    }

    /// The same in a few words, for a screen `width` columns wide with no
    /// room for the panel: every open call by number, the middle ones
    /// counted when there are too many or the line would not fit.
    pub fn summary_items(&self, width: u16) -> Vec<(u8, Said)> {
        let mut items: Vec<(u8, Said)> = Vec::new();
        let numbers: Vec<u64> = self.state.stack.iter().map(|call| call.number).collect();
        if !numbers.is_empty() {
            let mode = if self.algorithm == Algorithm::AlphaBeta {
                "alpha-beta, "
            } else {
                ""
            };
            let said = format!("{mode}calls open: ");
            let room = usize::from(width).saturating_sub(said.chars().count());
            let open = format!("{said}{}", chain(&numbers, room));
            items.push((1, Said::Text(open)));
        }
        if let Some(returned) = self.state.returned.last() {
            let text = format!(
                "call {} returned {}",
                thousands(returned.call.number),
                bounded(returned.score, returned.bound)
            );
            items.push((2, Said::Text(text)));
            if !returned.cut.is_empty() {
                items.push((1, Said::Text(cut_line(returned))));
            }
        }
        if let (Some(_), Some(total)) = (self.current(), self.total) {
            let text = format!("{} of {}", thousands(self.calls()), thousands(total));
            items.push((3, Said::Text(text)));
        }
        items
    }
}

/// Which frames of a stack of calls `numbers` are listed in `room` lines
/// `width` wide: all when they fit; otherwise call 1, the line naming the
/// rest left out (as many lines as it wraps to), and the calls nearest the
/// current one, at least one.
fn shown_frames(numbers: &[u64], room: usize, width: u16) -> impl Fn(usize) -> bool + use<> {
    let len = numbers.len();
    // Frames listed after call 1 when some are left out.
    let mut last = room.saturating_sub(2).max(1);
    while len > room && last > 1 {
        let hidden = &numbers[1..len - last.min(len - 1)];
        let said = wrap_words(&hidden_line(hidden), width).len();
        if 1 + said + last <= room {
            break;
        }
        last -= 1;
    }
    move |i: usize| len <= room || i == 0 || i + last >= len
}

/// The line that stands for the open calls not listed.
fn hidden_line(hidden: &[u64]) -> String {
    let mut numbers: Vec<String> = hidden.iter().map(|n| thousands(*n)).collect();
    // More than four: the first two and the last, the rest counted above.
    if numbers.len() > 4 {
        let last = numbers.pop().unwrap_or_default();
        numbers.truncate(2);
        numbers.push(format!("… {last}"));
    }
    let calls = if hidden.len() == 1 { "call" } else { "calls" };
    format!(
        "⋮ {} more open: {calls} {}",
        hidden.len(),
        numbers.join(", ")
    )
}

/// A call's number in the call stack's column: in full up to 999,999 (as
/// `trace` numbers it), in millions to the thousand beyond (`161.219M`),
/// where only a walk run towards the end of a tree too big to count gets,
/// so that the row keeps to the panel's width.
fn call_label(number: u64) -> String {
    if number < 1_000_000 {
        thousands(number)
    } else {
        format!("{:.3}M", number as f64 / 1e6)
    }
}

/// Open call numbers joined by `›`, the middle ones counted when there are
/// more than six: `1 › 4 › … 3 more … › 11`.
fn chain(numbers: &[u64], room: usize) -> String {
    let all = || numbers.iter().map(|n| thousands(*n)).collect::<Vec<_>>();
    // Calls 1 and 2, then the newest three; as few as one of each where
    // the room is short, the newest call always last.
    let cut = |first: usize, last: usize| -> Vec<String> {
        let left = numbers.len() - first - last;
        numbers[..first]
            .iter()
            .map(|n| thousands(*n))
            .chain(std::iter::once(format!("… {left} more …")))
            .chain(
                numbers[numbers.len() - last..]
                    .iter()
                    .map(|n| thousands(*n)),
            )
            .collect()
    };
    let mut forms = Vec::new();
    if numbers.len() <= 6 {
        forms.push(all());
    }
    for (first, last) in [(2, 3), (1, 2), (1, 1)] {
        if numbers.len() > first + last + 1 {
            forms.push(cut(first, last));
        }
    }
    let said: Vec<String> = forms.iter().map(|form| form.join(" › ")).collect();
    let wide = |line: &String| line.chars().count();
    let fits = said.iter().find(|line| wide(line) <= room);
    // Where none fits, the shortest.
    let shortest = said.iter().min_by_key(|line| wide(line));
    fits.or(shortest).cloned().unwrap_or_default()
}

/// What a call returned: `call 8 returned +8: X won`, `call 6 returned <= +8, the min of its calls`.
fn returned_line(returned: &Returned) -> String {
    let end = match returned.call.board.status() {
        status @ (Status::Won(_) | Status::Draw) => {
            format!(": {}", ended(status).unwrap_or_default())
        }
        Status::InProgress { .. } => {
            format!(", the {} of its calls", role_name(returned.call.role))
        }
    };
    format!(
        "call {} returned {}{end}",
        thousands(returned.call.number),
        bounded(returned.score, returned.bound)
    )
}

/// The replies a call did not search, and why: `call 6 prunes b2 O: +8 <= alpha +10: X has better elsewhere`.
fn cut_line(returned: &Returned) -> String {
    let window = returned.call.window.unwrap_or(Window::OPEN);
    format!(
        "call {} prunes {}: {}",
        thousands(returned.call.number),
        cut_moves(&returned.call, returned.cut),
        cut_reason(&returned.call, returned.score, window)
    )
}

/// Whose turn it is in a call and what it does: "X to move, maximizes",
/// or how the game ended and what the call returns: "X won, returns +8".
fn role(call: &Call, scoring: Scoring) -> String {
    let returns = || signed(call.finished(scoring).unwrap_or(0));
    match call.board.status() {
        Status::InProgress { to_move } => format!("{to_move} to move, {}", role_does(call.role)),
        status => format!(
            "{}, returns {}",
            ended(status).unwrap_or_default(),
            returns()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_run_of_hidden_calls_is_named_by_its_ends() {
        assert_eq!(hidden_line(&[2, 3]), "⋮ 2 more open: calls 2, 3");
        let many = [2, 3, 4, 5, 6, 50_254_391];
        assert_eq!(
            hidden_line(&many),
            "⋮ 6 more open: calls 2, 3, … 50,254,391"
        );
    }

    #[test]
    fn call_numbers_past_a_million_keep_to_the_column() {
        assert_eq!(call_label(549_946), "549,946");
        assert_eq!(call_label(161_218_545), "161.219M");
    }

    #[test]
    fn the_open_calls_fit_their_line_the_newest_last() {
        let open: Vec<u64> = (1..=8).collect();
        assert_eq!(chain(&open, 80), "1 › 2 › … 3 more … › 6 › 7 › 8");
        assert_eq!(chain(&open, 22), "1 › … 5 more … › 7 › 8");
        assert_eq!(chain(&open, 18), "1 › … 6 more … › 8");
        // Nothing fits: the shortest form.
        assert_eq!(chain(&open, 5), "1 › … 6 more … › 8");
        assert_eq!(chain(&[1, 2, 3], 5), "1 › 2 › 3");
        // Five calls listed whole are shorter than any cut.
        assert_eq!(chain(&[1, 2, 3, 4, 5], 16), "1 › 2 › 3 › 4 › 5");
        assert_eq!(chain(&[], 10), "");
    }

    fn fcc() -> Walkthrough {
        Walkthrough::new("o.x/x.x/.oo".parse().unwrap(), Scoring::Depth)
    }

    #[test]
    fn back_undoes_next_and_finish_runs_the_call_to_its_return() {
        let mut walk = fcc();
        assert_eq!(walk.calls(), 1);
        for _ in 0..5 {
            walk.next();
        }
        assert_eq!(walk.current().map(|c| c.number), Some(6), "a3 X");
        walk.back();
        assert_eq!(walk.current().map(|c| c.number), Some(5));
        walk.next();
        walk.finish();
        // Call 6 made calls 7, 8 and 9 and returned -9 to call 1.
        assert_eq!(walk.calls(), 9);
        assert_eq!(walk.current().map(|c| c.number), Some(1));
        assert_eq!(walk.status(), "Call 6 returned -9");
        walk.back();
        assert_eq!(
            walk.current().map(|c| c.number),
            Some(9),
            "the latest call begun"
        );
        walk.end();
        assert_eq!(walk.result(), Some(10));
        assert_eq!(walk.status(), "Call 1 returned +10: best move b2");
    }

    #[test]
    fn alpha_beta_says_its_window_and_why_it_prunes() {
        let mut walk = fcc();
        walk.toggle_alpha_beta();
        assert_eq!(walk.algorithm(), Algorithm::AlphaBeta);
        for _ in 0..6 {
            walk.next();
        }
        assert_eq!(walk.current().map(|c| c.number), Some(7), "b1 O under a3 X");
        let said = |walk: &Walkthrough| {
            walk.items(20, 26)
                .into_iter()
                .map(|(_, said)| format!("{said:?}"))
                .collect::<Vec<_>>()
                .join("\n")
        };
        assert!(
            said(&walk).contains("alpha +10 · beta +inf"),
            "{}",
            said(&walk)
        );
        walk.finish();
        walk.finish();
        let text = said(&walk);
        assert!(text.contains("call 6 returned <= +8"), "{text}");
        assert!(
            text.contains("call 6 prunes b2 O: +8 <= alpha +10: X has better elsewhere"),
            "{text}"
        );
    }

    #[test]
    fn going_back_far_replays_from_the_nearest_checkpoint() {
        let mut walk = Walkthrough::new(Board::new(), Scoring::Depth);
        for _ in 0..5000 {
            walk.next();
        }
        let at = walk.clone();
        walk.next();
        walk.back();
        assert_eq!(walk.calls(), at.calls());
        assert_eq!(walk.path(), at.path());
        assert_eq!(walk.items(40, 26), at.items(40, 26));
    }

    #[test]
    fn six_digit_call_numbers_keep_the_stack_in_columns() {
        let mut walk = Walkthrough::new(Board::new(), Scoring::Depth);
        walk.end();
        walk.back();
        let lefts: Vec<Vec<char>> = walk
            .items(40, 26)
            .into_iter()
            .filter_map(|(_, said)| match said {
                Said::Figure(left, _) => Some(left.chars().collect()),
                _ => None,
            })
            .collect();
        assert!(lefts.len() > 2, "{lefts:?}");
        // The call column is as wide as the biggest number, "549,946":
        // every number (and the head's "call") ends in the same column.
        let width = "549,946".len();
        for left in &lefts {
            assert!(left[width - 1] != ' ' && left[width] == ' ', "{left:?}");
        }
    }

    #[test]
    fn a_deep_stack_says_which_calls_it_leaves_out() {
        // The board: at call 11, calls 1 to 5 and 11 are open.
        let mut walk = Walkthrough::new(".../.x./o..".parse().unwrap(), Scoring::Depth);
        for _ in 0..10 {
            walk.next();
        }
        assert_eq!(walk.calls(), 11);
        let open: Vec<u64> = walk.state.stack.iter().map(|c| c.number).collect();
        assert!(open.len() > 4, "{open:?}");
        for rows in [4, 6, 8, 20] {
            let text: Vec<String> = walk
                .items(rows, 26)
                .iter()
                .map(|(_, said)| format!("{said:?}"))
                .collect();
            let hidden = text.iter().find(|t| t.contains("more open"));
            for n in &open {
                let listed = text.iter().any(|t| t.contains(&format!("\"{n:>5}  ")));
                let named = hidden.is_some_and(|line| line.contains(&format!(" {n}")));
                assert!(listed || named, "{rows} rows: call {n}\n{text:#?}");
            }
        }
    }
}

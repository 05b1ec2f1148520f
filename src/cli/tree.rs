//! `tictactoe tree`: the articles' minimax tree of a position, as indented
//! text (like the `tree` command) or as Graphviz DOT for a picture.

use std::io::{self, Write};
use std::time::Duration;

use clap::Args;

use super::{BoardOptions, ExitStatus, ScoresArg, Streams};
use tictactoe_engine::teach::reference::{is_countable, tree_size};
use tictactoe_engine::teach::tree::{branches, node_value};
use tictactoe_engine::{Ai, Analysis, Board, Limits, Player, Role, Scoring, Square, Status};
use tictactoe_game::present::{
    branch_result, ended, node_result, role_name, role_takes, tree_legend,
};
use tictactoe_game::text::{count, signed, thousands};

/// The arguments of `tictactoe tree`.
#[derive(Debug, Args)]
pub struct TreeArgs {
    /// The board, such as o.x/x.x/.oo
    #[arg(value_name = "BOARD", allow_hyphen_values = true)]
    pub board: String,
    /// Levels of replies to show below the position, 0 to 49 [default: to the end of the game].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(..=49))]
    pub depth: Option<u32>,
    /// Graphviz DOT instead of text, for a picture: `tictactoe tree BOARD --dot | dot -Tsvg > tree.svg`.
    #[arg(long)]
    pub dot: bool,
    /// Refuse a tree of more positions than this (1 to 1000000).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_NODES,
          value_parser = clap::value_parser!(u64).range(1..=MOST_NODES))]
    pub max_nodes: u64,
    /// How scores are counted.
    #[command(flatten)]
    pub scores: ScoresArg,
    /// Board shape and, on bigger boards, search limits.
    #[command(flatten)]
    pub options: BoardOptions,
}

impl TreeArgs {
    /// Prints the tree of the board given.
    pub fn run(&self, io: &mut Streams) -> io::Result<ExitStatus> {
        if let Some(refusal) = super::one_board_only("tree", &self.board) {
            return io.error_line(&refusal, ExitStatus::BadInput);
        }
        match self.options.parse(&self.board) {
            Ok(board) => run_tree(
                &board,
                &Shown {
                    depth: self.depth,
                    max_nodes: self.max_nodes,
                    dot: self.dot,
                    scoring: self.scores.scores,
                },
                self.options.limits(),
                io.out,
                io.err,
            ),
            Err(error) => io.error_line(&error, ExitStatus::BadInput),
        }
    }
}

/// Trees with more positions than this are refused unless `--max-nodes` allows them.
pub const DEFAULT_MAX_NODES: u64 = 5_000;

/// The most `--max-nodes` accepts.
pub const MOST_NODES: u64 = 1_000_000;

/// One position of the tree as printed.
#[derive(Debug, Clone)]
struct Node {
    /// Plies below the root.
    depth: u32,
    /// The move that led here; `None` for the root.
    mv: Option<Square>,
    board: Board,
    /// The articles' minimax value, the root's side to move maximizing.
    value: i32,
    proven: bool,
    /// The result with best play, in words.
    result: String,
    /// The side whose choice this is, when its parent's side would pick it.
    chosen_by: Option<Player>,
    /// Positions below it in the whole tree, when counted.
    below: Option<u64>,
    /// Its call number in the trace of the root, when counted.
    call: Option<u64>,
    /// Replies left out by `--depth`.
    hidden: usize,
    parent: Option<usize>,
    last: bool,
}

/// What of the tree is shown, and how.
#[derive(Debug, Clone, Copy)]
pub struct Shown {
    /// Plies below the position (`None`: to the end of the game).
    pub depth: Option<u32>,
    /// The most positions shown.
    pub max_nodes: u64,
    /// Graphviz DOT instead of text.
    pub dot: bool,
    /// How scores are counted.
    pub scoring: Scoring,
}

/// Answers `tree BOARD`: the tree to `depth` plies below the position
/// (`None`: to the end of the game), as text or as DOT.
pub fn run_tree(
    board: &Board,
    shown: &Shown,
    limits: Limits,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> io::Result<ExitStatus> {
    let Shown {
        depth,
        max_nodes,
        dot,
        scoring,
    } = *shown;
    let shown = positions(board, depth, max_nodes);
    let thinking = thinking_time(board, depth, limits);
    let too_long = thinking.is_some_and(|time| time > MOST_THINKING);
    if shown > max_nodes || too_long {
        // The deepest tree that fits both bounds.
        let fits = (0..depth
            .unwrap_or(u32::MAX)
            .min(board.empty_cells().len() as u32))
            .rev()
            .map(|d| (d, positions(board, Some(d), max_nodes)))
            .find(|&(d, n)| {
                n <= max_nodes
                    && thinking_time(board, Some(d), limits).is_none_or(|t| t <= MOST_THINKING)
            });
        let hint = match fits {
            Some((d, n)) => format!(
                "show fewer levels with --depth {d} ({}) ",
                count(n, "position", "positions")
            ),
            None => String::new(),
        };
        if shown > max_nodes {
            let whole = match depth {
                None if is_countable(board) => {
                    format!(" has {} positions,", thousands(tree_size(board)))
                }
                None => " has".to_string(),
                Some(d) => format!(" to depth {d} has"),
            };
            writeln!(
                err,
                "error: the tree of {board}{whole} more than --max-nodes {}: {hint}or raise --max-nodes (up to {})",
                thousands(max_nodes),
                thousands(MOST_NODES)
            )?;
        } else {
            let time = thinking.unwrap_or_default();
            writeln!(
                err,
                "error: the tree of {board} would think for about {} s ({} at --think-ms {}), more than {} s: {hint}or lower --think-ms",
                time.as_secs(),
                count(
                    analysed(board, depth),
                    "position analysed",
                    "positions analysed"
                ),
                limits_ms(limits),
                MOST_THINKING.as_secs()
            )?;
        }
        return Ok(ExitStatus::Failure);
    }
    let nodes = build(board, depth, limits, scoring);
    let maximizer = scoring.maximizer(board.to_move());
    let text = if dot {
        to_dot(board, &nodes, maximizer)
    } else {
        // How the numbers are counted, in one line under them.
        let win = board.geometry().win_score();
        format!(
            "{}Scores: {}.\n",
            to_text(&nodes, maximizer),
            tree_legend(scoring, win)
        )
    };
    out.write_all(text.as_bytes())?;
    Ok(ExitStatus::Success)
}

/// The longest a tree may think: every position it opens on a board bigger
/// than 3x3 is a search of up to `--think-ms`.
pub const MOST_THINKING: Duration = Duration::from_secs(30);

/// How long the tree to `depth` plies would think at most: every position it
/// opens (every one above the last level shown) is searched for the
/// thinking time. `None` where that is no bound: on 3x3 (a lookup) or with
/// `--solve` (each proof takes what it takes).
fn thinking_time(board: &Board, depth: Option<u32>, limits: Limits) -> Option<Duration> {
    match limits {
        Limits::Think(each) if !board.is_classic() => {
            Some(each.saturating_mul(u32::try_from(analysed(board, depth)).unwrap_or(u32::MAX)))
        }
        _ => None,
    }
}

/// `--think-ms` as the limits hold it.
fn limits_ms(limits: Limits) -> u128 {
    match limits {
        Limits::Think(each) => each.as_millis(),
        Limits::ToTheEnd => 0,
    }
}

/// The positions the tree to `depth` plies analyses: the root, and every
/// position in progress above the last level shown (the last level's
/// values come from the level above). Stops counting past a million.
fn analysed(board: &Board, depth: Option<u32>) -> u64 {
    fn walk(board: &Board, depth: Option<u32>, seen: &mut u64) {
        if board.status().is_over() || depth == Some(0) || *seen > MOST_NODES {
            return;
        }
        *seen += 1;
        if depth == Some(1) {
            return;
        }
        for mv in board.legal_moves() {
            if let Ok(next) = board.play(mv) {
                walk(&next, depth.map(|d| d - 1), seen);
            }
        }
    }
    let mut seen = 0;
    walk(board, depth, &mut seen);
    seen.max(1)
}

/// Positions in the tree to `depth` plies (the root included), counted by
/// walking its moves; stops counting once past `cap`.
fn positions(board: &Board, depth: Option<u32>, cap: u64) -> u64 {
    if depth.is_none() && is_countable(board) {
        return tree_size(board);
    }
    fn walk(board: &Board, depth: Option<u32>, cap: u64, seen: &mut u64) {
        *seen += 1;
        if *seen > cap || depth == Some(0) {
            return;
        }
        for mv in board.legal_moves() {
            if let Ok(next) = board.play(mv) {
                walk(&next, depth.map(|d| d - 1), cap, seen);
            }
            if *seen > cap {
                return;
            }
        }
    }
    let mut seen = 0;
    walk(board, depth, cap, &mut seen);
    seen
}

/// The tree in preorder (the order of the trace's calls).
fn build(root: &Board, depth: Option<u32>, limits: Limits, scoring: Scoring) -> Vec<Node> {
    let mut ai = Ai::new();
    let maximizer = scoring.maximizer(root.to_move());
    // Positions below are counted, and call numbers given, where the tree is countable.
    let counted = is_countable(root);
    let analysis = ai.analyze(root, limits);
    let mut nodes = vec![Node {
        depth: 0,
        mv: None,
        board: *root,
        value: node_value(&analysis, 0, maximizer, scoring),
        proven: analysis.proven(),
        result: node_result(&analysis),
        chosen_by: None,
        below: counted.then(|| tree_size(root) - 1),
        call: counted.then_some(1),
        hidden: 0,
        parent: None,
        last: true,
    }];
    let seen = Seen {
        limits,
        maximizer,
        scoring,
    };
    expand(&mut ai, &mut nodes, 0, analysis, depth, &seen);
    nodes
}

/// How the tree's positions are scored.
struct Seen {
    limits: Limits,
    maximizer: Player,
    scoring: Scoring,
}

/// Adds the replies of node `at` (whose position `analysis` scored), and
/// theirs, down to `depth` more plies.
fn expand(
    ai: &mut Ai,
    nodes: &mut Vec<Node>,
    at: usize,
    analysis: Analysis,
    depth: Option<u32>,
    seen: &Seen,
) {
    if depth == Some(0) {
        nodes[at].hidden = analysis.moves.len();
        return;
    }
    let level = branches(&analysis, nodes[at].depth, seen.maximizer, seen.scoring);
    let chosen = analysis.best_by(seen.scoring).map(|best| best.mv);
    let mover = analysis.board.to_move();
    let mut next_call = nodes[at].call.map(|call| call + 1);
    for (i, branch) in level.iter().enumerate() {
        let size = next_call.map(|_| tree_size(&branch.board));
        nodes.push(Node {
            depth: nodes[at].depth + 1,
            mv: Some(branch.mv),
            board: branch.board,
            value: branch.value,
            proven: branch.proven,
            result: branch_result(branch),
            chosen_by: (chosen == Some(branch.mv)).then_some(mover),
            below: size.map(|size| size - 1),
            call: next_call,
            hidden: 0,
            parent: Some(at),
            last: i + 1 == level.len(),
        });
        let child = nodes.len() - 1;
        let below_depth = depth.map(|d| d - 1);
        if below_depth == Some(0) {
            // The last level shown: its value came from above; its replies
            // are only counted.
            nodes[child].hidden = branch.board.legal_moves().len();
        } else if !branch.board.status().is_over() {
            let below = ai.analyze(&branch.board, seen.limits);
            expand(ai, nodes, child, below, below_depth, seen);
        }
        next_call = next_call.zip(size).map(|(call, size)| call + size);
    }
}

/// What a node says after its move: value, result, whose turn and how it
/// chooses, how many positions lie below, and whether it is chosen.
fn describe(node: &Node, maximizer: Player) -> String {
    let estimate = if node.proven { "" } else { "?" };
    let mut text = format!("{}{estimate}  {}", signed(node.value), node.result);
    if let Status::InProgress { to_move } = node.board.status() {
        let how = role_takes(Role::of(to_move, maximizer));
        text.push_str(&format!(" · {to_move} to move, takes the {how}"));
        if let Some(below) = node.below {
            text.push_str(&format!(" ({} below)", thousands(below)));
        }
    }
    if node.hidden > 0 {
        text.push_str(&format!(
            " [{} not shown]",
            count(node.hidden as u64, "reply", "replies")
        ));
    }
    if let Some(side) = node.chosen_by {
        text.push_str(&format!("  ◀ {side}'s choice"));
    }
    text
}

/// The indented text, like the `tree` command.
fn to_text(nodes: &[Node], maximizer: Player) -> String {
    let mut rails: Vec<String> = Vec::with_capacity(nodes.len());
    let mut text = String::new();
    for node in nodes {
        let (prefix, rail) = match node.parent {
            None => (node.board.to_string() + "  ", String::new()),
            Some(parent) => {
                let above = &rails[parent];
                let (branch, more) = if node.last {
                    ("└── ", "    ")
                } else {
                    ("├── ", "│   ")
                };
                let mover = node.board.to_move().other();
                let mv = node.mv.map_or(String::new(), |mv| mv.to_string());
                (
                    format!("{above}{branch}{mv} {mover}  "),
                    format!("{above}{more}"),
                )
            }
        };
        rails.push(rail);
        text.push_str(&prefix);
        text.push_str(&describe(node, maximizer));
        text.push('\n');
    }
    text
}

/// The tree as a Graphviz digraph: a box per position with its board, whose
/// turn and its value; the edges named by their moves, the chosen ones bold.
fn to_dot(root: &Board, nodes: &[Node], maximizer: Player) -> String {
    let mut text = String::from("digraph minimax {\n");
    text.push_str(&format!(
        "    graph [label=\"The articles' minimax tree of {root}: {maximizer} maximizes\", labelloc=t, fontname=\"monospace\"];\n"
    ));
    text.push_str("    node [shape=box, fontname=\"monospace\"];\n");
    text.push_str("    edge [fontname=\"monospace\"];\n");
    let id = |i: usize| nodes[i].call.unwrap_or(i as u64 + 1);
    for (i, node) in nodes.iter().enumerate() {
        let mut label: Vec<String> = Vec::new();
        if let Some(call) = node.call {
            label.push(format!("call {call}"));
        }
        label.extend(node.board.to_grid().lines().map(String::from));
        match node.board.status() {
            Status::InProgress { to_move } => {
                label.push(format!(
                    "{to_move} to move: {}",
                    role_name(Role::of(to_move, maximizer))
                ));
            }
            status => label.push(ended(status).unwrap_or_default()),
        }
        let estimate = if node.proven { "" } else { "?" };
        label.push(format!("{}{estimate}", signed(node.value)));
        if node.hidden > 0 {
            label.push(format!(
                "({} not shown)",
                count(node.hidden as u64, "reply", "replies")
            ));
        }
        let style = if node.board.status().is_over() {
            ", style=rounded"
        } else {
            ""
        };
        text.push_str(&format!(
            "    n{} [label=\"{}\"{style}];\n",
            id(i),
            label.join("\\n")
        ));
        if let (Some(parent), Some(mv)) = (node.parent, node.mv) {
            let mover = node.board.to_move().other();
            let bold = if node.chosen_by.is_some() {
                ", penwidth=3"
            } else {
                ""
            };
            text.push_str(&format!(
                "    n{} -> n{} [label=\"{} {mover}\"{bold}];\n",
                id(parent),
                id(i),
                mv
            ));
        }
    }
    text.push_str("}\n");
    text
}

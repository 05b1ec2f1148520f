//! `tictactoe tree`: the articles' minimax tree of a position, as indented
//! text (like the `tree` command) or as Graphviz DOT for a picture.

use std::io::{self, Write};
use std::time::Duration;

use clap::Args;

use super::{BoardOptions, ExitStatus, ScoresArg, Streams};
use tictactoe_engine::teach::reference::{is_countable, tree_size};
use tictactoe_engine::teach::tree::{Node, Tree, below};
use tictactoe_engine::{Ai, Board, Limits, Scoring, Status};
use tictactoe_game::present::teach::{
    choice, node_move, node_turn, replies, tree_result, tree_value,
};
use tictactoe_game::present::{ended, role_takes, tree_legend};
use tictactoe_game::text::{count, thousands};

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
    let tree = build(board, depth, limits, scoring);
    let drawn = Drawn::new(&tree, depth);
    let text = if dot {
        to_dot(&tree, &drawn)
    } else {
        // How the numbers are counted, in one line under them.
        let win = board.geometry().win_score();
        format!(
            "{}Scores: {}.\n",
            to_text(&tree, &drawn),
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

/// The tree to `depth` plies below the root (`None`: to the end of the
/// game): every position above the last level shown is analysed; the last
/// level's values come from the level above.
fn build(root: &Board, depth: Option<u32>, limits: Limits, scoring: Scoring) -> Tree {
    let mut ai = Ai::new();
    let mut tree = Tree::new(*root, scoring);
    let mut open = vec![0];
    while let Some(at) = open.pop() {
        let node = tree.node(at);
        let deep_enough = depth.is_some_and(|depth| node.depth >= depth);
        // The root is filled whatever the depth: its value is its replies'.
        if at != 0 && (node.is_leaf() || deep_enough) {
            continue;
        }
        let analysis = ai.analyze(&node.board, limits);
        tree.fill(at, &analysis, &below(&analysis));
        if !deep_enough {
            // Preorder: the first reply next, as the trace calls them.
            open.extend(tree.children(at).unwrap_or_default().iter().rev());
        }
    }
    tree
}

/// The nodes shown, in preorder, and how many replies each leaves out.
struct Drawn {
    nodes: Vec<usize>,
    depth: Option<u32>,
}

impl Drawn {
    fn new(tree: &Tree, depth: Option<u32>) -> Drawn {
        let nodes = tree
            .preorder()
            .into_iter()
            .filter(|&i| depth.is_none_or(|depth| tree.node(i).depth <= depth))
            .collect();
        Drawn { nodes, depth }
    }

    /// Replies of `node` left out by `--depth`.
    fn hidden(&self, node: &Node) -> usize {
        if self.depth == Some(node.depth) {
            node.board.legal_moves().len()
        } else {
            0
        }
    }
}

/// What a node says after its move: value, result, whose turn and how it
/// chooses, how many positions lie below, and whether it is chosen.
fn describe(tree: &Tree, node: &Node, hidden: usize) -> String {
    let mut text = format!(
        "{}  {}",
        tree_value(node).unwrap_or_default(),
        tree_result(node)
    );
    if let Status::InProgress { to_move } = node.board.status() {
        let how = role_takes(tree.role(node));
        text.push_str(&format!(" · {to_move} to move, takes the {how}"));
        if let Some(below) = node.below {
            text.push_str(&format!(" ({} below)", thousands(below)));
        }
    }
    if hidden > 0 {
        text.push_str(&format!(" [{} not shown]", replies(hidden)));
    }
    if node.chosen {
        text.push_str(&format!("  {}", choice(node)));
    }
    text
}

/// The indented text, like the `tree` command.
fn to_text(tree: &Tree, drawn: &Drawn) -> String {
    let mut rails: Vec<String> = vec![String::new(); tree.len()];
    let mut text = String::new();
    for &i in &drawn.nodes {
        let node = tree.node(i);
        let prefix = match node.parent {
            None => node.board.to_string() + "  ",
            Some(parent) => {
                let above = rails[parent].clone();
                let (branch, more) = if tree.is_last(i) {
                    ("└── ", "    ")
                } else {
                    ("├── ", "│   ")
                };
                rails[i] = format!("{above}{more}");
                format!("{above}{branch}{}  ", node_move(node))
            }
        };
        text.push_str(&prefix);
        text.push_str(&describe(tree, node, drawn.hidden(node)));
        text.push('\n');
    }
    text
}

/// The tree as a Graphviz digraph: a box per position with its board, whose
/// turn and its value; the edges named by their moves, the chosen ones bold.
fn to_dot(tree: &Tree, drawn: &Drawn) -> String {
    let root = tree.root().board;
    let maximizer = tree.maximizer();
    let mut text = String::from("digraph minimax {\n");
    text.push_str(&format!(
        "    graph [label=\"The articles' minimax tree of {root}: {maximizer} maximizes\", labelloc=t, fontname=\"monospace\"];\n"
    ));
    text.push_str("    node [shape=box, fontname=\"monospace\"];\n");
    text.push_str("    edge [fontname=\"monospace\"];\n");
    // Each node by its call, or where calls are not counted by its place in
    // the drawing.
    let mut ids = vec![0; tree.len()];
    for (place, &i) in drawn.nodes.iter().enumerate() {
        ids[i] = tree.node(i).call.unwrap_or(place as u64 + 1);
    }
    for &i in &drawn.nodes {
        let node = tree.node(i);
        let mut label: Vec<String> = Vec::new();
        if let Some(call) = node.call {
            label.push(format!("call {call}"));
        }
        label.extend(node.board.to_grid().lines().map(String::from));
        label.push(
            node_turn(tree, node).unwrap_or_else(|| ended(node.board.status()).unwrap_or_default()),
        );
        label.push(tree_value(node).unwrap_or_default());
        let hidden = drawn.hidden(node);
        if hidden > 0 {
            label.push(format!("({} not shown)", replies(hidden)));
        }
        let style = if node.is_leaf() {
            ", style=rounded"
        } else {
            ""
        };
        text.push_str(&format!(
            "    n{} [label=\"{}\"{style}];\n",
            ids[i],
            label.join("\\n")
        ));
        if let Some(parent) = node.parent {
            let bold = if node.chosen { ", penwidth=3" } else { "" };
            text.push_str(&format!(
                "    n{} -> n{} [label=\"{}\"{bold}];\n",
                ids[parent],
                ids[i],
                node_move(node)
            ));
        }
    }
    text.push_str("}\n");
    text
}

//! The minimax tree of the position on the board, opened with `t`: the
//! position at the top, its moves below it, each with its value, and any
//! move opened into the replies to it. Levels are filled in only when
//! opened (the empty board's whole tree has 549,946 positions), each from
//! one engine request.

use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Padding, Paragraph, Widget, Wrap};

use super::app::{Direction, Request};
use super::view::{Theme, first_fitting};
use crate::engine::line::move_list;
use crate::engine::tree::{branches, result, value};
use crate::engine::{Analysis, Board, Limits, Move, Player, Status};
use crate::text::{count, signed, thousands};

/// One position of the tree.
#[derive(Debug, Clone)]
pub struct Node {
    /// The position.
    pub board: Board,
    /// Plies below the root.
    pub depth: u32,
    /// The move that led here; `None` at the root.
    pub mv: Option<Move>,
    /// The node above; `None` at the root.
    pub parent: Option<usize>,
    /// The seed's minimax value, once known.
    pub value: Option<i32>,
    /// The value is proven, not an estimate.
    pub proven: bool,
    /// The result with best play, in words ("O wins in 1", "X won").
    pub result: String,
    /// The move the side above would choose here.
    pub chosen: bool,
    /// Positions below it in the whole tree, when counted.
    pub below: Option<u64>,
    children: Option<Vec<usize>>,
    open: bool,
    asked: bool,
}

impl Node {
    /// True when the game is over here: no replies.
    pub fn is_leaf(&self) -> bool {
        self.board.status().is_over()
    }
}

/// A row of the tree as shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Row {
    /// A position.
    Node(usize),
    /// The replies of this position, being worked out.
    Waiting(usize),
}

/// The tree view's state.
#[derive(Debug, Clone)]
pub struct TreeView {
    maximizer: Player,
    limits: Limits,
    nodes: Vec<Node>,
    selected: usize,
}

impl TreeView {
    /// The tree of `board`, its first level asked for at once.
    pub fn new(board: Board, limits: Limits) -> TreeView {
        TreeView {
            maximizer: board.to_move(),
            limits,
            nodes: vec![Node {
                board,
                depth: 0,
                mv: None,
                parent: None,
                value: None,
                proven: true,
                result: String::new(),
                chosen: false,
                below: None,
                children: None,
                open: true,
                asked: false,
            }],
            selected: 0,
        }
    }

    /// The position at the top.
    pub fn root(&self) -> &Node {
        &self.nodes[0]
    }

    /// The side whose values are maximized: the side to move at the top.
    pub fn maximizer(&self) -> Player {
        self.maximizer
    }

    /// The position under the selection.
    pub fn selected(&self) -> &Node {
        &self.nodes[self.selected]
    }

    /// The moves from the top to the selected position.
    pub fn path(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        let mut at = Some(self.selected);
        while let Some(i) = at {
            moves.extend(self.nodes[i].mv);
            at = self.nodes[i].parent;
        }
        moves.reverse();
        moves
    }

    /// A position's node.
    pub fn node(&self, i: usize) -> &Node {
        &self.nodes[i]
    }

    /// The values of a position's replies, once known, in reading order.
    pub fn replies(&self, i: usize) -> Option<Vec<i32>> {
        let children = self.nodes[i].children.as_ref()?;
        children
            .iter()
            .map(|&child| self.nodes[child].value)
            .collect()
    }

    /// The replies of an open position still to be asked for, one at a time.
    pub fn request(&mut self) -> Option<Request> {
        let node = self
            .nodes
            .iter_mut()
            .find(|node| node.open && node.children.is_none() && !node.asked)?;
        node.asked = true;
        // Only the root can be open and finished (leaves never open): it is
        // asked like any other, and its answer, with no moves, gives it the
        // seed's score of the end.
        Some(Request::Tree {
            board: node.board,
            limits: self.limits,
        })
    }

    /// True while a level is asked for and not in yet.
    pub fn waiting(&self) -> bool {
        self.nodes
            .iter()
            .any(|node| node.asked && node.children.is_none())
    }

    /// Fills in the replies of every open position of `analysis`' board,
    /// with the positions below each (`below`, in the analysis' order).
    pub fn receive(&mut self, analysis: &Analysis, below: &[Option<u64>]) {
        let waiting: Vec<usize> = (0..self.nodes.len())
            .filter(|&i| self.nodes[i].board == analysis.board && self.nodes[i].children.is_none())
            .collect();
        for at in waiting {
            self.fill(at, analysis, below);
        }
    }

    fn fill(&mut self, at: usize, analysis: &Analysis, below: &[Option<u64>]) {
        let depth = self.nodes[at].depth;
        if at == 0 {
            let root = &mut self.nodes[0];
            root.value = Some(value(analysis, 0, self.maximizer));
            root.proven = analysis.proven();
            root.result = result(analysis);
            root.below = below
                .iter()
                .try_fold(0, |sum, below| below.map(|below| sum + below + 1));
        }
        let chosen = analysis.best().map(|best| best.mv);
        let mut children = Vec::new();
        for (i, branch) in branches(analysis, depth, self.maximizer)
            .into_iter()
            .enumerate()
        {
            let result = branch.result();
            children.push(self.nodes.len());
            self.nodes.push(Node {
                board: branch.board,
                depth: depth + 1,
                mv: Some(branch.mv),
                parent: Some(at),
                value: Some(branch.value),
                proven: branch.proven,
                result,
                chosen: chosen == Some(branch.mv),
                below: below.get(i).copied().flatten(),
                children: None,
                open: false,
                asked: false,
            });
        }
        self.nodes[at].children = Some(children);
    }

    /// The rows shown: every position whose parent is open, in preorder.
    pub fn rows(&self) -> Vec<Row> {
        let mut rows = Vec::new();
        self.push_rows(0, &mut rows);
        rows
    }

    fn push_rows(&self, at: usize, rows: &mut Vec<Row>) {
        rows.push(Row::Node(at));
        let node = &self.nodes[at];
        if !node.open || node.is_leaf() {
            return;
        }
        match &node.children {
            Some(children) => {
                for &child in children {
                    self.push_rows(child, rows);
                }
            }
            None => rows.push(Row::Waiting(at)),
        }
    }

    /// Index of the selection among the rows.
    pub fn selected_row(&self, rows: &[Row]) -> usize {
        rows.iter()
            .position(|&row| row == Row::Node(self.selected))
            .unwrap_or(0)
    }

    /// Up and down move the selection; right opens, left goes up.
    pub fn navigate(&mut self, direction: Direction) {
        match direction {
            Direction::Up | Direction::Down => {
                let rows: Vec<usize> = self
                    .rows()
                    .into_iter()
                    .filter_map(|row| match row {
                        Row::Node(i) => Some(i),
                        Row::Waiting(_) => None,
                    })
                    .collect();
                let at = rows.iter().position(|&i| i == self.selected).unwrap_or(0);
                let next = if direction == Direction::Up {
                    at.saturating_sub(1)
                } else {
                    (at + 1).min(rows.len() - 1)
                };
                self.selected = rows[next];
            }
            Direction::Right => self.open(),
            Direction::Left => self.up(),
        }
    }

    /// Opens the selected position into its replies; on an open one, goes to its first reply.
    pub fn open(&mut self) {
        let node = &mut self.nodes[self.selected];
        if node.is_leaf() {
            return;
        }
        if !node.open {
            node.open = true;
        } else if let Some(&first) = node.children.as_ref().and_then(|c| c.first()) {
            self.selected = first;
        }
    }

    /// Closes the selected position if open, or else goes to the one above.
    pub fn up(&mut self) {
        let node = &mut self.nodes[self.selected];
        if node.open && node.parent.is_some() && !node.is_leaf() {
            node.open = false;
        } else if let Some(parent) = node.parent {
            self.selected = parent;
        }
    }
}

/// What a row says about its position after the move, in at most `width`
/// characters: value and result, then as room allows the choice mark, whose
/// turn and how that side chooses, and the positions below.
pub fn describe(view: &TreeView, node: &Node, width: usize) -> String {
    let Some(value) = node.value else {
        return "…".to_string();
    };
    let estimate = if node.proven { "" } else { "?" };
    let mut text = format!("{}{estimate} {}", signed(value), node.result);
    let turn = match node.board.status() {
        Status::InProgress { to_move } => {
            let how = if to_move == view.maximizer {
                "max"
            } else {
                "min"
            };
            format!(" · {to_move} {how}")
        }
        _ => String::new(),
    };
    let below = node
        .below
        .filter(|&below| below > 0)
        .map_or(String::new(), |below| {
            format!(" · {} below", thousands(below))
        });
    // The side that played the move chose it.
    let choice = if node.chosen {
        format!("  ◀ {}'s choice", node.board.to_move().other())
    } else {
        String::new()
    };
    let fits = |text: &str, more: &str| text.chars().count() + more.chars().count() <= width;
    let (with_turn, with_below) = (
        fits(&text, &(turn.clone() + &choice)),
        fits(&text, &(turn.clone() + &below + &choice)),
    );
    if with_below {
        text.push_str(&(turn + &below));
    } else if with_turn {
        text.push_str(&turn);
    }
    text.push_str(&choice);
    text
}

/// Draws the tree full screen: the title, the rows with the selection in
/// reverse video, the selected position beside them when there is room,
/// and the keys.
pub(crate) fn render(view: &TreeView, area: Rect, theme: &Theme, buf: &mut Buffer) {
    let [title, legend, body, keys] = area.layout(&Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Fill(1),
        Constraint::Length(1),
    ]));
    let root = view.root();
    let heading = format!("Minimax tree of {}", root.board);
    Paragraph::new(Line::styled(
        heading,
        Style::new().add_modifier(Modifier::BOLD),
    ))
    .alignment(Alignment::Center)
    .render(title, buf);
    let maximizer = view.maximizer();
    let minimizer = maximizer.other();
    let legends = [
        format!(
            "{maximizer} maximizes, {minimizer} minimizes; the seed's scores, depth 0 at the top"
        ),
        format!("{maximizer} maximizes, {minimizer} minimizes; depth 0 at the top"),
        format!("{maximizer} max, {minimizer} min"),
    ];
    Paragraph::new(Line::styled(
        first_fitting(&legends, legend.width),
        theme.faint(),
    ))
    .alignment(Alignment::Center)
    .render(legend, buf);
    let wide = body.width >= 66 && body.height >= 9;
    let (list, detail) = if wide {
        let [list, _, detail] = body.layout(&Layout::horizontal([
            Constraint::Fill(1),
            Constraint::Length(1),
            Constraint::Length(26),
        ]));
        (list, Some(detail))
    } else {
        (body, None)
    };
    render_rows(view, list, theme, buf);
    if let Some(detail) = detail {
        render_detail(view, detail, theme, buf);
    }
    let variants = [
        "up/down move  right/enter open  left/backspace up  t/esc close  ? help  q quit",
        "arrows move  enter open  backspace up  t close  ? help",
        "arrows, enter, backspace  t close",
        "t close",
    ];
    Paragraph::new(Line::styled(
        first_fitting(&variants, keys.width),
        theme.faint(),
    ))
    .alignment(Alignment::Center)
    .render(keys, buf);
}

fn render_rows(view: &TreeView, area: Rect, theme: &Theme, buf: &mut Buffer) {
    let rows = view.rows();
    let height = usize::from(area.height);
    if height == 0 {
        return;
    }
    let selected = view.selected_row(&rows);
    // Keep the selection in view, half a screen from the edge when it can be.
    let first = selected
        .saturating_sub(height / 2)
        .min(rows.len().saturating_sub(height));
    for (y, row) in rows.iter().skip(first).take(height).enumerate() {
        let (text, style) = match *row {
            Row::Node(i) => {
                let node = view.node(i);
                let glyph = if node.is_leaf() {
                    "·"
                } else if node.open {
                    "▾"
                } else {
                    "▸"
                };
                // A big board's notation would crowd out the row: the title has it.
                let name = match node.mv {
                    Some(mv) => format!("{} {}", mv.coordinate(), node.board.to_move().other()),
                    None if node.board.size() == 3 => node.board.to_string(),
                    None => "position".to_string(),
                };
                let indent = "  ".repeat(node.depth as usize);
                let head = format!("{indent}{glyph} {name}  ");
                let room = usize::from(area.width).saturating_sub(head.chars().count());
                let text = format!("{head}{}", describe(view, node, room));
                let mut style = if node.chosen {
                    Style::new().add_modifier(Modifier::BOLD)
                } else {
                    Style::new()
                };
                if i == view.selected {
                    style = style.add_modifier(Modifier::REVERSED);
                }
                (text, style)
            }
            Row::Waiting(i) => {
                let indent = "  ".repeat(view.node(i).depth as usize + 1);
                (format!("{indent}  scoring…"), theme.faint())
            }
        };
        let text: String = text.chars().take(usize::from(area.width)).collect();
        buf.set_string(area.x, area.y + y as u16, text, style);
    }
}

/// The selected position: the moves that lead to it, its board, and what it is worth.
fn render_detail(view: &TreeView, area: Rect, theme: &Theme, buf: &mut Buffer) {
    let node = view.selected();
    let path = view.path();
    let mut lines: Vec<Line> = Vec::new();
    if path.is_empty() {
        lines.push(Line::from("the position on the board"));
    } else {
        lines.push(Line::from(format!(
            "after {}",
            move_list(&view.root().board, path.iter().copied())
        )));
    }
    lines.push(Line::from(""));
    for row in node.board.to_grid().lines() {
        lines.push(Line::from(format!("  {row}")));
    }
    lines.push(Line::from(""));
    match node.board.status() {
        Status::InProgress { to_move } => {
            let how = if to_move == view.maximizer() {
                "maximum"
            } else {
                "minimum"
            };
            lines.push(Line::from(format!("{to_move} to move, takes the {how}")));
        }
        ended => lines.push(Line::from(ended.to_string())),
    }
    if let Some(value) = node.value {
        lines.push(Line::from(format!(
            "value {}: {}",
            signed(value),
            node.result
        )));
    }
    if let Some(replies) = view.replies(view.selected) {
        let how = if node.board.to_move() == view.maximizer() {
            "max"
        } else {
            "min"
        };
        let text = if replies.len() <= 9 {
            let values: Vec<String> = replies.iter().map(|&v| signed(v)).collect();
            format!("{how} of {}", values.join(", "))
        } else {
            format!("{how} of its {} replies", replies.len())
        };
        lines.push(Line::styled(text, theme.faint()));
    }
    if let Some(below) = node.below {
        lines.push(Line::styled(
            format!("{} below", count(below, "position", "positions")),
            theme.faint(),
        ));
    }
    if node.chosen {
        let chooser = node.board.to_move().other();
        lines.push(Line::styled(
            format!("{chooser} would choose it"),
            theme.faint(),
        ));
    }
    Paragraph::new(lines)
        .wrap(Wrap { trim: true })
        .block(
            Block::new()
                .borders(Borders::ALL)
                .padding(Padding::horizontal(1))
                .title(" Position "),
        )
        .render(area, buf);
}

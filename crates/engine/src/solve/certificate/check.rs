//! The certificate checker: replays a proof that [`lines`](super::lines)
//! wrote, knowing only the rules of the game. Pure: it is given the text,
//! whole or a line at a time, and reads nothing itself.
//!
//! It shares no code with the prover. From the rest of the engine it takes
//! the format ([`Header`], [`Section`], [`NodeLine`]), the notation (a board
//! is read and checked to be reachable by [`Board`]) and the names of
//! squares; the lines, the symmetries and the replay are its own.
//!
//! A certificate is JSON Lines: a header, then strategy sections, each a
//! line `{"strategy": "win" | "hold", "player": "x" | "o"}` followed by
//! nodes, `{"board": B, "move": "c3"}` or `{"board": B, "pairs": [["a1",
//! "b2"], ...]}`. The claim `x-wins` (`o-wins`) needs a win strategy for
//! that side: from the header's board, every way the game can go while the
//! side plays its moves ends with its k in a row before the other's and
//! before the board fills. `draw` needs a hold strategy for each side: the
//! other side never gets k in a row. A position is looked up up to the eight
//! symmetries of the square; a `pairs` node ends the replay of its branch
//! once its pairs are checked: disjoint, on empty squares, and both squares
//! of some pair on every line that has none of the player's marks.

use std::collections::{HashMap, HashSet};

use serde::Deserialize;
use thiserror::Error;

use super::{FORMAT, Header, NodeLine, Section, VERSION};
use crate::board::Board;
use crate::player::Player;
use crate::solve::{Goal, Value};
use crate::square::Square;

/// What a certificate proved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verified {
    /// The position the claim is about (its size and k are the board's).
    pub board: Board,
    /// Who wins it with best play, or a draw.
    pub claim: Value,
    /// Each strategy the claim rests on, as replayed.
    pub strategies: Vec<Replayed>,
}

/// One strategy, replayed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replayed {
    /// What it achieves.
    pub goal: Goal,
    /// The strategy's player.
    pub player: Player,
    /// Positions the replay went through, up to symmetry.
    pub positions: u64,
    /// Nodes the certificate lists for the strategy.
    pub nodes: usize,
    /// Of those, nodes that answer in pairs.
    pub pair_nodes: usize,
}

/// Why a certificate proves nothing. Errors about one line name it.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CheckError {
    /// The file holds no line at all.
    #[error("the certificate is empty")]
    Empty,
    /// A line is not UTF-8.
    #[error("line {0}: not UTF-8 text")]
    NotText(usize),
    /// A line is not what the format allows there.
    #[error("line {line}: {problem}")]
    Malformed {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        problem: String,
    },
    /// The claim needs a strategy the certificate does not give.
    #[error(
        "the claim {} needs a {} strategy for {}, and there is none",
        claim.name(),
        goal.name(),
        player.notation()
    )]
    MissingStrategy {
        /// The header's claim.
        claim: Value,
        /// The strategy's goal.
        goal: Goal,
        /// Whose.
        player: Player,
    },
    /// A strategy that is no part of the claim.
    #[error(
        "line {line}: a {} strategy for {} is no part of the claim {}",
        goal.name(),
        player.notation(),
        claim.name()
    )]
    ExtraStrategy {
        /// 1-based line number of the section.
        line: usize,
        /// The strategy's goal.
        goal: Goal,
        /// Whose.
        player: Player,
        /// The header's claim.
        claim: Value,
    },
    /// The replay reached a position where the player must move and the
    /// certificate has no node for it.
    #[error(
        "not covered: the {} strategy for {player} has no move at {board} ({player} to move)",
        goal.name(),
        player = player.notation()
    )]
    NotCovered {
        /// The strategy's goal.
        goal: Goal,
        /// Whose.
        player: Player,
        /// The position, in the notation.
        board: String,
    },
    /// The replay reached a position where the strategy's opponent has won.
    #[error(
        "the {} strategy for {} lets {} get k in a row: {board}",
        goal.name(),
        player.notation(),
        player.other().notation()
    )]
    OpponentWins {
        /// The strategy's goal.
        goal: Goal,
        /// Whose.
        player: Player,
        /// The position, in the notation.
        board: String,
    },
    /// A win strategy that lets the board fill up.
    #[error(
        "the win strategy for {} lets the board fill up without a line: {board}",
        player.notation()
    )]
    BoardFills {
        /// Whose.
        player: Player,
        /// The full board, in the notation.
        board: String,
    },
}

/// The first two fields of the header, read before the rest: a file of
/// another format is named as such, whatever its other fields.
#[derive(Deserialize)]
struct Format {
    format: String,
    version: u64,
}

/// A position as the checker plays it: a bit per square for each side,
/// bit `row * size + col`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Position {
    x: u64,
    o: u64,
}

impl Position {
    fn marks(self, player: Player) -> u64 {
        match player {
            Player::X => self.x,
            Player::O => self.o,
        }
    }

    /// X moves when both sides have as many marks.
    fn to_move(self) -> Player {
        if self.x.count_ones() == self.o.count_ones() {
            Player::X
        } else {
            Player::O
        }
    }

    fn play(self, square: usize) -> Position {
        match self.to_move() {
            Player::X => Position {
                x: self.x | 1 << square,
                ..self
            },
            Player::O => Position {
                o: self.o | 1 << square,
                ..self
            },
        }
    }
}

/// The rules of one shape: its lines and its symmetries, worked out here.
struct Rules {
    size: usize,
    full: u64,
    lines: Vec<u64>,
    /// `symmetries[s][square]`: where symmetry `s` takes the square.
    symmetries: Vec<Vec<usize>>,
}

impl Rules {
    fn new(size: u8, k: u8) -> Rules {
        let (n, k_len) = (i32::from(size), i32::from(k));
        let mut lines = Vec::new();
        for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
            for row in 0..n {
                for col in 0..n {
                    let (end_r, end_c) = (row + dr * (k_len - 1), col + dc * (k_len - 1));
                    if (0..n).contains(&end_r) && (0..n).contains(&end_c) {
                        lines.push((0..k_len).fold(0u64, |line, i| {
                            line | 1 << ((row + dr * i) * n + col + dc * i)
                        }));
                    }
                }
            }
        }
        let last = n - 1;
        let symmetries = (0..8)
            .map(|s| {
                (0..n * n)
                    .map(|square| {
                        let (mut r, mut c) = (square / n, square % n);
                        if s >= 4 {
                            (r, c) = (c, r);
                        }
                        for _ in 0..s % 4 {
                            (r, c) = (c, last - r);
                        }
                        (r * n + c) as usize
                    })
                    .collect()
            })
            .collect();
        Rules {
            size: usize::from(size),
            // 64 squares fill every bit.
            full: 1u64
                .checked_shl((n * n) as u32)
                .map_or(u64::MAX, |bit| bit - 1),
            lines,
            symmetries,
        }
    }

    fn has_line(&self, marks: u64) -> bool {
        self.lines.iter().any(|&line| line & !marks == 0)
    }

    fn image(&self, s: usize, marks: u64) -> u64 {
        (0..self.size * self.size)
            .filter(|&square| marks >> square & 1 != 0)
            .fold(0, |image, square| image | 1 << self.symmetries[s][square])
    }

    /// The same key for a position and each of its rotations and reflections.
    fn key(&self, position: Position) -> Position {
        (0..8)
            .map(|s| Position {
                x: self.image(s, position.x),
                o: self.image(s, position.o),
            })
            .min()
            .unwrap_or(position)
    }

    fn notation(&self, position: Position) -> String {
        (0..self.size)
            .map(|row| {
                (0..self.size)
                    .map(|col| {
                        let bit = 1u64 << (row * self.size + col);
                        if position.x & bit != 0 {
                            'x'
                        } else if position.o & bit != 0 {
                            'o'
                        } else {
                            '.'
                        }
                    })
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("/")
    }
}

/// What a strategy does at one position.
enum Action {
    Square(usize),
    Pairs,
}

/// A node: the position it was written for, and what the player does there.
struct Node {
    position: Position,
    action: Action,
}

/// One strategy section as read.
struct Strategy {
    line: usize,
    goal: Goal,
    player: Player,
    /// The nodes by their position's key.
    nodes: HashMap<Position, Node>,
    pair_nodes: usize,
}

/// The header as read, with what the replay needs of it.
struct Start {
    header: Header,
    board: Board,
    rules: Rules,
    position: Position,
}

/// Reads a certificate a line at a time, then replays the strategies its
/// claim needs. [`check`] does the same with the whole text at once.
///
/// ```
/// use tictactoe_engine::solve::certificate::{CheckError, Checker};
///
/// let mut checker = Checker::new();
/// assert!(checker.line(b"{\"format\": \"chess\", \"version\": 1}\n").is_err());
/// assert_eq!(Checker::new().finish(), Err(CheckError::Empty));
/// ```
#[derive(Default)]
pub struct Checker {
    /// Lines read so far.
    read: usize,
    start: Option<Start>,
    strategies: Vec<Strategy>,
}

impl Checker {
    /// A checker that has read nothing yet.
    pub fn new() -> Checker {
        Checker::default()
    }

    /// Reads the next line, with or without its line ending: the first is
    /// the header, each after it a section or a node. The first thing wrong
    /// is the error, and refuses the certificate: feed nothing more after it.
    pub fn line(&mut self, bytes: &[u8]) -> Result<(), CheckError> {
        self.read += 1;
        let line = self.read;
        let text = std::str::from_utf8(bytes).map_err(|_| CheckError::NotText(line))?;
        let Some(start) = &self.start else {
            self.start = Some(read_header(line, text)?);
            return Ok(());
        };
        let object: serde_json::Map<String, serde_json::Value> = parse(line, text)?;
        if object.contains_key("strategy") {
            let section: Section = parse(line, text)?;
            let (goal, player) = (section.strategy, section.player);
            if let Some(earlier) = self
                .strategies
                .iter()
                .find(|s| s.goal == goal && s.player == player)
            {
                return Err(CheckError::Malformed {
                    line,
                    problem: format!(
                        "a second {} strategy for {} (the first is at line {})",
                        goal.name(),
                        player.notation(),
                        earlier.line
                    ),
                });
            }
            self.strategies.push(Strategy {
                line,
                goal,
                player,
                nodes: HashMap::new(),
                pair_nodes: 0,
            });
        } else {
            let strategy = self
                .strategies
                .last_mut()
                .ok_or_else(|| CheckError::Malformed {
                    line,
                    problem: "a node before any strategy section".to_string(),
                })?;
            read_node(line, text, &start.header, &start.rules, strategy)?;
        }
        Ok(())
    }

    /// Replays the strategies the claim needs: what the certificate proved.
    pub fn finish(self) -> Result<Verified, CheckError> {
        let start = self.start.ok_or(CheckError::Empty)?;
        let claim = start.header.claim;
        let needed: Vec<(Goal, Player)> = match claim {
            Value::Win(player) => vec![(Goal::Win, player)],
            Value::Draw => vec![(Goal::Hold, Player::X), (Goal::Hold, Player::O)],
        };
        if let Some(extra) = self.strategies.iter().find(|s| {
            !needed
                .iter()
                .any(|&(goal, player)| s.goal == goal && s.player == player)
        }) {
            return Err(CheckError::ExtraStrategy {
                line: extra.line,
                goal: extra.goal,
                player: extra.player,
                claim,
            });
        }
        let mut replayed = Vec::new();
        for (goal, player) in needed {
            let strategy = self
                .strategies
                .iter()
                .find(|s| s.goal == goal && s.player == player)
                .ok_or(CheckError::MissingStrategy {
                    claim,
                    goal,
                    player,
                })?;
            let positions = replay(&start.rules, start.position, strategy)?;
            replayed.push(Replayed {
                goal,
                player,
                positions,
                nodes: strategy.nodes.len(),
                pair_nodes: strategy.pair_nodes,
            });
        }
        Ok(Verified {
            board: start.board,
            claim,
            strategies: replayed,
        })
    }
}

/// Reads a whole certificate, its lines ended by `\n`, and replays the
/// strategies its claim needs.
///
/// ```
/// use tictactoe_engine::solve::certificate::{CheckError, check};
///
/// assert_eq!(check(""), Err(CheckError::Empty));
/// assert_eq!(check(b"\xff\n"), Err(CheckError::NotText(1)));
/// let error = check("{\"format\": \"tictactoe-stats\", \"version\": 1}\n").unwrap_err();
/// assert_eq!(
///     error.to_string(),
///     r#"line 1: not a tictactoe proof: the format is "tictactoe-stats""#
/// );
/// ```
pub fn check(text: impl AsRef<[u8]>) -> Result<Verified, CheckError> {
    let text = text.as_ref();
    // The piece after the last line ending is a line only if it holds something.
    let text = text.strip_suffix(b"\n").unwrap_or(text);
    let mut checker = Checker::new();
    if !text.is_empty() {
        for line in text.split(|&byte| byte == b'\n') {
            checker.line(line)?;
        }
    }
    checker.finish()
}

/// The header line, checked: this format and version, a board of its shape.
fn read_header(line: usize, text: &str) -> Result<Start, CheckError> {
    let malformed = |problem: String| CheckError::Malformed { line, problem };
    let format: Format = parse(line, text)?;
    if format.format != FORMAT {
        return Err(malformed(format!(
            "not a tictactoe proof: the format is {:?}",
            format.format
        )));
    }
    if format.version != VERSION {
        return Err(malformed(format!(
            "version {} is not one this checker reads (it reads {VERSION})",
            format.version
        )));
    }
    let header: Header = parse(line, text)?;
    let board = read_board(line, &header.board, header.size, header.k)?;
    let rules = Rules::new(header.size, header.k);
    let position = position_of(&board, &rules);
    Ok(Start {
        header,
        board,
        rules,
        position,
    })
}

fn parse<'a, T: Deserialize<'a>>(line: usize, text: &'a str) -> Result<T, CheckError> {
    serde_json::from_str(text).map_err(|error| CheckError::Malformed {
        line,
        problem: error.to_string(),
    })
}

/// A board in the notation, of the header's shape and reachable by the rules.
fn read_board(line: usize, text: &str, size: u8, k: u8) -> Result<Board, CheckError> {
    let malformed = |problem: String| CheckError::Malformed { line, problem };
    let board = Board::parse_with_k(text, Some(k)).map_err(|error| malformed(error.to_string()))?;
    if board.size() != size {
        return Err(malformed(format!(
            "the board {text} is {0}x{0}, not {size}x{size} as the header says",
            board.size()
        )));
    }
    Ok(board)
}

fn position_of(board: &Board, rules: &Rules) -> Position {
    let bits = |player| {
        board
            .marks(player)
            .iter()
            .fold(0u64, |bits, mv| bits | 1 << mv.index(board.size()))
    };
    debug_assert_eq!(usize::from(board.size()), rules.size);
    Position {
        x: bits(Player::X),
        o: bits(Player::O),
    }
}

/// Reads one node into its strategy, checking that it makes sense on its own:
/// a game in progress, a legal move by the player, or pairs that hold.
fn read_node(
    line: usize,
    text: &str,
    header: &Header,
    rules: &Rules,
    strategy: &mut Strategy,
) -> Result<(), CheckError> {
    let malformed = |problem: String| CheckError::Malformed { line, problem };
    let node: NodeLine = parse(line, text)?;
    let board = read_board(line, &node.board, header.size, header.k)?;
    let position = position_of(&board, rules);
    if rules.has_line(position.x)
        || rules.has_line(position.o)
        || position.x | position.o == rules.full
    {
        return Err(malformed(format!("the game is over at {}", node.board)));
    }
    let player = strategy.player;
    let square = |square: &Square| {
        Some(square)
            .filter(|mv| mv.row < header.size && mv.col < header.size)
            .map(|mv| mv.index(header.size))
            .filter(|&cell| (position.x | position.o) >> cell & 1 == 0)
            .ok_or_else(|| malformed(format!("{square} is not an empty square of {}", node.board)))
    };
    let action = match (&node.mv, &node.pairs) {
        (Some(mv), None) => {
            if position.to_move() != player {
                return Err(malformed(format!(
                    "a move for {} where {} is to move: {}",
                    player.notation(),
                    position.to_move().notation(),
                    node.board
                )));
            }
            Action::Square(square(mv)?)
        }
        (None, Some(pairs)) => {
            if strategy.goal == Goal::Win {
                return Err(malformed(
                    "pairs hold a position but cannot win it".to_string(),
                ));
            }
            let mut used = 0u64;
            let mut cells = Vec::new();
            for [a, b] in pairs {
                let (a, b) = (square(a)?, square(b)?);
                let both = 1u64 << a | 1u64 << b;
                if a == b || used & both != 0 {
                    return Err(malformed(format!(
                        "the pairs are not disjoint: {} is used twice",
                        rules_square(
                            header.size,
                            if used >> a & 1 != 0 || a == b { a } else { b }
                        )
                    )));
                }
                used |= both;
                cells.push(both);
            }
            let mine = position.marks(player);
            if let Some(&open) = rules
                .lines
                .iter()
                .find(|&&line| line & mine == 0 && !cells.iter().any(|&pair| pair & !line == 0))
            {
                let ends: Vec<String> = (0..rules.size * rules.size)
                    .filter(|&s| open >> s & 1 != 0)
                    .map(|s| rules_square(header.size, s))
                    .collect();
                return Err(malformed(format!(
                    "no pair lies on the line {}-{}, which has no {}",
                    ends[0],
                    ends[ends.len() - 1],
                    player.notation()
                )));
            }
            strategy.pair_nodes += 1;
            Action::Pairs
        }
        _ => {
            return Err(malformed(
                "a node has either a move or pairs, and not both".to_string(),
            ));
        }
    };
    let key = rules.key(position);
    if strategy.nodes.contains_key(&key) {
        return Err(malformed(format!(
            "{} is listed twice in the {} strategy for {} (up to symmetry)",
            node.board,
            strategy.goal.name(),
            player.notation()
        )));
    }
    strategy.nodes.insert(key, Node { position, action });
    Ok(())
}

fn rules_square(size: u8, square: usize) -> String {
    Square::from_index(square, size).to_string()
}

/// Plays every way the game can go from `start` while the strategy's player
/// follows it, and returns how many positions that took (up to symmetry).
fn replay(rules: &Rules, start: Position, strategy: &Strategy) -> Result<u64, CheckError> {
    let (goal, player) = (strategy.goal, strategy.player);
    let opponent = player.other();
    let mut seen: HashSet<Position> = HashSet::new();
    let mut stack = vec![start];
    while let Some(position) = stack.pop() {
        let key = rules.key(position);
        if !seen.insert(key) {
            continue;
        }
        let board = || rules.notation(position);
        if rules.has_line(position.marks(opponent)) {
            return Err(CheckError::OpponentWins {
                goal,
                player,
                board: board(),
            });
        }
        if rules.has_line(position.marks(player)) {
            continue;
        }
        if position.x | position.o == rules.full {
            if goal == Goal::Win {
                return Err(CheckError::BoardFills {
                    player,
                    board: board(),
                });
            }
            continue;
        }
        match strategy.nodes.get(&key) {
            // Checked as read: the pairs hold from here on.
            Some(Node {
                action: Action::Pairs,
                ..
            }) => {}
            // The node's own position is this one turned about: play on from it.
            Some(Node {
                position: written,
                action: Action::Square(square),
            }) => stack.push(written.play(*square)),
            None if position.to_move() == player => {
                return Err(CheckError::NotCovered {
                    goal,
                    player,
                    board: board(),
                });
            }
            None => {
                let empty = rules.full & !(position.x | position.o);
                stack.extend(
                    (0..rules.size * rules.size)
                        .filter(|&square| empty >> square & 1 != 0)
                        .map(|square| position.play(square)),
                );
            }
        }
    }
    Ok(seen.len() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rules_count_lines_and_turn_the_board_as_the_game_does() {
        // 2n(n-k+1) + 2(n-k+1)^2 lines.
        for (size, k, lines) in [(3, 3, 8), (4, 4, 10), (5, 4, 28), (7, 5, 60), (7, 3, 120)] {
            let rules = Rules::new(size, k);
            assert_eq!(rules.lines.len(), lines, "{size}x{size} k={k}");
        }
        let rules = Rules::new(3, 3);
        // a1 (top left) turns to c1, c3 and a3 under the quarter turns.
        let images: Vec<usize> = (0..4).map(|s| rules.symmetries[s][0]).collect();
        assert_eq!(images, [0, 2, 8, 6]);
        let one = Position { x: 1, o: 0 };
        let corner = Position { x: 1 << 8, o: 0 };
        assert_eq!(rules.key(one), rules.key(corner));
    }
}

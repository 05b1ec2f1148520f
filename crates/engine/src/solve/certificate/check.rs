//! The certificate checker: replays a proof that [`lines`](super::lines)
//! wrote, knowing only the rules of the game. Pure: it is given the text,
//! a line at a time (or whole, or through a reader), and opens nothing itself.
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
//! other side never gets k in a row; `x-holds` (`o-holds`, version 2) the
//! hold of that side alone. A position is looked up up to the eight
//! symmetries of the square; a `pairs` node ends the replay of its branch
//! once its pairs are checked: disjoint, on empty squares, and both squares
//! of some pair on every line that has none of the player's marks.
//!
//! # Memory
//!
//! In version 2 the nodes come in the order the replay meets them (see
//! [`super`]), and the checker replays each strategy as its lines come:
//! a node is used as it is read and not kept, so what the checker holds is
//! the positions replayed so far (the proof's reachable part), the path to
//! the current one, and the line being read, which is at most
//! [`MAX_LINE_BYTES`]. A node that comes before the replay needs it is
//! held until it does; a node the replay never reaches is counted
//! ([`Replayed::unreachable`]) and dropped. A version 1 certificate
//! promises no order: its nodes are held (a few dozen bytes each) and
//! replayed at the end of their section.

use std::collections::HashMap;
use std::io::BufRead;

use serde::Deserialize;
use thiserror::Error;

use super::{Claim, FORMAT, Header, NodeLine, Section, VERSION};
use crate::board::Board;
use crate::player::Player;
use crate::solve::Goal;
use crate::square::Square;

/// The longest line a certificate may have, without its line ending: 64
/// KiB (`solve` writes lines of a few hundred bytes). A longer line is
/// refused as soon as its 65,537th byte is read.
pub const MAX_LINE_BYTES: usize = 64 << 10;

/// What a certificate proved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verified {
    /// The position the claim is about (its size and k are the board's).
    pub board: Board,
    /// What it proves: who wins it with best play, a draw, or that one
    /// side holds.
    pub claim: Claim,
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
    /// Of those, nodes the replay never reached: they prove nothing, and a
    /// certificate `solve` writes has none.
    pub unreachable: usize,
    /// The most nodes held at once, read before the replay needed them
    /// (none for a version 2 certificate in replay order; every node of a
    /// version 1 certificate).
    pub held: usize,
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
    /// A line is longer than [`MAX_LINE_BYTES`].
    #[error("line {0}: longer than {MAX_LINE_BYTES} bytes")]
    LineTooLong(usize),
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
        claim: Claim,
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
        claim: Claim,
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

/// Why a certificate read through a reader proves nothing: the reader
/// failed (the certificate may be fine), or the certificate did.
#[derive(Debug, Error)]
pub enum ReadError {
    /// The reader failed before the end.
    #[error("line {line}: cannot be read: {error}")]
    Unreadable {
        /// 1-based line number.
        line: usize,
        /// The reader's error.
        error: std::io::Error,
    },
    /// The certificate proves nothing.
    #[error(transparent)]
    Refused(#[from] CheckError),
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
pub(crate) struct Position {
    pub x: u64,
    pub o: u64,
}

impl Position {
    pub fn marks(self, player: Player) -> u64 {
        match player {
            Player::X => self.x,
            Player::O => self.o,
        }
    }

    /// X moves when both sides have as many marks.
    pub fn to_move(self) -> Player {
        if self.x.count_ones() == self.o.count_ones() {
            Player::X
        } else {
            Player::O
        }
    }

    pub fn play(self, square: usize) -> Position {
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
pub(crate) struct Rules {
    pub size: usize,
    pub full: u64,
    lines: Vec<u64>,
    /// `symmetries[s][square]`: where symmetry `s` takes the square.
    symmetries: Vec<Vec<usize>>,
}

impl Rules {
    pub fn new(size: u8, k: u8) -> Rules {
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

    pub fn has_line(&self, marks: u64) -> bool {
        self.lines.iter().any(|&line| line & !marks == 0)
    }

    fn image(&self, s: usize, mut marks: u64) -> u64 {
        let mut image = 0;
        while marks != 0 {
            image |= 1 << self.symmetries[s][marks.trailing_zeros() as usize];
            marks &= marks - 1;
        }
        image
    }

    /// True when the game is over at `position`: a line, or a full board.
    pub fn over(&self, position: Position) -> bool {
        self.has_line(position.x)
            || self.has_line(position.o)
            || position.x | position.o == self.full
    }

    /// The positions after each move of the side to move, in reading order.
    pub fn moves(&self, position: Position) -> impl Iterator<Item = Position> + '_ {
        let empty = self.full & !(position.x | position.o);
        (0..self.size * self.size)
            .filter(move |&square| empty >> square & 1 != 0)
            .map(move |square| position.play(square))
    }

    /// The same key for a position and each of its rotations and reflections.
    pub fn key(&self, position: Position) -> Position {
        (0..8)
            .map(|s| Position {
                x: self.image(s, position.x),
                o: self.image(s, position.o),
            })
            .min()
            .unwrap_or(position)
    }

    pub fn notation(&self, position: Position) -> String {
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
#[derive(Debug, Clone, Copy)]
enum Action {
    Square(usize),
    Pairs,
}

/// A node: the position it was written for, and what the player does there.
#[derive(Debug, Clone, Copy)]
struct Node {
    position: Position,
    action: Action,
}

/// The replay of one strategy section, as its lines come.
struct Replay {
    /// 1-based line number of the section.
    line: usize,
    goal: Goal,
    player: Player,
    /// Positions still to visit, the next last.
    stack: Vec<Position>,
    /// Positions visited, by key: true where a node was used.
    seen: HashMap<Position, bool>,
    /// Nodes read before the replay needed them, by key.
    held: HashMap<Position, Node>,
    nodes: usize,
    pair_nodes: usize,
    unreachable: usize,
    most_held: usize,
}

impl Replay {
    fn new(line: usize, goal: Goal, player: Player, start: Position) -> Replay {
        Replay {
            line,
            goal,
            player,
            stack: vec![start],
            seen: HashMap::new(),
            held: HashMap::new(),
            nodes: 0,
            pair_nodes: 0,
            unreachable: 0,
            most_held: 0,
        }
    }

    /// Takes a node just read (`ordered`: the certificate promises replay
    /// order, so the replay goes on at once).
    fn node(
        &mut self,
        rules: &Rules,
        line: usize,
        key: Position,
        node: Node,
        ordered: bool,
    ) -> Result<(), CheckError> {
        let twice = || CheckError::Malformed {
            line,
            problem: format!(
                "{} is listed twice in the {} strategy for {} (up to symmetry)",
                rules.notation(node.position),
                self.goal.name(),
                self.player.notation()
            ),
        };
        if self.seen.get(&key) == Some(&true) || self.held.contains_key(&key) {
            return Err(twice());
        }
        self.nodes += 1;
        if let Action::Pairs = node.action {
            self.pair_nodes += 1;
        }
        let mut incoming = Some((key, node));
        if ordered {
            self.advance(rules, &mut incoming, false)?;
        }
        if let Some((key, node)) = incoming {
            if ordered && (self.stack.is_empty() || self.seen.contains_key(&key)) {
                // The replay is past it, or done: it proves nothing.
                self.unreachable += 1;
            } else {
                self.held.insert(key, node);
                self.most_held = self.most_held.max(self.held.len());
            }
        }
        Ok(())
    }

    /// The section is over: the replay goes to its end with the nodes it
    /// holds.
    fn finish(mut self, rules: &Rules) -> Result<Replayed, CheckError> {
        self.advance(rules, &mut None, true)?;
        Ok(Replayed {
            goal: self.goal,
            player: self.player,
            positions: self.seen.len() as u64,
            nodes: self.nodes,
            pair_nodes: self.pair_nodes,
            unreachable: self.unreachable + self.held.len(),
            held: self.most_held,
        })
    }

    /// Plays on from the positions still to visit while it can: with a
    /// node held or just read (`incoming`, taken if it is the one) where
    /// the player is to move, and where the opponent is, once it is known
    /// whether a node is there: the line just read was not for it, or the
    /// section is over (`end`). Every way the game can go from the start
    /// while the player follows the nodes is visited once up to symmetry,
    /// depth first and the opponent's replies in reading order, as the
    /// certificate's writer went.
    fn advance(
        &mut self,
        rules: &Rules,
        incoming: &mut Option<(Position, Node)>,
        end: bool,
    ) -> Result<(), CheckError> {
        let (goal, player) = (self.goal, self.player);
        while let Some(&position) = self.stack.last() {
            let key = rules.key(position);
            if self.seen.contains_key(&key) {
                self.stack.pop();
                continue;
            }
            let board = || rules.notation(position);
            if rules.has_line(position.marks(player.other())) {
                return Err(CheckError::OpponentWins {
                    goal,
                    player,
                    board: board(),
                });
            }
            if rules.has_line(position.marks(player)) {
                self.seen.insert(key, false);
                self.stack.pop();
                continue;
            }
            if position.x | position.o == rules.full {
                if goal == Goal::Win {
                    return Err(CheckError::BoardFills {
                        player,
                        board: board(),
                    });
                }
                self.seen.insert(key, false);
                self.stack.pop();
                continue;
            }
            let node = self.held.remove(&key).or_else(|| {
                incoming
                    .take_if(|(incoming, _)| *incoming == key)
                    .map(|(_, node)| node)
            });
            match node {
                Some(node) => {
                    self.seen.insert(key, true);
                    self.stack.pop();
                    match node.action {
                        // Checked as read: the pairs hold from here on.
                        Action::Pairs => {}
                        // The node's own position is this one turned about: play on from it.
                        Action::Square(square) => self.stack.push(node.position.play(square)),
                    }
                }
                None if position.to_move() == player => {
                    if end {
                        return Err(CheckError::NotCovered {
                            goal,
                            player,
                            board: board(),
                        });
                    }
                    return Ok(());
                }
                None => {
                    if !end && incoming.is_none() {
                        return Ok(());
                    }
                    self.seen.insert(key, false);
                    self.stack.pop();
                    let replies: Vec<Position> = rules.moves(position).collect();
                    self.stack.extend(replies.into_iter().rev());
                }
            }
        }
        Ok(())
    }
}

/// The header as read, with what the replay needs of it.
struct Start {
    header: Header,
    board: Board,
    rules: Rules,
    position: Position,
    /// Version 2 and later: the nodes come in replay order.
    ordered: bool,
}

/// Reads a certificate a line at a time and replays the strategies its
/// claim needs as their lines come. [`check`] does the same with the
/// whole text at once, [`check_reader`] through a reader.
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
    /// The section being read.
    current: Option<Replay>,
    /// The sections read, replayed.
    done: Vec<(usize, Replayed)>,
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
        let content = bytes.strip_suffix(b"\n").unwrap_or(bytes);
        let content = content.strip_suffix(b"\r").unwrap_or(content);
        if content.len() > MAX_LINE_BYTES {
            return Err(CheckError::LineTooLong(line));
        }
        let text = std::str::from_utf8(bytes).map_err(|_| CheckError::NotText(line))?;
        let Some(start) = &self.start else {
            self.start = Some(read_header(line, text)?);
            return Ok(());
        };
        let object: serde_json::Map<String, serde_json::Value> = parse(line, text)?;
        if object.contains_key("strategy") {
            let section: Section = parse(line, text)?;
            let (goal, player) = (section.strategy, section.player);
            let claim = start.header.claim;
            if !needs(claim).contains(&(goal, player)) {
                return Err(CheckError::ExtraStrategy {
                    line,
                    goal,
                    player,
                    claim,
                });
            }
            let earlier = self
                .done
                .iter()
                .map(|(line, replayed)| (*line, replayed.goal, replayed.player))
                .chain(self.current.iter().map(|r| (r.line, r.goal, r.player)))
                .find(|&(_, g, p)| (g, p) == (goal, player));
            if let Some((first, ..)) = earlier {
                return Err(CheckError::Malformed {
                    line,
                    problem: format!(
                        "a second {} strategy for {} (the first is at line {first})",
                        goal.name(),
                        player.notation(),
                    ),
                });
            }
            let start = self.start.as_ref().expect("read above");
            if let Some(replay) = self.current.take() {
                let first = replay.line;
                self.done.push((first, replay.finish(&start.rules)?));
            }
            self.current = Some(Replay::new(line, goal, player, start.position));
        } else {
            let replay = self.current.as_mut().ok_or_else(|| CheckError::Malformed {
                line,
                problem: "a node before any strategy section".to_string(),
            })?;
            let (key, node) = read_node(line, text, start, replay)?;
            replay.node(&start.rules, line, key, node, start.ordered)?;
        }
        Ok(())
    }

    /// Ends the certificate: replays what is left of the strategies and
    /// says what the certificate proved.
    pub fn finish(mut self) -> Result<Verified, CheckError> {
        let start = self.start.ok_or(CheckError::Empty)?;
        if let Some(replay) = self.current.take() {
            let first = replay.line;
            self.done.push((first, replay.finish(&start.rules)?));
        }
        let claim = start.header.claim;
        let mut strategies = Vec::new();
        for (goal, player) in needs(claim) {
            let replayed = self
                .done
                .iter()
                .find(|(_, r)| (r.goal, r.player) == (goal, player))
                .ok_or(CheckError::MissingStrategy {
                    claim,
                    goal,
                    player,
                })?;
            strategies.push(replayed.1.clone());
        }
        Ok(Verified {
            board: start.board,
            claim,
            strategies,
        })
    }
}

/// The strategies a claim needs, in the order [`Verified`] gives them.
fn needs(claim: Claim) -> Vec<(Goal, Player)> {
    match claim {
        Claim::Wins(player) => vec![(Goal::Win, player)],
        Claim::Draw => vec![(Goal::Hold, Player::X), (Goal::Hold, Player::O)],
        Claim::Holds(player) => vec![(Goal::Hold, player)],
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

/// Reads a certificate from `reader` a line at a time and replays it as
/// [`check`] does, holding no more than one line of the text: a line
/// longer than [`MAX_LINE_BYTES`] is refused as soon as the byte past the
/// limit is read, and nothing after it is read.
///
/// ```
/// use tictactoe_engine::solve::certificate::{CheckError, MAX_LINE_BYTES, ReadError, check_reader};
///
/// let long = format!("{{\"format\": \"{}\"}}\n", "x".repeat(MAX_LINE_BYTES));
/// assert!(matches!(
///     check_reader(long.as_bytes()),
///     Err(ReadError::Refused(CheckError::LineTooLong(1)))
/// ));
/// ```
pub fn check_reader(mut reader: impl BufRead) -> Result<Verified, ReadError> {
    let mut checker = Checker::new();
    let mut line = Vec::new();
    for number in 1.. {
        line.clear();
        let unreadable = |error| ReadError::Unreadable {
            line: number,
            error,
        };
        let complete = loop {
            let buffer = match reader.fill_buf() {
                Ok(buffer) => buffer,
                Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(error) => return Err(unreadable(error)),
            };
            if buffer.is_empty() {
                break false;
            }
            let (taken, ends) = match buffer.iter().position(|&byte| byte == b'\n') {
                Some(at) => (at + 1, true),
                None => (buffer.len(), false),
            };
            // A line ending in \r\n may hold one byte more.
            if line.len() + taken > MAX_LINE_BYTES + 2 {
                let room = (MAX_LINE_BYTES + 2).saturating_sub(line.len());
                line.extend_from_slice(&buffer[..room.min(buffer.len())]);
                break true;
            }
            line.extend_from_slice(&buffer[..taken]);
            reader.consume(taken);
            if ends {
                break true;
            }
        };
        if line.is_empty() && !complete {
            break;
        }
        checker.line(&line)?;
    }
    Ok(checker.finish()?)
}

/// The header line, checked: this format and a version it reads, a board
/// of its shape, a claim the version allows.
fn read_header(line: usize, text: &str) -> Result<Start, CheckError> {
    let malformed = |problem: String| CheckError::Malformed { line, problem };
    let format: Format = parse(line, text)?;
    if format.format != FORMAT {
        return Err(malformed(format!(
            "not a tictactoe proof: the format is {:?}",
            format.format
        )));
    }
    if !(1..=VERSION).contains(&format.version) {
        return Err(malformed(format!(
            "version {} is not one this checker reads (it reads 1 to {VERSION})",
            format.version
        )));
    }
    let header: Header = parse(line, text)?;
    if header.version == 1 && matches!(header.claim, Claim::Holds(_)) {
        return Err(malformed(format!(
            "the claim {} needs version 2",
            header.claim.name()
        )));
    }
    let board = read_board(line, &header.board, header.size, header.k)?;
    let rules = Rules::new(header.size, header.k);
    let position = position_of(&board, &rules);
    Ok(Start {
        ordered: header.version >= 2,
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
pub(crate) fn read_board(line: usize, text: &str, size: u8, k: u8) -> Result<Board, CheckError> {
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

pub(crate) fn position_of(board: &Board, rules: &Rules) -> Position {
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

/// Reads one node, checking that it makes sense on its own: a game in
/// progress, a legal move by the player, or pairs that hold. Its key
/// (its position up to symmetry) comes first.
fn read_node(
    line: usize,
    text: &str,
    start: &Start,
    replay: &Replay,
) -> Result<(Position, Node), CheckError> {
    let (header, rules) = (&start.header, &start.rules);
    let malformed = |problem: String| CheckError::Malformed { line, problem };
    let node: NodeLine = parse(line, text)?;
    let board = read_board(line, &node.board, header.size, header.k)?;
    let position = position_of(&board, rules);
    if rules.over(position) {
        return Err(malformed(format!("the game is over at {}", node.board)));
    }
    let player = replay.player;
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
            if replay.goal == Goal::Win {
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
            Action::Pairs
        }
        _ => {
            return Err(malformed(
                "a node has either a move or pairs, and not both".to_string(),
            ));
        }
    };
    Ok((rules.key(position), Node { position, action }))
}

fn rules_square(size: u8, square: usize) -> String {
    Square::from_index(square, size).to_string()
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

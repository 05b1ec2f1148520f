//! The board: two bitboards, the notation, the rules.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::str::FromStr;

use super::cell_set::CellSet;
use super::error::{BoardError, GeometryError, IllegalMove, InvalidPosition, ParseError};
use super::geometry::{Geometry, MAX_SIZE, MIN_SIZE};
use super::outcome::Outcome;
use super::player::Player;
use super::square::Square;

/// Where a game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Status {
    /// Moves remain and nobody has a line; the side to move is given.
    InProgress {
        /// Whose turn it is.
        to_move: Player,
    },
    /// This side completed a line.
    Won(Player),
    /// The board is full and nobody has a line.
    Draw,
}

impl Status {
    /// True once somebody has won or the board is full.
    pub fn is_over(self) -> bool {
        !matches!(self, Status::InProgress { .. })
    }

    /// How the game ended; `None` while it goes on.
    ///
    /// ```
    /// use tictactoe_engine::{Board, Outcome, Player};
    ///
    /// let board: Board = "xxx/oo./...".parse().unwrap();
    /// assert_eq!(board.status().outcome(), Some(Outcome::Win(Player::X)));
    /// ```
    pub const fn outcome(self) -> Option<Outcome> {
        match self {
            Status::InProgress { .. } => None,
            Status::Won(winner) => Some(Outcome::Win(winner)),
            Status::Draw => Some(Outcome::Draw),
        }
    }
}

/// In words: `X to move`, `X won` or `draw`.
impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Status::InProgress { to_move } => write!(f, "{to_move} to move"),
            Status::Won(winner) => write!(f, "{winner} won"),
            Status::Draw => f.write_str("draw"),
        }
    }
}

/// A position: the marks of both sides on an N×N board with K in a row.
///
/// Always a position that a real game can reach; the constructors check it,
/// and [`Board::play`] only makes legal moves. `Copy` and two words of bits,
/// so searching copies boards instead of undoing moves.
///
/// ```
/// use tictactoe_engine::{Board, IllegalMove, Square, Player, Status};
///
/// let board: Board = "x../.o./...".parse()?;
/// assert_eq!(board.to_move(), Player::X);
/// let after = board.play(Square::new(0, 1))?;
/// assert_eq!(after.to_string(), "xx./.o./...");
/// assert_eq!(after.status(), Status::InProgress { to_move: Player::O });
/// assert_eq!(after.play(Square::new(0, 0)), Err(IllegalMove::Occupied { row: 0, col: 0 }));
/// // X cannot have moved twice while O has not moved.
/// assert!("xx./.../...".parse::<Board>().is_err());
/// // Bigger boards: 4 in a row by default from 4×4 up.
/// assert_eq!("..../..../..../....".parse::<Board>()?.k(), 4);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy)]
pub struct Board {
    geometry: &'static Geometry,
    x: u64,
    o: u64,
}

impl Board {
    /// The empty classic board: 3×3, three in a row.
    pub fn new() -> Board {
        Board {
            geometry: Geometry::classic(),
            x: 0,
            o: 0,
        }
    }

    /// An empty N×N board where K in a row wins.
    pub fn empty(size: u8, k: u8) -> Result<Board, GeometryError> {
        Ok(Board {
            geometry: Geometry::get(size, k)?,
            x: 0,
            o: 0,
        })
    }

    /// The k a board of this side plays by default: 3 on 3×3, 4 on bigger boards.
    pub fn default_k(size: u8) -> u8 {
        if size == MIN_SIZE {
            MIN_SIZE
        } else {
            MIN_SIZE + 1
        }
    }

    /// Reads the notation, with `k` in a row to win (`None`: the default for the size).
    pub fn parse_with_k(text: &str, k: Option<u8>) -> Result<Board, BoardError> {
        let cells = parse_cells(text)?;
        let size = cells.size;
        let geometry = Geometry::get(size, k.unwrap_or_else(|| Board::default_k(size)))?;
        Ok(Board::from_bits(geometry, cells.x, cells.o)?)
    }

    /// A position from bit masks (bit `row * size + col` set where the side has a mark),
    /// checked to be on the board, without a cell owned twice, and reachable.
    ///
    /// ```
    /// use tictactoe_engine::{Board, Geometry, InvalidPosition};
    ///
    /// let classic = Geometry::classic();
    /// // X in the centre (bit 4), O in the corner (bit 0).
    /// assert_eq!(Board::from_bits(classic, 1 << 4, 1)?.to_string(), "o../.x./...");
    /// assert_eq!(Board::from_bits(classic, 1, 1), Err(InvalidPosition::SharedCell));
    /// assert_eq!(Board::from_bits(classic, 1 << 9, 0), Err(InvalidPosition::OffBoard { size: 3 }));
    /// # Ok::<(), InvalidPosition>(())
    /// ```
    pub fn from_bits(
        geometry: &'static Geometry,
        x: u64,
        o: u64,
    ) -> Result<Board, InvalidPosition> {
        if (x | o) & !geometry.full_mask() != 0 {
            return Err(InvalidPosition::OffBoard {
                size: geometry.size(),
            });
        }
        if x & o != 0 {
            return Err(InvalidPosition::SharedCell);
        }
        let board = Board { geometry, x, o };
        board.validate()?;
        Ok(board)
    }

    /// Checks the rules that make a position reachable, naming the first one broken.
    fn validate(&self) -> Result<(), InvalidPosition> {
        let (x, o) = (self.x.count_ones(), self.o.count_ones());
        if x != o && x != o + 1 {
            return Err(InvalidPosition::Counts { x, o });
        }
        let x_line = self.geometry.has_line(self.x);
        let o_line = self.geometry.has_line(self.o);
        if x_line && o_line {
            return Err(InvalidPosition::BothWon);
        }
        for (winner, has_line, must_lead_by) in [(Player::X, x_line, 1), (Player::O, o_line, 0)] {
            if !has_line {
                continue;
            }
            if x != o + must_lead_by {
                return Err(InvalidPosition::MoveAfterWin { winner });
            }
            // The winning move lies on every completed line, so they must share a cell.
            let shared = self
                .completed_lines(winner)
                .fold(u64::MAX, |acc, line| acc & line);
            if shared == 0 {
                return Err(InvalidPosition::SeparateLines { winner });
            }
        }
        Ok(())
    }

    /// Shape of this board.
    pub fn geometry(&self) -> &'static Geometry {
        self.geometry
    }

    /// Side of the board.
    pub fn size(&self) -> u8 {
        self.geometry.size()
    }

    /// How many in a row win.
    pub fn k(&self) -> u8 {
        self.geometry.k()
    }

    /// True on the classic board, 3×3 with three in a row (see [`Geometry::is_classic`]).
    pub fn is_classic(&self) -> bool {
        self.geometry.is_classic()
    }

    /// The cells holding one side's marks.
    pub fn marks(&self, player: Player) -> CellSet {
        CellSet::new(self.size(), self.bits(player))
    }

    /// The empty cells.
    pub fn empty_cells(&self) -> CellSet {
        CellSet::new(self.size(), self.empty_bits())
    }

    /// The empty cells where `player` would complete a line by playing.
    pub fn threats(&self, player: Player) -> CellSet {
        let cells = self.geometry.threats(self.bits(player)) & self.empty_bits();
        CellSet::new(self.size(), cells)
    }

    /// One side's marks as a bit mask (bit `row * size + col`).
    #[inline]
    pub(crate) fn bits(&self, player: Player) -> u64 {
        match player {
            Player::X => self.x,
            Player::O => self.o,
        }
    }

    /// The empty cells as a bit mask.
    #[inline]
    pub(crate) fn empty_bits(&self) -> u64 {
        self.geometry.full_mask() & !(self.x | self.o)
    }

    /// The mark in a cell, if any.
    pub fn get(&self, mv: Square) -> Option<Player> {
        if mv.row >= self.size() || mv.col >= self.size() {
            return None;
        }
        let bit = 1u64 << mv.index(self.size());
        if self.x & bit != 0 {
            Some(Player::X)
        } else if self.o & bit != 0 {
            Some(Player::O)
        } else {
            None
        }
    }

    /// Number of marks on the board.
    pub fn move_count(&self) -> u32 {
        (self.x | self.o).count_ones()
    }

    /// Whose turn it is, from the counts: X when they are equal, O when X has one more.
    pub fn to_move(&self) -> Player {
        if self.x.count_ones() > self.o.count_ones() {
            Player::O
        } else {
            Player::X
        }
    }

    /// The side with a line, if any.
    pub fn winner(&self) -> Option<Player> {
        if self.geometry.has_line(self.x) {
            Some(Player::X)
        } else if self.geometry.has_line(self.o) {
            Some(Player::O)
        } else {
            None
        }
    }

    /// Every cell on a completed line (empty when nobody has won).
    pub fn winning_cells(&self) -> CellSet {
        let Some(winner) = self.winner() else {
            return CellSet::new(self.size(), 0);
        };
        let cells = self.completed_lines(winner).fold(0, |acc, line| acc | line);
        CellSet::new(self.size(), cells)
    }

    /// The lines `player` has completed, each as its cells' bits.
    fn completed_lines(&self, player: Player) -> impl Iterator<Item = u64> {
        let marks = self.bits(player);
        let lines = self.geometry.lines().iter().copied();
        lines.filter(move |&line| marks & line == line)
    }

    /// True while some line holds none of the other side's marks: a line
    /// `player` could still complete, however unlikely.
    ///
    /// ```
    /// use tictactoe_engine::{Board, Player};
    ///
    /// assert!(Board::new().can_still_win(Player::O));
    /// // Every line holds an X and an O: neither side can make one.
    /// let full: Board = "xox/xoo/oxx".parse()?;
    /// assert!(!full.can_still_win(Player::O) && !full.can_still_win(Player::X));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn can_still_win(&self, player: Player) -> bool {
        let theirs = self.bits(player.other());
        self.geometry.lines().iter().any(|&line| line & theirs == 0)
    }

    /// Won, drawn or still going (and whose turn it is).
    pub fn status(&self) -> Status {
        if let Some(winner) = self.winner() {
            Status::Won(winner)
        } else if self.empty_bits() == 0 {
            Status::Draw
        } else {
            Status::InProgress {
                to_move: self.to_move(),
            }
        }
    }

    /// The empty cells in reading order, or none once the game is over.
    pub fn legal_moves(&self) -> Vec<Square> {
        if self.status().is_over() {
            return Vec::new();
        }
        self.empty_cells().iter().collect()
    }

    /// The board after the side to move plays `mv`, or why it cannot.
    pub fn play(&self, mv: Square) -> Result<Board, IllegalMove> {
        let size = self.size();
        if mv.row >= size || mv.col >= size {
            return Err(IllegalMove::OutOfRange {
                row: mv.row,
                col: mv.col,
                size,
            });
        }
        if self.status().is_over() {
            return Err(IllegalMove::GameOver);
        }
        if self.get(mv).is_some() {
            return Err(IllegalMove::Occupied {
                row: mv.row,
                col: mv.col,
            });
        }
        Ok(self.place(mv.index(size), self.to_move()))
    }

    /// Puts `player`'s mark on an empty `cell` without checking the rules: the
    /// reference search places marks for either side, as the article does.
    pub(crate) fn place(&self, cell: usize, player: Player) -> Board {
        debug_assert!(self.empty_bits() & (1 << cell) != 0);
        let bit = 1u64 << cell;
        match player {
            Player::X => Board {
                x: self.x | bit,
                ..*self
            },
            Player::O => Board {
                o: self.o | bit,
                ..*self
            },
        }
    }

    /// The rotations and reflections that leave this position unchanged.
    pub(crate) fn symmetries(&self) -> Symmetries {
        let set = (1..Geometry::symmetry_count())
            .filter(|&s| {
                self.geometry.map(s, self.x) == self.x && self.geometry.map(s, self.o) == self.o
            })
            .fold(1, |set, s| set | 1 << s);
        Symmetries {
            geometry: self.geometry,
            set,
        }
    }

    /// The board as rows of `X`, `O` and `.` separated by single spaces, one row per line.
    pub fn to_grid(&self) -> String {
        let size = self.size();
        (0..size)
            .map(|row| {
                (0..size)
                    .map(|col| {
                        self.get(Square::new(row, col))
                            .map_or('.', Player::symbol)
                            .to_string()
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// The symmetries of one position: moves they map onto each other are worth the same.
#[derive(Clone, Copy)]
pub(crate) struct Symmetries {
    geometry: &'static Geometry,
    /// Bit `s` set when symmetry `s` (numbered as [`Geometry::map`]) fixes the position.
    set: u8,
}

impl Symmetries {
    /// The first move in reading order among `mv` and its images: `mv` itself
    /// unless an earlier move is worth exactly the same (or `mv` is off the board).
    pub fn first_twin(&self, mv: Square) -> Square {
        let size = self.geometry.size();
        if self.set == 1 || mv.row >= size || mv.col >= size {
            return mv;
        }
        let cell = mv.index(size);
        let first = (0..Geometry::symmetry_count())
            .filter(|&s| self.set & (1 << s) != 0)
            .map(|s| self.geometry.map_cell(s, cell))
            .min()
            .unwrap_or(cell);
        Square::from_index(first, size)
    }
}

impl Default for Board {
    fn default() -> Board {
        Board::new()
    }
}

impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        std::ptr::eq(self.geometry, other.geometry) && self.x == other.x && self.o == other.o
    }
}

impl Eq for Board {}

impl Hash for Board {
    fn hash<H: Hasher>(&self, state: &mut H) {
        (self.size(), self.k(), self.x, self.o).hash(state);
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({self}, k={})", self.k())
    }
}

/// The notation: rows of `x`, `o` and `.` joined by `/`, for example `xox/oox/...`.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let size = self.size();
        for row in 0..size {
            if row > 0 {
                f.write_str("/")?;
            }
            for col in 0..size {
                let mark = self
                    .get(Square::new(row, col))
                    .map_or('.', Player::notation);
                write!(f, "{mark}")?;
            }
        }
        Ok(())
    }
}

/// Reads the notation with the default k for the size (3 on 3×3, 4 above).
impl FromStr for Board {
    type Err = BoardError;

    fn from_str(text: &str) -> Result<Board, BoardError> {
        Board::parse_with_k(text, None)
    }
}

struct ParsedCells {
    size: u8,
    x: u64,
    o: u64,
}

fn parse_cells(text: &str) -> Result<ParsedCells, ParseError> {
    let leading = text.chars().take_while(|c| c.is_whitespace()).count();
    let body = text.trim();
    if body.is_empty() {
        return Err(ParseError::Empty);
    }
    let max_cells = usize::from(MAX_SIZE) * usize::from(MAX_SIZE);
    let (mut x, mut o) = (0u64, 0u64);
    let mut cells = 0usize;
    // Cells per row when `/` separates rows. Nine rows already prove a
    // mismatch on a board of at most eight, so later ones count into the ninth.
    let mut rows = [0usize; MAX_SIZE as usize + 1];
    let mut row = 0;
    // freeCodeCamp numbers an empty cell by its index, 0 to 8 on 3x3.
    let mut numbered = false;
    for (offset, ch) in body.chars().enumerate() {
        let bit = if cells < max_cells { 1u64 << cells } else { 0 };
        match ch {
            'x' | 'X' => x |= bit,
            'o' | 'O' => o |= bit,
            '.' | '_' | '-' => {}
            // Spaces between cells, as a student writes a board: x o x / o o x / _ _ _
            _ if ch.is_whitespace() => continue,
            '0'..='8' => {
                let digit = ch as usize - '0' as usize;
                if digit != cells {
                    return Err(ParseError::Numbered {
                        found: ch,
                        position: leading + offset + 1,
                        index: cells,
                    });
                }
                numbered = true;
            }
            '/' => {
                row = (row + 1).min(rows.len() - 1);
                continue;
            }
            found => {
                return Err(ParseError::BadCharacter {
                    found,
                    position: leading + offset + 1,
                });
            }
        }
        cells += 1;
        rows[row] += 1;
    }
    let size = (MIN_SIZE..=MAX_SIZE)
        .find(|&n| usize::from(n) * usize::from(n) == cells)
        .ok_or(ParseError::CellCount(cells))?;
    if numbered && size != MIN_SIZE {
        return Err(ParseError::NumberedBig { size });
    }
    let expected = usize::from(size);
    if row > 0
        && let Some((index, &found)) = rows[..=row]
            .iter()
            .enumerate()
            .find(|&(_, &len)| len != expected)
    {
        return Err(ParseError::RowLength {
            row: index + 1,
            found,
            size: expected,
        });
    }
    Ok(ParsedCells { size, x, o })
}

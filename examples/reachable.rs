//! Prints every position a 3×3 game can reach, one per line, in the notation:
//! the input for timing `tictactoe analyze -` over all of them.
//!
//! `cargo run --release --example reachable > reachable.txt`

use std::collections::{HashSet, VecDeque};
use std::io::{self, BufWriter, Write};

use tictactoe::engine::Board;

fn main() -> io::Result<()> {
    let mut seen = HashSet::from([Board::new()]);
    let mut queue = VecDeque::from([Board::new()]);
    let mut out = BufWriter::new(io::stdout().lock());
    while let Some(board) = queue.pop_front() {
        writeln!(out, "{board}")?;
        for mv in board.legal_moves() {
            if let Ok(next) = board.play(mv)
                && seen.insert(next)
            {
                queue.push_back(next);
            }
        }
    }
    out.flush()
}

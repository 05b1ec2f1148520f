//! Prints every position a 3×3 game can reach, one per line, in the notation:
//! the input for timing `tictactoe analyze -` over all of them.
//!
//! `cargo run --release --example reachable > reachable.txt`

use std::io::{self, BufWriter, Write};

use tictactoe_engine::reachable_positions;

fn main() -> io::Result<()> {
    let mut out = BufWriter::new(io::stdout().lock());
    for board in reachable_positions() {
        writeln!(out, "{board}")?;
    }
    out.flush()
}

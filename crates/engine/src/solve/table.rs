//! The prover's table of positions: what is known of each, up to symmetry.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher as StdHasher};

/// A position up to symmetry: the canonical images of the attacker's and the
/// defender's marks.
pub(crate) type Key = (u64, u64);

/// A fast hasher for keys that are already well-mixed bit patterns.
#[derive(Default, Clone, Copy)]
pub(crate) struct Mix(u64);

impl StdHasher for Mix {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(u64::from(byte));
        }
    }

    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(23) ^ word).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// The hasher of the prover's maps and sets.
pub(crate) type Hasher = BuildHasherDefault<Mix>;

/// What the proof-number search knows of a position.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Entry {
    /// Proof number: at least how many positions must still be proven for the
    /// attacker to win (0: proven).
    pub pn: u32,
    /// Disproof number: the same for the defender to hold (0: disproven).
    pub dn: u32,
    /// The slower tests (threats, pairs, potential) have been run.
    pub evaluated: bool,
}

/// Positions and what is known of them.
pub(crate) type Table = HashMap<Key, Entry, Hasher>;

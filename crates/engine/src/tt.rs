//! The search's transposition table: what it learnt about each position,
//! keyed by the position up to symmetry, so no position is searched twice.

/// What a stored value says about the position's true value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Bound {
    /// The value is the stored one.
    Equal,
    /// The value is at least the stored one.
    Lower,
    /// The value is at most the stored one.
    Upper,
}

/// One position's result.
#[derive(Clone, Copy)]
pub(crate) struct Entry {
    /// The side to move's marks, in the stored (canonical) orientation.
    pub mine: u64,
    /// The other side's marks, in the same orientation.
    pub theirs: u64,
    pub value: i16,
    pub bound: Bound,
    /// Cell of the best move in the stored (canonical) orientation; `u8::MAX` if none.
    pub best: u8,
    /// Plies searched below the position; [`PROVEN`] when no estimate was used.
    pub depth: u32,
}

/// Table depth meaning "no estimate below": the value holds at any depth.
pub(crate) const PROVEN: u32 = u32::MAX;

/// A direct-mapped transposition table: one slot per hash, newest result wins.
///
/// A slot is three words, `[mine, theirs, packed]`, all zero when empty, so the
/// table comes from the allocator already zeroed: a big table costs memory
/// only for the slots a search touches.
pub(crate) struct Table {
    slots: Vec<[u64; 3]>,
}

/// Set in every stored slot's packed word, so no stored slot is all zeros.
const OCCUPIED: u64 = 1;

impl Table {
    /// A table of `2^capacity_log2` slots.
    pub fn new(capacity_log2: u32) -> Table {
        Table {
            slots: vec![[0; 3]; 1 << capacity_log2],
        }
    }

    fn slot(&self, mine: u64, theirs: u64) -> usize {
        // Fibonacci hashing of the two bitboards folded together.
        let mixed = (mine ^ theirs.rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (mixed >> (64 - self.slots.len().trailing_zeros())) as usize
    }

    /// The stored result for this position, if its slot still holds it.
    pub fn probe(&self, mine: u64, theirs: u64) -> Option<Entry> {
        let [stored_mine, stored_theirs, packed] = self.slots[self.slot(mine, theirs)];
        if packed & OCCUPIED == 0 || stored_mine != mine || stored_theirs != theirs {
            return None;
        }
        let bound = match (packed >> 1) & 3 {
            0 => Bound::Equal,
            1 => Bound::Lower,
            _ => Bound::Upper,
        };
        Some(Entry {
            mine,
            theirs,
            value: (packed >> 16) as u16 as i16,
            bound,
            best: (packed >> 8) as u8,
            depth: (packed >> 32) as u32,
        })
    }

    /// Keeps `entry`, replacing whatever shared its slot.
    pub fn store(&mut self, entry: Entry) {
        let bound = match entry.bound {
            Bound::Equal => 0,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        let packed = OCCUPIED
            | bound << 1
            | u64::from(entry.best) << 8
            | u64::from(entry.value as u16) << 16
            | u64::from(entry.depth) << 32;
        let slot = self.slot(entry.mine, entry.theirs);
        self.slots[slot] = [entry.mine, entry.theirs, packed];
    }
}

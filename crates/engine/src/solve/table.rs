//! The prover's table of positions: what is known of each, up to symmetry,
//! in a fixed budget of memory that it never outgrows.
//!
//! The table is an array of buckets of [`SLOTS`] entries; a position lives
//! in the bucket its key hashes to, or in the neighbouring bucket if its
//! own was full when it came. The table starts small and doubles while it
//! is more than half full and the budget allows; once at its budget, a new
//! position takes the place of the entry of the two buckets that cost the
//! least work to find (the fewest positions created below it, so the
//! cheapest to find again), which keeps the big subtrees' results and
//! drops the leaves.
//! A proof then runs at constant memory for as long as it takes: what is
//! dropped is searched again if it is needed again.
//!
//! Each entry is four words of atomics, read and written with relaxed
//! ordering (plain loads and stores on the machines we run on), so threads
//! share one table without locks. Two of the words are the key mixed with
//! the data, so an entry torn by two threads writing at once reads as
//! absent, never as another position's numbers.

use std::hash::{BuildHasherDefault, Hasher as StdHasher};
use std::sync::atomic::{
    AtomicBool, AtomicU64, AtomicUsize, Ordering::Acquire, Ordering::Relaxed, Ordering::Release,
};
use std::sync::{PoisonError, RwLock, RwLockReadGuard};

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

/// A key's hash, for the table and the other per-position arrays: both
/// words folded, then mixed to every bit (the finalizer of MurmurHash3),
/// since boards that differ in a few marks must land far apart.
#[inline]
pub(crate) fn hash(key: Key) -> u64 {
    let mut h = key.0.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ key.1;
    h = (h ^ h >> 33).wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    h = (h ^ h >> 33).wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    h ^ h >> 33
}

/// What the proof-number search knows of a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Entry {
    /// Proof number: at least how many positions must still be proven for the
    /// attacker to win (0: proven).
    pub pn: u32,
    /// Disproof number: the same for the defender to hold (0: disproven).
    pub dn: u32,
    /// The slower tests (threats, pairs, potential) have been run.
    pub evaluated: bool,
    /// Positions the search created below this one, all visits together
    /// (saturating): what finding its numbers again would cost.
    pub work: u32,
}

/// Entries per bucket: four entries of 32 bytes, two cache lines.
pub(crate) const SLOTS: usize = 4;

/// Bytes of one entry.
pub(crate) const ENTRY_BYTES: usize = 32;

/// The smallest table: 16 entries (512 bytes), so a small proof pays for
/// little (an even number: buckets go in pairs of neighbours).
const MIN_BUCKETS: usize = 4;

/// Set in the second data word of every stored entry, so that an empty
/// slot (all zero) is never read as the empty board's entry.
const OCCUPIED: u64 = 1 << 63;
const EVALUATED: u64 = 1 << 32;

/// One bucket: [`SLOTS`] entries of four words each (see [`Table`]). Not
/// aligned to the cache by its type, so that the table can grow in place
/// (the allocator moves a big block's pages rather than copying them only
/// for blocks of the usual alignment); a big table's block starts on a
/// page, so its buckets fall on cache lines all the same.
struct Bucket([AtomicU64; 4 * SLOTS]);

impl Bucket {
    fn empty() -> Bucket {
        Bucket(std::array::from_fn(|_| AtomicU64::new(0)))
    }

    /// Takes every entry out of the bucket, leaving it empty.
    fn drain(&mut self) -> impl Iterator<Item = (Key, Entry)> {
        let words = std::mem::replace(self, Bucket::empty())
            .0
            .map(AtomicU64::into_inner);
        (0..SLOTS).filter_map(move |slot| {
            let [w0, w1, d1, d2] = [0, 1, 2, 3].map(|i| words[4 * slot + i]);
            (d2 & OCCUPIED != 0).then(|| {
                let k0 = w0 ^ d2;
                ((k0, w1 ^ d1 ^ spread(k0)), unpack(d1, d2))
            })
        })
    }
}

/// The entry's words: the key bound to the data, then the data itself.
/// `(key.0 ^ d2, key.1 ^ d1 ^ spread(key.0), d1, d2)`.
#[inline]
fn spread(word: u64) -> u64 {
    word.wrapping_mul(0xD6E8_FEB8_6659_FD93)
}

#[inline]
fn pack(entry: Entry) -> (u64, u64) {
    let d1 = u64::from(entry.pn) | u64::from(entry.dn) << 32;
    let d2 = u64::from(entry.work) | if entry.evaluated { EVALUATED } else { 0 } | OCCUPIED;
    (d1, d2)
}

#[inline]
fn unpack(d1: u64, d2: u64) -> Entry {
    Entry {
        pn: d1 as u32,
        dn: (d1 >> 32) as u32,
        evaluated: d2 & EVALUATED != 0,
        work: d2 as u32,
    }
}

/// How full a table is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TableUse {
    /// Entries held.
    pub entries: u64,
    /// Entries the table has room for at its present size.
    pub capacity: u64,
    /// Bytes the table takes at its present size.
    pub bytes: u64,
    /// Bytes it may grow to: its budget.
    pub budget: u64,
    /// Entries dropped to make room since the table was made (each to be
    /// searched again if the proof needs it again).
    pub replaced: u64,
}

/// The buckets, at one size (an even number of them).
struct Slots {
    buckets: Vec<Bucket>,
}

impl Slots {
    fn new(buckets: usize) -> Slots {
        let mut slots = Vec::with_capacity(buckets);
        slots.resize_with(buckets, Bucket::empty);
        Slots { buckets: slots }
    }

    /// The index of `key`'s own bucket: its hash scaled to the number of
    /// buckets (which need not be a power of two, so that a table fills
    /// its budget).
    #[inline]
    fn home(&self, key: Key) -> usize {
        ((u128::from(hash(key)) * self.buckets.len() as u128) >> 64) as usize
    }

    /// What is known of `key`: in its own bucket, or, if that one is full,
    /// in its neighbour (the bucket whose index differs in the last bit),
    /// where it went if its own was full when it came. A slot once filled
    /// is never emptied, so a bucket with room never overflowed.
    #[inline]
    fn get(&self, key: Key) -> Option<Entry> {
        let home = self.home(key);
        match probe(&self.buckets[home], key) {
            Probe::Found(_, entry) => Some(entry),
            Probe::Room(_) => None,
            Probe::Full(_) => match probe(&self.buckets[home ^ 1], key) {
                Probe::Found(_, entry) => Some(entry),
                Probe::Room(_) | Probe::Full(_) => None,
            },
        }
    }

    /// Stores `entry` over `key`'s own entry, else in an empty slot of its
    /// bucket or its neighbour's, else (when `always`, or when it has more
    /// work) over the entry of the two buckets with the least work.
    #[inline]
    fn put(&self, key: Key, entry: Entry, always: bool) -> Placed {
        let home = self.home(key);
        let first = match probe(&self.buckets[home], key) {
            Probe::Found(slot, _) => {
                write(&self.buckets[home], slot, key, entry);
                return Placed::Over;
            }
            Probe::Room(slot) => {
                write(&self.buckets[home], slot, key, entry);
                return Placed::New;
            }
            Probe::Full(cheapest) => cheapest,
        };
        let next = home ^ 1;
        let second = match probe(&self.buckets[next], key) {
            Probe::Found(slot, _) => {
                write(&self.buckets[next], slot, key, entry);
                return Placed::Over;
            }
            Probe::Room(slot) => {
                write(&self.buckets[next], slot, key, entry);
                return Placed::New;
            }
            Probe::Full(cheapest) => cheapest,
        };
        let (bucket, (work, slot)) = if second.0 < first.0 {
            (next, second)
        } else {
            (home, first)
        };
        if always || u64::from(entry.work) > work {
            write(&self.buckets[bucket], slot, key, entry);
        }
        Placed::Replacing
    }

    /// Every entry held, with its key.
    fn entries(&self) -> impl Iterator<Item = (Key, Entry)> + '_ {
        self.buckets.iter().flat_map(|bucket| {
            (0..SLOTS).filter_map(move |slot| {
                let words = &bucket.0[4 * slot..4 * slot + 4];
                let (w0, w1, d1, d2) = (
                    words[0].load(Relaxed),
                    words[1].load(Relaxed),
                    words[2].load(Relaxed),
                    words[3].load(Relaxed),
                );
                (d2 & OCCUPIED != 0).then(|| {
                    let k0 = w0 ^ d2;
                    ((k0, w1 ^ d1 ^ spread(k0)), unpack(d1, d2))
                })
            })
        })
    }
}

/// Where a store went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Placed {
    /// In an empty slot.
    New,
    /// Over the key's own entry.
    Over,
    /// Over another entry, or nowhere (it was dropped).
    Replacing,
}

/// Positions and what is known of them, within a budget of bytes.
///
/// Threads read and write it through [`View`]s; the table grows (while it
/// is more than half full and under its budget) when a view asks it
/// to, the other views waiting meanwhile at their next look, so that no
/// search has to give up its place to let it grow.
pub(crate) struct Table {
    slots: RwLock<Slots>,
    /// The largest number of buckets the budget allows (an even number).
    most_buckets: usize,
    /// Buckets at the present size.
    buckets: AtomicUsize,
    /// Entries held.
    used: AtomicUsize,
    replaced: AtomicU64,
    /// A view is growing the table.
    growing: AtomicBool,
}

impl Table {
    /// A table that will never take more than `budget` bytes (at least
    /// its smallest size, 512 bytes).
    pub fn new(budget: usize) -> Table {
        let most_buckets = most_buckets(budget);
        let buckets = MIN_BUCKETS.min(most_buckets);
        Table {
            slots: RwLock::new(Slots::new(buckets)),
            most_buckets,
            buckets: AtomicUsize::new(buckets),
            used: AtomicUsize::new(0),
            replaced: AtomicU64::new(0),
            growing: AtomicBool::new(false),
        }
    }

    /// A view to read and write the table with, on this thread.
    pub fn view(&self) -> View<'_> {
        View {
            table: self,
            slots: Some(self.read()),
        }
    }

    fn read(&self) -> RwLockReadGuard<'_, Slots> {
        self.slots.read().unwrap_or_else(PoisonError::into_inner)
    }

    /// Counts where a store went.
    #[inline]
    fn count(&self, placed: Placed) {
        match placed {
            Placed::New => {
                self.used.fetch_add(1, Relaxed);
            }
            Placed::Over => {}
            Placed::Replacing => {
                self.replaced.fetch_add(1, Relaxed);
            }
        }
    }

    /// True when the table is more than half full and may still grow.
    #[inline]
    fn wants_to_grow(&self) -> bool {
        let buckets = self.buckets.load(Relaxed);
        buckets < self.most_buckets && self.used.load(Relaxed) * 2 > buckets * SLOTS
    }

    /// The table's buckets at `buckets`, every entry kept that fits (the
    /// ones with the most work first, bucket by bucket).
    fn resize(&self, slots: &mut Slots, buckets: usize) {
        let old = std::mem::replace(slots, Slots::new(buckets));
        self.used.store(0, Relaxed);
        self.buckets.store(buckets, Relaxed);
        for (key, entry) in old.entries() {
            self.count(slots.put(key, entry, false));
        }
    }

    /// Grows the table by doubling (more than once if it would still be
    /// more than half full), up to its budget, in place: the block grows
    /// (its pages moved, not copied, once it is big), and the entries move
    /// up to their new buckets from the top down. A position's bucket is
    /// its hash scaled to the number of buckets, so with more buckets no
    /// entry moves down but by the one step to its neighbour, and every
    /// bucket an entry moves to has given up its own entries already (or
    /// will be emptied and filled again); what finds no room on the way is
    /// placed at the end. So the table never takes more than its new size.
    fn grow(&self, slots: &mut Slots) {
        let old = slots.buckets.len();
        let mut size = old;
        while size < self.most_buckets && self.used.load(Relaxed) * 2 > size * SLOTS {
            size = (size * 2).min(self.most_buckets);
        }
        if size == old {
            return;
        }
        slots.buckets.reserve_exact(size - old);
        slots.buckets.resize_with(size, Bucket::empty);
        self.buckets.store(size, Relaxed);
        let mut homeless = Vec::new();
        for index in (0..old).rev() {
            let moving: Vec<(Key, Entry)> = slots.buckets[index].drain().collect();
            for (key, entry) in moving {
                match probe(&slots.buckets[slots.home(key)], key) {
                    Probe::Room(slot) => write(&slots.buckets[slots.home(key)], slot, key, entry),
                    Probe::Found(..) | Probe::Full(_) => homeless.push((key, entry)),
                }
            }
        }
        for (key, entry) in homeless {
            if slots.put(key, entry, false) == Placed::Replacing {
                self.replaced.fetch_add(1, Relaxed);
            }
        }
        let held = slots
            .buckets
            .iter()
            .flat_map(|bucket| (0..SLOTS).map(|slot| bucket.0[4 * slot + 3].load(Relaxed)))
            .filter(|&d2| d2 & OCCUPIED != 0)
            .count();
        self.used.store(held, Relaxed);
    }

    /// Sets the table's budget to `budget` bytes (see [`Table::new`]): a
    /// table bigger than that is shrunk at once, keeping in each bucket
    /// the entries with the most work.
    pub fn set_budget(&mut self, budget: usize) {
        self.most_buckets = most_buckets(budget);
        let slots = self.slots.get_mut().unwrap_or_else(PoisonError::into_inner);
        if slots.buckets.len() > self.most_buckets {
            let mut resized = std::mem::replace(slots, Slots::new(1));
            self.resize(&mut resized, self.most_buckets);
            *self.slots.get_mut().unwrap_or_else(PoisonError::into_inner) = resized;
        }
    }

    /// How full the table is.
    pub fn usage(&self) -> TableUse {
        let capacity = self.buckets.load(Relaxed) * SLOTS;
        TableUse {
            entries: self.used.load(Relaxed) as u64,
            capacity: capacity as u64,
            bytes: (capacity * ENTRY_BYTES) as u64,
            budget: (self.most_buckets * SLOTS * ENTRY_BYTES) as u64,
            replaced: self.replaced.load(Relaxed),
        }
    }
}

/// One thread's access to a [`Table`].
pub(crate) struct View<'t> {
    table: &'t Table,
    /// Always held but while the table grows.
    slots: Option<RwLockReadGuard<'t, Slots>>,
}

impl View<'_> {
    #[inline]
    fn slots(&self) -> &Slots {
        self.slots
            .as_deref()
            .expect("a view holds the table between looks")
    }

    /// What is known of `key`, if the table holds it.
    #[inline]
    pub fn get(&self, key: Key) -> Option<Entry> {
        self.slots().get(key)
    }

    /// Stores what is known of `key`: over its own entry, else in an empty
    /// slot, else over the entry of its bucket with the least work (the
    /// cheapest to find again).
    #[inline]
    pub fn store(&self, key: Key, entry: Entry) {
        self.table.count(self.slots().put(key, entry, true));
    }

    /// How full the table is.
    pub fn usage(&self) -> TableUse {
        self.table.usage()
    }

    /// Grows the table if it wants to grow and no other view is growing
    /// it, or waits while another view grows it. Called between steps of
    /// a search: it lets go of the table meanwhile.
    pub fn look(&mut self) {
        let table = self.table;
        if !table.growing.load(Acquire) && !table.wants_to_grow() {
            return;
        }
        self.slots = None;
        if table
            .growing
            .compare_exchange(false, true, Acquire, Relaxed)
            .is_ok()
        {
            {
                let mut slots = table.slots.write().unwrap_or_else(PoisonError::into_inner);
                table.grow(&mut slots);
            }
            table.growing.store(false, Release);
        } else {
            while table.growing.load(Acquire) {
                std::thread::yield_now();
            }
        }
        self.slots = Some(table.read());
    }
}

/// The most buckets `budget` bytes hold: an even number, and never fewer
/// than the smallest table's.
fn most_buckets(budget: usize) -> usize {
    ((budget / (SLOTS * ENTRY_BYTES)) & !1).max(MIN_BUCKETS)
}

/// What a bucket holds for a key.
enum Probe {
    /// The key's entry, in this slot.
    Found(usize, Entry),
    /// Not the key, and this slot is empty.
    Room(usize),
    /// Not the key, and no room: the least work held, and its slot.
    Full((u64, usize)),
}

/// Looks for `key` in `bucket`.
#[inline]
fn probe(bucket: &Bucket, key: Key) -> Probe {
    let mut cheapest = (u64::MAX, 0);
    for slot in 0..SLOTS {
        let words = &bucket.0[4 * slot..4 * slot + 4];
        let d2 = words[3].load(Relaxed);
        if d2 & OCCUPIED == 0 {
            return Probe::Room(slot);
        }
        if words[0].load(Relaxed) ^ d2 == key.0 {
            let d1 = words[2].load(Relaxed);
            if words[1].load(Relaxed) ^ d1 ^ spread(key.0) == key.1 {
                return Probe::Found(slot, unpack(d1, d2));
            }
        }
        let work = u64::from(d2 as u32);
        if work < cheapest.0 {
            cheapest = (work, slot);
        }
    }
    Probe::Full(cheapest)
}

#[inline]
fn write(bucket: &Bucket, slot: usize, key: Key, entry: Entry) {
    let (d1, d2) = pack(entry);
    let words = &bucket.0[4 * slot..4 * slot + 4];
    words[0].store(key.0 ^ d2, Relaxed);
    words[1].store(key.1 ^ d1 ^ spread(key.0), Relaxed);
    words[2].store(d1, Relaxed);
    words[3].store(d2, Relaxed);
}

/// A small lossy set of positions where the attacker has no win by
/// continuous threats: each position has one place, and a newer one takes
/// it. Each thread keeps its own.
pub(crate) struct Failures {
    slots: Vec<(u64, u64)>,
    /// Positions inserted since the last growth.
    inserted: usize,
}

/// The most positions a [`Failures`] holds: 16,384 (256 KiB).
pub(crate) const FAILURES: usize = 1 << 14;

/// The fewest once it holds one: 256 (4 KiB), so a small proof pays for little.
const FEWEST_FAILURES: usize = 1 << 8;

impl Failures {
    /// An empty set, which takes no memory until a position comes.
    pub fn new() -> Failures {
        Failures {
            slots: Vec::new(),
            inserted: 0,
        }
    }

    /// The most bytes a [`Failures`] takes.
    pub const fn bytes() -> usize {
        FAILURES * 16
    }

    #[inline]
    fn index(&self, attacker: u64, defender: u64) -> usize {
        (hash((attacker, defender)) >> (64 - self.slots.len().trailing_zeros())) as usize
    }

    /// True when the position is known to have no such win. The attacker's
    /// marks are kept inverted: no position has every cell, so an empty
    /// slot is never a position.
    #[inline]
    pub fn contains(&self, attacker: u64, defender: u64) -> bool {
        !self.slots.is_empty()
            && self.slots[self.index(attacker, defender)] == (!attacker, defender)
    }

    /// Remembers a position; once as many have come as it has places, it
    /// grows fourfold (forgetting them all) until its most.
    #[inline]
    pub fn insert(&mut self, attacker: u64, defender: u64) {
        self.inserted += 1;
        if self.inserted > self.slots.len() && self.slots.len() < FAILURES {
            self.slots = vec![(0, 0); (self.slots.len() * 4).clamp(FEWEST_FAILURES, FAILURES)];
            self.inserted = 0;
        }
        let index = self.index(attacker, defender);
        self.slots[index] = (!attacker, defender);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(n: u32) -> Entry {
        Entry {
            pn: n,
            dn: n + 1,
            evaluated: n.is_multiple_of(2),
            work: n,
        }
    }

    #[test]
    fn entries_come_back_as_stored_and_an_empty_table_knows_nothing() {
        let table = Table::new(1 << 20);
        let view = table.view();
        assert_eq!(
            view.get((0, 0)),
            None,
            "an empty slot is not the empty board"
        );
        view.store((0, 0), entry(0));
        assert_eq!(view.get((0, 0)), Some(entry(0)));
        let mut view = view;
        for n in 1..100 {
            view.store((n.into(), 7), entry(n));
            view.look();
        }
        for n in 1..100 {
            assert_eq!(view.get((n.into(), 7)), Some(entry(n)));
            assert_eq!(view.get((n.into(), 8)), None);
        }
        view.store((5, 7), entry(500));
        assert_eq!(view.get((5, 7)), Some(entry(500)));
        assert_eq!(table.usage().entries, 100);
    }

    #[test]
    fn a_full_table_keeps_its_size_and_drops_the_cheapest_entries() {
        let table = Table::new(64 << 10);
        let mut view = table.view();
        let budget = table.usage().budget;
        assert_eq!(budget, 64 << 10);
        for n in 0..100_000u32 {
            // Every tenth position cost much work to find.
            let work = if n % 10 == 0 { 1_000_000 + n } else { n % 7 };
            view.store(
                (u64::from(n), u64::from(n) << 20),
                Entry { work, ..entry(n) },
            );
            view.look();
            assert!(table.usage().bytes <= budget);
        }
        let usage = table.usage();
        assert_eq!(usage.bytes, budget);
        assert!(usage.replaced > 90_000, "{usage:?}");
        // Of the 10,000 costly positions, the 2,048 slots keep mostly those.
        let costly_kept = (0..100_000u32)
            .step_by(10)
            .filter(|&n| view.get((u64::from(n), u64::from(n) << 20)).is_some())
            .count();
        assert!(costly_kept > 1_500, "{costly_kept} costly entries kept");
    }

    #[test]
    fn growing_keeps_every_entry_it_held() {
        let mut table = Table::new(1 << 30);
        {
            let mut view = table.view();
            for n in 0..50_000u32 {
                view.store((u64::from(n) * 3, 1), entry(n));
                view.look();
            }
            let usage = table.usage();
            let held = (0..50_000u32)
                .filter(|&n| view.get((u64::from(n) * 3, 1)) == Some(entry(n)))
                .count() as u64;
            assert_eq!(held, usage.entries);
            assert_eq!(held + usage.replaced, 50_000);
            assert!(usage.replaced < 1_000, "{usage:?}");
        }
        // Shrunk to a smaller budget, it keeps what fits, the costliest first.
        table.set_budget(64 << 10);
        assert_eq!(table.usage().bytes, 64 << 10);
        let view = table.view();
        assert!(view.get((49_999 * 3, 1)).is_some(), "the most work is kept");
        assert!(table.usage().entries <= 2_048);
    }

    #[test]
    fn threads_share_a_growing_table() {
        let table = Table::new(1 << 26);
        std::thread::scope(|scope| {
            for t in 0..4u64 {
                let table = &table;
                scope.spawn(move || {
                    let mut view = table.view();
                    for n in 0..20_000u32 {
                        view.store((u64::from(n), t), entry(n));
                        if n % 64 == 0 {
                            view.look();
                        }
                    }
                });
            }
        });
        let view = table.view();
        let held = (0..4u64)
            .flat_map(|t| (0..20_000u32).map(move |n| (t, n)))
            .filter(|&(t, n)| view.get((u64::from(n), t)) == Some(entry(n)))
            .count() as u64;
        let usage = table.usage();
        // Two threads filling one empty slot at once lose one of the two
        // entries (never mix them): rare, and no worse than a replacement.
        assert!(held + usage.replaced <= 80_000, "{usage:?}");
        assert!(held + usage.replaced > 79_900, "{usage:?}");
        assert!(usage.capacity >= 2 * 65_536, "it grew: {usage:?}");
    }

    #[test]
    fn failures_forget_but_never_invent() {
        let mut failures = Failures::new();
        assert!(!failures.contains(0, 0), "the empty board is not held");
        failures.insert(0, 0);
        assert!(failures.contains(0, 0));
        for n in 1..100_000u64 {
            failures.insert(n, n << 1);
        }
        assert!(failures.contains(99_999, 99_999 << 1));
        assert!(!failures.contains(5, 5));
    }
}

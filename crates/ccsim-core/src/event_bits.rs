//! An event as one `u64` in the queue.
//!
//! Why: a heap entry's event is written when it is scheduled and read back when it pops, often
//! a few events later, while those stores may still be in flight. An enum value is written
//! field by field (a tag, then each payload word) and copied whole; a load that spans several
//! pending stores cannot be forwarded from them and waits until they reach the cache (a
//! store-forwarding stall: ~4.7 % of case A's run-loop samples at the heap's pop, by `perf
//! annotate`; benches/README.md). One `u64` is written with one store and read with one load.

/// A queue item's encoding as one `u64`. `from_bits(to_bits(e)) == e` for every value.
pub trait EventBits: Copy {
    fn to_bits(self) -> u64;
    fn from_bits(bits: u64) -> Self;
}

impl EventBits for u32 {
    #[inline(always)]
    fn to_bits(self) -> u64 {
        u64::from(self)
    }

    #[inline(always)]
    fn from_bits(bits: u64) -> Self {
        bits as u32
    }
}

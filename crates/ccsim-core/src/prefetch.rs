//! Cache prefetch hints for the per-packet path: no effect on any result, only on when a
//! value reaches the cache.
//!
//! Why: a packet and its delay-line slot are written when the packet is sent and read again
//! a propagation delay later (20 ms on the dumbbell's bottleneck, hundreds of packets on),
//! by which time both have left the first-level cache; `perf` on case A put the largest
//! single stalls of the run loop on those two loads (benches/README.md). Asking for the next
//! one while the current one is handled hides most of that wait.

/// Asks the CPU to bring every cache line of `*value` into the first-level cache.
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let p = (value as *const T).cast::<i8>();
        let size = std::mem::size_of::<T>();
        let mut offset = 0;
        // One hint per 64-byte line, plus the last byte (the value need not start a line).
        while offset < size {
            // SAFETY: prefetching has no architectural effect and cannot fault; every address
            // is inside `*value`.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p.add(offset)) };
            offset += 64;
        }
        if size > 0 {
            // SAFETY: as above; the last byte of `*value`.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p.add(size - 1)) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

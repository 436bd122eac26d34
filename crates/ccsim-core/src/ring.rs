//! A FIFO ring buffer of `Copy` items with a power-of-two capacity, for the per-packet path
//! (a link's delay line and drop-tail queue).
//!
//! Why not `VecDeque`: its index wraps with a compare and subtract, its `pop_front` returns
//! an `Option` the callers unwrap again, and its growth check sits inline in `push_back`.
//! Here the slot is `(head + len) & mask`, and the buffer only grows (doubling) when full,
//! which in steady state never happens. Callgrind figures: benches/README.md.

#[derive(Clone, Debug)]
pub struct Ring<T> {
    /// Slots; its length is 0 or a power of two. Slots outside `[head, head + len)` hold
    /// stale copies (never read).
    buf: Vec<T>,
    head: usize,
    len: usize,
}

impl<T> Default for Ring<T> {
    fn default() -> Self {
        Ring {
            buf: Vec::new(),
            head: 0,
            len: 0,
        }
    }
}

impl<T: Copy> Ring<T> {
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    fn mask(&self) -> usize {
        self.buf.len().wrapping_sub(1)
    }

    #[inline(always)]
    pub fn push_back(&mut self, item: T) {
        if self.len == self.buf.len() {
            self.grow(item);
        }
        let i = (self.head + self.len) & self.mask();
        self.buf[i] = item;
        self.len += 1;
    }

    #[inline(always)]
    pub fn pop_front(&mut self) -> Option<T> {
        if self.len == 0 {
            return None;
        }
        let item = self.buf[self.head];
        self.head = (self.head + 1) & self.mask();
        self.len -= 1;
        Some(item)
    }

    #[inline]
    pub fn front(&self) -> Option<&T> {
        (self.len > 0).then(|| &self.buf[self.head])
    }

    /// Prefetches the slot `ahead` items after the front, if it holds one (see
    /// [`crate::prefetch`]).
    #[inline(always)]
    pub fn prefetch(&self, ahead: usize) {
        if ahead < self.len {
            crate::prefetch::prefetch(&self.buf[(self.head + ahead) & self.mask()]);
        }
    }

    #[inline]
    pub fn back(&self) -> Option<&T> {
        (self.len > 0).then(|| &self.buf[(self.head + self.len - 1) & self.mask()])
    }

    /// Doubles the capacity (at least 8), unrolling the items to the start; `fill` is any
    /// value to fill the new slots with (they are stale until written).
    #[cold]
    #[inline(never)]
    fn grow(&mut self, fill: T) {
        let cap = (self.buf.len() * 2).max(8);
        let mut buf = Vec::with_capacity(cap);
        buf.extend((0..self.len).map(|k| self.buf[(self.head + k) & self.mask()]));
        buf.resize(cap, fill);
        self.buf = buf;
        self.head = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;

    /// Interleaved pushes and pops (across growth and wrap-around) match a `VecDeque`.
    #[test]
    fn behaves_as_a_vecdeque() {
        let mut ring = Ring::default();
        let mut reference = VecDeque::new();
        let mut s = 12345u64;
        for i in 0..50_000u32 {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1);
            // Pushes slightly more often than pops: the ring grows through 8 … 4096 slots.
            if (s >> 33) % 100 < 52 {
                ring.push_back(i);
                reference.push_back(i);
            } else {
                assert_eq!(ring.pop_front(), reference.pop_front());
            }
            assert_eq!(ring.len(), reference.len());
            assert_eq!(ring.front(), reference.front());
            assert_eq!(ring.back(), reference.back());
        }
        while let Some(x) = reference.pop_front() {
            assert_eq!(ring.pop_front(), Some(x));
        }
        assert!(ring.is_empty());
        assert_eq!(ring.pop_front(), None);
    }
}

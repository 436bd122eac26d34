//! A 4-ary min-heap of `(u128 key, item)` pairs with hole-based sifting.
//!
//! Why not `std::collections::BinaryHeap`: the event queue's entries compared as two `u64`
//! fields through a reversed `Ord`, and `BinaryHeap::pop` sifts the last element all the way
//! to the bottom and back up. Here the key is one integer compare, a pop moves each entry on
//! its path once (into the hole above it), and four children per node halve the levels: a
//! heap of tens of events is two or three levels deep. Callgrind on case A: see
//! benches/README.md.

/// Keys compare as one integer; the event queue packs (time, sequence) into it.
pub type Key = u128;

const ARITY: usize = 4;

#[derive(Clone, Copy)]
struct Entry<T> {
    key: Key,
    item: T,
}

pub struct QuadHeap<T> {
    v: Vec<Entry<T>>,
}

impl<T: Copy> Default for QuadHeap<T> {
    fn default() -> Self {
        Self::with_capacity(0)
    }
}

impl<T: Copy> QuadHeap<T> {
    pub fn with_capacity(capacity: usize) -> Self {
        QuadHeap {
            v: Vec::with_capacity(capacity),
        }
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.v.len()
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.v.is_empty()
    }

    /// The smallest key.
    #[inline]
    pub fn peek_key(&self) -> Option<Key> {
        self.v.first().map(|e| e.key)
    }

    #[inline]
    pub fn push(&mut self, key: Key, item: T) {
        let mut i = self.v.len();
        let new = Entry { key, item };
        self.v.push(new);
        // Move parents down into the hole until the new key's place is found.
        while i > 0 {
            let parent = (i - 1) / ARITY;
            let p = self.v[parent];
            if p.key <= key {
                break;
            }
            self.v[i] = p;
            i = parent;
        }
        self.v[i] = new;
    }

    /// Removes and returns the entry with the smallest key.
    #[inline]
    pub fn pop(&mut self) -> Option<(Key, T)> {
        let last = self.v.pop()?;
        let n = self.v.len();
        if n == 0 {
            return Some((last.key, last.item));
        }
        let top = self.v[0];
        // Sift the former last entry down from the root's hole.
        let mut i = 0;
        loop {
            let first = ARITY * i + 1;
            if first >= n {
                break;
            }
            let end = (first + ARITY).min(n);
            let mut m = first;
            let mut mk = self.v[first].key;
            for c in first + 1..end {
                let k = self.v[c].key;
                if k < mk {
                    m = c;
                    mk = k;
                }
            }
            if mk >= last.key {
                break;
            }
            self.v[i] = self.v[m];
            i = m;
        }
        self.v[i] = last;
        Some((top.key, top.item))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator for the test's keys.
    fn lcg(state: &mut u64) -> u64 {
        *state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        *state >> 33
    }

    /// Interleaved pushes and pops come out in key order, exactly as from a sorted reference.
    #[test]
    fn pops_in_key_order_against_a_sorted_reference() {
        let mut heap = QuadHeap::default();
        let mut reference: Vec<Key> = Vec::new();
        let mut s = 7u64;
        for seq in 0..20_000u128 {
            let r = lcg(&mut s);
            if !r.is_multiple_of(3) || reference.is_empty() {
                let key = (u128::from(r % 1000) << 64) | seq;
                heap.push(key, seq);
                reference.push(key);
            } else {
                reference.sort_unstable_by(|a, b| b.cmp(a));
                let want = reference.pop().unwrap();
                assert_eq!(heap.peek_key(), Some(want));
                assert_eq!(heap.pop(), Some((want, want as u64 as u128)));
            }
            assert_eq!(heap.len(), reference.len());
        }
        reference.sort_unstable();
        for want in reference {
            assert_eq!(heap.pop().map(|e| e.0), Some(want));
        }
        assert!(heap.is_empty());
        assert_eq!(heap.pop(), None);
    }
}

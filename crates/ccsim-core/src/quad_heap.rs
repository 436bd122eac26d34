//! A 4-ary min-heap of `(u128 key, item)` pairs with hole-based sifting.
//!
//! Why not `std::collections::BinaryHeap`: the event queue's entries compared as two `u64`
//! fields through a reversed `Ord`, and `BinaryHeap::pop` sifts the last element all the way
//! to the bottom and back up. Here the key is one integer compare, a pop moves each entry on
//! its path once (into the hole above it), and four children per node halve the levels: a
//! heap of tens of events is two or three levels deep. Callgrind on case A: see
//! benches/README.md.
//!
//! The smallest entry may sit in a `front` slot outside the array: an entry pushed while it is
//! smaller than everything held goes there, and the next pop takes it without a sift. On the
//! per-packet path the event just scheduled is often the very next one (a link's next
//! end-of-transmission 120 ns on, a delay line's next head), so most such pairs never touch
//! the array. The order is the heap's order: only where the minimum is kept changes.

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
    /// The smallest entry when it is smaller than every entry of `v` (invariant), else `None`.
    front: Option<Entry<T>>,
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
            front: None,
        }
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.v.len() + usize::from(self.front.is_some())
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.front.is_none() && self.v.is_empty()
    }

    /// The smallest key.
    #[inline]
    pub fn peek_key(&self) -> Option<Key> {
        match self.front {
            Some(f) => Some(f.key),
            None => self.v.first().map(|e| e.key),
        }
    }

    // The front-slot test inlined where events are scheduled; the sift stays out of line.
    #[inline(always)]
    pub fn push(&mut self, key: Key, item: T) {
        // Entries are built where they are stored, and the sift takes key and item in
        // registers: an entry built on the stack with narrow stores and read back whole (to
        // copy it into the front slot, or by `push_array` through the pointer it was passed
        // as) cannot be forwarded from those stores, and each such read stalled until they
        // reached the cache (store-forwarding stalls: ~5 % and ~7 % of case A's time by
        // `perf annotate`).
        match self.front {
            // Smaller than the front: the front joins the array, the new entry takes its place.
            Some(f) if key < f.key => {
                self.front = Some(Entry { key, item });
                self.push_array(f.key, f.item);
            }
            Some(_) => self.push_array(key, item),
            None if self.v.first().is_none_or(|e| key < e.key) => {
                self.front = Some(Entry { key, item })
            }
            None => self.push_array(key, item),
        }
    }

    #[inline(always)]
    fn push_array(&mut self, key: Key, item: T) {
        let mut i = self.v.len();
        self.v.push(Entry { key, item });
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
        self.v[i] = Entry { key, item };
    }

    /// Removes and returns the entry with the smallest key.
    #[inline]
    pub fn pop(&mut self) -> Option<(Key, T)> {
        if let Some(f) = self.front.take() {
            return Some((f.key, f.item));
        }
        // `n`: the last entry's index, and the heap's size once it has moved into the hole.
        let n = self.v.len().checked_sub(1)?;
        if n == 0 {
            return self.v.pop().map(|e| (e.key, e.item));
        }
        let top = self.v[0];
        // Sift the last entry down from the root's hole by its key alone: its item is read
        // only to move it, after the sift, and the key is written from the register it was
        // compared in. The entry was often written by the push just before, field by field,
        // and a whole-entry load right away could not be forwarded from those stores (a
        // stall, by `perf annotate`): each part is read as it was written.
        let last_key = self.v[n].key;
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
            if mk >= last_key {
                break;
            }
            self.v[i] = self.v[m];
            i = m;
        }
        self.v[i] = Entry {
            key: last_key,
            item: self.v[n].item,
        };
        self.v.truncate(n);
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

    /// The front slot: a key below everything goes there, a smaller one moves it into the
    /// array, and pops still come out in key order with the right lengths.
    #[test]
    fn front_slot_keeps_the_order() {
        let mut heap = QuadHeap::default();
        heap.push(50, 'c');
        assert_eq!(
            heap.front.map(|e| e.item),
            Some('c'),
            "first entry goes to the front"
        );
        heap.push(40, 'b');
        assert_eq!(heap.front.map(|e| e.item), Some('b'));
        assert_eq!(heap.v.len(), 1, "the displaced front joined the array");
        heap.push(60, 'd');
        heap.push(45, 'x');
        assert_eq!(heap.len(), 4);
        assert_eq!(heap.pop(), Some((40, 'b')));
        assert!(heap.front.is_none());
        heap.push(10, 'a');
        assert_eq!(heap.front.map(|e| e.item), Some('a'));
        let order: Vec<_> = std::iter::from_fn(|| heap.pop().map(|e| e.1)).collect();
        assert_eq!(order, ['a', 'x', 'c', 'd']);
        assert!(heap.is_empty());
    }
}

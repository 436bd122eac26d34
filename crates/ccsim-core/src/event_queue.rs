//! Deterministic event queue: two 4-ary heaps keyed by (time, insertion sequence).

use crate::event_bits::EventBits;
use crate::quad_heap::{Key, QuadHeap};
use crate::time::Time;

/// Insertion sequence number: the tie-breaker between events due at the same time.
pub type Seq = u64;

/// (time, seq) as one integer: time in the high half, so the integer order is the event order.
#[inline]
fn key(time: Time, seq: Seq) -> Key {
    (u128::from(time.as_nanos()) << 64) | u128::from(seq)
}

/// Events scheduled for the same time pop in the order they were pushed (FIFO ties),
/// like ns-3's default scheduler. Events are plain values (enums), never closures.
///
/// Two heaps share one sequence counter and pop as one queue (the earlier head of the two):
/// `heap` for the packet events every packet goes through, `timers` for re-armable timers.
/// A timer that moves earlier leaves its old copy behind (ignored when it pops); at 1 Gb/s
/// those stale copies outnumber the packet events pending, and kept apart they no longer
/// deepen the heap on the per-packet path (benches/README.md). Each heap is a [`QuadHeap`]
/// on (time, seq) packed into one integer, its events stored as one `u64` ([`EventBits`]).
pub struct EventQueue<E> {
    heap: QuadHeap<u64>,
    timers: QuadHeap<u64>,
    next_seq: u64,
    now: Time,
    processed: u64,
    _event: std::marker::PhantomData<E>,
}

impl<E: EventBits> Default for EventQueue<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E: EventBits> EventQueue<E> {
    pub fn new() -> Self {
        Self::with_capacity(1024)
    }

    pub fn with_capacity(capacity: usize) -> Self {
        EventQueue {
            heap: QuadHeap::with_capacity(capacity),
            timers: QuadHeap::default(),
            next_seq: 0,
            now: Time::ZERO,
            processed: 0,
            _event: std::marker::PhantomData,
        }
    }

    /// Current simulated time: the time of the last event popped.
    #[inline]
    pub fn now(&self) -> Time {
        self.now
    }

    /// Number of events popped so far.
    pub fn processed(&self) -> u64 {
        self.processed
    }

    /// Counts an event taken without the heap (a delivery line's run, see
    /// [`crate::DelayLine::pop_run`]), so that [`Self::processed`] is unchanged by it.
    #[inline]
    pub fn count_inline(&mut self) {
        self.processed += 1;
    }

    /// Events pending, stale timer copies included.
    pub fn len(&self) -> usize {
        self.heap.len() + self.timers.len()
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty() && self.timers.is_empty()
    }

    /// Schedules `event` at absolute time `at` (never in the past). Inlined, like the other
    /// scheduling calls, so that the event's encoding folds into a constant where the variant
    /// is known.
    #[inline(always)]
    pub fn schedule(&mut self, at: Time, event: E) {
        debug_assert!(at >= self.now, "event scheduled in the past");
        let seq = self.reserve_seq();
        self.schedule_with_seq(at, seq, event);
    }

    /// Takes the next sequence number without scheduling anything, for an event that will be
    /// scheduled later with [`Self::schedule_with_seq`] but must order as if scheduled now.
    #[inline]
    pub fn reserve_seq(&mut self) -> Seq {
        let seq = self.next_seq;
        self.next_seq += 1;
        seq
    }

    /// Schedules `event` at `at` under a sequence number from [`Self::reserve_seq`].
    #[inline(always)]
    pub fn schedule_with_seq(&mut self, at: Time, seq: Seq, event: E) {
        debug_assert!(at >= self.now, "event scheduled in the past");
        debug_assert!(seq < self.next_seq, "sequence number was not reserved");
        self.heap.push(key(at.max(self.now), seq), event.to_bits());
    }

    /// Schedules a timer event: ordered exactly like [`Self::schedule`], stored apart from the
    /// packet events (see the type's documentation).
    #[inline(always)]
    pub fn schedule_timer(&mut self, at: Time, event: E) {
        debug_assert!(at >= self.now, "event scheduled in the past");
        let seq = self.reserve_seq();
        self.timers
            .push(key(at.max(self.now), seq), event.to_bits());
    }

    /// Schedules `event` after `delay` from now.
    #[inline]
    pub fn schedule_in(&mut self, delay: Time, event: E) {
        self.schedule(self.now + delay, event)
    }

    /// Time of the next event, if any.
    pub fn peek_time(&self) -> Option<Time> {
        let k = match (self.heap.peek_key(), self.timers.peek_key()) {
            (Some(p), Some(t)) => p.min(t),
            (p, t) => p.or(t)?,
        };
        Some(Time((k >> 64) as u64))
    }

    /// Pops the next event if it is due at or before `until`, advancing the clock.
    #[inline]
    pub fn pop_until(&mut self, until: Time) -> Option<(Time, E)> {
        self.pop_bits_until(until)
            .map(|(t, bits)| (t, E::from_bits(bits)))
    }

    /// [`Self::pop_until`] with the event still encoded: a run loop decodes it right at its
    /// `match`, after the `None` test, so the decoding and the dispatch can fold into one
    /// switch (decoded before the test, they were two jump tables one after the other).
    #[inline]
    pub fn pop_bits_until(&mut self, until: Time) -> Option<(Time, u64)> {
        // An empty heap peeks as Key::MAX, later than any event.
        let p = self.heap.peek_key().unwrap_or(Key::MAX);
        let t = self.timers.peek_key().unwrap_or(Key::MAX);
        let (k, heap) = if t < p {
            (t, &mut self.timers)
        } else {
            (p, &mut self.heap)
        };
        let t = Time((k >> 64) as u64);
        if k == Key::MAX || t > until {
            return None;
        }
        let (_, bits) = heap.pop()?;
        self.now = t;
        self.processed += 1;
        Some((t, bits))
    }

    /// Moves the clock forward to `t` when no event remains before it.
    pub fn advance_to(&mut self, t: Time) {
        if t > self.now {
            self.now = t;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_by_time_then_insertion() {
        let mut q = EventQueue::new();
        q.schedule(Time(20), 3u32);
        q.schedule(Time(10), 1);
        q.schedule(Time(20), 4);
        q.schedule(Time(10), 2);
        let order: Vec<_> = std::iter::from_fn(|| q.pop_until(Time::MAX).map(|(_, e)| e)).collect();
        assert_eq!(order, [1, 2, 3, 4]);
        assert_eq!(q.now(), Time(20));
        assert_eq!(q.processed(), 4);
    }

    #[test]
    fn timers_interleave_with_packet_events_by_time_then_insertion() {
        // Timers are 10 + i, packet events 20 + i.
        let mut q = EventQueue::new();
        q.schedule_timer(Time(10), 11u32);
        q.schedule(Time(10), 21);
        q.schedule_timer(Time(5), 10);
        q.schedule(Time(20), 22);
        q.schedule_timer(Time(20), 12);
        q.schedule(Time(10), 23);
        assert_eq!(q.len(), 6);
        assert_eq!(q.peek_time(), Some(Time(5)));
        let order: Vec<_> = std::iter::from_fn(|| q.pop_until(Time::MAX).map(|(_, e)| e)).collect();
        assert_eq!(order, [10, 11, 21, 23, 22, 12]);
        assert!(q.is_empty());
    }

    #[test]
    fn pop_until_stops_at_horizon() {
        let mut q = EventQueue::new();
        q.schedule(Time(5), 1u32);
        q.schedule(Time(15), 2);
        assert_eq!(q.pop_until(Time(10)), Some((Time(5), 1)));
        assert_eq!(q.pop_until(Time(10)), None);
        assert_eq!(q.len(), 1);
    }
}

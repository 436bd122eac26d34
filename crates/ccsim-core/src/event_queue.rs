//! Deterministic event queue: two 4-ary heaps keyed by (time, insertion sequence).

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
/// on (time, seq) packed into one integer.
pub struct EventQueue<E> {
    heap: QuadHeap<E>,
    timers: QuadHeap<E>,
    next_seq: u64,
    now: Time,
    processed: u64,
}

impl<E: Copy> Default for EventQueue<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E: Copy> EventQueue<E> {
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

    /// Schedules `event` at absolute time `at` (never in the past).
    #[inline]
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
    #[inline]
    pub fn schedule_with_seq(&mut self, at: Time, seq: Seq, event: E) {
        debug_assert!(at >= self.now, "event scheduled in the past");
        debug_assert!(seq < self.next_seq, "sequence number was not reserved");
        self.heap.push(key(at.max(self.now), seq), event);
    }

    /// Schedules a timer event: ordered exactly like [`Self::schedule`], stored apart from the
    /// packet events (see the type's documentation).
    #[inline]
    pub fn schedule_timer(&mut self, at: Time, event: E) {
        debug_assert!(at >= self.now, "event scheduled in the past");
        let seq = self.reserve_seq();
        self.timers.push(key(at.max(self.now), seq), event);
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
        let (_, event) = heap.pop()?;
        self.now = t;
        self.processed += 1;
        Some((t, event))
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
        q.schedule(Time(20), "c");
        q.schedule(Time(10), "a");
        q.schedule(Time(20), "d");
        q.schedule(Time(10), "b");
        let order: Vec<_> = std::iter::from_fn(|| q.pop_until(Time::MAX).map(|(_, e)| e)).collect();
        assert_eq!(order, ["a", "b", "c", "d"]);
        assert_eq!(q.now(), Time(20));
        assert_eq!(q.processed(), 4);
    }

    #[test]
    fn timers_interleave_with_packet_events_by_time_then_insertion() {
        let mut q = EventQueue::new();
        q.schedule_timer(Time(10), "t1");
        q.schedule(Time(10), "p1");
        q.schedule_timer(Time(5), "t0");
        q.schedule(Time(20), "p2");
        q.schedule_timer(Time(20), "t2");
        q.schedule(Time(10), "p3");
        assert_eq!(q.len(), 6);
        assert_eq!(q.peek_time(), Some(Time(5)));
        let order: Vec<_> = std::iter::from_fn(|| q.pop_until(Time::MAX).map(|(_, e)| e)).collect();
        assert_eq!(order, ["t0", "t1", "p1", "p3", "p2", "t2"]);
        assert!(q.is_empty());
    }

    #[test]
    fn pop_until_stops_at_horizon() {
        let mut q = EventQueue::new();
        q.schedule(Time(5), 1);
        q.schedule(Time(15), 2);
        assert_eq!(q.pop_until(Time(10)), Some((Time(5), 1)));
        assert_eq!(q.pop_until(Time(10)), None);
        assert_eq!(q.len(), 1);
    }
}

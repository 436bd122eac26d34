//! Deterministic event queue: a binary heap keyed by (time, insertion sequence).

use crate::time::Time;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// Insertion sequence number: the tie-breaker between events due at the same time.
pub type Seq = u64;

struct Entry<E> {
    time: Time,
    seq: Seq,
    event: E,
}

impl<E> PartialEq for Entry<E> {
    fn eq(&self, other: &Self) -> bool {
        self.time == other.time && self.seq == other.seq
    }
}
impl<E> Eq for Entry<E> {}
impl<E> PartialOrd for Entry<E> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl<E> Ord for Entry<E> {
    // Reversed: BinaryHeap is a max-heap and we want the earliest (time, seq) first.
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .time
            .cmp(&self.time)
            .then_with(|| other.seq.cmp(&self.seq))
    }
}

/// Events scheduled for the same time pop in the order they were pushed (FIFO ties),
/// like ns-3's default scheduler. Events are plain values (enums), never closures.
///
/// Two heaps share one sequence counter and pop as one queue (the earlier head of the two):
/// `heap` for the packet events every packet goes through, `timers` for re-armable timers.
/// A timer that moves earlier leaves its old copy behind (ignored when it pops); at 1 Gb/s
/// those stale copies outnumber the packet events pending, and kept apart they no longer
/// deepen the heap on the per-packet path (benches/README.md).
pub struct EventQueue<E> {
    heap: BinaryHeap<Entry<E>>,
    timers: BinaryHeap<Entry<E>>,
    next_seq: u64,
    now: Time,
    processed: u64,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E> EventQueue<E> {
    pub fn new() -> Self {
        Self::with_capacity(1024)
    }

    pub fn with_capacity(capacity: usize) -> Self {
        EventQueue {
            heap: BinaryHeap::with_capacity(capacity),
            timers: BinaryHeap::new(),
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
        self.heap.push(Entry {
            time: at.max(self.now),
            seq,
            event,
        });
    }

    /// Schedules a timer event: ordered exactly like [`Self::schedule`], stored apart from the
    /// packet events (see the type's documentation).
    #[inline]
    pub fn schedule_timer(&mut self, at: Time, event: E) {
        debug_assert!(at >= self.now, "event scheduled in the past");
        let seq = self.reserve_seq();
        self.timers.push(Entry {
            time: at.max(self.now),
            seq,
            event,
        });
    }

    /// Schedules `event` after `delay` from now.
    #[inline]
    pub fn schedule_in(&mut self, delay: Time, event: E) {
        self.schedule(self.now + delay, event)
    }

    /// Time of the next event, if any.
    pub fn peek_time(&self) -> Option<Time> {
        self.next_heap().peek().map(|e| e.time)
    }

    /// The heap holding the earliest (time, seq) of the two.
    #[inline]
    fn next_heap(&self) -> &BinaryHeap<Entry<E>> {
        match (self.heap.peek(), self.timers.peek()) {
            // Entry's order is reversed: the greater entry is the earlier one.
            (Some(p), Some(t)) if t > p => &self.timers,
            (None, Some(_)) => &self.timers,
            _ => &self.heap,
        }
    }

    /// Pops the next event if it is due at or before `until`, advancing the clock.
    #[inline]
    pub fn pop_until(&mut self, until: Time) -> Option<(Time, E)> {
        let from_timers = match (self.heap.peek(), self.timers.peek()) {
            (Some(p), Some(t)) => t > p,
            (None, Some(_)) => true,
            (Some(_), None) => false,
            (None, None) => return None,
        };
        let heap = if from_timers {
            &mut self.timers
        } else {
            &mut self.heap
        };
        if heap.peek()?.time > until {
            return None;
        }
        let entry = heap.pop()?;
        self.now = entry.time;
        self.processed += 1;
        Some((entry.time, entry.event))
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

//! A FIFO of items in flight on a constant-delay path, with one queue event for the whole line.
//!
//! A link with a fixed propagation delay delivers packets in the order it sent them, so only
//! the earliest one needs a slot in the event queue: when it arrives, the next one is
//! scheduled. That keeps the heap as small as the number of links and timers (tens of
//! entries, cache-resident) instead of the number of packets in flight (thousands at 1 Gb/s),
//! which was the single largest cost of a run (see benches/README.md).
//!
//! Determinism is unchanged: every item keeps the (time, sequence) key it would have had as
//! its own event, reserved from the queue when it entered the line, so events pop in exactly
//! the same global order as when each packet was scheduled separately.

use crate::event_bits::EventBits;
use crate::event_queue::{EventQueue, Seq};
use crate::ring::Ring;
use crate::time::Time;

#[derive(Debug)]
pub struct DelayLine<T> {
    in_flight: Ring<(Time, Seq, T)>,
}

impl<T> Default for DelayLine<T> {
    fn default() -> Self {
        DelayLine {
            in_flight: Ring::default(),
        }
    }
}

impl<T: Copy> DelayLine<T> {
    pub fn len(&self) -> usize {
        self.in_flight.len()
    }

    pub fn is_empty(&self) -> bool {
        self.in_flight.is_empty()
    }

    /// The item in flight that arrives first, if any.
    #[inline]
    pub fn front(&self) -> Option<&T> {
        self.in_flight.front().map(|(_, _, item)| item)
    }

    /// Puts `item` in flight until `at`; `head_event(item)` is the event that announces `item`
    /// when it is the line's head (it may carry the item, so that its handler need not wait
    /// for the line's slot to learn it). Returns the item back when `at` is earlier than the
    /// last arrival in the line (the delay shrank mid-flight): the caller must then schedule it
    /// as an event of its own, with the queue's next sequence number — the same key it would
    /// have had here.
    #[inline(always)]
    pub fn push<E: EventBits>(
        &mut self,
        queue: &mut EventQueue<E>,
        at: Time,
        item: T,
        head_event: impl Fn(T) -> E,
    ) -> Result<(), T> {
        match self.in_flight.back() {
            Some(&(last, _, _)) if at < last => Err(item),
            Some(_) => {
                let seq = queue.reserve_seq();
                self.in_flight.push_back((at, seq, item));
                Ok(())
            }
            None => {
                let seq = queue.reserve_seq();
                queue.schedule_with_seq(at, seq, head_event(item));
                self.in_flight.push_back((at, seq, item));
                Ok(())
            }
        }
    }

    /// Takes the head, which is due now (its `head_event` just popped), and schedules the next
    /// head, if any, under its reserved key.
    #[inline(always)]
    pub fn pop<E: EventBits>(
        &mut self,
        queue: &mut EventQueue<E>,
        head_event: impl Fn(T) -> E,
    ) -> T {
        let (at, _, item) = self
            .in_flight
            .pop_front()
            .expect("delay line event without an item in flight");
        // The slots after the next head were written a propagation delay ago: fetch the line
        // ahead now, before it is the head (a slot is 24 bytes: 3 ahead is the next line).
        self.in_flight.prefetch(3);
        debug_assert_eq!(at, queue.now(), "delay line head popped at the wrong time");
        if let Some(&(next, seq, next_item)) = self.in_flight.front() {
            queue.schedule_with_seq(next, seq, head_event(next_item));
        }
        item
    }

    /// [`Self::pop`], except when the next item is due at the same instant under the very
    /// next sequence number (pushed right after this one): no event can order between the two
    /// (a key reserved later is larger), so it is left unscheduled and `true` says the caller
    /// must take it at once with another `pop_run`, counting it with
    /// [`EventQueue::count_inline`]. A run of same-instant deliveries then costs one heap
    /// event instead of one each.
    #[inline]
    pub fn pop_run<E: EventBits>(
        &mut self,
        queue: &mut EventQueue<E>,
        head_event: impl Fn(T) -> E,
    ) -> (T, bool) {
        let (at, seq, item) = self
            .in_flight
            .pop_front()
            .expect("delay line event without an item in flight");
        debug_assert_eq!(at, queue.now(), "delay line head popped at the wrong time");
        match self.in_flight.front() {
            Some(&(next, s, _)) if next == at && s == seq + 1 => (item, true),
            Some(&(next, s, next_item)) => {
                queue.schedule_with_seq(next, s, head_event(next_item));
                (item, false)
            }
            None => (item, false),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq, Clone, Copy)]
    enum Ev {
        Line,
        Other(u32),
    }

    impl EventBits for Ev {
        fn to_bits(self) -> u64 {
            match self {
                Ev::Line => u64::MAX,
                Ev::Other(x) => u64::from(x),
            }
        }

        fn from_bits(bits: u64) -> Self {
            match bits {
                u64::MAX => Ev::Line,
                x => Ev::Other(x as u32),
            }
        }
    }

    /// The line pops its items interleaved with other events exactly as if each item had
    /// been its own event, ties included.
    #[test]
    fn same_order_as_individual_events() {
        // Individually scheduled reference.
        let mut reference = EventQueue::new();
        let mut lined = EventQueue::new();
        let mut line = DelayLine::default();
        let pushes = [(10, 1), (10, 2), (15, 3), (30, 4)];
        for (i, &(at, item)) in pushes.iter().enumerate() {
            reference.schedule(Time(at), Ev::Other(100 + item));
            line.push(&mut lined, Time(at), 100 + item, |_| Ev::Line)
                .unwrap();
            // An unrelated event at the same instant after each item.
            reference.schedule(Time(at), Ev::Other(i as u32));
            lined.schedule(Time(at), Ev::Other(i as u32));
        }
        let mut want = vec![];
        while let Some((t, e)) = reference.pop_until(Time::MAX) {
            want.push((t, e));
        }
        let mut got = vec![];
        while let Some((t, e)) = lined.pop_until(Time::MAX) {
            let e = match e {
                Ev::Line => Ev::Other(line.pop(&mut lined, |_| Ev::Line)),
                other => other,
            };
            got.push((t, e));
        }
        assert_eq!(got, want);
        assert!(line.is_empty());
    }

    /// Runs taken at once pop in the individual events' order, with the same count, even
    /// when handling an item schedules events at the same instant and pushes to the line.
    #[test]
    fn runs_keep_the_order_and_the_count() {
        let mut reference = EventQueue::new();
        let mut lined = EventQueue::new();
        let mut line = DelayLine::default();
        // Items 1-3 at 10 in a row (a run), an unrelated event, item 4 at 10 (not consecutive
        // with 3: the unrelated event orders between them), items 5-6 at 20.
        for (at, item) in [
            (10, 1),
            (10, 2),
            (10, 3),
            (10, 0),
            (10, 4),
            (20, 5),
            (20, 6),
        ] {
            reference.schedule(Time(at), Ev::Other(100 + item));
            if item == 0 {
                lined.schedule(Time(at), Ev::Other(100));
            } else {
                line.push(&mut lined, Time(at), 100 + item, |_| Ev::Line)
                    .unwrap();
            }
        }
        // Handling item 2 schedules an event at the same instant and pushes item 7 at 30.
        let on_item = |q: &mut EventQueue<Ev>, line: &mut DelayLine<u32>, item: u32, reference| {
            if item == 102 {
                q.schedule(Time(10), Ev::Other(200));
                if reference {
                    q.schedule(Time(30), Ev::Other(107));
                } else {
                    line.push(q, Time(30), 107, |_| Ev::Line).unwrap();
                }
            }
        };
        let mut want = vec![];
        let mut unused = DelayLine::default();
        while let Some((t, e)) = reference.pop_until(Time::MAX) {
            if let Ev::Other(item) = e {
                want.push((t, item));
                on_item(&mut reference, &mut unused, item, true);
            }
        }
        let mut got = vec![];
        while let Some((t, e)) = lined.pop_until(Time::MAX) {
            match e {
                Ev::Line => loop {
                    let (item, more) = line.pop_run(&mut lined, |_| Ev::Line);
                    got.push((t, item));
                    on_item(&mut lined, &mut line, item, false);
                    if !more {
                        break;
                    }
                    lined.count_inline();
                },
                Ev::Other(item) => got.push((t, item)),
            }
        }
        assert_eq!(got, want);
        assert_eq!(lined.processed(), reference.processed());
        assert!(line.is_empty());
    }

    /// Each head's event is made from that head's item, whichever way it became the head
    /// (pushed onto an empty line, or next after a pop).
    #[test]
    fn head_event_carries_the_head_item() {
        let mut q = EventQueue::<u32>::new();
        let mut line = DelayLine::default();
        for (at, item) in [(10, 7u32), (20, 8), (30, 9)] {
            line.push(&mut q, Time(at), item, |i| i + 1000).unwrap();
        }
        let mut got = vec![];
        while let Some((t, e)) = q.pop_until(Time::MAX) {
            let item = line.pop(&mut q, |i| i + 1000);
            got.push((t, e, item));
        }
        assert_eq!(
            got,
            [
                (Time(10), 1007, 7),
                (Time(20), 1008, 8),
                (Time(30), 1009, 9)
            ]
        );
    }

    #[test]
    fn earlier_arrival_is_handed_back() {
        let mut q = EventQueue::new();
        let mut line = DelayLine::default();
        line.push(&mut q, Time(50), 1u32, |_| Ev::Line).unwrap();
        assert_eq!(line.push(&mut q, Time(40), 2u32, |_| Ev::Line), Err(2));
        assert_eq!(line.len(), 1);
        assert_eq!(q.len(), 1, "only the head has an event");
    }
}

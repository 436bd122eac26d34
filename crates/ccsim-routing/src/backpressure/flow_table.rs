//! The memory of BP-MR decisions per flow (`FindNextHopInFlowTable` in the authors' code) and
//! per burst (seed 004 §2.1.1, the paper's future work).

use ccsim_core::Time;

/// How often a router takes its backpressure decision for a flow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Granularity {
    /// Every packet (BP-MR as published).
    PerPacket,
    /// The first packet's next hop is kept while the flow keeps using it within
    /// `idle_timeout` (the authors use 10 s).
    PerFlow { idle_timeout: Time },
    /// The decision is taken again after an idle gap longer than `gap`, or when it is older
    /// than `interval` (the proactive and reactive recomputations seed 004 §2.1.1 sketches).
    PerBurst { gap: Time, interval: Time },
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    next: u32,
    decided: Time,
    last_used: Time,
    ttl: u8,
}

/// Remembered next hops, one slot per (router, flow key): dense, allocated once at build time.
pub struct FlowTable {
    granularity: Granularity,
    keys_per_router: usize,
    entries: Vec<Option<Entry>>,
}

impl FlowTable {
    pub fn new(granularity: Granularity, routers: usize, keys_per_router: usize) -> Self {
        let slots = if granularity == Granularity::PerPacket {
            0
        } else {
            routers * keys_per_router
        };
        FlowTable {
            granularity,
            keys_per_router,
            entries: vec![None; slots],
        }
    }

    pub fn granularity(&self) -> Granularity {
        self.granularity
    }

    /// The remembered next hop of `key` at `router`, if it still holds at `now` for a packet
    /// with this TTL (a different TTL means the path changed upstream or looped: decide again).
    pub fn lookup(&mut self, router: usize, key: usize, now: Time, ttl: u8) -> Option<u32> {
        let (idle, max_age) = match self.granularity {
            Granularity::PerPacket => return None,
            Granularity::PerFlow { idle_timeout } => (idle_timeout, None),
            Granularity::PerBurst { gap, interval } => (gap, Some(interval)),
        };
        let slot = &mut self.entries[router * self.keys_per_router + key];
        let e = slot.as_mut()?;
        let fresh = now.saturating_sub(e.last_used) <= idle
            && max_age.is_none_or(|a| now.saturating_sub(e.decided) < a)
            && e.ttl == ttl;
        if !fresh {
            *slot = None;
            return None;
        }
        e.last_used = now;
        Some(e.next)
    }

    /// Remembers a fresh decision.
    pub fn insert(&mut self, router: usize, key: usize, now: Time, ttl: u8, next: u32) {
        if self.granularity == Granularity::PerPacket {
            return;
        }
        self.entries[router * self.keys_per_router + key] = Some(Entry {
            next,
            decided: now,
            last_used: now,
            ttl,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: fn(u64) -> Time = Time::from_secs;

    #[test]
    fn per_packet_remembers_nothing() {
        let mut t = FlowTable::new(Granularity::PerPacket, 2, 4);
        t.insert(0, 1, S(1), 64, 3);
        assert_eq!(t.lookup(0, 1, S(1), 64), None);
    }

    #[test]
    fn per_flow_keeps_the_first_decision_until_idle_for_10_s() {
        let mut t = FlowTable::new(
            Granularity::PerFlow {
                idle_timeout: S(10),
            },
            2,
            4,
        );
        t.insert(1, 2, S(1), 60, 7);
        assert_eq!(t.lookup(1, 2, S(5), 60), Some(7));
        assert_eq!(t.lookup(1, 2, S(15), 60), Some(7)); // used at 5 s: 10 s idle exactly
        assert_eq!(t.lookup(0, 2, S(15), 60), None); // another router
        assert_eq!(t.lookup(1, 2, S(26), 60), None); // idle 11 s
    }

    #[test]
    fn per_flow_forgets_on_a_ttl_change() {
        let mut t = FlowTable::new(
            Granularity::PerFlow {
                idle_timeout: S(10),
            },
            1,
            1,
        );
        t.insert(0, 0, S(1), 60, 7);
        assert_eq!(t.lookup(0, 0, S(2), 59), None);
        assert_eq!(t.lookup(0, 0, S(2), 60), None); // erased
    }

    #[test]
    fn per_burst_decides_again_after_a_gap_or_an_interval() {
        let g = Granularity::PerBurst {
            gap: Time::from_millis(50),
            interval: Time::from_millis(500),
        };
        let mut t = FlowTable::new(g, 1, 1);
        t.insert(0, 0, Time::ZERO, 64, 1);
        assert_eq!(t.lookup(0, 0, Time::from_millis(40), 64), Some(1));
        assert_eq!(t.lookup(0, 0, Time::from_millis(100), 64), None); // 60 ms gap
        t.insert(0, 0, Time::from_millis(100), 64, 2);
        // Used every 30 ms (no gap) until the decision is 500 ms old.
        for now in (130..=580).step_by(30) {
            assert_eq!(t.lookup(0, 0, Time::from_millis(now), 64), Some(2));
        }
        assert_eq!(t.lookup(0, 0, Time::from_millis(610), 64), None); // 510 ms old
    }
}

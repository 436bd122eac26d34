//! The router's own timer list: what ns-3 schedules with `Simulator::Schedule` and `Timer`.
//!
//! Timers due at the same instant fire in the order they were scheduled, as in ns-3's
//! scheduler, so a router's behaviour does not depend on how the world batches its calls.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::state::Nanos;

/// What a timer does when it fires (one variant per ns-3 `*TimerExpire` / `SendQueuedMessages`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Timer {
    Hello,
    Tc,
    Mid,
    Hna,
    SendQueued,
    Duplicate {
        originator: u32,
        seq: u16,
    },
    Link {
        neighbor_iface_addr: u32,
    },
    TwoHop {
        neighbor_main_addr: u32,
        two_hop_addr: u32,
    },
    MprSelector {
        main_addr: u32,
    },
    Topology {
        dest_addr: u32,
        last_addr: u32,
    },
    IfaceAssoc {
        iface_addr: u32,
    },
    Association {
        gateway_addr: u32,
        network: u32,
        netmask: u32,
    },
}

#[derive(Clone, Debug, Default)]
pub struct TimerQueue {
    heap: BinaryHeap<Reverse<(Nanos, u64, Timer)>>,
    next_seq: u64,
}

impl TimerQueue {
    pub fn schedule(&mut self, at: Nanos, timer: Timer) {
        self.heap.push(Reverse((at, self.next_seq, timer)));
        self.next_seq += 1;
    }

    pub fn next_time(&self) -> Option<Nanos> {
        self.heap.peek().map(|Reverse((t, _, _))| *t)
    }

    /// Removes and returns the earliest timer if it is due at `now`.
    pub fn pop_due(&mut self, now: Nanos) -> Option<(Nanos, Timer)> {
        if self.next_time()? <= now {
            self.heap.pop().map(|Reverse((t, _, timer))| (t, timer))
        } else {
            None
        }
    }
}

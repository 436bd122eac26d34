//! One direction of a point-to-point link (ns-3 `PointToPointNetDevice` + `PointToPointChannel`).
//!
//! A packet waits in the queue, is serialised at `rate_bps` (wire size = IP bytes plus
//! `l2_header_bytes`), then propagates for `delay`. As in ns-3, the packet being serialised is
//! no longer in the queue, and a rate change affects the next packet, not the one on the wire.

use crate::packet::{NodeId, PacketId};
use crate::queue::DropTailQueue;
use ccsim_core::{DelayLine, Time};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LinkId(pub u32);

/// What becomes of a packet offered to a link ([`Link::offer`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offer {
    /// The link is idle and its queue empty: serialise it at once ([`Link::begin_tx`]).
    SendNow,
    /// Queued. `tx_done_at`: schedule the link's end-of-transmission event then (none was
    /// pending).
    Queued { tx_done_at: Option<Time> },
    /// The queue is full: the caller drops the packet.
    Dropped,
}

#[derive(Debug)]
pub struct Link {
    pub name: String,
    pub from: NodeId,
    pub to: NodeId,
    pub rate_bps: u64,
    pub delay: Time,
    /// Link-layer header added to every packet (2 B for PPP, as ns-3 point-to-point).
    pub l2_header_bytes: u32,
    /// IP MTU (ns-3 device `Mtu`): larger packets leave as IPv4 fragments
    /// ([`crate::fragment`]). `None`: no limit.
    pub mtu: Option<u32>,
    pub queue: DropTailQueue,
    /// End of the current serialisation: the link is idle from then on. A packet that finds
    /// the link idle and the queue empty is sent at once, with no event for its end; only a
    /// queue to drain needs a `TxDone` event at this time.
    pub busy_until: Time,
    /// A `TxDone` event is scheduled at `busy_until` (the queue is not empty).
    pub tx_done_pending: bool,
    /// Packets propagating towards `to` (sent, not yet arrived), in arrival order.
    pub in_flight: DelayLine<PacketId>,
    pub tx_packets: u64,
    pub tx_bytes: u64,
    /// Time-integral of queue occupancy (packets·ns), for the mean occupancy.
    occupancy_integral: u128,
    last_change: Time,
    /// The last serialisation time computed, for (wire bytes, rate): a link carries mostly one
    /// packet size, and the 128-bit division of `Time::tx_time` was ~1.6 % of a dumbbell run's
    /// instructions (callgrind).
    tx_time_cache: (u32, u64, Time),
}

impl Link {
    pub fn new(
        name: String,
        from: NodeId,
        to: NodeId,
        rate_bps: u64,
        delay: Time,
        queue: DropTailQueue,
    ) -> Self {
        Link {
            name,
            from,
            to,
            rate_bps,
            delay,
            l2_header_bytes: 2,
            mtu: None,
            queue,
            busy_until: Time::ZERO,
            tx_done_pending: false,
            in_flight: DelayLine::default(),
            tx_packets: 0,
            tx_bytes: 0,
            occupancy_integral: 0,
            last_change: Time::ZERO,
            tx_time_cache: (0, 0, Time::ZERO),
        }
    }

    /// Serialisation time of a packet of `ip_bytes` at the current rate.
    #[inline(always)]
    pub fn tx_time(&mut self, ip_bytes: u32) -> Time {
        let wire_bytes = ip_bytes + self.l2_header_bytes;
        let (bytes, rate, t) = self.tx_time_cache;
        if bytes == wire_bytes && rate == self.rate_bps {
            return t;
        }
        let t = Time::tx_time(wire_bytes as u64, self.rate_bps);
        self.tx_time_cache = (wire_bytes, self.rate_bps, t);
        t
    }

    /// A packet `id` of `ip_bytes` reaches the link at `now`: sent at once if the link is idle
    /// and nothing waits, else queued behind the others (or dropped when the queue is full).
    #[inline]
    pub fn offer(&mut self, now: Time, id: PacketId, ip_bytes: u32) -> Offer {
        self.touch(now);
        if now >= self.busy_until && self.queue.is_empty() {
            return Offer::SendNow;
        }
        if !self.queue.enqueue_at(now, id, ip_bytes) {
            return Offer::Dropped;
        }
        if self.tx_done_pending {
            return Offer::Queued { tx_done_at: None };
        }
        self.tx_done_pending = true;
        Offer::Queued {
            tx_done_at: Some(self.busy_until),
        }
    }

    /// Starts serialising a packet of `ip_bytes` at `now`; returns when it reaches the far
    /// end (end of serialisation plus the propagation delay).
    #[inline]
    pub fn begin_tx(&mut self, now: Time, ip_bytes: u32) -> Time {
        let done = now + self.tx_time(ip_bytes);
        self.busy_until = done;
        self.tx_packets += 1;
        self.tx_bytes += ip_bytes as u64;
        done + self.delay
    }

    /// The packet on the wire is out (the end-of-transmission event): returns the next
    /// packet to serialise from the queue, if any, with its IP bytes.
    #[inline]
    pub fn end_tx(&mut self, now: Time) -> Option<(PacketId, u32)> {
        self.tx_done_pending = false;
        self.touch(now);
        self.queue.dequeue_at(now)
    }

    /// After [`Link::begin_tx`] of a dequeued packet: when more wait, the time of the next
    /// end-of-transmission event to schedule.
    #[inline]
    pub fn next_tx_done(&mut self) -> Option<Time> {
        if self.queue.is_empty() {
            return None;
        }
        self.tx_done_pending = true;
        Some(self.busy_until)
    }

    /// Accounts the occupancy integral up to `now`; call before every queue change.
    #[inline]
    pub fn touch(&mut self, now: Time) {
        // An empty queue adds nothing: skip the 128-bit multiply (most offers find it empty).
        let n = self.queue.len_packets();
        if n > 0 {
            let dt = now.saturating_sub(self.last_change).as_nanos() as u128;
            self.occupancy_integral += dt * n as u128;
        }
        self.last_change = now;
    }

    /// Mean queue occupancy in packets over [0, now].
    pub fn mean_occupancy(&self, now: Time) -> f64 {
        if now.as_nanos() == 0 {
            return 0.0;
        }
        let tail = now.saturating_sub(self.last_change).as_nanos() as u128
            * self.queue.len_packets() as u128;
        (self.occupancy_integral + tail) as f64 / now.as_nanos() as f64
    }
}

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
        }
    }

    /// Serialisation time of a packet of `ip_bytes` at the current rate.
    #[inline]
    pub fn tx_time(&self, ip_bytes: u32) -> Time {
        Time::tx_time((ip_bytes + self.l2_header_bytes) as u64, self.rate_bps)
    }

    /// Accounts the occupancy integral up to `now`; call before every queue change.
    #[inline]
    pub fn touch(&mut self, now: Time) {
        let dt = now.saturating_sub(self.last_change).as_nanos() as u128;
        self.occupancy_integral += dt * self.queue.len_packets() as u128;
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

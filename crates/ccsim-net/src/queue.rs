//! Drop-tail FIFO (ns-3 `DropTailQueue`): an arriving packet that does not fit is dropped.

use crate::packet::PacketId;
use ccsim_core::{Ring, Time};

/// Queue capacity, in packets or in bytes (ns-3 `QueueSize` "100p" / "100000B").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueueLimit {
    Packets(u64),
    Bytes(u64),
}

#[derive(Debug)]
pub struct DropTailQueue {
    limit: QueueLimit,
    items: Ring<(PacketId, u32)>,
    bytes: u64,
    pub drops: u64,
    pub dropped_bytes: u64,
    pub enqueued: u64,
    /// Largest occupancy seen, in packets.
    pub max_packets: u64,
    /// ns-3's traffic-control flow control (see [`DropTailQueue::set_ns3_flow_control`]).
    ns3_flow_control: bool,
    /// The queue told the layer above to stop (it cannot take one more packet).
    stopped: bool,
    /// When the dequeue that makes room happened; the wake-up follows in a later event.
    wake_after: Option<Time>,
}

impl DropTailQueue {
    pub fn new(limit: QueueLimit) -> Self {
        DropTailQueue {
            limit,
            // Grows (doubling) to the occupancy the run reaches, not to the limit.
            items: Ring::default(),
            bytes: 0,
            drops: 0,
            dropped_bytes: 0,
            enqueued: 0,
            max_packets: 0,
            ns3_flow_control: false,
            stopped: false,
            wake_after: None,
        }
    }

    /// Reproduce ns-3.44's flow control between a device queue (packet limit) and the
    /// traffic-control layer without a queue disc: an enqueue that leaves no room for one more
    /// packet stops the layer (`NetDeviceQueue::PacketEnqueued`), which then drops arrivals
    /// (`TcDrop`); the dequeue that makes room wakes it only from a new event scheduled at that
    /// instant (`PacketDequeued` → `Simulator::ScheduleNow`), so a packet arriving in the same
    /// nanosecond as that dequeue is still dropped. (Seen in case B BBR at 0.267894065 s:
    /// ns-3 logs the dequeue, then the drop of the packet arriving at that instant.)
    pub fn set_ns3_flow_control(&mut self, on: bool) {
        self.ns3_flow_control = on && matches!(self.limit, QueueLimit::Packets(_));
    }

    /// [`DropTailQueue::enqueue`] at time `now`, through ns-3's flow control if it is on.
    pub fn enqueue_at(&mut self, now: Time, id: PacketId, bytes: u32) -> bool {
        if self.stopped {
            match self.wake_after {
                Some(t) if now > t => {
                    self.stopped = false;
                    self.wake_after = None;
                }
                _ => {
                    self.drops += 1;
                    self.dropped_bytes += bytes as u64;
                    return false;
                }
            }
        }
        let ok = self.enqueue(id, bytes);
        if ok && self.ns3_flow_control {
            if let QueueLimit::Packets(n) = self.limit {
                self.stopped = self.items.len() as u64 + 1 > n;
            }
        }
        ok
    }

    /// [`DropTailQueue::dequeue`] at time `now` (starts the deferred wake-up if stopped); with
    /// the packet's IP bytes as enqueued, so that the link need not read the packet itself
    /// (enqueued a whole queue ago, it is out of the cache by now).
    pub fn dequeue_at(&mut self, now: Time) -> Option<(PacketId, u32)> {
        let (id, bytes) = self.items.pop_front()?;
        self.bytes -= bytes as u64;
        if self.stopped && self.wake_after.is_none() {
            self.wake_after = Some(now);
        }
        Some((id, bytes))
    }

    pub fn limit(&self) -> QueueLimit {
        self.limit
    }

    /// Enqueues, or returns false (and counts a drop) when the packet does not fit.
    pub fn enqueue(&mut self, id: PacketId, bytes: u32) -> bool {
        let fits = match self.limit {
            QueueLimit::Packets(n) => (self.items.len() as u64) < n,
            QueueLimit::Bytes(b) => self.bytes + bytes as u64 <= b,
        };
        if !fits {
            self.drops += 1;
            self.dropped_bytes += bytes as u64;
            return false;
        }
        self.items.push_back((id, bytes));
        self.bytes += bytes as u64;
        self.enqueued += 1;
        self.max_packets = self.max_packets.max(self.items.len() as u64);
        true
    }

    pub fn dequeue(&mut self) -> Option<PacketId> {
        let (id, bytes) = self.items.pop_front()?;
        self.bytes -= bytes as u64;
        Some(id)
    }

    pub fn len_packets(&self) -> usize {
        self.items.len()
    }

    pub fn len_bytes(&self) -> u64 {
        self.bytes
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ns3_flow_control_drops_an_arrival_in_the_instant_of_the_freeing_dequeue() {
        let t = Time::from_micros;
        for ns3 in [true, false] {
            let mut q = DropTailQueue::new(QueueLimit::Packets(2));
            q.set_ns3_flow_control(ns3);
            assert!(q.enqueue_at(t(0), PacketId(1), 100));
            assert!(q.enqueue_at(t(0), PacketId(2), 100));
            assert!(!q.enqueue_at(t(1), PacketId(3), 100), "full");
            assert_eq!(q.dequeue_at(t(5)), Some((PacketId(1), 100)));
            // Same nanosecond as the dequeue: ns-3 has not woken the layer yet.
            assert_eq!(q.enqueue_at(t(5), PacketId(4), 100), !ns3);
            if ns3 {
                assert!(
                    q.enqueue_at(t(5) + Time(1), PacketId(5), 100),
                    "awake 1 ns later"
                );
            }
            assert_eq!(q.len_packets(), 2);
        }
    }

    #[test]
    fn drops_when_full_in_packets() {
        let mut q = DropTailQueue::new(QueueLimit::Packets(2));
        assert!(q.enqueue(PacketId(1), 100));
        assert!(q.enqueue(PacketId(2), 100));
        assert!(!q.enqueue(PacketId(3), 100));
        assert_eq!(q.drops, 1);
        assert_eq!(q.dequeue(), Some(PacketId(1)));
        assert!(q.enqueue(PacketId(4), 100));
        assert_eq!(q.len_bytes(), 200);
    }

    #[test]
    fn drops_when_full_in_bytes() {
        let mut q = DropTailQueue::new(QueueLimit::Bytes(250));
        assert!(q.enqueue(PacketId(1), 100));
        assert!(q.enqueue(PacketId(2), 100));
        assert!(!q.enqueue(PacketId(3), 100));
        assert!(q.enqueue(PacketId(4), 50));
        assert_eq!(q.len_packets(), 3);
    }
}

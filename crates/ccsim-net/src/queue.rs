//! Drop-tail FIFO (ns-3 `DropTailQueue`): an arriving packet that does not fit is dropped.

use crate::packet::PacketId;
use std::collections::VecDeque;

/// Queue capacity, in packets or in bytes (ns-3 `QueueSize` "100p" / "100000B").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueueLimit {
    Packets(u64),
    Bytes(u64),
}

#[derive(Debug)]
pub struct DropTailQueue {
    limit: QueueLimit,
    items: VecDeque<(PacketId, u32)>,
    bytes: u64,
    pub drops: u64,
    pub dropped_bytes: u64,
    pub enqueued: u64,
    /// Largest occupancy seen, in packets.
    pub max_packets: u64,
}

impl DropTailQueue {
    pub fn new(limit: QueueLimit) -> Self {
        let cap = match limit {
            QueueLimit::Packets(n) => n.min(1 << 16) as usize,
            QueueLimit::Bytes(b) => (b / 1500).min(1 << 16) as usize,
        };
        DropTailQueue {
            limit,
            items: VecDeque::with_capacity(cap + 1),
            bytes: 0,
            drops: 0,
            dropped_bytes: 0,
            enqueued: 0,
            max_packets: 0,
        }
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

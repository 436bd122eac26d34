//! The bursts sent and not yet ACKed, and the segments ACKed against the oldest
//! (`tcp_wave.c` v0.2: `struct wavetcp_burst_hist`, `wavetcp_insert_burst`, `pkts_acked`,
//! `backup_pkts_acked`, the consuming loop of `wavetcp_end_round`). Counts are segments, as
//! Linux's `rs->acked_sacked`.
//!
//! Only new data sent at a burst-timer round is recorded (Linux calls `segments_sent` from
//! `tcp_write_xmit`, which sends from the send head; retransmissions leave through
//! `tcp_retransmit_skb` and are never a burst). Every recorded segment is therefore ACKed
//! once, by its original transmission or a retransmission, and the history drains.

use std::collections::VecDeque;

/// Capacity reserved at `init`: the history holds the bursts of one RTT plus an outage's
/// (about RTT/TxTime + HT/TxTime entries), so growing it is rare.
const RESERVED: usize = 256;

#[derive(Clone, Debug, Default)]
pub(super) struct BurstHistory {
    /// Burst sizes, oldest first, segments (Linux `u16 size`).
    sizes: VecDeque<u32>,
    /// Segments ACKed in the current round (`pkts_acked`).
    pub acked: u32,
    /// `acked` before the round's first ACK (`backup_pkts_acked`).
    pub backup_acked: u32,
}

impl BurstHistory {
    pub fn new() -> Self {
        BurstHistory {
            sizes: VecDeque::with_capacity(RESERVED),
            acked: 0,
            backup_acked: 0,
        }
    }

    /// `wavetcp_insert_burst`.
    pub fn push(&mut self, segments: u32) {
        self.sizes.push_back(segments);
    }

    /// The oldest burst not yet ACKed.
    pub fn front(&self) -> Option<u32> {
        self.sizes.front().copied()
    }

    /// The consuming loop of `wavetcp_end_round`: a cumulative ACK may cover many bursts.
    pub fn consume(&mut self) {
        while let Some(&size) = self.sizes.front() {
            if self.acked < size {
                break;
            }
            self.acked -= size;
            self.sizes.pop_front();
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.sizes.iter().copied()
    }

    pub fn len(&self) -> usize {
        self.sizes.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cumulative_ack_consumes_every_burst_it_covers() {
        let mut h = BurstHistory::new();
        for s in [10, 10, 4] {
            h.push(s);
        }
        h.acked = 23;
        h.consume();
        assert_eq!(h.iter().collect::<Vec<_>>(), vec![4]);
        assert_eq!(h.acked, 3);
    }
}

//! The SACK blocks the receiver remembers, in report order (RFC 2018 §4, as ns-3.44
//! `TcpRxBuffer::UpdateSackList` keeps them).

/// Blocks remembered; older ones are forgotten (ns-3.44 keeps four).
const REMEMBERED_BLOCKS: usize = 4;

/// SACK blocks, most recent first.
#[derive(Debug)]
pub(super) struct SackList {
    blocks: Vec<(u64, u64)>,
}

impl SackList {
    pub(super) fn new() -> Self {
        SackList {
            blocks: Vec::with_capacity(16),
        }
    }

    pub(super) fn blocks(&self) -> &[(u64, u64)] {
        &self.blocks
    }

    /// Drops the blocks the cumulative ACK `rcv_nxt` now covers.
    pub(super) fn forget_acked(&mut self, rcv_nxt: u64) {
        self.blocks.retain(|&(_, e)| e > rcv_nxt);
    }

    /// Records newly held data [head, tail) (in the spirit of Linux `tcp_sack_new_ofo_skb`):
    /// the new block goes first, merged with blocks it exactly touches; at most four blocks
    /// are remembered, the oldest dropped. The list is *not* rebuilt from the reassembly
    /// queue: once a block has been dropped, data arriving next to it is reported without it
    /// (RFC 2018 (a) is still met for the blocks the receiver remembers). Reporting the whole
    /// contiguous held range instead gives the sender more SACK information than ns-3's and
    /// changes which segments it marks lost.
    pub(super) fn record(&mut self, head: u64, tail: u64) {
        self.blocks.insert(0, (head, tail));
        let mut i = 1;
        while i < self.blocks.len() {
            let (fs, fe) = self.blocks[0];
            let (cs, ce) = self.blocks[i];
            let merged = if fs == ce {
                Some((cs, fe))
            } else if fe == cs {
                Some((fs, ce))
            } else {
                None
            };
            match merged {
                Some(m) => {
                    self.blocks.remove(i);
                    self.blocks[0] = m;
                    i = 1; // the grown front block may now touch an earlier one
                }
                None => i += 1,
            }
        }
        self.blocks.truncate(REMEMBERED_BLOCKS);
    }
}

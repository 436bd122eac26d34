//! Retransmissions: a segment re-cut to a whole MSS (merging its successors, as ns-3's
//! `TcpTxBuffer` does), and the marks a retransmission sets.

use super::{Scoreboard, SegmentRecord};
use ccsim_core::Time;

impl Scoreboard {
    /// The newest record (the last first transmission).
    pub fn last_mut(&mut self) -> Option<&mut SegmentRecord> {
        self.segs.back_mut()
    }

    /// The record of the segment starting at `seq`, if it is outstanding.
    pub fn record_mut(&mut self, seq: u64) -> Option<&mut SegmentRecord> {
        let idx = self.abs_index(seq).checked_sub(self.head_index)?;
        self.segs.get_mut(idx as usize)
    }

    /// Re-cuts the segment starting at `seq` to `want` bytes for its retransmission, as
    /// ns-3.44's `TcpTxBuffer::GetTransmittedSegment` does, and returns its new length. A
    /// shorter segment absorbs the next one or its start (which is split), and no more: the
    /// size is capped at the two segments' sum. Nothing merges if the next is
    /// SACKed or differs in its lost mark ("avoid to merge different packet for this
    /// retransmission if flags are different"). Merging keeps the retransmitted mark only
    /// if both parts had it (`MergeItems`); the retransmission then marks the whole segment.
    /// Segments are never cut shorter here: `want` is at most a segment.
    pub fn recut(&mut self, seq: u64, want: u32) -> u32 {
        let idx = self.abs_index(seq);
        let pos = (idx - self.head_index) as usize;
        let Some(cur) = self.segs.get(pos).copied() else {
            return 0;
        };
        if cur.seq != seq || cur.len >= want || cur.sacked {
            return cur.len;
        }
        // Segment boundaries change: the SACK cache's "wholly inside" no longer holds.
        self.sack_cache_len = 0;
        let mut merged = cur;
        // ns-3 caps the size at this segment plus the next one: at most two merge.
        if let Some(next) = self.segs.get(pos + 1).copied() {
            if next.sacked || next.lost != merged.lost {
                return cur.len;
            }
            let take = (want - merged.len).min(next.len);
            if take < next.len {
                // Split the next segment: its first `take` bytes join this one.
                let rest = &mut self.segs[pos + 1];
                rest.seq += take as u64;
                rest.len -= take;
                if next.retransmitted != merged.retransmitted {
                    self.drop_retransmitted_mark(&mut merged, take, next.retransmitted);
                }
            } else {
                self.segs.remove(pos + 1);
                self.forget_index(idx + 1);
                if next.retransmitted != merged.retransmitted {
                    self.drop_retransmitted_mark(&mut merged, take, next.retransmitted);
                }
            }
            merged.len += take;
            merged.ever_retransmitted |= next.ever_retransmitted;
            merged.last_sent = merged.last_sent.max(next.last_sent);
        }
        self.segs[pos] = merged;
        merged.len
    }

    /// `MergeItems` with one part retransmitted and the other not: the merged segment is not
    /// retransmitted, and the marked part leaves `retrans_bytes`.
    fn drop_retransmitted_mark(&mut self, merged: &mut SegmentRecord, take: u32, next: bool) {
        if merged.retransmitted {
            self.retrans_bytes -= merged.len as u64;
            merged.retransmitted = false;
        } else if next {
            // The absorbed part of the next segment leaves; what stays keeps the mark.
            self.retrans_bytes -= take as u64;
        }
    }

    /// The segment at absolute index `removed` was merged into the one before it: index
    /// bounds above it move down by one (a bound right after the merged segment stays).
    fn forget_index(&mut self, removed: u64) {
        for x in [
            &mut self.lost_frontier,
            &mut self.retx_hint,
            &mut self.highest_sacked_end,
        ] {
            if *x > removed {
                *x -= 1;
            }
        }
    }

    /// Records the retransmission of the segment starting at `seq`.
    pub fn on_retransmit(&mut self, seq: u64, now: Time) {
        let idx = self.abs_index(seq);
        let s = &mut self.segs[(idx - self.head_index) as usize];
        if !s.retransmitted {
            s.retransmitted = true;
            self.retrans_bytes += s.len as u64;
        }
        s.ever_retransmitted = true;
        s.last_sent = now;
    }
}

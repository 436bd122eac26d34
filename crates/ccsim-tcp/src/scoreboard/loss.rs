//! Loss marks: RFC 6675 `IsLost` over the SACKed segments (a frontier that only grows), the
//! head marked lost by a third dupACK or an RTO, and the next segment to retransmit.

use super::Scoreboard;

impl Scoreboard {
    /// RFC 6675 IsLost applied to every segment: finds the `dupthresh`-th highest SACKed
    /// segment and marks every unSACKed segment below it lost.
    pub(super) fn update_loss_marks(&mut self) {
        if self.highest_sacked_end == 0 {
            return;
        }
        let mut count = 0;
        let mut idx = self.highest_sacked_end;
        let mut frontier = None;
        while idx > self.head_index.max(self.lost_frontier) {
            idx -= 1;
            if self.segs[(idx - self.head_index) as usize].sacked {
                count += 1;
                if count >= self.dupthresh {
                    frontier = Some(idx);
                    break;
                }
            }
        }
        let Some(frontier) = frontier else { return };
        self.mark_lost_below(frontier);
    }

    fn mark_lost_below(&mut self, frontier: u64) {
        let start = self.lost_frontier.max(self.head_index);
        for idx in start..frontier {
            let s = &mut self.segs[(idx - self.head_index) as usize];
            if !s.sacked && !s.lost {
                s.lost = true;
                self.lost_bytes += s.len as u64;
                self.retx_hint = self.retx_hint.min(idx);
            }
        }
        self.lost_frontier = self.lost_frontier.max(frontier);
    }

    /// Whether the first unacknowledged segment is considered lost (RFC 6675 §5 entry test).
    pub fn head_is_lost(&self) -> bool {
        self.segs.front().is_some_and(|s| s.lost)
    }

    /// ns-3 `TcpTxBuffer::MarkHeadAsLost`: fast retransmit on the dupACK count alone, or a
    /// partial ACK without SACK, declares the first unacknowledged segment lost.
    pub fn mark_head_lost(&mut self) {
        if let Some(s) = self.segs.front_mut() {
            if !s.sacked && !s.lost {
                s.lost = true;
                self.lost_bytes += s.len as u64;
            }
            if s.retransmitted {
                // A new retransmission of it is due.
                s.retransmitted = false;
                self.retrans_bytes -= s.len as u64;
            }
            self.retx_hint = self.head_index;
            self.lost_frontier = self.lost_frontier.max(self.head_index + 1);
        }
    }

    /// RTO (RFC 6675 §5.1, ns-3 `SetSentListLost`): every unSACKed segment is lost and no
    /// retransmission is in flight any more; SACK marks are kept.
    pub fn mark_all_lost(&mut self) {
        for s in self.segs.iter_mut() {
            if s.retransmitted {
                s.retransmitted = false;
            }
            if !s.sacked && !s.lost {
                s.lost = true;
                self.lost_bytes += s.len as u64;
            }
        }
        self.retrans_bytes = 0;
        self.lost_frontier = self.head_index + self.segs.len() as u64;
        self.retx_hint = self.head_index;
    }

    /// Linux `tcp_undo_cwnd_reduction(sk, true)`: the loss episode proved spurious, so no
    /// segment is lost any more (retransmissions in flight stay counted).
    pub fn unmark_lost(&mut self) {
        for s in self.segs.iter_mut() {
            s.lost = false;
        }
        self.lost_bytes = 0;
        self.lost_frontier = self.head_index;
    }

    /// RFC 6675 NextSeg rule 1: the first lost, unSACKed segment not yet retransmitted.
    pub fn next_lost(&mut self) -> Option<(u64, u32)> {
        let mut end = self
            .lost_frontier
            .min(self.head_index + self.segs.len() as u64);
        if self.rule1_below_highest_sack && self.highest_sacked_end > 0 {
            end = end.min(self.highest_sacked_end);
        }
        let mut idx = self.retx_hint.max(self.head_index);
        while idx < end {
            let s = &self.segs[(idx - self.head_index) as usize];
            if s.lost && !s.sacked && !s.retransmitted {
                self.retx_hint = idx;
                return Some((s.seq, s.len));
            }
            idx += 1;
        }
        self.retx_hint = idx;
        None
    }

    /// NextSeg rule 3's candidate: the first segment below the highest SACKed one (1.b, as
    /// rule 1 with `rule1_below_highest_sack`) that is neither SACKed, lost nor retransmitted.
    /// A linear scan, as ns-3.44's: rule 3 is asked only in recovery with no new data.
    pub fn first_unmarked(&self) -> Option<(u64, u32)> {
        let end = if self.rule1_below_highest_sack && self.highest_sacked_end > 0 {
            self.highest_sacked_end.saturating_sub(self.head_index) as usize
        } else {
            self.segs.len()
        };
        self.segs
            .iter()
            .take(end)
            .find(|s| !s.sacked && !s.lost && !s.retransmitted)
            .map(|s| (s.seq, s.len))
    }
}

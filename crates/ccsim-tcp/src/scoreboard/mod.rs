//! The sender's record of outstanding segments: SACK scoreboard, loss marks and pipe.
//!
//! Loss detection is RFC 6675 `IsLost`: an unSACKed segment is lost once `dupthresh`
//! segments above it have been SACKed (ns-3 `TcpTxBuffer::IsLost`). Since SACKed segments
//! only accumulate, the lost region only grows upward: we keep a frontier below which every
//! unSACKed segment is marked, so updates cost what they mark, not the whole window.
//! Bytes in flight are counted like Linux and ns-3 (`packets_out − sacked_out − lost_out +
//! retrans_out`), which equals RFC 6675's pipe.

use ccsim_core::Time;
use std::collections::VecDeque;

mod loss;
mod reno_sack;
mod retransmit;

#[derive(Clone, Copy, Debug)]
pub struct SegmentRecord {
    pub seq: u64,
    pub len: u32,
    pub sacked: bool,
    pub lost: bool,
    /// Retransmitted since it was last marked lost.
    pub retransmitted: bool,
    /// Ever retransmitted (Karn's rule for RTT samples).
    pub ever_retransmitted: bool,
    pub last_sent: Time,
    /// Delivery-rate bookkeeping at the last transmission (draft-cheng-iccrg-delivery-rate-
    /// estimation §3.2, ns-3 `TcpTxItem::RateInformation`).
    pub rate: SegmentRateInfo,
}

/// What the delivery-rate estimator remembers about a segment when it is (re)sent.
#[derive(Clone, Copy, Debug, Default)]
pub struct SegmentRateInfo {
    /// Connection `delivered` count when sent.
    pub delivered: u64,
    /// Connection `delivered_time` when sent.
    pub delivered_time: Time,
    /// Connection `first_sent_time` when sent.
    pub first_sent_time: Time,
    /// Sent while application-limited.
    pub is_app_limited: bool,
}

/// Outcome of processing one ACK's SACK blocks.
#[derive(Clone, Copy, Debug, Default)]
pub struct SackUpdate {
    pub newly_sacked_bytes: u64,
}

#[derive(Debug)]
pub struct Scoreboard {
    /// Absolute index of `segs[0]` (segments sent before it, counted from the first).
    head_index: u64,
    segs: VecDeque<SegmentRecord>,
    outstanding_bytes: u64,
    sacked_bytes: u64,
    lost_bytes: u64,
    retrans_bytes: u64,
    /// Absolute index below which every unSACKed segment is marked lost.
    lost_frontier: u64,
    /// Absolute index where the search for the next segment to retransmit starts.
    retx_hint: u64,
    /// Highest SACKed absolute index + 1 (0 when nothing is SACKed).
    highest_sacked_end: u64,
    dupthresh: u32,
    /// ns-3.44: a retransmitted segment that is then SACKed stays in `retrans_bytes` (and so
    /// in pipe) until the cumulative ACK removes it (`TcpTxBuffer::Update` marks it SACKed
    /// without clearing its retransmitted state; ns-3 issue #1190, fixed after 3.44).
    sacked_retx_stays_in_flight: bool,
    /// NextSeg rule 1 only picks segments below the highest SACKed one (RFC 6675 (1.b)) —
    /// while anything is SACKed: ns-3.44 `TcpTxBuffer::NextSeg` tests
    /// `(m_sackSeen && startSeq < m_highestSack) || !m_sackSeen`, so with nothing SACKed
    /// (e.g. after a timeout without SACK, `ResetRenoSack`) every lost segment qualifies.
    rule1_below_highest_sack: bool,
    /// SACK marks are guesses from duplicate ACKs ([`reno_sack`]): ns-3.44 never reports
    /// them to the rate estimator (`AddRenoSack` has no `SkbDelivered`), so a cumulative ACK
    /// counts a guessed-SACKed segment as newly delivered (`DiscardUpTo`'s callback).
    guessed_sacks: bool,
    /// The previous ACK's SACK blocks, already applied: every segment wholly inside one is
    /// SACKed, so a block that repeats or extends one skips that part (as Linux's
    /// `recv_sack_cache`). Cleared when segments are re-cut.
    sack_cache: [(u64, u64); SACK_CACHE],
    sack_cache_len: usize,
}

/// Blocks remembered from the previous ACK (a SACK option carries at most four).
const SACK_CACHE: usize = 4;

impl Scoreboard {
    pub fn new(dupthresh: u32) -> Self {
        Scoreboard {
            head_index: 0,
            segs: VecDeque::with_capacity(1024),
            outstanding_bytes: 0,
            sacked_bytes: 0,
            lost_bytes: 0,
            retrans_bytes: 0,
            lost_frontier: 0,
            retx_hint: 0,
            highest_sacked_end: 0,
            dupthresh,
            sacked_retx_stays_in_flight: false,
            rule1_below_highest_sack: false,
            guessed_sacks: false,
            sack_cache: [(0, 0); SACK_CACHE],
            sack_cache_len: 0,
        }
    }

    /// Where the walk over the block `[start, end)` may begin: past the part of it that a
    /// cached block already covered, but including a segment that straddles that cached
    /// block's end (it may lie wholly inside the new block).
    fn sack_walk_start(&self, start: u64, end: u64) -> u64 {
        let mut idx = self.abs_index(start);
        for &(cs, ce) in &self.sack_cache[..self.sack_cache_len] {
            if cs <= start && start < ce && ce < end {
                let mut skip = self.abs_index(ce);
                if let Some(prev) = skip
                    .checked_sub(self.head_index + 1)
                    .and_then(|p| self.segs.get(p as usize))
                {
                    if prev.seq + prev.len as u64 > ce {
                        skip -= 1;
                    }
                }
                idx = idx.max(skip);
            }
        }
        idx
    }

    /// Reproduce ns-3.44's accounting of SACKed retransmissions (see the field).
    pub fn with_ns3_sacked_retx_in_flight(mut self, on: bool) -> Self {
        self.sacked_retx_stays_in_flight = on;
        self
    }

    /// RFC 6675 NextSeg (1.b) as ns-3.44 applies it (see the field).
    pub fn with_rule1_below_highest_sack(mut self, on: bool) -> Self {
        self.rule1_below_highest_sack = on;
        self
    }

    /// Marks come from duplicate ACKs, not SACK blocks (see the field).
    pub fn with_guessed_sacks(mut self, on: bool) -> Self {
        self.guessed_sacks = on;
        self
    }

    /// Absolute index of the first outstanding segment that starts at or after `seq` (the
    /// segment starting at `seq`, for a segment boundary). Segments are MSS long except where
    /// the sender cut one short (end of data, edge of the receive window), so this searches.
    fn abs_index(&self, seq: u64) -> u64 {
        self.head_index + self.segs.partition_point(|s| s.seq < seq) as u64
    }

    pub fn is_empty(&self) -> bool {
        self.segs.is_empty()
    }

    pub fn len(&self) -> usize {
        self.segs.len()
    }

    /// Sent and not cumulatively acknowledged.
    pub fn outstanding_bytes(&self) -> u64 {
        self.outstanding_bytes
    }

    pub fn sacked_bytes(&self) -> u64 {
        self.sacked_bytes
    }

    pub fn lost_bytes(&self) -> u64 {
        self.lost_bytes
    }

    /// Retransmitted bytes still counted in flight (ns-3 `TcpTxBuffer::GetRetransmitsCount`).
    pub fn retransmitted_bytes(&self) -> u64 {
        self.retrans_bytes
    }

    /// RFC 6675 pipe.
    pub fn bytes_in_flight(&self) -> u64 {
        self.outstanding_bytes + self.retrans_bytes - self.sacked_bytes - self.lost_bytes
    }

    pub fn head(&self) -> Option<&SegmentRecord> {
        self.segs.front()
    }

    /// Records a first transmission (segments arrive in sequence order).
    pub fn on_new_segment(&mut self, seq: u64, len: u32, now: Time) {
        debug_assert_eq!(
            self.abs_index(seq),
            self.head_index + self.segs.len() as u64,
            "segments must be sent in order"
        );
        self.segs.push_back(SegmentRecord {
            seq,
            len,
            sacked: false,
            lost: false,
            retransmitted: false,
            ever_retransmitted: false,
            last_sent: now,
            rate: SegmentRateInfo::default(),
        });
        self.outstanding_bytes += len as u64;
    }

    /// ns-3.44 `TcpTxBuffer::IsRetransmittedDataAcked(end)`: an outstanding segment ends
    /// exactly at `end`, is not SACKed and is marked retransmitted.
    pub fn retransmission_ends_at(&self, end: u64) -> bool {
        let i = self.segs.partition_point(|s| s.seq + (s.len as u64) < end);
        self.segs
            .get(i)
            .is_some_and(|s| s.seq + s.len as u64 == end && !s.sacked && s.retransmitted)
    }

    /// Removes segments covered by the cumulative ACK `ack`. Returns (bytes newly acked that
    /// had not been SACKed before — or only guessed SACKed, see `guessed_sacks` —, whether any removed segment was ever retransmitted).
    pub fn on_cumulative_ack(&mut self, ack: u64) -> (u64, bool) {
        self.on_cumulative_ack_with(ack, |_| {})
    }

    /// [`on_cumulative_ack`](Self::on_cumulative_ack), calling `delivered` for every removed
    /// segment whose bytes are newly delivered (not SACKed before, or only guessed SACKed).
    pub fn on_cumulative_ack_with(
        &mut self,
        ack: u64,
        mut delivered: impl FnMut(&SegmentRecord),
    ) -> (u64, bool) {
        let mut newly = 0;
        let mut retx = false;
        // Each record is read in place and then dropped: popping it out first copied the
        // whole record (~70 bytes) per ACKed segment.
        while let Some(s) = self.segs.front() {
            if s.seq + s.len as u64 > ack {
                break;
            }
            let len = s.len as u64;
            self.outstanding_bytes -= len;
            if s.sacked {
                self.sacked_bytes -= len;
                if s.retransmitted && self.sacked_retx_stays_in_flight {
                    self.retrans_bytes -= len;
                }
                if self.guessed_sacks {
                    newly += len;
                    delivered(s);
                }
            } else {
                newly += len;
                delivered(s);
                if s.lost {
                    self.lost_bytes -= len;
                }
                if s.retransmitted {
                    self.retrans_bytes -= len;
                }
            }
            retx |= s.ever_retransmitted;
            self.segs.pop_front();
            self.head_index += 1;
        }
        self.trim_head(ack);
        self.lost_frontier = self.lost_frontier.max(self.head_index);
        self.retx_hint = self.retx_hint.max(self.head_index);
        if self.highest_sacked_end <= self.head_index {
            self.highest_sacked_end = 0;
        }
        (newly, retx)
    }

    /// An ACK inside the head segment cuts its acknowledged bytes off (ns-3.44
    /// `TcpTxBuffer::DiscardUpTo` with `RemoveFromCounts`): a retransmission then starts at
    /// the ACK. The cut bytes count as acknowledged but not as delivered (ns-3 reports only
    /// whole segments to the rate estimator). Receivers ACK mid-segment when IPv4 reassembly
    /// joins pieces of two datagrams ([`ccsim_net::fragment`]).
    fn trim_head(&mut self, ack: u64) {
        let Some(head) = self.segs.front_mut() else {
            return;
        };
        if head.seq >= ack {
            return;
        }
        let cut = (ack - head.seq) as u32;
        head.seq = ack;
        head.len -= cut;
        let cut = cut as u64;
        self.outstanding_bytes -= cut;
        if head.sacked {
            self.sacked_bytes -= cut;
            if head.retransmitted && self.sacked_retx_stays_in_flight {
                self.retrans_bytes -= cut;
            }
        } else {
            if head.lost {
                self.lost_bytes -= cut;
            }
            if head.retransmitted {
                self.retrans_bytes -= cut;
            }
        }
        self.sack_cache_len = 0;
    }

    /// Marks the segments fully inside the SACK blocks, then extends the loss marks.
    pub fn on_sack(&mut self, blocks: &[(u64, u64)]) -> SackUpdate {
        self.on_sack_with(blocks, |_| {})
    }

    /// [`on_sack`](Self::on_sack), calling `delivered` for every newly SACKed segment.
    pub fn on_sack_with(
        &mut self,
        blocks: &[(u64, u64)],
        mut delivered: impl FnMut(&SegmentRecord),
    ) -> SackUpdate {
        let mut upd = SackUpdate::default();
        for &(start, end) in blocks {
            if end <= start || self.segs.is_empty() {
                continue;
            }
            let head_seq = self.segs[0].seq;
            let start = start.max(head_seq);
            if end <= start {
                continue;
            }
            if self.sack_cache[..self.sack_cache_len]
                .iter()
                .any(|&(cs, ce)| cs <= start && end <= ce)
            {
                continue; // applied by an earlier ACK
            }
            let mut idx = self.sack_walk_start(start, end);
            while let Some(pos) = idx.checked_sub(self.head_index) {
                let Some(s) = self.segs.get_mut(pos as usize) else {
                    break;
                };
                if s.seq + s.len as u64 > end {
                    break;
                }
                if !s.sacked {
                    s.sacked = true;
                    delivered(s);
                    let len = s.len as u64;
                    self.sacked_bytes += len;
                    upd.newly_sacked_bytes += len;
                    if s.lost {
                        self.lost_bytes -= len;
                    }
                    if s.retransmitted && !self.sacked_retx_stays_in_flight {
                        self.retrans_bytes -= len;
                    }
                    self.highest_sacked_end = self.highest_sacked_end.max(idx + 1);
                }
                idx += 1;
            }
        }
        self.sack_cache_len = 0;
        for &(start, end) in blocks.iter().take(SACK_CACHE) {
            if start < end {
                self.sack_cache[self.sack_cache_len] = (start, end);
                self.sack_cache_len += 1;
            }
        }
        if upd.newly_sacked_bytes > 0 {
            self.update_loss_marks();
        }
        upd
    }
}

#[cfg(test)]
mod tests;

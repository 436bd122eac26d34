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

mod reno_sack;

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
        while let Some(front) = self.segs.front() {
            if front.seq + front.len as u64 > ack {
                break;
            }
            let s = self.segs.pop_front().unwrap();
            self.head_index += 1;
            let len = s.len as u64;
            self.outstanding_bytes -= len;
            if s.sacked {
                self.sacked_bytes -= len;
                if s.retransmitted && self.sacked_retx_stays_in_flight {
                    self.retrans_bytes -= len;
                }
                if self.guessed_sacks {
                    newly += len;
                    delivered(&s);
                }
            } else {
                newly += len;
                delivered(&s);
                if s.lost {
                    self.lost_bytes -= len;
                }
                if s.retransmitted {
                    self.retrans_bytes -= len;
                }
            }
            retx |= s.ever_retransmitted;
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

    /// RFC 6675 IsLost applied to every segment: finds the `dupthresh`-th highest SACKed
    /// segment and marks every unSACKed segment below it lost.
    fn update_loss_marks(&mut self) {
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

#[cfg(test)]
mod tests {
    use super::*;

    const MSS: u32 = 1000;

    fn board(n: u64) -> Scoreboard {
        let mut sb = Scoreboard::new(3);
        for i in 0..n {
            sb.on_new_segment(i * MSS as u64, MSS, Time::ZERO);
        }
        sb
    }

    /// A lost segment 1 is retransmitted and the retransmission is SACKed while the head (0)
    /// is still missing: RFC pipe drops it at once, ns-3.44 only at the cumulative ACK.
    #[test]
    fn sacked_retransmission_leaves_pipe_at_once_or_at_the_cumulative_ack() {
        for ns3 in [false, true] {
            let mut sb = board(10).with_ns3_sacked_retx_in_flight(ns3);
            sb.on_sack(&[(2000, 6000)]);
            assert_eq!(sb.lost_bytes(), 2000, "segments 0 and 1 are lost");
            sb.on_retransmit(1000, Time::ZERO);
            let before = sb.bytes_in_flight();
            sb.on_sack(&[(1000, 6000)]);
            let expected = if ns3 { before } else { before - 1000 };
            assert_eq!(sb.bytes_in_flight(), expected, "ns3 quirk {ns3}");
            // The cumulative ACK past both settles the accounting either way.
            sb.on_retransmit(0, Time::ZERO);
            sb.on_cumulative_ack(6000);
            assert_eq!(sb.bytes_in_flight(), 4000);
        }
    }

    /// ns-3.44 `GetTransmittedSegment` caps the size at the segment plus the next one, so a
    /// short segment followed by another short one is resent short (seed 002 over IPv4
    /// fragments: 9488 B + 240 B go out as 9728 B, not as 10 000 B).
    #[test]
    fn a_recut_merges_at_most_two_segments() {
        let mut sb = Scoreboard::new(3);
        let sizes = [600, 200, 1000, 1000, 1000, 1000];
        let mut seq = 0;
        for len in sizes {
            sb.on_new_segment(seq, len, Time::ZERO);
            seq += len as u64;
        }
        sb.on_sack(&[(1800, 4800)]);
        assert_eq!(sb.recut(0, 1000), 800);
        sb.on_retransmit(0, Time::ZERO);
        // The third segment is whole again and next in line.
        assert_eq!(sb.next_lost(), Some((800, 1000)));
    }

    /// ns-3.44 `GetTransmittedSegment`: a short lost segment is resent as a whole MSS by
    /// taking the start of the next one when that one is equally marked and not SACKed.
    #[test]
    fn a_short_segment_is_recut_to_a_whole_segment_for_its_retransmission() {
        let mut sb = Scoreboard::new(3);
        let sizes = [600, 1000, 1000, 1000, 1000, 1000];
        let mut seq = 0;
        for len in sizes {
            sb.on_new_segment(seq, len, Time::ZERO);
            seq += len as u64;
        }
        // SACK the last three: segments 0–2 are lost (dupthresh 3).
        sb.on_sack(&[(2600, 5600)]);
        assert_eq!(sb.lost_bytes(), 2600);
        let pipe = sb.bytes_in_flight();
        // Segment 0 (600 B) takes 400 B of segment 1, which keeps 600 B.
        assert_eq!(sb.recut(0, 1000), 1000);
        sb.on_retransmit(0, Time::ZERO);
        assert_eq!(sb.next_lost(), Some((1000, 600)));
        assert_eq!(sb.lost_bytes(), 2600, "the same bytes are lost");
        assert_eq!(sb.bytes_in_flight(), pipe + 1000);
        // Segment 2 is followed by a SACKed one: it stays as it is.
        assert_eq!(sb.recut(1600, 1000), 1000);
        sb.on_retransmit(1000, Time::ZERO);
        assert_eq!(sb.recut(1600, 1000), 1000);
        // A lost segment next to an unlost one is not merged (their marks differ).
        let mut sb = Scoreboard::new(3);
        sb.on_new_segment(0, 600, Time::ZERO);
        sb.on_new_segment(600, 1000, Time::ZERO);
        sb.mark_head_lost();
        assert_eq!(sb.recut(0, 1000), 600);
        // The cumulative ACK of everything settles the counts.
        sb.on_retransmit(0, Time::ZERO);
        sb.on_cumulative_ack(1600);
        assert_eq!(
            (
                sb.bytes_in_flight(),
                sb.lost_bytes(),
                sb.retransmitted_bytes()
            ),
            (0, 0, 0)
        );
    }

    /// A block that extends the previous ACK's block only walks the new part, yet a segment
    /// straddling the old block's end is still SACKed once the new block covers it.
    #[test]
    fn sack_cache_skips_applied_ranges_but_not_straddling_segments() {
        let mut sb = board(10);
        assert_eq!(sb.on_sack(&[(2000, 5000)]).newly_sacked_bytes, 3000);
        assert_eq!(sb.on_sack(&[(2000, 5000)]).newly_sacked_bytes, 0);
        assert_eq!(sb.on_sack(&[(2000, 7500)]).newly_sacked_bytes, 2000);
        assert_eq!(sb.on_sack(&[(2000, 8000)]).newly_sacked_bytes, 1000);
        // Uneven segments: the first block ends inside [600, 1600), which the next one covers.
        let mut sb = Scoreboard::new(3);
        for (seq, len) in [(0, 600), (600, 1000), (1600, 1000), (2600, 1000)] {
            sb.on_new_segment(seq, len, Time::ZERO);
        }
        assert_eq!(sb.on_sack(&[(1600, 2100)]).newly_sacked_bytes, 0);
        assert_eq!(sb.on_sack(&[(1600, 2600)]).newly_sacked_bytes, 1000);
        assert_eq!(sb.on_sack(&[(600, 1100)]).newly_sacked_bytes, 0);
        assert_eq!(sb.on_sack(&[(600, 2600)]).newly_sacked_bytes, 1000);
        assert_eq!(sb.sacked_bytes(), 2000);
    }

    #[test]
    fn three_sacked_segments_mark_the_hole_lost() {
        let mut sb = board(10);
        assert_eq!(sb.bytes_in_flight(), 10_000);
        sb.on_sack(&[(1000, 3000)]);
        assert!(!sb.head_is_lost());
        assert_eq!(sb.bytes_in_flight(), 8_000);
        sb.on_sack(&[(1000, 4000)]);
        assert!(sb.head_is_lost());
        // 10 out − 3 sacked − 1 lost.
        assert_eq!(sb.bytes_in_flight(), 6_000);
        assert_eq!(sb.next_lost(), Some((0, MSS)));
        sb.on_retransmit(0, Time::ZERO);
        assert_eq!(sb.bytes_in_flight(), 7_000);
        assert_eq!(sb.next_lost(), None);
        let (newly, retx) = sb.on_cumulative_ack(4000);
        assert_eq!(newly, 1000);
        assert!(retx);
        assert_eq!(sb.bytes_in_flight(), 6_000);
        assert_eq!(sb.sacked_bytes(), 0);
    }

    /// After a timeout every unSACKed segment is lost; with RFC 6675 (1.b) (ns-3.44) only those
    /// below the highest SACKed segment are candidates for retransmission.
    #[test]
    fn rule_1b_leaves_lost_segments_above_the_highest_sack() {
        for rule_1b in [false, true] {
            let mut sb = board(6).with_rule1_below_highest_sack(rule_1b);
            sb.on_sack(&[(2000, 3000)]);
            sb.mark_all_lost();
            let mut order = vec![];
            while let Some((seq, _)) = sb.next_lost() {
                sb.on_retransmit(seq, Time::ZERO);
                order.push(seq);
            }
            let want: &[u64] = if rule_1b {
                &[0, 1000]
            } else {
                &[0, 1000, 3000, 4000, 5000]
            };
            assert_eq!(order, want, "rule 1b {rule_1b}");
        }
    }

    #[test]
    fn rto_marks_everything_unsacked_lost() {
        let mut sb = board(5);
        sb.on_sack(&[(3000, 4000)]);
        sb.mark_all_lost();
        assert_eq!(sb.bytes_in_flight(), 0);
        let mut order = vec![];
        while let Some((seq, _)) = sb.next_lost() {
            sb.on_retransmit(seq, Time::ZERO);
            order.push(seq);
        }
        assert_eq!(order, vec![0, 1000, 2000, 4000]);
        assert_eq!(sb.bytes_in_flight(), 4000);
    }

    #[test]
    fn partial_block_does_not_sack_a_segment() {
        let mut sb = board(3);
        let u = sb.on_sack(&[(1500, 2500)]);
        assert_eq!(u.newly_sacked_bytes, 0);
        let u = sb.on_sack(&[(1000, 3000)]);
        assert_eq!(u.newly_sacked_bytes, 2000);
    }
}

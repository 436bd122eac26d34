//! SACK emulation for a connection without the SACK option, as ns-3.44 keeps it
//! (`TcpTxBuffer::AddRenoSack`, `ResetRenoSack` and the head rule in `DiscardUpTo`;
//! Linux does the same in `tcp_add_reno_sack` / `tcp_remove_reno_sacks`).
//!
//! Each duplicate ACK means one segment above SND.UNA has reached the receiver, but not
//! which one; it is counted against the lowest segment above the head not yet counted,
//! so pipe (`bytes_in_flight`) falls by one segment per duplicate ACK, as with SACK, and
//! the NextSeg rules see the "SACKed" region they expect.

use super::Scoreboard;

impl Scoreboard {
    /// One more segment has left the network (a duplicate ACK without SACK): mark the first
    /// segment above the head that is not yet marked SACKed. The head is never marked — it
    /// is the segment the duplicate ACKs ask for. Nothing to mark leaves the count as it is.
    pub fn add_reno_sack(&mut self) {
        if let Some(pos) = self.segs.iter().skip(1).position(|s| !s.sacked) {
            self.mark_reno_sack(pos + 1);
        }
    }

    /// [`add_reno_sack`](Self::add_reno_sack) in the Loss state, as Linux's counter works
    /// there: `tcp_limit_reno_sacked` keeps `sacked_out + lost_out <= packets_out`, so a
    /// duplicate ACK can only account for a segment not marked lost (new data sent after the
    /// go-back-N). Marks the first such segment above the head; none leaves the count as it is.
    pub fn add_reno_sack_unlost(&mut self) {
        if let Some(pos) = self.segs.iter().skip(1).position(|s| !s.sacked && !s.lost) {
            self.mark_reno_sack(pos + 1);
        }
    }

    fn mark_reno_sack(&mut self, pos: usize) {
        let s = &mut self.segs[pos];
        s.sacked = true;
        let len = s.len as u64;
        self.sacked_bytes += len;
        if s.lost {
            s.lost = false;
            self.lost_bytes -= len;
        }
        if s.retransmitted && !self.sacked_retx_stays_in_flight {
            self.retrans_bytes -= len;
        }
        self.highest_sacked_end = self
            .highest_sacked_end
            .max(self.head_index + pos as u64 + 1);
    }

    /// ns-3.44 `TcpTxBuffer::IsLost(HighACK + 1)` for the head: false at or above the highest
    /// SACKed segment's start (so false while nothing is SACKed), else the head's lost mark.
    /// Without SACK the head keeps a lost mark from the head rule of
    /// [`move_reno_sack_off_head`](Self::move_reno_sack_off_head) or a partial ACK, and
    /// `DupAck` then enters recovery on the first duplicate ACK (its step (2)).
    pub fn head_is_lost_below_highest_sack(&self) -> bool {
        self.head_index + 1 < self.highest_sacked_end && self.head_is_lost()
    }

    /// Forget every emulated SACK (ns-3 `ResetRenoSack`, on a retransmission timeout).
    pub fn reset_reno_sacks(&mut self) {
        for s in self.segs.iter_mut().filter(|s| s.sacked) {
            s.sacked = false;
            if s.retransmitted && !self.sacked_retx_stays_in_flight {
                self.retrans_bytes += s.len as u64;
            }
        }
        self.sacked_bytes = 0;
        self.highest_sacked_end = 0;
    }

    /// After a cumulative ACK: a head counted as SACKed was a wrong guess (the receiver
    /// would have ACKed it), so its mark moves to the next segment and the head, which the
    /// receiver still lacks, is declared lost (the head rule of ns-3 `DiscardUpTo`).
    pub fn move_reno_sack_off_head(&mut self) {
        let Some(head) = self.segs.front_mut() else {
            return;
        };
        if !head.sacked {
            return;
        }
        head.sacked = false;
        let len = head.len as u64;
        self.sacked_bytes -= len;
        if head.retransmitted && !self.sacked_retx_stays_in_flight {
            self.retrans_bytes += len;
        }
        self.add_reno_sack();
        // No segment left to take the mark: the highest "SACKed" segment is the head itself,
        // which ns-3's `DiscardUpTo` then treats as nothing SACKed (`m_sackSeen = false`,
        // `m_highestSack.second <= m_firstByteSeq`).
        if self.highest_sacked_end <= self.head_index + 1 {
            self.highest_sacked_end = 0;
        }
        self.mark_head_lost();
    }
}

#[cfg(test)]
mod tests {
    use crate::scoreboard::Scoreboard;
    use ccsim_core::Time;

    fn board(n: u64) -> Scoreboard {
        let mut sb = Scoreboard::new(3)
            .with_guessed_sacks(true)
            .with_rule1_below_highest_sack(true);
        for i in 0..n {
            sb.on_new_segment(1 + i * 1000, 1000, Time::ZERO);
        }
        sb
    }

    #[test]
    fn each_dupack_takes_one_segment_above_the_head_out_of_the_pipe() {
        let mut sb = board(10);
        assert_eq!(sb.bytes_in_flight(), 10_000);
        sb.add_reno_sack();
        sb.add_reno_sack();
        assert_eq!(sb.sacked_bytes(), 2000);
        assert!(!sb.head().unwrap().sacked);
        sb.mark_head_lost();
        assert_eq!(sb.bytes_in_flight(), 7000);
        // NextSeg rule 1 (below the highest "SACKed" segment) finds the head.
        assert_eq!(sb.next_lost(), Some((1, 1000)));
    }

    #[test]
    fn a_partial_ack_moves_the_marks_above_the_new_head() {
        let mut sb = board(10);
        for _ in 0..3 {
            sb.add_reno_sack(); // segments 1, 2, 3
        }
        sb.mark_head_lost();
        // The ACK covers segments 0 and 1 only: segment 2 becomes the head.
        sb.on_cumulative_ack(2001);
        sb.move_reno_sack_off_head();
        let h = *sb.head().unwrap();
        assert!(h.lost && !h.sacked);
        // Segment 3 kept its mark, segment 4 took the head's: two marks remain.
        assert_eq!(sb.sacked_bytes(), 2000);
        assert_eq!(sb.bytes_in_flight(), 8000 - 2000 - 1000);
        sb.reset_reno_sacks();
        assert_eq!(sb.sacked_bytes(), 0);
        assert_eq!(sb.bytes_in_flight(), 7000);
    }

    /// ns-3.44 reports guessed SACKs to nobody (`AddRenoSack` has no `SkbDelivered`), so the
    /// cumulative ACK that covers them delivers their bytes: a partial ACK over the head and
    /// two duplicate-ACKed segments delivers three segments (case AN NewReno at 0.8872 s).
    #[test]
    fn a_cumulative_ack_delivers_the_guessed_sacked_segments() {
        for guessed in [true, false] {
            let mut sb = board(10).with_guessed_sacks(guessed);
            sb.add_reno_sack();
            sb.add_reno_sack();
            sb.mark_head_lost();
            let mut seen = 0;
            let (newly, _) = sb.on_cumulative_ack_with(3001, |_| seen += 1);
            let want = if guessed { 3 } else { 1 };
            assert_eq!((newly, seen), (want * 1000, want), "guessed {guessed}");
        }
    }

    /// After a timeout without SACK the guesses are gone (`ResetRenoSack`), so RFC 6675 (1.b)
    /// does not apply (`!m_sackSeen`): every segment is lost and resent in order, go-back-N.
    #[test]
    fn after_a_timeout_every_segment_is_resent_in_order() {
        let mut sb = board(5);
        sb.add_reno_sack();
        sb.add_reno_sack();
        sb.reset_reno_sacks();
        sb.mark_all_lost();
        let mut order = vec![];
        while let Some((seq, _)) = sb.next_lost() {
            sb.on_retransmit(seq, Time::ZERO);
            order.push(seq);
        }
        assert_eq!(order, vec![1, 1001, 2001, 3001, 4001]);
    }

    /// The head rule with no segment left to take the mark: ns-3's `DiscardUpTo` then sees
    /// its highest SACK at SND.UNA and forgets it (`m_sackSeen = false`); with a mark left
    /// above, the lost head counts as `IsLost`, which starts recovery on one duplicate ACK.
    #[test]
    fn the_head_rule_keeps_or_forgets_the_highest_sack() {
        let mut sb = board(3);
        sb.add_reno_sack();
        sb.add_reno_sack(); // segments 1 and 2
        sb.on_cumulative_ack(1001);
        sb.move_reno_sack_off_head();
        assert!(sb.head().unwrap().lost);
        assert!(sb.head_is_lost_below_highest_sack());
        let mut sb = board(3);
        sb.add_reno_sack();
        sb.add_reno_sack();
        sb.on_cumulative_ack(2001); // the head (segment 2) is the last, marked segment
        sb.move_reno_sack_off_head();
        assert!(sb.head().unwrap().lost);
        assert!(!sb.head_is_lost_below_highest_sack());
        assert_eq!(sb.sacked_bytes(), 0);
    }
}

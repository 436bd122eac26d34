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
        let Some(pos) = self.segs.iter().skip(1).position(|s| !s.sacked) else {
            return;
        };
        let pos = pos + 1;
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
        self.mark_head_lost();
    }
}

#[cfg(test)]
mod tests {
    use crate::scoreboard::Scoreboard;
    use ccsim_core::Time;

    fn board(n: u64) -> Scoreboard {
        let mut sb = Scoreboard::new(3);
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
}

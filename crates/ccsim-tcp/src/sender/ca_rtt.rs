//! Linux's per-ACK RTT for congestion control (`tcp_clean_rtx_queue` / `tcp_sacktag_one` →
//! `ca_rtt_us` → `rate_sample.rtt_us`): the time since the **newest** segment this ACK
//! newly delivers was sent, from segments never retransmitted; none when the cumulative ACK
//! covers retransmitted data (`FLAG_RETRANS_DATA_ACKED`), unless the timestamp echo gives one
//! (`tcp_ack_update_rtt`). TCP Wave reads it
//! ([`ccsim_cca::RateSample::rtt`]) to tell where an ACK train begins: a delayed ACK that
//! covers the last segment of one burst and the first of the next carries the short RTT of
//! the newer one, which starts the next train. The sender's RTT estimator keeps ns-3's
//! sample (the oldest covered record, [`super::rtt`]).

use ccsim_core::Time;

use crate::scoreboard::SegmentRecord;

#[derive(Clone, Copy, Debug, Default)]
pub(super) struct CaRtt {
    /// Newest send time among newly SACKed segments never retransmitted (`last_sackt`).
    last_sackt: Option<Time>,
    /// Newest send time among newly cumulatively ACKed ones (`last_ackt`).
    last_ackt: Option<Time>,
    /// The cumulative ACK covered retransmitted data (`FLAG_RETRANS_DATA_ACKED`).
    retrans_acked: bool,
}

impl CaRtt {
    /// A segment newly SACKed by this ACK.
    pub(super) fn on_sacked(&mut self, s: &SegmentRecord) {
        if !s.ever_retransmitted {
            self.last_sackt = Some(self.last_sackt.map_or(s.last_sent, |t| t.max(s.last_sent)));
        }
    }

    /// A segment newly delivered by the cumulative ACK.
    pub(super) fn on_acked(&mut self, s: &SegmentRecord) {
        if s.ever_retransmitted {
            self.retrans_acked = true;
        } else {
            self.last_ackt = Some(self.last_ackt.map_or(s.last_sent, |t| t.max(s.last_sent)));
        }
    }

    /// `ca_rtt_us` at `now`: the SACK sample first, as `tcp_clean_rtx_queue` overrides it;
    /// without either, `ts_rtt` (`tcp_ack_update_rtt`: the timestamp echo when the ACK
    /// carries one and acknowledged data, e.g. retransmissions after a timeout).
    pub(super) fn sample(&self, now: Time, ts_rtt: Option<Time>) -> Option<Time> {
        if let Some(t) = self.last_sackt {
            return Some(now.saturating_sub(t));
        }
        match self.last_ackt {
            Some(t) if !self.retrans_acked => Some(now.saturating_sub(t)),
            _ => ts_rtt,
        }
    }
}

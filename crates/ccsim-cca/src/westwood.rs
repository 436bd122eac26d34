//! TCP Westwood (the original, per-ACK bandwidth sampling): S. Mascolo, C. Casetti, M. Gerla,
//! M. Y. Sanadidi, R. Wang, "TCP Westwood: Bandwidth estimation for enhanced transport over
//! wireless links", MobiCom 2001, §2; as ns-3 `TcpWestwood` with `ProtocolType = Westwood`
//! (ns-3.17 – ns-3.37, `src/internet/model/tcp-westwood.cc`). ns-3.38 reduced that class to
//! `TcpWestwoodPlus`, keeping only the Westwood+ protocol and its `FilterType` attribute
//! ([`crate::westwood_plus`], which the ns-3.44 vectors cover); this module is the other
//! protocol value of the same ns-3 class.
//!
//! Growth is NewReno's. On every `PktsAcked` with a non-zero RTT the acknowledged segments are
//! added up and a bandwidth sample is taken at once (Mascolo 2001 eq. 1, `b_k = d_k / (t_k −
//! t_{k−1})`): `acked·MSS·8 / (now − lastAck)` bits/s, `lastAck = now` (initially 0, so the first
//! sample spans the time since the start, as in ns-3). With the default Tustin filter the
//! sample is smoothed as in Westwood+ (`b̂_k = 0.9·b̂_{k−1} + 0.1·(b_k + b_{k−1})/2`); ns-3 (and
//! ccsim) use the constant α = 0.9, where the paper's discretised filter has a time-varying
//! `α_k = (2τ − Δ_k)/(2τ + Δ_k)`. Loss: `ssthresh = max(2·MSS, BWE·minRtt/8)` (paper §2: ssthresh
//! = BWE·RTT_min), as Westwood+.
//!
//! Arithmetic is the ns-3.44 `TcpWestwoodPlus` `DataRate` arithmetic (`uint64_t` bits/s, each
//! product with a double truncated), which ns-3.37 `TcpWestwood` already used for the Plus
//! protocol. One departure: two `PktsAcked` calls at the same instant would divide by a zero
//! interval in ns-3 (an infinite estimate); ccsim keeps the segments and samples at the next
//! call with time elapsed.

use crate::newreno;
use crate::ns3num::{cast_u64, seconds};
use crate::params::Accepts;
use crate::westwood_plus::{ssthresh_from_bandwidth, tustin, FilterType};
use crate::{CongestionOps, TcpState};
use ccsim_core::Time;

crate::tunables! {
    /// Tunables of [`Westwood`].
    pub struct WestwoodConfig for "westwood" {
        /// Bandwidth filter: none, or Tustin's approximation.
        filter_type: FilterType = FilterType::Tustin, Accepts::OneOf(FilterType::CHOICES);
    }
}

/// ns-3 `TcpWestwood` state with `ProtocolType = Westwood`. Rates in bits/s.
#[derive(Clone, Debug, Default)]
pub struct Westwood {
    pub config: WestwoodConfig,
    /// Current (filtered) bandwidth estimate (`m_currentBW`).
    current_bw: u64,
    /// Previous raw sample (`m_lastSampleBW`).
    last_sample_bw: u64,
    /// Previous filtered estimate (`m_lastBW`).
    last_bw: u64,
    /// Segments acknowledged since the last sample (`m_ackedSegments`).
    acked_segments: u32,
    /// Time of the last sample (`m_lastAck`).
    last_ack: Time,
}

impl Westwood {
    pub fn new(config: WestwoodConfig) -> Self {
        Westwood {
            config,
            ..Default::default()
        }
    }

    /// The current bandwidth estimate in bits/s (ns-3 trace source "EstimatedBW").
    pub fn estimated_bw_bps(&self) -> u64 {
        self.current_bw
    }

    /// ns-3 `TcpWestwood::EstimateBW` for the Westwood protocol.
    fn estimate_bw(&mut self, tcb: &TcpState) {
        let interval = tcb.now.saturating_sub(self.last_ack);
        if interval == Time::ZERO {
            return;
        }
        let acked_bits = self.acked_segments.wrapping_mul(tcb.mss) as f64 * 8.0;
        self.current_bw = cast_u64(acked_bits / seconds(interval));
        self.last_ack = tcb.now;
        self.acked_segments = 0;
        if self.config.filter_type == FilterType::Tustin {
            let sample_bwe = self.current_bw;
            self.current_bw = tustin(self.last_bw, sample_bwe, self.last_sample_bw);
            self.last_sample_bw = sample_bwe;
            self.last_bw = self.current_bw;
        }
    }
}

impl CongestionOps for Westwood {
    fn name(&self) -> &'static str {
        "TcpWestwood"
    }

    /// `TcpWestwood::GetSsThresh`: `max(2·MSS, BWE·minRtt/8)`.
    fn ssthresh(&mut self, tcb: &TcpState, _bytes_in_flight: u32) -> u32 {
        ssthresh_from_bandwidth(tcb, self.current_bw)
    }

    fn increase_window(&mut self, tcb: &mut TcpState, segments_acked: u32) {
        newreno::increase_window_with(
            tcb,
            segments_acked,
            newreno::slow_start,
            newreno::congestion_avoidance,
        );
    }

    /// `TcpWestwood::PktsAcked`, Westwood protocol: count, then sample at once.
    fn pkts_acked(&mut self, tcb: &mut TcpState, segments_acked: u32, rtt: Time) {
        if rtt == Time::ZERO {
            return;
        }
        self.acked_segments = self.acked_segments.wrapping_add(segments_acked);
        self.estimate_bw(tcb);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ack_at(w: &mut Westwood, tcb: &mut TcpState, ms: u64, segs: u32) {
        tcb.now = Time::from_millis(ms);
        w.pkts_acked(tcb, segs, Time::from_millis(100));
    }

    #[test]
    fn samples_on_every_ack_over_the_inter_ack_time() {
        let mut w = Westwood::new(WestwoodConfig {
            filter_type: FilterType::None,
        });
        let mut tcb = TcpState::new(1000, 10, u32::MAX);
        // First sample spans the time since 0: 2 segments in 100 ms = 160 kb/s.
        ack_at(&mut w, &mut tcb, 100, 2);
        assert_eq!(w.estimated_bw_bps(), 160_000);
        // 1 segment 10 ms later: 800 kb/s.
        ack_at(&mut w, &mut tcb, 110, 1);
        assert_eq!(w.estimated_bw_bps(), 800_000);
        // Same instant: no sample, the segment is kept for the next one.
        ack_at(&mut w, &mut tcb, 110, 1);
        assert_eq!(w.estimated_bw_bps(), 800_000);
        ack_at(&mut w, &mut tcb, 120, 1);
        assert_eq!(w.estimated_bw_bps(), 1_600_000);
        // No timer: Westwood (unlike Westwood+) samples synchronously.
        assert_eq!(w.next_timer(), None);
        // ssthresh = BWE·minRtt: 1.6 Mb/s · 50 ms = 10 kB.
        tcb.min_rtt = Some(Time::from_millis(50));
        assert_eq!(w.ssthresh(&tcb, 0), 10_000);
    }

    #[test]
    fn tustin_filter_smooths_samples() {
        let mut w = Westwood::default();
        let mut tcb = TcpState::new(1000, 10, u32::MAX);
        // Raw 80 kb/s: 0.9·0 + 0.1·(80000 + 0)/2 = 4000, but ns-3's DataRate truncates each
        // product and (1 − 0.9) is 0.09999999999999998 in double: 40000·that = 3999.99… → 3999.
        ack_at(&mut w, &mut tcb, 100, 1);
        assert_eq!(w.estimated_bw_bps(), 3_999);
        // Raw 800 kb/s: trunc(3999·0.9) + trunc(440000·0.0999…) = 3599 + 43999.
        ack_at(&mut w, &mut tcb, 110, 1);
        assert_eq!(w.estimated_bw_bps(), 47_598);
    }

    #[test]
    fn zero_rtt_is_ignored() {
        let mut w = Westwood::default();
        let mut tcb = TcpState::new(1000, 10, u32::MAX);
        tcb.now = Time::from_millis(100);
        w.pkts_acked(&mut tcb, 5, Time::ZERO);
        assert_eq!(w.acked_segments, 0);
    }
}

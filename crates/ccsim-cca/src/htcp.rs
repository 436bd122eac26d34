//! H-TCP, as ns-3.44 `TcpHtcp` (`src/internet/model/tcp-htcp.cc`); Leith & Shorten, "H-TCP:
//! TCP for high-speed and long-distance networks" (PFLDnet 2004), RFC draft
//! draft-leith-tcp-htcp-06.
//!
//! Slow start is NewReno's; congestion avoidance adds `(MSS² + cwnd·alpha)/cwnd` bytes per ACK,
//! with `alpha = 2(1 − beta)(1 + 10Δ + (Δ/2)²)` once Δ (time since the last congestion event)
//! exceeds `delta_l`. On loss, beta is `minRtt/maxRtt` when throughput is stable, else
//! `default_backoff`, and `ssthresh = max(2·MSS, flight·beta)`.

use crate::newreno;
use crate::ns3num::{cast_u32, raw_double, seconds};
use crate::params::Accepts;
use crate::{CongState, CongestionOps, TcpState};
use ccsim_core::Time;

crate::tunables! {
    /// Tunables of [`Htcp`] (attributes of `ns3::TcpHtcp`, ns-3.44 defaults).
    pub struct HtcpConfig for "htcp" {
        /// The default AIMD backoff factor.
        default_backoff: f64 = 0.5, Accepts::Number { min: 0.0, max: 1.0 };
        /// Threshold value for updating beta.
        throughput_ratio: f64 = 0.2, Accepts::Number { min: f64::MIN, max: f64::MAX };
        /// Delta_L parameter in increase function.
        delta_l: Time = Time::from_secs(1), Accepts::DURATION;
    }
}

/// ns-3 `TcpHtcp` state. `None` RTT bounds are ns-3's `Time::Max()` / `Time::Min()`.
#[derive(Clone, Debug, Default)]
pub struct Htcp {
    pub config: HtcpConfig,
    alpha: f64,
    beta: f64,
    /// Time of the last congestion event (`m_lastCon`).
    last_con: Time,
    /// Minimum RTT in this congestion period (`m_minRtt`, `None` = Time::Max()).
    min_rtt: Option<Time>,
    /// Maximum RTT in this congestion period (`m_maxRtt`, `None` = Time::Min()).
    max_rtt: Option<Time>,
    /// Throughput since the last congestion event, bytes/s (`m_throughput`).
    throughput: u32,
    /// Throughput in the previous congestion period (`m_lastThroughput`).
    last_throughput: u32,
    /// Bytes acknowledged in Open since the last congestion event (`m_dataSent`).
    data_sent: u32,
}

impl Htcp {
    pub fn new(config: HtcpConfig) -> Self {
        Htcp {
            config,
            ..Default::default()
        }
    }

    /// `TcpHtcp::UpdateAlpha`.
    fn update_alpha(&mut self, now: Time) {
        let delta = now.saturating_sub(self.last_con);
        if delta <= self.config.delta_l {
            self.alpha = 1.0;
        } else {
            let diff_sec = seconds(delta - self.config.delta_l);
            // alpha = 1 + 10(Δ − Δ_L) + [0.5(Δ − Δ_L)]², seconds
            self.alpha = 1.0 + 10.0 * diff_sec + 0.25 * (diff_sec * diff_sec);
        }
        // ns-3: m_alpha = 2 * (1 - m_beta) * m_alpha (IEEE products commute exactly).
        self.alpha *= 2.0 * (1.0 - self.beta);
        if self.alpha < 1.0 {
            self.alpha = 1.0;
        }
    }

    /// `TcpHtcp::UpdateBeta`.
    fn update_beta(&mut self) {
        self.beta = self.config.default_backoff;
        if self.throughput > self.last_throughput && self.last_throughput > 0 {
            let diff = self.throughput - self.last_throughput;
            // Integer division, as in ns-3.
            if (diff / self.last_throughput) as f64 <= self.config.throughput_ratio {
                let min = self.min_rtt.map_or(i64::MAX as f64, raw_double);
                let max = self.max_rtt.map_or(i64::MIN as f64, raw_double);
                self.beta = min / max;
            }
        }
    }
}

impl CongestionOps for Htcp {
    fn name(&self) -> &'static str {
        "TcpHtcp"
    }

    /// `TcpHtcp::GetSsThresh`.
    fn ssthresh(&mut self, tcb: &TcpState, bytes_in_flight: u32) -> u32 {
        self.last_con = tcb.now;
        self.update_beta();
        self.update_alpha(tcb.now);
        let seg_win = 2 * tcb.mss;
        let b_flight = cast_u32(bytes_in_flight as f64 * self.beta);
        let ssthresh = seg_win.max(b_flight);
        self.min_rtt = None;
        self.max_rtt = None;
        self.last_throughput = self.throughput;
        self.throughput = 0;
        self.data_sent = 0;
        ssthresh
    }

    /// `TcpNewReno::IncreaseWindow` with H-TCP's congestion avoidance.
    fn increase_window(&mut self, tcb: &mut TcpState, segments_acked: u32) {
        let alpha = self.alpha;
        newreno::increase_window_with(tcb, segments_acked, newreno::slow_start, |tcb, segs| {
            if segs > 0 {
                let cwnd = tcb.cwnd as f64;
                let adder = (tcb.mss.wrapping_mul(tcb.mss) as f64 + cwnd * alpha) / cwnd;
                let adder = adder.max(1.0);
                tcb.cwnd = tcb.cwnd.wrapping_add(cast_u32(adder));
            }
        });
    }

    /// `TcpHtcp::PktsAcked`: throughput and RTT range of the congestion period.
    fn pkts_acked(&mut self, tcb: &mut TcpState, segments_acked: u32, rtt: Time) {
        if tcb.cong_state == CongState::Open {
            self.data_sent = self
                .data_sent
                .wrapping_add(segments_acked.wrapping_mul(tcb.mss));
        }
        self.throughput =
            cast_u32(self.data_sent as f64 / (seconds(tcb.now) - seconds(self.last_con)));
        self.update_alpha(tcb.now);
        if !matches!(self.min_rtt, Some(m) if rtt >= m) {
            self.min_rtt = Some(rtt);
        }
        if !matches!(self.max_rtt, Some(m) if rtt <= m) {
            self.max_rtt = Some(rtt);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alpha_grows_after_delta_l_and_beta_defaults_to_half() {
        let mut h = Htcp::default();
        let mut tcb = TcpState::new(1000, 100, 1000);
        tcb.now = Time::from_millis(500);
        h.pkts_acked(&mut tcb, 1, Time::from_millis(50));
        assert_eq!(h.alpha, 2.0); // 2·(1 − 0)·1 before any loss
        assert_eq!(h.ssthresh(&tcb, 100_000), 50_000);
        tcb.now = Time::from_millis(2500); // Δ − Δ_L = 1 s: 2·0.5·(1 + 10 + 0.25)
        h.pkts_acked(&mut tcb, 1, Time::from_millis(50));
        assert_eq!(h.alpha, 11.25);
    }
}

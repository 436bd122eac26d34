//! TCP Hybla, as ns-3.44 `TcpHybla` (`src/internet/model/tcp-hybla.cc`); Caini & Firrincieli,
//! "TCP Hybla: a TCP enhancement for heterogeneous networks" (2004).
//!
//! `rho = max(minRtt / rRtt, 1)` with both RTTs in *whole milliseconds* (ns-3
//! `GetMilliSeconds()`), recomputed when the RTT handed to `PktsAcked` equals the connection's
//! minimum. Slow start adds `(2^rho − 1)·MSS` per ACK (capped at ssthresh), congestion avoidance
//! `rho²/cwnd` segments per acknowledged segment, accumulated as a fraction. Loss is NewReno's.

use crate::newreno;
use crate::ns3num::{cast_u32, millis};
use crate::params::{Accepts, MAX_DURATION};
use crate::{CongestionOps, TcpState};
use ccsim_core::Time;

crate::tunables! {
    /// Tunables of [`Hybla`] (attributes of `ns3::TcpHybla`, ns-3.44 defaults).
    pub struct HyblaConfig for "hybla" {
        /// Reference RTT.
        r_rtt: Time = Time::from_millis(50),
            Accepts::Duration { min: Time::from_millis(1), max: MAX_DURATION };
    }
}

/// ns-3 `TcpHybla` state.
#[derive(Clone, Debug)]
pub struct Hybla {
    pub config: HyblaConfig,
    /// Normalized RTT (`m_rho`).
    rho: f64,
    /// Fractional segments accumulated in congestion avoidance (`m_cWndCnt`).
    cwnd_cnt: f64,
}

impl Default for Hybla {
    fn default() -> Self {
        Hybla::new(HyblaConfig::default())
    }
}

impl Hybla {
    pub fn new(config: HyblaConfig) -> Self {
        Hybla {
            config,
            rho: 1.0,
            cwnd_cnt: 0.0,
        }
    }

    /// The current rho (ns-3 trace source "Rho").
    pub fn rho(&self) -> f64 {
        self.rho
    }

    /// `TcpHybla::RecalcParam`.
    fn recalc_param(&mut self, tcb: &TcpState) {
        let min_rtt_ms = tcb.min_rtt.map_or(i64::MAX / 1_000_000, millis);
        self.rho = (min_rtt_ms as f64 / millis(self.config.r_rtt) as f64).max(1.0);
    }

    /// `TcpHybla::SlowStart`.
    fn slow_start(&self, tcb: &mut TcpState, segments_acked: u32) -> u32 {
        if segments_acked >= 1 {
            let increment = 2f64.powf(self.rho) - 1.0;
            let incr = cast_u32(increment * tcb.mss as f64);
            tcb.cwnd = tcb.cwnd.wrapping_add(incr).min(tcb.ssthresh);
            return segments_acked - 1;
        }
        0
    }

    /// `TcpHybla::CongestionAvoidance`.
    fn congestion_avoidance(&mut self, tcb: &mut TcpState, segments_acked: u32) {
        for _ in 0..segments_acked {
            // INC = RHO^2 / W (std::pow(rho, 2) is exact as rho*rho)
            let increment = (self.rho * self.rho) / tcb.cwnd_segs() as f64;
            self.cwnd_cnt += increment;
        }
        if self.cwnd_cnt >= 1.0 {
            let inc = cast_u32(self.cwnd_cnt);
            self.cwnd_cnt -= inc as f64;
            tcb.cwnd = tcb.cwnd.wrapping_add(inc.wrapping_mul(tcb.mss));
        }
    }
}

impl CongestionOps for Hybla {
    fn name(&self) -> &'static str {
        "TcpHybla"
    }

    fn ssthresh(&mut self, tcb: &TcpState, bytes_in_flight: u32) -> u32 {
        newreno::ssthresh(tcb, bytes_in_flight)
    }

    /// `TcpNewReno::IncreaseWindow` with Hybla's slow start and congestion avoidance.
    fn increase_window(&mut self, tcb: &mut TcpState, mut segments_acked: u32) {
        if tcb.cwnd < tcb.ssthresh {
            segments_acked = self.slow_start(tcb, segments_acked);
        }
        if tcb.cwnd >= tcb.ssthresh {
            self.congestion_avoidance(tcb, segments_acked);
        }
    }

    /// `TcpHybla::PktsAcked`: recompute rho when the (smoothed) RTT equals the minimum RTT.
    fn pkts_acked(&mut self, tcb: &mut TcpState, _segments_acked: u32, rtt: Time) {
        if Some(rtt) == tcb.min_rtt {
            self.recalc_param(tcb);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rho_follows_min_rtt_in_whole_milliseconds() {
        let mut hybla = Hybla::default();
        let mut tcb = TcpState::new(1000, 2, u32::MAX);
        tcb.min_rtt = Some(Time::from_micros(150_900)); // 150 ms after truncation
        hybla.pkts_acked(&mut tcb, 1, Time::from_micros(150_900));
        assert_eq!(hybla.rho(), 3.0);
        // Slow start adds (2^rho - 1) segments per ACK.
        hybla.increase_window(&mut tcb, 1);
        assert_eq!(tcb.cwnd, 9_000);
        // A short RTT keeps rho at 1 (plain NewReno).
        tcb.min_rtt = Some(Time::from_millis(10));
        hybla.pkts_acked(&mut tcb, 1, Time::from_millis(10));
        assert_eq!(hybla.rho(), 1.0);
    }
}

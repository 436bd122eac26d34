//! Scalable TCP, as ns-3.44 `TcpScalable` (`src/internet/model/tcp-scalable.cc`); Kelly,
//! "Scalable TCP: Improving Performance in Highspeed Wide Area Networks" (2003), Linux
//! `tcp_scalable.c`.
//!
//! Slow start is NewReno's. Congestion avoidance adds one segment per `min(cwnd, ai_factor)`
//! acknowledged segments; loss sets `ssthresh = max(2, flight·(1 − md_factor))` segments.

use crate::newreno;
use crate::ns3num::cast_u32;
use crate::params::Accepts;
use crate::{CongestionOps, TcpState};

crate::tunables! {
    /// Tunables of [`Scalable`] (attributes of `ns3::TcpScalable`, ns-3.44 defaults).
    pub struct ScalableConfig for "scalable" {
        /// Additive Increase Factor (segments per one-segment increase cap).
        ai_factor: u32 = 50, Accepts::Integer { min: 1, max: u32::MAX as u64 };
        /// Multiplicative Decrease Factor.
        md_factor: f64 = 0.125, Accepts::Number { min: 0.0, max: 1.0 };
    }
}

/// ns-3 `TcpScalable` state.
#[derive(Clone, Debug, Default)]
pub struct Scalable {
    pub config: ScalableConfig,
    /// Segments acknowledged towards the next increment (`m_ackCnt`).
    ack_cnt: u32,
}

impl Scalable {
    pub fn new(config: ScalableConfig) -> Self {
        Scalable { config, ack_cnt: 0 }
    }

    /// `TcpScalable::CongestionAvoidance`.
    fn congestion_avoidance(&mut self, tcb: &mut TcpState, segments_acked: u32) {
        let mut seg_cwnd = tcb.cwnd_segs();
        let old_cwnd = seg_cwnd;
        // ns-3 asserts cwnd >= 1 segment; the max(1) only avoids a division by zero.
        let w = seg_cwnd.min(self.config.ai_factor).max(1);
        if self.ack_cnt >= w {
            self.ack_cnt = 0;
            seg_cwnd += 1;
        }
        self.ack_cnt = self.ack_cnt.wrapping_add(segments_acked);
        if self.ack_cnt >= w {
            let delta = self.ack_cnt / w;
            self.ack_cnt = 0;
            seg_cwnd = seg_cwnd.wrapping_add(delta);
        }
        if seg_cwnd != old_cwnd {
            tcb.cwnd = seg_cwnd.wrapping_mul(tcb.mss);
        }
    }
}

impl CongestionOps for Scalable {
    fn name(&self) -> &'static str {
        "TcpScalable"
    }

    /// `TcpScalable::GetSsThresh`: `max(2, flight_segments · (1 − md_factor))` segments.
    fn ssthresh(&mut self, tcb: &TcpState, bytes_in_flight: u32) -> u32 {
        let seg_cwnd = bytes_in_flight / tcb.mss;
        let b = 1.0 - self.config.md_factor;
        cast_u32(2f64.max(seg_cwnd as f64 * b)).wrapping_mul(tcb.mss)
    }

    /// `TcpNewReno::IncreaseWindow` with Scalable's congestion avoidance.
    fn increase_window(&mut self, tcb: &mut TcpState, segments_acked: u32) {
        newreno::increase_window_with(tcb, segments_acked, newreno::slow_start, |tcb, segs| {
            self.congestion_avoidance(tcb, segs)
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_segment_per_ai_factor_acks_and_one_eighth_backoff() {
        let mut s = Scalable::default();
        let mut tcb = TcpState::new(1000, 100, 1000);
        for _ in 0..49 {
            s.increase_window(&mut tcb, 1);
        }
        assert_eq!(tcb.cwnd, 100_000);
        s.increase_window(&mut tcb, 1);
        assert_eq!(tcb.cwnd, 101_000);
        assert_eq!(s.ssthresh(&tcb, 80_000), 70_000);
    }
}

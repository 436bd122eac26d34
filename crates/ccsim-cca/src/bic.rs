//! BIC TCP, as ns-3.44 `TcpBic` (`src/internet/model/tcp-bic.cc`), after Linux `tcp_bic.c` and
//! Xu, Harfoush, Rhee, "Binary Increase Congestion Control for Fast, Long Distance Networks"
//! (INFOCOM 2004).
//!
//! Slow start adds one MSS per ACK; congestion avoidance grows cwnd by one segment once more than
//! `cnt` segments were acknowledged, `cnt` coming from the binary search towards W_max
//! (`last_max_cwnd`), the max-probing phase above it, and NewReno behaviour below `low_wnd`.
//! Arithmetic is ns-3's: the binary-search distance is an *integer* division by `b` stored in a
//! double, and `cnt` is truncated to `uint32_t`.

use crate::ns3num::cast_u32;
use crate::params::Accepts;
use crate::{CongestionOps, TcpState};

crate::tunables! {
    /// Tunables of [`Bic`] (attributes of `ns3::TcpBic`, ns-3.44 defaults).
    pub struct BicConfig for "bic" {
        /// Turn on/off fast convergence.
        fast_convergence: bool = true, Accepts::Bool;
        /// Beta for multiplicative decrease.
        beta: f64 = 0.8, Accepts::Number { min: 0.0, max: 1.0 };
        /// Limit on increment allowed during binary search (segments).
        max_incr: u32 = 16, Accepts::Integer { min: 1, max: u32::MAX as u64 };
        /// Threshold window size (segments) for engaging BIC response.
        low_wnd: u32 = 14, Accepts::U32;
        /// Number of RTTs needed to approach W_max from W_max - b.
        smooth_part: u32 = 5, Accepts::Integer { min: 1, max: u32::MAX as u64 };
        /// Inverse of the coefficient for the binary search (`b`, 4 as in Linux).
        binary_search_coefficient: u8 = 4, Accepts::Integer { min: 2, max: 255 };
    }
}

/// ns-3 `TcpBic` state.
#[derive(Clone, Debug, Default)]
pub struct Bic {
    pub config: BicConfig,
    /// Segments acknowledged since the last increment (`m_cWndCnt`).
    cwnd_cnt: u32,
    /// W_max in segments (`m_lastMaxCwnd`).
    last_max_cwnd: u32,
    /// cwnd (segments) at the last update (`m_lastCwnd`).
    last_cwnd: u32,
    /// Start of the current epoch (`m_epochStart`; kept for fidelity, not read by ns-3).
    epoch_start: Option<ccsim_core::Time>,
}

impl Bic {
    pub fn new(config: BicConfig) -> Self {
        Bic {
            config,
            ..Default::default()
        }
    }

    /// `TcpBic::Update`: segments to ACK before the next one-segment increase.
    fn update(&mut self, tcb: &TcpState) -> u32 {
        let seg_cwnd = tcb.cwnd_segs();
        let b = self.config.binary_search_coefficient as u32;
        let max_incr = self.config.max_incr;
        let smooth_part = self.config.smooth_part;
        self.last_cwnd = seg_cwnd;
        if self.epoch_start.is_none() {
            self.epoch_start = Some(tcb.now);
        }
        if seg_cwnd < self.config.low_wnd {
            // Compatibility mode: behave as NewReno.
            return seg_cwnd;
        }
        let mut cnt = if seg_cwnd < self.last_max_cwnd {
            // Integer division, then stored in a double (as ns-3 does).
            let dist = ((self.last_max_cwnd - seg_cwnd) / b) as f64;
            if dist > max_incr as f64 {
                seg_cwnd / max_incr // linear increase
            } else if dist <= 1.0 {
                seg_cwnd.wrapping_mul(smooth_part) / b // smoothed binary search
            } else {
                cast_u32(seg_cwnd as f64 / dist) // binary search
            }
        } else if seg_cwnd < self.last_max_cwnd.wrapping_add(b) {
            seg_cwnd.wrapping_mul(smooth_part) / b // slow start AMD linear increase
        } else if seg_cwnd
            < self
                .last_max_cwnd
                .wrapping_add(max_incr.wrapping_mul(b - 1))
        {
            seg_cwnd.wrapping_mul(b - 1) / (seg_cwnd - self.last_max_cwnd) // slow start
        } else {
            seg_cwnd / max_incr // linear increase
        };
        // Before the first loss, grow at least 5% per RTT (Linux).
        if self.last_max_cwnd == 0 && cnt > 20 {
            cnt = 20;
        }
        cnt.max(1)
    }
}

impl CongestionOps for Bic {
    fn name(&self) -> &'static str {
        "TcpBic"
    }

    /// `TcpBic::GetSsThresh`: W_max (with fast convergence) and `ssthresh = max(cwnd·beta, 2)`
    /// segments, or NewReno's halving below `low_wnd`.
    fn ssthresh(&mut self, tcb: &TcpState, bytes_in_flight: u32) -> u32 {
        let seg_cwnd = tcb.cwnd_segs();
        let beta = self.config.beta;
        self.epoch_start = None;
        if seg_cwnd < self.last_max_cwnd && self.config.fast_convergence {
            self.last_max_cwnd = cast_u32(beta * seg_cwnd as f64);
        } else {
            self.last_max_cwnd = seg_cwnd;
        }
        if seg_cwnd < self.config.low_wnd {
            (2 * tcb.mss).max(bytes_in_flight / 2)
        } else {
            cast_u32((seg_cwnd as f64 * beta).max(2.0) * tcb.mss as f64)
        }
    }

    /// `TcpBic::IncreaseWindow`.
    fn increase_window(&mut self, tcb: &mut TcpState, mut segments_acked: u32) {
        if tcb.cwnd < tcb.ssthresh {
            tcb.cwnd = tcb.cwnd.wrapping_add(tcb.mss);
            segments_acked = segments_acked.wrapping_sub(1);
        }
        if tcb.cwnd >= tcb.ssthresh && segments_acked > 0 {
            self.cwnd_cnt = self.cwnd_cnt.wrapping_add(segments_acked);
            let cnt = self.update(tcb);
            // Strictly more than cnt segments (BIC paper, RFC 6356 counting).
            if self.cwnd_cnt > cnt {
                tcb.cwnd = tcb.cwnd.wrapping_add(tcb.mss);
                self.cwnd_cnt = 0;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn behaves_as_newreno_below_low_wnd_and_backs_off_by_beta() {
        let mut bic = Bic::default();
        let mut tcb = TcpState::new(1000, 10, 10_000);
        // cnt = cwnd (10 segments) below low_wnd: one segment per more than 10 ACKed.
        for _ in 0..10 {
            bic.increase_window(&mut tcb, 1);
        }
        assert_eq!(tcb.cwnd, 10_000);
        bic.increase_window(&mut tcb, 1);
        assert_eq!(tcb.cwnd, 11_000);
        let tcb = TcpState::new(1000, 100, 10_000);
        assert_eq!(bic.ssthresh(&tcb, tcb.cwnd), 80_000);
    }
}

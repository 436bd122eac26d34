//! TCP Linux Reno, as ns-3.44 `TcpLinuxReno` (`src/internet/model/tcp-linux-reno.cc`), which
//! mirrors Linux `tcp_reno_cong_avoid` / `tcp_slow_start` / `tcp_cong_avoid_ai`
//! (`net/ipv4/tcp_cong.c`).
//!
//! Slow start counts segments (capped at ssthresh); congestion avoidance accumulates acknowledged
//! segments in `cwnd_cnt` and adds one MSS per cwnd-worth of them (RFC 5681 §3.1 appropriate
//! byte counting in segment units). Loss: `ssthresh = max(2·MSS, cwnd/2)`.

use crate::params::Accepts;
use crate::{CongestionOps, TcpState};

crate::tunables! {
    /// Tunables of [`LinuxReno`].
    pub struct LinuxRenoConfig for "linuxreno" {
        /// Do not grow cwnd in congestion avoidance unless the sender is cwnd-limited
        /// (`TcpLinuxReno::SetSuppressIncreaseIfCwndLimited`; RFC 7661 spirit).
        suppress_increase_if_cwnd_limited: bool = true, Accepts::Bool;
    }
}

/// ns-3 `TcpLinuxReno` state.
#[derive(Clone, Debug, Default)]
pub struct LinuxReno {
    pub config: LinuxRenoConfig,
    /// Segments acknowledged since the last congestion-avoidance increment (`m_cWndCnt`).
    cwnd_cnt: u32,
}

impl LinuxReno {
    pub fn new(config: LinuxRenoConfig) -> Self {
        LinuxReno {
            config,
            cwnd_cnt: 0,
        }
    }

    /// `TcpLinuxReno::SlowStart`: `cwnd = min(cwnd + acked·MSS, ssthresh)`; returns leftovers.
    fn slow_start(tcb: &mut TcpState, segments_acked: u32) -> u32 {
        if segments_acked >= 1 {
            let before = tcb.cwnd;
            tcb.cwnd = before
                .wrapping_add(segments_acked.wrapping_mul(tcb.mss))
                .min(tcb.ssthresh);
            return segments_acked.wrapping_sub((tcb.cwnd.wrapping_sub(before)) / tcb.mss);
        }
        0
    }

    /// `TcpLinuxReno::CongestionAvoidance` (Linux `tcp_cong_avoid_ai` with w = cwnd in segments).
    fn congestion_avoidance(&mut self, tcb: &mut TcpState, segments_acked: u32) {
        if self.config.suppress_increase_if_cwnd_limited && !tcb.is_cwnd_limited {
            return;
        }
        let w = (tcb.cwnd / tcb.mss).max(1);
        if self.cwnd_cnt >= w {
            self.cwnd_cnt = 0;
            tcb.cwnd = tcb.cwnd.wrapping_add(tcb.mss);
        }
        self.cwnd_cnt = self.cwnd_cnt.wrapping_add(segments_acked);
        if self.cwnd_cnt >= w {
            let delta = self.cwnd_cnt / w;
            self.cwnd_cnt -= delta * w;
            tcb.cwnd = tcb.cwnd.wrapping_add(delta.wrapping_mul(tcb.mss));
        }
    }
}

impl CongestionOps for LinuxReno {
    fn name(&self) -> &'static str {
        "TcpLinuxReno"
    }

    /// `TcpLinuxReno::GetSsThresh`: `max(2·MSS, cwnd · 0.5)` (note: cwnd, not bytes in flight).
    fn ssthresh(&mut self, tcb: &TcpState, _bytes_in_flight: u32) -> u32 {
        (2 * tcb.mss).max(tcb.cwnd / 2)
    }

    /// `TcpLinuxReno::IncreaseWindow`: slow start *or* congestion avoidance (Linux
    /// `tcp_in_slow_start`), never both on one ACK.
    fn increase_window(&mut self, tcb: &mut TcpState, segments_acked: u32) {
        if tcb.cwnd < tcb.ssthresh {
            Self::slow_start(tcb, segments_acked);
        } else {
            self.congestion_avoidance(tcb, segments_acked);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slow_start_counts_segments_and_caps_at_ssthresh() {
        let mut tcb = TcpState::new(1000, 2, 5000);
        let mut lr = LinuxReno::default();
        lr.increase_window(&mut tcb, 2);
        assert_eq!(tcb.cwnd, 4000);
        lr.increase_window(&mut tcb, 3);
        assert_eq!(tcb.cwnd, 5000);
    }

    #[test]
    fn congestion_avoidance_one_mss_per_window_of_segments() {
        let mut tcb = TcpState::new(1000, 10, 10_000);
        let mut lr = LinuxReno::default();
        for _ in 0..4 {
            lr.increase_window(&mut tcb, 2);
        }
        assert_eq!(tcb.cwnd, 10_000);
        lr.increase_window(&mut tcb, 2); // 10 segments acked -> +1 MSS
        assert_eq!(tcb.cwnd, 11_000);
    }

    #[test]
    fn no_growth_when_not_cwnd_limited() {
        let mut tcb = TcpState::new(1000, 10, 10_000);
        tcb.is_cwnd_limited = false;
        let mut lr = LinuxReno::default();
        for _ in 0..20 {
            lr.increase_window(&mut tcb, 2);
        }
        assert_eq!(tcb.cwnd, 10_000);
    }
}

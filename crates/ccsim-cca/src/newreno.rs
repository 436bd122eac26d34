//! TCP NewReno, as ns-3.44 `TcpNewReno` (`src/internet/model/tcp-congestion-ops.cc`).
//!
//! Slow start (RFC 5681 §3.1, "cwnd += min(N, SMSS)"): one MSS per call, whatever the number of
//! segments acknowledged. Congestion avoidance: one increment of `max(1, MSS²/cwnd)` bytes per
//! call (again regardless of `segmentsAcked`). Loss: `ssthresh = max(2·MSS, bytesInFlight/2)`.
//!
//! The helpers here are also the ns-3 base-class behaviour reused by the algorithms that derive
//! from `TcpNewReno` in ns-3 (Scalable, HighSpeed, Hybla, H-TCP, Illinois, Vegas, Westwood+,
//! YeAH).

use crate::{CongestionOps, TcpState};

/// `TcpNewReno::SlowStart`: add one MSS if anything was acknowledged; returns the segments not
/// used for the increase.
pub fn slow_start(tcb: &mut TcpState, segments_acked: u32) -> u32 {
    if segments_acked >= 1 {
        tcb.cwnd = tcb.cwnd.wrapping_add(tcb.mss);
        return segments_acked - 1;
    }
    0
}

/// `TcpNewReno::CongestionAvoidance`: `cwnd += max(1, MSS²/cwnd)` (double, truncated), once.
pub fn congestion_avoidance(tcb: &mut TcpState, segments_acked: u32) {
    if segments_acked > 0 {
        let adder = tcb.mss.wrapping_mul(tcb.mss) as f64 / tcb.cwnd as f64;
        let adder = adder.max(1.0);
        tcb.cwnd = tcb.cwnd.wrapping_add(crate::ns3num::cast_u32(adder));
    }
}

/// `TcpNewReno::IncreaseWindow` with the two virtual steps supplied by the caller, as the
/// derived ns-3 classes override `SlowStart` / `CongestionAvoidance`.
pub fn increase_window_with(
    tcb: &mut TcpState,
    mut segments_acked: u32,
    slow_start: impl FnOnce(&mut TcpState, u32) -> u32,
    congestion_avoidance: impl FnOnce(&mut TcpState, u32),
) {
    if tcb.cwnd < tcb.ssthresh {
        segments_acked = slow_start(tcb, segments_acked);
    }
    if tcb.cwnd >= tcb.ssthresh {
        congestion_avoidance(tcb, segments_acked);
    }
}

/// `TcpNewReno::GetSsThresh`: `max(2·MSS, bytesInFlight / 2)`.
pub fn ssthresh(tcb: &TcpState, bytes_in_flight: u32) -> u32 {
    (2 * tcb.mss).max(bytes_in_flight / 2)
}

crate::tunables! {
    /// NewReno has no tunables.
    pub struct NewRenoConfig for "newreno" {}
}

/// ns-3 `TcpNewReno`. Stateless apart from the socket state.
#[derive(Clone, Debug, Default)]
pub struct NewReno {
    pub config: NewRenoConfig,
}

impl NewReno {
    pub fn new(config: NewRenoConfig) -> Self {
        NewReno { config }
    }
}

impl CongestionOps for NewReno {
    fn name(&self) -> &'static str {
        "TcpNewReno"
    }
    fn ssthresh(&mut self, tcb: &TcpState, bytes_in_flight: u32) -> u32 {
        ssthresh(tcb, bytes_in_flight)
    }
    fn increase_window(&mut self, tcb: &mut TcpState, segments_acked: u32) {
        increase_window_with(tcb, segments_acked, slow_start, congestion_avoidance);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slow_start_adds_one_mss_per_call() {
        let mut tcb = TcpState::new(1000, 2, u32::MAX);
        let mut nr = NewReno::default();
        nr.increase_window(&mut tcb, 3);
        assert_eq!(tcb.cwnd, 3000);
    }

    #[test]
    fn congestion_avoidance_one_increment_per_call() {
        let mut tcb = TcpState::new(1000, 10, 10_000);
        let mut nr = NewReno::default();
        nr.increase_window(&mut tcb, 5);
        assert_eq!(tcb.cwnd, 10_100); // 1000²/10000 = 100, once
    }

    #[test]
    fn ssthresh_halves_with_floor() {
        let tcb = TcpState::new(1000, 10, 10_000);
        let mut nr = NewReno::default();
        assert_eq!(nr.ssthresh(&tcb, 10_000), 5000);
        assert_eq!(nr.ssthresh(&tcb, 1000), 2000);
    }
}

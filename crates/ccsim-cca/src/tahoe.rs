//! TCP Tahoe: slow start after every loss, as 4.3BSD-Tahoe (Jacobson, "Congestion Avoidance
//! and Control", SIGCOMM 1988, with fast retransmit as in RFC 2001 §3) and ns-3 `TcpTahoe`
//! (ns-3.8 – ns-3.24, `src/internet/model/tcp-tahoe.cc` by Adrian Sai-wah Tam; ns-3.44 has no
//! Tahoe). Seed 003's Tahoe column was measured with that ns-3.23 class.
//!
//! Window growth is Reno's ([`crate::reno::increase_window`]: one MSS per ACK in slow start,
//! `max(1, MSS²/cwnd)` in congestion avoidance; ns-3.23 `TcpTahoe::NewAck`). The loss rule:
//! - on the third duplicate ACK (ns-3.23 `TcpTahoe::DupAck`, `count == m_retxThresh`) and on a
//!   timeout (`TcpTahoe::Retransmit`): `ssthresh = max(cwnd/2, 2·MSS)` — half the *window*, as
//!   4.3BSD (`win = min(snd_wnd, snd_cwnd)/2`), not half the flight as Reno;
//! - in both cases `cwnd = 1·MSS`, and transmission restarts from the highest ACK
//!   (`m_nextTxSequence = HeadSequence()`, go-back-N): "fast retransmit in Tahoe means
//!   triggering RTO earlier" (ns-3.23 comment, after Fall & Floyd, "Simulation-based
//!   comparisons of Tahoe, Reno and SACK TCP", CCR 1996, §1).
//!
//! There is no fast recovery. The cwnd = 1 MSS and go-back-N steps belong to the sender, which
//! learns it from [`RecoveryPolicy::Tahoe`] (the exact duties are documented there). 4.3BSD
//! rounds ssthresh down to whole segments; ns-3.23 does not, and neither does ccsim.
//!
//! [`RecoveryPolicy::Tahoe`]: crate::RecoveryPolicy::Tahoe

use crate::{reno, CongestionOps, TcpState};

crate::tunables! {
    /// Tahoe has no tunables.
    pub struct TahoeConfig for "tahoe" {}
}

/// TCP Tahoe (ns-3.23 `TcpTahoe`). Stateless apart from the socket state.
#[derive(Clone, Debug, Default)]
pub struct Tahoe {
    pub config: TahoeConfig,
}

impl Tahoe {
    pub fn new(config: TahoeConfig) -> Self {
        Tahoe { config }
    }
}

impl CongestionOps for Tahoe {
    fn name(&self) -> &'static str {
        "TcpTahoe"
    }

    /// ns-3.23 `TcpTahoe::DupAck` / `Retransmit`: `max(cwnd/2, 2·MSS)`.
    fn ssthresh(&mut self, tcb: &TcpState, _bytes_in_flight: u32) -> u32 {
        (tcb.cwnd / 2).max(2 * tcb.mss)
    }

    fn increase_window(&mut self, tcb: &mut TcpState, segments_acked: u32) {
        reno::increase_window(tcb, segments_acked);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ssthresh_halves_the_window_not_the_flight() {
        let mut tcb = TcpState::new(1000, 20, u32::MAX);
        let mut tahoe = Tahoe::default();
        // 20 segments of window, only 6 in flight: half the window.
        assert_eq!(tahoe.ssthresh(&tcb, 6000), 10_000);
        tcb.cwnd = 3000;
        assert_eq!(tahoe.ssthresh(&tcb, 3000), 2000);
    }

    #[test]
    fn slow_start_again_after_loss() {
        let mut tcb = TcpState::new(1000, 20, u32::MAX);
        let mut tahoe = Tahoe::default();
        tcb.ssthresh = tahoe.ssthresh(&tcb, tcb.cwnd);
        // What the sender does for RecoveryPolicy::Tahoe: one segment, then slow start.
        tcb.cwnd = tcb.mss;
        for expected in [2000, 3000, 4000] {
            tahoe.increase_window(&mut tcb, 1);
            assert_eq!(tcb.cwnd, expected);
        }
    }
}

//! TCP Reno: RFC 5681 slow start, congestion avoidance, fast retransmit and fast recovery,
//! *without* RFC 6582's partial-ACK handling — as ns-3 `TcpReno` (ns-3.8 – ns-3.24,
//! `src/internet/model/tcp-reno.cc` by Adrian Sai-wah Tam, a `TcpSocketBase` subclass; removed
//! in ns-3.25 when congestion control moved to `TcpCongestionOps`). Seed 003 (TCP Wave vs Reno,
//! NewReno, Tahoe, Westwood+) ran on ns-3.23, where this is the Reno it measured.
//!
//! The window rules, per ACK of new data (ns-3.23 `TcpReno::NewAck`):
//! - slow start while `cwnd < ssthresh`: `cwnd += MSS` (RFC 2001 §1);
//! - otherwise congestion avoidance: `cwnd += max(1, MSS²/cwnd)` bytes (RFC 2581 §3.1), the
//!   double truncated;
//!
//! one *or* the other on each ACK, whatever the number of segments it acknowledges. (ns-3.44
//! `TcpNewReno` may do both on one ACK when slow start crosses ssthresh.) Loss, on the third
//! duplicate ACK and on a timeout: `ssthresh = max(2·MSS, bytesInFlight/2)` (RFC 5681 eq. 4).
//!
//! Fast recovery is the sender's: this algorithm reports [`RecoveryPolicy::Reno`], which tells
//! the sender to leave recovery on the first ACK of new data, partial or full (ns-3.23
//! `TcpReno::NewAck`: "First new ACK after fast recovery: reset cwnd" to ssthresh), and to allow
//! a new fast retransmit without RFC 6582's `recover` guard (`DupAck`: `count == 3 &&
//! !m_inFastRec`). The exact sender duties are on [`RecoveryPolicy::Reno`].
//!
//! [`RecoveryPolicy::Reno`]: crate::RecoveryPolicy::Reno

use crate::ns3num::cast_u32;
use crate::{CongestionOps, TcpState};

/// ns-3.23 `TcpReno::NewAck` / `TcpTahoe::NewAck`: slow start or congestion avoidance, once per
/// ACK of new data. ccsim's sender reports an ACK of less than one segment as 0 segments (it
/// carries the bytes over, as ns-3.44); such ACKs leave cwnd alone here.
pub fn increase_window(tcb: &mut TcpState, segments_acked: u32) {
    if segments_acked == 0 {
        return;
    }
    if tcb.cwnd < tcb.ssthresh {
        tcb.cwnd = tcb.cwnd.wrapping_add(tcb.mss);
    } else {
        let adder = tcb.mss.wrapping_mul(tcb.mss) as f64 / tcb.cwnd as f64;
        tcb.cwnd = tcb.cwnd.wrapping_add(cast_u32(adder.max(1.0)));
    }
}

crate::tunables! {
    /// Reno has no tunables (ns-3.23 `TcpReno` had none besides the socket's).
    pub struct RenoConfig for "reno" {}
}

/// TCP Reno (ns-3.23 `TcpReno`). Stateless apart from the socket state.
#[derive(Clone, Debug, Default)]
pub struct Reno {
    pub config: RenoConfig,
}

impl Reno {
    pub fn new(config: RenoConfig) -> Self {
        Reno { config }
    }
}

impl CongestionOps for Reno {
    fn name(&self) -> &'static str {
        "TcpReno"
    }

    /// ns-3.23 `TcpReno::DupAck` and `Retransmit`: `max(2·MSS, BytesInFlight()/2)`.
    fn ssthresh(&mut self, tcb: &TcpState, bytes_in_flight: u32) -> u32 {
        (2 * tcb.mss).max(bytes_in_flight / 2)
    }

    fn increase_window(&mut self, tcb: &mut TcpState, segments_acked: u32) {
        increase_window(tcb, segments_acked);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slow_start_one_mss_per_ack_whatever_it_acknowledges() {
        let mut tcb = TcpState::new(1000, 2, 3500);
        let mut reno = Reno::default();
        reno.increase_window(&mut tcb, 3);
        assert_eq!(tcb.cwnd, 3000);
        // Crossing ssthresh: slow start only on this ACK (3000 < 3500), no CA leftover.
        reno.increase_window(&mut tcb, 4);
        assert_eq!(tcb.cwnd, 4000);
        // Congestion avoidance: 1000²/4000 = 250 bytes per ACK.
        reno.increase_window(&mut tcb, 2);
        assert_eq!(tcb.cwnd, 4250);
        // A sub-segment ACK (0 segments) does nothing.
        reno.increase_window(&mut tcb, 0);
        assert_eq!(tcb.cwnd, 4250);
    }

    #[test]
    fn ssthresh_is_half_the_flight_with_a_two_segment_floor() {
        let tcb = TcpState::new(1000, 10, u32::MAX);
        let mut reno = Reno::default();
        assert_eq!(reno.ssthresh(&tcb, 9000), 4500);
        assert_eq!(reno.ssthresh(&tcb, 3000), 2000);
    }
}

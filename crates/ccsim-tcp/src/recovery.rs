//! Fast-recovery window rules (ns-3 `TcpRecoveryOps`): PRR (RFC 6937) and classic.

use crate::config::RecoveryAlgorithm;
use ccsim_cca::TcpState;

/// State of the window reduction during one recovery episode.
#[derive(Clone, Debug)]
pub struct Recovery {
    algorithm: RecoveryAlgorithm,
    /// RFC 6937 `prr_delivered`.
    prr_delivered: u64,
    /// RFC 6937 `prr_out`.
    prr_out: u64,
    /// RFC 6937 `RecoverFS`: outstanding bytes when recovery began.
    recover_fs: u64,
    /// ns-3.44 computes `prr_delivered × ssthresh` in 32-bit unsigned arithmetic.
    ns3_quirks: bool,
    /// The current ACK cumulatively acknowledged retransmitted data (ns-3
    /// `m_isRetransDataAcked`, its "safeACK").
    safe_ack: bool,
}

impl Recovery {
    pub fn new(algorithm: RecoveryAlgorithm, ns3_quirks: bool) -> Self {
        Recovery {
            algorithm,
            prr_delivered: 0,
            prr_out: 0,
            recover_fs: 0,
            ns3_quirks,
            safe_ack: false,
        }
    }

    /// Entering recovery: ssthresh is already set. `flight_size` is HighData − HighACK.
    pub fn enter(&mut self, tcb: &mut TcpState, flight_size: u64, delivered: u64) {
        match self.algorithm {
            RecoveryAlgorithm::Classic => tcb.cwnd = tcb.ssthresh,
            RecoveryAlgorithm::Prr => {
                self.prr_out = 0;
                self.prr_delivered = 0;
                // RFC 6937 RecoverFS is FlightSize; ns-3.44 takes the RFC 6675 pipe instead
                // (`m_recoveryFlightSize = tcb->m_bytesInFlight`, issue #1351, fixed after 3.44).
                let fs = if self.ns3_quirks {
                    tcb.bytes_in_flight as u64
                } else {
                    flight_size
                };
                // ns-3 lets it be 0 (everything guessed SACKed or lost, as without SACK): then
                // `DoRecovery`'s dup-ACK estimate (prr_delivered < RecoverFS) never applies and
                // the entry's call returns without touching cwnd (case AN NewReno, 2.6972 s).
                self.recover_fs = if self.ns3_quirks { fs } else { fs.max(1) };
                // ns-3 `EnterRecovery` calls `DoRecovery(tcb, delivered, isDupAck = true)`.
                self.on_dupack(tcb, delivered);
            }
        }
    }

    /// Whether the ACK being processed cumulatively acknowledged retransmitted data. ns-3.44
    /// adds PRR's extra segment (slow-start reduction bound) only on such a "safe" ACK and
    /// otherwise bounds by conservation (PRR-CRB); RFC 6937's SSRB always adds it.
    pub fn set_safe_ack(&mut self, safe: bool) {
        self.safe_ack = safe;
    }

    /// RFC 6937 §3, on every ACK during recovery with `delivered` bytes newly delivered
    /// (cumulatively ACKed or SACKed). Sets cwnd = pipe + sndcnt so that the sender's usual
    /// "cwnd − pipe" rule sends exactly sndcnt.
    pub fn on_ack(&mut self, tcb: &mut TcpState, delivered: u64) {
        self.update(tcb, delivered)
    }

    /// [`on_ack`](Self::on_ack) for a duplicate ACK. ns-3.44 (`TcpPrrRecovery::DoRecovery`
    /// with `isDupAck`) adds one MSS to DeliveredData while prr_delivered < RecoverFS, the
    /// RFC's estimate for connections *without* SACK, on top of the SACKed bytes it was given:
    /// a double count with SACK (ns-3 issue #1350, fixed after 3.44).
    pub fn on_dupack(&mut self, tcb: &mut TcpState, mut delivered: u64) {
        if self.ns3_quirks && self.prr_delivered < self.recover_fs {
            delivered += tcb.mss as u64;
        }
        self.update(tcb, delivered)
    }

    fn update(&mut self, tcb: &mut TcpState, delivered: u64) {
        if self.algorithm != RecoveryAlgorithm::Prr || delivered == 0 {
            return;
        }
        self.prr_delivered += delivered;
        let pipe = tcb.bytes_in_flight as u64;
        let ssthresh = tcb.ssthresh as u64;
        let mss = tcb.mss as u64;
        let mut sndcnt: i64 = if pipe > ssthresh {
            // Proportional part: sndcnt = CEIL(prr_delivered * ssthresh / RecoverFS) - prr_out.
            // ns-3 divides by a RecoverFS of 0 in floating point; the infinity (or NaN)
            // converts to `int` as x86's "integer indefinite", INT_MIN.
            if self.recover_fs == 0 {
                i32::MIN as i64
            } else {
                self.proportional_target(ssthresh) as i64 - self.prr_out as i64
            }
        } else {
            // Slow-start reduction bound (PRR-SSRB):
            // limit = MAX(prr_delivered - prr_out, DeliveredData) + MSS; ns-3.44 adds the MSS
            // only on a safe ACK (`TcpPrrRecovery::DoRecovery`).
            if self.ns3_quirks {
                self.ns3_reduction_bound(delivered, ssthresh - pipe, mss)
            } else {
                let limit = (self.prr_delivered as i64 - self.prr_out as i64).max(delivered as i64);
                (ssthresh as i64 - pipe as i64).min(limit + mss as i64)
            }
        };
        // Force the fast retransmit on entry (RFC 6937 §3: "at least one segment").
        if self.prr_out == 0 {
            sndcnt = sndcnt.max(mss as i64);
        }
        let sndcnt = sndcnt.max(0) as u64;
        tcb.cwnd = (pipe + sndcnt).min(u32::MAX as u64) as u32;
    }

    /// The reduction bound below ssthresh in ns-3.44's arithmetic (`TcpPrrRecovery::DoRecovery`,
    /// tcp-prr-recovery.cc): `int limit = std::max(m_prrDelivered - m_prrOut, deliveredBytes)`
    /// takes the maximum of two `uint32_t`s, so once more has been sent than delivered
    /// (prr_out > prr_delivered) the difference wraps to a huge unsigned value, wins the
    /// maximum, and turns negative again in the `int`: the bound is prr_delivered − prr_out < 0
    /// and nothing is sent, where RFC 6937 would still send DeliveredData. The extra MSS of
    /// PRR-SSRB comes only on a safe ACK (`m_isRetransDataAcked`), otherwise PRR-CRB. Without
    /// SACK this is the common case: the duplicate ACKs' guessed deliveries lag what PRR sent
    /// (case AN NewReno at 0.8872 s: no new data on a partial ACK, cwnd = pipe).
    fn ns3_reduction_bound(&self, delivered: u64, room: u64, mss: u64) -> i64 {
        let diff = (self.prr_delivered as u32).wrapping_sub(self.prr_out as u32);
        let mut limit = diff.max(delivered as u32) as i32;
        if self.safe_ack {
            limit = limit.wrapping_add(mss as i32);
        }
        limit.min(room as u32 as i32) as i64
    }

    /// CEIL(prr_delivered × ssthresh / RecoverFS).
    ///
    /// ns-3.44 (`TcpPrrRecovery::DoRecovery`, tcp-prr-recovery.cc) writes this as
    /// `std::ceil(m_prrDelivered * tcb->m_ssThresh * 1.0 / m_recoveryFlightSize)`: both
    /// factors are `uint32_t`, so the product wraps modulo 2^32 before the conversion to
    /// double. Once prr_delivered × ssthresh passes 4 GiB (e.g. 2 segments of 10 000 bytes
    /// with an 8 MB ssthresh, or 5 segments of 1448 bytes with 700 kB) the target collapses
    /// and PRR sends nothing new until the window is exhausted. ns-3 fixed it after 3.44
    /// (issue #1282, commit 25f76649); golden data from 3.44 carries it, so the `ns3`
    /// profile reproduces it (`tcp.ns3_prr_quirks`).
    fn proportional_target(&self, ssthresh: u64) -> u64 {
        if self.ns3_quirks {
            let wrapped = (self.prr_delivered as u32).wrapping_mul(ssthresh as u32);
            (wrapped as u64).div_ceil(self.recover_fs)
        } else {
            (self.prr_delivered as u128 * ssthresh as u128).div_ceil(self.recover_fs as u128) as u64
        }
    }

    /// Bytes sent (new or retransmitted) while in recovery.
    pub fn on_sent(&mut self, bytes: u32) {
        self.prr_out += bytes as u64;
    }

    /// Leaving recovery on the full ACK: cwnd = ssthresh (RFC 6937 §3, RFC 6675).
    pub fn exit(&mut self, tcb: &mut TcpState) {
        tcb.cwnd = tcb.ssthresh;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prr_sends_proportionally_while_pipe_above_ssthresh() {
        let mss = 1000;
        let mut tcb = TcpState::new(mss, 10, u32::MAX);
        // 20 segments outstanding, 3 SACKed, head lost: pipe 16 segments; ssthresh 10.
        tcb.ssthresh = 10 * mss;
        tcb.bytes_in_flight = 16 * mss;
        let mut r = Recovery::new(RecoveryAlgorithm::Prr, false);
        r.enter(&mut tcb, 20_000, 1000);
        // ceil(1000 * 10000 / 20000) = 500 -> forced up to one MSS for the fast retransmit.
        assert_eq!(tcb.cwnd, 17 * mss);
        r.on_sent(1000);
        tcb.bytes_in_flight = 16 * mss;
        r.on_ack(&mut tcb, 1000);
        // prr_delivered 2000 -> ceil(2000*10000/20000) - 1000 = 0.
        assert_eq!(tcb.cwnd, 16 * mss);
        r.on_ack(&mut tcb, 1000);
        // 3000 -> 1500 - 1000 = 500 bytes.
        assert_eq!(tcb.cwnd, 16 * mss + 500);
    }

    #[test]
    fn prr_ssrb_when_pipe_below_ssthresh() {
        let mss = 1000;
        let mut tcb = TcpState::new(mss, 10, u32::MAX);
        tcb.ssthresh = 10 * mss;
        tcb.bytes_in_flight = 4 * mss;
        let mut r = Recovery::new(RecoveryAlgorithm::Prr, false);
        r.enter(&mut tcb, 20_000, 2000);
        // limit = max(2000 - 0, 2000) + 1000 = 3000; min(6000, 3000).
        assert_eq!(tcb.cwnd, 7 * mss);
        r.exit(&mut tcb);
        assert_eq!(tcb.cwnd, 10 * mss);
    }

    /// ns-3.44 adds the reduction bound's extra segment only on a "safe" ACK, one that
    /// cumulatively acknowledges retransmitted data (`m_isRetransDataAcked`); otherwise the
    /// bound is conservation (PRR-CRB). Case C Scalable became identical with this rule.
    #[test]
    fn ns3_prr_adds_the_extra_segment_only_on_a_safe_ack() {
        let mss = 1000;
        for safe in [false, true] {
            let mut tcb = TcpState::new(mss, 10, u32::MAX);
            tcb.ssthresh = 10 * mss;
            tcb.bytes_in_flight = 4 * mss;
            let mut r = Recovery::new(RecoveryAlgorithm::Prr, true);
            r.enter(&mut tcb, 20_000, 2000);
            r.on_sent(1000);
            r.set_safe_ack(safe);
            r.on_ack(&mut tcb, 2000);
            // prr_delivered 2000 + 1000 (ns-3's dup-ACK estimate) + 2000, prr_out 1000:
            // limit = max(4000, 2000) (+ 1000 when safe), below ssthresh − pipe = 6000.
            let want = if safe { 9 } else { 8 };
            assert_eq!(tcb.cwnd, want * mss, "safe {safe}");
        }
    }

    /// ns-3.44's `int limit = std::max(m_prrDelivered - m_prrOut, deliveredBytes)` on two
    /// `uint32_t`s: with more sent than delivered the difference wraps, wins, and comes back
    /// negative, so nothing is sent where RFC 6937 sends DeliveredData. Without SACK this made
    /// case AN NewReno send three new segments on a partial ACK where ns-3 sends none.
    #[test]
    fn ns3_prr_bound_is_negative_once_more_was_sent_than_delivered() {
        let mss = 1000;
        let run = |ns3: bool| {
            let mut tcb = TcpState::new(mss, 10, u32::MAX);
            tcb.ssthresh = 10 * mss;
            tcb.bytes_in_flight = 4 * mss;
            let mut r = Recovery::new(RecoveryAlgorithm::Prr, ns3);
            r.enter(&mut tcb, 20_000, 0);
            r.on_sent(6 * mss); // prr_out 6000 > prr_delivered (1000 on entry with ns-3)
            r.on_ack(&mut tcb, 2 * mss as u64);
            tcb.cwnd - tcb.bytes_in_flight
        };
        // ns-3: limit = 3000 − 6000 < 0 → 0. RFC: max(2000 − 6000, 2000) + 1000 = 3000.
        assert_eq!(run(true), 0);
        assert_eq!(run(false), 3 * mss);
    }

    /// ns-3.44 takes RecoverFS from bytes in flight, which without SACK can be 0 (every
    /// segment guessed SACKed or lost). The entry's dup-ACK estimate then does not apply, no
    /// bytes are delivered, and cwnd is left as it was (case AN NewReno at 2.6972 s).
    #[test]
    fn ns3_prr_entry_with_nothing_in_flight_leaves_cwnd_alone() {
        let mss = 1448;
        let mut tcb = TcpState::new(mss, 10, u32::MAX);
        tcb.cwnd = 3620;
        tcb.ssthresh = 2896;
        tcb.bytes_in_flight = 0;
        let mut r = Recovery::new(RecoveryAlgorithm::Prr, true);
        r.enter(&mut tcb, 63_712, 0);
        assert_eq!(tcb.cwnd, 3620);
        // RFC 6937 (RecoverFS = FlightSize): the segment delivered plus one, up to ssthresh.
        let mut r = Recovery::new(RecoveryAlgorithm::Prr, false);
        r.enter(&mut tcb, 63_712, mss as u64);
        assert_eq!(tcb.cwnd, 2 * mss);
    }

    /// The numbers of ns-3.44's first recovery in validation case D (CUBIC, MSS 10 000):
    /// RecoverFS 11 590 000, ssthresh 8 090 000. ns-3's own log shows cwnd = pipe on every
    /// duplicate ACK after the fast retransmit (nothing new sent); RFC arithmetic would send.
    #[test]
    fn ns3_quirks_stops_proportional_sending() {
        let mss = 10_000;
        let run = |wrap: bool| {
            let mut tcb = TcpState::new(mss, 10, u32::MAX);
            tcb.ssthresh = 8_090_000;
            tcb.bytes_in_flight = 11_550_000;
            let mut r = Recovery::new(RecoveryAlgorithm::Prr, wrap);
            r.enter(&mut tcb, 11_590_000, 10_000);
            assert_eq!(tcb.cwnd, 11_560_000, "fast retransmit forced on entry");
            r.on_sent(mss);
            // Next duplicate ACK SACKs one more segment: prr_delivered 20 000.
            tcb.bytes_in_flight = 11_550_000;
            r.on_ack(&mut tcb, 10_000);
            tcb.cwnd - tcb.bytes_in_flight
        };
        // 20 000 × 8 090 000 = 161 800 000 000 ≡ 2 886 210 048 (mod 2^32) -> ceil(249.03) = 250,
        // 250 − 10 000 < 0 -> sndcnt 0.
        assert_eq!(run(true), 0);
        // Exact: ceil(13 960.3) − 10 000 = 3 961 bytes.
        assert_eq!(run(false), 3_961);
    }
}

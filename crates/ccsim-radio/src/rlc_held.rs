//! The UE's RLC reception buffer above a hole, for the delay RLC model
//! (`radio.handover.ue_rlc_reset_loses_received`, issue 15).
//!
//! The delay model draws a TB's fate when it is sent, so a packet whose own TBs are decoded
//! before an older packet's HARQ/RLC retransmission is delivered in sequence later, at the
//! hole's delivery time. With the rule on, the cell keeps such a packet here (received by the
//! UE, not yet delivered in order) instead of reporting it delivered at once, and reports it
//! when the hole is filled. At a secondary-cell handover ns3-mmwave's UE makes a new RLC entity
//! (`LteUeRrc::DoNotifySecondaryCellHandover`, lte-ue-rrc.cc l. 2031-2038 of the seed 002
//! authors' tree): the PDUs the old one held above VR(R) are lost with it. The source forwards
//! the ones it has not seen acknowledged; the ones a status report already acknowledged
//! (every SN below ACK_SN that is not NACKed, lte-rlc-am.cc l. 2122-2170) are in neither its
//! buffers nor the forwarding: they never reach the UE.
//!
//! When a status report acknowledges a PDU above a hole: ACK_SN is at most VR(MS), which
//! passes a hole only when `t-Reordering` expires (TS 36.322 §5.1.3.2.4, lte-rlc-am.cc
//! l. 2783-2802). The timer starts at the first PDU received above the hole and restarts at
//! each expiry while PDUs above VR(MS) wait, so a PDU received at `r` is acknowledged by the
//! report sent at the first expiry after `r`, which reaches the eNB one uplink later.

use ccsim_core::Time;
use std::collections::VecDeque;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Held {
    packet: u32,
    bytes: u32,
    /// When the UE had the packet's last TB.
    received: Time,
    /// When it is delivered in sequence (the hole is filled).
    at: Time,
}

/// Packets the UE has received (or will receive) but cannot deliver in sequence yet, in
/// delivery order. Steady state allocation-free (the ring keeps its capacity).
#[derive(Clone, Debug, Default)]
pub struct HeldSdus {
    held: VecDeque<Held>,
    /// The first reception above the current hole: `t-Reordering` starts then.
    hole_since: Time,
}

impl HeldSdus {
    /// Holds `packet`, received by the UE at `received`, delivered in sequence at `at`.
    /// Delivery times are non-decreasing (in-sequence delivery).
    pub fn push(&mut self, packet: u32, bytes: u32, received: Time, at: Time) {
        debug_assert!(self.held.back().is_none_or(|h| h.at <= at));
        if self.held.is_empty() {
            self.hole_since = received;
        } else {
            self.hole_since = self.hole_since.min(received);
        }
        self.held.push_back(Held {
            packet,
            bytes,
            received,
            at,
        });
    }

    pub fn is_empty(&self) -> bool {
        self.held.is_empty()
    }
    pub fn len(&self) -> usize {
        self.held.len()
    }

    /// When the oldest held packet is delivered in sequence.
    pub fn next_release(&self) -> Option<Time> {
        self.held.front().map(|h| h.at)
    }

    /// Hands the packets delivered in sequence by `now` to `f(packet, at)`, oldest first.
    pub fn release(&mut self, now: Time, mut f: impl FnMut(u32, Time)) {
        while let Some(h) = self.held.front().copied().filter(|h| h.at <= now) {
            self.held.pop_front();
            f(h.packet, h.at);
        }
    }

    /// When the eNB sees a packet received at `received` acknowledged: at the first
    /// `t-Reordering` expiry (period `reordering`, from the hole's first reception) after it,
    /// plus the status report's `uplink`.
    pub fn acked_at(&self, received: Time, reordering: Time, uplink: Time) -> Time {
        let r = reordering.as_nanos().max(1);
        let since = received
            .as_nanos()
            .saturating_sub(self.hole_since.as_nanos());
        Time(self.hole_since.as_nanos() + r * (since / r + 1)) + uplink
    }

    /// A handover at `now` discards the UE's RLC entity: every held packet goes to
    /// `f(packet, bytes, acknowledged)`, oldest first, `acknowledged` true when the UE had it
    /// and the eNB had seen it acknowledged by `now` (it is lost), false otherwise (the source
    /// still holds it and forwards it).
    pub fn drain_at_handover(
        &mut self,
        now: Time,
        reordering: Time,
        uplink: Time,
        mut f: impl FnMut(u32, u32, bool),
    ) {
        for h in &self.held {
            let acked = h.received <= now && self.acked_at(h.received, reordering, uplink) <= now;
            f(h.packet, h.bytes, acked);
        }
        self.held.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(x: u64) -> Time {
        Time::from_millis(x)
    }

    #[test]
    fn release_follows_the_hole() {
        let mut h = HeldSdus::default();
        h.push(1, 1400, ms(1), ms(30));
        h.push(2, 1400, ms(2), ms(30));
        h.push(3, 1400, ms(3), ms(31));
        assert_eq!(h.next_release(), Some(ms(30)));
        let mut got = Vec::new();
        h.release(ms(30), |p, at| got.push((p, at)));
        assert_eq!(got, vec![(1, ms(30)), (2, ms(30))]);
        assert_eq!(h.len(), 1);
    }

    #[test]
    fn a_handover_loses_what_a_reordering_expiry_acknowledged_and_forwards_the_rest() {
        // Hole from 10 ms on, t-Reordering 10 ms, uplink 1 ms: the expiries are at 20, 30 ms,
        // so the packets received by 20 ms are seen acknowledged at 21 ms.
        let (r, up) = (ms(10), ms(1));
        let mut h = HeldSdus::default();
        for (p, t) in [(1, 10), (2, 15), (3, 19), (4, 20), (5, 24), (6, 40)] {
            h.push(p, 1400, ms(t), ms(100));
        }
        assert_eq!(h.acked_at(ms(15), r, up), ms(21));
        assert_eq!(h.acked_at(ms(20), r, up), ms(31));
        let mut lost = Vec::new();
        let mut forwarded = Vec::new();
        h.drain_at_handover(ms(25), r, up, |p, _, acked| {
            if acked {
                lost.push(p)
            } else {
                forwarded.push(p)
            }
        });
        assert_eq!(lost, vec![1, 2, 3]);
        // received after the expiry, or not yet received (6: its TB still in HARQ)
        assert_eq!(forwarded, vec![4, 5, 6]);
        assert!(h.is_empty());
    }
}

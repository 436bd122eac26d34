//! The cell's side of the UE's reception buffer above a hole in the delay RLC model
//! ([`crate::rlc_held`], `radio.handover.ue_rlc_reset_loses_received`).

use super::{Cell, Delivery, Outcome};
use crate::rlc::RlcMode;
use ccsim_core::Time;

impl Cell {
    /// Delay model: a packet received above a hole is reported delivered only when the hole is
    /// filled, so that a handover before then can discard it with the UE's RLC entity
    /// ([`Cell::drain_held`]). Off (default): reported at once with its in-sequence time.
    pub fn hold_received(&mut self) {
        self.holding = self.ues.iter().all(|u| u.am.is_none());
    }

    /// The uplink of a status report: sent within t-StatusProhibit, then UlSchedDelay 1 slot +
    /// 1 slot + decoding to reach the eNB.
    pub(super) fn status_delay(&self) -> Time {
        Time::from_micros(self.config.rlc.status_prohibit_us) + self.report_uplink()
    }

    /// UlSchedDelay 1 slot + 1 slot + decoding.
    fn report_uplink(&self) -> Time {
        Time::from_micros(self.config.harq.decode_latency_us) + Time(2 * self.slot_ns)
    }

    /// When the oldest packet held above a hole is delivered in sequence.
    pub(super) fn next_release(&self) -> Option<Time> {
        if !self.holding {
            return None;
        }
        self.ues.iter().filter_map(|u| u.held.next_release()).min()
    }

    /// Reports the held packets whose hole is filled by `now` as delivered (at `now`, their
    /// in-sequence time: the RAN runs at [`Cell::next_deadline`]).
    pub fn release_held(&mut self, now: Time, out: &mut Vec<Delivery>) {
        if !self.holding {
            return;
        }
        let track_unacked = self.forwarding
            && self.config.rlc.forward_unacked
            && self.config.rlc.mode == RlcMode::Am;
        let status_delay = self.status_delay();
        let c = &mut self.counters;
        for (i, u) in self.ues.iter_mut().enumerate() {
            let unacked = &mut u.unacked;
            u.held.release(now, |packet, at| {
                let at = at.max(now);
                if track_unacked {
                    unacked.push(now, packet, at + status_delay);
                }
                c.delivered_packets += 1;
                out.push(Delivery {
                    packet,
                    ue: i as u32,
                    at,
                    outcome: Outcome::Delivered,
                });
            });
        }
    }

    /// A handover at `now` discards `ue`'s RLC entity: each packet it held above a hole goes
    /// to `f(packet, bytes, acknowledged)` ([`crate::rlc_held::HeldSdus::drain_at_handover`],
    /// with this cell's `t-Reordering` and status report uplink).
    pub fn drain_held(&mut self, ue: usize, now: Time, f: impl FnMut(u32, u32, bool)) {
        let reordering = Time::from_micros(self.config.rlc.reordering_us);
        let uplink = self.report_uplink();
        self.ues[ue]
            .held
            .drain_at_handover(now, reordering, uplink, f);
    }
}

//! A TB's fate ([`Cell::draw_outcome`], both RLC models) and the cell's side of the RLC AM
//! entity model (`rlc.model = "entity"`, [`crate::am_link`]): a TB carries one AM PDU, HARQ
//! decides whether and when it reaches the UE, and the UE's RLC delivers reassembled SDUs in
//! order when the PDUs arrive.

use super::{Cell, Delivery, LossReason, Outcome, RESERVATION_SLOTS};
use crate::link_adaptation::draw_tb_outcome_sinr;
use crate::rlc::{draw_tb_outcome, RlcModel, TbOutcome};
use ccsim_core::Time;

impl Cell {
    /// Draws the fate of a TB of `ue` sent in slot `k` on `units` at `mcs` (the shared
    /// HARQ/ARQ loop; with `harq_only`, RLC retransmissions are left to the AM entity) and
    /// reserves its retransmissions' units.
    pub(super) fn draw_outcome(
        &mut self,
        k: u64,
        ue: usize,
        units: u64,
        mcs: u8,
        harq_only: bool,
    ) -> TbOutcome {
        let slot_ns = self.slot_ns;
        let slot = Time(slot_ns);
        let slot_start = Time(k * slot_ns);
        let rlc = if harq_only {
            &self.harq_only
        } else {
            &self.config.rlc
        };
        let reserve = &mut self.reserve;
        let reserve_resend = |off: Time| {
            let at = k + off.as_nanos() / slot_ns;
            if at - k < RESERVATION_SLOTS as u64 {
                let r = &mut reserve[(at % RESERVATION_SLOTS as u64) as usize];
                if r.0 != at {
                    *r = (at, 0);
                }
                r.1 += units;
            }
        };
        match &self.mcs_table {
            Some(la) => {
                let link = &self.ues[ue];
                // The SINR the link adaptation sees: with the per-RB loss offset (0 by default).
                let sinr_at_time = |t: Time| {
                    link.sinr_db
                        + link.fading.as_ref().map_or(0.0, |f| f.gain_db(t))
                        + link.la_offset_db
                };
                let sinr_at = |off: Time| sinr_at_time(slot_start + off);
                // The CQI in force for a retransmission sent `off` after the TB.
                let report_sinr_at =
                    |off: Time| sinr_at_time(la.config().report_instant(slot_start + off, slot_ns));
                draw_tb_outcome_sinr(
                    &mut self.rng,
                    la,
                    &self.config.harq,
                    rlc,
                    slot,
                    mcs,
                    units,
                    sinr_at,
                    report_sinr_at,
                    reserve_resend,
                )
            }
            None => draw_tb_outcome(&mut self.rng, &self.config.harq, rlc, slot, reserve_resend),
        }
    }

    /// The earliest arrival or timer of any UE's AM link.
    pub(super) fn next_am_event(&self) -> Option<Time> {
        if self.config.rlc.model != RlcModel::Entity {
            return None; // no AM links (asked twice per slot)
        }
        self.ues
            .iter()
            .filter_map(|u| u.am.as_ref().and_then(|a| a.next_event()))
            .min()
    }

    /// Runs the AM links' events due at `t` and reports the SDUs they deliver.
    pub(super) fn process_am(&mut self, t: Time, out: &mut Vec<Delivery>) {
        let c = &mut self.counters;
        // A status report is uplink data one slot later (`UlSchedDelay`).
        let status_slot =
            (self.config.frame.uplink_data_symbols > 0).then_some(t.as_nanos() / self.slot_ns + 1);
        for (i, u) in self.ues.iter_mut().enumerate() {
            let Some(am) = u.am.as_mut() else { continue };
            if am.next_event().is_none_or(|e| e > t) {
                continue;
            }
            let was_idle = !am.has_data();
            let (statuses, ignored) = (am.statuses, am.ignored_whole());
            let delivered_bytes = &mut u.delivered_bytes;
            let last_delivery = &mut u.last_delivery;
            am.process(t, |sdu, bytes, ok| {
                let outcome = if ok {
                    c.delivered_packets += 1;
                    *delivered_bytes += bytes as u64;
                    *last_delivery = t;
                    Outcome::Delivered
                } else {
                    c.lost_packets += 1;
                    Outcome::Lost(LossReason::Radio)
                };
                out.push(Delivery {
                    packet: sdu,
                    ue: i as u32,
                    at: t,
                    outcome,
                });
            });
            c.ignored_whole_pdus += am.ignored_whole() - ignored;
            if let Some(k) = status_slot.filter(|_| am.statuses > statuses) {
                u.uplink_slots.mark(k);
            }
            // A NACK or an expired poll timer queued a retransmission: schedulable from now.
            if was_idle && am.has_data() {
                u.ready_at = u.ready_at.max(t);
            }
        }
    }

    /// Sends one AM PDU of `tb_bytes` to `ue` in slot `k` on `units` at `mcs`: HARQ only
    /// (its failures are the RLC's to repair); a decoded PDU reaches the UE `base_delay` plus
    /// the HARQ delay after the slot start.
    pub(super) fn send_am_tb(
        &mut self,
        k: u64,
        ue: usize,
        units: u64,
        tb_bytes: u64,
        mcs: u8,
        base_delay: Time,
    ) {
        let slot_start = Time(k * self.slot_ns);
        let Some(am) = self.ues[ue].am.as_mut() else {
            return;
        };
        let arq_before = am.retransmissions();
        let Some(pdu) = am.transmit(slot_start, tb_bytes.min(u32::MAX as u64) as u32) else {
            return;
        };
        let arq = am.retransmissions() > arq_before;
        if self.harq.is_some() {
            let c = &mut self.counters;
            c.tbs += u64::from(!arq);
            c.tb_retransmissions += u64::from(arq);
            c.arq_retransmissions += u64::from(arq);
            c.tx_bytes += pdu.bytes() as u64;
            c.tx_packets += pdu.segments.iter().filter(|s| s.last && !arq).count() as u64;
            self.send_on_process(k, ue, units, mcs, pdu, base_delay);
            return;
        }
        let outcome = self.draw_outcome(k, ue, units, mcs, true);
        let c = &mut self.counters;
        // An ARQ retransmission counts as retransmissions only, as in the delay model.
        let (first, retx) = if arq {
            (0, outcome.transmissions as u64)
        } else {
            (1, (outcome.transmissions - 1) as u64)
        };
        c.tbs += first;
        c.tb_retransmissions += retx;
        c.arq_retransmissions += arq as u64;
        c.tx_bytes += pdu.bytes() as u64 * outcome.transmissions as u64;
        let completed = pdu.segments.iter().filter(|s| s.last).count() as u64;
        c.tx_packets += completed * first;
        c.retx_packets += completed * retx;
        if !outcome.lost {
            let at = slot_start + base_delay + outcome.extra_delay;
            if let Some(am) = self.ues[ue].am.as_mut() {
                am.send(at, pdu);
            }
        }
    }
}

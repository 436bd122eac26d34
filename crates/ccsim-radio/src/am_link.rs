//! One UE's RLC AM link inside a cell (`rlc.model = "entity"`): the eNB's [`AmTransmitter`],
//! the UE's [`AmReceiver`], the data PDUs on their way down (HARQ retransmissions reorder
//! them) and the status reports on their way up. Sans-IO like the cell: the cell asks
//! [`AmLink::next_event`] and calls [`AmLink::process`] at that instant.
//!
//! The uplink that carries the status reports is the radio link's: `UlSchedDelay` plus one
//! slot and the decoding latency (the delay model's status delay less `t-StatusProhibit`,
//! which here is the receiver's own timer).

use crate::rlc::{RlcAdmission, RlcConfig};
use crate::rlc_am::{AmConfig, AmPdu, AmReceiver, AmTransmitter, StatusPdu};
use ccsim_core::Time;
use std::collections::VecDeque;

/// The AM timers of a cell's `rlc` table.
pub fn am_config(rlc: &RlcConfig) -> AmConfig {
    AmConfig {
        poll_retransmit: Time::from_micros(rlc.retx_delay_us),
        reordering: Time::from_micros(rlc.reordering_us),
        status_prohibit: Time::from_micros(rlc.status_prohibit_us),
        max_retx: rlc.max_retx,
        resegment_retx: rlc.resegment_retx,
        status_max_nacks: rlc.status_max_nacks,
    }
}

#[derive(Clone, Debug)]
pub struct AmLink {
    tx: AmTransmitter,
    rx: AmReceiver,
    cfg: AmConfig,
    /// Data PDUs decoded by HARQ, with their arrival at the UE.
    down: Vec<(Time, AmPdu)>,
    /// Status reports with their arrival at the eNB (a constant delay: FIFO).
    up: VecDeque<(Time, StatusPdu)>,
    uplink: Time,
    limit_bytes: u64,
    /// SDUs dropped at admission (drop-tail on the untransmitted bytes, ns-3
    /// `LteRlcAm::MaxTxBufferSize`).
    pub drops: u64,
    pub max_bytes: u64,
    /// Status reports sent.
    pub statuses: u64,
}

impl AmLink {
    pub fn new(cfg: AmConfig, uplink: Time, limit_bytes: u64) -> Self {
        AmLink {
            tx: AmTransmitter::new(cfg),
            rx: AmReceiver::new(cfg),
            cfg,
            down: Vec::new(),
            up: VecDeque::new(),
            uplink,
            limit_bytes,
            drops: 0,
            max_bytes: 0,
            statuses: 0,
        }
    }

    /// An SDU from PDCP; dropped when the untransmitted bytes would exceed the buffer.
    pub fn enqueue(&mut self, sdu: u32, bytes: u32) -> RlcAdmission {
        if !self.admit(bytes) {
            return RlcAdmission::Dropped;
        }
        self.tx.enqueue(sdu, bytes);
        self.max_bytes = self.max_bytes.max(self.tx.txon_bytes());
        RlcAdmission::Accepted
    }

    /// An SDU forwarded again at a handover, sent before the untransmitted ones.
    pub fn push_front(&mut self, sdu: u32, bytes: u32) -> RlcAdmission {
        if !self.admit(bytes) {
            return RlcAdmission::Dropped;
        }
        self.tx.push_front(sdu, bytes);
        self.max_bytes = self.max_bytes.max(self.tx.txon_bytes());
        RlcAdmission::Accepted
    }

    fn admit(&mut self, bytes: u32) -> bool {
        let ok = self.tx.txon_bytes() + bytes as u64 <= self.limit_bytes;
        self.drops += u64::from(!ok);
        ok
    }

    /// New data or a retransmission waits for a grant.
    pub fn has_data(&self) -> bool {
        self.tx.has_data()
    }
    /// Bytes a grant needs to send everything waiting.
    pub fn pending_bytes(&self) -> u64 {
        self.tx.pending_bytes()
    }
    /// Untransmitted bytes and SDUs (what ns3-mmwave reports as the RLC buffer).
    pub fn buffer_bytes(&self) -> u64 {
        self.tx.txon_bytes()
    }
    pub fn buffer_sdus(&self) -> usize {
        self.tx.txon_sdus()
    }
    /// Whole PDUs the UE ignored for an incomplete segment set (`resegment_retx`).
    pub fn ignored_whole(&self) -> u64 {
        self.rx.ignored_whole
    }
    /// ARQ retransmissions sent and PDUs given up.
    pub fn retransmissions(&self) -> u64 {
        self.tx.retransmissions
    }
    pub fn abandoned(&self) -> u64 {
        self.tx.abandoned
    }
    /// PDUs the UE's receiver holds above VR(R).
    pub fn held_pdus(&self) -> usize {
        self.rx.held_pdus()
    }

    /// The PDU for a TB of `tb_bytes` sent at `now`.
    pub fn transmit(&mut self, now: Time, tb_bytes: u32) -> Option<AmPdu> {
        self.tx.transmit(now, tb_bytes)
    }

    /// HARQ decoded `pdu`; it reaches the UE's RLC at `at`.
    pub fn send(&mut self, at: Time, pdu: AmPdu) {
        self.down.push((at, pdu));
    }

    /// The next instant something happens on the link (an arrival or a timer).
    pub fn next_event(&self) -> Option<Time> {
        let down = self.down.iter().map(|&(t, _)| t).min();
        let up = self.up.front().map(|&(t, _)| t);
        [down, up, self.tx.next_deadline(), self.rx.next_deadline()]
            .into_iter()
            .flatten()
            .min()
    }

    /// Runs everything due at `t` (the value of [`AmLink::next_event`]): arrivals in time
    /// order, status reports, timers, then a status report if one is triggered. Reassembled
    /// SDUs go to `deliver(sdu, bytes, ok)`; `ok` is false for an SDU with a given-up piece.
    pub fn process(&mut self, t: Time, mut deliver: impl FnMut(u32, u32, bool)) {
        while let Some(i) = self.earliest_down(t) {
            let (at, pdu) = self.down.swap_remove(i);
            self.rx.on_pdu(at, pdu, &mut deliver);
        }
        while self.up.front().is_some_and(|&(a, _)| a <= t) {
            let (_, s) = self.up.pop_front().expect("front checked");
            self.tx.on_status(&s);
        }
        self.tx.on_deadline(t);
        self.rx.on_deadline(t);
        let rx = &mut self.rx;
        self.tx
            .take_abandoned(|p| rx.on_abandoned(t, p, &mut deliver));
        if let Some(s) = self.rx.poll_status(t) {
            self.statuses += 1;
            self.up.push_back((t + self.uplink, s));
        }
    }

    fn earliest_down(&self, t: Time) -> Option<usize> {
        self.down
            .iter()
            .enumerate()
            .filter(|(_, (a, _))| *a <= t)
            .min_by_key(|(_, (a, pdu))| (*a, pdu.sn))
            .map(|(i, _)| i)
    }

    /// Hands the link over (see [`AmTransmitter::drain_for_handover`]) and starts afresh: PDUs
    /// in flight and status reports are discarded (the target runs a new RLC entity).
    /// The UE's entity is discarded too (ns3-mmwave `LteUeRrc::DoNotifySecondaryCellHandover`,
    /// `lte-ue-rrc.cc` l. 2031-2038): an SDU it held above VR(R) that the source no longer
    /// forwards (a status report had acknowledged its PDUs) goes to `lost`, once.
    pub fn drain_for_handover(
        &mut self,
        resend: impl FnMut(u32),
        mut forward: impl FnMut(u32, u32),
        mut lost: impl FnMut(u32),
    ) {
        // Once per handover, not on the per-packet path.
        let mut forwarded = Vec::new();
        self.tx
            .drain_for_handover(self.rx.vr_r(), resend, |sdu, bytes| {
                forwarded.push(sdu);
                forward(sdu, bytes)
            });
        forwarded.sort_unstable();
        let mut last_lost = None;
        self.rx.held_sdus(|sdu| {
            if last_lost != Some(sdu) && forwarded.binary_search(&sdu).is_err() {
                lost(sdu);
                last_lost = Some(sdu);
            }
        });
        self.rx = AmReceiver::new(self.cfg);
        self.down.clear();
        self.up.clear();
    }

    /// The SDUs the UE already has but the source has not seen acknowledged (for
    /// `forward_unacked`), without changing anything.
    pub fn delivered_unacked(&self, resend: impl FnMut(u32)) {
        self.tx
            .clone()
            .drain_for_handover(self.rx.vr_r(), resend, |_, _| {});
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SDUs 0-4 sent at 0 in one PDU each; all but PDU 1 reach the UE at 0.5 ms.
    fn five_sdus_with_pdu_1_lost() -> AmLink {
        let mut link = AmLink::new(AmConfig::default(), Time::from_millis(1), u64::MAX);
        for sdu in 0..5 {
            link.enqueue(sdu, 100);
        }
        for _ in 0..5 {
            let pdu = link
                .transmit(Time::ZERO, 100 + crate::rlc_am::AM_HEADER_BYTES)
                .expect("one SDU per PDU");
            if pdu.sn != 1 {
                link.send(Time::from_micros(500), pdu);
            }
        }
        link
    }

    /// SDUs 0-4 in one PDU each, PDU 1 lost: after the status report (t-Reordering 2 ms, uplink
    /// 1 ms: the report reaches the eNB at 3.5 ms) the source has 2-4 acknowledged while the UE
    /// holds them above its hole. A handover forwards 1 and loses 2-4: every SDU is delivered,
    /// forwarded or reported lost.
    #[test]
    fn a_handover_reports_the_acknowledged_sdus_the_ue_held_above_a_hole_as_lost() {
        let mut link = five_sdus_with_pdu_1_lost();
        let mut delivered = Vec::new();
        while let Some(t) = link.next_event().filter(|&t| t <= Time::from_millis(5)) {
            link.process(t, |sdu, _, ok| {
                assert!(ok);
                delivered.push(sdu)
            });
        }
        assert_eq!(delivered, vec![0], "the UE waits for SDU 1");
        let (mut forwarded, mut lost) = (Vec::new(), Vec::new());
        link.drain_for_handover(|_| {}, |sdu, _| forwarded.push(sdu), |sdu| lost.push(sdu));
        assert_eq!(forwarded, vec![1], "the NACKed PDU is still the source's");
        assert_eq!(
            lost,
            vec![2, 3, 4],
            "acknowledged, held by the discarded UE entity"
        );
    }

    /// The probe of the UE's reception buffer (`ue_rlc_held_pdus`): PDUs 2-4 wait above the
    /// hole at SN 1 until its retransmission arrives, then the count is 0 again.
    #[test]
    fn held_pdus_count_the_pdus_waiting_above_a_hole_until_it_is_repaired() {
        let mut link = five_sdus_with_pdu_1_lost();
        let mut delivered = Vec::new();
        let run = |link: &mut AmLink, until: Time, delivered: &mut Vec<u32>| {
            while let Some(t) = link.next_event().filter(|&t| t <= until) {
                link.process(t, |sdu, _, _| delivered.push(sdu));
            }
        };
        run(&mut link, Time::from_millis(1), &mut delivered);
        assert_eq!(link.held_pdus(), 3, "PDUs 2-4 above the hole");
        // The NACK reaches the eNB after t-Reordering and the uplink; the retransmission fills
        // the hole.
        run(&mut link, Time::from_millis(5), &mut delivered);
        let retx = link
            .transmit(Time::from_millis(5), 100 + crate::rlc_am::AM_HEADER_BYTES)
            .expect("the NACKed PDU");
        assert_eq!(retx.sn, 1);
        link.send(Time::from_micros(5_500), retx);
        run(&mut link, Time::from_millis(6), &mut delivered);
        assert_eq!(link.held_pdus(), 0);
        assert_eq!(delivered, vec![0, 1, 2, 3, 4]);
    }
}

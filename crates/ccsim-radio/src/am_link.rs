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
use crate::rlc_trace::{RlcRow, RlcTrace};
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
    /// The debug sink (`CCSIM_RLC_TRACE`, [`crate::rlc_trace`]); `None` in normal runs.
    pub trace: Option<RlcTrace>,
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
            trace: None,
        }
    }

    /// Writes one trace row with both ends' state, if tracing.
    fn log(&self, t: Time, event: &str, sn: i64, pdu: Option<&AmPdu>, detail: &str) {
        if let Some(trace) = &self.trace {
            let part = pdu
                .and_then(|p| p.part)
                .map(|p| (p.offset, p.bytes, p.last));
            let row = RlcRow {
                sn,
                part,
                vt: self.tx.state(),
                vr: self.rx.state(),
                detail,
            };
            trace.row(t.as_nanos() / 1000, event, row);
        }
    }

    /// A status report's NACKs for the trace: their count and the first few.
    fn nacks_detail(s: &StatusPdu) -> String {
        let first: Vec<String> = s.nacks.iter().take(4).map(|n| n.to_string()).collect();
        format!("{}:{}", s.nacks.len(), first.join(" "))
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
    /// VT(S) = VT(A) + 512: new data waits for a status report (TS 36.322 §5.1.3.1.1).
    pub fn window_full(&self) -> bool {
        self.tx.window_full()
    }
    /// PDUs the UE discarded outside its receiving window.
    pub fn outside_window(&self) -> u64 {
        self.rx.outside_window
    }

    /// The PDU for a TB of `tb_bytes` sent at `now`.
    pub fn transmit(&mut self, now: Time, tb_bytes: u32) -> Option<AmPdu> {
        if self.trace.is_none() {
            return self.tx.transmit(now, tb_bytes);
        }
        let (retx_before, next_before) = (self.tx.retransmissions, self.tx.state().1);
        let Some(pdu) = self.tx.transmit(now, tb_bytes) else {
            if self.tx.window_full() && self.tx.txon_sdus() > 0 {
                self.log(now, "tx_window_full", -1, None, &tb_bytes.to_string());
            }
            return None;
        };
        let event = if pdu.part.is_some() {
            "tx_seg"
        } else if self.tx.retransmissions > retx_before || pdu.sn < next_before {
            "tx_retx"
        } else {
            "tx_new"
        };
        self.log(now, event, pdu.sn as i64, Some(&pdu), &tb_bytes.to_string());
        Some(pdu)
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
            let how = self.trace.as_ref().map(|_| self.rx.classify(&pdu));
            let (sn, part) = (pdu.sn, pdu.part);
            self.rx.on_pdu(at, pdu, &mut deliver);
            if let Some(how) = how {
                let p = AmPdu {
                    sn,
                    poll: true,
                    segments: Vec::new(),
                    part,
                };
                self.log(at, &format!("rx_{how}"), sn as i64, Some(&p), "");
            }
        }
        while self.up.front().is_some_and(|&(a, _)| a <= t) {
            let (_, s) = self.up.pop_front().expect("front checked");
            self.tx.on_status(&s);
            if self.trace.is_some() {
                self.log(
                    t,
                    "status_rx",
                    s.ack_sn as i64,
                    None,
                    &Self::nacks_detail(&s),
                );
            }
        }
        if self.trace.is_some() {
            if self.tx.next_deadline().is_some_and(|d| d <= t) {
                self.log(t, "poll_expiry", -1, None, "");
            }
            if self.rx.reordering_due(t) {
                self.log(t, "reorder_expiry", -1, None, "");
            }
        }
        self.tx.on_deadline(t);
        self.rx.on_deadline(t);
        let rx = &mut self.rx;
        self.tx
            .take_abandoned(|p| rx.on_abandoned(t, p, &mut deliver));
        if let Some(s) = self.rx.poll_status(t) {
            self.statuses += 1;
            if self.trace.is_some() {
                self.log(
                    t,
                    "status_tx",
                    s.ack_sn as i64,
                    None,
                    &Self::nacks_detail(&s),
                );
            }
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

    /// A `Write` into a shared buffer, to read the debug trace back.
    #[derive(Clone, Default)]
    struct Shared(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);
    impl std::io::Write for Shared {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// The traced stall of seed 002 `run.seed` 14 (SIAD 7 MB, processes + AMC rules, seed 2's
    /// radio; validation/report.md, "Over seeds 2–7"), in small: SN 0 is lost, its
    /// retransmission goes out in two segments (small TBs), and HARQ delivers the last segment
    /// 1.75 ms before the first (the first needed a HARQ retransmission). The tree's receiver
    /// drops a segment that does not start at 0 when it holds nothing for the SN, so the first
    /// segment then opens a set that can never complete, and every whole copy in the TBs that
    /// follow (large enough for the PDU) is ignored (lte-rlc-am.cc l. 1918-1986). In order,
    /// the same segments repair it. Also checks the `CCSIM_RLC_TRACE` rows.
    #[test]
    fn a_last_segment_overtaking_the_first_leaves_the_sn_stalled_while_tbs_hold_the_pdu() {
        let run = |overtaken: bool| {
            let cfg = AmConfig {
                resegment_retx: true,
                max_retx: 1000,
                ..AmConfig::default()
            };
            let mut link = AmLink::new(cfg, Time::from_millis(1), u64::MAX);
            let sink = Shared::default();
            link.trace = Some(RlcTrace::to_writer(sink.clone()));
            for sdu in 0..4 {
                link.enqueue(sdu, 1000);
            }
            let us = Time::from_micros;
            let whole = 1000 + crate::rlc_am::AM_HEADER_BYTES;
            let _lost = link.transmit(Time::ZERO, whole).expect("SN 0");
            for _ in 0..2 {
                let pdu = link.transmit(Time::ZERO, whole).expect("SN 1, 2");
                link.send(us(500), pdu);
            }
            let mut delivered = Vec::new();
            let run_to = |link: &mut AmLink, until: Time, d: &mut Vec<u32>| {
                while let Some(t) = link.next_event().filter(|&t| t <= until) {
                    link.process(t, |sdu, _, _| d.push(sdu));
                }
            };
            run_to(&mut link, Time::from_millis(4), &mut delivered);
            // The NACK of SN 0 is in (t-Reordering, then 1 ms uplink): two 604-byte TBs.
            let first = link
                .transmit(Time::from_millis(4), 604)
                .expect("segment 0..600");
            let last = link
                .transmit(Time::from_millis(4), 604)
                .expect("segment 600..1000");
            assert_eq!(first.part.map(|p| (p.offset, p.last)), Some((0, false)));
            assert_eq!(last.part.map(|p| (p.offset, p.last)), Some((600, true)));
            let (t_first, t_last) = if overtaken {
                (us(6_250), us(4_500))
            } else {
                (us(4_500), us(4_750))
            };
            link.send(t_first, first);
            link.send(t_last, last);
            // Then 1 ms slots whose TBs hold the whole PDU.
            for ms in 5..=40 {
                let now = Time::from_millis(ms);
                run_to(&mut link, now, &mut delivered);
                if let Some(pdu) = link.transmit(now, whole) {
                    link.send(now + us(500), pdu);
                }
            }
            run_to(&mut link, Time::from_millis(41), &mut delivered);
            let text = String::from_utf8(sink.0.lock().unwrap().clone()).unwrap();
            let sn0: Vec<String> = text
                .lines()
                .map(|l| l.split(',').collect::<Vec<_>>())
                .filter(|f| f[2].starts_with("rx_") && f[3] == "0")
                .map(|f| f[2].to_string())
                .collect();
            (delivered, link.ignored_whole(), sn0)
        };
        let (delivered, ignored, sn0) = run(true);
        assert!(
            !delivered.contains(&0),
            "SDU 0 never delivered: {delivered:?}"
        );
        assert!(ignored >= 10, "whole copies ignored: {ignored}");
        assert_eq!(
            sn0[..3],
            ["rx_seg_ignored", "rx_seg_first", "rx_ignored_whole"]
        );
        assert!(sn0[2..].iter().all(|e| e == "rx_ignored_whole"));
        let (delivered, ignored, sn0) = run(false);
        assert_eq!(
            delivered,
            vec![0, 1, 2, 3],
            "in order, the segments repair SN 0"
        );
        assert_eq!(ignored, 0);
        assert_eq!(sn0[..2], ["rx_seg_first", "rx_seg_complete"]);
    }

    /// The tree's seed-6 signature in small (validation/report.md, "Seed 6, BBR at both
    /// buffers"): SN 0 never arrives, so VR(R) stays on 0. The UE holds SNs 1-511, VT(S) stops
    /// at VT(A) + 512 = 512, nothing is delivered, and the TBs granted for the 88 SDUs left
    /// carry nothing (`tx_window_full` trace rows) while SN 0 is resent on every NACK.
    #[test]
    fn a_hole_never_repaired_fills_the_window_and_new_data_stops() {
        let cfg = AmConfig {
            max_retx: 1000,
            ..AmConfig::default()
        };
        let mut link = AmLink::new(cfg, Time::from_millis(1), u64::MAX);
        let sink = Shared::default();
        link.trace = Some(RlcTrace::to_writer(sink.clone()));
        for sdu in 0..600 {
            link.enqueue(sdu, 100);
        }
        let tb = 100 + crate::rlc_am::AM_HEADER_BYTES;
        let mut delivered = Vec::new();
        // A TB every 10 µs, decoded 500 µs later; SN 0 is lost every time.
        for i in 0..2_000u64 {
            let now = Time::from_micros(10 * i);
            while let Some(t) = link.next_event().filter(|&t| t <= now) {
                link.process(t, |sdu, _, _| delivered.push(sdu));
            }
            if let Some(pdu) = link.transmit(now, tb) {
                if pdu.sn != 0 {
                    link.send(now + Time::from_micros(500), pdu);
                }
            }
        }
        assert!(delivered.is_empty(), "VR(R) stays on SN 0");
        assert!(link.window_full());
        assert_eq!(link.tx.state().1, 512, "VT(S) = VT(A) + 512");
        assert_eq!(link.held_pdus(), 511, "the UE holds SNs 1-511");
        assert_eq!(link.buffer_sdus(), 88);
        assert!(link.retransmissions() > 0, "SN 0 is still resent");
        assert_eq!(
            link.outside_window(),
            0,
            "the sender never passes the window"
        );
        let text = String::from_utf8(sink.0.lock().unwrap().clone()).unwrap();
        let full = text
            .lines()
            .filter(|l| l.contains(",tx_window_full,"))
            .count();
        assert!(full > 1000, "TBs with nothing to send: {full}");
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

//! RLC acknowledged mode (TS 36.322 / TS 38.322 as ns-3 `LteRlcAm` implements it, with the
//! timers of the ns3-mmwave TCP examples, ANCHORS §1.1).
//!
//! Two parts:
//! - [`UnackedWindow`]: what the cell model keeps of RLC AM. SDUs sent over the air stay
//!   "transmitted, not yet acknowledged" until the UE's status report reaches the eNB. At a
//!   handover ns3-mmwave forwards them over X2 together with the untransmitted ones
//!   (`UeManager::ForwardRlcBuffers`: `GetTxedBuffer` + `GetRetxBuffer` →
//!   `RlcPdusToRlcSdus`), so the target sends them again and the UE gets duplicates.
//! - [`AmEntity`]: a sans-IO RLC AM transmitter/receiver pair (segmentation to the TB size,
//!   sequence numbers, polling, status reports with NACKs, ARQ retransmission, in-order
//!   reassembly, the `t-PollRetransmit`, `t-Reordering` and `t-StatusProhibit` timers). It
//!   is the reference the cell's delay abstraction is checked against in the tests
//!   (`rlc_am` module tests); the cell does not drive it per TB.

use ccsim_core::Time;
use std::collections::VecDeque;

/// SDUs sent over the air and not yet acknowledged by an RLC status report, oldest first.
/// Steady state allocation-free: the ring keeps its high-water capacity.
#[derive(Clone, Debug, Default)]
pub struct UnackedWindow {
    /// (packet, time its status report reaches the eNB)
    sent: VecDeque<(u32, Time)>,
}

impl UnackedWindow {
    pub fn with_capacity(n: usize) -> Self {
        UnackedWindow {
            sent: VecDeque::with_capacity(n),
        }
    }

    /// Records `packet`, acknowledged at `acked_at`, and forgets the ones acknowledged by
    /// `now`. Acknowledgement times are non-decreasing (in-sequence delivery plus a constant
    /// feedback delay), so the oldest entries go first.
    pub fn push(&mut self, now: Time, packet: u32, acked_at: Time) {
        self.forget_acked(now);
        self.sent.push_back((packet, acked_at));
    }

    fn forget_acked(&mut self, now: Time) {
        while self.sent.front().is_some_and(|&(_, a)| a <= now) {
            self.sent.pop_front();
        }
    }

    /// Hands the SDUs still unacknowledged at `now` to `f` (oldest first) and empties the
    /// window: what the source eNB forwards at a handover besides its untransmitted SDUs.
    pub fn drain_unacked(&mut self, now: Time, mut f: impl FnMut(u32)) {
        self.forget_acked(now);
        for &(p, _) in &self.sent {
            f(p);
        }
        self.sent.clear();
    }

    pub fn len(&self) -> usize {
        self.sent.len()
    }
    pub fn is_empty(&self) -> bool {
        self.sent.is_empty()
    }
}

/// RLC AM timers and thresholds (ns-3 `LteRlcAm` attributes with the values of the
/// ns3-mmwave TCP examples, ANCHORS §1.1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AmConfig {
    /// `t-PollRetransmit`: 4 ms.
    pub poll_retransmit: Time,
    /// `t-Reordering`: 2 ms.
    pub reordering: Time,
    /// `t-StatusProhibit`: 1 ms.
    pub status_prohibit: Time,
    /// Retransmissions of a PDU before it is given up (`maxRetxThreshold`, ns-3: 5).
    pub max_retx: u32,
}

impl Default for AmConfig {
    fn default() -> Self {
        AmConfig {
            poll_retransmit: Time::from_millis(4),
            reordering: Time::from_millis(2),
            status_prohibit: Time::from_millis(1),
            max_retx: 5,
        }
    }
}

/// A piece of an SDU inside a PDU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SduSegment {
    pub sdu: u32,
    pub bytes: u32,
    /// This piece ends the SDU.
    pub last: bool,
}

/// An RLC AM data PDU: a sequence number, a poll bit and the SDU pieces it carries
/// (concatenation and segmentation, TS 36.322 §4.2.1.3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AmPdu {
    pub sn: u32,
    pub poll: bool,
    pub segments: Vec<SduSegment>,
}

impl AmPdu {
    pub fn bytes(&self) -> u32 {
        self.segments.iter().map(|s| s.bytes).sum::<u32>() + AM_HEADER_BYTES
    }
}

/// A status PDU: every SN below `ack_sn` not in `nacks` was received.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StatusPdu {
    pub ack_sn: u32,
    pub nacks: Vec<u32>,
}

/// Fixed AM data PDU header (2 bytes, 10-bit SN) plus 2 bytes per extra segment are
/// rounded to a fixed 4 bytes here: only byte counts depend on it.
pub const AM_HEADER_BYTES: u32 = 4;

/// The transmitting side (eNB): transmission buffer, transmitted-not-acknowledged PDUs,
/// retransmission queue and `t-PollRetransmit`.
#[derive(Clone, Debug)]
pub struct AmTransmitter {
    cfg: AmConfig,
    /// Untransmitted SDUs (id, bytes); the head may be partly sent.
    txon: VecDeque<(u32, u32)>,
    head_sent: u32,
    txon_bytes: u64,
    /// VT(S): the next new SN.
    next_sn: u32,
    /// Transmitted PDUs not yet acknowledged, with their retransmission count.
    txed: std::collections::BTreeMap<u32, (AmPdu, u32)>,
    retx: VecDeque<u32>,
    poll_timer: Option<Time>,
    /// The SN that carried the last poll.
    poll_sn: u32,
    /// PDUs given up after `max_retx` retransmissions.
    pub abandoned: u64,
}

impl AmTransmitter {
    pub fn new(cfg: AmConfig) -> Self {
        AmTransmitter {
            cfg,
            txon: VecDeque::new(),
            head_sent: 0,
            txon_bytes: 0,
            next_sn: 0,
            txed: Default::default(),
            retx: VecDeque::new(),
            poll_timer: None,
            poll_sn: 0,
            abandoned: 0,
        }
    }

    /// An SDU from PDCP.
    pub fn enqueue(&mut self, sdu: u32, bytes: u32) {
        self.txon.push_back((sdu, bytes));
        self.txon_bytes += bytes as u64;
    }

    /// Bytes waiting for a first transmission: what ns3-mmwave reports as the RLC buffer
    /// (`LteRlcAm::GetTxBufferSize`, the txon buffer only).
    pub fn txon_bytes(&self) -> u64 {
        self.txon_bytes
    }
    /// PDUs transmitted and not yet acknowledged.
    pub fn unacked_pdus(&self) -> usize {
        self.txed.len()
    }

    /// A transmission opportunity of `tb_bytes`: a retransmission first if one is queued
    /// and fits whole (ns-3 `TxOpportunityForRetxAlwaysBigEnough`), else new data
    /// segmented to the TB. Every PDU polls (`PollPdu` = 1 in ns-3), which starts
    /// `t-PollRetransmit`.
    pub fn transmit(&mut self, now: Time, tb_bytes: u32) -> Option<AmPdu> {
        if let Some(&sn) = self.retx.front() {
            if let Some((pdu, _)) = self.txed.get(&sn) {
                if pdu.bytes() <= tb_bytes {
                    self.retx.pop_front();
                    let mut pdu = pdu.clone();
                    pdu.poll = true;
                    self.arm_poll(now, sn);
                    return Some(pdu);
                }
            } else {
                self.retx.pop_front(); // acknowledged meanwhile
                return self.transmit(now, tb_bytes);
            }
        }
        if self.txon.is_empty() || tb_bytes <= AM_HEADER_BYTES {
            return None;
        }
        let mut room = tb_bytes - AM_HEADER_BYTES;
        let mut segments = Vec::new();
        while room > 0 {
            let Some(&(sdu, size)) = self.txon.front() else {
                break;
            };
            let left = size - self.head_sent;
            let n = left.min(room);
            segments.push(SduSegment {
                sdu,
                bytes: n,
                last: n == left,
            });
            room -= n;
            self.txon_bytes -= n as u64;
            if n == left {
                self.txon.pop_front();
                self.head_sent = 0;
            } else {
                self.head_sent += n;
            }
        }
        let sn = self.next_sn;
        self.next_sn += 1;
        let pdu = AmPdu {
            sn,
            poll: true,
            segments,
        };
        self.txed.insert(sn, (pdu.clone(), 0));
        self.arm_poll(now, sn);
        Some(pdu)
    }

    fn arm_poll(&mut self, now: Time, sn: u32) {
        self.poll_sn = sn;
        self.poll_timer = Some(now + self.cfg.poll_retransmit);
    }

    /// A status report from the receiver: acknowledged PDUs leave, NACKed ones are queued
    /// for retransmission (or given up after `max_retx`).
    pub fn on_status(&mut self, status: &StatusPdu) {
        let acked: Vec<u32> = self
            .txed
            .range(..status.ack_sn)
            .map(|(&sn, _)| sn)
            .filter(|sn| !status.nacks.contains(sn))
            .collect();
        for sn in acked {
            self.txed.remove(&sn);
        }
        for &sn in &status.nacks {
            self.consider_for_retx(sn);
        }
        if status.ack_sn > self.poll_sn {
            self.poll_timer = None;
        }
    }

    /// Queues `sn` for retransmission, counting it (RETX_COUNT, TS 36.322 §5.2.1), or gives
    /// it up after `max_retx`.
    fn consider_for_retx(&mut self, sn: u32) {
        if self.retx.contains(&sn) {
            return;
        }
        if let Some((_, count)) = self.txed.get_mut(&sn) {
            *count += 1;
            if *count > self.cfg.max_retx {
                self.txed.remove(&sn);
                self.abandoned += 1;
            } else {
                self.retx.push_back(sn);
            }
        }
    }

    pub fn next_deadline(&self) -> Option<Time> {
        self.poll_timer
    }

    /// `t-PollRetransmit` expiry: no status came back for the last poll, so the highest
    /// unacknowledged PDU is retransmitted with a new poll (TS 36.322 §5.2.2.3).
    pub fn on_deadline(&mut self, now: Time) {
        if self.poll_timer.is_some_and(|t| t <= now) {
            self.poll_timer = None;
            if let Some((&sn, _)) = self.txed.iter().next_back() {
                self.consider_for_retx(sn);
            }
        }
    }

    /// Something to send (new data or a retransmission).
    pub fn has_data(&self) -> bool {
        !self.txon.is_empty() || !self.retx.is_empty()
    }
}

/// The receiving side (UE): reordering by SN, `t-Reordering`, status reports under
/// `t-StatusProhibit`, and in-order reassembly of SDUs for PDCP.
#[derive(Clone, Debug)]
pub struct AmReceiver {
    cfg: AmConfig,
    /// VR(R): the lowest SN not yet received in order.
    vr_r: u32,
    /// VR(MS): status reports NACK the holes below it.
    vr_ms: u32,
    /// VR(X): the SN that started `t-Reordering`.
    vr_x: u32,
    /// VR(H): one above the highest SN received.
    vr_h: u32,
    received: std::collections::BTreeMap<u32, AmPdu>,
    reordering_timer: Option<Time>,
    prohibit_until: Time,
    status_pending: bool,
    /// Bytes of the SDU being reassembled.
    partial: u32,
}

impl AmReceiver {
    pub fn new(cfg: AmConfig) -> Self {
        AmReceiver {
            cfg,
            vr_r: 0,
            vr_ms: 0,
            vr_x: 0,
            vr_h: 0,
            received: Default::default(),
            reordering_timer: None,
            prohibit_until: Time::ZERO,
            status_pending: false,
            partial: 0,
        }
    }

    /// A data PDU from the air. Complete SDUs that are now in order go to `deliver` (id,
    /// bytes); duplicates are discarded.
    pub fn on_pdu(&mut self, now: Time, pdu: AmPdu, mut deliver: impl FnMut(u32, u32)) {
        let sn = pdu.sn;
        if pdu.poll {
            self.status_pending = true;
        }
        if sn < self.vr_r || self.received.contains_key(&sn) {
            return;
        }
        self.received.insert(sn, pdu);
        self.vr_h = self.vr_h.max(sn + 1);
        // In-order PDUs are reassembled and delivered at once.
        while let Some(p) = self.received.remove(&self.vr_r) {
            for s in &p.segments {
                self.partial += s.bytes;
                if s.last {
                    deliver(s.sdu, self.partial);
                    self.partial = 0;
                }
            }
            self.vr_r += 1;
        }
        self.vr_ms = self.vr_ms.max(self.vr_r);
        if self.reordering_timer.is_some() && self.vr_x <= self.vr_r {
            self.reordering_timer = None;
        }
        if self.reordering_timer.is_none() && self.vr_h > self.vr_r {
            self.reordering_timer = Some(now + self.cfg.reordering);
            self.vr_x = self.vr_h;
        }
    }

    /// The status report to send now, if one is triggered and `t-StatusProhibit` allows.
    /// NACKs list the holes below VR(MS), which only `t-Reordering` moves past a hole.
    pub fn poll_status(&mut self, now: Time) -> Option<StatusPdu> {
        if !self.status_pending || now < self.prohibit_until {
            return None;
        }
        self.status_pending = false;
        self.prohibit_until = now + self.cfg.status_prohibit;
        let nacks = (self.vr_r..self.vr_ms)
            .filter(|sn| !self.received.contains_key(sn))
            .collect();
        Some(StatusPdu {
            ack_sn: self.vr_ms,
            nacks,
        })
    }

    pub fn next_deadline(&self) -> Option<Time> {
        let prohibit = (self.status_pending).then_some(self.prohibit_until);
        match (self.reordering_timer, prohibit) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// `t-Reordering` expiry: VR(MS) moves to the first hole at or above VR(X) and a status
    /// report is triggered (TS 36.322 §5.1.3.2.4).
    pub fn on_deadline(&mut self, now: Time) {
        if self.reordering_timer.is_some_and(|t| t <= now) {
            self.reordering_timer = None;
            let mut ms = self.vr_x;
            while self.received.contains_key(&ms) {
                ms += 1;
            }
            self.vr_ms = ms;
            self.status_pending = true;
            if self.vr_h > self.vr_ms {
                self.reordering_timer = Some(now + self.cfg.reordering);
                self.vr_x = self.vr_h;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unacked_window_forgets_acknowledged_sdus() {
        let mut w = UnackedWindow::with_capacity(4);
        let ms = Time::from_millis;
        w.push(ms(0), 1, ms(2));
        w.push(ms(1), 2, ms(3));
        w.push(ms(2), 3, ms(4)); // packet 1 acknowledged at 2 ms
        assert_eq!(w.len(), 2);
        let mut out = Vec::new();
        w.drain_unacked(ms(3), |p| out.push(p));
        assert_eq!(out, vec![3]);
        assert!(w.is_empty());
    }

    /// A TB every 250 µs on the downlink (1 ms to decode and deliver), status reports back
    /// after 500 µs; the loop runs in 50 µs steps. `drop(sn, nth transmission)` loses PDUs.
    struct Run {
        delivered: Vec<(u32, u32, Time)>,
        tx: AmTransmitter,
        statuses: usize,
    }

    fn run(sdus: &[u32], tb: u32, end_ms: u64, drop: impl Fn(u32, u32) -> bool) -> Run {
        let cfg = AmConfig::default();
        let (mut tx, mut rx) = (AmTransmitter::new(cfg), AmReceiver::new(cfg));
        for (i, &b) in sdus.iter().enumerate() {
            tx.enqueue(i as u32, b);
        }
        let (down, up) = (Time::from_millis(1), Time::from_micros(500));
        let mut to_rx: Vec<(Time, AmPdu)> = Vec::new();
        let mut to_tx: Vec<(Time, StatusPdu)> = Vec::new();
        let mut sends: std::collections::HashMap<u32, u32> = Default::default();
        let mut delivered = Vec::new();
        let mut statuses = 0;
        let step = Time::from_micros(50);
        let mut now = Time::ZERO;
        while now <= Time::from_millis(end_ms) {
            let (due, rest): (Vec<_>, Vec<_>) = to_rx.drain(..).partition(|(t, _)| *t <= now);
            to_rx = rest;
            for (_, p) in due {
                rx.on_pdu(now, p, |s, b| delivered.push((s, b, now)));
            }
            let (due, rest): (Vec<_>, Vec<_>) = to_tx.drain(..).partition(|(t, _)| *t <= now);
            to_tx = rest;
            for (_, s) in due {
                tx.on_status(&s);
            }
            rx.on_deadline(now);
            tx.on_deadline(now);
            if let Some(s) = rx.poll_status(now) {
                statuses += 1;
                to_tx.push((now + up, s));
            }
            if now.as_nanos() % 250_000 == 0 {
                if let Some(p) = tx.transmit(now, tb) {
                    let n = sends.entry(p.sn).or_insert(0);
                    *n += 1;
                    if !drop(p.sn, *n) {
                        to_rx.push((now + down, p));
                    }
                }
            }
            now += step;
        }
        Run {
            delivered,
            tx,
            statuses,
        }
    }

    #[test]
    fn sdus_are_segmented_to_the_tb_and_reassembled_whole_and_in_order() {
        // 1500-byte SDUs in 1004-byte TBs (1000 bytes of data): every PDU carries pieces.
        let sdus = vec![1500; 10];
        let mut tx = AmTransmitter::new(AmConfig::default());
        for (i, &b) in sdus.iter().enumerate() {
            tx.enqueue(i as u32, b);
        }
        let p = tx.transmit(Time::ZERO, 1004).unwrap();
        assert_eq!(p.bytes(), 1004);
        assert_eq!(
            p.segments,
            vec![SduSegment {
                sdu: 0,
                bytes: 1000,
                last: false
            }]
        );
        // The buffer counts untransmitted bytes only (txon), as ns3-mmwave reports it.
        assert_eq!(tx.txon_bytes(), 15_000 - 1000);
        let p = tx.transmit(Time::ZERO, 1004).unwrap();
        assert_eq!(p.segments.len(), 2);
        assert_eq!((p.segments[0].bytes, p.segments[0].last), (500, true));
        assert_eq!((p.segments[1].sdu, p.segments[1].bytes), (1, 500));
        let r = run(&sdus, 1004, 30, |_, _| false);
        let got: Vec<(u32, u32)> = r.delivered.iter().map(|&(s, b, _)| (s, b)).collect();
        assert_eq!(got, (0..10).map(|i| (i, 1500)).collect::<Vec<_>>());
        assert_eq!(r.tx.unacked_pdus(), 0, "all acknowledged");
        assert_eq!(r.tx.txon_bytes(), 0);
    }

    #[test]
    fn a_lost_pdu_is_nacked_after_t_reordering_and_retransmitted() {
        // 15 SDUs of 1000 bytes, one per PDU; PDU 3's first transmission is lost.
        let sdus = vec![1000; 15];
        let ok = run(&sdus, 1004, 40, |_, _| false);
        let lossy = run(&sdus, 1004, 40, |sn, n| sn == 3 && n == 1);
        let at = |r: &Run, s: u32| r.delivered.iter().find(|d| d.0 == s).unwrap().2;
        // Every SDU arrives once, in order, despite the loss.
        let order: Vec<u32> = lossy.delivered.iter().map(|d| d.0).collect();
        assert_eq!(order, (0..15).collect::<Vec<_>>());
        // SDU 3 waits for: PDU 4 revealing the hole (+250 µs), t-Reordering (2 ms), the
        // status report's uplink (500 µs), the retransmission's downlink (1 ms).
        let delay = at(&lossy, 3) - at(&ok, 3);
        assert!(
            delay >= Time::from_micros(3_500) && delay <= Time::from_micros(4_500),
            "{delay:?}"
        );
        // In-order delivery holds SDUs 4.. behind the hole: they leave together with 3.
        for s in 4..8 {
            assert!(at(&lossy, s) >= at(&lossy, 3), "SDU {s}");
            assert!(at(&lossy, s) > at(&ok, s) + Time::from_millis(2));
        }
        assert!(lossy.statuses > 0);
        assert_eq!(lossy.tx.unacked_pdus(), 0);
    }

    #[test]
    fn a_lost_last_pdu_is_recovered_by_t_poll_retransmit() {
        // The last PDU is lost: no later PDU reveals the hole, so the status reports do
        // not NACK it and only t-PollRetransmit (4 ms) brings it back.
        let sdus = vec![1000; 5];
        let ok = run(&sdus, 1004, 40, |_, _| false);
        let lossy = run(&sdus, 1004, 40, |sn, n| sn == 4 && n == 1);
        let at = |r: &Run, s: u32| r.delivered.iter().find(|d| d.0 == s).unwrap().2;
        let delay = at(&lossy, 4) - at(&ok, 4);
        assert!(
            delay >= Time::from_millis(4) && delay <= Time::from_millis(8),
            "{delay:?}"
        );
        assert_eq!(lossy.delivered.len(), 5);
    }

    #[test]
    fn status_reports_respect_t_status_prohibit() {
        // Every PDU polls, one TB per 250 µs: without the 1 ms prohibit there would be one
        // status per PDU; with it, at most one per ms.
        let sdus = vec![1000; 40];
        let r = run(&sdus, 1004, 30, |_, _| false);
        assert_eq!(r.delivered.len(), 40);
        assert!(r.statuses <= 12 && r.statuses >= 8, "{}", r.statuses);
    }

    #[test]
    fn a_pdu_lost_every_time_is_given_up_after_max_retx() {
        let sdus = vec![1000; 6];
        let r = run(&sdus, 1004, 200, |sn, _| sn == 2);
        assert_eq!(r.tx.abandoned, 1);
        // Reassembly stops at the hole: only SDUs 0 and 1 reach PDCP.
        assert_eq!(r.delivered.iter().map(|d| d.0).collect::<Vec<_>>(), [0, 1]);
    }
}

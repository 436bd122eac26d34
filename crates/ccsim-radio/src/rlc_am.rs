//! RLC acknowledged mode (TS 36.322 / TS 38.322 as ns-3 `LteRlcAm` implements it, with the
//! timers of the ns3-mmwave TCP examples, ANCHORS §1.1).
//!
//! Two parts:
//! - [`UnackedWindow`]: what the cell model keeps of RLC AM. SDUs sent over the air stay
//!   "transmitted, not yet acknowledged" until the UE's status report reaches the eNB. At a
//!   handover ns3-mmwave forwards them over X2 together with the untransmitted ones
//!   (`UeManager::ForwardRlcBuffers`: `GetTxedBuffer` + `GetRetxBuffer` →
//!   `RlcPdusToRlcSdus`), so the target sends them again and the UE gets duplicates.
//! - [`AmTransmitter`] and [`AmReceiver`]: a sans-IO RLC AM pair (segmentation to the TB size,
//!   sequence numbers, polling, status reports with NACKs, ARQ retransmission, in-order
//!   reassembly, the `t-PollRetransmit`, `t-Reordering` and `t-StatusProhibit` timers). The
//!   cell drives it per TB with `rlc.model = "entity"` ([`crate::am_link`]); the default
//!   `"delay"` model is the cell's abstraction of it.

pub use crate::rlc_am_segments::PduPart;
use crate::rlc_am_segments::{accept, PartialPdus};
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
        // Held packets released late (`rlc_held`) can leave an acknowledged entry behind a
        // later one: skip it.
        for &(p, _) in self.sent.iter().filter(|&&(_, a)| a > now) {
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
    /// ns3-mmwave's re-segmentation (`rlc.resegment_retx`, [`crate::rlc_am_segments`]): a
    /// retransmission too big for the TB goes out in PDU segments, and the UE ignores a whole
    /// PDU for an SN whose segment set is incomplete.
    pub resegment_retx: bool,
    /// NACKs per status report, 0 = all (`rlc.status_max_nacks`; ns3-mmwave: 1).
    pub status_max_nacks: u32,
}

impl Default for AmConfig {
    fn default() -> Self {
        AmConfig {
            poll_retransmit: Time::from_millis(4),
            reordering: Time::from_millis(2),
            status_prohibit: Time::from_millis(1),
            max_retx: 5,
            resegment_retx: false,
            status_max_nacks: 0,
        }
    }
}

/// A piece of an SDU inside a PDU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SduSegment {
    pub sdu: u32,
    pub bytes: u32,
    /// The whole SDU's size (to forward it whole at a handover).
    pub sdu_bytes: u32,
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
    /// A PDU segment of a retransmission (TS 36.322 §5.2.1 re-segmentation): `None` is the
    /// whole PDU.
    pub part: Option<PduPart>,
}

impl AmPdu {
    pub fn bytes(&self) -> u32 {
        match self.part {
            Some(p) => p.bytes + AM_HEADER_BYTES,
            None => self.data_bytes() + AM_HEADER_BYTES,
        }
    }

    /// The whole PDU's data bytes (all its SDU pieces).
    pub fn data_bytes(&self) -> u32 {
        self.segments.iter().map(|s| s.bytes).sum::<u32>()
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

/// AM_Window_Size (TS 36.322 §7.1: 512 for the 10-bit SN). The transmitter sends a new PDU only
/// while VT(S) < VT(MS) = VT(A) + 512 (§5.1.3.1.1), and the receiver discards a PDU outside
/// [VR(R), VR(MR) = VR(R) + 512) (§5.1.3.2.2). The seed 002 authors' tree hard-codes it
/// (`m_windowSize = 512`, lte-rlc-am.cc l. 70), so it is a constant, not a key. SNs here are
/// not reduced modulo 1024 (they count up from 0), so the window needs no modular comparison:
/// in the tree it is also what keeps the 10-bit SN unambiguous.
pub const AM_WINDOW_SIZE: u32 = 512;

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
    /// Data bytes of the retransmission at the head of `retx` already sent in segments.
    retx_sent: u32,
    poll_timer: Option<Time>,
    /// The SN that carried the last poll.
    poll_sn: u32,
    /// PDUs given up after `max_retx` retransmissions.
    pub abandoned: u64,
    /// Given-up PDUs not yet taken by [`AmTransmitter::take_abandoned`].
    given_up: Vec<AmPdu>,
    /// ARQ retransmissions sent.
    pub retransmissions: u64,
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
            given_up: Vec::new(),
            retransmissions: 0,
            retx_sent: 0,
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
    /// SDUs waiting for a first transmission.
    pub fn txon_sdus(&self) -> usize {
        self.txon.len()
    }
    /// Bytes a grant needs to empty the buffers: untransmitted data plus queued
    /// retransmissions, with one header.
    pub fn pending_bytes(&self) -> u64 {
        // The retransmission queue is short (NACKed PDUs): summed when asked.
        let retx: u64 = self
            .retx
            .iter()
            .filter_map(|sn| self.txed.get(sn))
            .map(|(p, _)| p.bytes() as u64)
            .sum();
        let data = self.txon_bytes + retx;
        if data == 0 {
            0
        } else {
            data + AM_HEADER_BYTES as u64
        }
    }

    /// Puts an SDU at the head of the transmission buffer, behind a partly sent head (an SDU
    /// forwarded again at a handover goes before the untransmitted ones).
    pub fn push_front(&mut self, sdu: u32, bytes: u32) {
        let at = usize::from(self.head_sent > 0).min(self.txon.len());
        self.txon.insert(at, (sdu, bytes));
        self.txon_bytes += bytes as u64;
    }

    /// Hands the PDUs given up since the last call to `f`.
    pub fn take_abandoned(&mut self, mut f: impl FnMut(AmPdu)) {
        for p in self.given_up.drain(..) {
            f(p);
        }
    }

    /// Empties the entity for a handover (ns3-mmwave `ForwardRlcBuffers`). SDUs whose last
    /// piece is in an unacknowledged PDU below `delivered_below` (the receiver's VR(R): the UE
    /// already has them) go to `resend`; the others (unacknowledged, retransmission queue,
    /// then the transmission buffer) go whole, once, oldest first, to `forward` as
    /// `(sdu, bytes)`.
    pub fn drain_for_handover(
        &mut self,
        delivered_below: u32,
        mut resend: impl FnMut(u32),
        mut forward: impl FnMut(u32, u32),
    ) {
        let mut last_forwarded = None;
        for (&sn, (pdu, _)) in &self.txed {
            for seg in &pdu.segments {
                if sn < delivered_below {
                    if seg.last {
                        resend(seg.sdu);
                    }
                } else if last_forwarded != Some(seg.sdu) {
                    forward(seg.sdu, seg.sdu_bytes);
                    last_forwarded = Some(seg.sdu);
                }
            }
        }
        for &(sdu, bytes) in &self.txon {
            if last_forwarded != Some(sdu) {
                forward(sdu, bytes);
            }
        }
        *self = AmTransmitter::new(self.cfg);
    }

    /// A transmission opportunity of `tb_bytes`: a retransmission first if one is queued
    /// and fits whole (ns-3 `TxOpportunityForRetxAlwaysBigEnough`), else new data
    /// segmented to the TB. Every PDU polls (`PollPdu` = 1 in ns-3), which starts
    /// `t-PollRetransmit`.
    pub fn transmit(&mut self, now: Time, tb_bytes: u32) -> Option<AmPdu> {
        if let Some(&sn) = self.retx.front() {
            if self.cfg.resegment_retx && self.txed.contains_key(&sn) {
                return self.transmit_retx_part(now, sn, tb_bytes);
            }
            if let Some((pdu, _)) = self.txed.get(&sn) {
                if pdu.bytes() <= tb_bytes {
                    self.retx.pop_front();
                    self.retransmissions += 1;
                    let mut pdu = pdu.clone();
                    pdu.poll = true;
                    self.arm_poll(now);
                    return Some(pdu);
                }
            } else {
                self.retx.pop_front(); // acknowledged or given up meanwhile
                self.retx_sent = 0;
                return self.transmit(now, tb_bytes);
            }
        }
        // A full window holds back new data only; the retransmissions above are not checked
        // (lte-rlc-am.cc l. 687-691 and 712-715 guard the new-PDU path alone).
        if self.txon.is_empty() || tb_bytes <= AM_HEADER_BYTES || self.window_full() {
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
                sdu_bytes: size,
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
            part: None,
        };
        self.txed.insert(sn, (pdu.clone(), 0));
        self.arm_poll(now);
        Some(pdu)
    }

    /// ns3-mmwave's retransmission (`LteRlcAm::DoNotifyTxOpportunity`, lte-rlc-am.cc l.
    /// 448-640 of the seed 002 authors' tree): the queued PDU goes first, whole if the rest of
    /// it fits the TB (the last segment if some was sent already), else as a segment of the
    /// TB's size; no new data while a retransmission waits.
    fn transmit_retx_part(&mut self, now: Time, sn: u32, tb_bytes: u32) -> Option<AmPdu> {
        let (pdu, _) = self.txed.get(&sn)?;
        let total = pdu.data_bytes();
        let left = total - self.retx_sent;
        if tb_bytes <= AM_HEADER_BYTES {
            return None;
        }
        let mut out = pdu.clone();
        out.poll = true;
        if left + AM_HEADER_BYTES <= tb_bytes {
            out.part = (self.retx_sent > 0).then_some(PduPart {
                offset: self.retx_sent,
                bytes: left,
                last: true,
            });
            self.retx.pop_front();
            self.retx_sent = 0;
            self.retransmissions += 1;
        } else {
            let n = tb_bytes - AM_HEADER_BYTES;
            out.part = Some(PduPart {
                offset: self.retx_sent,
                bytes: n,
                last: false,
            });
            self.retx_sent += n;
        }
        self.arm_poll(now);
        Some(out)
    }

    /// POLL_SN is the highest SN sent, also when the poll rides on a retransmission (VT(S) − 1,
    /// TS 36.322 §5.2.2.1; lte-rlc-am.cc l. 482, 573, 1058): a status that acknowledges a
    /// retransmitted SN must not stop the timer while a newer PDU is unacknowledged.
    fn arm_poll(&mut self, now: Time) {
        self.poll_sn = self.next_sn.saturating_sub(1);
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
            if self.retx.front() == Some(&sn) {
                self.retx_sent = 0;
            }
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
                if let Some((pdu, _)) = self.txed.remove(&sn) {
                    self.given_up.push(pdu);
                }
                self.abandoned += 1;
            } else {
                self.retx.push_back(sn);
            }
        }
    }

    pub fn next_deadline(&self) -> Option<Time> {
        self.poll_timer
    }

    /// `t-PollRetransmit` expiry: no status came back for the last poll. TS 36.322 §5.2.2.3
    /// retransmits only when nothing else would carry a poll (both buffers empty) or nothing
    /// new may go (window stall), and then asks for one PDU: VT(S) − 1 or any unacknowledged
    /// one. The seed 002 authors' tree (`ExpirePollRetransmitTimer`, lte-rlc-am.cc l.
    /// 2812-2893) takes the same two conditions but queues *every* PDU of its transmitted
    /// buffer, VT(A) to VT(S) − 1 in SN order (l. 2837-2852): those already waiting in its
    /// retransmission buffer (NACKed, or partly sent in segments) are not in that buffer and
    /// stay as they are; the entity follows the tree. With data left it queues nothing: its
    /// next PDU carries the poll (l. 2822, 475) and restarts the timer, as every PDU polls here.
    pub fn on_deadline(&mut self, now: Time) {
        if self.poll_timer.is_some_and(|t| t <= now) {
            self.poll_timer = None;
            // The tree's test (l. 2828-2829): its RLC buffer (txon buffer + queue) and its
            // retransmission buffer empty, or VT(S) = VT(MS).
            let buffers_empty = self.txon.is_empty() && !self.retx_pending();
            if buffers_empty || self.window_full() {
                // SN order, as the tree's loop; `consider_for_retx` skips SNs already queued
                // (not in the tree's transmitted buffer either). It counts RETX_COUNT as
                // TS 36.322 §5.2.1 does on every consideration (the tree copies the count and
                // counts at transmission, l. 516, and never gives a PDU up).
                let unacked: Vec<u32> = self.txed.keys().copied().collect();
                for sn in unacked {
                    self.consider_for_retx(sn);
                }
            }
        }
    }

    /// A queued retransmission of a PDU still unacknowledged (the queue may hold SNs
    /// acknowledged or given up since: `transmit` drops them when it reaches them).
    fn retx_pending(&self) -> bool {
        self.retx.iter().any(|sn| self.txed.contains_key(sn))
    }

    /// VT(A): the lowest SN not yet acknowledged (VT(S) if none). A status moves it up to its
    /// first NACK or its ACK_SN, and VT(MS) with it (lte-rlc-am.cc l. 2123-2199: no increment
    /// past a NACKed SN, l. 2139; VT(MS) = VT(A) + 512, l. 2196). A PDU given up after
    /// `max_retx` leaves `txed` too (the tree never gives one up, l. 518).
    fn vt_a(&self) -> u32 {
        self.txed.keys().next().copied().unwrap_or(self.next_sn)
    }

    /// VT(S) has reached VT(MS) = VT(A) + [`AM_WINDOW_SIZE`]: no new PDU until a status report
    /// moves VT(A) (TS 36.322 §5.1.3.1.1). The buffer still counts as data to send, as the
    /// tree's buffer status report counts its transmission buffer whatever the window
    /// (`DoReportBufferStatus`, l. 2720): the scheduler keeps granting TBs that carry
    /// nothing, as the tree's "window stalling" TBs (l. 689).
    pub fn window_full(&self) -> bool {
        self.next_sn >= self.vt_a() + AM_WINDOW_SIZE
    }

    /// Something to send (new data or a retransmission).
    pub fn has_data(&self) -> bool {
        !self.txon.is_empty() || !self.retx.is_empty()
    }

    /// VT(A) (the lowest unacknowledged SN, VT(S) if none), VT(S) and the retransmission
    /// queue's length: the debug trace's view (`crate::rlc_trace`).
    pub fn state(&self) -> (u32, u32, usize) {
        (self.vt_a(), self.next_sn, self.retx.len())
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
    /// Received PDUs above VR(R), and given-up ones (`false`: their SDUs are lost).
    received: std::collections::BTreeMap<u32, (AmPdu, bool)>,
    reordering_timer: Option<Time>,
    prohibit_until: Time,
    status_pending: bool,
    /// Bytes of the SDU being reassembled.
    partial: u32,
    /// A piece of the SDU being reassembled was given up: it is lost.
    partial_broken: bool,
    /// Incomplete PDU segment sets (`resegment_retx`).
    segments: PartialPdus,
    /// Whole PDUs ignored because their SN held an incomplete segment set (`resegment_retx`).
    pub ignored_whole: u64,
    /// PDUs discarded at or above VR(MR) (outside the receiving window).
    pub outside_window: u64,
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
            partial_broken: false,
            segments: PartialPdus::new(),
            ignored_whole: 0,
            outside_window: 0,
        }
    }

    /// A data PDU from the air. Complete SDUs that are now in order go to `deliver` (id,
    /// bytes, `true`); duplicates and PDUs outside the receiving window are discarded. Its
    /// poll counts either way (the tree reads the poll bit before the window check,
    /// lte-rlc-am.cc l. 1871-1880 and 1902-1906).
    pub fn on_pdu(&mut self, now: Time, pdu: AmPdu, deliver: impl FnMut(u32, u32, bool)) {
        if pdu.poll {
            self.status_pending = true;
        }
        if !self.in_window(pdu.sn) {
            self.outside_window += 1;
            return;
        }
        self.insert(now, pdu, true, deliver);
    }

    /// VR(R) <= `sn` < VR(MR) = VR(R) + [`AM_WINDOW_SIZE`] (TS 36.322 §5.1.3.2.2;
    /// `IsInsideReceivingWindow`, lte-rlc-am.cc l. 2219-2235). Below VR(R) is a duplicate,
    /// dropped by `insert` as before.
    fn in_window(&self, sn: u32) -> bool {
        sn < self.vr_r + AM_WINDOW_SIZE
    }

    /// A PDU the transmitter gave up after `max_retx` (in ns-3 the receiver would wait for it
    /// forever; here it becomes a gap): the SDUs with a piece in it reach `deliver` with
    /// `false` when reassembly gets there, so the caller can count them lost. Not subject to
    /// the receiving window: it is ccsim's notice of the gap, not a PDU from the air.
    pub fn on_abandoned(&mut self, now: Time, pdu: AmPdu, deliver: impl FnMut(u32, u32, bool)) {
        self.insert(now, pdu, false, deliver);
    }

    /// The SDUs with a piece in a PDU held above VR(R) (received or given up, not yet
    /// reassembled), in SN order: what the UE's entity takes with it when it is discarded.
    pub fn held_sdus(&self, mut f: impl FnMut(u32)) {
        for (pdu, _) in self.received.values() {
            for seg in &pdu.segments {
                f(seg.sdu);
            }
        }
    }

    /// PDUs received above VR(R), waiting for the hole below them (the tree's `rxon_sns`).
    pub fn held_pdus(&self) -> usize {
        self.received.len()
    }

    /// VR(R): every PDU below it has been reassembled and its complete SDUs delivered.
    pub fn vr_r(&self) -> u32 {
        self.vr_r
    }

    /// VR(R), VR(MS), VR(H) and the PDUs held above VR(R): the debug trace's view.
    pub fn state(&self) -> (u32, u32, u32, usize) {
        (self.vr_r, self.vr_ms, self.vr_h, self.received.len())
    }

    /// `t-Reordering` is due by `now` (the debug trace).
    pub fn reordering_due(&self, now: Time) -> bool {
        self.reordering_timer.is_some_and(|t| t <= now)
    }

    /// What [`AmReceiver::on_pdu`] will do with `pdu` (the debug trace's `rx_<how>`), read
    /// from the state before it; mirrors [`crate::rlc_am_segments::accept`].
    pub fn classify(&self, pdu: &AmPdu) -> &'static str {
        let sn = pdu.sn;
        if sn < self.vr_r {
            return "old";
        }
        if !self.in_window(sn) {
            return "outside_window";
        }
        if self.received.contains_key(&sn) {
            return "dup";
        }
        if !self.cfg.resegment_retx {
            return "whole";
        }
        match (self.segments.get(&sn), pdu.part) {
            (Some(_), None) => "ignored_whole",
            (Some((_, got)), Some(p)) if p.offset == *got => {
                if p.last {
                    "seg_complete"
                } else {
                    "seg_next"
                }
            }
            (Some(_), Some(_)) => "seg_discards_set",
            (None, None) => "whole",
            (None, Some(p)) if p.offset == 0 && !p.last => "seg_first",
            (None, Some(p)) if p.offset == 0 => "whole_as_seg",
            (None, Some(_)) => "seg_ignored",
        }
    }

    fn insert(&mut self, now: Time, pdu: AmPdu, ok: bool, mut deliver: impl FnMut(u32, u32, bool)) {
        let sn = pdu.sn;
        if sn < self.vr_r || self.received.contains_key(&sn) {
            return;
        }
        self.vr_h = self.vr_h.max(sn + 1);
        let whole = if self.cfg.resegment_retx && ok {
            self.ignored_whole += u64::from(pdu.part.is_none() && self.segments.contains_key(&sn));
            accept(&mut self.segments, pdu)
        } else {
            self.segments.remove(&sn);
            Some(pdu)
        };
        if let Some(pdu) = whole {
            self.received.insert(sn, (pdu, ok));
        }
        // In-order PDUs are reassembled and delivered at once.
        while let Some((p, ok)) = self.received.remove(&self.vr_r) {
            for s in &p.segments {
                self.partial += s.bytes;
                self.partial_broken |= !ok;
                if s.last {
                    deliver(s.sdu, self.partial, !self.partial_broken);
                    self.partial = 0;
                    self.partial_broken = false;
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
        let missing = |sn: &u32| !self.received.contains_key(sn);
        let limit = match self.cfg.status_max_nacks {
            0 => usize::MAX,
            n => n as usize,
        };
        let nacks: Vec<u32> = (self.vr_r..self.vr_ms)
            .filter(missing)
            .take(limit)
            .collect();
        // With the NACKs cut short, ACK_SN is the first SN after the last NACK still missing
        // (ns3-mmwave, lte-rlc-am.cc l. 367-380): the holes above it are neither NACKed nor
        // acknowledged.
        let ack_sn = match nacks.last() {
            Some(&last) if nacks.len() == limit => {
                (last + 1..self.vr_ms).find(missing).unwrap_or(self.vr_ms)
            }
            _ => self.vr_ms,
        };
        Some(StatusPdu { ack_sn, nacks })
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
#[path = "rlc_am_tests.rs"]
mod tests;

//! Per-UE RLC transmit buffer and the HARQ/ARQ retransmission model.
//!
//! **Buffer.** RLC AM/UM transmit buffer in bytes with drop-tail admission, as ns-3's
//! `LteRlcAm::MaxTxBufferSize` / `LteRlcUm::MaxTxBufferSize` (ANCHORS §1.1: 20 MiB in the
//! ns3-mmwave TCP examples; seed 000 finds 7 MB optimal; seed 002 sweeps 2–40 MB). Occupancy
//! counts bytes not yet sent over the air; a packet partly sent (RLC segmentation) keeps its
//! unsent bytes in the buffer.
//!
//! **HARQ/ARQ as delay.** Each transport block (TB) is transmitted up to `max_attempts` times by
//! HARQ; attempt 1 fails with probability `bler` (the 10 % BLER target of the CQI choice,
//! TS 38.214 §5.2.2.1), later attempts with `retx_bler`, independently. A failed attempt costs
//! one HARQ round trip and is re-sent on the same resources (which the cell reserves). When all
//! HARQ attempts fail, RLC AM retransmits after `retx_delay` (status report + retransmission,
//! default the 4 ms `PollRetransmitTimer` of the ns3-mmwave examples, ANCHORS §1.1) with a new
//! HARQ round, up to `max_retx` times, after which the data is lost; RLC UM loses it at once.
//! Independently, a delivered TB is lost with `residual_loss` (0 by default). TCP therefore
//! mostly sees added delay, as with ns3-mmwave's HARQ + RLC AM.

use ccsim_core::{RngStream, Time};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// RLC mode (ns-3 `LteEnbRrc::EpsBearerToRlcMapping`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RlcMode {
    /// Acknowledged mode: ARQ retransmissions, in-sequence delivery.
    Am,
    /// Unacknowledged mode: no ARQ, data lost when HARQ gives up.
    Um,
}

/// How the cell models RLC (the `rlc.model` key).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RlcModel {
    /// ARQ as delay: a TB's HARQ/ARQ fate and delay are drawn when it is sent (this module).
    /// Fast; the default.
    #[default]
    Delay,
    /// The RLC AM entity of [`crate::rlc_am`] per UE: PDUs segmented to the TB size, status
    /// reports over the uplink, `t-PollRetransmit` / `t-Reordering` / `t-StatusProhibit`
    /// ([`crate::am_link`]). AM only.
    Entity,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RlcConfig {
    /// Acknowledged (AM) or unacknowledged (UM) mode.
    #[serde(default = "default_mode")]
    pub mode: RlcMode,
    /// `"delay"` (ARQ as delay, the fast default) or `"entity"` (the RLC AM entity per TB).
    #[serde(default)]
    pub model: RlcModel,
    /// `t-Reordering` (µs) of the `"entity"` model: 2 ms in the ns3-mmwave TCP examples.
    #[serde(default = "default_reordering")]
    pub reordering_us: u64,
    /// Transmit buffer per UE (bytes), drop-tail; 20 MiB as the ns3-mmwave TCP examples.
    #[serde(default = "default_buffer")]
    pub buffer_bytes: u64,
    /// Delay of one RLC AM retransmission (µs); 4 ms `PollRetransmitTimer`.
    #[serde(default = "default_retx_delay")]
    pub retx_delay_us: u64,
    /// RLC AM retransmissions before the data is declared lost (`maxRetxThreshold`).
    #[serde(default = "default_max_retx")]
    pub max_retx: u32,
    /// Probability that a TB is lost despite HARQ/ARQ (residual loss seen by TCP).
    #[serde(default)]
    pub residual_loss: f64,
    /// `t-StatusProhibit` (µs): 1 ms in the ns3-mmwave TCP examples (10 ms in
    /// `mc-twoenbs.cc`). With `PollPdu` = 1 (ns-3 `LteRlcAm`) every PDU polls, so a status
    /// report leaves at most this long after the data arrives.
    #[serde(default = "default_status_prohibit")]
    pub status_prohibit_us: u64,
    /// RLC AM: at a handover also forward the SDUs sent but not yet acknowledged by a status
    /// report, which the UE then receives twice (ns3-mmwave `ForwardRlcBuffers`; see
    /// [`crate::rlc_am`]). Off: only the untransmitted SDUs move.
    #[serde(default = "default_forward_unacked")]
    pub forward_unacked: bool,
    /// `"entity"` model, ns3-mmwave's re-segmentation ([`crate::rlc_am_segments`]): a
    /// retransmission that does not fit the TB goes out in PDU segments (and before new data),
    /// and the UE ignores a whole PDU for an SN whose segment set is incomplete, which can hold
    /// the window for hundreds of ms. The tree never gives a PDU up (`maxRetxThreshold` only
    /// logs, lte-rlc-am.cc l. 518), so pair it with a large `max_retx`. Off: a retransmission
    /// waits for a TB it fits whole.
    #[serde(default)]
    pub resegment_retx: bool,
    /// `"entity"` model: NACKs a status report carries at most; 0 = every hole below VR(MS)
    /// (TS 36.322). ns3-mmwave's is 1: the UE's RLC reports a 4-byte status PDU in its buffer
    /// status (`lte-rlc-am.cc` l. 1874, 2741), its MAC grants the status exactly that
    /// (`mmwave-ue-mac.cc` l. 757, 780), and the NACK loop stops when one more NACK would not
    /// fit (l. 352-356; `lte-rlc-am-header.cc` l. 216-228: a 2-byte header, 2 bytes for the
    /// first NACK), ACK_SN then being the next SN still missing (l. 367-380). So each report
    /// repairs one hole and acknowledges the PDUs up to the next one, and a hole waits one
    /// `t-StatusProhibit` per hole below it.
    #[serde(default)]
    pub status_max_nacks: u32,
}

fn default_reordering() -> u64 {
    2_000
}
fn default_status_prohibit() -> u64 {
    1_000
}
fn default_forward_unacked() -> bool {
    true
}

fn default_mode() -> RlcMode {
    RlcMode::Am
}
fn default_buffer() -> u64 {
    20 * 1024 * 1024
}
fn default_retx_delay() -> u64 {
    4_000
}
fn default_max_retx() -> u32 {
    4
}

impl Default for RlcConfig {
    fn default() -> Self {
        RlcConfig {
            mode: default_mode(),
            model: RlcModel::Delay,
            reordering_us: default_reordering(),
            buffer_bytes: default_buffer(),
            retx_delay_us: default_retx_delay(),
            max_retx: default_max_retx(),
            residual_loss: 0.0,
            status_prohibit_us: default_status_prohibit(),
            forward_unacked: default_forward_unacked(),
            resegment_retx: false,
            status_max_nacks: 0,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HarqConfig {
    /// HARQ on (ns3-mmwave `HarqEnabled` = true). Off: every TB succeeds at once.
    #[serde(default = "default_true")]
    pub enabled: bool,
    /// Block error rate of a first transmission (the 10 % CQI target).
    #[serde(default = "default_bler")]
    pub bler: f64,
    /// Block error rate of a retransmission.
    #[serde(default = "default_bler")]
    pub retx_bler: f64,
    /// Transmissions per HARQ round (first + retransmissions).
    #[serde(default = "default_attempts")]
    pub max_attempts: u32,
    /// HARQ round trip in slots: NACK feedback plus the L1/L2 latency of 2 slots
    /// (`m_L1L2Latency`, ANCHORS §1.1) plus the transmission and decoding slot (assumption: 4).
    #[serde(default = "default_rtt_slots")]
    pub rtt_slots: u32,
    /// TB decoding latency at the UE (µs); `TbDecodeLatency` 100 µs (ns3-mmwave default).
    #[serde(default = "default_decode")]
    pub decode_latency_us: u64,
    /// A TB's attempts drawn when it is sent (`"per_tb"`), or per-UE HARQ processes driven by
    /// feedback as ns3-mmwave's scheduler runs them (`"processes"`, [`crate::harq_processes`]).
    #[serde(default)]
    pub model: HarqModel,
    /// Processes per UE (`NumHarqProcess` 20) and slots after its last new TB at which a busy
    /// process is freed (`HarqDlTimeout` 20); `"processes"` only.
    #[serde(default = "default_processes")]
    pub processes: u32,
    #[serde(default = "default_processes")]
    pub timeout_slots: u32,
    /// Times the UE sends each feedback (the seed 002 tree: 2); `"processes"` only.
    #[serde(default = "default_copies")]
    pub feedback_copies: u32,
}

/// How the cell runs HARQ (the `harq.model` key).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HarqModel {
    /// Each TB's attempts and delay drawn when it is first sent: fast, the default.
    #[default]
    PerTb,
    /// Per-UE stop-and-wait processes and their feedback (needs `rlc.model = "entity"`).
    Processes,
}

fn default_processes() -> u32 {
    20
}
fn default_copies() -> u32 {
    1
}

fn default_true() -> bool {
    true
}
fn default_bler() -> f64 {
    0.1
}
fn default_attempts() -> u32 {
    4
}
fn default_rtt_slots() -> u32 {
    4
}
fn default_decode() -> u64 {
    100
}

impl Default for HarqConfig {
    fn default() -> Self {
        HarqConfig {
            enabled: true,
            bler: default_bler(),
            retx_bler: default_bler(),
            max_attempts: default_attempts(),
            rtt_slots: default_rtt_slots(),
            decode_latency_us: default_decode(),
            model: HarqModel::PerTb,
            processes: default_processes(),
            timeout_slots: default_processes(),
            feedback_copies: default_copies(),
        }
    }
}

/// What happened to one transport block, drawn when it is first sent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TbOutcome {
    /// Over-the-air transmissions in total (≥ 1).
    pub transmissions: u32,
    /// RLC AM retransmission rounds.
    pub rlc_retx: u32,
    /// The data never arrives.
    pub lost: bool,
    /// Delay beyond the first attempt's decoding (HARQ round trips + RLC retransmission delays).
    pub extra_delay: Time,
}

/// One transmission attempt of a TB, as the decode model sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attempt {
    /// Time from the TB's first transmission.
    pub offset: Time,
    /// 1 for the first transmission of a HARQ round (a fresh start: nothing to combine with).
    pub in_round: u32,
    /// RLC retransmission rounds before this one.
    pub rlc_round: u32,
}

/// The HARQ/ARQ retry loop shared by every TB model: attempt `k` fails with probability
/// `fail_prob(attempt)` (one Bernoulli draw per attempt, in order); a failed attempt is
/// retransmitted one HARQ `rtt` later up to `max_attempts` per round, then RLC retransmits
/// after `rlc.retx_delay_us` with a fresh round, up to `arq_rounds` times, after which the TB
/// is lost. `on_resend(offset)` is called for each retransmission. A decoded TB then meets
/// `rlc.residual_loss` (one more draw when > 0).
pub fn retry_tb(
    rng: &mut RngStream,
    rtt: Time,
    max_attempts: u32,
    arq_rounds: u32,
    rlc: &RlcConfig,
    mut fail_prob: impl FnMut(Attempt) -> f64,
    mut on_resend: impl FnMut(Time),
) -> TbOutcome {
    let mut out = TbOutcome {
        transmissions: 1,
        ..TbOutcome::default()
    };
    let rlc_delay = Time::from_micros(rlc.retx_delay_us);
    let mut attempt = Attempt {
        offset: Time::ZERO,
        in_round: 1,
        rlc_round: 0,
    };
    loop {
        if !rng.bernoulli(fail_prob(attempt)) {
            break; // decoded
        }
        if attempt.in_round < max_attempts.max(1) {
            attempt.in_round += 1;
            attempt.offset += rtt;
        } else {
            // HARQ gave up: RLC AM retransmits, UM (or AM past max_retx) loses the data.
            if out.rlc_retx >= arq_rounds {
                out.lost = true;
                break;
            }
            out.rlc_retx += 1;
            attempt.rlc_round = out.rlc_retx;
            attempt.in_round = 1;
            attempt.offset += rlc_delay;
        }
        out.transmissions += 1;
        on_resend(attempt.offset);
    }
    out.extra_delay = attempt.offset;
    residual_loss(rng, rlc, &mut out);
    out
}

/// RLC retransmission rounds the delay model allows: none in UM.
pub fn arq_rounds(rlc: &RlcConfig) -> u32 {
    match rlc.mode {
        RlcMode::Um => 0,
        RlcMode::Am => rlc.max_retx,
    }
}

fn residual_loss(rng: &mut RngStream, rlc: &RlcConfig, out: &mut TbOutcome) {
    if !out.lost && rlc.residual_loss > 0.0 && rng.bernoulli(rlc.residual_loss) {
        out.lost = true;
    }
}

/// The HARQ round trip: `rtt_slots` slots.
pub fn harq_rtt(harq: &HarqConfig, slot: Time) -> Time {
    Time(slot.as_nanos() * harq.rtt_slots.max(1) as u64)
}

/// Draws a TB's fate with fixed block error rates: `bler` for the very first transmission,
/// `retx_bler` for every later one. `on_resend(offset)` is called for each retransmission
/// with its time offset from the first transmission, so the caller can reserve resources.
pub fn draw_tb_outcome(
    rng: &mut RngStream,
    harq: &HarqConfig,
    rlc: &RlcConfig,
    slot: Time,
    on_resend: impl FnMut(Time),
) -> TbOutcome {
    if !harq.enabled {
        let mut out = TbOutcome {
            transmissions: 1,
            ..TbOutcome::default()
        };
        residual_loss(rng, rlc, &mut out);
        return out;
    }
    let first = |a: Attempt| a.in_round == 1 && a.rlc_round == 0;
    retry_tb(
        rng,
        harq_rtt(harq, slot),
        harq.max_attempts,
        arq_rounds(rlc),
        rlc,
        |a| if first(a) { harq.bler } else { harq.retx_bler },
        on_resend,
    )
}

/// One piece of a packet taken from the buffer for a TB.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    pub packet: u32,
    pub bytes: u32,
    /// This segment holds the packet's first byte.
    pub first: bool,
    /// This segment holds the packet's last byte: the packet is complete once its TBs arrive.
    pub last: bool,
}

/// How a packet fared at the RLC buffer's drop-tail admission.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RlcAdmission {
    Accepted,
    Dropped,
}

/// One packet (RLC SDU) in the buffer. An IPv4 fragment (from a wired link with an `mtu`) is
/// an SDU of its own, admitted or dropped alone, as ns-3's `LteRlcAm::DoTransmitPdcpPdu` does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Sdu {
    packet: u32,
    bytes: u32,
}

/// Per-UE RLC transmit buffer: a FIFO of packets with drop-tail admission.
#[derive(Clone, Debug)]
pub struct RlcBuffer {
    queue: VecDeque<Sdu>,
    limit_bytes: u64,
    /// Unsent bytes (the head packet counts only its unsent part).
    bytes: u64,
    /// Bytes of the head packet already sent.
    head_sent: u32,
    /// Packets that lost at least one fragment (whole drops included).
    pub drops: u64,
    pub dropped_bytes: u64,
    pub max_bytes: u64,
}

impl RlcBuffer {
    pub fn new(limit_bytes: u64) -> Self {
        RlcBuffer {
            queue: VecDeque::with_capacity((limit_bytes / 1500).clamp(16, 1 << 15) as usize),
            limit_bytes,
            bytes: 0,
            head_sent: 0,
            drops: 0,
            dropped_bytes: 0,
            max_bytes: 0,
        }
    }

    pub fn limit_bytes(&self) -> u64 {
        self.limit_bytes
    }
    /// Unsent bytes in the buffer.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }
    pub fn packets(&self) -> usize {
        self.queue.len()
    }
    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    /// The head packet has been partly sent (its first segments are in earlier TBs).
    pub fn head_partly_sent(&self) -> bool {
        self.head_sent > 0
    }

    /// Drop-tail admission of a packet of `bytes` (IP) bytes.
    #[inline]
    pub fn enqueue(&mut self, packet: u32, bytes: u32) -> RlcAdmission {
        if self.bytes + bytes as u64 > self.limit_bytes {
            self.drops += 1;
            self.dropped_bytes += bytes as u64;
            return RlcAdmission::Dropped;
        }
        self.queue.push_back(Sdu { packet, bytes });
        self.bytes += bytes as u64;
        self.max_bytes = self.max_bytes.max(self.bytes);
        RlcAdmission::Accepted
    }

    /// Takes up to `budget` bytes from the head, segmenting the last packet if needed, and
    /// reports each piece to `f`. Returns the bytes taken.
    ///
    /// One pass over the queue's two slices, then one `drain` of the packets taken whole: a
    /// TB carries ~12 packets, and a `pop_front` each was most of this loop's cost.
    pub fn take(&mut self, budget: u64, mut f: impl FnMut(Segment)) -> u64 {
        let mut left = budget;
        let mut head_sent = self.head_sent;
        let mut whole = 0;
        let (a, b) = self.queue.as_slices();
        'tb: for part in [a, b] {
            for &Sdu { packet, bytes } in part {
                if left == 0 {
                    break 'tb;
                }
                let rest = (bytes - head_sent) as u64;
                let first = head_sent == 0;
                if rest > left {
                    // The TB ends inside this packet: RLC segmentation.
                    f(Segment {
                        packet,
                        bytes: left as u32,
                        first,
                        last: false,
                    });
                    head_sent += left as u32;
                    left = 0;
                    break 'tb;
                }
                f(Segment {
                    packet,
                    bytes: rest as u32,
                    first,
                    last: true,
                });
                left -= rest;
                head_sent = 0;
                whole += 1;
            }
        }
        self.queue.drain(..whole);
        self.head_sent = head_sent;
        let taken = budget - left;
        self.bytes -= taken;
        taken
    }

    /// Puts `packet` at the head (before any untouched packet), e.g. an SDU forwarded again
    /// at a handover, which ns3-mmwave sends before the untransmitted ones. Drop-tail
    /// admission applies.
    pub fn push_front(&mut self, packet: u32, bytes: u32) -> RlcAdmission {
        if self.bytes + bytes as u64 > self.limit_bytes {
            self.drops += 1;
            self.dropped_bytes += bytes as u64;
            return RlcAdmission::Dropped;
        }
        let sdu = Sdu { packet, bytes };
        if self.head_sent > 0 {
            self.queue.insert(1, sdu);
        } else {
            self.queue.push_front(sdu);
        }
        self.bytes += bytes as u64;
        self.max_bytes = self.max_bytes.max(self.bytes);
        RlcAdmission::Accepted
    }

    /// Removes every packet (oldest first) as `(packet, bytes)`, e.g. for X2 forwarding at
    /// handover. A partly sent head packet is handed over whole (PDCP forwards whole SDUs).
    pub fn drain(&mut self, mut f: impl FnMut(u32, u32)) {
        while let Some(sdu) = self.queue.pop_front() {
            f(sdu.packet, sdu.bytes);
        }
        self.bytes = 0;
        self.head_sent = 0;
    }
}

#[cfg(test)]
#[path = "rlc_tests.rs"]
mod tests;

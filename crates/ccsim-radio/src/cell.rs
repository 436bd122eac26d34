//! A sans-IO downlink cell: per-UE RLC buffers, a MAC scheduler per slot, HARQ/RLC delays.
//!
//! The cell never reads a clock. The caller (the RAN, or the world directly for a single cell)
//! enqueues packets with `now`, asks [`Cell::next_deadline`] for the next slot boundary at which
//! there is work, and calls [`Cell::poll`] at (or after) that time. Each processed slot:
//! 1. capacity = resource units per slot minus the units reserved by earlier HARQ/RLC
//!    retransmissions landing in this slot;
//! 2. the scheduler splits it among attached, available UEs with data and a usable channel;
//! 3. each grant becomes a transport block (TB) of `⌊units·SE/8⌋` bytes taken from the UE's RLC
//!    buffer (segmenting packets); the TB's fate is drawn at once ([`crate::rlc::draw_tb_outcome`]) and its
//!    retransmissions reserve the same units `k·RTT` later;
//! 4. a packet whose last byte is in the TB is complete when all its TBs are decoded:
//!    `slot start + slot + scheduling latency + decode latency + HARQ/RLC extra delay`, and RLC
//!    delivers in sequence (`deliver_at = max(complete, previous delivery)`, TS 38.322 / ns-3
//!    `LteRlcAm` in-order reassembly). Lost packets are reported too, so the caller can free them.
//!
//! A packet arriving during a slot can be sent from the next slot boundary on. Slots without
//! work produce no deadline, so an idle cell costs nothing.

use crate::am_link::{am_config, AmLink};
use crate::amc::FrameConfig;
pub use crate::cell_config::CellConfig;
use crate::fading::FadingProcess;
use crate::link_adaptation::McsTable;
use crate::rlc::{RlcAdmission, RlcBuffer, RlcConfig, RlcMode, RlcModel};
use crate::rlc_am::UnackedWindow;
use crate::rlc_held::HeldSdus;
use crate::scheduler::{Demand, Scheduler};
use ccsim_core::{RngStream, Time};

/// Reservation ring length: retransmissions further ahead than this many slots are not
/// reserved (their delay is still applied).
const RESERVATION_SLOTS: usize = 4096;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Admission {
    Accepted,
    /// The RLC buffer was full (counted as a drop).
    Dropped,
}

/// Why a packet handed to the radio did not arrive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LossReason {
    /// HARQ and RLC gave up (or the residual-loss draw).
    Radio,
    /// Discarded at handover (no X2 forwarding, or the lost head of the forwarded backlog:
    /// `radio.handover.forward_loss_bytes`).
    HandoverFlush,
    /// Forwarded over X2 but the target's buffer was full.
    ForwardOverflow,
    /// Received by the UE above a hole and acknowledged, then discarded with the UE's RLC
    /// entity at a handover (`radio.handover.ue_rlc_reset_loses_received`, and always with
    /// `rlc.model = "entity"`).
    UeRlcReset,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Delivered,
    Lost(LossReason),
    /// A packet already reported `Delivered` that a handover forwarded again (RLC AM SDUs
    /// sent but not yet acknowledged, [`crate::rlc_am::UnackedWindow`]): the caller sends a
    /// copy through the UE's new cell with [`crate::RadioNetwork::resend`]. `at` is the
    /// handover time.
    Resend,
}

/// A packet leaving the radio: delivered to the UE at `at`, or lost (decided at `at`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Delivery {
    pub packet: u32,
    pub ue: u32,
    pub at: Time,
    pub outcome: Outcome,
}

/// Per-cell counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CellCounters {
    /// Slots in which the cell transmitted.
    pub busy_slots: u64,
    /// Transport blocks sent (first transmissions).
    pub tbs: u64,
    /// HARQ and RLC retransmissions of transport blocks.
    pub tb_retransmissions: u64,
    /// Bytes sent over the air, retransmissions included.
    pub tx_bytes: u64,
    /// Packets whose last byte was sent (first transmissions).
    pub tx_packets: u64,
    /// Packet retransmissions: packets completed in a TB × that TB's retransmissions. Seed 000
    /// Fig. 5 plots `tx_packets + retx_packets`.
    pub retx_packets: u64,
    pub delivered_packets: u64,
    pub lost_packets: u64,
    /// Packets dropped by a full RLC buffer (whole, or some of their IP fragments).
    pub dropped_packets: u64,
    /// RLC AM PDUs retransmitted by ARQ (`rlc.model = "entity"`; the delay model counts its
    /// ARQ rounds in `tb_retransmissions` only).
    pub arq_retransmissions: u64,
    /// Whole AM PDUs the UEs ignored for an incomplete segment set (`rlc.resegment_retx`).
    pub ignored_whole_pdus: u64,
    /// `harq.model = "processes"`: new TBs whose first transmission failed, those of them
    /// never resent by HARQ, and TBs whose data left HARQ undecoded (left to RLC).
    pub harq_failed_first: u64,
    pub harq_never_resent: u64,
    pub harq_lost_tbs: u64,
}

#[derive(Clone, Debug)]
struct CellUe {
    attached: bool,
    available_from: Time,
    ready_at: Time,
    buffer: RlcBuffer,
    se: f64,
    sinr_db: f64,
    last_delivery: Time,
    head_ready: Time,
    head_lost: bool,
    /// Bytes of the packet being completed (its segments so far).
    head_bytes: u32,
    delivered_bytes: u64,
    /// The link's fading process (with `fading.enabled`).
    fading: Option<FadingProcess>,
    /// dB added to the SINR the link adaptation works on (MCS and TB BLER, not the SINR
    /// reported): `link_adaptation.nlos_rb_loss_db` while NLOS, else 0 ([`Cell::set_link_state`]).
    la_offset_db: f64,
    unacked: UnackedWindow,
    /// The RLC AM entity (`rlc.model = "entity"`); `buffer` and `unacked` are then unused.
    am: Option<Box<AmLink>>,
    /// Received above a hole, not yet delivered in sequence ([`Cell::hold_received`]).
    held: HeldSdus,
    uplink_slots: uplink::UplinkSlots,
}

impl CellUe {
    fn has_data(&self) -> bool {
        self.am
            .as_ref()
            .map_or(!self.buffer.is_empty(), |a| a.has_data())
    }
    /// Bytes a grant needs to send everything waiting.
    fn pending_bytes(&self) -> u64 {
        self.am
            .as_ref()
            .map_or(self.buffer.bytes(), |a| a.pending_bytes())
    }
}

/// Per-UE view of a cell.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CellUeProbe {
    pub attached: bool,
    pub rlc_bytes: u64,
    pub rlc_packets: usize,
    pub rlc_max_bytes: u64,
    pub rlc_drops: u64,
    pub sinr_db: f64,
    pub spectral_efficiency: f64,
    pub delivered_bytes: u64,
    /// RLC AM PDUs retransmitted by ARQ to the UE (`rlc.model = "entity"`, else 0).
    pub arq_retransmissions: u64,
    /// PDUs the UE's RLC holds above VR(R) (`rlc.model = "entity"`, else 0).
    pub ue_rlc_held_pdus: usize,
}

pub struct Cell {
    id: u32,
    config: CellConfig,
    slot_ns: u64,
    units_per_slot: u64,
    ues: Vec<CellUe>,
    scheduler: Scheduler,
    rng: RngStream,
    reserve: Vec<(u64, u64)>,
    last_slot: Option<u64>,
    counters: CellCounters,
    demands: Vec<Demand>,
    grants: Vec<u64>,
    /// `rlc` with ARQ off: the entity model draws HARQ only, its RLC does the rest.
    harq_only: RlcConfig,
    /// `config.link_adaptation`'s per-MCS constants.
    mcs_table: Option<McsTable>,
    /// A handover may forward this cell's unacknowledged SDUs (cleared by
    /// [`Cell::no_forwarding`]): only then is the per-packet [`UnackedWindow`] kept.
    forwarding: bool,
    /// Delay model: packets received above a hole wait in `CellUe::held` until it is
    /// filled ([`Cell::hold_received`]).
    holding: bool,
    /// `harq.model = "processes"`: the UEs' HARQ processes.
    harq: Option<Box<harq::CellHarq>>,
}

impl Cell {
    /// A cell for `n_ues` UEs (indices `0..n_ues`, none attached). HARQ draws come from the
    /// stream `"radio.cell<id>.harq"` of `seed`.
    pub fn new(id: u32, config: CellConfig, n_ues: usize, seed: u64) -> Self {
        let slot_ns = config.frame.slot_ns.max(1);
        let units_per_slot = config.frame.units_per_slot();
        let ue = CellUe {
            attached: false,
            available_from: Time::ZERO,
            ready_at: Time::ZERO,
            buffer: RlcBuffer::new(config.rlc.buffer_bytes),
            se: 0.0,
            sinr_db: f64::NEG_INFINITY,
            last_delivery: Time::ZERO,
            head_ready: Time::ZERO,
            head_lost: false,
            head_bytes: 0,
            delivered_bytes: 0,
            fading: None,
            la_offset_db: 0.0,
            unacked: UnackedWindow::with_capacity(if config.rlc.forward_unacked {
                1024
            } else {
                0
            }),
            am: (config.rlc.model == RlcModel::Entity).then(|| {
                // The status report's uplink: UlSchedDelay 1 slot + 1 slot + decoding.
                let uplink = Time(2 * slot_ns) + Time::from_micros(config.harq.decode_latency_us);
                Box::new(AmLink::new(
                    am_config(&config.rlc),
                    uplink,
                    config.rlc.buffer_bytes,
                ))
            }),
            uplink_slots: Default::default(),
            held: HeldSdus::default(),
        };
        let mut ues = vec![ue; n_ues];
        // The RLC debug sink (`CCSIM_RLC_TRACE`): one file per cell, a column per UE.
        let trace = (config.rlc.model == RlcModel::Entity)
            .then(|| crate::rlc_trace::RlcTrace::from_env(id))
            .flatten();
        if let Some(trace) = trace {
            for (i, u) in ues.iter_mut().enumerate() {
                if let Some(am) = u.am.as_mut() {
                    am.trace = Some(trace.for_ue(i as u32));
                }
            }
        }
        if config.fading.enabled {
            for (i, u) in ues.iter_mut().enumerate() {
                let mut rng = RngStream::new(seed, &format!("radio.cell{id}.ue{i}.fading"));
                u.fading = Some(FadingProcess::new(&config.fading, &mut rng));
            }
        }
        Cell {
            id,
            scheduler: Scheduler::new(config.scheduler),
            rng: RngStream::new(seed, &format!("radio.cell{id}.harq")),
            slot_ns,
            units_per_slot,
            ues,
            reserve: vec![(u64::MAX, 0); RESERVATION_SLOTS],
            last_slot: None,
            counters: CellCounters::default(),
            demands: Vec::with_capacity(n_ues),
            grants: Vec::with_capacity(n_ues),
            harq_only: RlcConfig {
                mode: RlcMode::Um,
                ..config.rlc.clone()
            },
            forwarding: true,
            holding: false,
            harq: harq::harq_processes(&config, n_ues, id),
            mcs_table: config
                .link_adaptation
                .as_ref()
                .map(|la| McsTable::with_frame(la, &config.frame)),
            config,
        }
    }

    /// No handover will ever forward this cell's SDUs (a single site, or no X2 forwarding):
    /// [`Cell::drain_unacked`] will not be called, so the cell keeps no unacknowledged window.
    pub fn no_forwarding(&mut self) {
        self.forwarding = false;
    }

    pub fn id(&self) -> u32 {
        self.id
    }
    pub fn config(&self) -> &CellConfig {
        &self.config
    }
    pub fn counters(&self) -> &CellCounters {
        &self.counters
    }
    pub fn slot(&self) -> Time {
        Time(self.slot_ns)
    }
    pub fn is_attached(&self, ue: usize) -> bool {
        self.ues[ue].attached
    }

    /// Makes `ue` served by this cell from `available_from` on (after a handover interruption).
    /// `last_delivery` carries the in-sequence delivery point over from the source cell.
    pub fn attach(&mut self, ue: usize, available_from: Time, last_delivery: Time) {
        let u = &mut self.ues[ue];
        u.attached = true;
        u.available_from = available_from;
        u.ready_at = available_from;
        u.last_delivery = u.last_delivery.max(last_delivery);
    }

    /// The UE's oldest buffered packet has been partly sent (RLC segmentation).
    pub fn head_partly_sent(&self, ue: usize) -> bool {
        self.ues[ue].am.is_none() && self.ues[ue].buffer.head_partly_sent()
    }

    /// Hands the UE's SDUs sent but not yet acknowledged at `now` to `f` (oldest first), as
    /// [`UnackedWindow::drain_unacked`]; empty unless RLC AM with `forward_unacked`.
    pub fn drain_unacked(&mut self, ue: usize, now: Time, f: impl FnMut(u32)) {
        let forward_unacked = self.config.rlc.forward_unacked;
        let u = &mut self.ues[ue];
        match &u.am {
            Some(am) if forward_unacked => am.delivered_unacked(f),
            Some(_) => {}
            None => u.unacked.drain_unacked(now, f),
        }
    }

    /// Puts a forwarded SDU at the head of the UE's buffer ([`RlcBuffer::push_front`]).
    pub fn push_front(&mut self, now: Time, ue: usize, packet: u32, bytes: u32) -> Admission {
        let u = &mut self.ues[ue];
        let was_empty = !u.has_data();
        let admission = match u.am.as_mut() {
            Some(am) => am.push_front(packet, bytes),
            None => u.buffer.push_front(packet, bytes),
        };
        if admission == RlcAdmission::Dropped {
            self.counters.dropped_packets += 1;
            return Admission::Dropped;
        }
        if was_empty {
            u.ready_at = now.max(u.available_from);
        }
        Admission::Accepted
    }

    /// Detaches `ue`, handing its buffered packets (oldest first) to `f`. Returns the UE's
    /// in-sequence delivery point, to pass to the target's [`Cell::attach`].
    /// `f` gets `(packet, bytes)` as [`RlcBuffer::drain`]; `lost` gets the packets the RLC
    /// entity model loses with the UE's discarded entity ([`AmLink::drain_for_handover`]).
    pub fn detach(&mut self, ue: usize, f: impl FnMut(u32, u32), lost: impl FnMut(u32)) -> Time {
        let u = &mut self.ues[ue];
        u.attached = false;
        match u.am.as_mut() {
            Some(am) => am.drain_for_handover(|_| {}, f, lost),
            None => u.buffer.drain(f),
        }
        u.unacked.drain_unacked(Time::ZERO, |_| {});
        u.head_lost = false;
        if let Some(h) = self.harq.as_mut() {
            h.reset_ue(ue);
        }
        self.ues[ue].last_delivery
    }

    /// `ue` has data waiting for a grant. Only an enqueue to a UE without any can move the
    /// cell's [`Cell::next_deadline`] (it sets when the UE becomes schedulable).
    pub fn has_queued(&self, ue: usize) -> bool {
        self.ues[ue].has_data()
    }

    /// Offers a packet for `ue` to the RLC buffer (drop-tail).
    pub fn enqueue(&mut self, now: Time, ue: usize, packet: u32, bytes: u32) -> Admission {
        self.enqueue_waking(now, ue, packet, bytes).0
    }

    /// [`Cell::enqueue`], also telling whether `ue` had no data before (only then can
    /// [`Cell::next_deadline`] have moved).
    #[inline]
    pub fn enqueue_waking(
        &mut self,
        now: Time,
        ue: usize,
        packet: u32,
        bytes: u32,
    ) -> (Admission, bool) {
        let u = &mut self.ues[ue];
        let was_empty = !u.has_data();
        let admitted = match u.am.as_mut() {
            Some(am) => am.enqueue(packet, bytes),
            None => u.buffer.enqueue(packet, bytes),
        };
        if admitted == RlcAdmission::Dropped {
            self.counters.dropped_packets += 1;
            return (Admission::Dropped, was_empty);
        }
        if was_empty {
            u.ready_at = now.max(u.available_from);
        }
        (Admission::Accepted, was_empty)
    }

    /// The next instant the cell has work: a slot boundary at which some UE can be served, or
    /// an RLC AM entity's arrival or timer.
    pub fn next_deadline(&self) -> Option<Time> {
        let t = match (self.next_slot(), self.next_am_event()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        match self.next_release() {
            Some(r) => Some(t.map_or(r, |t| t.min(r))),
            None => t,
        }
    }

    /// The next slot boundary at which some UE can be served, if any.
    fn next_slot(&self) -> Option<Time> {
        let min_slot = self.last_slot.map_or(0, |l| l + 1);
        let harq = self.harq.as_ref().and_then(|h| h.next_slot(min_slot));
        self.ues
            .iter()
            .filter(|u| u.attached && u.has_data() && u.se > 0.0)
            .map(|u| {
                u.ready_at
                    .max(u.available_from)
                    .as_nanos()
                    .div_ceil(self.slot_ns)
                    .max(min_slot)
            })
            .chain(harq)
            .min()
            .map(|k| Time(k * self.slot_ns))
    }

    /// Processes every slot with work that starts at or before `now`.
    pub fn poll(&mut self, now: Time, out: &mut Vec<Delivery>) {
        loop {
            let slot = self.next_slot().filter(|&t| t <= now);
            let am = self.next_am_event().filter(|&t| t <= now);
            match (slot, am) {
                // RLC events first: a status report arriving at a slot start is served in it.
                (_, Some(t)) if slot.is_none_or(|s| t <= s) => self.process_am(t, out),
                (Some(t), _) => self.run_slot(t.as_nanos() / self.slot_ns, out),
                _ => break,
            }
        }
    }

    fn run_slot(&mut self, k: u64, out: &mut Vec<Delivery>) {
        self.last_slot = Some(k);
        let slot_start = Time(k * self.slot_ns);
        let ring = (k % RESERVATION_SLOTS as u64) as usize;
        let reserved = if self.reserve[ring].0 == k {
            self.reserve[ring].1
        } else {
            0
        };
        let uplink = self.uplink_units(k);
        let slot = Time(self.slot_ns);
        let base_delay = slot
            + Time(self.slot_ns * self.config.sched_latency_slots as u64)
            + Time::from_micros(self.config.harq.decode_latency_us);
        // HARQ processes: retransmissions first, on the slot's symbols before any uplink.
        let capacity = self
            .harq_retransmissions(k, self.units_per_slot.saturating_sub(reserved), base_delay)
            .saturating_sub(uplink);
        self.demands.clear();
        for i in 0..self.ues.len() {
            let u = &self.ues[i];
            if u.attached
                && u.has_data()
                && u.se > 0.0
                && u.ready_at.max(u.available_from) <= slot_start
                && self.has_free_process(i)
            {
                let (se, mcs) = self.slot_efficiency(i, slot_start);
                if se > 0.0 {
                    self.demands.push(Demand {
                        ue: i,
                        units_needed: FrameConfig::units_for_bytes(self.ues[i].pending_bytes(), se),
                        bytes_per_unit: se / 8.0,
                        se,
                        mcs,
                    });
                }
            }
        }
        self.scheduler
            .allocate(capacity, k, self.slot_ns, &self.demands, &mut self.grants);
        let track_unacked = self.forwarding
            && self.config.rlc.forward_unacked
            && self.config.rlc.mode == RlcMode::Am;
        let status_delay = self.status_delay();
        let holding = self.holding;
        let mut busy = false;
        for j in 0..self.demands.len() {
            let (ue, units) = (self.demands[j].ue, self.grants[j]);
            let (se, mcs) = (self.demands[j].se, self.demands[j].mcs);
            let tb_bytes =
                FrameConfig::bytes_for_units(units, se).min(self.ues[ue].pending_bytes());
            if tb_bytes == 0 {
                self.scheduler.served(ue, 0, self.slot_ns);
                continue;
            }
            busy = true;
            if self.ues[ue].am.is_some() {
                self.send_am_tb(k, ue, units, tb_bytes, mcs, base_delay);
                self.scheduler.served(ue, tb_bytes, self.slot_ns);
                continue;
            }
            let outcome = self.draw_outcome(k, ue, units, mcs, false);
            let u = &mut self.ues[ue];
            let done = slot_start + base_delay + outcome.extra_delay;
            let retx = (outcome.transmissions - 1) as u64;
            let c = &mut self.counters;
            c.tbs += 1;
            c.tb_retransmissions += retx;
            c.tx_bytes += tb_bytes * outcome.transmissions as u64;
            let CellUe {
                buffer,
                head_ready,
                head_lost,
                head_bytes,
                last_delivery,
                delivered_bytes,
                unacked,
                held,
                ..
            } = u;
            buffer.take(tb_bytes, |seg| {
                if seg.first {
                    *head_ready = done;
                    *head_lost = outcome.lost;
                    *head_bytes = seg.bytes;
                } else {
                    *head_ready = (*head_ready).max(done);
                    *head_lost |= outcome.lost;
                    *head_bytes += seg.bytes;
                }
                *delivered_bytes += seg.bytes as u64;
                if seg.last {
                    c.tx_packets += 1;
                    c.retx_packets += retx;
                    if *head_lost {
                        c.lost_packets += 1;
                        out.push(Delivery {
                            packet: seg.packet,
                            ue: ue as u32,
                            at: done,
                            outcome: Outcome::Lost(LossReason::Radio),
                        });
                    } else {
                        let at = (*head_ready).max(*last_delivery);
                        *last_delivery = at;
                        if holding && at > *head_ready {
                            // Above a hole: reported when it is filled (`release_held`).
                            held.push(seg.packet, *head_bytes, *head_ready, at);
                            return;
                        }
                        if track_unacked {
                            unacked.push(slot_start, seg.packet, at + status_delay);
                        }
                        c.delivered_packets += 1;
                        out.push(Delivery {
                            packet: seg.packet,
                            ue: ue as u32,
                            at,
                            outcome: Outcome::Delivered,
                        });
                    }
                }
            });
            self.scheduler.served(ue, tb_bytes, self.slot_ns);
        }
        if busy {
            self.counters.busy_slots += 1;
        }
    }

    pub fn ue_probe(&self, ue: usize) -> CellUeProbe {
        let u = &self.ues[ue];
        let (rlc_bytes, rlc_packets, rlc_max_bytes, rlc_drops) = match &u.am {
            Some(am) => (am.buffer_bytes(), am.buffer_sdus(), am.max_bytes, am.drops),
            None => (
                u.buffer.bytes(),
                u.buffer.packets(),
                u.buffer.max_bytes,
                u.buffer.drops,
            ),
        };
        CellUeProbe {
            attached: u.attached,
            rlc_bytes,
            rlc_packets,
            rlc_max_bytes,
            rlc_drops,
            sinr_db: u.sinr_db,
            spectral_efficiency: u.se,
            delivered_bytes: u.delivered_bytes,
            arq_retransmissions: u.am.as_ref().map_or(0, |a| a.retransmissions()),
            ue_rlc_held_pdus: u.am.as_ref().map_or(0, |a| a.held_pdus()),
        }
    }
}

#[path = "cell_am.rs"]
mod am;
#[path = "cell_channel.rs"]
mod channel;
#[path = "cell_harq.rs"]
mod harq;
#[path = "cell_held.rs"]
mod held;
#[path = "cell_uplink.rs"]
mod uplink;

#[cfg(test)]
#[path = "cell_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "cell_am_tests.rs"]
mod am_tests;

#[cfg(test)]
#[path = "cell_harq_tests.rs"]
mod harq_tests;

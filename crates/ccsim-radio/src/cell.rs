//! A sans-IO downlink cell: per-UE RLC buffers, a MAC scheduler per slot, HARQ/RLC delays.
//!
//! The cell never reads a clock. The caller (the RAN, or the world directly for a single cell)
//! enqueues packets with `now`, asks [`Cell::next_deadline`] for the next slot boundary at which
//! there is work, and calls [`Cell::poll`] at (or after) that time. Each processed slot:
//! 1. capacity = resource units per slot minus the units reserved by earlier HARQ/RLC
//!    retransmissions landing in this slot;
//! 2. the scheduler splits it among attached, available UEs with data and a usable channel;
//! 3. each grant becomes a transport block (TB) of `⌊units·SE/8⌋` bytes taken from the UE's RLC
//!    buffer (segmenting packets); the TB's fate is drawn at once ([`draw_tb_outcome`]) and its
//!    retransmissions reserve the same units `k·RTT` later;
//! 4. a packet whose last byte is in the TB is complete when all its TBs are decoded:
//!    `slot start + slot + scheduling latency + decode latency + HARQ/RLC extra delay`, and RLC
//!    delivers in sequence (`deliver_at = max(complete, previous delivery)`, TS 38.322 / ns-3
//!    `LteRlcAm` in-order reassembly). Lost packets are reported too, so the caller can free them.
//!
//! A packet arriving during a slot can be sent from the next slot boundary on. Slots without
//! work produce no deadline, so an idle cell costs nothing.

use crate::amc::{AmcModel, FrameConfig};
use crate::rlc::{draw_tb_outcome, HarqConfig, RlcAdmission, RlcBuffer, RlcConfig};
use crate::scheduler::{Demand, Scheduler, SchedulerConfig};
use ccsim_core::{RngStream, Time};
use serde::{Deserialize, Serialize};

/// Reservation ring length: retransmissions further ahead than this many slots are not
/// reserved (their delay is still applied).
const RESERVATION_SLOTS: usize = 4096;

/// MAC/RLC configuration of a cell.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CellConfig {
    /// Slot structure and resources.
    pub frame: FrameConfig,
    /// SINR → spectral efficiency.
    #[serde(default)]
    pub amc: AmcModel,
    #[serde(default)]
    pub harq: HarqConfig,
    #[serde(default)]
    pub rlc: RlcConfig,
    #[serde(default)]
    pub scheduler: SchedulerConfig,
    /// Slots between the scheduling decision and the transmission (`m_L1L2Latency` 2).
    #[serde(default = "default_sched_latency")]
    pub sched_latency_slots: u32,
}

fn default_sched_latency() -> u32 {
    2
}

impl CellConfig {
    /// ns3-mmwave-like defaults (ANCHORS §1.1): NR µ = 2 at 200 MHz, CQI table 2, HARQ on,
    /// RLC AM with a 20 MiB buffer, round robin.
    pub fn mmwave() -> Self {
        CellConfig {
            frame: FrameConfig::mmwave_nr(),
            amc: AmcModel::CqiTable2,
            harq: HarqConfig::default(),
            rlc: RlcConfig::default(),
            scheduler: SchedulerConfig::RoundRobin,
            sched_latency_slots: default_sched_latency(),
        }
    }

    /// LTE: 20 MHz, 1 ms TTI, CQI table 1 (= TS 36.213 Table 7.2.3-1), HARQ RTT 8 ms (LTE FDD
    /// synchronous HARQ, TS 36.213 §8), decode 1 TTI (assumption), proportional fair.
    pub fn lte() -> Self {
        CellConfig {
            frame: FrameConfig::lte(20e6),
            amc: AmcModel::CqiTable1,
            harq: HarqConfig {
                rtt_slots: 8,
                decode_latency_us: 1_000,
                ..HarqConfig::default()
            },
            rlc: RlcConfig::default(),
            scheduler: SchedulerConfig::ProportionalFair {
                time_constant_us: 100_000,
            },
            sched_latency_slots: default_sched_latency(),
        }
    }
}

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
    /// Discarded at handover (no X2 forwarding).
    HandoverFlush,
    /// Forwarded over X2 but the target's buffer was full.
    ForwardOverflow,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Delivered,
    Lost(LossReason),
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
    delivered_bytes: u64,
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
            delivered_bytes: 0,
        };
        Cell {
            id,
            scheduler: Scheduler::new(config.scheduler),
            rng: RngStream::new(seed, &format!("radio.cell{id}.harq")),
            slot_ns,
            units_per_slot,
            ues: vec![ue; n_ues],
            reserve: vec![(u64::MAX, 0); RESERVATION_SLOTS],
            last_slot: None,
            counters: CellCounters::default(),
            demands: Vec::with_capacity(n_ues),
            grants: Vec::with_capacity(n_ues),
            config,
        }
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

    /// Detaches `ue`, handing its buffered packets (oldest first) to `f`. Returns the UE's
    /// in-sequence delivery point, to pass to the target's [`Cell::attach`].
    /// `f` gets `(packet, bytes)` as [`RlcBuffer::drain`].
    pub fn detach(&mut self, ue: usize, f: impl FnMut(u32, u32)) -> Time {
        let u = &mut self.ues[ue];
        u.attached = false;
        u.buffer.drain(f);
        u.head_lost = false;
        u.last_delivery
    }

    /// Updates the UE's channel at `now` (the RAN's channel update). Data that waited through
    /// an outage (no usable channel) can be scheduled from `now` on, not from when it arrived.
    pub fn set_channel_at(&mut self, now: Time, ue: usize, sinr_db: f64) {
        let was_usable = self.ues[ue].se > 0.0;
        self.set_channel(ue, sinr_db);
        let u = &mut self.ues[ue];
        if !was_usable && u.se > 0.0 {
            u.ready_at = u.ready_at.max(now);
        }
    }

    /// Updates the UE's channel, with no notion of time: buffered data is schedulable from
    /// when it arrived (use [`Cell::set_channel_at`] when the channel changes during a run).
    pub fn set_channel(&mut self, ue: usize, sinr_db: f64) {
        let se = self.config.amc.spectral_efficiency(sinr_db);
        let u = &mut self.ues[ue];
        u.sinr_db = sinr_db;
        u.se = se;
    }

    /// Offers a packet for `ue` to the RLC buffer (drop-tail).
    pub fn enqueue(&mut self, now: Time, ue: usize, packet: u32, bytes: u32) -> Admission {
        let u = &mut self.ues[ue];
        let was_empty = u.buffer.is_empty();
        let admission = match u.buffer.enqueue(packet, bytes) {
            RlcAdmission::Accepted => Admission::Accepted,
            RlcAdmission::Dropped => Admission::Dropped,
        };
        if admission != Admission::Accepted {
            self.counters.dropped_packets += 1;
        }
        if admission != Admission::Dropped && was_empty {
            u.ready_at = now.max(u.available_from);
        }
        admission
    }

    /// The next slot boundary at which some UE can be served, if any.
    pub fn next_deadline(&self) -> Option<Time> {
        let min_slot = self.last_slot.map_or(0, |l| l + 1);
        self.ues
            .iter()
            .filter(|u| u.attached && !u.buffer.is_empty() && u.se > 0.0)
            .map(|u| {
                u.ready_at
                    .max(u.available_from)
                    .as_nanos()
                    .div_ceil(self.slot_ns)
                    .max(min_slot)
            })
            .min()
            .map(|k| Time(k * self.slot_ns))
    }

    /// Processes every slot with work that starts at or before `now`.
    pub fn poll(&mut self, now: Time, out: &mut Vec<Delivery>) {
        while let Some(t) = self.next_deadline() {
            if t > now {
                break;
            }
            self.run_slot(t.as_nanos() / self.slot_ns, out);
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
        let capacity = self.units_per_slot.saturating_sub(reserved);
        self.demands.clear();
        for (i, u) in self.ues.iter().enumerate() {
            if u.attached
                && !u.buffer.is_empty()
                && u.se > 0.0
                && u.ready_at.max(u.available_from) <= slot_start
            {
                self.demands.push(Demand {
                    ue: i,
                    units_needed: FrameConfig::units_for_bytes(u.buffer.bytes(), u.se),
                    bytes_per_unit: u.se / 8.0,
                });
            }
        }
        self.scheduler
            .allocate(capacity, k, self.slot_ns, &self.demands, &mut self.grants);
        let slot = Time(self.slot_ns);
        let base_delay = slot
            + Time(self.slot_ns * self.config.sched_latency_slots as u64)
            + Time::from_micros(self.config.harq.decode_latency_us);
        let mut busy = false;
        for j in 0..self.demands.len() {
            let (ue, units) = (self.demands[j].ue, self.grants[j]);
            let u = &mut self.ues[ue];
            let tb_bytes = FrameConfig::bytes_for_units(units, u.se).min(u.buffer.bytes());
            if tb_bytes == 0 {
                self.scheduler.served(ue, 0, self.slot_ns);
                continue;
            }
            busy = true;
            let slot_ns = self.slot_ns;
            let reserve = &mut self.reserve;
            let outcome = draw_tb_outcome(
                &mut self.rng,
                &self.config.harq,
                &self.config.rlc,
                slot,
                |off| {
                    let at = k + off.as_nanos() / slot_ns;
                    if at - k < RESERVATION_SLOTS as u64 {
                        let r = &mut reserve[(at % RESERVATION_SLOTS as u64) as usize];
                        if r.0 != at {
                            *r = (at, 0);
                        }
                        r.1 += units;
                    }
                },
            );
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
                last_delivery,
                delivered_bytes,
                ..
            } = u;
            buffer.take(tb_bytes, |seg| {
                if seg.first {
                    *head_ready = done;
                    *head_lost = outcome.lost;
                } else {
                    *head_ready = (*head_ready).max(done);
                    *head_lost |= outcome.lost;
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
        CellUeProbe {
            attached: u.attached,
            rlc_bytes: u.buffer.bytes(),
            rlc_packets: u.buffer.packets(),
            rlc_max_bytes: u.buffer.max_bytes,
            rlc_drops: u.buffer.drops,
            sinr_db: u.sinr_db,
            spectral_efficiency: u.se,
            delivered_bytes: u.delivered_bytes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_harq() -> CellConfig {
        CellConfig {
            harq: HarqConfig {
                enabled: false,
                ..HarqConfig::default()
            },
            ..CellConfig::mmwave()
        }
    }

    fn drain(cell: &mut Cell, until: Time, out: &mut Vec<Delivery>) {
        cell.poll(until, out);
    }

    #[test]
    fn single_packet_timing() {
        let mut c = Cell::new(0, no_harq(), 1, 1);
        c.attach(0, Time::ZERO, Time::ZERO);
        c.set_channel(0, 30.0);
        assert_eq!(c.next_deadline(), None);
        // Arrives mid-slot: sent in the next slot (250 µs).
        assert_eq!(
            c.enqueue(Time::from_micros(100), 0, 42, 1500),
            Admission::Accepted
        );
        assert_eq!(c.next_deadline(), Some(Time::from_micros(250)));
        let mut out = Vec::new();
        drain(&mut c, Time::from_millis(10), &mut out);
        // 250 µs slot start + 250 µs slot + 2·250 µs scheduling + 100 µs decoding = 1.1 ms.
        assert_eq!(
            out,
            vec![Delivery {
                packet: 42,
                ue: 0,
                at: Time::from_micros(1100),
                outcome: Outcome::Delivered
            }]
        );
        assert_eq!(c.next_deadline(), None);
        assert_eq!(c.counters().tx_packets, 1);
    }

    #[test]
    fn throughput_matches_bytes_per_slot() {
        let mut c = Cell::new(0, no_harq(), 1, 1);
        c.attach(0, Time::ZERO, Time::ZERO);
        c.set_channel(0, 40.0); // CQI 15 of table 2: 7.4063 bits/RE
        let mut out = Vec::new();
        for p in 0..20_000u32 {
            c.enqueue(Time::ZERO, 0, p, 1500);
        }
        drain(&mut c, Time::from_millis(100), &mut out);
        // 100 ms = 400 slots of ⌊36 368·7.4063/8⌋ = 33 669 B; deliveries lag 1.1 ms, so count
        // bytes sent in slots 0..=399.
        let per_slot = FrameConfig::mmwave_nr().bytes_per_slot(7.4063);
        assert_eq!(per_slot, 33_669);
        let sent = c.ue_probe(0).delivered_bytes;
        assert_eq!(sent, (per_slot * 401).min(20_000 * 1500));
        assert!(out.iter().all(|d| d.outcome == Outcome::Delivered));
        // In-order, non-decreasing delivery times.
        assert!(out
            .windows(2)
            .all(|w| w[0].packet < w[1].packet && w[0].at <= w[1].at));
    }

    #[test]
    fn drop_tail_and_outage() {
        let mut cfg = no_harq();
        cfg.rlc.buffer_bytes = 3000;
        let mut c = Cell::new(0, cfg, 1, 1);
        c.attach(0, Time::ZERO, Time::ZERO);
        c.set_channel(0, -20.0); // below CQI 1: outage
        assert_eq!(c.enqueue(Time::ZERO, 0, 1, 1500), Admission::Accepted);
        assert_eq!(c.enqueue(Time::ZERO, 0, 2, 1500), Admission::Accepted);
        assert_eq!(c.enqueue(Time::ZERO, 0, 3, 1500), Admission::Dropped);
        assert_eq!(c.counters().dropped_packets, 1);
        assert_eq!(c.ue_probe(0).rlc_drops, 1);
        // No channel, no deadline: the buffer waits.
        assert_eq!(c.next_deadline(), None);
        c.set_channel(0, 10.0);
        assert_eq!(c.next_deadline(), Some(Time::ZERO));
        let mut out = Vec::new();
        c.poll(Time::from_millis(5), &mut out);
        assert_eq!(out.len(), 2);
    }

    #[test]
    fn data_waiting_through_an_outage_is_sent_from_the_channel_update_on() {
        let mut c = Cell::new(0, no_harq(), 1, 1);
        c.attach(0, Time::ZERO, Time::ZERO);
        c.set_channel_at(Time::ZERO, 0, -20.0);
        for p in 0..100 {
            c.enqueue(Time::from_millis(1), 0, p, 1500);
        }
        assert_eq!(c.next_deadline(), None);
        // The channel comes back at 2 s: no slot before it, deliveries after it.
        c.set_channel_at(Time::from_secs(2), 0, 30.0);
        assert_eq!(c.next_deadline(), Some(Time::from_secs(2)));
        let mut out = Vec::new();
        c.poll(Time::from_secs(3), &mut out);
        assert_eq!(out.len(), 100);
        assert!(out.iter().all(|d| d.at > Time::from_secs(2)));
        // A usable channel that changes does not delay data already schedulable.
        c.enqueue(Time::from_millis(3001), 0, 7, 1500);
        c.set_channel_at(Time::from_millis(3100), 0, 20.0);
        assert_eq!(c.next_deadline(), Some(Time::from_millis(3001)));
    }

    #[test]
    fn harq_adds_delay_not_loss_and_counts_retransmissions() {
        let mut cfg = CellConfig::mmwave();
        cfg.harq.bler = 0.3;
        cfg.harq.retx_bler = 0.3;
        let mut c = Cell::new(0, cfg, 1, 7);
        c.attach(0, Time::ZERO, Time::ZERO);
        c.set_channel(0, 5.0); // low SE: packets span several TBs
        let mut out = Vec::new();
        let mut t = Time::ZERO;
        for p in 0..2000u32 {
            c.enqueue(t, 0, p, 1500);
            t += Time::from_micros(50);
            c.poll(t, &mut out);
        }
        c.poll(Time::from_secs(5), &mut out);
        assert_eq!(out.len(), 2000);
        let lost = out
            .iter()
            .filter(|d| d.outcome != Outcome::Delivered)
            .count();
        assert_eq!(lost, 0, "RLC AM hides HARQ failures");
        let k = c.counters();
        assert!(k.tb_retransmissions > k.tbs / 4, "{k:?}");
        assert!(k.retx_packets > 0);
        assert!(
            out.windows(2).all(|w| w[0].at <= w[1].at),
            "in-sequence delivery"
        );
        // Some packets waited for HARQ round trips (1 ms each) beyond the 1.1 ms minimum.
        let min_lat = Time::from_micros(1100);
        assert!(out.iter().any(|d| d.at > min_lat + Time::from_millis(20)));
    }

    #[test]
    fn um_reports_losses() {
        let mut cfg = CellConfig::mmwave();
        cfg.harq.bler = 1.0;
        cfg.harq.retx_bler = 1.0;
        cfg.rlc.mode = crate::rlc::RlcMode::Um;
        let mut c = Cell::new(0, cfg, 1, 1);
        c.attach(0, Time::ZERO, Time::ZERO);
        c.set_channel(0, 30.0);
        c.enqueue(Time::ZERO, 0, 5, 1500);
        let mut out = Vec::new();
        c.poll(Time::from_millis(1), &mut out);
        assert_eq!(out[0].outcome, Outcome::Lost(LossReason::Radio));
        assert_eq!(c.counters().lost_packets, 1);
        assert_eq!(c.counters().tb_retransmissions, 3);
    }

    #[test]
    fn two_ues_share_round_robin() {
        let mut c = Cell::new(0, no_harq(), 2, 1);
        for ue in 0..2 {
            c.attach(ue, Time::ZERO, Time::ZERO);
            c.set_channel(ue, 40.0);
            for p in 0..10_000u32 {
                c.enqueue(Time::ZERO, ue, ue as u32 * 100_000 + p, 1500);
            }
        }
        let mut out = Vec::new();
        c.poll(Time::from_millis(50), &mut out);
        let a = c.ue_probe(0).delivered_bytes as f64;
        let b = c.ue_probe(1).delivered_bytes as f64;
        assert!((a / b - 1.0).abs() < 0.01, "{a} {b}");
    }

    #[test]
    fn detach_and_attach_carry_the_buffer() {
        let mut src = Cell::new(0, no_harq(), 1, 1);
        let mut dst = Cell::new(1, no_harq(), 1, 1);
        src.attach(0, Time::ZERO, Time::ZERO);
        src.set_channel(0, -30.0);
        for p in 0..3 {
            src.enqueue(Time::ZERO, 0, p, 1000);
        }
        let mut moved = Vec::new();
        let last = src.detach(0, |p, b| moved.push((p, b)));
        assert_eq!(moved, vec![(0, 1000), (1, 1000), (2, 1000)]);
        assert!(!src.is_attached(0));
        let avail = Time::from_millis(5);
        dst.attach(0, avail, last);
        dst.set_channel(0, 30.0);
        for (p, b) in moved {
            dst.enqueue(Time::from_millis(1), 0, p, b);
        }
        assert_eq!(dst.next_deadline(), Some(avail));
        let mut out = Vec::new();
        dst.poll(Time::from_millis(10), &mut out);
        assert_eq!(out.len(), 3);
        assert!(out.iter().all(|d| d.at >= avail));
    }
}

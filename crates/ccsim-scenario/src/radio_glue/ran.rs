//! The RAN in the world: one lazily scheduled event at the RAN's next deadline, deliveries
//! as arrivals at the UE nodes, losses freed, and the copies a handover sends again.
//!
//! Deliveries and uplink packets travel on per-UE delivery lines ([`DelayLine`]): each UE's
//! arrivals come mostly in time order, so only each line's head is in the event queue, not
//! every packet in flight (the heap was ~35 % of seed 002's instructions). Every packet keeps
//! the (time, sequence) key it had as its own `ArriveAt` event, so the event order is
//! unchanged; one that would overtake its line's last packet is scheduled on its own, as before.

use super::NlosInterval;
use crate::world::Event;
use ccsim_core::{DelayLine, EventQueue, Time};
use ccsim_net::Packet;
use ccsim_net::{NodeId, PacketArena, PacketId};
use ccsim_radio::{
    Admission, Delivery, LossReason, Outcome, RadioConfig, RadioNetwork, Technology,
};

#[derive(Clone, Copy, Debug, Default)]
pub(super) struct UeCounters {
    pub(super) rlc_drops: u64,
    pub(super) lost_radio: u64,
    pub(super) lost_handover_flush: u64,
    pub(super) lost_forward_overflow: u64,
    pub(super) delivered_packets: u64,
    pub(super) delivered_bytes: u64,
    pub(super) last_sample_bytes: u64,
    /// Copies sent again at handovers (RLC AM SDUs not yet acknowledged at the source).
    pub(super) resent: u64,
}

/// Per UE, the last packets the RAN reported delivered, so that a handover can send copies
/// of the ones the source had not seen acknowledged (`Outcome::Resend`): by then the
/// originals may have reached the UE and been freed. A fixed ring: no allocation per packet.
pub(super) struct SentCopies {
    ring: Vec<(u32, Packet)>,
    next: usize,
}

/// Ring length per UE: the unacknowledged window is t-StatusProhibit plus the uplink, about
/// 90 packets per ms at 1 Gb/s, so 4096 covers a 10 ms t-StatusProhibit with HARQ delays.
const COPIES: usize = 4096;

impl SentCopies {
    pub(super) fn new() -> Self {
        SentCopies {
            ring: Vec::with_capacity(COPIES),
            next: 0,
        }
    }

    fn record(&mut self, id: u32, p: Packet) {
        if self.ring.len() < COPIES {
            self.ring.push((id, p));
        } else {
            self.ring[self.next] = (id, p);
        }
        self.next = (self.next + 1) % COPIES;
    }

    /// The newest copy recorded under `id`.
    fn find(&self, id: u32) -> Option<Packet> {
        let n = self.ring.len();
        (1..=n)
            .map(|k| &self.ring[(self.next + COPIES - k) % COPIES])
            .find(|(i, _)| *i == id)
            .map(|(_, p)| *p)
    }
}

pub(super) struct Ran {
    pub(super) ran: RadioNetwork,
    /// Where each cell's uplink leaves the radio (one node for all cells, or one per cell).
    gateways: Vec<NodeId>,
    pub(super) ue_nodes: Vec<NodeId>,
    pub(super) ue_names: Vec<String>,
    pub(super) cell_names: Vec<String>,
    pub(super) cell_tech: Vec<Technology>,
    pub(super) cell_pos: Vec<[f64; 3]>,
    pub(super) counters: Vec<UeCounters>,
    pub(super) nlos: Vec<NlosInterval>,
    pub(super) scheduled: Option<Time>,
    pub(super) scratch: Vec<Delivery>,
    pub(super) last_sample: Time,
    /// Per UE; empty when no handover can resend (RLC UM, or no forwarding).
    pub(super) copies: Vec<SentCopies>,
    /// Delivery lines (module doc): line 2u is UE u's downlink, 2u + 1 its uplink.
    pub(super) lines: Vec<DelayLine<PacketId>>,
}

impl Ran {
    /// `gateways`: one node for every cell, or one per cell (`RadioConfig::sites` order).
    pub(super) fn new(
        cfg: &RadioConfig,
        ran: RadioNetwork,
        gateways: Vec<NodeId>,
        ue_nodes: Vec<NodeId>,
        nlos: Vec<NlosInterval>,
    ) -> Ran {
        debug_assert!(gateways.len() == 1 || gateways.len() == cfg.sites.len());
        // A single site never hands over: no copies to keep (a packet copy per delivery).
        let resends = cfg.sites.len() > 1
            && cfg.handover.x2_forwarding
            && [&cfg.mmwave, &cfg.lte].iter().any(|t| {
                t.cell.rlc.mode == ccsim_radio::rlc::RlcMode::Am && t.cell.rlc.forward_unacked
            });
        Ran {
            counters: vec![UeCounters::default(); cfg.ues.len()],
            ue_names: cfg.ues.iter().map(|u| u.name.clone()).collect(),
            cell_names: cfg.sites.iter().map(|c| c.name.clone()).collect(),
            cell_tech: cfg.sites.iter().map(|c| c.technology).collect(),
            cell_pos: cfg
                .sites
                .iter()
                .map(|c| [c.position.x, c.position.y, c.position.z])
                .collect(),
            ran,
            gateways,
            ue_nodes,
            nlos,
            scheduled: None,
            lines: (0..2 * cfg.ues.len())
                .map(|_| DelayLine::default())
                .collect(),
            scratch: Vec::with_capacity(4096),
            last_sample: Time::ZERO,
            copies: if resends {
                (0..cfg.ues.len()).map(|_| SentCopies::new()).collect()
            } else {
                Vec::new()
            },
        }
    }

    /// The node where UE `u`'s uplink packets leave the radio: its serving cell's gateway.
    #[inline]
    pub(super) fn gateway_of(&self, u: u32) -> NodeId {
        match self.gateways.as_slice() {
            [one] => *one,
            per_cell => per_cell[self.ran.serving_site(u)],
        }
    }

    /// Keeps one [`Event::Radio`] at the RAN's next deadline.
    pub(super) fn arm(&mut self, now: Time, queue: &mut EventQueue<Event>) {
        if let Some(t) = self.ran.next_deadline() {
            let t = t.max(now);
            if self.scheduled.is_none_or(|cur| t < cur) {
                self.scheduled = Some(t);
                queue.schedule_timer(t, Event::Radio(0));
            }
        }
    }

    pub(super) fn on_event(
        &mut self,
        now: Time,
        packets: &mut PacketArena,
        queue: &mut EventQueue<Event>,
    ) {
        if self.scheduled != Some(now) {
            return;
        }
        self.scheduled = None;
        self.ran.on_deadline(now, &mut self.scratch);
        // Copies go to the head of the new cell's buffer one by one, so the newest first
        // leaves the oldest in front, as ns3-mmwave's forwarding buffer has them.
        for d in self.scratch.iter().rev() {
            if d.outcome != Outcome::Resend {
                continue;
            }
            let Some(copy) = self
                .copies
                .get(d.ue as usize)
                .and_then(|k| k.find(d.packet))
            else {
                continue;
            };
            let bytes = copy.ip_bytes;
            let id = packets.insert(copy);
            if self.ran.resend(now, d.ue, id.0, bytes) == Admission::Dropped {
                packets.remove(id);
                self.counters[d.ue as usize].rlc_drops += 1;
            } else {
                self.counters[d.ue as usize].resent += 1;
            }
        }
        for d in self.scratch.drain(..) {
            debug_assert!(d.at >= now, "radio delivery in the past: {d:?} at {now}");
            let id = PacketId(d.packet);
            let c = &mut self.counters[d.ue as usize];
            match d.outcome {
                Outcome::Delivered => {
                    c.delivered_packets += 1;
                    c.delivered_bytes += packets.get(id).ip_bytes as u64;
                    if let Some(k) = self.copies.get_mut(d.ue as usize) {
                        k.record(d.packet, *packets.get(id));
                    }
                    let ue = self.ue_nodes[d.ue as usize];
                    send_on_line(&mut self.lines, 2 * d.ue, ue, d.at, id, queue);
                }
                Outcome::Resend => {} // below, newest first
                Outcome::Lost(reason) => {
                    packets.remove(id);
                    match reason {
                        LossReason::Radio => c.lost_radio += 1,
                        LossReason::HandoverFlush | LossReason::UeRlcReset => {
                            c.lost_handover_flush += 1
                        }
                        LossReason::ForwardOverflow => c.lost_forward_overflow += 1,
                    }
                }
            }
        }
        self.arm(now, queue);
    }

    /// The node at the far end of delivery line `k`.
    fn line_end(&self, k: u32) -> NodeId {
        if k.is_multiple_of(2) {
            self.ue_nodes[(k / 2) as usize]
        } else {
            self.gateway_of(k / 2)
        }
    }

    /// The head of delivery line `k` is due now (and whether the next is, right behind it).
    #[inline]
    pub(super) fn arrive(
        &mut self,
        _now: Time,
        k: u32,
        queue: &mut EventQueue<Event>,
    ) -> (NodeId, PacketId, bool) {
        let (id, more) = self.lines[k as usize].pop_run(queue, |_| Event::RadioArrive(k));
        (self.line_end(k), id, more)
    }
}

/// Packet `id` reaches node `end`, the far end of delivery line `k`, at `at`.
#[inline(always)]
pub(super) fn send_on_line(
    lines: &mut [DelayLine<PacketId>],
    k: u32,
    end: NodeId,
    at: Time,
    id: PacketId,
    queue: &mut EventQueue<Event>,
) {
    if let Err(id) = lines[k as usize].push(queue, at, id, |_| Event::RadioArrive(k)) {
        // Earlier than the line's last packet: its own event, under the same key.
        queue.schedule(at, Event::ArriveAt(end, id));
    }
}

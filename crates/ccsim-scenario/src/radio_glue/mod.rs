//! The world's radio side: the [`RadioNetwork`] (cells, moving UEs, handover) between a
//! gateway node and the UE nodes, Mahimahi trace-driven links, and the seed-003 vertical
//! handover between two parallel links. It follows the `ccsim-radio` README's integration
//! contract:
//!
//! - routes through a radio hop use routing-only link ids past the real links (see
//!   [`crate::radio_spec::pseudo_links`]); [`RadioGlue::steer`] takes a packet whose next hop
//!   is such an id: downlink packets go to [`RadioNetwork::enqueue`], uplink packets (ACKs)
//!   arrive at the gateway at [`RadioNetwork::uplink`], trace-link packets join the trace
//!   link's queue;
//! - each sans-IO component keeps one lazily scheduled [`Event::Radio`] at its next deadline
//!   (the scheduled time is remembered; stale events are ignored), as the world does for TCP
//!   timers;
//! - deliveries (and uplink packets) reach their node through per-UE delivery lines
//!   ([`Event::RadioArrive`], see `ran.rs`); losses free the packet;
//! - the hot path allocates nothing: deliveries go through reused scratch vectors.
//!
//! Probes: one [`RadioSeries`] row per UE and sample (SINR, serving cell, LOS, RLC
//! occupancy and drops, ...), and a [`RadioSummary`] in the run summary (per-cell counters,
//! handovers, exact NLOS intervals, trace-link and vertical-handover counters).

mod links;
mod ran;
mod summary;

pub use summary::*;

use links::{build_vho, read_trace, Trace, Vho};
use ran::Ran;

use crate::config::Scenario;
use crate::error::ScenarioError;
use crate::radio_spec::{gateway_name, node_id, radio_config};
use crate::world::Event;
use ccsim_core::{EventQueue, Time};
use ccsim_net::{Link, LinkId, NodeId, PacketArena, PacketId};
use ccsim_radio::handover::LinkState;
use ccsim_radio::trace::{LinkAdmission, TraceLink};
use ccsim_radio::{nlos_intervals, Admission, RadioNetwork, Technology};

ccsim_core::column_table! {
    /// Per-UE radio samples, by column (drained like [`crate::metrics::Series`]).
    #[derive(Clone, Debug, Default)]
    pub struct RadioSeries {
        /// Simulated time of the sample (s).
        pub t_s: Vec<f64>,
        /// UE index (`[[radio.ues]]` order).
        pub ue: Vec<u32>,
        /// UE position, x (m).
        pub x_m: Vec<f64>,
        /// UE position, y (m).
        pub y_m: Vec<f64>,
        /// Index of the serving cell (`[[radio.sites]]` order).
        pub serving_cell: Vec<u32>,
        /// The serving cell is an LTE cell.
        pub lte: Vec<bool>,
        /// LOS towards the serving cell (at the last channel update).
        pub los: Vec<bool>,
        /// SINR towards the serving cell (dB) at the sample instant, fading included when
        /// `cell.fading` is on.
        pub sinr_db: Vec<f64>,
        /// SINR towards the serving cell without fading (dB), at the last channel update.
        pub large_scale_sinr_db: Vec<f64>,
        /// MCS a TB would use at the sample instant (from the CQI in force; with
        /// `cell.link_adaptation` only, else 255; 255 too when the CQI is below MCS 0).
        pub mcs: Vec<u8>,
        /// Best SINR over the mmWave cells (dB).
        pub best_mmwave_sinr_db: Vec<f64>,
        /// In a handover interruption.
        pub in_handover: Vec<bool>,
        /// Handovers so far.
        pub handovers: Vec<u32>,
        /// Bytes waiting in the UE's RLC buffer at the serving cell.
        pub rlc_bytes: Vec<u64>,
        /// Packets waiting in the UE's RLC buffer at the serving cell.
        pub rlc_packets: Vec<u64>,
        /// Packets dropped by a full RLC buffer so far (all cells).
        pub rlc_drops: Vec<u64>,
        /// Packets lost on the radio (HARQ/RLC give-up, handover flush or X2 overflow) so far.
        pub radio_losses: Vec<u64>,
        /// RLC AM PDUs the serving cell retransmitted to the UE so far (`rlc.model = "entity"`).
        pub arq_retransmissions: Vec<u64>,
        /// PDUs the UE's RLC holds above VR(R) at the serving cell (`rlc.model = "entity"`).
        pub ue_rlc_held_pdus: Vec<u64>,
        /// IP bytes the radio delivered to the UE so far.
        pub delivered_bytes: Vec<u64>,
        /// Radio delivery rate since the last sample (Mb/s).
        pub radio_mbps: Vec<f64>,
    }
}

/// The radio side of a world (see the module docs).
pub struct RadioGlue {
    first_pseudo: u32,
    n_radio_links: u32,
    ran: Option<Ran>,
    traces: Vec<Trace>,
    vho: Option<Vho>,
    pub series: RadioSeries,
}

impl RadioGlue {
    /// The radio side of the scenario, or `None` when it has none. `links` are the real
    /// links (the routing-only ids start at `links.len()`).
    pub fn build(
        s: &Scenario,
        nodes: &[String],
        links: &[Link],
        end: Time,
    ) -> Result<Option<RadioGlue>, ScenarioError> {
        if s.radio.is_none() && s.trace_links.is_empty() && s.vertical_handover.is_none() {
            return Ok(None);
        }
        let mut ran = None;
        if let Some(t) = &s.radio {
            let cfg = radio_config(t)?;
            let network = RadioNetwork::new(&cfg, s.run.seed).map_err(|e| {
                // RadioNetwork names the offending key before a colon.
                match e.split_once(':') {
                    Some((k, m)) if !k.contains(' ') => {
                        ScenarioError::new(format!("radio.{k}"), m.trim())
                    }
                    _ => ScenarioError::new("radio", e),
                }
            })?;
            let gateway = node_id(nodes, gateway_name(t), "radio.gateway")?;
            let mut ue_nodes = Vec::new();
            let mut nlos = Vec::new();
            for (u, ue) in cfg.ues.iter().enumerate() {
                ue_nodes.push(node_id(nodes, &ue.name, format!("radio.ues[{u}].name"))?);
                let path = ue
                    .mobility
                    .build()
                    .map_err(|e| ScenarioError::new(format!("radio.ues[{u}].mobility"), e))?;
                for (c, site) in cfg.sites.iter().enumerate() {
                    for iv in nlos_intervals(&path, site.position, &cfg.obstacles, Time::ZERO, end)
                    {
                        nlos.push(NlosInterval {
                            ue: u as u32,
                            cell: c as u32,
                            start_s: iv.start.as_secs_f64(),
                            end_s: iv.end.as_secs_f64(),
                            duration_s: iv.duration().as_secs_f64(),
                        });
                    }
                }
            }
            ran = Some(Ran::new(&cfg, network, vec![gateway], ue_nodes, nlos));
        }
        let mut traces = Vec::new();
        for (i, l) in s.trace_links.iter().enumerate() {
            let trace = read_trace(s, i, &l.trace)?;
            let to = node_id(nodes, &l.to, format!("trace_links[{i}].to"))?;
            let start = l.start.map_or(Time::ZERO, |d| d.time());
            let limit = l.queue.map_or(u64::MAX, |b| b.0);
            if limit == 0 {
                return Err(ScenarioError::new(
                    format!("trace_links[{i}].queue"),
                    "must be at least 1 byte (omit it for an unlimited queue)",
                ));
            }
            traces.push(Trace {
                name: l
                    .name
                    .clone()
                    .unwrap_or_else(|| format!("{}->{}", l.from, l.to)),
                link: TraceLink::new(trace, start, limit),
                to,
                delay: l.delay.map_or(Time::ZERO, |d| d.time()),
                scheduled: None,
                scratch: Vec::with_capacity(64),
                max_queue_bytes: 0,
            });
        }
        let vho = match &s.vertical_handover {
            None => None,
            Some(v) => Some(build_vho(v, links)?),
        };
        let n_radio_links = ran.as_ref().map_or(0, |r| 2 * r.ue_nodes.len() as u32);
        Ok(Some(RadioGlue {
            first_pseudo: links.len() as u32,
            n_radio_links,
            ran,
            traces,
            vho,
            series: RadioSeries::default(),
        }))
    }

    /// A RAN whose cells each have their own gateway (`gateways[site]`), as the mesh's
    /// eNodeBs do: downlink packets enter at the router whose route to a UE is its radio hop,
    /// uplink packets leave at the serving cell's gateway. Radio hops are routing-only link
    /// ids from `first_pseudo`: `2u` down to UE u, `2u + 1` up.
    pub fn for_cells(
        cfg: &ccsim_radio::RadioConfig,
        seed: u64,
        gateways: Vec<NodeId>,
        ue_nodes: Vec<NodeId>,
        first_pseudo: u32,
    ) -> Result<RadioGlue, String> {
        let network = RadioNetwork::new(cfg, seed)?;
        let n_radio_links = 2 * ue_nodes.len() as u32;
        Ok(RadioGlue {
            first_pseudo,
            n_radio_links,
            ran: Some(Ran::new(cfg, network, gateways, ue_nodes, Vec::new())),
            traces: Vec::new(),
            vho: None,
            series: RadioSeries::default(),
        })
    }

    /// Schedules the first events (the RAN's first deadline, the vertical handovers).
    pub fn start(&mut self, queue: &mut EventQueue<Event>) {
        if let Some(r) = &mut self.ran {
            r.arm(Time::ZERO, queue);
        }
        if let Some(v) = &self.vho {
            for (i, e) in v.vh.events.iter().enumerate() {
                queue.schedule(
                    Time::from_micros(e.at_us),
                    Event::VerticalHandover(i as u32),
                );
            }
        }
    }

    /// The head of RAN delivery line `k` is due now: the node it reaches, the packet, and
    /// whether the line's next packet is due now right behind it.
    #[inline]
    pub fn arrive(
        &mut self,
        now: Time,
        k: u32,
        queue: &mut EventQueue<Event>,
    ) -> (NodeId, PacketId, bool) {
        let r = self.ran.as_mut().expect("delivery lines imply a RAN");
        r.arrive(now, k, queue)
    }

    /// A packet at some node has next hop `l`: returns the link to use, or `None` when the
    /// radio took the packet (queued in the RAN or a trace link, sent uplink, or lost).
    #[inline]
    pub fn steer(
        &mut self,
        now: Time,
        l: LinkId,
        id: PacketId,
        packets: &mut PacketArena,
        queue: &mut EventQueue<Event>,
    ) -> Option<LinkId> {
        if l.0 < self.first_pseudo {
            return match &mut self.vho {
                Some(v) => v.steer(now, l, id, packets),
                None => Some(l),
            };
        }
        let k = l.0 - self.first_pseudo;
        if k < self.n_radio_links {
            let r = self.ran.as_mut().expect("radio links imply a RAN");
            let u = k / 2;
            if k.is_multiple_of(2) {
                let bytes = packets.get(id).ip_bytes;
                // Behind a backlog the deadline cannot move: skip re-arming (4 % of seed 002).
                let (admission, wakes) = r.ran.enqueue_waking(now, u, id.0, bytes);
                if admission == Admission::Dropped {
                    packets.free(id);
                    r.counters[u as usize].rlc_drops += 1;
                }
                if wakes {
                    r.arm(now, queue);
                }
            } else {
                let at = r.ran.uplink(now, u);
                let gateway = r.gateway_of(u);
                ran::send_on_line(&mut r.lines, 2 * u + 1, gateway, at, id, queue);
            }
        } else {
            let t = k - self.n_radio_links;
            let tr = &mut self.traces[t as usize];
            let bytes = packets.get(id).ip_bytes;
            if tr.link.enqueue(now, id.0, bytes) == LinkAdmission::Dropped {
                packets.remove(id);
            }
            tr.max_queue_bytes = tr.max_queue_bytes.max(tr.link.queue_bytes());
            tr.arm(now, t + 1, queue);
        }
        None
    }

    /// An [`Event::Radio`]: `0` is the RAN, `k ≥ 1` trace link `k − 1`.
    pub fn on_event(
        &mut self,
        now: Time,
        k: u32,
        packets: &mut PacketArena,
        queue: &mut EventQueue<Event>,
    ) {
        if k == 0 {
            if let Some(r) = &mut self.ran {
                r.on_event(now, packets, queue);
            }
        } else {
            self.traces[k as usize - 1].on_event(now, k, queue);
        }
    }

    /// Vertical handover `i` starts: the link in use goes down and what waits in its queue
    /// is lost (what is already on the wire still arrives).
    pub fn on_vertical_handover(
        &mut self,
        now: Time,
        i: u32,
        links: &mut [Link],
        packets: &mut PacketArena,
    ) {
        let Some(v) = &mut self.vho else { return };
        let at = Time::from_micros(v.vh.events[i as usize].at_us);
        let before = Time(at.as_nanos().saturating_sub(1));
        let LinkState::Active(old) = v.vh.state(before) else {
            return;
        };
        for pair in &v.pairs {
            let link = &mut links[pair[old].0 as usize];
            link.touch(now);
            while let Some(p) = link.queue.dequeue() {
                packets.remove(p);
                v.flushed_packets += 1;
            }
        }
    }

    /// An output sample: the flows' in-order delivered bytes, for the recovery times.
    pub fn on_delivered_sample(&mut self, now: Time, delivered_bytes: u64) {
        if let Some(v) = &mut self.vho {
            v.recovery.on_sample(now, delivered_bytes);
        }
    }

    /// One probe row per UE.
    pub fn record(&mut self, now: Time) {
        let Some(r) = &mut self.ran else { return };
        let dt = now.saturating_sub(r.last_sample).as_secs_f64();
        let t = now.as_secs_f64();
        let s = &mut self.series;
        for u in 0..r.ue_nodes.len() {
            let p = r.ran.ue_probe(u as u32, now);
            let c = &mut r.counters[u];
            s.t_s.push(t);
            s.ue.push(u as u32);
            s.x_m.push(p.position.x);
            s.y_m.push(p.position.y);
            s.serving_cell.push(p.serving_site as u32);
            s.lte.push(p.serving_technology == Technology::Lte);
            s.los.push(p.los);
            s.sinr_db.push(p.faded_sinr_db);
            s.large_scale_sinr_db.push(p.sinr_db);
            s.mcs.push(p.mcs.unwrap_or(u8::MAX));
            s.best_mmwave_sinr_db.push(p.best_mmwave_sinr_db);
            s.in_handover.push(p.in_interruption);
            s.handovers.push(p.handovers);
            s.rlc_bytes.push(p.cell.rlc_bytes);
            s.rlc_packets.push(p.cell.rlc_packets as u64);
            s.rlc_drops.push(c.rlc_drops);
            s.radio_losses
                .push(c.lost_radio + c.lost_handover_flush + c.lost_forward_overflow);
            s.arq_retransmissions.push(p.cell.arq_retransmissions);
            s.ue_rlc_held_pdus.push(p.cell.ue_rlc_held_pdus as u64);
            s.delivered_bytes.push(c.delivered_bytes);
            s.radio_mbps.push(if dt > 0.0 {
                (c.delivered_bytes - c.last_sample_bytes) as f64 * 8.0 / dt / 1e6
            } else {
                0.0
            });
            c.last_sample_bytes = c.delivered_bytes;
        }
        r.last_sample = now;
    }

    /// Takes the radio rows collected so far.
    pub fn drain(&mut self) -> RadioSeries {
        std::mem::take(&mut self.series)
    }

    /// UE names, indexed as in the radio series (empty without a RAN).
    pub fn ue_names(&self) -> Vec<String> {
        self.ran.as_ref().map_or(Vec::new(), |r| r.ue_names.clone())
    }

    /// Serving-cell names, indexed as the series' `serving_cell`.
    pub fn cell_names(&self) -> Vec<String> {
        self.ran
            .as_ref()
            .map_or(Vec::new(), |r| r.cell_names.clone())
    }

    pub fn network(&self) -> Option<&RadioNetwork> {
        self.ran.as_ref().map(|r| &r.ran)
    }
}

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
//! - deliveries become [`Event::ArriveAt`] events at the UE node; losses free the packet;
//! - the hot path allocates nothing: deliveries go through reused scratch vectors.
//!
//! Probes: one [`RadioSeries`] row per UE and sample (SINR, serving cell, LOS, RLC
//! occupancy and drops, ...), and a [`RadioSummary`] in the run summary (per-cell counters,
//! handovers, exact NLOS intervals, trace-link and vertical-handover counters).

use crate::config::Scenario;
use crate::error::ScenarioError;
use crate::radio_spec::{gateway_name, node_id, radio_config};
use crate::world::Event;
use ccsim_core::{EventQueue, Time};
use ccsim_net::{Link, LinkId, NodeId, PacketArena, PacketId};
use ccsim_radio::handover::{LinkState, VerticalHandover, VerticalHandoverEvent};
use ccsim_radio::trace::{LinkAdmission, MahimahiTrace, TraceLink};
use ccsim_radio::vertical_recovery::RecoveryMeter;
use ccsim_radio::{
    nlos_intervals, Admission, Delivery, LossReason, Outcome, RadioNetwork, Technology,
};
use serde::Serialize;

/// Per-UE radio samples, by column (drained like [`crate::metrics::Series`]).
#[derive(Clone, Debug, Default)]
pub struct RadioSeries {
    pub t_s: Vec<f64>,
    pub ue: Vec<u32>,
    pub x_m: Vec<f64>,
    pub y_m: Vec<f64>,
    /// Index of the serving cell (`[[radio.sites]]` order).
    pub serving_cell: Vec<u32>,
    /// The serving cell is an LTE cell.
    pub lte: Vec<bool>,
    /// LOS towards the serving cell (at the last channel update).
    pub los: Vec<bool>,
    /// SINR towards the serving cell (dB).
    pub sinr_db: Vec<f64>,
    /// Best SINR over the mmWave cells (dB).
    pub best_mmwave_sinr_db: Vec<f64>,
    /// In a handover interruption.
    pub in_handover: Vec<bool>,
    pub handovers: Vec<u32>,
    /// Bytes and packets waiting in the UE's RLC buffer at the serving cell.
    pub rlc_bytes: Vec<u64>,
    pub rlc_packets: Vec<u64>,
    /// Packets dropped by a full RLC buffer so far (all cells).
    pub rlc_drops: Vec<u64>,
    /// Packets lost on the radio (HARQ/RLC give-up, handover flush or X2 overflow) so far.
    pub radio_losses: Vec<u64>,
    /// IP bytes the radio delivered to the UE so far, and their rate since the last sample.
    pub delivered_bytes: Vec<u64>,
    pub radio_mbps: Vec<f64>,
}

#[derive(Clone, Copy, Debug, Default)]
struct UeCounters {
    rlc_drops: u64,
    lost_radio: u64,
    lost_handover_flush: u64,
    lost_forward_overflow: u64,
    delivered_packets: u64,
    delivered_bytes: u64,
    last_sample_bytes: u64,
}

struct Ran {
    ran: RadioNetwork,
    gateway: NodeId,
    ue_nodes: Vec<NodeId>,
    ue_names: Vec<String>,
    cell_names: Vec<String>,
    cell_tech: Vec<Technology>,
    cell_pos: Vec<[f64; 3]>,
    counters: Vec<UeCounters>,
    nlos: Vec<NlosInterval>,
    scheduled: Option<Time>,
    scratch: Vec<Delivery>,
    last_sample: Time,
}

impl Ran {
    /// Keeps one [`Event::Radio`] at the RAN's next deadline.
    fn arm(&mut self, now: Time, queue: &mut EventQueue<Event>) {
        if let Some(t) = self.ran.next_deadline() {
            let t = t.max(now);
            if self.scheduled.is_none_or(|cur| t < cur) {
                self.scheduled = Some(t);
                queue.schedule_timer(t, Event::Radio(0));
            }
        }
    }

    fn on_event(&mut self, now: Time, packets: &mut PacketArena, queue: &mut EventQueue<Event>) {
        if self.scheduled != Some(now) {
            return;
        }
        self.scheduled = None;
        self.ran.on_deadline(now, &mut self.scratch);
        for d in self.scratch.drain(..) {
            debug_assert!(d.at >= now, "radio delivery in the past: {d:?} at {now}");
            let id = PacketId(d.packet);
            let c = &mut self.counters[d.ue as usize];
            match d.outcome {
                Outcome::Delivered => {
                    c.delivered_packets += 1;
                    c.delivered_bytes += packets.get(id).ip_bytes as u64;
                    queue.schedule(d.at, Event::ArriveAt(self.ue_nodes[d.ue as usize], id));
                }
                Outcome::Lost(reason) => {
                    packets.remove(id);
                    match reason {
                        LossReason::Radio => c.lost_radio += 1,
                        LossReason::HandoverFlush => c.lost_handover_flush += 1,
                        LossReason::ForwardOverflow => c.lost_forward_overflow += 1,
                    }
                }
            }
        }
        self.arm(now, queue);
    }
}

struct Trace {
    name: String,
    link: TraceLink,
    to: NodeId,
    delay: Time,
    scheduled: Option<Time>,
    scratch: Vec<(u32, Time)>,
    max_queue_bytes: u64,
}

impl Trace {
    fn arm(&mut self, now: Time, k: u32, queue: &mut EventQueue<Event>) {
        if let Some(t) = self.link.next_deadline() {
            let t = t.max(now);
            if self.scheduled.is_none_or(|cur| t < cur) {
                self.scheduled = Some(t);
                queue.schedule_timer(t, Event::Radio(k));
            }
        }
    }

    fn on_event(&mut self, now: Time, k: u32, queue: &mut EventQueue<Event>) {
        if self.scheduled != Some(now) {
            return;
        }
        self.scheduled = None;
        self.link.on_deadline(now, &mut self.scratch);
        for (p, at) in self.scratch.drain(..) {
            queue.schedule(at + self.delay, Event::ArriveAt(self.to, PacketId(p)));
        }
        self.arm(now, k, queue);
    }
}

struct Vho {
    vh: VerticalHandover,
    /// `[L1, L2]` per direction.
    pairs: Vec<[LinkId; 2]>,
    names: [String; 2],
    lost_packets: u64,
    flushed_packets: u64,
    first_loss: Option<Time>,
    last_loss: Option<Time>,
    recovery: RecoveryMeter,
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

/// An exact NLOS interval of a UE towards a cell (from the geometry, not sampled).
#[derive(Clone, Debug, Serialize)]
pub struct NlosInterval {
    pub ue: u32,
    pub cell: u32,
    pub start_s: f64,
    pub end_s: f64,
    pub duration_s: f64,
}

#[derive(Clone, Debug, Serialize)]
pub struct CellSummary {
    pub id: u32,
    pub name: String,
    pub technology: String,
    pub position: [f64; 3],
    pub busy_slots: u64,
    pub tbs: u64,
    pub tb_retransmissions: u64,
    pub tx_bytes: u64,
    pub tx_packets: u64,
    pub retx_packets: u64,
    /// `tx_packets + retx_packets`: the packets the cell put on the air (seed 000 Fig. 5).
    pub transmissions: u64,
    pub delivered_packets: u64,
    pub lost_packets: u64,
    pub dropped_packets: u64,
}

#[derive(Clone, Debug, Serialize)]
pub struct UeSummary {
    pub id: u32,
    pub name: String,
    pub serving_cell: u32,
    pub handovers: u32,
    pub rlc_drops: u64,
    pub lost_radio: u64,
    pub lost_handover_flush: u64,
    pub lost_forward_overflow: u64,
    pub delivered_packets: u64,
    pub delivered_bytes: u64,
}

#[derive(Clone, Debug, Serialize)]
pub struct HandoverSummary {
    pub t_s: f64,
    pub ue: u32,
    pub from: u32,
    pub to: u32,
    pub forwarded: u32,
    pub lost: u32,
}

#[derive(Clone, Debug, Serialize)]
pub struct TraceLinkSummary {
    pub name: String,
    pub delivered_packets: u64,
    pub drops: u64,
    pub queue_bytes: u64,
    pub max_queue_bytes: u64,
}

#[derive(Clone, Debug, Serialize)]
pub struct VerticalHandoverSummary {
    pub links: [String; 2],
    /// Packets offered to the pair during an outage (lost).
    pub lost_packets: u64,
    /// Packets waiting in the old link's queue when it went down (lost).
    pub flushed_packets: u64,
    pub first_loss_s: Option<f64>,
    pub last_loss_s: Option<f64>,
    /// Per handover: the recovery time (docs/radio.md, `ccsim_radio::vertical_recovery`).
    pub events: Vec<VerticalHandoverEventSummary>,
}

#[derive(Clone, Debug, Serialize)]
pub struct VerticalHandoverEventSummary {
    pub at_s: f64,
    pub outage_s: f64,
    pub to: String,
    /// Goodput the flows must reach on the new link (80 % of its rate), Mb/s.
    pub target_mbps: f64,
    /// From the end of the outage to the end of the first 1 s window whose in-order goodput
    /// reaches `target_mbps`; `None` if it never does before the next handover or the end.
    pub recovery_s: Option<f64>,
}

/// The radio part of the run summary (`summary.json` key `radio`).
#[derive(Clone, Debug, Serialize)]
pub struct RadioSummary {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cells: Vec<CellSummary>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ues: Vec<UeSummary>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub handovers: Option<Vec<HandoverSummary>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nlos: Option<Vec<NlosInterval>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub trace_links: Vec<TraceLinkSummary>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vertical_handover: Option<VerticalHandoverSummary>,
}

fn read_trace(s: &Scenario, i: usize, file: &str) -> Result<MahimahiTrace, ScenarioError> {
    let path = format!("trace_links[{i}].trace");
    let p = std::path::Path::new(file);
    let full = match &s.base_dir {
        Some(dir) if p.is_relative() => dir.join(p),
        _ => p.to_path_buf(),
    };
    let text = std::fs::read_to_string(&full)
        .map_err(|e| ScenarioError::new(&path, format!("cannot read `{}`: {e}", full.display())))?;
    MahimahiTrace::parse(&text).map_err(|e| {
        ScenarioError::new(
            &path,
            format!("`{}` line {}: {}", full.display(), e.line, e.message),
        )
    })
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
            ran = Some(Ran {
                counters: vec![UeCounters::default(); cfg.ues.len()],
                ue_names: cfg.ues.iter().map(|u| u.name.clone()).collect(),
                cell_names: cfg.sites.iter().map(|c| c.name.clone()).collect(),
                cell_tech: cfg.sites.iter().map(|c| c.technology).collect(),
                cell_pos: cfg
                    .sites
                    .iter()
                    .map(|c| [c.position.x, c.position.y, c.position.z])
                    .collect(),
                ran: network,
                gateway,
                ue_nodes,
                nlos,
                scheduled: None,
                scratch: Vec::with_capacity(4096),
                last_sample: Time::ZERO,
            });
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
                match r.ran.enqueue(now, u, id.0, bytes) {
                    Admission::Accepted => {}
                    Admission::Dropped => {
                        packets.remove(id);
                        r.counters[u as usize].rlc_drops += 1;
                    }
                }
                r.arm(now, queue);
            } else {
                queue.schedule(r.ran.uplink(now, u), Event::ArriveAt(r.gateway, id));
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
            s.sinr_db.push(p.sinr_db);
            s.best_mmwave_sinr_db.push(p.best_mmwave_sinr_db);
            s.in_handover.push(p.in_interruption);
            s.handovers.push(p.handovers);
            s.rlc_bytes.push(p.cell.rlc_bytes);
            s.rlc_packets.push(p.cell.rlc_packets as u64);
            s.rlc_drops.push(c.rlc_drops);
            s.radio_losses
                .push(c.lost_radio + c.lost_handover_flush + c.lost_forward_overflow);
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

    pub fn summary(&self) -> RadioSummary {
        let mut out = RadioSummary {
            cells: Vec::new(),
            ues: Vec::new(),
            handovers: None,
            nlos: None,
            trace_links: self
                .traces
                .iter()
                .map(|t| TraceLinkSummary {
                    name: t.name.clone(),
                    delivered_packets: t.link.delivered,
                    drops: t.link.drops,
                    queue_bytes: t.link.queue_bytes(),
                    max_queue_bytes: t.max_queue_bytes,
                })
                .collect(),
            vertical_handover: self.vho.as_ref().map(|v| VerticalHandoverSummary {
                links: v.names.clone(),
                lost_packets: v.lost_packets,
                flushed_packets: v.flushed_packets,
                first_loss_s: v.first_loss.map(Time::as_secs_f64),
                last_loss_s: v.last_loss.map(Time::as_secs_f64),
                events: v
                    .vh
                    .events
                    .iter()
                    .enumerate()
                    .map(|(k, e)| VerticalHandoverEventSummary {
                        at_s: e.at_us as f64 / 1e6,
                        outage_s: e.outage_us as f64 / 1e6,
                        to: v.names[e.to_link].clone(),
                        target_mbps: v.recovery.target_bps(k) / 1e6,
                        recovery_s: v.recovery.recovery(k).map(Time::as_secs_f64),
                    })
                    .collect(),
            }),
        };
        if let Some(r) = &self.ran {
            out.cells = (0..r.ran.num_sites())
                .map(|c| {
                    let k = r.ran.cell_counters(c);
                    CellSummary {
                        id: c as u32,
                        name: r.cell_names[c].clone(),
                        technology: match r.cell_tech[c] {
                            Technology::Mmwave => "mmwave".into(),
                            Technology::Lte => "lte".into(),
                        },
                        position: r.cell_pos[c],
                        busy_slots: k.busy_slots,
                        tbs: k.tbs,
                        tb_retransmissions: k.tb_retransmissions,
                        tx_bytes: k.tx_bytes,
                        tx_packets: k.tx_packets,
                        retx_packets: k.retx_packets,
                        transmissions: k.tx_packets + k.retx_packets,
                        delivered_packets: k.delivered_packets,
                        lost_packets: k.lost_packets,
                        dropped_packets: k.dropped_packets,
                    }
                })
                .collect();
            out.ues = r
                .counters
                .iter()
                .enumerate()
                .map(|(u, c)| UeSummary {
                    id: u as u32,
                    name: r.ue_names[u].clone(),
                    serving_cell: r.ran.serving_site(u as u32) as u32,
                    handovers: r.ran.ue_probe(u as u32, Time::ZERO).handovers,
                    rlc_drops: c.rlc_drops,
                    lost_radio: c.lost_radio,
                    lost_handover_flush: c.lost_handover_flush,
                    lost_forward_overflow: c.lost_forward_overflow,
                    delivered_packets: c.delivered_packets,
                    delivered_bytes: c.delivered_bytes,
                })
                .collect();
            out.handovers = Some(
                r.ran
                    .handover_log()
                    .iter()
                    .map(|h| HandoverSummary {
                        t_s: h.at.as_secs_f64(),
                        ue: h.ue,
                        from: h.from as u32,
                        to: h.to as u32,
                        forwarded: h.forwarded,
                        lost: h.lost,
                    })
                    .collect(),
            );
            out.nlos = Some(r.nlos.clone());
        }
        out
    }
}

impl Vho {
    #[inline]
    fn steer(
        &mut self,
        now: Time,
        l: LinkId,
        id: PacketId,
        packets: &mut PacketArena,
    ) -> Option<LinkId> {
        for pair in &self.pairs {
            if l == pair[0] || l == pair[1] {
                return match self.vh.state(now) {
                    LinkState::Active(i) => Some(pair[i]),
                    LinkState::Outage { .. } => {
                        packets.remove(id);
                        self.lost_packets += 1;
                        self.first_loss.get_or_insert(now);
                        self.last_loss = Some(now);
                        None
                    }
                };
            }
        }
        Some(l)
    }
}

fn build_vho(
    v: &crate::radio_spec::VerticalHandoverSpec,
    links: &[Link],
) -> Result<Vho, ScenarioError> {
    let p = "vertical_handover";
    if v.links.len() != 2 {
        return Err(ScenarioError::new(
            format!("{p}.links"),
            format!(
                "needs exactly two link names [L1, L2], got {}",
                v.links.len()
            ),
        ));
    }
    let find = |name: &str, i: usize| -> Result<LinkId, ScenarioError> {
        let mut hits = links.iter().enumerate().filter(|(_, l)| l.name == name);
        match (hits.next(), hits.next()) {
            (Some((k, _)), None) => Ok(LinkId(k as u32)),
            (Some(_), Some(_)) => Err(ScenarioError::new(
                format!("{p}.links[{i}]"),
                format!("more than one link is named `{name}`; give the links distinct names"),
            )),
            (None, _) => Err(ScenarioError::new(
                format!("{p}.links[{i}]"),
                format!(
                    "unknown link `{name}`; links: {}",
                    links
                        .iter()
                        .map(|l| l.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )),
        }
    };
    let a = find(&v.links[0], 0)?;
    let b = find(&v.links[1], 1)?;
    let (la, lb) = (&links[a.0 as usize], &links[b.0 as usize]);
    if a == b || la.from != lb.from || la.to != lb.to {
        return Err(ScenarioError::new(
            format!("{p}.links"),
            "the two links must be different and join the same two nodes in the same direction",
        ));
    }
    let mut pairs = vec![[a, b]];
    // The reverse directions of bidirectional links switch too.
    let rev = |l: &Link| {
        links
            .iter()
            .position(|r| r.from == l.to && r.to == l.from && r.name == format!("{}:rev", l.name))
            .map(|k| LinkId(k as u32))
    };
    if let (Some(ra), Some(rb)) = (rev(la), rev(lb)) {
        pairs.push([ra, rb]);
    }
    if v.initial > 1 {
        return Err(ScenarioError::new(
            format!("{p}.initial"),
            format!("must be 0 or 1, got {}", v.initial),
        ));
    }
    let mut events = Vec::new();
    for (i, e) in v.events.iter().enumerate() {
        if e.to > 1 {
            return Err(ScenarioError::new(
                format!("{p}.events[{i}].to"),
                format!("must be 0 or 1, got {}", e.to),
            ));
        }
        events.push(VerticalHandoverEvent {
            at_us: e.at.time().as_nanos() / 1000,
            outage_us: e.outage.time().as_nanos() / 1000,
            to_link: e.to,
        });
    }
    let vh = VerticalHandover {
        initial_link: v.initial,
        events,
    };
    vh.validate()
        .map_err(|m| ScenarioError::new(format!("{p}.events"), m))?;
    let recovery = RecoveryMeter::new(&vh, [la.rate_bps, lb.rate_bps]);
    Ok(Vho {
        recovery,
        vh,
        pairs,
        names: [v.links[0].clone(), v.links[1].clone()],
        lost_packets: 0,
        flushed_packets: 0,
        first_loss: None,
        last_loss: None,
    })
}

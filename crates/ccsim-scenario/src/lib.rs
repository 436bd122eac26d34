//! ccsim-scenario: scenario files in, results out.
//!
//! ```text
//! TOML/JSON text --load--> Scenario (typed, validated) --build--> World --run--> Summary + series
//! ```

pub mod build;
pub mod config;
pub mod error;
pub mod link_changes;
pub mod load;
pub mod mesh;
pub mod metrics;
pub mod probes;
pub mod radio_glue;
mod radio_port;
pub mod radio_spec;
pub mod schema_doc;
pub mod seg_trace;
pub mod tcp_options;
pub mod units;
pub mod world;

pub use ccsim_engine::{app, rtt_stats};
pub use config::Scenario;
pub use error::ScenarioError;
pub use load::{scenario_from_json, scenario_from_toml};
pub use metrics::Summary;

use ccsim_core::Time;
use metrics::{flow_summary, jain_index, FlowSeries, QueueSeries, QueueSummary, ReassemblySummary};
use world::World;

/// All flows' delivered bytes over [earliest flow start, `end`], in Mb/s: never more than
/// the capacity they share, unlike the sum of per-flow goodputs over different intervals.
fn total_goodput_mbps(flows: &[metrics::FlowSummary], end: Time) -> f64 {
    let bytes: u64 = flows.iter().map(|f| f.bytes_delivered).sum();
    let start = flows
        .iter()
        .map(|f| f.start_s)
        .fold(f64::INFINITY, f64::min);
    let span = end.as_secs_f64() - start;
    if span > 0.0 {
        bytes as f64 * 8.0 / span / 1e6
    } else {
        0.0
    }
}

/// `x` per wall-clock second, `None` when no wall time has passed.
fn per_wall_second(x: f64, wall: std::time::Duration) -> Option<f64> {
    (wall > std::time::Duration::ZERO).then(|| x / wall.as_secs_f64())
}

/// A scenario ready to run, advanced in steps by the caller (for progress reporting).
pub struct Simulation {
    scenario: Scenario,
    world: World,
    /// Wall time spent inside the run calls.
    wall: std::time::Duration,
    /// Delivered bytes over time, kept for the link-change metrics (scenarios with changes).
    link_changes: Option<link_changes::LinkChangeProbe>,
}

impl Simulation {
    pub fn new(scenario: Scenario) -> Result<Self, ScenarioError> {
        let world = build::build_world(&scenario)?;
        Ok(Simulation {
            link_changes: link_changes::LinkChangeProbe::new(&scenario),
            scenario,
            world,
            wall: std::time::Duration::ZERO,
        })
    }

    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    pub fn duration(&self) -> Time {
        self.world.end
    }

    pub fn now(&self) -> Time {
        self.world.now()
    }

    pub fn is_finished(&self) -> bool {
        self.world.is_finished()
    }

    pub fn events(&self) -> u64 {
        self.world.events_processed()
    }

    /// Runs until simulated time `t` (or the end of the run).
    pub fn run_until(&mut self, t: Time) {
        let start = std::time::Instant::now();
        self.world.run_until(t);
        self.wall += start.elapsed();
    }

    /// Runs until simulated time `t` or until the wall clock passes `deadline`, whichever
    /// comes first; returns whether `t` was reached.
    pub fn run_until_deadline(&mut self, t: Time, deadline: std::time::Instant) -> bool {
        let start = std::time::Instant::now();
        let reached = self.world.run_until_deadline(t, deadline);
        self.wall += start.elapsed();
        reached
    }

    /// Runs to the end.
    pub fn run(&mut self) {
        self.run_until(self.world.end);
    }

    /// Wall time spent running so far.
    pub fn wall(&self) -> std::time::Duration {
        self.wall
    }

    pub fn world(&self) -> &World {
        &self.world
    }

    /// Mutable access for debugging hooks (e.g. [`seg_trace`]) before or between runs.
    pub fn world_mut(&mut self) -> &mut World {
        &mut self.world
    }

    /// Time-series rows collected since the last drain.
    pub fn drain_series(&mut self) -> (FlowSeries, QueueSeries) {
        let (f, q) = self.world.probe.series.drain();
        if let Some(p) = &mut self.link_changes {
            p.observe(&f);
        }
        (f, q)
    }

    /// Radio time-series rows (one per UE and sample) collected since the last drain; empty
    /// without a `[radio]` section.
    pub fn drain_radio_series(&mut self) -> radio_glue::RadioSeries {
        self.world
            .radio
            .as_deref_mut()
            .map(|g| g.drain())
            .unwrap_or_default()
    }

    /// Names of the radio UEs and cells, indexed as in the radio series.
    pub fn radio_names(&self) -> (Vec<String>, Vec<String>) {
        self.world
            .radio
            .as_deref()
            .map_or((Vec::new(), Vec::new()), |g| (g.ue_names(), g.cell_names()))
    }

    /// Names of the links, indexed as in the queue series.
    pub fn link_names(&self) -> Vec<String> {
        self.world.links.iter().map(|l| l.name.clone()).collect()
    }

    /// The summary at the current simulated time.
    pub fn summary(&self) -> Summary {
        let w = &self.world;
        let end = w.now();
        let flows: Vec<_> = w
            .flows
            .iter()
            .map(|f| flow_summary(f, end, &w.nodes))
            .collect();
        let goodputs: Vec<f64> = flows.iter().map(|f| f.goodput_mbps).collect();
        let queues = w
            .links
            .iter()
            .map(|l| QueueSummary {
                id: l.name.clone(),
                from: w.nodes[l.from.0 as usize].clone(),
                to: w.nodes[l.to.0 as usize].clone(),
                drops: l.queue.drops,
                enqueued: l.queue.enqueued,
                max_packets: l.queue.max_packets,
                mean_packets: l.mean_occupancy(end),
                tx_packets: l.tx_packets,
            })
            .collect();
        Summary {
            simulator: format!("ccsim {}", env!("CARGO_PKG_VERSION")),
            scenario: self.scenario.name.clone(),
            seed: self.scenario.run.seed,
            duration_s: end.as_secs_f64(),
            total_goodput_mbps: total_goodput_mbps(&flows, end),
            jain_index: jain_index(&goodputs),
            routing_drops: {
                let d: Vec<metrics::RoutingDrops> = w
                    .nodes
                    .iter()
                    .zip(&w.routing.counters)
                    .filter(|(_, c)| c.dropped_no_route + c.dropped_ttl > 0)
                    .map(|(n, c)| metrics::RoutingDrops {
                        node: n.clone(),
                        no_route: c.dropped_no_route,
                        ttl_expired: c.dropped_ttl,
                    })
                    .collect();
                (!d.is_empty()).then_some(d)
            },
            mesh: self
                .scenario
                .mesh
                .as_ref()
                .map(|m| mesh::summary::summary(w, &m.routing, &flows)),
            link_changes: self.link_changes.as_ref().map(|p| {
                // Rows not drained yet count too.
                let mut p = p.clone();
                p.observe(&w.probe.series.flow);
                p.metrics(&flows, end.as_secs_f64())
            }),
            flows,
            queues,
            events: w.events_processed(),
            wall_s: self.wall.as_secs_f64(),
            events_per_s: per_wall_second(w.events_processed() as f64, self.wall),
            sim_speed: per_wall_second(end.as_secs_f64(), self.wall),
            radio: w.radio.as_ref().map(|g| g.summary()),
            ip_reassembly: {
                let r = &w.reassembly;
                (r.stats.datagrams > 0 || r.pending() > 0).then(|| ReassemblySummary {
                    datagrams: r.stats.datagrams,
                    stale: r.stats.stale,
                    expired: r.stats.expired,
                    pending: r.pending() as u64,
                })
            },
        }
    }
}

//! From a validated [`Scenario`] to a runnable [`World`]: nodes, links, routes, flows.
//! Every check names the key path of what it rejects.
//!
//! - `mod.rs` (here): the run-wide bounds and the flows' assembly ([`build_world`]);
//! - [`tcp_config`]: a flow's `TcpConfig` from its TCP options, and its algorithm's parameters;
//! - `topology.rs`: the `[dumbbell]` template and explicit `[[nodes]]`/`[[links]]`.

mod tcp_config;
mod topology;

pub(crate) use tcp_config::seed_randomised_algorithm;
pub use tcp_config::tcp_config;

use crate::config::{FlowSpec, Profile, Scenario};
use crate::error::ScenarioError;
use crate::world::{Flow, World};
use ccsim_core::Time;
use ccsim_net::NodeId;
use ccsim_tcp::{TcpReceiver, TcpSender};
use tcp_config::profile_algorithm_defaults;
use topology::{check_no_route_loop, dumbbell, explicit};

/// IP + TCP + timestamp-option bytes of a full segment: a BDP in packets is
/// BDP bytes / (MSS + 52) (see `validation/ns3/README.md`).
pub const FULL_SEGMENT_OVERHEAD: u64 = 52;

/// Shortest `output.sample_interval`.
pub const MIN_SAMPLE_INTERVAL: Time = Time::from_micros(100);

/// Most samples per flow and link a run may record (`run.duration / output.sample_interval`).
pub const MAX_SAMPLES: u64 = 100_000_000;

/// Most flows a scenario may have: about 40 kB of state each, so 4 GB at the limit.
pub const MAX_FLOWS: u64 = 100_000;

/// Most nodes an explicit topology may have (the routing table's bound is separate:
/// [`ccsim_net::routing::MAX_CORE_CELLS`]).
pub const MAX_NODES: usize = 1_000_000;

/// Builds the world the scenario describes, or says precisely what is wrong with it.
pub fn build_world(s: &Scenario) -> Result<World, ScenarioError> {
    if let Some(m) = &s.mesh {
        return crate::mesh::build::build_mesh_world(s, m);
    }
    let has_radio = s.radio.is_some() || !s.trace_links.is_empty();
    let has_explicit = !s.nodes.is_empty() || !s.links.is_empty() || has_radio;
    if s.dumbbell.is_some() && has_radio {
        return Err(ScenarioError::new(
            if s.radio.is_some() {
                "radio"
            } else {
                "trace_links"
            },
            "radio and trace links need an explicit topology ([[nodes]]/[[links]]), not [dumbbell]",
        ));
    }
    if s.dumbbell.is_some() && has_explicit {
        return Err(ScenarioError::new(
            "dumbbell",
            "give either the [dumbbell] template or explicit [[nodes]]/[[links]], not both",
        ));
    }
    if s.dumbbell.is_none() && !has_explicit {
        return Err(ScenarioError::new(
            "",
            "the scenario has no topology: add a [dumbbell] table, or [[nodes]] and [[links]]",
        ));
    }
    if s.flows.is_empty() {
        return Err(ScenarioError::new(
            "flows",
            "at least one [[flows]] entry is required",
        ));
    }
    if s.run.duration.time() == Time::ZERO {
        return Err(ScenarioError::new(
            "run.duration",
            "must be positive, got 0",
        ));
    }
    // Bounds on the output series: `1ns` wrote 10 GB in 15 s (issue 18).
    let interval = s.output.sample_interval.time();
    if interval < MIN_SAMPLE_INTERVAL {
        return Err(ScenarioError::new(
            "output.sample_interval",
            format!("must be at least 100us, got {}s", interval.as_secs_f64()),
        ));
    }
    let samples = s.run.duration.time().as_nanos() / interval.as_nanos();
    if samples > MAX_SAMPLES {
        return Err(ScenarioError::new(
            "output.sample_interval",
            format!(
                "the run would record {samples} samples per flow, more than {MAX_SAMPLES}; \
                 use a longer interval (at least {}s for this run.duration)",
                s.run.duration.time().as_secs_f64() / MAX_SAMPLES as f64
            ),
        ));
    }
    // One entry per flow instance: (spec index, spec).
    let mut instances: Vec<(usize, &FlowSpec)> = Vec::new();
    let mut total_flows = 0u64;
    for (i, f) in s.flows.iter().enumerate() {
        if f.count == 0 {
            return Err(ScenarioError::new(
                format!("flows[{i}].count"),
                "must be at least 1, got 0",
            ));
        }
        // Checked before anything per flow is allocated (about 40 kB each).
        total_flows += f.count as u64;
        if total_flows > MAX_FLOWS {
            return Err(ScenarioError::new(
                format!("flows[{i}].count"),
                format!(
                    "at most {MAX_FLOWS} flows in total are supported (see docs/reliability.md), \
                     this entry brings the total to {total_flows}"
                ),
            ));
        }
        for _ in 0..f.count {
            instances.push((i, f));
        }
    }
    let first_mss = tcp_config(&s.flows[0].tcp.or(&s.tcp), "flows[0].tcp")?.mss;
    let topo = if s.dumbbell.is_some() {
        dumbbell(s, instances.len(), first_mss)?
    } else {
        explicit(s, first_mss)?
    };

    let mut flows = Vec::new();
    for (k, &(i, f)) in instances.iter().enumerate() {
        let path = format!("flows[{i}]");
        let tcp = tcp_config(&f.tcp.or(&s.tcp), &format!("{path}.tcp"))?;
        let (src, dst) = if s.dumbbell.is_some() {
            if f.src.is_some() || f.dst.is_some() {
                return Err(ScenarioError::new(
                    format!("{path}.src"),
                    "the dumbbell places flows itself (flow k runs s<k> → d<k>); remove src/dst",
                ));
            }
            topo.flow_endpoints[k]
        } else {
            let node = |name: &Option<String>, key: &str| -> Result<NodeId, ScenarioError> {
                let name = name.as_ref().ok_or_else(|| {
                    ScenarioError::new(
                        format!("{path}.{key}"),
                        "is required with an explicit topology",
                    )
                })?;
                topo.nodes
                    .iter()
                    .position(|n| n == name)
                    .map(|x| NodeId(x as u32))
                    .ok_or_else(|| {
                        ScenarioError::new(
                            format!("{path}.{key}"),
                            format!(
                                "unknown node `{name}`; defined nodes: {}",
                                topo.nodes.join(", ")
                            ),
                        )
                    })
            };
            let (a, z) = (node(&f.src, "src")?, node(&f.dst, "dst")?);
            if a == z {
                return Err(ScenarioError::new(
                    format!("{path}.dst"),
                    "must differ from src",
                ));
            }
            if topo.routes.next_hop(a, z).is_none() || topo.routes.next_hop(z, a).is_none() {
                return Err(ScenarioError::new(
                    format!("{path}.dst"),
                    format!(
                        "no route between `{}` and `{}` in both directions",
                        topo.nodes[a.0 as usize], topo.nodes[z.0 as usize]
                    ),
                ));
            }
            (a, z)
        };
        let mut params: serde_json::Map<String, serde_json::Value> =
            serde_json::to_value(&f.cca_params)
                .ok()
                .and_then(|v| v.as_object().cloned())
                .unwrap_or_default();
        let ns3_profile = f.tcp.or(&s.tcp).profile.unwrap_or_default() == Profile::Ns3;
        seed_randomised_algorithm(&f.cca, &mut params, s.run.seed, k as u32, ns3_profile);
        profile_algorithm_defaults(&f.cca, &mut params, ns3_profile);
        let cca = ccsim_cca::build(&f.cca, &params).map_err(|e| {
            let key = if e.to_string().contains("parameter") {
                "cca_params"
            } else {
                "cca"
            };
            ScenarioError::new(format!("{path}.{key}"), e.to_string())
        })?;
        let bytes = f.bytes.map(|b| b.0);
        if bytes == Some(0) {
            return Err(ScenarioError::new(
                format!("{path}.bytes"),
                "must be at least 1 byte (omit it for an unlimited transfer)",
            ));
        }
        let start = f.start.map(|d| d.time()).unwrap_or(Time::ZERO);
        if start >= s.run.duration.time() {
            return Err(ScenarioError::new(
                format!("{path}.start"),
                format!(
                    "the flow would start at {}s, not before the end of the run \
                     (run.duration = {}s)",
                    start.as_secs_f64(),
                    s.run.duration.time().as_secs_f64()
                ),
            ));
        }
        if let Some(c) = f.app.as_ref().and_then(|a| a.chunk).filter(|c| c.0 == 0) {
            return Err(ScenarioError::new(
                format!("{path}.app.chunk"),
                format!("must be at least 1 byte, got {}B", c.0),
            ));
        }
        let app = f.app.as_ref().map(|a| {
            crate::app::AppSource::new(
                a.rate.bps(),
                a.chunk.map_or(tcp.mss as u64, |c| c.0.max(1)),
                a.on.map(|d| d.time()),
                a.off.map_or(Time::ZERO, |d| d.time()),
                bytes,
            )
        });
        if f.app
            .as_ref()
            .and_then(|a| a.on)
            .is_some_and(|on| on.time() == Time::ZERO)
        {
            return Err(ScenarioError::new(
                format!("{path}.app.on"),
                "must be positive (omit it for an always-on source)",
            ));
        }
        // An application source writes over time: its sender starts with nothing to send.
        let initial = if app.is_some() { Some(0) } else { bytes };
        let sender = TcpSender::new(tcp.clone(), cca, initial);
        let receiver = TcpReceiver::new(tcp);
        if !s.routes.is_empty() {
            check_no_route_loop(&topo, src, dst, &path)?;
        }
        let flow = Flow::new(k as u32, src, dst, start, bytes, sender, receiver);
        flows.push(match app {
            Some(a) => flow.with_app(a),
            None => flow,
        });
    }
    let radio =
        crate::radio_glue::RadioGlue::build(s, &topo.nodes, &topo.links, s.run.duration.time())?;
    // Queues behave as ns-3's device queues under its traffic-control layer in the `ns3`
    // profile (the scenario-wide `tcp.profile`).
    let ns3_queues = s.tcp.profile.unwrap_or_default() == Profile::Ns3;
    let mut topo = topo;
    for link in topo.links.iter_mut() {
        link.queue.set_ns3_flow_control(ns3_queues);
    }
    let mut world = World::new(
        topo.nodes,
        topo.links,
        topo.routes,
        flows,
        topo.changes,
        s.run.duration.time(),
        s.output.sample_interval.time(),
    );
    if let Some(glue) = radio {
        world.attach_radio(glue);
    }
    Ok(world)
}

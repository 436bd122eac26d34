//! From a scenario with a `[mesh]` table to a runnable world.

use super::bp::BpState;
use super::config::MeshConfig;
use super::olsr_glue::OlsrGlue;
use super::routing::{MeshRouting, Protocol};
use super::topology;
use super::udp::UdpSource;
use crate::build::{seed_randomised_algorithm, tcp_config};
use crate::config::{Profile, Scenario};
use crate::error::ScenarioError;
use crate::world::{Flow, World};
use ccsim_core::{RngStream, Time};
use ccsim_net::{QueueLimit, RoutingTable};
use ccsim_routing::backpressure::Granularity;
use ccsim_routing::olsr::OlsrConfig;
use ccsim_tcp::{TcpReceiver, TcpSender};

/// The routing keys' allowed values, for errors.
const ROUTINGS: &str = "static, olsr, bp_per_packet, bp_per_flow, bp_per_burst";

pub fn build_mesh_world(s: &Scenario, m: &MeshConfig) -> Result<World, ScenarioError> {
    if s.dumbbell.is_some() || !s.nodes.is_empty() || !s.links.is_empty() || s.radio.is_some() {
        return Err(ScenarioError::new(
            "mesh",
            "[mesh] builds its own topology: remove [dumbbell], [[nodes]], [[links]] and [radio]",
        ));
    }
    if !s.flows.is_empty() {
        return Err(ScenarioError::new(
            "flows",
            "[mesh] creates one download per UE itself (keys under [mesh.downloads]); remove [[flows]]",
        ));
    }
    let mut topo = topology::build(m)?;
    let radio = if m.access == "lte" {
        Some(super::lte::radio_config(m, &topo)?)
    } else {
        None
    };
    // Radio hops route like links but are not links (ids past the real ones).
    let real = topo.links.len();
    if radio.is_some() {
        topo.links.extend(super::lte::pseudo_links(&topo));
    }
    let mut table = RoutingTable::new(topo.nodes.len());
    table
        .fill_shortest_paths(&topo.links)
        .map_err(|e| ScenarioError::new("mesh", e.to_string()))?;
    topo.links.truncate(real);
    let radio = match &radio {
        Some(cfg) => Some(super::lte::glue(cfg, &topo, s.run.seed, real as u32)?),
        None => None,
    };

    // One download per UE from the server, flow k starting at first_start + k·spacing.
    let d = &m.downloads;
    if d.bytes.0 == 0 {
        return Err(ScenarioError::new(
            "mesh.downloads.bytes",
            "must be at least 1 byte",
        ));
    }
    let tcp = tcp_config(&s.tcp, "tcp")?;
    let ns3_profile = s.tcp.profile.unwrap_or_default() == Profile::Ns3;
    let mut flows = Vec::with_capacity(topo.ues.len());
    for (k, &ue) in topo.ues.iter().enumerate() {
        if table.next_hop(topo.server, ue).is_none() {
            return Err(ScenarioError::new(
                "mesh.topology",
                format!(
                    "UE `{}` cannot be reached from the server",
                    topo.nodes[ue.0 as usize]
                ),
            ));
        }
        let mut params: serde_json::Map<String, serde_json::Value> =
            serde_json::to_value(&d.cca_params)
                .ok()
                .and_then(|v| v.as_object().cloned())
                .unwrap_or_default();
        seed_randomised_algorithm(&d.cca, &mut params, s.run.seed, k as u32, ns3_profile);
        let cca = ccsim_cca::build(&d.cca, &params).map_err(|e| {
            let key = if e.to_string().contains("parameter") {
                "cca_params"
            } else {
                "cca"
            };
            ScenarioError::new(format!("mesh.downloads.{key}"), e.to_string())
        })?;
        let start = d.first_start.time() + Time(d.start_spacing.time().as_nanos() * k as u64);
        let sender = TcpSender::new(tcp.clone(), cca, Some(d.bytes.0));
        let receiver = TcpReceiver::new(tcp.clone());
        flows.push(Flow::new(
            k as u32,
            topo.server,
            ue,
            start,
            Some(d.bytes.0),
            sender,
            receiver,
        ));
    }

    let udp = udp_sources(s, m, &topo)?;
    let n_tcp = flows.len() as u32;
    let flow_keys = 2 * n_tcp as usize + udp.len();
    let protocol = match m.routing.as_str() {
        "static" => Protocol::Static,
        "olsr" => {
            for (key, d) in [
                ("hello_interval", m.olsr.hello_interval),
                ("tc_interval", m.olsr.tc_interval),
            ] {
                if d.time() == Time::ZERO {
                    return Err(ScenarioError::new(
                        format!("mesh.olsr.{key}"),
                        "must be positive",
                    ));
                }
            }
            let cfg = OlsrConfig {
                hello_interval: m.olsr.hello_interval.time(),
                tc_interval: m.olsr.tc_interval.time(),
                ..OlsrConfig::default()
            };
            Protocol::Olsr(Box::new(OlsrGlue::new(
                &cfg,
                &topo.routers,
                topo.links.len(),
                s.run.seed,
            )))
        }
        "bp_per_packet" | "bp_per_flow" | "bp_per_burst" => {
            let granularity = match m.routing.as_str() {
                "bp_per_packet" => Granularity::PerPacket,
                "bp_per_flow" => Granularity::PerFlow {
                    idle_timeout: m.bp.flow_idle_timeout.time(),
                },
                _ => {
                    if m.bp.burst_gap.time() == Time::ZERO
                        || m.bp.burst_interval.time() == Time::ZERO
                    {
                        return Err(ScenarioError::new(
                            "mesh.bp.burst_gap",
                            "burst_gap and burst_interval must be positive",
                        ));
                    }
                    Granularity::PerBurst {
                        gap: m.bp.burst_gap.time(),
                        interval: m.bp.burst_interval.time(),
                    }
                }
            };
            // Q_th of a router: what its mesh queues hold together (its data queue, in the
            // authors' code), in packets.
            let qth = topo
                .routers
                .iter()
                .map(|r| {
                    r.ports
                        .iter()
                        .map(|p| match topo.links[p.link.0 as usize].queue.limit() {
                            QueueLimit::Packets(n) => n as u32,
                            QueueLimit::Bytes(b) => (b / 1500).max(1) as u32,
                        })
                        .sum()
                })
                .collect();
            Protocol::Backpressure(Box::new(BpState::new(
                granularity,
                qth,
                flow_keys,
                s.run.seed,
            )))
        }
        other => {
            return Err(ScenarioError::new(
                "mesh.routing",
                format!("unknown routing `{other}`; allowed: {ROUTINGS}"),
            ))
        }
    };

    let mut links = topo.links;
    let ns3_queues = ns3_profile;
    for link in links.iter_mut() {
        link.queue.set_ns3_flow_control(ns3_queues);
    }
    let mesh = MeshRouting {
        routers: topo.routers,
        router_of: topo.router_of,
        serving: topo.serving,
        protocol,
        tcp_flows: n_tcp,
    };
    let mut world = World::new(
        topo.nodes,
        links,
        table,
        flows,
        Vec::new(),
        s.run.duration.time(),
        s.output.sample_interval.time(),
    );
    world.stop_when_flows_finish = true;
    world.attach_mesh(mesh, udp);
    if let Some(glue) = radio {
        world.attach_radio(glue);
    }
    Ok(world)
}

/// The UDP background load: `flows` sources between random distinct pairs of cell routers
/// (drawn from the run seed), sharing the aggregate rate evenly.
fn udp_sources(
    s: &Scenario,
    m: &MeshConfig,
    topo: &topology::MeshTopology,
) -> Result<Vec<UdpSource>, ScenarioError> {
    let u = &m.udp;
    let rate = u.aggregate_rate.bps();
    if rate == 0 {
        return Ok(Vec::new());
    }
    if u.flows == 0 {
        return Err(ScenarioError::new(
            "mesh.udp.flows",
            "must be at least 1 with a positive aggregate_rate",
        ));
    }
    if !(28..=1500).contains(&u.packet_bytes) {
        return Err(ScenarioError::new(
            "mesh.udp.packet_bytes",
            format!(
                "must be between 28 (IP + UDP headers) and 1500 (the links' MTU), got {}",
                u.packet_bytes
            ),
        ));
    }
    if topo.cells < 2 {
        return Err(ScenarioError::new(
            "mesh.udp",
            "UDP pairs need at least two cells",
        ));
    }
    let per_flow = rate as f64 / u.flows as f64;
    let interval = Time::from_secs_f64(u.packet_bytes as f64 * 8.0 / per_flow);
    if interval == Time::ZERO {
        return Err(ScenarioError::new(
            "mesh.udp.aggregate_rate",
            "too high for the packet size",
        ));
    }
    let stop = u.stop.map_or(s.run.duration.time(), |d| d.time());
    let mut rng = RngStream::new(s.run.seed, "mesh udp pairs");
    let cell_router = |i: u64| topo.routers[i as usize + 1].node;
    let mut out = Vec::new();
    for _ in 0..u.flows {
        let a = rng.below(topo.cells as u64);
        let mut b = rng.below(topo.cells as u64 - 1);
        if b >= a {
            b += 1;
        }
        // A random phase within one interval, so sources do not send in lockstep.
        let phase = Time(rng.below(interval.as_nanos().max(1)));
        out.push(UdpSource::new(
            cell_router(a),
            cell_router(b),
            u.packet_bytes,
            u.start.time() + phase,
            stop,
            interval,
        ));
    }
    Ok(out)
}

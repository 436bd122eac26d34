//! The mesh part of the run summary (seed 004's metrics; definitions in docs/outputs.md).

use super::routing::Protocol;
use crate::metrics::{jain_index, percentile, FlowSummary};
use crate::world::World;
use serde::Serialize;

/// Mean, 20th/80th percentiles, min and max: the paper's candlestick.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Candlestick {
    pub n: usize,
    pub mean: f64,
    pub p20: f64,
    pub p80: f64,
    pub min: f64,
    pub max: f64,
}

impl Candlestick {
    pub fn of(values: &[f64]) -> Option<Candlestick> {
        if values.is_empty() {
            return None;
        }
        let mut v = values.to_vec();
        v.sort_by(|a, b| a.total_cmp(b));
        Some(Candlestick {
            n: v.len(),
            mean: v.iter().sum::<f64>() / v.len() as f64,
            p20: percentile(&v, 20.0)?,
            p80: percentile(&v, 80.0)?,
            min: v[0],
            max: v[v.len() - 1],
        })
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct NodeSummary {
    pub name: String,
    pub forwarded: u64,
    pub dropped_queue: u64,
    pub dropped_no_route: u64,
    pub dropped_ttl: u64,
}

/// One router's first-known times of the routers' networks (`route_known_s`).
#[derive(Clone, Debug, Serialize)]
pub struct RouteKnown {
    pub router: String,
    /// Entry d: the network of router d (`routers` order), seconds.
    pub known_s: Vec<Option<f64>>,
}

#[derive(Clone, Debug, Serialize)]
pub struct UdpSummary {
    pub flows: usize,
    pub injected_bytes: u64,
    pub delivered_bytes: u64,
    /// Delivered / injected, percent (datagrams still in flight at the end count as lost).
    pub delivered_pct: f64,
}

#[derive(Clone, Debug, Serialize)]
pub struct MeshSummary {
    pub routing: String,
    /// Downloads that finished, of all.
    pub finished_flows: usize,
    pub flows: usize,
    /// Per-flow download finish time (s from the flow's start), over finished flows.
    pub finish_time_s: Option<Candlestick>,
    /// Per-flow mean RTT (ms; samples from non-duplicate ACKs), over flows with samples.
    pub rtt_mean_ms: Option<Candlestick>,
    /// Jain's index of per-flow goodput = bytes / finish time (finished flows only).
    pub jain_goodput: Option<f64>,
    /// Data segments that reached a receiver above a hole, all flows.
    pub out_of_order_segments: u64,
    /// Routing-protocol control traffic sent (IP bytes and packets).
    pub routing_overhead_bytes: u64,
    pub routing_overhead_packets: u64,
    /// OLSR: the first multiple of 10 ms at which every router had a route to every cell's
    /// network and the server's (SCENARIO.md). Null for other routings or if never.
    pub convergence_s: Option<f64>,
    /// OLSR: per router (by name), the first time it had a route to each router's network,
    /// in router order (the EPC gateway's is the server's network, R_i's is cell i's); null
    /// where never. The start-up diagnostic of docs/mesh.md.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub route_known_s: Option<Vec<RouteKnown>>,
    /// Drops per cause over all nodes.
    pub dropped_queue: u64,
    pub dropped_no_route: u64,
    pub dropped_ttl: u64,
    /// BP-MR: fresh next-hop decisions and packets a router had to hold.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bp_decisions: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bp_holds: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub udp: Option<UdpSummary>,
    /// Per node: forwarded packets and drops by cause.
    pub nodes: Vec<NodeSummary>,
}

pub fn summary(w: &World, routing: &str, flows: &[FlowSummary]) -> MeshSummary {
    let finished: Vec<&FlowSummary> = flows.iter().filter(|f| f.fct_s.is_some()).collect();
    let fct: Vec<f64> = finished.iter().filter_map(|f| f.fct_s).collect();
    let rtt: Vec<f64> = flows.iter().filter_map(|f| f.rtt_mean_ms).collect();
    let goodput: Vec<f64> = finished.iter().map(|f| f.goodput_mbps).collect();
    let c = &w.routing.counters;
    let mesh = w.routing.mesh.as_deref();
    let bp = mesh.and_then(|m| match &m.protocol {
        Protocol::Backpressure(bp) => Some(bp),
        _ => None,
    });
    let udp = (!w.udp.is_empty()).then(|| {
        let inj: u64 = w.udp.iter().map(|u| u.injected_bytes).sum();
        let del: u64 = w.udp.iter().map(|u| u.delivered_bytes).sum();
        UdpSummary {
            flows: w.udp.len(),
            injected_bytes: inj,
            delivered_bytes: del,
            delivered_pct: if inj > 0 {
                100.0 * del as f64 / inj as f64
            } else {
                0.0
            },
        }
    });
    MeshSummary {
        routing: routing.to_string(),
        finished_flows: finished.len(),
        flows: flows.len(),
        finish_time_s: Candlestick::of(&fct),
        rtt_mean_ms: Candlestick::of(&rtt),
        jain_goodput: jain_index(&goodput),
        out_of_order_segments: w.flows.iter().map(|f| f.metrics.out_of_order).sum(),
        routing_overhead_bytes: w.control_bytes,
        routing_overhead_packets: w.control_packets,
        convergence_s: w.convergence.map(|t| t.as_secs_f64()),
        route_known_s: mesh.and_then(route_known),
        dropped_queue: c.iter().map(|n| n.dropped_queue).sum(),
        dropped_no_route: c.iter().map(|n| n.dropped_no_route).sum(),
        dropped_ttl: c.iter().map(|n| n.dropped_ttl).sum(),
        bp_decisions: bp.map(|b| b.decisions),
        bp_holds: bp.map(|b| b.holds),
        udp,
        nodes: w
            .nodes
            .iter()
            .zip(c)
            .filter(|(_, n)| **n != Default::default())
            .map(|(name, n)| NodeSummary {
                name: name.clone(),
                forwarded: n.forwarded,
                dropped_queue: n.dropped_queue,
                dropped_no_route: n.dropped_no_route,
                dropped_ttl: n.dropped_ttl,
            })
            .collect(),
    }
}

fn route_known(m: &super::MeshRouting) -> Option<Vec<RouteKnown>> {
    let Protocol::Olsr(o) = &m.protocol else {
        return None;
    };
    let n = m.routers.len();
    let known = o.route_known_at();
    Some(
        m.routers
            .iter()
            .enumerate()
            .map(|(r, router)| RouteKnown {
                router: router.name.clone(),
                known_s: known[r * n..(r + 1) * n]
                    .iter()
                    .map(|t| t.map(|t| t.as_secs_f64()))
                    .collect(),
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candlestick_is_mean_p20_p80_min_max() {
        let c = Candlestick::of(&[5.0, 1.0, 2.0, 3.0, 4.0]).unwrap();
        assert_eq!((c.mean, c.min, c.max), (3.0, 1.0, 5.0));
        assert!((c.p20 - 1.8).abs() < 1e-12);
        assert!((c.p80 - 4.2).abs() < 1e-12);
        assert!(Candlestick::of(&[]).is_none());
    }
}

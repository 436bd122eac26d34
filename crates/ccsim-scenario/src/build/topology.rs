//! The topologies a scenario describes: the `[dumbbell]` template and explicit
//! `[[nodes]]`/`[[links]]` (with radio nodes and links), their queues, link changes and
//! routes.

use super::{FULL_SEGMENT_OVERHEAD, MAX_NODES};
use crate::config::{LinkChangeSpec, Scenario};
use crate::error::ScenarioError;
use crate::units::QueueSize;
use crate::world::LinkChange;
use ccsim_core::Time;
use ccsim_net::{DropTailQueue, Link, LinkId, NodeId, QueueLimit, RoutingTable};

pub(super) struct Topology {
    pub(super) nodes: Vec<String>,
    pub(super) links: Vec<Link>,
    pub(super) changes: Vec<LinkChange>,
    pub(super) routes: RoutingTable,
    /// Default (src, dst) node of the i-th flow, for templates.
    pub(super) flow_endpoints: Vec<(NodeId, NodeId)>,
}

fn queue_limit(
    q: QueueSize,
    bdp_bytes: Option<u64>,
    mss: u32,
    path: &str,
) -> Result<QueueLimit, ScenarioError> {
    Ok(match q {
        QueueSize::Packets(n) => QueueLimit::Packets(n),
        QueueSize::Bytes(b) => QueueLimit::Bytes(b),
        QueueSize::Bdp(x) => {
            let bdp = bdp_bytes.ok_or_else(|| ScenarioError::new(path, "a size in `bdp` is only defined for the dumbbell template; give packets (`100p`) or bytes (`1MB`)"))?;
            let pkts =
                (x * bdp as f64 / (mss as u64 + FULL_SEGMENT_OVERHEAD) as f64).floor() as u64;
            if pkts == 0 {
                // Used to be clamped to 1 packet silently (issue 18).
                return Err(ScenarioError::new(
                    path,
                    format!(
                        "{x}bdp is {:.0} bytes, less than one full packet ({} bytes)",
                        x * bdp as f64,
                        mss as u64 + FULL_SEGMENT_OVERHEAD
                    ),
                ));
            }
            QueueLimit::Packets(pkts)
        }
    })
}

/// Follows the static routes from `src` towards `dst`: a loop there used to run silently
/// with zero goodput (issue 18).
pub(super) fn check_no_route_loop(
    topo: &Topology,
    src: NodeId,
    dst: NodeId,
    path: &str,
) -> Result<(), ScenarioError> {
    let mut at = src;
    let mut visited = vec![src];
    while at != dst {
        // Radio and trace hops are not in `links`: the path leaves the static part there.
        let Some(link) = topo
            .routes
            .next_hop(at, dst)
            .and_then(|l| topo.links.get(l.0 as usize))
        else {
            return Ok(());
        };
        at = link.to;
        if visited.contains(&at) {
            let names: Vec<&str> = visited
                .iter()
                .map(|n| topo.nodes[n.0 as usize].as_str())
                .collect();
            return Err(ScenarioError::new(
                "routes",
                format!(
                    "the routes loop for {path} ({} → {}): {} → {}",
                    topo.nodes[src.0 as usize],
                    topo.nodes[dst.0 as usize],
                    names.join(" → "),
                    topo.nodes[at.0 as usize]
                ),
            ));
        }
        visited.push(at);
    }
    Ok(())
}

fn link_changes(
    changes: &[LinkChangeSpec],
    links: &[LinkId],
    path: &str,
    end: Time,
) -> Result<Vec<LinkChange>, ScenarioError> {
    let mut out = Vec::new();
    for (i, c) in changes.iter().enumerate() {
        if c.at.time() >= end {
            return Err(ScenarioError::new(
                format!("{path}[{i}].at"),
                format!(
                    "the change would happen at {}s, not before the end of the run \
                     (run.duration = {}s)",
                    c.at.time().as_secs_f64(),
                    end.as_secs_f64()
                ),
            ));
        }
        if c.rate.is_none() && c.delay.is_none() {
            return Err(ScenarioError::new(
                format!("{path}[{i}]"),
                "a change needs `rate`, `delay` or both",
            ));
        }
        for &l in links {
            out.push(LinkChange {
                at: c.at.time(),
                link: l,
                rate_bps: c.rate.map(|r| r.bps()),
                delay: c.delay.map(|d| d.time()),
            });
        }
    }
    Ok(out)
}

/// Checks an IP MTU: RFC 791 §3.2, "every internet module must be able to forward a
/// datagram of 68 octets without further fragmentation".
fn ip_mtu(mtu: Option<u32>, path: &str) -> Result<Option<u32>, ScenarioError> {
    match mtu {
        Some(m) if m < 68 => Err(ScenarioError::new(
            path,
            format!("an IPv4 MTU must be at least 68 bytes (RFC 791), got {m}"),
        )),
        _ => Ok(mtu),
    }
}

pub(super) fn dumbbell(s: &Scenario, n_flows: usize, mss: u32) -> Result<Topology, ScenarioError> {
    let d = s.dumbbell.as_ref().unwrap();
    let mtu = ip_mtu(d.mtu, "dumbbell.mtu")?;
    let b = &d.bottleneck;
    let access_rate = d
        .access
        .rate
        .map(|r| r.bps())
        .unwrap_or(b.rate.bps().saturating_mul(10));
    let access_delay = d.access.delay.map(|x| x.time()).unwrap_or(Time::ZERO);
    let rtt = Time((b.delay.time().as_nanos() + 2 * access_delay.as_nanos()) * 2);
    let bdp_bytes = (b.rate.bps() as u128 * rtt.as_nanos() as u128 / 8 / 1_000_000_000) as u64;
    let bottleneck_q = queue_limit(b.queue, Some(bdp_bytes), mss, "dumbbell.bottleneck.queue")?;
    let access_q = queue_limit(
        d.access.queue.unwrap_or(QueueSize::Packets(100_000)),
        Some(bdp_bytes),
        mss,
        "dumbbell.access.queue",
    )?;

    let mut nodes = Vec::new();
    for i in 0..n_flows {
        nodes.push(format!("s{i}"));
    }
    let r1 = NodeId(nodes.len() as u32);
    nodes.push("r1".into());
    let r2 = NodeId(nodes.len() as u32);
    nodes.push("r2".into());
    for i in 0..n_flows {
        nodes.push(format!("d{i}"));
    }
    let mut links = Vec::new();
    let add = |links: &mut Vec<Link>,
               name: String,
               a: NodeId,
               z: NodeId,
               rate: u64,
               delay: Time,
               q: QueueLimit| {
        let mut link = Link::new(name, a, z, rate, delay, DropTailQueue::new(q));
        link.mtu = mtu;
        links.push(link);
        LinkId(links.len() as u32 - 1)
    };
    let fwd = add(
        &mut links,
        "r1->r2".into(),
        r1,
        r2,
        b.rate.bps(),
        b.delay.time(),
        bottleneck_q,
    );
    let rev = add(
        &mut links,
        "r2->r1".into(),
        r2,
        r1,
        b.rate.bps(),
        b.delay.time(),
        bottleneck_q,
    );
    let mut flow_endpoints = Vec::new();
    for i in 0..n_flows {
        let s_node = NodeId(i as u32);
        let d_node = NodeId((n_flows + 2 + i) as u32);
        add(
            &mut links,
            format!("s{i}->r1"),
            s_node,
            r1,
            access_rate,
            access_delay,
            access_q,
        );
        add(
            &mut links,
            format!("r1->s{i}"),
            r1,
            s_node,
            access_rate,
            access_delay,
            access_q,
        );
        add(
            &mut links,
            format!("r2->d{i}"),
            r2,
            d_node,
            access_rate,
            access_delay,
            access_q,
        );
        add(
            &mut links,
            format!("d{i}->r2"),
            d_node,
            r2,
            access_rate,
            access_delay,
            access_q,
        );
        flow_endpoints.push((s_node, d_node));
    }
    let changes = link_changes(
        &b.changes,
        &[fwd, rev],
        "dumbbell.bottleneck.changes",
        s.run.duration.time(),
    )?;
    let mut routes = RoutingTable::new(nodes.len());
    routes
        .fill_shortest_paths(&links)
        .map_err(|e| ScenarioError::new("flows", e.to_string()))?;
    Ok(Topology {
        nodes,
        links,
        changes,
        routes,
        flow_endpoints,
    })
}

pub(super) fn explicit(s: &Scenario, mss: u32) -> Result<Topology, ScenarioError> {
    if s.nodes.len() > MAX_NODES {
        return Err(ScenarioError::new(
            "nodes",
            format!(
                "at most {MAX_NODES} nodes are supported (see docs/reliability.md), got {}",
                s.nodes.len()
            ),
        ));
    }
    let mut nodes: Vec<String> = Vec::new();
    for (i, n) in s.nodes.iter().enumerate() {
        if n.name.is_empty() {
            return Err(ScenarioError::new(
                format!("nodes[{i}].name"),
                "must not be empty",
            ));
        }
        if nodes.contains(&n.name) {
            return Err(ScenarioError::new(
                format!("nodes[{i}].name"),
                format!("node `{}` is defined twice", n.name),
            ));
        }
        nodes.push(n.name.clone());
    }
    crate::radio_spec::add_nodes(s, &mut nodes)?;
    let find = |name: &str, path: String| -> Result<NodeId, ScenarioError> {
        nodes
            .iter()
            .position(|n| n == name)
            .map(|i| NodeId(i as u32))
            .ok_or_else(|| {
                ScenarioError::new(
                    path,
                    format!("unknown node `{name}`; defined nodes: {}", nodes.join(", ")),
                )
            })
    };
    let mut links = Vec::new();
    let mut changes = Vec::new();
    for (i, l) in s.links.iter().enumerate() {
        let a = find(&l.from, format!("links[{i}].from"))?;
        let z = find(&l.to, format!("links[{i}].to"))?;
        if a == z {
            return Err(ScenarioError::new(
                format!("links[{i}].to"),
                format!(
                    "a link must join two different nodes, both ends are `{}`",
                    l.to
                ),
            ));
        }
        let q = queue_limit(l.queue, None, mss, &format!("links[{i}].queue"))?;
        let mtu = ip_mtu(l.mtu, &format!("links[{i}].mtu"))?;
        let name = l
            .name
            .clone()
            .unwrap_or_else(|| format!("{}->{}", l.from, l.to));
        let mut link = Link::new(
            name.clone(),
            a,
            z,
            l.rate.bps(),
            l.delay.time(),
            DropTailQueue::new(q),
        );
        link.mtu = mtu;
        links.push(link);
        let mut ids = vec![LinkId(links.len() as u32 - 1)];
        if l.bidirectional {
            let rname = l
                .name
                .as_ref()
                .map(|n| format!("{n}:rev"))
                .unwrap_or_else(|| format!("{}->{}", l.to, l.from));
            let mut link = Link::new(
                rname,
                z,
                a,
                l.rate.bps(),
                l.delay.time(),
                DropTailQueue::new(q),
            );
            link.mtu = mtu;
            links.push(link);
            ids.push(LinkId(links.len() as u32 - 1));
        }
        changes.extend(link_changes(
            &l.changes,
            &ids,
            &format!("links[{i}].changes"),
            s.run.duration.time(),
        )?);
    }
    let mut routes = RoutingTable::new(nodes.len());
    for (i, r) in s.routes.iter().enumerate() {
        let at = find(&r.at, format!("routes[{i}].at"))?;
        let dst = find(&r.dst, format!("routes[{i}].dst"))?;
        let via = find(&r.via, format!("routes[{i}].via"))?;
        let link = links
            .iter()
            .position(|l| l.from == at && l.to == via)
            .ok_or_else(|| {
                ScenarioError::new(
                    format!("routes[{i}].via"),
                    format!("there is no link from `{}` to `{}`", r.at, r.via),
                )
            })?;
        routes.set(at, dst, LinkId(link as u32));
    }
    // Radio and trace hops route like links but are not links (ids past the real ones).
    let real = links.len();
    links.extend(crate::radio_spec::pseudo_links(s, &nodes)?);
    routes
        .fill_shortest_paths(&links)
        .map_err(|e| ScenarioError::new("nodes", e.to_string()))?;
    links.truncate(real);
    Ok(Topology {
        nodes,
        links,
        changes,
        routes,
        flow_endpoints: Vec::new(),
    })
}

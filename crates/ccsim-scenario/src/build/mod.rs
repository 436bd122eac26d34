//! From a validated [`Scenario`] to a runnable [`World`]: nodes, links, routes, flows.
//! Every check names the key path of what it rejects.

use crate::config::{FlowSpec, LinkChangeSpec, Profile, Recovery, Scenario, TcpOptions};
use crate::error::ScenarioError;
use crate::units::QueueSize;
use crate::world::{Flow, LinkChange, World};
use ccsim_core::Time;
use ccsim_net::{DropTailQueue, Link, LinkId, NodeId, QueueLimit, RoutingTable};
use ccsim_tcp::{RecoveryAlgorithm, TcpConfig, TcpProfile, TcpReceiver, TcpSender};

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

/// Turns TCP options (flow over global over profile) into a [`TcpConfig`].
pub fn tcp_config(opts: &TcpOptions, path: &str) -> Result<TcpConfig, ScenarioError> {
    let profile = match opts.profile.unwrap_or_default() {
        Profile::Ns3 => TcpProfile::Ns3,
        Profile::Linux => TcpProfile::Linux,
    };
    let mut c = TcpConfig::profile(profile);
    if let Some(v) = opts.mss {
        if !(64..=65_000).contains(&v) {
            return Err(ScenarioError::new(
                format!("{path}.mss"),
                format!("must be between 64 and 65000 bytes, got {v}"),
            ));
        }
        c.mss = v;
    }
    if let Some(v) = opts.initial_cwnd {
        if v == 0 {
            return Err(ScenarioError::new(
                format!("{path}.initial_cwnd"),
                "must be at least 1 segment, got 0",
            ));
        }
        c.initial_cwnd_segs = v;
    }
    if let Some(v) = opts.initial_ssthresh {
        c.initial_ssthresh = v.0.min(u32::MAX as u64) as u32;
    }
    if let Some(v) = opts.min_rto {
        c.min_rto = v.time();
    }
    if let Some(v) = opts.initial_rto {
        c.initial_rto = v.time();
    }
    if let Some(v) = opts.delack_count {
        if v == 0 {
            return Err(ScenarioError::new(
                format!("{path}.delack_count"),
                "must be at least 1 (1 = ACK every segment), got 0",
            ));
        }
        c.delack_count = v;
    }
    if let Some(v) = opts.delack_timeout {
        c.delack_timeout = v.time();
    }
    if let Some(v) = opts.sack {
        c.sack = v;
    }
    if let Some(v) = opts.timestamps {
        c.timestamps = v;
    }
    if let Some(v) = opts.limited_transmit {
        c.limited_transmit = v;
    }
    if let Some(v) = opts.dupack_threshold {
        if v == 0 {
            return Err(ScenarioError::new(
                format!("{path}.dupack_threshold"),
                "must be at least 1, got 0",
            ));
        }
        c.dupack_threshold = v;
    }
    if let Some(v) = opts.recovery {
        c.recovery = match v {
            Recovery::Prr => RecoveryAlgorithm::Prr,
            Recovery::Classic => RecoveryAlgorithm::Classic,
        };
    }
    if let Some(v) = opts.app_write_chunk {
        if !(1..=1 << 20).contains(&v.0) {
            return Err(ScenarioError::new(
                format!("{path}.app_write_chunk"),
                format!("must be between 1 byte and 1 MiB, got {}", v.0),
            ));
        }
        c.app_write_chunk = Some(v.0 as u32);
    }
    if let Some(v) = opts.snd_buf {
        c.snd_buf = v.0;
    }
    if let Some(v) = opts.max_pacing_rate {
        if v.0 == 0 {
            return Err(ScenarioError::new(
                format!("{path}.max_pacing_rate"),
                "must be positive (e.g. \"4Gbps\"), got 0",
            ));
        }
        c.max_pacing_rate_bps = Some(v.0);
    }
    if let Some(v) = opts.rcv_buf {
        c.rcv_buf = v.0;
    }
    // Switches copied as they are (each documented on `TcpConfig`).
    macro_rules! copy_flags {
        ($($f:ident),*) => { $(if let Some(v) = opts.$f { c.$f = v; })* };
    }
    crate::config::with_tcp_switches!(copy_flags!());
    for (key, v) in [("snd_buf", c.snd_buf), ("rcv_buf", c.rcv_buf)] {
        if v < c.mss as u64 {
            return Err(ScenarioError::new(
                format!("{path}.{key}"),
                format!("must hold at least one segment ({} bytes), got {v}", c.mss),
            ));
        }
    }
    Ok(c)
}

struct Topology {
    nodes: Vec<String>,
    links: Vec<Link>,
    changes: Vec<LinkChange>,
    routes: RoutingTable,
    /// Default (src, dst) node of the i-th flow, for templates.
    flow_endpoints: Vec<(NodeId, NodeId)>,
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
fn check_no_route_loop(
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

fn dumbbell(s: &Scenario, n_flows: usize, mss: u32) -> Result<Topology, ScenarioError> {
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

fn explicit(s: &Scenario, mss: u32) -> Result<Topology, ScenarioError> {
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

/// Algorithms that draw random numbers (BBR's probe_bw phase) get the run seed, unless the
/// scenario sets it. In the `ns3` profile they draw from ns-3's generator and stream (the run
/// seed is ns-3's RngRun; every flow has ns-3's default stream, so all draw alike, as in
/// ns-3); otherwise from ccsim's streams, one per flow, so adding a flow never shifts
/// another's draws.
pub(crate) fn seed_randomised_algorithm(
    cca: &str,
    params: &mut serde_json::Map<String, serde_json::Value>,
    seed: u64,
    flow: u32,
    ns3_profile: bool,
) {
    let Ok(specs) = ccsim_cca::algorithm_params(cca) else {
        return;
    };
    let has = |n: &str| specs.iter().any(|p| p.name == n);
    if has("seed") && !params.contains_key("seed") {
        params.insert("seed".into(), seed.into());
    }
    if has("rng") && !params.contains_key("rng") {
        let rng = if ns3_profile { "ns3" } else { "ccsim" };
        params.insert("rng".into(), rng.into());
    }
    let ns3_rng = params.get("rng").and_then(|v| v.as_str()) == Some("ns3");
    if has("stream") && !params.contains_key("stream") && !ns3_rng {
        params.insert("stream".into(), flow.into());
    }
}

/// Algorithm parameters whose default follows the TCP profile: the `linux` profile runs the
/// kernel's HyStart in CUBIC (validation/linux: the kernel's CUBIC leaves slow start at about
/// one BDP). An explicit `cca_params` value wins.
fn profile_algorithm_defaults(
    cca: &str,
    params: &mut serde_json::Map<String, serde_json::Value>,
    ns3_profile: bool,
) {
    let Ok(specs) = ccsim_cca::algorithm_params(cca) else {
        return;
    };
    if !ns3_profile
        && specs.iter().any(|p| p.name == "hystart_variant")
        && !params.contains_key("hystart_variant")
    {
        params.insert("hystart_variant".into(), "LINUX".into());
    }
}

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

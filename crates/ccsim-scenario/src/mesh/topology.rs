//! Mesh topology generators: the regular grid of validation/ns3/mesh/SCENARIO.md and the
//! Modena-like plain tree and redundant ring-tree (seed 004 §4).
//!
//! Nodes, in this order: `S` (remote server), `G` (EPC gateway), `R0..` (one router per small
//! cell), `C0..` (each cell's access node), `U0..` (UEs). Routers are indexed G = 0, R_i = i + 1.

use super::config::MeshConfig;
use super::routing::{MeshRouter, Port};
use crate::error::ScenarioError;
use crate::units::QueueSize;
use ccsim_core::Time;
use ccsim_net::{DropTailQueue, Link, LinkId, NodeId, QueueLimit};

/// Coordinates of the Modena-like deployment: 25 eNBs and the EPC, metres. Made by
/// `scripts/gen_modena_coords.py` (the real ones are not public; see docs/mesh.md).
const MODENA_CSV: &str = include_str!("../../data/modena_enb.csv");

/// The five central cells of seed 004 §4 (ENB7, 8, 14, 15, 16) get 7 UEs each, the rest 2.
const MODENA_CENTRAL: [usize; 5] = [7, 8, 14, 15, 16];

pub struct MeshTopology {
    pub nodes: Vec<String>,
    pub links: Vec<Link>,
    pub routers: Vec<MeshRouter>,
    pub router_of: Vec<Option<u32>>,
    pub serving: Vec<u32>,
    pub server: NodeId,
    /// UE nodes, in flow order.
    pub ues: Vec<NodeId>,
    /// Router index of each cell.
    pub cells: usize,
    /// Cell of each UE (index into the cells; its router is `routers[cell + 1]`).
    pub ue_cells: Vec<usize>,
}

/// Packets of a queue: `"1bdp"` is ⌈x · rate · delay / 1500 B⌉ (SCENARIO.md's rule).
fn queue_limit(q: QueueSize, rate_bps: u64, delay: Time) -> QueueLimit {
    match q {
        QueueSize::Packets(n) => QueueLimit::Packets(n),
        QueueSize::Bytes(b) => QueueLimit::Bytes(b),
        QueueSize::Bdp(x) => {
            let bdp_bytes = rate_bps as f64 * delay.as_secs_f64() / 8.0;
            QueueLimit::Packets(((x * bdp_bytes / 1500.0).ceil() as u64).max(1))
        }
    }
}

/// The cell access link's rate from the `cell_capacity` key.
pub fn cell_rate(s: &str) -> Result<u64, ScenarioError> {
    match s {
        "paper" => Ok(350_000_000),
        "lena" => Ok(37_000_000),
        other => crate::units::Rate::parse(other).map(|r| r.bps()).map_err(|e| {
            ScenarioError::new(
                "mesh.links.cell_capacity",
                format!("must be \"paper\" (350 Mb/s), \"lena\" (37 Mb/s) or a rate like \"100Mbps\": {e}"),
            )
        }),
    }
}

struct Builder {
    nodes: Vec<String>,
    links: Vec<Link>,
}

impl Builder {
    fn node(&mut self, name: String) -> NodeId {
        self.nodes.push(name);
        NodeId(self.nodes.len() as u32 - 1)
    }

    /// A full-duplex point-to-point link; returns the a→z and z→a directions.
    fn duplex(
        &mut self,
        a: NodeId,
        z: NodeId,
        rate: u64,
        delay: Time,
        q: QueueLimit,
    ) -> (LinkId, LinkId) {
        let mut add = |from: NodeId, to: NodeId| {
            let name = format!(
                "{}->{}",
                self.nodes[from.0 as usize], self.nodes[to.0 as usize]
            );
            let mut l = Link::new(name, from, to, rate, delay, DropTailQueue::new(q));
            l.mtu = Some(1500);
            self.links.push(l);
            LinkId(self.links.len() as u32 - 1)
        };
        (add(a, z), add(z, a))
    }
}

/// Cell positions (metres), the gateway's position and the mesh edges between cells.
struct Layout {
    cells: Vec<(f64, f64)>,
    gateway: (f64, f64),
    edges: Vec<(usize, usize)>,
    /// Cells the gateway is wired to.
    epc: Vec<usize>,
    /// UEs per cell, in flow order (cell of UE k).
    ue_cells: Vec<usize>,
}

fn grid(m: &MeshConfig) -> Result<Layout, ScenarioError> {
    let (rows, cols) = (m.rows as usize, m.cols as usize);
    if rows == 0 || cols == 0 || rows * cols > 1024 {
        return Err(ScenarioError::new(
            "mesh.rows",
            format!("the grid needs 1 to 1024 cells, got {rows} × {cols}"),
        ));
    }
    if !(m.spacing_m > 0.0 && m.spacing_m.is_finite()) {
        return Err(ScenarioError::new(
            "mesh.spacing_m",
            format!("must be a positive distance in metres, got {}", m.spacing_m),
        ));
    }
    let s = m.spacing_m;
    let n = rows * cols;
    let cells = (0..n)
        .map(|i| (s * (i % cols) as f64, s * (i / cols) as f64))
        .collect();
    let mut edges = Vec::new();
    for i in 0..n {
        if i % cols + 1 < cols {
            edges.push((i, i + 1));
        }
        if i / cols + 1 < rows {
            edges.push((i, i + cols));
        }
    }
    // Gateway links spread evenly along the first row (5 columns, 3 links: R0, R2, R4).
    let k = (m.links.epc_links as usize).clamp(1, cols);
    let epc = if k == 1 {
        vec![0]
    } else {
        (0..k)
            .map(|j| (j * (cols - 1) + (k - 1) / 2) / (k - 1))
            .collect()
    };
    let ues = m.ues.unwrap_or(n as u32) as usize;
    Ok(Layout {
        cells,
        gateway: (s * (cols - 1) as f64 / 2.0, -s),
        edges,
        epc,
        ue_cells: (0..ues).map(|k| k % n).collect(),
    })
}

/// The Modena-like layouts. `redundant` adds ring links up to 4 neighbours per eNB.
fn modena(m: &MeshConfig, redundant: bool) -> Result<Layout, ScenarioError> {
    let mut cells = Vec::new();
    let mut gateway = None;
    for line in MODENA_CSV
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("name"))
    {
        let f: Vec<&str> = line.split(',').collect();
        let (x, y): (f64, f64) = (f[1].trim().parse().unwrap(), f[2].trim().parse().unwrap());
        if f[0] == "EPC" {
            gateway = Some((x, y));
        } else {
            cells.push((x, y));
        }
    }
    let gateway = gateway.expect("EPC row in modena_enb.csv");
    let n = cells.len();
    let d = |a: (f64, f64), b: (f64, f64)| ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt();
    // The gateway is wired to the `epc_links` eNBs nearest to it: the roots of the tree.
    let mut by_gw: Vec<usize> = (0..n).collect();
    by_gw.sort_by(|&a, &b| d(cells[a], gateway).total_cmp(&d(cells[b], gateway)));
    let k = (m.links.epc_links as usize).clamp(1, n);
    let epc: Vec<usize> = by_gw[..k].to_vec();
    // Plain tree (seed 004 §4: "connecting closer eNodeBs, each with at most 2 connections
    // towards the neighbours"): grown from the roots, always by the shortest link from a
    // node in the tree that has fewer than 2 children to a node outside it.
    let mut in_tree = vec![false; n];
    let mut children = vec![0u32; n];
    let mut degree = vec![0u32; n];
    for &r in &epc {
        in_tree[r] = true;
    }
    let mut edges = Vec::new();
    while in_tree.iter().any(|t| !t) {
        let mut best: Option<(f64, usize, usize)> = None;
        for u in (0..n).filter(|&u| in_tree[u] && children[u] < 2) {
            for v in (0..n).filter(|&v| !in_tree[v]) {
                let dd = d(cells[u], cells[v]);
                if best.is_none_or(|(b, _, _)| dd < b) {
                    best = Some((dd, u, v));
                }
            }
        }
        let (_, u, v) = best.expect("a tree with 2 children per node spans 25 eNBs");
        in_tree[v] = true;
        children[u] += 1;
        degree[u] += 1;
        degree[v] += 1;
        edges.push((u.min(v), u.max(v)));
    }
    if redundant {
        // Ring-tree: the shortest extra links, while both ends have fewer than 4.
        let mut extra: Vec<(f64, usize, usize)> = Vec::new();
        for u in 0..n {
            for v in u + 1..n {
                if !edges.contains(&(u, v)) {
                    extra.push((d(cells[u], cells[v]), u, v));
                }
            }
        }
        extra.sort_by(|a, b| a.0.total_cmp(&b.0));
        for (_, u, v) in extra {
            if degree[u] < 4 && degree[v] < 4 {
                degree[u] += 1;
                degree[v] += 1;
                edges.push((u, v));
            }
        }
    }
    // UEs: 7 on each central cell, 2 on the others, dealt round-robin over the cells so that
    // consecutive flows start in different cells.
    let ue_cells = match m.ues {
        Some(u) => (0..u as usize).map(|k| k % n).collect(),
        None => {
            let mut quota: Vec<usize> = (0..n)
                .map(|i| {
                    if MODENA_CENTRAL.contains(&(i + 1)) {
                        7
                    } else {
                        2
                    }
                })
                .collect();
            let mut out = Vec::new();
            while quota.iter().any(|&q| q > 0) {
                for (i, q) in quota.iter_mut().enumerate() {
                    if *q > 0 {
                        *q -= 1;
                        out.push(i);
                    }
                }
            }
            out
        }
    };
    Ok(Layout {
        cells,
        gateway,
        edges,
        epc,
        ue_cells,
    })
}

/// Builds the topology the `[mesh]` table describes.
pub fn build(m: &MeshConfig) -> Result<MeshTopology, ScenarioError> {
    let layout = match m.topology.as_str() {
        "grid" => grid(m)?,
        "modena_tree" => modena(m, false)?,
        "modena_redundant" => modena(m, true)?,
        other => {
            return Err(ScenarioError::new(
                "mesh.topology",
                format!("unknown topology `{other}`; allowed: grid, modena_tree, modena_redundant"),
            ))
        }
    };
    if layout.ue_cells.is_empty() || layout.ue_cells.len() > 10_000 {
        return Err(ScenarioError::new(
            "mesh.ues",
            format!("must be between 1 and 10000, got {}", layout.ue_cells.len()),
        ));
    }
    let l = &m.links;
    let n_cells = layout.cells.len();
    let mut b = Builder {
        nodes: Vec::new(),
        links: Vec::new(),
    };
    let server = b.node("S".into());
    let gw = b.node("G".into());
    let r: Vec<NodeId> = (0..n_cells).map(|i| b.node(format!("R{i}"))).collect();
    // With LTE access the radio cell replaces the access node and its links.
    let lte = match m.access.as_str() {
        "link" => false,
        "lte" => true,
        other => {
            return Err(ScenarioError::new(
                "mesh.access",
                format!("unknown access `{other}`; allowed: link, lte"),
            ))
        }
    };
    let n_access = if lte { 0 } else { n_cells };
    let c: Vec<NodeId> = (0..n_access).map(|i| b.node(format!("C{i}"))).collect();
    let ues: Vec<NodeId> = (0..layout.ue_cells.len())
        .map(|k| b.node(format!("U{k}")))
        .collect();

    let mut routers: Vec<MeshRouter> = std::iter::once((gw, "G".to_string(), layout.gateway))
        .chain((0..n_cells).map(|i| (r[i], format!("R{i}"), layout.cells[i])))
        .map(|(node, name, pos)| MeshRouter {
            node,
            name,
            pos,
            ports: Vec::new(),
        })
        .collect();
    let connect = |b: &mut Builder,
                   routers: &mut Vec<MeshRouter>,
                   x: usize,
                   y: usize,
                   rate: u64,
                   delay: Time,
                   q: QueueLimit| {
        let (xy, yx) = b.duplex(routers[x].node, routers[y].node, rate, delay, q);
        routers[x].ports.push(Port {
            link: xy,
            peer: y as u32,
        });
        routers[y].ports.push(Port {
            link: yx,
            peer: x as u32,
        });
    };
    let (sr, sd) = (l.server_rate.bps(), l.server_delay.time());
    b.duplex(server, gw, sr, sd, queue_limit(l.server_queue, sr, sd));
    let (er, ed) = (l.epc_rate.bps(), l.epc_delay.time());
    for &cell in &layout.epc {
        connect(
            &mut b,
            &mut routers,
            0,
            cell + 1,
            er,
            ed,
            queue_limit(l.epc_queue, er, ed),
        );
    }
    let (mr, md) = (l.mesh_rate.bps(), l.mesh_delay.time());
    for &(x, y) in &layout.edges {
        connect(
            &mut b,
            &mut routers,
            x + 1,
            y + 1,
            mr,
            md,
            queue_limit(l.mesh_queue, mr, md),
        );
    }
    let cr = cell_rate(&l.cell_capacity)?;
    let cd = l.cell_delay.time();
    for i in 0..n_access {
        b.duplex(r[i], c[i], cr, cd, queue_limit(l.cell_queue, cr, cd));
    }
    let (ur, ud) = (l.ue_rate.bps(), l.ue_delay.map_or(Time::ZERO, |d| d.time()));
    for (k, &cell) in layout.ue_cells.iter().enumerate().filter(|_| !lte) {
        b.duplex(
            c[cell],
            ues[k],
            ur,
            ud,
            queue_limit(l.ue_queue, ur, ud.max(Time::from_nanos(1))),
        );
    }
    for (key, rate) in [
        ("mesh_rate", mr),
        ("epc_rate", er),
        ("server_rate", sr),
        ("cell_capacity", cr),
        ("ue_rate", ur),
    ] {
        if rate == 0 {
            return Err(ScenarioError::new(
                format!("mesh.links.{key}"),
                "must be a positive rate, got 0",
            ));
        }
    }

    let n_nodes = b.nodes.len();
    let mut router_of = vec![None; n_nodes];
    let mut serving = vec![0u32; n_nodes];
    router_of[gw.0 as usize] = Some(0);
    for i in 0..n_cells {
        router_of[r[i].0 as usize] = Some(i as u32 + 1);
        serving[r[i].0 as usize] = i as u32 + 1;
    }
    for (i, ci) in c.iter().enumerate() {
        serving[ci.0 as usize] = i as u32 + 1;
    }
    for (k, &cell) in layout.ue_cells.iter().enumerate() {
        serving[ues[k].0 as usize] = cell as u32 + 1;
    }
    Ok(MeshTopology {
        nodes: b.nodes,
        links: b.links,
        routers,
        router_of,
        serving,
        server,
        ues,
        cells: n_cells,
        ue_cells: layout.ue_cells,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(topology: &str) -> MeshConfig {
        toml::from_str(&format!("topology = \"{topology}\"")).unwrap()
    }

    #[test]
    fn grid_is_the_reference_scenario() {
        let t = build(&cfg("grid")).unwrap();
        assert_eq!(t.routers.len(), 26);
        assert_eq!(t.ues.len(), 25);
        // 1 server link + 3 EPC links + 40 grid links + 25 cell links + 25 UE links, duplex.
        assert_eq!(t.links.len(), 2 * (1 + 3 + 40 + 25 + 25));
        let g: Vec<&str> = t.routers[0]
            .ports
            .iter()
            .map(|p| t.routers[p.peer as usize].name.as_str())
            .collect();
        assert_eq!(g, ["R0", "R2", "R4"]);
        let find = |name: &str| t.links.iter().find(|l| l.name == name).unwrap();
        // Queues of one BDP in 1500 B packets, rounded up (SCENARIO.md).
        assert_eq!(find("S->G").queue.limit(), QueueLimit::Packets(4167));
        assert_eq!(find("G->R0").queue.limit(), QueueLimit::Packets(42));
        assert_eq!(find("R0->R1").queue.limit(), QueueLimit::Packets(167));
        assert_eq!(find("R7->C7").rate_bps, 350_000_000);
        assert_eq!(find("R7->C7").queue.limit(), QueueLimit::Packets(100));
        // The centre router has four grid neighbours.
        assert_eq!(t.routers[13].ports.len(), 4);
        assert_eq!(t.routers[13].pos, (400.0, 400.0));
    }

    #[test]
    fn modena_tree_and_ring_respect_the_degree_limits() {
        for (topo, max_deg) in [("modena_tree", 3), ("modena_redundant", 4)] {
            let t = build(&cfg(topo)).unwrap();
            assert_eq!(t.cells, 25);
            assert_eq!(t.ues.len(), 75);
            for r in &t.routers[1..] {
                let mesh = r.ports.iter().filter(|p| p.peer != 0).count();
                assert!(mesh <= max_deg, "{topo}: {} has {mesh} mesh links", r.name);
            }
        }
        let tree = build(&cfg("modena_tree")).unwrap();
        let mesh_links: usize = tree.routers[1..]
            .iter()
            .map(|r| r.ports.iter().filter(|p| p.peer != 0).count())
            .sum();
        assert_eq!(mesh_links / 2, 25 - 3, "a forest of 3 trees over 25 eNBs");
        let ring = build(&cfg("modena_redundant")).unwrap();
        let ring_links: usize = ring.routers[1..]
            .iter()
            .map(|r| r.ports.iter().filter(|p| p.peer != 0).count())
            .sum();
        assert!(ring_links / 2 > 30);
    }

    #[test]
    fn bad_topology_names_the_key() {
        let e = build(&cfg("ring")).err().unwrap();
        assert_eq!(e.path, "mesh.topology");
        assert!(e.message.contains("grid, modena_tree, modena_redundant"));
    }
}

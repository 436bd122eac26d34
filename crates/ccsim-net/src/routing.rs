//! Static next-hop routing: for each (node, destination) the outgoing link.
//!
//! A dense nodes × nodes table is quadratic: 8000 dumbbell flows (16 002 nodes) needed
//! 2 GB for it alone. Most nodes are hosts, and two facts make their routes free to store:
//! - a node with a single outgoing link ("stub") can only use that link: it needs one
//!   default route, plus the knowledge of what its neighbour can reach;
//! - a destination with a single incoming link, from node `r` ("leaf"), is reached exactly
//!   like `r` is, except at `r` itself, which uses that link.
//!
//! Only the remaining "core" rows × "core" columns are stored densely, so a dumbbell with
//! any number of flows keeps a 2 × 2 core, while a mesh without hosts stays nodes × nodes.
//! The answers are exactly those of the full minimum-hop table (BFS from each destination
//! over reversed links, first discovery wins); lookups stay O(1) and allocation-free.

use crate::link::{Link, LinkId};
use crate::packet::NodeId;
use std::collections::VecDeque;
use std::fmt;

/// Most dense core cells (core rows × core destinations) a table may hold: 64 Mi cells of
/// 4 bytes = 256 MiB. A mesh of about 8000 routers fits; a scenario that needs more is
/// rejected before anything is allocated.
pub const MAX_CORE_CELLS: usize = 1 << 26;

/// Marks "no link" in the compact tables.
const NONE: u32 = u32::MAX;

/// Tables of at most this many (node, destination) cells also keep every answer in one flat
/// array (128 KiB), so a small topology's lookup is one load: the compact lookup's branches
/// cost ~9 % of a dumbbell run's instructions (benches/README.md), and 2.6 % of seed 004's
/// 100-UE grid (152 nodes, 23,104 cells; perf, issue 14).
const MAX_FLAT_CELLS: usize = 1 << 15;

/// A routing table larger than [`MAX_CORE_CELLS`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoutingTooLarge {
    pub core_rows: usize,
    pub core_destinations: usize,
}

impl fmt::Display for RoutingTooLarge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the routing table would need {} routers × {} destinations = {} entries, more than \
             the limit of {} (see docs/reliability.md)",
            self.core_rows,
            self.core_destinations,
            self.core_rows * self.core_destinations,
            MAX_CORE_CELLS
        )
    }
}

impl std::error::Error for RoutingTooLarge {}

/// How the routes of one node are found.
#[derive(Clone, Copy, Debug)]
enum Row {
    /// Nothing computed yet (before [`RoutingTable::fill_shortest_paths`]) or no links out.
    Empty,
    /// One outgoing link, to a core node `via`: every destination `via` reaches uses it.
    Stub { link: LinkId, via: NodeId },
    /// Row `index` of the dense core.
    Core(u32),
}

/// How one destination is reached.
#[derive(Clone, Copy, Debug)]
enum Col {
    /// Nobody reaches it (nothing computed yet, or no incoming link).
    Unreachable,
    /// Its single incoming link is `link` from `like`, a core destination: routes to it are
    /// the routes to `like`, except at `like`, which takes `link`.
    Leaf { like: NodeId, link: LinkId },
    /// Column `index` of the dense core.
    Core(u32),
}

/// Next-hop table: computed minimum-hop routes plus explicit entries ([`RoutingTable::set`]),
/// which always win.
#[derive(Clone, Debug)]
pub struct RoutingTable {
    nodes: usize,
    rows: Vec<Row>,
    cols: Vec<Col>,
    core_cols: usize,
    /// Core rows × core columns, `NONE` where the destination is unreachable.
    core: Vec<u32>,
    /// Explicit entries: per node, `None` or a full row (`NONE` = not set, use computed).
    explicit: Vec<Option<Box<[u32]>>>,
    /// Every answer of [`RoutingTable::next_hop`], `NONE` for no route: filled by
    /// [`RoutingTable::fill_shortest_paths`] when the table is small (empty otherwise), kept
    /// up to date by [`RoutingTable::set`].
    flat: Vec<u32>,
}

impl Default for RoutingTable {
    fn default() -> Self {
        RoutingTable::new(0)
    }
}

impl RoutingTable {
    /// An empty table for `nodes` nodes: every lookup is `None` until routes are set or filled.
    pub fn new(nodes: usize) -> Self {
        RoutingTable {
            nodes,
            rows: vec![Row::Empty; nodes],
            cols: vec![Col::Unreachable; nodes],
            core_cols: 0,
            core: Vec::new(),
            explicit: vec![None; nodes],
            flat: Vec::new(),
        }
    }

    #[inline(always)]
    pub fn next_hop(&self, at: NodeId, dst: NodeId) -> Option<LinkId> {
        if !self.flat.is_empty() {
            let l = self.flat[at.0 as usize * self.nodes + dst.0 as usize];
            return (l != NONE).then_some(LinkId(l));
        }
        self.lookup(at, dst)
    }

    /// [`RoutingTable::next_hop`] from the compact tables.
    fn lookup(&self, at: NodeId, dst: NodeId) -> Option<LinkId> {
        if let Some(row) = &self.explicit[at.0 as usize] {
            let l = row[dst.0 as usize];
            if l != NONE {
                return Some(LinkId(l));
            }
        }
        self.computed(at, dst)
    }

    /// Sets an explicit entry; it wins over computed routes, before or after filling.
    pub fn set(&mut self, at: NodeId, dst: NodeId, link: LinkId) {
        let nodes = self.nodes;
        let row = self.explicit[at.0 as usize].get_or_insert_with(|| vec![NONE; nodes].into());
        row[dst.0 as usize] = link.0;
        if !self.flat.is_empty() {
            self.flat[at.0 as usize * nodes + dst.0 as usize] = link.0;
        }
    }

    /// Bytes held by the table (for the memory tests and benches).
    pub fn heap_bytes(&self) -> usize {
        let explicit: usize = self.explicit.iter().flatten().map(|r| r.len() * 4).sum();
        self.rows.len() * std::mem::size_of::<Row>()
            + self.cols.len() * std::mem::size_of::<Col>()
            + self.core.len() * 4
            + self.explicit.len() * std::mem::size_of::<Option<Box<[u32]>>>()
            + explicit
            + self.flat.len() * 4
    }

    /// The minimum-hop route, ignoring explicit entries.
    #[inline]
    fn computed(&self, at: NodeId, dst: NodeId) -> Option<LinkId> {
        if at == dst {
            return None;
        }
        match self.rows[at.0 as usize] {
            Row::Empty => None,
            // The only way out; usable iff `via` is the destination or reaches it.
            Row::Stub { link, via } => {
                (via == dst || self.core_row(via, dst).is_some()).then_some(link)
            }
            Row::Core(_) => self.core_row(at, dst),
        }
    }

    /// The computed route at a core-row node `at` (`at != dst`).
    #[inline]
    fn core_row(&self, at: NodeId, dst: NodeId) -> Option<LinkId> {
        let Row::Core(r) = self.rows[at.0 as usize] else {
            unreachable!("stub rows point at core rows only")
        };
        let c = match self.cols[dst.0 as usize] {
            Col::Unreachable => return None,
            Col::Leaf { like, link } => {
                if at == like {
                    return Some(link);
                }
                let Col::Core(c) = self.cols[like.0 as usize] else {
                    unreachable!("leaf columns point at core columns only")
                };
                c
            }
            Col::Core(c) => c,
        };
        let l = self.core[r as usize * self.core_cols + c as usize];
        (l != NONE).then_some(LinkId(l))
    }

    /// Computes minimum-hop routes for every (node, destination) pair: BFS from each
    /// destination over reversed links, ties broken by link order (first discovery wins), so
    /// the result is deterministic. Explicit entries keep winning.
    ///
    /// Fails, before allocating the dense core, when it would exceed [`MAX_CORE_CELLS`].
    pub fn fill_shortest_paths(&mut self, links: &[Link]) -> Result<(), RoutingTooLarge> {
        let n = self.nodes;
        let mut out_deg = vec![0u32; n];
        let mut out_link = vec![NONE; n];
        let mut in_deg = vec![0u32; n];
        let mut in_link = vec![NONE; n];
        let mut incoming_start = vec![0u32; n + 1];
        for (i, l) in links.iter().enumerate() {
            let (a, z) = (l.from.0 as usize, l.to.0 as usize);
            out_deg[a] += 1;
            out_link[a] = i as u32;
            in_deg[z] += 1;
            in_link[z] = i as u32;
            incoming_start[z + 1] += 1;
        }
        // A single-link candidate only counts if the node at the other end is not one too, so
        // that every lookup ends in the core after one step.
        let stub_via = |u: usize| (out_deg[u] == 1).then(|| links[out_link[u] as usize].to);
        let leaf_like = |v: usize| (in_deg[v] == 1).then(|| links[in_link[v] as usize].from);
        let mut rows = vec![Row::Empty; n];
        let mut cols = vec![Col::Unreachable; n];
        let (mut core_rows, mut core_cols) = (0u32, 0u32);
        for u in 0..n {
            rows[u] = match stub_via(u) {
                _ if out_deg[u] == 0 => Row::Empty,
                Some(via) if stub_via(via.0 as usize).is_none() && out_deg[via.0 as usize] > 0 => {
                    Row::Stub {
                        link: LinkId(out_link[u]),
                        via,
                    }
                }
                _ => {
                    core_rows += 1;
                    Row::Core(core_rows - 1)
                }
            };
        }
        for v in 0..n {
            cols[v] = match leaf_like(v) {
                _ if in_deg[v] == 0 => Col::Unreachable,
                Some(like)
                    if leaf_like(like.0 as usize).is_none() && in_deg[like.0 as usize] > 0 =>
                {
                    Col::Leaf {
                        like,
                        link: LinkId(in_link[v]),
                    }
                }
                _ => {
                    core_cols += 1;
                    Col::Core(core_cols - 1)
                }
            };
        }
        let cells = core_rows as usize * core_cols as usize;
        if cells > MAX_CORE_CELLS {
            return Err(RoutingTooLarge {
                core_rows: core_rows as usize,
                core_destinations: core_cols as usize,
            });
        }
        // Incoming links per node, in link order (compressed adjacency, linear memory).
        for v in 0..n {
            incoming_start[v + 1] += incoming_start[v];
        }
        let mut fill = incoming_start.clone();
        let mut incoming = vec![(NodeId(0), LinkId(0)); links.len()];
        for (i, l) in links.iter().enumerate() {
            let z = l.to.0 as usize;
            incoming[fill[z] as usize] = (l.from, LinkId(i as u32));
            fill[z] += 1;
        }
        let mut core = vec![NONE; cells];
        let mut seen = vec![false; n];
        let mut frontier = VecDeque::new();
        for dst in 0..n {
            let Col::Core(c) = cols[dst] else { continue };
            seen.iter_mut().for_each(|s| *s = false);
            seen[dst] = true;
            frontier.push_back(dst);
            while let Some(v) = frontier.pop_front() {
                let range = incoming_start[v] as usize..incoming_start[v + 1] as usize;
                for &(u, link) in &incoming[range] {
                    let u = u.0 as usize;
                    if !seen[u] {
                        seen[u] = true;
                        if let Row::Core(r) = rows[u] {
                            core[r as usize * core_cols as usize + c as usize] = link.0;
                        }
                        frontier.push_back(u);
                    }
                }
            }
        }
        self.rows = rows;
        self.cols = cols;
        self.core_cols = core_cols as usize;
        self.core = core;
        self.flat.clear();
        if n * n <= MAX_FLAT_CELLS {
            let flat: Vec<u32> = (0..n * n)
                .map(|i| {
                    let (at, dst) = (NodeId((i / n) as u32), NodeId((i % n) as u32));
                    self.lookup(at, dst).map_or(NONE, |l| l.0)
                })
                .collect();
            self.flat = flat;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queue::{DropTailQueue, QueueLimit};
    use ccsim_core::Time;

    fn link(from: u32, to: u32) -> Link {
        Link::new(
            format!("{from}->{to}"),
            NodeId(from),
            NodeId(to),
            1_000_000,
            Time::ZERO,
            DropTailQueue::new(QueueLimit::Packets(10)),
        )
    }

    /// The previous dense implementation, kept as the oracle.
    fn dense_oracle(nodes: usize, links: &[Link]) -> Vec<Option<LinkId>> {
        let mut next = vec![None; nodes * nodes];
        let mut incoming: Vec<Vec<(NodeId, LinkId)>> = vec![Vec::new(); nodes];
        for (i, l) in links.iter().enumerate() {
            incoming[l.to.0 as usize].push((l.from, LinkId(i as u32)));
        }
        for dst in 0..nodes {
            let mut dist = vec![usize::MAX; nodes];
            dist[dst] = 0;
            let mut frontier = VecDeque::from([dst]);
            while let Some(v) = frontier.pop_front() {
                for &(u, link) in &incoming[v] {
                    let u = u.0 as usize;
                    if dist[u] == usize::MAX {
                        dist[u] = dist[v] + 1;
                        next[u * nodes + dst] = Some(link);
                        frontier.push_back(u);
                    }
                }
            }
        }
        next
    }

    fn assert_matches_oracle(nodes: usize, links: &[Link]) {
        let mut rt = RoutingTable::new(nodes);
        rt.fill_shortest_paths(links).unwrap();
        let oracle = dense_oracle(nodes, links);
        assert!(!rt.flat.is_empty(), "small tables keep the flat copy");
        for a in 0..nodes {
            for d in 0..nodes {
                let (at, dst) = (NodeId(a as u32), NodeId(d as u32));
                // The flat copy and the compact tables give the same answers.
                assert_eq!(rt.next_hop(at, dst), rt.lookup(at, dst));
                assert_eq!(
                    rt.next_hop(at, dst),
                    oracle[a * nodes + d],
                    "at {a} to {d}, links {:?}",
                    links.iter().map(|l| (l.from.0, l.to.0)).collect::<Vec<_>>()
                );
            }
        }
    }

    #[test]
    fn shortest_paths_on_a_line() {
        // 0 <-> 1 <-> 2
        let links = vec![link(0, 1), link(1, 0), link(1, 2), link(2, 1)];
        let mut rt = RoutingTable::new(3);
        rt.fill_shortest_paths(&links).unwrap();
        assert_eq!(rt.next_hop(NodeId(0), NodeId(2)), Some(LinkId(0)));
        assert_eq!(rt.next_hop(NodeId(1), NodeId(2)), Some(LinkId(2)));
        assert_eq!(rt.next_hop(NodeId(2), NodeId(0)), Some(LinkId(3)));
        assert_eq!(rt.next_hop(NodeId(0), NodeId(0)), None);
        assert_matches_oracle(3, &links);
    }

    #[test]
    fn explicit_entries_win_before_and_after_filling() {
        let links = vec![link(0, 1), link(1, 0), link(1, 2), link(2, 1), link(0, 2)];
        let mut rt = RoutingTable::new(3);
        rt.set(NodeId(0), NodeId(2), LinkId(0));
        rt.fill_shortest_paths(&links).unwrap();
        assert_eq!(rt.next_hop(NodeId(0), NodeId(2)), Some(LinkId(0)));
        rt.set(NodeId(0), NodeId(2), LinkId(4));
        assert_eq!(rt.next_hop(NodeId(0), NodeId(2)), Some(LinkId(4)));
        assert_eq!(rt.next_hop(NodeId(0), NodeId(1)), Some(LinkId(0)));
    }

    /// Dumbbell: sources 2..2+k -> r0 -> r1 -> sinks, both ways.
    fn dumbbell(flows: u32) -> (usize, Vec<Link>) {
        let mut links = vec![link(0, 1), link(1, 0)];
        for i in 0..flows {
            let (s, d) = (2 + 2 * i, 3 + 2 * i);
            links.extend([link(s, 0), link(0, s), link(1, d), link(d, 1)]);
        }
        (2 + 2 * flows as usize, links)
    }

    #[test]
    fn dumbbell_matches_the_dense_table() {
        let (n, links) = dumbbell(7);
        assert_matches_oracle(n, &links);
    }

    #[test]
    fn dumbbell_routing_memory_is_linear_in_flows() {
        // Regression (issue 18 item 3): 8000 flows took a 16 002² table (2 GB).
        let bytes = |flows| {
            let (n, links) = dumbbell(flows);
            let mut rt = RoutingTable::new(n);
            rt.fill_shortest_paths(&links).unwrap();
            rt.heap_bytes()
        };
        let (small, large) = (bytes(1000), bytes(8000));
        assert!(
            large <= 9 * small,
            "1000 flows: {small} B, 8000 flows: {large} B"
        );
        assert!(large < 1 << 20, "8000 flows use {large} B of routing state");
    }

    #[test]
    fn a_too_large_core_is_refused_before_allocating() {
        // A full mesh of 9000 nodes has no stubs or leaves: 81 M core cells.
        let n = 9000u32;
        let links: Vec<Link> = (0..n)
            .flat_map(|a| [link(a, (a + 1) % n), link(a, (a + 2) % n)])
            .collect();
        let mut rt = RoutingTable::new(n as usize);
        let err = rt.fill_shortest_paths(&links).unwrap_err();
        assert_eq!((err.core_rows, err.core_destinations), (9000, 9000));
        assert!(err.to_string().contains("limit"), "{err}");
    }

    /// Random small graphs (stubs, leaves, parallel links, one-way links, isolated nodes):
    /// the compact table answers exactly as the dense one.
    #[test]
    fn random_graphs_match_the_dense_table() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut rnd = |m: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % m
        };
        for _ in 0..400 {
            let n = 1 + rnd(9) as u32;
            let mut links = Vec::new();
            for _ in 0..rnd(3 * n as u64 + 1) {
                let (a, z) = (rnd(n as u64) as u32, rnd(n as u64) as u32);
                if a != z {
                    links.push(link(a, z));
                    if rnd(3) > 0 {
                        links.push(link(z, a));
                    }
                }
            }
            assert_matches_oracle(n as usize, &links);
        }
    }
}

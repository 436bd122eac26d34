//! Static next-hop routing: for each (node, destination) the outgoing link.

use crate::link::{Link, LinkId};
use crate::packet::NodeId;
use std::collections::VecDeque;

/// Dense next-hop table indexed by [node][destination].
#[derive(Clone, Debug, Default)]
pub struct RoutingTable {
    nodes: usize,
    next: Vec<Option<LinkId>>,
}

impl RoutingTable {
    pub fn new(nodes: usize) -> Self {
        RoutingTable {
            nodes,
            next: vec![None; nodes * nodes],
        }
    }

    #[inline]
    pub fn next_hop(&self, at: NodeId, dst: NodeId) -> Option<LinkId> {
        self.next[at.0 as usize * self.nodes + dst.0 as usize]
    }

    pub fn set(&mut self, at: NodeId, dst: NodeId, link: LinkId) {
        self.next[at.0 as usize * self.nodes + dst.0 as usize] = Some(link);
    }

    /// Fills every entry not already set with a minimum-hop path (BFS from each destination
    /// over reversed links; ties broken by lowest link id, so the result is deterministic).
    pub fn fill_shortest_paths(&mut self, links: &[Link]) {
        let mut incoming: Vec<Vec<(NodeId, LinkId)>> = vec![Vec::new(); self.nodes];
        for (i, l) in links.iter().enumerate() {
            incoming[l.to.0 as usize].push((l.from, LinkId(i as u32)));
        }
        for dst in 0..self.nodes {
            let mut dist = vec![usize::MAX; self.nodes];
            dist[dst] = 0;
            let mut frontier = VecDeque::from([dst]);
            while let Some(v) = frontier.pop_front() {
                for &(u, link) in &incoming[v] {
                    let u = u.0 as usize;
                    if dist[u] == usize::MAX {
                        dist[u] = dist[v] + 1;
                        let slot = &mut self.next[u * self.nodes + dst];
                        if slot.is_none() {
                            *slot = Some(link);
                        }
                        frontier.push_back(u);
                    }
                }
            }
        }
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

    #[test]
    fn shortest_paths_on_a_line() {
        // 0 <-> 1 <-> 2
        let links = vec![link(0, 1), link(1, 0), link(1, 2), link(2, 1)];
        let mut rt = RoutingTable::new(3);
        rt.fill_shortest_paths(&links);
        assert_eq!(rt.next_hop(NodeId(0), NodeId(2)), Some(LinkId(0)));
        assert_eq!(rt.next_hop(NodeId(1), NodeId(2)), Some(LinkId(2)));
        assert_eq!(rt.next_hop(NodeId(2), NodeId(0)), Some(LinkId(3)));
        assert_eq!(rt.next_hop(NodeId(0), NodeId(0)), None);
    }
}

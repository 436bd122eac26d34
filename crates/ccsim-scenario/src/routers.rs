//! The routing decision a node takes for every packet it does not deliver itself.
//!
//! Every node has a static next-hop table (hosts, classic topologies). Scenarios with a
//! `[mesh]` add routing-protocol routers ([`crate::mesh::MeshRouting`]): they answer first for
//! the destinations their protocol covers (OLSR, BP-MR), and fall back to the table for the
//! networks attached to them. The world counts, per node, what it forwarded and what it
//! dropped, and why — so a routing loop or a missing route is a counted drop, never a silent
//! zero.

use crate::mesh::MeshRouting;
use ccsim_core::Time;
use ccsim_net::{Link, LinkId, NodeId, Packet, PacketId, RoutingTable};
use serde::Serialize;

/// Where a packet goes next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Route {
    /// Out on this link.
    Link(LinkId),
    /// No route to the destination: drop (counted).
    NoRoute,
    /// A backpressure router keeps the packet for now (no neighbour has a positive weight).
    Hold,
}

/// Why a node discarded a packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DropCause {
    /// The outgoing queue (or a backpressure router's holding queue) was full.
    Queue,
    /// No route to the destination.
    NoRoute,
    /// The TTL ran out: a routing loop, or a path longer than 63 routers.
    Ttl,
}

/// Per-node packet counters.
#[derive(Clone, Copy, Debug, Default, Serialize, PartialEq, Eq)]
pub struct NodeCounters {
    /// Packets this node sent on towards another node's destination (not its own).
    pub forwarded: u64,
    pub dropped_queue: u64,
    pub dropped_no_route: u64,
    pub dropped_ttl: u64,
}

impl NodeCounters {
    pub fn count(&mut self, cause: DropCause) {
        match cause {
            DropCause::Queue => self.dropped_queue += 1,
            DropCause::NoRoute => self.dropped_no_route += 1,
            DropCause::Ttl => self.dropped_ttl += 1,
        }
    }
}

/// The routing layer of the world.
pub struct Routing {
    /// Static next hops, every node.
    pub table: RoutingTable,
    /// Routing-protocol routers of a `[mesh]` scenario.
    pub mesh: Option<Box<MeshRouting>>,
    /// Counters per node.
    pub counters: Vec<NodeCounters>,
}

impl Routing {
    pub fn new(table: RoutingTable, nodes: usize) -> Self {
        Routing {
            table,
            mesh: None,
            counters: vec![NodeCounters::default(); nodes],
        }
    }

    /// The next hop of `packet` (`id`) at `node`; `from` is the node it came from.
    #[inline]
    pub fn route(
        &mut self,
        now: Time,
        node: NodeId,
        id: PacketId,
        packet: &Packet,
        from: Option<NodeId>,
        links: &[Link],
    ) -> Route {
        if let Some(m) = self.mesh.as_deref_mut() {
            if let Some(r) = m.route(now, node, id, packet, from, links) {
                return r;
            }
        }
        match self.table.next_hop(node, packet.dst) {
            Some(l) => Route::Link(l),
            None => Route::NoRoute,
        }
    }
}

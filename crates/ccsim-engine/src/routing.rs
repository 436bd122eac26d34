//! The routing decision a node takes for every packet it does not deliver itself.
//!
//! Every node has a static next-hop table (hosts, classic topologies). A routing protocol
//! (a [`RoutingProtocol`]: the mesh routers of a `[mesh]` scenario, `ccsim-scenario`'s
//! `MeshRouting`) answers first for the destinations it covers (OLSR, BP-MR), and falls back
//! to the table for the networks attached to its routers. The world counts, per node, what it forwarded and what it
//! dropped, and why — so a routing loop or a missing route is a counted drop, never a silent
//! zero.

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

/// A control message to put on a link (its payload stays in the protocol's slab at `slot`).
#[derive(Clone, Copy, Debug)]
pub struct ControlOut {
    pub link: LinkId,
    pub slot: u32,
    pub ip_bytes: u32,
}

/// A routing protocol running on some nodes (its routers), as the world drives it: a
/// per-packet decision, timers (one per router, armed lazily like the TCP timers), control
/// messages that travel one link, and — for backpressure — packets a router may keep.
pub trait RoutingProtocol {
    /// Number of routers (router indices are `0..routers()`).
    fn routers(&self) -> u32;

    /// The protocol's next hop for a packet at `node`, or None when the static table decides
    /// (hosts, and the networks attached to the router itself).
    fn route(
        &mut self,
        now: Time,
        node: NodeId,
        id: PacketId,
        packet: &Packet,
        from: Option<NodeId>,
        links: &[Link],
    ) -> Option<Route>;

    /// The next deadline of router `r`'s protocol timers.
    fn next_timer(&self, r: u32) -> Option<Time>;

    /// Router `r`'s timers at `now`; control messages to send go to `out`.
    fn on_timer(&mut self, now: Time, r: u32, out: &mut Vec<ControlOut>);

    /// Control message `slot` arrived over link `l`; returns the router that took it.
    fn on_control(
        &mut self,
        now: Time,
        l: LinkId,
        slot: u32,
        out: &mut Vec<ControlOut>,
    ) -> Option<u32>;

    /// A control packet was dropped: its message is released.
    fn free_control(&mut self, slot: u32);

    /// The protocol has a convergence time to measure (checked every 10 ms until reached).
    fn needs_convergence_check(&self) -> bool;

    /// Every router knows a route to every other router's attached networks.
    fn converged(&self) -> bool;

    /// `node` is a router that keeps packets now (backpressure).
    fn holds_packets(&self, _node: NodeId) -> bool {
        false
    }

    /// Keeps a packet at router `node`; false (drop it) when it cannot.
    fn hold(&mut self, _node: NodeId, _id: PacketId, _from: Option<NodeId>) -> bool {
        false
    }

    /// The oldest packet router `node` keeps, with the node it came from.
    fn held_front(&self, _node: NodeId) -> Option<(PacketId, Option<NodeId>)> {
        None
    }

    /// Forgets the oldest packet router `node` keeps (it was routed or dropped).
    fn pop_held(&mut self, _node: NodeId) {}

    /// Writes into `out` `node` (if a router) and its router neighbours that keep packets;
    /// returns how many.
    fn holders_around(&self, _node: NodeId, _out: &mut [NodeId]) -> usize {
        0
    }
}

/// No routing protocol: the static tables decide everywhere (it has no values).
pub enum NoRouting {}

impl RoutingProtocol for NoRouting {
    fn routers(&self) -> u32 {
        match *self {}
    }
    fn route(
        &mut self,
        _: Time,
        _: NodeId,
        _: PacketId,
        _: &Packet,
        _: Option<NodeId>,
        _: &[Link],
    ) -> Option<Route> {
        match *self {}
    }
    fn next_timer(&self, _: u32) -> Option<Time> {
        match *self {}
    }
    fn on_timer(&mut self, _: Time, _: u32, _: &mut Vec<ControlOut>) {
        match *self {}
    }
    fn on_control(&mut self, _: Time, _: LinkId, _: u32, _: &mut Vec<ControlOut>) -> Option<u32> {
        match *self {}
    }
    fn free_control(&mut self, _: u32) {
        match *self {}
    }
    fn needs_convergence_check(&self) -> bool {
        match *self {}
    }
    fn converged(&self) -> bool {
        match *self {}
    }
}

/// The routing layer of the world.
pub struct Routing<M> {
    /// Static next hops, every node.
    pub table: RoutingTable,
    /// The routing protocol's routers (a `[mesh]` scenario), if any.
    pub mesh: Option<Box<M>>,
    /// Counters per node.
    pub counters: Vec<NodeCounters>,
}

impl<M: RoutingProtocol> Routing<M> {
    pub fn new(table: RoutingTable, nodes: usize) -> Self {
        Routing {
            table,
            mesh: None,
            counters: vec![NodeCounters::default(); nodes],
        }
    }

    /// The next hop of `packet` (`id`) at `node`; `from` is the node it came from.
    #[inline(always)]
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

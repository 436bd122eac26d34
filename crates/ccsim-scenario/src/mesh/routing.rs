//! The routing protocols of a mesh, as the world sees them: which nodes are protocol
//! routers, which router serves each destination, and per packet the protocol's next hop.

use super::bp::BpState;
use ccsim_core::Time;
use ccsim_engine::Route;
use ccsim_net::{Link, LinkId, NodeId, Packet, PacketId, Payload};

/// One interface of a router towards another router (a mesh link).
#[derive(Clone, Copy, Debug)]
pub struct Port {
    /// The outgoing link.
    pub link: LinkId,
    /// The router at its far end (index into [`MeshRouting::routers`]).
    pub peer: u32,
}

/// A protocol router (the EPC gateway or a small cell's transport node).
#[derive(Clone, Debug)]
pub struct MeshRouter {
    pub node: NodeId,
    pub name: String,
    /// Position in metres (BP-MR's geographic penalty).
    pub pos: (f64, f64),
    pub ports: Vec<Port>,
}

pub use ccsim_engine::ControlOut;

/// Which protocol the routers run.
pub enum Protocol {
    /// Static shortest paths: the world's table decides everywhere.
    Static,
    Olsr(Box<super::olsr_glue::OlsrGlue>),
    Backpressure(Box<BpState>),
}

pub struct MeshRouting {
    pub routers: Vec<MeshRouter>,
    /// Router index of each node (None for hosts).
    pub router_of: Vec<Option<u32>>,
    /// The router whose attached networks hold each node (a router serves itself).
    pub serving: Vec<u32>,
    pub protocol: Protocol,
    /// TCP flows in the world (flow keys: 2·tcp + direction, then UDP sources).
    pub tcp_flows: u32,
}

impl MeshRouting {
    /// Key of a packet's flow for per-flow tables: each TCP direction and each UDP source.
    #[inline]
    pub fn flow_key(&self, p: &Packet) -> usize {
        match p.kind {
            Payload::Tcp => 2 * p.flow as usize + usize::from(!p.to_receiver),
            Payload::Udp => 2 * self.tcp_flows as usize + p.flow as usize,
            Payload::Control => unreachable!("control packets travel one hop"),
        }
    }

    /// Backlog of router `r` in packets: its mesh interface queues plus what it holds.
    #[inline]
    pub fn backlog(&self, r: u32, links: &[Link]) -> u32 {
        let router = &self.routers[r as usize];
        let queued: usize = router
            .ports
            .iter()
            .map(|p| links[p.link.0 as usize].queue.len_packets())
            .sum();
        let held = match &self.protocol {
            Protocol::Backpressure(bp) => bp.held(r),
            _ => 0,
        };
        (queued + held) as u32
    }

    /// The protocol's next hop for a packet at `node`, or None when the static table decides
    /// (hosts, and the networks attached to the router itself).
    #[inline]
    pub fn route(
        &mut self,
        now: Time,
        node: NodeId,
        _id: PacketId,
        packet: &Packet,
        from: Option<NodeId>,
        links: &[Link],
    ) -> Option<Route> {
        let r = self.router_of[node.0 as usize]?;
        let dst_router = self.serving[packet.dst.0 as usize];
        if dst_router == r {
            return None;
        }
        match &mut self.protocol {
            Protocol::Static => None,
            Protocol::Olsr(o) => Some(o.route(r, dst_router).map_or(Route::NoRoute, Route::Link)),
            Protocol::Backpressure(_) => {
                let key = self.flow_key(packet);
                Some(super::bp::route(
                    self, now, r, dst_router, key, packet.ttl, from, links,
                ))
            }
        }
    }

    /// The protocol sends control packets and has a convergence time to measure.
    pub fn needs_convergence_check(&self) -> bool {
        matches!(self.protocol, Protocol::Olsr(_))
    }

    /// Every router knows a route to every other router's attached networks.
    pub fn converged(&self) -> bool {
        match &self.protocol {
            Protocol::Olsr(o) => o.converged(),
            _ => true,
        }
    }

    /// The next deadline of router `r`'s protocol timers.
    pub fn next_timer(&self, r: u32) -> Option<Time> {
        match &self.protocol {
            Protocol::Olsr(o) => o.next_deadline(r),
            _ => None,
        }
    }

    /// Router `r`'s timers at `now`; control messages to send go to `out`.
    pub fn on_timer(&mut self, now: Time, r: u32, out: &mut Vec<ControlOut>) {
        if let Protocol::Olsr(o) = &mut self.protocol {
            o.on_timer(now, r, out);
        }
    }

    /// Control message `slot` arrived over link `l`; returns the router that took it.
    pub fn on_control(
        &mut self,
        now: Time,
        l: LinkId,
        slot: u32,
        out: &mut Vec<ControlOut>,
    ) -> Option<u32> {
        match &mut self.protocol {
            Protocol::Olsr(o) => o.on_control(now, l, slot, out),
            _ => None,
        }
    }

    /// A control packet was dropped: its message is released.
    pub fn free_control(&mut self, slot: u32) {
        if let Protocol::Olsr(o) = &mut self.protocol {
            o.free_control(slot);
        }
    }

    pub fn bp(&self) -> Option<&BpState> {
        match &self.protocol {
            Protocol::Backpressure(bp) => Some(bp),
            _ => None,
        }
    }

    /// Writes into `out` `node` (if a router) and its router neighbours that hold packets;
    /// returns how many.
    pub fn holders_around(&self, node: NodeId, out: &mut [NodeId]) -> usize {
        let (Some(bp), Some(r)) = (self.bp(), self.router_of[node.0 as usize]) else {
            return 0;
        };
        let mut n = 0;
        let router = &self.routers[r as usize];
        if bp.held(r) > 0 {
            out[n] = router.node;
            n += 1;
        }
        for p in &router.ports {
            if n < out.len() && bp.held(p.peer) > 0 {
                out[n] = self.routers[p.peer as usize].node;
                n += 1;
            }
        }
        n
    }

    /// The backpressure state, if the routers run BP-MR.
    pub fn bp_mut(&mut self) -> Option<&mut BpState> {
        match &mut self.protocol {
            Protocol::Backpressure(bp) => Some(bp),
            _ => None,
        }
    }
}

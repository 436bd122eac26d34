//! The mesh routing protocols as the engine drives them: [`MeshRouting`] behind
//! [`RoutingProtocol`] (backpressure's held packets through the holding hooks).

use super::routing::MeshRouting;
use ccsim_core::Time;
use ccsim_engine::{ControlOut, Route, RoutingProtocol};
use ccsim_net::{Link, LinkId, NodeId, Packet, PacketId};

impl RoutingProtocol for MeshRouting {
    fn routers(&self) -> u32 {
        self.routers.len() as u32
    }

    #[inline]
    fn route(
        &mut self,
        now: Time,
        node: NodeId,
        id: PacketId,
        packet: &Packet,
        from: Option<NodeId>,
        links: &[Link],
    ) -> Option<Route> {
        MeshRouting::route(self, now, node, id, packet, from, links)
    }

    fn next_timer(&self, r: u32) -> Option<Time> {
        MeshRouting::next_timer(self, r)
    }

    fn on_timer(&mut self, now: Time, r: u32, out: &mut Vec<ControlOut>) {
        MeshRouting::on_timer(self, now, r, out);
    }

    fn on_control(
        &mut self,
        now: Time,
        l: LinkId,
        slot: u32,
        out: &mut Vec<ControlOut>,
    ) -> Option<u32> {
        MeshRouting::on_control(self, now, l, slot, out)
    }

    fn free_control(&mut self, slot: u32) {
        MeshRouting::free_control(self, slot);
    }

    fn needs_convergence_check(&self) -> bool {
        MeshRouting::needs_convergence_check(self)
    }

    fn converged(&self) -> bool {
        MeshRouting::converged(self)
    }

    #[inline]
    fn holds_packets(&self, node: NodeId) -> bool {
        match (self.router_of[node.0 as usize], self.bp()) {
            (Some(r), Some(bp)) => bp.held(r) > 0,
            _ => false,
        }
    }

    fn hold(&mut self, node: NodeId, id: PacketId, from: Option<NodeId>) -> bool {
        let r = self.router_of[node.0 as usize].expect("only routers hold");
        self.bp_mut().is_some_and(|bp| bp.hold(r, id, from))
    }

    fn held_front(&self, node: NodeId) -> Option<(PacketId, Option<NodeId>)> {
        let r = self.router_of[node.0 as usize]?;
        self.bp().and_then(|bp| bp.front(r))
    }

    fn pop_held(&mut self, node: NodeId) {
        let r = self.router_of[node.0 as usize].expect("only routers hold");
        if let Some(bp) = self.bp_mut() {
            bp.pop_front(r);
        }
    }

    fn holders_around(&self, node: NodeId, out: &mut [NodeId]) -> usize {
        MeshRouting::holders_around(self, node, out)
    }
}

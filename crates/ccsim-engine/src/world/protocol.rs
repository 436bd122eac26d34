//! Routing protocols in the world: control packets, routing timers, backpressure holding, UDP
//! sources. Nothing here runs in scenarios without a routing protocol (a `[mesh]`).

use super::World;
use crate::event::Event;
use crate::parts::Parts;
use crate::routing::{ControlOut, DropCause, Route, RoutingProtocol};
use crate::udp::UdpSource;
use ccsim_core::Time;
use ccsim_net::{IpHeader, LinkId, NodeId, Packet, PacketId, Payload, TcpSegment, DEFAULT_TTL};

impl<P: Parts> World<P> {
    /// Hands the routing protocol to the world and schedules its first timers, and the UDP
    /// sources' first datagrams.
    pub fn attach_mesh(&mut self, mesh: P::Routing, udp: Vec<UdpSource>) {
        let routers = mesh.routers();
        let check = mesh.needs_convergence_check();
        self.routing.mesh = Some(Box::new(mesh));
        self.routing_timers = vec![None; routers as usize];
        for r in 0..routers {
            self.arm_routing_timer(Time::ZERO, r);
        }
        for (u, s) in udp.iter().enumerate() {
            self.queue.schedule(s.start, Event::UdpSend(u as u32));
        }
        self.udp = udp;
        if check {
            self.queue.schedule(Time::ZERO, Event::ConvergenceCheck);
        }
    }

    fn arm_routing_timer(&mut self, now: Time, r: u32) {
        let Some(m) = self.routing.mesh.as_deref() else {
            return;
        };
        if let Some(t) = m.next_timer(r) {
            let t = t.max(now);
            let slot = &mut self.routing_timers[r as usize];
            if slot.is_none_or(|cur| t < cur) {
                *slot = Some(t);
                self.queue.schedule_timer(t, Event::RoutingTimer(r));
            }
        }
    }

    pub(super) fn on_routing_timer(&mut self, now: Time, r: u32) {
        if self.routing_timers[r as usize] != Some(now) {
            return; // stale: the deadline moved
        }
        self.routing_timers[r as usize] = None;
        let mut out = std::mem::take(&mut self.control_out);
        if let Some(m) = self.routing.mesh.as_deref_mut() {
            m.on_timer(now, r, &mut out);
        }
        self.send_control(now, &mut out);
        self.control_out = out;
        self.arm_routing_timer(now, r);
    }

    /// A control packet reached the far end of link `l`.
    pub(super) fn on_control(&mut self, now: Time, l: LinkId, id: PacketId) {
        let p = self.packets.remove(id);
        let mut out = std::mem::take(&mut self.control_out);
        let router = self
            .routing
            .mesh
            .as_deref_mut()
            .and_then(|m| m.on_control(now, l, p.flow, &mut out));
        self.send_control(now, &mut out);
        self.control_out = out;
        if let Some(r) = router {
            self.arm_routing_timer(now, r);
        }
    }

    pub(super) fn free_control(&mut self, slot: u32) {
        if let Some(m) = self.routing.mesh.as_deref_mut() {
            m.free_control(slot);
        }
    }

    /// Puts the protocol's control messages on their links as packets.
    fn send_control(&mut self, now: Time, out: &mut Vec<ControlOut>) {
        for c in out.drain(..) {
            let link = &self.links[c.link.0 as usize];
            let packet = Packet {
                src: link.from,
                dst: link.to,
                flow: c.slot,
                to_receiver: false,
                kind: Payload::Control,
                ttl: 1,
                ip_bytes: c.ip_bytes,
                ip: IpHeader::default(),
                tcp: TcpSegment::default(),
            };
            self.control_bytes += c.ip_bytes as u64;
            self.control_packets += 1;
            let id = self.packets.insert(packet);
            self.send_on(now, c.link, id);
        }
    }

    pub(super) fn holds_packets(&self, node: NodeId) -> bool {
        self.routing
            .mesh
            .as_deref()
            .is_some_and(|m| m.holds_packets(node))
    }

    pub(super) fn hold_or_drop(&mut self, node: NodeId, id: PacketId, from: Option<NodeId>) {
        let kept = self
            .routing
            .mesh
            .as_deref_mut()
            .is_some_and(|m| m.hold(node, id, from));
        if !kept {
            self.drop_packet(node, id, DropCause::Queue);
        }
    }

    /// Sends what backpressure router `node` holds, oldest first, while a neighbour takes it.
    pub(super) fn bp_retry(&mut self, now: Time, node: NodeId) {
        loop {
            let Some(m) = self.routing.mesh.as_deref_mut() else {
                return;
            };
            let Some((id, from)) = m.held_front(node) else {
                return;
            };
            let p = self.packets.get(id);
            match self.routing.route(now, node, id, p, from, &self.links) {
                Route::Hold => return,
                route => {
                    if let Some(m) = self.routing.mesh.as_deref_mut() {
                        m.pop_held(node);
                    }
                    match route {
                        Route::Link(l) => {
                            self.routing.counters[node.0 as usize].forwarded += 1;
                            self.send_on(now, l, id);
                        }
                        _ => self.drop_packet(node, id, DropCause::NoRoute),
                    }
                }
            }
        }
    }

    /// Backlog at `node` went down: it and its router neighbours retry what they hold.
    pub(super) fn bp_wake(&mut self, now: Time, node: NodeId) {
        let mut wake = [NodeId(0); 17];
        let n = match self.routing.mesh.as_deref() {
            Some(m) => m.holders_around(node, &mut wake),
            None => 0,
        };
        for &w in &wake[..n] {
            self.bp_retry(now, w);
        }
    }

    pub(super) fn udp_send(&mut self, now: Time, u: u32) {
        let s = &mut self.udp[u as usize];
        let Some(next) = s.next_send(now) else {
            return;
        };
        let packet = Packet {
            src: s.src,
            dst: s.dst,
            flow: u,
            to_receiver: true,
            kind: Payload::Udp,
            ttl: DEFAULT_TTL,
            ip_bytes: s.ip_bytes,
            ip: IpHeader::default(),
            tcp: TcpSegment::default(),
        };
        let src = s.src;
        if let Some(t) = next {
            self.queue.schedule(t, Event::UdpSend(u));
        }
        let id = self.packets.insert(packet);
        self.forward(now, src, id, None);
    }

    pub(super) fn check_convergence(&mut self, now: Time) {
        let Some(m) = self.routing.mesh.as_deref_mut() else {
            return;
        };
        if m.converged() {
            self.convergence = Some(now);
        } else {
            self.queue
                .schedule(now + Time::from_millis(10), Event::ConvergenceCheck);
        }
    }
}

//! A packet at a node: delivered there, or routed (TTL, routing protocol or static table,
//! the radio side, fragmentation at the link's MTU) onto a link, whose transmission steps
//! (`ccsim_net::Link::{offer, begin_tx, end_tx}`) the world turns into events.

use super::World;
use crate::event::Event;
use crate::parts::Parts;
use crate::probe::Probe;
use crate::radio::RadioPort;
use crate::routing::{DropCause, Route};
use ccsim_core::Time;
use ccsim_net::fragment::Fragments;
use ccsim_net::{LinkId, NodeId, Offer, PacketId, Payload};

impl<P: Parts> World<P> {
    /// Discards a packet at `node`, counting why.
    pub(crate) fn drop_packet(&mut self, node: NodeId, id: PacketId, cause: DropCause) {
        let p = self.packets.remove(id);
        self.routing.counters[node.0 as usize].count(cause);
        if cause == DropCause::NoRoute {
            self.unroutable += 1;
        }
        match p.kind {
            Payload::Control => self.free_control(p.flow),
            Payload::Udp | Payload::Tcp => {}
        }
    }

    /// The first packet in flight on link `l`, `p`, reaches its far end.
    pub(super) fn arrive(&mut self, now: Time, l: LinkId, p: PacketId) {
        let link = &mut self.links[l.0 as usize];
        let head = link.in_flight.pop(&mut self.queue, |p| Event::Arrive(l, p));
        debug_assert_eq!(head, p, "the event carries the line's head");
        // The next packet to arrive here was last touched a propagation delay ago.
        if let Some(&next) = link.in_flight.front() {
            self.packets.prefetch(next);
        }
        let (node, from) = (link.to, link.from);
        if self.packets.get(p).kind == Payload::Control {
            self.on_control(now, l, p);
        } else {
            self.forward(now, node, p, Some(from));
        }
    }

    /// A packet is at `node` (arrived from `from`, or originated there): deliver it there or
    /// hand it to the next link.
    pub(super) fn forward(&mut self, now: Time, node: NodeId, id: PacketId, from: Option<NodeId>) {
        let p = self.packets.get_mut(id);
        if node == p.dst {
            self.deliver(now, id);
            return;
        }
        // Read once: nothing below changes a packet's source.
        let forwarding = node != p.src;
        if forwarding {
            // IPv4 forwarding: TTL − 1, and a packet whose TTL reaches 0 is dropped (RFC 791).
            let ttl = p.ttl.saturating_sub(1);
            if ttl == 0 {
                self.drop_packet(node, id, DropCause::Ttl);
                return;
            }
            p.ttl = ttl;
        }
        if self.holds_packets(node) {
            // A backpressure router already keeps packets: this one queues behind them.
            self.hold_or_drop(node, id, from);
            self.bp_retry(now, node);
            return;
        }
        let p = self.packets.get(id);
        let l = match self.routing.route(now, node, id, p, from, &self.links) {
            Route::Link(l) => l,
            Route::NoRoute => {
                self.drop_packet(node, id, DropCause::NoRoute);
                return;
            }
            Route::Hold => {
                self.hold_or_drop(node, id, from);
                return;
            }
        };
        if forwarding {
            self.routing.counters[node.0 as usize].forwarded += 1;
        }
        let l = match self.radio.as_deref_mut() {
            None => l,
            Some(g) => match g.steer(now, l, id, &mut self.packets, &mut self.queue) {
                Some(l) => l,
                None => return,
            },
        };
        match self.links[l.0 as usize].mtu {
            Some(mtu) if self.packets.get(id).ip_bytes > mtu => {
                // Each fragment goes into the arena and onto the link before the next is made
                // (the first takes the datagram's slot back), with no copy through a buffer.
                for f in Fragments::new(self.packets.remove(id), mtu) {
                    let id = self.packets.insert(f);
                    self.send_on(now, l, id);
                }
            }
            _ => self.send_on(now, l, id),
        }
    }

    /// Sends `id` on link `l`: at once if the link is idle, else through its queue.
    #[inline(always)]
    pub(super) fn send_on(&mut self, now: Time, l: LinkId, id: PacketId) {
        let bytes = self.packets.get(id).ip_bytes;
        let link = &mut self.links[l.0 as usize];
        match link.offer(now, id, bytes) {
            Offer::SendNow => self.start_tx(now, l, id, bytes),
            Offer::Queued { tx_done_at: None } => {}
            Offer::Queued {
                tx_done_at: Some(t),
            } => self.queue.schedule(t, Event::TxDone(l)),
            Offer::Dropped => {
                let from = link.from;
                self.probe.on_queue_drop(now, l, self.packets.get(id));
                self.drop_packet(from, id, DropCause::Queue);
            }
        }
    }

    /// The link serialises `id` of `ip_bytes` from now and hands it to its delay line.
    #[inline(always)]
    fn start_tx(&mut self, now: Time, l: LinkId, id: PacketId, ip_bytes: u32) {
        debug_assert_eq!(ip_bytes, self.packets.get(id).ip_bytes);
        let link = &mut self.links[l.0 as usize];
        let arrive = link.begin_tx(now, ip_bytes);
        let to = link.to;
        if let Err(id) = link
            .in_flight
            .push(&mut self.queue, arrive, id, |id| Event::Arrive(l, id))
        {
            // The delay shrank while earlier packets were in flight: this one overtakes them.
            self.queue.schedule(arrive, Event::ArriveAt(to, id));
        }
    }

    /// The packet on the wire is out: start the next one from the queue.
    pub(super) fn tx_done(&mut self, now: Time, l: LinkId) {
        // The bytes come from the queue: the packet itself is not read (it is out of the cache).
        let Some((next, bytes)) = self.links[l.0 as usize].end_tx(now) else {
            return;
        };
        self.start_tx(now, l, next, bytes);
        let link = &mut self.links[l.0 as usize];
        if let Some(t) = link.next_tx_done() {
            self.queue.schedule(t, Event::TxDone(l));
        }
        // A backlog went down: backpressure routers around it may push what they hold.
        let from = link.from;
        self.bp_wake(now, from);
    }

    fn deliver(&mut self, now: Time, id: PacketId) {
        match self.packets.get(id).kind {
            Payload::Tcp => {}
            Payload::Udp => {
                let p = self.packets.remove(id);
                self.udp[p.flow as usize].delivered(p.ip_bytes);
                return;
            }
            Payload::Control => unreachable!("control packets are handled on arrival"),
        }
        if self.packets.get(id).ip.is_fragment() {
            if let Some(p) = self.reassembly.add(now, id, &mut self.packets) {
                self.deliver_tcp(now, id, Some(p));
            }
        } else {
            self.deliver_tcp(now, id, None);
        }
    }
}

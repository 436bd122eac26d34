//! The TCP endpoints in the world: segments pumped out of senders and receivers, segments
//! delivered to them, and their lazily armed timers.

use super::World;
use crate::event::Event;
use crate::parts::Parts;
use crate::probe::Probe;
use ccsim_core::Time;
use ccsim_net::{IpHeader, NodeId, Packet, PacketId, Payload, TcpSegment, DEFAULT_TTL};

impl<P: Parts> World<P> {
    /// Sends every segment the sender may send now, then re-arms its timer.
    pub(super) fn pump_sender(&mut self, now: Time, f: u32) {
        loop {
            let flow = &mut self.flows[f as usize];
            let Some(seg) = flow.sender.poll_transmit(now) else {
                break;
            };
            let (src, dst) = (flow.src, flow.dst);
            self.inject(now, src, dst, f, true, seg);
        }
        let flow = &mut self.flows[f as usize];
        if let Some(t) = flow.sender.next_timer() {
            let t = t.max(now);
            if flow.sender_timer.is_none_or(|cur| t < cur) {
                flow.sender_timer = Some(t);
                self.queue.schedule_timer(t, Event::SenderTimer(f));
            }
        }
    }

    pub(super) fn pump_receiver(&mut self, now: Time, f: u32) {
        loop {
            let flow = &mut self.flows[f as usize];
            let Some(seg) = flow.receiver.poll_transmit(now) else {
                break;
            };
            let (src, dst) = (flow.dst, flow.src);
            self.inject(now, src, dst, f, false, seg);
        }
        let flow = &mut self.flows[f as usize];
        if let Some(t) = flow.receiver.next_timer() {
            let t = t.max(now);
            if flow.receiver_timer.is_none_or(|cur| t < cur) {
                flow.receiver_timer = Some(t);
                self.queue.schedule_timer(t, Event::ReceiverTimer(f));
            }
        }
    }

    /// A segment leaves a TCP endpoint at `src`: it becomes a packet with the next IPv4
    /// identification of its direction.
    fn inject(
        &mut self,
        now: Time,
        src: NodeId,
        dst: NodeId,
        flow: u32,
        to_receiver: bool,
        seg: TcpSegment,
    ) {
        self.probe.on_tcp_sent(now, flow, to_receiver, &seg);
        let slot = self.flows[flow as usize].ip_id_slot[usize::from(!to_receiver)] as usize;
        let ip_id = self.ip_ids[slot];
        self.ip_ids[slot] = ip_id.wrapping_add(1);
        let packet = Packet {
            src,
            dst,
            flow,
            to_receiver,
            kind: Payload::Tcp,
            ttl: DEFAULT_TTL,
            ip_bytes: seg.ip_bytes(),
            ip: IpHeader {
                id: ip_id,
                ..Default::default()
            },
            tcp: seg,
        };
        let id = self.packets.insert(packet);
        self.forward(now, src, id, None);
    }

    /// A whole (reassembled) TCP packet reaches its destination endpoint.
    /// Hands packet `id` to its endpoint: read in place in the arena, not copied out (152 B;
    /// the copy was ~5 % of a dumbbell run), and freed before the endpoint sends anything, as
    /// `remove` freed it. A reassembled datagram comes as `reassembled` (its pieces are gone).
    pub(super) fn deliver_tcp(&mut self, now: Time, id: PacketId, reassembled: Option<Packet>) {
        let in_place = reassembled.is_none();
        let packet = match &reassembled {
            Some(p) => p,
            None => self.packets.get(id),
        };
        let f = packet.flow;
        let flow = &mut self.flows[f as usize];
        if packet.to_receiver {
            let ooo_before = flow.receiver.out_of_order_bytes();
            flow.receiver.on_segment(now, &packet.tcp);
            if flow.receiver.out_of_order_bytes() > ooo_before {
                flow.metrics.out_of_order += 1;
            }
            if flow.metrics.finish.is_none()
                && flow
                    .bytes
                    .is_some_and(|b| flow.receiver.delivered_bytes() >= b)
            {
                flow.metrics.finish = Some(now);
                self.finished_flows += 1;
            }
            if in_place {
                self.packets.free(id);
            }
            self.pump_receiver(now, f);
        } else {
            self.probe.on_ack_arrival(now, f, &packet.tcp);
            flow.sender.on_segment(now, &packet.tcp);
            self.probe.on_ack_processed(now, f, &flow.sender);
            if let Some(sample) = flow.sender.take_rtt_sample() {
                flow.metrics.record_rtt(sample);
            }
            if in_place {
                self.packets.free(id);
            }
            self.pump_sender(now, f);
        }
    }
}

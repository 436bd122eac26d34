//! The running world: the event loop that moves packets between links and TCP endpoints.
//!
//! Events are plain enum values in one [`EventQueue`]; packets live in a [`PacketArena`] and
//! are referred to by index, so the steady state allocates nothing per packet. Endpoint
//! timers are scheduled lazily: an endpoint's earliest deadline is kept in the queue, and a
//! stale timer event (its deadline moved) is recognised by its time and ignored.

use crate::metrics::{FlowMetrics, Series};
use crate::radio_glue::RadioGlue;
use crate::routers::{DropCause, Route, Routing};
use ccsim_core::{EventQueue, Time};
use ccsim_net::fragment::fragment;
use ccsim_net::{
    IpHeader, Link, LinkId, NodeId, Packet, PacketArena, PacketId, Payload, Reassembly,
    RoutingTable, TcpSegment, DEFAULT_TTL,
};
use ccsim_tcp::{TcpReceiver, TcpSender};

#[derive(Clone, Copy, Debug)]
pub enum Event {
    FlowStart(u32),
    /// The flow's application source writes its next chunk.
    AppWrite(u32),
    /// The link finished serialising a packet and has a queue to drain.
    TxDone(LinkId),
    /// The first packet in flight on a link reaches its far end (the link's delay line).
    Arrive(LinkId),
    SenderTimer(u32),
    ReceiverTimer(u32),
    LinkChange(u32),
    Sample,
    /// A radio component's deadline: 0 = the RAN, k ≥ 1 = trace link k − 1.
    Radio(u32),
    /// A packet reaches a node without a link (a radio delivery or an uplink arrival).
    ArriveAt(NodeId, PacketId),
    /// Vertical handover event `i` starts its outage.
    VerticalHandover(u32),
    /// Routing-protocol timer of mesh router `r` (OLSR HELLO/TC emission, hold-time expiry).
    RoutingTimer(u32),
    /// UDP constant-bit-rate source `u` sends its next datagram.
    UdpSend(u32),
    /// Checks whether the routing protocol has converged (every 10 ms until it has).
    ConvergenceCheck,
}

/// A scheduled change of a link's rate and/or delay.
#[derive(Clone, Copy, Debug)]
pub struct LinkChange {
    pub at: Time,
    pub link: LinkId,
    pub rate_bps: Option<u64>,
    pub delay: Option<Time>,
}

pub struct Flow {
    pub id: u32,
    pub src: NodeId,
    pub dst: NodeId,
    pub start: Time,
    pub bytes: Option<u64>,
    pub sender: TcpSender,
    pub receiver: TcpReceiver,
    sender_timer: Option<Time>,
    receiver_timer: Option<Time>,
    /// Index in `World::ip_ids` of the identification counter of each direction
    /// ([sender → receiver, receiver → sender]).
    ip_id_slot: [u32; 2],
    pub metrics: FlowMetrics,
    /// Rate-limited / on-off source; None for bulk and fixed-size transfers.
    pub app: Option<crate::app::AppSource>,
}

impl Flow {
    pub fn new(
        id: u32,
        src: NodeId,
        dst: NodeId,
        start: Time,
        bytes: Option<u64>,
        sender: TcpSender,
        receiver: TcpReceiver,
    ) -> Self {
        Flow {
            id,
            src,
            dst,
            start,
            bytes,
            sender,
            receiver,
            sender_timer: None,
            receiver_timer: None,
            ip_id_slot: [0, 0],
            metrics: FlowMetrics::default(),
            app: None,
        }
    }

    /// Gives the flow an application source (its sender must start with nothing written).
    pub fn with_app(mut self, app: crate::app::AppSource) -> Self {
        self.app = Some(app);
        self
    }
}

pub struct World {
    pub(crate) queue: EventQueue<Event>,
    pub(crate) packets: PacketArena,
    pub nodes: Vec<String>,
    pub links: Vec<Link>,
    /// Routing: static tables, mesh routing protocols, per-node counters.
    pub routing: Routing,
    /// UDP constant-bit-rate sources (mesh background load).
    pub udp: Vec<crate::mesh::udp::UdpSource>,
    /// End the run as soon as every finite transfer has finished.
    pub stop_when_flows_finish: bool,
    finished_flows: usize,
    /// Routing-protocol convergence time (mesh scenarios with OLSR).
    pub convergence: Option<Time>,
    /// Deadline scheduled for each mesh router's protocol timer (stale events are ignored).
    routing_timers: Vec<Option<Time>>,
    /// Control messages a protocol emitted (reused buffer).
    control_out: Vec<crate::mesh::ControlOut>,
    /// Routing-protocol overhead: control packets sent and their IP bytes.
    pub control_packets: u64,
    pub control_bytes: u64,
    pub flows: Vec<Flow>,
    changes: Vec<LinkChange>,
    pub end: Time,
    sample_interval: Time,
    pub series: Series,
    /// Packets dropped because no route led to their destination.
    pub unroutable: u64,
    /// Radio access, trace-driven links and vertical handover, if the scenario has any.
    pub radio: Option<Box<RadioGlue>>,
    /// Per-segment log of one flow (debugging; see [`crate::seg_trace`]).
    pub seg_trace: Option<crate::seg_trace::SegmentTrace>,
    /// Next IPv4 identification per (source, destination) pair of hosts: flows between the
    /// same two hosts share one counter, as in ns-3 (`Ipv4L3Protocol::m_identification`).
    ip_ids: Vec<u16>,
    /// IP reassembly at every destination (packets fragmented at a link's MTU).
    pub reassembly: Reassembly,
    /// Fragments of the packet being fragmented (reused).
    fragments: Vec<Packet>,
}

/// Gives every flow direction its IPv4 identification counter, one per (source, destination)
/// pair of hosts, and returns the counters (all starting at 0, as ns-3's).
fn assign_ip_id_counters(flows: &mut [Flow]) -> Vec<u16> {
    let mut pairs: Vec<(NodeId, NodeId)> = Vec::new();
    let mut slot = |pair: (NodeId, NodeId)| -> u32 {
        let i = pairs.iter().position(|&p| p == pair).unwrap_or_else(|| {
            pairs.push(pair);
            pairs.len() - 1
        });
        i as u32
    };
    for f in flows.iter_mut() {
        f.ip_id_slot = [slot((f.src, f.dst)), slot((f.dst, f.src))];
    }
    vec![0; pairs.len()]
}

impl World {
    pub fn new(
        nodes: Vec<String>,
        links: Vec<Link>,
        routes: RoutingTable,
        mut flows: Vec<Flow>,
        mut changes: Vec<LinkChange>,
        end: Time,
        sample_interval: Time,
    ) -> Self {
        changes.sort_by_key(|c| c.at);
        let mut queue = EventQueue::with_capacity(4096);
        queue.schedule(Time::ZERO, Event::Sample);
        for (i, c) in changes.iter().enumerate() {
            queue.schedule(c.at, Event::LinkChange(i as u32));
        }
        for f in &flows {
            queue.schedule(f.start, Event::FlowStart(f.id));
        }
        let ip_ids = assign_ip_id_counters(&mut flows);
        let n_nodes = nodes.len();
        World {
            queue,
            packets: PacketArena::new(),
            nodes,
            links,
            routing: Routing::new(routes, n_nodes),
            udp: Vec::new(),
            stop_when_flows_finish: false,
            finished_flows: 0,
            convergence: None,
            routing_timers: Vec::new(),
            control_out: Vec::new(),
            control_packets: 0,
            control_bytes: 0,
            flows,
            changes,
            end,
            sample_interval,
            series: Series::default(),
            unroutable: 0,
            radio: None,
            seg_trace: None,
            ip_ids,
            reassembly: Reassembly::new(),
            fragments: Vec::new(),
        }
    }

    /// Adds the radio side (before the run starts) and schedules its first events.
    pub fn attach_radio(&mut self, mut glue: RadioGlue) {
        glue.start(&mut self.queue);
        self.radio = Some(Box::new(glue));
    }

    pub fn now(&self) -> Time {
        self.queue.now()
    }

    pub fn events_processed(&self) -> u64 {
        self.queue.processed()
    }

    pub fn is_finished(&self) -> bool {
        self.queue.now() >= self.end
    }

    /// Runs every event up to `until` (capped at the end of the run).
    pub fn run_until(&mut self, until: Time) {
        let until = until.min(self.end);
        while let Some((now, event)) = self.queue.pop_until(until) {
            self.dispatch(now, event);
            if self.end_if_transfers_done(now) {
                return;
            }
        }
        self.queue.advance_to(until);
    }

    /// With `stop_when_flows_finish`, ends the run at `now` once every transfer is done.
    /// Both run loops call it after each event, so the CLI's sliced run (with its wall-clock
    /// deadline) stops at the same instant as a plain `run_until`.
    fn end_if_transfers_done(&mut self, now: Time) -> bool {
        let done = self.stop_when_flows_finish && self.finished_flows == self.flows.len();
        if done {
            self.end = now;
        }
        done
    }

    /// Like [`World::run_until`], but returns early (at an event boundary) once the wall
    /// clock passes `deadline`, so a caller can react to Ctrl-C however far `until` is.
    /// Returns whether `until` was reached. Stopping early changes no result.
    pub fn run_until_deadline(&mut self, until: Time, deadline: std::time::Instant) -> bool {
        let until = until.min(self.end);
        let mut n = 0u32;
        while let Some((now, event)) = self.queue.pop_until(until) {
            self.dispatch(now, event);
            if self.end_if_transfers_done(now) {
                return true;
            }
            n = n.wrapping_add(1);
            // A clock read every 1024 events: ~1 µs per ~100 µs of work.
            if n.is_multiple_of(1024) && std::time::Instant::now() >= deadline {
                return false;
            }
        }
        self.queue.advance_to(until);
        true
    }

    fn dispatch(&mut self, now: Time, event: Event) {
        match event {
            Event::FlowStart(f) => {
                let flow = &mut self.flows[f as usize];
                flow.sender.start(now);
                if let Some(app) = flow.app.as_mut() {
                    app.start(now);
                    self.queue.schedule(now, Event::AppWrite(f));
                }
                self.pump_sender(now, f);
            }
            Event::AppWrite(f) => {
                let flow = &mut self.flows[f as usize];
                if let Some(app) = flow.app.as_mut() {
                    let (bytes, next) = app.write(now);
                    flow.sender.write(bytes);
                    if let Some(t) = next {
                        self.queue.schedule(t, Event::AppWrite(f));
                    }
                    self.pump_sender(now, f);
                }
            }
            Event::TxDone(l) => self.tx_done(now, l),
            Event::Arrive(l) => {
                let link = &mut self.links[l.0 as usize];
                let p = link.in_flight.pop(&mut self.queue, Event::Arrive(l));
                let (node, from) = (link.to, link.from);
                if self.packets.get(p).kind == Payload::Control {
                    self.on_control(now, l, p);
                } else {
                    self.forward(now, node, p, Some(from));
                }
            }
            Event::SenderTimer(f) => {
                let flow = &mut self.flows[f as usize];
                if flow.sender_timer == Some(now) {
                    flow.sender_timer = None;
                    flow.sender.on_timer(now);
                    self.pump_sender(now, f);
                }
            }
            Event::ReceiverTimer(f) => {
                let flow = &mut self.flows[f as usize];
                if flow.receiver_timer == Some(now) {
                    flow.receiver_timer = None;
                    flow.receiver.on_timer(now);
                    self.pump_receiver(now, f);
                }
            }
            Event::LinkChange(i) => {
                let c = self.changes[i as usize];
                let link = &mut self.links[c.link.0 as usize];
                if let Some(r) = c.rate_bps {
                    link.rate_bps = r;
                }
                if let Some(d) = c.delay {
                    link.delay = d;
                }
            }
            Event::Radio(k) => {
                if let Some(g) = self.radio.as_deref_mut() {
                    g.on_event(now, k, &mut self.packets, &mut self.queue);
                }
            }
            Event::ArriveAt(node, p) => self.forward(now, node, p, None),
            Event::RoutingTimer(r) => self.on_routing_timer(now, r),
            Event::UdpSend(u) => self.udp_send(now, u),
            Event::ConvergenceCheck => self.check_convergence(now),
            Event::VerticalHandover(i) => {
                if let Some(g) = self.radio.as_deref_mut() {
                    g.on_vertical_handover(now, i, &mut self.links, &mut self.packets);
                }
            }
            Event::Sample => {
                self.series.record(now, &self.flows, &self.links);
                if let Some(g) = self.radio.as_deref_mut() {
                    g.record(now);
                }
                let next = now + self.sample_interval;
                if next <= self.end {
                    self.queue.schedule(next, Event::Sample);
                }
            }
        }
    }

    /// Sends every segment the sender may send now, then re-arms its timer.
    fn pump_sender(&mut self, now: Time, f: u32) {
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

    fn pump_receiver(&mut self, now: Time, f: u32) {
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

    fn inject(
        &mut self,
        now: Time,
        src: NodeId,
        dst: NodeId,
        flow: u32,
        to_receiver: bool,
        seg: TcpSegment,
    ) {
        if to_receiver {
            if let Some(t) = self.seg_trace.as_mut() {
                t.sent(now, flow, &seg);
            }
        }
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

    /// A packet is at `node` (arrived from `from`, or originated there): deliver it there or
    /// hand it to the next link.
    fn forward(&mut self, now: Time, node: NodeId, id: PacketId, from: Option<NodeId>) {
        let p = self.packets.get(id);
        if node == p.dst {
            self.deliver(now, id);
            return;
        }
        if node != p.src {
            // IPv4 forwarding: TTL − 1, and a packet whose TTL reaches 0 is dropped (RFC 791).
            let ttl = p.ttl.saturating_sub(1);
            if ttl == 0 {
                self.drop_packet(node, id, DropCause::Ttl);
                return;
            }
            self.packets.get_mut(id).ttl = ttl;
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
        if node != self.packets.get(id).src {
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
                let whole = self.packets.remove(id);
                let mut pieces = std::mem::take(&mut self.fragments);
                fragment(&whole, mtu, |f| pieces.push(f));
                for f in pieces.drain(..) {
                    let id = self.packets.insert(f);
                    self.send_on(now, l, id);
                }
                self.fragments = pieces;
            }
            _ => self.send_on(now, l, id),
        }
    }

    /// Sends `id` on link `l`: at once if the link is idle, else through its queue.
    fn send_on(&mut self, now: Time, l: LinkId, id: PacketId) {
        let link = &mut self.links[l.0 as usize];
        link.touch(now);
        if now >= link.busy_until && link.queue.is_empty() {
            self.start_tx(now, l, id);
            return;
        }
        let bytes = self.packets.get(id).ip_bytes;
        if !link.queue.enqueue_at(now, id, bytes) {
            let from = link.from;
            if let Some(t) = self.seg_trace.as_mut() {
                t.dropped(now, self.packets.get(id));
            }
            self.drop_packet(from, id, DropCause::Queue);
        } else if !link.tx_done_pending {
            link.tx_done_pending = true;
            self.queue.schedule(link.busy_until, Event::TxDone(l));
        }
    }

    /// The link serialises `id` from now and hands it to its delay line.
    fn start_tx(&mut self, now: Time, l: LinkId, id: PacketId) {
        let link = &mut self.links[l.0 as usize];
        let bytes = self.packets.get(id).ip_bytes;
        let done = now + link.tx_time(bytes);
        link.busy_until = done;
        link.tx_packets += 1;
        link.tx_bytes += bytes as u64;
        let arrive = done + link.delay;
        let to = link.to;
        if let Err(id) = link
            .in_flight
            .push(&mut self.queue, arrive, id, Event::Arrive(l))
        {
            // The delay shrank while earlier packets were in flight: this one overtakes them.
            self.queue.schedule(arrive, Event::ArriveAt(to, id));
        }
    }

    /// The packet on the wire is out: start the next one from the queue.
    fn tx_done(&mut self, now: Time, l: LinkId) {
        let link = &mut self.links[l.0 as usize];
        link.tx_done_pending = false;
        link.touch(now);
        let Some(next) = link.queue.dequeue_at(now) else {
            return;
        };
        self.start_tx(now, l, next);
        let link = &mut self.links[l.0 as usize];
        if !link.queue.is_empty() {
            link.tx_done_pending = true;
            self.queue.schedule(link.busy_until, Event::TxDone(l));
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
        let packet = if self.packets.get(id).ip.is_fragment() {
            match self.reassembly.add(now, id, &mut self.packets) {
                Some(p) => p,
                None => return,
            }
        } else {
            self.packets.remove(id)
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
            self.pump_receiver(now, f);
        } else {
            if let Some(t) = self.seg_trace.as_mut() {
                t.acked(now, f, &packet.tcp);
            }
            flow.sender.on_segment(now, &packet.tcp);
            if let Some(t) = self.seg_trace.as_mut() {
                if let Some(rs) = flow.sender.rate_sample_of_last_ack() {
                    t.rate_sample(now, f, rs);
                }
            }
            if let Some(sample) = flow.sender.take_rtt_sample() {
                flow.metrics.record_rtt(sample);
            }
            self.pump_sender(now, f);
        }
    }
}

/// Routing protocols in the world: control packets, routing timers, backpressure holding, UDP
/// sources. Nothing here runs in scenarios without a `[mesh]`.
impl World {
    /// Hands the mesh routing layer to the world and schedules its first timers.
    pub fn attach_mesh(
        &mut self,
        mesh: crate::mesh::MeshRouting,
        udp: Vec<crate::mesh::udp::UdpSource>,
    ) {
        let routers = mesh.routers.len() as u32;
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

    fn on_routing_timer(&mut self, now: Time, r: u32) {
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
    fn on_control(&mut self, now: Time, l: LinkId, id: PacketId) {
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

    fn free_control(&mut self, slot: u32) {
        if let Some(m) = self.routing.mesh.as_deref_mut() {
            m.free_control(slot);
        }
    }

    /// Puts the protocol's control messages on their links as packets.
    fn send_control(&mut self, now: Time, out: &mut Vec<crate::mesh::ControlOut>) {
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

    fn holds_packets(&self, node: NodeId) -> bool {
        let Some(m) = self.routing.mesh.as_deref() else {
            return false;
        };
        match (m.router_of[node.0 as usize], m.bp()) {
            (Some(r), Some(bp)) => bp.held(r) > 0,
            _ => false,
        }
    }

    fn hold_or_drop(&mut self, node: NodeId, id: PacketId, from: Option<NodeId>) {
        let kept = self.routing.mesh.as_deref_mut().is_some_and(|m| {
            let r = m.router_of[node.0 as usize].expect("only routers hold");
            m.bp_mut().is_some_and(|bp| bp.hold(r, id, from))
        });
        if !kept {
            self.drop_packet(node, id, DropCause::Queue);
        }
    }

    /// Sends what backpressure router `node` holds, oldest first, while a neighbour takes it.
    fn bp_retry(&mut self, now: Time, node: NodeId) {
        loop {
            let Some(m) = self.routing.mesh.as_deref_mut() else {
                return;
            };
            let Some(r) = m.router_of[node.0 as usize] else {
                return;
            };
            let Some((id, from)) = m.bp_mut().and_then(|bp| bp.front(r)) else {
                return;
            };
            let p = self.packets.get(id);
            match self.routing.route(now, node, id, p, from, &self.links) {
                Route::Hold => return,
                route => {
                    if let Some(bp) = self.routing.mesh.as_deref_mut().and_then(|m| m.bp_mut()) {
                        bp.pop_front(r);
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
    fn bp_wake(&mut self, now: Time, node: NodeId) {
        let mut wake = [NodeId(0); 17];
        let n = match self.routing.mesh.as_deref() {
            Some(m) => m.holders_around(node, &mut wake),
            None => 0,
        };
        for &w in &wake[..n] {
            self.bp_retry(now, w);
        }
    }

    fn udp_send(&mut self, now: Time, u: u32) {
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

    fn check_convergence(&mut self, now: Time) {
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

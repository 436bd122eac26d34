//! The running world: the event loop that moves packets between links and TCP endpoints.
//!
//! Events are plain enum values in one [`EventQueue`]; packets live in a [`PacketArena`] and
//! are referred to by index, so the steady state allocates nothing per packet. Endpoint
//! timers are scheduled lazily: an endpoint's earliest deadline is kept in the queue, and a
//! stale timer event (its deadline moved) is recognised by its time and ignored.
//!
//! The world is generic over its [`Parts`]: the routing protocol, the radio side and the
//! probe, so each is called directly (no dynamic dispatch) and absent parts cost one branch.
//!
//! - `mod.rs` (here): the state, the run loops and the dispatch of each event;
//! - `tcp.rs`: the TCP endpoints' side (pumping segments out, delivering them);
//! - `forward.rs`: a packet at a node: routing, fragmentation, the links' transmission;
//! - `protocol.rs`: routing-protocol timers and control packets, backpressure holding, UDP.

mod forward;
mod protocol;
mod tcp;

use crate::event::{Event, LinkChange, MAX_ARRIVE_AT_NODES, MAX_LINKS};
use crate::flow::{assign_ip_id_counters, Flow};
use crate::parts::Parts;
use crate::probe::Probe;
use crate::radio::RadioPort;
use crate::routing::{ControlOut, Routing};
use crate::udp::UdpSource;
use ccsim_core::{EventBits, EventQueue, Time};
use ccsim_net::{Link, PacketArena, Reassembly, RoutingTable};

pub struct World<P: Parts> {
    pub(crate) queue: EventQueue<Event>,
    pub(crate) packets: PacketArena,
    pub nodes: Vec<String>,
    pub links: Vec<Link>,
    /// Routing: static tables, the routing protocol, per-node counters.
    pub routing: Routing<P::Routing>,
    /// UDP constant-bit-rate sources (mesh background load).
    pub udp: Vec<UdpSource>,
    /// End the run as soon as every finite transfer has finished.
    pub stop_when_flows_finish: bool,
    finished_flows: usize,
    /// Routing-protocol convergence time (mesh scenarios with OLSR).
    pub convergence: Option<Time>,
    /// Deadline scheduled for each mesh router's protocol timer (stale events are ignored).
    routing_timers: Vec<Option<Time>>,
    /// Control messages a protocol emitted (reused buffer).
    control_out: Vec<ControlOut>,
    /// Routing-protocol overhead: control packets sent and their IP bytes.
    pub control_packets: u64,
    pub control_bytes: u64,
    pub flows: Vec<Flow>,
    changes: Vec<LinkChange>,
    pub end: Time,
    sample_interval: Time,
    /// What records the run (series, traces); see [`crate::probe`].
    pub probe: P::Probe,
    /// Packets dropped because no route led to their destination.
    pub unroutable: u64,
    /// Radio access, trace-driven links and vertical handover, if the scenario has any.
    pub radio: Option<Box<P::Radio>>,
    /// Next IPv4 identification per (source, destination) pair of hosts: flows between the
    /// same two hosts share one counter, as in ns-3 (`Ipv4L3Protocol::m_identification`).
    ip_ids: Vec<u16>,
    /// IP reassembly at every destination (packets fragmented at a link's MTU).
    pub reassembly: Reassembly,
}

impl<P: Parts> World<P> {
    pub fn new(
        nodes: Vec<String>,
        links: Vec<Link>,
        routes: RoutingTable,
        mut flows: Vec<Flow>,
        mut changes: Vec<LinkChange>,
        end: Time,
        sample_interval: Time,
    ) -> Self {
        // Events carry links and nodes in 24 bits (event.rs).
        assert!(
            links.len() <= MAX_LINKS as usize,
            "{} links: at most {MAX_LINKS} are supported",
            links.len()
        );
        assert!(
            nodes.len() <= MAX_ARRIVE_AT_NODES as usize,
            "{} nodes: at most {MAX_ARRIVE_AT_NODES} are supported",
            nodes.len()
        );
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
            probe: P::Probe::default(),
            unroutable: 0,
            radio: None,
            ip_ids,
            reassembly: Reassembly::new(),
        }
    }

    /// Adds the radio side (before the run starts) and schedules its first events.
    pub fn attach_radio(&mut self, mut radio: P::Radio) {
        radio.start(&mut self.queue);
        self.radio = Some(Box::new(radio));
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
        while let Some((now, bits)) = self.queue.pop_bits_until(until) {
            self.dispatch(now, Event::from_bits(bits));
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
        while let Some((now, bits)) = self.queue.pop_bits_until(until) {
            self.dispatch(now, Event::from_bits(bits));
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

    // Inlined into both run loops, as it was when the world was not generic: one call less
    // per event (callgrind: ~1 % of instructions on case A).
    #[inline(always)]
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
            Event::Arrive(l, p) => self.arrive(now, l, p),
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
            Event::RadioArrive(k) => {
                // A TB's packets reach the UE at one instant: the run is taken in one event,
                // in the order and with the count its own events would have had.
                while let Some(g) = self.radio.as_deref_mut() {
                    let (node, p, more) = g.arrive(now, k, &mut self.queue);
                    self.forward(now, node, p, None);
                    if !more {
                        break;
                    }
                    self.queue.count_inline();
                }
            }
            Event::RoutingTimer(r) => self.on_routing_timer(now, r),
            Event::UdpSend(u) => self.udp_send(now, u),
            Event::ConvergenceCheck => self.check_convergence(now),
            Event::VerticalHandover(i) => {
                if let Some(g) = self.radio.as_deref_mut() {
                    g.on_vertical_handover(now, i, &mut self.links, &mut self.packets);
                }
            }
            Event::Sample => {
                self.probe.on_sample(now, &self.flows, &self.links);
                if let Some(g) = self.radio.as_deref_mut() {
                    let delivered = self.flows.iter().map(|f| f.receiver.delivered_bytes());
                    g.on_sample(now, delivered.sum());
                }
                let next = now + self.sample_interval;
                if next <= self.end {
                    self.queue.schedule(next, Event::Sample);
                }
            }
        }
    }
}

//! One OLSR router: message processing (RFC 3626 §3.4–3.5, §7–§9, §12), message generation,
//! timers and route recomputation, following ns-3.44's `olsr::RoutingProtocol` rule by rule.

use ccsim_core::{RngStream, Time};

use super::message::{
    emf_to_nanos, link_type, neighbor_type, seconds_to_emf, Hello, Hna, LinkMessage, MessageBody,
    Mid, OlsrMessage, OlsrPacket, Tc, MAX_MESSAGES_PER_PACKET,
};
use super::mpr::compute_mprs;
use super::routes::{Route, RoutingTables};
use super::state::{
    AssociationTuple, DuplicateTuple, IfaceAssocTuple, LinkTuple, MprSelectorTuple, Nanos,
    NeighborTuple, OlsrState, TopologyTuple, TwoHopTuple,
};
use super::timers::{Timer, TimerQueue};
use super::{OlsrConfig, OlsrStats, Willingness};

const SECOND: Nanos = 1_000_000_000;
/// ns-3 `OLSR_DUP_HOLD_TIME` (RFC 3626 §18.3 DUP_HOLD_TIME).
const DUP_HOLD: Nanos = 30 * SECOND;
/// ns-3's `DELAY(t)` adds 1 µs to every expiry check, so a tuple is checked just after it expires.
const EXPIRY_SLACK: Nanos = 1_000;

/// An OLSR router (one per node that runs OLSR).
///
/// The world drives it: [`OlsrRouter::on_timer`] at [`OlsrRouter::next_deadline`], and
/// [`OlsrRouter::on_packet`] for each OLSR packet that arrives; both append the packets to
/// send, as `(interface index, packet)`, to `out`. It never reads a clock.
#[derive(Clone, Debug)]
pub struct OlsrRouter {
    main_addr: u32,
    iface_addrs: Vec<u32>,
    local_networks: Vec<(u32, u32)>,
    willingness: u8,
    hello_interval: Nanos,
    tc_interval: Nanos,
    mid_interval: Nanos,
    hna_interval: Nanos,
    /// ns-3 `OLSR_MAXJITTER` = HelloInterval / 4.
    max_jitter: Nanos,
    rng: RngStream,
    state: OlsrState,
    /// Advertised Neighbor Sequence Number (RFC 3626 §9.1).
    ansn: u16,
    packet_seq: u16,
    message_seq: u16,
    /// ns-3's `m_linkTupleTimerFirstTime`: the first link timer that finds a link no longer
    /// symmetric does not signal a neighbour loss.
    link_timer_first_time: bool,
    queued: Vec<OlsrMessage>,
    queue_timer_running: bool,
    timers: TimerQueue,
    tables: RoutingTables,
    stats: OlsrStats,
}

fn nanos(t: Time) -> Nanos {
    t.as_nanos() as Nanos
}

impl OlsrRouter {
    /// A router whose OLSR interfaces have addresses `iface_addrs` (interface `i` has address
    /// `iface_addrs[i]`); its main address is `iface_addrs[0]`, as ns-3 takes the first
    /// interface's. It announces `hna_networks` (network addresses, netmask
    /// `cfg.hna_netmask`) by HNA. Jitter draws come from the ccsim RNG stream
    /// `"olsr/<main address>"` of the run seed `rng_seed`.
    ///
    /// Panics if `iface_addrs` is empty.
    pub fn new(cfg: &OlsrConfig, iface_addrs: &[u32], hna_networks: &[u32], rng_seed: u64) -> Self {
        assert!(
            !iface_addrs.is_empty(),
            "an OLSR router needs at least one interface address"
        );
        Self::with_main_addr(cfg, iface_addrs[0], iface_addrs, hna_networks, rng_seed)
    }

    /// As [`OlsrRouter::new`], but with a main address of the world's choosing, e.g. the
    /// address of a non-OLSR interface that comes first on the node (ns-3 then uses that
    /// address as main address and advertises every OLSR interface in MID messages).
    pub fn with_main_addr(
        cfg: &OlsrConfig,
        main_addr: u32,
        iface_addrs: &[u32],
        hna_networks: &[u32],
        rng_seed: u64,
    ) -> Self {
        assert!(
            !iface_addrs.is_empty(),
            "an OLSR router needs at least one interface address"
        );
        let mut state = OlsrState::default();
        // ns-3 DoInitialize: never-expiring association tuples for the router's own interfaces,
        // so that its own addresses map to its main address.
        for &a in iface_addrs.iter().filter(|&&a| a != main_addr) {
            state.iface_assoc.push(IfaceAssocTuple {
                iface_addr: a,
                main_addr,
                expires: None,
            });
        }
        let mut timers = TimerQueue::default();
        // ns-3 DoInitialize calls the four periodic timers' handlers at start-up, in this order.
        let start = nanos(cfg.start_time);
        for t in [Timer::Hello, Timer::Tc, Timer::Mid, Timer::Hna] {
            timers.schedule(start, t);
        }
        OlsrRouter {
            main_addr,
            iface_addrs: iface_addrs.to_vec(),
            local_networks: hna_networks.iter().map(|&n| (n, cfg.hna_netmask)).collect(),
            willingness: cfg.willingness as u8,
            hello_interval: nanos(cfg.hello_interval),
            tc_interval: nanos(cfg.tc_interval),
            mid_interval: nanos(cfg.mid_interval),
            hna_interval: nanos(cfg.hna_interval),
            max_jitter: nanos(cfg.hello_interval) / 4,
            rng: RngStream::new(rng_seed, &format!("olsr/{main_addr}")),
            state,
            ansn: 0,
            packet_seq: 0,
            message_seq: 0,
            link_timer_first_time: true,
            queued: Vec::new(),
            queue_timer_running: false,
            timers,
            tables: RoutingTables::default(),
            stats: OlsrStats::default(),
        }
    }

    /// The router's main address (RFC 3626 §1.2).
    pub fn main_addr(&self) -> u32 {
        self.main_addr
    }

    /// The router's OLSR interface addresses, by interface index.
    pub fn iface_addrs(&self) -> &[u32] {
        &self.iface_addrs
    }

    /// Earliest time [`OlsrRouter::on_timer`] must be called. It can move earlier after
    /// [`OlsrRouter::on_packet`] (a forwarded message is queued with jitter), so ask again.
    pub fn next_deadline(&self) -> Option<Time> {
        self.timers.next_time().map(|t| Time(t.max(0) as u64))
    }

    /// Fires every timer due at or before `now`, each at its own scheduled time, and appends
    /// the packets to send to `out` as `(interface index, packet)`.
    pub fn on_timer(&mut self, now: Time, out: &mut Vec<(usize, OlsrPacket)>) {
        while let Some((at, timer)) = self.timers.pop_due(nanos(now)) {
            self.fire(at, timer, out);
        }
    }

    /// Processes an OLSR packet received on interface `iface` from the neighbour interface
    /// address `src` (RFC 3626 §3.4), then recomputes the routes (ns-3 does it after every
    /// packet). It never sends directly — forwarded messages are queued with jitter — but
    /// appends to `out` like [`OlsrRouter::on_timer`] for symmetry.
    pub fn on_packet(
        &mut self,
        now: Time,
        iface: usize,
        src: u32,
        pkt: &OlsrPacket,
        out: &mut Vec<(usize, OlsrPacket)>,
    ) {
        let _ = out;
        let now = nanos(now);
        let receiver_iface = self.iface_addrs[iface];
        // ns-3 ignores packets sent by itself.
        if self.iface_addrs.contains(&src) || src == self.main_addr {
            return;
        }
        self.stats.packets_received += 1;
        for msg in &pkt.messages {
            // §3.4 step 2: TTL 0 or our own message: drop silently.
            if msg.ttl == 0 || msg.originator == self.main_addr {
                continue;
            }
            let key = (msg.originator, msg.seq);
            let duplicate = self.state.duplicates.get(&key);
            let mut do_forwarding = true;
            match duplicate {
                None => {
                    self.stats.messages_processed += 1;
                    match &msg.body {
                        MessageBody::Hello(h) => {
                            self.process_hello(now, msg, h, receiver_iface, src)
                        }
                        MessageBody::Tc(tc) => self.process_tc(now, msg, tc, src),
                        MessageBody::Mid(mid) => self.process_mid(now, msg, mid, src),
                        MessageBody::Hna(hna) => self.process_hna(now, msg, hna, src),
                    }
                }
                // §3.4 step 4: already considered for forwarding on this interface.
                Some(d) => {
                    self.stats.duplicates_ignored += 1;
                    do_forwarding = !d.iface_addrs.contains(&receiver_iface);
                }
            }
            if do_forwarding && !msg.is_hello() {
                self.forward_default(now, msg, receiver_iface, src);
            }
        }
        self.recompute_routes(now);
    }

    /// Next hop towards a router address (main or interface): (interface index, next-hop
    /// interface address). Allocation-free binary search in the precomputed table.
    pub fn route_to_addr(&self, dst: u32) -> Option<(usize, u32)> {
        self.tables.host(dst).map(|r| (r.iface, r.next_hop))
    }

    /// Next hop towards an HNA network (its network address, as announced).
    pub fn route_to_network(&self, net: u32) -> Option<(usize, u32)> {
        self.tables.network(net).map(|r| (r.iface, r.next_hop))
    }

    /// All host routes, sorted by destination.
    pub fn host_routes(&self) -> &[Route] {
        self.tables.hosts()
    }

    /// All HNA network routes, sorted by network address.
    pub fn network_routes(&self) -> &[Route] {
        self.tables.networks()
    }

    /// True if this router has a route to every network in `networks` that it does not
    /// announce itself (the convergence test of validation/ns3/mesh/SCENARIO.md).
    pub fn knows_networks(&self, networks: &[u32]) -> bool {
        networks.iter().all(|&n| {
            self.local_networks.iter().any(|&(l, _)| l == n) || self.tables.network(n).is_some()
        })
    }

    /// Control traffic this router has sent and received.
    pub fn stats(&self) -> OlsrStats {
        self.stats
    }

    /// Read access to the information repositories (for tests and diagnostics).
    pub fn state(&self) -> &OlsrState {
        &self.state
    }

    /// Current MPR set (main addresses, sorted).
    pub fn mpr_set(&self) -> &[u32] {
        &self.state.mprs
    }

    // ---- timers ---------------------------------------------------------------------------

    fn fire(&mut self, now: Nanos, timer: Timer, out: &mut Vec<(usize, OlsrPacket)>) {
        match timer {
            Timer::Hello => {
                self.send_hello(now);
                self.timers
                    .schedule(now + self.hello_interval, Timer::Hello);
            }
            Timer::Tc => {
                // ns-3 TcTimerExpire: a TC only while someone selected us as MPR (§9.3 allows
                // empty TCs for a while after the last selector leaves; ns-3 does not send them).
                if !self.state.mpr_selectors.is_empty() {
                    self.send_tc(now);
                }
                self.timers.schedule(now + self.tc_interval, Timer::Tc);
            }
            Timer::Mid => {
                self.send_mid(now);
                self.timers.schedule(now + self.mid_interval, Timer::Mid);
            }
            Timer::Hna => {
                if !self.local_networks.is_empty() {
                    self.send_hna(now);
                }
                self.timers.schedule(now + self.hna_interval, Timer::Hna);
            }
            Timer::SendQueued => {
                self.queue_timer_running = false;
                self.send_queued(out);
            }
            Timer::Duplicate { originator, seq } => {
                if let Some(d) = self.state.duplicates.get(&(originator, seq)) {
                    if d.expires < now {
                        self.state.duplicates.remove(&(originator, seq));
                    } else {
                        let at = expiry_check(d.expires, now);
                        self.timers.schedule(at, timer);
                    }
                }
            }
            Timer::Link {
                neighbor_iface_addr,
            } => self.link_timer(now, neighbor_iface_addr),
            Timer::TwoHop {
                neighbor_main_addr,
                two_hop_addr,
            } => {
                if let Some(i) = self.state.two_hop_index(neighbor_main_addr, two_hop_addr) {
                    let expires = self.state.two_hop[i].expires;
                    if expires < now {
                        self.state.two_hop.remove(i);
                    } else {
                        self.timers.schedule(expiry_check(expires, now), timer);
                    }
                }
            }
            Timer::MprSelector { main_addr } => {
                if let Some(i) = self.state.mpr_selector_index(main_addr) {
                    let expires = self.state.mpr_selectors[i].expires;
                    if expires < now {
                        self.state.mpr_selectors.remove(i);
                        self.increment_ansn();
                    } else {
                        self.timers.schedule(expiry_check(expires, now), timer);
                    }
                }
            }
            Timer::Topology {
                dest_addr,
                last_addr,
            } => {
                if let Some(i) = self.state.topology_index(dest_addr, last_addr) {
                    let expires = self.state.topology[i].expires;
                    if expires < now {
                        self.state.topology.remove(i);
                    } else {
                        self.timers.schedule(expiry_check(expires, now), timer);
                    }
                }
            }
            Timer::IfaceAssoc { iface_addr } => {
                if let Some(i) = self.state.iface_assoc_index(iface_addr) {
                    // Own interfaces never expire (and never get a timer).
                    if let Some(expires) = self.state.iface_assoc[i].expires {
                        if expires < now {
                            self.state.iface_assoc.remove(i);
                        } else {
                            self.timers.schedule(expiry_check(expires, now), timer);
                        }
                    }
                }
            }
            Timer::Association {
                gateway_addr,
                network,
                netmask,
            } => {
                if let Some(i) = self.state.association_index(gateway_addr, network, netmask) {
                    let expires = self.state.associations[i].expires;
                    if expires < now {
                        self.state.associations.remove(i);
                    } else {
                        self.timers.schedule(expiry_check(expires, now), timer);
                    }
                }
            }
        }
    }

    /// ns-3 `LinkTupleTimerExpire`: removes an expired link; signals a neighbour loss when
    /// the link stopped being symmetric (except the very first time, an ns-3 quirk).
    fn link_timer(&mut self, now: Nanos, neighbor_iface_addr: u32) {
        let Some(i) = self.state.link_index(neighbor_iface_addr) else {
            return;
        };
        let link = self.state.links[i].clone();
        if link.time < now {
            // ns-3 RemoveLinkTuple: the neighbour tuple goes with it (no ANSN change, no
            // route recomputation until the next packet arrives).
            let nb_main = self.state.main_addr_of(link.neighbor_iface_addr);
            if let Some(n) = self.state.neighbor_index(nb_main) {
                self.state.neighbors.remove(n);
            }
            self.state.links.retain(|l| {
                !(l.local_iface_addr == link.local_iface_addr
                    && l.neighbor_iface_addr == link.neighbor_iface_addr)
            });
        } else if link.sym_time < now {
            if self.link_timer_first_time {
                self.link_timer_first_time = false;
            } else {
                self.neighbor_loss(now, &link);
            }
            let at = expiry_check(link.time, now);
            self.timers.schedule(
                at,
                Timer::Link {
                    neighbor_iface_addr,
                },
            );
        } else {
            let at = expiry_check(link.time.min(link.sym_time), now);
            self.timers.schedule(
                at,
                Timer::Link {
                    neighbor_iface_addr,
                },
            );
        }
    }

    /// ns-3 `NeighborLoss` (RFC 3626 §8.5).
    fn neighbor_loss(&mut self, now: Nanos, link: &LinkTuple) {
        self.link_tuple_updated(now, link, Willingness::Default as u8);
        let nb_main = self.state.main_addr_of(link.neighbor_iface_addr);
        self.state
            .two_hop
            .retain(|t| t.neighbor_main_addr != nb_main);
        self.state.mpr_selectors.retain(|t| t.main_addr != nb_main);
        self.compute_mprs();
        self.recompute_routes(now);
    }

    // ---- message generation ---------------------------------------------------------------

    fn next_message_seq(&mut self) -> u16 {
        self.message_seq = self.message_seq.wrapping_add(1);
        self.message_seq
    }

    /// ns-3 `JITTER`: uniform in [0, HelloInterval / 4).
    fn jitter(&mut self) -> Nanos {
        (self.rng.next_f64() * self.max_jitter as f64).round() as Nanos
    }

    /// ns-3 `QueueMessage`: messages wait for the queue timer, which is started (with this
    /// message's jitter) only if it is not already running, so messages generated close
    /// together leave in one packet (RFC 3626 §3.4.1 piggybacking).
    fn queue_message(&mut self, now: Nanos, msg: OlsrMessage, delay: Nanos) {
        self.queued.push(msg);
        if !self.queue_timer_running {
            self.queue_timer_running = true;
            self.timers.schedule(now + delay, Timer::SendQueued);
        }
    }

    /// ns-3 `SendQueuedMessages` + `SendPacket`: up to 64 messages per packet, one packet
    /// sequence number, a copy broadcast on every OLSR interface.
    fn send_queued(&mut self, out: &mut Vec<(usize, OlsrPacket)>) {
        let queued = std::mem::take(&mut self.queued);
        for chunk in queued.chunks(MAX_MESSAGES_PER_PACKET) {
            self.packet_seq = self.packet_seq.wrapping_add(1);
            let pkt = OlsrPacket {
                seq: self.packet_seq,
                messages: chunk.to_vec(),
            };
            for iface in 0..self.iface_addrs.len() {
                self.stats.packets_sent += 1;
                self.stats.messages_sent += pkt.messages.len() as u64;
                self.stats.ip_bytes_sent += pkt.ip_bytes() as u64;
                out.push((iface, pkt.clone()));
            }
        }
        self.queued = queued;
        self.queued.clear();
    }

    fn header(&mut self, hold: Nanos, ttl: u8, body: MessageBody) -> OlsrMessage {
        OlsrMessage {
            vtime: seconds_to_emf(hold as f64 / SECOND as f64),
            originator: self.main_addr,
            ttl,
            hop_count: 0,
            seq: self.next_message_seq(),
            body,
        }
    }

    /// HELLO generation (RFC 3626 §6.2, ns-3 `SendHello`): one link message per live link
    /// tuple, with the neighbour's other interfaces known by MID appended.
    fn send_hello(&mut self, now: Nanos) {
        let mut links = Vec::new();
        for l in self.state.links.iter().filter(|l| l.time >= now) {
            let lt = if l.sym_time >= now {
                link_type::SYM
            } else if l.asym_time >= now {
                link_type::ASYM
            } else {
                link_type::LOST
            };
            let nb_main = self.state.main_addr_of(l.neighbor_iface_addr);
            let nt = if self.state.is_mpr(nb_main) {
                neighbor_type::MPR_NEIGH
            } else {
                match self.state.neighbors.iter().find(|n| n.main_addr == nb_main) {
                    Some(n) if n.symmetric => neighbor_type::SYM_NEIGH,
                    Some(_) => neighbor_type::NOT_NEIGH,
                    None => continue,
                }
            };
            let mut addrs = vec![l.neighbor_iface_addr];
            // ns-3 `FindNeighborInterfaces(neighborIfaceAddr)`: interfaces whose main address
            // is this link's neighbour interface address.
            addrs.extend(
                self.state
                    .iface_assoc
                    .iter()
                    .filter(|t| t.main_addr == l.neighbor_iface_addr)
                    .map(|t| t.iface_addr),
            );
            links.push(LinkMessage {
                link_code: (lt & 0x03) | ((nt << 2) & 0x0f),
                neighbor_iface_addrs: addrs,
            });
        }
        let hello = Hello {
            htime: seconds_to_emf(self.hello_interval as f64 / SECOND as f64),
            willingness: self.willingness,
            links,
        };
        let msg = self.header(3 * self.hello_interval, 1, MessageBody::Hello(hello));
        let j = self.jitter();
        self.queue_message(now, msg, j);
    }

    /// TC generation (RFC 3626 §9.2): the MPR selectors, with the current ANSN.
    fn send_tc(&mut self, now: Nanos) {
        let tc = Tc {
            ansn: self.ansn,
            advertised: self
                .state
                .mpr_selectors
                .iter()
                .map(|t| t.main_addr)
                .collect(),
        };
        let msg = self.header(3 * self.tc_interval, 255, MessageBody::Tc(tc));
        let j = self.jitter();
        self.queue_message(now, msg, j);
    }

    /// MID generation (RFC 3626 §5.2): only by routers with OLSR interfaces other than the
    /// main address; no sequence number is spent otherwise (as ns-3).
    fn send_mid(&mut self, now: Nanos) {
        let ifaces: Vec<u32> = self
            .iface_addrs
            .iter()
            .copied()
            .filter(|&a| a != self.main_addr)
            .collect();
        if ifaces.is_empty() {
            return;
        }
        let msg = self.header(
            3 * self.mid_interval,
            255,
            MessageBody::Mid(Mid {
                iface_addrs: ifaces,
            }),
        );
        let j = self.jitter();
        self.queue_message(now, msg, j);
    }

    /// HNA generation (RFC 3626 §12.2).
    fn send_hna(&mut self, now: Nanos) {
        let hna = Hna {
            networks: self.local_networks.clone(),
        };
        let msg = self.header(3 * self.hna_interval, 255, MessageBody::Hna(hna));
        let j = self.jitter();
        self.queue_message(now, msg, j);
    }

    // ---- message processing ---------------------------------------------------------------

    /// Default forwarding algorithm (RFC 3626 §3.4.1, ns-3 `ForwardDefault`): retransmit
    /// (after jitter) if the sender is an MPR selector and TTL > 1; record the duplicate.
    fn forward_default(&mut self, now: Nanos, msg: &OlsrMessage, local_iface: u32, sender: u32) {
        if self.state.sym_link(sender, now).is_none() {
            return;
        }
        let key = (msg.originator, msg.seq);
        if self
            .state
            .duplicates
            .get(&key)
            .is_some_and(|d| d.retransmitted)
        {
            return;
        }
        let mut retransmitted = false;
        if msg.ttl > 1
            && self
                .state
                .mpr_selector_index(self.state.main_addr_of(sender))
                .is_some()
        {
            let mut fwd = msg.clone();
            fwd.ttl -= 1;
            fwd.hop_count = fwd.hop_count.saturating_add(1);
            let j = self.jitter();
            self.queue_message(now, fwd, j);
            retransmitted = true;
            self.stats.messages_forwarded += 1;
        }
        match self.state.duplicates.get_mut(&key) {
            Some(d) => {
                d.expires = now + DUP_HOLD;
                d.retransmitted = retransmitted;
                d.iface_addrs.push(local_iface);
            }
            None => {
                self.state.duplicates.insert(
                    key,
                    DuplicateTuple {
                        expires: now + DUP_HOLD,
                        retransmitted,
                        iface_addrs: vec![local_iface],
                    },
                );
                // ns-3 schedules this one with a plain delay, not DELAY().
                self.timers.schedule(
                    now + DUP_HOLD,
                    Timer::Duplicate {
                        originator: msg.originator,
                        seq: msg.seq,
                    },
                );
            }
        }
    }

    /// HELLO processing (RFC 3626 §7.1 link sensing, §8.1 neighbours, §8.2 2-hop
    /// neighbours, §8.3 MPRs, §8.4 MPR selectors).
    fn process_hello(
        &mut self,
        now: Nanos,
        msg: &OlsrMessage,
        hello: &Hello,
        receiver_iface: u32,
        sender: u32,
    ) {
        self.link_sensing(now, msg, hello, receiver_iface, sender);
        // §8.1: refresh the neighbour's willingness.
        if let Some(i) = self.state.neighbor_index(msg.originator) {
            self.state.neighbors[i].willingness = hello.willingness;
        }
        self.populate_two_hop(now, msg, hello);
        self.compute_mprs();
        self.populate_mpr_selectors(now, msg, hello);
    }

    /// Link sensing (RFC 3626 §7.1.1, ns-3 `LinkSensing`).
    fn link_sensing(
        &mut self,
        now: Nanos,
        msg: &OlsrMessage,
        hello: &Hello,
        receiver_iface: u32,
        sender: u32,
    ) {
        let vtime = emf_to_nanos(msg.vtime);
        let neighb_hold = 3 * self.hello_interval;
        let (i, created) = match self.state.link_index(sender) {
            Some(i) => (i, false),
            None => {
                self.state.links.push(LinkTuple {
                    local_iface_addr: receiver_iface,
                    neighbor_iface_addr: sender,
                    sym_time: now - SECOND,
                    asym_time: 0,
                    time: now + vtime,
                });
                (self.state.links.len() - 1, true)
            }
        };
        let mut updated = !created;
        let link = &mut self.state.links[i];
        link.asym_time = now + vtime;
        for lm in &hello.links {
            let (lt, nt) = (lm.link_type(), lm.neighbor_type());
            // Invalid link codes are ignored.
            let valid_nt = matches!(
                nt,
                neighbor_type::SYM_NEIGH | neighbor_type::MPR_NEIGH | neighbor_type::NOT_NEIGH
            );
            if (lt == link_type::SYM && nt == neighbor_type::NOT_NEIGH) || !valid_nt {
                continue;
            }
            if lm.neighbor_iface_addrs.contains(&receiver_iface) {
                match lt {
                    link_type::LOST => {
                        link.sym_time = now - SECOND;
                        updated = true;
                    }
                    link_type::SYM | link_type::ASYM => {
                        link.sym_time = now + vtime;
                        link.time = link.sym_time + neighb_hold;
                        updated = true;
                    }
                    _ => {} // UNSPEC_LINK: ns-3 aborts; we ignore it.
                }
            }
        }
        link.time = link.time.max(link.asym_time);
        let link = link.clone();
        if updated {
            self.link_tuple_updated(now, &link, hello.willingness);
        }
        if created {
            self.link_tuple_added(now, &link, hello.willingness);
            let at = expiry_check(link.time.min(link.sym_time), now);
            self.timers.schedule(
                at,
                Timer::Link {
                    neighbor_iface_addr: link.neighbor_iface_addr,
                },
            );
        }
    }

    /// ns-3 `LinkTupleAdded`: the neighbour tuple of a new link.
    fn link_tuple_added(&mut self, now: Nanos, link: &LinkTuple, willingness: u8) {
        let nb = NeighborTuple {
            main_addr: self.state.main_addr_of(link.neighbor_iface_addr),
            symmetric: link.sym_time >= now,
            willingness,
        };
        self.state.insert_neighbor(nb);
        self.increment_ansn();
    }

    /// ns-3 `LinkTupleUpdated`: the neighbour is symmetric iff one of its links is (§8.1).
    fn link_tuple_updated(&mut self, now: Nanos, link: &LinkTuple, willingness: u8) {
        let nb_main = self.state.main_addr_of(link.neighbor_iface_addr);
        if self.state.neighbor_index(nb_main).is_none() {
            self.link_tuple_added(now, link, willingness);
        }
        let Some(i) = self.state.neighbor_index(nb_main) else {
            return;
        };
        let state = &self.state;
        let symmetric = state
            .links
            .iter()
            .any(|l| state.main_addr_of(l.neighbor_iface_addr) == nb_main && l.sym_time >= now);
        self.state.neighbors[i].symmetric = symmetric;
    }

    /// 2-hop neighbour set population (RFC 3626 §8.2.1, ns-3 `PopulateTwoHopNeighborSet`).
    fn populate_two_hop(&mut self, now: Nanos, msg: &OlsrMessage, hello: &Hello) {
        let vtime = emf_to_nanos(msg.vtime);
        let sym_links_to_originator = self
            .state
            .links
            .iter()
            .filter(|l| {
                self.state.main_addr_of(l.neighbor_iface_addr) == msg.originator
                    && l.sym_time >= now
            })
            .count();
        for _ in 0..sym_links_to_originator {
            for lm in &hello.links {
                let nt = lm.neighbor_type();
                for &addr in &lm.neighbor_iface_addrs {
                    let two_hop = self.state.main_addr_of(addr);
                    if nt == neighbor_type::SYM_NEIGH || nt == neighbor_type::MPR_NEIGH {
                        if two_hop == self.main_addr {
                            continue;
                        }
                        match self.state.two_hop_index(msg.originator, two_hop) {
                            Some(i) => self.state.two_hop[i].expires = now + vtime,
                            None => {
                                let t = TwoHopTuple {
                                    neighbor_main_addr: msg.originator,
                                    two_hop_addr: two_hop,
                                    expires: now + vtime,
                                };
                                let at = expiry_check(t.expires, now);
                                self.state.two_hop.push(t);
                                self.timers.schedule(
                                    at,
                                    Timer::TwoHop {
                                        neighbor_main_addr: msg.originator,
                                        two_hop_addr: two_hop,
                                    },
                                );
                            }
                        }
                    } else if nt == neighbor_type::NOT_NEIGH {
                        self.state.two_hop.retain(|t| {
                            !(t.neighbor_main_addr == msg.originator && t.two_hop_addr == two_hop)
                        });
                    }
                }
            }
        }
    }

    fn compute_mprs(&mut self) {
        self.state.mprs = compute_mprs(self.main_addr, &self.state.neighbors, &self.state.two_hop);
    }

    /// MPR selector set population (RFC 3626 §8.4.1).
    fn populate_mpr_selectors(&mut self, now: Nanos, msg: &OlsrMessage, hello: &Hello) {
        let vtime = emf_to_nanos(msg.vtime);
        for lm in &hello.links {
            if lm.link_code >> 2 != neighbor_type::MPR_NEIGH {
                continue;
            }
            for &addr in &lm.neighbor_iface_addrs {
                if self.state.main_addr_of(addr) != self.main_addr {
                    continue;
                }
                match self.state.mpr_selector_index(msg.originator) {
                    Some(i) => self.state.mpr_selectors[i].expires = now + vtime,
                    None => {
                        let expires = now + vtime;
                        self.state.mpr_selectors.push(MprSelectorTuple {
                            main_addr: msg.originator,
                            expires,
                        });
                        self.increment_ansn();
                        self.timers.schedule(
                            expiry_check(expires, now),
                            Timer::MprSelector {
                                main_addr: msg.originator,
                            },
                        );
                    }
                }
            }
        }
    }

    /// TC processing (RFC 3626 §9.5).
    fn process_tc(&mut self, now: Nanos, msg: &OlsrMessage, tc: &Tc, sender: u32) {
        if self.state.sym_link(sender, now).is_none() {
            return;
        }
        let orig = msg.originator;
        // Step 2: a newer ANSN from this originator is known: ignore.
        if self
            .state
            .topology
            .iter()
            .any(|t| t.last_addr == orig && t.seq > tc.ansn)
        {
            return;
        }
        // Step 3: forget the older ones.
        self.state
            .topology
            .retain(|t| !(t.last_addr == orig && t.seq < tc.ansn));
        let expires = now + emf_to_nanos(msg.vtime);
        for &dest in &tc.advertised {
            match self.state.topology_index(dest, orig) {
                Some(i) => self.state.topology[i].expires = expires,
                None => {
                    self.state.topology.push(TopologyTuple {
                        dest_addr: dest,
                        last_addr: orig,
                        seq: tc.ansn,
                        expires,
                    });
                    self.timers.schedule(
                        expiry_check(expires, now),
                        Timer::Topology {
                            dest_addr: dest,
                            last_addr: orig,
                        },
                    );
                }
            }
        }
    }

    /// MID processing (RFC 3626 §5.4), plus ns-3's re-mapping of neighbour and 2-hop
    /// addresses to main addresses.
    fn process_mid(&mut self, now: Nanos, msg: &OlsrMessage, mid: &Mid, sender: u32) {
        if self.state.sym_link(sender, now).is_none() {
            return;
        }
        let expires = now + emf_to_nanos(msg.vtime);
        for &iface in &mid.iface_addrs {
            let mut updated = false;
            for t in self.state.iface_assoc.iter_mut() {
                if t.iface_addr == iface && t.main_addr == msg.originator {
                    t.expires = Some(expires);
                    updated = true;
                }
            }
            if !updated {
                self.state.iface_assoc.push(IfaceAssocTuple {
                    iface_addr: iface,
                    main_addr: msg.originator,
                    expires: Some(expires),
                });
                self.timers.schedule(
                    expiry_check(expires, now),
                    Timer::IfaceAssoc { iface_addr: iface },
                );
            }
        }
        for i in 0..self.state.neighbors.len() {
            self.state.neighbors[i].main_addr =
                self.state.main_addr_of(self.state.neighbors[i].main_addr);
        }
        for i in 0..self.state.two_hop.len() {
            let t = &self.state.two_hop[i];
            let (nb, th) = (
                self.state.main_addr_of(t.neighbor_main_addr),
                self.state.main_addr_of(t.two_hop_addr),
            );
            self.state.two_hop[i].neighbor_main_addr = nb;
            self.state.two_hop[i].two_hop_addr = th;
        }
    }

    /// HNA processing (RFC 3626 §12.5).
    fn process_hna(&mut self, now: Nanos, msg: &OlsrMessage, hna: &Hna, sender: u32) {
        if self.state.sym_link(sender, now).is_none() {
            return;
        }
        let expires = now + emf_to_nanos(msg.vtime);
        for &(network, netmask) in &hna.networks {
            match self
                .state
                .association_index(msg.originator, network, netmask)
            {
                Some(i) => self.state.associations[i].expires = expires,
                None => {
                    self.state.associations.push(AssociationTuple {
                        gateway_addr: msg.originator,
                        network,
                        netmask,
                        expires,
                    });
                    self.timers.schedule(
                        expiry_check(expires, now),
                        Timer::Association {
                            gateway_addr: msg.originator,
                            network,
                            netmask,
                        },
                    );
                }
            }
        }
    }

    fn increment_ansn(&mut self) {
        self.ansn = self.ansn.wrapping_add(1);
    }

    fn recompute_routes(&mut self, now: Nanos) {
        self.tables.recompute(
            &self.state,
            self.main_addr,
            &self.iface_addrs,
            &self.local_networks,
            now,
        );
    }
}

/// ns-3 `DELAY(t)`: check an expiry 1 µs after it (or 1 µs from now if it already passed).
fn expiry_check(expires: Nanos, now: Nanos) -> Nanos {
    expires.max(now) + EXPIRY_SLACK
}

//! One OLSR router, following ns-3.44's `olsr::RoutingProtocol` rule by rule. This module
//! holds the router's state and its public interface; the work is split by job:
//! [`expiry`] (timers and tuple expiry), [`emit`] (message generation, RFC 3626 §3.4.1
//! forwarding), [`link_sensing`] (HELLO processing, §7–§8) and [`topology`] (TC, MID, HNA
//! processing, §5, §9, §12).

use ccsim_core::{RngStream, Time};

use super::message::{MessageBody, OlsrMessage, OlsrPacket};
use super::mpr::compute_mprs;
use super::routes::{Route, RoutingTables};
use super::state::{IfaceAssocTuple, Nanos, OlsrState};
use super::timers::{Timer, TimerQueue};
use super::{OlsrConfig, OlsrStats};

mod emit;
mod expiry;
mod link_sensing;
mod topology;

use expiry::expiry_check;

const SECOND: Nanos = 1_000_000_000;
/// ns-3 `OLSR_DUP_HOLD_TIME` (RFC 3626 §18.3 DUP_HOLD_TIME).
const DUP_HOLD: Nanos = 30 * SECOND;

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

    // ---- shared helpers ------------------------------------------------------------------

    fn compute_mprs(&mut self) {
        self.state.mprs = compute_mprs(self.main_addr, &self.state.neighbors, &self.state.two_hop);
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

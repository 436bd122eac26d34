//! OLSR routers ([`ccsim_routing::olsr`]) in the world: interface addresses, control messages
//! carried as real packets over the mesh links (they queue with data and can be dropped),
//! and a per-router next-hop cache refreshed whenever the router's tables may have changed.

use super::routing::{ControlOut, MeshRouter};
use ccsim_core::Time;
use ccsim_net::LinkId;
use ccsim_routing::olsr::{OlsrConfig, OlsrPacket, OlsrRouter};

/// Cache entry: not looked up since the router's tables last changed.
const UNKNOWN: u32 = u32::MAX;
/// Cache entry: OLSR has no route.
const NO_ROUTE: u32 = u32::MAX - 1;

/// Address plan after validation/ns3/mesh/SCENARIO.md (only the number of addresses reaches
/// the wire): mesh link k is 10.(1 + k/256).(k mod 256).0/24 with ends .1 and .2, the server
/// network 10.0.0.0/24, cell i's network 10.(100 + i).0.0/16.
pub fn mesh_link_addr(k: usize, end: u32) -> u32 {
    (10 << 24) | ((1 + (k as u32 >> 8)) << 16) | ((k as u32 & 0xff) << 8) | end
}
pub const SERVER_NET: u32 = 10 << 24;
pub fn cell_net(i: usize) -> u32 {
    (10 << 24) | ((100 + i as u32) << 16)
}

pub struct OlsrGlue {
    routers: Vec<OlsrRouter>,
    /// Outgoing link of each router interface (= port).
    iface_link: Vec<Vec<LinkId>>,
    /// For each link id: (receiving router, its interface, the sender's interface address).
    arrival: Vec<Option<(u32, u32, u32)>>,
    /// The HNA network each router announces (G: the server's, R_i: cell i's).
    nets: Vec<u32>,
    /// Next link per (router, destination router), filled lazily.
    cache: Vec<u32>,
    /// Control messages in flight, by slot.
    slab: Vec<Option<OlsrPacket>>,
    free: Vec<u32>,
    scratch: Vec<(usize, OlsrPacket)>,
    /// First time router r had a route to router d's network, at `r * n + d` (a router knows
    /// its own from t = 0): the start-up diagnostic of docs/mesh.md.
    known_at: Vec<Option<Time>>,
    /// Per router, how many networks it has not yet known a route to.
    unknown_left: Vec<u32>,
}

impl OlsrGlue {
    pub fn new(cfg: &OlsrConfig, routers: &[MeshRouter], n_links: usize, seed: u64) -> Self {
        let n = routers.len();
        // Number each duplex mesh link once (in the order of the routers' ports) and give
        // its two ends the addresses .1 and .2.
        let mut pair_of: Vec<Option<(usize, u32)>> = vec![None; n_links];
        let mut next_pair = 0usize;
        let mut iface_addrs: Vec<Vec<u32>> = vec![Vec::new(); n];
        for (r, router) in routers.iter().enumerate() {
            for p in &router.ports {
                let addr = match pair_of[p.link.0 as usize] {
                    Some((k, end)) => mesh_link_addr(k, end),
                    None => {
                        let k = next_pair;
                        next_pair += 1;
                        // The reverse direction (peer's port towards r) gets the other end.
                        let rev = routers[p.peer as usize]
                            .ports
                            .iter()
                            .find(|q| q.peer == r as u32)
                            .expect("mesh links are duplex");
                        pair_of[rev.link.0 as usize] = Some((k, 2));
                        mesh_link_addr(k, 1)
                    }
                };
                iface_addrs[r].push(addr);
            }
        }
        let nets: Vec<u32> = (0..n)
            .map(|r| if r == 0 { SERVER_NET } else { cell_net(r - 1) })
            .collect();
        let mut arrival = vec![None; n_links];
        for (r, router) in routers.iter().enumerate() {
            for (i, p) in router.ports.iter().enumerate() {
                let peer = &routers[p.peer as usize];
                let (j, _) = peer
                    .ports
                    .iter()
                    .enumerate()
                    .find(|(_, q)| q.peer == r as u32)
                    .expect("mesh links are duplex");
                // Link r→peer arrives at the peer's interface j, sent from r's address i.
                arrival[p.link.0 as usize] = Some((p.peer, j as u32, iface_addrs[r][i]));
            }
        }
        OlsrGlue {
            routers: (0..n)
                .map(|r| OlsrRouter::new(cfg, &iface_addrs[r], &[nets[r]], seed))
                .collect(),
            iface_link: routers
                .iter()
                .map(|r| r.ports.iter().map(|p| p.link).collect())
                .collect(),
            arrival,
            nets,
            cache: vec![UNKNOWN; n * n],
            slab: Vec::new(),
            free: Vec::new(),
            scratch: Vec::new(),
            known_at: (0..n * n)
                .map(|i| (i / n == i % n).then_some(Time::ZERO))
                .collect(),
            unknown_left: vec![n as u32 - 1; n],
        }
    }

    /// Records the networks router `r` has a route to for the first time at `now`. Routes
    /// only appear when a packet arrives (ns-3 recomputes after every packet), so this runs
    /// after each one; once a router knows every network it costs nothing.
    fn record_known(&mut self, now: Time, r: u32) {
        if self.unknown_left[r as usize] == 0 {
            return;
        }
        let n = self.routers.len();
        for d in 0..n {
            let slot = r as usize * n + d;
            if self.known_at[slot].is_none()
                && self.routers[r as usize]
                    .route_to_network(self.nets[d])
                    .is_some()
            {
                self.known_at[slot] = Some(now);
                self.unknown_left[r as usize] -= 1;
            }
        }
    }

    /// First time each router had a route to each router's network: row r, column d is
    /// router r towards router d's network (`None`: never). Row-major, routers × routers.
    pub fn route_known_at(&self) -> &[Option<Time>] {
        &self.known_at
    }

    /// The next link from router `r` towards router `dst`'s network, if OLSR knows one.
    #[inline]
    pub fn route(&mut self, r: u32, dst: u32) -> Option<LinkId> {
        let n = self.routers.len();
        let slot = r as usize * n + dst as usize;
        let mut v = self.cache[slot];
        if v == UNKNOWN {
            v = match self.routers[r as usize].route_to_network(self.nets[dst as usize]) {
                Some((iface, _)) => self.iface_link[r as usize][iface].0,
                None => NO_ROUTE,
            };
            self.cache[slot] = v;
        }
        (v != NO_ROUTE).then_some(LinkId(v))
    }

    fn invalidate(&mut self, r: u32) {
        let n = self.routers.len();
        self.cache[r as usize * n..(r as usize + 1) * n].fill(UNKNOWN);
    }

    pub fn next_deadline(&self, r: u32) -> Option<Time> {
        self.routers[r as usize].next_deadline()
    }

    pub fn on_timer(&mut self, now: Time, r: u32, out: &mut Vec<ControlOut>) {
        let mut scratch = std::mem::take(&mut self.scratch);
        self.routers[r as usize].on_timer(now, &mut scratch);
        self.invalidate(r); // hold times may have expired
        self.emit(r, &mut scratch, out);
        self.scratch = scratch;
    }

    /// Control message `slot` arrived over link `l`; returns the receiving router.
    pub fn on_control(
        &mut self,
        now: Time,
        l: LinkId,
        slot: u32,
        out: &mut Vec<ControlOut>,
    ) -> Option<u32> {
        let pkt = self.slab[slot as usize].take();
        self.free.push(slot);
        let (r, iface, src) = self.arrival[l.0 as usize]?;
        let pkt = pkt?;
        let mut scratch = std::mem::take(&mut self.scratch);
        self.routers[r as usize].on_packet(now, iface as usize, src, &pkt, &mut scratch);
        self.invalidate(r);
        self.record_known(now, r);
        self.emit(r, &mut scratch, out);
        self.scratch = scratch;
        Some(r)
    }

    fn emit(&mut self, r: u32, packets: &mut Vec<(usize, OlsrPacket)>, out: &mut Vec<ControlOut>) {
        for (iface, pkt) in packets.drain(..) {
            let ip_bytes = pkt.ip_bytes();
            let slot = match self.free.pop() {
                Some(s) => {
                    self.slab[s as usize] = Some(pkt);
                    s
                }
                None => {
                    self.slab.push(Some(pkt));
                    self.slab.len() as u32 - 1
                }
            };
            out.push(ControlOut {
                link: self.iface_link[r as usize][iface],
                slot,
                ip_bytes,
            });
        }
    }

    pub fn free_control(&mut self, slot: u32) {
        self.slab[slot as usize] = None;
        self.free.push(slot);
    }

    /// Every router has a route to every announced network (SCENARIO.md's convergence).
    pub fn converged(&self) -> bool {
        self.routers.iter().all(|r| r.knows_networks(&self.nets))
    }
}

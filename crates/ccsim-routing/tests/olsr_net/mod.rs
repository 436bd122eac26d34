//! A tiny world for OLSR tests: routers joined by full-duplex point-to-point links, each
//! direction a FIFO with a serialisation rate and a propagation delay (as ns-3's
//! `PointToPointNetDevice` + channel, including its 2-byte PPP header). No data traffic.

#![allow(dead_code)]

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use ccsim_core::Time;
use ccsim_routing::olsr::{MessageBody, OlsrConfig, OlsrPacket, OlsrRouter};

/// ns-3's point-to-point device adds a 2-byte PPP header to every IP packet.
const PPP_HEADER_BYTES: u64 = 2;
/// Link MTU of validation/ns3/mesh/SCENARIO.md.
const MTU_BYTES: u32 = 1500;

/// A link between routers `a` and `b`.
#[derive(Clone, Copy, Debug)]
pub struct LinkSpec {
    pub a: usize,
    pub b: usize,
    pub rate_bps: u64,
    pub delay: Time,
}

#[derive(Clone, Debug)]
struct Port {
    peer: usize,
    peer_iface: usize,
    local_addr: u32,
    link: usize,
    rate_bps: u64,
    delay: Time,
    busy_until: Time,
}

/// One packet delivery, for the tests to inspect.
#[derive(Clone, Debug)]
pub struct Delivery {
    pub at: Time,
    pub router: usize,
    pub iface: usize,
    pub src: u32,
    pub pkt: OlsrPacket,
}

pub struct Net {
    pub routers: Vec<OlsrRouter>,
    ports: Vec<Vec<Port>>,
    link_up: Vec<bool>,
    in_flight: BinaryHeap<Reverse<(Time, u64, usize)>>,
    payloads: Vec<Option<(usize, usize, u32, OlsrPacket)>>,
    seq: u64,
    pub now: Time,
    /// Every packet delivered, if `record` is set.
    pub record: bool,
    pub deliveries: Vec<Delivery>,
    /// Every packet sent (router, iface, time, packet), if `record` is set.
    pub sends: Vec<(usize, usize, Time, OlsrPacket)>,
}

/// Interface address of end `end` (0 = a, 1 = b) of link `k`: 10.k/24 style, unique.
pub fn iface_addr(link: usize, end: usize) -> u32 {
    0x0a00_0000 | ((link as u32) << 8) | (end as u32 + 1)
}

impl Net {
    /// Builds the network. Router `r`'s interfaces are its links in `links` order (as ns-3
    /// numbers devices in creation order), so its main address is on its first link.
    pub fn new(
        cfg: &OlsrConfig,
        n: usize,
        links: &[LinkSpec],
        hna: &[Vec<u32>],
        seed: u64,
    ) -> Self {
        Self::with_configs(&vec![cfg.clone(); n], links, hna, seed)
    }

    /// As [`Net::new`] with one configuration per router.
    pub fn with_configs(
        cfgs: &[OlsrConfig],
        links: &[LinkSpec],
        hna: &[Vec<u32>],
        seed: u64,
    ) -> Self {
        let n = cfgs.len();
        let mut ports: Vec<Vec<Port>> = vec![Vec::new(); n];
        for (k, l) in links.iter().enumerate() {
            let ia = ports[l.a].len();
            let ib = ports[l.b].len();
            let port = |peer, peer_iface, end| Port {
                peer,
                peer_iface,
                local_addr: iface_addr(k, end),
                link: k,
                rate_bps: l.rate_bps,
                delay: l.delay,
                busy_until: Time::ZERO,
            };
            ports[l.a].push(port(l.b, ib, 0));
            ports[l.b].push(port(l.a, ia, 1));
        }
        let routers = (0..n)
            .map(|r| {
                let addrs: Vec<u32> = ports[r].iter().map(|p| p.local_addr).collect();
                let nets = hna.get(r).cloned().unwrap_or_default();
                OlsrRouter::new(&cfgs[r], &addrs, &nets, seed)
            })
            .collect();
        Net {
            routers,
            ports,
            link_up: vec![true; links.len()],
            in_flight: BinaryHeap::new(),
            payloads: Vec::new(),
            seq: 0,
            now: Time::ZERO,
            record: false,
            deliveries: Vec::new(),
            sends: Vec::new(),
        }
    }

    /// Takes link `k` down (packets sent on it from now on are lost) or up.
    pub fn set_link_up(&mut self, k: usize, up: bool) {
        self.link_up[k] = up;
    }

    /// Address of router `r`'s interface `i`.
    pub fn addr(&self, r: usize, i: usize) -> u32 {
        self.ports[r][i].local_addr
    }

    /// (interface index, neighbour router) of router `r`'s interfaces.
    pub fn neighbours(&self, r: usize) -> Vec<(usize, usize)> {
        self.ports[r]
            .iter()
            .enumerate()
            .map(|(i, p)| (i, p.peer))
            .collect()
    }

    /// Runs every event up to and including time `until`.
    pub fn run_until(&mut self, until: Time) {
        let mut out = Vec::new();
        loop {
            let timer = self
                .routers
                .iter()
                .enumerate()
                .filter_map(|(i, r)| r.next_deadline().map(|d| (d, i)))
                .min();
            let arrival = self.in_flight.peek().map(|Reverse((t, _, _))| *t);
            match (timer, arrival) {
                (Some((t, r)), a) if t <= until && a.is_none_or(|a| t <= a) => {
                    self.now = t;
                    self.routers[r].on_timer(t, &mut out);
                    self.transmit(r, &mut out);
                }
                (_, Some(a)) if a <= until => {
                    let Reverse((t, _, idx)) = self.in_flight.pop().unwrap();
                    self.now = t;
                    let (r, iface, src, pkt) = self.payloads[idx].take().unwrap();
                    self.routers[r].on_packet(t, iface, src, &pkt, &mut out);
                    if self.record {
                        self.deliveries.push(Delivery {
                            at: t,
                            router: r,
                            iface,
                            src,
                            pkt,
                        });
                    }
                    self.transmit(r, &mut out);
                }
                _ => break,
            }
        }
        self.now = until;
    }

    fn transmit(&mut self, r: usize, out: &mut Vec<(usize, OlsrPacket)>) {
        for (iface, pkt) in out.drain(..) {
            if self.record {
                self.sends.push((r, iface, self.now, pkt.clone()));
            }
            let port = &mut self.ports[r][iface];
            if !self.link_up[port.link] {
                continue;
            }
            let start = port.busy_until.max(self.now);
            let done =
                start + Time::tx_time(pkt.ip_bytes() as u64 + PPP_HEADER_BYTES, port.rate_bps);
            port.busy_until = done;
            let arrive = done + port.delay;
            self.payloads
                .push(Some((port.peer, port.peer_iface, port.local_addr, pkt)));
            self.in_flight
                .push(Reverse((arrive, self.seq, self.payloads.len() - 1)));
            self.seq += 1;
        }
    }

    /// True if every router has a route to every network in `networks`.
    pub fn all_know(&self, networks: &[u32]) -> bool {
        self.routers.iter().all(|r| r.knows_networks(networks))
    }

    /// The first multiple of `step` at which every router knows every network in
    /// `networks` (validation/ns3/mesh/SCENARIO.md's convergence time), or None by `limit`.
    pub fn convergence_time(&mut self, networks: &[u32], step: Time, limit: Time) -> Option<Time> {
        let mut t = Time::ZERO;
        while t <= limit {
            self.run_until(t);
            if self.all_know(networks) {
                return Some(t);
            }
            t += step;
        }
        None
    }
}

/// Is this message a TC?
pub fn is_tc(body: &MessageBody) -> bool {
    matches!(body, MessageBody::Tc(_))
}

/// The seed 004 grid of validation/ns3/mesh/SCENARIO.md, OLSR part: router 0 is G, router
/// 1 + i is R_i. Links in mesh.cc's creation order: G–R0, G–R2, G–R4 (1 Gb/s, 0.5 ms), then
/// R_i–R_i+1 in each row, then R_i–R_i+5 (500 Mb/s, 4 ms). G announces the server's network,
/// R_i cell i's network.
pub struct Grid {
    pub links: Vec<LinkSpec>,
    pub hna: Vec<Vec<u32>>,
    pub networks: Vec<u32>,
}

pub const SERVER_NET: u32 = 0x0a00_0000; // 10.0.0.0
pub fn cell_net(i: usize) -> u32 {
    0x0a00_0000 | ((100 + i as u32) << 16) // 10.(100+i).0.0
}

pub fn seed004_grid() -> Grid {
    let side = 5;
    let n = side * side;
    let gw = |r: usize| LinkSpec {
        a: 0,
        b: 1 + r,
        rate_bps: 1_000_000_000,
        delay: Time::from_micros(500),
    };
    let grid = |a: usize, b: usize| LinkSpec {
        a: 1 + a,
        b: 1 + b,
        rate_bps: 500_000_000,
        delay: Time::from_millis(4),
    };
    let mut links = vec![gw(0), gw(2), gw(4)];
    for i in 0..n {
        if i % side + 1 < side {
            links.push(grid(i, i + 1));
        }
    }
    for i in 0..n - side {
        links.push(grid(i, i + side));
    }
    let mut hna = vec![vec![SERVER_NET]];
    hna.extend((0..n).map(|i| vec![cell_net(i)]));
    let mut networks = vec![SERVER_NET];
    networks.extend((0..n).map(cell_net));
    Grid {
        links,
        hna,
        networks,
    }
}

//! Routing table calculation (RFC 3626 §10) plus HNA network routes (§12.6), as ns-3.44's
//! `RoutingTableComputation` does it, and the lookup tables the world queries per data packet.

use super::state::{Nanos, OlsrState};
use super::Willingness;

/// One host route (RFC 3626 §10 routing table entry), as stored during the computation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    next_addr: u32,
    iface: usize,
    dist: u32,
}

/// A route as the world sees it: where to send a packet for `dest`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Route {
    /// Destination: a router interface/main address, or an HNA network address.
    pub dest: u32,
    /// Index of this router's interface to send on.
    pub iface: usize,
    /// Interface address of the next-hop neighbour.
    pub next_hop: u32,
    /// Hop count (R_dist).
    pub hops: u32,
}

/// One route of ns-3's HNA table (an `Ipv4StaticRouting` network route list).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct HnaRoute {
    network: u32,
    netmask: u32,
    next_addr: u32,
    iface: usize,
    metric: u32,
}

/// The routing tables of one router, recomputed from its state.
#[derive(Clone, Debug, Default)]
pub struct RoutingTables {
    /// Host routes sorted by destination, next hops resolved (ns-3 `FindSendEntry`).
    hosts: Vec<Route>,
    /// ns-3's HNA route list in its own order (needed to reproduce its clearing, below).
    hna_list: Vec<HnaRoute>,
    /// HNA routes sorted by network, for lookups.
    networks: Vec<Route>,
    /// The host table under construction, kept between recomputations so that ns-3's
    /// recompute-after-every-packet allocates nothing once warm.
    table: EntryMap,
}

/// ns-3's `std::map<Ipv4Address, RoutingTableEntry>` as a sorted vector: same lookups, same
/// overwrite-on-insert and the same iteration order as a map, but its storage is reused
/// (a `BTreeMap` allocated nodes on every recomputation: perf, seed004_grid, ~0.5 % of a run).
#[derive(Clone, Debug, Default)]
struct EntryMap(Vec<(u32, Entry)>);

impl EntryMap {
    fn clear(&mut self) {
        self.0.clear();
    }

    fn len(&self) -> usize {
        self.0.len()
    }

    fn get(&self, key: &u32) -> Option<&Entry> {
        self.0
            .binary_search_by_key(key, |&(k, _)| k)
            .ok()
            .map(|i| &self.0[i].1)
    }

    fn contains_key(&self, key: &u32) -> bool {
        self.get(key).is_some()
    }

    fn insert(&mut self, key: u32, entry: Entry) {
        match self.0.binary_search_by_key(&key, |&(k, _)| k) {
            Ok(i) => self.0[i].1 = entry,
            Err(i) => self.0.insert(i, (key, entry)),
        }
    }
}

impl RoutingTables {
    /// Next hop for a host address (binary search, no allocation).
    pub fn host(&self, dest: u32) -> Option<&Route> {
        self.hosts
            .binary_search_by_key(&dest, |r| r.dest)
            .ok()
            .map(|i| &self.hosts[i])
    }

    /// Next hop for an HNA network address (binary search, no allocation).
    pub fn network(&self, network: u32) -> Option<&Route> {
        self.networks
            .binary_search_by_key(&network, |r| r.dest)
            .ok()
            .map(|i| &self.networks[i])
    }

    pub fn hosts(&self) -> &[Route] {
        &self.hosts
    }

    pub fn networks(&self) -> &[Route] {
        &self.networks
    }

    /// Recomputes every route (RFC 3626 §10 steps 1–5, §12.6), at time `now`.
    ///
    /// `iface_addrs[i]` is the address of interface `i`; `local_networks` are the networks this
    /// router announces itself (no route is made to them, as ns-3).
    pub fn recompute(
        &mut self,
        state: &OlsrState,
        self_main: u32,
        iface_addrs: &[u32],
        local_networks: &[(u32, u32)],
        now: Nanos,
    ) {
        let iface_of = |local_addr: u32| iface_addrs.iter().position(|&a| a == local_addr);
        // 1. All entries are removed. ns-3's table is a std::map keyed by destination, and a
        // later AddEntry overwrites an earlier one: an EntryMap behaves the same.
        let mut table = std::mem::take(&mut self.table);
        table.clear();

        // 2. Symmetric neighbours (h = 1): one entry per live link to the neighbour, plus its
        // main address through the last such link if no link uses the main address.
        for nb in state.neighbors.iter().filter(|n| n.symmetric) {
            let mut main_addr_has_entry = false;
            let mut last_link = None;
            for link in &state.links {
                if state.main_addr_of(link.neighbor_iface_addr) == nb.main_addr && link.time >= now
                {
                    let Some(iface) = iface_of(link.local_iface_addr) else {
                        continue;
                    };
                    table.insert(
                        link.neighbor_iface_addr,
                        Entry {
                            next_addr: link.neighbor_iface_addr,
                            iface,
                            dist: 1,
                        },
                    );
                    last_link = Some((link.neighbor_iface_addr, iface));
                    if link.neighbor_iface_addr == nb.main_addr {
                        main_addr_has_entry = true;
                    }
                }
            }
            if let (false, Some((next_addr, iface))) = (main_addr_has_entry, last_link) {
                table.insert(
                    nb.main_addr,
                    Entry {
                        next_addr,
                        iface,
                        dist: 1,
                    },
                );
            }
        }

        // 3. 2-hop neighbours that are not neighbours nor this router, reached through a
        // neighbour whose willingness is not NEVER.
        for th in &state.two_hop {
            if state.is_sym_neighbor(th.two_hop_addr) || th.two_hop_addr == self_main {
                continue;
            }
            let via_willing = state.neighbors.iter().any(|n| {
                n.main_addr == th.neighbor_main_addr && n.willingness != Willingness::Never as u8
            });
            if !via_willing {
                continue;
            }
            if let Some(&via) = table.get(&th.neighbor_main_addr) {
                table.insert(th.two_hop_addr, Entry { dist: 2, ..via });
            }
        }

        // 3.1 Topology set, h = 2, 3, …: a destination not yet in the table whose last hop is
        // at distance h gets distance h + 1 through that last hop's next hop.
        for h in 2.. {
            let mut added = false;
            for t in &state.topology {
                if table.contains_key(&t.dest_addr) {
                    continue;
                }
                if let Some(&last) = table.get(&t.last_addr).filter(|e| e.dist == h) {
                    table.insert(
                        t.dest_addr,
                        Entry {
                            dist: h + 1,
                            ..last
                        },
                    );
                    added = true;
                }
            }
            if !added {
                break;
            }
        }

        // 4. Interface addresses of routers (MID) whose main address has a route.
        for ia in &state.iface_assoc {
            if table.contains_key(&ia.iface_addr) {
                continue;
            }
            if let Some(&main) = table.get(&ia.main_addr) {
                table.insert(ia.iface_addr, main);
            }
        }

        // 5. HNA routes (RFC 3626 §12.6). ns-3 keeps them in an Ipv4StaticRouting and "clears"
        // it with `for (i = 0; i < GetNRoutes(); i++) RemoveRoute(0);`, which removes only the
        // first ceil(n/2) routes: the rest survive, and a surviving route is replaced only by
        // a strictly shorter one (even if its gateway became unreachable). We reproduce that,
        // because it decides which next hop data packets take to a cell.
        let n = self.hna_list.len();
        self.hna_list.drain(..n.div_ceil(2));
        for a in &state.associations {
            if local_networks.contains(&(a.network, a.netmask)) {
                continue;
            }
            let gateway = table.get(&a.gateway_addr).copied();
            let existing = self
                .hna_list
                .iter()
                .position(|r| r.network == a.network && r.netmask == a.netmask);
            let add = match (existing, gateway) {
                (None, _) => true,
                (Some(i), Some(gw)) if self.hna_list[i].metric > gw.dist => {
                    self.hna_list.remove(i);
                    true
                }
                _ => false,
            };
            if let (true, Some(gw)) = (add, gateway) {
                let route = HnaRoute {
                    network: a.network,
                    netmask: a.netmask,
                    next_addr: gw.next_addr,
                    iface: gw.iface,
                    metric: gw.dist,
                };
                // Ipv4StaticRouting::AddNetworkRouteTo skips an identical route.
                if !self.hna_list.contains(&route) {
                    self.hna_list.push(route);
                }
            }
        }

        // Lookup tables. Host routes: resolve the next hop as ns-3's FindSendEntry does
        // (follow R_next_addr until an entry whose destination is its own next hop).
        self.hosts.clear();
        for &(dest, entry) in &table.0 {
            let mut e = entry;
            let mut resolved = true;
            let mut hops = 0;
            let mut cur_dest = dest;
            while cur_dest != e.next_addr {
                hops += 1;
                match table.get(&e.next_addr) {
                    Some(&next) if hops <= table.len() => {
                        cur_dest = e.next_addr;
                        e = next;
                    }
                    _ => {
                        resolved = false;
                        break;
                    }
                }
            }
            if resolved {
                self.hosts.push(Route {
                    dest,
                    iface: e.iface,
                    next_hop: e.next_addr,
                    hops: entry.dist,
                });
            }
        }
        // Network routes: Ipv4StaticRouting picks, among equal masks, the lowest metric, and
        // the later route on equal metrics.
        self.networks.clear();
        for r in &self.hna_list {
            let route = Route {
                dest: r.network,
                iface: r.iface,
                next_hop: r.next_addr,
                hops: r.metric,
            };
            match self.networks.iter_mut().find(|x| x.dest == r.network) {
                Some(x) if r.metric <= x.hops => *x = route,
                Some(_) => {}
                None => self.networks.push(route),
            }
        }
        self.networks.sort_unstable_by_key(|r| r.dest);
        self.table = table;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::olsr::state::{AssociationTuple, LinkTuple, NeighborTuple};

    const FAR: Nanos = 1_000 * 1_000_000_000;

    fn link(local: u32, neighbor: u32) -> LinkTuple {
        LinkTuple {
            local_iface_addr: local,
            neighbor_iface_addr: neighbor,
            sym_time: FAR,
            asym_time: FAR,
            time: FAR,
        }
    }
    fn neighbor(addr: u32) -> NeighborTuple {
        NeighborTuple {
            main_addr: addr,
            symmetric: true,
            willingness: Willingness::Default as u8,
        }
    }
    fn assoc(gw: u32, net: u32) -> AssociationTuple {
        AssociationTuple {
            gateway_addr: gw,
            network: net,
            netmask: 0xffff_ff00,
            expires: FAR,
        }
    }

    #[test]
    fn hna_route_outlives_its_gateway_by_one_recomputation_as_in_ns3() {
        // This router: interfaces 1 (index 0) and 2 (index 1); neighbours 10 and 20, gateways
        // of networks 100 and 200.
        let mut state = OlsrState {
            links: vec![link(1, 10), link(2, 20)],
            neighbors: vec![neighbor(10), neighbor(20)],
            associations: vec![assoc(10, 100), assoc(20, 200)],
            ..OlsrState::default()
        };
        let mut tables = RoutingTables::default();
        tables.recompute(&state, 1, &[1, 2], &[], 0);
        assert_eq!(
            tables.network(100).map(|r| (r.iface, r.next_hop)),
            Some((0, 10))
        );
        assert_eq!(
            tables.network(200).map(|r| (r.iface, r.next_hop)),
            Some((1, 20))
        );
        assert_eq!(tables.host(20).map(|r| r.hops), Some(1));

        // Neighbour 20 is gone: its host route goes at once, but ns-3's half-clearing keeps
        // the route to 200 (second in the list) for one more computation.
        state.neighbors.retain(|n| n.main_addr != 20);
        tables.recompute(&state, 1, &[1, 2], &[], 0);
        assert_eq!(tables.host(20), None);
        assert_eq!(
            tables.network(200).map(|r| (r.iface, r.next_hop)),
            Some((1, 20))
        );
        assert!(tables.network(100).is_some());
        // Now first in the list, it is cleared and not re-added.
        tables.recompute(&state, 1, &[1, 2], &[], 0);
        assert_eq!(tables.network(200), None);
        assert!(tables.network(100).is_some());
    }

    #[test]
    fn own_networks_get_no_route() {
        let state = OlsrState {
            links: vec![link(1, 10)],
            neighbors: vec![neighbor(10)],
            associations: vec![assoc(10, 100)],
            ..OlsrState::default()
        };
        let mut tables = RoutingTables::default();
        tables.recompute(&state, 1, &[1], &[(100, 0xffff_ff00)], 0);
        assert_eq!(tables.network(100), None);
        assert_eq!(
            tables.host(10).map(|r| (r.iface, r.next_hop, r.hops)),
            Some((0, 10, 1))
        );
    }
}

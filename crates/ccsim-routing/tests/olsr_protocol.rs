//! OLSR behaviour on small hand-checked networks: MPR selection through the whole protocol,
//! willingness, route computation with MID and HNA, expiry and recomputation, duplicate
//! suppression and MPR flooding.

mod olsr_net;

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use ccsim_core::Time;
use ccsim_routing::olsr::{OlsrConfig, Willingness};
use olsr_net::{is_tc, seed004_grid, LinkSpec, Net};

fn link(a: usize, b: usize) -> LinkSpec {
    LinkSpec {
        a,
        b,
        rate_bps: 100_000_000,
        delay: Time::from_millis(1),
    }
}

/// The router owning interface address `addr`.
fn router_of(net: &Net, addr: u32) -> usize {
    net.routers
        .iter()
        .position(|r| r.iface_addrs().contains(&addr))
        .unwrap()
}

fn secs(s: f64) -> Time {
    Time::from_secs_f64(s)
}

/// Hop distances from `src` in the graph of `links`.
fn bfs(n: usize, links: &[LinkSpec], src: usize) -> Vec<Option<u32>> {
    let mut dist = vec![None; n];
    dist[src] = Some(0);
    let mut q = VecDeque::from([src]);
    while let Some(u) = q.pop_front() {
        for l in links {
            let v = if l.a == u {
                l.b
            } else if l.b == u {
                l.a
            } else {
                continue;
            };
            if dist[v].is_none() {
                dist[v] = Some(dist[u].unwrap() + 1);
                q.push_back(v);
            }
        }
    }
    dist
}

#[test]
fn line_routes_with_mid_and_hna_are_the_hand_checked_ones() {
    // 0 - 1 - 2 - 3; router 3 announces network 0xC0A80000. Link k joins k and k+1, so
    // router k's interface 0 is on link k-1 (for k > 0) and its main address is addr(k, 0).
    let links = [link(0, 1), link(1, 2), link(2, 3)];
    let net_addr = 0xc0a8_0000;
    let mut net = Net::new(
        &OlsrConfig::default(),
        4,
        &links,
        &[vec![], vec![], vec![], vec![net_addr]],
        1,
    );
    net.run_until(secs(30.0));
    let r0 = &net.routers[0];
    let next = net.addr(1, 0); // router 1's end of link 0
                               // Router 3 by its main address (on link 2, end b): 3 hops, through router 1.
    let to3 = r0
        .host_routes()
        .iter()
        .find(|r| r.dest == net.routers[3].main_addr())
        .unwrap();
    assert_eq!((to3.iface, to3.next_hop, to3.hops), (0, next, 3));
    // Router 2's second interface (on link 2) is known through its MID: same next hop.
    assert_eq!(r0.route_to_addr(net.addr(2, 1)), Some((0, next)));
    // Router 1's far interface (link 1), also by MID, 1 hop away.
    assert_eq!(r0.route_to_addr(net.addr(1, 1)), Some((0, next)));
    // HNA: the network behind router 3.
    let hna = r0.network_routes();
    assert_eq!(hna.len(), 1);
    assert_eq!(
        (hna[0].dest, hna[0].iface, hna[0].next_hop, hna[0].hops),
        (net_addr, 0, next, 3)
    );
    assert_eq!(r0.route_to_network(net_addr), Some((0, next)));
    // Router 3 announces it: no route to its own network.
    assert_eq!(net.routers[3].route_to_network(net_addr), None);
    // From the middle, each side goes its own way: router 1 to router 0 on its interface 0,
    // to router 3 on interface 1 through router 2.
    let r1 = &net.routers[1];
    assert_eq!(
        r1.route_to_addr(net.routers[0].main_addr()),
        Some((0, net.addr(0, 0)))
    );
    assert_eq!(
        r1.route_to_addr(net.routers[3].main_addr()),
        Some((1, net.addr(2, 0)))
    );
    // MPRs: 1 for router 0, 2 for router 3, both 0 and 2 for router 1... router 1 needs 2 to
    // reach 3 and nothing to reach 0's side beyond 0 itself.
    assert_eq!(net.routers[0].mpr_set(), &[net.routers[1].main_addr()]);
    assert_eq!(net.routers[3].mpr_set(), &[net.routers[2].main_addr()]);
    assert_eq!(net.routers[1].mpr_set(), &[net.routers[2].main_addr()]);
}

#[test]
fn routes_are_shortest_paths_on_an_irregular_graph() {
    // A ring of 6 with a chord 0-3, a tail 5-6-7 and a pendant 2-8; every router announces one
    // network (0x0100_0000 + r).
    let links = [
        link(0, 1),
        link(1, 2),
        link(2, 3),
        link(3, 4),
        link(4, 5),
        link(5, 0),
        link(0, 3),
        link(5, 6),
        link(6, 7),
        link(2, 8),
    ];
    let n = 9;
    let hna: Vec<Vec<u32>> = (0..n).map(|r| vec![0x0100_0000 + r as u32]).collect();
    let mut net = Net::new(&OlsrConfig::default(), n, &links, &hna, 4);
    net.run_until(secs(40.0));
    for s in 0..n {
        let dist = bfs(n, &links, s);
        for d in (0..n).filter(|&d| d != s) {
            let main = net.routers[d].main_addr();
            let route = net.routers[s].host_routes().iter().find(|r| r.dest == main);
            let route = route.unwrap_or_else(|| panic!("router {s} has no route to {d}"));
            assert_eq!(Some(route.hops), dist[d], "hops {s} -> {d}");
            // The next hop is a neighbour one hop closer to d.
            let (iface, peer) = net.neighbours(s)[route.iface];
            assert_eq!(
                route.next_hop,
                net.addr(
                    peer,
                    net.neighbours(peer)
                        .iter()
                        .position(|&(_, p)| p == s)
                        .unwrap()
                )
            );
            assert_eq!(iface, route.iface);
            assert_eq!(
                bfs(n, &links, peer)[d].unwrap() + 1,
                dist[d].unwrap(),
                "{s} -> {d} via {peer}"
            );
            // The network behind d goes the same number of hops.
            let net_route = net.routers[s]
                .network_routes()
                .iter()
                .find(|r| r.dest == 0x0100_0000 + d as u32);
            assert_eq!(
                net_route.map(|r| r.hops),
                dist[d],
                "network of {d} from {s}"
            );
        }
    }
}

#[test]
fn routes_are_shortest_paths_on_random_connected_graphs() {
    // Five random graphs of 12 routers: a random spanning tree plus 6 random extra links.
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut rand = move |n: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n as u64) as usize
    };
    let n = 12;
    for trial in 0..5 {
        let mut links: Vec<LinkSpec> = (1..n).map(|v| link(rand(v), v)).collect();
        while links.len() < n - 1 + 6 {
            let (a, b) = (rand(n), rand(n));
            if a != b
                && !links
                    .iter()
                    .any(|l| (l.a, l.b) == (a, b) || (l.a, l.b) == (b, a))
            {
                links.push(link(a, b));
            }
        }
        let hna: Vec<Vec<u32>> = (0..n).map(|r| vec![0x0200_0000 + r as u32]).collect();
        let mut net = Net::new(&OlsrConfig::default(), n, &links, &hna, trial);
        net.run_until(secs(40.0));
        for s in 0..n {
            let dist = bfs(n, &links, s);
            for d in (0..n).filter(|&d| d != s) {
                let main = net.routers[d].main_addr();
                let hops = net.routers[s]
                    .host_routes()
                    .iter()
                    .find(|r| r.dest == main)
                    .map(|r| r.hops);
                assert_eq!(hops, dist[d], "trial {trial}: {s} -> {d}");
                let net_hops = net.routers[s]
                    .network_routes()
                    .iter()
                    .find(|r| r.dest == 0x0200_0000 + d as u32);
                assert_eq!(
                    net_hops.map(|r| r.hops),
                    dist[d],
                    "trial {trial}: {s} -> network of {d}"
                );
            }
        }
    }
}

#[test]
fn willingness_never_is_not_a_transit_and_always_is_an_mpr() {
    // Square 0-1-3, 0-2-3. Router 1 listed first at router 0 (link 0).
    let links = [link(0, 1), link(0, 2), link(1, 3), link(2, 3)];
    let with_will = |r: usize, w: Willingness| {
        let mut cfgs = vec![OlsrConfig::default(); 4];
        cfgs[r].willingness = w;
        cfgs
    };
    let main = |net: &Net, r: usize| net.routers[r].main_addr();

    // Default willingness everywhere: 1 and 2 tie, the first neighbour (1) is router 0's MPR.
    let mut net = Net::new(&OlsrConfig::default(), 4, &links, &[], 2);
    net.run_until(secs(30.0));
    assert_eq!(net.routers[0].mpr_set(), &[main(&net, 1)]);

    // Router 1 NEVER: router 0 must use 2, for MPR and for the route to 3.
    let mut net = Net::with_configs(&with_will(1, Willingness::Never), &links, &[], 2);
    net.run_until(secs(30.0));
    assert_eq!(net.routers[0].mpr_set(), &[main(&net, 2)]);
    assert_eq!(
        net.routers[0].route_to_addr(main(&net, 3)),
        Some((1, net.addr(2, 0)))
    );

    // Router 2 ALWAYS: it is an MPR of 0 (and covers 3, so 1 is not).
    let mut net = Net::with_configs(&with_will(2, Willingness::Always), &links, &[], 2);
    net.run_until(secs(30.0));
    assert_eq!(net.routers[0].mpr_set(), &[main(&net, 2)]);

    // A line 0 - 1 - 2 with 1 NEVER: 0 and 2 never learn a route to each other.
    let line = [link(0, 1), link(1, 2)];
    let mut cfgs = vec![OlsrConfig::default(); 3];
    cfgs[1].willingness = Willingness::Never;
    let mut net = Net::with_configs(&cfgs, &line, &[], 2);
    net.run_until(secs(30.0));
    assert_eq!(net.routers[0].route_to_addr(main(&net, 2)), None);
    assert_eq!(net.routers[2].route_to_addr(main(&net, 0)), None);
    assert_eq!(
        net.routers[0].route_to_addr(main(&net, 1)),
        Some((0, net.addr(1, 0)))
    );
}

#[test]
fn a_silent_neighbour_disappears_after_the_hold_time_and_routes_follow() {
    // 0 - 1 - 2, router 2 announces a network. At 20 s link 1-2 fails (both directions).
    let links = [link(0, 1), link(1, 2)];
    let net_addr = 0x0a0a_0000;
    let mut net = Net::new(
        &OlsrConfig::default(),
        3,
        &links,
        &[vec![], vec![], vec![net_addr]],
        3,
    );
    net.record = true;
    net.run_until(secs(20.0));
    let main2 = net.routers[2].main_addr();
    assert!(net.routers[1].route_to_addr(main2).is_some());
    assert!(net.routers[0].route_to_addr(main2).is_some());
    assert!(net.routers[0].route_to_network(net_addr).is_some());
    net.set_link_up(1, false);
    // The last HELLO router 1 heard from router 2 (it listed router 1, so it refreshed the
    // link's L_SYM_time to arrival + 6 s).
    let last_hello = net
        .deliveries
        .iter()
        .filter(|d| d.router == 1 && d.src == net.addr(2, 0))
        .filter(|d| d.pkt.messages.iter().any(|m| m.is_hello()))
        .map(|d| d.at)
        .max()
        .unwrap();
    let sym_expiry = last_hello + Time::from_secs(6);
    net.run_until(sym_expiry - Time::from_millis(1));
    assert!(
        net.routers[1].route_to_addr(main2).is_some(),
        "still symmetric before 6 s"
    );
    // ns-3 checks 1 us after L_SYM_time: neighbour loss, MPRs and routes recomputed at once.
    net.run_until(sym_expiry + Time::from_micros(2));
    assert_eq!(net.routers[1].route_to_addr(main2), None);
    assert!(!net.routers[1]
        .state()
        .neighbors
        .iter()
        .any(|n| n.main_addr == main2 && n.symmetric));
    // Router 0 learns it from router 1's next HELLO (link LOST / NOT_NEIGH): within 2.5 s.
    net.run_until(sym_expiry + secs(2.6));
    assert_eq!(net.routers[0].route_to_addr(main2), None);
    assert_eq!(net.routers[0].route_to_network(net_addr), None);
    assert!(net.routers[0]
        .route_to_addr(net.routers[1].main_addr())
        .is_some());
    // The link tuple itself goes 6 s after L_SYM_time (L_time = L_SYM_time + NEIGHB_HOLD_TIME).
    net.run_until(sym_expiry + secs(6.1));
    assert!(net.routers[1]
        .state()
        .links
        .iter()
        .all(|l| l.neighbor_iface_addr != net.addr(2, 0)));
}

#[test]
fn each_tc_reaches_every_router_and_is_processed_and_forwarded_once() {
    let g = seed004_grid();
    let mut net = Net::new(&OlsrConfig::default(), 26, &g.links, &g.hna, 5);
    // Window [24.9 s, 29.9 s]: the 20 s round has finished flooding (0.5 s jitter at the
    // source, at most 8 hops of ≤ 0.5 s jitter + 4 ms), the 25 s round finishes inside it.
    net.run_until(secs(24.9));
    let before: Vec<_> = net.routers.iter().map(|r| r.stats()).collect();
    net.record = true;
    net.run_until(secs(29.9));

    // TCs originated in the window, and who received / forwarded each.
    let mut originated: BTreeSet<(u32, u16)> = BTreeSet::new();
    let mut forwards: BTreeMap<(u32, u16), BTreeMap<usize, BTreeSet<u16>>> = BTreeMap::new();
    for (r, _, _, pkt) in &net.sends {
        for m in pkt.messages.iter().filter(|m| is_tc(&m.body)) {
            if m.hop_count == 0 {
                originated.insert((m.originator, m.seq));
            } else {
                // One forwarding = one packet (its copies on each interface share pkt.seq).
                forwards
                    .entry((m.originator, m.seq))
                    .or_default()
                    .entry(*r)
                    .or_default()
                    .insert(pkt.seq);
            }
        }
    }
    assert!(
        originated.len() >= 10,
        "TCs in the window: {}",
        originated.len()
    );
    let mut received: BTreeMap<(u32, u16), BTreeSet<usize>> = BTreeMap::new();
    for d in &net.deliveries {
        for m in d.pkt.messages.iter().filter(|m| is_tc(&m.body)) {
            received
                .entry((m.originator, m.seq))
                .or_default()
                .insert(d.router);
        }
    }
    for key in &originated {
        let origin = net
            .routers
            .iter()
            .position(|r| r.main_addr() == key.0)
            .unwrap();
        // Every other router got it (the originator hears it back from its MPRs and drops it).
        let others = received[key].iter().filter(|&&r| r != origin).count();
        assert_eq!(
            others, 25,
            "TC {key:?} reached {others} of the 25 other routers"
        );
        for (r, pkts) in forwards.get(key).into_iter().flatten() {
            assert_eq!(
                pkts.len(),
                1,
                "router {r} forwarded {key:?} {} times",
                pkts.len()
            );
        }
        // MPR flooding (RFC 3626 §3.4.1): a router retransmits iff it got the message from
        // one of its MPR selectors. (On this grid most routers are MPRs: the node two hops
        // straight ahead is reachable through one neighbour only.)
        for r in (0..26).filter(|&r| r != origin) {
            let selectors: Vec<usize> = net.routers[r]
                .state()
                .mpr_selectors
                .iter()
                .map(|t| router_of(&net, t.main_addr))
                .collect();
            let mut senders = net
                .deliveries
                .iter()
                .filter(|d| {
                    d.router == r && d.pkt.messages.iter().any(|m| (m.originator, m.seq) == *key)
                })
                .map(|d| router_of(&net, d.src));
            let first = senders.next().unwrap();
            let from_selector =
                selectors.contains(&first) || senders.any(|s| selectors.contains(&s));
            let forwarded = forwards.get(key).is_some_and(|f| f.contains_key(&r));
            assert_eq!(forwarded, from_selector, "router {r}, TC {key:?}");
            if selectors.contains(&first) {
                assert!(forwarded);
            }
        }
    }

    // Every router processed each distinct message it received exactly once: processed =
    // distinct messages received, the rest counted as duplicates.
    for (r, router) in net.routers.iter().enumerate() {
        let mut all = 0u64;
        let mut distinct: BTreeSet<(u32, u16)> = BTreeSet::new();
        for d in net.deliveries.iter().filter(|d| d.router == r) {
            for m in &d.pkt.messages {
                if m.originator == router.main_addr() {
                    continue;
                }
                all += 1;
                distinct.insert((m.originator, m.seq));
            }
        }
        let s = router.stats();
        assert_eq!(
            s.messages_processed - before[r].messages_processed,
            distinct.len() as u64,
            "router {r}"
        );
        assert_eq!(
            s.duplicates_ignored - before[r].duplicates_ignored,
            all - distinct.len() as u64,
            "router {r}"
        );
    }
}

#[test]
fn a_broken_link_is_routed_around_once_its_loss_is_sensed() {
    // Square 0-1-3, 0-2-3: router 0 reaches 3 through 1 (its first neighbour) until link 1-3
    // (link 2) fails, then through 2 once router 1's HELLO reports the link lost.
    let links = [link(0, 1), link(0, 2), link(1, 3), link(2, 3)];
    let mut net = Net::new(
        &OlsrConfig::default(),
        4,
        &links,
        &[vec![], vec![], vec![], vec![0x0a0b_0000]],
        6,
    );
    net.run_until(secs(20.0));
    let main3 = net.routers[3].main_addr();
    assert_eq!(
        net.routers[0].route_to_addr(main3),
        Some((0, net.addr(1, 0)))
    );
    assert_eq!(
        net.routers[0].route_to_network(0x0a0b_0000),
        Some((0, net.addr(1, 0)))
    );
    net.set_link_up(2, false);
    // Router 1 senses the loss ≤ 6 s after 3's last HELLO (≤ 2.5 s before the cut), and tells
    // router 0 in its next HELLO (≤ 2.5 s later).
    net.run_until(secs(20.0 + 6.0 + 2.6));
    assert_eq!(
        net.routers[0].route_to_addr(main3),
        Some((1, net.addr(2, 0)))
    );
    let to3 = net.routers[0]
        .host_routes()
        .iter()
        .find(|r| r.dest == main3)
        .unwrap();
    assert_eq!(to3.hops, 2);
    // The HNA route moves too (a one-route HNA table is cleared at every recomputation, so
    // ns-3's "replace only if strictly shorter" does not keep the old next hop here).
    assert_eq!(
        net.routers[0].route_to_network(0x0a0b_0000),
        Some((1, net.addr(2, 0)))
    );
}

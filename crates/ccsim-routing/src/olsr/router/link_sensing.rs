//! HELLO processing: link sensing (RFC 3626 §7.1), neighbours (§8.1), 2-hop neighbours
//! (§8.2) and MPR selectors (§8.4).

use super::super::message::{emf_to_nanos, link_type, neighbor_type, Hello, OlsrMessage};
use super::super::state::{LinkTuple, MprSelectorTuple, Nanos, NeighborTuple, TwoHopTuple};
use super::super::timers::Timer;
use super::{expiry_check, OlsrRouter, SECOND};

impl OlsrRouter {
    /// HELLO processing (RFC 3626 §7.1 link sensing, §8.1 neighbours, §8.2 2-hop
    /// neighbours, §8.3 MPRs, §8.4 MPR selectors).
    pub(super) fn process_hello(
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
    pub(super) fn link_sensing(
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
    pub(super) fn link_tuple_added(&mut self, now: Nanos, link: &LinkTuple, willingness: u8) {
        let nb = NeighborTuple {
            main_addr: self.state.main_addr_of(link.neighbor_iface_addr),
            symmetric: link.sym_time >= now,
            willingness,
        };
        self.state.insert_neighbor(nb);
        self.increment_ansn();
    }

    /// ns-3 `LinkTupleUpdated`: the neighbour is symmetric iff one of its links is (§8.1).
    pub(super) fn link_tuple_updated(&mut self, now: Nanos, link: &LinkTuple, willingness: u8) {
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
    pub(super) fn populate_two_hop(&mut self, now: Nanos, msg: &OlsrMessage, hello: &Hello) {
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

    /// MPR selector set population (RFC 3626 §8.4.1).
    pub(super) fn populate_mpr_selectors(&mut self, now: Nanos, msg: &OlsrMessage, hello: &Hello) {
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
}

//! Topology messages: TC (RFC 3626 §9.5), MID (§5.4) and HNA (§12.5) processing.

use super::super::message::{emf_to_nanos, Hna, Mid, OlsrMessage, Tc};
use super::super::state::{AssociationTuple, IfaceAssocTuple, Nanos, TopologyTuple};
use super::super::timers::Timer;
use super::{expiry_check, OlsrRouter};

impl OlsrRouter {
    /// TC processing (RFC 3626 §9.5).
    pub(super) fn process_tc(&mut self, now: Nanos, msg: &OlsrMessage, tc: &Tc, sender: u32) {
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
    pub(super) fn process_mid(&mut self, now: Nanos, msg: &OlsrMessage, mid: &Mid, sender: u32) {
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
    pub(super) fn process_hna(&mut self, now: Nanos, msg: &OlsrMessage, hna: &Hna, sender: u32) {
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
}

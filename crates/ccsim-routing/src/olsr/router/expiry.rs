//! Timers: the periodic emissions and the expiry of every information-repository tuple
//! (ns-3's `*TimerExpire` handlers), with ns-3's `DELAY()` slack.

use super::super::message::OlsrPacket;
use super::super::state::{LinkTuple, Nanos};
use super::super::timers::Timer;
use super::super::Willingness;
use super::OlsrRouter;

impl OlsrRouter {
    pub(super) fn fire(&mut self, now: Nanos, timer: Timer, out: &mut Vec<(usize, OlsrPacket)>) {
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
    pub(super) fn link_timer(&mut self, now: Nanos, neighbor_iface_addr: u32) {
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
    pub(super) fn neighbor_loss(&mut self, now: Nanos, link: &LinkTuple) {
        self.link_tuple_updated(now, link, Willingness::Default as u8);
        let nb_main = self.state.main_addr_of(link.neighbor_iface_addr);
        self.state
            .two_hop
            .retain(|t| t.neighbor_main_addr != nb_main);
        self.state.mpr_selectors.retain(|t| t.main_addr != nb_main);
        self.compute_mprs();
        self.recompute_routes(now);
    }
}

/// ns-3's `DELAY(t)` adds 1 µs to every expiry check, so a tuple is checked just after it expires.
const EXPIRY_SLACK: Nanos = 1_000;

/// ns-3 `DELAY(t)`: check an expiry 1 µs after it (or 1 µs from now if it already passed).
pub(super) fn expiry_check(expires: Nanos, now: Nanos) -> Nanos {
    expires.max(now) + EXPIRY_SLACK
}

//! Message generation (RFC 3626 §6.2, §9.2, §5.2, §12.2), the message queue that
//! piggybacks messages into packets (§3.4.1), and default forwarding as an MPR.

use super::super::message::{
    link_type, neighbor_type, seconds_to_emf, Hello, Hna, LinkMessage, MessageBody, Mid,
    OlsrMessage, OlsrPacket, Tc, MAX_MESSAGES_PER_PACKET,
};
use super::super::state::{DuplicateTuple, Nanos};
use super::super::timers::Timer;
use super::{OlsrRouter, DUP_HOLD, SECOND};

impl OlsrRouter {
    pub(super) fn next_message_seq(&mut self) -> u16 {
        self.message_seq = self.message_seq.wrapping_add(1);
        self.message_seq
    }

    /// ns-3 `JITTER`: uniform in [0, HelloInterval / 4).
    pub(super) fn jitter(&mut self) -> Nanos {
        (self.rng.next_f64() * self.max_jitter as f64).round() as Nanos
    }

    /// ns-3 `QueueMessage`: messages wait for the queue timer, which is started (with this
    /// message's jitter) only if it is not already running, so messages generated close
    /// together leave in one packet (RFC 3626 §3.4.1 piggybacking).
    pub(super) fn queue_message(&mut self, now: Nanos, msg: OlsrMessage, delay: Nanos) {
        self.queued.push(msg);
        if !self.queue_timer_running {
            self.queue_timer_running = true;
            self.timers.schedule(now + delay, Timer::SendQueued);
        }
    }

    /// ns-3 `SendQueuedMessages` + `SendPacket`: up to 64 messages per packet, one packet
    /// sequence number, a copy broadcast on every OLSR interface.
    pub(super) fn send_queued(&mut self, out: &mut Vec<(usize, OlsrPacket)>) {
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

    pub(super) fn header(&mut self, hold: Nanos, ttl: u8, body: MessageBody) -> OlsrMessage {
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
    pub(super) fn send_hello(&mut self, now: Nanos) {
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
    pub(super) fn send_tc(&mut self, now: Nanos) {
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
    pub(super) fn send_mid(&mut self, now: Nanos) {
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
    pub(super) fn send_hna(&mut self, now: Nanos) {
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
    pub(super) fn forward_default(
        &mut self,
        now: Nanos,
        msg: &OlsrMessage,
        local_iface: u32,
        sender: u32,
    ) {
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
}

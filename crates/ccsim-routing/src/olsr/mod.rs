//! OLSR (RFC 3626), as ns-3.44's `olsr` module runs it.
//!
//! One [`OlsrRouter`] per router. The world gives every router interface a unique `u32`
//! address; interfaces are indexed `0..n` in the order given to [`OlsrRouter::new`], and the
//! first one's address is the router's main address (as ns-3). Interfaces are point-to-point:
//! a packet the router sends on interface `i` reaches exactly the one neighbour on it.
//!
//! ```
//! use ccsim_core::Time;
//! use ccsim_routing::olsr::{OlsrConfig, OlsrRouter};
//!
//! let cfg = OlsrConfig::default(); // ns-3.44 defaults: HELLO 2 s, TC/MID/HNA 5 s
//! // Two routers on one link: A has interface address 1, B has 2; B announces network 100.
//! let mut a = OlsrRouter::new(&cfg, &[1], &[], 7);
//! let mut b = OlsrRouter::new(&cfg, &[2], &[100], 7);
//! let mut now = Time::ZERO;
//! let (mut to_a, mut to_b) = (Vec::new(), Vec::new());
//! while now < Time::from_secs(8) {
//!     a.on_timer(now, &mut to_b);
//!     b.on_timer(now, &mut to_a);
//!     // Deliver instantly (a real world adds the link's serialisation and delay).
//!     for (_iface, pkt) in to_b.drain(..) {
//!         b.on_packet(now, 0, 1, &pkt, &mut Vec::new());
//!     }
//!     for (_iface, pkt) in to_a.drain(..) {
//!         a.on_packet(now, 0, 2, &pkt, &mut Vec::new());
//!     }
//!     now += Time::from_millis(10);
//! }
//! assert_eq!(a.route_to_addr(2), Some((0, 2)));
//! assert_eq!(a.route_to_network(100), Some((0, 2)));
//! ```
//!
//! Packet sizes: [`OlsrPacket::ip_bytes`] is the IP packet size (OLSR packet + UDP 8 + IPv4
//! 20 bytes); the world adds its link-layer header.

mod message;
mod mpr;
mod router;
mod routes;
mod state;
mod timers;

pub use message::{
    emf_to_seconds, link_type, neighbor_type, seconds_to_emf, Hello, Hna, LinkMessage, MessageBody,
    Mid, OlsrMessage, OlsrPacket, Tc, IP_UDP_HEADER_BYTES, MAX_MESSAGES_PER_PACKET,
    MESSAGE_HEADER_BYTES, PACKET_HEADER_BYTES,
};
pub use mpr::compute_mprs;
pub use router::OlsrRouter;
pub use routes::Route;
pub use state::{
    AssociationTuple, DuplicateTuple, IfaceAssocTuple, LinkTuple, MprSelectorTuple, NeighborTuple,
    OlsrState, TopologyTuple, TwoHopTuple,
};

use ccsim_core::Time;

/// A router's willingness to forward for others (RFC 3626 §18.8), ns-3's `Willingness`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
pub enum Willingness {
    Never = 0,
    Low = 1,
    Default = 3,
    High = 6,
    Always = 7,
}

/// OLSR parameters. `Default` is ns-3.44's `ns3::olsr::RoutingProtocol` attribute defaults.
#[derive(Clone, Debug, PartialEq)]
pub struct OlsrConfig {
    /// HELLO emission interval (`HelloInterval`, 2 s). Neighbour hold time is 3× this, and
    /// the forwarding/emission jitter is uniform in [0, HelloInterval / 4).
    pub hello_interval: Time,
    /// TC emission interval (`TcInterval`, 5 s); topology hold time is 3× this.
    pub tc_interval: Time,
    /// MID emission interval (`MidInterval`, 5 s); MID hold time is 3× this.
    pub mid_interval: Time,
    /// HNA emission interval (`HnaInterval`, 5 s); HNA hold time is 3× this.
    pub hna_interval: Time,
    /// Willingness announced in HELLOs (`Willingness`, default 3).
    pub willingness: Willingness,
    /// Netmask announced with each HNA network (only its size on the wire matters here).
    pub hna_netmask: u32,
    /// When the router starts (ns-3 initialises every node at time 0).
    pub start_time: Time,
}

impl Default for OlsrConfig {
    fn default() -> Self {
        OlsrConfig {
            hello_interval: Time::from_secs(2),
            tc_interval: Time::from_secs(5),
            mid_interval: Time::from_secs(5),
            hna_interval: Time::from_secs(5),
            willingness: Willingness::Default,
            hna_netmask: 0xffff_ff00,
            start_time: Time::ZERO,
        }
    }
}

/// Control traffic counters of one router (for the routing-overhead metric).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OlsrStats {
    /// Packets sent, counting each interface's copy.
    pub packets_sent: u64,
    /// Messages sent (originated or forwarded), counting each interface's copy.
    pub messages_sent: u64,
    /// IP bytes sent (OLSR + UDP + IPv4 headers), counting each interface's copy.
    pub ip_bytes_sent: u64,
    /// Messages this router retransmitted as an MPR (counted once, not per interface).
    pub messages_forwarded: u64,
    /// OLSR packets received from neighbours.
    pub packets_received: u64,
    /// Messages processed (HELLOs, and other messages not in the duplicate set).
    pub messages_processed: u64,
    /// Messages received again and not processed (RFC 3626 §3.4 duplicate set).
    pub duplicates_ignored: u64,
}

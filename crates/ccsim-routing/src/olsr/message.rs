//! OLSR packets and messages (RFC 3626 §3.3, §6.1, §9.1, §5.1, §12.1) with their on-wire sizes.
//!
//! Messages are kept decoded (no byte buffer): the world only needs their sizes to put them on
//! links, and the receiving router reads the fields directly. Sizes follow ns-3.44's
//! `olsr-header.cc` serialisation, which is the RFC's layout.

/// OLSR packet header: length (2) + packet sequence number (2) (RFC 3626 §3.3).
pub const PACKET_HEADER_BYTES: u32 = 4;
/// Message header: type, vtime, size, originator, TTL, hop count, sequence number (§3.3).
pub const MESSAGE_HEADER_BYTES: u32 = 12;
/// IPv4 header (20) + UDP header (8) around every OLSR packet (UDP port 698).
pub const IP_UDP_HEADER_BYTES: u32 = 28;
/// ns-3 `OLSR_MAX_MSGS`: at most this many messages are packed into one packet.
pub const MAX_MESSAGES_PER_PACKET: usize = 64;

/// Link types of a HELLO link code (RFC 3626 §6.1.1).
pub mod link_type {
    pub const UNSPEC: u8 = 0;
    pub const ASYM: u8 = 1;
    pub const SYM: u8 = 2;
    pub const LOST: u8 = 3;
}

/// Neighbour types of a HELLO link code (RFC 3626 §8.1.1).
pub mod neighbor_type {
    pub const NOT_NEIGH: u8 = 0;
    pub const SYM_NEIGH: u8 = 1;
    pub const MPR_NEIGH: u8 = 2;
}

/// RFC 3626 §18.3 scaling constant C for the mantissa/exponent time format, in seconds.
const EMF_C_SECONDS: f64 = 0.0625;

/// Encodes a duration (seconds, ≥ C) in the 8-bit mantissa/exponent format of RFC 3626 §18.3
/// (vtime, htime). Rounds the mantissa to nearest, as ns-3's `SecondsToEmf`.
pub fn seconds_to_emf(seconds: f64) -> u8 {
    assert!(
        seconds >= EMF_C_SECONDS,
        "OLSR validity/interval times must be at least {EMF_C_SECONDS} s, got {seconds} s"
    );
    // b: the largest integer with T/C >= 2^b.
    let mut b: u32 = 0;
    while seconds / EMF_C_SECONDS >= (1u64 << (b + 1)) as f64 {
        b += 1;
    }
    let exact_mantissa = 16.0 * (seconds / (EMF_C_SECONDS * (1u64 << b) as f64) - 1.0);
    let mut a = (exact_mantissa - 0.5).ceil() as u32;
    if a == 16 {
        b += 1;
        a = 0;
    }
    assert!(
        a < 16 && b < 16,
        "OLSR time {seconds} s does not fit the 8-bit format"
    );
    ((a << 4) | b) as u8
}

/// Decodes the RFC 3626 §18.3 time format: C·(1 + a/16)·2^b seconds.
pub fn emf_to_seconds(emf: u8) -> f64 {
    let a = (emf >> 4) as f64;
    let b = (emf & 0x0f) as u32;
    EMF_C_SECONDS * (1.0 + a / 16.0) * (1u64 << b) as f64
}

/// Decodes the RFC 3626 §18.3 time format to integer nanoseconds.
pub(crate) fn emf_to_nanos(emf: u8) -> i64 {
    (emf_to_seconds(emf) * 1e9).round() as i64
}

/// One link message inside a HELLO: a link code and the neighbour interface addresses it
/// applies to (RFC 3626 §6.1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkMessage {
    /// Link type in bits 0–1, neighbour type in bits 2–3 (see [`link_type`], [`neighbor_type`]).
    pub link_code: u8,
    pub neighbor_iface_addrs: Vec<u32>,
}

impl LinkMessage {
    pub fn link_type(&self) -> u8 {
        self.link_code & 0x03
    }
    pub fn neighbor_type(&self) -> u8 {
        (self.link_code >> 2) & 0x03
    }
}

/// HELLO body (RFC 3626 §6.1): never forwarded, TTL 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hello {
    /// HELLO emission interval in the §18.3 format.
    pub htime: u8,
    pub willingness: u8,
    pub links: Vec<LinkMessage>,
}

/// TC body (RFC 3626 §9.1): the originator's advertised neighbours (its MPR selectors).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tc {
    /// Advertised Neighbor Sequence Number.
    pub ansn: u16,
    pub advertised: Vec<u32>,
}

/// MID body (RFC 3626 §5.1): the originator's interface addresses other than its main one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mid {
    pub iface_addrs: Vec<u32>,
}

/// HNA body (RFC 3626 §12.1): (network address, netmask) pairs the originator is a gateway to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hna {
    pub networks: Vec<(u32, u32)>,
}

/// The body of an OLSR message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MessageBody {
    Hello(Hello),
    Tc(Tc),
    Mid(Mid),
    Hna(Hna),
}

/// An OLSR message: the RFC 3626 §3.3 message header and its body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OlsrMessage {
    /// Validity time in the §18.3 format.
    pub vtime: u8,
    /// Main address of the router that generated the message.
    pub originator: u32,
    pub ttl: u8,
    pub hop_count: u8,
    /// Message sequence number, per originator (wraps at 65535).
    pub seq: u16,
    pub body: MessageBody,
}

impl OlsrMessage {
    /// Serialised size: message header plus body, as ns-3's `MessageHeader::GetSerializedSize`.
    pub fn wire_bytes(&self) -> u32 {
        let body = match &self.body {
            // Reserved (2) + Htime (1) + Willingness (1), then per link message: link code,
            // reserved, link message size (4) and 4 bytes per address.
            MessageBody::Hello(h) => {
                4 + h
                    .links
                    .iter()
                    .map(|l| 4 + 4 * l.neighbor_iface_addrs.len() as u32)
                    .sum::<u32>()
            }
            // ANSN (2) + reserved (2) + 4 per advertised address.
            MessageBody::Tc(tc) => 4 + 4 * tc.advertised.len() as u32,
            MessageBody::Mid(mid) => 4 * mid.iface_addrs.len() as u32,
            MessageBody::Hna(hna) => 8 * hna.networks.len() as u32,
        };
        MESSAGE_HEADER_BYTES + body
    }

    pub fn is_hello(&self) -> bool {
        matches!(self.body, MessageBody::Hello(_))
    }
}

/// An OLSR packet as sent on one interface: packet header plus messages (RFC 3626 §3.3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OlsrPacket {
    /// Packet sequence number, per router (shared by the copies sent on each interface).
    pub seq: u16,
    pub messages: Vec<OlsrMessage>,
}

impl OlsrPacket {
    /// Size of the OLSR packet itself (UDP payload).
    pub fn olsr_bytes(&self) -> u32 {
        PACKET_HEADER_BYTES
            + self
                .messages
                .iter()
                .map(OlsrMessage::wire_bytes)
                .sum::<u32>()
    }

    /// Size of the IP packet carrying it: OLSR bytes + UDP header (8) + IPv4 header (20).
    /// The world adds its own link-layer header (ns-3's point-to-point device adds 2 bytes PPP).
    pub fn ip_bytes(&self) -> u32 {
        IP_UDP_HEADER_BYTES + self.olsr_bytes()
    }

    /// Sizes of the IP packets that carry it over a link with this `mtu`: the whole packet
    /// if it fits, else the IPv4 fragments ns-3's `Ipv4L3Protocol::DoFragmentation` cuts
    /// (each a 20-byte header plus (mtu − 20) rounded down to 8 bytes of the UDP datagram,
    /// the last one the rest). ns-3's OLSR packs up to 64 messages per packet, so flooding
    /// rounds do exceed 1500 bytes (e.g. around t = 10.5 s on the seed 004 grid).
    pub fn ip_fragment_sizes(&self, mtu: u32) -> impl Iterator<Item = u32> {
        const IPV4_HEADER: u32 = 20;
        assert!(
            mtu >= IPV4_HEADER + 8,
            "MTU {mtu} too small for IPv4 fragments"
        );
        let datagram = self.ip_bytes() - IPV4_HEADER;
        let chunk = if datagram + IPV4_HEADER <= mtu {
            datagram
        } else {
            (mtu - IPV4_HEADER) & !7
        };
        let count = datagram.div_ceil(chunk);
        (0..count).map(move |i| IPV4_HEADER + chunk.min(datagram - i * chunk))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emf_encodes_the_ns3_default_hold_times_exactly() {
        // HELLO vtime 6 s = C·(1+8/16)·2^6, TC/MID/HNA vtime 15 s = C·(1+14/16)·2^7.
        assert_eq!(seconds_to_emf(6.0), (8 << 4) | 6);
        assert_eq!(emf_to_seconds(seconds_to_emf(6.0)), 6.0);
        assert_eq!(emf_to_seconds(seconds_to_emf(15.0)), 15.0);
        assert_eq!(emf_to_seconds(seconds_to_emf(2.0)), 2.0);
        // 1.1 s is not representable: the nearest mantissa is chosen (C·(1+2/16)·2^4 = 1.125).
        assert_eq!(emf_to_seconds(seconds_to_emf(1.1)), 1.125);
        // Mantissa rounding up to 16 carries into the exponent: 3.99 s → 4 s.
        assert_eq!(emf_to_seconds(seconds_to_emf(3.99)), 4.0);
    }

    #[test]
    fn wire_sizes_follow_the_rfc_layout() {
        let hello = OlsrMessage {
            vtime: seconds_to_emf(6.0),
            originator: 1,
            ttl: 1,
            hop_count: 0,
            seq: 1,
            body: MessageBody::Hello(Hello {
                htime: seconds_to_emf(2.0),
                willingness: 3,
                links: vec![
                    LinkMessage {
                        link_code: 6,
                        neighbor_iface_addrs: vec![2],
                    },
                    LinkMessage {
                        link_code: 6,
                        neighbor_iface_addrs: vec![3, 4],
                    },
                ],
            }),
        };
        // 12 + 4 + (4+4) + (4+8) = 36.
        assert_eq!(hello.wire_bytes(), 36);
        let tc = OlsrMessage {
            body: MessageBody::Tc(Tc {
                ansn: 1,
                advertised: vec![5, 6, 7],
            }),
            ..hello.clone()
        };
        assert_eq!(tc.wire_bytes(), 12 + 4 + 12);
        let hna = OlsrMessage {
            body: MessageBody::Hna(Hna {
                networks: vec![(10, 0xffff_ff00)],
            }),
            ..hello.clone()
        };
        assert_eq!(hna.wire_bytes(), 12 + 8);
        let pkt = OlsrPacket {
            seq: 1,
            messages: vec![hello, tc, hna],
        };
        assert_eq!(pkt.olsr_bytes(), 4 + 36 + 28 + 20);
        assert_eq!(pkt.ip_bytes(), 28 + 4 + 36 + 28 + 20);
        assert_eq!(
            pkt.ip_fragment_sizes(1500).collect::<Vec<_>>(),
            vec![pkt.ip_bytes()]
        );
    }

    #[test]
    fn packets_above_the_mtu_are_cut_into_ipv4_fragments() {
        // 64 TCs with 4 addresses each: 4 + 64·32 = 2052 B of OLSR, a 2060 B UDP datagram.
        let tc = OlsrMessage {
            vtime: seconds_to_emf(15.0),
            originator: 1,
            ttl: 255,
            hop_count: 1,
            seq: 1,
            body: MessageBody::Tc(Tc {
                ansn: 1,
                advertised: vec![1, 2, 3, 4],
            }),
        };
        let pkt = OlsrPacket {
            seq: 1,
            messages: vec![tc; 64],
        };
        assert_eq!(pkt.ip_bytes(), 2080);
        // MTU 1500: 1480 B of datagram in the first fragment, 580 B in the second.
        assert_eq!(
            pkt.ip_fragment_sizes(1500).collect::<Vec<_>>(),
            vec![1500, 600]
        );
        // MTU 1006: (1006 − 20) & !7 = 984 B per fragment: 984 + 984 + 92.
        assert_eq!(
            pkt.ip_fragment_sizes(1006).collect::<Vec<_>>(),
            vec![1004, 1004, 112]
        );
        // Exactly fitting: no fragmentation.
        assert_eq!(pkt.ip_fragment_sizes(2080).collect::<Vec<_>>(), vec![2080]);
    }
}

//! Packets, the TCP segment header they carry, and how many bytes they occupy on the wire.
//!
//! Wire size follows ns-3.44 (what its point-to-point devices serialise):
//! PPP header 2 B + IPv4 header 20 B + TCP header 20 B + TCP options padded to a multiple
//! of 4 B (`TcpHeader::GetSerializedSize`). Options: timestamps 10 B on every segment once
//! negotiated; SACK 2 + 8·n B on ACKs that report n blocks; SYNs carry MSS (4), SACK-permitted
//! (2), window scale (3) and timestamps (10). A full data segment with MSS 1448 is therefore
//! 1448 + 12 + 20 + 20 + 2 = 1502 B on the wire.

/// Index of a node in the world.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NodeId(pub u32);

/// Index of a packet in the [`PacketArena`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PacketId(pub u32);

/// Bytes of IPv4 header.
pub const IPV4_HEADER_BYTES: u32 = 20;
/// Bytes of TCP header without options.
pub const TCP_HEADER_BYTES: u32 = 20;
/// Bytes of the timestamps option (RFC 7323).
pub const TS_OPTION_BYTES: u32 = 10;
/// Maximum TCP option space.
pub const MAX_OPTION_BYTES: u32 = 40;

pub use crate::sack_blocks::{SackBlocks, SackList};

/// TCP flags used by the model.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TcpFlags(pub u8);

impl TcpFlags {
    pub const SYN: u8 = 0x02;
    pub const ACK: u8 = 0x10;
    pub const FIN: u8 = 0x01;
    pub fn has(self, flag: u8) -> bool {
        self.0 & flag != 0
    }
}

/// The TCP header fields ccsim models. Sequence numbers are 64-bit byte offsets (no wrap).
///
/// `repr(C)`, in this order: every field a hop or an endpoint reads per segment (up to the
/// SACK block count) lies in the packet's first cache line (see [`Packet`]); the SACK
/// blocks themselves and the SYN-only options follow.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub struct TcpSegment {
    /// First payload byte (or the SYN's sequence number).
    pub seq: u64,
    /// Cumulative acknowledgement (next byte expected), valid with the ACK flag.
    pub ack: u64,
    /// Receive window advertised, in bytes.
    pub window: u64,
    /// Payload bytes.
    pub payload: u32,
    /// Timestamp value (in the sender's timestamp clock ticks), when timestamps are on.
    pub ts_val: u32,
    /// Timestamp echo reply.
    pub ts_ecr: u32,
    pub flags: TcpFlags,
    pub timestamps: bool,
    pub sack: SackBlocks,
    /// SYN options: SACK permitted.
    pub sack_permitted: bool,
    /// SYN options: maximum segment size (ns-3.44 never sends it; Linux always does).
    pub mss_option: bool,
    /// SYN options: window scale (RFC 7323 §2).
    pub wscale_option: bool,
    /// Set by the sender on retransmitted data (for probes only; not on the wire).
    pub retransmission: bool,
}

impl TcpSegment {
    /// TCP header bytes including options padded to 4 bytes.
    pub fn header_bytes(&self) -> u32 {
        let mut opts = 0;
        if self.timestamps {
            opts += TS_OPTION_BYTES;
        }
        if self.flags.has(TcpFlags::SYN) {
            if self.mss_option {
                opts += 4;
            }
            if self.wscale_option {
                opts += 3;
            }
            if self.sack_permitted {
                opts += 2;
            }
        }
        if !self.sack.is_empty() {
            opts += 2 + 8 * self.sack.len() as u32;
        }
        TCP_HEADER_BYTES + opts.div_ceil(4) * 4
    }

    /// IP packet size: IPv4 + TCP header + payload (excluding the link-layer header).
    pub fn ip_bytes(&self) -> u32 {
        IPV4_HEADER_BYTES + self.header_bytes() + self.payload
    }
}

/// The IPv4 header fields fragmentation uses (RFC 791 §3.1).
///
/// Packed (5 bytes, alignment 1) to fill the gap before [`Packet::tcp`]; read its fields by
/// value (a reference to a packed field is not allowed).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, packed)]
pub struct IpHeader {
    /// Offset of this fragment's payload in the original datagram's payload (bytes; a
    /// multiple of 8). 16 bits: an IPv4 datagram is at most 65,535 bytes (RFC 791's total
    /// length), and ccsim's are smaller still (MSS ≤ 65,000, UDP ≤ 1,500).
    pub frag_offset: u16,
    /// Identification: a 16-bit counter per (source, destination, protocol) that wraps.
    pub id: u16,
    /// More fragments follow (the MF flag).
    pub more_fragments: bool,
}

impl IpHeader {
    /// This packet is a fragment of a larger datagram.
    pub fn is_fragment(&self) -> bool {
        self.more_fragments || self.frag_offset > 0
    }
}

/// What a packet carries. The payload itself never lives in the packet: a TCP segment's header
/// is the `tcp` field, a UDP datagram is only its size, and a routing-control message lives in
/// the routing layer's slab (control packets may allocate; data packets never do).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(u8)]
pub enum Payload {
    /// A TCP segment of flow `Packet::flow`.
    #[default]
    Tcp,
    /// A UDP datagram of constant-bit-rate source `Packet::flow`.
    Udp,
    /// A routing-control message (OLSR): `Packet::flow` is its slot in the routing layer.
    Control,
}

/// IPv4 default TTL (ns-3 `Ipv4L3Protocol::DefaultTtl`, Linux `ip_default_ttl`).
pub const DEFAULT_TTL: u8 = 64;

/// A packet in flight: addressing plus the TCP segment it carries.
///
/// `repr(C)`, 112 bytes, laid out so that one cache line (the first 64 bytes; the arena
/// aligns its slots to 64) holds every field a hop and an endpoint read per packet: the
/// addressing, the IP size, the fragment flags, and the TCP fields up to the SACK block
/// count. The per-hop path is bound by the first touch of a packet that left the cache
/// (benches/README.md), so a packet read in one line instead of three saves misses.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub struct Packet {
    pub src: NodeId,
    pub dst: NodeId,
    /// Flow index (TCP or UDP, see `kind`), or the control message's slot;
    /// `to_receiver` tells which endpoint of a TCP flow it is addressed to.
    pub flow: u32,
    /// IP bytes (link layers add their own header when they transmit).
    pub ip_bytes: u32,
    pub kind: Payload,
    /// IPv4 time to live, decremented by every router that forwards the packet.
    pub ttl: u8,
    pub to_receiver: bool,
    pub ip: IpHeader,
    /// The TCP segment. Every fragment carries a copy; reassembly keeps the one of the
    /// fragment at offset 0, whose bytes hold the TCP header.
    pub tcp: TcpSegment,
}

/// An arena slot: a packet at the start of a cache line, so that its first line holds the
/// per-hop fields (see [`Packet`]).
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Slot(Packet);

/// Slab of packets with a free list: no heap allocation per packet in steady state.
#[derive(Default)]
pub struct PacketArena {
    slots: Vec<Slot>,
    free: Vec<u32>,
}

impl PacketArena {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn insert(&mut self, packet: Packet) -> PacketId {
        if let Some(i) = self.free.pop() {
            self.slots[i as usize] = Slot(packet);
            PacketId(i)
        } else {
            self.slots.push(Slot(packet));
            PacketId(self.slots.len() as u32 - 1)
        }
    }

    #[inline]
    pub fn get(&self, id: PacketId) -> &Packet {
        &self.slots[id.0 as usize].0
    }

    #[inline]
    pub fn get_mut(&mut self, id: PacketId) -> &mut Packet {
        &mut self.slots[id.0 as usize].0
    }

    /// Asks the CPU to bring packet `id`'s first cache line, the one a hop reads, into the
    /// cache ahead of its use (no effect on the result; see [`ccsim_core::prefetch`]).
    #[inline(always)]
    pub fn prefetch(&self, id: PacketId) {
        if let Some(p) = self.slots.get(id.0 as usize) {
            ccsim_core::prefetch::prefetch(&p.0.src);
        }
    }

    /// Releases the slot; the packet's contents are returned.
    pub fn remove(&mut self, id: PacketId) -> Packet {
        self.free.push(id.0);
        self.slots[id.0 as usize].0
    }

    /// Releases the slot without copying the packet out (read it in place before).
    #[inline]
    pub fn free(&mut self, id: PacketId) {
        self.free.push(id.0);
    }

    /// Packets currently alive.
    pub fn live(&self) -> usize {
        self.slots.len() - self.free.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_data_segment_is_1500_ip_bytes() {
        let seg = TcpSegment {
            payload: 1448,
            timestamps: true,
            flags: TcpFlags(TcpFlags::ACK),
            ..Default::default()
        };
        assert_eq!(seg.header_bytes(), 32);
        assert_eq!(seg.ip_bytes(), 1500);
    }

    #[test]
    fn sack_blocks_fit_next_to_timestamps() {
        assert_eq!(SackBlocks::max_blocks(TS_OPTION_BYTES), 3);
        assert_eq!(SackBlocks::max_blocks(0), 4);
        let mut seg = TcpSegment {
            timestamps: true,
            flags: TcpFlags(TcpFlags::ACK),
            ..Default::default()
        };
        seg.sack.push(10, 20);
        seg.sack.push(30, 40);
        seg.sack.push(50, 60);
        // 10 + 2 + 24 = 36 option bytes.
        assert_eq!(seg.header_bytes(), 56);
    }

    #[test]
    fn syn_option_bytes() {
        let ns3 = TcpSegment {
            timestamps: true,
            flags: TcpFlags(TcpFlags::SYN | TcpFlags::ACK),
            sack_permitted: true,
            wscale_option: true,
            ..Default::default()
        };
        // ns-3.44's SYN-ACK: TS 10 + WS 3 + SACK-permitted 2 = 15 -> 16 option bytes.
        assert_eq!(ns3.header_bytes(), 36);
        let linux = TcpSegment {
            mss_option: true,
            ..ns3
        };
        // + MSS 4 = 19 -> 20.
        assert_eq!(linux.header_bytes(), 40);
    }

    /// The layout that keeps a hop's reads in one cache line (see [`Packet`]): a field added
    /// or widened must not silently push them out of it.
    #[test]
    fn a_hop_reads_one_cache_line() {
        use std::mem::{offset_of, size_of};
        assert_eq!(size_of::<Packet>(), 112);
        assert_eq!(size_of::<Slot>(), 128);
        assert_eq!(std::mem::align_of::<Slot>(), 64);
        let tcp = offset_of!(Packet, tcp);
        let last_hot = [
            offset_of!(Packet, ip) + size_of::<IpHeader>() - 1,
            tcp + offset_of!(TcpSegment, seq) + 7,
            tcp + offset_of!(TcpSegment, ack) + 7,
            tcp + offset_of!(TcpSegment, window) + 7,
            tcp + offset_of!(TcpSegment, payload) + 3,
            tcp + offset_of!(TcpSegment, ts_val) + 3,
            tcp + offset_of!(TcpSegment, ts_ecr) + 3,
            tcp + offset_of!(TcpSegment, flags),
            tcp + offset_of!(TcpSegment, timestamps),
            // The block count, `SackBlocks`' first byte.
            tcp + offset_of!(TcpSegment, sack),
        ];
        assert!(last_hot.iter().all(|&b| b < 64), "{last_hot:?}");
    }

    /// A bare TCP packet for the arena tests.
    fn test_packet() -> Packet {
        Packet {
            src: NodeId(0),
            dst: NodeId(1),
            flow: 0,
            to_receiver: true,
            kind: Payload::Tcp,
            ttl: DEFAULT_TTL,
            ip_bytes: 40,
            ip: IpHeader::default(),
            tcp: TcpSegment::default(),
        }
    }

    #[test]
    fn arena_slots_start_cache_lines() {
        let mut a = PacketArena::new();
        let p = test_packet();
        for _ in 0..3 {
            let id = a.insert(p);
            assert_eq!(a.get(id) as *const Packet as usize % 64, 0);
        }
    }

    #[test]
    fn arena_reuses_slots() {
        let mut a = PacketArena::new();
        let p = test_packet();
        let x = a.insert(p);
        a.remove(x);
        let y = a.insert(p);
        assert_eq!(x, y);
        assert_eq!(a.live(), 1);
    }
}

//! IPv4 fragmentation and reassembly (RFC 791 §3.2), with the rules of ns-3's
//! `Ipv4L3Protocol` (`DoFragmentation`, `ProcessFragment` and its `Fragments` class).
//!
//! A datagram larger than a link's MTU leaves as fragments; each fragment is a packet of its
//! own on every later link and queue, and the destination reassembles them. Three ns-3 rules
//! shape what TCP sees when fragments are lost:
//!
//! - **Incomplete datagrams wait 30 s** (`FragmentExpirationTimeout`) before they are
//!   discarded, keyed by (source, destination, protocol, identification).
//! - **The identification is a 16-bit counter** per (source, destination, protocol), so it
//!   wraps every 65 536 datagrams; a new datagram with the key of an incomplete one joins it.
//! - **The first fragment at each offset wins** (`Fragments::GetPacket`: "We do not overwrite
//!   the old with the new"). A datagram that completes a stale set is therefore delivered
//!   with the stale datagram's first fragment, i.e. its TCP header: the receiver gets a
//!   segment it already has, and the new segment is lost. At line rate a lossy burst comes
//!   back as a second burst of losses one identification wrap later.
//!
//! Linux (RFC 4963 §4) avoids the last two with per-destination identifiers, a 64-datagram
//! disorder limit and overlap rejection; ns-3 models none of them.

use crate::packet::{NodeId, Packet, PacketArena, PacketId, IPV4_HEADER_BYTES};
use ccsim_core::Time;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Reassembly keys are simulator-made, not adversarial: a multiply-rotate hash (as rustc's
/// FxHasher) instead of SipHash, which took a sixth of a fragmented run's time.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u16(&mut self, n: u16) {
        self.write_u64(n as u64);
    }
    fn write_u32(&mut self, n: u32) {
        self.write_u64(n as u64);
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
}

type KeyMap<V> = HashMap<Key, V, BuildHasherDefault<KeyHasher>>;

/// ns-3's `Ipv4L3Protocol::FragmentExpirationTimeout` default.
pub const FRAGMENT_TIMEOUT: Time = Time::from_secs(30);

/// The fragments of `p` for a link whose IP MTU is `mtu` (ns-3 `DoFragmentation`): payloads
/// of `(mtu − 20)` rounded down to 8 bytes, the last one shorter; a fragment being
/// fragmented again keeps its offset and its MF flag on the last piece. `p` must be larger
/// than `mtu`, and `mtu` at least 28.
pub fn fragment(p: &Packet, mtu: u32, emit: impl FnMut(Packet)) {
    Fragments::new(*p, mtu).for_each(emit);
}

/// [`fragment`] as an iterator that owns its datagram, so that a caller can place each
/// fragment (into the packet arena, onto a link) before the next is made, with no buffer.
pub struct Fragments {
    whole: Packet,
    payload: u32,
    chunk: u32,
    /// Offset of the next fragment; `None` once the last one is out.
    offset: Option<u32>,
}

impl Fragments {
    pub fn new(whole: Packet, mtu: u32) -> Self {
        debug_assert!(whole.ip_bytes > mtu && mtu >= IPV4_HEADER_BYTES + 8);
        // The 16-bit offset field holds any offset within an IPv4 datagram (≤ 65,535 B).
        assert!(
            u32::from(whole.ip.frag_offset) + whole.ip_bytes <= u32::from(u16::MAX),
            "an IPv4 datagram of {} bytes: over IPv4's 65,535",
            whole.ip_bytes
        );
        Fragments {
            whole,
            payload: whole.ip_bytes - IPV4_HEADER_BYTES,
            chunk: (mtu - IPV4_HEADER_BYTES) & !7,
            offset: Some(0),
        }
    }
}

impl Iterator for Fragments {
    type Item = Packet;

    #[inline]
    fn next(&mut self) -> Option<Packet> {
        let offset = self.offset?;
        let more = self.payload > offset + self.chunk;
        let len = if more {
            self.chunk
        } else {
            self.payload - offset
        };
        let p = &self.whole;
        let mut f = *p;
        f.ip_bytes = IPV4_HEADER_BYTES + len;
        // In range: `new` checked the datagram's end.
        f.ip.frag_offset = p.ip.frag_offset + offset as u16;
        f.ip.more_fragments = more || p.ip.more_fragments;
        self.offset = more.then_some(offset + len);
        Some(f)
    }
}

/// One fragment waiting for the rest of its datagram.
#[derive(Clone, Copy, Debug)]
struct Piece {
    offset: u32,
    len: u32,
    packet: PacketId,
}

/// The fragments received under one key, in offset order; among equal offsets, in arrival
/// order.
#[derive(Debug, Default)]
struct FragmentSet {
    created: Time,
    pieces: Vec<Piece>,
    /// MF flag of the piece with the highest offset (ns-3 `m_moreFragment`).
    more: bool,
}

impl FragmentSet {
    /// An empty set on `pieces` (an emptied list, reused).
    fn new(pieces: Vec<Piece>) -> Self {
        FragmentSet {
            created: Time::ZERO,
            pieces,
            more: true,
        }
    }

    /// ns-3 `Fragments::AddFragment`: after every piece at the same or a lower offset.
    fn add(&mut self, piece: Piece, more: bool) {
        // An in-order arrival (the usual case) goes at the end; else, pieces being sorted by
        // offset, before the first one above it.
        if self.pieces.last().is_none_or(|q| q.offset <= piece.offset) {
            self.more = more;
            self.pieces.push(piece);
            return;
        }
        let at = self.pieces.partition_point(|q| q.offset <= piece.offset);
        self.pieces.insert(at, piece);
    }

    /// ns-3 `Fragments::IsEntire`: the last piece is in and there is no gap.
    fn is_entire(&self) -> bool {
        if self.more || self.pieces.is_empty() {
            return false;
        }
        let mut end = 0;
        for q in &self.pieces {
            if end < q.offset {
                return false;
            }
            end = end.max(q.offset + q.len);
        }
        true
    }

    /// Payload bytes of the reassembled datagram: the pieces joined without overlap.
    fn payload_len(&self) -> u32 {
        self.pieces
            .iter()
            .map(|q| q.offset + q.len)
            .max()
            .unwrap_or(0)
    }
}

/// Counters of a [`Reassembly`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReassemblyStats {
    /// Datagrams delivered whole.
    pub datagrams: u64,
    /// Of those, delivered with the header of an older datagram that had the same
    /// identification (a stale set completed by a new datagram).
    pub stale: u64,
    /// Incomplete sets discarded after [`FRAGMENT_TIMEOUT`].
    pub expired: u64,
}

/// ns-3's reassembly key: (source, destination, identification); one protocol (TCP).
type Key = (NodeId, NodeId, u16);

/// Reassembly buffers of every destination, keyed as ns-3 keys them.
///
/// The set that took the last fragment is kept apart from the map (`open`, under
/// `open_key`): a datagram's fragments usually arrive one after another, so each of them
/// finds its set there without hashing, and a set completed there never enters the map (three
/// map operations per fragment were most of reassembly's ~240 instructions per fragment on
/// seed 002). Which of the two holds a set changes nothing else: a key is in at most one of
/// them. The open set stays in place when it completes (its piece list is reused for the next
/// datagram), so the common path moves no set around.
#[derive(Default)]
pub struct Reassembly {
    sets: KeyMap<FragmentSet>,
    /// The open set's key; with `None`, `open` is empty and unused.
    open_key: Option<Key>,
    open: FragmentSet,
    /// Emptied piece lists, reused so that steady state allocates nothing.
    spare: Vec<Vec<Piece>>,
    pub stats: ReassemblyStats,
}

impl Reassembly {
    pub fn new() -> Self {
        Self::default()
    }

    /// Incomplete datagrams held now.
    pub fn pending(&self) -> usize {
        self.sets.len() + usize::from(self.open_key.is_some())
    }

    /// Makes `key`'s set, if there is one, the open set (parking the open one in the map).
    #[inline]
    fn open(&mut self, key: Key) {
        if self.open_key == Some(key) {
            return;
        }
        if let Some(k) = self.open_key.take() {
            let empty = FragmentSet::new(self.spare.pop().unwrap_or_default());
            self.sets
                .insert(k, std::mem::replace(&mut self.open, empty));
        }
        if !self.sets.is_empty() {
            if let Some(set) = self.sets.remove(&key) {
                let empty = std::mem::replace(&mut self.open, set);
                self.spare.push(empty.pieces);
                self.open_key = Some(key);
            }
        }
    }

    /// Takes the fragment `id` (still in `arena`) at its destination. Returns the datagram
    /// it completes, or `None` while fragments are missing. Every fragment of a completed or
    /// expired set is removed from `arena`.
    #[inline]
    pub fn add(&mut self, now: Time, id: PacketId, arena: &mut PacketArena) -> Option<Packet> {
        let p = arena.get(id);
        let key = (p.src, p.dst, p.ip.id);
        let piece = Piece {
            offset: u32::from(p.ip.frag_offset),
            len: p.ip_bytes - IPV4_HEADER_BYTES,
            packet: id,
        };
        // The usual case, inline: the next fragment of the open set, in order and not the
        // last (so the set cannot be entire). What `add_slow` would do with it, minus the
        // checks that cannot fire.
        if p.ip.more_fragments
            && self.open_key == Some(key)
            && now < self.open.created + FRAGMENT_TIMEOUT
            && self
                .open
                .pieces
                .last()
                .is_some_and(|q| q.offset <= piece.offset)
        {
            self.open.more = true;
            self.open.pieces.push(piece);
            return None;
        }
        self.add_slow(now, key, piece, arena)
    }

    /// [`Reassembly::add`] in every case.
    #[inline(never)]
    fn add_slow(
        &mut self,
        now: Time,
        key: Key,
        piece: Piece,
        arena: &mut PacketArena,
    ) -> Option<Packet> {
        let p = arena.get(piece.packet);
        let more = p.ip.more_fragments;
        let (seq, ts) = (p.tcp.seq, p.tcp.ts_val);
        self.open(key);
        if self.open_key.is_some() && now >= self.open.created + FRAGMENT_TIMEOUT {
            self.stats.expired += 1;
            self.release_open(arena);
        }
        if self.open_key.is_none() {
            self.open_key = Some(key);
            self.open.created = now;
            self.open.more = true;
        }
        let set = &mut self.open;
        set.add(piece, more);
        if !set.is_entire() {
            return None;
        }
        let head = *arena.get(set.pieces[0].packet);
        let payload = set.payload_len();
        let mut whole = head;
        whole.ip_bytes = IPV4_HEADER_BYTES + payload;
        whole.ip.frag_offset = 0;
        whole.ip.more_fragments = false;
        whole.tcp.payload = payload.saturating_sub(head.tcp.header_bytes());
        self.stats.datagrams += 1;
        // The completing fragment belongs to the datagram just sent; a head from another one
        // (another sequence number or send time) is a stale set's.
        if (head.tcp.seq, head.tcp.ts_val) != (seq, ts) {
            self.stats.stale += 1;
        }
        self.release_open(arena);
        Some(whole)
    }

    /// Frees the open set's fragments and closes it (its piece list stays for the next).
    fn release_open(&mut self, arena: &mut PacketArena) {
        for q in self.open.pieces.drain(..) {
            arena.free(q.packet);
        }
        self.open_key = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::{IpHeader, TcpFlags, TcpSegment};

    /// A 10 kB data segment: 10 000 B payload + 32 B TCP header (timestamps) + 20 B IP.
    fn segment(seq: u64, id: u16) -> Packet {
        Packet {
            src: NodeId(0),
            dst: NodeId(1),
            flow: 0,
            to_receiver: true,
            kind: crate::packet::Payload::Tcp,
            ttl: crate::packet::DEFAULT_TTL,
            ip_bytes: 10_052,
            ip: IpHeader {
                id,
                ..Default::default()
            },
            tcp: TcpSegment {
                flags: TcpFlags(TcpFlags::ACK),
                seq,
                payload: 10_000,
                timestamps: true,
                ..Default::default()
            },
        }
    }

    fn fragments(p: &Packet, mtu: u32) -> Vec<Packet> {
        let mut v = Vec::new();
        fragment(p, mtu, |f| v.push(f));
        v
    }

    #[test]
    fn ten_kilobytes_at_mtu_1500_make_seven_fragments() {
        let f = fragments(&segment(0, 7), 1500);
        let sizes: Vec<u32> = f.iter().map(|f| f.ip_bytes).collect();
        // 10 032 B of IP payload: six 1480 B pieces and 1152 B.
        assert_eq!(sizes, [1500, 1500, 1500, 1500, 1500, 1500, 1172]);
        let offsets: Vec<u16> = f.iter().map(|f| f.ip.frag_offset).collect();
        assert_eq!(offsets, [0, 1480, 2960, 4440, 5920, 7400, 8880]);
        assert!(f[..6].iter().all(|f| f.ip.more_fragments));
        assert!(!f[6].ip.more_fragments);
        assert!(f.iter().all(|f| f.ip.id == 7 && f.ip.is_fragment()));
    }

    #[test]
    fn payload_per_fragment_is_a_multiple_of_eight() {
        // MTU 1006: 986 B rounds down to 984.
        let f = fragments(&segment(0, 0), 1006);
        assert_eq!(f[0].ip_bytes, 1004);
        assert_eq!({ f[1].ip.frag_offset }, 984);
    }

    #[test]
    fn refragmenting_a_fragment_keeps_offset_and_mf() {
        let first = fragments(&segment(0, 0), 1500)[0];
        let f = fragments(&first, 600);
        let offsets: Vec<u16> = f.iter().map(|f| f.ip.frag_offset).collect();
        assert_eq!(offsets, [0, 576, 1152]);
        // The original fragment had MF set, so its last piece keeps it.
        assert!(f.iter().all(|f| f.ip.more_fragments));
    }

    fn arrive(r: &mut Reassembly, a: &mut PacketArena, now: Time, f: Packet) -> Option<Packet> {
        let id = a.insert(f);
        r.add(now, id, a)
    }

    #[test]
    fn reassembles_in_any_order_and_frees_every_fragment() {
        let mut a = PacketArena::new();
        let mut r = Reassembly::new();
        let mut f = fragments(&segment(5000, 1), 1500);
        f.swap(0, 6);
        f.swap(2, 4);
        let mut out = None;
        for (i, x) in f.into_iter().enumerate() {
            out = arrive(&mut r, &mut a, Time::ZERO, x);
            assert_eq!(out.is_some(), i == 6);
        }
        let p = out.unwrap();
        assert_eq!(
            (p.ip_bytes, p.tcp.seq, p.tcp.payload),
            (10_052, 5000, 10_000)
        );
        assert!(!p.ip.is_fragment());
        assert_eq!(a.live(), 0);
        assert_eq!(r.pending(), 0);
        assert_eq!(r.stats.datagrams, 1);
        assert_eq!(r.stats.stale, 0);
    }

    #[test]
    fn missing_fragment_leaves_the_datagram_pending() {
        let mut a = PacketArena::new();
        let mut r = Reassembly::new();
        let f = fragments(&segment(0, 1), 1500);
        for x in f.iter().filter(|x| x.ip.frag_offset != 4440) {
            assert!(arrive(&mut r, &mut a, Time::ZERO, *x).is_none());
        }
        assert_eq!(r.pending(), 1);
        assert_eq!(a.live(), 6);
    }

    #[test]
    fn identification_wrap_delivers_the_stale_header() {
        // Datagram A (seq 0) loses its tail; 65 536 datagrams later B (seq 999 990 000)
        // reuses the identification. B completes A's set, and ns-3 keeps A's first fragment:
        // the receiver gets seq 0 again and B's data is gone.
        let mut a = PacketArena::new();
        let mut r = Reassembly::new();
        for x in &fragments(&segment(0, 42), 1500)[..4] {
            assert!(arrive(&mut r, &mut a, Time::ZERO, *x).is_none());
        }
        let later = Time::from_secs(4);
        let b = fragments(&segment(999_990_000, 42), 1500);
        let mut out = None;
        for (i, x) in b.into_iter().enumerate() {
            out = arrive(&mut r, &mut a, later, x);
            assert_eq!(out.is_some(), i == 6, "fragment {i}");
        }
        let p = out.unwrap();
        assert_eq!(p.tcp.seq, 0);
        assert_eq!(p.ip_bytes, 10_052);
        assert_eq!(r.stats.stale, 1);
        assert_eq!(a.live(), 0);
    }

    #[test]
    fn stale_set_without_its_first_fragment_does_not_hide_the_new_header() {
        let mut a = PacketArena::new();
        let mut r = Reassembly::new();
        for x in &fragments(&segment(0, 42), 1500)[3..5] {
            arrive(&mut r, &mut a, Time::ZERO, *x);
        }
        let mut out = None;
        for x in fragments(&segment(777, 42), 1500) {
            out = arrive(&mut r, &mut a, Time::from_secs(1), x);
        }
        assert_eq!(out.unwrap().tcp.seq, 777);
        // The right header arrived: not counted as stale, though old pieces filled the middle.
        assert_eq!(r.stats.stale, 0);
    }

    #[test]
    fn incomplete_sets_expire_after_thirty_seconds() {
        let mut a = PacketArena::new();
        let mut r = Reassembly::new();
        for x in &fragments(&segment(0, 42), 1500)[..4] {
            arrive(&mut r, &mut a, Time::ZERO, *x);
        }
        let mut out = None;
        for x in fragments(&segment(777, 42), 1500) {
            out = arrive(&mut r, &mut a, FRAGMENT_TIMEOUT, x);
        }
        assert_eq!(out.unwrap().tcp.seq, 777);
        assert_eq!(r.stats.expired, 1);
        assert_eq!(r.stats.stale, 0);
        assert_eq!(a.live(), 0);
    }

    /// Two datagrams whose fragments alternate: each set moves between the open slot and the
    /// map at every fragment, and both complete with their own headers.
    #[test]
    fn interleaved_datagrams_reassemble_separately() {
        let mut a = PacketArena::new();
        let mut r = Reassembly::new();
        let x = fragments(&segment(0, 1), 1500);
        let y = fragments(&segment(10_000, 2), 1500);
        let mut done = vec![];
        for (i, (fx, fy)) in x.into_iter().zip(y).enumerate() {
            for f in [fx, fy] {
                if let Some(p) = arrive(&mut r, &mut a, Time::ZERO, f) {
                    done.push(p.tcp.seq);
                }
            }
            assert_eq!(r.pending(), if i < 6 { 2 } else { 0 }, "after pair {i}");
        }
        assert_eq!(done, [0, 10_000]);
        assert_eq!(r.stats.datagrams, 2);
        assert_eq!(a.live(), 0);
    }
}

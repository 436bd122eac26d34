//! The world's events: plain enum values in one [`ccsim_core::EventQueue`], ties in FIFO order.

use ccsim_core::{EventBits, Time};
use ccsim_net::{LinkId, NodeId, PacketId};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    FlowStart(u32),
    /// The flow's application source writes its next chunk.
    AppWrite(u32),
    /// The link finished serialising a packet and has a queue to drain.
    TxDone(LinkId),
    /// The first packet in flight on a link reaches its far end (the link's delay line). The
    /// event carries the packet, so the handler reads it without waiting for the line's slot
    /// (a dependent load that missed the cache: benches/README.md). The link must be below
    /// [`MAX_LINKS`] (its bits in the queue's encoding).
    Arrive(LinkId, PacketId),
    SenderTimer(u32),
    ReceiverTimer(u32),
    LinkChange(u32),
    Sample,
    /// A radio component's deadline: 0 = the RAN, k ≥ 1 = trace link k − 1.
    Radio(u32),
    /// A packet reaches a node without a link (a radio delivery or an uplink arrival). The
    /// node must be below [`MAX_ARRIVE_AT_NODES`] (its bits in the queue's encoding).
    ArriveAt(NodeId, PacketId),
    /// The first packet on the radio side's delivery line `k` reaches its node
    /// ([`crate::RadioPort::arrive`]).
    RadioArrive(u32),
    /// Vertical handover event `i` starts its outage.
    VerticalHandover(u32),
    /// Routing-protocol timer of mesh router `r` (OLSR HELLO/TC emission, hold-time expiry).
    RoutingTimer(u32),
    /// UDP constant-bit-rate source `u` sends its next datagram.
    UdpSend(u32),
    /// Checks whether the routing protocol has converged (every 10 ms until it has).
    ConvergenceCheck,
}

/// `ArriveAt`'s node has 24 bits in [`Event::to_bits`] (the tag 8, the packet 32).
pub const MAX_ARRIVE_AT_NODES: u32 = 1 << 24;

/// `Arrive`'s link has 24 bits in [`Event::to_bits`] (the tag 8, the packet 32);
/// [`crate::World::new`] refuses more links.
pub const MAX_LINKS: u32 = 1 << 24;

/// The queue stores each event as one `u64` (see [`EventBits`] for why): the variant's index in
/// the low byte, its `u32` payload in the high half (the packet, for `Arrive` and
/// `ArriveAt`); `Arrive`'s link and `ArriveAt`'s node in bits 8–31. Each
/// variant keeps its declaration index, so decoding the tag is the identity and the dispatch's
/// `match` can switch on the low byte directly.
impl EventBits for Event {
    #[inline(always)]
    fn to_bits(self) -> u64 {
        let (tag, low, payload): (u64, u32, u32) = match self {
            Event::FlowStart(f) => (0, 0, f),
            Event::AppWrite(f) => (1, 0, f),
            Event::TxDone(l) => (2, 0, l.0),
            Event::Arrive(l, p) => {
                // World::new checks the link count once; this is the per-packet path.
                debug_assert!(l.0 < MAX_LINKS, "link {} beyond {MAX_LINKS}", l.0);
                (3, l.0, p.0)
            }
            Event::SenderTimer(f) => (4, 0, f),
            Event::ReceiverTimer(f) => (5, 0, f),
            Event::LinkChange(i) => (6, 0, i),
            Event::Sample => (7, 0, 0),
            Event::Radio(k) => (8, 0, k),
            Event::ArriveAt(node, p) => {
                assert!(
                    node.0 < MAX_ARRIVE_AT_NODES,
                    "node {} too large for an ArriveAt event (at most {})",
                    node.0,
                    MAX_ARRIVE_AT_NODES - 1
                );
                (9, node.0, p.0)
            }
            Event::RadioArrive(k) => (10, 0, k),
            Event::VerticalHandover(i) => (11, 0, i),
            Event::RoutingTimer(r) => (12, 0, r),
            Event::UdpSend(u) => (13, 0, u),
            Event::ConvergenceCheck => (14, 0, 0),
        };
        tag | u64::from(low) << 8 | u64::from(payload) << 32
    }

    #[inline(always)]
    fn from_bits(bits: u64) -> Self {
        let payload = (bits >> 32) as u32;
        match bits as u8 {
            0 => Event::FlowStart(payload),
            1 => Event::AppWrite(payload),
            2 => Event::TxDone(LinkId(payload)),
            3 => Event::Arrive(LinkId((bits as u32) >> 8), PacketId(payload)),
            4 => Event::SenderTimer(payload),
            5 => Event::ReceiverTimer(payload),
            6 => Event::LinkChange(payload),
            7 => Event::Sample,
            8 => Event::Radio(payload),
            9 => Event::ArriveAt(NodeId((bits as u32) >> 8), PacketId(payload)),
            10 => Event::RadioArrive(payload),
            11 => Event::VerticalHandover(payload),
            12 => Event::RoutingTimer(payload),
            13 => Event::UdpSend(payload),
            14 => Event::ConvergenceCheck,
            tag => unreachable!("event tag {tag} was never encoded"),
        }
    }
}

/// A scheduled change of a link's rate and/or delay.
#[derive(Clone, Copy, Debug)]
pub struct LinkChange {
    pub at: Time,
    pub link: LinkId,
    pub rate_bps: Option<u64>,
    pub delay: Option<Time>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every variant comes back from its bits, with payloads at the widths' extremes.
    #[test]
    fn every_event_round_trips_through_its_bits() {
        let max_node = MAX_ARRIVE_AT_NODES - 1;
        let mut all = vec![Event::Sample, Event::ConvergenceCheck];
        for x in [0, 1, 0x8000_0001, u32::MAX] {
            all.extend([
                Event::FlowStart(x),
                Event::AppWrite(x),
                Event::TxDone(LinkId(x)),
                Event::Arrive(LinkId(x % MAX_LINKS), PacketId(x)),
                Event::Arrive(LinkId(MAX_LINKS - 1), PacketId(x)),
                Event::SenderTimer(x),
                Event::ReceiverTimer(x),
                Event::LinkChange(x),
                Event::Radio(x),
                Event::ArriveAt(NodeId(x % MAX_ARRIVE_AT_NODES), PacketId(x)),
                Event::ArriveAt(NodeId(max_node), PacketId(x)),
                Event::RadioArrive(x),
                Event::VerticalHandover(x),
                Event::RoutingTimer(x),
                Event::UdpSend(x),
            ]);
        }
        for e in all {
            assert_eq!(Event::from_bits(e.to_bits()), e, "{e:?}");
        }
    }

    /// The tag is the variant's declaration index (what lets decoding be the identity), and
    /// different events never share bits.
    #[test]
    fn tags_follow_the_declaration_order_and_bits_are_distinct() {
        let one_each = [
            Event::FlowStart(7),
            Event::AppWrite(7),
            Event::TxDone(LinkId(7)),
            Event::Arrive(LinkId(7), PacketId(7)),
            Event::SenderTimer(7),
            Event::ReceiverTimer(7),
            Event::LinkChange(7),
            Event::Sample,
            Event::Radio(7),
            Event::ArriveAt(NodeId(7), PacketId(7)),
            Event::RadioArrive(7),
            Event::VerticalHandover(7),
            Event::RoutingTimer(7),
            Event::UdpSend(7),
            Event::ConvergenceCheck,
        ];
        for (i, e) in one_each.iter().enumerate() {
            assert_eq!(e.to_bits() & 0xff, i as u64, "{e:?}");
        }
        let mut bits: Vec<u64> = one_each.iter().map(|e| e.to_bits()).collect();
        bits.sort_unstable();
        bits.dedup();
        assert_eq!(bits.len(), one_each.len());
    }

    #[test]
    #[should_panic(expected = "too large for an ArriveAt event")]
    fn a_node_beyond_24_bits_is_refused() {
        Event::ArriveAt(NodeId(MAX_ARRIVE_AT_NODES), PacketId(0)).to_bits();
    }
}

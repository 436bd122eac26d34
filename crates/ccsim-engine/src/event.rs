//! The world's events: plain enum values in one [`ccsim_core::EventQueue`], ties in FIFO order.

use ccsim_core::Time;
use ccsim_net::{LinkId, NodeId, PacketId};

#[derive(Clone, Copy, Debug)]
pub enum Event {
    FlowStart(u32),
    /// The flow's application source writes its next chunk.
    AppWrite(u32),
    /// The link finished serialising a packet and has a queue to drain.
    TxDone(LinkId),
    /// The first packet in flight on a link reaches its far end (the link's delay line).
    Arrive(LinkId),
    SenderTimer(u32),
    ReceiverTimer(u32),
    LinkChange(u32),
    Sample,
    /// A radio component's deadline: 0 = the RAN, k ≥ 1 = trace link k − 1.
    Radio(u32),
    /// A packet reaches a node without a link (a radio delivery or an uplink arrival).
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

/// A scheduled change of a link's rate and/or delay.
#[derive(Clone, Copy, Debug)]
pub struct LinkChange {
    pub at: Time,
    pub link: LinkId,
    pub rate_bps: Option<u64>,
    pub delay: Option<Time>,
}

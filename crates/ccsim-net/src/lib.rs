//! ccsim-net: what carries packets between nodes.
//!
//! - [`packet`]: the packet arena and the TCP header a packet carries, with its wire size.
//! - [`fragment`]: IPv4 fragmentation at a link's MTU and reassembly at the destination.
//! - [`link`]: a one-way point-to-point channel (rate, propagation delay) with its queue, and
//!   its transmission steps (offer, begin and end of serialisation).
//! - [`queue`]: drop-tail FIFO limited in packets or bytes.
//! - [`routing`]: static next-hop tables.
//! - [`sack_blocks`]: the SACK option's blocks, packed into the packet.

pub mod fragment;
pub mod link;
pub mod packet;
pub mod queue;
pub mod routing;
pub mod sack_blocks;

pub use fragment::{Reassembly, ReassemblyStats};
pub use link::{Link, LinkId, Offer};
pub use packet::{
    IpHeader, NodeId, Packet, PacketArena, PacketId, Payload, SackBlocks, SackList, TcpFlags,
    TcpSegment, DEFAULT_TTL, TS_OPTION_BYTES,
};
pub use queue::{DropTailQueue, QueueLimit};
pub use routing::RoutingTable;

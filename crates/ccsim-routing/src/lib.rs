//! Routing protocols for multi-hop topologies (seed 004's wireless mesh backhaul).
//!
//! Each protocol is a state machine per router that the world drives: it is told about
//! packets it receives and timers that fire, and returns the control packets it sends and the
//! next hop for a destination. It knows nothing of links, queues or TCP.

pub mod backpressure;
pub mod olsr;

//! ccsim-engine: the world, its events and the dispatch loop.
//!
//! ```text
//! builder (ccsim-scenario) ──> World<Parts> ──run_until──> events, one at a time:
//!   TCP endpoints (ccsim-tcp) ⇄ packets (ccsim-net arena) ⇄ links (ccsim-net transmission)
//!   routing: static table, or a RoutingProtocol (mesh routers)   radio: a RadioPort
//!   probes: Probe hooks (samples, segments sent, queue drops, ACKs) ──> tables, traces
//! ```
//!
//! - [`event`]: the [`Event`] enum and scheduled link changes;
//! - [`world`]: the [`World`] and its dispatch loop;
//! - [`flow`], [`flow_metrics`], [`rtt_stats`]: a TCP flow and what is measured of it;
//! - [`app`], [`udp`]: traffic sources (rate-limited/on-off TCP writes, UDP constant bit rate);
//! - [`routing`]: the per-packet routing decision, drop causes, the [`RoutingProtocol`]
//!   interface;
//! - [`radio`]: the [`RadioPort`] interface;
//! - [`probe`]: the [`Probe`] interface;
//! - [`parts`]: the three chosen together as a world's [`Parts`].

pub mod app;
pub mod event;
pub mod flow;
pub mod flow_metrics;
pub mod parts;
pub mod probe;
pub mod radio;
pub mod routing;
pub mod rtt_stats;
pub mod udp;
pub mod world;

pub use event::{Event, LinkChange};
pub use flow::Flow;
pub use flow_metrics::FlowMetrics;
pub use parts::{Parts, Plain};
pub use probe::{NoProbe, Probe};
pub use radio::{NoRadio, RadioPort};
pub use routing::{
    ControlOut, DropCause, NoRouting, NodeCounters, Route, Routing, RoutingProtocol,
};
pub use world::World;

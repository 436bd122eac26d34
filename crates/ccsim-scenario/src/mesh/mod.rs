//! Seed 004's system: LTE small cells behind a routed wireless mesh backhaul.
//!
//! ```text
//! [mesh] table ──config──> MeshConfig ──topology──> nodes, links, routers (grid / Modena)
//!            ──build──> World + MeshRouting (static | OLSR | BP-MR per packet/flow/burst)
//!                       + UDP CBR sources ──run──> Summary.mesh (finish times, RTT, JFI, …)
//! ```
//! See `docs/mesh.md` and `docs/architecture.md`.

pub mod bp;
pub mod build;
pub mod config;
pub mod lte;
pub mod olsr_glue;
mod port;
pub mod routing;
pub mod summary;
pub mod topology;
pub use ccsim_engine::udp;

pub use config::MeshConfig;
pub use routing::{ControlOut, MeshRouter, MeshRouting, Port, Protocol};

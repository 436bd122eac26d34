//! ccsim-radio: slot-level radio access models for TCP studies over volatile mobile links.
//!
//! Not a PHY: the models keep what TCP sees — capacity that follows SINR, buffers that fill,
//! HARQ/RLC retransmissions that add delay, handovers that interrupt service — and are sans-IO
//! like the TCP endpoints: no component reads a clock, each takes `now` and reports its next
//! deadline, so the world's event loop can drive them with one event per deadline.
//!
//! | module | job |
//! |---|---|
//! | [`geometry`] | points, obstacle polygons with heights, segment–polygon tests, LOS |
//! | [`mobility`] | waypoint paths, exact LOS/NLOS timelines |
//! | [`pathloss`] | TR 38.901 UMi/UMa, Okumura–Hata/COST-231, free space, shadowing |
//! | [`sinr`] | link budget, thermal noise, SINR with interference |
//! | [`amc`] | TS 38.214 CQI tables, capped Shannon, numerology → bytes per slot |
//! | [`rlc`] | RLC buffer (drop-tail), HARQ/ARQ delay and residual loss |
//! | [`harq_processes`] | per-UE HARQ processes and their feedback, as ns3-mmwave's scheduler |
//! | [`rlc_am`] | RLC AM: unacknowledged SDUs forwarded at handover; a full AM entity |
//! | [`rlc_held`] | delay model: the UE's reception buffer above a hole, discarded at handover |
//! | [`scheduler`] | round robin and proportional fair per slot, Jain's index |
//! | [`handover`] | fixed/dynamic TTT, outage, vertical handover outage |
//! | [`trace`] | Mahimahi traces: parse, loop, generate, convert, trace-driven link |
//! | [`cell`] | one sans-IO downlink cell |
//! | [`ran`] | the network of cells, UEs and obstacles the world drives |
//! | [`scenarios`] | the seed papers' geometries as fixtures |
//!
//! Every formula names its source in the module docs; the crate README lists them all with
//! the defaults and the integration contract.

pub mod am_link;
pub mod amc;
pub mod cell;
pub mod cell_config;
pub mod fading;
pub mod geometry;
pub mod handover;
pub mod harq_processes;
pub mod link_adaptation;
pub mod mcs_choice;
pub mod mobility;
pub mod pathloss;
pub mod ran;
pub mod rlc;
pub mod rlc_am;
pub mod rlc_am_segments;
pub mod rlc_held;
pub mod rlc_trace;
pub mod scenarios;
pub mod scheduler;
pub mod sinr;
pub mod trace;
pub mod vertical_recovery;

pub use cell::{Admission, Cell, CellConfig, CellCounters, Delivery, LossReason, Outcome};
pub use geometry::{Obstacle, Point2, Point3, Polygon};
pub use mobility::{los_timeline, nlos_intervals, LosInterval, MobilityConfig, WaypointPath};
pub use ran::{RadioConfig, RadioNetwork, Technology};

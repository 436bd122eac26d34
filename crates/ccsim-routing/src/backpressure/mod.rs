//! BP-MR: backpressure routing for the multi-radio backhaul of small cells (Núñez-Martínez,
//! Baranda, Mangues-Bafalluy, WMNC 2015), per packet, per flow and per burst (seed 004 §2.1).
//!
//! What is modelled follows the authors' ns-3 module (`src/backpressure/` in
//! kyuucr/ns-3-dev-git-1, `backpressure-state.cc`, `FindNextHopBackpressureCentralized`; read
//! to understand, not copied), in its **centralized** variant: a router reads its neighbours'
//! backlogs directly instead of from HELLOs. That is the variant the authors' per-flow code
//! (`BACKPRESSURE_CENTRALIZED_FLOW`) exists for, so per-packet and per-flow differ only in
//! the granularity of the decision; it also sends no control traffic, so BP-MR's overhead in
//! ccsim is zero (the distributed variant's HELLOs every 0.1 s are not modelled).
//!
//! - [`next_hop`]: the weight `(Q_i − Q_j − V·p_ij) · r_ij` over live neighbours, geographic
//!   penalty `p_ij`, variable `V`, the destination-neighbour rule, ties broken at random.
//! - [`FlowTable`]: the per-flow (and per-burst) memory of a decision.

mod flow_table;
mod weight;

pub use flow_table::{FlowTable, Granularity};
pub use weight::{next_hop, penalty, variable_v, Choice, Here, Neighbour};

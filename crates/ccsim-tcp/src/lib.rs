//! ccsim-tcp: TCP endpoints as sans-IO state machines (after smoltcp): they never read a
//! clock, take `now` as input, hand out segments through `poll_transmit`, and report when
//! their next timer is due through `next_timer`. The world moves the segments.
//!
//! Behaviour follows ns-3.44 `TcpSocketBase` (the papers' reference) by default; every rule
//! cites its RFC section next to the code. The sender is split by job under `sender/`; the
//! application above it (ns-3's BulkSend writes) is [`app`]. docs/architecture.md has the map.

pub mod app;
pub mod config;
pub mod rate;
pub mod receiver;
pub mod recovery;
pub mod rtt;
pub mod scoreboard;
pub mod sender;

pub use config::{RecoveryAlgorithm, TcpConfig, TcpProfile};
pub use receiver::TcpReceiver;
pub use sender::{SenderStats, TcpSender};

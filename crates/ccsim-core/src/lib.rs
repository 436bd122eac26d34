//! ccsim-core: the deterministic discrete-event engine pieces every other crate shares.
//!
//! - [`Time`]: simulated time as integer nanoseconds (never a float, never the wall clock).
//! - [`EventQueue`]: a priority queue ordered by (time, insertion sequence), so that events
//!   scheduled for the same instant run in the order they were scheduled, on every machine.
//! - [`DelayLine`]: packets in flight on a fixed-delay path share one queue event.
//! - [`RngStream`]: named, seeded random streams; adding a consumer never shifts another's draws.

pub mod delay_line;
pub mod event_queue;
pub mod rng;
pub mod time;

pub use delay_line::DelayLine;
pub use event_queue::{EventQueue, Seq};
pub use rng::RngStream;
pub use time::Time;

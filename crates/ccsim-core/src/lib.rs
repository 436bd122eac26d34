//! ccsim-core: the deterministic discrete-event engine pieces every other crate shares.
//!
//! - [`Time`]: simulated time as integer nanoseconds (never a float, never the wall clock).
//! - [`EventQueue`]: a priority queue ordered by (time, insertion sequence), so that events
//!   scheduled for the same instant run in the order they were scheduled, on every machine.
//! - [`DelayLine`]: packets in flight on a fixed-delay path share one queue event.
//! - [`RngStream`]: named, seeded random streams; adding a consumer never shifts another's draws.
//! - [`Mrg32k3a`]: ns-3's generator and stream layout, for draws that must equal ns-3's.

pub mod columns;
pub mod delay_line;
pub mod event_bits;
pub mod event_queue;
pub mod mrg32k3a;
pub mod prefetch;
pub mod quad_heap;
pub mod ring;
pub mod rng;
pub mod time;

pub use delay_line::DelayLine;
pub use event_bits::EventBits;
pub use event_queue::{EventQueue, Seq};
pub use mrg32k3a::Mrg32k3a;
pub use ring::Ring;
pub use rng::RngStream;
pub use time::{Time, TxTimeMemo};

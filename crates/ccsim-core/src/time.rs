//! Simulated time in integer nanoseconds.

use std::fmt;
use std::ops::{Add, AddAssign, Sub};

/// A point in (or span of) simulated time, in nanoseconds since the start of the run.
///
/// Integer time keeps event order exact and results bit-identical across platforms
/// (ns-3 does the same with its `int64x64` `Time`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Time(pub u64);

impl Time {
    pub const ZERO: Time = Time(0);
    pub const MAX: Time = Time(u64::MAX);

    pub const fn from_nanos(ns: u64) -> Time {
        Time(ns)
    }
    pub const fn from_micros(us: u64) -> Time {
        Time(us * 1_000)
    }
    pub const fn from_millis(ms: u64) -> Time {
        Time(ms * 1_000_000)
    }
    pub const fn from_secs(s: u64) -> Time {
        Time(s * 1_000_000_000)
    }
    /// Rounds to the nearest nanosecond; negative or NaN inputs become zero.
    pub fn from_secs_f64(s: f64) -> Time {
        if s.is_nan() || s <= 0.0 {
            Time(0)
        } else {
            Time((s * 1e9).round() as u64)
        }
    }
    pub const fn as_nanos(self) -> u64 {
        self.0
    }
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 * 1e-9
    }
    pub fn as_millis_f64(self) -> f64 {
        self.0 as f64 * 1e-6
    }
    /// Whole milliseconds, truncated (ns-3 `Time::GetMilliSeconds`).
    pub const fn as_millis(self) -> u64 {
        self.0 / 1_000_000
    }
    pub const fn saturating_sub(self, other: Time) -> Time {
        Time(self.0.saturating_sub(other.0))
    }
    /// Time to serialise `bytes` at `rate_bps` bits per second, rounded to the nearest ns (ties
    /// up), as ns-3's `DataRate::CalculateBytesTxTime` → `Seconds(double)` → `Time` rounds.
    /// Rounding up instead drifts ~1 ns per hop per packet from ns-3, enough to flip the order
    /// of an arrival and a departure at a full queue over a few hundred round trips.
    pub fn tx_time(bytes: u64, rate_bps: u64) -> Time {
        debug_assert!(rate_bps > 0);
        let ns_times_rate = bytes as u128 * 8 * 1_000_000_000;
        let rate = rate_bps as u128;
        Time(((ns_times_rate + rate / 2) / rate) as u64)
    }
}

/// [`Time::tx_time`] remembered for its last (bytes, rate): a pacing sender sends mostly one size
/// at one rate, and the 128-bit division behind it (`__udivti3`) was ~0.6 % of A BBR's time.
#[derive(Clone, Copy, Debug, Default)]
pub struct TxTimeMemo {
    bytes: u64,
    rate_bps: u64,
    time: Time,
}

impl TxTimeMemo {
    /// `Time::tx_time(bytes, rate_bps)`, recomputed only when an input changed.
    #[inline(always)]
    pub fn tx_time(&mut self, bytes: u64, rate_bps: u64) -> Time {
        if bytes != self.bytes || rate_bps != self.rate_bps {
            *self = TxTimeMemo {
                bytes,
                rate_bps,
                time: Time::tx_time(bytes, rate_bps),
            };
        }
        self.time
    }
}

// Saturating: a time past 2^64 ns means "never" (after any run's end). Wrapping made an
// event scheduled that far ahead fire at once (issue 18).
impl Add for Time {
    type Output = Time;
    fn add(self, rhs: Time) -> Time {
        Time(self.0.saturating_add(rhs.0))
    }
}
impl AddAssign for Time {
    fn add_assign(&mut self, rhs: Time) {
        self.0 = self.0.saturating_add(rhs.0);
    }
}
impl Sub for Time {
    type Output = Time;
    fn sub(self, rhs: Time) -> Time {
        Time(self.0 - rhs.0)
    }
}

impl fmt::Display for Time {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.9}s", self.as_secs_f64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tx_time_memo_recomputes_when_bytes_or_rate_change() {
        let mut memo = TxTimeMemo::default();
        for (bytes, rate) in [
            (1500, 100_000_000),
            (1500, 100_000_000),
            (52, 100_000_000),
            (52, 10_000_000),
            (1500, 10_000_000),
            (1500, 100_000_000),
        ] {
            assert_eq!(memo.tx_time(bytes, rate), Time::tx_time(bytes, rate));
        }
    }

    #[test]
    fn tx_time_rounds_to_nearest_ns_like_ns3() {
        // 1500 B at 100 Mb/s = 120 us exactly.
        assert_eq!(Time::tx_time(1500, 100_000_000), Time::from_micros(120));
        // 1 B at 3 b/s = 2.666.. s -> 2 666 666 667 ns.
        assert_eq!(Time::tx_time(1, 3), Time(2_666_666_667));
        // A 10 054 B frame at 13 Gb/s = 6187.08 ns -> 6187 (ns-3), not 6188.
        assert_eq!(Time::tx_time(10_054, 13_000_000_000), Time(6187));
        // Ties go up: 1 B at 16 Gb/s = 0.5 ns -> 1.
        assert_eq!(Time::tx_time(1, 16_000_000_000), Time(1));
    }

    #[test]
    fn secs_f64_roundtrip() {
        assert_eq!(Time::from_secs_f64(0.015), Time::from_millis(15));
        assert_eq!(Time::from_secs_f64(-1.0), Time::ZERO);
    }
}

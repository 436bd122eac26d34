//! Application sources that write data over time: a constant bit rate, optionally switched on
//! and off periodically (seed 000 Table I's streaming and bursty users). A bulk source needs no
//! model: its sender always has data.

use ccsim_core::Time;

#[derive(Clone, Debug)]
pub struct AppSource {
    /// Write rate while on, bits/s.
    pub rate_bps: u64,
    /// Bytes per write.
    pub chunk: u64,
    /// On-period length (None: always on).
    pub on: Option<Time>,
    /// Pause after each on period.
    pub off: Time,
    /// Total bytes to write (None: unlimited).
    pub limit: Option<u64>,
    written: u64,
    cycle_start: Time,
}

impl AppSource {
    pub fn new(rate_bps: u64, chunk: u64, on: Option<Time>, off: Time, limit: Option<u64>) -> Self {
        AppSource {
            rate_bps,
            chunk,
            on,
            off,
            limit,
            written: 0,
            cycle_start: Time::ZERO,
        }
    }

    /// The source starts at `now` (an on period begins).
    pub fn start(&mut self, now: Time) {
        self.cycle_start = now;
    }

    /// Bytes to write at `now`, and when to write next (None: the source is done).
    pub fn write(&mut self, now: Time) -> (u64, Option<Time>) {
        let left = self.limit.map_or(u64::MAX, |l| l - self.written);
        let bytes = self.chunk.min(left);
        self.written += bytes;
        if self.limit.is_some_and(|l| self.written >= l) {
            return (bytes, None);
        }
        let mut next = now + Time::tx_time(bytes.max(1), self.rate_bps);
        if let Some(on) = self.on {
            if next >= self.cycle_start + on {
                // The on period is over: pause, then start the next cycle.
                next = (self.cycle_start + on + self.off).max(next);
                self.cycle_start = next;
            }
        }
        (bytes, Some(next))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constant_rate_writes_at_the_right_pace() {
        // 1448 B at 4 Mb/s: one write every 2.896 ms.
        let mut a = AppSource::new(4_000_000, 1448, None, Time::ZERO, None);
        a.start(Time::ZERO);
        let (b, next) = a.write(Time::ZERO);
        assert_eq!(b, 1448);
        assert_eq!(next, Some(Time::from_micros(2896)));
    }

    #[test]
    fn on_off_pauses_between_periods() {
        // 1 s on, 2 s off, 8000 B every 8 ms at 8 Mb/s.
        let mut a = AppSource::new(
            8_000_000,
            8000,
            Some(Time::from_secs(1)),
            Time::from_secs(2),
            None,
        );
        a.start(Time::ZERO);
        let mut t = Time::ZERO;
        let mut writes = 0;
        while t < Time::from_secs(3) {
            let (_, next) = a.write(t);
            writes += 1;
            t = next.unwrap();
        }
        assert_eq!(writes, 125, "125 writes of 8 ms fill the 1 s on period");
        assert_eq!(
            t,
            Time::from_secs(3),
            "the next period starts after the 2 s pause"
        );
    }

    #[test]
    fn stops_at_its_limit() {
        let mut a = AppSource::new(1_000_000, 1000, None, Time::ZERO, Some(2500));
        a.start(Time::ZERO);
        assert_eq!(a.write(Time::ZERO).0, 1000);
        assert_eq!(a.write(Time::ZERO).0, 1000);
        assert_eq!(a.write(Time::ZERO), (500, None));
    }
}

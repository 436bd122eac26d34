//! Recovery time after each vertical handover (seed 003 Table 1, "recovery time ... vs.
//! disconnection period"): from the end of the outage until the goodput — the bytes the
//! receiving applications got in order, over a 1 s sliding window — first reaches 80 % of
//! the new link's rate. The paper does not define its metric in the seed text; this one
//! follows its reading of the results (an ACK-clocked flow "recovers" when it fills the new
//! link again; a flow repairing one loss per RTT delivers nothing in order meanwhile), and it
//! does not depend on how the run ends (a flow stuck at a low rate never recovers).
//!
//! The meter is fed at every output sample with the total in-order delivered bytes; it keeps
//! the samples of the last window only (allocation-free once the window is full).

use crate::handover::VerticalHandover;
use ccsim_core::Time;
use std::collections::VecDeque;

/// Goodput window of the recovery test.
pub const RECOVERY_WINDOW: Time = Time::from_secs(1);
/// Fraction of the new link's rate the windowed goodput must reach. Below every algorithm's
/// steady state on a link it fills: TCP payload is at most 96 % of the IP rate, and Wave's rate
/// law (`burst/TxTime`, TxTime = dispersion + Δrtt/2) settles 8–15 % below the link rate
/// (16.9–18.4 Mb/s on seed 003's 20 Mb/s L1), so a 90 % bar would call a recovered Wave flow
/// "never" depending on where it settles.
pub const RECOVERY_FRACTION: f64 = 0.8;

/// Per-event recovery times of one [`VerticalHandover`].
#[derive(Clone, Debug)]
pub struct RecoveryMeter {
    /// Per event: end of the outage, end of the measurement (next event or never), target
    /// goodput (bits/s).
    events: Vec<(Time, Option<Time>, f64)>,
    /// Per event: recovery time, once reached.
    recovered: Vec<Option<Time>>,
    /// `(time, delivered bytes)` samples of the last window, oldest first.
    window: VecDeque<(Time, u64)>,
}

impl RecoveryMeter {
    /// `rates_bps[i]`: the rate of link `i` (in the data direction).
    pub fn new(vh: &VerticalHandover, rates_bps: [u64; 2]) -> Self {
        let events = vh
            .events
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let end_outage = Time::from_micros(e.at_us + e.outage_us);
                let next = vh.events.get(i + 1).map(|n| Time::from_micros(n.at_us));
                let target = RECOVERY_FRACTION * rates_bps[e.to_link.min(1)] as f64;
                (end_outage, next, target)
            })
            .collect::<Vec<_>>();
        RecoveryMeter {
            recovered: vec![None; events.len()],
            events,
            window: VecDeque::with_capacity(64),
        }
    }

    /// One output sample: `delivered` in-order bytes in total at `now`.
    pub fn on_sample(&mut self, now: Time, delivered: u64) {
        self.window.push_back((now, delivered));
        // Keep the newest sample at or before `now − window` as the window's start.
        while self.window.len() > 2 && self.window[1].0 + RECOVERY_WINDOW <= now {
            self.window.pop_front();
        }
        let (t0, d0) = self.window[0];
        let span = now.saturating_sub(t0);
        if span < RECOVERY_WINDOW {
            return;
        }
        let goodput_bps = (delivered - d0) as f64 * 8.0 / span.as_secs_f64();
        for (k, &(end_outage, next, target)) in self.events.iter().enumerate() {
            // The whole window after the outage, and before the next handover.
            let measurable = t0 >= end_outage && next.is_none_or(|n| now <= n);
            if self.recovered[k].is_none() && measurable && goodput_bps >= target {
                self.recovered[k] = Some(now - end_outage);
            }
        }
    }

    /// Recovery time of event `k`, if the goodput got there.
    pub fn recovery(&self, k: usize) -> Option<Time> {
        self.recovered.get(k).copied().flatten()
    }

    /// Target goodput of event `k`, bits/s.
    pub fn target_bps(&self, k: usize) -> f64 {
        self.events[k].2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 10 Mb/s → 20 Mb/s handover at 20 s with a 2 s outage; samples every 100 ms.
    fn meter() -> RecoveryMeter {
        let vh = VerticalHandover::single(0, 1, Time::from_secs(20), Time::from_secs(2));
        RecoveryMeter::new(&vh, [10_000_000, 20_000_000])
    }

    fn feed(m: &mut RecoveryMeter, rate_at: impl Fn(f64) -> f64, until_s: f64) {
        let mut delivered = 0.0;
        let mut t = 0.0;
        while t < until_s - 1e-9 {
            delivered += rate_at(t) / 8.0 * 0.1;
            t += 0.1;
            let now = Time::from_millis((t * 1000.0).round() as u64);
            m.on_sample(now, delivered as u64);
        }
    }

    #[test]
    fn recovery_is_the_end_of_the_first_full_window_at_the_target() {
        let mut m = meter();
        // 9.5 Mb/s before, nothing in the outage, 10 Mb/s until 25 s, then 19 Mb/s.
        feed(
            &mut m,
            |t| match t {
                t if t < 20.0 => 9.5e6,
                t if t < 22.0 => 0.0,
                t if t < 25.0 => 10e6,
                _ => 19e6,
            },
            40.0,
        );
        // 0.8 · 20 Mb/s = 16 Mb/s is first reached by the window (24.7 s, 25.7 s]:
        // 0.3 s at 10 Mb/s and 0.7 s at 19 Mb/s average 16.3 Mb/s (one sample earlier: 15.4).
        let r = m.recovery(0).unwrap().as_secs_f64();
        assert!((r - 3.7).abs() < 0.05, "{r}");
        assert_eq!(m.target_bps(0), 16e6);
    }

    #[test]
    fn a_flow_that_stays_slow_never_recovers() {
        let mut m = meter();
        feed(&mut m, |t| if t < 20.0 { 9.5e6 } else { 0.6e6 }, 60.0);
        assert_eq!(m.recovery(0), None);
    }

    #[test]
    fn goodput_before_the_outage_ends_does_not_count() {
        let mut m = meter();
        // Full rate right up to the outage and from its end: the first window wholly after
        // the outage ends 1 s later.
        feed(
            &mut m,
            |t| if (20.0..22.0).contains(&t) { 0.0 } else { 19e6 },
            30.0,
        );
        let r = m.recovery(0).unwrap().as_secs_f64();
        assert!((r - 1.0).abs() < 0.11, "{r}");
    }
}

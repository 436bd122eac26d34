//! Goodput around scheduled link changes (a blockage): per flow, the goodput before, during
//! and after the window from the first to the last change, and the recovery time — the time
//! after the window ends until the 100 ms-binned goodput first reaches 90 % of the
//! pre-window mean (issue 4's definition). Computed from the flow series' cumulative
//! delivered bytes, which [`LinkChangeProbe`] keeps (only in scenarios with link changes)
//! as the series are drained.

use crate::config::Scenario;
use crate::metrics::{FlowSeries, FlowSummary};
use serde::Serialize;

/// Width of the goodput bins the recovery is measured on.
const BIN_S: f64 = 0.1;
/// Share of the pre-window goodput that counts as recovered.
const RECOVERED_FRACTION: f64 = 0.9;

/// One flow's goodput around the change window (Mb/s; `None` for an empty interval).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LinkChangeMetrics {
    pub flow: u32,
    /// [first change, last change] in seconds.
    pub window_s: [f64; 2],
    pub goodput_before_mbps: Option<f64>,
    pub goodput_during_mbps: Option<f64>,
    pub goodput_after_mbps: Option<f64>,
    /// `None` when the goodput never got back to 90 % of its pre-window mean.
    pub recovery_time_s: Option<f64>,
}

/// Keeps (time, delivered bytes) per flow from the drained series.
#[derive(Clone, Debug)]
pub struct LinkChangeProbe {
    t_on: f64,
    t_off: f64,
    /// Indexed by flow id.
    samples: Vec<Vec<(f64, f64)>>,
}

impl LinkChangeProbe {
    /// A probe for a scenario whose bottleneck or links change; `None` without changes.
    pub fn new(s: &Scenario) -> Option<Self> {
        let mut times: Vec<f64> = s
            .dumbbell
            .iter()
            .flat_map(|d| &d.bottleneck.changes)
            .chain(s.links.iter().flat_map(|l| &l.changes))
            .map(|c| c.at.time().as_secs_f64())
            .collect();
        times.sort_by(f64::total_cmp);
        Some(LinkChangeProbe {
            t_on: *times.first()?,
            t_off: *times.last()?,
            samples: Vec::new(),
        })
    }

    /// Takes note of drained (or still pending) series rows.
    pub fn observe(&mut self, fs: &FlowSeries) {
        for ((&t, &f), &d) in fs.t_s.iter().zip(&fs.flow).zip(&fs.delivered_bytes) {
            let f = f as usize;
            if self.samples.len() <= f {
                self.samples.resize_with(f + 1, Vec::new);
            }
            self.samples[f].push((t, d as f64));
        }
    }

    /// The metrics of every flow at the end of the run (`end_s`).
    pub fn metrics(&self, flows: &[FlowSummary], end_s: f64) -> Vec<LinkChangeMetrics> {
        flows
            .iter()
            .map(|f| {
                let s = self.samples.get(f.id as usize).map_or(&[][..], |v| &v[..]);
                phase_metrics(f.id, s, f.start_s, self.t_on, self.t_off, end_s)
            })
            .collect()
    }
}

/// Linear interpolation of the samples at `x`, held constant beyond the ends (numpy `interp`).
fn interp(s: &[(f64, f64)], x: f64) -> f64 {
    let i = s.partition_point(|&(t, _)| t <= x);
    if i == 0 {
        return s[0].1;
    }
    if i == s.len() {
        return s[i - 1].1;
    }
    let ((t0, d0), (t1, d1)) = (s[i - 1], s[i]);
    if t1 == t0 {
        d1
    } else {
        d0 + (d1 - d0) * (x - t0) / (t1 - t0)
    }
}

fn mean_rate(s: &[(f64, f64)], a: f64, b: f64) -> Option<f64> {
    (b > a).then(|| (interp(s, b) - interp(s, a)) * 8.0 / (b - a) / 1e6)
}

/// Before [start, t_on], during [t_on, t_off], after [t_off, end] and the recovery time, from
/// one flow's cumulative delivered bytes `s` (time-ordered).
pub fn phase_metrics(
    flow: u32,
    s: &[(f64, f64)],
    start: f64,
    t_on: f64,
    t_off: f64,
    end: f64,
) -> LinkChangeMetrics {
    let mut m = LinkChangeMetrics {
        flow,
        window_s: [t_on, t_off],
        goodput_before_mbps: None,
        goodput_during_mbps: None,
        goodput_after_mbps: None,
        recovery_time_s: None,
    };
    if s.is_empty() {
        return m;
    }
    let before = mean_rate(s, start, t_on);
    m.goodput_before_mbps = before;
    m.goodput_during_mbps = mean_rate(s, start.max(t_on), t_off);
    m.goodput_after_mbps = mean_rate(s, t_off, end);
    let Some(before) = before.filter(|b| *b != 0.0) else {
        return m;
    };
    if t_off <= t_on {
        return m;
    }
    // Bins [k·0.1, (k+1)·0.1) up to the last sample; the first bin after the window that
    // reaches 90 % of `before` ends the recovery.
    let last = s[s.len() - 1].0;
    let edges = ((last + 1e-9) / BIN_S).ceil() as usize;
    let mut prev = interp(s, 0.0);
    for k in 1..edges {
        let end_k = k as f64 * BIN_S;
        let at = interp(s, end_k);
        let rate = (at - prev) * 8.0 / BIN_S / 1e6;
        prev = at;
        if end_k > t_off + 1e-9 && rate >= RECOVERED_FRACTION * before {
            m.recovery_time_s = Some(((end_k - t_off) * 1e6).round() / 1e6);
            break;
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 10 Mb/s, then 1 Mb/s in [2, 4] s, then 10 Mb/s again from 4.5 s: sampled every 10 ms.
    fn blockage() -> Vec<(f64, f64)> {
        let rate = |t: f64| {
            if (2.0..4.5).contains(&t) {
                if t < 4.0 {
                    1e6
                } else {
                    2e6
                }
            } else {
                10e6
            }
        };
        let mut d = 0.0;
        (0..=800)
            .map(|i| {
                let t = i as f64 * 0.01;
                if i > 0 {
                    d += rate(t - 0.005) / 8.0 * 0.01;
                }
                (t, d)
            })
            .collect()
    }

    #[test]
    fn before_during_after_and_recovery_of_a_blockage() {
        let m = phase_metrics(0, &blockage(), 0.0, 2.0, 4.0, 8.0);
        assert!((m.goodput_before_mbps.unwrap() - 10.0).abs() < 1e-9);
        assert!((m.goodput_during_mbps.unwrap() - 1.0).abs() < 1e-9);
        // 0.5 s at 2 Mb/s, then 3.5 s at 10 Mb/s.
        assert!((m.goodput_after_mbps.unwrap() - 9.0).abs() < 1e-9);
        // The first 100 ms bin at ≥ 9 Mb/s after 4 s ends at 4.6 s.
        assert_eq!(m.recovery_time_s, Some(0.6));
    }

    #[test]
    fn no_recovery_when_goodput_stays_low_and_empty_series_give_none() {
        let flat: Vec<_> = (0..=100)
            .map(|i| (i as f64 * 0.1, i as f64 * 1000.0))
            .collect();
        let mut s = flat.clone();
        for p in s.iter_mut().filter(|p| p.0 > 5.0) {
            p.1 = flat[50].1;
        }
        let m = phase_metrics(1, &s, 0.0, 5.0, 6.0, 10.0);
        assert!(m.goodput_before_mbps.unwrap() > 0.0);
        assert_eq!(m.recovery_time_s, None);
        let e = phase_metrics(2, &[], 0.0, 5.0, 6.0, 10.0);
        assert_eq!(e.goodput_before_mbps, None);
    }

    #[test]
    fn interp_holds_the_ends_and_interpolates_between() {
        let s = [(1.0, 10.0), (2.0, 20.0)];
        assert_eq!(interp(&s, 0.0), 10.0);
        assert_eq!(interp(&s, 1.5), 15.0);
        assert_eq!(interp(&s, 3.0), 20.0);
    }
}

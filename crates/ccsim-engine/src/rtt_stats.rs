//! RTT statistics in memory independent of the run's length (issue 18: every sample used to
//! be kept, 1 GB+ for hour-long runs).
//!
//! Samples are whole microseconds, and in practice take few distinct values (ns-3's TCP
//! timestamps tick in whole milliseconds), so a count per distinct value gives *exact*
//! mean and percentiles for any number of samples. The number of distinct values is capped
//! at [`MAX_DISTINCT`]: beyond it, values are rounded to the nearest multiple of a
//! resolution that doubles (2, 4, 8 … µs) until they fit again, so the percentile error is
//! less than that resolution, and [`RttStats::resolution_us`] says which applied (1 =
//! exact). The mean is always exact (an integer sum).

use ccsim_core::Time;

/// Most distinct values kept before rounding (about 100 kB per flow at worst). With 1 << 16,
/// 20 flows with µs-resolution RTTs kept growing for the first hour (+150 MB), so peak
/// memory still depended on the duration; ms-resolution (ns-3) RTTs never come close.
pub const MAX_DISTINCT: usize = 1 << 12;

/// Distinct values in two sorted arrays rather than a `BTreeMap`: a sample that is not a
/// repeat of the last one is found by a binary search of fixed length for the table's size
/// (no data-dependent branches), where the map's node search mispredicted about twice per
/// sample (cachegrind, case A: 80 k mispredictions for 42 k samples). Same counts per value,
/// hence the same mean and percentiles.
#[derive(Clone, Debug)]
pub struct RttStats {
    /// Sample values (µs, rounded to `resolution_us`), ascending, distinct.
    values: Vec<u32>,
    /// `counts[i]`: how many samples had `values[i]`.
    counts: Vec<u64>,
    samples: u64,
    sum_us: u128,
    resolution_us: u32,
    /// The last value recorded and its index: consecutive samples mostly repeat (ns-3's RTTs
    /// are whole milliseconds), and a repeat then costs an add, no search.
    last: Option<(u32, usize)>,
}

impl Default for RttStats {
    fn default() -> Self {
        RttStats {
            values: Vec::new(),
            counts: Vec::new(),
            samples: 0,
            sum_us: 0,
            resolution_us: 1,
            last: None,
        }
    }
}

impl RttStats {
    pub fn record(&mut self, sample: Time) {
        let us = (sample.as_nanos() / 1000).min(u32::MAX as u64) as u32;
        self.samples += 1;
        self.sum_us += us as u128;
        let v = self.round(us);
        let i = match self.last {
            Some((last, i)) if last == v => {
                self.counts[i] += 1;
                return;
            }
            // A queue that grows or drains moves the RTT one tick at a time: the value is
            // mostly the last one's neighbour, found without the search (a chain of
            // dependent loads, ~40 cycles for 70 values).
            Some((last, i)) if v > last && self.values.get(i + 1) == Some(&v) => i + 1,
            Some((last, i)) if v < last && i > 0 && self.values[i - 1] == v => i - 1,
            _ => self.values.partition_point(|&x| x < v),
        };
        if self.values.get(i) == Some(&v) {
            self.counts[i] += 1;
        } else {
            self.values.insert(i, v);
            self.counts.insert(i, 1);
            if self.values.len() > MAX_DISTINCT {
                self.coarsen();
                self.last = None;
                return;
            }
        }
        self.last = Some((v, i));
    }

    pub fn samples(&self) -> u64 {
        self.samples
    }

    /// 1 while percentiles are exact; else the rounding step of the values, in µs.
    pub fn resolution_us(&self) -> u32 {
        self.resolution_us
    }

    pub fn mean_ms(&self) -> Option<f64> {
        (self.samples > 0).then(|| self.sum_us as f64 / self.samples as f64 / 1000.0)
    }

    /// Percentile `p` (0–100) in ms, interpolated linearly between closest ranks (numpy's
    /// default), as if over the sorted samples.
    pub fn percentile_ms(&self, p: f64) -> Option<f64> {
        if self.samples == 0 {
            return None;
        }
        let pos = p / 100.0 * (self.samples - 1) as f64;
        let (lo, hi) = (pos.floor() as u64, pos.ceil() as u64);
        let (a, b) = (self.kth(lo), self.kth(hi));
        Some(a + (b - a) * (pos - lo as f64))
    }

    /// The `k`-th smallest sample (0-based), in ms.
    fn kth(&self, k: u64) -> f64 {
        let mut below = 0;
        for (&v, &n) in self.values.iter().zip(&self.counts) {
            below += n;
            if k < below {
                return v as f64 / 1000.0;
            }
        }
        unreachable!("k < samples")
    }

    fn round(&self, us: u32) -> u32 {
        let r = self.resolution_us as u64;
        if r == 1 {
            return us; // exact values: no division
        }
        ((us as u64 + r / 2) / r * r).min(u32::MAX as u64) as u32
    }

    /// Doubles the resolution until the distinct values fit. Rounding keeps the order, so
    /// the values that merge are neighbours and one pass in place keeps them sorted.
    fn coarsen(&mut self) {
        while self.values.len() > MAX_DISTINCT {
            self.resolution_us *= 2;
            let mut kept = 0;
            for i in 0..self.values.len() {
                let v = self.round(self.values[i]);
                let n = self.counts[i];
                if kept > 0 && self.values[kept - 1] == v {
                    self.counts[kept - 1] += n;
                } else {
                    self.values[kept] = v;
                    self.counts[kept] = n;
                    kept += 1;
                }
            }
            self.values.truncate(kept);
            self.counts.truncate(kept);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// numpy's default percentile over sorted data, the definition the summary promises.
    fn numpy_percentile(sorted: &[f64], p: f64) -> f64 {
        let pos = p / 100.0 * (sorted.len() - 1) as f64;
        let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
        sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
    }

    #[test]
    fn exact_against_sorting_every_sample() {
        let mut state = 12345u64;
        for n in [1usize, 2, 3, 10, 1000, 250_000] {
            let mut s = RttStats::default();
            let mut all = Vec::new();
            for _ in 0..n {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                // Whole milliseconds like ns-3's timestamp clock, some µs-resolution ones.
                let us = if state >> 63 == 0 {
                    (20 + (state >> 40) % 300) * 1000
                } else {
                    20_000 + (state >> 30) % 3000
                };
                s.record(Time::from_micros(us));
                all.push(us as f64 / 1000.0);
            }
            all.sort_by(f64::total_cmp);
            for p in [0.0, 1.0, 50.0, 95.0, 99.9, 100.0] {
                assert_eq!(
                    s.percentile_ms(p),
                    Some(numpy_percentile(&all, p)),
                    "n {n} p {p}"
                );
            }
            let mean = all.iter().sum::<f64>() / n as f64;
            assert!((s.mean_ms().unwrap() - mean).abs() < 1e-9 * mean);
            assert_eq!((s.samples(), s.resolution_us()), (n as u64, 1));
        }
        assert_eq!(RttStats::default().percentile_ms(50.0), None);
    }

    /// Consecutive repeats (counted without a search) weigh as much as any other sample,
    /// also across a coarsening.
    #[test]
    fn repeated_values_count_exactly() {
        for distinct in [5u64, 3 * MAX_DISTINCT as u64] {
            let mut s = RttStats::default();
            let mut all = Vec::new();
            for i in 0..40_000u64 {
                // Runs of 1..=7 equal samples.
                let us = 20_000 + ((i / (1 + i % 7)) * 7919) % distinct;
                s.record(Time::from_micros(us));
                all.push(us as f64 / 1000.0);
            }
            all.sort_by(f64::total_cmp);
            let tolerance = (s.resolution_us() - 1) as f64 / 1000.0;
            for p in [0.0, 10.0, 50.0, 90.0, 100.0] {
                let got = s.percentile_ms(p).unwrap();
                let want = numpy_percentile(&all, p);
                assert!(
                    (got - want).abs() <= tolerance,
                    "{distinct} p {p}: {got} vs {want}"
                );
            }
            assert_eq!(s.resolution_us() == 1, distinct == 5);
        }
    }

    /// The counts a `BTreeMap` keeps under the same rounding rule (the form before the
    /// sorted arrays), coarsening included: the arrays must hold exactly these.
    #[test]
    fn same_counts_as_an_ordered_map() {
        use std::collections::BTreeMap;
        let mut s = RttStats::default();
        let (mut map, mut res) = (BTreeMap::<u32, u64>::new(), 1u64);
        let round = |us: u64, r: u64| ((us + r / 2) / r * r) as u32;
        let mut state = 7u64;
        for i in 0..60_000u64 {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            // Few ms values first (at random, then ramps up and down, where a value is the
            // last one's neighbour), then ever more distinct µs values (forces coarsening).
            let us = if i < 10_000 {
                (20 + (state >> 40) % 50) * 1000
            } else if i < 20_000 {
                let step = (i / 3) % 120;
                (20 + step.min(119 - step)) * 1000
            } else {
                10_000 + (state >> 20) % (i * 4)
            };
            s.record(Time::from_micros(us));
            *map.entry(round(us, res)).or_insert(0) += 1;
            while map.len() > MAX_DISTINCT {
                res *= 2;
                for (v, n) in std::mem::take(&mut map) {
                    *map.entry(round(v as u64, res)).or_insert(0) += n;
                }
            }
        }
        assert!(res > 1);
        assert_eq!(s.resolution_us() as u64, res);
        let flat: Vec<(u32, u64)> = s.values.iter().copied().zip(s.counts.clone()).collect();
        assert_eq!(flat, map.into_iter().collect::<Vec<_>>());
    }

    #[test]
    fn memory_is_bounded_and_error_is_within_the_resolution() {
        let mut s = RttStats::default();
        let mut all = Vec::new();
        for i in 0..400_000u64 {
            let us = 10_000 + (i * 7919) % 300_000; // 300 000 distinct values
            s.record(Time::from_micros(us));
            all.push(us as f64 / 1000.0);
        }
        assert!(s.values.len() <= MAX_DISTINCT);
        assert!(s.resolution_us() > 1);
        all.sort_by(f64::total_cmp);
        let tolerance = s.resolution_us() as f64 / 1000.0;
        for p in [50.0, 95.0] {
            let got = s.percentile_ms(p).unwrap();
            assert!(
                (got - numpy_percentile(&all, p)).abs() <= tolerance,
                "p {p}: {got}"
            );
        }
    }
}

//! ACCE's RTT statistics (`tcp_wave.c` v0.2: `wavetcp_rtt_measurements`,
//! `wavetcp_compute_weight`, `calculate_avg_rtt`, `calculate_delta_rtt`), in the module's
//! `u32` µs arithmetic. Linux marks an unset minimum with `min_rtt = -1` (`u32::MAX`) and
//! subtracts it as it is: the subtractions below wrap exactly as the C code's do, so a round
//! that ends with no RTT sample while the minimum is unset (after an adjustment) gives the
//! same `avg_rtt` and `delta_rtt` as the authors' module.

/// Fixed-point scale of the RTT weight and the dispersion factor (`AVG_SCALE` = 20).
pub(super) const AVG_UNIT: u64 = 1 << 20;

/// `min_rtt = -1; /* a lot of time */`.
pub(super) const UNSET: u32 = u32::MAX;

/// RTTs of the current round and across rounds, µs (Linux `struct wavetcp` fields).
#[derive(Clone, Debug)]
pub(super) struct RttStats {
    /// RTT of the previous ACK with a sample (`previous_rtt`).
    pub previous: u32,
    /// First RTT of the round; 0 = none (`first_rtt`).
    pub first: u32,
    /// Minimum RTT; [`UNSET`] after `init` and after an adjustment (`min_rtt`).
    pub min: u32,
    /// Average RTT; 0 = none yet (`avg_rtt`).
    pub avg: u32,
    /// Maximum RTT, never reset (`max_rtt`).
    pub max: u32,
}

impl Default for RttStats {
    fn default() -> Self {
        RttStats {
            previous: 0,
            first: 0,
            min: UNSET,
            avg: 0,
            max: 0,
        }
    }
}

impl RttStats {
    /// `wavetcp_rtt_measurements` (the RTT part): the round's first sample sets `first` and
    /// updates `min` and `max`; every sample becomes `previous`.
    pub fn measure(&mut self, rtt_us: Option<u32>) {
        let Some(rtt) = rtt_us.filter(|&r| r > 0) else {
            return;
        };
        self.previous = rtt;
        if self.first == 0 {
            self.first = rtt;
            self.min = self.min.min(rtt);
            self.max = self.max.max(rtt);
        }
    }

    /// `calculate_avg_rtt`: `a·avg + (1 − a)·first` with `a = (first − min)/first` scaled by
    /// 2^20; the first value is `min`; 0 = no update (no `first`).
    pub fn next_avg(&self) -> u32 {
        if self.avg == 0 {
            return self.min;
        }
        if self.first == 0 {
            return 0;
        }
        let first = self.first as u64;
        // `wavetcp_compute_weight`: the u32 difference wraps when `min` is unset.
        let a = (self.first.wrapping_sub(self.min) as u64).wrapping_mul(AVG_UNIT) / first;
        let left = a.wrapping_mul(self.avg as u64) / AVG_UNIT;
        let right = AVG_UNIT.wrapping_sub(a).wrapping_mul(first) / AVG_UNIT;
        (left as u32).wrapping_add(right as u32)
    }

    /// `calculate_delta_rtt`: `avg − min` in u32 (wraps when `min` is unset, as in Linux).
    pub fn delta(&self) -> u64 {
        self.avg.wrapping_sub(self.min) as u64
    }

    /// `wavetcp_adj_mode`'s RTT part: the minimum restarts, the average restarts high.
    pub fn restart_after_adjustment(&mut self) {
        self.min = UNSET;
        self.avg = self.max;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_average_is_the_minimum_then_it_is_weighted_by_the_queueing() {
        let mut r = RttStats::default();
        r.measure(Some(100_000));
        assert_eq!(r.next_avg(), 100_000);
        r.avg = 100_000;
        r.first = 120_000;
        // a = ⌊20000·2^20/120000⌋ = 174762; ⌊a·100000/2^20⌋ + ⌊(2^20 − a)·120000/2^20⌋.
        assert_eq!(r.next_avg(), 16_666 + 100_000);
        assert_eq!(r.delta(), 0);
    }

    #[test]
    fn an_unset_minimum_wraps_as_in_the_c_code() {
        // After an adjustment (min = -1, avg = max_rtt = 600 ms) a round with no RTT sample
        // takes first = avg. Linux: diff = (600000 − 0xFFFFFFFF) mod 2^32 = 600001, a = 2^20
        // + 1, left = ⌊a·600000/2^20⌋ = 600000, right = ⌊(2^64 − 1)·600000 mod 2^64 / 2^20⌋
        // whose low 32 bits are 0xFFFFFFFF: avg = 600000 + 0xFFFFFFFF = 599999 (mod 2^32).
        let r = RttStats {
            previous: 600_000,
            first: 600_000,
            min: UNSET,
            avg: 600_000,
            max: 600_000,
        };
        assert_eq!(r.next_avg(), 599_999);
        // delta_rtt = avg − (−1) = avg + 1: above beta, so Linux adjusts again.
        assert_eq!(r.delta(), 600_001);
    }
}

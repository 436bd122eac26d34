//! Kathleen Nichols' windowed max filter, as ns-3.44 `windowed-filter.h` (taken from
//! Chromium's QUIC): the best, second and third best samples with their times, so the maximum
//! over a sliding window is kept in O(1) per update. BBR feeds it delivery-rate samples against
//! packet-timed rounds (see [`crate::bbr`]).

/// ns-3 `WindowedFilter<DataRate, MaxFilter<DataRate>, uint32_t, uint32_t>`: the best, second
/// and third best maxima with their round numbers.
#[derive(Clone, Debug, Default)]
pub struct MaxFilter {
    window_length: u32,
    /// The "uninitialised" value; ns-3 BBR passes its initial nominal bandwidth.
    zero_value: u64,
    samples: [(u64, u32); 3],
}

impl MaxFilter {
    pub fn new(window_length: u32, zero_value: u64, zero_time: u32) -> Self {
        MaxFilter {
            window_length,
            zero_value,
            samples: [(zero_value, zero_time); 3],
        }
    }

    /// `MaxFilter::operator()`: `lhs >= rhs`, false if either is 0.
    fn better(lhs: u64, rhs: u64) -> bool {
        lhs != 0 && rhs != 0 && lhs >= rhs
    }

    pub fn best(&self) -> u64 {
        self.samples[0].0
    }

    pub fn reset(&mut self, sample: u64, time: u32) {
        self.samples = [(sample, time); 3];
    }

    /// `WindowedFilter::Update`.
    pub fn update(&mut self, sample: u64, time: u32) {
        let win = self.window_length;
        if self.samples[0].0 == self.zero_value
            || Self::better(sample, self.samples[0].0)
            || time.wrapping_sub(self.samples[2].1) > win
        {
            self.reset(sample, time);
            return;
        }
        let s = &mut self.samples;
        if Self::better(sample, s[1].0) {
            s[1] = (sample, time);
            s[2] = s[1];
        } else if Self::better(sample, s[2].0) {
            s[2] = (sample, time);
        }
        if time.wrapping_sub(s[0].1) > win {
            // The best has not been updated for a whole window: promote.
            s[0] = s[1];
            s[1] = s[2];
            s[2] = (sample, time);
            if time.wrapping_sub(s[0].1) > win {
                s[0] = s[1];
                s[1] = s[2];
            }
            return;
        }
        if s[1].0 == s[0].0 && time.wrapping_sub(s[1].1) > win >> 2 {
            // A quarter window without a better sample: second best from the second quarter.
            s[1] = (sample, time);
            s[2] = s[1];
            return;
        }
        if s[2].0 == s[1].0 && time.wrapping_sub(s[2].1) > win >> 1 {
            // Half a window: third best from the second half.
            s[2] = (sample, time);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_filter_keeps_the_best_of_the_window() {
        let mut f = MaxFilter::new(10, 7, 0);
        assert_eq!(f.best(), 7); // the zero value until the first sample
        f.update(100, 1);
        assert_eq!(f.best(), 100);
        f.update(50, 2);
        assert_eq!(f.best(), 100);
        f.update(120, 3);
        assert_eq!(f.best(), 120);
        // 120 is older than the 10-round window at round 14: the later, lower samples take over.
        for r in 4..=13 {
            f.update(60, r);
        }
        assert_eq!(f.best(), 120);
        f.update(60, 14);
        assert_eq!(f.best(), 60);
    }
}

//! The ACK train of one round and its dispersion (`tcp_wave.c` v0.2:
//! `wavetcp_begin_round`, `wavetcp_middle_round`, `wavetcp_reset_round`,
//! `get_ack_train_disp`, `calculate_ack_train_disp`, `heuristic_ack_train_disp`). Times of
//! ACKs and dispersions in ns (Linux `ktime_t`), rate-sample intervals in µs.

use super::rtt::AVG_UNIT;
use ccsim_core::Time;

/// ACK-train state (Linux `struct wavetcp` fields).
#[derive(Clone, Debug, Default)]
pub(super) struct AckTrain {
    /// First ACK of the round (`first_ack_time`; `None` = Linux's null ktime).
    pub first: Option<Time>,
    /// Last aligned ACK of the round (`last_ack_time`).
    pub last: Time,
    /// ACKs of the train with non-decreasing RTT (`aligned_acks_rcv`).
    pub aligned: u32,
    /// `rs.interval` of the round's first ACK, µs (`backup_first_ack_time_us`).
    pub first_interval_us: u64,
    /// Blind-search exponent of the heuristic (`heuristic_scale`).
    heuristic_scale: u32,
    /// Last measured dispersion; zero = none (`previous_ack_t_disp`).
    pub previous_disp: Time,
}

impl AckTrain {
    /// `wavetcp_begin_round`.
    pub fn begin(&mut self, now: Time) {
        self.first = Some(now);
        self.last = now;
    }

    /// `wavetcp_reset_round` (the train part; `first_rtt` is reset by the caller).
    pub fn reset(&mut self) {
        self.first = None;
        self.last = Time::ZERO;
        self.first_interval_us = 0;
        self.aligned = 0;
    }

    /// `wavetcp_rtt_measurements` (the interval part): the round's first rate interval.
    pub fn note_interval(&mut self, interval_us: u64) {
        if self.first_interval_us == 0 && interval_us > 0 {
            self.first_interval_us = interval_us.min(u32::MAX as u64);
        }
    }

    /// `calculate_ack_train_disp`; zero = no value. `round_burst` is the oldest burst's size,
    /// `burst` the current one.
    pub fn dispersion(&mut self, interval_us: u64, round_burst: u32, burst: u32) -> Time {
        if self.first.is_none() || self.aligned <= 1 {
            // No bound of the burst, or no samples: the previous value, else a guess that is
            // not kept.
            if self.previous_disp == Time::ZERO {
                return self.heuristic(interval_us);
            }
            return self.previous_disp;
        }
        // A partial burst is a poor measure: only used when there is nothing better.
        if round_burst != burst && self.previous_disp != Time::ZERO {
            return self.previous_disp;
        }
        let disp = self.measured(round_burst, burst);
        if disp == Time::ZERO {
            return self.previous_disp;
        }
        self.heuristic_scale = 0;
        self.previous_disp = disp;
        disp
    }

    /// `get_ack_train_disp`: `(last − first)·n/(n − 1)` over n aligned ACKs for a whole
    /// burst, `(last − first)/round_burst·burst` for a partial one.
    fn measured(&self, round_burst: u32, burst: u32) -> Time {
        let first = self.first.unwrap_or(Time::ZERO);
        let mut left = self.last.saturating_sub(first).as_nanos();
        let right;
        if round_burst == burst {
            let n = self.aligned as u64;
            right = n * AVG_UNIT / (n - 1);
        } else {
            right = burst as u64;
            left = left.wrapping_mul(AVG_UNIT) / round_burst as u64;
        }
        Time::from_nanos(left.wrapping_mul(right) / AVG_UNIT)
    }

    /// `heuristic_ack_train_disp`: the distance between this ACK's rate interval and the
    /// round's first; if that is 0, a blind search `interval >> k`, k = 0, 1, 2, … per try.
    fn heuristic(&mut self, interval_us: u64) -> Time {
        if interval_us == 0 {
            return Time::ZERO;
        }
        let disp_us = interval_us.abs_diff(self.first_interval_us);
        if disp_us == 0 {
            let blind = interval_us.checked_shr(self.heuristic_scale).unwrap_or(0) as u32;
            self.heuristic_scale += 1;
            return Time::from_micros(blind as u64);
        }
        Time::from_micros(disp_us)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn train(first_us: u64, last_us: u64, aligned: u32) -> AckTrain {
        AckTrain {
            first: Some(Time::from_micros(first_us)),
            last: Time::from_micros(last_us),
            aligned,
            ..Default::default()
        }
    }

    #[test]
    fn a_whole_burst_extrapolates_the_gaps_to_n() {
        // 10 ACKs over 9 ms: 9e6 · ⌊10·2^20/9⌋ / 2^20 = 9 999 996 ns.
        let mut t = train(0, 9_000, 10);
        assert_eq!(t.dispersion(0, 10, 10), Time::from_nanos(9_999_996));
        assert_eq!(t.previous_disp, Time::from_nanos(9_999_996));
        // A partial round afterwards keeps the previous value.
        let mut p = train(0, 1_000, 2);
        p.previous_disp = t.previous_disp;
        assert_eq!(p.dispersion(0, 5, 10), t.previous_disp);
    }

    #[test]
    fn a_partial_burst_scales_only_without_a_previous_value() {
        let mut t = train(0, 4_000, 5);
        // 4 ms / 5 · 10 = 8 ms.
        assert_eq!(t.dispersion(0, 5, 10), Time::from_millis(8));
    }

    #[test]
    fn one_ack_falls_back_to_the_heuristic_then_the_blind_search() {
        let mut t = train(0, 0, 1);
        t.first_interval_us = 3_000;
        // |8 ms − 3 ms|.
        assert_eq!(t.dispersion(8_000, 10, 10), Time::from_millis(5));
        t.first_interval_us = 8_000;
        assert_eq!(t.dispersion(8_000, 10, 10), Time::from_millis(8));
        assert_eq!(t.dispersion(8_000, 10, 10), Time::from_millis(4));
        // The guess is not kept.
        assert_eq!(t.previous_disp, Time::ZERO);
    }
}

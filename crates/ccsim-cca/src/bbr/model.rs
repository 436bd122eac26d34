//! BBR's model of the path (ns-3.44 `TcpBbr`; Linux `tcp_bbr.c`): packet-timed rounds,
//! the bottleneck bandwidth (windowed max of delivery-rate samples), the round-trip
//! propagation time, the full-pipe check and the ACK-aggregation allowance. The state machine
//! that uses them is in the parent module.

use super::*;

impl Bbr {
    /// `CheckFullPipe`: three rounds of less than 25 % growth fill the pipe.
    pub(super) fn check_full_pipe(&mut self, rs: &RateSample) {
        if self.is_pipe_filled || !self.round_start || rs.is_app_limited {
            return;
        }
        if self.max_bw_filter.best() as f64 >= self.full_bandwidth as f64 * FULL_BW_THRESH {
            self.full_bandwidth = self.max_bw_filter.best();
            self.full_bandwidth_count = 0;
            return;
        }
        self.full_bandwidth_count += 1;
        if self.full_bandwidth_count >= FULL_BW_COUNT {
            self.is_pipe_filled = true;
        }
    }

    /// `UpdateRTprop`.
    pub(super) fn update_rt_prop(&mut self, tcb: &TcpState) {
        self.rt_prop_expired = tcb.now > self.rt_prop_stamp + self.config.rtt_window_length;
        if let Some(rtt) = tcb.last_rtt {
            if !matches!(self.rt_prop, Some(rt) if rtt > rt) || self.rt_prop_expired {
                self.set_rt_prop(Some(rtt));
                self.rt_prop_stamp = tcb.now;
            }
        }
    }

    /// `AckAggregationCwnd`.
    pub(super) fn ack_aggregation_cwnd(&self) -> u32 {
        if EXTRA_ACKED_GAIN == 0 || !self.is_pipe_filled {
            return 0;
        }
        let max_aggr_bytes = (self.max_bw_filter.best() / (10 * 8)) as u32;
        let aggr = EXTRA_ACKED_GAIN.wrapping_mul(self.extra_acked[0].max(self.extra_acked[1]));
        aggr.min(max_aggr_bytes)
    }

    /// `UpdateAckAggregation`.
    pub(super) fn update_ack_aggregation(&mut self, tcb: &TcpState, rs: &RateSample) {
        if EXTRA_ACKED_GAIN == 0 || rs.acked_sacked == 0 || rs.delivered < 0 {
            return;
        }
        if self.round_start {
            self.extra_acked_win_rtt = (self.extra_acked_win_rtt + 1).min(31);
            if self.extra_acked_win_rtt >= self.config.extra_acked_rtt_window_length {
                self.extra_acked_win_rtt = 0;
                self.extra_acked_idx ^= 1;
                self.extra_acked[self.extra_acked_idx] = 0;
            }
        }
        // ns-3 stores the epoch length in a uint32_t: whole seconds.
        let epoch_prop = whole_seconds_between(self.ack_epoch_time, tcb.now);
        let mut expected_acked =
            (self.max_bw_filter.best().wrapping_mul(epoch_prop as u64) / 8) as u32;
        if self.ack_epoch_acked <= expected_acked
            || self.ack_epoch_acked.wrapping_add(rs.acked_sacked)
                >= self.config.ack_epoch_acked_reset_thresh
        {
            self.ack_epoch_acked = 0;
            self.ack_epoch_time = tcb.now;
            expected_acked = 0;
        }
        self.ack_epoch_acked = self.ack_epoch_acked.wrapping_add(rs.acked_sacked);
        let extra = self
            .ack_epoch_acked
            .wrapping_sub(expected_acked)
            .min(tcb.cwnd);
        if extra > self.extra_acked[self.extra_acked_idx] {
            self.extra_acked[self.extra_acked_idx] = extra;
        }
    }

    /// `UpdateRound`.
    pub(super) fn update_round(&mut self, rs: &RateSample) {
        if rs.prior_delivered >= self.next_round_delivered {
            self.next_round_delivered = self.delivered;
            self.round_count = self.round_count.wrapping_add(1);
            self.round_start = true;
            self.packet_conservation = false;
        } else {
            self.round_start = false;
        }
    }

    /// `UpdateBottleneckBandwidth`: only valid samples (`delivered ≥ 0`, non-zero interval),
    /// or with `ns3_33_sample_validity` every sample with a non-zero rate.
    pub(super) fn update_btl_bw(&mut self, rs: &RateSample) {
        let skip = if self.config.ns3_33_sample_validity {
            rs.delivery_rate_bps == 0
        } else {
            rs.delivered < 0 || rs.interval == Time::ZERO
        };
        if skip {
            return;
        }
        self.update_round(rs);
        if rs.delivery_rate_bps >= self.max_bw_filter.best() || !rs.is_app_limited {
            self.max_bw_filter
                .update(rs.delivery_rate_bps, self.round_count);
        }
    }
}

/// `static_cast<uint32_t>(now.GetSeconds() - earlier.GetSeconds())`. `GetSeconds` is
/// monotonic and within `t · 2^-52` of exact (under a nanosecond for any `t` below ~10^7 s),
/// so a gap under one second less a microsecond truncates to 0 without the two conversions
/// (~110 instructions per ACK).
pub(super) fn whole_seconds_between(earlier: Time, now: Time) -> u32 {
    const SURELY_UNDER_ONE_S: u64 = 999_999_000;
    if earlier <= now && (now - earlier).as_nanos() < SURELY_UNDER_ONE_S {
        debug_assert_eq!(cast_u32(seconds(now) - seconds(earlier)), 0);
        return 0;
    }
    cast_u32(seconds(now) - seconds(earlier))
}

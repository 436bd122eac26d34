//! SIAD's Linux rules: Kühlewind's module `tcp_siad.c` (see the module docs of [`super`]).

use super::{Siad, MIN_CWND, OFFSET, UNSET};
use crate::TcpState;

impl Siad {
    /// `tcp_siad_cong_avoid`.
    pub(super) fn linux_cong_avoid(&mut self, tcb: &mut TcpState) {
        let mss = tcb.mss;
        let mut cwnd = tcb.cwnd_segs();
        let mut ssthresh = tcb.ssthresh_segs();
        let num_rtt = self.curr_num_rtt;

        let sample = tcb.last_rtt.or(tcb.srtt);
        if let Some(rtt) = sample {
            self.sample_delay(rtt.as_millis(), cwnd, ssthresh, self.increase / num_rtt);
        }
        if cwnd > self.incthresh || cwnd < ssthresh {
            self.min_delay_seen = true;
        }
        let bytes_acked = tcb.last_acked_seq.wrapping_sub(self.prior_snd_una) as u32;
        self.prior_snd_una = tcb.last_acked_seq;
        if !tcb.is_cwnd_limited {
            return;
        }

        let alpha = self.increase / num_rtt;
        if cwnd > ssthresh.wrapping_add(alpha).wrapping_add(2)
            && !self.min_delay_seen
            && self.dec_cnt < num_rtt - 1
            && self.curr_delay != 0
        {
            // Additional Decrease: the base delay was not seen within the first RTT after the
            // reduction, so the queue did not drain.
            self.dec_cnt += 1;
            self.snd_cwnd_cnt = 0;
            let incthresh = self.incthresh;
            let rtts_left = |d: u32| (num_rtt - self.dec_cnt).saturating_sub(d).max(1);
            cwnd = ((self.min_delay as u32).wrapping_mul(ssthresh) as u64 / self.curr_delay) as u32;
            if cwnd > MIN_CWND + OFFSET {
                cwnd -= OFFSET;
                // α that reaches incthresh after one more reduction of the new α.
                self.increase =
                    num_rtt.max(incthresh.wrapping_sub(cwnd).wrapping_mul(num_rtt) / rtts_left(1));
                let alpha = self.increase / num_rtt;
                let reduce = cwnd / rtts_left(0);
                if reduce < alpha {
                    if alpha + MIN_CWND < cwnd {
                        cwnd -= alpha;
                    } else {
                        cwnd = MIN_CWND;
                        self.min_delay_seen = true;
                    }
                } else {
                    if reduce + MIN_CWND < cwnd {
                        cwnd -= reduce;
                    } else {
                        cwnd = MIN_CWND;
                        self.min_delay_seen = true;
                    }
                    self.increase = num_rtt
                        .max(incthresh.wrapping_sub(cwnd).wrapping_mul(num_rtt) / rtts_left(0));
                }
            } else {
                cwnd = MIN_CWND;
                self.min_delay_seen = true;
                self.increase =
                    num_rtt.max(incthresh.wrapping_sub(cwnd).wrapping_mul(num_rtt) / rtts_left(0));
            }
            ssthresh = cwnd - 1;
            if self.increase > cwnd.wrapping_mul(num_rtt) {
                // More than doubling per RTT would be needed: no further decreases.
                self.min_delay_seen = true;
            }
            tcb.cwnd = cwnd.wrapping_mul(mss);
            tcb.ssthresh = ssthresh.wrapping_mul(mss);
            return;
        }

        // Regular increase.
        if self.config.config_num_rtt != 0 {
            self.curr_num_rtt = self.config.config_num_rtt;
        }
        let num_rtt = self.curr_num_rtt;
        let mut acked_pkts = bytes_acked / mss;
        let partial = bytes_acked % mss;
        if partial != 0 || acked_pkts == 0 {
            acked_pkts += 1;
        }
        self.snd_cwnd_cnt = self.snd_cwnd_cnt.wrapping_add(acked_pkts);
        let next = (cwnd.wrapping_mul(num_rtt) / self.increase.max(1)).max(1);
        if self.snd_cwnd_cnt >= next {
            let n = self.snd_cwnd_cnt / next;
            let clamp = self.clamp();
            if cwnd < clamp {
                let inc = acked_pkts.min(n.min(clamp - cwnd));
                cwnd += inc;
                self.increase_performed = true;
                let before = cwnd - inc;
                let incthresh = self.incthresh;
                if cwnd >= ssthresh && before < ssthresh && incthresh > ssthresh {
                    // Entering congestion avoidance: reach incthresh in Num_RTT RTTs.
                    self.increase = num_rtt.max(incthresh - ssthresh);
                } else if (cwnd >= ssthresh && before < ssthresh && incthresh <= ssthresh)
                    || (cwnd >= incthresh && before < incthresh)
                {
                    // Fast Increase starts at α = 1.
                    self.increase = num_rtt;
                } else if cwnd > incthresh && self.increase < (cwnd >> 1).wrapping_mul(num_rtt) {
                    // Fast Increase: α grows by the increase, doubling per RTT.
                    self.increase = self.increase.wrapping_add(inc.wrapping_mul(num_rtt));
                } else if cwnd < ssthresh {
                    // Slow start: α = cwnd.
                    self.increase = cwnd.wrapping_mul(num_rtt);
                }
                tcb.cwnd = cwnd.wrapping_mul(mss);
            }
            self.snd_cwnd_cnt -= n * next;
        }
    }

    /// `tcp_siad_ssthresh`.
    pub(super) fn linux_ssthresh(&mut self, tcb: &TcpState) -> u32 {
        self.snd_cwnd_cnt = 0;
        let snd_cwnd = tcb.cwnd_segs();
        let snd_ssthresh = tcb.ssthresh_segs();
        let num_rtt = self.curr_num_rtt;
        let increase = self.increase;
        let incthresh = self.incthresh;

        // The window when the congestion event happened, about one RTT ago.
        let mut cwnd = snd_cwnd;
        if self.increase_performed {
            if increase >= snd_cwnd.wrapping_mul(num_rtt) || snd_cwnd <= snd_ssthresh {
                cwnd = snd_cwnd >> 1;
            } else if snd_cwnd > incthresh && increase == (snd_cwnd >> 1).wrapping_mul(num_rtt) {
                cwnd -= cwnd / 3;
            } else if snd_cwnd >= incthresh && incthresh > snd_ssthresh && increase == num_rtt {
                cwnd = cwnd.wrapping_sub((incthresh - snd_ssthresh) / num_rtt);
            } else if snd_cwnd > incthresh {
                cwnd = cwnd.wrapping_sub(
                    snd_cwnd
                        .wrapping_sub(MIN_CWND)
                        .min((increase / num_rtt) >> 1),
                );
            } else {
                cwnd = cwnd.wrapping_sub(snd_cwnd.wrapping_sub(MIN_CWND).min(increase / num_rtt));
            }
        }

        self.check_monotonic_min_delay();

        let mut ssthresh = if self.min_delay != UNSET && self.curr_delay != 0 {
            // Adaptive decrease, β = min_delay/curr_delay (as H-TCP).
            ((self.min_delay as u32).wrapping_mul(cwnd) as u64 / self.curr_delay) as u32
        } else {
            cwnd >> 1
        };
        if ssthresh > MIN_CWND + OFFSET {
            ssthresh -= OFFSET;
        } else {
            ssthresh = MIN_CWND;
        }

        self.curr_num_rtt = if self.config.config_num_rtt != 0 {
            self.config.config_num_rtt
        } else if self.config.num_ms != 0 && self.min_delay != UNSET && self.curr_delay != 0 {
            let sum = (self.curr_delay as u32)
                .wrapping_add(self.min_delay as u32)
                .max(1);
            self.config.num_rtt.max((self.config.num_ms << 1) / sum)
        } else {
            self.config.num_rtt
        };
        let num_rtt = self.curr_num_rtt;

        // Trend: amplify the change of the maximum to converge faster.
        let trend = cwnd.wrapping_sub(self.prev_max_cwnd) as i32;
        self.incthresh = if self.prev_max_cwnd < cwnd.wrapping_mul(2) {
            cwnd.wrapping_add(trend as u32).max(ssthresh)
        } else {
            ssthresh
        };
        self.increase = num_rtt.max(self.incthresh.wrapping_sub(ssthresh));
        self.prev_max_cwnd = cwnd;
        ssthresh.wrapping_mul(tcb.mss)
    }
}

//! SIAD as seed 002's ns-3 port `tcp-siad.cpp` runs it (see the module docs of [`super`]).

use super::{Siad, MIN_CWND, NS3_START_SSTHRESH, UNSET};
use crate::TcpState;

impl Siad {
    /// `TcpSiad::IncreaseWindow`.
    pub(super) fn ns3_increase_window(&mut self, tcb: &mut TcpState, segments_acked: u32) {
        if self.is_start {
            self.is_start = false;
            tcb.ssthresh = tcb.mss.wrapping_mul(NS3_START_SSTHRESH);
        }
        let mut cwnd = tcb.cwnd_segs();
        let mut ssthresh = tcb.ssthresh_segs();
        if cwnd > self.incthresh || cwnd < ssthresh {
            self.min_delay_seen = true;
        }
        let num_rtt = self.curr_num_rtt;
        if cwnd > ssthresh.wrapping_add(self.alpha).wrapping_add(2)
            && !self.min_delay_seen
            && self.dec_cnt < num_rtt.wrapping_sub(1)
        {
            // Additional Decrease, without OFFSET.
            self.dec_cnt += 1;
            self.snd_cwnd_cnt = 0;
            let incthresh = self.incthresh;
            let rtts_left = |d: u32| num_rtt.wrapping_sub(self.dec_cnt).wrapping_sub(d).max(1);
            cwnd = (self.min_delay.wrapping_mul(ssthresh as u64) / self.curr_delay.max(1)) as u32;
            if cwnd > MIN_CWND {
                let alpha_new = 1.max(incthresh.wrapping_sub(cwnd) / rtts_left(1));
                let reduce = cwnd / rtts_left(0);
                if reduce >= alpha_new {
                    self.alpha = 1.max(incthresh.wrapping_sub(cwnd) / rtts_left(0));
                    if cwnd > reduce.wrapping_add(MIN_CWND) {
                        cwnd -= reduce;
                    } else {
                        cwnd = MIN_CWND;
                        self.min_delay_seen = true;
                    }
                } else {
                    self.alpha = alpha_new;
                    if cwnd > alpha_new.wrapping_add(MIN_CWND) {
                        cwnd -= self.alpha;
                    } else {
                        cwnd = MIN_CWND;
                        self.min_delay_seen = true;
                    }
                }
            } else {
                cwnd = MIN_CWND;
                self.min_delay_seen = true;
                self.alpha = incthresh.wrapping_sub(cwnd) / rtts_left(0);
            }
            if self.alpha > cwnd {
                self.alpha = cwnd;
                self.min_delay_seen = true;
            }
            self.alpha = self.alpha.max(1);
            ssthresh = cwnd - 1;
        } else {
            // Regular increase.
            self.snd_cwnd_cnt = self.snd_cwnd_cnt.wrapping_add(segments_acked);
            if self.config.config_num_rtt != 0 {
                self.curr_num_rtt = self.config.config_num_rtt;
            }
            let next = (cwnd / self.alpha).max(1);
            if self.snd_cwnd_cnt >= next {
                let n = self.snd_cwnd_cnt / next;
                let clamp = self.clamp();
                if cwnd < clamp {
                    let inc = segments_acked.min(n.min(clamp - cwnd));
                    cwnd += inc;
                    self.increase_performed = true;
                    let before = cwnd - inc;
                    let incthresh = self.incthresh;
                    if cwnd >= ssthresh && before < ssthresh && incthresh > ssthresh {
                        self.alpha = 1.max((incthresh - ssthresh) / self.curr_num_rtt.max(1));
                    } else if (cwnd >= ssthresh && before < ssthresh && incthresh <= ssthresh)
                        || (cwnd >= incthresh && before < incthresh)
                    {
                        self.alpha = 1;
                    } else if cwnd > incthresh && self.alpha < cwnd / 2 {
                        self.alpha = self.alpha.wrapping_add(inc);
                    } else if cwnd < ssthresh {
                        self.alpha = cwnd;
                    }
                    self.alpha = self.alpha.max(1);
                }
                self.snd_cwnd_cnt -= n * next;
            }
        }
        tcb.cwnd = cwnd.max(MIN_CWND).wrapping_mul(tcb.mss);
        tcb.ssthresh = ssthresh.max(MIN_CWND).wrapping_mul(tcb.mss);
    }

    /// `TcpSiad::GetSsThresh`.
    pub(super) fn ns3_ssthresh(&mut self, tcb: &TcpState) -> u32 {
        self.snd_cwnd_cnt = 0;
        let ssthresh = tcb.ssthresh_segs();
        let cwnd = tcb.cwnd_segs();
        let alpha = self.alpha;
        let incthresh = self.incthresh;
        let mut cwnd_max = cwnd;
        if self.increase_performed {
            if alpha == 1 && cwnd >= incthresh && incthresh > ssthresh {
                cwnd_max = cwnd.wrapping_sub((incthresh - ssthresh) / self.curr_num_rtt.max(1));
            } else if alpha >= cwnd / 2 && cwnd > incthresh {
                cwnd_max = cwnd - cwnd / 3;
            } else if alpha >= cwnd && cwnd <= ssthresh {
                cwnd_max = cwnd / 2;
            } else if (cwnd > incthresh || cwnd < ssthresh) && alpha != 1 {
                cwnd_max = cwnd.wrapping_sub(alpha / 2);
            } else {
                cwnd_max = cwnd.wrapping_sub(alpha);
            }
        }

        self.check_monotonic_min_delay();

        let mut new_ssthresh = if self.min_delay != UNSET && self.curr_delay != 0 {
            (self.min_delay.wrapping_mul(cwnd_max as u64) / self.curr_delay) as u32
        } else {
            cwnd_max / 2
        };
        new_ssthresh = new_ssthresh.max(MIN_CWND);

        self.curr_num_rtt = if self.config.config_num_rtt != 0 {
            self.config.config_num_rtt
        } else if self.config.num_ms != 0 && self.min_delay != UNSET && self.curr_delay != 0 {
            let half_sum = (self.curr_delay.wrapping_add(self.min_delay) / 2).max(1);
            let num = (self.config.num_ms as u64 / half_sum) as u32;
            num.max(self.config.num_rtt)
        } else {
            self.config.num_rtt
        };

        let trend = cwnd_max.wrapping_sub(self.prev_max_cwnd) as i32;
        self.incthresh = if self.prev_max_cwnd < cwnd_max.wrapping_mul(2) {
            cwnd_max.wrapping_add(trend as u32).max(new_ssthresh)
        } else {
            new_ssthresh
        };
        // The port divides by the delay in ms where Linux divides by Num_RTT.
        let per_delay = self.incthresh.wrapping_sub(new_ssthresh) as u64 / self.curr_delay.max(1);
        self.alpha = per_delay.max(1) as u32;
        self.prev_max_cwnd = cwnd_max;
        new_ssthresh.wrapping_mul(tcb.mss)
    }
}

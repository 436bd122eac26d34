//! TCP Vegas, as ns-3.44 `TcpVegas` (`src/internet/model/tcp-vegas.cc`); Brakmo & Peterson,
//! "TCP Vegas: End to End Congestion Avoidance on a Global Internet" (1995), Linux
//! `tcp_vegas.c`.
//!
//! Once per RTT, with more than two RTT samples, `diff = cwnd − cwnd·baseRtt/minRtt` (segments)
//! steers cwnd: leave slow start when `diff > gamma`, decrease by one when `diff > beta`,
//! increase by one when `diff < alpha`. Otherwise (and outside Open) NewReno.

use crate::newreno;
use crate::ns3num::{cast_u32, seconds};
use crate::params::Accepts;
use crate::{CongState, CongestionOps, TcpState};
use ccsim_core::Time;

crate::tunables! {
    /// Tunables of [`Vegas`] (attributes of `ns3::TcpVegas`, ns-3.44 defaults).
    pub struct VegasConfig for "vegas" {
        /// Lower bound of packets in network.
        alpha: u32 = 2, Accepts::U32;
        /// Upper bound of packets in network.
        beta: u32 = 4, Accepts::U32;
        /// Limit on increase.
        gamma: u32 = 1, Accepts::U32;
    }
}

/// ns-3 `TcpVegas` state. `None` RTTs are ns-3's `Time::Max()`.
#[derive(Clone, Debug)]
pub struct Vegas {
    pub config: VegasConfig,
    /// Minimum RTT of the connection (`m_baseRtt`).
    base_rtt: Option<Time>,
    /// Minimum RTT of the current RTT (`m_minRtt`).
    min_rtt: Option<Time>,
    /// RTT samples in the current RTT (`m_cntRtt`).
    cnt_rtt: u32,
    /// Vegas active (only in Open) (`m_doingVegasNow`).
    doing_vegas_now: bool,
    /// Right edge of the current Vegas cycle (`m_begSndNxt`).
    beg_snd_nxt: u64,
}

impl Default for Vegas {
    fn default() -> Self {
        Vegas::new(VegasConfig::default())
    }
}

impl Vegas {
    pub fn new(config: VegasConfig) -> Self {
        Vegas {
            config,
            base_rtt: None,
            min_rtt: None,
            cnt_rtt: 0,
            doing_vegas_now: true,
            beg_snd_nxt: 0,
        }
    }

    fn enable_vegas(&mut self, tcb: &TcpState) {
        self.doing_vegas_now = true;
        self.beg_snd_nxt = tcb.next_tx_seq;
        self.cnt_rtt = 0;
        self.min_rtt = None;
    }

    fn newreno_increase(tcb: &mut TcpState, segments_acked: u32) {
        newreno::increase_window_with(
            tcb,
            segments_acked,
            newreno::slow_start,
            newreno::congestion_avoidance,
        );
    }

    /// `TcpVegas::GetSsThresh`: `max(min(ssthresh, cwnd − MSS), 2·MSS)`.
    fn vegas_ssthresh(tcb: &TcpState) -> u32 {
        tcb.ssthresh
            .min(tcb.cwnd.wrapping_sub(tcb.mss))
            .max(2 * tcb.mss)
    }
}

fn time_seconds(t: Option<Time>) -> f64 {
    t.map_or(crate::ns3num::seconds_i64(i64::MAX), seconds)
}

impl CongestionOps for Vegas {
    fn name(&self) -> &'static str {
        "TcpVegas"
    }

    fn ssthresh(&mut self, tcb: &TcpState, _bytes_in_flight: u32) -> u32 {
        Self::vegas_ssthresh(tcb)
    }

    /// `TcpVegas::IncreaseWindow`.
    fn increase_window(&mut self, tcb: &mut TcpState, segments_acked: u32) {
        if !self.doing_vegas_now {
            Self::newreno_increase(tcb, segments_acked);
            return;
        }
        if tcb.last_acked_seq >= self.beg_snd_nxt {
            // A Vegas cycle has finished: adjust once per RTT.
            self.beg_snd_nxt = tcb.next_tx_seq;
            if self.cnt_rtt <= 2 {
                // Not enough RTT samples: behave like NewReno.
                Self::newreno_increase(tcb, segments_acked);
            } else {
                let mut seg_cwnd = tcb.cwnd_segs();
                let tmp = time_seconds(self.base_rtt) / time_seconds(self.min_rtt);
                let target_cwnd = cast_u32(seg_cwnd as f64 * tmp);
                let diff = seg_cwnd.wrapping_sub(target_cwnd);
                if diff > self.config.gamma && tcb.cwnd < tcb.ssthresh {
                    // Too fast in slow start: go to linear mode at the target window.
                    seg_cwnd = seg_cwnd.min(target_cwnd.wrapping_add(1));
                    tcb.cwnd = seg_cwnd.wrapping_mul(tcb.mss);
                    tcb.ssthresh = Self::vegas_ssthresh(tcb);
                } else if tcb.cwnd < tcb.ssthresh {
                    newreno::slow_start(tcb, segments_acked);
                } else if diff > self.config.beta {
                    seg_cwnd = seg_cwnd.wrapping_sub(1);
                    tcb.cwnd = seg_cwnd.wrapping_mul(tcb.mss);
                    tcb.ssthresh = Self::vegas_ssthresh(tcb);
                } else if diff < self.config.alpha {
                    seg_cwnd = seg_cwnd.wrapping_add(1);
                    tcb.cwnd = seg_cwnd.wrapping_mul(tcb.mss);
                }
                tcb.ssthresh = tcb.ssthresh.max(tcb.cwnd.wrapping_mul(3) / 4);
            }
            self.cnt_rtt = 0;
            self.min_rtt = None;
        } else if tcb.cwnd < tcb.ssthresh {
            newreno::slow_start(tcb, segments_acked);
        }
    }

    /// `TcpVegas::PktsAcked`.
    fn pkts_acked(&mut self, _tcb: &mut TcpState, _segments_acked: u32, rtt: Time) {
        if rtt == Time::ZERO {
            return;
        }
        self.min_rtt = Some(self.min_rtt.map_or(rtt, |m| m.min(rtt)));
        self.base_rtt = Some(self.base_rtt.map_or(rtt, |b| b.min(rtt)));
        self.cnt_rtt += 1;
    }

    /// `TcpVegas::CongestionStateSet`: Vegas runs only in Open.
    fn congestion_state_set(&mut self, tcb: &mut TcpState, new_state: CongState) {
        if new_state == CongState::Open {
            self.enable_vegas(tcb);
        } else {
            self.doing_vegas_now = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decreases_when_queue_exceeds_beta() {
        let mut vegas = Vegas::default();
        let mut tcb = TcpState::new(1000, 20, 10_000);
        tcb.next_tx_seq = 20_000;
        // baseRtt 100 ms, this RTT's minimum 200 ms: target = 10, diff = 10 > beta.
        vegas.pkts_acked(&mut tcb, 1, Time::from_millis(100));
        vegas.min_rtt = None;
        for _ in 0..3 {
            vegas.pkts_acked(&mut tcb, 1, Time::from_millis(200));
        }
        tcb.last_acked_seq = 1;
        vegas.beg_snd_nxt = 0;
        vegas.increase_window(&mut tcb, 1);
        assert_eq!(tcb.cwnd, 19_000);
        // ssthresh = max(min(10000, cwnd − MSS), 2·MSS), then raised to 3/4 of cwnd.
        assert_eq!(tcb.ssthresh, 14_250);
    }
}

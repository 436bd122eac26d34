//! TCP Illinois, as ns-3.44 `TcpIllinois` (`src/internet/model/tcp-illinois.cc`); Liu, Başar,
//! Srikant, "TCP-Illinois: A loss- and delay-based congestion control algorithm for high-speed
//! networks" (2008), Linux `tcp_illinois.c`.
//!
//! Once per RTT (when the ACKs pass `end_seq`) alpha and beta are recomputed from the average
//! and maximum queueing delays in *whole milliseconds* (C-AIMD curves). Congestion avoidance adds
//! `alpha` segments per cwnd acknowledged; loss sets `ssthresh = max(2, (1 − beta)·flight)`
//! segments. ns-3 compares the window in *bytes* against `win_thresh` (a segment count) in
//! `RecalcParam`; that is kept.

use crate::newreno;
use crate::ns3num::{cast_u32, millis};
use crate::params::Accepts;
use crate::{CongState, CongestionOps, TcpState};
use ccsim_core::Time;

crate::tunables! {
    /// Tunables of [`Illinois`] (attributes of `ns3::TcpIllinois`, ns-3.44 defaults).
    pub struct IllinoisConfig for "illinois" {
        /// Minimum alpha threshold.
        alpha_min: f64 = 0.3, Accepts::Number { min: f64::MIN_POSITIVE, max: 1e6 };
        /// Maximum alpha threshold.
        alpha_max: f64 = 10.0, Accepts::Number { min: 0.0, max: 1e6 };
        /// Alpha base threshold.
        alpha_base: f64 = 1.0, Accepts::Number { min: 0.0, max: 1e6 };
        /// Minimum beta threshold.
        beta_min: f64 = 0.125, Accepts::Number { min: 0.0, max: 1.0 };
        /// Maximum beta threshold.
        beta_max: f64 = 0.5, Accepts::Number { min: 0.0, max: 1.0 };
        /// Beta base threshold.
        beta_base: f64 = 0.5, Accepts::Number { min: 0.0, max: 1.0 };
        /// Window threshold.
        win_thresh: u32 = 15, Accepts::U32;
        /// Theta threshold (RTTs of low delay before alpha goes to alpha_max).
        theta: u32 = 5, Accepts::U32;
    }
}

/// ns-3 `TcpIllinois` state. `None` RTT bounds are ns-3's `Time::Max()` / `Time::Min()`.
#[derive(Clone, Debug)]
pub struct Illinois {
    pub config: IllinoisConfig,
    /// Sum of RTT samples during the last RTT (`m_sumRtt`).
    sum_rtt: Time,
    /// Number of RTT samples during the last RTT (`m_cntRtt`).
    cnt_rtt: u32,
    /// Minimum of all RTT samples (`m_baseRtt`).
    base_rtt: Option<Time>,
    /// Maximum of all RTT samples (`m_maxRtt`).
    max_rtt: Option<Time>,
    /// Right edge of the current RTT (`m_endSeq`).
    end_seq: u64,
    /// True when da > d1 (`m_rttAbove`).
    rtt_above: bool,
    /// Number of RTTs da has stayed below d1 (`m_rttLow`, uint8_t).
    rtt_low: u8,
    alpha: f64,
    beta: f64,
    /// Weighted acknowledged segments (`m_ackCnt`, uint32_t).
    ack_cnt: u32,
}

impl Default for Illinois {
    fn default() -> Self {
        Illinois::new(IllinoisConfig::default())
    }
}

impl Illinois {
    pub fn new(config: IllinoisConfig) -> Self {
        Illinois {
            alpha: config.alpha_max,
            beta: config.beta_base,
            config,
            sum_rtt: Time::ZERO,
            cnt_rtt: 0,
            base_rtt: None,
            max_rtt: None,
            end_seq: 0,
            rtt_above: false,
            rtt_low: 0,
            ack_cnt: 0,
        }
    }

    /// `TcpIllinois::RecalcParam` (`cwnd` in bytes, as ns-3 passes it).
    fn recalc_param(&mut self, cwnd: u32) {
        if cwnd < self.config.win_thresh {
            self.alpha = self.config.alpha_base;
            self.beta = self.config.beta_base;
        } else if self.cnt_rtt > 0 {
            let base = self.base_rtt.unwrap_or(Time::ZERO);
            let max = self.max_rtt.unwrap_or(Time::ZERO);
            let dm = millis(max.saturating_sub(base)) as f64;
            let avg = Time::from_nanos(self.sum_rtt.as_nanos() / self.cnt_rtt as u64);
            let da = millis(avg.saturating_sub(base)) as f64;
            self.calculate_alpha(da, dm);
            self.calculate_beta(da, dm);
        }
    }

    /// `TcpIllinois::CalculateAlpha`.
    fn calculate_alpha(&mut self, mut da: f64, mut dm: f64) {
        let c = &self.config;
        let d1 = dm / 100.0;
        if da <= d1 {
            if !self.rtt_above {
                self.alpha = c.alpha_max;
            }
            self.rtt_low = self.rtt_low.wrapping_add(1);
            if self.rtt_low as u32 >= c.theta {
                self.rtt_low = 0;
                self.rtt_above = false;
                self.alpha = c.alpha_max;
            }
        } else {
            self.rtt_above = true;
            dm -= d1;
            da -= d1;
            self.alpha =
                (dm * c.alpha_max) / (dm + (da * (c.alpha_max - c.alpha_min)) / c.alpha_min);
        }
    }

    /// `TcpIllinois::CalculateBeta`.
    fn calculate_beta(&mut self, da: f64, dm: f64) {
        let c = &self.config;
        let d2 = dm / 10.0;
        let d3 = (8.0 * dm) / 10.0;
        if da <= d2 {
            self.beta = c.beta_min;
        } else if da > d2 && da < d3 {
            self.beta =
                (c.beta_min * d3 - c.beta_max * d2 + (c.beta_max - c.beta_min) * da) / (d3 - d2);
        } else if da >= d3 || d3 <= d2 {
            self.beta = c.beta_max;
        }
    }

    /// `TcpIllinois::Reset`.
    fn reset(&mut self, next_tx_seq: u64) {
        self.end_seq = next_tx_seq;
        self.cnt_rtt = 0;
        self.sum_rtt = Time::ZERO;
    }
}

impl CongestionOps for Illinois {
    fn name(&self) -> &'static str {
        "TcpIllinois"
    }

    /// `TcpIllinois::GetSsThresh`: `max(2, (1 − beta)·flight)` segments.
    fn ssthresh(&mut self, tcb: &TcpState, bytes_in_flight: u32) -> u32 {
        let seg_flight = bytes_in_flight / tcb.mss;
        cast_u32(2f64.max((1.0 - self.beta) * seg_flight as f64)).wrapping_mul(tcb.mss)
    }

    /// `TcpIllinois::IncreaseWindow`.
    fn increase_window(&mut self, tcb: &mut TcpState, segments_acked: u32) {
        if tcb.last_acked_seq >= self.end_seq {
            self.recalc_param(tcb.cwnd);
            self.reset(tcb.next_tx_seq);
        }
        if tcb.cwnd < tcb.ssthresh {
            newreno::slow_start(tcb, segments_acked);
        } else {
            let mut seg_cwnd = tcb.cwnd_segs();
            let old_cwnd = seg_cwnd;
            if segments_acked > 0 {
                self.ack_cnt = cast_u32(self.ack_cnt as f64 + segments_acked as f64 * self.alpha);
            }
            // ns-3 loops forever on a zero-segment cwnd; cwnd never falls below one MSS there.
            if seg_cwnd > 0 {
                while self.ack_cnt >= seg_cwnd {
                    self.ack_cnt -= seg_cwnd;
                    seg_cwnd += 1;
                }
            }
            if seg_cwnd != old_cwnd {
                tcb.cwnd = seg_cwnd.wrapping_mul(tcb.mss);
            }
        }
    }

    /// `TcpIllinois::PktsAcked`: RTT statistics of the current RTT.
    fn pkts_acked(&mut self, _tcb: &mut TcpState, _segments_acked: u32, rtt: Time) {
        if rtt == Time::ZERO {
            return;
        }
        self.base_rtt = Some(self.base_rtt.map_or(rtt, |b| b.min(rtt)));
        self.max_rtt = Some(self.max_rtt.map_or(rtt, |m| m.max(rtt)));
        self.cnt_rtt += 1;
        self.sum_rtt += rtt;
    }

    /// `TcpIllinois::CongestionStateSet`: a timeout returns to standard AIMD.
    fn congestion_state_set(&mut self, tcb: &mut TcpState, new_state: CongState) {
        if new_state == CongState::Loss {
            self.alpha = self.config.alpha_base;
            self.beta = self.config.beta_base;
            self.rtt_low = 0;
            self.rtt_above = false;
            self.reset(tcb.next_tx_seq);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alpha_max_at_low_delay_and_standard_backoff() {
        let mut ill = Illinois::default();
        let tcb = TcpState::new(1000, 100, 1000);
        assert_eq!(ill.alpha, 10.0);
        assert_eq!(ill.ssthresh(&tcb, 100_000), 50_000);
        // Average queueing delay 87 ms of a 100 ms maximum (>= 80%): beta_max, small alpha.
        for rtt in [100u64, 200, 200, 200, 200, 200, 200, 200] {
            ill.pkts_acked(
                &mut TcpState::new(1000, 100, 1000),
                1,
                Time::from_millis(rtt),
            );
        }
        ill.recalc_param(100_000);
        assert_eq!(ill.beta, 0.5);
        assert!(ill.alpha < 1.0, "{}", ill.alpha);
    }
}

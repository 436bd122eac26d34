//! YeAH-TCP, as ns-3.44 `TcpYeah` (`src/internet/model/tcp-yeah.cc`); Baiocchi, Castellani,
//! Vacirca, "YeAH-TCP: Yet Another Highspeed TCP" (PFLDnet 2007), Linux `tcp_yeah.c`.
//!
//! Slow start is NewReno's. In "fast" mode cwnd grows by Scalable TCP's rule (an embedded
//! `TcpScalable` with `AIFactor = stcp_ai_factor`); in "slow" mode by NewReno's. Once per RTT the
//! queue backlog `Q = cwnd·(minRtt − baseRtt)/minRtt` and the congestion level
//! `L = (minRtt − baseRtt)/baseRtt` pick the mode and may trigger precautionary decongestion.
//! As in ns-3, `L` is compared with `1 / phy` in *integer* arithmetic (0 for phy > 1).
//!
//! ns-3 builds the embedded Scalable in the constructor with the *default* `StcpAiFactor`
//! (100), before attributes are applied, so changing that attribute has no effect there; ccsim
//! applies `stcp_ai_factor`. Defaults behave identically.

use crate::newreno;
use crate::ns3num::{cast_u32, seconds};
use crate::params::Accepts;
use crate::scalable::{Scalable, ScalableConfig};
use crate::{CongState, CongestionOps, TcpState};
use ccsim_core::Time;

crate::tunables! {
    /// Tunables of [`Yeah`] (attributes of `ns3::TcpYeah`, ns-3.44 defaults).
    pub struct YeahConfig for "yeah" {
        /// Maximum backlog allowed at the bottleneck queue (segments).
        alpha: u32 = 80, Accepts::U32;
        /// Fraction of queue to be removed per RTT.
        gamma: u32 = 1, Accepts::Integer { min: 1, max: u32::MAX as u64 };
        /// Log minimum fraction of cwnd to be removed on loss.
        delta: u32 = 3, Accepts::Integer { min: 0, max: 31 };
        /// Log maximum fraction to be removed on early decongestion.
        epsilon: u32 = 1, Accepts::Integer { min: 0, max: 31 };
        /// Maximum delta from base.
        phy: u32 = 8, Accepts::Integer { min: 1, max: u32::MAX as u64 };
        /// Minimum number of consecutive RTTs to consider competition on loss.
        rho: u32 = 16, Accepts::U32;
        /// Minimum number of state switches to reset reno_count.
        zeta: u32 = 50, Accepts::U32;
        /// STCP additive increase factor.
        stcp_ai_factor: u32 = 100, Accepts::Integer { min: 1, max: u32::MAX as u64 };
    }
}

/// ns-3 `TcpYeah` state. `None` RTTs are ns-3's `Time::Max()`.
#[derive(Clone, Debug)]
pub struct Yeah {
    pub config: YeahConfig,
    /// The Scalable TCP used in fast mode (`m_stcp`).
    stcp: Scalable,
    /// Minimum RTT of the connection (`m_baseRtt`).
    base_rtt: Option<Time>,
    /// Minimum RTT of the current round (`m_minRtt`).
    min_rtt: Option<Time>,
    /// RTT samples this round (`m_cntRtt`).
    cnt_rtt: u32,
    /// YeAH active (`m_doingYeahNow`; ns-3 sets it but never reads it).
    doing_yeah_now: bool,
    /// Right edge of the current round (`m_begSndNxt`).
    beg_snd_nxt: u64,
    /// Last estimated queue backlog, segments (`m_lastQ`).
    last_q: u32,
    /// Consecutive RTTs in slow (Reno) mode (`m_doingRenoNow`).
    doing_reno_now: u32,
    /// Estimated Reno cwnd share (`m_renoCount`).
    reno_count: u32,
    /// Consecutive RTTs in fast mode (`m_fastCount`).
    fast_count: u32,
}

impl Default for Yeah {
    fn default() -> Self {
        Yeah::new(YeahConfig::default())
    }
}

impl Yeah {
    pub fn new(config: YeahConfig) -> Self {
        let stcp = Scalable::new(ScalableConfig {
            ai_factor: config.stcp_ai_factor,
            ..ScalableConfig::default()
        });
        Yeah {
            config,
            stcp,
            base_rtt: None,
            min_rtt: None,
            cnt_rtt: 0,
            doing_yeah_now: true,
            beg_snd_nxt: 0,
            last_q: 0,
            doing_reno_now: 0,
            reno_count: 2,
            fast_count: 0,
        }
    }

    /// Whether the last round ran YeAH (Open state).
    pub fn doing_yeah_now(&self) -> bool {
        self.doing_yeah_now
    }

    /// The once-per-RTT YeAH decision (the `m_cntRtt > 2` branch of `IncreaseWindow`).
    fn end_of_round(&mut self, tcb: &mut TcpState) {
        let c = &self.config;
        let mut seg_cwnd = tcb.cwnd_segs();
        let (Some(min_rtt), Some(base_rtt)) = (self.min_rtt, self.base_rtt) else {
            return;
        };
        let rtt_queue = min_rtt.saturating_sub(base_rtt);
        // queue = rttQueue * bw = rttQueue * (cwnd / minRtt)
        let bw = seg_cwnd as f64 / seconds(min_rtt);
        let queue = cast_u32(bw * seconds(rtt_queue));
        let l = seconds(rtt_queue) / seconds(base_rtt);
        if queue > c.alpha || l > (1 / c.phy) as f64 {
            // Slow mode.
            if queue > c.alpha && seg_cwnd > self.reno_count {
                // Precautionary decongestion.
                let reduction = (queue / c.gamma).min(seg_cwnd >> c.epsilon);
                seg_cwnd -= reduction;
                seg_cwnd = seg_cwnd.max(self.reno_count);
                tcb.cwnd = seg_cwnd.wrapping_mul(tcb.mss);
                tcb.ssthresh = tcb.cwnd;
            }
            if self.reno_count <= 2 {
                self.reno_count = (seg_cwnd >> 1).max(2);
            } else {
                self.reno_count += 1;
            }
            self.doing_reno_now = self.doing_reno_now.wrapping_add(1);
        } else {
            // Fast mode.
            self.fast_count += 1;
            if self.fast_count > c.zeta {
                self.reno_count = 2;
                self.fast_count = 0;
            }
            self.doing_reno_now = 0;
        }
        self.last_q = queue;
    }
}

impl CongestionOps for Yeah {
    fn name(&self) -> &'static str {
        "TcpYeah"
    }

    /// `TcpYeah::GetSsThresh`.
    fn ssthresh(&mut self, tcb: &TcpState, bytes_in_flight: u32) -> u32 {
        let seg_flight = bytes_in_flight / tcb.mss;
        let reduction = if self.doing_reno_now < self.config.rho {
            // Not competing with Reno flows.
            self.last_q
                .max(seg_flight >> self.config.delta)
                .min((seg_flight >> 1).max(2))
        } else {
            // Competing with Reno flows.
            (seg_flight >> 1).max(2)
        };
        self.fast_count = 0;
        self.reno_count = (self.reno_count >> 1).max(2);
        // Allow at least two segments to go out (unsigned arithmetic, as ns-3).
        bytes_in_flight
            .wrapping_sub(reduction.wrapping_mul(tcb.mss))
            .max(2 * tcb.mss)
    }

    /// `TcpYeah::IncreaseWindow`.
    fn increase_window(&mut self, tcb: &mut TcpState, segments_acked: u32) {
        if tcb.cwnd < tcb.ssthresh {
            newreno::slow_start(tcb, segments_acked);
        } else if self.doing_reno_now == 0 {
            // Fast mode: Scalable TCP's increase.
            self.stcp.increase_window(tcb, segments_acked);
        } else {
            newreno::congestion_avoidance(tcb, segments_acked);
        }

        if tcb.last_acked_seq >= self.beg_snd_nxt {
            // A YeAH round has finished.
            if self.cnt_rtt > 2 {
                self.end_of_round(tcb);
            }
            self.beg_snd_nxt = tcb.next_tx_seq;
            self.cnt_rtt = 0;
            self.min_rtt = None;
        }
    }

    /// `TcpYeah::PktsAcked`.
    fn pkts_acked(&mut self, _tcb: &mut TcpState, _segments_acked: u32, rtt: Time) {
        if rtt == Time::ZERO {
            return;
        }
        self.min_rtt = Some(self.min_rtt.map_or(rtt, |m| m.min(rtt)));
        self.base_rtt = Some(self.base_rtt.map_or(rtt, |b| b.min(rtt)));
        self.cnt_rtt += 1;
    }

    /// `TcpYeah::CongestionStateSet`: YeAH runs in Open, restarting its round there.
    fn congestion_state_set(&mut self, tcb: &mut TcpState, new_state: CongState) {
        if new_state == CongState::Open {
            self.doing_yeah_now = true;
            self.beg_snd_nxt = tcb.next_tx_seq;
            self.cnt_rtt = 0;
            self.min_rtt = None;
        } else {
            self.doing_yeah_now = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loss_reduction_uses_last_queue_or_an_eighth() {
        let mut y = Yeah::default();
        let tcb = TcpState::new(1000, 100, 1000);
        // No queue estimate yet: reduction = flight/8 segments.
        assert_eq!(y.ssthresh(&tcb, 80_000), 70_000);
        y.last_q = 30;
        assert_eq!(y.ssthresh(&tcb, 80_000), 50_000);
        // Never more than half, never below two segments.
        y.last_q = 1000;
        assert_eq!(y.ssthresh(&tcb, 80_000), 40_000);
        assert_eq!(y.ssthresh(&tcb, 2_000), 2_000);
    }
}

//! TCP SIAD, Scalable Increase Adaptive Decrease (M. Kühlewind, "TCP SIAD: Congestion Control
//! supporting Low Latency and High Speed", PhD thesis and IETF drafts, Uni Stuttgart; seed 002:
//! Scharnitzky et al., TCP SIAD vs BBR over 5G mmWave in ns-3).
//!
//! Two versions, chosen by [`SiadConfig::ns3_port_compat`]:
//!
//! - **Linux** (default): the rules of Kühlewind's Linux module `tcp_siad.c`
//!   (`xianliangjiang/CellNet-CCAEvals`, `algs-extension/siad/tcp_siad.c`, kernel 3.5.7 API),
//!   re-implemented from that source and `shared/reference/ANCHORS.md` §2.2–2.3.
//! - **ns-3 port** (`ns3_port_compat = true`): the port seed 002 ran
//!   (`dscharnitzky/ns3-mmwave-tcp-bbr-siad`, `src/internet/model/tcp-siad.{h,cpp}`), with its
//!   departures from Linux (ANCHORS §2.4), reproduced on purpose so that seed 002 can be matched.
//!
//! # The Linux rules (default)
//!
//! Windows are counted in segments (`cwnd = tcb.cwnd / MSS`, `ssthresh = tcb.ssthresh / MSS`,
//! written back as whole segments when SIAD changes them); delays in whole milliseconds, as the
//! module's TCP-timestamp clock (`tcp_time_stamp − rcv_tsecr` at HZ = 1000). Constants:
//! `OFFSET` = 1 segment, `MIN_CWND` = 2, `MIN_RTT` = 2 (floor of Num_RTT).
//!
//! - **Init** (`tcp_siad_init`): `Num_RTT = num_rtt`; `increase = cwnd·Num_RTT` (the module
//!   stores `increase = α·Num_RTT` so that α below one segment per RTT is representable);
//!   `incthresh = prev_max_cwnd = cwnd`; all delays unset; `min_delay_seen = 1`.
//! - **Per ACK** ([`CongestionOps::increase_window`], Linux `cong_avoid`):
//!   1. delay = this ACK's RTT sample (`tcb.last_rtt`; `tcb.srtt` if none, as the module falls
//!      back to `srtt`); `curr_delay = min(delay, prev_delay)` drops single outliers;
//!      `min_delay` is the minimum (seeing it again sets `min_delay_seen`); `curr_min_delay` the
//!      minimum since the last congestion event; the same current minimum seen while
//!      `cwnd > ssthresh + α + 1` resets `min_delay` to it ("base delay moved");
//!   2. `min_delay_seen = 1` in slow start or above `incthresh` (no Additional Decrease there);
//!   3. nothing more unless the sender is cwnd-limited (`tcb.is_cwnd_limited`);
//!   4. **Additional Decrease** when `cwnd > ssthresh + α + 2`, `!min_delay_seen` and
//!      `dec_cnt < Num_RTT − 1`: `cwnd = min_delay·ssthresh/curr_delay − OFFSET`, α recomputed so
//!      that `incthresh` is reached in the remaining RTTs, cwnd reduced by
//!      `max(α, cwnd/(Num_RTT − dec_cnt))` with floor `MIN_CWND`, `ssthresh = cwnd − 1`; stop once
//!      `increase > cwnd·Num_RTT`;
//!   5. otherwise the **regular increase** (`tcp_cong_avoid_ai` with variable α): acked segments
//!      = acked bytes / MSS rounded up; `next = max(1, cwnd·Num_RTT/increase)`; grow by
//!      `min(acked, cnt/next, clamp − cwnd)`; then α := `(incthresh − ssthresh)/Num_RTT` on
//!      crossing ssthresh below incthresh, α := 1 on crossing ssthresh without incthresh or on
//!      reaching incthresh (Fast Increase starts), `increase += inc·Num_RTT` above incthresh
//!      while `increase < (cwnd/2)·Num_RTT` (Fast Increase doubles per RTT, at most 1.5·cwnd),
//!      α := cwnd in slow start.
//! - **Loss** ([`CongestionOps::ssthresh`]): estimate the window of one RTT ago (halve if
//!   `increase ≥ cwnd·Num_RTT` or in slow start; `− cwnd/3` at the Fast Increase maximum;
//!   `− (incthresh − ssthresh)/Num_RTT` just after entering Fast Increase; `− α/2` in Fast
//!   Increase; `− α` otherwise); reset `min_delay` after three monotonically increasing
//!   minima; `ssthresh = min_delay·cwnd/curr_delay − OFFSET` (adaptive decrease; `cwnd/2` without
//!   delay information), floor `MIN_CWND`; `Num_RTT = max(num_rtt, 2·num_ms/(curr_delay +
//!   min_delay))` when `num_ms` is set; **trend** `cwnd − prev_max_cwnd` gives
//!   `incthresh = max(cwnd + trend, ssthresh)` (or ssthresh if `prev_max_cwnd ≥ 2·cwnd`);
//!   `increase = max(Num_RTT, incthresh − ssthresh)`.
//! - `cwnd_event(CompleteCwr)` resets the per-epoch state. Linux's `tcp_siad_undo_cwnd`
//!   (return `incthresh`, restore `incthresh = prev_max_cwnd`) is not ported: ccsim never
//!   undoes a window reduction (it detects no spurious retransmission), so nothing calls it.
//!
//! # The ns-3 port (`ns3_port_compat = true`)
//!
//! As `tcp-siad.cpp`, including its initial attribute values (`Alpha`/`Incthresh`/
//! `PreviousMaxCwnd` 10 segments, `CurrNumRtt` 0 until the first loss, `MinDelaySeen` false):
//! 1. α is stored directly (integer segments per RTT), not `increase = α·Num_RTT`;
//! 2. after a loss `α = max(1, (incthresh − ssthresh)/curr_delay)`, dividing by the delay in ms
//!    instead of by Num_RTT;
//! 3. no `OFFSET` subtraction, neither in the loss response nor in Additional Decrease;
//! 4. the delay is `PktsAcked`'s `rtt` argument in whole ms — the *smoothed* RTT in ns-3.44 — and
//!    is sampled on every `PktsAcked` (dupACKs and recovery included), not only in `cong_avoid`;
//! 5. `snd_cwnd_clamp` is 666 segments (`SendCwndClamp` attribute);
//! 6. the first `IncreaseWindow` forces `ssthresh = 20·MSS`;
//! 7. no undo (ns-3 has no `undo_cwnd`);
//! 8. the five window-estimate cases are tested in another order (`α == 1 …` first);
//! 9. acked segments are `segmentsAcked` (no rounding up of bytes), and the regular increase
//!    runs whether or not the sender is cwnd-limited (the port has no such check);
//! 10. cwnd and ssthresh are written back as whole segments after every `IncreaseWindow`,
//!     floored at 2 segments.
//!
//! # Where ccsim departs from both (unreachable in normal runs)
//!
//! Both sources divide by zero on the `(Num_RTT − 1)`-th Additional Decrease of an epoch
//! (`(incthresh − cwnd)·Num_RTT/(Num_RTT − dec_cnt − 1)`); ccsim divides by 1 there. The port
//! also divides by a zero `curr_delay` (RTT below 1 ms) and by `CurrNumRtt = 0` before the first
//! loss; ccsim divides by 1. Linux mode skips the delay update while no RTT is known at all
//! (the module would read a zero `srtt`), and skips Additional Decrease while `curr_delay` is 0.

use crate::params::{bool_param, u32_param, ParamSpec, Tunables};
use crate::{CaEvent, CcaError, CongestionOps, TcpState};
use ccsim_core::Time;
use serde_json::Value;

/// Rounding offset, segments (`OFFSET`).
const OFFSET: u32 = 1;
/// Minimum congestion window, segments (`MIN_CWND`, ns-3 `minCwnd`).
const MIN_CWND: u32 = 2;
/// Floor of Num_RTT (`MIN_RTT`).
const MIN_NUM_RTT: u32 = 2;
/// The "unset delay" sentinel of both sources (`INT_MAX`).
const UNSET: u64 = i32::MAX as u64;
/// ns-3 port: initial `Alpha`, `Incthresh` and `PreviousMaxCwnd` attribute values (segments).
const NS3_INITIAL_WINDOW: u32 = 10;
/// ns-3 port: `SendCwndClamp` attribute default (segments).
const NS3_CWND_CLAMP: u32 = 666;
/// ns-3 port: ssthresh forced on the first `IncreaseWindow` (segments).
const NS3_START_SSTHRESH: u32 = 20;

/// Tunables of [`Siad`].
#[derive(Clone, Debug, PartialEq)]
pub struct SiadConfig {
    /// Desired number of RTTs between two congestion events (Linux module parameter `num_rtt`;
    /// the ns-3 port's constant `default_num_rtt`). Default 20.
    pub num_rtt: u32,
    /// Per-connection Num_RTT override, 0 = unset (Linux socket option `TCP_SIAD_NUM_RTT`; ns-3
    /// attribute `ConfigNumRtt`). Default 0.
    pub config_num_rtt: u32,
    /// Desired milliseconds between two congestion events, 0 = off (Linux `num_ms`; ns-3
    /// `ConfigNumMs`). Default 0.
    pub num_ms: u32,
    /// Largest cwnd in segments (`snd_cwnd_clamp`; ns-3 `SendCwndClamp`). `None`: unlimited in
    /// Linux mode, 666 with `ns3_port_compat`.
    pub snd_cwnd_clamp: Option<u32>,
    /// Reproduce the ns-3 port used by seed 002 instead of the Linux module.
    pub ns3_port_compat: bool,
}

impl Default for SiadConfig {
    fn default() -> Self {
        SiadConfig {
            num_rtt: 20,
            config_num_rtt: 0,
            num_ms: 0,
            snd_cwnd_clamp: None,
            ns3_port_compat: false,
        }
    }
}

impl Tunables for SiadConfig {
    const ALGORITHM: &'static str = "siad";
    const PARAMS: &'static [ParamSpec] = &[
        ParamSpec {
            name: "num_rtt",
            help: "Desired RTTs between two congestion events (Linux num_rtt), at least 2",
        },
        ParamSpec {
            name: "config_num_rtt",
            help: "Per-connection Num_RTT override, 0 = unset (ns-3 ConfigNumRtt)",
        },
        ParamSpec {
            name: "num_ms",
            help: "Desired ms between two congestion events, 0 = off (ns-3 ConfigNumMs)",
        },
        ParamSpec {
            name: "snd_cwnd_clamp",
            help: "Largest cwnd in segments (default unlimited; 666 with ns3_port_compat)",
        },
        ParamSpec {
            name: "ns3_port_compat",
            help: "Reproduce the ns-3 port of seed 002 (tcp-siad.cpp) instead of Linux tcp_siad.c",
        },
    ];

    fn set(&mut self, key: &str, v: &Value) -> Result<(), CcaError> {
        let a = Self::ALGORITHM;
        match key {
            "num_rtt" => self.num_rtt = u32_param(a, key, v, MIN_NUM_RTT, 1_000_000)?,
            "config_num_rtt" => {
                self.config_num_rtt = u32_param(a, key, v, 0, 1_000_000)?;
                if self.config_num_rtt == 1 {
                    return Err(CcaError::BadValue {
                        algorithm: a,
                        parameter: key.to_string(),
                        expected: "0 (unset) or an integer in [2, 1000000]".into(),
                        got: v.to_string(),
                    });
                }
            }
            "num_ms" => self.num_ms = u32_param(a, key, v, 0, u32::MAX / 2)?,
            "snd_cwnd_clamp" => self.snd_cwnd_clamp = Some(u32_param(a, key, v, 2, u32::MAX)?),
            "ns3_port_compat" => self.ns3_port_compat = bool_param(a, key, v)?,
            _ => unreachable!("checked by from_params"),
        }
        Ok(())
    }
}

/// TCP SIAD state (Linux `struct siad` / ns-3 `TcpSiad` members). Windows in segments, delays
/// in ms (`INT_MAX` = "not measured", as both sources).
#[derive(Clone, Debug)]
pub struct Siad {
    pub config: SiadConfig,
    /// Current Num_RTT (`curr_num_rtt`).
    curr_num_rtt: u32,
    /// Linux: `increase = α·Num_RTT`.
    increase: u32,
    /// ns-3 port: α itself.
    alpha: u32,
    /// Estimated maximum cwnd at the previous congestion event (`prev_max_cwnd`).
    prev_max_cwnd: u32,
    /// Target window of the linear increase, start of Fast Increase (`incthresh`).
    incthresh: u32,
    /// Linux: `snd_una` at the previous `cong_avoid` (`prior_snd_una`).
    prior_snd_una: u64,
    /// Previous delay sample (`prev_delay`).
    prev_delay: u64,
    /// Filtered current delay (`curr_delay`).
    curr_delay: u64,
    /// Base delay (`min_delay`).
    min_delay: u64,
    /// Minimum delay since the last congestion event (`curr_min_delay`).
    curr_min_delay: u64,
    /// Additional decreases in this epoch (`dec_cnt`).
    dec_cnt: u32,
    /// The base delay was seen since the last reduction: no Additional Decrease (`min_delay_seen`).
    min_delay_seen: bool,
    /// At least one increase since the last decrease (`increase_performed`).
    increase_performed: bool,
    /// Previous minimum delays, for the monotonic-increase reset (`prev_min_delay1..3`).
    prev_min_delay: [u64; 3],
    /// ACK counter of the linear increase (`tp->snd_cwnd_cnt`; ns-3 `snd_cwnd_cnt`).
    snd_cwnd_cnt: u32,
    /// ns-3 port: the first `IncreaseWindow` is still to come (`isStart`).
    is_start: bool,
}

impl Default for Siad {
    fn default() -> Self {
        Siad::new(SiadConfig::default())
    }
}

impl Siad {
    pub fn new(config: SiadConfig) -> Self {
        let compat = config.ns3_port_compat;
        let w = NS3_INITIAL_WINDOW;
        Siad {
            // ns-3 attribute `CurrNumRtt` starts at 0; Linux sets it in init.
            curr_num_rtt: if compat { 0 } else { config.num_rtt },
            increase: w.wrapping_mul(config.num_rtt),
            alpha: w,
            prev_max_cwnd: w,
            incthresh: w,
            prior_snd_una: 0,
            prev_delay: UNSET,
            curr_delay: if compat { UNSET } else { 0 },
            min_delay: UNSET,
            curr_min_delay: UNSET,
            dec_cnt: 0,
            // Linux init sets 1; the port's `MinDelaySeen` attribute starts false.
            min_delay_seen: !compat,
            increase_performed: false,
            prev_min_delay: [0; 3],
            snd_cwnd_cnt: 0,
            is_start: true,
            config,
        }
    }

    fn clamp(&self) -> u32 {
        self.config
            .snd_cwnd_clamp
            .unwrap_or(if self.config.ns3_port_compat {
                NS3_CWND_CLAMP
            } else {
                u32::MAX
            })
    }

    /// The base delay in ms, if measured.
    pub fn min_delay_ms(&self) -> Option<u64> {
        (self.min_delay != UNSET).then_some(self.min_delay)
    }

    /// α in segments per RTT (`increase / Num_RTT` in Linux mode).
    pub fn alpha(&self) -> u32 {
        if self.config.ns3_port_compat {
            self.alpha
        } else {
            self.increase / self.curr_num_rtt.max(1)
        }
    }

    /// The target window `incthresh`, segments.
    pub fn incthresh(&self) -> u32 {
        self.incthresh
    }

    /// The current Num_RTT.
    pub fn num_rtt(&self) -> u32 {
        self.curr_num_rtt
    }

    /// Three monotonically increasing minima reset `min_delay` to the first of them (both
    /// versions; Linux keeps the three in `u16`).
    fn check_monotonic_min_delay(&mut self) {
        let linux = !self.config.ns3_port_compat;
        let store = |d: u64| if linux { d as u16 as u64 } else { d };
        let m = self.min_delay;
        let p = &mut self.prev_min_delay;
        if m < p[0] || m < p[1] || m < p[2] {
            *p = [0; 3];
        } else if m > p[0] {
            if p[0] == 0 {
                p[0] = store(m);
            } else if p[1] == 0 {
                p[1] = store(m);
            } else if m > p[1] {
                if p[2] == 0 {
                    p[2] = store(m);
                } else if m > p[2] {
                    self.min_delay = p[0];
                    p[1] = 0;
                    p[2] = 0;
                }
            }
        }
    }

    /// The delay filter shared by both versions (Linux `cong_avoid` head, ns-3 `PktsAcked`).
    fn sample_delay(&mut self, delay: u64, cwnd: u32, ssthresh: u32, alpha: u32) {
        self.curr_delay = delay.min(self.prev_delay);
        self.prev_delay = delay;
        if self.min_delay == UNSET || delay <= self.min_delay {
            self.min_delay = delay;
            self.min_delay_seen = true;
            self.curr_min_delay = delay;
        } else if delay <= self.curr_min_delay {
            self.curr_min_delay = delay;
            if cwnd > ssthresh.wrapping_add(alpha).wrapping_add(1) {
                // The same minimum over several RTTs: the base delay moved.
                self.min_delay = delay;
                self.min_delay_seen = true;
            }
        }
    }

    // ---- Linux tcp_siad.c ----

    /// `tcp_siad_cong_avoid`.
    fn linux_cong_avoid(&mut self, tcb: &mut TcpState) {
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
    fn linux_ssthresh(&mut self, tcb: &TcpState) -> u32 {
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

    // ---- ns-3 port tcp-siad.cpp ----

    /// `TcpSiad::IncreaseWindow`.
    fn ns3_increase_window(&mut self, tcb: &mut TcpState, segments_acked: u32) {
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
    fn ns3_ssthresh(&mut self, tcb: &TcpState) -> u32 {
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

impl CongestionOps for Siad {
    fn name(&self) -> &'static str {
        "TcpSiad"
    }

    /// `tcp_siad_init` (Linux mode). The ns-3 port has no `Init`: its initial values are the
    /// attribute defaults set in [`Siad::new`].
    fn init(&mut self, tcb: &mut TcpState) {
        if self.config.ns3_port_compat {
            return;
        }
        let cwnd = tcb.cwnd_segs();
        self.curr_num_rtt = self.config.num_rtt;
        self.increase = cwnd.wrapping_mul(self.curr_num_rtt);
        self.prev_max_cwnd = cwnd;
        self.incthresh = cwnd;
        self.prior_snd_una = tcb.last_acked_seq;
        self.curr_delay = 0;
        self.min_delay = UNSET;
        self.curr_min_delay = UNSET;
        self.prev_delay = UNSET;
        self.dec_cnt = 0;
        self.min_delay_seen = true;
        self.increase_performed = false;
        self.prev_min_delay = [0; 3];
    }

    fn ssthresh(&mut self, tcb: &TcpState, _bytes_in_flight: u32) -> u32 {
        if self.config.ns3_port_compat {
            self.ns3_ssthresh(tcb)
        } else {
            self.linux_ssthresh(tcb)
        }
    }

    fn increase_window(&mut self, tcb: &mut TcpState, segments_acked: u32) {
        if self.config.ns3_port_compat {
            self.ns3_increase_window(tcb, segments_acked);
        } else {
            self.linux_cong_avoid(tcb);
        }
    }

    /// ns-3 port only (`TcpSiad::PktsAcked`): the delay sample is `rtt` in whole ms, which
    /// ns-3.44 passes as the smoothed RTT. Linux mode samples in `increase_window`.
    fn pkts_acked(&mut self, tcb: &mut TcpState, _segments_acked: u32, rtt: Time) {
        if self.config.ns3_port_compat {
            let (cwnd, ssthresh, alpha) = (tcb.cwnd_segs(), tcb.ssthresh_segs(), self.alpha);
            self.sample_delay(rtt.as_millis(), cwnd, ssthresh, alpha);
        }
    }

    /// Linux `CA_EVENT_COMPLETE_CWR` / ns-3 `CwndEvent`: a new epoch starts.
    fn cwnd_event(&mut self, tcb: &mut TcpState, event: CaEvent) {
        if event == CaEvent::CompleteCwr {
            if !self.config.ns3_port_compat {
                self.prior_snd_una = tcb.last_acked_seq;
            }
            self.curr_min_delay = UNSET;
            self.dec_cnt = 0;
            self.min_delay_seen = false;
            self.increase_performed = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MSS: u32 = 1000;

    /// A fresh connection: 10-segment initial window, ssthresh unset (ns-3's u32::MAX).
    fn linux() -> (Siad, TcpState) {
        let mut tcb = TcpState::new(MSS, 10, u32::MAX);
        let mut siad = Siad::default();
        siad.init(&mut tcb);
        (siad, tcb)
    }

    /// One ACK of `segs` segments with an RTT sample of `rtt_ms` (Linux mode reads
    /// `tcb.last_rtt`; the ns-3 port reads `PktsAcked`'s argument, given the same value here).
    fn ack(siad: &mut Siad, tcb: &mut TcpState, segs: u32, rtt_ms: u64) {
        let rtt = Time::from_millis(rtt_ms);
        tcb.last_acked_seq += (segs * MSS) as u64;
        tcb.last_rtt = Some(rtt);
        siad.pkts_acked(tcb, segs, rtt);
        siad.increase_window(tcb, segs);
    }

    /// Slow start from 10 to 42 segments at 50 ms, then two 100 ms samples; the loss.
    fn after_first_loss(config: SiadConfig) -> (Siad, TcpState, u32) {
        let mut tcb = TcpState::new(MSS, 10, u32::MAX);
        let mut siad = Siad::new(config);
        siad.init(&mut tcb);
        for _ in 0..30 {
            ack(&mut siad, &mut tcb, 1, 50);
        }
        ack(&mut siad, &mut tcb, 1, 100);
        ack(&mut siad, &mut tcb, 1, 100);
        let ssthresh = siad.ssthresh(&tcb, tcb.cwnd);
        (siad, tcb, ssthresh)
    }

    #[test]
    fn init_sets_alpha_to_the_window_and_incthresh_to_cwnd() {
        let (siad, _) = linux();
        assert_eq!(siad.increase, 10 * 20);
        assert_eq!(siad.alpha(), 10);
        assert_eq!((siad.incthresh, siad.prev_max_cwnd), (10, 10));
        assert!(siad.min_delay_seen);
        assert_eq!(siad.min_delay_ms(), None);
    }

    #[test]
    fn slow_start_grows_one_segment_per_acked_segment_with_alpha_equal_to_cwnd() {
        let (mut siad, mut tcb) = linux();
        for _ in 0..30 {
            ack(&mut siad, &mut tcb, 1, 50);
        }
        assert_eq!(tcb.cwnd, 40 * MSS);
        assert_eq!(siad.alpha(), 40);
        // Acked bytes are rounded up to segments (delayed-ACK compensation): 1.5 segments
        // count as 2.
        tcb.last_acked_seq += 1500;
        siad.increase_window(&mut tcb, 1);
        assert_eq!(tcb.cwnd, 42 * MSS);
        assert_eq!(siad.min_delay_ms(), Some(50));
    }

    #[test]
    fn no_change_while_not_cwnd_limited() {
        let (mut siad, mut tcb) = linux();
        tcb.is_cwnd_limited = false;
        for _ in 0..5 {
            ack(&mut siad, &mut tcb, 1, 50);
        }
        assert_eq!(tcb.cwnd, 10 * MSS);
        // The delay is still sampled.
        assert_eq!(siad.min_delay_ms(), Some(50));
    }

    #[test]
    fn loss_in_slow_start_halves_then_scales_by_the_delay_ratio_and_sets_the_target() {
        let (siad, tcb, ssthresh) = after_first_loss(SiadConfig::default());
        assert_eq!(tcb.cwnd, 42 * MSS);
        // Window one RTT ago: 42/2 = 21 (slow start). curr_delay = min(100, 100) = 100 ms,
        // min_delay 50 ms: 50·21/100 = 10, minus OFFSET = 9 segments.
        assert_eq!(ssthresh, 9 * MSS);
        // Trend: 21 − prev_max 10 = 11, incthresh = max(21 + 11, 9) = 32;
        // increase = max(Num_RTT, 32 − 9) = 23, i.e. α = 23/20 = 1 segment per RTT.
        assert_eq!(siad.incthresh(), 32);
        assert_eq!(siad.increase, 23);
        assert_eq!(siad.prev_max_cwnd, 21);
        assert_eq!(siad.num_rtt(), 20);
    }

    #[test]
    fn a_single_delay_outlier_is_filtered() {
        let (mut siad, mut tcb) = linux();
        for _ in 0..5 {
            ack(&mut siad, &mut tcb, 1, 50);
        }
        // One 100 ms sample: curr_delay = min(100, 50) = 50, so the loss sees no queue.
        ack(&mut siad, &mut tcb, 1, 100);
        let cwnd = tcb.cwnd_segs();
        assert_eq!(siad.ssthresh(&tcb, tcb.cwnd), (cwnd / 2 - OFFSET) * MSS);
    }

    #[test]
    fn num_ms_sets_num_rtt_from_the_average_delay() {
        let config = SiadConfig {
            num_ms: 5000,
            ..Default::default()
        };
        let (siad, _, _) = after_first_loss(config);
        // max(20, 2·5000/(100 + 50)) = 66 RTTs; increase = max(66, 32 − 9).
        assert_eq!(siad.num_rtt(), 66);
        assert_eq!(siad.increase, 66);
    }

    #[test]
    fn additional_decrease_when_the_base_delay_is_not_seen_again() {
        let (mut siad, mut tcb, ssthresh) = after_first_loss(SiadConfig::default());
        // Recovery ends (classic: cwnd = ssthresh = 9), a new epoch starts.
        tcb.ssthresh = ssthresh;
        tcb.cwnd = ssthresh;
        siad.cwnd_event(&mut tcb, CaEvent::CompleteCwr);
        assert!(!siad.min_delay_seen);
        // Linear increase with α = 23/20: next = 9·20/23 = 7, then 8, 9, 10 ACKs per segment;
        // the delay stays above the 50 ms base (80 ms, then 90 ms).
        ack(&mut siad, &mut tcb, 1, 80);
        for _ in 1..34 {
            ack(&mut siad, &mut tcb, 1, 90);
        }
        assert_eq!(tcb.cwnd, 13 * MSS);
        assert_eq!(tcb.ssthresh, 9 * MSS);
        // cwnd 13 > ssthresh 9 + α 1 + 2: Additional Decrease.
        // cwnd = 50·9/90 = 5, −OFFSET = 4; increase = max(20, (32 − 4)·20/(20 − 1 − 1)) = 31,
        // α = 1; reduce = 4/19 = 0 < α, so cwnd −= α: 3 segments; ssthresh = cwnd − 1 = 2.
        ack(&mut siad, &mut tcb, 1, 90);
        assert_eq!(tcb.cwnd, 3 * MSS);
        assert_eq!(tcb.ssthresh, 2 * MSS);
        assert_eq!(siad.dec_cnt, 1);
        assert_eq!(siad.increase, 31);
        assert!(!siad.min_delay_seen, "more decreases allowed");
        // Seeing the base delay again stops them.
        ack(&mut siad, &mut tcb, 1, 50);
        assert!(siad.min_delay_seen);
    }

    #[test]
    fn fast_increase_after_incthresh_doubles_alpha() {
        let (mut siad, mut tcb, ssthresh) = after_first_loss(SiadConfig::default());
        tcb.ssthresh = ssthresh;
        // The window is one segment below incthresh (32); α = 23/20.
        tcb.cwnd = 31 * MSS;
        siad.cwnd_event(&mut tcb, CaEvent::CompleteCwr);
        let acks = |n: u32, siad: &mut Siad, tcb: &mut TcpState| {
            for _ in 0..n {
                ack(siad, tcb, 1, 50);
            }
        };
        // next = 31·20/23 = 26 ACKs: cwnd reaches incthresh, α := 1 (Fast Increase starts).
        acks(26, &mut siad, &mut tcb);
        assert_eq!((tcb.cwnd_segs(), siad.alpha()), (32, 1));
        // Then α grows by each increase: next = 32, 16, 11 ACKs for α = 2, 3, 4.
        acks(32, &mut siad, &mut tcb);
        assert_eq!((tcb.cwnd_segs(), siad.alpha()), (33, 2));
        acks(16, &mut siad, &mut tcb);
        assert_eq!((tcb.cwnd_segs(), siad.alpha()), (34, 3));
        acks(11, &mut siad, &mut tcb);
        assert_eq!((tcb.cwnd_segs(), siad.alpha()), (35, 4));
    }

    #[test]
    fn three_rising_minima_reset_the_base_delay_to_the_first() {
        let (mut siad, _) = linux();
        for m in [50, 60, 70] {
            siad.min_delay = m;
            siad.check_monotonic_min_delay();
            assert_eq!(siad.min_delay, m);
        }
        assert_eq!(siad.prev_min_delay, [50, 60, 70]);
        siad.min_delay = 80;
        siad.check_monotonic_min_delay();
        assert_eq!(siad.min_delay, 50);
        assert_eq!(siad.prev_min_delay, [50, 0, 0]);
        // A lower minimum clears the history.
        siad.min_delay = 40;
        siad.check_monotonic_min_delay();
        assert_eq!(siad.prev_min_delay, [0, 0, 0]);
    }

    #[test]
    fn linux_mode_samples_the_raw_rtt_and_ignores_pkts_acked() {
        let (mut siad, mut tcb) = linux();
        siad.pkts_acked(&mut tcb, 1, Time::from_millis(30));
        assert_eq!(siad.min_delay_ms(), None);
        tcb.last_rtt = Some(Time::from_millis(44));
        tcb.srtt = Some(Time::from_millis(60));
        tcb.last_acked_seq += MSS as u64;
        siad.increase_window(&mut tcb, 1);
        assert_eq!(siad.min_delay_ms(), Some(44));
    }

    fn ns3() -> SiadConfig {
        SiadConfig {
            ns3_port_compat: true,
            ..Default::default()
        }
    }

    #[test]
    fn ns3_port_forces_ssthresh_20_and_samples_the_pkts_acked_rtt() {
        let mut siad = Siad::new(ns3());
        let mut tcb = TcpState::new(MSS, 10, u32::MAX);
        siad.init(&mut tcb);
        // PktsAcked's argument (the smoothed RTT in ns-3.44) is the delay, not tcb.last_rtt.
        tcb.last_rtt = Some(Time::from_millis(10));
        siad.pkts_acked(&mut tcb, 1, Time::from_millis(4));
        assert_eq!(siad.min_delay_ms(), Some(4));
        siad.increase_window(&mut tcb, 1);
        assert_eq!(tcb.ssthresh, 20 * MSS);
        // α starts at the attribute value 10 = cwnd: one segment per ACKed segment.
        assert_eq!(tcb.cwnd, 11 * MSS);
        assert_eq!(siad.alpha(), 11);
        for _ in 0..9 {
            siad.pkts_acked(&mut tcb, 1, Time::from_millis(4));
            siad.increase_window(&mut tcb, 1);
        }
        // Reaching ssthresh without a larger incthresh: α := 1.
        assert_eq!((tcb.cwnd_segs(), siad.alpha()), (20, 1));
    }

    #[test]
    fn ns3_port_divides_by_the_delay_and_has_no_offset() {
        let mut siad = Siad::new(ns3());
        let mut tcb = TcpState::new(MSS, 10, u32::MAX);
        siad.init(&mut tcb);
        for _ in 0..10 {
            siad.pkts_acked(&mut tcb, 1, Time::from_millis(4));
            siad.increase_window(&mut tcb, 1);
        }
        assert_eq!(
            (tcb.cwnd_segs(), tcb.ssthresh_segs(), siad.alpha()),
            (20, 20, 1)
        );
        // Loss: α = 1 but incthresh 10 < ssthresh, so the last case: cwndMax = 20 − α = 19.
        // ssthresh = 4·19/4 = 19 with no OFFSET (Linux: 18); trend 19 − 10 = 9,
        // incthresh = max(28, 19) = 28; α = max(1, (28 − 19)/4 ms) = 2 (Linux: 9/20 → 1).
        assert_eq!(siad.ssthresh(&tcb, tcb.cwnd), 19 * MSS);
        assert_eq!(siad.incthresh(), 28);
        assert_eq!(siad.alpha(), 2);
        assert_eq!(siad.num_rtt(), 20);
    }

    #[test]
    fn ns3_port_clamps_cwnd_at_666_segments_linux_does_not() {
        for (config, expected) in [(ns3(), 666), (SiadConfig::default(), 711)] {
            let mut siad = Siad::new(config);
            let mut tcb = TcpState::new(MSS, 10, u32::MAX);
            siad.init(&mut tcb);
            ack(&mut siad, &mut tcb, 1, 4);
            // Slow start (α = cwnd, one segment per ACK) up to ssthresh 1000.
            tcb.ssthresh = 1000 * MSS;
            for _ in 0..700 {
                ack(&mut siad, &mut tcb, 1, 4);
            }
            assert_eq!(tcb.cwnd_segs(), expected);
        }
    }

    #[test]
    fn parameters_are_validated() {
        use serde_json::json;
        let bad = |v: Value| SiadConfig::from_params(v.as_object().unwrap()).is_err();
        assert!(bad(json!({"num_rtt": 1})));
        assert!(bad(json!({"config_num_rtt": 1})));
        assert!(!bad(
            json!({"config_num_rtt": 0, "num_ms": 200, "ns3_port_compat": true})
        ));
        let c = SiadConfig::from_params(json!({"snd_cwnd_clamp": 100}).as_object().unwrap());
        assert_eq!(c.unwrap().snd_cwnd_clamp, Some(100));
    }
}

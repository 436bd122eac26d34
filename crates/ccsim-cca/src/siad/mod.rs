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
//! 4. the delay is `PktsAcked`'s `rtt` argument in whole ms — the *smoothed* RTT in ns-3.44, the
//!    latest sample `m_lastRtt` in ns-3.33, the authors' tree (`last_rtt_delay`) — and
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

mod linux;
mod ns3_port;

use crate::params::Accepts;
use crate::{CaEvent, CongestionOps, TcpState};
use ccsim_core::Time;

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

crate::tunables! {
    /// Tunables of [`Siad`].
    pub struct SiadConfig for "siad" {
        /// Desired number of RTTs between two congestion events (Linux module parameter
        /// `num_rtt`; the ns-3 port's constant `default_num_rtt`).
        num_rtt: u32 = 20, Accepts::Integer { min: MIN_NUM_RTT as u64, max: 1_000_000 };
        /// Per-connection Num_RTT override, 0 = unset (Linux socket option `TCP_SIAD_NUM_RTT`;
        /// ns-3 attribute `ConfigNumRtt`).
        config_num_rtt: u32 = 0, Accepts::ZeroOrInteger { min: MIN_NUM_RTT as u64, max: 1_000_000 };
        /// Desired milliseconds between two congestion events, 0 = off (Linux `num_ms`; ns-3
        /// `ConfigNumMs`).
        num_ms: u32 = 0, Accepts::Integer { min: 0, max: u32::MAX as u64 / 2 };
        /// Largest cwnd in segments (`snd_cwnd_clamp`; ns-3 `SendCwndClamp`). Unset: unlimited in
        /// Linux mode, 666 with `ns3_port_compat`.
        snd_cwnd_clamp: Option<u32> = None, Accepts::Integer { min: 2, max: u32::MAX as u64 };
        /// Reproduce the ns-3 port used by seed 002 (`tcp-siad.cpp`) instead of the Linux module
        /// (`tcp_siad.c`).
        ns3_port_compat: bool = false, Accepts::Bool;
        /// ns-3 port: the delay `PktsAcked` gets is the latest RTT sample (`m_lastRtt`), as
        /// ns-3.33 — the authors' tree — passes it; off: the smoothed RTT, as ns-3.44.
        last_rtt_delay: bool = false, Accepts::Bool;
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
            // ns-3.33 calls PktsAcked with m_lastRtt, ns-3.44 with the smoothed RTT (the
            // sender's argument here).
            let rtt = match (self.config.last_rtt_delay, tcb.last_rtt) {
                (true, Some(last)) => last,
                _ => rtt,
            };
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
mod tests;

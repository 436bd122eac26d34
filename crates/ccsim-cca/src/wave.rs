//! TCP Wave, burst-based transmission: A. Abdelsalam, M. Luglio, C. Roseti, F. Zampognaro,
//! "TCP Wave: A new reliable transport approach for future internet", Computer Networks 112
//! (2017) 122–143, and seed 003 (TCP Wave's resilience to link changes); as N. Patriciello's
//! Linux module `net/ipv4/tcp_wave.c` v0.2 (`sbourdelin/linux`; v0.1 in `kronat/linux`), which
//! follows the paper's design (`shared/reference/ANCHORS.md` §3). Re-implemented from those
//! sources; the ns-3.23 original (`tcp-wave.cc`, tlcsat.uniroma2.it) is not public on GitHub.
//!
//! Wave is not a window rule. A self-managed timer (TxTime) releases a burst of `burst`
//! segments per expiry; between bursts the window is kept closed. The **ACCE** module
//! (ACK-based Capacity and Congestion Estimation) measures each burst's ACK train and sets
//! TxTime: the rate is `burst·MSS/TxTime`, decoupled from the RTT.
//!
//! # What the sender must do (burst mode)
//!
//! The factory builds Wave as a burst-mode [`Controller`](crate::Controller), which puts the
//! sender in burst mode; Wave also has `has_cong_control() == true`. The [`BurstOps`] hooks mirror Patriciello's `tcp_congestion_ops` additions
//! (`get_pacing_time`, `pacing_timer_expired`, `get_segs_per_round`, `segments_sent`):
//!
//! 1. **Start.** At the end of the handshake call `init(tcb)`: cwnd = `init_burst` segments,
//!    ssthresh = 0 (Wave is always in "congestion avoidance").
//! 2. **Transmission.** The usual window rule decides what may leave (`bytes_in_flight + segment
//!    ≤ cwnd`, rwnd permitting; retransmissions as the recovery rules say) — Wave keeps cwnd
//!    closed between bursts, so new data leaves essentially at timer expiries. Each transmission
//!    attempt sends at most [`send_quantum`](BurstOps::send_quantum) segments, back to back,
//!    **without per-segment pacing**: the burst timer replaces it (Linux v0.2, `get_pacing_time`:
//!    "Ideally, we don't need pacing").
//!    - When a segment is about to leave while nothing is in flight, call
//!      `cwnd_event(tcb, CaEvent::TxStart)` first (Linux `CA_EVENT_TX_START`); Wave starts its
//!      bursts on the first one.
//!    - After a transmission attempt call [`on_burst_sent(tcb, n)`](BurstOps::on_burst_sent)
//!      with the number of segments it sent: always after an attempt that followed a burst-timer
//!      expiry (also when n = 0), and after any other attempt that sent n > 0 segments (the
//!      first burst, an application write, ACK-triggered retransmissions). Wave records the
//!      first non-empty round after each expiry as a burst and balances over- and under-sending.
//! 3. **Burst timer.** Arm it when segments are first sent after `init`, at
//!    `now + burst_interval()`. On expiry: [`on_burst_timer(tcb)`](BurstOps::on_burst_timer)
//!    (opens cwnd by one burst), a transmission attempt, `on_burst_sent(tcb, n)`, then re-arm at
//!    `now + burst_interval()`, reading the interval after those calls (ACKs change it). The timer
//!    keeps running while the connection is open; with nothing to send an expiry is a no-op for
//!    Wave (cwnd opened, then closed again by `on_burst_sent(0)`), so an idle sender may stop it
//!    and restart it with an immediate expiry when data arrives. (Linux re-arms its pacing timer
//!    after every transmission; ccsim keeps one timer per round — the paper's TxTime.)
//! 4. **Every ACK** (new data, duplicates, SACK-only): after updating `bytes_in_flight` for it,
//!    call `cong_control(tcb, rc, rs)` — instead of `pkts_acked` + `increase_window` — with
//!    `rs.acked_sacked` (bytes newly ACKed or SACKed), `rs.interval` and `rs.rtt` = this ACK's
//!    RTT sample or `None` (Linux `rate_sample`). Wave closes cwnd to `bytes_in_flight` and runs
//!    ACCE. `tcb.now` must be the ACK's arrival time: ACK-train dispersion is measured from it.
//! 5. **Loss.** `ssthresh()` returns 0. As for BBR (ns-3 skips its recovery algorithm when
//!    `HasCongControl`), the sender must not apply PRR / classic-recovery cwnd changes: Wave's
//!    cwnd is opened only by the timer and closed by ACKs. Everything else is as usual:
//!    `congestion_state_set`, `cwnd_event`, retransmissions, and on a timeout cwnd = 1 MSS
//!    (Linux `tcp_enter_loss`: in-flight + 1) until the next expiry opens it.
//!
//! # ACCE, per burst ("round"; Linux v0.2 `wavetcp_cong_control` and helpers)
//!
//! Bursts sent are queued (`history`); ACKed bytes are counted against the oldest.
//! - **Train.** The first ACK of a round records `first_ack_time`; later ACKs whose RTT is not
//!   below the previous one ("aligned") move `last_ack_time` and count; an ACK with a lower RTT
//!   restarts the train there (the real beginning). The first RTT sample of a round is
//!   `first_rtt`; it also updates `min_rtt` and `max_rtt`.
//! - **End of round** (ACKed ≥ burst): if the burst was larger than `min_burst`:
//!   1. `avg_rtt = a·avg_rtt + (1 − a)·first_rtt` with `a = (first_rtt − min_rtt)/first_rtt`
//!      (scaled by 2^20); the first value is `min_rtt`;
//!   2. **stabilisation**: if `stab_factor > 0`, decrement it and change nothing else;
//!   3. `delta_rtt = avg_rtt − min_rtt`;
//!   4. ACK-train dispersion: `(last − first)·n/(n − 1)` over n aligned ACKs when the round's
//!      burst is the current burst, `(last − first)/round_burst·burst` otherwise (only if no
//!      previous value exists), else the previous value; with fewer than two aligned ACKs the
//!      previous value, or a heuristic from `rs.interval` — its distance to the first ACK's
//!      interval, and if that is 0 a blind search `interval >> k` with k = 0, 1, 2, … per try;
//!   5. **adjustment mode** if `delta_rtt > beta` (150 ms): `stab_factor = avg_rtt/TxTime`,
//!      `min_rtt` reset, `avg_rtt = max_rtt`, TxTime = `init_timer` (200 ms);
//!   6. **tracking mode** otherwise: TxTime = dispersion + `delta_rtt/2` (1 ms if that is 0).
//!
//!   Then the round's bursts are dequeued and the train restarts.
//! - The interval the sender uses is `min(TxTime, init_timer)`; the burst stays `init_burst`
//!   (v0.2 never changes it).
//! - **Timer expiry**: the burst to release is `burst`, less the over-sending of the previous
//!   round (`delta_segments < 0`), at least `min_burst` (3).
//!
//! Arithmetic as Linux v0.2: RTTs and TxTime in µs (`u32`), ACK times and dispersion in ns,
//! weights scaled by 2^20. Departures: counts are kept in bytes (`acked_sacked`) and compared
//! with `burst·MSS`; `stab_factor` is not truncated to 8 bits (Linux stores `avg_rtt/TxTime` in a
//! `u8`); while `min_rtt` is unset (after an adjustment, before the next sample) Linux subtracts
//! the `u32` sentinel and wraps — ccsim skips the average update and takes `delta_rtt = 0`;
//! `first_rtt − min_rtt` saturates at 0.

use crate::params::{time_param, u32_param, ParamSpec, Tunables};
use crate::{
    BurstOps, CaEvent, CcaError, CongState, CongestionOps, RateConnection, RateSample, TcpState,
};
use ccsim_core::Time;
use serde_json::Value;
use std::collections::VecDeque;

/// Fixed-point scale of the RTT weight and the dispersion factor (`AVG_SCALE` = 20).
const AVG_UNIT: u64 = 1 << 20;
/// TxTime when tracking would give 0 (µs).
const MIN_TX_TIMER_US: u32 = 1000;

/// Tunables of [`Wave`] (module parameters of Linux `tcp_wave.c` v0.2).
#[derive(Clone, Debug, PartialEq)]
pub struct WaveConfig {
    /// Initial (and, in v0.2, constant) burst, segments (`init_burst`).
    pub init_burst: u32,
    /// Minimum burst, segments (`min_burst`).
    pub min_burst: u32,
    /// Initial and largest TxTime (`init_timer_ms`).
    pub init_timer: Time,
    /// Congestion threshold on `delta_rtt` (`beta_ms`).
    pub beta: Time,
}

impl Default for WaveConfig {
    fn default() -> Self {
        WaveConfig {
            init_burst: 10,
            min_burst: 3,
            init_timer: Time::from_millis(200),
            beta: Time::from_millis(150),
        }
    }
}

impl Tunables for WaveConfig {
    const ALGORITHM: &'static str = "wave";
    const PARAMS: &'static [ParamSpec] = &[
        ParamSpec {
            name: "init_burst",
            help: "Burst size in segments (initial and constant in Linux v0.2)",
        },
        ParamSpec {
            name: "min_burst",
            help: "Minimum burst in segments; smaller rounds are not measured",
        },
        ParamSpec {
            name: "init_timer",
            help: "Initial and largest TxTime (burst interval)",
        },
        ParamSpec {
            name: "beta",
            help: "delta_rtt above which ACCE switches to adjustment mode",
        },
    ];

    fn set(&mut self, key: &str, v: &Value) -> Result<(), CcaError> {
        let a = Self::ALGORITHM;
        match key {
            "init_burst" => self.init_burst = u32_param(a, key, v, 1, 65_535)?,
            "min_burst" => self.min_burst = u32_param(a, key, v, 1, 65_535)?,
            "init_timer" | "beta" => {
                let t = time_param(a, key, v)?;
                // Both are used in µs in u32 arithmetic.
                if t < Time::from_micros(1) || t > Time::from_secs(4000) {
                    return Err(CcaError::BadValue {
                        algorithm: a,
                        parameter: key.to_string(),
                        expected: "a duration between 1 us and 4000 s".into(),
                        got: v.to_string(),
                    });
                }
                if key == "beta" {
                    self.beta = t;
                } else {
                    self.init_timer = t;
                }
            }
            _ => unreachable!("checked by from_params"),
        }
        Ok(())
    }
}

/// TCP Wave state (Linux `struct wavetcp`). RTTs and TxTime in µs.
#[derive(Clone, Debug)]
pub struct Wave {
    pub config: WaveConfig,
    /// `FLAG_INIT`: `init` ran.
    initialized: bool,
    /// `FLAG_START`: the first transmission happened (`CA_EVENT_TX_START`).
    started: bool,
    /// `FLAG_SAVE`: the next non-empty round is a burst to remember.
    save_burst: bool,
    /// Current TxTime, µs (`tx_timer`).
    tx_timer_us: u32,
    /// Burst size, segments (`burst`).
    burst: u32,
    /// Segments still allowed in this round; negative: sent too many (`delta_segments`).
    delta_segments: i64,
    /// Bytes ACKed in the current round (`pkts_acked`, in segments in Linux).
    acked_bytes: u64,
    /// `acked_bytes` before the round's first ACK (`backup_pkts_acked`).
    backup_acked_bytes: u64,
    /// ACKs of the train with non-decreasing RTT (`aligned_acks_rcv`).
    aligned_acks: u32,
    /// Blind-search exponent of the dispersion heuristic (`heuristic_scale`).
    heuristic_scale: u32,
    /// Last measured dispersion; zero = none (`previous_ack_t_disp`).
    previous_ack_train_disp: Time,
    /// First ACK of the round (`first_ack_time`; `None` = Linux's null ktime).
    first_ack_time: Option<Time>,
    /// Last aligned ACK of the round (`last_ack_time`).
    last_ack_time: Time,
    /// `rs.interval` of the round's first ACK, µs (`backup_first_ack_time_us`).
    backup_first_ack_interval_us: u64,
    /// RTT of the previous ACK, µs (`previous_rtt`).
    previous_rtt_us: u32,
    /// First RTT of the round, µs; 0 = none (`first_rtt`).
    first_rtt_us: u32,
    /// Minimum RTT, µs; `u32::MAX` = unset (`min_rtt = -1`).
    min_rtt_us: u32,
    /// Average RTT, µs; 0 = none yet (`avg_rtt`).
    avg_rtt_us: u32,
    /// Maximum RTT, µs (`max_rtt`).
    max_rtt_us: u32,
    /// Rounds to wait before the next adjustment (`stab_factor`).
    stab_factor: u32,
    /// Sizes of the bursts sent and not yet fully ACKed, segments (`history`).
    history: VecDeque<u32>,
}

impl Default for Wave {
    fn default() -> Self {
        Wave::new(WaveConfig::default())
    }
}

fn micros(t: Time) -> u64 {
    t.as_nanos() / 1000
}

impl Wave {
    pub fn new(config: WaveConfig) -> Self {
        Wave {
            initialized: false,
            started: false,
            save_burst: false,
            tx_timer_us: micros(config.init_timer) as u32,
            burst: config.init_burst,
            delta_segments: config.init_burst as i64,
            acked_bytes: 0,
            backup_acked_bytes: 0,
            aligned_acks: 0,
            heuristic_scale: 0,
            previous_ack_train_disp: Time::ZERO,
            first_ack_time: None,
            last_ack_time: Time::ZERO,
            backup_first_ack_interval_us: 0,
            previous_rtt_us: 0,
            first_rtt_us: 0,
            min_rtt_us: u32::MAX,
            avg_rtt_us: 0,
            max_rtt_us: 0,
            stab_factor: 0,
            history: VecDeque::new(),
            config,
        }
    }

    fn init_timer_us(&self) -> u32 {
        micros(self.config.init_timer) as u32
    }

    /// Current TxTime (before the `init_timer` cap).
    pub fn tx_timer(&self) -> Time {
        Time::from_micros(self.tx_timer_us as u64)
    }
    /// Average RTT of ACCE, if any.
    pub fn avg_rtt(&self) -> Option<Time> {
        (self.avg_rtt_us != 0).then(|| Time::from_micros(self.avg_rtt_us as u64))
    }
    /// Minimum RTT of ACCE, if set.
    pub fn min_rtt(&self) -> Option<Time> {
        (self.min_rtt_us != u32::MAX).then(|| Time::from_micros(self.min_rtt_us as u64))
    }
    /// Remaining stabilisation rounds.
    pub fn stab_factor(&self) -> u32 {
        self.stab_factor
    }
    /// Bursts sent and not yet ACKed, oldest first.
    pub fn burst_history(&self) -> impl Iterator<Item = u32> + '_ {
        self.history.iter().copied()
    }
    /// Segments still allowed (positive) or sent in excess (negative) in this round.
    pub fn delta_segments(&self) -> i64 {
        self.delta_segments
    }
    /// The sending rate Wave aims at, bits/s: `burst · MSS · 8 / min(TxTime, init_timer)`.
    pub fn rate_bps(&self, mss: u32) -> u64 {
        let timer_us = self.tx_timer_us.min(self.init_timer_us()).max(1) as u64;
        self.burst as u64 * mss as u64 * 8 * 1_000_000 / timer_us
    }

    /// `wavetcp_rtt_measurements`: the first ACK's interval, the first RTT of the round, min/max.
    fn rtt_measurements(&mut self, rtt_us: Option<u32>, interval_us: u64) {
        if self.backup_first_ack_interval_us == 0 && interval_us > 0 {
            self.backup_first_ack_interval_us = interval_us;
        }
        let Some(rtt) = rtt_us.filter(|&r| r > 0) else {
            return;
        };
        self.previous_rtt_us = rtt;
        if self.first_rtt_us == 0 {
            self.first_rtt_us = rtt;
            self.min_rtt_us = self.min_rtt_us.min(rtt);
            self.max_rtt_us = self.max_rtt_us.max(rtt);
        }
    }

    /// `calculate_avg_rtt`: `a·avg + (1 − a)·first`, `a = (first − min)/first` (×2^20); 0 = no
    /// update.
    fn calculate_avg_rtt(&self) -> u32 {
        if self.min_rtt_us == u32::MAX {
            return 0;
        }
        if self.avg_rtt_us == 0 {
            return self.min_rtt_us;
        }
        if self.first_rtt_us == 0 {
            return 0;
        }
        let first = self.first_rtt_us as u64;
        let a = first.saturating_sub(self.min_rtt_us as u64) * AVG_UNIT / first;
        let left = a * self.avg_rtt_us as u64 / AVG_UNIT;
        let right = (AVG_UNIT - a) * first / AVG_UNIT;
        (left as u32).wrapping_add(right as u32)
    }

    /// `heuristic_ack_train_disp`: from the rate sample's interval, or a blind search.
    fn heuristic_ack_train_disp(&mut self, interval_us: u64) -> Time {
        if interval_us == 0 {
            return Time::ZERO;
        }
        let backup = self.backup_first_ack_interval_us;
        let disp_us = interval_us.abs_diff(backup);
        if disp_us == 0 {
            let blind = interval_us.checked_shr(self.heuristic_scale).unwrap_or(0);
            self.heuristic_scale += 1;
            return Time::from_micros(blind);
        }
        Time::from_micros(disp_us)
    }

    /// `get_ack_train_disp`: `(last − first)·n/(n − 1)`, or `(last − first)/round_burst·burst`.
    fn ack_train_disp_of(&self, round_burst: u32) -> Time {
        let first = self.first_ack_time.unwrap_or(Time::ZERO);
        let mut left = self.last_ack_time.saturating_sub(first).as_nanos();
        let right;
        if round_burst == self.burst {
            let n = self.aligned_acks as u64;
            right = n * AVG_UNIT / (n - 1);
        } else {
            right = self.burst as u64;
            left = left * AVG_UNIT / round_burst as u64;
        }
        Time::from_nanos(left.wrapping_mul(right) / AVG_UNIT)
    }

    /// `calculate_ack_train_disp`; zero = no value.
    fn calculate_ack_train_disp(&mut self, interval_us: u64, round_burst: u32) -> Time {
        if self.first_ack_time.is_none() || self.aligned_acks <= 1 {
            if self.previous_ack_train_disp == Time::ZERO {
                return self.heuristic_ack_train_disp(interval_us);
            }
            return self.previous_ack_train_disp;
        }
        if round_burst != self.burst && self.previous_ack_train_disp != Time::ZERO {
            return self.previous_ack_train_disp;
        }
        let disp = self.ack_train_disp_of(round_burst);
        if disp == Time::ZERO {
            return self.previous_ack_train_disp;
        }
        self.heuristic_scale = 0;
        self.previous_ack_train_disp = disp;
        disp
    }

    /// `wavetcp_round_terminated`: the ACCE update at the end of a burst's ACK train.
    fn round_terminated(&mut self, interval_us: u64, round_burst: u32) {
        let avg = self.calculate_avg_rtt();
        if avg != 0 {
            self.avg_rtt_us = avg;
        }
        if self.stab_factor > 0 {
            self.stab_factor -= 1;
            return;
        }
        let delta_rtt_us = if self.min_rtt_us == u32::MAX {
            0
        } else {
            self.avg_rtt_us.saturating_sub(self.min_rtt_us)
        };
        let disp = self.calculate_ack_train_disp(interval_us, round_burst);
        if delta_rtt_us as u64 > micros(self.config.beta) {
            // Adjustment mode: congestion. Back to the initial rate and wait.
            self.stab_factor = self.avg_rtt_us / self.tx_timer_us.max(1);
            self.min_rtt_us = u32::MAX;
            self.avg_rtt_us = self.max_rtt_us;
            self.tx_timer_us = self.init_timer_us();
        } else if disp != Time::ZERO {
            // Tracking mode: follow the bottleneck's dispersion.
            let t = micros(disp) + delta_rtt_us as u64 / 2;
            self.tx_timer_us = if t == 0 {
                MIN_TX_TIMER_US
            } else {
                t.min(u32::MAX as u64) as u32
            };
        }
    }

    /// `wavetcp_reset_round`.
    fn reset_round(&mut self) {
        self.first_ack_time = None;
        self.last_ack_time = Time::ZERO;
        self.backup_first_ack_interval_us = 0;
        self.aligned_acks = 0;
        self.first_rtt_us = 0;
    }

    fn begin_round(&mut self, now: Time) {
        self.first_ack_time = Some(now);
        self.last_ack_time = now;
    }

    /// `wavetcp_end_round`: the ACKs cover the oldest burst.
    fn end_round(&mut self, now: Time, rtt_us: Option<u32>, interval_us: u64, mss: u32) {
        let Some(&round_burst) = self.history.front() else {
            return;
        };
        if rtt_us.is_some_and(|r| r >= self.previous_rtt_us) {
            self.aligned_acks += 1;
            self.last_ack_time = now;
        }
        if self.first_rtt_us == 0 {
            self.first_rtt_us = self.avg_rtt_us;
        }
        if round_burst > self.config.min_burst {
            self.round_terminated(interval_us, round_burst);
        }
        // Consume the bursts this (possibly cumulative) ACK covers.
        while let Some(&size) = self.history.front() {
            let bytes = size as u64 * mss as u64;
            if self.acked_bytes < bytes {
                break;
            }
            self.acked_bytes -= bytes;
            self.history.pop_front();
        }
        self.reset_round();
        match rtt_us {
            Some(rtt) if rtt > 0 && rtt < self.previous_rtt_us => {
                // A lower RTT than the previous ACK's: this ACK begins the next train.
                self.begin_round(now);
                self.rtt_measurements(Some(rtt), interval_us);
                self.aligned_acks = 1;
            }
            Some(rtt) if rtt > 0 => self.previous_rtt_us = rtt,
            _ => {}
        }
    }

    /// `wavetcp_cong_control`: ACK-train management and ACCE.
    fn acce(&mut self, now: Time, rs: &RateSample, mss: u32) {
        let Some(&round_burst) = self.history.front() else {
            return;
        };
        let rtt_us = rs.rtt.map(|r| micros(r).min(u32::MAX as u64) as u32);
        let interval_us = micros(rs.interval);
        self.acked_bytes += rs.acked_sacked as u64;
        if self.acked_bytes < round_burst as u64 * mss as u64 {
            if self.first_ack_time.is_none() {
                self.begin_round(now);
                self.aligned_acks += 1;
                self.backup_acked_bytes = self.acked_bytes - rs.acked_sacked as u64;
            } else if rtt_us.is_some_and(|r| r >= self.previous_rtt_us) {
                self.last_ack_time = now;
                self.aligned_acks += 1;
            } else if rtt_us.is_some_and(|r| r > 0) {
                // The real beginning of the train.
                self.aligned_acks = 1;
                self.acked_bytes = self.backup_acked_bytes + rs.acked_sacked as u64;
                self.begin_round(now);
            }
            self.rtt_measurements(rtt_us, interval_us);
        } else {
            self.end_round(now, rtt_us, interval_us, mss);
        }
    }
}

impl CongestionOps for Wave {
    fn name(&self) -> &'static str {
        "TcpWave"
    }

    /// `wavetcp_init`: cwnd = one burst, ssthresh = 0, TxTime = `init_timer`.
    fn init(&mut self, tcb: &mut TcpState) {
        let config = self.config.clone();
        *self = Wave::new(config);
        tcb.ssthresh = 0;
        tcb.cwnd = self.config.init_burst.wrapping_mul(tcb.mss);
        self.initialized = true;
        self.save_burst = true;
    }

    /// `wavetcp_recalc_ssthresh`: 0, "forever in congestion avoidance".
    fn ssthresh(&mut self, _tcb: &TcpState, _bytes_in_flight: u32) -> u32 {
        0
    }

    /// Not called: Wave has `cong_control` (Linux has no `cong_avoid` for Wave).
    fn increase_window(&mut self, _tcb: &mut TcpState, _segments_acked: u32) {}

    /// `wavetcp_state`: back in Open, the round's balance restarts.
    fn congestion_state_set(&mut self, _tcb: &mut TcpState, new_state: CongState) {
        if self.initialized && new_state == CongState::Open {
            self.delta_segments = 0;
        }
    }

    /// `wavetcp_cwnd_event`: the first transmission starts the bursts.
    fn cwnd_event(&mut self, _tcb: &mut TcpState, event: CaEvent) {
        if self.initialized && event == CaEvent::TxStart {
            self.started = true;
        }
    }

    fn has_cong_control(&self) -> bool {
        true
    }

    /// Linux `wavetcp_acked` (close cwnd to the flight, count scattered segments), then
    /// `wavetcp_cong_control` (ACCE).
    fn cong_control(&mut self, tcb: &mut TcpState, _rc: &RateConnection, rs: &RateSample) {
        if !self.initialized {
            return;
        }
        let acked_segs = rs.acked_sacked / tcb.mss;
        let cwnd_segs = tcb.cwnd_segs();
        if cwnd_segs < acked_segs {
            // Segments were sent outside the bursts: the ACKs and the bursts are not aligned.
            self.delta_segments += (acked_segs - cwnd_segs) as i64;
        }
        // "Brutally set the cwnd in order to not let segment out."
        tcb.cwnd = tcb.bytes_in_flight;
        self.acce(tcb.now, rs, tcb.mss);
    }
}

impl BurstOps for Wave {
    fn send_quantum(&self) -> u32 {
        self.burst
    }

    /// `wavetcp_get_timer`: `min(TxTime, init_timer)`.
    fn burst_interval(&self) -> Time {
        let us = self.tx_timer_us.min(self.init_timer_us());
        Time::from_micros(us as u64)
    }

    /// `wavetcp_timer_expired`: open cwnd by the burst, corrected by the last round's balance.
    fn on_burst_timer(&mut self, tcb: &mut TcpState) {
        if !self.started || !self.initialized {
            return;
        }
        let mut current = self.burst as i64;
        if self.delta_segments < 0 {
            // The previous round sent more than its burst: send less now.
            current += self.delta_segments;
            if tcb.bytes_in_flight > tcb.cwnd {
                // Segments left outside the window (e.g. retransmissions): add them back.
                current += ((tcb.bytes_in_flight - tcb.cwnd) / tcb.mss) as i64;
            }
        }
        self.delta_segments = current;
        let min_burst = self.config.min_burst as i64;
        if current < min_burst {
            self.delta_segments += min_burst - current;
            current = min_burst;
        }
        tcb.cwnd = tcb
            .cwnd
            .wrapping_add((current as u32).wrapping_mul(tcb.mss));
        self.save_burst = true;
    }

    /// `wavetcp_segment_sent`: remember the burst, balance the round, give back what the
    /// application did not use.
    fn on_burst_sent(&mut self, tcb: &mut TcpState, segments: u32) {
        if !self.started {
            return;
        }
        if self.save_burst && segments > 0 {
            self.history.push_back(segments);
            self.save_burst = false;
        }
        self.delta_segments -= segments as i64;
        if self.delta_segments >= 0 && self.burst > segments && tcb.bytes_in_flight <= tcb.cwnd {
            let unused = (self.burst - segments).wrapping_mul(tcb.mss);
            tcb.cwnd = tcb.cwnd.saturating_sub(unused);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MSS: u32 = 1000;

    /// A connection right after the first burst of 10 segments went out.
    fn started() -> (Wave, TcpState) {
        let mut tcb = TcpState::new(MSS, 10, u32::MAX);
        let mut wave = Wave::default();
        wave.init(&mut tcb);
        wave.cwnd_event(&mut tcb, CaEvent::TxStart);
        tcb.bytes_in_flight = 10 * MSS;
        wave.on_burst_sent(&mut tcb, 10);
        (wave, tcb)
    }

    /// One ACK at `now_us` for `segs` segments, with an RTT sample and a rate-sample interval.
    fn ack(wave: &mut Wave, tcb: &mut TcpState, now_us: u64, segs: u32, rtt_us: Option<u64>) {
        tcb.now = Time::from_micros(now_us);
        tcb.bytes_in_flight = tcb.bytes_in_flight.saturating_sub(segs * MSS);
        let rs = RateSample {
            acked_sacked: segs * MSS,
            rtt: rtt_us.map(Time::from_micros),
            interval: Time::from_millis(8),
            ..Default::default()
        };
        wave.cong_control(tcb, &RateConnection::default(), &rs);
    }

    /// The ACK train of one 10-segment burst: one ACK per segment from `start_us`, `spacing_us`
    /// apart, all with RTT `rtt_us` (aligned).
    fn train(wave: &mut Wave, tcb: &mut TcpState, start_us: u64, spacing_us: u64, rtt_us: u64) {
        for k in 0..10 {
            ack(wave, tcb, start_us + k * spacing_us, 1, Some(rtt_us));
        }
    }

    /// A timer expiry and the burst it releases.
    fn burst(wave: &mut Wave, tcb: &mut TcpState) {
        wave.on_burst_timer(tcb);
        assert_eq!(tcb.cwnd, tcb.bytes_in_flight + 10 * MSS);
        tcb.bytes_in_flight += 10 * MSS;
        wave.on_burst_sent(tcb, 10);
    }

    #[test]
    fn init_opens_one_burst_and_stays_out_of_slow_start() {
        let mut tcb = TcpState::new(MSS, 4, u32::MAX);
        let mut wave = Wave::default();
        assert_eq!(wave.burst_interval(), Time::from_millis(200));
        assert_eq!(wave.send_quantum(), 10);
        assert!(wave.has_cong_control());
        wave.init(&mut tcb);
        assert_eq!((tcb.cwnd, tcb.ssthresh), (10 * MSS, 0));
        assert_eq!(wave.ssthresh(&tcb, 5 * MSS), 0);
        // Before the first transmission (TX_START) the timer does not open the window.
        wave.on_burst_timer(&mut tcb);
        assert_eq!(tcb.cwnd, 10 * MSS);
        wave.on_burst_sent(&mut tcb, 10);
        assert_eq!(wave.burst_history().count(), 0);
    }

    #[test]
    fn the_first_burst_is_recorded_and_acks_close_the_window() {
        let (mut wave, mut tcb) = started();
        assert_eq!(wave.burst_history().collect::<Vec<_>>(), vec![10]);
        assert_eq!(wave.delta_segments(), 0);
        ack(&mut wave, &mut tcb, 100_000, 1, Some(100_000));
        // cwnd = bytes in flight: nothing may leave before the next expiry.
        assert_eq!(tcb.cwnd, 9 * MSS);
        ack(&mut wave, &mut tcb, 101_000, 2, Some(100_000));
        assert_eq!(tcb.cwnd, 7 * MSS);
    }

    #[test]
    fn tracking_mode_sets_txtime_from_the_ack_train_dispersion() {
        let (mut wave, mut tcb) = started();
        // Round 1: ACKs 1 ms apart, RTT rising 100.0 → 100.9 ms (all aligned).
        for k in 0..10 {
            ack(
                &mut wave,
                &mut tcb,
                100_000 + k * 1000,
                1,
                Some(100_000 + k * 100),
            );
        }
        // Dispersion (last − first)·n/(n − 1) = 9 ms · 10/9 in 2^20 fixed point:
        // 9e6 · ⌊10·2^20/9⌋ / 2^20 = 9 999 996 ns → 9999 µs; avg_rtt = min_rtt = 100 ms, so
        // delta_rtt = 0 and TxTime = 9999 µs.
        assert_eq!(wave.tx_timer(), Time::from_micros(9_999));
        assert_eq!(wave.burst_interval(), Time::from_micros(9_999));
        assert_eq!(wave.avg_rtt(), Some(Time::from_millis(100)));
        assert_eq!(wave.burst_history().count(), 0);
        assert_eq!(wave.rate_bps(MSS), 10 * 1000 * 8 * 1_000_000 / 9_999);
        // Round 2: first RTT 120 ms against min 100 ms: a = ⌊20000·2^20/120000⌋ = 174762,
        // avg = ⌊a·100000/2^20⌋ + ⌊(2^20 − a)·120000/2^20⌋ = 16666 + 100000 = 116666 µs,
        // delta_rtt = 16666 µs; ACKs 2 ms apart: dispersion 19999 µs;
        // TxTime = 19999 + 16666/2 = 28332 µs.
        burst(&mut wave, &mut tcb);
        train(&mut wave, &mut tcb, 300_000, 2_000, 120_000);
        assert_eq!(wave.avg_rtt(), Some(Time::from_micros(116_666)));
        assert_eq!(wave.tx_timer(), Time::from_micros(28_332));
    }

    #[test]
    fn adjustment_mode_when_delta_rtt_exceeds_beta_then_stabilisation() {
        let (mut wave, mut tcb) = started();
        train(&mut wave, &mut tcb, 100_000, 1_000, 100_000);
        burst(&mut wave, &mut tcb);
        train(&mut wave, &mut tcb, 300_000, 2_000, 120_000);
        // Round 3: first RTT 500 ms: a = 0.8·2^20, avg = 0.8·116666 + 100000 = 193332 µs,
        // delta_rtt 93332 µs ≤ 150 ms: tracking, TxTime = 19999 + 46666 = 66665 µs.
        burst(&mut wave, &mut tcb);
        train(&mut wave, &mut tcb, 500_000, 2_000, 500_000);
        assert_eq!(wave.avg_rtt(), Some(Time::from_micros(193_332)));
        assert_eq!(wave.tx_timer(), Time::from_micros(66_665));
        // Round 4: avg = 0.8·193332 + 100000 = 254665 µs, delta_rtt 154665 µs > beta:
        // adjustment: stab_factor = 254665/66665 = 3, min_rtt reset, avg_rtt = max_rtt (500 ms),
        // TxTime = init_timer.
        burst(&mut wave, &mut tcb);
        train(&mut wave, &mut tcb, 700_000, 2_000, 500_000);
        assert_eq!(wave.tx_timer(), Time::from_millis(200));
        assert_eq!(wave.stab_factor(), 3);
        assert_eq!(wave.min_rtt(), None);
        assert_eq!(wave.avg_rtt(), Some(Time::from_millis(500)));
        // Three rounds of stabilisation: the queue has drained (RTT 100 ms, 1 ms dispersion),
        // but TxTime stays at init_timer.
        for (i, left) in [2, 1, 0].into_iter().enumerate() {
            burst(&mut wave, &mut tcb);
            train(
                &mut wave,
                &mut tcb,
                1_000_000 + 200_000 * i as u64,
                1_000,
                100_000,
            );
            assert_eq!(wave.stab_factor(), left);
            assert_eq!(wave.tx_timer(), Time::from_millis(200));
        }
        // Then tracking again: a = 0 (first = min = 100 ms), delta 0, dispersion 9999 µs.
        burst(&mut wave, &mut tcb);
        train(&mut wave, &mut tcb, 2_000_000, 1_000, 100_000);
        assert_eq!(wave.tx_timer(), Time::from_micros(9_999));
    }

    #[test]
    fn rounds_of_min_burst_or_less_are_not_measured() {
        let mut tcb = TcpState::new(MSS, 10, u32::MAX);
        let mut wave = Wave::default();
        wave.init(&mut tcb);
        wave.cwnd_event(&mut tcb, CaEvent::TxStart);
        tcb.bytes_in_flight = 3 * MSS;
        wave.on_burst_sent(&mut tcb, 3);
        for k in 0..3 {
            ack(&mut wave, &mut tcb, 100_000 + k * 1000, 1, Some(100_000));
        }
        assert_eq!(wave.burst_history().count(), 0, "the burst is consumed");
        assert_eq!(wave.tx_timer(), Time::from_millis(200), "but not measured");
        assert_eq!(wave.avg_rtt(), None);
    }

    #[test]
    fn a_partial_burst_scales_the_dispersion_to_the_burst() {
        let mut tcb = TcpState::new(MSS, 10, u32::MAX);
        let mut wave = Wave::default();
        wave.init(&mut tcb);
        wave.cwnd_event(&mut tcb, CaEvent::TxStart);
        tcb.bytes_in_flight = 5 * MSS;
        wave.on_burst_sent(&mut tcb, 5);
        // 5 ACKs 1 ms apart for a 5-segment round, burst 10, no previous dispersion:
        // (last − first)/round_burst·burst = 4 ms/5·10 = 8 ms.
        for k in 0..5 {
            ack(&mut wave, &mut tcb, 100_000 + k * 1000, 1, Some(100_000));
        }
        assert_eq!(wave.tx_timer(), Time::from_millis(8));
    }

    #[test]
    fn a_lower_rtt_restarts_the_train() {
        let (mut wave, mut tcb) = started();
        // A straggler (RTT 150 ms), then the real train at 100 ms, 1 ms apart.
        ack(&mut wave, &mut tcb, 90_000, 1, Some(150_000));
        for k in 0..9 {
            ack(&mut wave, &mut tcb, 100_000 + k * 1000, 1, Some(100_000));
        }
        // The lower RTT restarted the train and the count: the straggler's segment is not part
        // of the round (pkts_acked = backup + this ACK), so 9 ACKs do not end it yet.
        assert_eq!(wave.burst_history().count(), 1);
        ack(&mut wave, &mut tcb, 109_000, 1, Some(100_000));
        assert_eq!(wave.burst_history().count(), 0);
        // Dispersion from the restart: 9 ms over 10 aligned ACKs → 9999 µs (with the
        // straggler it would have been 19 ms · 11/10).
        assert_eq!(wave.tx_timer(), Time::from_micros(9_999));
    }

    #[test]
    fn without_an_ack_train_the_dispersion_comes_from_a_blind_search() {
        let (mut wave, mut tcb) = started();
        // Each round: two ACKs of 5 segments without RTT samples, both with an 8 ms rate
        // interval: fewer than two aligned ACKs and no previous dispersion, so the heuristic;
        // |interval − first ACK's interval| = 0, so the blind search interval >> k.
        for (round, expected_us) in [8_000, 4_000, 2_000].into_iter().enumerate() {
            if round > 0 {
                burst(&mut wave, &mut tcb);
            }
            let t = 100_000 + 200_000 * round as u64;
            ack(&mut wave, &mut tcb, t, 5, None);
            ack(&mut wave, &mut tcb, t + 1000, 5, None);
            assert_eq!(
                wave.tx_timer(),
                Time::from_micros(expected_us),
                "round {round}"
            );
        }
    }

    #[test]
    fn over_sending_shrinks_the_next_burst_down_to_min_burst() {
        let (mut wave, mut tcb) = started();
        tcb.cwnd = 0;
        tcb.bytes_in_flight = 0;
        wave.on_burst_timer(&mut tcb);
        assert_eq!(tcb.cwnd, 10 * MSS);
        // 12 segments left in that round (e.g. retransmissions on top of the burst).
        tcb.bytes_in_flight = 12 * MSS;
        tcb.cwnd = 12 * MSS;
        wave.on_burst_sent(&mut tcb, 12);
        assert_eq!(wave.delta_segments(), -2);
        // Next burst: 10 − 2 = 8.
        wave.on_burst_timer(&mut tcb);
        assert_eq!(tcb.cwnd, 20 * MSS);
        assert_eq!(wave.delta_segments(), 8);
        wave.on_burst_sent(&mut tcb, 17);
        assert_eq!(wave.delta_segments(), -9);
        // 10 − 9 = 1 is below min_burst: 3.
        let before = tcb.cwnd;
        wave.on_burst_timer(&mut tcb);
        assert_eq!(tcb.cwnd, before + 3 * MSS);
        assert_eq!(wave.delta_segments(), 3);
    }

    #[test]
    fn under_sending_gives_the_unused_window_back() {
        let (mut wave, mut tcb) = started();
        tcb.cwnd = 0;
        tcb.bytes_in_flight = 0;
        wave.on_burst_timer(&mut tcb);
        // The application had only 4 segments.
        tcb.bytes_in_flight = 4 * MSS;
        wave.on_burst_sent(&mut tcb, 4);
        assert_eq!(tcb.cwnd, 4 * MSS);
        assert_eq!(wave.burst_history().collect::<Vec<_>>(), vec![10, 4]);
        // An expiry with nothing to send changes nothing.
        wave.on_burst_timer(&mut tcb);
        wave.on_burst_sent(&mut tcb, 0);
        assert_eq!(tcb.cwnd, 4 * MSS);
    }

    #[test]
    fn acks_for_segments_outside_the_window_are_balanced() {
        let (mut wave, mut tcb) = started();
        tcb.cwnd = 2 * MSS;
        tcb.bytes_in_flight = 10 * MSS;
        ack(&mut wave, &mut tcb, 100_000, 5, Some(100_000));
        // 5 segments ACKed with a 2-segment window: 3 were sent outside it.
        assert_eq!(wave.delta_segments(), 3);
        assert_eq!(tcb.cwnd, 5 * MSS);
        // Back in Open the balance restarts.
        wave.congestion_state_set(&mut tcb, CongState::Open);
        assert_eq!(wave.delta_segments(), 0);
    }
}

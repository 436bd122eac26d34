//! BBR v1, as ns-3.44 `TcpBbr` (`src/internet/model/tcp-bbr.{h,cc}` and `windowed-filter.h`;
//! Cardwell et al., "BBR: Congestion-Based Congestion Control", ACM Queue 14(5), 2016, and
//! draft-cardwell-iccrg-bbr-congestion-control-00; ns-3 port by Jain, Mittal and Tahiliani,
//! which follows Linux `net/ipv4/tcp_bbr.c`).
//!
//! BBR owns the window: the factory builds it with full control
//! ([`Capabilities::full_control`](crate::Capabilities)), so the sender calls
//! [`CongestionOps::cong_control`] with the ACK's [`RateConnection`] and [`RateSample`] instead of
//! `pkts_acked` + `increase_window`, and BBR sets `tcb.cwnd` and `tcb.pacing_rate_bps` (and turns
//! `tcb.pacing` on). Per ACK (`CongControl`): update the model and state (`UpdateBtlBw`,
//! `UpdateBottleneckBandwidth`, `UpdateAckAggregation`, `CheckCyclePhase`, `CheckFullPipe`,
//! `CheckDrain`, `UpdateRTprop`,
//! `CheckProbeRTT`), then the control parameters (`SetPacingRate`, `SetSendQuantum`, `SetCwnd`).
//!
//! - **Model.** BtlBw: windowed max of delivery-rate samples over `bw_window_length` = 10 rounds
//!   (Kathleen Nichols' three-sample filter, `windowed-filter.h`), valid samples only (delivered
//!   ≥ 0, non-zero interval), app-limited ones only if they raise it; a round ends when a packet sent after the previous round's end is ACKed
//!   (`prior_delivered ≥ next_round_delivered`). RTprop: min of `tcb.last_rtt`, expiring after
//!   `rtt_window_length` = 10 s. BDP = BtlBw·RTprop.
//! - **STARTUP**: pacing and cwnd gain `high_gain` = 2.89 (2/ln 2). The pipe is full once BtlBw
//!   has grown less than 25 % in 3 consecutive rounds (not app-limited); then **DRAIN**: pacing
//!   gain 1/2.89, cwnd gain 2.89, `ssthresh = BDP`, until bytes in flight ≤ BDP.
//! - **PROBE_BW**: cwnd gain 2 and the 8-phase pacing-gain cycle 5/4, 3/4, 1, 1, 1, 1, 1, 1, one
//!   phase per RTprop (5/4 also until the flight reaches 1.25·BDP or a loss; 3/4 ends early once
//!   the flight is ≤ BDP). The starting phase is random: `cycle_index = 7 − ⌊U[0,6)⌋`, then
//!   advanced, so the cycle starts at phase 0, 3, 4, 5, 6 or 7 — never in the 3/4 phase.
//! - **PROBE_RTT**: when RTprop has not been refreshed for 10 s (and not restarting from idle),
//!   save cwnd, cap it at `min_pipe_cwnd` = 4 segments, gains 1; after `probe_rtt_duration` =
//!   200 ms with the flight at 4 segments and one round trip, restore cwnd and go back to
//!   PROBE_BW (or STARTUP if the pipe was never filled).
//! - **Pacing rate** = gain·BtlBw·(1 − `pacing_margin`, 1 % as in ns-3.44; ns-3.33 has no
//!   margin), at most `tcb.max_pacing_rate_bps`; before the pipe is
//!   full it only grows. Initially `high_gain·cwnd/max(minRtt, 1 ms)` (`InitPacingRate`).
//! - **cwnd** target = `cwnd_gain`·BDP + 3 send quanta (+ 2 segments in phase 0 of PROBE_BW) +
//!   the ACK-aggregation allowance; cwnd grows by the ACKed bytes up to it (without limit before
//!   the pipe is full), never below 4 segments; in PROBE_RTT at most 4 segments. In Recovery:
//!   cwnd minus the bytes lost, and packet conservation (cwnd ≥ flight + ACKed) for the first round.
//! - **Loss hooks** (ns-3 `CongestionStateSet`, `CwndEvent`, `GetSsThresh`): entering Recovery
//!   saves cwnd and sets `cwnd = bytes_in_flight + max(last_acked_sacked_bytes, MSS)` with packet
//!   conservation; entering Loss saves cwnd and starts a round; `CompleteCwr` ends conservation
//!   and restores the saved cwnd; `ssthresh()` saves cwnd and keeps ssthresh.
//!
//! Initialisation happens, as in ns-3, on the first `congestion_state_set(Open)` (ns-3's
//! `TcpSocketBase` calls it when the handshake completes) — or on [`CongestionOps::init`] or the
//! first `cong_control`, whichever comes first.
//!
//! # What the sender must do
//!
//! As ns-3.44 `TcpSocketBase` does for a `HasCongControl()` algorithm:
//! - call `congestion_state_set(tcb, Open)` when the handshake completes (or `init`);
//! - on every ACK, after its own ACK processing (scoreboard, state changes, RTT sample), call
//!   `cong_control(tcb, rc, rs)` — and neither `pkts_acked` nor `increase_window` — with
//!   `tcb.bytes_in_flight`, `tcb.last_rtt`, `tcb.min_rtt`, `tcb.cong_state` up to date and the
//!   ACK's [`RateSample`] (`delivery_rate_bps`, `is_app_limited`, `interval`, `delivered`,
//!   `prior_delivered`, `bytes_loss`, `prior_in_flight`, `acked_sacked`) and
//!   [`RateConnection::delivered`];
//! - set `tcb.last_acked_sacked_bytes` for the ACK before `congestion_state_set(Recovery)`;
//! - not let its recovery algorithm (PRR, classic) overwrite cwnd: BBR sets cwnd on entering
//!   recovery and conserves packets itself (ns-3 skips its recovery operations when
//!   `HasCongControl()`; seen in `TcpSocketBase::EnterCwr`);
//! - on a timeout keep ns-3's order — `ssthresh()`, `cwnd_event(Loss)`, `congestion_state_set(Loss)`,
//!   *then* `cwnd = 1·MSS` — so that BBR saves the pre-timeout cwnd;
//! - pace at `tcb.pacing_rate_bps` (BBR sets `tcb.pacing = true`), and call
//!   `cwnd_event(TxStart)` when transmission restarts with nothing in flight.
//!
//! # Arithmetic and departures
//!
//! Rates are ns-3 `DataRate` values (`uint64_t` bits/s): `DataRate(double)` truncates,
//! `DataRate * Time` is `Time::GetSeconds() · bps` as a double, `rate *= 0.99` truncates, and
//! every double-to-`uint32_t` conversion is the x86-64 one ([`crate::ns3num`]). Kept ns-3 details:
//! the max filter's "zero value" is the initial nominal bandwidth; `UpdateRound` runs only for
//! valid samples; the ACK-aggregation epoch length is truncated to whole
//! seconds (`uint32_t epochProp`); `AckEpochAckedResetThresh` is 4096 bytes (the attribute value,
//! overriding the header's 2^17); `HandleRestartFromIdle` is never called.
//! Departures: ns-3 keeps `m_nextRoundDelivered`, `TcpRateSample::m_priorDelivered` and
//! `m_appLimited` in `uint32_t`, so its round counting stops after 4 GiB delivered — ccsim keeps
//! 64 bits; ns-3's `m_lastRtt` starts at 0 s
//! (an RTprop of 0 if BBR initialised before any RTT sample) — ccsim's `tcb.last_rtt` is `None`
//! until a sample exists and RTprop stays unset. The random starting phase is drawn, with
//! `rng = "ns3"` (the default), from ns-3's own MRG32k3a user stream `stream` of run `seed`
//! (RngSeed 1), so every draw equals ns-3.44's; with `rng = "ccsim"` from a seeded
//! [`RngStream`].

mod config;
mod model;
mod probe_rtt;
#[cfg(test)]
mod tests;

pub use config::BbrConfig;

use crate::ns3num::{cast_u32, cast_u64, seconds};
use crate::windowed_filter::MaxFilter;
use crate::{CaEvent, CongState, CongestionOps, RateConnection, RateSample, TcpState};
use ccsim_core::{Mrg32k3a, RngStream, Time};

/// Phases of the PROBE_BW pacing-gain cycle (`GAIN_CYCLE_LENGTH`).
pub const GAIN_CYCLE_LENGTH: u32 = 8;
/// The PROBE_BW pacing gains (`PACING_GAIN_CYCLE`).
pub const PACING_GAIN_CYCLE: [f64; GAIN_CYCLE_LENGTH as usize] =
    [5.0 / 4.0, 3.0 / 4.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0];
/// Gain on the extra-ACKed allowance (`m_extraAckedGain`).
const EXTRA_ACKED_GAIN: u32 = 1;
/// Minimum cwnd, segments (`m_minPipeCwnd = 4 · segmentSize`).
const MIN_PIPE_CWND_SEGMENTS: u32 = 4;
/// BtlBw growth that counts as "still growing" (`CheckFullPipe`).
const FULL_BW_THRESH: f64 = 1.25;
/// Rounds without such growth that fill the pipe (`CheckFullPipe`).
const FULL_BW_COUNT: u32 = 3;

/// BBR modes (ns-3 `TcpBbr::BbrMode_t`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BbrMode {
    Startup,
    Drain,
    ProbeBw,
    ProbeRtt,
}

/// The generator of BBR's random PROBE_BW starting phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BbrRng {
    /// ns-3.44's MRG32k3a: user stream `stream` (2^63 + stream) of run `seed`, RngSeed 1.
    /// Every ns-3 `TcpBbr` uses stream 4, so all flows of a run draw the same sequence.
    Ns3,
    /// ccsim's [`RngStream`] named after `stream`, seeded with `seed`.
    Ccsim,
}

crate::choice_param!(BbrRng {
    "ns3" => Ns3,
    "ccsim" => Ccsim,
});

#[derive(Clone, Debug)]
enum PhaseRng {
    Ns3(Mrg32k3a),
    Ccsim(RngStream),
}

impl PhaseRng {
    /// ⌊U[0, 6)⌋: ns-3 `(int)m_uv->GetValue(0, 6)`.
    fn below_six(&mut self) -> u32 {
        match self {
            PhaseRng::Ns3(g) => (g.next_f64() * 6.0) as u32,
            PhaseRng::Ccsim(r) => r.below(6) as u32,
        }
    }
}

/// ns-3 `TcpBbr` state.
#[derive(Clone, Debug)]
pub struct Bbr {
    config: BbrConfig,
    rng: PhaseRng,
    mode: BbrMode,
    max_bw_filter: MaxFilter,
    pacing_gain: f64,
    cwnd_gain: f64,
    is_pipe_filled: bool,
    min_pipe_cwnd: u32,
    round_count: u32,
    round_start: bool,
    next_round_delivered: u64,
    /// When PROBE_RTT may end (`m_probeRttDoneStamp`); zero means "not set", as in ns-3 (kept
    /// because ns-3 compares against it even when unset).
    probe_rtt_done_stamp: Time,
    probe_rtt_round_done: bool,
    packet_conservation: bool,
    prior_cwnd: u32,
    idle_restart: bool,
    target_cwnd: u32,
    full_bandwidth: u64,
    full_bandwidth_count: u32,
    /// RTprop (`m_rtProp`); `None` is ns-3's `Time::Max()`.
    rt_prop: Option<Time>,
    /// `rt_prop` in ns-3 seconds ([`seconds`]), kept with it: the BDP needs it several
    /// times per ACK and RTprop rarely changes.
    rt_prop_s: f64,
    send_quantum: u32,
    cycle_stamp: Time,
    cycle_index: u32,
    rt_prop_expired: bool,
    rt_prop_stamp: Time,
    is_initialized: bool,
    /// `RateConnection::delivered` at the last ACK (`m_delivered`).
    delivered: u64,
    /// Set in PROBE_RTT to the delivered + in-flight mark (`m_appLimited`); only read as a flag.
    app_limited: u64,
    extra_acked: [u32; 2],
    extra_acked_win_rtt: u32,
    extra_acked_idx: usize,
    ack_epoch_time: Time,
    ack_epoch_acked: u32,
    has_seen_rtt: bool,
    pacing_memo: PacingMemo,
}

/// The last [`Bbr::paced_rate`] and its inputs.
#[derive(Clone, Copy, Debug)]
struct PacingMemo {
    /// `f64::to_bits` of the gain; starts as a NaN pattern no gain has.
    gain_bits: u64,
    btl_bw: u64,
    rate: u64,
}

impl Default for Bbr {
    fn default() -> Self {
        Bbr::new(BbrConfig::default())
    }
}

impl Bbr {
    pub fn new(config: BbrConfig) -> Self {
        let rng = match config.rng {
            BbrRng::Ns3 => PhaseRng::Ns3(Mrg32k3a::ns3_user_stream(
                1,
                config.seed,
                config.stream as u64,
            )),
            BbrRng::Ccsim => PhaseRng::Ccsim(RngStream::new(
                config.seed,
                &format!("TcpBbr/{}", config.stream),
            )),
        };
        Bbr {
            config,
            rng,
            mode: BbrMode::Startup,
            max_bw_filter: MaxFilter::default(),
            pacing_gain: 0.0,
            cwnd_gain: 0.0,
            is_pipe_filled: false,
            min_pipe_cwnd: 0,
            round_count: 0,
            round_start: false,
            next_round_delivered: 0,
            probe_rtt_done_stamp: Time::ZERO,
            probe_rtt_round_done: false,
            packet_conservation: false,
            prior_cwnd: 0,
            idle_restart: false,
            target_cwnd: 0,
            full_bandwidth: 0,
            full_bandwidth_count: 0,
            rt_prop: None,
            rt_prop_s: 0.0,
            send_quantum: 0,
            cycle_stamp: Time::ZERO,
            cycle_index: 0,
            rt_prop_expired: false,
            rt_prop_stamp: Time::ZERO,
            is_initialized: false,
            delivered: 0,
            app_limited: 0,
            extra_acked: [0; 2],
            extra_acked_win_rtt: 0,
            extra_acked_idx: 0,
            ack_epoch_time: Time::ZERO,
            ack_epoch_acked: 0,
            has_seen_rtt: false,
            pacing_memo: PacingMemo {
                gain_bits: u64::MAX,
                btl_bw: 0,
                rate: 0,
            },
        }
    }

    /// Current mode (ns-3 `GetBbrState`).
    pub fn mode(&self) -> BbrMode {
        self.mode
    }
    /// Current pacing gain (ns-3 `GetPacingGain`).
    pub fn pacing_gain(&self) -> f64 {
        self.pacing_gain
    }
    /// Current cwnd gain (ns-3 `GetCwndGain`).
    pub fn cwnd_gain(&self) -> f64 {
        self.cwnd_gain
    }
    /// The bottleneck-bandwidth estimate, bits/s.
    pub fn btl_bw_bps(&self) -> u64 {
        self.max_bw_filter.best()
    }
    /// The RTprop estimate, if any.
    pub fn rt_prop(&self) -> Option<Time> {
        self.rt_prop
    }
    /// Packet-timed round trips so far.
    pub fn round_count(&self) -> u32 {
        self.round_count
    }
    /// Whether STARTUP found the pipe full.
    pub fn is_pipe_filled(&self) -> bool {
        self.is_pipe_filled
    }
    /// Index of the PROBE_BW gain-cycle phase.
    pub fn cycle_index(&self) -> u32 {
        self.cycle_index
    }

    /// The first `CongestionStateSet(CA_OPEN)` of ns-3 `TcpBbr`.
    fn initialize(&mut self, tcb: &mut TcpState) {
        self.set_rt_prop(tcb.last_rtt);
        self.rt_prop_stamp = tcb.now;
        self.prior_cwnd = tcb.cwnd;
        tcb.ssthresh = tcb.initial_ssthresh;
        self.target_cwnd = tcb.cwnd;
        self.min_pipe_cwnd = MIN_PIPE_CWND_SEGMENTS * tcb.mss;
        self.send_quantum = tcb.mss;
        // InitRoundCounting
        self.next_round_delivered = 0;
        self.round_start = false;
        self.round_count = 0;
        // InitFullPipe
        self.is_pipe_filled = false;
        self.full_bandwidth = 0;
        self.full_bandwidth_count = 0;
        self.enter_startup();
        self.init_pacing_rate(tcb);
        self.ack_epoch_time = tcb.now;
        self.extra_acked_win_rtt = 0;
        self.extra_acked_idx = 0;
        self.ack_epoch_acked = 0;
        self.extra_acked = [0; 2];
        self.is_initialized = true;
    }

    /// `InitPacingRate`: `gain · cwnd / max(minRtt, 1 ms)` and a fresh max filter whose zero value
    /// is that nominal bandwidth.
    fn init_pacing_rate(&mut self, tcb: &mut TcpState) {
        tcb.pacing = true;
        let rtt = match tcb.min_rtt {
            Some(min_rtt) => {
                self.has_seen_rtt = true;
                Time::from_millis(min_rtt.as_millis().max(1))
            }
            None => Time::from_millis(1),
        };
        let nominal = cast_u64(tcb.cwnd.wrapping_mul(8) as f64 / seconds(rtt));
        tcb.pacing_rate_bps = cast_u64(self.pacing_gain * nominal as f64);
        self.max_bw_filter = MaxFilter::new(self.config.bw_window_length, nominal, 0);
    }

    fn enter_startup(&mut self) {
        self.mode = BbrMode::Startup;
        self.pacing_gain = self.config.high_gain;
        self.cwnd_gain = self.config.high_gain;
    }

    fn enter_drain(&mut self) {
        self.mode = BbrMode::Drain;
        self.pacing_gain = 1.0 / self.config.high_gain;
        self.cwnd_gain = self.config.high_gain;
    }

    /// `EnterProbeBW`: a random starting phase, `7 − ⌊U[0, 6)⌋`, then one advance.
    fn enter_probe_bw(&mut self, now: Time) {
        self.mode = BbrMode::ProbeBw;
        self.pacing_gain = 1.0;
        self.cwnd_gain = 2.0;
        self.cycle_index = GAIN_CYCLE_LENGTH - 1 - self.rng.below_six();
        self.advance_cycle_phase(now);
    }

    fn advance_cycle_phase(&mut self, now: Time) {
        self.cycle_stamp = now;
        self.cycle_index = (self.cycle_index + 1) % GAIN_CYCLE_LENGTH;
        self.pacing_gain = PACING_GAIN_CYCLE[self.cycle_index as usize];
    }

    /// `SetPacingRate`.
    fn set_pacing_rate(&mut self, tcb: &mut TcpState, gain: f64) {
        let rate = self.paced_rate(gain).min(tcb.max_pacing_rate_bps);
        if !self.has_seen_rtt && tcb.min_rtt.is_some() {
            self.init_pacing_rate(tcb);
        }
        if self.is_pipe_filled || rate > tcb.pacing_rate_bps {
            tcb.pacing_rate_bps = rate;
        }
    }

    /// `gain · BtlBw · (1 − margin)` as ns-3's `DataRate`s truncate it, remembered with its
    /// inputs: BtlBw and the gain change a few times per round, and the four u64/f64
    /// conversions (long-latency without AVX-512) ran on every ACK.
    fn paced_rate(&mut self, gain: f64) -> u64 {
        let btl_bw = self.max_bw_filter.best();
        let memo = &mut self.pacing_memo;
        if memo.gain_bits != gain.to_bits() || memo.btl_bw != btl_bw {
            let rate = cast_u64(gain * btl_bw as f64);
            *memo = PacingMemo {
                gain_bits: gain.to_bits(),
                btl_bw,
                rate: cast_u64(rate as f64 * (1.0 - self.config.pacing_margin)),
            };
        }
        memo.rate
    }

    fn set_rt_prop(&mut self, rt_prop: Option<Time>) {
        self.rt_prop = rt_prop;
        self.rt_prop_s = rt_prop.map_or(0.0, seconds);
    }

    /// `InFlight`: `gain·BDP + 3 quanta` (+ 2 segments in PROBE_BW phase 0), bytes.
    fn in_flight(&self, tcb: &TcpState, gain: f64) -> u32 {
        let Some(rt_prop) = self.rt_prop else {
            return tcb.initial_cwnd_segs.wrapping_mul(tcb.mss);
        };
        let quanta = 3.0 * self.send_quantum as f64;
        debug_assert_eq!(self.rt_prop_s.to_bits(), seconds(rt_prop).to_bits());
        let bdp = self.rt_prop_s * self.max_bw_filter.best() as f64 / 8.0;
        if self.mode == BbrMode::ProbeBw && self.cycle_index == 0 {
            return cast_u32(gain * bdp + quanta + (2 * tcb.mss) as f64);
        }
        cast_u32(gain * bdp + quanta)
    }

    /// `IsNextCyclePhase`.
    fn is_next_cycle_phase(&self, tcb: &TcpState, rs: &RateSample) -> bool {
        let is_full_length = self
            .rt_prop
            .is_some_and(|rt| tcb.now.saturating_sub(self.cycle_stamp) > rt);
        if self.pacing_gain == 1.0 {
            is_full_length
        } else if self.pacing_gain > 1.0 {
            is_full_length
                && (rs.bytes_loss > 0
                    || rs.prior_in_flight >= self.in_flight(tcb, self.pacing_gain))
        } else {
            is_full_length || rs.prior_in_flight <= self.in_flight(tcb, 1.0)
        }
    }

    /// `CheckDrain`.
    fn check_drain(&mut self, tcb: &mut TcpState) {
        if self.mode == BbrMode::Startup && self.is_pipe_filled {
            self.enter_drain();
            tcb.ssthresh = self.in_flight(tcb, 1.0);
        }
        if self.mode == BbrMode::Drain && tcb.bytes_in_flight <= self.in_flight(tcb, 1.0) {
            self.enter_probe_bw(tcb.now);
        }
    }

    /// `ModulateCwndForRecovery`; true when packet conservation decided cwnd.
    fn modulate_cwnd_for_recovery(&self, tcb: &mut TcpState, rs: &RateSample) -> bool {
        if rs.bytes_loss > 0 {
            let reduced = tcb.cwnd as i32 - rs.bytes_loss as i32;
            tcb.cwnd = reduced.max(tcb.mss as i32) as u32;
        }
        if self.packet_conservation {
            tcb.cwnd = tcb
                .cwnd
                .max(tcb.bytes_in_flight.wrapping_add(rs.acked_sacked));
            return true;
        }
        false
    }

    /// `SetCwnd` (with `ModulateCwndForProbeRTT` at `done:`).
    fn set_cwnd(&mut self, tcb: &mut TcpState, rs: &RateSample) {
        let conserved = rs.acked_sacked == 0
            || (tcb.cong_state == CongState::Recovery && self.modulate_cwnd_for_recovery(tcb, rs));
        if !conserved {
            self.target_cwnd = self
                .in_flight(tcb, self.cwnd_gain)
                .wrapping_add(self.ack_aggregation_cwnd());
            if self.is_pipe_filled {
                tcb.cwnd = tcb.cwnd.wrapping_add(rs.acked_sacked).min(self.target_cwnd);
            } else if tcb.cwnd < self.target_cwnd
                || self.delivered < tcb.initial_cwnd_segs as u64 * tcb.mss as u64
            {
                tcb.cwnd = tcb.cwnd.wrapping_add(rs.acked_sacked);
            }
            tcb.cwnd = tcb.cwnd.max(self.min_pipe_cwnd);
        }
        if self.mode == BbrMode::ProbeRtt {
            tcb.cwnd = tcb.cwnd.min(self.min_pipe_cwnd);
        }
    }
}

impl CongestionOps for Bbr {
    fn name(&self) -> &'static str {
        "TcpBbr"
    }

    /// ns-3 `TcpBbr` has no `Init`; it initialises on the first `CongestionStateSet(CA_OPEN)`,
    /// which ns-3 calls at the end of the handshake. ccsim does the same here if the sender
    /// calls `init` first.
    fn init(&mut self, tcb: &mut TcpState) {
        if !self.is_initialized {
            self.initialize(tcb);
        }
    }

    /// `GetSsThresh`: remember cwnd, keep ssthresh.
    fn ssthresh(&mut self, tcb: &TcpState, _bytes_in_flight: u32) -> u32 {
        self.save_cwnd(tcb);
        tcb.ssthresh
    }

    /// ns-3 `TcpCongestionOps::IncreaseWindow` (BBR does not override it, and the sender does
    /// not call it for a full-control algorithm): nothing.
    fn increase_window(&mut self, _tcb: &mut TcpState, _segments_acked: u32) {}

    /// `CongestionStateSet`.
    fn congestion_state_set(&mut self, tcb: &mut TcpState, new_state: CongState) {
        match new_state {
            CongState::Open if !self.is_initialized => self.initialize(tcb),
            CongState::Loss => {
                self.save_cwnd(tcb);
                self.round_start = true;
            }
            CongState::Recovery => {
                self.save_cwnd(tcb);
                tcb.cwnd = tcb
                    .bytes_in_flight
                    .wrapping_add(tcb.last_acked_sacked_bytes.max(tcb.mss));
                self.packet_conservation = true;
            }
            _ => {}
        }
    }

    /// Linux `bbr_undo_cwnd`: keep cwnd, search for the full pipe again.
    fn undo_cwnd(&mut self, tcb: &TcpState, _prior_cwnd: u32) -> u32 {
        (self.full_bandwidth, self.full_bandwidth_count) = (0, 0);
        self.is_pipe_filled = false;
        tcb.cwnd
    }

    /// `CwndEvent`.
    fn cwnd_event(&mut self, tcb: &mut TcpState, event: CaEvent) {
        match event {
            CaEvent::CompleteCwr => {
                self.packet_conservation = false;
                self.restore_cwnd(tcb);
            }
            CaEvent::TxStart if self.app_limited != 0 => {
                self.idle_restart = true;
                self.ack_epoch_time = tcb.now;
                self.ack_epoch_acked = 0;
                if self.mode == BbrMode::ProbeBw {
                    self.set_pacing_rate(tcb, 1.0);
                } else if self.mode == BbrMode::ProbeRtt
                    && self.probe_rtt_round_done
                    && tcb.now > self.probe_rtt_done_stamp
                {
                    self.rt_prop_stamp = tcb.now;
                    self.restore_cwnd(tcb);
                    self.exit_probe_rtt(tcb.now);
                }
            }
            _ => {}
        }
    }

    /// `CongControl`: update the model and state, then pacing rate, send quantum and cwnd.
    fn cong_control(&mut self, tcb: &mut TcpState, rc: &RateConnection, rs: &RateSample) {
        if !self.is_initialized {
            self.initialize(tcb);
        }
        self.delivered = rc.delivered;
        // UpdateModelAndState
        self.update_btl_bw(rs);
        self.update_ack_aggregation(tcb, rs);
        if self.mode == BbrMode::ProbeBw && self.is_next_cycle_phase(tcb, rs) {
            self.advance_cycle_phase(tcb.now);
        }
        self.check_full_pipe(rs);
        self.check_drain(tcb);
        self.update_rt_prop(tcb);
        self.check_probe_rtt(tcb, rs);
        // UpdateControlParameters
        self.set_pacing_rate(tcb, self.pacing_gain);
        self.send_quantum = tcb.mss;
        self.set_cwnd(tcb, rs);
    }
}

//! TCP Wave, burst-based transmission: A. Abdelsalam, M. Luglio, C. Roseti, F. Zampognaro,
//! "TCP Wave: A new reliable transport approach for future internet", Computer Networks 112
//! (2017) 122–143, and seed 003 (TCP Wave's resilience to link changes); traced rule by rule
//! to N. Patriciello's Linux module `net/ipv4/tcp_wave.c` v0.2 (`sbourdelin/linux`; v0.1 in
//! `kronat/linux`), which follows the paper's design (`shared/reference/ANCHORS.md` §3).
//! Re-implemented from those sources; the ns-3.23 original (`tcp-wave.cc`, tlcsat.uniroma2.it)
//! is not public on GitHub. Each submodule names the Linux functions it follows.
//!
//! Wave is not a window rule. A self-managed timer (TxTime) releases a burst of `burst`
//! segments per expiry; between bursts the window is kept closed. The **ACCE** module
//! (ACK-based Capacity and Congestion Estimation) measures each burst's ACK train and sets
//! TxTime: the rate is `burst·MSS/TxTime`, decoupled from the RTT.
//!
//! - [`config`]: the module parameters;
//! - `history`: the bursts sent and the segments ACKed against the oldest;
//! - `train`: a round's ACK train and its dispersion;
//! - `rtt`: ACCE's RTT statistics, in the module's `u32` arithmetic;
//! - `acce`: the per-ACK and end-of-round rules (tracking and adjustment modes).
//!
//! # What the sender must do (burst mode)
//!
//! The factory builds Wave as a burst-mode [`Controller`](crate::Controller), which puts the
//! sender in burst mode, and with full control (`cong_control` on every ACK). The [`BurstOps`] hooks
//! mirror Patriciello's `tcp_congestion_ops` additions (`get_pacing_time`,
//! `pacing_timer_expired`, `get_segs_per_round`, `segments_sent`):
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
//!    - After a transmission attempt call
//!      [`on_burst_sent(tcb, n, new)`](BurstOps::on_burst_sent) with the number of segments
//!      it sent and how many of them were **new data**: always after an attempt that followed
//!      a burst-timer expiry (also when n = 0), and after any other attempt that sent n > 0.
//!      Wave records the first round with new data after each expiry as a burst (only new
//!      data: Linux calls `segments_sent` from `tcp_write_xmit`, which sends from the send
//!      head, so a retransmission is never part of a burst) and balances over- and
//!      under-sending with everything that used the window (after a timeout the go-back-N
//!      retransmissions leave one burst per TxTime).
//! 3. **Burst timer.** Arm it when segments are first sent after `init`, at
//!    `now + burst_interval()`. On expiry: [`on_burst_timer(tcb)`](BurstOps::on_burst_timer)
//!    (opens cwnd by one burst), a transmission attempt, `on_burst_sent(tcb, n, new)`, then re-arm at
//!    `now + burst_interval()`, reading the interval after those calls (ACKs change it). The timer
//!    keeps running while the connection is open; with nothing to send an expiry is a no-op for
//!    Wave (cwnd opened, then closed again by `on_burst_sent(0, 0)`), so an idle sender may stop it
//!    and restart it with an immediate expiry when data arrives.
//! 4. **Every ACK** (new data, duplicates, SACK-only): after updating `bytes_in_flight` for it,
//!    call `cong_control(tcb, rc, rs)` — instead of `pkts_acked` + `increase_window` — with
//!    `rs.acked_sacked` (bytes newly ACKed or SACKed), `rs.interval` and `rs.rtt` = this ACK's
//!    RTT sample or `None` (Linux `rate_sample`). Wave closes cwnd to `bytes_in_flight` and runs
//!    ACCE. `tcb.now` must be the ACK's arrival time: ACK-train dispersion is measured from it.
//! 5. **Loss.** `ssthresh()` returns 0. As for BBR (ns-3 skips its recovery algorithm when
//!    `HasCongControl`), the sender must not apply PRR / classic-recovery cwnd changes: Wave's
//!    cwnd is opened only by the timer and closed by ACKs. Everything else is as usual:
//!    `congestion_state_set`, `cwnd_event`, retransmissions, and on a timeout cwnd = 1 MSS
//!    (Linux `tcp_enter_loss`: in-flight + 1) until the next expiry opens it. Like the
//!    authors' module, Wave keeps its burst history across a loss or a timeout: the bursts lost
//!    in an outage stay queued until their retransmissions are ACKed, and are consumed then.
//! 6. **Recovery path.** The module runs on Linux's loss recovery (`tcp_fastretrans_alert`),
//!    so seed 003 runs Wave with the `linux` TCP profile. Without SACK the rule that matters is
//!    Linux's hold at the recovery point (`tcp.ns3_dupacks_at_recover_restart = false`):
//!    after a timeout's go-back-N the duplicates it resent draw duplicate ACKs for exactly
//!    `high_seq`, which Linux ignores (`tcp_try_undo_recovery`). On ns-3's rule they start a
//!    new fast recovery, and with Wave's window closed to the flight on every ACK each
//!    spurious partial-ACK retransmission draws the next duplicates: ~450 episodes in 280 s
//!    on seed 003's GEO link, against one on Linux's (docs/tcp-model.md).
//!    The profile also counts a Reno duplicate ACK as one delivered segment in
//!    `rs.acked_sacked` as Linux does (`tcp.reno_sack_delivered`, `tcp_add_reno_sack`; ns-3
//!    counts none), which is what Wave's ACK count sees in fast recovery, and runs F-RTO.
//!
//! # ACCE, per burst ("round")
//!
//! - **Train.** The first ACK of a round records `first_ack_time`; later ACKs whose RTT is not
//!   below the previous one ("aligned") move `last_ack_time` and count; an ACK with a lower RTT
//!   restarts the train there (the real beginning). The first RTT sample of a round is
//!   `first_rtt`; it also updates `min_rtt` and `max_rtt`.
//! - **End of round** (segments ACKed ≥ the oldest burst): if the burst was larger than
//!   `min_burst`:
//!   1. `avg_rtt = a·avg_rtt + (1 − a)·first_rtt` with `a = (first_rtt − min_rtt)/first_rtt`
//!      (scaled by 2^20); the first value is `min_rtt`;
//!   2. **stabilisation**: if `stab_factor > 0`, decrement it and change nothing else;
//!   3. `delta_rtt = avg_rtt − min_rtt`;
//!   4. ACK-train dispersion: `(last − first)·n/(n − 1)` over n aligned ACKs when the round's
//!      burst is the current burst, `(last − first)/round_burst·burst` otherwise (only if no
//!      previous value exists), else the previous value; with fewer than two aligned ACKs the
//!      previous value, or a heuristic from `rs.interval`;
//!   5. **adjustment mode** if `delta_rtt > beta` (150 ms): `stab_factor = avg_rtt/TxTime`,
//!      `min_rtt` reset, `avg_rtt = max_rtt`, TxTime = `init_timer` (200 ms);
//!   6. **tracking mode** otherwise: TxTime = dispersion + `delta_rtt/2` (1 ms if that is 0).
//!
//!   Then the bursts the ACKs cover are dequeued and the train restarts.
//! - The interval the sender uses is `min(TxTime, init_timer)`; the burst stays `init_burst`
//!   (v0.2 never changes it).
//! - **Timer expiry**: the burst to release is `burst`, less the over-sending of the previous
//!   round (`delta_segments < 0`), at least `min_burst` (3).
//!
//! # Arithmetic and the differences kept
//!
//! As Linux v0.2: segment counts (`rs->acked_sacked`, `pkts_acked`, burst sizes), RTTs and
//! TxTime in µs (`u32`, with the module's wrap-around when `min_rtt` is unset, `rtt`),
//! ACK times and dispersion in ns, weights scaled by 2^20, `stab_factor` truncated to 8 bits.
//! ccsim's sender gives ACKed bytes; Wave counts `⌈bytes/MSS⌉` segments (a partial
//! segment is one packet, as a Linux skb). Kept differences, and why:
//! - **One burst timer per round** (the paper's TxTime): Linux re-arms its pacing timer after
//!   every `tcp_write_xmit`, which also runs on ACK arrival; ccsim's sender has no
//!   per-transmission pacing hook, and with the window closed by every ACK an ACK-time
//!   transmission sends nothing new in either.
//! - **`delta_segments` and the expiry burst in `i64`**: Linux keeps `delta_segments` in an
//!   `s8` and the burst to release in a `u32`, which wraps to a huge value when a round
//!   over-sent by more than a burst (the C code then adds it to `snd_cwnd`); ccsim clamps
//!   such a burst to `min_burst` as the code intends (`if (current_burst < min_burst)`).
//! - **An empty history** ends ACK processing: Linux reads the uninitialised list head's
//!   `size` (undefined); ccsim does not count ACKs that no burst is waiting for.

mod acce;
pub mod config;
mod history;
mod rtt;
mod train;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_recovery;

pub use config::WaveConfig;

use crate::{BurstOps, CaEvent, CongState, CongestionOps, RateConnection, RateSample, TcpState};
use ccsim_core::Time;
use history::BurstHistory;
use rtt::RttStats;
use train::AckTrain;

fn micros(t: Time) -> u64 {
    t.as_nanos() / 1000
}

/// TCP Wave state (Linux `struct wavetcp`).
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
    /// Rounds to wait before the next adjustment (`u8 stab_factor`).
    stab_factor: u8,
    history: BurstHistory,
    train: AckTrain,
    rtt: RttStats,
}

impl Default for Wave {
    fn default() -> Self {
        Wave::new(WaveConfig::default())
    }
}

impl Wave {
    pub fn new(config: WaveConfig) -> Self {
        Wave {
            initialized: false,
            started: false,
            save_burst: false,
            tx_timer_us: config.init_timer_us(),
            burst: config.init_burst,
            delta_segments: config.init_burst as i64,
            stab_factor: 0,
            history: BurstHistory::new(),
            train: AckTrain::default(),
            rtt: RttStats::default(),
            config,
        }
    }

    /// Current TxTime (before the `init_timer` cap).
    pub fn tx_timer(&self) -> Time {
        Time::from_micros(self.tx_timer_us as u64)
    }
    /// Average RTT of ACCE, if any.
    pub fn avg_rtt(&self) -> Option<Time> {
        (self.rtt.avg != 0).then(|| Time::from_micros(self.rtt.avg as u64))
    }
    /// Minimum RTT of ACCE, if set.
    pub fn min_rtt(&self) -> Option<Time> {
        (self.rtt.min != rtt::UNSET).then(|| Time::from_micros(self.rtt.min as u64))
    }
    /// Remaining stabilisation rounds.
    pub fn stab_factor(&self) -> u32 {
        self.stab_factor as u32
    }
    /// Bursts sent and not yet ACKed, oldest first, segments.
    pub fn burst_history(&self) -> impl Iterator<Item = u32> + '_ {
        self.history.iter()
    }
    /// Number of bursts sent and not yet ACKed.
    pub fn burst_history_len(&self) -> usize {
        self.history.len()
    }
    /// Segments still allowed (positive) or sent in excess (negative) in this round.
    pub fn delta_segments(&self) -> i64 {
        self.delta_segments
    }
    /// The sending rate Wave aims at, bits/s: `burst · MSS · 8 / min(TxTime, init_timer)`.
    pub fn rate_bps(&self, mss: u32) -> u64 {
        let timer_us = self.tx_timer_us.min(self.config.init_timer_us()).max(1) as u64;
        self.burst as u64 * mss as u64 * 8 * 1_000_000 / timer_us
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

    /// `wavetcp_undo_cwnd`: "Not implemented yet. We stick to the decision made earlier":
    /// cwnd stays as it is.
    fn undo_cwnd(&mut self, tcb: &TcpState, _prior_cwnd: u32) -> u32 {
        tcb.cwnd
    }

    /// `wavetcp_cwnd_event`: the first transmission starts the bursts.
    fn cwnd_event(&mut self, _tcb: &mut TcpState, event: CaEvent) {
        if self.initialized && event == CaEvent::TxStart {
            self.started = true;
        }
    }

    /// Linux `wavetcp_acked` (close cwnd to the flight, count scattered segments), then
    /// `wavetcp_cong_control` (ACCE).
    fn cong_control(&mut self, tcb: &mut TcpState, _rc: &RateConnection, rs: &RateSample) {
        if !self.initialized {
            return;
        }
        let acked_segs = rs.acked_sacked.div_ceil(tcb.mss.max(1));
        let cwnd_segs = tcb.cwnd_segs();
        if cwnd_segs < acked_segs {
            // Segments were sent outside the bursts: the ACKs and the bursts are not aligned.
            self.delta_segments += (acked_segs - cwnd_segs) as i64;
        }
        // "Brutally set the cwnd in order to not let segment out."
        tcb.cwnd = tcb.bytes_in_flight;
        self.acce(tcb.now, rs, acked_segs);
    }
}

impl BurstOps for Wave {
    /// `wavetcp_get_segs_per_round`.
    fn send_quantum(&self) -> u32 {
        self.burst
    }

    /// `wavetcp_get_timer`: `min(TxTime, init_timer)`.
    fn burst_interval(&self) -> Time {
        let us = self.tx_timer_us.min(self.config.init_timer_us());
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

    /// `wavetcp_segment_sent`: remember the burst (new data only), balance the round with what
    /// used the window, give back what the application did not use.
    fn on_burst_sent(&mut self, tcb: &mut TcpState, segments: u32, new_segments: u32) {
        if !self.started {
            return;
        }
        if self.save_burst && new_segments > 0 {
            self.history.push(new_segments);
            self.save_burst = false;
        }
        self.delta_segments -= segments as i64;
        if self.delta_segments >= 0 && self.burst > segments && tcb.bytes_in_flight <= tcb.cwnd {
            let unused = (self.burst - segments).wrapping_mul(tcb.mss);
            tcb.cwnd = tcb.cwnd.saturating_sub(unused);
        }
    }
}

//! HyStart as the Linux kernel runs it in CUBIC (`net/ipv4/tcp_cubic.c`, 5.7 and later:
//! `hystart_update`, `hystart_ack_delay`, `bictcp_hystart_reset`), selected for the `linux`
//! TCP profile (`hystart_variant = "LINUX"`). The algorithm is Ha & Rhee's hybrid slow start
//! ("Taming the elephants: New TCP slow start", Computer Networks 55(9), 2011); what the
//! kernel does differently from ns-3.44's `TcpCubic` (crate::cubic), and why it matters:
//!
//! * **ACK train**: the train must span only *half* the minimum delay (plus a cushion for
//!   TSO/GRO aggregation) when the socket is not paced, not the whole minimum delay. The
//!   kernel's reasoning: ACKs of one round arrive over about half an RTT once the window
//!   fills the pipe. So slow start ends when cwnd is about one BDP, before the queue
//!   overflows; ns-3's rule ends it only at about two BDP, after the overshoot has filled the
//!   queue and lost a window's worth of segments (case A CUBIC: 277 retransmissions in
//!   ccsim's `ns3` HyStart against 37–45 in the kernel).
//! * **Delay increase**: the threshold is `delay_min/8` clamped to [4 ms, 16 ms], not
//!   `delay_min` clamped to [4 ms, 1 s].
//! * **Rounds** restart inside the update, once SND.UNA passes the end of the previous round
//!   (ns-3 restarts them in `IncreaseWindow`), and only windows of at least
//!   `hystart_low_window` segments run the detectors (the round still restarts below it).
//! * **Samples**: the latest RTT sample of the ACK, not the smoothed RTT.
//!
//! The cushion (`hystart_ack_delay`) is the time four maximal GSO packets (64 KB each, the
//! kernel's default `sk_gso_max_size`) take at the pacing rate, at most 1 ms. The kernel keeps
//! a pacing rate even for unpaced sockets: 2 × cwnd / srtt in slow start
//! (`tcp_update_pacing_rate`, `tcp_pacing_ss_ratio` 200 %), which is what is used here.

use crate::TcpState;
use ccsim_core::Time;

/// The kernel's `HYSTART_DELAY_MIN` / `HYSTART_DELAY_MAX` clamp of the delay threshold.
const DELAY_THRESH_MIN: Time = Time::from_millis(4);
const DELAY_THRESH_MAX: Time = Time::from_millis(16);
/// Default `sk_gso_max_size` (GSO_LEGACY_MAX_SIZE), bytes.
const GSO_MAX_SIZE: u64 = 65_536;
/// Upper bound of the TSO/GRO cushion.
const ACK_DELAY_CAP: Time = Time::from_millis(1);

/// Settings shared with the ns-3 variant's tunables (same names, same defaults).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LinuxHystartParams {
    pub ack_train: bool,
    pub delay: bool,
    /// Smallest cwnd, in segments, at which the detectors run (`hystart_low_window`).
    pub low_window: u32,
    /// Delay samples per round before the delay detector may fire (`HYSTART_MIN_SAMPLES`).
    pub min_samples: u32,
    /// Largest ACK spacing that still continues a train (`hystart_ack_delta_us`).
    pub ack_delta: Time,
}

/// Per-round state of the kernel's HyStart.
#[derive(Clone, Debug, Default)]
pub struct LinuxHystart {
    found: bool,
    round_start: Time,
    last_ack: Time,
    /// The round ends once SND.UNA passes this (SND.NXT when the round started).
    end_seq: u64,
    /// Minimum RTT of this round (`None`: no sample yet, the kernel's ~0U).
    curr_rtt: Option<Time>,
    sample_cnt: u32,
}

impl LinuxHystart {
    /// `bictcp_hystart_reset`: a new round starts now.
    pub fn start_round(&mut self, tcb: &TcpState) {
        self.round_start = tcb.now;
        self.last_ack = tcb.now;
        self.end_seq = tcb.next_tx_seq;
        self.curr_rtt = None;
        self.sample_cnt = 0;
    }

    /// Whether slow start's exit point has been found (and not reset since).
    pub fn found(&self) -> bool {
        self.found
    }

    /// Forgets the exit point and starts a new round (`cubictcp_state` on CA_Loss).
    pub fn reset(&mut self, tcb: &TcpState) {
        self.found = false;
        self.start_round(tcb);
    }

    /// `hystart_update` with one RTT sample; `delay_min` is CUBIC's minimum delay. Returns
    /// true when this sample ends slow start (the caller sets ssthresh = cwnd).
    pub fn update(
        &mut self,
        p: &LinuxHystartParams,
        tcb: &TcpState,
        delay: Time,
        delay_min: Time,
    ) -> bool {
        if self.found {
            return false;
        }
        if tcb.last_acked_seq > self.end_seq {
            self.start_round(tcb);
        }
        if tcb.cwnd_segs() < p.low_window {
            return false;
        }
        let now = tcb.now;
        if p.ack_train && now.saturating_sub(self.last_ack) <= p.ack_delta {
            self.last_ack = now;
            let mut threshold = delay_min + ack_delay(tcb);
            // Unpaced: the ACKs of one round come back within about half an RTT.
            if !tcb.pacing {
                threshold = Time(threshold.as_nanos() / 2);
            }
            if now.saturating_sub(self.round_start) > threshold {
                self.found = true;
            }
        }
        if p.delay && !self.found {
            if !matches!(self.curr_rtt, Some(c) if c <= delay) {
                self.curr_rtt = Some(delay);
            }
            if self.sample_cnt < p.min_samples {
                self.sample_cnt += 1;
            } else if self
                .curr_rtt
                .is_some_and(|c| c > delay_min + delay_thresh(delay_min))
            {
                self.found = true;
            }
        }
        self.found
    }
}

/// `HYSTART_DELAY_THRESH(delay_min >> 3)`.
fn delay_thresh(delay_min: Time) -> Time {
    Time(delay_min.as_nanos() / 8).clamp(DELAY_THRESH_MIN, DELAY_THRESH_MAX)
}

/// `hystart_ack_delay`: four GSO packets at the slow-start pacing rate, at most 1 ms; zero
/// before the first RTT sample (the kernel's pacing rate is 0 then).
fn ack_delay(tcb: &TcpState) -> Time {
    let Some(srtt) = tcb.srtt.filter(|s| *s > Time::ZERO) else {
        return Time::ZERO;
    };
    // rate = 2 * cwnd / srtt bytes/s, so 4 * GSO / rate = 2 * GSO * srtt / cwnd.
    let cwnd = tcb.cwnd.max(1) as u128;
    let ns = 2 * GSO_MAX_SIZE as u128 * srtt.as_nanos() as u128 / cwnd;
    Time(ns.min(ACK_DELAY_CAP.as_nanos() as u128) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MSS: u32 = 1448;

    fn params() -> LinuxHystartParams {
        LinuxHystartParams {
            ack_train: true,
            delay: true,
            low_window: 16,
            min_samples: 8,
            ack_delta: Time::from_millis(2),
        }
    }

    fn tcb(now: Time, cwnd_segs: u32, una: u64, nxt: u64) -> TcpState {
        let mut t = TcpState::new(MSS, cwnd_segs, u32::MAX);
        t.now = now;
        t.last_acked_seq = una;
        t.next_tx_seq = nxt;
        t.high_tx_mark = nxt;
        t.srtt = Some(Time::from_millis(40));
        t
    }

    /// ACKs spaced `gap` apart from `start`; returns the time of the ACK that ended slow start.
    fn train(
        h: &mut LinuxHystart,
        cwnd: u32,
        start: Time,
        gap: Time,
        n: u32,
        rtt: Time,
    ) -> Option<Time> {
        let p = params();
        for i in 0..n {
            let now = start + Time(gap.as_nanos() * i as u64);
            let t = tcb(now, cwnd, 1 + i as u64, 1_000_000);
            if h.update(&p, &t, rtt, Time::from_millis(40)) {
                return Some(now);
            }
        }
        None
    }

    #[test]
    fn unpaced_ack_train_ends_slow_start_after_half_the_minimum_delay() {
        let mut h = LinuxHystart::default();
        let start = Time::from_secs(1);
        h.start_round(&tcb(start, 400, 0, 1_000_000));
        // ACKs 0.12 ms apart (one 1500-byte packet at 100 Mb/s), flat RTT: only the train
        // can fire. Threshold = (40 ms + 1 ms cushion) / 2 = 20.5 ms.
        let t = train(
            &mut h,
            400,
            start,
            Time::from_micros(120),
            400,
            Time::from_millis(40),
        );
        let at = t.expect("the train detector fires").saturating_sub(start);
        assert!(
            at > Time::from_micros(20_500) && at <= Time::from_micros(20_620),
            "{at:?}"
        );
        assert!(h.found());
    }

    #[test]
    fn gaps_longer_than_ack_delta_break_the_train() {
        let mut h = LinuxHystart::default();
        let start = Time::from_secs(1);
        h.start_round(&tcb(start, 400, 0, 1_000_000));
        // 3 ms between ACKs: never a train, and the RTT never rises.
        assert_eq!(
            train(
                &mut h,
                400,
                start,
                Time::from_millis(3),
                100,
                Time::from_millis(40)
            ),
            None
        );
    }

    #[test]
    fn below_the_low_window_nothing_fires() {
        let mut h = LinuxHystart::default();
        let start = Time::from_secs(1);
        h.start_round(&tcb(start, 15, 0, 1_000_000));
        assert_eq!(
            train(
                &mut h,
                15,
                start,
                Time::from_micros(120),
                400,
                Time::from_millis(80)
            ),
            None
        );
    }

    #[test]
    fn delay_detector_uses_an_eighth_of_the_minimum_delay_clamped_to_4_to_16_ms() {
        assert_eq!(delay_thresh(Time::from_millis(40)), Time::from_millis(5));
        assert_eq!(delay_thresh(Time::from_millis(10)), Time::from_millis(4));
        assert_eq!(delay_thresh(Time::from_millis(400)), Time::from_millis(16));
        let p = LinuxHystartParams {
            ack_train: false,
            ..params()
        };
        let mut h = LinuxHystart::default();
        let start = Time::from_secs(1);
        h.start_round(&tcb(start, 100, 0, 1_000_000));
        // Eight samples fill the round's minimum; 45 ms is not above 40 + 5.
        for i in 0..20u64 {
            let t = tcb(start + Time::from_millis(i), 100, 1 + i, 1_000_000);
            assert!(!h.update(&p, &t, Time::from_millis(45), Time::from_millis(40)));
        }
        let mut h = LinuxHystart::default();
        h.start_round(&tcb(start, 100, 0, 1_000_000));
        let fired = (0..20u64).find(|&i| {
            let t = tcb(start + Time::from_millis(i), 100, 1 + i, 1_000_000);
            h.update(&p, &t, Time::from_micros(45_100), Time::from_millis(40))
        });
        assert_eq!(fired, Some(8), "the ninth sample may fire");
    }

    #[test]
    fn a_new_round_starts_once_snd_una_passes_the_round_end() {
        let p = params();
        let mut h = LinuxHystart::default();
        let start = Time::from_secs(1);
        h.start_round(&tcb(start, 100, 0, 5000));
        // 15 ms into a train, SND.UNA passes 5000: the round (and the train) restart, so
        // 20.5 ms after the first start nothing has fired yet.
        let mut now = start;
        for i in 0..200u64 {
            now = start + Time::from_micros(120 * i);
            let una = if now >= start + Time::from_millis(15) {
                6000
            } else {
                1
            };
            let t = tcb(now, 100, una, 100_000);
            assert!(
                !h.update(&p, &t, Time::from_millis(40), Time::from_millis(40)),
                "{now:?}"
            );
        }
        assert!(now > start + Time::from_millis(21));
    }

    #[test]
    fn pacing_requires_the_whole_minimum_delay() {
        let p = params();
        let mut h = LinuxHystart::default();
        let start = Time::from_secs(1);
        let mut base = tcb(start, 400, 0, 1_000_000);
        base.pacing = true;
        h.start_round(&base);
        let fired = (0..600u64).find(|&i| {
            let mut t = tcb(start + Time::from_micros(120 * i), 400, 1 + i, 1_000_000);
            t.pacing = true;
            h.update(&p, &t, Time::from_millis(40), Time::from_millis(40))
        });
        let at = Time::from_micros(120 * fired.expect("fires"));
        assert!(
            at > Time::from_micros(41_000) && at <= Time::from_micros(41_120),
            "{at:?}"
        );
    }
}

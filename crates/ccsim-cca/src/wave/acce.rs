//! ACCE (ACK-based Capacity and Congestion Estimation) per ACK and per round, rule by rule
//! as `tcp_wave.c` v0.2 (`sbourdelin/linux`, `net/ipv4/tcp_wave.c`): `wavetcp_cong_control`
//! (beginning / middle / end of a train), `wavetcp_end_round`, `wavetcp_round_terminated`,
//! `wavetcp_adj_mode`, `wavetcp_tracking_mode`.

use super::{micros, Wave};
use crate::RateSample;
use ccsim_core::Time;

/// TxTime when tracking would give 0 (µs): "forcefully set it to 1000 us".
const MIN_TX_TIMER_US: u32 = 1000;

impl Wave {
    /// `wavetcp_cong_control`: count the ACKed segments against the oldest burst and place
    /// this ACK in the round's train (beginning, middle, or the end of the round).
    pub(super) fn acce(&mut self, now: Time, rs: &RateSample, acked_segs: u32) {
        let Some(round_burst) = self.history.front() else {
            // Linux reads the (uninitialised) list head here; with no burst to match there is
            // nothing to measure.
            return;
        };
        let rtt_us = rs.rtt.map(|r| micros(r).min(u32::MAX as u64) as u32);
        let interval_us = micros(rs.interval);
        self.history.acked += acked_segs;
        if self.history.acked >= round_burst {
            self.end_round(now, rtt_us, interval_us, round_burst);
            return;
        }
        let aligned = rtt_us.is_some_and(|r| r >= self.rtt.previous);
        if self.train.first.is_none() {
            self.train.begin(now);
            self.train.aligned += 1;
            self.history.backup_acked = self.history.acked - acked_segs;
        } else if aligned {
            self.train.last = now;
            self.train.aligned += 1;
        } else if rtt_us.is_some_and(|r| r > 0) {
            // A lower RTT than the previous ACK's: "This is the real round beginning!" The
            // ACKs before it belonged to the previous burst.
            self.train.aligned = 1;
            self.history.acked = self.history.backup_acked + acked_segs;
            self.train.begin(now);
        }
        self.train.note_interval(interval_us);
        self.rtt.measure(rtt_us);
    }

    /// `wavetcp_end_round`: the ACKs cover the oldest burst.
    fn end_round(&mut self, now: Time, rtt_us: Option<u32>, interval_us: u64, round_burst: u32) {
        if rtt_us.is_some_and(|r| r >= self.rtt.previous) {
            self.train.aligned += 1;
            self.train.last = now;
        }
        // "If the round terminates without a sample of RTT, use the average".
        if self.rtt.first == 0 {
            self.rtt.first = self.rtt.avg;
        }
        if round_burst > self.config.min_burst {
            self.round_terminated(interval_us, round_burst);
        }
        self.history.consume();
        self.train.reset();
        self.rtt.first = 0;
        match rtt_us {
            Some(rtt) if rtt > 0 && rtt < self.rtt.previous => {
                // A lower RTT than the previous ACK's: this ACK begins the next train.
                self.train.begin(now);
                self.train.note_interval(interval_us);
                self.rtt.measure(Some(rtt));
                self.train.aligned = 1;
            }
            Some(rtt) if rtt > 0 => self.rtt.previous = rtt,
            _ => {}
        }
    }

    /// `wavetcp_round_terminated`: the ACCE update at the end of a burst's ACK train.
    fn round_terminated(&mut self, interval_us: u64, round_burst: u32) {
        let avg = self.rtt.next_avg();
        if avg != 0 {
            self.rtt.avg = avg;
        }
        if self.stab_factor > 0 {
            self.stab_factor -= 1;
            return;
        }
        let delta_rtt_us = self.rtt.delta();
        let disp = self.train.dispersion(interval_us, round_burst, self.burst);
        if delta_rtt_us > self.config.beta_us() {
            // Adjustment mode (congestion): back to the initial rate, wait avg_rtt/TxTime
            // rounds. Linux stores the wait in a u8 (`u8 stab_factor`): it is truncated.
            self.stab_factor = (self.rtt.avg / self.tx_timer_us.max(1)) as u8;
            self.rtt.restart_after_adjustment();
            self.tx_timer_us = self.config.init_timer_us();
        } else if disp != Time::ZERO {
            // Tracking mode: follow the bottleneck's dispersion.
            let t = (micros(disp) + delta_rtt_us / 2) as u32;
            self.tx_timer_us = if t == 0 { MIN_TX_TIMER_US } else { t };
        }
    }
}

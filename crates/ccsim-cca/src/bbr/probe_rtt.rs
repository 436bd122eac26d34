//! BBR's PROBE_RTT mode (ns-3.44 `TcpBbr`: `EnterProbeRTT`, `SaveCwnd`, `RestoreCwnd`,
//! `ExitProbeRTT`, `HandleProbeRTT`, `CheckProbeRTT`; Linux `tcp_bbr.c`): when RTprop has not
//! been refreshed for `rtt_window_length`, save cwnd, hold the flight at `min_pipe_cwnd` for
//! `probe_rtt_duration` and one round, then restore cwnd. The state machine that calls it is in
//! the parent module.

use super::*;

impl Bbr {
    pub(super) fn enter_probe_rtt(&mut self) {
        self.mode = BbrMode::ProbeRtt;
        self.pacing_gain = 1.0;
        self.cwnd_gain = 1.0;
    }

    /// `SaveCwnd`.
    pub(super) fn save_cwnd(&mut self, tcb: &TcpState) {
        if tcb.cong_state != CongState::Recovery && self.mode != BbrMode::ProbeRtt {
            self.prior_cwnd = tcb.cwnd;
        } else {
            self.prior_cwnd = self.prior_cwnd.max(tcb.cwnd);
        }
    }

    /// `RestoreCwnd`.
    pub(super) fn restore_cwnd(&self, tcb: &mut TcpState) {
        tcb.cwnd = self.prior_cwnd.max(tcb.cwnd);
    }

    pub(super) fn exit_probe_rtt(&mut self, now: Time) {
        if self.is_pipe_filled {
            self.enter_probe_bw(now);
        } else {
            self.enter_startup();
        }
    }

    /// `HandleProbeRTT`.
    pub(super) fn handle_probe_rtt(&mut self, tcb: &mut TcpState) {
        let total = self.delivered + tcb.bytes_in_flight as u64;
        self.app_limited = total.max(1);
        if self.probe_rtt_done_stamp == Time::ZERO && tcb.bytes_in_flight <= self.min_pipe_cwnd {
            self.probe_rtt_done_stamp = tcb.now + self.config.probe_rtt_duration;
            self.probe_rtt_round_done = false;
            self.next_round_delivered = self.delivered;
        } else if self.probe_rtt_done_stamp != Time::ZERO {
            if self.round_start {
                self.probe_rtt_round_done = true;
            }
            if self.probe_rtt_round_done && tcb.now > self.probe_rtt_done_stamp {
                self.rt_prop_stamp = tcb.now;
                self.restore_cwnd(tcb);
                self.exit_probe_rtt(tcb.now);
            }
        }
    }

    /// `CheckProbeRTT`.
    pub(super) fn check_probe_rtt(&mut self, tcb: &mut TcpState, rs: &RateSample) {
        if self.mode != BbrMode::ProbeRtt && self.rt_prop_expired && !self.idle_restart {
            self.enter_probe_rtt();
            self.save_cwnd(tcb);
            self.probe_rtt_done_stamp = Time::ZERO;
        }
        if self.mode == BbrMode::ProbeRtt {
            self.handle_probe_rtt(tcb);
        }
        if rs.delivered != 0 {
            self.idle_restart = false;
        }
    }
}

//! The socket side of the replay: the minimal `TcpSocketBase` model whose event semantics the
//! module documentation (`replay/mod.rs`) lists, rule by rule.

use super::VectorParams;
use crate::{CaEvent, CongState, Controller, RecoveryPolicy, TcpState};
use ccsim_core::Time;

/// The socket side of the replay: the tcb plus the few `TcpSocketBase` variables the event
/// semantics need.
pub(super) struct Sender {
    pub(super) tcb: TcpState,
    pub(super) cca: Controller,
    dup_acks: u32,
    recover: u64,
}

impl Sender {
    pub(super) fn new(cca: Controller, p: &VectorParams) -> Self {
        Sender {
            tcb: TcpState::new(p.mss, p.init_cwnd_segs, p.init_ssthresh),
            cca,
            dup_acks: 0,
            recover: 0,
        }
    }

    /// Run the algorithm's own timers due strictly before `t`.
    pub(super) fn run_timers_before(&mut self, t: Time) {
        while let Some(due) = self.cca.next_timer() {
            if due > t {
                break;
            }
            self.tcb.now = due;
            self.cca.on_timer(&mut self.tcb);
        }
    }

    fn set_state(&mut self, state: CongState) {
        self.cca.congestion_state_set(&mut self.tcb, state);
        self.tcb.cong_state = state;
    }

    /// Sender model: always cwnd-limited.
    pub(super) fn after_step(&mut self) {
        let tcb = &mut self.tcb;
        tcb.next_tx_seq = tcb.next_tx_seq.max(tcb.last_acked_seq + tcb.cwnd as u64);
        tcb.high_tx_mark = tcb.next_tx_seq;
        tcb.bytes_in_flight = tcb.cwnd;
        tcb.is_cwnd_limited = true;
    }

    fn rtt_sample(&mut self, rtt: Time) {
        self.tcb.last_rtt = Some(rtt);
        self.tcb.srtt = Some(rtt);
        self.tcb.min_rtt = Some(self.tcb.min_rtt.map_or(rtt, |m| m.min(rtt)));
    }

    pub(super) fn ack(&mut self, segs: u32, rtt: Time) {
        self.rtt_sample(rtt);
        self.tcb.last_acked_seq += segs as u64 * self.tcb.mss as u64;
        match self.tcb.cong_state {
            CongState::Open | CongState::Cwr => {
                self.cca.pkts_acked(&mut self.tcb, segs, rtt);
                self.cca.increase_window(&mut self.tcb, segs);
            }
            CongState::Disorder => {
                if segs >= self.dup_acks {
                    self.cca
                        .pkts_acked(&mut self.tcb, segs - self.dup_acks, rtt);
                }
                self.set_state(CongState::Open);
                self.dup_acks = 0;
                self.cca.increase_window(&mut self.tcb, segs);
            }
            CongState::Recovery => {
                if self.tcb.last_acked_seq < self.recover
                    && self.cca.recovery_policy() != RecoveryPolicy::Reno
                {
                    self.cca.pkts_acked(&mut self.tcb, 1, rtt);
                } else {
                    self.full_ack_in_recovery(segs, rtt);
                }
            }
            CongState::Loss => {
                self.cca.pkts_acked(&mut self.tcb, segs, rtt);
                if self.tcb.last_acked_seq >= self.recover {
                    self.set_state(CongState::Open);
                    self.dup_acks = 0;
                }
                self.cca.increase_window(&mut self.tcb, segs);
            }
        }
    }

    fn full_ack_in_recovery(&mut self, segs: u32, rtt: Time) {
        self.cca.pkts_acked(&mut self.tcb, segs, rtt);
        self.cca.cwnd_event(&mut self.tcb, CaEvent::CompleteCwr);
        self.set_state(CongState::Open);
        self.dup_acks = 0;
        self.tcb.cwnd = self.tcb.ssthresh;
        self.cca.increase_window(&mut self.tcb, segs);
    }

    /// `fullack`: the ACK that brings lastAcked to `recover`; returns the segments it covers,
    /// rounded up and at least one (the vectors' `segs_acked` column:
    /// `max(1, ceil((recover - lastAcked) / MSS))`); lastAcked advances by that many segments.
    pub(super) fn full_ack(&mut self, rtt: Time) -> u32 {
        let mss = self.tcb.mss as u64;
        let segs = self
            .recover
            .saturating_sub(self.tcb.last_acked_seq)
            .div_ceil(mss)
            .max(1) as u32;
        if self.tcb.cong_state != CongState::Recovery {
            self.ack(segs, rtt);
            return segs;
        }
        self.rtt_sample(rtt);
        self.tcb.last_acked_seq += segs as u64 * mss;
        self.full_ack_in_recovery(segs, rtt);
        segs
    }

    pub(super) fn dup_ack(&mut self) {
        let srtt = self.tcb.srtt.unwrap_or(Time::ZERO);
        match self.tcb.cong_state {
            CongState::Open | CongState::Cwr => {
                self.set_state(CongState::Disorder);
                self.dup_acks = 1;
            }
            CongState::Disorder => {
                self.dup_acks += 1;
                if self.dup_acks == 3 && self.cca.recovery_policy() == RecoveryPolicy::Tahoe {
                    // Fast retransmit without fast recovery: the timeout steps, at once.
                    self.rto();
                } else if self.dup_acks == 3 {
                    self.set_state(CongState::Recovery);
                    self.recover = self.tcb.high_tx_mark;
                    let flight = self.tcb.cwnd;
                    self.tcb.ssthresh = self.cca.ssthresh(&self.tcb, flight);
                    self.tcb.cwnd = self.tcb.ssthresh;
                }
            }
            CongState::Recovery | CongState::Loss => {}
        }
        if self.tcb.cong_state != CongState::Loss {
            self.cca.pkts_acked(&mut self.tcb, 1, srtt);
        }
    }

    pub(super) fn rto(&mut self) {
        self.recover = self.tcb.high_tx_mark;
        // ns-3 skips the ssthresh update when already in Loss with the head retransmitted,
        // which a second timeout in a row always is.
        if self.tcb.cong_state != CongState::Loss {
            let flight = self.tcb.cwnd;
            self.tcb.ssthresh = self.cca.ssthresh(&self.tcb, flight);
        }
        self.cca.cwnd_event(&mut self.tcb, CaEvent::Loss);
        self.set_state(CongState::Loss);
        self.dup_acks = 0;
        self.tcb.cwnd = self.tcb.mss;
    }
}

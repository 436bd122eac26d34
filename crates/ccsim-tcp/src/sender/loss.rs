//! Loss detection and the entry into recovery: duplicate ACKs (ns-3 `TcpSocketBase::DupAck`,
//! RFC 6675 §5 steps 1–3, RFC 3042), fast recovery (`EnterRecovery`, RFC 6675 §5 step 4) and
//! the retransmission timeout (`ReTxTimeout`, RFC 6298 §5.4–5.6, RFC 6675 §5.1).

use super::TcpSender;
use ccsim_cca::{CaEvent, CongState, RecoveryPolicy};
use ccsim_core::Time;

/// The loss-recovery episode: RFC 6582 §3.2 / RFC 6675 RecoveryPoint. `tcb.cong_state` says
/// Recovery or Loss while one runs; the episode outlives it under Reno, which leaves recovery
/// on the first new ACK.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Episode {
    /// No recovery point: a new fast recovery may start at once.
    None,
    Active {
        /// `recover`: the highest sequence sent when the episode began (ns-3 `m_recover`).
        recover: u64,
        /// The next partial ACK is the first of this episode (ns-3 `m_isFirstPartialAck`).
        first_partial_ack: bool,
    },
}

impl Episode {
    fn begin(recover: u64) -> Self {
        Episode::Active {
            recover,
            first_partial_ack: true,
        }
    }

    /// `ack` is below the recovery point of a running episode.
    pub(super) fn before_recover(&self, ack: u64) -> bool {
        matches!(*self, Episode::Active { recover, .. } if ack < recover)
    }

    /// The recovery point of a running episode.
    pub(super) fn recover(&self) -> Option<u64> {
        match *self {
            Episode::Active { recover, .. } => Some(recover),
            Episode::None => None,
        }
    }

    /// SND.UNA has passed `recover` (or no episode runs).
    pub(super) fn passed(&self, una: u64) -> bool {
        !self.before_recover(una)
    }

    /// Bytes `ack` lies past `recover` (0 below it or without an episode).
    pub(super) fn bytes_past_recover(&self, ack: u64) -> u64 {
        match *self {
            Episode::Active { recover, .. } => ack.saturating_sub(recover),
            Episode::None => 0,
        }
    }

    /// True on the first call in an episode (RFC 6582 §3.2 step 3, "impatient" timer).
    pub(super) fn take_first_partial_ack(&mut self) -> bool {
        match self {
            Episode::Active {
                first_partial_ack, ..
            } => std::mem::replace(first_partial_ack, false),
            Episode::None => false,
        }
    }
}

/// Retransmissions recovery forces out regardless of cwnd; `poll_transmit` sends them first.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Forced {
    /// The head: fast retransmit (RFC 6675 §5 step 4.3), Tahoe and RTO go-back-N, an RFC
    /// partial ACK (RFC 6582 §3.2 step 3).
    pub(super) head: bool,
    /// NextSeg's choice outside the window (ns-3.44 `DoRetransmit` on a partial ACK).
    pub(super) next_seg: bool,
}

impl Forced {
    pub(super) fn any(&self) -> bool {
        self.head || self.next_seg
    }
}

impl TcpSender {
    /// ns-3 `TcpSocketBase::DupAck` (RFC 6675 §5 steps 1–3, RFC 3042).
    pub(super) fn on_dupack(&mut self, now: Time, delivered: u64) {
        if self.holds_recover_point() {
            // Linux `tcp_process_loss` / `tcp_fastretrans_alert` (D): with SND.UNA at
            // `high_seq` the Reno state is held (`tcp_try_undo_recovery`) and a duplicate ACK
            // does nothing: no count, no guessed SACK, so nothing new leaves on it.
            return;
        }
        if self.tcb.cong_state != CongState::Loss {
            self.dupacks += 1;
        }
        if self.tcb.cong_state == CongState::Open {
            self.set_state(CongState::Disorder);
        }
        if self.tcb.cong_state == CongState::Recovery && !self.cfg.sack {
            // Without SACK a duplicate ACK in recovery says one segment has left the network
            // (ns-3.44 `DupAck`: `AddRenoSack`). Pipe falls at the next transmission; the
            // recovery rule below still sees bytes in flight from before this ACK.
            self.add_guessed_sack(false);
        }
        match self.tcb.cong_state {
            CongState::Recovery if !self.caps.full_control => {
                let delivered = delivered + self.reno_delivered;
                self.recovery.on_dupack(&mut self.tcb, delivered)
            }
            CongState::Disorder => {
                // RFC 6582 §3.2 step 2: no new recovery before SND.UNA passes `recover`
                // (Reno has no such guard).
                let may_recover = self.caps.recovery == RecoveryPolicy::Reno
                    || self.episode.passed(self.tcb.last_acked_seq);
                // (2) IsLost(HighACK + 1). ns-3.44 `DupAck` tests it without the recovery-point
                // guard; without SACK its `IsLost` needs the head below the highest guessed
                // SACK (`TcpTxBuffer::IsLost`).
                let head_lost = if self.cfg.sack {
                    self.sb.head_is_lost() && may_recover
                } else {
                    self.sb.head_is_lost_below_highest_sack()
                };
                if (self.dupacks >= self.cfg.dupack_threshold && may_recover) || head_lost {
                    if self.caps.recovery == RecoveryPolicy::Tahoe {
                        // Tahoe: fast retransmit without fast recovery = an early timeout.
                        self.enter_loss(now, false);
                    } else {
                        self.enter_recovery(delivered);
                    }
                } else if !self.cfg.sack && self.cfg.limited_transmit {
                    // RFC 3042 limited transmit without SACK: each duplicate ACK counts one
                    // segment as gone, so one new segment may leave (ns-3.44 `DupAck`:
                    // `AddRenoSack` if `LimitedTransmit`). The mark stays into recovery. With
                    // SACK it needs no switch: the SACKed bytes have left the pipe, so
                    // cwnd − pipe allows new data (ns-3.44 documents limited transmit as
                    // always on with SACK).
                    self.add_guessed_sack(false);
                }
            }
            _ => {}
        }
    }

    /// Without SACK under Linux's rule (`tcp.ns3_dupacks_at_recover_restart` off): SND.UNA
    /// sits exactly at the recovery point of the episode that just ended, whose state Linux
    /// holds until something above it is ACKed (`tcp_try_undo_recovery`: "For Reno it is
    /// MUST to prevent false fast retransmits", RFC 6582 §3.2 step 2).
    pub(super) fn holds_recover_point(&self) -> bool {
        self.linux_reno_hold()
            && matches!(self.episode, Episode::Active { recover, .. } if recover == self.tcb.last_acked_seq)
            && !matches!(self.tcb.cong_state, CongState::Recovery | CongState::Loss)
    }

    /// One more guessed SACK (a duplicate ACK without SACK); `unlost`: only on a segment not
    /// marked lost (the Loss state). With `tcp.reno_sack_delivered` the segment it marks counts
    /// as delivered by this ACK (Linux `tcp_add_reno_sack`: `tp->delivered++`).
    pub(super) fn add_guessed_sack(&mut self, unlost: bool) {
        let before = self.sb.sacked_bytes();
        if unlost {
            self.sb.add_reno_sack_unlost();
        } else {
            self.sb.add_reno_sack();
        }
        if self.cfg.reno_sack_delivered {
            self.reno_delivered += self.sb.sacked_bytes() - before;
        }
    }

    /// Linux's Reno hold at the recovery point applies: no SACK, and not ns-3's rule.
    pub(super) fn linux_reno_hold(&self) -> bool {
        !self.cfg.sack && !self.cfg.ns3_dupacks_at_recover_restart
    }

    /// ns-3 `TcpSocketBase::EnterRecovery` (RFC 6675 §5 step 4).
    fn enter_recovery(&mut self, delivered: u64) {
        self.stats.fast_recoveries += 1;
        self.begin_undo();
        if !self.cfg.sack {
            // ns-3.44 `EnterRecovery` without SACK: the third duplicate ACK is one more
            // segment gone (`AddRenoSack`), and the head is lost (`MarkHeadAsLost`, which
            // also clears an earlier retransmission of it).
            self.add_guessed_sack(false);
            self.sb.mark_head_lost();
        } else if !self.sb.head_is_lost() {
            self.sb.mark_head_lost();
        }
        self.episode = Episode::begin(self.tcb.high_tx_mark);
        self.set_state(CongState::Recovery);
        self.refresh_in_flight();
        let bif = if self.cfg.sack {
            self.tcb.bytes_in_flight
        } else {
            self.tcb.bytes_in_flight + self.tcb.mss
        };
        self.tcb.ssthresh = self.cca.ssthresh(&self.tcb, bif);
        let flight = self.tcb.high_tx_mark - self.tcb.last_acked_seq;
        if !self.caps.full_control {
            self.recovery.enter(&mut self.tcb, flight, delivered);
        }
        // (4.3) Retransmit the first segment presumed dropped, whatever the window says.
        self.forced.head = true;
    }

    /// ns-3 `TcpSocketBase::ReTxTimeout` (RFC 6298 §5.4–5.6, RFC 6675 §5.1).
    pub(super) fn on_rto(&mut self, now: Time) {
        if self.sb.is_empty() {
            return;
        }
        self.stats.rto_count += 1;
        // ns-3 `ReTxTimeout` clears the RTT history: no sample until new data is ACKed.
        self.history.clear();
        if !self.cfg.sack {
            // ns-3.44 `ReTxTimeout`: the guessed SACKs go (`ResetRenoSack`) before every
            // segment is marked lost.
            self.sb.reset_reno_sacks();
        }
        self.enter_loss(now, true);
        self.undo.timeouts += 1;
    }

    /// Enters the Loss state: every unSACKed segment is lost and cwnd restarts from one
    /// segment. `timeout` distinguishes a real RTO (timer backed off, RFC 6298 §5.5) from
    /// Tahoe's fast retransmit, which is an early timeout (timer restarted, not doubled).
    /// Call order as ns-3.44 `ReTxTimeout`: GetSsThresh, CwndEvent(LOSS),
    /// CongestionStateSet(LOSS), then cwnd = 1 MSS (BBR saves the window in between).
    fn enter_loss(&mut self, now: Time, timeout: bool) {
        if !timeout {
            self.stats.fast_recoveries += 1;
        }
        let in_flight_before = self.tcb.bytes_in_flight;
        // Linux `tcp_enter_loss`: a new episode (not a timeout inside recovery, nor one
        // repeating with SND.UNA unmoved) takes fresh undo state.
        let state = self.tcb.cong_state;
        let new_reduction = matches!(state, CongState::Open | CongState::Disorder)
            || self.episode.passed(self.tcb.last_acked_seq)
            || (state == CongState::Loss && self.undo.timeouts == 0);
        if new_reduction {
            self.begin_undo();
        }
        if timeout {
            self.arm_frto();
        }
        self.sb.mark_all_lost();
        self.refresh_in_flight();
        // ns-3.44's `ReTxTimeout` asks `IsHeadRetransmitted()` only after
        // `SetSentListLost()` has cleared every retransmitted mark, so it recomputes ssthresh
        // (and signals the loss) on every timeout. Linux `tcp_enter_loss` does both only for a
        // new reduction ("if it has not yet been made inside this window"): not for a timeout
        // inside fast recovery, nor for one repeating with SND.UNA unmoved (RFC 5681 §3.1).
        if new_reduction || self.cfg.ns3_rto_always_resets_ssthresh {
            self.tcb.ssthresh = self.cca.ssthresh(&self.tcb, in_flight_before);
            self.cca.cwnd_event(&mut self.tcb, CaEvent::Loss);
        }
        self.set_state(CongState::Loss);
        self.tcb.cwnd = self.tcb.mss;
        self.episode = Episode::begin(self.tcb.high_tx_mark);
        self.dupacks = 0;
        if timeout {
            self.rto = Time(self.rto.as_nanos().saturating_mul(2)).min(self.cfg.max_rto);
        } else {
            self.rto_deadline = Some(now + self.rto);
        }
        self.pacing_release = now;
        self.forced.head = true;
    }
}

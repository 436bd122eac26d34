//! F-RTO and Linux's undo of a spurious timeout, for the `linux` profile (`tcp.frto`). Read
//! in `net/ipv4/tcp_input.c` of Linux 4.14, the kernel TCP Wave v0.2 was written for; ns-3.44
//! has none of it, so the `ns3` profile keeps the switch off.
//!
//! - The undo state taken when recovery or a timeout begins (`tcp_init_undo`, `prior_cwnd`,
//!   `prior_ssthresh` in `tcp_enter_recovery` / `tcp_enter_loss`).
//! - F-RTO (RFC 5682), armed by `tcp_enter_loss` for a timeout outside recovery or one that
//!   repeats with SND.UNA unmoved (`icsk_retransmits`), run by `tcp_process_loss`:
//!   - step 3.b: an ACK that covers a never-retransmitted segment below the recovery point
//!     (`FLAG_ORIG_SACK_ACKED`) proves the timeout spurious and undoes it
//!     (`tcp_try_undo_loss` → `tcp_undo_cwnd_reduction`): loss marks cleared, cwnd from the
//!     algorithm's `undo_cwnd`, ssthresh restored, state Open;
//!   - step 2.b: the first ACK that advances SND.UNA sends new data instead of retransmitting
//!     (`REXMIT_NEW`, `tcp_xmit_recovery`); if none can leave, F-RTO ends;
//!   - step 3.a: a duplicate ACK after that new data proves the loss real;
//!   - without SACK, a duplicate ACK above `high_seq` counts one guessed SACK and an
//!     advancing ACK resets them ("A Reno DUPACK means new data in F-RTO step 2.b above are
//!     delivered").
//!
//! A later kernel (4.16) applied step 3.b to every timeout; 4.17 reverted it
//! ("tcp: revert F-RTO extension to detect more spurious timeouts"), as 4.14 has it here.
//! Not modelled, and why: the Eifel undo by timestamps (`tcp_packet_delayed`: the echoed
//! timestamp predates the first retransmission) and the DSACK undo. After a timeout's
//! go-back-N the ACK that advances SND.UNA is drawn by the hole's retransmission, whose own
//! timestamp the receiver echoes (`tcp_replace_ts_recent` at the window's left edge), so
//! Eifel does not fire there; DSACK needs SACK.

use super::loss::Episode;
use super::TcpSender;
use ccsim_cca::CongState;

/// Linux's undo and F-RTO state (`undo_marker`, `prior_cwnd`, `prior_ssthresh`, `frto`,
/// `icsk_retransmits`).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Undo {
    /// `undo_marker != 0`: the running episode may still be undone.
    marker: bool,
    /// cwnd when the episode began (bytes).
    prior_cwnd: u32,
    /// ssthresh to restore on undo (bytes); 0 = none (`prior_ssthresh`).
    prior_ssthresh: u32,
    /// F-RTO is running for this timeout (`tp->frto`).
    pub(super) frto: bool,
    /// RFC 5682 step 2.b: the transmission after this ACK sends new data, not the lost
    /// segments (`REXMIT_NEW`).
    pub(super) send_new: bool,
    /// Timeouts since SND.UNA last advanced (`icsk_retransmits`).
    pub(super) timeouts: u32,
}

impl TcpSender {
    /// `tcp_init_undo` with `prior_cwnd` and `prior_ssthresh = tcp_current_ssthresh()`
    /// (`max(ssthresh, ¾ cwnd)` outside a cwnd reduction).
    pub(super) fn begin_undo(&mut self) {
        let cwnd = self.tcb.cwnd;
        self.undo.marker = true;
        self.undo.prior_cwnd = cwnd;
        self.undo.prior_ssthresh = self.tcb.ssthresh.max(cwnd / 2 + cwnd / 4);
    }

    /// `tcp_enter_loss`'s F-RTO rule: armed by a timeout outside recovery (Open, Disorder,
    /// CWR) or one that repeats with SND.UNA unmoved.
    pub(super) fn arm_frto(&mut self) {
        let outside_recovery = matches!(
            self.tcb.cong_state,
            CongState::Open | CongState::Disorder | CongState::Cwr
        );
        self.undo.frto = self.cfg.frto && (outside_recovery || self.undo.timeouts > 0);
        self.undo.send_new = false;
    }

    /// `tcp_process_loss` before the go-back-N rules, for an ACK in the Loss state whose
    /// SACK blocks and cumulative ACK are applied. `orig_acked`: it covers a
    /// never-retransmitted segment below the recovery point.
    pub(super) fn process_loss_ack(&mut self, advanced: bool, is_dupack: bool, orig_acked: bool) {
        if self.cfg.frto && !self.cfg.sack && advanced {
            // Every ACK that advances SND.UNA in the Loss state resets the guessed SACKs
            // (`tcp_reset_reno_sack` in `tcp_process_loss`, or in the Open state it falls
            // through to): Linux's count has no position to move up, unlike ns-3's head rule.
            self.sb.reset_reno_sacks();
        }
        let Episode::Active { recover, .. } = self.episode else {
            return;
        };
        let new_data_sent = self.tcb.high_tx_mark > recover;
        if self.undo.frto {
            if orig_acked && self.undo.marker {
                // Step 3.b: "A timeout is spurious if not all data are lost, i.e.,
                // never-retransmitted data are (s)acked."
                self.undo_loss();
                return;
            }
            if new_data_sent {
                if is_dupack {
                    self.undo.frto = false; // step 3.a: the loss was real
                }
            } else if advanced && self.tcb.last_acked_seq < recover {
                // Step 2.b: new data first, if there is some and the receiver has room.
                let window_end = self.tcb.last_acked_seq + self.rwnd;
                let next = self.tcb.next_tx_seq;
                if self.app.limit_seq() > next && window_end > next {
                    self.undo.send_new = true;
                    return;
                }
                self.undo.frto = false;
            }
        }
        let recovered = self.tcb.last_acked_seq >= recover;
        if self.cfg.frto && !self.cfg.sack && new_data_sent && is_dupack && !recovered {
            // "A Reno DUPACK means new data in F-RTO step 2.b above are delivered."
            self.add_guessed_sack(true);
        }
    }

    /// `tcp_try_undo_loss` with `frto_undo` (`tcp_undo_cwnd_reduction(sk, true)`).
    fn undo_loss(&mut self) {
        self.sb.unmark_lost();
        if self.undo.prior_ssthresh != 0 {
            self.tcb.cwnd = self.cca.undo_cwnd(&self.tcb, self.undo.prior_cwnd);
            self.tcb.ssthresh = self.tcb.ssthresh.max(self.undo.prior_ssthresh);
        }
        self.undo = Undo::default();
        self.episode = Episode::None;
        self.dupacks = 0;
        self.stats.loss_undos += 1;
        self.set_state(CongState::Open);
        self.refresh_in_flight();
    }
}

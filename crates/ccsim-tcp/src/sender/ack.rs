//! One ACK, top to bottom, in the order of ns-3.44 `TcpSocketBase::ReceivedAck` and
//! `ProcessAck` (`src/internet/model/tcp-socket-base.cc`). The steps and their Linux
//! counterparts in `tcp_ack` (`net/ipv4/tcp_input.c`):
//!
//! | step | ns-3.44 | Linux `tcp_ack` |
//! |---|---|---|
//! | 1. SACK blocks update the scoreboard | `ReadOptions` → `TcpTxBuffer::Update` | `tcp_sacktag_write_queue` |
//! | 2. RTT sample | `EstimateRtt` (from `m_history`) | `tcp_clean_rtx_queue` → `tcp_ack_update_rtt` |
//! | 3. cumulative ACK | `DiscardUpTo`, then `BytesInFlight` | `tcp_clean_rtx_queue` |
//! | 4. duplicate ACK | `DupAck` → `EnterRecovery` ([`super::loss`]) | `tcp_fastretrans_alert` |
//! | 5. new ACK: partial, full, window growth, timer | `ProcessAck` → `NewAck` | `tcp_fastretrans_alert`, `tcp_cong_avoid`, `tcp_rearm_rto` |
//! | 6. forced retransmission | `DoRetransmit` inside `ProcessAck` | `tcp_xmit_recovery`, after step 7 |
//! | 7. rate sample, full control | `GenerateSample`, `CongControl` | `tcp_rate_gen`, `tcp_cong_control` |
//!
//! Where the `linux` profile departs from ns-3 at a step, the switch that selects it is
//! named there (`ns3_partial_ack_retransmit`, `ns3_retransmit_before_cong_control`,
//! `ns3_exit_recovery_for_cong_control`, `ns3_disorder_ack_keeps_rto`; docs/tcp-model.md).

use super::ca_rtt::CaRtt;
use super::TcpSender;
use ccsim_cca::{CaEvent, CongState, RecoveryPolicy};
use ccsim_core::Time;
use ccsim_net::TcpSegment;

impl TcpSender {
    pub(super) fn on_ack(&mut self, now: Time, seg: &TcpSegment) {
        let ack = seg.ack;
        let old_una = self.tcb.last_acked_seq;
        if ack < old_una || ack > self.tcb.high_tx_mark {
            return; // stale, or acknowledges data never sent
        }
        self.rwnd = seg.window;
        self.last_ack_rtt_sample = None;
        let prior_in_flight = self.tcb.bytes_in_flight;
        let lost_before = self.sb.lost_bytes();
        // The rate estimator is borrowed in place where segments are delivered (a field
        // borrow beside `self.sb`'s), not taken out and put back: it is a few hundred bytes,
        // and the two copies were ~60 instructions per ACK.
        if let Some(r) = self.rate.as_mut() {
            r.begin_ack();
        }
        if ack > old_una {
            self.undo.timeouts = 0; // Linux `tcp_ack`: `icsk_retransmits = 0`
        }
        // Linux `FLAG_ORIG_SACK_ACKED`: this ACK covers a segment never retransmitted, below
        // the recovery point (`tcp_sacktag_one`, `tcp_clean_rtx_queue`).
        let recover = self.episode.recover().unwrap_or(0);
        let mut orig_acked = false;
        let mut note_orig = |s: &crate::scoreboard::SegmentRecord| {
            orig_acked |= !s.ever_retransmitted && s.seq + s.len as u64 <= recover;
        };
        self.reno_delivered = 0;
        let guessed_before = self.sb.sacked_bytes();
        let mut acked_segs = 0u64;

        // 1. RFC 6675 §5: update the scoreboard from the SACK blocks first.
        let mut ca_rtt = CaRtt::default();
        let newly_sacked = if self.cfg.sack && !seg.sack.is_empty() {
            let rate = &mut self.rate;
            self.sb
                .on_sack_with(&seg.sack.unpacked(), |s| {
                    note_orig(s);
                    ca_rtt.on_sacked(s);
                    if let Some(r) = rate.as_mut() {
                        r.on_delivered(s, now)
                    }
                })
                .newly_sacked_bytes
        } else {
            0
        };

        // 2. The RTT sample ([`super::rtt`]).
        self.sample_rtt(now, ack, seg.timestamps, seg.ts_ecr);

        // 3. The cumulative ACK. ns-3 `ReceivedAck`: a partial ACK in recovery that covers
        // retransmitted data is "safe" for PRR.
        // It tests every whole MSS step below the ACK, `IsRetransmittedDataAcked(ack − i·MSS)`
        // for i < (ack − SND.UNA) / MSS, so an ACK of less than one MSS is never safe.
        let mss = self.tcb.mss as u64;
        let safe_ack = ack > old_una
            && self.episode.before_recover(ack)
            && self.tcb.cong_state == CongState::Recovery
            && (0..(ack - old_una) / mss).any(|i| self.sb.retransmission_ends_at(ack - i * mss));
        self.recovery.set_safe_ack(safe_ack);
        let sack = self.cfg.sack;
        let rate = &mut self.rate;
        let (newly_acked, _) = self.sb.on_cumulative_ack_with(ack, |s| {
            if !(sack && s.sacked) {
                note_orig(s);
            }
            acked_segs += 1;
            ca_rtt.on_acked(s);
            if let Some(r) = rate.as_mut() {
                r.on_delivered(s, now)
            }
        });
        let linux_loss = self.cfg.frto && self.tcb.cong_state == CongState::Loss;
        if !self.cfg.sack && !linux_loss {
            // ns-3.44 `TcpTxBuffer::DiscardUpTo`: a guessed SACK on the new head moves up.
            // (In Linux's Loss state the guessed SACKs are reset instead, [`super::undo`].)
            self.sb.move_reno_sack_off_head();
        }
        let ts_rtt = (self.cfg.timestamps && seg.timestamps && newly_acked > 0)
            .then(|| self.ts_elapsed(now, seg.ts_ecr));
        let mut delivered = newly_acked + newly_sacked;
        if self.cfg.reno_sack_delivered && !self.cfg.sack && newly_acked > 0 {
            // Linux `tcp_remove_reno_sacks`: "One ACK acked hole. The rest eat duplicate
            // ACKs", which already counted one segment each.
            let guessed = guessed_before / mss;
            delivered = (acked_segs.saturating_sub(guessed).max(1) * mss).min(newly_acked);
        }
        self.tcb.last_acked_seq = ack;
        self.refresh_in_flight();
        // ns-3.44 `ReceivedAck` updates bytes in flight after the SACK and cumulative ACK
        // are processed; an application write during `ProcessAck` sees this value.
        self.in_flight_at_ack = self.tcb.bytes_in_flight as u64;

        // 4. Duplicate ACK (with SACK: any ACK that SACKs new data, RFC 6675 §2).
        let is_dupack = if self.cfg.sack {
            newly_sacked > 0
        } else {
            ack == old_una && ack < self.tcb.high_tx_mark
        };
        if self.tcb.cong_state == CongState::Loss {
            // Linux `tcp_process_loss`: undo and F-RTO ([`super::undo`]).
            self.process_loss_ack(ack > old_una, is_dupack, orig_acked);
        }
        self.tcb.last_acked_sacked_bytes = delivered.min(u32::MAX as u64) as u32;
        let old_dupacks = self.dupacks;
        if is_dupack {
            self.on_dupack(now, delivered);
        }
        // The guessed SACKs this ACK added (`tcp.reno_sack_delivered`; 0 otherwise).
        let delivered = delivered + self.reno_delivered;
        self.tcb.delivered += delivered;
        self.tcb.last_acked_sacked_bytes = delivered.min(u32::MAX as u64) as u32;

        // 5. `ProcessAck`: an ACK that does not advance SND.UNA counts one segment for
        // `PktsAcked` — in every state, Loss included (`DupAck` ignores it there, `ProcessAck`
        // does not; Westwood+ counts it in its bandwidth sample: case AN Westwood+ after its
        // timeout); one that does goes through the new-ACK rules.
        let mut write_after_forced = false;
        if ack == old_una {
            if ack < self.tcb.high_tx_mark {
                let srtt = self.srtt_or_zero();
                self.cc_pkts_acked(1, srtt);
            }
        } else {
            write_after_forced =
                self.on_new_ack(now, ack, old_una, is_dupack, old_dupacks, delivered);
        }

        // 6. ns-3.44 `ProcessAck` sends recovery's forced retransmission (`DoRetransmit`)
        // before `ReceivedAck` calls `CongControl`, which then sees it in bytes in flight.
        // Linux (`tcp_xmit_recovery`) sends it after: `poll_transmit` does.
        // (`forced.any()` first: most ACKs force nothing, and the store of an empty
        // `Option<TcpSegment>` is a ~120-byte write.)
        if self.cfg.ns3_retransmit_before_cong_control
            && self.sent_in_ack.is_none()
            && self.forced.any()
        {
            self.sent_in_ack = self.forced_segment(now);
        }
        if write_after_forced {
            self.app_write(self.in_flight_at_ack);
        }

        // 7. Full control (ns-3 `ReceivedAck`: GenerateSample, then CongControl) on every ACK.
        if let Some(r) = self.rate.as_mut() {
            let lost_now = self.sb.lost_bytes();
            let lost = lost_now.abs_diff(lost_before).min(u32::MAX as u64) as u32;
            r.generate(
                delivered.min(u32::MAX as u64) as u32,
                lost,
                prior_in_flight,
                self.tcb.min_rtt,
                ca_rtt.sample(now, ts_rtt),
            );
            self.tcb.now = now;
            self.sampled_last_ack = true;
            self.cca.cong_control(&mut self.tcb, &r.conn, &r.sample);
        }
    }

    /// Step 5 for an ACK that advances SND.UNA (ns-3 `ProcessAck`, "ackNumber > oldHead").
    /// Returns true when the application's write waits until the forced retransmission has
    /// gone out (step 6).
    fn on_new_ack(
        &mut self,
        now: Time,
        ack: u64,
        old_una: u64,
        is_dupack: bool,
        old_dupacks: u32,
        delivered: u64,
    ) -> bool {
        let mss = self.tcb.mss;
        // Segments for the window rules count what this ACK newly delivered (cumulatively
        // ACKed bytes not SACKed before, plus newly SACKed ones), not SND.UNA's advance:
        // ns-3.44 `ProcessAck` ("Set segsAcked ... based on currentDelivered"), Linux
        // `tcp_ack`'s acked_sacked. They differ when the ACK covers SACKed data (after a loss).
        let bytes_acked = delivered;
        let mut segs_acked = (bytes_acked / mss as u64) as u32;
        self.bytes_acked_not_processed += (bytes_acked % mss as u64) as u32;
        if self.bytes_acked_not_processed >= mss {
            segs_acked += 1;
            self.bytes_acked_not_processed -= mss;
        }
        if !is_dupack {
            self.dupacks = 0;
        }
        let srtt = self.srtt_or_zero();
        let state = self.tcb.cong_state;
        // Reno (RFC 5681 §3.2 step 6) leaves recovery on the first new ACK, partial or not.
        let partial =
            self.episode.before_recover(ack) && self.caps.recovery != RecoveryPolicy::Reno;
        if state == CongState::Recovery && partial {
            self.on_partial_ack(now, ack, segs_acked, delivered, srtt);
            // `NewAck` (and so the application's write) comes after `DoRetransmit` here: the
            // forced retransmission cannot pick data written on this ACK.
            return true;
        }
        if state == CongState::Loss && self.episode.before_recover(ack) {
            // Go-back-N after a timeout: slow start per ACK until `recover`.
            self.cc_pkts_acked(segs_acked, srtt);
            self.cc_increase_window(segs_acked);
            self.app_write(self.in_flight_at_ack);
            self.restart_rto(now);
            return false;
        }
        let mut exited_recovery = false;
        match state {
            CongState::Open => self.cc_pkts_acked(segs_acked, srtt),
            CongState::Disorder => {
                // The dupACKs already went to PktsAcked one segment each.
                if segs_acked >= old_dupacks {
                    self.cc_pkts_acked(segs_acked - old_dupacks, srtt);
                }
                if !is_dupack {
                    self.set_state(CongState::Open);
                }
            }
            CongState::Recovery => {
                // The full ACK (RFC 6582 §3.2 step 3): ns-3 recounts from SND.UNA's advance.
                segs_acked = ((ack - old_una) / mss as u64) as u32;
                self.cc_pkts_acked(segs_acked, srtt);
                self.cca.cwnd_event(&mut self.tcb, CaEvent::CompleteCwr);
                self.set_state(CongState::Open);
                exited_recovery = true;
                self.dupacks = 0;
            }
            CongState::Loss => {
                segs_acked = (self.episode.bytes_past_recover(ack) / mss as u64) as u32;
                self.cc_pkts_acked(segs_acked, srtt);
                self.set_state(CongState::Open);
            }
            CongState::Cwr => self.cc_pkts_acked(segs_acked, srtt),
        }
        // Without SACK, Linux holds the episode until something *above* `recover` is ACKed
        // (`tcp_try_undo_recovery`, RFC 6582 §3.2 step 2): the duplicate ACKs for exactly
        // `recover` that a go-back-N's resent segments draw are no new loss.
        let holds = self.linux_reno_hold() && self.episode.bytes_past_recover(ack) == 0;
        if self.episode.passed(ack) && !holds {
            self.episode = super::loss::Episode::None;
        }
        // Leaving recovery sets cwnd = ssthresh (`PrrRecovery::ExitRecovery`); ns-3.44 does it
        // for full-control algorithms too, Linux `tcp_end_cwnd_reduction` does not.
        if exited_recovery
            && (!self.caps.full_control || self.cfg.ns3_exit_recovery_for_cong_control)
        {
            self.recovery.exit(&mut self.tcb);
        }
        if self.tcb.cong_state == CongState::Open {
            self.cc_increase_window(segs_acked);
        }
        // ns-3.44 `ProcessAck` calls `NewAck` (which re-arms the timer) in every branch
        // but one: an ACK that advances SND.UNA while SACKing new data leaves the flow in
        // Disorder, and the timer keeps running from the earlier ACK (RFC 6298 §5.3 and Linux
        // re-arm it). `NewAck` is also where the application is told it may write more.
        if !(self.cfg.ns3_disorder_ack_keeps_rto && self.tcb.cong_state == CongState::Disorder) {
            self.app_write(self.in_flight_at_ack);
            self.restart_rto(now);
        }
        false
    }

    /// A partial ACK in recovery (RFC 6582 §3.2 step 3, RFC 6675 (B)).
    fn on_partial_ack(&mut self, now: Time, ack: u64, segs_acked: u32, delivered: u64, srtt: Time) {
        let mss = self.tcb.mss;
        if segs_acked >= 1 && !self.caps.full_control {
            self.recovery.on_ack(&mut self.tcb, delivered);
        }
        if self.cfg.ns3_partial_ack_retransmit {
            // ns-3.44 `ProcessAck`: without SACK the head is marked lost; then `DoRetransmit`
            // sends whatever NextSeg picks — the first lost segment not yet retransmitted,
            // else new data, else the head — regardless of cwnd. (Seen in its NS_LOG:
            // "Retransmitting <SND.NXT>" on a partial ACK whose head is neither lost nor
            // SACKed above.)
            if !self.cfg.sack {
                self.sb.mark_head_lost();
            }
            self.refresh_in_flight();
            // "If the packet is already retransmitted do not retransmit it": no
            // `DoRetransmit` when an un-SACKed retransmission ends one MSS past the new
            // SND.UNA (`IsRetransmittedDataAcked(ack + MSS)`).
            if !self.sb.retransmission_ends_at(ack + mss as u64) {
                self.forced.next_seg = true;
            }
        } else if self.sb.head().is_some_and(|s| !s.retransmitted) {
            // RFC 6582 §3.2 step 3: retransmit the first unacknowledged segment.
            if !self.cfg.sack || !self.sb.head_is_lost() {
                self.sb.mark_head_lost();
                self.refresh_in_flight();
            }
            self.forced.head = true;
        }
        self.cc_pkts_acked(1, srtt);
        // RFC 6582 §3.2 step 3 ("impatient" variant, as ns-3): only the first partial ACK
        // of an episode re-arms the retransmission timer.
        if self.episode.take_first_partial_ack() {
            self.restart_rto(now);
        }
    }

    /// `PktsAcked`, skipped for full-control algorithms (ns-3 `HasCongControl`).
    fn cc_pkts_acked(&mut self, segments: u32, rtt: Time) {
        if !self.caps.full_control {
            self.cca.pkts_acked(&mut self.tcb, segments, rtt);
        }
    }

    /// `IncreaseWindow`, skipped for full-control algorithms.
    fn cc_increase_window(&mut self, segments: u32) {
        if !self.caps.full_control {
            self.cca.increase_window(&mut self.tcb, segments);
        }
    }

    fn srtt_or_zero(&self) -> Time {
        self.tcb.srtt.unwrap_or(Time::ZERO)
    }
}

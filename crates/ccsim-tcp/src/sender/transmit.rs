//! What to send next (ns-3.44 `TcpSocketBase::SendPendingData` with `TcpTxBuffer::NextSeg`,
//! RFC 6675 §4 NextSeg, RFC 5681 window rule): the retransmission recovery forces out, lost
//! segments, new data within cwnd, the receive window and the send buffer; pacing; and the
//! bookkeeping of every segment sent (scoreboard, RTT history, rate sampler, RTO timer).

use super::{TcpSender, ISS};
use ccsim_cca::{CaEvent, CongState};
use ccsim_core::Time;
use ccsim_net::{TcpFlags, TcpSegment};

impl TcpSender {
    /// One segment of one transmission attempt: a SYN while connecting; once connected, the
    /// forced retransmission, else NextSeg within the window (ns-3.44 `SendPendingData`).
    pub(super) fn poll_data(&mut self, now: Time) -> Option<TcpSegment> {
        self.tcb.now = now;
        if !self.phase.is_established() {
            return self.take_syn(now);
        }
        // ns-3.44 (`tcp.ns3_pacing_timer`): the initial window is not paced
        // (`PaceInitialWindow` = false) and the retransmissions recovery forces out are sent
        // directly (`SendDataPacket`), not through the pacing check of `SendPendingData`.
        let iw_end = ISS + 1 + self.cfg.initial_cwnd_segs as u64 * self.tcb.mss as u64;
        let bypass =
            self.cfg.ns3_pacing_timer && (self.forced.any() || self.tcb.high_tx_mark < iw_end);
        if self.tcb.pacing && now < self.pacing_release && !bypass {
            return None;
        }
        let mss = self.tcb.mss;
        if let Some(seg) = self.forced_segment(now) {
            return Some(seg);
        }
        let window = (self.tcb.cwnd as u64).min(self.rwnd);
        let in_flight = self.sb.bytes_in_flight();
        let avail = window.saturating_sub(in_flight);
        // ns-3.44 semantics: the flow is cwnd-limited when cwnd has no room for another full
        // segment at the moment the sender stops (a receive-window or application limit is not).
        self.tcb.is_cwnd_limited = (self.tcb.cwnd as u64) < in_flight + mss as u64;
        if self.undo.send_new {
            // F-RTO step 2.b (Linux `tcp_xmit_recovery`, `REXMIT_NEW`): new data instead of
            // the lost segments; if none can leave, F-RTO ends and they go.
            if let Some(seg) = self.poll_new_data(now, avail, in_flight) {
                return Some(seg);
            }
            self.undo.send_new = false;
            if self
                .episode
                .recover()
                .is_some_and(|r| self.tcb.high_tx_mark > r)
            {
                return None;
            }
            self.undo.frto = false;
        }
        // RFC 6675 NextSeg rule 1: lost segments first.
        if avail >= 1 {
            if let Some((seq, len)) = self.sb.next_lost() {
                if self.cfg.ns3_recut_retransmissions {
                    return self.pending_retransmission(now, seq, len, avail, in_flight);
                }
                if avail >= len as u64 || in_flight == 0 {
                    return Some(self.emit_retransmission(now, seq, len));
                }
                return None;
            }
        }
        self.poll_new_data(now, avail, in_flight)
    }

    /// NextSeg rule 2 (new data, within the send buffer and the receiver's window), else
    /// rule 3; `avail` is cwnd's room.
    fn poll_new_data(&mut self, now: Time, avail: u64, in_flight: u64) -> Option<TcpSegment> {
        let mss = self.tcb.mss;
        let next = self.tcb.next_tx_seq;
        let limit = self.app.limit_seq();
        if next >= limit {
            // Nothing left to send while cwnd has room: samples are app-limited until this
            // data is delivered (ns-3 `TcpRateLinux::CalculateAppLimited`).
            if let Some(r) = self.rate.as_mut() {
                if in_flight < self.tcb.cwnd as u64 {
                    r.on_app_limited(in_flight);
                }
            }
            return self.rule3_retransmission(now, avail, in_flight);
        }
        let len = (limit - next).min(mss as u64) as u32;
        let outstanding = next - self.tcb.last_acked_seq;
        // The send buffer and, per RFC 793, the receiver's window [SND.UNA, SND.UNA + RCV.WND)
        // bound new data. Linux waits until a whole segment fits in both; ns-3.44 sends what
        // the buffer holds and (`TcpTxBuffer::NextSeg` rule 2) cuts the segment at
        // SND.UNA + RCV.WND, sending the part (docs/tcp-model.md).
        let (send_len, sws_len) = if self.cfg.strict_receive_window {
            if outstanding + len as u64 > self.cfg.snd_buf.max(mss as u64)
                || outstanding + len as u64 > self.rwnd.max(mss as u64)
            {
                return None;
            }
            (len, len)
        } else {
            let buffered = self.buffered_end();
            if next >= buffered {
                return self.rule3_retransmission(now, avail, in_flight);
            }
            let rwnd_end = self.tcb.last_acked_seq + self.rwnd;
            if next >= rwnd_end {
                return None;
            }
            let data = buffered - next;
            self.notify_send(data, avail, in_flight);
            let end = self.buffered_end().min(rwnd_end);
            // ns-3 sends less than a segment when that is all the buffer holds past
            // `next` (`TcpSocketBase::SendPendingData`, `SizeFromSequence`; no Nagle), and
            // never more than the window's room.
            let buffered_len = data.min(mss as u64) as u32;
            let send = (end - next).min(avail.max(buffered_len as u64));
            (len.min(send.min(u32::MAX as u64) as u32), buffered_len)
        };
        // Silly-window avoidance: wait until cwnd − pipe has room for a whole segment of the
        // data available (ns-3 `SendPendingData` checks this before NextSeg cuts the segment).
        if avail < sws_len as u64 {
            return None;
        }
        Some(self.emit_new(now, next, send_len))
    }

    /// The segment recovery forces out regardless of the window, if one is due: the fast
    /// retransmit / partial-ACK retransmission of the head, or NextSeg's choice.
    pub(super) fn forced_segment(&mut self, now: Time) -> Option<TcpSegment> {
        if self.forced.head {
            self.forced.head = false;
            if let Some(head) = self.sb.head() {
                if !head.sacked {
                    let (seq, len) = (head.seq, head.len);
                    return Some(self.emit_retransmission(now, seq, self.forced_len(len)));
                }
            }
        }
        if self.forced.next_seg {
            self.forced.next_seg = false;
            return self.next_seg_outside_window(now);
        }
        None
    }

    /// RFC 6675 NextSeg as ns-3.44 `DoRetransmit` uses it, with no window check: the first
    /// lost segment not yet retransmitted (rule 1), else one segment of new data if any is
    /// buffered and the sent bytes fit the receiver's window (rule 2), else the head.
    fn next_seg_outside_window(&mut self, now: Time) -> Option<TcpSegment> {
        if let Some((seq, len)) = self.sb.next_lost() {
            return Some(self.emit_retransmission(now, seq, self.forced_len(len)));
        }
        let next = self.tcb.next_tx_seq;
        let outstanding = next - self.tcb.last_acked_seq;
        let buffered = self.buffered_end();
        if next < buffered && outstanding <= self.rwnd {
            let len = (buffered - next)
                .min(self.tcb.mss as u64)
                .min(self.rwnd - outstanding)
                .max(1) as u32;
            return Some(self.emit_new(now, next, len));
        }
        let head = self.sb.head().filter(|h| !h.sacked)?;
        let (seq, len) = (head.seq, head.len);
        Some(self.emit_retransmission(now, seq, self.forced_len(len)))
    }

    /// RFC 6675 NextSeg rule 3, as ns-3.44 applies it in fast recovery with SACK when there
    /// is nothing lost to resend (rule 1) and no unsent data (rule 2): the first segment that
    /// is neither SACKed, lost nor retransmitted is resent (`tcp.nextseg_rule_3`). It matters
    /// for a flow limited by its send buffer, which runs out of new data in recovery.
    fn rule3_retransmission(
        &mut self,
        now: Time,
        avail: u64,
        in_flight: u64,
    ) -> Option<TcpSegment> {
        // ns-3.44 `SendPendingData`: `enableRule3 = m_sackEnabled && CA_RECOVERY`, so never
        // without SACK. (The guessed SACKs sit right above a lost head, so (1.b) leaves rule 3
        // no candidate anyway; the test keeps the two paths from depending on that.)
        if !(self.cfg.nextseg_rule_3 && self.cfg.sack && self.tcb.cong_state == CongState::Recovery)
        {
            return None;
        }
        let (seq, len) = self.sb.first_unmarked()?;
        self.pending_retransmission(now, seq, len, avail, in_flight)
    }

    /// A retransmission of the segment `(seq, len)` as ns-3.44's `SendPendingData` sends one
    /// (NextSeg rules 1 and 3): the application may write first, the silly-window check
    /// compares the room with the data from `seq` on, and min(room, MSS) bytes are re-cut
    /// from `seq`.
    fn pending_retransmission(
        &mut self,
        now: Time,
        seq: u64,
        len: u32,
        avail: u64,
        in_flight: u64,
    ) -> Option<TcpSegment> {
        let mss = self.tcb.mss as u64;
        let data = self.buffered_end().saturating_sub(seq);
        self.notify_send(data, avail, in_flight);
        if avail < mss && data > avail && in_flight > 0 {
            return None;
        }
        let want = mss.min(avail.max(len as u64)) as u32;
        Some(self.emit_retransmission(now, seq, want))
    }

    /// `SendPendingData` asks the application for more data ("if there's less app data than
    /// the full window") once NextSeg has chosen a segment with `data` bytes buffered from it
    /// on: BulkSend writes if there is room.
    fn notify_send(&mut self, data: u64, avail: u64, in_flight: u64) {
        if data < avail {
            self.app_write(in_flight);
        }
    }

    /// Length asked for a retransmission forced out by recovery (`DoRetransmit` asks
    /// `SendDataPacket` for a whole segment).
    fn forced_len(&self, record_len: u32) -> u32 {
        if self.cfg.ns3_recut_retransmissions {
            self.tcb.mss
        } else {
            record_len
        }
    }

    pub(super) fn data_segment(&self, now: Time, seq: u64, len: u32) -> TcpSegment {
        TcpSegment {
            flags: TcpFlags(TcpFlags::ACK),
            seq,
            ack: 1,
            payload: len,
            window: self.cfg.rcv_buf,
            ts_val: self.ts_now(now),
            ts_ecr: self.ts_recent,
            timestamps: self.cfg.timestamps,
            ..Default::default()
        }
    }

    fn after_send(&mut self, now: Time, seg: &TcpSegment) {
        self.stats.tx_segments += 1;
        self.stats.tx_bytes += seg.payload as u64;
        if self.tcb.cong_state == CongState::Recovery {
            self.recovery.on_sent(seg.payload);
        }
        if self.rto_deadline.is_none() {
            self.rto_deadline = Some(now + self.rto);
        }
        self.refresh_in_flight();
        // Pacing (`tcb.pacing`: from the config, or switched on by the algorithm, e.g. BBR):
        // the next segment leaves one payload-size serialisation at the pacing rate later
        // (ns-3 `SendDataPacket`: `m_pacingRate.CalculateBytesTxTime(size)`).
        // ns-3 arms its pacing timer only when it has expired: a segment sent while it runs
        // (one that bypassed it, above) does not push the release time further.
        let timer_running = self.cfg.ns3_pacing_timer && self.pacing_release > now;
        if self.tcb.pacing && self.tcb.pacing_rate_bps > 0 && !timer_running {
            let bytes = seg.payload as u64;
            self.pacing_release = now + self.pacing_gap.tx_time(bytes, self.tcb.pacing_rate_bps);
        }
    }

    /// Delivery-rate bookkeeping of a (re)transmission (ns-3 `TcpRateOps::SkbSent`), and the
    /// TX_START event when sending resumes with nothing in flight.
    /// `newest`: the segment is the scoreboard's last record (a first transmission), found
    /// without the search by sequence number (~120 instructions per segment sent).
    fn on_sent_rate(&mut self, now: Time, seq: u64, start_of_transmission: bool, newest: bool) {
        if start_of_transmission && self.caps.full_control {
            self.cca.cwnd_event(&mut self.tcb, CaEvent::TxStart);
        }
        if let Some(r) = self.rate.as_mut() {
            let info = r.on_sent(now, start_of_transmission);
            let rec = if newest {
                self.sb.last_mut()
            } else {
                self.sb.record_mut(seq)
            };
            if let Some(rec) = rec {
                debug_assert_eq!(rec.seq, seq);
                rec.rate = info;
            }
        }
    }

    fn emit_new(&mut self, now: Time, seq: u64, len: u32) -> TcpSegment {
        let seg = self.data_segment(now, seq, len);
        let idle = self.sb.bytes_in_flight() == 0;
        self.sb.on_new_segment(seq, len, now);
        self.history.on_first_send(seq, seq + len as u64, now);
        self.on_sent_rate(now, seq, idle, true);
        self.tcb.next_tx_seq = seq + len as u64;
        self.tcb.high_tx_mark = self.tcb.high_tx_mark.max(self.tcb.next_tx_seq);
        self.after_send(now, &seg);
        seg
    }

    /// Retransmits the segment at `seq`: `len` is its length, or with
    /// `ns3_recut_retransmissions` the length asked for (it is re-cut to that).
    fn emit_retransmission(&mut self, now: Time, seq: u64, len: u32) -> TcpSegment {
        let len = if self.cfg.ns3_recut_retransmissions {
            self.sb.recut(seq, len)
        } else {
            len
        };
        let mut seg = self.data_segment(now, seq, len);
        seg.retransmission = true;
        // ns-3 `SendDataPacket` asks `BytesInFlight() == 0` for every segment: after an RTO
        // (everything marked lost) the first retransmission restarts the rate sampler.
        let idle = self.cfg.ns3_recut_retransmissions && self.sb.bytes_in_flight() == 0;
        self.sb.on_retransmit(seq, now);
        self.history.on_retransmit(seq, seq + len as u64);
        self.on_sent_rate(now, seq, idle, false);
        self.stats.retx_segments += 1;
        self.stats.retx_bytes += len as u64;
        self.after_send(now, &seg);
        seg
    }
}

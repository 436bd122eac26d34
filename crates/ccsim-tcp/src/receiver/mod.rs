//! The receiving side of one TCP connection (ns-3 `TcpSocketBase::ReceivedData` + `TcpRxBuffer`).
//!
//! Acknowledgement rules (RFC 5681 §4.2, RFC 1122 §4.2.3.2, as ns-3.44): an in-order segment
//! is ACKed every `delack_count` segments or after `delack_timeout`; an out-of-order segment,
//! one that fills a hole, or a duplicate is ACKed at once. SACK blocks follow RFC 2018 §4: the
//! block holding the segment that triggered the ACK first, then the other blocks, most recent
//! first. The timestamp to echo follows RFC 7323 §4.3 as ns-3 does: it is taken from a segment
//! only if it starts at RCV.NXT and at or below the last ACK sent.
//!
//! This file holds the segment dispatch and the ACK it builds; one job per submodule:
//! `handshake` (the SYN-ACK's retransmission), `reassembly` (the out-of-order store),
//! `sack_list` (the blocks reported), `delayed_ack` (when an in-order segment is ACKed),
//! `window` (the advertised window).

use crate::config::TcpConfig;
use ccsim_core::Time;
use ccsim_net::{SackBlocks, TcpFlags, TcpSegment, TS_OPTION_BYTES};

mod delayed_ack;
mod handshake;
mod reassembly;
mod sack_list;
mod window;

use delayed_ack::DelayedAck;
use handshake::SynAckRetry;
use reassembly::Reassembly;
use sack_list::SackList;

pub struct TcpReceiver {
    cfg: TcpConfig,
    established: bool,
    /// Next in-order byte expected (RCV.NXT).
    rcv_nxt: u64,
    ooo: Reassembly,
    sack_list: SackList,
    ts_to_echo: u32,
    last_ts_seen: u32,
    /// Highest ACK number sent (ns-3 `m_highTxAck`).
    high_ack_sent: u64,
    delayed_ack: DelayedAck,
    ack_due: bool,
    syn_ack_due: bool,
    syn_ack_retry: SynAckRetry,
    /// Application bytes delivered in order.
    delivered: u64,
    pub acks_sent: u64,
    pub duplicate_segments: u64,
}

impl TcpReceiver {
    pub fn new(cfg: TcpConfig) -> Self {
        TcpReceiver {
            cfg,
            established: false,
            rcv_nxt: 0,
            ooo: Reassembly::new(),
            sack_list: SackList::new(),
            ts_to_echo: 0,
            last_ts_seen: 0,
            high_ack_sent: 0,
            delayed_ack: DelayedAck::default(),
            ack_due: false,
            syn_ack_due: false,
            syn_ack_retry: SynAckRetry::default(),
            delivered: 0,
            acks_sent: 0,
            duplicate_segments: 0,
        }
    }

    /// Application bytes received in order so far.
    pub fn delivered_bytes(&self) -> u64 {
        self.delivered
    }

    pub fn out_of_order_bytes(&self) -> u64 {
        self.ooo.bytes()
    }

    pub fn on_segment(&mut self, now: Time, seg: &TcpSegment) {
        if seg.flags.has(TcpFlags::SYN) {
            // (Re)answer a SYN; the SYN consumes one sequence number.
            self.rcv_nxt = seg.seq + 1;
            self.high_ack_sent = self.rcv_nxt;
            self.ts_to_echo = seg.ts_val;
            self.last_ts_seen = seg.ts_val;
            self.syn_ack_due = true;
            self.established = true;
            self.delayed_ack.prime(self.cfg.delack_count);
            return;
        }
        if self.established && !self.syn_ack_retry.is_done() {
            self.syn_ack_retry.complete();
        }
        if !self.established || seg.payload == 0 {
            return;
        }
        if seg.timestamps && seg.ts_val >= self.last_ts_seen {
            self.last_ts_seen = seg.ts_val;
            if seg.seq == self.rcv_nxt && seg.seq <= self.high_ack_sent {
                self.ts_to_echo = seg.ts_val;
            }
        }
        let start = seg.seq;
        let end = seg.seq + seg.payload as u64;
        if end <= self.rcv_nxt || self.ooo.holds(start, end) {
            self.duplicate_segments += 1;
            self.ack_due = true; // duplicate: ACK at once
            return;
        }
        let expected = self.rcv_nxt;
        if start <= self.rcv_nxt {
            self.rcv_nxt = self.ooo.pull_contiguous(end);
        } else {
            let no_room = if self.cfg.rwnd_counts_out_of_order {
                end - start + self.ooo.bytes() > self.cfg.rcv_buf
            } else {
                // ns-3: nothing beyond NextRxSequence + buffer size is accepted.
                end > self.rcv_nxt + self.cfg.rcv_buf
            };
            if no_room {
                self.ack_due = true; // no room: drop, re-advertise
                return;
            }
            let (head, tail) = self.ooo.insert(start, end);
            if head < tail {
                self.sack_list.record(head, tail);
            }
        }
        self.delivered += self.rcv_nxt - expected;
        self.sack_list.forget_acked(self.rcv_nxt);

        let filled_hole = self.rcv_nxt > expected + seg.payload as u64;
        // A hole below held data, or one just filled, is ACKed at once; otherwise the
        // segment is counted for the delayed ACK (only then: `||` short-circuits).
        if self.ooo.has_gap()
            || filled_hole
            || self.delayed_ack.on_in_order_segment(
                now,
                self.cfg.delack_count,
                self.cfg.delack_timeout,
            )
        {
            self.ack_due = true;
        }
    }

    pub fn on_timer(&mut self, now: Time) {
        if self.delayed_ack.take_expired(now) {
            self.ack_due = true;
        }
        if self.syn_ack_retry.take_expired(now) {
            self.syn_ack_due = true;
        }
    }

    pub fn next_timer(&self) -> Option<Time> {
        match (self.delayed_ack.deadline(), self.syn_ack_retry.deadline()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// The SYN-ACK or ACK due now, if any.
    pub fn poll_transmit(&mut self, now: Time) -> Option<TcpSegment> {
        if !(self.ack_due || self.syn_ack_due) {
            return None;
        }
        let mut seg = TcpSegment {
            flags: TcpFlags(TcpFlags::ACK),
            seq: 1,
            ack: self.rcv_nxt,
            payload: 0,
            window: window::advertised_window(&self.cfg, self.ooo.bytes(), self.syn_ack_due),
            ts_val: (now.as_nanos() / self.cfg.ts_tick.as_nanos().max(1)) as u32,
            ts_ecr: self.ts_to_echo,
            timestamps: self.cfg.timestamps,
            ..Default::default()
        };
        if self.syn_ack_due {
            self.syn_ack_due = false;
            if !self.syn_ack_retry.count_sent(now) {
                return None;
            }
            seg.flags = TcpFlags(TcpFlags::SYN | TcpFlags::ACK);
            seg.seq = 0;
            seg.sack_permitted = self.cfg.sack;
            seg.mss_option = self.cfg.syn_mss_option;
            seg.wscale_option = self.cfg.window_scaling;
            return Some(seg);
        }
        self.ack_due = false;
        self.delayed_ack.on_ack_sent();
        self.high_ack_sent = self.high_ack_sent.max(self.rcv_nxt);
        if self.cfg.sack {
            let other = if self.cfg.timestamps {
                TS_OPTION_BYTES
            } else {
                0
            };
            let max = SackBlocks::max_blocks(other);
            for &(s, e) in self.sack_list.blocks().iter().take(max) {
                seg.sack.push(s, e);
            }
        }
        self.acks_sent += 1;
        Some(seg)
    }
}

/// True (and disarmed) when the timer `deadline` has expired by `now`.
fn take_expired(deadline: &mut Option<Time>, now: Time) -> bool {
    if deadline.is_some_and(|d| d <= now) {
        *deadline = None;
        return true;
    }
    false
}

#[cfg(test)]
mod tests;

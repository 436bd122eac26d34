//! The receiving side of one TCP connection (ns-3 `TcpSocketBase::ReceivedData` + `TcpRxBuffer`).
//!
//! Acknowledgement rules (RFC 5681 §4.2, RFC 1122 §4.2.3.2, as ns-3.44): an in-order segment
//! is ACKed every `delack_count` segments or after `delack_timeout`; an out-of-order segment,
//! one that fills a hole, or a duplicate is ACKed at once. SACK blocks follow RFC 2018 §4: the
//! block holding the segment that triggered the ACK first, then the other blocks, most recent
//! first. The timestamp to echo follows RFC 7323 §4.3 as ns-3 does: it is taken from a segment
//! only if it starts at RCV.NXT and at or below the last ACK sent.

use crate::config::TcpConfig;
use ccsim_core::Time;
use ccsim_net::{SackBlocks, TcpFlags, TcpSegment, TS_OPTION_BYTES};

/// Largest value of the 16-bit window field.
const MAX_WINDOW_FIELD: u64 = 65_535;

/// SYN-ACKs a socket in SYN_RCVD sends before it gives up (ns-3 `SynRetries`).
const SYN_ACK_SENDS: u32 = 6;

/// The first SYN-ACK's retransmission timeout (ns-3 `ConnTimeout`), doubled per SYN-ACK sent.
const CONN_TIMEOUT: Time = Time::from_secs(3);

pub struct TcpReceiver {
    cfg: TcpConfig,
    established: bool,
    /// Next in-order byte expected (RCV.NXT).
    rcv_nxt: u64,
    /// Out-of-order data held, as sorted disjoint [start, end) ranges above `rcv_nxt`.
    ooo: Vec<(u64, u64)>,
    ooo_bytes: u64,
    /// SACK blocks in report order (most recent first).
    sack_list: Vec<(u64, u64)>,
    ts_to_echo: u32,
    last_ts_seen: u32,
    /// Highest ACK number sent (ns-3 `m_highTxAck`).
    high_ack_sent: u64,
    delack_count: u32,
    delack_deadline: Option<Time>,
    ack_due: bool,
    syn_ack_due: bool,
    /// The peer's ACK of our SYN-ACK (or its first data) has arrived: SYN_RCVD is over.
    handshake_done: bool,
    /// SYN-ACKs sent while in SYN_RCVD.
    syn_acks_sent: u32,
    /// When the SYN-ACK is sent again if the handshake has not completed by then.
    syn_ack_deadline: Option<Time>,
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
            ooo: Vec::with_capacity(16),
            ooo_bytes: 0,
            sack_list: Vec::with_capacity(16),
            ts_to_echo: 0,
            last_ts_seen: 0,
            high_ack_sent: 0,
            delack_count: 0,
            delack_deadline: None,
            ack_due: false,
            syn_ack_due: false,
            handshake_done: false,
            syn_acks_sent: 0,
            syn_ack_deadline: None,
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
        self.ooo_bytes
    }

    /// Window shift for the receive buffer (ns-3 `TcpSocketBase::CalculateWScale`).
    fn window_shift(&self) -> u32 {
        if !self.cfg.window_scaling {
            return 0;
        }
        let mut space = self.cfg.rcv_buf;
        let mut shift = 0;
        while space > MAX_WINDOW_FIELD {
            space >>= 1;
            shift += 1;
        }
        shift.min(14)
    }

    /// The window the peer may use, as it decodes it from the 16-bit field: free buffer space
    /// truncated to the scale unit (RFC 7323 §2.3); unscaled and capped on SYN segments.
    fn advertised_window(&self, syn: bool) -> u64 {
        // ns-3.44 advertises `MaxRxSequence − NextRxSequence`, the whole buffer once the
        // application has read the in-order data: out-of-order bytes held do not shrink it
        // (`TcpRxBuffer::MaxRxSequence`).
        let free = if self.cfg.rwnd_counts_out_of_order {
            self.cfg.rcv_buf.saturating_sub(self.ooo_bytes)
        } else {
            self.cfg.rcv_buf
        };
        if syn {
            return free.min(MAX_WINDOW_FIELD);
        }
        let shift = self.window_shift();
        (free >> shift).min(MAX_WINDOW_FIELD) << shift
    }

    pub fn on_segment(&mut self, _now: Time, seg: &TcpSegment) {
        if seg.flags.has(TcpFlags::SYN) {
            // (Re)answer a SYN; the SYN consumes one sequence number.
            self.rcv_nxt = seg.seq + 1;
            self.high_ack_sent = self.rcv_nxt;
            self.ts_to_echo = seg.ts_val;
            self.last_ts_seen = seg.ts_val;
            self.syn_ack_due = true;
            self.established = true;
            // ns-3 `ProcessSynRcvd` sets m_delAckCount = m_delAckMaxCount on establishment,
            // so the first data segment is acknowledged at once.
            self.delack_count = self.cfg.delack_count;
            return;
        }
        if self.established && !self.handshake_done {
            // ns-3 `ProcessSynRcvd`: the handshake's ACK, or data, ends SYN_RCVD and cancels
            // the SYN-ACK's retransmission.
            self.handshake_done = true;
            self.syn_ack_deadline = None;
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
        if end <= self.rcv_nxt || self.is_held(start, end) {
            self.duplicate_segments += 1;
            self.ack_due = true; // duplicate: ACK at once
            return;
        }
        let expected = self.rcv_nxt;
        if start <= self.rcv_nxt {
            self.rcv_nxt = end;
            self.pull_contiguous();
        } else {
            let no_room = if self.cfg.rwnd_counts_out_of_order {
                end - start + self.ooo_bytes > self.cfg.rcv_buf
            } else {
                // ns-3: nothing beyond NextRxSequence + buffer size is accepted.
                end > self.rcv_nxt + self.cfg.rcv_buf
            };
            if no_room {
                self.ack_due = true; // no room: drop, re-advertise
                return;
            }
            self.insert_ooo(start, end);
        }
        self.delivered += self.rcv_nxt - expected;
        self.sack_list.retain(|&(_, e)| e > self.rcv_nxt);

        let gap_exists = !self.ooo.is_empty();
        let filled_hole = self.rcv_nxt > expected + seg.payload as u64;
        if gap_exists || filled_hole {
            self.ack_due = true;
        } else {
            self.delack_count += 1;
            if self.delack_count >= self.cfg.delack_count {
                self.ack_due = true;
            } else if self.delack_deadline.is_none() {
                self.delack_deadline = Some(_now + self.cfg.delack_timeout);
            }
        }
    }

    fn is_held(&self, start: u64, end: u64) -> bool {
        self.ooo.iter().any(|&(s, e)| s <= start && end <= e)
    }

    /// Moves out-of-order ranges that became contiguous into the in-order stream.
    fn pull_contiguous(&mut self) {
        let mut drained = 0;
        for &(s, e) in self.ooo.iter() {
            if s > self.rcv_nxt {
                break;
            }
            if e > self.rcv_nxt {
                self.rcv_nxt = e;
            }
            self.ooo_bytes -= e - s;
            drained += 1;
        }
        self.ooo.drain(..drained);
    }

    /// Inserts [start, end) into the out-of-order ranges (merging neighbours) and records it
    /// in the SACK list, trimmed first to the bytes not already held: ns-3.44
    /// `TcpRxBuffer::Add` ("remove overlapped bytes from packet") cuts the head at the end
    /// of a range holding it and the tail at the start of a range holding it, and the SACK
    /// block is the trimmed piece (a range strictly inside the segment does not trim it).
    fn insert_ooo(&mut self, start: u64, end: u64) {
        let (mut head, mut tail) = (start, end);
        // Ranges ending at or before `start` cannot overlap (they are sorted and disjoint).
        let first = self.ooo.partition_point(|&(_, e)| e <= start);
        for &(s, e) in &self.ooo[first..] {
            if s > tail {
                break;
            }
            if e > head && !(s > head && e < tail) {
                if s <= head {
                    head = e;
                }
                if e >= tail {
                    tail = s;
                }
            }
        }
        let pos = self.ooo.partition_point(|&(_, e)| e < start);
        let mut s = start;
        let mut e = end;
        let mut last = pos;
        while last < self.ooo.len() && self.ooo[last].0 <= e {
            s = s.min(self.ooo[last].0);
            e = e.max(self.ooo[last].1);
            self.ooo_bytes -= self.ooo[last].1 - self.ooo[last].0;
            last += 1;
        }
        self.ooo.splice(pos..last, std::iter::once((s, e)));
        self.ooo_bytes += e - s;
        if head < tail {
            self.update_sack_list(head, tail);
        }
    }

    /// The SACK blocks to report, as ns-3.44 `TcpRxBuffer::UpdateSackList` keeps them (and in
    /// the spirit of Linux `tcp_sack_new_ofo_skb`): the new segment goes first, merged with
    /// list blocks it exactly touches; at most four blocks are remembered, the oldest dropped.
    /// The list is *not* rebuilt from the reassembly queue: once a block has been dropped,
    /// data arriving next to it is reported without it (RFC 2018 (a) is still met for the
    /// blocks the receiver remembers). Reporting the whole contiguous held range instead gives
    /// the sender more SACK information than ns-3's and changes which segments it marks lost.
    fn update_sack_list(&mut self, head: u64, tail: u64) {
        const REMEMBERED_BLOCKS: usize = 4;
        self.sack_list.insert(0, (head, tail));
        let mut i = 1;
        while i < self.sack_list.len() {
            let (fs, fe) = self.sack_list[0];
            let (cs, ce) = self.sack_list[i];
            let merged = if fs == ce {
                Some((cs, fe))
            } else if fe == cs {
                Some((fs, ce))
            } else {
                None
            };
            match merged {
                Some(m) => {
                    self.sack_list.remove(i);
                    self.sack_list[0] = m;
                    i = 1; // the grown front block may now touch an earlier one
                }
                None => i += 1,
            }
        }
        self.sack_list.truncate(REMEMBERED_BLOCKS);
    }

    pub fn on_timer(&mut self, now: Time) {
        if self.delack_deadline.is_some_and(|d| d <= now) {
            self.delack_deadline = None;
            self.ack_due = true;
        }
        if self.syn_ack_deadline.is_some_and(|d| d <= now) {
            // The SYN-ACK (or the handshake's ACK) was lost: send it again.
            self.syn_ack_deadline = None;
            self.syn_ack_due = true;
        }
    }

    pub fn next_timer(&self) -> Option<Time> {
        match (self.delack_deadline, self.syn_ack_deadline) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Counts a SYN-ACK sent in SYN_RCVD and arms its retransmission, as ns-3.44's
    /// `SendEmptyPacket` does: the n-th SYN-ACK's timeout is `ConnTimeout · 2^(n−1)`, armed
    /// only when no retransmission is pending (a SYN-ACK answering a repeated SYN consumes a
    /// try without moving the timer); after `SynRetries` SYN-ACKs the socket gives up and
    /// sends no more. Returns false when it has given up.
    fn count_syn_ack(&mut self, now: Time) -> bool {
        if self.handshake_done {
            return true;
        }
        if self.syn_acks_sent >= SYN_ACK_SENDS {
            return false;
        }
        self.syn_acks_sent += 1;
        if self.syn_ack_deadline.is_none() {
            let backoff = 1u64 << (self.syn_acks_sent - 1);
            self.syn_ack_deadline = Some(now + Time(CONN_TIMEOUT.as_nanos() * backoff));
        }
        true
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
            window: self.advertised_window(self.syn_ack_due),
            ts_val: (now.as_nanos() / self.cfg.ts_tick.as_nanos().max(1)) as u32,
            ts_ecr: self.ts_to_echo,
            timestamps: self.cfg.timestamps,
            ..Default::default()
        };
        if self.syn_ack_due {
            self.syn_ack_due = false;
            if !self.count_syn_ack(now) {
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
        self.delack_count = 0;
        self.delack_deadline = None;
        self.high_ack_sent = self.high_ack_sent.max(self.rcv_nxt);
        if self.cfg.sack {
            let other = if self.cfg.timestamps {
                TS_OPTION_BYTES
            } else {
                0
            };
            let max = SackBlocks::max_blocks(other);
            for &(s, e) in self.sack_list.iter().take(max) {
                seg.sack.push(s, e);
            }
        }
        self.acks_sent += 1;
        Some(seg)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MSS: u32 = 1000;

    fn rx() -> TcpReceiver {
        let mut r = TcpReceiver::new(TcpConfig {
            mss: MSS,
            rcv_buf: 1 << 20,
            ..TcpConfig::default()
        });
        let syn = TcpSegment {
            flags: TcpFlags(TcpFlags::SYN),
            timestamps: true,
            ..Default::default()
        };
        r.on_segment(Time::ZERO, &syn);
        let synack = r.poll_transmit(Time::ZERO).unwrap();
        assert!(synack.flags.has(TcpFlags::SYN));
        r
    }

    fn data(seq_index: u64, ts: u32) -> TcpSegment {
        TcpSegment {
            flags: TcpFlags(TcpFlags::ACK),
            seq: 1 + seq_index * MSS as u64,
            payload: MSS,
            timestamps: true,
            ts_val: ts,
            ..Default::default()
        }
    }

    fn syn_at(r: &mut TcpReceiver, t: Time) -> Option<TcpSegment> {
        let syn = TcpSegment {
            flags: TcpFlags(TcpFlags::SYN),
            ..Default::default()
        };
        r.on_segment(t, &syn);
        r.poll_transmit(t)
    }

    fn fire(r: &mut TcpReceiver) -> (Time, Option<TcpSegment>) {
        let t = r.next_timer().expect("a timer is armed");
        r.on_timer(t);
        (t, r.poll_transmit(t))
    }

    #[test]
    fn lost_syn_ack_is_sent_again_with_doubling_timeouts() {
        // ns-3.44 SYN_RCVD: ConnTimeout 3 s, doubled per SYN-ACK, SynRetries 6 in all.
        let mut r = TcpReceiver::new(TcpConfig::default());
        assert!(syn_at(&mut r, Time::from_millis(10)).is_some());
        let mut times = Vec::new();
        while let Some(t) = r.next_timer() {
            let (at, seg) = fire(&mut r);
            assert_eq!(at, t);
            if let Some(seg) = seg {
                assert!(seg.flags.has(TcpFlags::SYN) && seg.flags.has(TcpFlags::ACK));
                times.push(at.as_nanos() / 1_000_000);
            }
        }
        // Sent at 0.01 s, then 3.01, 9.01, 21.01, 45.01, 93.01 s: six in all; the timer
        // armed by the sixth finds no try left.
        assert_eq!(times, vec![3_010, 9_010, 21_010, 45_010, 93_010]);
    }

    #[test]
    fn repeated_syn_uses_a_try_but_keeps_the_pending_timer() {
        let mut r = TcpReceiver::new(TcpConfig::default());
        syn_at(&mut r, Time::ZERO).unwrap();
        assert_eq!(r.next_timer(), Some(Time::from_secs(3)));
        // The peer's second SYN (its own 3 s timer) is answered at once...
        assert!(syn_at(&mut r, Time::from_millis(2_900)).is_some());
        assert_eq!(r.next_timer(), Some(Time::from_secs(3)), "timer not moved");
        // ...and the retransmission at 3 s is the third SYN-ACK: its timeout is 4 × 3 s.
        let (_, seg) = fire(&mut r);
        assert!(seg.is_some());
        assert_eq!(r.next_timer(), Some(Time::from_secs(15)));
    }

    #[test]
    fn handshake_ack_cancels_the_syn_ack_retransmission() {
        let mut r = TcpReceiver::new(TcpConfig::default());
        syn_at(&mut r, Time::ZERO).unwrap();
        let ack = TcpSegment {
            flags: TcpFlags(TcpFlags::ACK),
            seq: 1,
            ack: 1,
            ..Default::default()
        };
        r.on_segment(Time::from_millis(40), &ack);
        assert_eq!(r.next_timer(), None);
        assert!(r.poll_transmit(Time::from_millis(40)).is_none());
    }

    #[test]
    fn first_data_segment_is_acked_at_once() {
        // ns-3 `ProcessSynRcvd` primes the delayed-ACK counter on establishment.
        let mut r = rx();
        r.on_segment(Time::ZERO, &data(0, 5));
        let ack = r.poll_transmit(Time::ZERO).unwrap();
        assert_eq!(ack.ack, 1 + MSS as u64);
        assert_eq!(ack.ts_ecr, 5);
    }

    #[test]
    fn delayed_ack_every_second_segment_echoing_the_first() {
        let mut r = rx();
        r.on_segment(Time::ZERO, &data(0, 5));
        r.poll_transmit(Time::ZERO).unwrap();
        let t = Time::from_millis(1);
        r.on_segment(t, &data(1, 10));
        assert!(r.poll_transmit(t).is_none());
        assert_eq!(r.next_timer(), Some(t + Time::from_millis(200)));
        r.on_segment(t, &data(2, 11));
        let ack = r.poll_transmit(t).unwrap();
        assert_eq!(ack.ack, 1 + 3 * MSS as u64);
        assert_eq!(
            ack.ts_ecr, 10,
            "RFC 7323: echo the segment that started the ACK cycle"
        );
        assert!(r.next_timer().is_none());
    }

    #[test]
    fn delayed_ack_timer_fires() {
        let mut r = rx();
        r.on_segment(Time::ZERO, &data(0, 0));
        r.poll_transmit(Time::ZERO).unwrap();
        r.on_segment(Time::ZERO, &data(1, 0));
        let due = r.next_timer().unwrap();
        r.on_timer(due);
        assert_eq!(r.poll_transmit(due).unwrap().ack, 1 + 2 * MSS as u64);
    }

    #[test]
    fn window_is_scaled_except_on_syn() {
        let mut r = TcpReceiver::new(TcpConfig {
            mss: MSS,
            rcv_buf: 4_000_000,
            ..TcpConfig::default()
        });
        let syn = TcpSegment {
            flags: TcpFlags(TcpFlags::SYN),
            ..Default::default()
        };
        r.on_segment(Time::ZERO, &syn);
        assert_eq!(r.poll_transmit(Time::ZERO).unwrap().window, 65_535);
        r.on_segment(Time::ZERO, &data(0, 0));
        // 4 MB needs a shift of 6: the window is a multiple of 64 bytes.
        assert_eq!(
            r.poll_transmit(Time::ZERO).unwrap().window,
            (4_000_000 >> 6) << 6
        );
    }

    #[test]
    fn out_of_order_gets_immediate_ack_with_recent_block_first() {
        let mut r = rx();
        r.on_segment(Time::ZERO, &data(0, 0));
        r.on_segment(Time::ZERO, &data(2, 0));
        let a = r.poll_transmit(Time::ZERO).unwrap();
        assert_eq!(a.ack, 1 + MSS as u64);
        assert_eq!(a.sack.as_slice(), &[(2001, 3001)]);
        r.on_segment(Time::ZERO, &data(5, 0));
        let a = r.poll_transmit(Time::ZERO).unwrap();
        assert_eq!(a.sack.as_slice(), &[(5001, 6001), (2001, 3001)]);
        r.on_segment(Time::ZERO, &data(3, 0));
        let a = r.poll_transmit(Time::ZERO).unwrap();
        assert_eq!(a.sack.as_slice(), &[(2001, 4001), (5001, 6001)]);
        // Fill the hole: everything up to 4001 is delivered, one block left.
        r.on_segment(Time::ZERO, &data(1, 0));
        let a = r.poll_transmit(Time::ZERO).unwrap();
        assert_eq!(a.ack, 4001);
        assert_eq!(a.sack.as_slice(), &[(5001, 6001)]);
        assert_eq!(r.delivered_bytes(), 4000);
        assert_eq!(r.out_of_order_bytes(), 1000);
    }

    /// Out-of-order data shrinks the advertised window in the `linux` profile only; ns-3.44
    /// keeps advertising the whole buffer.
    #[test]
    fn out_of_order_bytes_and_the_advertised_window() {
        for (counts, expected) in [(true, 60_000 - 2 * MSS as u64), (false, 60_000)] {
            let mut r = TcpReceiver::new(TcpConfig {
                mss: MSS,
                rcv_buf: 60_000,
                window_scaling: false,
                rwnd_counts_out_of_order: counts,
                ..TcpConfig::default()
            });
            let syn = TcpSegment {
                flags: TcpFlags(TcpFlags::SYN),
                timestamps: true,
                ..Default::default()
            };
            r.on_segment(Time::ZERO, &syn);
            r.poll_transmit(Time::ZERO);
            for k in [0, 2, 4] {
                r.on_segment(Time::ZERO, &data(k, 0));
            }
            let last = std::iter::from_fn(|| r.poll_transmit(Time::ZERO)).last();
            assert_eq!(r.out_of_order_bytes(), 2 * MSS as u64);
            assert_eq!(
                last.unwrap().window,
                expected,
                "counts out-of-order: {counts}"
            );
        }
    }

    /// ns-3.44 remembers four blocks: after five separate holes the oldest block is forgotten,
    /// and a segment arriving next to it is reported on its own although the receiver holds
    /// the neighbour (the sender sees less than the reassembly queue has).
    #[test]
    fn sack_list_forgets_the_oldest_of_five_blocks() {
        let mut r = rx();
        r.on_segment(Time::ZERO, &data(0, 0));
        for k in [2, 4, 6, 8, 10] {
            r.on_segment(Time::ZERO, &data(k, 0));
        }
        let a = r.poll_transmit(Time::ZERO).unwrap();
        assert_eq!(
            a.sack.as_slice(),
            &[(10_001, 11_001), (8001, 9001), (6001, 7001)],
            "three blocks fit beside the timestamps"
        );
        // Segment 3 touches the forgotten block [2001, 3001) and the remembered [4001, 5001).
        r.on_segment(Time::ZERO, &data(3, 0));
        let a = r.poll_transmit(Time::ZERO).unwrap();
        assert_eq!(a.sack.as_slice()[0], (3001, 5001));
        assert_eq!(r.out_of_order_bytes(), 6000, "the data itself is all held");
    }

    /// ns-3.44 `TcpRxBuffer::Add` trims a segment to the bytes it does not hold yet, so a
    /// retransmission re-cut across held data is reported as one block, not as overlapping
    /// ones (seed 002 over IPv4 fragments).
    #[test]
    fn overlapping_segment_is_trimmed_before_its_sack_block() {
        let mut r = rx();
        r.on_segment(Time::ZERO, &data(0, 0));
        r.on_segment(Time::ZERO, &data(2, 0));
        r.poll_transmit(Time::ZERO).unwrap();
        let mut overlap = data(2, 0);
        overlap.seq += 500;
        r.on_segment(Time::ZERO, &overlap);
        let a = r.poll_transmit(Time::ZERO).unwrap();
        assert_eq!(a.sack.as_slice(), &[(2001, 3501)]);
        assert_eq!(r.out_of_order_bytes(), 1500);
        // A segment whose tail is held is cut at the held range's start.
        let mut head_first = data(4, 0);
        head_first.seq -= 600;
        r.on_segment(Time::ZERO, &data(4, 0));
        r.on_segment(Time::ZERO, &head_first);
        let a = r.poll_transmit(Time::ZERO).unwrap();
        assert_eq!(
            a.sack.as_slice(),
            &[(2001, 5001)],
            "the trimmed piece joins both"
        );
    }

    #[test]
    fn duplicate_is_acked_at_once() {
        let mut r = rx();
        r.on_segment(Time::ZERO, &data(0, 0));
        r.on_segment(Time::ZERO, &data(1, 0));
        r.poll_transmit(Time::ZERO).unwrap();
        r.on_segment(Time::ZERO, &data(0, 0));
        assert!(r.poll_transmit(Time::ZERO).is_some());
        assert_eq!(r.duplicate_segments, 1);
    }
}

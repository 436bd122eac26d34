//! The connection phase: SYN (with retries), SYN-ACK, and the ACK that completes the
//! three-way handshake (RFC 793 §3.4; ns-3 `TcpSocketBase::ProcessSynSent`, `SendEmptyPacket`).

use super::{TcpSender, ISS};
use ccsim_core::Time;
use ccsim_net::{TcpFlags, TcpSegment};

/// SYN retransmissions before giving up (ns-3 `SynRetries`).
const SYN_RETRIES: u32 = 6;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Phase {
    /// Waiting for the application start time.
    Idle,
    /// SYN sent (or due), waiting for SYN-ACK.
    SynSent {
        /// A SYN is due now (first one, or a retry after the SYN timer).
        due: bool,
        /// SYNs sent so far.
        tries: u32,
        /// When the last SYN left (RTT sample of the SYN-ACK).
        sent_at: Time,
    },
    Established {
        /// The pure ACK that completes the handshake is due (ns-3 `ProcessSynSent` sends it
        /// before any data; Linux too when no data is queued at SYN-ACK time).
        handshake_ack_due: bool,
    },
    /// Connection gave up (SYN retries exhausted).
    Failed,
}

impl Phase {
    pub(super) fn is_established(&self) -> bool {
        matches!(self, Phase::Established { .. })
    }
}

impl TcpSender {
    /// The application opens the connection: a SYN is due.
    pub fn start(&mut self, now: Time) {
        self.tcb.now = now;
        self.phase = Phase::SynSent {
            due: true,
            tries: 0,
            sent_at: Time::ZERO,
        };
        // BulkSend fills the send buffer when the connection opens.
        self.app.start(self.tcb.mss);
    }

    /// A segment before the connection is established: a SYN-ACK completes it.
    pub(super) fn on_handshake_segment(&mut self, now: Time, seg: &TcpSegment) {
        let Phase::SynSent { tries, sent_at, .. } = self.phase else {
            return;
        };
        if !seg.flags.has(TcpFlags::SYN) {
            return;
        }
        self.phase = Phase::Established {
            handshake_ack_due: true,
        };
        self.rwnd = seg.window;
        // The SYN-ACK gives the first RTT measurement (unless the SYN was retransmitted).
        if tries == 1 {
            let sample = if seg.timestamps && self.cfg.timestamps {
                self.ts_elapsed(now, seg.ts_ecr)
            } else {
                now - sent_at
            };
            self.rtt.sample(sample);
            self.tcb.srtt = self.rtt.srtt();
            self.tcb.last_rtt = Some(sample);
            self.tcb.min_rtt = Some(sample);
            // Reported with the flow's RTT samples, as ns-3's history holds the SYN.
            self.last_ack_rtt_sample = Some(sample);
        }
        self.update_rto_value();
        self.rto_deadline = None;
        self.cca.init(&mut self.tcb);
        // BulkSend fills the buffer once connected: its first write finds nothing in flight
        // and less than a segment to send, so the first flight is app-limited in ns-3.
        if self.app.chunk_below(self.tcb.mss) {
            if let Some(r) = self.rate.as_mut() {
                r.on_app_limited(0);
            }
        }
    }

    /// The SYN timer expired: retry, or give up after `SYN_RETRIES` retries.
    pub(super) fn on_syn_timeout(&mut self) {
        if let Phase::SynSent { due, tries, .. } = &mut self.phase {
            if *tries > SYN_RETRIES {
                self.phase = Phase::Failed;
            } else {
                *due = true;
            }
        }
    }

    /// The pure ACK completing the handshake, once, if it is due.
    pub(super) fn take_handshake_ack(&mut self, now: Time) -> Option<TcpSegment> {
        match &mut self.phase {
            Phase::Established { handshake_ack_due } if *handshake_ack_due => {
                *handshake_ack_due = false;
                Some(self.data_segment(now, ISS + 1, 0))
            }
            _ => None,
        }
    }

    /// The SYN, if one is due now.
    pub(super) fn take_syn(&mut self, now: Time) -> Option<TcpSegment> {
        let Phase::SynSent {
            due,
            tries,
            sent_at,
        } = &mut self.phase
        else {
            return None;
        };
        if !*due {
            return None;
        }
        *due = false;
        *tries += 1;
        *sent_at = now;
        let tries = *tries;
        // ns-3 `SendEmptyPacket`: SYN timeout = ConnTimeout (3 s) doubled per retry.
        let backoff = 1u64 << (tries - 1).min(16);
        self.rto_deadline = Some(now + Time(Time::from_secs(3).as_nanos() * backoff));
        self.tcb.now = now;
        Some(TcpSegment {
            flags: TcpFlags(TcpFlags::SYN),
            seq: ISS,
            ack: 0,
            payload: 0,
            window: self.cfg.rcv_buf,
            ts_val: self.ts_now(now),
            ts_ecr: 0,
            timestamps: self.cfg.timestamps,
            sack_permitted: self.cfg.sack,
            mss_option: self.cfg.syn_mss_option,
            wscale_option: self.cfg.window_scaling,
            ..Default::default()
        })
    }
}

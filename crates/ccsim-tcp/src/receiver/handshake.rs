//! SYN_RCVD: the SYN-ACK's retransmission until the peer's ACK (or first data) arrives
//! (ns-3.44 `TcpSocketBase::ProcessSynRcvd`, `SendEmptyPacket`).

use ccsim_core::Time;

/// SYN-ACKs a socket in SYN_RCVD sends before it gives up (ns-3 `SynRetries`).
const SYN_ACK_SENDS: u32 = 6;

/// The first SYN-ACK's retransmission timeout (ns-3 `ConnTimeout`), doubled per SYN-ACK sent.
const CONN_TIMEOUT: Time = Time::from_secs(3);

/// The SYN-ACK retransmission timer and its try count.
#[derive(Debug, Default)]
pub(super) struct SynAckRetry {
    /// The peer's ACK of our SYN-ACK (or its first data) has arrived: SYN_RCVD is over.
    handshake_done: bool,
    /// SYN-ACKs sent while in SYN_RCVD.
    syn_acks_sent: u32,
    /// When the SYN-ACK is sent again if the handshake has not completed by then.
    deadline: Option<Time>,
}

impl SynAckRetry {
    pub(super) fn is_done(&self) -> bool {
        self.handshake_done
    }

    /// ns-3 `ProcessSynRcvd`: the handshake's ACK, or data, ends SYN_RCVD and cancels the
    /// SYN-ACK's retransmission.
    pub(super) fn complete(&mut self) {
        self.handshake_done = true;
        self.deadline = None;
    }

    pub(super) fn deadline(&self) -> Option<Time> {
        self.deadline
    }

    /// True (and disarmed) when the retransmission timer has expired by `now`: the SYN-ACK,
    /// or the handshake's ACK, was lost.
    pub(super) fn take_expired(&mut self, now: Time) -> bool {
        super::take_expired(&mut self.deadline, now)
    }

    /// Counts a SYN-ACK sent in SYN_RCVD and arms its retransmission, as ns-3.44's
    /// `SendEmptyPacket` does: the n-th SYN-ACK's timeout is `ConnTimeout · 2^(n−1)`, armed
    /// only when no retransmission is pending (a SYN-ACK answering a repeated SYN consumes a
    /// try without moving the timer); after `SynRetries` SYN-ACKs the socket gives up and
    /// sends no more. Returns false when it has given up.
    pub(super) fn count_sent(&mut self, now: Time) -> bool {
        if self.handshake_done {
            return true;
        }
        if self.syn_acks_sent >= SYN_ACK_SENDS {
            return false;
        }
        self.syn_acks_sent += 1;
        if self.deadline.is_none() {
            let backoff = 1u64 << (self.syn_acks_sent - 1);
            self.deadline = Some(now + Time(CONN_TIMEOUT.as_nanos() * backoff));
        }
        true
    }
}

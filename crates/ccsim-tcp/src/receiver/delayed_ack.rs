//! Delayed ACK (RFC 1122 §4.2.3.2, RFC 5681 §4.2, as ns-3.44 `TcpSocketBase::ReceivedData`):
//! an in-order segment is ACKed every `delack_count` segments or after `delack_timeout`.

use ccsim_core::Time;

/// Segments received since the last ACK, and the delayed-ACK timer.
#[derive(Debug, Default)]
pub(super) struct DelayedAck {
    count: u32,
    deadline: Option<Time>,
}

impl DelayedAck {
    /// ns-3 `ProcessSynRcvd` sets m_delAckCount = m_delAckMaxCount on establishment, so the
    /// first data segment is acknowledged at once.
    pub(super) fn prime(&mut self, max_count: u32) {
        self.count = max_count;
    }

    /// Counts an in-order segment; true when it is to be ACKed now, otherwise the timer is
    /// armed (if it is not already) for `now + timeout`.
    pub(super) fn on_in_order_segment(&mut self, now: Time, max_count: u32, timeout: Time) -> bool {
        self.count += 1;
        if self.count >= max_count {
            return true;
        }
        if self.deadline.is_none() {
            self.deadline = Some(now + timeout);
        }
        false
    }

    /// An ACK went out: start counting again.
    pub(super) fn on_ack_sent(&mut self) {
        self.count = 0;
        self.deadline = None;
    }

    pub(super) fn deadline(&self) -> Option<Time> {
        self.deadline
    }

    /// True (and disarmed) when the timer has expired by `now`.
    pub(super) fn take_expired(&mut self, now: Time) -> bool {
        super::take_expired(&mut self.deadline, now)
    }
}

//! Burst mode (TCP Wave's TxTime timer; `ccsim_cca::wave` module docs, steps 2–3): for an
//! algorithm the factory built with the burst-mode capability ([`ccsim_cca::BurstOps`]), a
//! self-managed timer releases at most `send_quantum` segments per expiry, back to back.

use super::TcpSender;
use ccsim_core::Time;
use ccsim_net::TcpSegment;

/// Burst-mode bookkeeping.
#[derive(Clone, Debug, Default)]
pub(super) struct BurstState {
    /// Next burst-timer expiry, once armed.
    pub(super) deadline: Option<Time>,
    /// Segments sent in the current transmission attempt.
    sent_in_attempt: u32,
    /// Of those, new data: only new data forms a burst (Linux calls `segments_sent` from
    /// `tcp_write_xmit`, which sends from the send head; retransmissions are never a burst).
    new_in_attempt: u32,
    /// The current attempt follows a timer expiry: report it even if it sends nothing, then
    /// re-arm the timer.
    after_expiry: bool,
}

impl TcpSender {
    /// The burst timer, if it expired: the algorithm opens the window for the next burst.
    pub(super) fn on_burst_timer(&mut self, now: Time) {
        let Some(b) = self.burst.as_mut() else { return };
        if b.deadline.is_some_and(|d| d <= now) {
            b.deadline = None;
            b.after_expiry = true;
            b.sent_in_attempt = 0;
            b.new_in_attempt = 0;
            if let Some(ops) = self.cca.burst_ops_mut() {
                ops.on_burst_timer(&mut self.tcb);
            }
        }
    }

    /// One `poll_transmit` in burst mode: at most `send_quantum` segments per attempt.
    pub(super) fn poll_burst(&mut self, now: Time) -> Option<TcpSegment> {
        let sent = self.burst.as_ref().map_or(0, |b| b.sent_in_attempt);
        let quantum = self.cca.burst_ops().map_or(u32::MAX, |o| o.send_quantum());
        let seg = if sent < quantum {
            self.poll_data(now)
        } else {
            None
        };
        self.after_burst_poll(now, seg.as_ref());
        seg
    }

    /// Burst-mode accounting around one `poll_transmit` (Wave module docs, steps 2–3): count
    /// the segment sent, or at the end of an attempt (`None`) report what it sent (all, and
    /// new data) to the algorithm and re-arm the timer.
    pub(super) fn after_burst_poll(&mut self, now: Time, sent: Option<&TcpSegment>) {
        let Some(b) = self.burst.as_mut() else { return };
        if let Some(seg) = sent {
            b.sent_in_attempt += 1;
            b.new_in_attempt += u32::from(!seg.retransmission);
            return;
        }
        if !self.phase.is_established() {
            return;
        }
        let (n, new) = (b.sent_in_attempt, b.new_in_attempt);
        let report = b.after_expiry || n > 0;
        let rearm = b.after_expiry || (b.deadline.is_none() && n > 0);
        b.after_expiry = false;
        b.sent_in_attempt = 0;
        b.new_in_attempt = 0;
        if report {
            if let Some(ops) = self.cca.burst_ops_mut() {
                ops.on_burst_sent(&mut self.tcb, n, new);
            }
        }
        if rearm {
            let interval = self
                .cca
                .burst_ops()
                .map_or(Time::from_millis(200), |o| o.burst_interval());
            if let Some(b) = self.burst.as_mut() {
                b.deadline = Some(now + interval);
            }
        }
    }
}

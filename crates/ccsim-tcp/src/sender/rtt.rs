//! RTT sampling and the retransmission timer's value: ns-3.44 `TcpSocketBase::EstimateRtt`
//! with its `m_history` of first transmissions, RFC 7323 timestamps, RFC 6298 RTO.

use super::TcpSender;
use ccsim_core::Time;
use std::collections::VecDeque;

/// One first transmission, for RTT sampling (ns-3 `RttHistory`).
#[derive(Clone, Copy, Debug)]
struct RttRecord {
    seq: u64,
    end: u64,
    time: Time,
    /// Data inside it was retransmitted: no sample from it without timestamps (Karn).
    retx: bool,
}

/// RTT records of first transmissions, oldest first (ns-3 `m_history`).
#[derive(Clone, Debug, Default)]
pub(super) struct RttHistory {
    records: VecDeque<RttRecord>,
}

impl RttHistory {
    /// A first transmission of `[seq, end)` at `time`.
    pub(super) fn on_first_send(&mut self, seq: u64, end: u64, time: Time) {
        self.records.push_back(RttRecord {
            seq,
            end,
            time,
            retx: false,
        });
    }

    /// ns-3 `UpdateRttHistory`: the first record holding `seq` is marked and now ends with
    /// this retransmission.
    pub(super) fn on_retransmit(&mut self, seq: u64, end: u64) {
        if let Some(r) = self
            .records
            .iter_mut()
            .find(|r| r.seq <= seq && seq < r.end)
        {
            r.retx = true;
            r.end = end;
        }
    }

    /// ns-3 `ReTxTimeout` clears the history: no sample until new data is ACKed.
    pub(super) fn clear(&mut self) {
        self.records.clear();
    }

    /// The oldest record, if `ack` covers it: (first sent at, retransmitted). Then every
    /// record `ack` covers is dropped.
    fn take_covered(&mut self, ack: u64) -> Option<(Time, bool)> {
        let covered = match self.records.front() {
            Some(h) if ack >= h.end => Some((h.time, h.retx)),
            _ => None,
        };
        while self.records.front().is_some_and(|h| h.end <= ack) {
            self.records.pop_front();
        }
        covered
    }
}

impl TcpSender {
    /// RTT sample of an ACK, as ns-3.44 `EstimateRtt`: the sender keeps one record per *first*
    /// transmission (a retransmission inside a record moves its end to the retransmission's
    /// end) and drops them all on a timeout; an ACK gives one sample when it covers the oldest
    /// record. With timestamps the sample is the echo, retransmitted or not (RFC 7323 makes it
    /// unambiguous; the reference's mirror of `m_history`, verified against ns-3's `LastRtt`
    /// trace, takes it so); without, the time since that first transmission, unless it was
    /// retransmitted (Karn). Linux takes its sample in `tcp_clean_rtx_queue` the same way.
    pub(super) fn sample_rtt(&mut self, now: Time, ack: u64, timestamps: bool, ts_ecr: u32) {
        let sample = self.history.take_covered(ack).and_then(|(sent, retx)| {
            if self.cfg.timestamps && timestamps {
                Some(self.ts_elapsed(now, ts_ecr))
            } else {
                (!retx).then(|| now - sent)
            }
        });
        if let Some(sample) = sample {
            self.last_ack_rtt_sample = Some(sample);
            self.rtt.sample(sample);
            self.tcb.srtt = self.rtt.srtt();
            self.tcb.last_rtt = Some(sample);
            self.tcb.min_rtt = Some(self.tcb.min_rtt.map_or(sample, |m| m.min(sample)));
            self.update_rto_value();
        }
    }

    pub(super) fn ts_now(&self, now: Time) -> u32 {
        (now.as_nanos() / self.cfg.ts_tick.as_nanos().max(1)) as u32
    }

    /// RTT from a timestamp echo (ns-3 `TcpOptionTS::ElapsedTimeFromTsValue`), whole ticks;
    /// a zero result becomes 1 µs as in ns-3 `EstimateRtt`.
    pub(super) fn ts_elapsed(&self, now: Time, echo: u32) -> Time {
        let now_ticks = self.ts_now(now);
        let ticks = now_ticks.saturating_sub(echo) as u64;
        let t = Time(ticks * self.cfg.ts_tick.as_nanos());
        if t == Time::ZERO {
            Time::from_micros(1)
        } else {
            t
        }
    }

    /// A new ACK re-arms the timer with a fresh RTO from the estimator, which also drops any
    /// exponential backoff (ns-3 `TcpSocketBase::NewAck` with resetRTO; RFC 6298 §5.3).
    pub(super) fn restart_rto(&mut self, now: Time) {
        self.update_rto_value();
        self.rto_deadline = if self.sb.is_empty() {
            None
        } else {
            Some(now + self.rto)
        };
    }

    /// RFC 6298 §2: RTO from the estimator, within [min_rto, max_rto].
    pub(super) fn update_rto_value(&mut self) {
        self.rto = self
            .rtt
            .rto(
                self.cfg.min_rto,
                self.cfg.clock_granularity,
                self.cfg.initial_rto,
            )
            .min(self.cfg.max_rto);
    }
}

//! Unit-level replay of ns-3.44 congestion-control vectors (`cca-replay-format.md`).
//!
//! A vector is a script of `init`, `ack`, `fullack`, `dupack` and `rto` events, each with the
//! cwnd, ssthresh and congestion state ns-3.44 produced after it. [`replay_file`] drives ccsim's
//! algorithms through the same calls, with the same minimal sender model, and returns the same
//! file with ccsim's values; [`compare`] counts the steps that agree.
//!
//! # Semantics, and the ns-3.44 facts behind them
//!
//! The replay follows the interchange format's event semantics (`cca-replay-format.md`), which
//! model a SACK-less `TcpSocketBase` with `TcpClassicRecovery` whose sender is always
//! cwnd-limited. Each rule below is checked against ns-3.44 `src/internet/model/tcp-socket-base.cc`
//! (function names given; the format's simplifications are marked *format*):
//!
//! - **Sender model** (*format*): after every step `nextTx = max(nextTx, lastAcked + cwnd)`,
//!   `highTxMark = nextTx`, `bytesInFlight = cwnd`, `isCwndLimited = true`. `init` runs
//!   `Init(tcb)` with that model already applied (`highTxMark = initial cwnd`).
//! - **New ACK in Open** — `ProcessAck`, final `else` branch: `PktsAcked(m_tcb, segsAcked,
//!   m_tcb->m_srtt)`, then (state Open) `IncreaseWindow(m_tcb, segsAcked)`. The RTT passed is
//!   the smoothed RTT `m_srtt`; here every `ack` sets `lastRtt = srtt = rtt` and
//!   `minRtt = min(minRtt, rtt)`.
//! - **New ACK in Disorder** — same branch: `PktsAcked(segsAcked − oldDupAckCount)` when
//!   `segsAcked >= oldDupAckCount`, `CongestionStateSet(CA_OPEN)`, state Open, `IncreaseWindow`.
//! - **Duplicate ACK** — `DupAck`: nothing in Loss (early `return`); in Open
//!   `CongestionStateSet(CA_DISORDER)` with `m_dupAckCount = 1`; in Disorder, at
//!   `m_dupAckCount == m_retxThresh` (3) `EnterRecovery`: `m_recover = m_highTxMark`,
//!   `CongestionStateSet(CA_RECOVERY)`, state Recovery, `m_ssThresh = GetSsThresh(m_tcb,
//!   bytesInFlight)`, then `TcpClassicRecovery::EnterRecovery` sets `cwnd = ssthresh`
//!   (`tcp-recovery-ops.cc`). *Format*: `bytesInFlight` is cwnd (ns-3 without SACK passes
//!   `BytesInFlight() + segmentSize`). Back in `ProcessAck`, a dupACK then gets
//!   `PktsAcked(m_tcb, 1, m_tcb->m_srtt)` ("Artificially call PktsAcked"); *format*: not in Loss.
//! - **Partial ACK in Recovery** — `ProcessAck`, `ackNumber < m_recover && CA_RECOVERY`:
//!   `PktsAcked(m_tcb, 1, m_tcb->m_srtt)` only (classic recovery's `DoRecovery` leaves cwnd
//!   alone here because the model keeps `bytesInFlight = cwnd`).
//! - **Full ACK in Recovery** (`fullack`) — `ProcessAck`, `CA_RECOVERY` exit: `PktsAcked(segs)`,
//!   `CwndEvent(CA_EVENT_COMPLETE_CWR)`, `CongestionStateSet(CA_OPEN)`, state Open, then
//!   `m_cWnd = m_ssThresh` (`exitedFastRecovery`) and `IncreaseWindow(segs)`. *Format*: `segs`
//!   is `max(1, ceil((recover − lastAcked)/MSS))` and lastAcked advances by `segs·MSS`.
//! - **New ACK in Loss** — `ProcessAck`: below `m_recover`, `PktsAcked` + `IncreaseWindow`; at or
//!   past it, `PktsAcked`, `CongestionStateSet(CA_OPEN)`, state Open, `IncreaseWindow`.
//!   *Format*: the segment count is the ACK's (ns-3 recounts from `m_recover`).
//! - **Retransmission timeout** — `ReTxTimeout`: `m_recover = m_highTxMark`;
//!   `m_ssThresh = GetSsThresh(m_tcb, inFlightBeforeRto)` unless already in Loss with the head
//!   retransmitted (always the case on a second timeout in a row); then
//!   `CwndEvent(CA_EVENT_LOSS)`, `CongestionStateSet(CA_LOSS)`, state Loss, `m_cWnd =
//!   segmentSize`. *Format*: the in-flight value is cwnd.
//! - **Algorithm timers** (Westwood+ `EstimateBW`, scheduled with `Simulator::Schedule`): a
//!   timer due at or before a step's `t_s` runs first, at its own time; at equal times the timer
//!   precedes the step (the vectors require it).
//!
//! Beyond ns-3.44 (no vector exercises these; every ns-3 algorithm keeps
//! [`RecoveryPolicy::NewReno`](crate::RecoveryPolicy::NewReno)): an algorithm reporting
//! [`RecoveryPolicy::Reno`](crate::RecoveryPolicy::Reno) leaves recovery on a partial ACK exactly
//! as on the full ACK; one reporting [`RecoveryPolicy::Tahoe`](crate::RecoveryPolicy::Tahoe)
//! answers the third dupACK with the timeout steps above (state Loss, `cwnd = segmentSize`) instead
//! of entering Recovery. Algorithms that take their window from rate samples (full control: BBR,
//! Wave) cannot be replayed at this level and are refused.

use crate::build;

mod compare;
mod format;
mod sender;

pub use compare::{compare, Mismatch, Report, VectorReport};
pub use format::{parse, ReplayError, ReplayFile, Step, Vector, VectorParams};
use sender::Sender;

/// Replay one vector; returns its steps with ccsim's cwnd, ssthresh and state.
pub fn replay_vector(index: usize, v: &Vector) -> Result<Vec<Step>, ReplayError> {
    let cca = build(&v.algorithm, &v.params.algorithm_params).map_err(|error| {
        ReplayError::Algorithm {
            vector: index,
            error,
        }
    })?;
    if cca.capabilities().full_control {
        return Err(ReplayError::BadStep {
            vector: index,
            step: 0,
            message: format!(
                "{} takes its window from rate samples (full control); the unit-level replay \
                 does not model them",
                cca.name()
            ),
        });
    }
    if v.params.mss == 0 {
        return Err(ReplayError::BadStep {
            vector: index,
            step: 0,
            message: "mss must be positive".into(),
        });
    }
    let mut s = Sender::new(cca, &v.params);
    let mut out = Vec::with_capacity(v.steps.len());
    for (i, step) in v.steps.iter().enumerate() {
        let t = step.time();
        s.run_timers_before(t);
        s.tcb.now = t;
        let mut segs = step.segs_acked;
        match step.event.as_str() {
            "init" => {
                s.after_step();
                s.cca.init(&mut s.tcb);
            }
            "ack" => s.ack(step.segs_acked, step.rtt()),
            "fullack" => segs = s.full_ack(step.rtt()),
            "dupack" => s.dup_ack(),
            "rto" => s.rto(),
            other => {
                return Err(ReplayError::BadStep {
                    vector: index,
                    step: i,
                    message: format!(
                        "unknown event \"{other}\"; allowed: init, ack, fullack, dupack, rto"
                    ),
                })
            }
        }
        s.after_step();
        let mut row = step.clone();
        row.segs_acked = segs;
        row.cwnd_bytes = s.tcb.cwnd;
        row.ssthresh_bytes = s.tcb.ssthresh;
        row.state_after = s.tcb.cong_state.code();
        out.push(row);
    }
    Ok(out)
}

/// Replay every vector of a file; the result has `"simulator": "ccsim"`.
pub fn replay_file(input: &ReplayFile) -> Result<ReplayFile, ReplayError> {
    let mut out = input.clone();
    out.simulator = "ccsim".to_string();
    out.generator = format!("ccsim-cca {} replay", env!("CARGO_PKG_VERSION"));
    for (i, v) in out.vectors.iter_mut().enumerate() {
        v.steps = replay_vector(i, v)?;
    }
    Ok(out)
}

/// Replay a file given as JSON text and return ccsim's file as JSON text.
pub fn replay_str(input: &str) -> Result<String, ReplayError> {
    let ours = replay_file(&parse(input)?)?;
    Ok(serde_json::to_string(&ours)?)
}

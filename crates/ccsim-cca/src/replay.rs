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
//! [`RecoveryPolicy::NewReno`]): an algorithm reporting [`RecoveryPolicy::Reno`] leaves
//! recovery on a partial ACK exactly as on the full ACK; one reporting [`RecoveryPolicy::Tahoe`]
//! answers the third dupACK with the timeout steps above (state Loss, `cwnd = segmentSize`)
//! instead of entering Recovery. Algorithms that take their window from rate samples
//! (full control: BBR, Wave) cannot be replayed at this level and are refused.

use crate::{build, CaEvent, CcaError, CongState, Controller, RecoveryPolicy, TcpState};
use ccsim_core::Time;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Number, Value};
use std::collections::BTreeMap;
use std::fmt;

/// A whole replay file.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ReplayFile {
    pub generator: String,
    pub simulator: String,
    pub seed: i64,
    pub step_fields: Vec<String>,
    pub state_codes: BTreeMap<String, String>,
    pub vectors: Vec<Vector>,
}

/// One algorithm driven through one scenario.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Vector {
    /// ns-3 TypeId name, e.g. `"TcpCubic"`.
    pub algorithm: String,
    pub scenario: String,
    pub description: String,
    pub params: VectorParams,
    pub steps: Vec<Step>,
}

/// Connection parameters of a vector; any further keys are algorithm tunables for [`build`].
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct VectorParams {
    pub mss: u32,
    pub init_cwnd_segs: u32,
    pub init_ssthresh: u32,
    #[serde(flatten)]
    pub algorithm_params: Map<String, Value>,
}

/// One step: `[t_s, event, segs_acked, rtt_ms, cwnd_bytes, ssthresh_bytes, state_after]`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(from = "StepRow", into = "StepRow")]
pub struct Step {
    /// Simulated time in seconds, kept as written.
    pub t_s: Number,
    pub event: String,
    pub segs_acked: u32,
    /// RTT sample (ack, fullack), srtt in force (dupack) or timeout (rto), in ms, kept as written.
    pub rtt_ms: Number,
    pub cwnd_bytes: u32,
    pub ssthresh_bytes: u32,
    pub state_after: u8,
}

#[derive(Clone, Serialize, Deserialize)]
struct StepRow(Number, String, u32, Number, u32, u32, u8);

impl From<StepRow> for Step {
    fn from(r: StepRow) -> Self {
        Step {
            t_s: r.0,
            event: r.1,
            segs_acked: r.2,
            rtt_ms: r.3,
            cwnd_bytes: r.4,
            ssthresh_bytes: r.5,
            state_after: r.6,
        }
    }
}

impl From<Step> for StepRow {
    fn from(s: Step) -> Self {
        StepRow(
            s.t_s,
            s.event,
            s.segs_acked,
            s.rtt_ms,
            s.cwnd_bytes,
            s.ssthresh_bytes,
            s.state_after,
        )
    }
}

impl Step {
    /// The step's time (`t_s` rounded to the nanosecond).
    pub fn time(&self) -> Time {
        Time::from_nanos((self.t_s.as_f64().unwrap_or(0.0) * 1e9).round().max(0.0) as u64)
    }
    /// The `rtt_ms` column as a time (rounded to the nanosecond).
    pub fn rtt(&self) -> Time {
        Time::from_nanos((self.rtt_ms.as_f64().unwrap_or(0.0) * 1e6).round().max(0.0) as u64)
    }
}

/// Why a replay failed.
#[derive(Debug)]
pub enum ReplayError {
    /// The input is not a replay file.
    Json(serde_json::Error),
    /// A vector names an unknown algorithm or bad tunables.
    Algorithm { vector: usize, error: CcaError },
    /// A step cannot be replayed.
    BadStep {
        vector: usize,
        step: usize,
        message: String,
    },
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Json(e) => write!(f, "not a CCA replay file: {e}"),
            ReplayError::Algorithm { vector, error } => write!(f, "vector {vector}: {error}"),
            ReplayError::BadStep {
                vector,
                step,
                message,
            } => write!(f, "vector {vector}, step {step}: {message}"),
        }
    }
}

impl std::error::Error for ReplayError {}

impl From<serde_json::Error> for ReplayError {
    fn from(e: serde_json::Error) -> Self {
        ReplayError::Json(e)
    }
}

/// The socket side of the replay: the tcb plus the few `TcpSocketBase` variables the event
/// semantics need.
struct Sender {
    tcb: TcpState,
    cca: Controller,
    dup_acks: u32,
    recover: u64,
}

impl Sender {
    fn new(cca: Controller, p: &VectorParams) -> Self {
        Sender {
            tcb: TcpState::new(p.mss, p.init_cwnd_segs, p.init_ssthresh),
            cca,
            dup_acks: 0,
            recover: 0,
        }
    }

    /// Run the algorithm's own timers due strictly before `t`.
    fn run_timers_before(&mut self, t: Time) {
        while let Some(due) = self.cca.next_timer() {
            if due > t {
                break;
            }
            self.tcb.now = due;
            self.cca.on_timer(&mut self.tcb);
        }
    }

    fn set_state(&mut self, state: CongState) {
        self.cca.congestion_state_set(&mut self.tcb, state);
        self.tcb.cong_state = state;
    }

    /// Sender model: always cwnd-limited.
    fn after_step(&mut self) {
        let tcb = &mut self.tcb;
        tcb.next_tx_seq = tcb.next_tx_seq.max(tcb.last_acked_seq + tcb.cwnd as u64);
        tcb.high_tx_mark = tcb.next_tx_seq;
        tcb.bytes_in_flight = tcb.cwnd;
        tcb.is_cwnd_limited = true;
    }

    fn rtt_sample(&mut self, rtt: Time) {
        self.tcb.last_rtt = Some(rtt);
        self.tcb.srtt = Some(rtt);
        self.tcb.min_rtt = Some(self.tcb.min_rtt.map_or(rtt, |m| m.min(rtt)));
    }

    fn ack(&mut self, segs: u32, rtt: Time) {
        self.rtt_sample(rtt);
        self.tcb.last_acked_seq += segs as u64 * self.tcb.mss as u64;
        match self.tcb.cong_state {
            CongState::Open | CongState::Cwr => {
                self.cca.pkts_acked(&mut self.tcb, segs, rtt);
                self.cca.increase_window(&mut self.tcb, segs);
            }
            CongState::Disorder => {
                if segs >= self.dup_acks {
                    self.cca
                        .pkts_acked(&mut self.tcb, segs - self.dup_acks, rtt);
                }
                self.set_state(CongState::Open);
                self.dup_acks = 0;
                self.cca.increase_window(&mut self.tcb, segs);
            }
            CongState::Recovery => {
                if self.tcb.last_acked_seq < self.recover
                    && self.cca.recovery_policy() != RecoveryPolicy::Reno
                {
                    self.cca.pkts_acked(&mut self.tcb, 1, rtt);
                } else {
                    self.full_ack_in_recovery(segs, rtt);
                }
            }
            CongState::Loss => {
                self.cca.pkts_acked(&mut self.tcb, segs, rtt);
                if self.tcb.last_acked_seq >= self.recover {
                    self.set_state(CongState::Open);
                    self.dup_acks = 0;
                }
                self.cca.increase_window(&mut self.tcb, segs);
            }
        }
    }

    fn full_ack_in_recovery(&mut self, segs: u32, rtt: Time) {
        self.cca.pkts_acked(&mut self.tcb, segs, rtt);
        self.cca.cwnd_event(&mut self.tcb, CaEvent::CompleteCwr);
        self.set_state(CongState::Open);
        self.dup_acks = 0;
        self.tcb.cwnd = self.tcb.ssthresh;
        self.cca.increase_window(&mut self.tcb, segs);
    }

    /// `fullack`: the ACK that brings lastAcked to `recover`; returns the segments it covers,
    /// rounded up and at least one (the vectors' `segs_acked` column:
    /// `max(1, ceil((recover - lastAcked) / MSS))`); lastAcked advances by that many segments.
    fn full_ack(&mut self, rtt: Time) -> u32 {
        let mss = self.tcb.mss as u64;
        let segs = self
            .recover
            .saturating_sub(self.tcb.last_acked_seq)
            .div_ceil(mss)
            .max(1) as u32;
        if self.tcb.cong_state != CongState::Recovery {
            self.ack(segs, rtt);
            return segs;
        }
        self.rtt_sample(rtt);
        self.tcb.last_acked_seq += segs as u64 * mss;
        self.full_ack_in_recovery(segs, rtt);
        segs
    }

    fn dup_ack(&mut self) {
        let srtt = self.tcb.srtt.unwrap_or(Time::ZERO);
        match self.tcb.cong_state {
            CongState::Open | CongState::Cwr => {
                self.set_state(CongState::Disorder);
                self.dup_acks = 1;
            }
            CongState::Disorder => {
                self.dup_acks += 1;
                if self.dup_acks == 3 && self.cca.recovery_policy() == RecoveryPolicy::Tahoe {
                    // Fast retransmit without fast recovery: the timeout steps, at once.
                    self.rto();
                } else if self.dup_acks == 3 {
                    self.set_state(CongState::Recovery);
                    self.recover = self.tcb.high_tx_mark;
                    let flight = self.tcb.cwnd;
                    self.tcb.ssthresh = self.cca.ssthresh(&self.tcb, flight);
                    self.tcb.cwnd = self.tcb.ssthresh;
                }
            }
            CongState::Recovery | CongState::Loss => {}
        }
        if self.tcb.cong_state != CongState::Loss {
            self.cca.pkts_acked(&mut self.tcb, 1, srtt);
        }
    }

    fn rto(&mut self) {
        self.recover = self.tcb.high_tx_mark;
        // ns-3 skips the ssthresh update when already in Loss with the head retransmitted,
        // which a second timeout in a row always is.
        if self.tcb.cong_state != CongState::Loss {
            let flight = self.tcb.cwnd;
            self.tcb.ssthresh = self.cca.ssthresh(&self.tcb, flight);
        }
        self.cca.cwnd_event(&mut self.tcb, CaEvent::Loss);
        self.set_state(CongState::Loss);
        self.dup_acks = 0;
        self.tcb.cwnd = self.tcb.mss;
    }
}

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

/// Parse a replay file.
pub fn parse(input: &str) -> Result<ReplayFile, ReplayError> {
    Ok(serde_json::from_str(input)?)
}

/// Replay a file given as JSON text and return ccsim's file as JSON text.
pub fn replay_str(input: &str) -> Result<String, ReplayError> {
    let ours = replay_file(&parse(input)?)?;
    Ok(serde_json::to_string(&ours)?)
}

/// The first step where ccsim and the reference disagree.
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    pub index: usize,
    pub reference: Step,
    pub ours: Step,
}

/// Agreement of one vector.
#[derive(Clone, Debug, PartialEq)]
pub struct VectorReport {
    pub algorithm: String,
    pub scenario: String,
    /// Steps in the reference vector.
    pub steps_total: usize,
    /// Steps whose cwnd, ssthresh and state all equal the reference.
    pub steps_equal: usize,
    /// `None` when every step agrees.
    pub first_mismatch: Option<Mismatch>,
    /// True when `ours` has no vector for this (algorithm, scenario).
    pub missing: bool,
}

/// Result of [`compare`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    pub vectors: Vec<VectorReport>,
}

impl Report {
    /// Every step of every vector agrees.
    pub fn all_equal(&self) -> bool {
        self.vectors
            .iter()
            .all(|v| v.first_mismatch.is_none() && !v.missing)
    }

    /// (steps equal, steps total) per algorithm, summed over scenarios.
    pub fn by_algorithm(&self) -> BTreeMap<String, (usize, usize)> {
        let mut m = BTreeMap::new();
        for v in &self.vectors {
            let e = m.entry(v.algorithm.clone()).or_insert((0, 0));
            e.0 += v.steps_equal;
            e.1 += v.steps_total;
        }
        m
    }
}

fn same_outcome(a: &Step, b: &Step) -> bool {
    a.cwnd_bytes == b.cwnd_bytes
        && a.ssthresh_bytes == b.ssthresh_bytes
        && a.state_after == b.state_after
}

/// Count, per vector, the steps where `ours` matches `reference` (cwnd, ssthresh and state),
/// and locate the first mismatch. Vectors are matched by (algorithm, scenario).
pub fn compare(reference: &ReplayFile, ours: &ReplayFile) -> Report {
    let mut report = Report::default();
    for r in &reference.vectors {
        let o = ours
            .vectors
            .iter()
            .find(|o| o.algorithm == r.algorithm && o.scenario == r.scenario);
        let mut vr = VectorReport {
            algorithm: r.algorithm.clone(),
            scenario: r.scenario.clone(),
            steps_total: r.steps.len(),
            steps_equal: 0,
            first_mismatch: None,
            missing: o.is_none(),
        };
        if let Some(o) = o {
            for (i, rs) in r.steps.iter().enumerate() {
                match o.steps.get(i) {
                    Some(os) if same_outcome(rs, os) => vr.steps_equal += 1,
                    Some(os) => {
                        if vr.first_mismatch.is_none() {
                            vr.first_mismatch = Some(Mismatch {
                                index: i,
                                reference: rs.clone(),
                                ours: os.clone(),
                            });
                        }
                    }
                    None => {
                        if vr.first_mismatch.is_none() {
                            vr.missing = true;
                        }
                    }
                }
            }
        }
        report.vectors.push(vr);
    }
    report
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (alg, (eq, total)) in self.by_algorithm() {
            writeln!(f, "{alg:<16} {eq:>7} / {total:<7} steps equal")?;
        }
        for v in &self.vectors {
            if v.missing {
                writeln!(f, "  {} {}: missing or truncated", v.algorithm, v.scenario)?;
            }
            if let Some(m) = &v.first_mismatch {
                writeln!(
                    f,
                    "  {} {}: first mismatch at step {} (t={}, {} segs={} rtt={}ms): \
                     ns-3 cwnd={} ssthresh={} state={}, ccsim cwnd={} ssthresh={} state={}",
                    v.algorithm,
                    v.scenario,
                    m.index,
                    m.reference.t_s,
                    m.reference.event,
                    m.reference.segs_acked,
                    m.reference.rtt_ms,
                    m.reference.cwnd_bytes,
                    m.reference.ssthresh_bytes,
                    m.reference.state_after,
                    m.ours.cwnd_bytes,
                    m.ours.ssthresh_bytes,
                    m.ours.state_after
                )?;
            }
        }
        Ok(())
    }
}

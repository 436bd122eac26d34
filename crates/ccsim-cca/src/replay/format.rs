//! The replay file format (`cca-replay-format.md`): vectors of steps, and the errors of a
//! replay.

use crate::CcaError;
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

/// Connection parameters of a vector; any further keys are algorithm tunables for
/// [`crate::build`].
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

/// Parse a replay file.
pub fn parse(input: &str) -> Result<ReplayFile, ReplayError> {
    Ok(serde_json::from_str(input)?)
}

//! ccsim-cca: congestion-control algorithms behind one trait, [`CongestionOps`], whose hooks
//! are those of ns-3.44 `TcpCongestionOps` (`src/internet/model/tcp-congestion-ops.h`) and
//! Linux `struct tcp_congestion_ops` (`include/net/tcp.h`), so a researcher maps them at once.
//!
//! The algorithm reads and writes the shared socket state [`TcpState`] (the ns-3 `TcpSocketState`
//! "tcb"), which carries the simulated clock `now` explicitly: no algorithm reads a global clock.

pub mod bic;
pub mod cubic;
pub mod highspeed;
pub mod htcp;
pub mod hybla;
pub mod illinois;
pub mod linux_reno;
pub mod newreno;
pub mod ns3num;
pub mod params;
pub mod replay;
pub mod scalable;
pub mod state;
pub mod vegas;
pub mod westwood_plus;
pub mod yeah;

pub use params::{ParamSpec, Tunables};
pub use state::{CaEvent, CongState, RateConnection, RateSample, TcpState};

use ccsim_core::Time;
use serde_json::{Map, Value};
use std::fmt;

/// Every algorithm the factory builds: (short name, ns-3 TypeId name).
const ALGORITHMS: &[(&str, &str)] = &[
    ("newreno", "TcpNewReno"),
    ("linuxreno", "TcpLinuxReno"),
    ("cubic", "TcpCubic"),
    ("bic", "TcpBic"),
    ("scalable", "TcpScalable"),
    ("highspeed", "TcpHighSpeed"),
    ("hybla", "TcpHybla"),
    ("htcp", "TcpHtcp"),
    ("illinois", "TcpIllinois"),
    ("vegas", "TcpVegas"),
    ("westwoodplus", "TcpWestwoodPlus"),
    ("yeah", "TcpYeah"),
];

/// The algorithms [`build`] knows: (lowercase short name, ns-3 TypeId name).
pub fn algorithm_names() -> &'static [(&'static str, &'static str)] {
    ALGORITHMS
}

/// The tunables of an algorithm (short name or TypeId), for help texts and UIs.
pub fn algorithm_params(name: &str) -> Result<&'static [ParamSpec], CcaError> {
    Ok(match short_name(name)? {
        "newreno" => newreno::NewRenoConfig::PARAMS,
        "linuxreno" => linux_reno::LinuxRenoConfig::PARAMS,
        "cubic" => cubic::CubicConfig::PARAMS,
        "bic" => bic::BicConfig::PARAMS,
        "scalable" => scalable::ScalableConfig::PARAMS,
        "highspeed" => highspeed::HighSpeedConfig::PARAMS,
        "hybla" => hybla::HyblaConfig::PARAMS,
        "htcp" => htcp::HtcpConfig::PARAMS,
        "illinois" => illinois::IllinoisConfig::PARAMS,
        "vegas" => vegas::VegasConfig::PARAMS,
        "westwoodplus" => westwood_plus::WestwoodPlusConfig::PARAMS,
        "yeah" => yeah::YeahConfig::PARAMS,
        other => unreachable!("short_name returned {other}"),
    })
}

/// Resolve a short name, a TypeId (`"TcpCubic"`) or a full TypeId (`"ns3::TcpCubic"`).
fn short_name(name: &str) -> Result<&'static str, CcaError> {
    let bare = name.strip_prefix("ns3::").unwrap_or(name);
    ALGORITHMS
        .iter()
        .find(|(short, type_id)| *type_id == bare || short.eq_ignore_ascii_case(bare))
        .map(|(short, _)| *short)
        .ok_or_else(|| CcaError::UnknownAlgorithm {
            name: name.to_string(),
        })
}

/// Build a congestion-control algorithm from its ns-3 TypeId name (`"TcpCubic"`, also
/// `"ns3::TcpCubic"`) or short name (`"cubic"`), with tunables from `params` (snake_case ns-3
/// attribute names; missing ones take the ns-3.44 defaults).
pub fn build(name: &str, params: &Map<String, Value>) -> Result<Box<dyn CongestionOps>, CcaError> {
    Ok(match short_name(name)? {
        "newreno" => Box::new(newreno::NewReno::new(Tunables::from_params(params)?)),
        "linuxreno" => Box::new(linux_reno::LinuxReno::new(Tunables::from_params(params)?)),
        "cubic" => Box::new(cubic::Cubic::new(Tunables::from_params(params)?)),
        "bic" => Box::new(bic::Bic::new(Tunables::from_params(params)?)),
        "scalable" => Box::new(scalable::Scalable::new(Tunables::from_params(params)?)),
        "highspeed" => Box::new(highspeed::HighSpeed::new(Tunables::from_params(params)?)),
        "hybla" => Box::new(hybla::Hybla::new(Tunables::from_params(params)?)),
        "htcp" => Box::new(htcp::Htcp::new(Tunables::from_params(params)?)),
        "illinois" => Box::new(illinois::Illinois::new(Tunables::from_params(params)?)),
        "vegas" => Box::new(vegas::Vegas::new(Tunables::from_params(params)?)),
        "westwoodplus" => Box::new(westwood_plus::WestwoodPlus::new(Tunables::from_params(
            params,
        )?)),
        "yeah" => Box::new(yeah::Yeah::new(Tunables::from_params(params)?)),
        other => unreachable!("short_name returned {other}"),
    })
}

/// Why [`build`] refused: an unknown algorithm or parameter, or a bad value.
#[derive(Clone, Debug, PartialEq)]
pub enum CcaError {
    UnknownAlgorithm {
        name: String,
    },
    UnknownParameter {
        algorithm: &'static str,
        parameter: String,
        allowed: Vec<&'static str>,
    },
    BadValue {
        algorithm: &'static str,
        parameter: String,
        expected: String,
        got: String,
    },
}

impl fmt::Display for CcaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CcaError::UnknownAlgorithm { name } => {
                let allowed: Vec<String> = ALGORITHMS
                    .iter()
                    .map(|(short, type_id)| format!("{short} ({type_id})"))
                    .collect();
                write!(
                    f,
                    "unknown congestion-control algorithm \"{name}\"; allowed: {}",
                    allowed.join(", ")
                )
            }
            CcaError::UnknownParameter {
                algorithm,
                parameter,
                allowed,
            } => {
                let allowed = if allowed.is_empty() {
                    "none (this algorithm has no tunables)".to_string()
                } else {
                    allowed.join(", ")
                };
                write!(
                    f,
                    "unknown parameter \"{parameter}\" for {algorithm}; allowed: {allowed}"
                )
            }
            CcaError::BadValue {
                algorithm,
                parameter,
                expected,
                got,
            } => write!(
                f,
                "bad value {got} for parameter \"{parameter}\" of {algorithm}: expected {expected}"
            ),
        }
    }
}

impl std::error::Error for CcaError {}

/// The congestion-control hooks. Required: [`name`](CongestionOps::name),
/// [`ssthresh`](CongestionOps::ssthresh), [`increase_window`](CongestionOps::increase_window).
/// Everything else is optional with ns-3's default behaviour (do nothing).
pub trait CongestionOps: Send {
    /// ns-3 TypeId name, e.g. `"TcpCubic"`.
    fn name(&self) -> &'static str;

    /// ns-3 `Init(tcb)`: called once when the connection is set up.
    fn init(&mut self, _tcb: &mut TcpState) {}

    /// ns-3 `GetSsThresh(tcb, bytesInFlight)` / Linux `ssthresh`: the slow-start threshold
    /// to use after a loss event. Returns bytes.
    fn ssthresh(&mut self, tcb: &TcpState, bytes_in_flight: u32) -> u32;

    /// ns-3 `IncreaseWindow(tcb, segmentsAcked)` / Linux `cong_avoid`.
    fn increase_window(&mut self, tcb: &mut TcpState, segments_acked: u32);

    /// ns-3 `PktsAcked(tcb, segmentsAcked, rtt)` / Linux `pkts_acked`. ns-3.44 passes the
    /// smoothed RTT here (see `TcpSocketBase::ProcessAck`); `tcb.last_rtt` holds the raw sample.
    fn pkts_acked(&mut self, _tcb: &mut TcpState, _segments_acked: u32, _rtt: Time) {}

    /// ns-3 `CongestionStateSet` / Linux `set_state`. Called before `tcb.cong_state` changes.
    fn congestion_state_set(&mut self, _tcb: &mut TcpState, _new_state: CongState) {}

    /// ns-3 `CwndEvent` / Linux `cwnd_event`.
    fn cwnd_event(&mut self, _tcb: &mut TcpState, _event: CaEvent) {}

    /// ns-3 `HasCongControl`: when true, the socket calls [`cong_control`](CongestionOps::cong_control)
    /// on every ACK instead of `pkts_acked` + `increase_window` (BBR).
    fn has_cong_control(&self) -> bool {
        false
    }

    /// ns-3 `CongControl(tcb, rc, rs)` / Linux `cong_control`: full control of cwnd and pacing.
    fn cong_control(&mut self, _tcb: &mut TcpState, _rc: &RateConnection, _rs: &RateSample) {}

    /// Linux `undo_cwnd` (ns-3 has no such hook; ccsim never calls it in ns-3 mode).
    fn undo_cwnd(&mut self, tcb: &mut TcpState) -> u32 {
        tcb.cwnd
    }

    /// Algorithms that keep their own timers (ns-3 Westwood+ bandwidth sampling) report the
    /// next one here; the owner calls [`on_timer`](CongestionOps::on_timer) at that time.
    fn next_timer(&self) -> Option<Time> {
        None
    }

    /// Runs the algorithm's own timer (see [`next_timer`](CongestionOps::next_timer)).
    fn on_timer(&mut self, _tcb: &mut TcpState) {}
}

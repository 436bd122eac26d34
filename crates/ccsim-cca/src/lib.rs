//! ccsim-cca: congestion-control algorithms behind one trait, [`CongestionOps`], whose hooks
//! are those of ns-3.44 `TcpCongestionOps` (`src/internet/model/tcp-congestion-ops.h`) and
//! Linux `struct tcp_congestion_ops` (`include/net/tcp.h`), so a researcher maps them at once.
//!
//! The algorithm reads and writes the shared socket state [`TcpState`] (the ns-3 `TcpSocketState`
//! "tcb"), which carries the simulated clock `now` explicitly: no algorithm reads a global clock.
//!
//! Twelve algorithms are byte-exact ports of ns-3.44 ([`ns3_vector_algorithms`]); Tahoe, Reno,
//! Westwood, SIAD, BBR and TCP Wave follow the sources named in their modules. Those that need
//! more than ns-3's hooks use [`CongestionOps::recovery_policy`] (Tahoe, Reno) or the burst-mode
//! hooks (Wave, see [`wave`]).

pub mod bbr;
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
pub mod reno;
pub mod replay;
pub mod scalable;
pub mod siad;
pub mod state;
pub mod tahoe;
pub mod vegas;
pub mod wave;
pub mod westwood;
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
    ("tahoe", "TcpTahoe"),
    ("reno", "TcpReno"),
    ("westwood", "TcpWestwood"),
    ("siad", "TcpSiad"),
    ("bbr", "TcpBbr"),
    ("wave", "TcpWave"),
];

/// The algorithms covered by the ns-3.44 unit-level vectors (`shared/reference/ns3-cca-vectors`),
/// as TypeId names. The others have no ns-3.44 reference: TcpTahoe and TcpReno existed in ns-3
/// up to 3.24 (as `TcpSocketBase` subclasses), TcpWestwood up to 3.37, TcpSiad and TcpWave are
/// out-of-tree, and TcpBbr needs rate samples, which the unit-level replay does not model.
const NS3_44_VECTOR_ALGORITHMS: &[&str] = &[
    "TcpNewReno",
    "TcpLinuxReno",
    "TcpCubic",
    "TcpBic",
    "TcpScalable",
    "TcpHighSpeed",
    "TcpHybla",
    "TcpHtcp",
    "TcpIllinois",
    "TcpVegas",
    "TcpWestwoodPlus",
    "TcpYeah",
];

/// The algorithms [`build`] knows: (lowercase short name, ns-3 TypeId name).
pub fn algorithm_names() -> &'static [(&'static str, &'static str)] {
    ALGORITHMS
}

/// TypeId names of the algorithms the ns-3.44 replay vectors cover (a subset of
/// [`algorithm_names`]).
pub fn ns3_vector_algorithms() -> &'static [&'static str] {
    NS3_44_VECTOR_ALGORITHMS
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
        "tahoe" => tahoe::TahoeConfig::PARAMS,
        "reno" => reno::RenoConfig::PARAMS,
        "westwood" => westwood::WestwoodConfig::PARAMS,
        "siad" => siad::SiadConfig::PARAMS,
        "bbr" => bbr::BbrConfig::PARAMS,
        "wave" => wave::WaveConfig::PARAMS,
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
        "tahoe" => Box::new(tahoe::Tahoe::new(Tunables::from_params(params)?)),
        "reno" => Box::new(reno::Reno::new(Tunables::from_params(params)?)),
        "westwood" => Box::new(westwood::Westwood::new(Tunables::from_params(params)?)),
        "siad" => Box::new(siad::Siad::new(Tunables::from_params(params)?)),
        "bbr" => Box::new(bbr::Bbr::new(Tunables::from_params(params)?)),
        "wave" => Box::new(wave::Wave::new(Tunables::from_params(params)?)),
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
/// Everything else is optional with ns-3's default behaviour (do nothing). The last five hooks
/// are ccsim additions for algorithms ns-3.44 lacks: [`recovery_policy`](CongestionOps::recovery_policy)
/// (Tahoe, Reno) and the burst-mode hooks (TCP Wave); their defaults leave every ns-3 algorithm
/// unchanged.
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
    /// on every ACK instead of `pkts_acked` + `increase_window` (BBR, Wave), and its recovery
    /// algorithm (PRR, classic) leaves cwnd to the algorithm (see [`bbr`] for the sender's duties).
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

    /// How the sender runs loss recovery with this algorithm; see [`RecoveryPolicy`] for what
    /// the sender must do in each case. Default: [`RecoveryPolicy::NewReno`], what ns-3.44's
    /// `TcpSocketBase` does for every algorithm (so every ns-3 algorithm keeps it).
    fn recovery_policy(&self) -> RecoveryPolicy {
        RecoveryPolicy::NewReno
    }

    /// Burst mode (TCP Wave): the most segments the sender may transmit per burst, i.e. per
    /// expiry of the burst timer (Linux hook `get_segs_per_round` of Patriciello's TCP Wave
    /// patches). `None` (default): not a burst-based algorithm. The protocol the sender must
    /// follow is in the [`wave`] module documentation.
    fn send_quantum(&self) -> Option<u32> {
        None
    }

    /// Burst mode: the interval to the next burst, TxTime (Linux hook `get_pacing_time`).
    /// `Some` switches the sender to burst mode; read it again after every hook call, since
    /// ACKs change it. `None` (default): window/ACK-clocked transmission.
    fn burst_interval(&self) -> Option<Time> {
        None
    }

    /// Burst mode: the burst timer expired; the algorithm opens the window for the next burst
    /// (Linux hook `pacing_timer_expired`). Called before the sender transmits the burst.
    fn on_burst_timer(&mut self, _tcb: &mut TcpState) {}

    /// Burst mode: the sender transmitted `segments` segments (new data and retransmissions)
    /// in the transmission round that followed a burst-timer expiry or the first
    /// transmission (Linux hook `segments_sent`). Called once per round, also with 0.
    fn on_burst_sent(&mut self, _tcb: &mut TcpState, _segments: u32) {}
}

/// Loss-recovery behaviour an algorithm asks of the sender ([`CongestionOps::recovery_policy`]).
///
/// ns-3.44 has one recovery procedure for every algorithm (RFC 6675 with SACK, RFC 6582 NewReno
/// without). The classic variants that seed 003 compares against (ns-3.23 `TcpTahoe` and
/// `TcpReno`, then `TcpSocketBase` subclasses) differ from it in the sender, not in a window
/// rule, so the sender has to be told.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RecoveryPolicy {
    /// RFC 6582 NewReno / RFC 6675 SACK recovery, as ns-3.44 `TcpSocketBase` (what ccsim's
    /// sender does today): recovery lasts until `recover` (the highest sequence sent when it
    /// began) is acknowledged; a partial ACK retransmits the next hole and keeps the state; a new
    /// recovery may start only once `snd_una ≥ recover` (RFC 6582 §3.2 step 2).
    NewReno,
    /// RFC 5681 §3.2 Reno fast recovery *without* RFC 6582 (ns-3.23 `TcpReno`). Entering fast
    /// recovery is unchanged (`ssthresh = cca.ssthresh(tcb, bytes_in_flight)`,
    /// `congestion_state_set(Recovery)`, the recovery algorithm's entry, retransmit the head;
    /// RFC 5681 steps 2–4). Two differences:
    /// 1. The **first ACK that advances `snd_una` ends recovery, partial or not** (RFC 5681 §3.2
    ///    step 6): handle it exactly like the full ACK — `pkts_acked`, `cwnd_event(CompleteCwr)`,
    ///    `congestion_state_set(Open)`, the recovery algorithm's exit (`cwnd = ssthresh`,
    ///    "deflate"), `increase_window` — with no partial-ACK retransmission of the next hole and
    ///    no RTO re-arm special case. Holes left behind are repaired by a new fast retransmit
    ///    (another `dupack_threshold` duplicate ACKs) or by the retransmission timer.
    /// 2. **No `recover` guard**: that new fast retransmit may start even while
    ///    `snd_una < recover` (RFC 5681 has no such variable), halving ssthresh again.
    ///
    /// ns-3.23 `TcpReno` had no SACK; with SACK on, ccsim's sender should still apply rule 1 on
    /// cumulative ACKs (SACK blocks only feed the scoreboard).
    Reno,
    /// 4.3BSD Tahoe: fast retransmit *without* fast recovery (ns-3.23 `TcpTahoe::DupAck`:
    /// "fast retransmit in Tahoe means triggering RTO earlier", after Fall & Floyd 1996 §1).
    /// On the duplicate ACK that would start fast recovery (`dupack_threshold` dupACKs, or
    /// RFC 6675 `IsLost(head)` with SACK) the sender does **not** enter Recovery; it runs its
    /// retransmission-timeout path at once, minus the timer backoff:
    /// `recover = high_tx_mark`; `tcb.ssthresh = cca.ssthresh(tcb, bytes_in_flight)`;
    /// `cwnd_event(Loss)`; `congestion_state_set(Loss)` and state Loss; `cwnd = 1·MSS`;
    /// go-back-N (every outstanding segment marked lost, retransmitted from `snd_una` as the
    /// window reopens; SACKed ones skipped); retransmit the head now; restart the RTO timer with
    /// its current value (no doubling); reset the dupACK count. From then on the normal Loss
    /// state applies: slow start per new ACK (`pkts_acked` + `increase_window`), back to Open
    /// once `snd_una ≥ recover`; duplicate ACKs in Loss do nothing.
    Tahoe,
}

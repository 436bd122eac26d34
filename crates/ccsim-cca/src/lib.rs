//! ccsim-cca: congestion-control algorithms behind one trait, [`CongestionOps`], whose hooks
//! are those of ns-3.44 `TcpCongestionOps` (`src/internet/model/tcp-congestion-ops.h`) and
//! Linux `struct tcp_congestion_ops` (`include/net/tcp.h`), so a researcher maps them at once.
//!
//! The algorithm reads and writes the shared socket state [`TcpState`] (the ns-3 `TcpSocketState`
//! "tcb"), which carries the simulated clock `now` explicitly: no algorithm reads a global clock.
//!
//! Twelve algorithms are byte-exact ports of ns-3.44 ([`ns3_vector_algorithms`]); Tahoe, Reno,
//! Westwood, SIAD, BBR and TCP Wave follow the sources named in their modules. What an
//! algorithm needs beyond ns-3's hooks is a capability the factory returns with it in a
//! [`Controller`]: a [`RecoveryPolicy`] (Tahoe, Reno), full control of the window from rate
//! samples (BBR, Wave) and burst mode ([`BurstOps`], Wave).
//! Shared mechanisms live in their own modules: [`hystart`] (CUBIC), [`windowed_filter`] (BBR).

pub mod bbr;
pub mod bic;
pub mod cubic;
pub mod highspeed;
pub mod htcp;
pub mod hybla;
pub mod hystart;
pub mod hystart_linux;
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
pub mod windowed_filter;
pub mod yeah;

pub use params::{Accepts, ParamSpec, ParamValue, Tunables};
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

/// The algorithms covered by the ns-3.44 unit-level vectors (`validation/golden/ns3/cca-vectors`),
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
/// attribute names; missing ones take the ns-3.44 defaults). The [`Controller`] carries the
/// algorithm's capabilities: its recovery policy, full control (BBR, Wave) and burst mode (Wave).
pub fn build(name: &str, params: &Map<String, Value>) -> Result<Controller, CcaError> {
    use RecoveryPolicy::{NewReno, Reno, Tahoe};
    fn window<T: CongestionOps + 'static>(ops: T, recovery: RecoveryPolicy) -> Controller {
        Controller::window(Box::new(ops), recovery)
    }
    Ok(match short_name(name)? {
        "newreno" => window(
            newreno::NewReno::new(Tunables::from_params(params)?),
            NewReno,
        ),
        "linuxreno" => window(
            linux_reno::LinuxReno::new(Tunables::from_params(params)?),
            NewReno,
        ),
        "cubic" => window(cubic::Cubic::new(Tunables::from_params(params)?), NewReno),
        "bic" => window(bic::Bic::new(Tunables::from_params(params)?), NewReno),
        "scalable" => window(
            scalable::Scalable::new(Tunables::from_params(params)?),
            NewReno,
        ),
        "highspeed" => window(
            highspeed::HighSpeed::new(Tunables::from_params(params)?),
            NewReno,
        ),
        "hybla" => window(hybla::Hybla::new(Tunables::from_params(params)?), NewReno),
        "htcp" => window(htcp::Htcp::new(Tunables::from_params(params)?), NewReno),
        "illinois" => window(
            illinois::Illinois::new(Tunables::from_params(params)?),
            NewReno,
        ),
        "vegas" => window(vegas::Vegas::new(Tunables::from_params(params)?), NewReno),
        "westwoodplus" => window(
            westwood_plus::WestwoodPlus::new(Tunables::from_params(params)?),
            NewReno,
        ),
        "yeah" => window(yeah::Yeah::new(Tunables::from_params(params)?), NewReno),
        // ns-3.23 TcpTahoe / TcpReno: the difference is in the sender (see RecoveryPolicy).
        "tahoe" => window(tahoe::Tahoe::new(Tunables::from_params(params)?), Tahoe),
        "reno" => window(reno::Reno::new(Tunables::from_params(params)?), Reno),
        "westwood" => window(
            westwood::Westwood::new(Tunables::from_params(params)?),
            NewReno,
        ),
        "siad" => window(siad::Siad::new(Tunables::from_params(params)?), NewReno),
        "bbr" => window(bbr::Bbr::new(Tunables::from_params(params)?), NewReno).with_full_control(),
        "wave" => Controller::burst(
            Box::new(wave::Wave::new(Tunables::from_params(params)?)),
            NewReno,
        )
        .with_full_control(),
        other => unreachable!("short_name returned {other}"),
    })
}

/// A built algorithm with its capabilities: what the sender must do for it beyond calling the
/// [`CongestionOps`] hooks. Dereferences to the hooks.
pub struct Controller {
    ops: Ops,
    recovery: RecoveryPolicy,
    full_control: bool,
}

/// The two kinds of algorithm the sender drives.
enum Ops {
    /// Window/ACK-clocked: every ns-3 algorithm, BBR included.
    Window(Box<dyn CongestionOps>),
    /// Burst mode: a self-managed timer releases bursts (TCP Wave).
    Burst(Box<dyn BurstOps>),
}

/// What an algorithm asks of the sender, fixed when it is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capabilities {
    /// How loss recovery runs ([`RecoveryPolicy`]).
    pub recovery: RecoveryPolicy,
    /// The sender runs the burst timer and asks [`BurstOps`] (Wave).
    pub burst_mode: bool,
    /// ns-3 `HasCongControl`: the sender calls [`CongestionOps::cong_control`] with a rate
    /// sample on every ACK instead of `pkts_acked` + `increase_window`, and its recovery
    /// algorithm (PRR, classic) leaves cwnd to the algorithm (BBR, Wave).
    pub full_control: bool,
}

impl Controller {
    /// A window-based algorithm with the given recovery policy.
    pub fn window(ops: Box<dyn CongestionOps>, recovery: RecoveryPolicy) -> Self {
        Controller {
            ops: Ops::Window(ops),
            recovery,
            full_control: false,
        }
    }

    /// A burst-mode algorithm.
    pub fn burst(ops: Box<dyn BurstOps>, recovery: RecoveryPolicy) -> Self {
        Controller {
            ops: Ops::Burst(ops),
            recovery,
            full_control: false,
        }
    }

    /// The algorithm takes full control of cwnd and pacing from rate samples
    /// ([`Capabilities::full_control`], ns-3 `HasCongControl`).
    pub fn with_full_control(mut self) -> Self {
        self.full_control = true;
        self
    }

    pub fn capabilities(&self) -> Capabilities {
        Capabilities {
            recovery: self.recovery,
            burst_mode: matches!(self.ops, Ops::Burst(_)),
            full_control: self.full_control,
        }
    }

    pub fn recovery_policy(&self) -> RecoveryPolicy {
        self.recovery
    }

    /// The burst-mode hooks, for a burst-mode algorithm.
    pub fn burst_ops(&self) -> Option<&dyn BurstOps> {
        match &self.ops {
            Ops::Burst(b) => Some(&**b),
            Ops::Window(_) => None,
        }
    }

    pub fn burst_ops_mut(&mut self) -> Option<&mut dyn BurstOps> {
        match &mut self.ops {
            Ops::Burst(b) => Some(&mut **b),
            Ops::Window(_) => None,
        }
    }
}

impl std::ops::Deref for Controller {
    type Target = dyn CongestionOps;
    fn deref(&self) -> &Self::Target {
        match &self.ops {
            Ops::Window(o) => &**o,
            Ops::Burst(b) => &**b,
        }
    }
}

impl std::ops::DerefMut for Controller {
    fn deref_mut(&mut self) -> &mut Self::Target {
        match &mut self.ops {
            Ops::Window(o) => &mut **o,
            Ops::Burst(b) => &mut **b,
        }
    }
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
/// Everything else is optional with ns-3's default behaviour (do nothing). Only hooks that
/// ns-3.44 `TcpCongestionOps` or Linux `tcp_congestion_ops` have, and that the sender calls, are
/// here; what only some algorithms need is a capability ([`Controller`], [`BurstOps`]).
/// [`undo_cwnd`](CongestionOps::undo_cwnd) is called only when the sender undoes a loss
/// episode (F-RTO, the `linux` profile's `tcp.frto`); ns-3.44 has no undo.
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

    /// Linux `undo_cwnd`: the window to restore when a loss episode proves spurious
    /// (`tcp_undo_cwnd_reduction`); `prior_cwnd` is cwnd when the episode began. Default:
    /// Linux `tcp_reno_undo_cwnd`, `max(cwnd, prior_cwnd)`.
    fn undo_cwnd(&mut self, tcb: &TcpState, prior_cwnd: u32) -> u32 {
        tcb.cwnd.max(prior_cwnd)
    }

    /// ns-3 `CongControl(tcb, rc, rs)` / Linux `cong_control`: full control of cwnd and pacing.
    /// Called on every ACK, instead of `pkts_acked` + `increase_window`, for an algorithm the
    /// factory built [`with_full_control`](Controller::with_full_control) (ns-3
    /// `HasCongControl`; see [`bbr`] for the sender's duties).
    fn cong_control(&mut self, _tcb: &mut TcpState, _rc: &RateConnection, _rs: &RateSample) {}

    /// Algorithms that keep their own timers (ns-3 Westwood+ bandwidth sampling) report the
    /// next one here; the owner calls [`on_timer`](CongestionOps::on_timer) at that time.
    fn next_timer(&self) -> Option<Time> {
        None
    }

    /// Runs the algorithm's own timer (see [`next_timer`](CongestionOps::next_timer)).
    fn on_timer(&mut self, _tcb: &mut TcpState) {}
}

/// Burst mode (TCP Wave): the hooks of Patriciello's Linux `tcp_congestion_ops` additions that
/// the sender calls when the factory built the algorithm as [`Controller::burst`]. The protocol
/// the sender follows is in the [`wave`] module documentation.
pub trait BurstOps: CongestionOps {
    /// The most segments the sender may transmit per burst, i.e. per expiry of the burst timer
    /// (Linux hook `get_segs_per_round`).
    fn send_quantum(&self) -> u32;

    /// The interval to the next burst, TxTime (Linux hook `get_pacing_time`). Read it again
    /// after every hook call, since ACKs change it.
    fn burst_interval(&self) -> Time;

    /// The burst timer expired; the algorithm opens the window for the next burst (Linux hook
    /// `pacing_timer_expired`). Called before the sender transmits the burst.
    fn on_burst_timer(&mut self, tcb: &mut TcpState);

    /// The sender transmitted `segments` segments (new data and retransmissions: what used the
    /// window), of which `new_segments` were new data, in the transmission round that followed
    /// a burst-timer expiry or the first transmission (Linux hook `segments_sent`). Called once
    /// per round, also with 0. Only new data forms a burst (Linux calls the hook from
    /// `tcp_write_xmit`, which sends from the send head).
    fn on_burst_sent(&mut self, tcb: &mut TcpState, segments: u32, new_segments: u32);
}

/// Loss-recovery behaviour an algorithm asks of the sender ([`Capabilities::recovery`]).
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

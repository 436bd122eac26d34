//! The scenario file schema (TOML or JSON). Every table rejects unknown keys; see
//! `docs/scenario-reference.md` for each key, its unit and its default.

use crate::units::{Bytes, Duration, QueueSize, Rate};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Free-form name, copied into the results.
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub run: RunConfig,
    /// TCP defaults for every flow (a flow's own `tcp` table overrides them).
    #[serde(default)]
    pub tcp: TcpOptions,
    /// Template topology: senders — R1 — bottleneck — R2 — receivers.
    #[serde(default)]
    pub dumbbell: Option<Dumbbell>,
    /// Explicit topology: nodes, links and (optional) static routes.
    #[serde(default)]
    pub nodes: Vec<NodeSpec>,
    #[serde(default)]
    pub links: Vec<LinkSpec>,
    #[serde(default)]
    pub routes: Vec<RouteSpec>,
    #[serde(default)]
    pub flows: Vec<FlowSpec>,
    #[serde(default)]
    pub output: OutputConfig,
    /// Radio access network (mmWave/LTE cells, moving UEs, obstacles, handover): the
    /// `[radio]` table, see `docs/radio.md`. Kept as a table so that every key can be
    /// overridden alone; [`crate::load`] fills in every default and validates it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub radio: Option<toml::Table>,
    /// Trace-driven (Mahimahi) links, one direction each.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trace_links: Vec<crate::radio_spec::TraceLinkSpec>,
    /// LTE small cells behind a routed mesh backhaul (seed 004): see `docs/mesh.md`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mesh: Option<crate::mesh::MeshConfig>,
    /// A vertical handover between two parallel links (seed 003).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vertical_handover: Option<crate::radio_spec::VerticalHandoverSpec>,
    /// Directory that relative file paths in the scenario (traces) are read from: the
    /// scenario file's directory when it was read from a file (not part of the schema).
    #[serde(skip)]
    pub base_dir: Option<std::path::PathBuf>,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RunConfig {
    /// Simulated time to run.
    #[serde(default = "default_duration")]
    pub duration: Duration,
    /// Seed of every random stream of the run.
    #[serde(default = "default_seed")]
    pub seed: u64,
}

fn default_duration() -> Duration {
    Duration(ccsim_core::Time::from_secs(10))
}
fn default_seed() -> u64 {
    1
}

impl Default for RunConfig {
    fn default() -> Self {
        RunConfig {
            duration: default_duration(),
            seed: default_seed(),
        }
    }
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct OutputConfig {
    /// Period of the time-series probes (cwnd, RTT, goodput, queue occupancy).
    #[serde(default = "default_sample_interval")]
    pub sample_interval: Duration,
}

fn default_sample_interval() -> Duration {
    Duration(ccsim_core::Time::from_millis(10))
}

impl Default for OutputConfig {
    fn default() -> Self {
        OutputConfig {
            sample_interval: default_sample_interval(),
        }
    }
}

pub use crate::tcp_options::{Profile, Recovery, TcpOptions};

/// Calls `$m!(<args>, <every boolean tcp switch>)`: the `tcp.*` switches that map one-to-one
/// onto `TcpConfig` fields, listed once for merging (`TcpOptions::or`) and copying (build).
macro_rules! with_tcp_switches {
    ($m:ident!($($pre:tt)*)) => {
        $m!(
            $($pre)*
            pacing,
            strict_receive_window,
            window_scaling,
            ns3_prr_quirks,
            ns3_sacked_retx_in_flight,
            ns3_partial_ack_retransmit,
            nextseg_rule_1b,
            ns3_rto_always_resets_ssthresh,
            ns3_rate_sample_persists,
            ns3_33_rate_ack_elapsed,
            ns3_pacing_timer,
            ns3_retransmit_before_cong_control,
            ns3_exit_recovery_for_cong_control,
            ns3_disorder_ack_keeps_rto,
            ns3_recut_retransmissions,
            nextseg_rule_3,
            ns3_dupacks_at_recover_restart,
            frto,
            reno_sack_delivered
        )
    };
}
pub(crate) use with_tcp_switches;

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Dumbbell {
    pub bottleneck: BottleneckSpec,
    #[serde(default)]
    pub access: AccessSpec,
    /// IP MTU of every link (bytes); larger segments travel as IPv4 fragments. Default: none.
    #[serde(default)]
    pub mtu: Option<u32>,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct BottleneckSpec {
    pub rate: Rate,
    pub delay: Duration,
    /// Drop-tail capacity; `"1bdp"` = one bandwidth-delay product in full-size packets.
    #[serde(default = "default_bottleneck_queue")]
    pub queue: QueueSize,
    /// Scheduled changes of rate and/or delay (both directions), e.g. a blockage.
    #[serde(default)]
    pub changes: Vec<LinkChangeSpec>,
}

fn default_bottleneck_queue() -> QueueSize {
    QueueSize::Bdp(1.0)
}

#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct AccessSpec {
    /// Default: 10 × the bottleneck rate.
    pub rate: Option<Rate>,
    /// Default: 0.
    pub delay: Option<Duration>,
    /// Default: 100000 packets (never the bottleneck).
    pub queue: Option<QueueSize>,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct LinkChangeSpec {
    pub at: Duration,
    pub rate: Option<Rate>,
    pub delay: Option<Duration>,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct NodeSpec {
    pub name: String,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct LinkSpec {
    pub name: Option<String>,
    pub from: String,
    pub to: String,
    pub rate: Rate,
    pub delay: Duration,
    #[serde(default = "default_link_queue")]
    pub queue: QueueSize,
    /// IP MTU (bytes); larger packets leave as IPv4 fragments. Default: none.
    #[serde(default)]
    pub mtu: Option<u32>,
    /// Also create the reverse direction with the same parameters.
    #[serde(default = "default_true")]
    pub bidirectional: bool,
    #[serde(default)]
    pub changes: Vec<LinkChangeSpec>,
}

fn default_link_queue() -> QueueSize {
    QueueSize::Packets(100) // ns-3 DropTailQueue default "100p"
}
fn default_true() -> bool {
    true
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RouteSpec {
    /// Node where the entry is installed.
    pub at: String,
    /// Destination node.
    pub dst: String,
    /// Next-hop node (there must be a link at → via).
    pub via: String,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct FlowSpec {
    /// Congestion control: short name or ns-3 TypeId (see `ccsim cca list`).
    #[serde(default = "default_cca")]
    pub cca: String,
    /// Algorithm parameters (names as the ns-3 attributes, snake_case).
    #[serde(default)]
    pub cca_params: toml::Table,
    /// Identical flows to create from this entry.
    #[serde(default = "default_count")]
    pub count: u32,
    /// Sender node (explicit topologies only; the dumbbell assigns `s<i>` → `d<i>`).
    pub src: Option<String>,
    pub dst: Option<String>,
    #[serde(default)]
    pub start: Option<Duration>,
    /// Bytes to transfer (a file download); unset = unlimited bulk transfer. With `app`, the
    /// total the source writes before it stops.
    pub bytes: Option<Bytes>,
    /// A rate-limited, optionally on/off, application instead of a bulk source.
    #[serde(default)]
    pub app: Option<AppSpec>,
    /// Per-flow TCP overrides.
    #[serde(default)]
    pub tcp: TcpOptions,
}

/// A constant-bit-rate source, optionally switched on and off periodically (seed 000 Table I:
/// "4 Mb/s for 30 s then pause 2 s", "bursts of 0.8 s every 3 s").
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct AppSpec {
    /// Application write rate while on.
    pub rate: Rate,
    /// Length of an on period (default: always on).
    pub on: Option<Duration>,
    /// Length of the pause after each on period (default 0).
    pub off: Option<Duration>,
    /// Bytes per application write (default 1448).
    pub chunk: Option<Bytes>,
}

fn default_cca() -> String {
    "cubic".to_string()
}
fn default_count() -> u32 {
    1
}

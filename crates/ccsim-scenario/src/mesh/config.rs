//! The `[mesh]` scenario table: an LTE small-cell deployment behind a routed wireless mesh
//! backhaul (seed 004). See `docs/mesh.md` and `docs/scenario-reference.md` for every key.

use crate::units::{Bytes, Duration, QueueSize, Rate};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct MeshConfig {
    /// `grid` (validation/ns3/mesh/SCENARIO.md), `modena_tree` or `modena_redundant`.
    #[serde(default = "default_topology")]
    pub topology: String,
    /// Grid size (grid only).
    #[serde(default = "default_five")]
    pub rows: u32,
    #[serde(default = "default_five")]
    pub cols: u32,
    /// Distance between grid neighbours, metres.
    #[serde(default = "default_spacing")]
    pub spacing_m: f64,
    /// Routing of the mesh routers: `static`, `olsr`, `bp_per_packet`, `bp_per_flow`,
    /// `bp_per_burst`.
    #[serde(default = "default_routing")]
    pub routing: String,
    /// UEs (grid: UE k in cell k mod cells). Modena places 75 UEs itself (7 on each of the
    /// five central cells, 2 elsewhere) unless this is set.
    #[serde(default)]
    pub ues: Option<u32>,
    #[serde(default)]
    pub links: MeshLinks,
    /// How UEs reach their small cell: `link` (validation/ns3/mesh/SCENARIO.md's shared access
    /// link per cell) or `lte` (each eNodeB a cell of the radio layer: PF scheduler, RLC,
    /// HARQ, its router as gateway; `links.cell_capacity` sets its peak rate).
    #[serde(default = "default_access")]
    pub access: String,
    #[serde(default)]
    pub lte: LteKeys,
    #[serde(default)]
    pub downloads: Downloads,
    #[serde(default)]
    pub udp: UdpLoad,
    #[serde(default)]
    pub olsr: OlsrKeys,
    #[serde(default)]
    pub bp: BpKeys,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct MeshLinks {
    /// Router–router (wireless point-to-point) links.
    #[serde(default = "default_mesh_rate")]
    pub mesh_rate: Rate,
    #[serde(default = "default_mesh_delay")]
    pub mesh_delay: Duration,
    /// Queue per direction; `"1bdp"` = ⌈rate·delay / 1500 B⌉ packets (SCENARIO.md).
    #[serde(default = "default_bdp")]
    pub mesh_queue: QueueSize,
    /// Gateway (EPC) – router wired links.
    #[serde(default = "default_epc_rate")]
    pub epc_rate: Rate,
    #[serde(default = "default_epc_delay")]
    pub epc_delay: Duration,
    #[serde(default = "default_bdp")]
    pub epc_queue: QueueSize,
    /// How many routers the gateway is wired to (grid: R0, R2, R4 …; Modena: the nearest).
    #[serde(default = "default_epc_links")]
    pub epc_links: u32,
    /// Server – gateway link (the Internet side).
    #[serde(default = "default_server_rate")]
    pub server_rate: Rate,
    #[serde(default = "default_server_delay")]
    pub server_delay: Duration,
    #[serde(default = "default_bdp")]
    pub server_queue: QueueSize,
    /// The shared access link of a cell: `"paper"` (350 Mb/s, the paper's small-cell peak),
    /// `"lena"` (37 Mb/s, what ns-3 LENA gives a 20 MHz cell) or a rate (`"100Mbps"`).
    #[serde(default = "default_cell_capacity")]
    pub cell_capacity: String,
    #[serde(default = "default_cell_delay")]
    pub cell_delay: Duration,
    #[serde(default = "default_100p")]
    pub cell_queue: QueueSize,
    /// Cell – UE last hop (ideal by default).
    #[serde(default = "default_server_rate")]
    pub ue_rate: Rate,
    #[serde(default)]
    pub ue_delay: Option<Duration>,
    #[serde(default = "default_100p")]
    pub ue_queue: QueueSize,
}

/// `[mesh.lte]`: the radio cells of `access = "lte"` (docs/mesh.md, "LTE access").
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct LteKeys {
    /// UEs stand on a circle of this radius (metres) around their eNodeB, evenly spaced.
    #[serde(default = "default_ue_distance")]
    pub ue_distance_m: f64,
    /// `pf` (proportional fair, LENA's `PfFfMacScheduler`) or `rr` (round robin).
    #[serde(default = "default_scheduler")]
    pub scheduler: String,
    /// RLC transmission buffer per UE (bytes); default 100 full-size packets, the shared
    /// access link's queue of `access = "link"`.
    #[serde(default = "default_rlc_buffer")]
    pub rlc_buffer: Bytes,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Downloads {
    /// Bytes each UE downloads from the server (10 MB in the paper: 10,000,000 B).
    #[serde(default = "default_bytes")]
    pub bytes: Bytes,
    /// Congestion control of every download.
    #[serde(default = "default_cca")]
    pub cca: String,
    #[serde(default)]
    pub cca_params: toml::Table,
    /// Flow k starts at `first_start + k·start_spacing`.
    #[serde(default = "default_first_start")]
    pub first_start: Duration,
    #[serde(default = "default_start_spacing")]
    pub start_spacing: Duration,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct UdpLoad {
    /// Aggregate constant-bit-rate load over the backhaul (0 = none; the paper: 60–1200 Mb/s).
    #[serde(default = "default_zero_rate")]
    pub aggregate_rate: Rate,
    /// Number of UDP flows, each between a random pair of distinct small-cell routers; the
    /// aggregate rate is split evenly.
    #[serde(default = "default_udp_flows")]
    pub flows: u32,
    /// IP bytes per datagram.
    #[serde(default = "default_udp_packet")]
    pub packet_bytes: u32,
    #[serde(default = "default_first_start")]
    pub start: Duration,
    /// Default: until the end of the run.
    #[serde(default)]
    pub stop: Option<Duration>,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct OlsrKeys {
    #[serde(default = "default_hello")]
    pub hello_interval: Duration,
    #[serde(default = "default_tc")]
    pub tc_interval: Duration,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct BpKeys {
    /// Per-flow entries expire after this long unused (the authors' code: 10 s).
    #[serde(default = "default_idle")]
    pub flow_idle_timeout: Duration,
    /// Per-burst: a flow's next hop is chosen again after an idle gap this long …
    #[serde(default = "default_burst_gap")]
    pub burst_gap: Duration,
    /// … or when the decision is this old.
    #[serde(default = "default_burst_interval")]
    pub burst_interval: Duration,
}

macro_rules! defaults {
    ($($name:ident: $t:ty = $e:expr;)*) => { $(fn $name() -> $t { $e })* };
}
defaults! {
    default_topology: String = "grid".into();
    default_five: u32 = 5;
    default_spacing: f64 = 200.0;
    default_routing: String = "olsr".into();
    default_mesh_rate: Rate = Rate(500_000_000);
    default_mesh_delay: Duration = Duration(ccsim_core::Time::from_millis(4));
    default_bdp: QueueSize = QueueSize::Bdp(1.0);
    default_epc_rate: Rate = Rate(1_000_000_000);
    default_epc_delay: Duration = Duration(ccsim_core::Time::from_micros(500));
    default_epc_links: u32 = 3;
    default_server_rate: Rate = Rate(10_000_000_000);
    default_server_delay: Duration = Duration(ccsim_core::Time::from_millis(5));
    default_cell_capacity: String = "paper".into();
    default_cell_delay: Duration = Duration(ccsim_core::Time::from_millis(1));
    default_100p: QueueSize = QueueSize::Packets(100);
    default_bytes: Bytes = Bytes(10_000_000);
    default_cca: String = "cubic".into();
    default_first_start: Duration = Duration(ccsim_core::Time::from_secs(1));
    default_start_spacing: Duration = Duration(ccsim_core::Time::from_millis(10));
    default_zero_rate: Rate = Rate(0);
    default_udp_flows: u32 = 25;
    default_udp_packet: u32 = 1500;
    default_access: String = "link".into();
    default_ue_distance: f64 = 10.0;
    default_scheduler: String = "pf".into();
    default_rlc_buffer: Bytes = Bytes(150_000);
    default_hello: Duration = Duration(ccsim_core::Time::from_secs(2));
    default_tc: Duration = Duration(ccsim_core::Time::from_secs(5));
    default_idle: Duration = Duration(ccsim_core::Time::from_secs(10));
    default_burst_gap: Duration = Duration(ccsim_core::Time::from_millis(50));
    default_burst_interval: Duration = Duration(ccsim_core::Time::from_secs(1));
}

impl Default for MeshLinks {
    fn default() -> Self {
        toml::from_str("").expect("defaults")
    }
}
impl Default for LteKeys {
    fn default() -> Self {
        toml::from_str("").expect("defaults")
    }
}
impl Default for Downloads {
    fn default() -> Self {
        toml::from_str("").expect("defaults")
    }
}
impl Default for UdpLoad {
    fn default() -> Self {
        toml::from_str("").expect("defaults")
    }
}
impl Default for OlsrKeys {
    fn default() -> Self {
        toml::from_str("").expect("defaults")
    }
}
impl Default for BpKeys {
    fn default() -> Self {
        toml::from_str("").expect("defaults")
    }
}

//! Configuration of the radio access network: technologies, sites, UEs, channel and
//! connectivity (serde, `deny_unknown_fields`, every field defaulted).

pub use super::sinr_trace::{SinrTrace, SiteSinr};
use crate::cell::CellConfig;
use crate::geometry::{Obstacle, Point3};
use crate::handover::HandoverConfig;
use crate::mobility::MobilityConfig;
use crate::pathloss::PathLossModel;
use crate::sinr::linear_to_db;
use serde::{Deserialize, Serialize};

/// Radio technology of a site.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Technology {
    #[default]
    Mmwave,
    Lte,
}

/// Everything that is common to the sites of one technology.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TechnologyConfig {
    /// Carrier frequency (Hz): 28 GHz for mmWave (ANCHORS §1.1), 2.12 GHz for LTE (band 1 DL).
    pub carrier_hz: f64,
    pub pathloss: PathLossModel,
    /// Transmit power (dBm): 30 dBm (ns3-mmwave `MmWaveEnbPhy::TxPower`, ns-3 `LteEnbPhy`).
    pub tx_power_dbm: f64,
    /// Site antenna (beamforming) gain, dB. mmWave: 10·log10(64), an 8×8 array (assumption).
    pub ap_antenna_gain_db: f64,
    /// UE antenna gain, dB. mmWave: 10·log10(16), a 4×4 array (assumption).
    pub ue_antenna_gain_db: f64,
    /// UE noise figure (dB): 5 (ns3-mmwave `NoiseFigure`), 9 for LTE (ns-3 `LteUePhy`).
    pub ue_noise_figure_db: f64,
    /// MAC/RLC of each cell.
    pub cell: CellConfig,
}

impl TechnologyConfig {
    pub fn mmwave() -> Self {
        TechnologyConfig {
            carrier_hz: 28e9,
            pathloss: PathLossModel::UmiStreetCanyon,
            tx_power_dbm: 30.0,
            ap_antenna_gain_db: linear_to_db(64.0),
            ue_antenna_gain_db: linear_to_db(16.0),
            ue_noise_figure_db: 5.0,
            cell: CellConfig::mmwave(),
        }
    }
    pub fn lte() -> Self {
        TechnologyConfig {
            carrier_hz: 2.12e9,
            pathloss: PathLossModel::OkumuraHata {
                city: crate::pathloss::CitySize::Medium,
                environment: crate::pathloss::HataEnvironment::Urban,
            },
            tx_power_dbm: 30.0,
            ap_antenna_gain_db: 0.0,
            ue_antenna_gain_db: 0.0,
            ue_noise_figure_db: 9.0,
            cell: CellConfig::lte(),
        }
    }
}

fn default_mmwave() -> TechnologyConfig {
    TechnologyConfig::mmwave()
}
fn default_lte() -> TechnologyConfig {
    TechnologyConfig::lte()
}

/// One base station (mmWave AP or LTE eNB).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SiteConfig {
    #[serde(default)]
    pub name: String,
    pub position: Point3,
    #[serde(default)]
    pub technology: Technology,
    /// Overrides the technology's transmit power (dBm).
    #[serde(default)]
    pub tx_power_dbm: Option<f64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UeConfig {
    #[serde(default)]
    pub name: String,
    pub mobility: MobilityConfig,
    /// Site to attach to at t = 0 (default: the best mmWave site, or LTE in outage with DC).
    #[serde(default)]
    pub initial_site: Option<usize>,
}

/// How interference from the other sites of the same technology is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InterferenceMode {
    /// No interference (noise-limited).
    None,
    /// Every other site transmits all the time.
    FullBuffer,
    /// Weighted by each site's busy-slot fraction over the last channel period.
    Load,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChannelConfig {
    /// Channel (position, LOS, path loss, SINR) update period (µs); 100 ms.
    #[serde(default = "default_update")]
    pub update_period_us: u64,
    /// Log-normal shadowing (TR 38.901 σ_SF, spatially correlated); off by default.
    #[serde(default)]
    pub shadowing: bool,
    /// Interference in the SINR that sets each UE's data rate.
    #[serde(default = "default_interference")]
    pub interference: InterferenceMode,
    /// Interference in the SINR that handover and dual-connectivity decisions compare
    /// (default: as `interference`). ns3-mmwave's estimate (`MmWaveEnbPhy::
    /// UpdateUeSinrEstimate`, reported every 1.6 ms to the coordinator) does not depend on the
    /// neighbours' downlink traffic, which `full_buffer` models: with load-weighted
    /// measurements a UE sees its busy serving cell interfered but an idle neighbour's link
    /// clean, and can ping-pong between loaded cells.
    #[serde(default)]
    pub measurement_interference: Option<InterferenceMode>,
    /// The SINR handover compares includes each mmWave link's small-scale fading (the cell's
    /// `fading` process, sampled at the measurement). ns3-mmwave's report table does:
    /// `MmWaveEnbPhy::UpdateUeSinrEstimate` passes each link through the same 3GPP channel as
    /// the data, redrawn every `UpdatePeriod`. Off by default: the large-scale SINR only.
    #[serde(default)]
    pub measurement_fading: bool,
    /// Attenuation (dB) of interference relative to the serving beam: the −13.3 dB first
    /// side lobe of a uniform array (assumption).
    #[serde(default = "default_suppression")]
    pub interference_suppression_db: f64,
    /// A recorded SINR of UE 0 per site in place of the geometry's ([`SinrTrace`]); none by
    /// default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sinr_trace: Option<SinrTrace>,
}

fn default_update() -> u64 {
    100_000
}
fn default_interference() -> InterferenceMode {
    InterferenceMode::Load
}
fn default_suppression() -> f64 {
    13.3
}

impl Default for ChannelConfig {
    fn default() -> Self {
        ChannelConfig {
            update_period_us: default_update(),
            shadowing: false,
            interference: default_interference(),
            measurement_interference: None,
            measurement_fading: false,
            interference_suppression_db: default_suppression(),
            sinr_trace: None,
        }
    }
}

/// How a UE uses the LTE site(s) when its mmWave links fail (ns3-mmwave `LteEnbRrc`,
/// ANCHORS §1.3; seed 001 compares single and dual connectivity).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Connectivity {
    /// mmWave only: hard handovers between mmWave cells; an outage is waited out.
    #[default]
    Standalone,
    /// The UE is attached to LTE or to mmWave, never both (`InterRatHoMode`): every change,
    /// mmWave → LTE in outage included, is a hard handover over X2 with its preparation and
    /// interruption (`MmWaveHelper::AttachIrToClosestEnb`).
    SingleConnectivity,
    /// LTE-anchored dual connectivity: mmWave ↔ LTE is a fast switch of the data path
    /// (`SendRrcConnectionSwitch`, `MmWaveHelper::AttachToClosestEnbMc`).
    DualConnectivity,
}

impl Connectivity {
    /// The UE can fall back to an LTE site.
    pub fn uses_lte(self) -> bool {
        self != Connectivity::Standalone
    }
}

/// The radio part of a scenario.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RadioConfig {
    #[serde(default = "default_mmwave")]
    pub mmwave: TechnologyConfig,
    #[serde(default = "default_lte")]
    pub lte: TechnologyConfig,
    pub sites: Vec<SiteConfig>,
    pub ues: Vec<UeConfig>,
    #[serde(default)]
    pub obstacles: Vec<Obstacle>,
    #[serde(default)]
    pub channel: ChannelConfig,
    #[serde(default)]
    pub handover: HandoverConfig,
    #[serde(default)]
    pub connectivity: Connectivity,
    /// Uplink scheduling delay in slots (`UlSchedDelay` 1).
    #[serde(default = "default_ul_delay")]
    pub uplink_sched_delay_slots: u32,
    /// What-if: uplink grants every this many µs, so that ACKs leave the UE in batches, as
    /// behind ns3-mmwave's periodic grants (0, the default: each ACK leaves on its own).
    #[serde(default)]
    pub uplink_grant_period_us: u64,
}

fn default_ul_delay() -> u32 {
    1
}

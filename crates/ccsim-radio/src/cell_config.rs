//! The MAC/RLC configuration of a cell (the `cell` table of a technology).

use crate::amc::{AmcModel, FrameConfig};
use crate::fading::FadingConfig;
use crate::link_adaptation::LinkAdaptationConfig;
use crate::rlc::{HarqConfig, HarqModel, RlcConfig, RlcMode, RlcModel};
use crate::scheduler::SchedulerConfig;
use serde::{Deserialize, Serialize};

/// MAC/RLC configuration of a cell.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CellConfig {
    /// Slot structure and resources.
    pub frame: FrameConfig,
    /// SINR → spectral efficiency.
    #[serde(default)]
    pub amc: AmcModel,
    #[serde(default)]
    pub harq: HarqConfig,
    #[serde(default)]
    pub rlc: RlcConfig,
    #[serde(default)]
    pub scheduler: SchedulerConfig,
    /// Slots between the scheduling decision and the transmission (`m_L1L2Latency` 2).
    #[serde(default = "default_sched_latency")]
    pub sched_latency_slots: u32,
    /// Small-scale fading on every link (off by default; [`crate::fading`]).
    #[serde(default)]
    pub fading: FadingConfig,
    /// MCS from a lagging CQI and BLER from the SINR a TB meets ([`crate::link_adaptation`]);
    /// absent: `amc` on the current SINR and HARQ's fixed `bler`.
    #[serde(default)]
    pub link_adaptation: Option<LinkAdaptationConfig>,
}

fn default_sched_latency() -> u32 {
    2
}

impl CellConfig {
    /// ns3-mmwave-like defaults (ANCHORS §1.1): NR µ = 2 at 200 MHz, CQI table 2, HARQ on,
    /// RLC AM with a 20 MiB buffer, round robin.
    pub fn mmwave() -> Self {
        CellConfig {
            frame: FrameConfig::mmwave_nr(),
            amc: AmcModel::CqiTable2,
            harq: HarqConfig::default(),
            rlc: RlcConfig::default(),
            scheduler: SchedulerConfig::RoundRobin,
            sched_latency_slots: default_sched_latency(),
            fading: FadingConfig::default(),
            link_adaptation: None,
        }
    }

    /// Checks the PHY parts; the error names the key (relative to the cell) and allowed values.
    pub fn validate(&self) -> Result<(), String> {
        self.fading.validate()?;
        if self.rlc.model == RlcModel::Entity && self.rlc.mode != RlcMode::Am {
            return Err(
                "rlc.model = \"entity\" needs rlc.mode = \"am\" (allowed with \"um\": \"delay\")"
                    .into(),
            );
        }
        if self.rlc.status_max_nacks > 0 && self.rlc.model != RlcModel::Entity {
            return Err(format!(
                "rlc.status_max_nacks = {} needs rlc.model = \"entity\" (the delay model sends \
                 no status reports; allowed there: 0)",
                self.rlc.status_max_nacks
            ));
        }
        let h = &self.harq;
        if h.model == HarqModel::Processes {
            if self.rlc.model != RlcModel::Entity || !h.enabled {
                return Err(
                    "harq.model = \"processes\" needs rlc.model = \"entity\" and \
                     harq.enabled = true (allowed otherwise: \"per_tb\")"
                        .into(),
                );
            }
            if !(1..=255).contains(&h.processes) || h.timeout_slots == 0 {
                return Err(format!(
                    "harq.processes must be in 1..=255 and harq.timeout_slots at least 1, \
                     got {} and {}",
                    h.processes, h.timeout_slots
                ));
            }
            if !(1..=2).contains(&h.feedback_copies) {
                return Err(format!(
                    "harq.feedback_copies must be 1 or 2, got {}",
                    h.feedback_copies
                ));
            }
        }
        if let Some(la) = &self.link_adaptation {
            la.validate()?;
        }
        Ok(())
    }

    /// LTE: 20 MHz, 1 ms TTI, CQI table 1 (= TS 36.213 Table 7.2.3-1), HARQ RTT 8 ms (LTE FDD
    /// synchronous HARQ, TS 36.213 §8), decode 1 TTI (assumption), proportional fair.
    pub fn lte() -> Self {
        CellConfig {
            frame: FrameConfig::lte(20e6),
            amc: AmcModel::CqiTable1,
            harq: HarqConfig {
                rtt_slots: 8,
                decode_latency_us: 1_000,
                ..HarqConfig::default()
            },
            rlc: RlcConfig::default(),
            scheduler: SchedulerConfig::ProportionalFair {
                time_constant_us: 100_000,
            },
            sched_latency_slots: default_sched_latency(),
            fading: FadingConfig::default(),
            link_adaptation: None,
        }
    }
}

//! A recorded handover schedule (`radio.handover.schedule`): the RAN hands over at these
//! times, to these sites, and takes no decision of its own. It replays a reference's own
//! decisions, e.g. the `enb_ho_start` events of an ns3-mmwave golden run
//! (`validation/ns3-mmwave/compare_handover.py --reference-schedule`), so that a comparison
//! per phase no longer mixes in two independent draws of the handover times. What a handover
//! then does (interruption, X2 forwarding and its losses) is still ccsim's model.

use serde::{Deserialize, Serialize};

/// One handover of the schedule.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScheduledHandover {
    /// When the handover is decided (µs from the start of the run).
    pub at_us: u64,
    /// The target site (index into `radio.sites`).
    pub site: usize,
    /// The UE (index into `radio.ues`), 0 by default.
    #[serde(default)]
    pub ue: usize,
}

/// Checks a schedule against the RAN's sites and UEs: entries in time order, every index
/// defined. The error names the entry and the allowed values.
pub fn validate(schedule: &[ScheduledHandover], sites: usize, ues: usize) -> Result<(), String> {
    for (i, h) in schedule.iter().enumerate() {
        if h.site >= sites {
            return Err(format!(
                "handover.schedule[{i}].site: no site {} (allowed: 0-{})",
                h.site,
                sites.saturating_sub(1)
            ));
        }
        if h.ue >= ues {
            return Err(format!(
                "handover.schedule[{i}].ue: no UE {} (allowed: 0-{})",
                h.ue,
                ues.saturating_sub(1)
            ));
        }
        if i > 0 && h.at_us < schedule[i - 1].at_us {
            return Err(format!(
                "handover.schedule[{i}].at_us: {} is before the entry above it ({}); entries \
                 go in time order",
                h.at_us,
                schedule[i - 1].at_us
            ));
        }
    }
    Ok(())
}

//! A recorded SINR per site (`channel.sinr_trace`): at each channel update the SINR of UE 0
//! towards a traced site, for its data and for the handover measurements, is the trace's value
//! instead of the geometry's. It replays a reference's channel, e.g. the report-table SINRs of
//! an ns3-mmwave golden run's 10 ms series (`validation/ns3-mmwave/compare_handover.py
//! --reference-channel`), so that a comparison per phase no longer mixes in two independent
//! channel draws. The trace holds what it holds: with `fading` on, the cell still adds its own
//! small-scale fading to it (a reference trace that already contains its fading wants it off).

use serde::{Deserialize, Serialize};

/// Sampled SINRs of UE 0 towards some sites.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SinrTrace {
    /// Time between samples (µs); sample k holds from k × period. Past the end the last
    /// sample holds.
    pub period_us: u64,
    /// One series per traced site; untraced sites keep the geometry's SINR.
    pub sites: Vec<SiteSinr>,
}

/// The SINR series (dB) of one site.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SiteSinr {
    /// Index into `radio.sites`.
    pub site: usize,
    pub sinr_db: Vec<f64>,
}

impl SinrTrace {
    /// The traced SINR (dB) towards `site` at time `t_us`, if the site is traced.
    pub fn at(&self, site: usize, t_us: u64) -> Option<f64> {
        let s = self.sites.iter().find(|s| s.site == site)?;
        let k = (t_us / self.period_us) as usize;
        s.sinr_db.get(k.min(s.sinr_db.len() - 1)).copied()
    }

    /// Checks the trace against the RAN's sites; the error names the key and allowed values.
    pub fn validate(&self, sites: usize) -> Result<(), String> {
        if self.period_us == 0 {
            return Err("channel.sinr_trace.period_us: must be > 0".into());
        }
        for (i, s) in self.sites.iter().enumerate() {
            if s.site >= sites {
                return Err(format!(
                    "channel.sinr_trace.sites[{i}].site: no site {} (allowed: 0-{})",
                    s.site,
                    sites.saturating_sub(1)
                ));
            }
            if s.sinr_db.is_empty() || s.sinr_db.iter().any(|v| !v.is_finite()) {
                return Err(format!(
                    "channel.sinr_trace.sites[{i}].sinr_db: needs at least one value, all finite"
                ));
            }
        }
        Ok(())
    }
}

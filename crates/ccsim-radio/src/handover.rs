//! Handover decisions and link switching.
//!
//! **Between mmWave cells** (ns3-mmwave `LteEnbRrc`, the LTE eNB coordinating dual
//! connectivity, ANCHORS §1.3): every `CrtPeriod` (1.6 ms) the UE's SINR towards every mmWave
//! cell is known. When the best cell is not the serving one and beats it by more than
//! `HoSinrDifference` (3 dB), a handover is scheduled after a time-to-trigger (TTT):
//! - `threshold`: no TTT (immediate),
//! - `fixed_ttt`: `FixedTttValue` (110 ms; seed 000 uses 200 µs),
//! - `dynamic_ttt` (default): `LteEnbRrc::ComputeTtt`, 150 ms below a 3 dB SINR difference,
//!   25 ms above 20 dB, and `150 − 125·(Δ − 3)/17` ms in between, truncated to whole ms.
//!
//! While pending, the handover is cancelled if the condition stops holding and re-scheduled
//! (with a new TTT) if another cell becomes the best. When the TTT expires and the condition
//! still holds, the handover executes. The [`TttTracker`] is evaluated at every measurement and
//! at its own deadline, so a TTT is exact rather than rounded to the measurement period.
//!
//! That is `ttt_rule = "hysteresis"` (the default). ns3-mmwave's own TTT modes apply no margin:
//! `ttt_rule = "ns3mmwave"` follows `LteEnbRrc::TttBasedHandover` ([`ns3mmwave_ttt`]).
//!
//! **Outage and dual connectivity** (seed 001): below `OutageThreshold` (−5 dB) the mmWave link
//! is in outage; with dual connectivity the UE's traffic switches to the LTE anchor at once and
//! back to the best mmWave cell when one is above the threshold again.
//!
//! **Vertical handover** (seed 003): two heterogeneous links and a handover at a given time with
//! an outage of `HT` seconds during which every packet, in both directions, is lost
//! ([`VerticalHandover`]).

use ccsim_core::Time;
use serde::{Deserialize, Serialize};

pub mod ns3mmwave_ttt;
pub mod schedule;

/// ns3-mmwave `SecondaryCellHandoverMode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TttMode {
    Threshold,
    FixedTtt,
    DynamicTtt,
}

/// When a TTT starts and stops (fixed and dynamic TTT modes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TttRule {
    /// A TTT starts when the best cell beats the serving one by more than `hysteresis_db` and
    /// is cancelled as soon as it no longer does (the module docs).
    #[default]
    Hysteresis,
    /// ns3-mmwave's `LteEnbRrc::TttBasedHandover`: any cell better than the serving one starts
    /// a TTT; only the serving cell becoming the best again cancels it ([`ns3mmwave_ttt`]).
    Ns3mmwave,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HandoverConfig {
    /// Handover trigger (`SecondaryCellHandoverMode`, default dynamic TTT).
    #[serde(default = "default_mode")]
    pub mode: TttMode,
    /// When a TTT starts and is cancelled (fixed and dynamic TTT): `hysteresis` (default) or
    /// `ns3mmwave` (the tree's rule, no margin to start).
    #[serde(default)]
    pub ttt_rule: TttRule,
    /// SINR margin (dB) the target must exceed the serving cell by (`HoSinrDifference` 3 dB).
    #[serde(default = "default_hysteresis")]
    pub hysteresis_db: f64,
    /// Fixed TTT (µs), `FixedTttValue` 110 ms.
    #[serde(default = "default_fixed_ttt")]
    pub fixed_ttt_us: u64,
    /// Dynamic TTT bounds (ms), `MinDynTttValue` 25 / `MaxDynTttValue` 150.
    #[serde(default = "default_min_dyn")]
    pub min_dyn_ttt_ms: u64,
    #[serde(default = "default_max_dyn")]
    pub max_dyn_ttt_ms: u64,
    /// SINR-difference range (dB) of the dynamic TTT, `MinDiffValue` 3 / `MaxDiffValue` 20.
    #[serde(default = "default_min_diff")]
    pub min_diff_db: f64,
    #[serde(default = "default_max_diff")]
    pub max_diff_db: f64,
    /// SINR (dB) below which a mmWave link is in outage (`OutageThreshold` −5 dB).
    #[serde(default = "default_outage")]
    pub outage_threshold_db: f64,
    /// Measurement (report table) period (µs), `CrtPeriod` 1600 µs.
    #[serde(default = "default_period")]
    pub measurement_period_us: u64,
    /// Service interruption of a hard mmWave→mmWave handover (µs). Assumption: 5 ms (RACH
    /// and RRC reconfiguration); ns3-mmwave with ideal RRC is faster, measured LTE handovers
    /// take tens of ms.
    #[serde(default = "default_interruption")]
    pub interruption_us: u64,
    /// Interruption of a dual-connectivity switch between mmWave and LTE (µs). Assumption:
    /// 1 ms (a fast switch signalled over the LTE anchor, one X2 latency).
    #[serde(default = "default_dc_switch")]
    pub dc_switch_us: u64,
    /// X2 one-way latency (µs); 1 ms in the ns3-mmwave EPC helper (`mc-twoenbs.cc`: 0.5 ms).
    #[serde(default = "default_x2")]
    pub x2_latency_us: u64,
    /// Forward the source cell's RLC buffer to the target over X2 (true), or discard it.
    /// ns3-mmwave forwards (`UeManager::ForwardRlcBuffers`): RLC AM whole SDUs, RLC UM its
    /// transmission buffer (a partly sent SDU is lost).
    #[serde(default = "default_true")]
    pub x2_forwarding: bool,
    /// With forwarding: the oldest this many bytes of what a handover moves over X2 are lost
    /// instead (whole SDUs, until the budget is spent); the rest is forwarded. 0 (default):
    /// lossless. In the ns3-mmwave handover reference (`validation/ns3-mmwave`, section 8)
    /// the first secondary-cell handover lost ~3.3 MB of a 6.6 MB backlog and TCP recovered
    /// it with 2 336 retransmissions; docs/radio.md, "Handover as ns3-mmwave produces it",
    /// has what is known of why. A measured amount, not derived: the later handovers of the
    /// same run lost ~50 kB or nothing.
    #[serde(default)]
    pub forward_loss_bytes: u64,
    /// With forwarding: at most the newest this many bytes of the backlog a handover moves
    /// (the untransmitted SDUs and those sent but not acknowledged, counted at the
    /// untransmitted SDUs' mean size) reach the target; the excess is lost from the oldest
    /// untransmitted SDUs. 0 (default): no limit. The ns3-mmwave
    /// handover reference fits ~3.3 MB at its four handovers with a backlog (6.6 / 6.4 /
    /// 6.4 MB lost ~3.3 / ~2.8 / ~2.4 MB, 2.9 MB lost ~50 kB; docs/radio.md). Applied before
    /// `forward_loss_bytes`.
    #[serde(default)]
    pub forward_limit_bytes: u64,
    /// RLC AM with forwarding: a handover at which the source holds SDUs sent but not yet
    /// acknowledged loses one SDU, the oldest the UE has not received (the head of the
    /// forwarded backlog). ns3-mmwave's `LteRlcAm::RlcPdusToRlcSdus` rebuilds the SDUs of
    /// those PDUs starting in its "loss" state (lte-rlc-am.cc l. 1743-1747), so the SDU that
    /// began in an earlier, acknowledged PDU is dropped. Traced in the reference
    /// (validation/ns3-mmwave/trace_forwarding.py): at 6 of the 8 handovers that moved a
    /// backlog exactly the oldest segment the UE lacked never arrived (at the other two the UE
    /// already had that SDU). Off by default.
    #[serde(default)]
    pub forward_loses_first_sdu: bool,
    /// Delay RLC model with forwarding: a handover discards the UE's RLC reception buffer,
    /// as ns3-mmwave's UE makes a new RLC entity at a secondary-cell handover
    /// (`LteUeRrc::DoNotifySecondaryCellHandover`, lte-ue-rrc.cc l. 2031-2038). The packets
    /// the UE had received above a hole (not yet delivered in sequence) are lost if the
    /// source had seen them acknowledged (a status report after a `t-Reordering` expiry,
    /// `rlc.reordering_us`), else forwarded ahead of the untransmitted ones; the target does
    /// not wait for the old hole. Off (default): they are delivered when the hole fills
    /// ([`crate::rlc_held`]).
    #[serde(default)]
    pub ue_rlc_reset_loses_received: bool,
    /// RLC AM with forwarding: the SDUs sent but not acknowledged go to the target in 12-bit
    /// PDCP SN order, so that across the wrap from 4095 to 0 the newer part goes first, as
    /// ns3-mmwave's `CreateRlcSduBuffer` keys them in a `std::map` (lte-rlc-am.cc l. 1720,
    /// iterated in lte-enb-rrc.cc l. 967-975). Off (default): oldest first.
    #[serde(default)]
    pub forward_in_pdcp_sn_order: bool,
    /// One RRC message (µs): 500 µs, ns-3 `LteRrcProtocolIdeal` (`RRC_IDEAL_MSG_DELAY`). Part
    /// of the stall of a handover decided because the serving link is in outage.
    #[serde(default = "default_rrc_message")]
    pub rrc_message_us: u64,
    /// A UE on LTE returns to mmWave once the best mmWave SINR is this far (dB) above the
    /// outage threshold: 2 dB, ns3-mmwave `LteEnbRrc` (`m_outageThreshold + 2`).
    #[serde(default = "default_lte_return_margin")]
    pub lte_return_margin_db: f64,
    /// Hand over at these times only, taking no decision ([`schedule`]). Empty: decide.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub schedule: Vec<schedule::ScheduledHandover>,
}

fn default_rrc_message() -> u64 {
    500
}
fn default_lte_return_margin() -> f64 {
    2.0
}

fn default_mode() -> TttMode {
    TttMode::DynamicTtt
}
fn default_hysteresis() -> f64 {
    3.0
}
fn default_fixed_ttt() -> u64 {
    110_000
}
fn default_min_dyn() -> u64 {
    25
}
fn default_max_dyn() -> u64 {
    150
}
fn default_min_diff() -> f64 {
    3.0
}
fn default_max_diff() -> f64 {
    20.0
}
fn default_outage() -> f64 {
    -5.0
}
fn default_period() -> u64 {
    1_600
}
fn default_interruption() -> u64 {
    5_000
}
fn default_dc_switch() -> u64 {
    1_000
}
fn default_x2() -> u64 {
    1_000
}
fn default_true() -> bool {
    true
}

impl Default for HandoverConfig {
    fn default() -> Self {
        HandoverConfig {
            mode: default_mode(),
            ttt_rule: TttRule::Hysteresis,
            hysteresis_db: default_hysteresis(),
            fixed_ttt_us: default_fixed_ttt(),
            min_dyn_ttt_ms: default_min_dyn(),
            max_dyn_ttt_ms: default_max_dyn(),
            min_diff_db: default_min_diff(),
            max_diff_db: default_max_diff(),
            outage_threshold_db: default_outage(),
            measurement_period_us: default_period(),
            interruption_us: default_interruption(),
            dc_switch_us: default_dc_switch(),
            x2_latency_us: default_x2(),
            x2_forwarding: true,
            forward_loss_bytes: 0,
            forward_limit_bytes: 0,
            forward_loses_first_sdu: false,
            ue_rlc_reset_loses_received: false,
            forward_in_pdcp_sn_order: false,
            rrc_message_us: default_rrc_message(),
            lte_return_margin_db: default_lte_return_margin(),
            schedule: Vec::new(),
        }
    }
}

/// `LteEnbRrc::ComputeTtt`: the dynamic TTT (whole ms) for a SINR difference `diff_db`.
pub fn dynamic_ttt(diff_db: f64, cfg: &HandoverConfig) -> Time {
    let (lo, hi) = (cfg.min_dyn_ttt_ms as f64, cfg.max_dyn_ttt_ms as f64);
    let ms = if diff_db < cfg.min_diff_db {
        hi
    } else if diff_db > cfg.max_diff_db {
        lo
    } else {
        let t = hi - (hi - lo) * (diff_db - cfg.min_diff_db) / (cfg.max_diff_db - cfg.min_diff_db);
        t.trunc() // C++ `uint8_t truncated_ttt = ttt`
    };
    Time::from_millis(ms as u64)
}

/// The TTT for a SINR difference under the configured mode.
pub fn time_to_trigger(diff_db: f64, cfg: &HandoverConfig) -> Time {
    match cfg.mode {
        TttMode::Threshold => Time::ZERO,
        TttMode::FixedTtt => Time::from_micros(cfg.fixed_ttt_us),
        TttMode::DynamicTtt => dynamic_ttt(diff_db, cfg),
    }
}

/// A handover waiting for its TTT.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PendingHandover {
    pub target: usize,
    pub since: Time,
    pub fire_at: Time,
}

/// Per-UE TTT state machine (sans-IO: feed it SINRs and `now`, it says when to hand over).
#[derive(Clone, Debug, Default)]
pub struct TttTracker {
    pending: Option<PendingHandover>,
}

impl TttTracker {
    pub fn pending(&self) -> Option<PendingHandover> {
        self.pending
    }
    /// When the tracker wants to be evaluated again (the pending TTT's expiry).
    pub fn deadline(&self) -> Option<Time> {
        self.pending.map(|p| p.fire_at)
    }
    pub fn cancel(&mut self) {
        self.pending = None;
    }

    /// Evaluates the handover condition with the current SINRs (dB) of the candidate cells
    /// (`sinr_db[i]` for cell `i`, `serving` an index into it). Returns the target when a
    /// handover must execute now.
    pub fn evaluate(
        &mut self,
        now: Time,
        serving: usize,
        sinr_db: &[f64],
        cfg: &HandoverConfig,
    ) -> Option<usize> {
        if cfg.ttt_rule == TttRule::Ns3mmwave && cfg.mode != TttMode::Threshold {
            return self.evaluate_ns3mmwave(now, serving, sinr_db, cfg);
        }
        let mut best = serving;
        for (i, &s) in sinr_db.iter().enumerate() {
            if s > sinr_db[best] {
                best = i;
            }
        }
        if best == serving {
            self.pending = None;
            return None;
        }
        let diff = sinr_db[best] - sinr_db[serving];
        if diff <= cfg.hysteresis_db {
            self.pending = None;
            return None;
        }
        match self.pending {
            Some(p) if p.target == best => {
                if now >= p.fire_at {
                    self.pending = None;
                    Some(best)
                } else {
                    None
                }
            }
            _ => {
                let ttt = time_to_trigger(diff, cfg);
                if ttt == Time::ZERO {
                    self.pending = None;
                    return Some(best);
                }
                self.pending = Some(PendingHandover {
                    target: best,
                    since: now,
                    fire_at: now + ttt,
                });
                None
            }
        }
    }
}

/// State of a vertical-handover link pair at a given time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkState {
    /// Traffic uses link `0`.
    Active(usize),
    /// Handover outage: every packet is lost until `until`.
    Outage { until: Time },
}

/// One vertical handover: at `at_us` the link goes down for `outage_us`, then `to_link` is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VerticalHandoverEvent {
    pub at_us: u64,
    pub outage_us: u64,
    pub to_link: usize,
}

/// Seed 003's vertical handover between two heterogeneous links (L1 → L2 or L2 → L1) with a
/// disconnection of HT seconds in which every packet is lost.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VerticalHandover {
    /// Link in use before the first event.
    pub initial_link: usize,
    /// Events in time order (validated by [`VerticalHandover::validate`]).
    pub events: Vec<VerticalHandoverEvent>,
}

impl VerticalHandover {
    /// A single handover `from → to` at `at` with outage `ht` (seed 003's experiment).
    pub fn single(from: usize, to: usize, at: Time, ht: Time) -> Self {
        VerticalHandover {
            initial_link: from,
            events: vec![VerticalHandoverEvent {
                at_us: at.as_nanos() / 1_000,
                outage_us: ht.as_nanos() / 1_000,
                to_link: to,
            }],
        }
    }

    pub fn validate(&self) -> Result<(), String> {
        for (i, w) in self.events.windows(2).enumerate() {
            if w[1].at_us < w[0].at_us + w[0].outage_us {
                return Err(format!(
                    "events[{}] starts before the outage of events[{i}] ends",
                    i + 1
                ));
            }
        }
        Ok(())
    }

    /// Which link carries traffic at `now` (or the outage it is in).
    pub fn state(&self, now: Time) -> LinkState {
        let mut link = self.initial_link;
        for e in &self.events {
            let start = Time::from_micros(e.at_us);
            let end = Time::from_micros(e.at_us + e.outage_us);
            if now < start {
                break;
            }
            if now < end {
                return LinkState::Outage { until: end };
            }
            link = e.to_link;
        }
        LinkState::Active(link)
    }

    /// Whether a packet sent at `now` is lost to the handover outage.
    pub fn is_lost(&self, now: Time) -> bool {
        matches!(self.state(now), LinkState::Outage { .. })
    }

    /// The first instant after `now` at which [`VerticalHandover::state`] changes.
    pub fn next_change(&self, now: Time) -> Option<Time> {
        self.events
            .iter()
            .flat_map(|e| {
                [
                    Time::from_micros(e.at_us),
                    Time::from_micros(e.at_us + e.outage_us),
                ]
            })
            .find(|&t| t > now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(v: u64) -> Time {
        Time::from_millis(v)
    }

    #[test]
    fn dynamic_ttt_matches_compute_ttt() {
        let c = HandoverConfig::default();
        assert_eq!(dynamic_ttt(0.0, &c), ms(150));
        assert_eq!(dynamic_ttt(2.99, &c), ms(150));
        assert_eq!(dynamic_ttt(3.0, &c), ms(150));
        // 150 − 125·8.5/17 = 87.5 -> 87 (truncated).
        assert_eq!(dynamic_ttt(11.5, &c), ms(87));
        // 150 − 125·(4 − 3)/17 = 142.65 -> 142.
        assert_eq!(dynamic_ttt(4.0, &c), ms(142));
        assert_eq!(dynamic_ttt(20.0, &c), ms(25));
        assert_eq!(dynamic_ttt(35.0, &c), ms(25));
        // Monotone non-increasing.
        let mut prev = ms(1000);
        for i in 0..300 {
            let t = dynamic_ttt(i as f64 * 0.1, &c);
            assert!(t <= prev);
            prev = t;
        }
    }

    #[test]
    fn fixed_ttt_fires_after_ttt_if_condition_holds() {
        let cfg = HandoverConfig {
            mode: TttMode::FixedTtt,
            ..HandoverConfig::default()
        };
        let mut t = TttTracker::default();
        let sinr = [5.0, 12.0];
        assert_eq!(t.evaluate(ms(0), 0, &sinr, &cfg), None);
        assert_eq!(t.deadline(), Some(ms(110)));
        for k in 1..110 {
            assert_eq!(
                t.evaluate(ms(k), 0, &sinr, &cfg),
                None,
                "fired early at {k} ms"
            );
        }
        assert_eq!(t.evaluate(ms(110), 0, &sinr, &cfg), Some(1));
        assert_eq!(t.pending(), None);
    }

    #[test]
    fn ttt_cancelled_when_condition_stops() {
        let cfg = HandoverConfig {
            mode: TttMode::FixedTtt,
            ..HandoverConfig::default()
        };
        let mut t = TttTracker::default();
        assert_eq!(t.evaluate(ms(0), 0, &[5.0, 12.0], &cfg), None);
        // Gap falls to 2 dB (< 3 dB hysteresis): cancelled.
        assert_eq!(t.evaluate(ms(50), 0, &[10.0, 12.0], &cfg), None);
        assert_eq!(t.pending(), None);
        // Condition returns: a new full TTT starts.
        assert_eq!(t.evaluate(ms(60), 0, &[5.0, 12.0], &cfg), None);
        assert_eq!(t.evaluate(ms(110), 0, &[5.0, 12.0], &cfg), None);
        assert_eq!(t.evaluate(ms(170), 0, &[5.0, 12.0], &cfg), Some(1));
    }

    #[test]
    fn ttt_restarts_when_the_best_target_changes() {
        let cfg = HandoverConfig {
            mode: TttMode::FixedTtt,
            ..HandoverConfig::default()
        };
        let mut t = TttTracker::default();
        t.evaluate(ms(0), 0, &[0.0, 10.0, 5.0], &cfg);
        assert_eq!(t.pending().unwrap().target, 1);
        t.evaluate(ms(100), 0, &[0.0, 10.0, 15.0], &cfg);
        let p = t.pending().unwrap();
        assert_eq!((p.target, p.fire_at), (2, ms(210)));
        assert_eq!(t.evaluate(ms(110), 0, &[0.0, 10.0, 15.0], &cfg), None);
        assert_eq!(t.evaluate(ms(210), 0, &[0.0, 10.0, 15.0], &cfg), Some(2));
    }

    #[test]
    fn dynamic_ttt_is_shorter_for_larger_gaps() {
        let cfg = HandoverConfig::default();
        let mut t = TttTracker::default();
        t.evaluate(ms(0), 0, &[-3.0, 25.0], &cfg); // Δ = 28 dB -> 25 ms
        assert_eq!(t.deadline(), Some(ms(25)));
        let mut u = TttTracker::default();
        u.evaluate(ms(0), 0, &[0.0, 4.0], &cfg); // Δ = 4 dB -> 142 ms
        assert_eq!(u.deadline(), Some(ms(142)));
    }

    #[test]
    fn threshold_mode_is_immediate_and_hysteresis_blocks_ping_pong() {
        let cfg = HandoverConfig {
            mode: TttMode::Threshold,
            ..HandoverConfig::default()
        };
        let mut t = TttTracker::default();
        assert_eq!(t.evaluate(ms(0), 0, &[5.0, 8.5], &cfg), Some(1));
        // Back on cell 1, cell 0 is only 1 dB better: stay.
        assert_eq!(t.evaluate(ms(2), 1, &[9.5, 8.5], &cfg), None);
        assert_eq!(t.evaluate(ms(2), 1, &[8.0, 8.5], &cfg), None);
    }

    #[test]
    fn seed000_short_ttt() {
        // Seed 000 §III-C uses a fixed TTT of 200 µs.
        let cfg = HandoverConfig {
            mode: TttMode::FixedTtt,
            fixed_ttt_us: 200,
            ..HandoverConfig::default()
        };
        let mut t = TttTracker::default();
        assert_eq!(t.evaluate(Time::ZERO, 0, &[-10.0, 20.0], &cfg), None);
        assert_eq!(t.deadline(), Some(Time::from_micros(200)));
        assert_eq!(
            t.evaluate(Time::from_micros(200), 0, &[-10.0, 20.0], &cfg),
            Some(1)
        );
    }

    #[test]
    fn vertical_handover_outage_loses_everything() {
        // L1 -> L2 at 10 s with HT = 2 s (seed 003).
        let vh = VerticalHandover::single(0, 1, Time::from_secs(10), Time::from_secs(2));
        vh.validate().unwrap();
        assert_eq!(vh.state(Time::from_secs(5)), LinkState::Active(0));
        assert!(!vh.is_lost(Time::from_millis(9_999)));
        assert!(vh.is_lost(Time::from_secs(10)));
        assert!(vh.is_lost(Time::from_millis(11_999)));
        assert_eq!(
            vh.state(Time::from_secs(11)),
            LinkState::Outage {
                until: Time::from_secs(12)
            }
        );
        assert_eq!(vh.state(Time::from_secs(12)), LinkState::Active(1));
        assert_eq!(vh.next_change(Time::ZERO), Some(Time::from_secs(10)));
        assert_eq!(
            vh.next_change(Time::from_secs(10)),
            Some(Time::from_secs(12))
        );
        assert_eq!(vh.next_change(Time::from_secs(12)), None);
        // Round trip L1 -> L2 -> L1.
        let rt = VerticalHandover {
            initial_link: 0,
            events: vec![
                VerticalHandoverEvent {
                    at_us: 1_000_000,
                    outage_us: 500_000,
                    to_link: 1,
                },
                VerticalHandoverEvent {
                    at_us: 3_000_000,
                    outage_us: 500_000,
                    to_link: 0,
                },
            ],
        };
        rt.validate().unwrap();
        assert_eq!(rt.state(Time::from_secs(2)), LinkState::Active(1));
        assert_eq!(rt.state(Time::from_secs(4)), LinkState::Active(0));
        let bad = VerticalHandover {
            initial_link: 0,
            events: vec![
                VerticalHandoverEvent {
                    at_us: 0,
                    outage_us: 10,
                    to_link: 1,
                },
                VerticalHandoverEvent {
                    at_us: 5,
                    outage_us: 1,
                    to_link: 0,
                },
            ],
        };
        assert!(bad.validate().is_err());
    }
}

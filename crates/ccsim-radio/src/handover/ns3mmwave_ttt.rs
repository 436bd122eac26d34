//! ns3-mmwave's TTT rule (`ttt_rule = "ns3mmwave"`), as `LteEnbRrc::TttBasedHandover` in the
//! ns3-mmwave tree (`src/lte/model/lte-enb-rrc.cc`, read in the seed 002 authors' tree, not
//! copied) applies it at every report-table update (`CrtPeriod`, 1.6 ms) to a UE served by a
//! mmWave cell:
//!
//! - the best cell (highest reported SINR) is the serving one: a pending handover is cancelled;
//! - no handover pending and another cell is the best, **by any margin**: one is scheduled
//!   after `ComputeTtt(|Δ|)` (150 ms for Δ < 3 dB). `HoSinrDifference` plays no part here;
//!   the tree uses it in its threshold mode and below;
//! - pending for the best cell: kept; moved earlier when `now + ComputeTtt(Δ)` comes before it
//!   (a larger gap shortens the TTT), never later;
//! - pending for a cell that is no longer the best (nor the serving one): re-targeted to the
//!   best with a new TTT only when it beats the pending target by more than `hysteresis_db`;
//!   otherwise the pending handover stands;
//! - the scheduled `PerformHandover` executes at its time without looking at the SINRs again.
//!
//! Outage (the serving cell below `OutageThreshold`: at once) is handled by the RAN before the
//! tracker, as for the other rule. With SINRs that move every 100 ms (the 3GPP channel's
//! redraws), this rule hands over whenever the other cell stays on top for one TTT, so two
//! blocked cells whose SINRs cross back and forth ping-pong, as in the tree.

use super::{time_to_trigger, HandoverConfig, PendingHandover, TttTracker};
use ccsim_core::Time;

impl TttTracker {
    /// [`TttTracker::evaluate`] under ns3-mmwave's rule (see the module docs).
    pub(super) fn evaluate_ns3mmwave(
        &mut self,
        now: Time,
        serving: usize,
        sinr_db: &[f64],
        cfg: &HandoverConfig,
    ) -> Option<usize> {
        if let Some(p) = self.pending {
            if now >= p.fire_at {
                self.pending = None;
                return Some(p.target);
            }
        }
        // The first cell with the strictly highest SINR, as the tree's scan of its report table.
        let mut best = 0;
        for (i, &s) in sinr_db.iter().enumerate() {
            if s > sinr_db[best] {
                best = i;
            }
        }
        if best == serving || sinr_db[best] <= sinr_db[serving] {
            self.pending = None;
            return None;
        }
        let diff = sinr_db[best] - sinr_db[serving];
        let fire_at = now + time_to_trigger(diff, cfg);
        let schedule = match self.pending {
            None => true,
            Some(p) if p.target == best => fire_at < p.fire_at,
            Some(p) => sinr_db[best] - sinr_db[p.target] > cfg.hysteresis_db,
        };
        if !schedule {
            return None;
        }
        if fire_at <= now {
            self.pending = None;
            return Some(best);
        }
        self.pending = Some(PendingHandover {
            target: best,
            since: now,
            fire_at,
        });
        None
    }
}

#[cfg(test)]
mod tests {
    use crate::handover::{HandoverConfig, TttMode, TttRule, TttTracker};
    use ccsim_core::Time;

    fn ms(v: u64) -> Time {
        Time::from_millis(v)
    }

    fn cfg(mode: TttMode) -> HandoverConfig {
        HandoverConfig {
            mode,
            ttt_rule: TttRule::Ns3mmwave,
            ..HandoverConfig::default()
        }
    }

    #[test]
    fn a_better_cell_by_any_margin_starts_the_ttt() {
        let c = cfg(TttMode::DynamicTtt);
        let mut t = TttTracker::default();
        // 0.5 dB better: no handover under the 3 dB hysteresis rule, 150 ms TTT here.
        assert_eq!(t.evaluate(ms(0), 0, &[5.0, 5.5], &c), None);
        assert_eq!(t.deadline(), Some(ms(150)));
        let mut h = TttTracker::default();
        let hyst = HandoverConfig {
            ttt_rule: TttRule::Hysteresis,
            ..c.clone()
        };
        assert_eq!(h.evaluate(ms(0), 0, &[5.0, 5.5], &hyst), None);
        assert_eq!(h.deadline(), None);
        // The gap shrinks but the target stays the best: the handover stands and fires.
        assert_eq!(t.evaluate(ms(100), 0, &[5.0, 5.1], &c), None);
        assert_eq!(t.evaluate(ms(149), 0, &[5.0, 5.1], &c), None);
        assert_eq!(t.evaluate(ms(150), 0, &[5.0, 5.1], &c), Some(1));
        assert_eq!(t.pending(), None);
    }

    #[test]
    fn the_serving_cell_back_on_top_cancels() {
        let c = cfg(TttMode::DynamicTtt);
        let mut t = TttTracker::default();
        t.evaluate(ms(0), 0, &[5.0, 9.0], &c);
        assert!(t.pending().is_some());
        assert_eq!(t.evaluate(ms(50), 0, &[5.0, 4.9], &c), None);
        assert_eq!(t.pending(), None);
        // Re-entering starts a full new TTT.
        t.evaluate(ms(60), 0, &[5.0, 9.0], &c);
        // Δ = 4 dB: 150 − 125/17 = 142.6 -> 142 ms.
        assert_eq!(t.deadline(), Some(ms(202)));
    }

    #[test]
    fn a_larger_gap_moves_the_handover_earlier_never_later() {
        let c = cfg(TttMode::DynamicTtt);
        let mut t = TttTracker::default();
        t.evaluate(ms(0), 0, &[5.0, 6.0], &c); // 150 ms
        assert_eq!(t.deadline(), Some(ms(150)));
        // Δ = 20 dB at 10 ms: 25 ms TTT, 35 < 150: moved.
        t.evaluate(ms(10), 0, &[0.0, 20.0], &c);
        assert_eq!(t.deadline(), Some(ms(35)));
        // Back to a small gap: the earlier time stands.
        t.evaluate(ms(20), 0, &[5.0, 6.0], &c);
        assert_eq!(t.deadline(), Some(ms(35)));
        assert_eq!(t.evaluate(ms(35), 0, &[5.0, 6.0], &c), Some(1));
    }

    #[test]
    fn retargeting_needs_the_hysteresis_over_the_pending_target() {
        let c = cfg(TttMode::FixedTtt);
        let mut t = TttTracker::default();
        t.evaluate(ms(0), 0, &[0.0, 10.0, 5.0], &c);
        assert_eq!(t.pending().unwrap().target, 1);
        // Cell 2 best by 2 dB over the pending target: kept.
        t.evaluate(ms(10), 0, &[0.0, 10.0, 12.0], &c);
        assert_eq!(t.pending().unwrap().target, 1);
        // By 4 dB: re-targeted with a new fixed TTT.
        t.evaluate(ms(20), 0, &[0.0, 10.0, 14.0], &c);
        let p = t.pending().unwrap();
        assert_eq!((p.target, p.fire_at), (2, ms(130)));
    }

    #[test]
    fn the_scheduled_handover_executes_without_a_new_look() {
        let c = cfg(TttMode::FixedTtt);
        let mut t = TttTracker::default();
        t.evaluate(ms(0), 0, &[0.0, 10.0], &c);
        // At its time it fires to its target even if the report just turned.
        assert_eq!(t.evaluate(ms(110), 0, &[10.0, 0.0], &c), Some(1));
    }

    #[test]
    fn threshold_mode_keeps_its_margin() {
        let c = cfg(TttMode::Threshold);
        let mut t = TttTracker::default();
        assert_eq!(t.evaluate(ms(0), 0, &[5.0, 7.0], &c), None);
        assert_eq!(t.evaluate(ms(0), 0, &[5.0, 8.5], &c), Some(1));
    }
}

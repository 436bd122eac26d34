//! Slots whose downlink TB is smaller because the UE sends uplink data in them
//! (`frame.uplink_data_symbols`).
//!
//! ns3-mmwave's flex-TTI scheduler is TDMA over whole symbols of one slot: a DL control
//! symbol, the DL data, the UL data, a UL control symbol. In the seed 002 authors' tree
//! (`src/mmwave/model/mmwave-flex-tti-mac-scheduler.cc`, `DoSchedTriggerReq`: l. 677-678
//! reserve the two control symbols of the 14, l. 1167-1304 split the other 12 between a UE's
//! DL and UL demands, l. 1326 sizes the TB with `CalculateTbSize (mcs, numSym)`) a backlogged
//! UE gets all 12 data symbols, but when its buffer status report shows uplink data (TCP ACKs,
//! RLC status PDUs) the UL demand of one symbol is served first and the DL gets 11. So the TB
//! size changes from slot to slot at a constant MCS (seed 002 seed 4 traces,
//! `validation/golden/ns3-mmwave/trace/*_tb.csv.gz`: 23 303 / 21 363 bytes at MCS 26, 25 224 /
//! 23 120 at MCS 28), and an RLC PDU built for a 12-symbol TB does not fit an 11-symbol one.
//!
//! Here the RAN marks the slot in which a UE's uplink packet is on the air
//! ([`Cell::note_uplink`]); that slot's capacity loses `uplink_data_symbols` of data symbols
//! per marked UE.

use super::Cell;
use ccsim_core::Time;

/// The upcoming slots with uplink data of one UE: bit `i` of `mask` is slot `base + i`.
/// Fixed size, so marking and reading never allocate.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct UplinkSlots {
    base: u64,
    mask: u64,
}

impl UplinkSlots {
    /// Marks slot `k`; a slot already passed is ignored, one beyond 64 slots ahead moves the
    /// window (forgetting its oldest slots).
    pub(super) fn mark(&mut self, k: u64) {
        if k < self.base {
            return;
        }
        if k - self.base >= 64 {
            self.advance(k - 63);
        }
        self.mask |= 1 << (k - self.base);
    }

    /// Whether slot `k` has uplink data; forgets the slots before `k`.
    fn take(&mut self, k: u64) -> bool {
        self.advance(k);
        k == self.base && self.mask & 1 == 1
    }

    fn advance(&mut self, to: u64) {
        if to <= self.base {
            return;
        }
        let shift = to - self.base;
        self.mask = if shift >= 64 { 0 } else { self.mask >> shift };
        self.base = to;
    }
}

impl Cell {
    /// `ue` sends uplink data on the air at `at` (a TCP ACK, an RLC status report): with
    /// `frame.uplink_data_symbols`, the downlink of that slot loses those symbols.
    pub fn note_uplink(&mut self, ue: usize, at: Time) {
        if self.config.frame.uplink_data_symbols > 0 {
            self.ues[ue].uplink_slots.mark(at.as_nanos() / self.slot_ns);
        }
    }

    /// Resource units of slot `k` taken by the uplink data of the UEs that send in it.
    pub(super) fn uplink_units(&mut self, k: u64) -> u64 {
        if self.config.frame.uplink_data_symbols == 0 {
            return 0;
        }
        let per_ue = self.config.frame.uplink_units();
        self.ues
            .iter_mut()
            .filter(|u| u.attached)
            .map(|u| per_ue * u64::from(u.uplink_slots.take(k)))
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::UplinkSlots;

    #[test]
    fn marks_are_read_once_in_slot_order() {
        let mut s = UplinkSlots::default();
        for k in [3, 4, 7, 60] {
            s.mark(k);
        }
        let got: Vec<u64> = (0..80).filter(|&k| s.take(k)).collect();
        assert_eq!(got, vec![3, 4, 7, 60]);
        s.mark(75); // already passed
        s.mark(200);
        assert!(!s.take(199) && s.take(200) && !s.take(201));
        // A mark beyond 64 slots moves the window past the oldest marks.
        s.mark(210);
        s.mark(300);
        assert!(!s.take(210) && s.take(300));
    }
}

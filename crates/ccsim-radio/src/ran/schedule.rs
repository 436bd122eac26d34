//! Handovers from a recorded schedule (`handover.schedule`, [`crate::handover::schedule`])
//! instead of the RAN's own decisions.

use super::{Connectivity, RadioNetwork};
use crate::cell::Delivery;
use ccsim_core::Time;

impl RadioNetwork {
    /// Whether the RAN follows a schedule (and so decides nothing itself).
    pub(super) fn scheduled(&self) -> bool {
        !self.handover.schedule.is_empty()
    }

    /// When the next scheduled handover is due.
    pub(super) fn next_scheduled_handover(&self) -> Option<Time> {
        let h = self.handover.schedule.get(self.next_scheduled)?;
        Some(Time::from_micros(h.at_us))
    }

    /// Executes the scheduled handovers due at `now`, with the interruption the RAN's own
    /// decision would have: a DC switch between LTE and mmWave costs `dc_switch_us`, any other
    /// handover `interruption_us`. A handover to the serving site does nothing.
    pub(super) fn run_scheduled_handovers(&mut self, now: Time, out: &mut Vec<Delivery>) {
        while let Some(h) = self.handover.schedule.get(self.next_scheduled) {
            if Time::from_micros(h.at_us) > now {
                break;
            }
            let (u, to) = (h.ue, h.site);
            self.next_scheduled += 1;
            let from = self.ues[u].serving;
            let mixed = self.sites[from].technology != self.sites[to].technology;
            let us = if mixed && self.connectivity == Connectivity::DualConnectivity {
                self.handover.dc_switch_us
            } else {
                self.handover.interruption_us
            };
            self.execute(now, u, to, Time::from_micros(us), out);
        }
    }
}

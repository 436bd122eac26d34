//! Channel updates: every `update_period_us` each UE's position, LOS, path loss, shadowing,
//! received power and SINR towards every site, and each site's interference activity.

use super::{InterferenceMode, RadioNetwork, Technology};
use crate::cell::Cell;
use crate::geometry::{blockage_loss_db, is_los};
use crate::sinr::{db_to_linear, dbm_to_mw, linear_to_db, noise_dbm};
use ccsim_core::Time;

impl RadioNetwork {
    /// Recomputes positions, LOS, received powers and SINRs of every UE (at `now`), and the
    /// interference activity of every site over the last period.
    pub(super) fn update_channels(&mut self, now: Time) {
        let period_slots_of =
            |c: &Cell| (self.channel.update_period_us * 1000 / c.slot().as_nanos().max(1)).max(1);
        for (i, c) in self.cells.iter().enumerate() {
            let busy = c.counters().busy_slots;
            self.activity[i] = match self.channel.interference {
                InterferenceMode::None => 0.0,
                InterferenceMode::FullBuffer => 1.0,
                InterferenceMode::Load => ((busy - self.busy_at_last_update[i]) as f64
                    / period_slots_of(c) as f64)
                    .min(1.0),
            };
            self.busy_at_last_update[i] = busy;
        }
        let suppression = db_to_linear(-self.channel.interference_suppression_db);
        for u in 0..self.ues.len() {
            let pos = self.ues[u].path.position(now);
            self.ues[u].position = pos;
            for s in 0..self.sites.len() {
                let site_pos = self.sites[s].position;
                let tech = self.tech(s).clone();
                let los = is_los(site_pos, pos, &self.obstacles);
                let mut loss = tech.pathloss.loss_db(site_pos, pos, tech.carrier_hz, los);
                if !los && tech.pathloss.uses_los() {
                    loss += blockage_loss_db(site_pos, pos, &self.obstacles);
                }
                if self.channel.shadowing {
                    let ue = &mut self.ues[u];
                    loss += ue.shadowing[s].update(&mut ue.rng, &tech.pathloss, pos, los);
                }
                let rx_dbm =
                    self.sites[s].tx_power_dbm + tech.ap_antenna_gain_db + tech.ue_antenna_gain_db
                        - loss;
                self.ues[u].los[s] = los;
                self.ues[u].rx_mw[s] = dbm_to_mw(rx_dbm);
            }
            for s in 0..self.sites.len() {
                let tech = self.tech(s);
                let noise = dbm_to_mw(noise_dbm(
                    tech.cell.frame.bandwidth_hz,
                    tech.ue_noise_figure_db,
                ));
                let t = self.sites[s].technology;
                let ue = &self.ues[u];
                let meas_activity = |k: usize| match self.channel.measurement_interference {
                    Some(InterferenceMode::None) => 0.0,
                    Some(InterferenceMode::FullBuffer) => 1.0,
                    Some(InterferenceMode::Load) | None => self.activity[k],
                };
                let (mut interference, mut meas_interference) = (0.0, 0.0);
                for k in (0..self.sites.len()).filter(|&k| k != s && self.sites[k].technology == t)
                {
                    interference += self.activity[k] * suppression * ue.rx_mw[k];
                    meas_interference += meas_activity(k) * suppression * ue.rx_mw[k];
                }
                let mut sinr = linear_to_db(ue.rx_mw[s] / (noise + interference));
                let mut meas = linear_to_db(ue.rx_mw[s] / (noise + meas_interference));
                // A recorded channel replaces the geometry's (`channel.sinr_trace`, UE 0).
                let traced = self.channel.sinr_trace.as_ref().filter(|_| u == 0);
                if let Some(v) = traced.and_then(|t| t.at(s, now.as_nanos() / 1000)) {
                    (sinr, meas) = (v, v);
                }
                self.ues[u].sinr_db[s] = sinr;
                self.ues[u].meas_sinr_db[s] = meas;
            }
            let serving = self.ues[u].serving;
            if serving != usize::MAX {
                let sinr = self.ues[u].sinr_db[serving];
                self.cells[serving].set_channel_at(now, u, sinr);
                self.set_link_state(now, u, serving);
            }
            // The measurements sample every mmWave link's fading: each needs its LOS state.
            if self.channel.measurement_fading {
                for s in 0..self.sites.len() {
                    if s != serving && self.sites[s].technology == Technology::Mmwave {
                        self.set_link_state(now, u, s);
                    }
                }
            }
        }
    }
}

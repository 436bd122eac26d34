//! The cell's view of each UE's channel: the large-scale SINR from the RAN's updates, the
//! fading on top of it, and the MCS / spectral efficiency a TB gets in a slot.

use super::Cell;
use crate::fading::max_doppler_hz;
use crate::link_adaptation::mcs_efficiency;
use ccsim_core::Time;

impl Cell {
    /// Updates the UE's channel at `now` (the RAN's channel update). Data that waited through
    /// an outage (no usable channel) can be scheduled from `now` on, not from when it arrived.
    pub fn set_channel_at(&mut self, now: Time, ue: usize, sinr_db: f64) {
        let was_usable = self.ues[ue].se > 0.0;
        self.set_channel(ue, sinr_db);
        let u = &mut self.ues[ue];
        if !was_usable && u.se > 0.0 {
            u.ready_at = u.ready_at.max(now);
        }
    }

    /// Updates the UE's channel, with no notion of time: buffered data is schedulable from
    /// when it arrived (use [`Cell::set_channel_at`] when the channel changes during a run).
    pub fn set_channel(&mut self, ue: usize, sinr_db: f64) {
        let se = self.config.amc.spectral_efficiency(sinr_db);
        let u = &mut self.ues[ue];
        u.sinr_db = sinr_db;
        u.se = se;
    }

    /// The link's LOS state and the UE's speed from `now` on (the RAN's channel update): they
    /// set the fading's K-factor and Doppler (`speed · carrier / c`), and with link adaptation
    /// the NLOS per-RB loss (`nlos_rb_loss_db`). Otherwise no effect without fading.
    pub fn set_link_state(
        &mut self,
        now: Time,
        ue: usize,
        los: bool,
        speed_mps: f64,
        carrier_hz: f64,
    ) {
        if let Some(la) = &self.config.link_adaptation {
            self.ues[ue].la_offset_db = la.rb_offset_db(los);
        }
        let cfg = &self.config.fading;
        if let Some(f) = self.ues[ue].fading.as_mut() {
            let doppler = cfg
                .doppler_hz
                .unwrap_or_else(|| max_doppler_hz(speed_mps, carrier_hz));
            let k = if los {
                Some(cfg.k_factor_los_db)
            } else {
                cfg.k_factor_nlos_db
            };
            f.set_state(now, doppler, k);
        }
    }

    /// The MCS a TB of `ue` sent at `t` would use: the one of the CQI in force with link
    /// adaptation (None without it, or below MCS 0).
    pub fn mcs_at(&self, ue: usize, t: Time) -> Option<u8> {
        let la = self.config.link_adaptation.as_ref()?;
        la.select_mcs(self.la_sinr_at(ue, la.report_instant(t, self.slot_ns)))
    }

    /// The SINR (dB) the link adaptation works on: [`Cell::sinr_at`] plus the per-RB loss
    /// offset of the link's LOS state (0 unless `nlos_rb_loss_db` is set).
    pub fn la_sinr_at(&self, ue: usize, t: Time) -> f64 {
        self.sinr_at(ue, t) + self.ues[ue].la_offset_db
    }

    /// The fading gain (dB) of `ue`'s link at `t`; 0 without fading.
    pub fn fading_gain_db(&self, ue: usize, t: Time) -> f64 {
        self.ues[ue].fading.as_ref().map_or(0.0, |f| f.gain_db(t))
    }

    /// SINR (dB) of `ue` at `t`: the large-scale SINR plus the fading gain.
    pub fn sinr_at(&self, ue: usize, t: Time) -> f64 {
        let u = &self.ues[ue];
        u.sinr_db + u.fading.as_ref().map_or(0.0, |f| f.gain_db(t))
    }

    /// Spectral efficiency and MCS a TB of `ue` gets in the slot starting at `slot_start`: the
    /// MCS of the CQI in force with link adaptation, else `amc` on the SINR (with fading, the
    /// SINR at the slot; without, the last channel update's, precomputed).
    pub(super) fn slot_efficiency(&self, ue: usize, slot_start: Time) -> (f64, u8) {
        if let Some(la) = &self.mcs_table {
            let reported =
                self.la_sinr_at(ue, la.config().report_instant(slot_start, self.slot_ns));
            return la
                .select_mcs(reported)
                .map_or((0.0, 0), |m| (mcs_efficiency(m), m));
        }
        if self.ues[ue].fading.is_some() {
            let se = self
                .config
                .amc
                .spectral_efficiency(self.sinr_at(ue, slot_start));
            return (se, 0);
        }
        (self.ues[ue].se, 0)
    }
}

//! Received power, thermal noise and SINR.
//!
//! - Received power (dBm) = transmit power + transmit antenna gain + receive antenna gain
//!   − path loss − shadowing − blockage loss (a link budget; the beamforming gains stand for
//!   ns3-mmwave's long-term beamforming, ANCHORS §1.1, `LongTermUpdatePeriod`).
//! - Thermal noise `N = −174 dBm/Hz + 10·log10(B) + NF`: `kT` at `T0 = 290 K` is
//!   −174 dBm/Hz (ITU-R P.372; ns-3 `mmWaveSpectrumValueHelper::CreateNoisePowerSpectralDensity`
//!   uses the same `kT0` and the receiver noise figure).
//! - `SINR = S / (N + Σ I_k)`, interference summed in linear units (mW), as ns-3's
//!   `mmWaveInterference` sums the power spectral densities of all other transmitters.

/// Thermal noise density at 290 K, dBm/Hz.
pub const THERMAL_NOISE_DBM_PER_HZ: f64 = -174.0;

pub fn db_to_linear(db: f64) -> f64 {
    10f64.powf(db / 10.0)
}

pub fn linear_to_db(x: f64) -> f64 {
    10.0 * x.log10()
}

pub fn dbm_to_mw(dbm: f64) -> f64 {
    db_to_linear(dbm)
}

pub fn mw_to_dbm(mw: f64) -> f64 {
    linear_to_db(mw)
}

/// Noise power (dBm) in `bandwidth_hz` with receiver noise figure `noise_figure_db`.
pub fn noise_dbm(bandwidth_hz: f64, noise_figure_db: f64) -> f64 {
    THERMAL_NOISE_DBM_PER_HZ + 10.0 * bandwidth_hz.log10() + noise_figure_db
}

/// Received power (dBm) of a link budget.
pub fn rx_power_dbm(tx_power_dbm: f64, tx_gain_db: f64, rx_gain_db: f64, losses_db: f64) -> f64 {
    tx_power_dbm + tx_gain_db + rx_gain_db - losses_db
}

/// SINR in dB: signal (mW) over noise (mW) plus the linear sum of interferers (mW).
pub fn sinr_db(
    signal_mw: f64,
    interference_mw: impl IntoIterator<Item = f64>,
    noise_mw: f64,
) -> f64 {
    let i: f64 = interference_mw.into_iter().sum();
    linear_to_db(signal_mw / (noise_mw + i))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noise_of_200_mhz() {
        // −174 + 83.01 + 5 = −85.99 dBm.
        assert!((noise_dbm(200e6, 5.0) + 85.99).abs() < 0.01);
        assert!((noise_dbm(1e9, 0.0) + 84.0).abs() < 1e-9);
    }

    #[test]
    fn interference_adds_linearly() {
        let n = dbm_to_mw(-90.0);
        let s = dbm_to_mw(-60.0);
        assert!((sinr_db(s, [], n) - 30.0).abs() < 1e-9);
        // Two interferers equal to the noise each: SINR drops by 10·log10(3).
        let i = dbm_to_mw(-90.0);
        assert!((sinr_db(s, [i, i], n) - (30.0 - linear_to_db(3.0))).abs() < 1e-9);
        assert!((rx_power_dbm(30.0, 18.0, 12.0, 110.0) + 50.0).abs() < 1e-12);
        assert!((mw_to_dbm(dbm_to_mw(-47.5)) + 47.5).abs() < 1e-12);
    }
}

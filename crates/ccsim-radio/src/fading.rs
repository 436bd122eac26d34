//! Small-scale fading and beam/cluster dynamics at millisecond scale: a per-link Rician
//! sum-of-sinusoids (SoS) process that multiplies the large-scale SINR.
//!
//! **Process.** The narrowband channel gain of one link is
//! `h(t) = √(K/(K+1))·e^{j(ω_d t cos θ₀ + φ₀)} + √(1/(K+1))·(1/√N)·Σₙ e^{j(ω_d t cos αₙ + φₙ)}`,
//! with `ω_d = 2π f_d`, `N` sinusoids whose arrival angles `αₙ = (2πn + θₙ)/N` (`θₙ` uniform
//! in [−π, π)) spread evenly around the circle and uniform phases `φₙ` (Zheng & Xiao, "Simulation
//! models with correct statistical properties for Rayleigh fading channels", IEEE Trans.
//! Commun. 51(6), 2003, eq. (7), randomised angles; the LOS term of Xiao, Zheng & Beaulieu,
//! IEEE Trans. Wireless Commun. 5(12), 2006). Its power `|h|²` has time mean 1, the scattered
//! part's autocorrelation tends to `J₀(ω_d τ)` (Clarke/Jakes), and `K` is the Rician factor.
//!
//! - **Doppler** `f_d = v·f_c/c` (2 m/s at 28 GHz: 187 Hz), from the UE speed the RAN passes at
//!   each channel update, or a fixed `doppler_hz`. A Doppler change keeps the phases continuous.
//! - **K-factor** per LOS state: TR 38.901 Table 7.5-6 gives a mean K of 9 dB for UMi/UMa LOS;
//!   NLOS links are Rayleigh (no `k_factor_nlos_db`).
//! - **Wideband averaging**: a 200 MHz carrier spans many coherence bandwidths, and the SINR a
//!   TB sees is an average over them (ns3-mmwave averages the per-RB SINR). `subbands` = M
//!   averages M independent processes' powers, which narrows the spread by about `1/√M`.
//! - **Hold** (`hold_us` > 0): the gain is sampled at the start of each hold interval and kept
//!   for it, a block-fading process. ns3-mmwave's 3GPP channel (`ThreeGppChannelModel::
//!   UpdatePeriod` = 100 ms in the seed 002 program) redraws its clusters and re-beamforms once
//!   per period; its 1 ms SINR moves by 0.03 dB (LOS) / 0.2 dB (NLOS) within a period and by
//!   0.6 / 2.3 dB between periods (validation/ns3-mmwave/README.md §5). With the hold equal to
//!   the period and `f_d · hold` ≫ 1, consecutive blocks are independent draws of the same
//!   Rician law: that reference's dynamics. `hold_us` = 0 is the continuous Doppler process.
//!
//! Deterministic: the angles and phases are drawn once per (cell, UE) link from the stream
//! `radio.cell<c>.ue<u>.fading` and the gain is a pure function of time, so a TB's HARQ
//! retransmissions can ask for the gain at their own (future) times. No allocation after
//! construction. The last evaluated block is memoised (exact: the gain is a pure function of
//! the block's start and the state), so the per-TB and per-slot queries of one 100 ms block
//! cost one sum of sinusoids (it was ~10 % of seed 002's instructions with the ns3-mmwave
//! preset).

use crate::pathloss::SPEED_OF_LIGHT;
use ccsim_core::{RngStream, Time};
use serde::{Deserialize, Serialize};
use std::cell::Cell;
use std::f64::consts::PI;

/// Upper bounds of the fixed-size state (no allocation per evaluation).
pub const MAX_SINUSOIDS: usize = 32;
pub const MAX_SUBBANDS: usize = 8;
/// Power floor (dB): a deep fade never reaches −∞.
const FLOOR_DB: f64 = -40.0;

/// Fading of every link of a cell (the `fading` key of a cell's configuration).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FadingConfig {
    /// Off by default: the SINR is the large-scale one, constant between channel updates.
    #[serde(default)]
    pub enabled: bool,
    /// Rician K (dB) of LOS links; 9 dB, the TR 38.901 Table 7.5-6 UMi/UMa LOS mean.
    #[serde(default = "default_k_los")]
    pub k_factor_los_db: f64,
    /// Rician K (dB) of NLOS links; absent = Rayleigh (TR 38.901 NLOS has no K-factor).
    #[serde(default)]
    pub k_factor_nlos_db: Option<f64>,
    /// Sinusoids of the scattered part (1–32); 16.
    #[serde(default = "default_sinusoids")]
    pub sinusoids: u32,
    /// Independent subbands averaged in power (1–8); 1 = narrowband.
    #[serde(default = "default_subbands")]
    pub subbands: u32,
    /// Block length (µs) over which the gain is held; 0 = continuous.
    #[serde(default)]
    pub hold_us: u64,
    /// Maximum Doppler (Hz); absent = `speed · carrier / c` from the UE's motion.
    #[serde(default)]
    pub doppler_hz: Option<f64>,
}

fn default_k_los() -> f64 {
    9.0
}
fn default_sinusoids() -> u32 {
    16
}
fn default_subbands() -> u32 {
    1
}

impl Default for FadingConfig {
    fn default() -> Self {
        FadingConfig {
            enabled: false,
            k_factor_los_db: default_k_los(),
            k_factor_nlos_db: None,
            sinusoids: default_sinusoids(),
            subbands: default_subbands(),
            hold_us: 0,
            doppler_hz: None,
        }
    }
}

impl FadingConfig {
    /// Checks the ranges; the error names the key and the allowed values.
    pub fn validate(&self) -> Result<(), String> {
        if !(1..=MAX_SINUSOIDS as u32).contains(&self.sinusoids) {
            return Err(format!(
                "fading.sinusoids = {}: allowed 1..={MAX_SINUSOIDS}",
                self.sinusoids
            ));
        }
        if !(1..=MAX_SUBBANDS as u32).contains(&self.subbands) {
            return Err(format!(
                "fading.subbands = {}: allowed 1..={MAX_SUBBANDS}",
                self.subbands
            ));
        }
        if let Some(d) = self.doppler_hz {
            if !(d.is_finite() && d >= 0.0) {
                return Err(format!(
                    "fading.doppler_hz = {d}: allowed a finite value ≥ 0"
                ));
            }
        }
        for (key, k) in [
            ("k_factor_los_db", Some(self.k_factor_los_db)),
            ("k_factor_nlos_db", self.k_factor_nlos_db),
        ] {
            if k.is_some_and(|k| !k.is_finite()) {
                return Err(format!("fading.{key}: allowed a finite value (dB)"));
            }
        }
        Ok(())
    }
}

/// Maximum Doppler shift `f_d = v·f_c/c` (Hz).
pub fn max_doppler_hz(speed_mps: f64, carrier_hz: f64) -> f64 {
    speed_mps.abs() * carrier_hz / SPEED_OF_LIGHT
}

/// One link's fading process (see the module docs).
#[derive(Clone, Debug)]
pub struct FadingProcess {
    n: usize,
    m: usize,
    hold_ns: u64,
    /// `cos αₙ` per subband, and of the LOS ray (index `n`).
    cos_angle: [[f64; MAX_SINUSOIDS + 1]; MAX_SUBBANDS],
    /// Phases at `t_ref` per subband (index `n` = LOS ray).
    phase: [[f64; MAX_SINUSOIDS + 1]; MAX_SUBBANDS],
    t_ref_s: f64,
    omega: f64,
    /// `√(K/(K+1))` and `√(1/(K+1))`.
    los_amp: f64,
    scatter_amp: f64,
    /// The last evaluation: (sample instant in ns, power, gain in dB); `NO_MEMO` = none.
    memo: Cell<(u64, f64, f64)>,
}

const NO_MEMO: (u64, f64, f64) = (u64::MAX, 0.0, 0.0);

impl FadingProcess {
    /// A process for one link, its angles and phases drawn from `rng`. Starts with no Doppler
    /// and K of LOS (call [`FadingProcess::set_state`]).
    pub fn new(cfg: &FadingConfig, rng: &mut RngStream) -> Self {
        let n = (cfg.sinusoids as usize).clamp(1, MAX_SINUSOIDS);
        let m = (cfg.subbands as usize).clamp(1, MAX_SUBBANDS);
        let mut cos_angle = [[0.0; MAX_SINUSOIDS + 1]; MAX_SUBBANDS];
        let mut phase = [[0.0; MAX_SINUSOIDS + 1]; MAX_SUBBANDS];
        for b in 0..m {
            for k in 0..n {
                let theta = 2.0 * PI * rng.next_f64() - PI;
                cos_angle[b][k] = ((2.0 * PI * k as f64 + theta) / n as f64).cos();
                phase[b][k] = 2.0 * PI * rng.next_f64() - PI;
            }
            cos_angle[b][n] = (2.0 * PI * rng.next_f64() - PI).cos();
            phase[b][n] = 2.0 * PI * rng.next_f64() - PI;
        }
        let mut p = FadingProcess {
            n,
            m,
            hold_ns: cfg.hold_us * 1000,
            cos_angle,
            phase,
            t_ref_s: 0.0,
            omega: 0.0,
            los_amp: 0.0,
            scatter_amp: 1.0,
            memo: Cell::new(NO_MEMO),
        };
        p.set_k_db(Some(cfg.k_factor_los_db));
        p
    }

    fn set_k_db(&mut self, k_db: Option<f64>) {
        let k = k_db.map_or(0.0, |d| 10f64.powf(d / 10.0));
        self.los_amp = (k / (k + 1.0)).sqrt();
        self.scatter_amp = (1.0 / (k + 1.0)).sqrt();
    }

    /// From `now` on: Doppler `doppler_hz` and Rician K `k_db` (None = Rayleigh). The phases
    /// are carried over so the gain is continuous in time when only the Doppler changes.
    pub fn set_state(&mut self, now: Time, doppler_hz: f64, k_db: Option<f64>) {
        let t = now.as_secs_f64();
        let dt = t - self.t_ref_s;
        for b in 0..self.m {
            for k in 0..=self.n {
                let p = self.phase[b][k] + self.omega * dt * self.cos_angle[b][k];
                self.phase[b][k] = p.rem_euclid(2.0 * PI);
            }
        }
        self.t_ref_s = t;
        self.omega = 2.0 * PI * doppler_hz;
        self.set_k_db(k_db);
        self.memo.set(NO_MEMO);
    }

    /// Power gain (linear, time mean 1) at `t`.
    pub fn power(&self, t: Time) -> f64 {
        self.sample(t).1
    }

    /// Power gain in dB at `t`, floored at −40 dB.
    pub fn gain_db(&self, t: Time) -> f64 {
        self.sample(t).2
    }

    /// (power, gain in dB) at `t`, from the memo when `t` falls in the last block evaluated.
    fn sample(&self, t: Time) -> (u64, f64, f64) {
        let t_ns = t
            .as_nanos()
            .checked_div(self.hold_ns)
            .map_or(t.as_nanos(), |blocks| blocks * self.hold_ns);
        let memo = self.memo.get();
        if memo.0 == t_ns {
            return memo;
        }
        let power = self.sum_of_sinusoids(t_ns);
        let sample = (t_ns, power, (10.0 * power.log10()).max(FLOOR_DB));
        self.memo.set(sample);
        sample
    }

    /// `|h|²` averaged over the subbands at `t_ns` (the module docs' process).
    fn sum_of_sinusoids(&self, t_ns: u64) -> f64 {
        let dt = t_ns as f64 * 1e-9 - self.t_ref_s;
        let norm = 1.0 / (self.n as f64).sqrt();
        let mut total = 0.0;
        for b in 0..self.m {
            let (mut re, mut im) = (0.0, 0.0);
            for k in 0..self.n {
                let (s, c) = (self.omega * dt * self.cos_angle[b][k] + self.phase[b][k]).sin_cos();
                re += c;
                im += s;
            }
            let (s, c) =
                (self.omega * dt * self.cos_angle[b][self.n] + self.phase[b][self.n]).sin_cos();
            let hr = self.los_amp * c + self.scatter_amp * norm * re;
            let hi = self.los_amp * s + self.scatter_amp * norm * im;
            total += hr * hr + hi * hi;
        }
        total / self.m as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn process(cfg: &FadingConfig, seed: u64, doppler: f64, k_db: Option<f64>) -> FadingProcess {
        let mut rng = RngStream::new(seed, "test.fading");
        let mut p = FadingProcess::new(cfg, &mut rng);
        p.set_state(Time::ZERO, doppler, k_db);
        p
    }

    /// Samples every `step` over `secs`, pooled over `links` independent links.
    fn samples(cfg: &FadingConfig, links: u64, doppler: f64, k: Option<f64>) -> Vec<f64> {
        let mut v = Vec::new();
        for seed in 0..links {
            let p = process(cfg, seed, doppler, k);
            for i in 0..2000u64 {
                v.push(p.power(Time::from_micros(1000 * i)));
            }
        }
        v
    }

    fn mean(v: &[f64]) -> f64 {
        v.iter().sum::<f64>() / v.len() as f64
    }
    fn std(v: &[f64]) -> f64 {
        let m = mean(v);
        (v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / v.len() as f64).sqrt()
    }
    fn db(v: &[f64]) -> Vec<f64> {
        v.iter().map(|x| 10.0 * x.max(1e-4).log10()).collect()
    }

    /// Reference: the std (dB) of `|√(K/(K+1)) + √(1/(K+1))·g|²`, g ~ CN(0,1), by Monte
    /// Carlo with independent Box–Muller draws (a different construction from the SoS).
    fn rician_db_std(k_db: Option<f64>) -> f64 {
        let k = k_db.map_or(0.0, |d| 10f64.powf(d / 10.0));
        let (a, s) = ((k / (k + 1.0)).sqrt(), (1.0 / (k + 1.0)).sqrt());
        let mut rng = RngStream::new(99, "test.reference");
        let v: Vec<f64> = (0..200_000)
            .map(|_| {
                let x =
                    crate::pathloss::standard_normal(&mut rng) * std::f64::consts::FRAC_1_SQRT_2;
                let y =
                    crate::pathloss::standard_normal(&mut rng) * std::f64::consts::FRAC_1_SQRT_2;
                (a + s * x).powi(2) + (s * y).powi(2)
            })
            .collect();
        std(&db(&v))
    }

    #[test]
    fn mean_power_is_one() {
        let cfg = FadingConfig::default();
        for k in [None, Some(0.0), Some(9.0), Some(20.0)] {
            let v = samples(&cfg, 40, 187.0, k);
            let m = mean(&v);
            assert!((m - 1.0).abs() < 0.03, "K {k:?}: mean power {m}");
        }
    }

    #[test]
    fn std_of_1ms_gain_follows_the_rician_law() {
        // 1 ms samples at 187 Hz are nearly independent: the pooled spread is the law's.
        let cfg = FadingConfig::default();
        for k in [None, Some(3.0), Some(9.0), Some(15.0)] {
            let got = std(&db(&samples(&cfg, 40, 187.0, k)));
            let want = rician_db_std(k);
            assert!(
                (got / want - 1.0).abs() < 0.1,
                "K {k:?}: std {got:.3} dB, Rician {want:.3} dB"
            );
        }
        // A stronger LOS ray fades less: Rayleigh ~5.6 dB, K = 15 dB about 1.1 dB.
        assert!(rician_db_std(None) > 5.0 && rician_db_std(Some(15.0)) < 1.3);
    }

    #[test]
    fn subbands_narrow_the_spread() {
        let one = std(&db(&samples(&FadingConfig::default(), 20, 187.0, None)));
        let cfg4 = FadingConfig {
            subbands: 4,
            ..FadingConfig::default()
        };
        let four = std(&db(&samples(&cfg4, 20, 187.0, None)));
        assert!(
            four < 0.65 * one,
            "1 subband {one:.2} dB, 4 subbands {four:.2} dB"
        );
    }

    /// Normalised autocorrelation of the complex scattered part (K = 0) from the power: for a
    /// Gaussian process `cov(|h(t)|², |h(t+τ)|²) = |ρ(τ)|²`, so `|ρ| = √ρ_power`.
    fn power_autocorr(cfg: &FadingConfig, doppler: f64, lag: Time) -> f64 {
        let (mut num, mut den, mut n) = (0.0, 0.0, 0.0);
        for seed in 0..200 {
            let p = process(cfg, seed, doppler, None);
            for i in 0..200u64 {
                let t = Time::from_micros(3_700 * i);
                let (a, b) = (p.power(t) - 1.0, p.power(t + lag) - 1.0);
                num += a * b;
                den += a * a;
                n += 1.0;
            }
        }
        let _ = n;
        num / den
    }

    /// Bessel J0 by its power series (enough terms for |x| < 10).
    fn j0(x: f64) -> f64 {
        let (mut term, mut sum) = (1.0, 1.0);
        for k in 1..40 {
            term *= -(x * x) / (4.0 * (k * k) as f64);
            sum += term;
        }
        sum
    }

    #[test]
    fn autocorrelation_follows_doppler() {
        let cfg = FadingConfig::default();
        let fd = 187.0;
        for lag_us in [250u64, 500, 1000, 2000] {
            let lag = Time::from_micros(lag_us);
            let got = power_autocorr(&cfg, fd, lag);
            let want = j0(2.0 * PI * fd * lag_us as f64 * 1e-6).powi(2);
            assert!(
                (got - want).abs() < 0.08,
                "lag {lag_us} µs: power autocorrelation {got:.3}, J0² {want:.3}"
            );
        }
        // Twice the speed, half the coherence time: 1 ms at 374 Hz matches 2 ms at 187 Hz.
        let fast = power_autocorr(&cfg, 2.0 * fd, Time::from_micros(1000));
        let slow = power_autocorr(&cfg, fd, Time::from_micros(2000));
        assert!((fast - slow).abs() < 0.08, "{fast} vs {slow}");
        // A static UE does not fade.
        let p = process(&cfg, 3, 0.0, None);
        assert_eq!(p.power(Time::ZERO), p.power(Time::from_secs(5)));
    }

    #[test]
    fn hold_makes_blocks() {
        let cfg = FadingConfig {
            hold_us: 100_000,
            ..FadingConfig::default()
        };
        let p = process(&cfg, 1, 187.0, Some(9.0));
        let a = p.power(Time::from_millis(100));
        assert_eq!(a, p.power(Time::from_millis(199)));
        assert_ne!(a, p.power(Time::from_millis(200)));
    }

    #[test]
    fn doppler_change_keeps_the_gain_continuous_and_runs_are_deterministic() {
        let cfg = FadingConfig::default();
        let mut p = process(&cfg, 5, 187.0, None);
        let t = Time::from_millis(37);
        let before = p.power(t);
        p.set_state(t, 60.0, None);
        assert!((p.power(t) - before).abs() < 1e-9);
        let q = process(&cfg, 5, 187.0, None);
        let r = process(&cfg, 5, 187.0, None);
        assert_eq!(q.power(t), r.power(t));
        assert!((max_doppler_hz(2.0, 28e9) - 186.67).abs() < 0.01);
    }

    #[test]
    fn the_memo_follows_the_state() {
        // A block evaluated before a state change must not be served after it: the memoised
        // process gives what a fresh one with the same history gives, at every query.
        let cfg = FadingConfig {
            hold_us: 100_000,
            ..FadingConfig::default()
        };
        let mut memo = process(&cfg, 3, 187.0, Some(9.0));
        let t = Time::from_millis(250);
        let before = memo.power(t);
        assert_eq!(memo.power(Time::from_millis(299)), before, "same block");
        memo.set_state(Time::from_millis(200), 187.0, None);
        let mut fresh = process(&cfg, 3, 187.0, Some(9.0));
        fresh.set_state(Time::from_millis(200), 187.0, None);
        assert_eq!(memo.gain_db(t), fresh.gain_db(t));
        assert_ne!(
            memo.power(t),
            before,
            "K 9 dB → Rayleigh changes the block's gain"
        );
        assert_eq!(
            memo.power(Time::from_millis(300)),
            fresh.power(Time::from_millis(300))
        );
    }

    #[test]
    fn bad_config_names_the_key() {
        let bad = FadingConfig {
            subbands: 9,
            ..FadingConfig::default()
        };
        assert!(bad.validate().unwrap_err().contains("fading.subbands"));
        let bad = FadingConfig {
            sinusoids: 0,
            ..FadingConfig::default()
        };
        assert!(bad.validate().unwrap_err().contains("fading.sinusoids"));
        assert!(FadingConfig::default().validate().is_ok());
    }
}

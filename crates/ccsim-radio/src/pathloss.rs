//! Large-scale path loss and shadowing.
//!
//! - **3GPP TR 38.901 (V16.1.0) Table 7.4.1-1**, UMi – Street Canyon and UMa, LOS and NLOS, valid
//!   0.5–100 GHz (ns3-mmwave's `ThreeGppUmiStreetCanyonPropagationLossModel` /
//!   `ThreeGppUmaPropagationLossModel`, ANCHORS §1.1).
//! - **Okumura–Hata** (Hata, IEEE Trans. Veh. Tech. 29(3), 1980) for 150–1500 MHz and its
//!   COST-231 extension (COST Action 231 final report, §4.4.3) for 1500–2000 MHz, as in ns-3's
//!   `OkumuraHataPropagationLossModel`; used for the LTE access of seed 004 ("European
//!   frequencies and a Okumura-Hata propagation model ... urban environment of a medium city").
//! - **Free space** (Friis): `20·log10(4π d f / c)`.
//! - **Log-normal shadowing**, spatially correlated as in TR 38.901 §7.4.4 / §7.5 step 6 and
//!   ns-3 `ThreeGppPropagationLossModel::GetShadowing`: `S ← R·S + √(1−R²)·N(0,σ²)` with
//!   `R = exp(−Δd / d_corr)`, a fresh draw whenever the LOS state changes. σ from Table 7.4.1-1,
//!   `d_corr` from Table 7.5-6 (Part 1).

use crate::geometry::Point3;
use ccsim_core::RngStream;
use serde::{Deserialize, Serialize};

/// Speed of light (m/s), as in TR 38.901 (`c = 3.0×10^8`).
pub const SPEED_OF_LIGHT: f64 = 3.0e8;

/// City size of the Okumura–Hata mobile-antenna correction (ns-3 `CitySize`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CitySize {
    Small,
    Medium,
    Large,
}

/// Environment of the Okumura–Hata model (ns-3 `EnvironmentType`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HataEnvironment {
    Urban,
    Suburban,
    OpenArea,
}

/// Path-loss model of a radio technology.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "snake_case", tag = "model")]
pub enum PathLossModel {
    /// TR 38.901 UMi – Street Canyon (the mmWave default).
    UmiStreetCanyon,
    /// TR 38.901 UMa (ns3-mmwave's helper default).
    Uma,
    /// Okumura–Hata / COST-231 Hata (LTE, seed 004). Ignores LOS.
    OkumuraHata {
        #[serde(default = "default_city")]
        city: CitySize,
        #[serde(default = "default_env")]
        environment: HataEnvironment,
    },
    /// Friis free-space loss. Ignores LOS.
    FreeSpace,
    /// ns3-mmwave `MmWavePropagationLossModel` at 28 GHz (Akdeniz et al., "Millimeter wave
    /// channel modeling and cellular capacity evaluation", IEEE JSAC 32(6), 2014, Table I):
    /// `α + 10·β·log10(d3D)`, (α, β) = (61.4, 2.0) in its LOS state, (72.0, 2.92) in NLOS. The
    /// module draws that state once per link from the distance (P_LOS = e^(−0.0149 d)) and
    /// keeps it for the whole run, buildings or not (`mmwave-propagation-loss-model.cc`);
    /// `state` fixes it. Obstacle blockage losses still apply while an obstacle blocks the ray.
    MmwaveNyu {
        #[serde(default = "default_nyu_state")]
        state: NyuState,
    },
}

/// The link state of [`PathLossModel::MmwaveNyu`] (its `'l'` / `'n'`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NyuState {
    Los,
    Nlos,
}

fn default_nyu_state() -> NyuState {
    NyuState::Los
}

/// [`PathLossModel::MmwaveNyu`]'s loss (dB) at 28 GHz.
pub fn mmwave_nyu_db(d3d_m: f64, state: NyuState) -> f64 {
    let (alpha, beta) = match state {
        NyuState::Los => (61.4, 2.0),
        NyuState::Nlos => (72.0, 2.92),
    };
    alpha + 10.0 * beta * d3d_m.max(1.0).log10()
}

fn default_city() -> CitySize {
    CitySize::Medium
}
fn default_env() -> HataEnvironment {
    HataEnvironment::Urban
}

impl PathLossModel {
    /// Path loss in dB between `bs` and `ut` at carrier `fc_hz`, LOS or NLOS.
    pub fn loss_db(&self, bs: Point3, ut: Point3, fc_hz: f64, los: bool) -> f64 {
        match *self {
            PathLossModel::UmiStreetCanyon => umi_street_canyon_db(bs, ut, fc_hz, los),
            PathLossModel::Uma => uma_db(bs, ut, fc_hz, los),
            PathLossModel::OkumuraHata { city, environment } => {
                okumura_hata_db(bs.distance_2d(ut), fc_hz, bs.z, ut.z, city, environment)
            }
            PathLossModel::FreeSpace => free_space_db(bs.distance_3d(ut), fc_hz),
            PathLossModel::MmwaveNyu { state } => mmwave_nyu_db(bs.distance_3d(ut), state),
        }
    }

    /// Whether the model distinguishes LOS from NLOS. Okumura–Hata is an area-mean model whose
    /// urban clutter already includes the buildings, and free space is free space, so neither
    /// takes LOS or obstacle blockage losses into account.
    pub fn uses_los(&self) -> bool {
        matches!(
            self,
            PathLossModel::UmiStreetCanyon | PathLossModel::Uma | PathLossModel::MmwaveNyu { .. }
        )
    }

    /// Shadow-fading standard deviation σ_SF (dB), TR 38.901 Table 7.4.1-1. The Hata and
    /// free-space models carry no shadowing here (0).
    pub fn shadowing_sigma_db(&self, los: bool) -> f64 {
        match (self, los) {
            (PathLossModel::UmiStreetCanyon, true) => 4.0,
            (PathLossModel::UmiStreetCanyon, false) => 7.82,
            (PathLossModel::Uma, true) => 4.0,
            (PathLossModel::Uma, false) => 6.0,
            // Akdeniz et al. Table I: ξ of 5.8 dB (LOS) and 8.7 dB (NLOS).
            (PathLossModel::MmwaveNyu { state }, _) => match state {
                NyuState::Los => 5.8,
                NyuState::Nlos => 8.7,
            },
            _ => 0.0,
        }
    }

    /// Shadowing decorrelation distance (m), TR 38.901 Table 7.5-6 Part 1 (SF row).
    pub fn decorrelation_m(&self, los: bool) -> f64 {
        match (self, los) {
            (PathLossModel::UmiStreetCanyon, true) => 10.0,
            (PathLossModel::UmiStreetCanyon, false) => 13.0,
            (PathLossModel::Uma, true) => 37.0,
            (PathLossModel::Uma, false) => 50.0,
            _ => 50.0,
        }
    }
}

/// UT height range of Table 7.4.1-1 (1.5 m ≤ h_UT ≤ 22.5 m). Heights outside are clamped for
/// the formula only (a 1 m UE would give a zero effective height and a zero breakpoint).
fn clamp_ut_height(h: f64) -> f64 {
    h.clamp(1.5, 22.5)
}

/// Breakpoint distance `d'_BP = 4·h'_BS·h'_UT·f_c / c` with effective heights
/// `h' = h − h_E` (TR 38.901 Table 7.4.1-1 note 1), `h_E = 1 m` (UMi; UMa for h_UT < 13 m).
fn breakpoint_m(h_bs: f64, h_ut: f64, fc_hz: f64) -> f64 {
    let h_e = 1.0;
    4.0 * (h_bs - h_e).max(0.0) * (h_ut - h_e).max(0.0) * fc_hz / SPEED_OF_LIGHT
}

/// TR 38.901 Table 7.4.1-1, UMi – Street Canyon. `f_c` in GHz in the formulas, distances in m.
///
/// LOS: `PL1 = 32.4 + 21·log10(d3D) + 20·log10(fc)` for `d2D ≤ d'BP`,
/// `PL2 = 32.4 + 40·log10(d3D) + 20·log10(fc) − 9.5·log10(d'BP² + (hBS − hUT)²)` beyond.
/// NLOS: `max(PL_LOS, 35.3·log10(d3D) + 22.4 + 21.3·log10(fc) − 0.3·(hUT − 1.5))`.
/// Below the 10 m minimum d2D the formulas are extrapolated (as ns-3 does); d3D ≥ 1 m.
pub fn umi_street_canyon_db(bs: Point3, ut: Point3, fc_hz: f64, los: bool) -> f64 {
    let h_ut = clamp_ut_height(ut.z);
    let h_bs = bs.z;
    let d2 = bs.distance_2d(ut);
    let d3 = d2.hypot(h_bs - h_ut).max(1.0);
    let fc = fc_hz / 1e9;
    let dbp = breakpoint_m(h_bs, h_ut, fc_hz);
    let pl_los = if d2 <= dbp {
        32.4 + 21.0 * d3.log10() + 20.0 * fc.log10()
    } else {
        32.4 + 40.0 * d3.log10() + 20.0 * fc.log10()
            - 9.5 * (dbp * dbp + (h_bs - h_ut).powi(2)).log10()
    };
    if los {
        return pl_los;
    }
    let pl_nlos = 35.3 * d3.log10() + 22.4 + 21.3 * fc.log10() - 0.3 * (h_ut - 1.5);
    pl_los.max(pl_nlos)
}

/// TR 38.901 Table 7.4.1-1, UMa (with `h_E = 1 m`, exact for h_UT < 13 m).
///
/// LOS: `PL1 = 28.0 + 22·log10(d3D) + 20·log10(fc)`,
/// `PL2 = 28.0 + 40·log10(d3D) + 20·log10(fc) − 9·log10(d'BP² + (hBS − hUT)²)`.
/// NLOS: `max(PL_LOS, 13.54 + 39.08·log10(d3D) + 20·log10(fc) − 0.6·(hUT − 1.5))`.
pub fn uma_db(bs: Point3, ut: Point3, fc_hz: f64, los: bool) -> f64 {
    let h_ut = clamp_ut_height(ut.z);
    let h_bs = bs.z;
    let d2 = bs.distance_2d(ut);
    let d3 = d2.hypot(h_bs - h_ut).max(1.0);
    let fc = fc_hz / 1e9;
    let dbp = breakpoint_m(h_bs, h_ut, fc_hz);
    let pl_los = if d2 <= dbp {
        28.0 + 22.0 * d3.log10() + 20.0 * fc.log10()
    } else {
        28.0 + 40.0 * d3.log10() + 20.0 * fc.log10()
            - 9.0 * (dbp * dbp + (h_bs - h_ut).powi(2)).log10()
    };
    if los {
        return pl_los;
    }
    let pl_nlos = 13.54 + 39.08 * d3.log10() + 20.0 * fc.log10() - 0.6 * (h_ut - 1.5);
    pl_los.max(pl_nlos)
}

/// Okumura–Hata (f ≤ 1500 MHz) and COST-231 Hata (f > 1500 MHz), distance `d_m` in metres
/// (used in km), `f` in MHz in the formulas, `h_b`/`h_m` base and mobile antenna heights (m).
///
/// Hata: `L = 69.55 + 26.16·log f − 13.82·log h_b − a(h_m) + (44.9 − 6.55·log h_b)·log d`, with
/// `a(h_m) = (1.1·log f − 0.7)·h_m − (1.56·log f − 0.8)` (small/medium city) or
/// `3.2·(log(11.75·h_m))² − 4.97` (large city, f ≥ 400 MHz; `8.29·(log(1.54·h_m))² − 1.1` below);
/// suburban: `− 2·(log(f/28))² − 5.4`; open area: `− 4.78·(log f)² + 18.33·log f − 40.94`.
/// COST-231: `L = 46.3 + 33.9·log f − 13.82·log h_b − a(h_m) + (44.9 − 6.55·log h_b)·log d + C`,
/// `C = 3 dB` for a large city (metropolitan centre), else 0 (ns-3 applies no environment term
/// above 1500 MHz, and neither does this).
pub fn okumura_hata_db(
    d_m: f64,
    fc_hz: f64,
    h_b: f64,
    h_m: f64,
    city: CitySize,
    env: HataEnvironment,
) -> f64 {
    let f = fc_hz / 1e6;
    let log_f = f.log10();
    let log_hb = h_b.max(1.0).log10();
    let log_d = (d_m / 1000.0).max(1e-3).log10();
    let a_small = (1.1 * log_f - 0.7) * h_m - (1.56 * log_f - 0.8);
    if f <= 1500.0 {
        let a_hm = match city {
            CitySize::Large if f >= 400.0 => 3.2 * (11.75 * h_m).log10().powi(2) - 4.97,
            CitySize::Large => 8.29 * (1.54 * h_m).log10().powi(2) - 1.1,
            _ => a_small,
        };
        let urban = 69.55 + 26.16 * log_f - 13.82 * log_hb - a_hm + (44.9 - 6.55 * log_hb) * log_d;
        match env {
            HataEnvironment::Urban => urban,
            HataEnvironment::Suburban => urban - 2.0 * (f / 28.0).log10().powi(2) - 5.4,
            HataEnvironment::OpenArea => urban - 4.78 * log_f * log_f + 18.33 * log_f - 40.94,
        }
    } else {
        let (a_hm, c) = match city {
            CitySize::Large => (3.2 * (11.75 * h_m).log10().powi(2) - 4.97, 3.0),
            _ => (a_small, 0.0),
        };
        46.3 + 33.9 * log_f - 13.82 * log_hb - a_hm + (44.9 - 6.55 * log_hb) * log_d + c
    }
}

/// Friis free-space path loss `20·log10(4π·d·f/c)` (d ≥ 1 m).
pub fn free_space_db(d_m: f64, fc_hz: f64) -> f64 {
    20.0 * (4.0 * std::f64::consts::PI * d_m.max(1.0) * fc_hz / SPEED_OF_LIGHT).log10()
}

/// A standard normal draw (Box–Muller, Box & Muller 1958) from a named stream.
pub fn standard_normal(rng: &mut RngStream) -> f64 {
    let u1 = 1.0 - rng.next_f64(); // (0, 1]
    let u2 = rng.next_f64();
    (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
}

/// Spatially correlated log-normal shadowing of one BS–UT pair (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct Shadowing {
    state: Option<(f64, Point3, bool)>,
}

impl Shadowing {
    /// The shadowing (dB) at UT position `pos`: correlated with the previous value when the LOS
    /// state is unchanged, a fresh draw otherwise.
    pub fn update(
        &mut self,
        rng: &mut RngStream,
        model: &PathLossModel,
        pos: Point3,
        los: bool,
    ) -> f64 {
        let sigma = model.shadowing_sigma_db(los);
        let value = match self.state {
            Some((prev, prev_pos, prev_los)) if prev_los == los => {
                let r = (-pos.distance_2d(prev_pos) / model.decorrelation_m(los)).exp();
                r * prev + (1.0 - r * r).sqrt() * sigma * standard_normal(rng)
            }
            _ => sigma * standard_normal(rng),
        };
        self.state = Some((value, pos, los));
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn umi_los_below_breakpoint() {
        // hBS 10, hUT 1.5, d2D 100 m, 28 GHz: d'BP = 4·9·0.5·28e9/3e8 = 1680 m.
        let bs = Point3::new(0.0, 0.0, 10.0);
        let ut = Point3::new(100.0, 0.0, 1.5);
        let d3 = 100f64.hypot(8.5);
        let expect = 32.4 + 21.0 * d3.log10() + 20.0 * 28f64.log10();
        assert!(close(
            umi_street_canyon_db(bs, ut, 28e9, true),
            expect,
            1e-9
        ));
        assert!(close(expect, 103.3, 0.1));
    }

    #[test]
    fn umi_los_beyond_breakpoint_is_continuous() {
        // At d2D = d'BP both branches meet (within the small d2D/d3D difference).
        let fc = 3.5e9; // d'BP = 4·9·0.5·3.5e9/3e8 = 210 m
        let bs = Point3::new(0.0, 0.0, 10.0);
        let below = umi_street_canyon_db(bs, Point3::new(209.999, 0.0, 1.5), fc, true);
        let above = umi_street_canyon_db(bs, Point3::new(210.001, 0.0, 1.5), fc, true);
        assert!(close(below, above, 0.01), "{below} vs {above}");
    }

    #[test]
    fn umi_nlos_exceeds_los() {
        let bs = Point3::new(0.0, 0.0, 10.0);
        let ut = Point3::new(150.0, 0.0, 1.5);
        let los = umi_street_canyon_db(bs, ut, 28e9, true);
        let nlos = umi_street_canyon_db(bs, ut, 28e9, false);
        let d3 = 150f64.hypot(8.5);
        let expect = 35.3 * d3.log10() + 22.4 + 21.3 * 28f64.log10();
        assert!(close(nlos, expect, 1e-9));
        assert!(nlos - los > 20.0);
    }

    #[test]
    fn uma_values() {
        let bs = Point3::new(0.0, 0.0, 25.0);
        let ut = Point3::new(200.0, 0.0, 1.5);
        let d3 = 200f64.hypot(23.5);
        let los = 28.0 + 22.0 * d3.log10() + 20.0 * 28f64.log10();
        assert!(close(uma_db(bs, ut, 28e9, true), los, 1e-9));
        let nlos = 13.54 + 39.08 * d3.log10() + 20.0 * 28f64.log10();
        assert!(close(uma_db(bs, ut, 28e9, false), nlos, 1e-9));
    }

    #[test]
    fn hata_reference_values() {
        // Hata urban, 900 MHz, hb 30 m, hm 1.5 m, 1 km: the textbook ≈ 126.4 dB.
        let l = okumura_hata_db(
            1000.0,
            900e6,
            30.0,
            1.5,
            CitySize::Medium,
            HataEnvironment::Urban,
        );
        assert!(close(l, 126.4, 0.1), "{l}");
        // COST-231 medium city at 2120 MHz (LTE band 1 DL), 1 km: ≈ 138.5 dB.
        let c = okumura_hata_db(
            1000.0,
            2120e6,
            30.0,
            1.5,
            CitySize::Medium,
            HataEnvironment::Urban,
        );
        assert!(close(c, 138.5, 0.2), "{c}");
        let large = okumura_hata_db(
            1000.0,
            2120e6,
            30.0,
            1.5,
            CitySize::Large,
            HataEnvironment::Urban,
        );
        assert!(large > c + 2.5);
        // Suburban and open area are below urban.
        let sub = okumura_hata_db(
            1000.0,
            900e6,
            30.0,
            1.5,
            CitySize::Medium,
            HataEnvironment::Suburban,
        );
        let open = okumura_hata_db(
            1000.0,
            900e6,
            30.0,
            1.5,
            CitySize::Medium,
            HataEnvironment::OpenArea,
        );
        assert!(open < sub && sub < l);
        // 35.2 dB per decade of distance with hb = 30 m.
        let l10 = okumura_hata_db(
            10_000.0,
            900e6,
            30.0,
            1.5,
            CitySize::Medium,
            HataEnvironment::Urban,
        );
        assert!(close(l10 - l, 44.9 - 6.55 * 30f64.log10(), 1e-9));
    }

    #[test]
    fn free_space_at_28ghz() {
        // 1 m at 28 GHz: 20·log10(4π/λ), λ = 10.71 mm -> 61.4 dB.
        assert!(close(free_space_db(1.0, 28e9), 61.38, 0.01));
    }

    #[test]
    fn ns3_mmwave_nyu_model() {
        // Its LOS state is free space from 1 m (α = FSPL(1 m) at 28 GHz, β = 2).
        for d in [10.0, 59.5, 300.0] {
            assert!(close(
                mmwave_nyu_db(d, NyuState::Los),
                free_space_db(d, 28e9),
                0.05
            ));
        }
        // 59.5 m (seed 002's start): 96.9 dB LOS, 123.8 dB NLOS; the state ignores LOS.
        let m = PathLossModel::MmwaveNyu {
            state: NyuState::Los,
        };
        let (bs, ut) = (Point3::new(0.0, 0.0, 30.0), Point3::new(50.0, 15.0, 1.5));
        assert!(close(m.loss_db(bs, ut, 28e9, false), 96.9, 0.05));
        let n = PathLossModel::MmwaveNyu {
            state: NyuState::Nlos,
        };
        assert!(close(n.loss_db(bs, ut, 28e9, true), 123.8, 0.05));
        assert!(m.uses_los());
    }

    #[test]
    fn shadowing_statistics_and_correlation() {
        let model = PathLossModel::UmiStreetCanyon;
        let mut rng = RngStream::new(42, "shadowing-test");
        // Independent draws (fresh state each time): mean ≈ 0, σ ≈ 7.82 (NLOS).
        let n = 20_000;
        let xs: Vec<f64> = (0..n)
            .map(|_| Shadowing::default().update(&mut rng, &model, Point3::default(), false))
            .collect();
        let mean = xs.iter().sum::<f64>() / n as f64;
        let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n as f64;
        assert!(mean.abs() < 0.2, "mean {mean}");
        assert!((var.sqrt() - 7.82).abs() < 0.2, "sigma {}", var.sqrt());
        // A tiny move keeps the value almost unchanged; a change of LOS state redraws.
        let mut s = Shadowing::default();
        let a = s.update(&mut rng, &model, Point3::new(0.0, 0.0, 1.5), true);
        let b = s.update(&mut rng, &model, Point3::new(0.01, 0.0, 1.5), true);
        assert!((a - b).abs() < 0.6, "{a} {b}");
        // Deterministic per stream.
        let mut r1 = RngStream::new(7, "x");
        let mut r2 = RngStream::new(7, "x");
        assert_eq!(standard_normal(&mut r1), standard_normal(&mut r2));
    }
}

//! Link adaptation as ns3-mmwave does it: an MCS table (MCS 0–28), its TB sizes, an MCS chosen
//! from a CQI reported periodically (so it lags the channel), a BLER drawn from the SINR the TB
//! actually meets, and HARQ retransmissions whose SINRs combine.
//!
//! - **MCS table**: ns3-mmwave's `MmWaveLteMiErrorModel` (`error-model/
//!   mmwave-lte-mi-error-model.cc`, the `ErrorModelType` default of `MmWaveAmc`): modulation
//!   order `ModulationSchemeForMcs` and effective code rate `McsEcrTable` per MCS, the LTE MCS
//!   set (TS 36.213 Table 7.1.7.1-1) up to 64QAM. A TB carries `Qm · ECR` bits per resource
//!   element: MCS 28 = 6 · 0.92 = 5.52.
//! - **TB size** (`MmWaveAmc::CalculateTbSize`, `GetPayloadSize`): `⌊11 · N_RB · n_sym · Qm ·
//!   ECR / 8⌋` bytes (12 subcarriers per RB less 1 reference subcarrier, TDMA: a UE gets whole
//!   symbols over the whole band), less 3 CRC bytes per 768-byte (6144-bit) code block.
//!   200 MHz at numerology 2 is `⌈200 MHz / 720 kHz⌉` = 278 RB: MCS 28 on 12 data symbols
//!   (14 less one DL and one UL control symbol) gives 25 224 B per 250 µs slot, 807 Mb/s.
//! - **Thresholds and BLER**: the SINR at which MCS m meets 10 % BLER is its Shannon SINR plus
//!   a gap, `10·log10(2^SE − 1) + gap_db`, with the 6.08 dB gap of this crate's CQI table 1
//!   (Kawser et al.'s 22.7 dB for 64QAM r = 948/1024, see [`crate::amc`]); MCS 28 needs 22.6 dB.
//!   Around it the BLER is a logistic waterfall `1 / (1 + exp((SINR − SINR₅₀)/w))` with
//!   `SINR₅₀ = threshold − w·ln 9`, so that BLER(threshold) = 0.1; `w` = 0.3 dB puts 90 % → 10 %
//!   within 1.3 dB, the steepness of turbo-coded TBs of thousands of bits (an assumption in
//!   place of ns3-mmwave's per-code-block MI curves).
//! - **CQI**: the UE reports a wideband CQI every `cqi_period_us` (ns3-mmwave
//!   `MmWaveUePhy::CqiReportPeriod`, 10 slots = 2.5 ms at numerology 2); the gNB uses it
//!   `cqi_delay_slots` later (`m_L1L2Latency` = 2). The MCS is the highest whose threshold the
//!   reported SINR meets (`MmWaveAmc::CreateCqiFeedbackWbTdma`: the highest MCS with BLER ≤ 0.1).
//! - **HARQ**: a failed TB is retransmitted every `harq.rtt_slots` with the same MCS, and the
//!   receiver combines the attempts: the effective SINR of attempt k is the sum of the linear
//!   SINRs of attempts 1..k (Chase combining, a lower bound of ns3-mmwave's incremental
//!   redundancy, which combines mutual information). After `harq.max_attempts` RLC AM
//!   retransmits (a fresh round, no combining), up to `rlc.max_retx` times; then the TB is lost.
//!   The RLC retransmission keeps the TB's MCS, or with `rlc_retx_fresh_mcs` takes the MCS of
//!   the CQI in force when it is sent, as in ns3-mmwave, whose RLC AM re-segments the PDU into
//!   a TB the scheduler sizes like new data (`MmWaveFlexTtiMacScheduler`: the MCS from the
//!   last wideband CQI; a CQI below MCS 0 is sent at MCS 0 here, where the tree waits).

use crate::amc::FrameConfig;
use crate::mcs_choice::{quantize_through_cqi, scale_bler, CodeBlockRule, TREE_FLAT_THRESHOLD_DB};
use crate::rlc::{arq_rounds, harq_rtt, retry_tb, Attempt, HarqConfig, RlcConfig, TbOutcome};
use ccsim_core::{RngStream, Time};
use serde::{Deserialize, Serialize};

/// (modulation order, effective code rate) of MCS 0–28, ns3-mmwave `ModulationSchemeForMcs` and
/// `McsEcrTable` (`mmwave-lte-mi-error-model.cc`).
pub const NS3_MMWAVE_MCS: [(u8, f64); 29] = [
    (2, 0.08),
    (2, 0.1),
    (2, 0.11),
    (2, 0.15),
    (2, 0.19),
    (2, 0.24),
    (2, 0.3),
    (2, 0.37),
    (2, 0.44),
    (2, 0.51),
    (4, 0.3),
    (4, 0.33),
    (4, 0.37),
    (4, 0.42),
    (4, 0.48),
    (4, 0.54),
    (4, 0.6),
    (6, 0.43),
    (6, 0.45),
    (6, 0.5),
    (6, 0.55),
    (6, 0.6),
    (6, 0.65),
    (6, 0.7),
    (6, 0.75),
    (6, 0.8),
    (6, 0.85),
    (6, 0.89),
    (6, 0.92),
];

/// Useful subcarriers per RB (12 less 1 reference subcarrier, `MmWavePhyMacCommon`).
pub const USEFUL_SUBCARRIERS_PER_RB: u32 = 11;
const CRC_BYTES: u32 = 3;
const CODE_BLOCK_BYTES: u32 = 6144 / 8;

/// Bits per resource element of `mcs` (`Qm · ECR`).
pub fn mcs_efficiency(mcs: u8) -> f64 {
    let (qm, ecr) = NS3_MMWAVE_MCS[mcs as usize];
    qm as f64 * ecr
}

/// TB size (bytes) of `mcs` on `n_sym` symbols of `n_rb` resource blocks, as
/// `MmWaveAmc::CalculateTbSize` (including its integer division for the code-block count).
pub fn tb_size_bytes(mcs: u8, n_sym: u32, n_rb: u32) -> u32 {
    let re = USEFUL_SUBCARRIERS_PER_RB * n_rb * n_sym;
    let payload = (re as f64 * mcs_efficiency(mcs) / 8.0) as u32;
    let mut tb = payload.saturating_sub(CRC_BYTES);
    if tb > CODE_BLOCK_BYTES {
        let c = tb / CODE_BLOCK_BYTES;
        tb = payload - c * CRC_BYTES;
    }
    tb
}

/// CQI-driven link adaptation with SINR-dependent BLER (the `link_adaptation` key of a cell).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinkAdaptationConfig {
    /// CQI report period (µs): 2500, ns3-mmwave `CqiReportPeriod` (10 slots of 250 µs).
    #[serde(default = "default_cqi_period")]
    pub cqi_period_us: u64,
    /// Slots between a report and the first TB that uses it (`m_L1L2Latency` 2).
    #[serde(default = "default_cqi_delay")]
    pub cqi_delay_slots: u32,
    /// SINR gap (dB) over Shannon at 10 % BLER: 6.08 (see the module docs).
    #[serde(default = "default_gap")]
    pub gap_db: f64,
    /// Logistic width (dB) of the BLER waterfall: 0.3 (an assumption).
    #[serde(default = "default_width")]
    pub bler_width_db: f64,
    /// Highest MCS used (0–28); 28.
    #[serde(default = "default_max_mcs")]
    pub max_mcs: u8,
    /// RLC AM retransmissions use the MCS of the CQI then in force (ns3-mmwave), not the
    /// failed TB's (false, the default). Matters when the channel falls between a CQI and the
    /// TB (a 100 ms fading redraw): the old MCS fails every round, the fresh one gets through.
    #[serde(default)]
    pub rlc_retx_fresh_mcs: bool,
    /// The MCS goes through the CQI the UE reports, as in ns3-mmwave: the highest decoding
    /// MCS → the highest CQI not above its efficiency → the highest MCS not above that CQI's
    /// ([`crate::mcs_choice`]). False (default): the highest decoding MCS is used.
    #[serde(default)]
    pub cqi_quantization: bool,
    /// Symbols of the TB the MCS choice is made for (ns3-mmwave: 1); a TB of `C` code blocks
    /// then fails with `1 − (1 − BLER)^(C / C_ref)` ([`crate::mcs_choice`]). 0 (default): the
    /// waterfall is every TB's own BLER.
    #[serde(default)]
    pub mcs_reference_symbols: u32,
    /// Where each MCS's 10 % threshold comes from: `shannon_gap` (default: Shannon SINR +
    /// `gap_db`) or `tree_mi` (the ns3-mmwave tree's MI error model on a flat channel for the
    /// one-symbol TB its AMC tests; `gap_db` is then unused). [`crate::mcs_choice`].
    #[serde(default)]
    pub mcs_thresholds: McsThresholds,
    /// MI-equivalent SINR loss (dB) of the per-RB SINR spread while the link is NLOS: the MCS
    /// and the TBs' BLER see the mean SINR less this (LOS: flat, no loss). 0 (default): off.
    /// [`crate::mcs_choice`].
    #[serde(default)]
    pub nlos_rb_loss_db: f64,
}

/// The source of the per-MCS 10 % BLER thresholds (`link_adaptation.mcs_thresholds`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum McsThresholds {
    /// Shannon SINR of the MCS's efficiency plus `gap_db`.
    #[default]
    ShannonGap,
    /// The tree's flat-channel thresholds ([`crate::mcs_choice::TREE_FLAT_THRESHOLD_DB`]).
    TreeMi,
}

fn default_cqi_period() -> u64 {
    2_500
}
fn default_cqi_delay() -> u32 {
    2
}
fn default_gap() -> f64 {
    6.08
}
fn default_width() -> f64 {
    0.3
}
fn default_max_mcs() -> u8 {
    28
}

impl Default for LinkAdaptationConfig {
    fn default() -> Self {
        LinkAdaptationConfig {
            cqi_period_us: default_cqi_period(),
            cqi_delay_slots: default_cqi_delay(),
            gap_db: default_gap(),
            bler_width_db: default_width(),
            max_mcs: default_max_mcs(),
            rlc_retx_fresh_mcs: false,
            cqi_quantization: false,
            mcs_reference_symbols: 0,
            mcs_thresholds: McsThresholds::ShannonGap,
            nlos_rb_loss_db: 0.0,
        }
    }
}

impl LinkAdaptationConfig {
    /// Checks the ranges; the error names the key and the allowed values.
    pub fn validate(&self) -> Result<(), String> {
        if self.cqi_period_us == 0 {
            return Err("link_adaptation.cqi_period_us = 0: allowed > 0".into());
        }
        if self.max_mcs > 28 {
            return Err(format!(
                "link_adaptation.max_mcs = {}: allowed 0..=28",
                self.max_mcs
            ));
        }
        if !(self.bler_width_db.is_finite() && self.bler_width_db > 0.0) {
            return Err("link_adaptation.bler_width_db: allowed a finite value > 0".into());
        }
        if !self.gap_db.is_finite() {
            return Err("link_adaptation.gap_db: allowed a finite value (dB)".into());
        }
        if !(self.nlos_rb_loss_db.is_finite() && self.nlos_rb_loss_db >= 0.0) {
            return Err("link_adaptation.nlos_rb_loss_db: allowed a finite value >= 0 (dB)".into());
        }
        if self.mcs_reference_symbols > 14 {
            return Err(format!(
                "link_adaptation.mcs_reference_symbols = {}: allowed 0 (off) or 1..=14 symbols",
                self.mcs_reference_symbols
            ));
        }
        Ok(())
    }

    /// SINR (dB) at which `mcs` meets 10 % BLER.
    pub fn threshold_db(&self, mcs: u8) -> f64 {
        match self.mcs_thresholds {
            McsThresholds::ShannonGap => {
                10.0 * (2f64.powf(mcs_efficiency(mcs)) - 1.0).log10() + self.gap_db
            }
            McsThresholds::TreeMi => TREE_FLAT_THRESHOLD_DB[mcs as usize],
        }
    }

    /// The offset (dB) from the mean SINR to the SINR the link adaptation works on, for a
    /// link in LOS (`los`) or not: `−nlos_rb_loss_db` behind an obstacle, else 0.
    pub fn rb_offset_db(&self, los: bool) -> f64 {
        if los {
            0.0
        } else {
            -self.nlos_rb_loss_db
        }
    }

    /// Block error rate of a TB at `mcs` decoded at `sinr_db`.
    pub fn bler(&self, sinr_db: f64, mcs: u8) -> f64 {
        bler_at(sinr_db, self.bler_mid_db(mcs), self.bler_width_db)
    }

    /// The waterfall's midpoint (50 % BLER) for `mcs`.
    fn bler_mid_db(&self, mcs: u8) -> f64 {
        self.threshold_db(mcs) - self.bler_width_db * 9f64.ln()
    }

    /// The highest MCS whose threshold `sinr_db` meets (through the CQI with
    /// `cqi_quantization`); None below MCS 0 (CQI 0: not scheduled).
    pub fn select_mcs(&self, sinr_db: f64) -> Option<u8> {
        (0..=self.max_mcs)
            .rev()
            .find(|&m| sinr_db >= self.threshold_db(m))
            .map(|m| self.quantize(m))
    }

    /// `mcs` as scheduled: itself, or through the CQI with `cqi_quantization`.
    #[inline]
    fn quantize(&self, mcs: u8) -> u8 {
        if self.cqi_quantization {
            quantize_through_cqi(mcs, self.max_mcs)
        } else {
            mcs
        }
    }

    /// The instant of the CQI report in force for a TB sent at `slot_start`: the last report
    /// at least `cqi_delay_slots` before it (reports at multiples of the period).
    pub fn report_instant(&self, slot_start: Time, slot_ns: u64) -> Time {
        let delay = slot_ns * self.cqi_delay_slots as u64;
        let p = self.cqi_period_us * 1000;
        Time(slot_start.as_nanos().saturating_sub(delay) / p * p)
    }
}

#[inline]
fn db_to_linear(db: f64) -> f64 {
    10f64.powf(db / 10.0)
}

/// The logistic waterfall: BLER at `sinr_db` with midpoint `mid_db` and width `w` dB.
#[inline]
fn bler_at(sinr_db: f64, mid_db: f64, w: f64) -> f64 {
    1.0 / (1.0 + ((sinr_db - mid_db) / w).exp())
}

/// The per-MCS constants of a [`LinkAdaptationConfig`], computed once per cell: its
/// `threshold_db` and the BLER waterfall's midpoint, each a `powf` and a `log10` per call,
/// were evaluated several times per TB. Same arithmetic, so the same values bit for bit.
#[derive(Clone, Debug)]
pub struct McsTable {
    la: LinkAdaptationConfig,
    threshold_db: [f64; NS3_MMWAVE_MCS.len()],
    mid_db: [f64; NS3_MMWAVE_MCS.len()],
    /// The last [`McsTable::first_attempt`]: (SINR bits, MCS, exponent bits, linear SINR,
    /// BLER). The SINR is constant within a channel block (100 ms), so consecutive TBs ask
    /// the same.
    first: std::cell::Cell<(u64, u8, u64, f64, f64)>,
    /// `mcs_reference_symbols`' rule on the cell's frame; None when off.
    code_blocks: Option<CodeBlockRule>,
}

impl McsTable {
    /// The table without the code-block rule (`mcs_reference_symbols` needs the frame).
    pub fn new(la: &LinkAdaptationConfig) -> Self {
        McsTable {
            la: la.clone(),
            threshold_db: std::array::from_fn(|m| la.threshold_db(m as u8)),
            mid_db: std::array::from_fn(|m| la.bler_mid_db(m as u8)),
            first: std::cell::Cell::new((0, u8::MAX, 0, 0.0, 0.0)), // no MCS is 255
            code_blocks: None,
        }
    }

    /// The cell's table: with `mcs_reference_symbols`, TBs are sized on `frame`.
    pub fn with_frame(la: &LinkAdaptationConfig, frame: &FrameConfig) -> Self {
        McsTable {
            code_blocks: CodeBlockRule::new(la.mcs_reference_symbols, frame),
            ..McsTable::new(la)
        }
    }

    /// `C / C_ref` of a TB of `units` at `mcs`; 1 without the code-block rule.
    #[inline]
    pub fn exponent(&self, mcs: u8, units: u64) -> f64 {
        self.code_blocks
            .as_ref()
            .map_or(1.0, |r| r.exponent(mcs, units))
    }

    /// Linear SINR and BLER of the first attempt of a HARQ round at `sinr_db` and `mcs` for a
    /// TB of exponent `e` ([`McsTable::exponent`]; nothing combined yet), memoised for the
    /// last triple.
    #[inline]
    pub fn first_attempt(&self, sinr_db: f64, mcs: u8, e: f64) -> (f64, f64) {
        let (bits, m, eb, lin, bler) = self.first.get();
        if bits == sinr_db.to_bits() && m == mcs && eb == e.to_bits() {
            return (lin, bler);
        }
        let lin = db_to_linear(sinr_db);
        let bler = scale_bler(self.bler(10.0 * lin.log10(), mcs), e);
        self.first
            .set((sinr_db.to_bits(), mcs, e.to_bits(), lin, bler));
        (lin, bler)
    }

    pub fn config(&self) -> &LinkAdaptationConfig {
        &self.la
    }

    /// [`LinkAdaptationConfig::bler`].
    #[inline]
    pub fn bler(&self, sinr_db: f64, mcs: u8) -> f64 {
        bler_at(sinr_db, self.mid_db[mcs as usize], self.la.bler_width_db)
    }

    /// [`LinkAdaptationConfig::select_mcs`].
    #[inline]
    pub fn select_mcs(&self, sinr_db: f64) -> Option<u8> {
        (0..=self.la.max_mcs)
            .rev()
            .find(|&m| sinr_db >= self.threshold_db[m as usize])
            .map(|m| self.la.quantize(m))
    }
}

/// Draws the fate of a TB at `mcs` whose attempt at offset `o` from the first transmission
/// meets `sinr_at(o)` dB (see the module docs): the shared retry loop
/// ([`crate::rlc::retry_tb`]) with each attempt's BLER taken at the SINR combined over the
/// attempts of its HARQ round. With `rlc_retx_fresh_mcs`, an RLC retransmission at offset `o`
/// uses the MCS of `report_sinr_at(o)`, the SINR of the CQI in force then. `on_resend(offset)`
/// is called for every retransmission.
#[allow(clippy::too_many_arguments)] // the inputs of one draw; a struct would only rename them
pub fn draw_tb_outcome_sinr(
    rng: &mut RngStream,
    la: &McsTable,
    harq: &HarqConfig,
    rlc: &RlcConfig,
    slot: Time,
    mcs: u8,
    units: u64,
    mut sinr_at: impl FnMut(Time) -> f64,
    mut report_sinr_at: impl FnMut(Time) -> f64,
    on_resend: impl FnMut(Time),
) -> TbOutcome {
    let max_attempts = if harq.enabled { harq.max_attempts } else { 1 };
    let mut combined = 0.0; // set by every first attempt
    let mut round_mcs = mcs;
    let mut e = la.exponent(mcs, units);
    let fail_prob = |a: Attempt| {
        if a.in_round == 1 {
            // An RLC retransmission is a fresh HARQ process: nothing to combine with
            // (0.0 + x is x exactly, so the memoised first attempt is the same arithmetic).
            if a.rlc_round > 0 && la.config().rlc_retx_fresh_mcs {
                round_mcs = la.select_mcs(report_sinr_at(a.offset)).unwrap_or(0);
                e = la.exponent(round_mcs, units);
            }
            let (lin, bler) = la.first_attempt(sinr_at(a.offset), round_mcs, e);
            combined = lin;
            return bler;
        }
        combined += db_to_linear(sinr_at(a.offset));
        scale_bler(la.bler(10.0 * combined.log10(), round_mcs), e)
    };
    retry_tb(
        rng,
        harq_rtt(harq, slot),
        max_attempts,
        arq_rounds(rlc),
        rlc,
        fail_prob,
        on_resend,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rlc::RlcMode;

    #[test]
    fn tb_sizes_match_ns3_mmwave() {
        // 200 MHz, numerology 2: 278 RB. MCS 28 on 12 symbols: payload 25 320 B, 32 code
        // blocks → 25 224 B; on 11 symbols 23 120 B. The golden TB trace of seed 002 averages
        // 23 909 B per slot at MCS 28: 11 or 12 DL symbols, the rest taken by UL grants.
        assert_eq!(tb_size_bytes(28, 12, 278), 25_224);
        assert_eq!(tb_size_bytes(28, 11, 278), 23_120);
        // A one-symbol TB of MCS 0 has one code block: payload less 3 CRC bytes.
        let payload = (11.0 * 278.0 * 0.16 / 8.0) as u32;
        assert_eq!(tb_size_bytes(0, 1, 278), payload - 3);
        assert!((mcs_efficiency(28) - 5.52).abs() < 1e-12);
        for m in 1..=28u8 {
            assert!(mcs_efficiency(m) > mcs_efficiency(m - 1), "mcs {m}");
        }
    }

    #[test]
    fn thresholds_bler_and_selection() {
        let la = LinkAdaptationConfig::default();
        let t28 = la.threshold_db(28);
        assert!((t28 - 22.6).abs() < 0.1, "{t28}");
        assert!((la.bler(t28, 28) - 0.1).abs() < 1e-9);
        assert!(la.bler(t28 - 2.0, 28) > 0.95);
        assert!(la.bler(t28 + 2.0, 28) < 1e-3);
        // The seed 002 reference's SINRs (45 dB LOS, 28–40 dB NLOS) all give MCS 28, BLER ≈ 0.
        assert_eq!(la.select_mcs(45.0), Some(28));
        assert_eq!(la.select_mcs(28.0), Some(28));
        assert!(la.bler(27.8, 28) < 1e-6);
        assert_eq!(la.select_mcs(-20.0), None);
        assert_eq!(la.select_mcs(la.threshold_db(10)), Some(10));
        assert_eq!(la.select_mcs(la.threshold_db(10) - 1e-9), Some(9));
        // Reports every 2.5 ms, used 2 slots (500 µs) later.
        let slot = 250_000;
        assert_eq!(la.report_instant(Time::from_micros(2750), slot), Time::ZERO);
        assert_eq!(
            la.report_instant(Time::from_micros(3000), slot),
            Time::from_micros(2500)
        );
    }

    /// The cell's precomputed table gives the config's own values, bit for bit.
    #[test]
    fn mcs_table_is_bit_identical_to_the_config() {
        for la in [
            LinkAdaptationConfig::default(),
            LinkAdaptationConfig {
                gap_db: 3.3,
                bler_width_db: 0.7,
                max_mcs: 20,
                ..LinkAdaptationConfig::default()
            },
        ] {
            let table = McsTable::new(&la);
            for k in -400..=600 {
                let sinr = k as f64 * 0.1 + 0.003;
                assert_eq!(table.select_mcs(sinr), la.select_mcs(sinr), "{sinr}");
                for m in 0..=28 {
                    assert_eq!(table.bler(sinr, m).to_bits(), la.bler(sinr, m).to_bits());
                }
            }
        }
    }

    #[test]
    fn harq_combining_and_lag() {
        let la = LinkAdaptationConfig::default();
        let harq = HarqConfig::default();
        let rlc = RlcConfig::default();
        let slot = Time::from_micros(250);
        let mut rng = RngStream::new(1, "test.la");
        // At the threshold: ~10 % first-attempt failures, the retransmission (combined +3 dB)
        // almost always decodes, one HARQ RTT (4 slots = 1 ms) later.
        let t = la.threshold_db(20);
        let table = McsTable::new(&la);
        let (mut fails, mut extra, n) = (0, 0, 20_000);
        for _ in 0..n {
            let o = draw_tb_outcome_sinr(
                &mut rng,
                &table,
                &harq,
                &rlc,
                slot,
                20,
                0,
                |_| t,
                |_| t,
                |_| {},
            );
            assert!(!o.lost);
            if o.transmissions > 1 {
                fails += 1;
                assert_eq!(o.extra_delay, Time::from_micros(1000));
            }
            extra += o.transmissions - 1;
        }
        let p = fails as f64 / n as f64;
        assert!((p - 0.1).abs() < 0.01, "first-attempt BLER {p}");
        assert!(
            extra - fails < 10,
            "second attempts rarely fail: {extra} vs {fails}"
        );
        // A TB sent on a stale, too-high MCS into a 4 dB fade: every attempt of the first HARQ
        // round fails until combining recovers, and the delay grows.
        let o = draw_tb_outcome_sinr(
            &mut rng,
            &table,
            &harq,
            &rlc,
            slot,
            28,
            0,
            |_| la.threshold_db(28) - 4.0,
            |_| la.threshold_db(28) - 4.0,
            |_| {},
        );
        assert!(o.transmissions >= 3, "{o:?}");
        // A TB on MCS 28 into a block 12 dB lower: HARQ cannot recover it. With the failed
        // TB's MCS every RLC round fails too and the TB is lost; with the MCS of the CQI in
        // force at the retransmission (the new block's SINR) the first RLC round decodes.
        let fade = la.threshold_db(28) - 12.0;
        let stale = draw_tb_outcome_sinr(
            &mut rng,
            &table,
            &harq,
            &rlc,
            slot,
            28,
            0,
            |_| fade,
            |_| fade,
            |_| {},
        );
        assert!(stale.lost && stale.rlc_retx == rlc.max_retx, "{stale:?}");
        let fresh_la = LinkAdaptationConfig {
            rlc_retx_fresh_mcs: true,
            ..la.clone()
        };
        let fresh = draw_tb_outcome_sinr(
            &mut rng,
            &McsTable::new(&fresh_la),
            &harq,
            &rlc,
            slot,
            28,
            0,
            |_| fade,
            |_| fade,
            |_| {},
        );
        assert!(!fresh.lost && fresh.rlc_retx == 1, "{fresh:?}");
        // RLC UM with an impossible channel loses the TB after the HARQ round.
        let um = RlcConfig {
            mode: RlcMode::Um,
            ..RlcConfig::default()
        };
        let o = draw_tb_outcome_sinr(
            &mut rng,
            &table,
            &harq,
            &um,
            slot,
            28,
            0,
            |_| -10.0,
            |_| -10.0,
            |_| {},
        );
        assert!(o.lost && o.transmissions == harq.max_attempts);
        assert!(LinkAdaptationConfig {
            mcs_reference_symbols: 15,
            ..la.clone()
        }
        .validate()
        .unwrap_err()
        .contains("link_adaptation.mcs_reference_symbols"));
        assert!(LinkAdaptationConfig {
            max_mcs: 29,
            ..la.clone()
        }
        .validate()
        .unwrap_err()
        .contains("link_adaptation.max_mcs"));
    }
}

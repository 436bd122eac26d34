//! Adaptive modulation and coding: SINR → spectral efficiency → bytes per slot.
//!
//! **CQI tables.** 3GPP TS 38.214 (V16) Table 5.2.2.1-2 ("CQI table 1", up to 64QAM; identical
//! to LTE's TS 36.213 Table 7.2.3-1) and Table 5.2.2.1-3 ("CQI table 2", up to 256QAM): for each
//! CQI the modulation, the code rate ×1024 and the efficiency (bits per resource element).
//! TS 38.214 §5.2.2.1 defines the reported CQI as the highest one whose transport block would be
//! received with a block error probability not above 0.1. The standard gives no SINR values, so
//! the 10 %-BLER SINR thresholds are documented choices:
//! - table 1: the AWGN single-antenna 10 %-BLER thresholds of Kawser et al., "Downlink SNR to
//!   CQI mapping for different multiple antenna techniques in LTE", IJIEE 2(5), 2012 (−6.7 …
//!   22.7 dB), widely used for LTE system simulation;
//! - table 2: entries 1–11 use the same (modulation, code rate) as table-1 entries 1, 3, 5, 7–14
//!   and take their thresholds; the 256QAM entries 12–15 take the Shannon SINR of their
//!   efficiency plus the gap of table-1 CQI 15 (22.7 dB − 10·log10(2^5.5547 − 1) = 6.08 dB),
//!   i.e. 22.7, 24.8, 26.9, 28.4 dB (checked by a unit test).
//!
//! **Capped Shannon.** ns3-mmwave's `MmWaveAmc` `ShannonModel` (ANCHORS §1.2):
//! `SE = log2(1 + SINR/Γ)`, `Γ = −ln(5·BER)/1.5` (Goldsmith & Chua, IEEE Trans. Commun. 45(10),
//! 1997, eq. (28)); `BER = 1e−5` gives Γ = 6.60 in linear units (8.2 dB; ANCHORS writes "≈ 6.6
//! dB", the value is linear). Capped at `max_se` (default: the top of CQI table 2), and 0 below
//! `min_se` (default: CQI 1, no MCS fits).
//!
//! **Bytes per slot.** TS 38.306 §4.1.2 approximate data rate: per slot,
//! `bits = SE · N_RB · 12 · N_symb · (1 − OH)` with `OH` = 0.14 (FR1 DL), 0.18 (FR2 DL);
//! `N_RB` from TS 38.101-1/-2 Table 5.3.2-1, `N_symb` = 14 (normal CP), slot = 1 ms / 2^µ
//! (TS 38.211 §4.3.2). The scheduler hands out *resource units* (resource elements after
//! overhead); a grant of `u` units at efficiency `SE` carries `⌊u · SE / 8⌋` bytes.

use serde::{Deserialize, Serialize};

/// One row of a CQI table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CqiEntry {
    pub cqi: u8,
    /// Bits per modulation symbol (2 QPSK, 4 16QAM, 6 64QAM, 8 256QAM).
    pub modulation_order: u8,
    /// Code rate × 1024.
    pub code_rate_x1024: u16,
    /// Efficiency, bits per resource element (TS 38.214 value, 4 decimals).
    pub efficiency: f64,
    /// SINR (dB) at which this CQI meets 10 % BLER (see the module docs).
    pub sinr_threshold_db: f64,
}

const fn e(cqi: u8, qm: u8, rate: u16, eff: f64, thr: f64) -> CqiEntry {
    CqiEntry {
        cqi,
        modulation_order: qm,
        code_rate_x1024: rate,
        efficiency: eff,
        sinr_threshold_db: thr,
    }
}

/// TS 38.214 Table 5.2.2.1-2 (CQI 1–15; CQI 0 = out of range).
pub const CQI_TABLE_1: [CqiEntry; 15] = [
    e(1, 2, 78, 0.1523, -6.7),
    e(2, 2, 120, 0.2344, -4.7),
    e(3, 2, 193, 0.3770, -2.3),
    e(4, 2, 308, 0.6016, 0.2),
    e(5, 2, 449, 0.8770, 2.4),
    e(6, 2, 602, 1.1758, 4.3),
    e(7, 4, 378, 1.4766, 5.9),
    e(8, 4, 490, 1.9141, 8.1),
    e(9, 4, 616, 2.4063, 10.3),
    e(10, 6, 466, 2.7305, 11.7),
    e(11, 6, 567, 3.3223, 14.1),
    e(12, 6, 666, 3.9023, 16.3),
    e(13, 6, 772, 4.5234, 18.7),
    e(14, 6, 873, 5.1152, 21.0),
    e(15, 6, 948, 5.5547, 22.7),
];

/// TS 38.214 Table 5.2.2.1-3 (CQI 1–15).
pub const CQI_TABLE_2: [CqiEntry; 15] = [
    e(1, 2, 78, 0.1523, -6.7),
    e(2, 2, 193, 0.3770, -2.3),
    e(3, 2, 449, 0.8770, 2.4),
    e(4, 4, 378, 1.4766, 5.9),
    e(5, 4, 490, 1.9141, 8.1),
    e(6, 4, 616, 2.4063, 10.3),
    e(7, 6, 466, 2.7305, 11.7),
    e(8, 6, 567, 3.3223, 14.1),
    e(9, 6, 666, 3.9023, 16.3),
    e(10, 6, 772, 4.5234, 18.7),
    e(11, 6, 873, 5.1152, 21.0),
    e(12, 8, 711, 5.5547, 22.7),
    e(13, 8, 797, 6.2266, 24.8),
    e(14, 8, 885, 6.9141, 26.9),
    e(15, 8, 948, 7.4063, 28.4),
];

/// Shannon gap `Γ = −ln(5·BER)/1.5` (linear), ns3-mmwave `MmWaveAmc` / ns-3 `LteAmc` PiroEW2010.
pub fn shannon_gap(ber: f64) -> f64 {
    -(5.0 * ber).ln() / 1.5
}

/// How SINR becomes spectral efficiency.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "snake_case", tag = "model")]
pub enum AmcModel {
    /// TS 38.214 CQI table 1 (64QAM) with the documented 10 %-BLER thresholds.
    CqiTable1,
    /// TS 38.214 CQI table 2 (256QAM) with the documented 10 %-BLER thresholds (default).
    #[default]
    CqiTable2,
    /// `min(log2(1 + SINR/Γ), max_se)`, 0 below `min_se`.
    Shannon {
        /// Target bit error rate of the gap Γ (ns3-mmwave `Ber` = 1e-5).
        #[serde(default = "default_ber")]
        ber: f64,
        /// Cap (bits/RE); default 7.4063, the top of CQI table 2.
        #[serde(default = "default_max_se")]
        max_se: f64,
        /// Below this efficiency nothing is sent; default 0.1523 (CQI 1).
        #[serde(default = "default_min_se")]
        min_se: f64,
    },
}

fn default_ber() -> f64 {
    1e-5
}
fn default_max_se() -> f64 {
    CQI_TABLE_2[14].efficiency
}
fn default_min_se() -> f64 {
    CQI_TABLE_1[0].efficiency
}

impl AmcModel {
    pub fn shannon_default() -> Self {
        AmcModel::Shannon {
            ber: default_ber(),
            max_se: default_max_se(),
            min_se: default_min_se(),
        }
    }

    fn table(&self) -> &'static [CqiEntry; 15] {
        match self {
            AmcModel::CqiTable1 => &CQI_TABLE_1,
            _ => &CQI_TABLE_2,
        }
    }

    /// Highest CQI whose threshold is met (0 = out of range). For the Shannon model, the highest
    /// CQI-table-2 entry whose efficiency does not exceed the Shannon efficiency.
    pub fn cqi(&self, sinr_db: f64) -> u8 {
        match self {
            AmcModel::Shannon { .. } => {
                let se = self.spectral_efficiency(sinr_db);
                CQI_TABLE_2
                    .iter()
                    .rev()
                    .find(|e| e.efficiency <= se + 1e-12)
                    .map_or(0, |e| e.cqi)
            }
            _ => self
                .table()
                .iter()
                .rev()
                .find(|e| sinr_db >= e.sinr_threshold_db)
                .map_or(0, |e| e.cqi),
        }
    }

    /// Spectral efficiency (bits per resource element) at `sinr_db`; 0 when nothing can be sent.
    pub fn spectral_efficiency(&self, sinr_db: f64) -> f64 {
        match *self {
            AmcModel::Shannon {
                ber,
                max_se,
                min_se,
            } => {
                let sinr = 10f64.powf(sinr_db / 10.0);
                let se = (1.0 + sinr / shannon_gap(ber)).log2().min(max_se);
                if se < min_se {
                    0.0
                } else {
                    se
                }
            }
            _ => match self.cqi(sinr_db) {
                0 => 0.0,
                c => self.table()[c as usize - 1].efficiency,
            },
        }
    }
}

/// Slot structure and resources of a carrier.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FrameConfig {
    /// Slot (TTI) length, ns: 1 ms / 2^µ for NR numerology µ.
    pub slot_ns: u64,
    /// OFDM symbols per slot (14 with normal cyclic prefix).
    pub symbols_per_slot: u32,
    /// Symbols per slot reserved for control (not counted in `overhead`).
    pub control_symbols: u32,
    /// Data subcarriers (12 × resource blocks).
    pub subcarriers: u32,
    /// Fraction of the remaining resource elements lost to reference signals, control and
    /// guard (TS 38.306 §4.1.2: 0.14 FR1 DL, 0.18 FR2 DL).
    pub overhead: f64,
    /// Channel bandwidth (Hz), used for the noise power.
    pub bandwidth_hz: f64,
    /// Data symbols a slot's downlink gives up to each UE with uplink data (TCP ACKs, RLC
    /// status reports) sent in that slot: ns3-mmwave's flex-TTI TDMA, where the UL grant takes
    /// whole symbols of the same slot (`MmWaveFlexTtiMacScheduler::DoSchedTriggerReq`,
    /// [`crate::cell::Cell::note_uplink`]). 0 (default): every slot has all its data symbols.
    #[serde(default)]
    pub uplink_data_symbols: u32,
}

/// Resource blocks of TS 38.101-2 Table 5.3.2-1 (FR2) and TS 38.101-1 Table 5.3.2-1 (FR1),
/// for the (subcarrier spacing kHz, bandwidth MHz) pairs they list.
pub fn nr_resource_blocks(scs_khz: u32, bandwidth_mhz: u32) -> Option<u32> {
    Some(match (scs_khz, bandwidth_mhz) {
        (15, 5) => 25,
        (15, 10) => 52,
        (15, 20) => 106,
        (15, 50) => 270,
        (30, 20) => 51,
        (30, 50) => 133,
        (30, 100) => 273,
        (60, 50) => 66,
        (60, 100) => 132,
        (60, 200) => 264,
        (120, 50) => 32,
        (120, 100) => 66,
        (120, 200) => 132,
        (120, 400) => 264,
        _ => return None,
    })
}

impl FrameConfig {
    /// NR numerology `mu` (SCS 15·2^µ kHz, slot 1 ms/2^µ, 14 symbols) on `bandwidth_hz`.
    /// `N_RB` from TS 38.101 Table 5.3.2-1 when listed, else ⌊0.95·B / (12·SCS)⌋. Overhead 0.18
    /// (FR2 DL) for µ ≥ 2, the numerologies used at 28 GHz, else 0.14 (FR1 DL), TS 38.306 §4.1.2.
    pub fn nr(mu: u8, bandwidth_hz: f64) -> Self {
        let scs_khz = 15u32 << mu;
        let mhz = (bandwidth_hz / 1e6).round() as u32;
        let n_rb = nr_resource_blocks(scs_khz, mhz).unwrap_or_else(|| {
            (0.95 * bandwidth_hz / (12.0 * scs_khz as f64 * 1e3)).floor() as u32
        });
        FrameConfig {
            slot_ns: 1_000_000 >> mu,
            symbols_per_slot: 14,
            control_symbols: 0,
            subcarriers: 12 * n_rb,
            overhead: if mu >= 2 { 0.18 } else { 0.14 },
            bandwidth_hz,
            uplink_data_symbols: 0,
        }
    }

    /// The ns3-mmwave default on `new-handover` (ANCHORS §1.1): µ = 2, 200 MHz (264 RB).
    pub fn mmwave_nr() -> Self {
        FrameConfig::nr(2, 200e6)
    }

    /// The 2017 ns3-mmwave frame (ANCHORS §1.1): 100 µs subframes of 24 symbols of 4.16 µs over
    /// 1 GHz (72 chunks × 13.889 MHz). Resources per symbol are the time–frequency product
    /// `B · T_sym` = 4160; one control symbol per subframe (an assumption), no further overhead.
    pub fn mmwave_2017() -> Self {
        FrameConfig {
            slot_ns: 100_000,
            symbols_per_slot: 24,
            control_symbols: 1,
            subcarriers: 4160,
            overhead: 0.0,
            bandwidth_hz: 1e9,
            uplink_data_symbols: 0,
        }
    }

    /// LTE downlink: 1 ms TTI, 14 symbols, `N_RB` of TS 36.101 Table 5.6-1 (6/15/25/50/75/100 RB
    /// for 1.4/3/5/10/15/20 MHz), 3 PDCCH symbols (the LTE maximum for ≥ 10 RB, TS 36.211 §6.7)
    /// and 5 % reference-signal overhead (CRS, 2 ports: 8 of 168 REs per RB pair, TS 36.211 §6.10.1).
    pub fn lte(bandwidth_hz: f64) -> Self {
        let n_rb = match (bandwidth_hz / 1e5).round() as u32 {
            14 => 6,
            30 => 15,
            50 => 25,
            100 => 50,
            150 => 75,
            200 => 100,
            _ => (0.9 * bandwidth_hz / 180e3).floor() as u32,
        };
        FrameConfig {
            slot_ns: 1_000_000,
            symbols_per_slot: 14,
            control_symbols: 3,
            subcarriers: 12 * n_rb,
            overhead: 8.0 / 168.0,
            bandwidth_hz,
            uplink_data_symbols: 0,
        }
    }

    pub fn slot(&self) -> ccsim_core::Time {
        ccsim_core::Time::from_nanos(self.slot_ns)
    }

    /// Resource units (resource elements after overhead) in one slot.
    pub fn units_per_slot(&self) -> u64 {
        self.units_for_symbols(self.symbols_per_slot.saturating_sub(self.control_symbols))
    }

    /// Resource units that one UE's uplink data takes from a slot (`uplink_data_symbols`).
    pub fn uplink_units(&self) -> u64 {
        self.units_per_slot() - self.units_for_symbols(self.data_symbols_with_uplink())
    }

    /// Data symbols left to the downlink in a slot with one UE's uplink data.
    pub fn data_symbols_with_uplink(&self) -> u32 {
        let data = self.symbols_per_slot.saturating_sub(self.control_symbols);
        data.saturating_sub(self.uplink_data_symbols)
    }

    fn units_for_symbols(&self, data_symbols: u32) -> u64 {
        (self.subcarriers as f64 * data_symbols as f64 * (1.0 - self.overhead)).floor() as u64
    }

    /// Bytes carried by `units` resource units at efficiency `se`.
    pub fn bytes_for_units(units: u64, se: f64) -> u64 {
        (units as f64 * se / 8.0).floor() as u64
    }

    /// Resource units needed to carry `bytes` at efficiency `se` (`se > 0`).
    pub fn units_for_bytes(bytes: u64, se: f64) -> u64 {
        (bytes as f64 * 8.0 / se).ceil() as u64
    }

    /// Bytes per slot with the whole slot at efficiency `se`.
    pub fn bytes_per_slot(&self, se: f64) -> u64 {
        Self::bytes_for_units(self.units_per_slot(), se)
    }

    /// Peak rate (bit/s) with the whole carrier at efficiency `se`.
    pub fn rate_bps(&self, se: f64) -> f64 {
        self.units_per_slot() as f64 * se / (self.slot_ns as f64 * 1e-9)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_monotone_and_match_the_standard() {
        for t in [&CQI_TABLE_1, &CQI_TABLE_2] {
            for w in t.windows(2) {
                assert!(w[1].efficiency > w[0].efficiency);
                assert!(w[1].sinr_threshold_db > w[0].sinr_threshold_db);
            }
            // Efficiency = Qm · rate / 1024, rounded to 4 decimals in the standard.
            for e in t.iter() {
                let eff = e.modulation_order as f64 * e.code_rate_x1024 as f64 / 1024.0;
                assert!((eff - e.efficiency).abs() < 6e-5, "cqi {}", e.cqi);
            }
        }
        // Table-2 entries that repeat a table-1 (Qm, rate) reuse its threshold.
        for e2 in CQI_TABLE_2.iter() {
            if let Some(e1) = CQI_TABLE_1.iter().find(|e1| {
                e1.modulation_order == e2.modulation_order
                    && e1.code_rate_x1024 == e2.code_rate_x1024
            }) {
                assert_eq!(e1.sinr_threshold_db, e2.sinr_threshold_db);
            }
        }
    }

    #[test]
    fn table2_256qam_thresholds_follow_the_documented_gap_rule() {
        let shannon_db = |se: f64| 10.0 * (2f64.powf(se) - 1.0).log10();
        let gap = 22.7 - shannon_db(5.5547);
        assert!((gap - 6.08).abs() < 0.01);
        for e in &CQI_TABLE_2[11..] {
            let rule = shannon_db(e.efficiency) + gap;
            assert!(
                (rule - e.sinr_threshold_db).abs() < 0.06,
                "cqi {} rule {rule}",
                e.cqi
            );
        }
    }

    #[test]
    fn cqi_selection() {
        let t1 = AmcModel::CqiTable1;
        assert_eq!(t1.cqi(-10.0), 0);
        assert_eq!(t1.spectral_efficiency(-10.0), 0.0);
        assert_eq!(t1.cqi(-6.7), 1);
        assert_eq!(t1.cqi(10.0), 8);
        assert_eq!(t1.spectral_efficiency(10.0), 1.9141);
        assert_eq!(t1.cqi(40.0), 15);
        let t2 = AmcModel::CqiTable2;
        assert_eq!(t2.cqi(40.0), 15);
        assert_eq!(t2.spectral_efficiency(40.0), 7.4063);
        assert_eq!(t2.spectral_efficiency(23.0), 5.5547);
    }

    #[test]
    fn shannon_gap_and_cap() {
        let g = shannon_gap(1e-5);
        assert!((g - 6.602).abs() < 1e-3);
        assert!((10.0 * g.log10() - 8.197).abs() < 1e-3);
        let s = AmcModel::shannon_default();
        // SINR = Γ·3 -> log2(4) = 2 bits.
        let sinr_db = 10.0 * (3.0 * g).log10();
        assert!((s.spectral_efficiency(sinr_db) - 2.0).abs() < 1e-9);
        assert_eq!(s.spectral_efficiency(80.0), 7.4063);
        assert_eq!(s.spectral_efficiency(-20.0), 0.0);
        assert_eq!(s.cqi(sinr_db), 5); // 1.9141 ≤ 2 < 2.4063
    }

    #[test]
    fn nr_frame_and_bytes_per_slot() {
        let f = FrameConfig::mmwave_nr();
        assert_eq!(f.slot_ns, 250_000);
        assert_eq!(f.subcarriers, 264 * 12);
        // 264·12·14·0.82 = 36 368.6 -> 36 368 units.
        assert_eq!(f.units_per_slot(), 36_368);
        // TS 38.306 check: 64QAM r=948/1024 -> ≈ 808 Mb/s on 200 MHz at µ = 2, one layer.
        let r = f.rate_bps(5.5547);
        assert!((r / 1e6 - 808.1).abs() < 1.0, "{r}");
        assert_eq!(FrameConfig::bytes_for_units(8, 1.0), 1);
        assert_eq!(FrameConfig::units_for_bytes(1500, 7.4063), 1621);
        assert!(FrameConfig::bytes_for_units(1621, 7.4063) >= 1500);
        let lte = FrameConfig::lte(20e6);
        assert_eq!(lte.subcarriers, 1200);
        // 20 MHz SISO 64QAM ≈ 60 Mb/s of data after control and CRS.
        let r = lte.rate_bps(5.5547);
        assert!(r > 55e6 && r < 75e6, "{r}");
        assert_eq!(FrameConfig::nr(3, 400e6).subcarriers, 264 * 12);
        assert_eq!(FrameConfig::nr(0, 20e6).subcarriers, 106 * 12);
    }
}

//! Per-cell MAC scheduler: divides a slot's resource units among the UEs that have data.
//!
//! - **Round robin**: equal shares of the slot among backlogged UEs, with water-filling (a UE
//!   that needs less than its share gets what it needs and the rest is shared again), and the
//!   indivisible remainder given in a rotating order. This is the resource-fair round robin of
//!   ns3-mmwave's `MmWaveFlexTtiMacScheduler` / ns-3 `RrFfMacScheduler` at slot granularity.
//! - **Proportional fair** (Kelly, Maulloo & Tan 1998; Jalali, Padovani & Pankaj, VTC 2000):
//!   UEs are served in decreasing order of `r_i / R̄_i`, where `r_i` is the bytes the UE could
//!   get with the whole slot and `R̄_i` its exponentially averaged served bytes per slot with
//!   time constant `T_c`: per slot `R̄ ← (1 − 1/T_c)·R̄ + (1/T_c)·served` (`T_c` in slots; idle
//!   slots decay `R̄` by `(1 − 1/T_c)^k`). Each UE in that order gets what it needs until the slot
//!   is full (ns-3 `PfFfMacScheduler` and ns3-mmwave `MmWaveFlexTtiPfMacScheduler` use the same
//!   metric). With static channels PF converges to equal time shares.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "snake_case", tag = "kind")]
pub enum SchedulerConfig {
    #[default]
    RoundRobin,
    ProportionalFair {
        /// Averaging time constant `T_c` (µs) of the served rate; 100 ms by default (assumption).
        #[serde(default = "default_tc")]
        time_constant_us: u64,
    },
}

fn default_tc() -> u64 {
    100_000
}

/// A UE's request for the current slot.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Demand {
    /// The UE's index in the scheduler's state (any stable small integer).
    pub ue: usize,
    /// Resource units needed to empty its buffer.
    pub units_needed: u64,
    /// Bytes per resource unit at the UE's current efficiency (`SE / 8`).
    pub bytes_per_unit: f64,
    /// The efficiency itself (bits per resource unit) and the MCS it comes from (0 when the
    /// cell has no link adaptation): what the TB of this slot is sent with.
    pub se: f64,
    pub mcs: u8,
}

/// Scheduler state of one cell. Scratch vectors are reused, so a slot allocates nothing.
#[derive(Clone, Debug)]
pub struct Scheduler {
    config: SchedulerConfig,
    /// PF: averaged bytes per slot, per UE index.
    avg: Vec<f64>,
    /// PF: slot index of the last averaging update.
    last_slot: Option<u64>,
    /// RR: rotation offset for remainders and ties.
    rotation: usize,
    order: Vec<usize>,
}

impl Scheduler {
    pub fn new(config: SchedulerConfig) -> Self {
        Scheduler {
            config,
            avg: Vec::new(),
            last_slot: None,
            rotation: 0,
            order: Vec::new(),
        }
    }

    pub fn config(&self) -> SchedulerConfig {
        self.config
    }

    /// Averaged served bytes per slot of `ue` (PF state; 0 for RR).
    pub fn average(&self, ue: usize) -> f64 {
        self.avg.get(ue).copied().unwrap_or(0.0)
    }

    fn alpha(&self, slot_ns: u64) -> f64 {
        match self.config {
            SchedulerConfig::ProportionalFair { time_constant_us } => {
                (slot_ns as f64 / (time_constant_us.max(1) as f64 * 1e3)).min(1.0)
            }
            SchedulerConfig::RoundRobin => 1.0,
        }
    }

    /// Splits `capacity` units of slot `slot_index` among `demands`; `grants[i]` receives the
    /// units of `demands[i]`. Call [`Scheduler::served`] afterwards with the bytes sent.
    pub fn allocate(
        &mut self,
        capacity: u64,
        slot_index: u64,
        slot_ns: u64,
        demands: &[Demand],
        grants: &mut Vec<u64>,
    ) {
        grants.clear();
        grants.resize(demands.len(), 0);
        if demands.is_empty() || capacity == 0 {
            return;
        }
        if let Some(max_ue) = demands.iter().map(|d| d.ue).max() {
            if self.avg.len() <= max_ue {
                self.avg.resize(max_ue + 1, 0.0);
            }
        }
        self.decay_to(slot_index, slot_ns);
        self.order.clear();
        self.order.extend(0..demands.len());
        match self.config {
            SchedulerConfig::RoundRobin => {
                let n = demands.len();
                let rot = self.rotation % n;
                // Smallest needs first (water-filling); ties in rotating order.
                self.order
                    .sort_by_key(|&i| (demands[i].units_needed, (i + n - rot) % n));
                let mut left = capacity;
                let mut remaining = n as u64;
                for k in 0..n {
                    let i = self.order[k];
                    let share = left / remaining;
                    let g = demands[i].units_needed.min(share);
                    grants[i] = g;
                    left -= g;
                    remaining -= 1;
                }
                // Remainder units (from the integer division) to unsatisfied UEs in rotation.
                for k in 0..n {
                    if left == 0 {
                        break;
                    }
                    let i = (rot + k) % n;
                    let extra = (demands[i].units_needed - grants[i]).min(left);
                    grants[i] += extra;
                    left -= extra;
                }
                self.rotation = self.rotation.wrapping_add(1);
            }
            SchedulerConfig::ProportionalFair { .. } => {
                let full = capacity as f64;
                let avg = &self.avg;
                self.order.sort_by(|&a, &b| {
                    let ma = demands[a].bytes_per_unit * full / avg[demands[a].ue].max(1e-9);
                    let mb = demands[b].bytes_per_unit * full / avg[demands[b].ue].max(1e-9);
                    mb.total_cmp(&ma).then(demands[a].ue.cmp(&demands[b].ue))
                });
                let mut left = capacity;
                for k in 0..self.order.len() {
                    let i = self.order[k];
                    let g = demands[i].units_needed.min(left);
                    grants[i] = g;
                    left -= g;
                }
            }
        }
    }

    /// Records `bytes` served to `ue` in the slot just allocated (PF averaging).
    pub fn served(&mut self, ue: usize, bytes: u64, slot_ns: u64) {
        if let SchedulerConfig::ProportionalFair { .. } = self.config {
            let a = self.alpha(slot_ns);
            if self.avg.len() <= ue {
                self.avg.resize(ue + 1, 0.0);
            }
            self.avg[ue] += a * bytes as f64;
        }
    }

    /// Ages the averages to `slot_index`: `(1 − α)^k` for the `k` slots since the last update.
    fn decay_to(&mut self, slot_index: u64, slot_ns: u64) {
        if let SchedulerConfig::ProportionalFair { .. } = self.config {
            let k = match self.last_slot {
                Some(last) if slot_index > last => slot_index - last,
                Some(_) => 0,
                None => 1,
            };
            if k > 0 {
                let f = (1.0 - self.alpha(slot_ns)).powi(k.min(i32::MAX as u64) as i32);
                for v in &mut self.avg {
                    *v *= f;
                }
            }
            self.last_slot = Some(slot_index);
        }
    }
}

/// Jain's fairness index `(Σx)² / (n·Σx²)` (Jain, Chiu & Hawe, DEC-TR-301, 1984).
pub fn jain_index(xs: &[f64]) -> f64 {
    let s: f64 = xs.iter().sum();
    let s2: f64 = xs.iter().map(|x| x * x).sum();
    if s2 == 0.0 {
        return 1.0;
    }
    s * s / (xs.len() as f64 * s2)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SLOT: u64 = 250_000;

    fn full_buffer(ses: &[f64]) -> Vec<Demand> {
        ses.iter()
            .enumerate()
            .map(|(ue, &se)| Demand {
                ue,
                units_needed: u64::MAX / 4,
                bytes_per_unit: se / 8.0,
                se,
                mcs: 0,
            })
            .collect()
    }

    /// Runs `slots` slots with full buffers; returns (units, bytes) per UE.
    fn run(cfg: SchedulerConfig, ses: &[f64], slots: u64) -> (Vec<f64>, Vec<f64>) {
        let mut s = Scheduler::new(cfg);
        let d = full_buffer(ses);
        let mut grants = Vec::new();
        let (mut units, mut bytes) = (vec![0.0; ses.len()], vec![0.0; ses.len()]);
        for k in 0..slots {
            s.allocate(1000, k, SLOT, &d, &mut grants);
            assert!(grants.iter().sum::<u64>() <= 1000);
            for (i, g) in grants.iter().enumerate() {
                let b = (*g as f64 * d[i].bytes_per_unit).floor() as u64;
                units[i] += *g as f64;
                bytes[i] += b as f64;
                s.served(d[i].ue, b, SLOT);
            }
        }
        (units, bytes)
    }

    #[test]
    fn round_robin_equal_shares_and_water_filling() {
        let mut s = Scheduler::new(SchedulerConfig::RoundRobin);
        let mut g = Vec::new();
        let d = vec![
            Demand {
                ue: 0,
                units_needed: 100,
                bytes_per_unit: 1.0,
                se: 1.0 * 8.0,
                mcs: 0,
            },
            Demand {
                ue: 1,
                units_needed: 5000,
                bytes_per_unit: 1.0,
                se: 1.0 * 8.0,
                mcs: 0,
            },
            Demand {
                ue: 2,
                units_needed: 5000,
                bytes_per_unit: 0.1,
                se: 0.1 * 8.0,
                mcs: 0,
            },
        ];
        s.allocate(1000, 0, SLOT, &d, &mut g);
        // UE 0 takes only 100; the other two split the remaining 900.
        assert_eq!(g, vec![100, 450, 450]);
        // Work conserving: remainders are handed out.
        s.allocate(1001, 1, SLOT, &d, &mut g);
        assert_eq!(g.iter().sum::<u64>(), 1001);
        // Nothing to do.
        s.allocate(0, 2, SLOT, &d, &mut g);
        assert_eq!(g, vec![0, 0, 0]);
    }

    #[test]
    fn round_robin_is_resource_fair() {
        let (units, bytes) = run(SchedulerConfig::RoundRobin, &[7.4, 3.7, 0.9, 5.5], 1000);
        assert!(jain_index(&units) > 0.9999, "{units:?}");
        // Bytes follow the efficiencies (7.4 : 3.7 = 2 : 1).
        assert!((bytes[0] / bytes[1] - 2.0).abs() < 0.01);
    }

    #[test]
    fn proportional_fair_equal_channels_is_fair() {
        let cfg = SchedulerConfig::ProportionalFair {
            time_constant_us: 20_000,
        };
        let (_, bytes) = run(cfg, &[5.0; 5], 4000);
        assert!(jain_index(&bytes) > 0.999, "{bytes:?}");
    }

    #[test]
    fn proportional_fair_gives_equal_time_with_unequal_channels() {
        let cfg = SchedulerConfig::ProportionalFair {
            time_constant_us: 20_000,
        };
        let (units, bytes) = run(cfg, &[7.4, 1.85], 8000);
        // Equal time shares, so bytes in the ratio of the efficiencies (4 : 1) ...
        assert!(jain_index(&units) > 0.999, "{units:?}");
        assert!((bytes[0] / bytes[1] - 4.0).abs() < 0.1, "{bytes:?}");
        // ... unlike max-rate, which would starve UE 1.
        assert!(bytes[1] > 0.15 * bytes[0]);
    }

    #[test]
    fn proportional_fair_favours_a_newcomer() {
        let cfg = SchedulerConfig::ProportionalFair {
            time_constant_us: 100_000,
        };
        let mut s = Scheduler::new(cfg);
        let mut g = Vec::new();
        let one = full_buffer(&[5.0]);
        for k in 0..400 {
            s.allocate(1000, k, SLOT, &one, &mut g);
            s.served(0, (g[0] as f64 * 5.0 / 8.0) as u64, SLOT);
        }
        // UE 1 arrives with no history: it gets the next slot entirely.
        let two = full_buffer(&[5.0, 5.0]);
        s.allocate(1000, 400, SLOT, &two, &mut g);
        assert_eq!(g, vec![0, 1000]);
    }

    #[test]
    fn jain_bounds() {
        assert_eq!(jain_index(&[1.0, 1.0, 1.0]), 1.0);
        assert!((jain_index(&[1.0, 0.0, 0.0, 0.0]) - 0.25).abs() < 1e-12);
    }
}

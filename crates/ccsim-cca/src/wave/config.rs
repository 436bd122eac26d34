//! Wave's tunables: the module parameters of the authors' Linux module (`tcp_wave.c` v0.2,
//! `module_param(init_burst | min_burst | init_timer_ms | beta_ms)`).

use crate::params::{time_param, u32_param, ParamSpec, Tunables};
use crate::CcaError;
use ccsim_core::Time;
use serde_json::Value;

/// Tunables of [`Wave`](super::Wave) (module parameters of Linux `tcp_wave.c` v0.2).
#[derive(Clone, Debug, PartialEq)]
pub struct WaveConfig {
    /// Initial (and, in v0.2, constant) burst, segments (`init_burst`).
    pub init_burst: u32,
    /// Minimum burst, segments (`min_burst`).
    pub min_burst: u32,
    /// Initial and largest TxTime (`init_timer_ms`).
    pub init_timer: Time,
    /// Congestion threshold on `delta_rtt` (`beta_ms`).
    pub beta: Time,
}

impl Default for WaveConfig {
    fn default() -> Self {
        WaveConfig {
            init_burst: 10,
            min_burst: 3,
            init_timer: Time::from_millis(200),
            beta: Time::from_millis(150),
        }
    }
}

impl WaveConfig {
    /// `init_timer` in µs (Linux keeps `tx_timer` in µs, `u32`).
    pub(super) fn init_timer_us(&self) -> u32 {
        (self.init_timer.as_nanos() / 1000) as u32
    }
    /// `beta` in µs (Linux compares `delta_rtt_us > beta_ms * USEC_PER_MSEC`).
    pub(super) fn beta_us(&self) -> u64 {
        self.beta.as_nanos() / 1000
    }
}

impl Tunables for WaveConfig {
    const ALGORITHM: &'static str = "wave";
    const PARAMS: &'static [ParamSpec] = &[
        ParamSpec {
            name: "init_burst",
            help: "Burst size in segments (initial and constant in Linux v0.2)",
        },
        ParamSpec {
            name: "min_burst",
            help: "Minimum burst in segments; smaller rounds are not measured",
        },
        ParamSpec {
            name: "init_timer",
            help: "Initial and largest TxTime (burst interval)",
        },
        ParamSpec {
            name: "beta",
            help: "delta_rtt above which ACCE switches to adjustment mode",
        },
    ];

    fn set(&mut self, key: &str, v: &Value) -> Result<(), CcaError> {
        let a = Self::ALGORITHM;
        match key {
            // Linux stores the burst in a u8 and a history entry in a u16: a burst must fit.
            "init_burst" => self.init_burst = u32_param(a, key, v, 1, 65_535)?,
            "min_burst" => self.min_burst = u32_param(a, key, v, 1, 65_535)?,
            "init_timer" | "beta" => {
                let t = time_param(a, key, v)?;
                // Both are used in µs in u32 arithmetic.
                if t < Time::from_micros(1) || t > Time::from_secs(4000) {
                    return Err(CcaError::BadValue {
                        algorithm: a,
                        parameter: key.to_string(),
                        expected: "a duration between 1 us and 4000 s".into(),
                        got: v.to_string(),
                    });
                }
                if key == "beta" {
                    self.beta = t;
                } else {
                    self.init_timer = t;
                }
            }
            _ => unreachable!("checked by from_params"),
        }
        Ok(())
    }
}

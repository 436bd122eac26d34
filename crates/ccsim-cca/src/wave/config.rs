//! Wave's tunables: the module parameters of the authors' Linux module (`tcp_wave.c` v0.2,
//! `module_param(init_burst | min_burst | init_timer_ms | beta_ms)`).

use crate::params::{Accepts, MAX_DURATION};

/// Wave's times are used in µs in u32 arithmetic: at least 1 µs.
const WAVE_TIME: Accepts = Accepts::Duration {
    min: Time::from_micros(1),
    max: MAX_DURATION,
};
use ccsim_core::Time;

crate::tunables! {
    /// Tunables of [`Wave`](super::Wave) (module parameters of Linux `tcp_wave.c` v0.2). Linux
    /// stores the burst in a u8 and a history entry in a u16, so a burst must fit; the times are
    /// used in µs in u32 arithmetic.
    pub struct WaveConfig for "wave" {
        /// Burst size in segments: initial, and constant in Linux v0.2 (`init_burst`).
        init_burst: u32 = 10, Accepts::Integer { min: 1, max: 65_535 };
        /// Minimum burst in segments; smaller rounds are not measured (`min_burst`).
        min_burst: u32 = 3, Accepts::Integer { min: 1, max: 65_535 };
        /// Initial and largest TxTime, the burst interval (`init_timer_ms`).
        init_timer: Time = Time::from_millis(200), WAVE_TIME;
        /// `delta_rtt` above which ACCE switches to adjustment mode (`beta_ms`).
        beta: Time = Time::from_millis(150), WAVE_TIME;
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

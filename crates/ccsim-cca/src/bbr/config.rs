//! Tunables of BBR (ns-3.44 `TcpBbr` attributes) and their parsing.

use super::BbrRng;
use crate::params::Accepts;
use ccsim_core::Time;

crate::tunables! {
    /// Tunables of [`Bbr`](super::Bbr) (attributes of `ns3::TcpBbr`, ns-3.44 defaults, plus the
    /// seed).
    pub struct BbrConfig for "bbr" {
        /// Random number stream for the PROBE_BW starting phase (ns-3 `Stream`).
        stream: u32 = 4, Accepts::U32;
        /// Seed of that random stream: ns-3's `RngRun` with `rng = "ns3"`; scenarios derive it
        /// from the run seed.
        seed: u64 = 1, Accepts::Integer { min: 0, max: u64::MAX };
        /// Generator of that stream: `ns3` (ns-3.44's MRG32k3a, run = seed) or `ccsim`.
        rng: BbrRng = BbrRng::Ns3, Accepts::OneOf(BbrRng::CHOICES);
        /// Pacing and cwnd gain in STARTUP, 2/ln 2 (`HighGain`).
        high_gain: f64 = 2.89, Accepts::Number { min: 1.0, max: 100.0 };
        /// Length of the bottleneck-bandwidth max filter, in rounds (`BwWindowLength`).
        bw_window_length: u32 = 10, Accepts::Integer { min: 1, max: 1 << 20 };
        /// Length of the RTprop min filter (`RttWindowLength`).
        rtt_window_length: Time = Time::from_secs(10), Accepts::DURATION;
        /// Time to be spent in PROBE_RTT (`ProbeRttDuration`).
        probe_rtt_duration: Time = Time::from_millis(200), Accepts::DURATION;
        /// Window of the ACK-aggregation (extra ACKed) filter, in rounds
        /// (`ExtraAckedRttWindowLength`).
        extra_acked_rtt_window_length: u32 = 5, Accepts::Integer { min: 1, max: 31 };
        /// Bytes ACKed in an aggregation epoch after which the epoch restarts
        /// (`AckEpochAckedResetThresh`).
        ack_epoch_acked_reset_thresh: u32 = 1 << 12, Accepts::Integer { min: 1, max: u32::MAX as u64 };
        /// Pacing below the bandwidth estimate, to drain standing queues (`m_pacingMargin`;
        /// Linux `bbr_rate_bytes_per_sec`): 1 % in ns-3.44, none (0) in ns-3.33's `SetPacingRate`.
        pacing_margin: f64 = 0.01, Accepts::Number { min: 0.0, max: 0.5 };
        /// ns-3.33's test of a rate sample in `UpdateBtlBw` (tcp-bbr.cc of the seed 002
        /// authors' tree): skipped only when its delivery rate is zero, so an invalid sample
        /// still counts a round and feeds the filter the rate it kept from the last recorded
        /// one. Off: skipped when `delivered < 0` or the interval is zero (ns-3.44).
        ns3_33_sample_validity: bool = false, Accepts::Bool;
    }
}

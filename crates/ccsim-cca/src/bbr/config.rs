//! Tunables of BBR (ns-3.44 `TcpBbr` attributes) and their parsing.

use super::BbrRng;
use crate::params::{f64_param, time_param, u32_param, ParamSpec, Tunables};
use crate::CcaError;
use ccsim_core::Time;
use serde_json::Value;

/// Tunables of [`Bbr`] (attributes of `ns3::TcpBbr`, ns-3.44 defaults, plus the seed).
#[derive(Clone, Debug, PartialEq)]
pub struct BbrConfig {
    /// Random number stream (ns-3 `Stream`, default 4): names the stream drawn from `seed`.
    pub stream: u32,
    /// Seed of the random stream that picks the PROBE_BW starting phase: ns-3's `RngRun`
    /// with `rng = Ns3`; the owner derives it from the run seed.
    pub seed: u64,
    /// Which generator draws the starting phase.
    pub rng: BbrRng,
    /// Value of high gain (`HighGain`).
    pub high_gain: f64,
    /// Length of bandwidth windowed filter, rounds (`BwWindowLength`).
    pub bw_window_length: u32,
    /// Length of RTT windowed filter (`RttWindowLength`).
    pub rtt_window_length: Time,
    /// Time to be spent in PROBE_RTT phase (`ProbeRttDuration`).
    pub probe_rtt_duration: Time,
    /// Window length of extra acked window, rounds (`ExtraAckedRttWindowLength`).
    pub extra_acked_rtt_window_length: u32,
    /// Bytes ACKed in an ACK-aggregation epoch after which the epoch restarts
    /// (`AckEpochAckedResetThresh`).
    pub ack_epoch_acked_reset_thresh: u32,
}

impl Default for BbrConfig {
    fn default() -> Self {
        BbrConfig {
            stream: 4,
            seed: 1,
            rng: BbrRng::Ns3,
            high_gain: 2.89,
            bw_window_length: 10,
            rtt_window_length: Time::from_secs(10),
            probe_rtt_duration: Time::from_millis(200),
            extra_acked_rtt_window_length: 5,
            ack_epoch_acked_reset_thresh: 1 << 12,
        }
    }
}

impl Tunables for BbrConfig {
    const ALGORITHM: &'static str = "bbr";
    const PARAMS: &'static [ParamSpec] = &[
        ParamSpec {
            name: "stream",
            help: "Random number stream for the PROBE_BW starting phase (ns-3 Stream)",
        },
        ParamSpec {
            name: "seed",
            help: "Seed of that random stream (derive it from the run seed and the flow)",
        },
        ParamSpec {
            name: "rng",
            help: "Generator of that stream: \"ns3\" (ns-3.44's MRG32k3a, run = seed) or \"ccsim\"",
        },
        ParamSpec {
            name: "high_gain",
            help: "Pacing and cwnd gain in STARTUP (2/ln 2 = 2.89)",
        },
        ParamSpec {
            name: "bw_window_length",
            help: "Length of the bottleneck-bandwidth max filter, in rounds",
        },
        ParamSpec {
            name: "rtt_window_length",
            help: "Length of the RTprop min filter",
        },
        ParamSpec {
            name: "probe_rtt_duration",
            help: "Time to be spent in PROBE_RTT",
        },
        ParamSpec {
            name: "extra_acked_rtt_window_length",
            help: "Window of the ACK-aggregation (extra ACKed) filter, in rounds",
        },
        ParamSpec {
            name: "ack_epoch_acked_reset_thresh",
            help: "Bytes ACKed in an aggregation epoch after which the epoch restarts",
        },
    ];

    fn set(&mut self, key: &str, v: &Value) -> Result<(), CcaError> {
        let a = Self::ALGORITHM;
        match key {
            "stream" => self.stream = u32_param(a, key, v, 0, u32::MAX)?,
            "seed" => {
                self.seed = v.as_u64().ok_or_else(|| CcaError::BadValue {
                    algorithm: a,
                    parameter: key.to_string(),
                    expected: "a non-negative integer".into(),
                    got: v.to_string(),
                })?
            }
            "rng" => {
                self.rng = match v.as_str() {
                    Some("ns3") => BbrRng::Ns3,
                    Some("ccsim") => BbrRng::Ccsim,
                    _ => {
                        return Err(CcaError::BadValue {
                            algorithm: a,
                            parameter: key.to_string(),
                            expected: "\"ns3\" or \"ccsim\"".into(),
                            got: v.to_string(),
                        })
                    }
                }
            }
            "high_gain" => self.high_gain = f64_param(a, key, v, 1.0, 100.0)?,
            "bw_window_length" => self.bw_window_length = u32_param(a, key, v, 1, 1 << 20)?,
            "rtt_window_length" => self.rtt_window_length = time_param(a, key, v)?,
            "probe_rtt_duration" => self.probe_rtt_duration = time_param(a, key, v)?,
            "extra_acked_rtt_window_length" => {
                self.extra_acked_rtt_window_length = u32_param(a, key, v, 1, 31)?
            }
            "ack_epoch_acked_reset_thresh" => {
                self.ack_epoch_acked_reset_thresh = u32_param(a, key, v, 1, u32::MAX)?
            }
            _ => unreachable!("checked by from_params"),
        }
        Ok(())
    }
}

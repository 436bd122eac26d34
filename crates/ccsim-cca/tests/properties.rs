//! Property tests (s2n-quic style) over random event scripts for every algorithm: the
//! invariants ns-3's algorithms guarantee under the replay's sender model.
//!
//! Set `CCSIM_PROPTEST_SEED` to replay one failing seed.

use ccsim_cca::replay::{replay_vector, Step, Vector, VectorParams};
use ccsim_cca::{algorithm_names, build};
use serde_json::{Map, Number};

const MSS: u32 = 1448;

/// xorshift64*: a tiny deterministic generator for the scripts.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn step(t_ns: u64, event: &str, segs: u32, rtt_us: u64) -> Step {
    Step {
        t_s: Number::from_f64(t_ns as f64 / 1e9).unwrap(),
        event: event.to_string(),
        segs_acked: segs,
        rtt_ms: Number::from_f64(rtt_us as f64 / 1e3).unwrap(),
        cwnd_bytes: 0,
        ssthresh_bytes: 0,
        state_after: 0,
    }
}

/// A random script: ACK runs with a drifting RTT, loss episodes, timeouts.
fn script(seed: u64, events: usize) -> Vec<Step> {
    let mut rng = Rng(seed | 1);
    let mut t = 0u64;
    let mut rtt_us = 5_000 + rng.below(200_000);
    let mut steps = vec![step(0, "init", 0, 0)];
    while steps.len() < events {
        t += 100_000 + rng.below(20_000_000);
        rtt_us = (rtt_us as i64 + rng.below(20_001) as i64 - 10_000).clamp(1_000, 800_000) as u64;
        match rng.below(100) {
            0..=1 => {
                let dupacks = 3 + rng.below(10);
                for _ in 0..dupacks {
                    t += 1_000_000;
                    steps.push(step(t, "dupack", 0, rtt_us));
                }
                for _ in 0..rng.below(3) {
                    t += 1_000_000;
                    steps.push(step(t, "ack", 1, rtt_us));
                }
                t += 1_000_000;
                steps.push(step(t, "fullack", 0, rtt_us));
            }
            2 => {
                t += 1_000_000_000;
                steps.push(step(t, "rto", 0, 1_000_000));
            }
            _ => steps.push(step(t, "ack", 1 + rng.below(3) as u32, rtt_us)),
        }
    }
    steps
}

fn vector(algorithm: &str, seed: u64) -> Vector {
    let mut rng = Rng(seed.wrapping_mul(31) | 1);
    Vector {
        algorithm: algorithm.to_string(),
        scenario: format!("prop_{seed}"),
        description: String::new(),
        params: VectorParams {
            mss: MSS,
            init_cwnd_segs: 1 + rng.below(20) as u32,
            init_ssthresh: if rng.below(2) == 0 {
                u32::MAX
            } else {
                MSS * (2 + rng.below(200) as u32)
            },
            algorithm_params: Map::new(),
        },
        steps: script(seed, 400),
    }
}

fn seeds() -> Vec<u64> {
    match std::env::var("CCSIM_PROPTEST_SEED") {
        Ok(s) => vec![s.parse().expect("CCSIM_PROPTEST_SEED must be an integer")],
        Err(_) => (1..=40).collect(),
    }
}

/// The algorithms the unit-level replay can drive: all but those that take their window from
/// rate samples (BBR, Wave), which have their own tests.
fn replayable() -> Vec<&'static str> {
    algorithm_names()
        .iter()
        .filter(|(short, _)| {
            !build(short, &Map::new())
                .unwrap()
                .capabilities()
                .full_control
        })
        .map(|(_, type_id)| *type_id)
        .collect()
}

#[test]
fn invariants_hold_for_every_algorithm() {
    let (mut recoveries, mut timeouts) = (0, 0);
    let (mut tahoe_fast_retransmits, mut reno_partial_exits) = (0, 0);
    let algorithms = replayable();
    assert_eq!(algorithms.len(), algorithm_names().len() - 2);
    for type_id in algorithms {
        // SIAD's Additional Decrease shrinks cwnd on new ACKs and sets ssthresh = cwnd − 1,
        // down to 1 segment (Linux tcp_siad.c).
        let siad = type_id == "TcpSiad";
        for seed in seeds() {
            let v = vector(type_id, seed);
            let out = replay_vector(0, &v).expect("replay");
            let ctx = |i: usize| format!("{type_id} seed {seed} step {i} ({:?})", out[i]);
            recoveries += out.iter().filter(|s| s.state_after == 3).count();
            timeouts += out.iter().filter(|s| s.event == "rto").count();
            let mut prev = &out[0];
            for (i, s) in out.iter().enumerate() {
                // cwnd never below one MSS (ns-3 never sets less: RTO sets exactly 1 MSS).
                assert!(s.cwnd_bytes >= MSS, "cwnd below 1 MSS: {}", ctx(i));
                // ssthresh from any loss response is at least 2 MSS in every ns-3 algorithm.
                if i > 0 && s.ssthresh_bytes != prev.ssthresh_bytes && !siad {
                    assert!(s.ssthresh_bytes >= 2 * MSS, "ssthresh < 2 MSS: {}", ctx(i));
                }
                // Recovery policies: Tahoe never enters fast recovery (the third dupACK is a
                // timeout: state Loss, one segment); Reno leaves it on any ACK of new data.
                if type_id == "TcpTahoe" {
                    assert_ne!(s.state_after, 3, "{}", ctx(i));
                    if s.event == "dupack" && prev.state_after == 1 && s.state_after == 4 {
                        assert_eq!(s.cwnd_bytes, MSS, "{}", ctx(i));
                        tahoe_fast_retransmits += 1;
                    }
                }
                if type_id == "TcpReno" && s.event == "ack" {
                    assert_ne!(s.state_after, 3, "{}", ctx(i));
                    if prev.state_after == 3 {
                        // Deflated to ssthresh, then one Reno increment.
                        assert!(s.cwnd_bytes >= prev.ssthresh_bytes, "{}", ctx(i));
                        reno_partial_exits += 1;
                    }
                }
                match (s.event.as_str(), s.state_after) {
                    ("rto", st) => {
                        assert_eq!(st, 4, "{}", ctx(i));
                        assert_eq!(s.cwnd_bytes, MSS, "{}", ctx(i));
                    }
                    ("dupack", 3) if prev.state_after == 1 => {
                        // Classic recovery entry: cwnd = ssthresh; a reduction for every
                        // algorithm but Westwood+ (whose ssthresh follows the bandwidth estimate).
                        assert_eq!(s.cwnd_bytes, s.ssthresh_bytes, "{}", ctx(i));
                        let bandwidth_based = matches!(type_id, "TcpWestwoodPlus" | "TcpWestwood");
                        if !bandwidth_based && prev.cwnd_bytes >= 2 * MSS {
                            assert!(s.ssthresh_bytes <= prev.cwnd_bytes, "{}", ctx(i));
                        }
                    }
                    ("dupack", _) => {
                        // Duplicate ACKs never grow the window.
                        assert!(s.cwnd_bytes <= prev.cwnd_bytes, "{}", ctx(i));
                    }
                    ("ack", 0)
                        if prev.state_after == 0
                            && !matches!(type_id, "TcpVegas" | "TcpYeah" | "TcpSiad") =>
                    {
                        // New data ACKed in Open never shrinks cwnd, except for the delay-based
                        // decreases of Vegas, YeAH and SIAD.
                        assert!(s.cwnd_bytes >= prev.cwnd_bytes, "{}", ctx(i));
                    }
                    _ => {}
                }
                prev = s;
            }
            // Determinism: the same script gives the same curve.
            assert_eq!(
                replay_vector(0, &v).expect("replay"),
                out,
                "{type_id} seed {seed}"
            );
        }
    }
    // The scripts do exercise loss recovery and timeouts.
    assert!(recoveries > 0 && timeouts > 0, "{recoveries} {timeouts}");
    assert!(
        tahoe_fast_retransmits > 0 && reno_partial_exits > 0,
        "{tahoe_fast_retransmits} {reno_partial_exits}"
    );
}

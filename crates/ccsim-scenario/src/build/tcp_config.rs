//! A flow's TCP options (flow over global over profile) and its algorithm's parameters.

use crate::config::{Profile, Recovery, TcpOptions};
use crate::error::ScenarioError;
use ccsim_tcp::{RecoveryAlgorithm, TcpConfig, TcpProfile};

/// Turns TCP options (flow over global over profile) into a [`TcpConfig`].
pub fn tcp_config(opts: &TcpOptions, path: &str) -> Result<TcpConfig, ScenarioError> {
    let profile = match opts.profile.unwrap_or_default() {
        Profile::Ns3 => TcpProfile::Ns3,
        Profile::Linux => TcpProfile::Linux,
    };
    let mut c = TcpConfig::profile(profile);
    if let Some(v) = opts.mss {
        if !(64..=65_000).contains(&v) {
            return Err(ScenarioError::new(
                format!("{path}.mss"),
                format!("must be between 64 and 65000 bytes, got {v}"),
            ));
        }
        c.mss = v;
    }
    if let Some(v) = opts.initial_cwnd {
        if v == 0 {
            return Err(ScenarioError::new(
                format!("{path}.initial_cwnd"),
                "must be at least 1 segment, got 0",
            ));
        }
        c.initial_cwnd_segs = v;
    }
    if let Some(v) = opts.initial_ssthresh {
        c.initial_ssthresh = v.0.min(u32::MAX as u64) as u32;
    }
    if let Some(v) = opts.min_rto {
        c.min_rto = v.time();
    }
    if let Some(v) = opts.initial_rto {
        c.initial_rto = v.time();
    }
    if let Some(v) = opts.delack_count {
        if v == 0 {
            return Err(ScenarioError::new(
                format!("{path}.delack_count"),
                "must be at least 1 (1 = ACK every segment), got 0",
            ));
        }
        c.delack_count = v;
    }
    if let Some(v) = opts.delack_timeout {
        c.delack_timeout = v.time();
    }
    if let Some(v) = opts.sack {
        c.sack = v;
    }
    if let Some(v) = opts.timestamps {
        c.timestamps = v;
    }
    if let Some(v) = opts.limited_transmit {
        c.limited_transmit = v;
    }
    if let Some(v) = opts.dupack_threshold {
        if v == 0 {
            return Err(ScenarioError::new(
                format!("{path}.dupack_threshold"),
                "must be at least 1, got 0",
            ));
        }
        c.dupack_threshold = v;
    }
    if let Some(v) = opts.recovery {
        c.recovery = match v {
            Recovery::Prr => RecoveryAlgorithm::Prr,
            Recovery::Classic => RecoveryAlgorithm::Classic,
        };
    }
    if let Some(v) = opts.app_write_chunk {
        if !(1..=1 << 20).contains(&v.0) {
            return Err(ScenarioError::new(
                format!("{path}.app_write_chunk"),
                format!("must be between 1 byte and 1 MiB, got {}", v.0),
            ));
        }
        c.app_write_chunk = Some(v.0 as u32);
    }
    if let Some(v) = opts.snd_buf {
        c.snd_buf = v.0;
    }
    if let Some(v) = opts.max_pacing_rate {
        if v.0 == 0 {
            return Err(ScenarioError::new(
                format!("{path}.max_pacing_rate"),
                "must be positive (e.g. \"4Gbps\"), got 0",
            ));
        }
        c.max_pacing_rate_bps = Some(v.0);
    }
    if let Some(v) = opts.rcv_buf {
        c.rcv_buf = v.0;
    }
    // Switches copied as they are (each documented on `TcpConfig`).
    macro_rules! copy_flags {
        ($($f:ident),*) => { $(if let Some(v) = opts.$f { c.$f = v; })* };
    }
    crate::config::with_tcp_switches!(copy_flags!());
    for (key, v) in [("snd_buf", c.snd_buf), ("rcv_buf", c.rcv_buf)] {
        if v < c.mss as u64 {
            return Err(ScenarioError::new(
                format!("{path}.{key}"),
                format!("must hold at least one segment ({} bytes), got {v}", c.mss),
            ));
        }
    }
    Ok(c)
}

/// Algorithms that draw random numbers (BBR's probe_bw phase) get the run seed, unless the
/// scenario sets it. In the `ns3` profile they draw from ns-3's generator and stream (the run
/// seed is ns-3's RngRun; every flow has ns-3's default stream, so all draw alike, as in
/// ns-3); otherwise from ccsim's streams, one per flow, so adding a flow never shifts
/// another's draws.
pub(crate) fn seed_randomised_algorithm(
    cca: &str,
    params: &mut serde_json::Map<String, serde_json::Value>,
    seed: u64,
    flow: u32,
    ns3_profile: bool,
) {
    let Ok(specs) = ccsim_cca::algorithm_params(cca) else {
        return;
    };
    let has = |n: &str| specs.iter().any(|p| p.name == n);
    if has("seed") && !params.contains_key("seed") {
        params.insert("seed".into(), seed.into());
    }
    if has("rng") && !params.contains_key("rng") {
        let rng = if ns3_profile { "ns3" } else { "ccsim" };
        params.insert("rng".into(), rng.into());
    }
    let ns3_rng = params.get("rng").and_then(|v| v.as_str()) == Some("ns3");
    if has("stream") && !params.contains_key("stream") && !ns3_rng {
        params.insert("stream".into(), flow.into());
    }
}

/// Algorithm parameters whose default follows the TCP profile: the `linux` profile runs the
/// kernel's HyStart in CUBIC (validation/linux: the kernel's CUBIC leaves slow start at about
/// one BDP). An explicit `cca_params` value wins.
pub(super) fn profile_algorithm_defaults(
    cca: &str,
    params: &mut serde_json::Map<String, serde_json::Value>,
    ns3_profile: bool,
) {
    let Ok(specs) = ccsim_cca::algorithm_params(cca) else {
        return;
    };
    if !ns3_profile
        && specs.iter().any(|p| p.name == "hystart_variant")
        && !params.contains_key("hystart_variant")
    {
        params.insert("hystart_variant".into(), "LINUX".into());
    }
}

//! `ccsim-run`: the Rust-only driver. Runs a scenario file and prints the summary JSON, with
//! no Python in the process: what the benchmarks time and what `perf`/callgrind profile.
//!
//! ```text
//! cargo run --release --bin ccsim-run -- FILE.toml [key.path=value ...]
//! CCSIM_SERIES=1     also print the flow time series to stderr
//! CCSIM_DEBUG_AT=t,… print flow 0's sender state at these simulated times (s) to stderr
//! CCSIM_DEBUG_FLOW=i  the flow CCSIM_DEBUG_AT and CCSIM_TRACE look at (default 0)
//! CCSIM_TRACE=FILE    write the flow's segments (TX) and ACKs (RX) to FILE in the format of
//!                     the ns-3 reference's --debugLog (validation/ns3), for diffing
//! CCSIM_RATE_TRACE=FILE write the flow's delivery-rate samples to FILE, as the reference's
//!                     --rateTrace
//! ```

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .expect("usage: ccsim-run FILE.toml [key.path=value ...]");
    let overrides: Vec<String> = args.collect();
    let text = std::fs::read_to_string(&path).expect("cannot read scenario");
    let parsed = if path.ends_with(".json") {
        ccsim_scenario::scenario_from_json(&text, &overrides)
    } else {
        ccsim_scenario::scenario_from_toml(&text, &overrides)
    };
    let mut scenario = match parsed {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    // Relative file paths in the scenario (traces) are read from the scenario's directory.
    scenario.base_dir = std::path::Path::new(&path)
        .canonicalize()
        .ok()
        .and_then(|p| p.parent().map(|d| d.to_path_buf()));
    let mut sim = match ccsim_scenario::Simulation::new(scenario) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let debug_flow: usize = std::env::var("CCSIM_DEBUG_FLOW")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let seg_out: Option<Box<dyn std::io::Write + Send>> =
        std::env::var_os("CCSIM_TRACE").map(|path| {
            let file = std::fs::File::create(&path).expect("cannot create CCSIM_TRACE file");
            Box::new(std::io::BufWriter::new(file)) as Box<dyn std::io::Write + Send>
        });
    let rate_out = std::env::var_os("CCSIM_RATE_TRACE").map(|path| {
        let file = std::fs::File::create(&path).expect("cannot create CCSIM_RATE_TRACE file");
        Box::new(std::io::BufWriter::new(file)) as Box<dyn std::io::Write + Send>
    });
    if seg_out.is_some() || rate_out.is_some() {
        let out = seg_out.unwrap_or_else(|| Box::new(std::io::sink()));
        let mut trace = ccsim_scenario::seg_trace::SegmentTrace::new(debug_flow as u32, out);
        if let Some(r) = rate_out {
            trace = trace.with_rate_samples(r);
        }
        sim.world_mut().probe.seg_trace = Some(trace);
    }
    if let Ok(t) = std::env::var("CCSIM_DEBUG_AT") {
        for t in t.split(',') {
            sim.run_until(ccsim_core::Time::from_secs_f64(t.parse().unwrap()));
            eprintln!(
                "t={t} {}",
                sim.world().flows[debug_flow].sender.debug_line()
            );
        }
    }
    if std::env::var_os("CCSIM_SERIES").is_some() {
        sim.run();
        let (fs, _) = sim.drain_series();
        for i in 0..fs.t_s.len() {
            eprintln!(
                "{:.3} f{} cwnd={} ssth={} srtt={:.1} inflight={} gp={:.1} retx={} st={}",
                fs.t_s[i],
                fs.flow[i],
                fs.cwnd_bytes[i],
                fs.ssthresh_bytes[i],
                fs.srtt_ms[i],
                fs.bytes_in_flight[i],
                fs.goodput_mbps[i],
                fs.retx_segments[i],
                fs.cong_state[i]
            );
        }
    } else {
        sim.run();
    }
    let mut out = serde_json::to_value(sim.summary()).unwrap();
    if let Some(mb) = peak_rss_mb() {
        out["peak_rss_mb"] = serde_json::json!(mb);
    }
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}

/// Peak resident memory of this process (Linux `VmHWM`), as the ns-3 program reports its own.
fn peak_rss_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

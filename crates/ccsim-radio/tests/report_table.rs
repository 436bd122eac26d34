//! The SINRs handover decisions compare (ns3-mmwave's report table) with the links' fading
//! (`channel.measurement_fading`) and the tree's TTT rule (`handover.ttt_rule = "ns3mmwave"`),
//! on the geometry of the ns3-mmwave handover reference (validation/ns3-mmwave, README
//! section 8): gNBs A (0, 30) and B (200, 30), a building `Box(70, 130, 5, 10, 0, 15)`.

use ccsim_core::Time;
use ccsim_radio::handover::TttRule;
use ccsim_radio::ran::{InterferenceMode, RadioConfig, RadioNetwork};
use ccsim_radio::Admission;

/// The reference's cells and building; `mobility` is the UE's (JSON).
fn config(mobility: &str) -> RadioConfig {
    let json = format!(
        r#"{{
        "sites": [{{"position": {{"x": 0, "y": 30, "z": 10}}}},
                  {{"position": {{"x": 200, "y": 30, "z": 10}}}}],
        "ues": [{{"mobility": {mobility}}}],
        "obstacles": [{{"footprint": {{"vertices": [{{"x": 70, "y": 5}}, {{"x": 130, "y": 5}},
            {{"x": 130, "y": 10}}, {{"x": 70, "y": 10}}]}}, "height": 15, "extra_loss_db": 10.2}}],
        "handover": {{"mode": "dynamic_ttt"}}
    }}"#
    );
    let mut cfg: RadioConfig = serde_json::from_str(&json).unwrap();
    // The tree's report table is an SNR (`UpdateUeSinrEstimate`: "we consider the SNR only").
    cfg.channel.measurement_interference = Some(InterferenceMode::None);
    cfg.mmwave.ap_antenna_gain_db = 18.06;
    cfg.mmwave.ue_antenna_gain_db = 7.94;
    let f = &mut cfg.mmwave.cell.fading;
    f.enabled = true;
    f.hold_us = 100_000;
    f.k_factor_los_db = 20.0;
    f.k_factor_nlos_db = Some(6.0);
    cfg
}

/// Mean and standard deviation.
fn stats(v: &[f64]) -> (f64, f64) {
    let m = v.iter().sum::<f64>() / v.len() as f64;
    let var = v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (v.len() - 1) as f64;
    (m, var.sqrt())
}

/// Runs to `end` with a 2 MB backlog, and returns the report SINRs of both cells sampled in
/// the middle of each 100 ms block.
fn report_samples(cfg: &RadioConfig, seed: u64, end: Time) -> (RadioNetwork, Vec<[f64; 2]>) {
    let mut ran = RadioNetwork::new(cfg, seed).unwrap();
    let mut out = Vec::new();
    let mut samples = Vec::new();
    let mut next_sample = Time::from_millis(50);
    let mut packet = 0u32;
    loop {
        let t = ran.next_deadline().unwrap();
        if t > end {
            break;
        }
        while ran.ue_probe(0, t).cell.rlc_bytes < 2_000_000 {
            if ran.enqueue(t, 0, packet, 1500) == Admission::Dropped {
                break;
            }
            packet += 1;
        }
        ran.on_deadline(t, &mut out);
        out.clear();
        while next_sample <= t {
            samples.push([
                ran.report_sinr_db(0, 0, next_sample),
                ran.report_sinr_db(0, 1, next_sample),
            ]);
            next_sample += Time::from_millis(100);
        }
    }
    (ran, samples)
}

#[test]
fn measurement_fading_puts_each_links_block_fading_into_the_report_table() {
    // Static at x = 100: A and B blocked. A fixed Doppler makes the 100 ms blocks independent
    // draws (a walking UE gets it from its speed).
    let mut cfg = config(r#"{"kind": "static", "position": {"x": 100, "y": 0, "z": 1.6}}"#);
    cfg.mmwave.cell.fading.doppler_hz = Some(1000.0);
    let plain = report_samples(&cfg, 1, Time::from_secs(60)).1;
    cfg.channel.measurement_fading = true;
    let (ran, faded) = report_samples(&cfg, 1, Time::from_secs(60));
    for site in 0..2 {
        // Without it the report is the large-scale SINR, constant for a static UE.
        assert!(plain.iter().all(|s| s[site] == plain[0][site]));
        // With it, the report is the large-scale SINR plus the data channel's fading gain.
        let t = Time::from_millis(59_950);
        assert_eq!(
            ran.report_sinr_db(0, site, t),
            ran.measured_sinr_db(0, site) + ran.cell(site).fading_gain_db(0, t)
        );
        // Rician K = 6 dB in dB: std 3.3 dB (numerically), 600 independent blocks.
        let (_, sd) = stats(&faded.iter().map(|s| s[site]).collect::<Vec<_>>());
        assert!((2.9..3.7).contains(&sd), "site {site}: std {sd:.2} dB");
    }
    // The two links fade independently.
    let (a, b): (Vec<f64>, Vec<f64>) = faded.iter().map(|s| (s[0], s[1])).unzip();
    let ((ma, sa), (mb, sb)) = (stats(&a), stats(&b));
    let cov = a
        .iter()
        .zip(&b)
        .map(|(x, y)| (x - ma) * (y - mb))
        .sum::<f64>()
        / a.len() as f64;
    assert!(
        (cov / (sa * sb)).abs() < 0.15,
        "correlation {:.2}",
        cov / (sa * sb)
    );
}

#[test]
fn the_los_link_fades_little_the_blocked_one_much() {
    // Static at x = 75: A in LOS (K 20 dB), B blocked (K 6 dB).
    let mut cfg = config(r#"{"kind": "static", "position": {"x": 75, "y": 0, "z": 1.6}}"#);
    cfg.mmwave.cell.fading.doppler_hz = Some(1000.0);
    cfg.channel.measurement_fading = true;
    let (ran, faded) = report_samples(&cfg, 2, Time::from_secs(60));
    assert!(ran.los(0, 0) && !ran.los(0, 1));
    let (_, sd_los) = stats(&faded.iter().map(|s| s[0]).collect::<Vec<_>>());
    let (_, sd_nlos) = stats(&faded.iter().map(|s| s[1]).collect::<Vec<_>>());
    assert!((0.4..0.85).contains(&sd_los), "LOS std {sd_los:.2} dB");
    assert!((2.9..3.7).contains(&sd_nlos), "NLOS std {sd_nlos:.2} dB");
}

/// Handovers between the two mmWave cells while both are blocked (2.4-5.6 s).
fn blocked_handovers(cfg: &RadioConfig, seed: u64) -> usize {
    let (ran, _) = report_samples(cfg, seed, Time::from_secs(6));
    ran.handover_log()
        .iter()
        .filter(|h| (2.4..5.6).contains(&h.at.as_secs_f64()))
        .count()
}

#[test]
fn the_trees_ttt_rule_lets_two_blocked_cells_ping_pong() {
    // The reference's walk: x = 60 m at 10 m/s, A and B both blocked from 2.4 to 5.6 s.
    let walk = r#"{"kind": "legs", "start": {"x": 60, "y": 0, "z": 1.6},
        "legs": [{"move_to": {"to": {"x": 160, "y": 0, "z": 1.6}, "speed_mps": 10.0}}]}"#;
    let mut cfg = config(walk);
    cfg.channel.measurement_fading = true;
    let seeds = 1..=6;
    let hysteresis: Vec<usize> = seeds.clone().map(|s| blocked_handovers(&cfg, s)).collect();
    cfg.handover.ttt_rule = TttRule::Ns3mmwave;
    let tree: Vec<usize> = seeds.map(|s| blocked_handovers(&cfg, s)).collect();
    println!("blocked-phase handovers: hysteresis {hysteresis:?}, ns3mmwave {tree:?}");
    // Without a margin, every 100 ms block on which the other cell leads for a whole TTT moves
    // the UE: more handovers than with the 3 dB margin, and a handover in every run.
    assert!(tree.iter().sum::<usize>() > hysteresis.iter().sum::<usize>() + 2);
    assert!(tree.iter().all(|&n| n >= 1), "{tree:?}");
    // Without fading in the measurements the deterministic SINRs cross once at most.
    cfg.channel.measurement_fading = false;
    assert!(blocked_handovers(&cfg, 1) <= 1);
}

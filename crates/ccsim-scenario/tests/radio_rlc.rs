//! The radio's RLC and handover keys end to end (issue 15): the RLC AM entity model
//! (`rlc.model = "entity"`) under TCP, the faded SINR / MCS in the radio probes, and the
//! handover parameters (interruption, X2 forwarding and latency, RLC buffer, AM/UM) as
//! documented keys that change what TCP sees.

use ccsim_scenario::{scenario_from_toml, Scenario, Simulation, Summary};
use std::path::PathBuf;

fn scenario(file: &str, overrides: &[&str]) -> Result<Scenario, String> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../experiments");
    let text = std::fs::read_to_string(dir.join(file)).unwrap();
    let ov: Vec<String> = overrides.iter().map(|s| s.to_string()).collect();
    let mut s = scenario_from_toml(&text, &ov).map_err(|e| e.to_string())?;
    s.base_dir = Some(dir);
    Ok(s)
}

fn run(file: &str, overrides: &[&str]) -> (Summary, Simulation) {
    let s = scenario(file, overrides).unwrap_or_else(|e| panic!("{file}: {e}"));
    let mut sim = Simulation::new(s).unwrap();
    sim.run();
    (sim.summary().without_wall_clock(), sim)
}

#[test]
fn am_entity_under_tcp_matches_the_delay_model_at_bler_zero_and_repairs_losses() {
    // Seed 002's first 5 s (LOS), HARQ BLER 0: the two RLC models give the same goodput.
    let base = [
        "run.duration=5s",
        "radio.mmwave.cell.harq.bler=0",
        "radio.mmwave.cell.harq.retx_bler=0",
    ];
    let with = |extra: &[&str]| {
        let mut ov = base.to_vec();
        ov.extend_from_slice(extra);
        run("seed002_siad_bbr.toml", &ov).0
    };
    let delay = with(&[]);
    let entity = with(&["radio.mmwave.cell.rlc.model=entity"]);
    let (d, e) = (delay.flows[0].goodput_mbps, entity.flows[0].goodput_mbps);
    assert!((e / d - 1.0).abs() < 0.03, "entity {e} vs delay {d} Mb/s");
    // One HARQ attempt at 10 % BLER: the entity's ARQ repairs every lost TB, in order, so
    // TCP sees neither a loss nor reordering.
    let lossy = with(&[
        "radio.mmwave.cell.rlc.model=entity",
        "radio.mmwave.cell.harq.bler=0.1",
        "radio.mmwave.cell.harq.max_attempts=1",
    ]);
    let f = &lossy.flows[0];
    assert_eq!(
        (f.retx_segments, f.timeouts, f.out_of_order_segments),
        (0, 0, 0),
        "{f:?}"
    );
    let cell = &lossy.radio.as_ref().unwrap().cells[0];
    assert!(cell.tb_retransmissions > 1000, "{cell:?}");
    assert_eq!(cell.lost_packets, 0);
    assert!(f.goodput_mbps > 0.8 * d, "{} vs {d}", f.goodput_mbps);
    // UM has no entity.
    let um = [
        "radio.mmwave.cell.rlc.mode=um",
        "radio.mmwave.cell.rlc.model=entity",
    ];
    let err = scenario("seed002_siad_bbr.toml", &um)
        .err()
        .unwrap_or_default();
    assert!(
        err.contains("radio.mmwave.cell") && err.contains("rlc.model"),
        "{err}"
    );
}

#[test]
fn probes_report_the_faded_sinr_and_the_mcs() {
    // The ns3-mmwave preset: fading held per 100 ms and link adaptation. Sampled every
    // 10 ms, the faded SINR moves between channel updates; the large-scale one does not.
    let ov = ["run.duration=2s", "output.sample_interval=10ms"];
    let (_, mut sim) = run("seed002_ns3mmwave.toml", &ov);
    let r = sim.drain_radio_series();
    let n = r.t_s.len();
    assert!(n >= 150);
    let differs = (0..n)
        .filter(|&i| (r.sinr_db[i] - r.large_scale_sinr_db[i]).abs() > 0.01)
        .count();
    assert!(differs > n / 2, "{differs} of {n} samples faded");
    assert!(
        r.mcs.iter().all(|&m| m <= 28),
        "MCS 0-28 with link adaptation"
    );
    // Without fading and link adaptation: the same SINR and no MCS.
    let (_, mut sim) = run("seed002_siad_bbr.toml", &ov);
    let r = sim.drain_radio_series();
    assert!(r
        .sinr_db
        .iter()
        .zip(&r.large_scale_sinr_db)
        .all(|(a, b)| a == b));
    assert!(r.mcs.iter().all(|&m| m == u8::MAX));
}

/// Seed 001 in single connectivity, CUBIC, to 6 s: one mmWave -> LTE handover at 2.8 s and
/// one back at 5.3 s.
fn handover(extra: &[&str]) -> Summary {
    let mut ov = vec!["radio.connectivity=single_connectivity", "run.duration=6s"];
    ov.extend_from_slice(extra);
    run("seed001_dual_connectivity.toml", &ov).0
}

#[test]
fn handover_keys_change_what_tcp_sees() {
    let base = handover(&[]);
    let hos = |s: &Summary| s.radio.as_ref().unwrap().handovers.clone().unwrap();
    assert_eq!(hos(&base).len(), 2);
    let f0 = &base.flows[0];
    assert_eq!((f0.retx_segments, f0.timeouts), (0, 0));
    // An interruption longer than TCP's minimum RTO (200 ms) reaches TCP as timeouts, with
    // nothing lost on the radio.
    let long = handover(&["radio.handover.interruption_us=300000"]);
    assert!(
        long.flows[0].goodput_mbps < f0.goodput_mbps,
        "{} vs {}",
        long.flows[0].goodput_mbps,
        f0.goodput_mbps
    );
    assert!(long.flows[0].timeouts > 0, "{:?}", long.flows[0]);
    assert_eq!(hos(&long).iter().map(|h| h.lost).sum::<u32>(), 0);
    // Without X2 forwarding the buffer is flushed: TCP retransmits what was lost.
    let flush = handover(&["radio.handover.x2_forwarding=false"]);
    let lost: u32 = hos(&flush).iter().map(|h| h.lost).sum();
    assert!(
        lost > 100 && flush.flows[0].retx_segments >= lost as u64,
        "{:?}",
        hos(&flush)
    );
    // A slower X2 delays the target's first service: less goodput, nothing lost.
    let slow = handover(&["radio.handover.x2_latency_us=50000"]);
    assert!(slow.flows[0].goodput_mbps < f0.goodput_mbps);
    assert_eq!(hos(&slow).iter().map(|h| h.lost).sum::<u32>(), 0);
    // The RLC AM entity model hands over its unacknowledged SDUs too: nothing is lost.
    let entity = handover(&[
        "radio.mmwave.cell.rlc.model=entity",
        "radio.lte.cell.rlc.model=entity",
    ]);
    let h = hos(&entity);
    assert!(
        h[0].forwarded > 100 && h.iter().all(|h| h.lost == 0),
        "{h:?}"
    );
    assert_eq!(entity.flows[0].timeouts, 0);
}

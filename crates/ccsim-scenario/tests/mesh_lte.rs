//! `mesh.access = "lte"`: each eNodeB of the mesh is a radio cell with its own gateway. The
//! cell's capacity presets, PF's sharing among a cell's UEs, and packets crossing radio + mesh +
//! EPC end to end.

mod common;

use ccsim_core::Time;
use ccsim_radio::{Delivery, Outcome, RadioNetwork};
use ccsim_scenario::mesh::{lte, topology, MeshConfig};
use ccsim_scenario::{scenario_from_toml, ScenarioError, Simulation, Summary};

fn mesh(extra: &str) -> MeshConfig {
    toml::from_str(&format!(
        "topology = \"grid\"\nrows = 2\ncols = 2\nues = 24\naccess = \"lte\"\n{extra}"
    ))
    .unwrap()
}

/// Saturates every UE of cell 0 for 2 s: returns the bytes each of its UEs got in the last
/// second (after PF's averages settle).
fn saturated_cell(m: &MeshConfig) -> Vec<u64> {
    let topo = topology::build(m).unwrap();
    let cfg = lte::radio_config(m, &topo).unwrap();
    let mut ran = RadioNetwork::new(&cfg, 1).unwrap();
    let ues: Vec<u32> = (0..topo.ues.len() as u32)
        .filter(|&u| topo.ue_cells[u as usize] == 0)
        .collect();
    assert_eq!(ues.len(), 6);
    let mut got = vec![0u64; ues.len()];
    let mut out: Vec<Delivery> = Vec::new();
    let mut next_id = 0u32;
    let mut now = Time::ZERO;
    let end = Time::from_secs(2);
    while now < end {
        // Keep ~50 packets queued per UE: the cell never runs dry.
        for &u in &ues {
            while ran.cell(0).ue_probe(u as usize).rlc_packets < 50 {
                ran.enqueue(now, u, next_id, 1500);
                next_id += 1;
            }
        }
        let Some(t) = ran.next_deadline() else { break };
        now = t.max(now);
        ran.on_deadline(now, &mut out);
        for d in out.drain(..) {
            if d.outcome == Outcome::Delivered && d.at >= Time::from_secs(1) && d.at < end {
                let i = ues.iter().position(|&u| u == d.ue).unwrap();
                got[i] += 1500;
            }
        }
    }
    got
}

fn jain(x: &[u64]) -> f64 {
    let s: f64 = x.iter().map(|&v| v as f64).sum();
    let q: f64 = x.iter().map(|&v| (v as f64).powi(2)).sum();
    s * s / (x.len() as f64 * q)
}

#[test]
fn cell_capacity_presets_are_met_and_pf_shares_them_fairly() {
    for (preset, mbps) in [("paper", 350.0), ("lena", 37.0)] {
        let m = mesh(&format!("[links]\ncell_capacity = \"{preset}\""));
        let got = saturated_cell(&m);
        let total_mbps = got.iter().sum::<u64>() as f64 * 8.0 / 1e6;
        eprintln!("{preset}: {total_mbps:.2} Mb/s {got:?}");
        assert!(
            (total_mbps / mbps - 1.0).abs() < 0.03,
            "{preset}: cell delivered {total_mbps:.1} Mb/s, preset {mbps}"
        );
        let j = jain(&got);
        assert!(j > 0.99, "{preset}: PF shares {got:?} (JFI {j:.4})");
    }
}

#[test]
fn a_capacity_above_256qam_names_the_key_and_the_limit() {
    let m = mesh("[links]\ncell_capacity = \"2Gbps\"");
    let topo = topology::build(&m).unwrap();
    let e: ScenarioError = lte::radio_config(&m, &topo).err().unwrap();
    assert_eq!(e.path, "mesh.links.cell_capacity");
    assert!(e.message.contains("at most"), "{}", e.message);
}

fn run(extra: &[&str]) -> Summary {
    let text = r#"
        [run]
        duration = "60s"
        [output]
        sample_interval = "1s"
        [mesh]
        topology = "grid"
        rows = 2
        cols = 2
        ues = 8
        routing = "olsr"
        access = "lte"
        [mesh.links]
        epc_links = 1
        cell_capacity = "lena"
        [mesh.downloads]
        bytes = 500000
    "#;
    common::run_toml(text, extra)
}

#[test]
fn downloads_cross_the_radio_the_mesh_and_the_epc() {
    let s = run(&[]);
    let m = s.mesh.as_ref().unwrap();
    assert_eq!(m.finished_flows, 8);
    let r = s.radio.as_ref().expect("a radio summary");
    assert_eq!(r.cells.len(), 4);
    // UE k is in cell k mod 4, and every byte a UE received came over its own cell.
    for u in &r.ues {
        assert_eq!(u.serving_cell, u.id % 4);
        assert!(u.delivered_bytes >= 500_000, "{u:?}");
        assert_eq!(u.handovers, 0);
    }
    for c in &r.cells {
        assert!(c.delivered_packets > 2 * 340, "{c:?}");
    }
    // Each cell's router forwarded its UEs' data down into the radio and their ACKs, which
    // leave the radio at the serving cell's router, back into the mesh.
    for r in ["R0", "R1", "R2", "R3"] {
        let n = m.nodes.iter().find(|n| n.name == r).unwrap();
        assert!(n.forwarded > 2 * 2 * 340, "{r}: {n:?}");
    }
    assert_eq!(m.dropped_ttl, 0);
}

#[test]
fn lte_access_is_deterministic() {
    let a = serde_json::to_string(&run(&["mesh.routing=static"]).mesh).unwrap();
    let b = serde_json::to_string(&run(&["mesh.routing=static"]).mesh).unwrap();
    assert_eq!(a, b);
}

#[test]
fn bad_lte_keys_name_the_key_and_the_allowed_values() {
    for (set, key, needle) in [
        ("mesh.access=radio", "mesh.access", "link, lte"),
        ("mesh.lte.scheduler=fifo", "mesh.lte.scheduler", "pf, rr"),
        (
            "mesh.lte.ue_distance_m=0",
            "mesh.lte.ue_distance_m",
            "between 1 and 1000",
        ),
        ("mesh.lte.rlc_buffer=100", "mesh.lte.rlc_buffer", "1500 B"),
        // At 1 km the SINR cannot carry the paper's 4.9 bit/RE.
        (
            "mesh.lte.ue_distance_m=1000",
            "mesh.lte.ue_distance_m",
            "closer",
        ),
    ] {
        let text = "[mesh]\ntopology = \"grid\"\nrows = 2\ncols = 2\naccess = \"lte\"\n";
        let e = scenario_from_toml(text, &[set.to_string()])
            .and_then(Simulation::new)
            .err()
            .unwrap_or_else(|| panic!("{set} accepted"));
        assert_eq!(e.path, key, "{set}: {e:?}");
        assert!(e.message.contains(needle), "{set}: {}", e.message);
    }
}

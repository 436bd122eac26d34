//! The `[mesh]` world end to end: routing protocols decide per packet, control traffic is real,
//! drops are counted by cause. Small meshes so the suite stays fast.

mod common;

use ccsim_scenario::{scenario_from_toml, Simulation, Summary};

fn run(extra: &[&str]) -> Summary {
    let text = r#"
        [run]
        duration = "60s"
        [output]
        sample_interval = "1s"
        [mesh]
        topology = "grid"
        rows = 3
        cols = 3
        ues = 9
        [mesh.links]
        epc_links = 1
        [mesh.downloads]
        bytes = 300000
    "#;
    common::run_toml(text, extra)
}

/// The CLI runs in slices with a wall-clock deadline (`run_until_deadline`); the run must still
/// end when the last download finishes, exactly as a plain `run` does.
#[test]
fn sliced_run_with_a_deadline_ends_with_the_last_download() {
    let text = r#"
        [run]
        duration = "60s"
        [mesh]
        topology = "grid"
        rows = 3
        cols = 3
        ues = 9
        routing = "static"
        [mesh.links]
        epc_links = 1
        [mesh.downloads]
        bytes = 300000
    "#;
    let plain = run(&["mesh.routing=static"]);
    let mut sim = Simulation::new(scenario_from_toml(text, &[]).unwrap()).unwrap();
    let far = std::time::Instant::now() + std::time::Duration::from_secs(3600);
    let mut t = ccsim_core::Time::ZERO;
    while !sim.is_finished() {
        t += ccsim_core::Time::from_secs_f64(1.0);
        assert!(sim.run_until_deadline(t, far));
    }
    let sliced = sim.summary();
    assert!(sliced.duration_s < 10.0, "{}", sliced.duration_s);
    assert_eq!(sliced.duration_s, plain.duration_s);
}

#[test]
fn static_routing_finishes_every_download_without_route_drops() {
    let s = run(&["mesh.routing=static"]);
    let m = s.mesh.as_ref().unwrap();
    assert_eq!(m.finished_flows, 9);
    assert_eq!(m.dropped_no_route, 0);
    assert_eq!(m.dropped_ttl, 0);
    assert_eq!(m.routing_overhead_bytes, 0);
    // The run ends when the last download finishes, not at 60 s.
    assert!(s.duration_s < 10.0, "{}", s.duration_s);
}

#[test]
fn olsr_drops_early_syns_until_it_converges() {
    let s = run(&["mesh.routing=olsr"]);
    let m = s.mesh.as_ref().unwrap();
    assert_eq!(m.finished_flows, 9);
    // Before OLSR knows the routes, SYNs into the mesh find none: counted, never silent.
    assert!(m.dropped_no_route > 0);
    let conv = m.convergence_s.unwrap();
    assert!((2.0..20.0).contains(&conv), "converged at {conv}");
    // Every first SYN (t ≈ 1 s) found no route, so every download waited for a retry (3 s
    // later at the earliest); with routes, a 300 kB download takes well under a second.
    let first = m.finish_time_s.as_ref().unwrap().min;
    assert!(first > 3.0, "first finish {first} s after its start");
    assert!(m.routing_overhead_bytes > 0);
    let g = m.nodes.iter().find(|n| n.name == "G").unwrap();
    assert!(g.forwarded > 0 && g.dropped_no_route > 0);
}

/// The start-up diagnostic: each router's first-known time of each network. Convergence is
/// the first 10 ms poll at which every router knows every network, so it comes at most one
/// poll after the last first-known time; a router knows its own network from t = 0 and a
/// neighbour's only once HELLOs have made the link symmetric and its HNA has arrived.
#[test]
fn olsr_route_known_times_end_at_convergence() {
    let s = run(&["mesh.routing=olsr"]);
    let m = s.mesh.as_ref().unwrap();
    let conv = m.convergence_s.unwrap();
    let rows = m
        .route_known_s
        .as_ref()
        .expect("OLSR reports route-known times");
    assert_eq!(rows.len(), 10, "G and the 3 x 3 routers");
    assert_eq!(rows[0].router, "G");
    let mut last: f64 = 0.0;
    for (r, row) in rows.iter().enumerate() {
        assert_eq!(row.known_s.len(), 10);
        for (d, t) in row.known_s.iter().enumerate() {
            let t = t.unwrap_or_else(|| panic!("{} never knew network {d}", row.router));
            if d == r {
                assert_eq!(t, 0.0);
            } else {
                // The first HELLOs (t < 0.5 s) only make links asymmetric.
                assert!(t > 2.0, "{} knew network {d} at {t} s", row.router);
            }
            last = last.max(t);
        }
    }
    assert!(
        last <= conv && conv - last < 0.01 + 1e-9,
        "last {last} s, converged {conv} s"
    );
    // Other routings have no route-known times.
    let s = run(&["mesh.routing=static"]);
    assert!(s.mesh.unwrap().route_known_s.is_none());
}

#[test]
fn backpressure_variants_deliver_and_per_packet_reorders() {
    let per_packet = run(&["mesh.routing=bp_per_packet"]);
    let per_flow = run(&["mesh.routing=bp_per_flow"]);
    let burst = run(&["mesh.routing=bp_per_burst"]);
    for s in [&per_packet, &per_flow, &burst] {
        let m = s.mesh.as_ref().unwrap();
        assert_eq!(m.finished_flows, 9, "{}", m.routing);
        assert_eq!(m.dropped_no_route, 0);
        assert!(m.bp_decisions.unwrap() > 0);
    }
    let pp = per_packet.mesh.as_ref().unwrap();
    let pf = per_flow.mesh.as_ref().unwrap();
    // Per flow: one decision per flow direction and router on the path, not per packet.
    assert!(pf.bp_decisions.unwrap() * 20 < pp.bp_decisions.unwrap());
    // Per packet spreads a flow over paths of different lengths: segments arrive out of order.
    assert!(pp.out_of_order_segments > pf.out_of_order_segments);
}

#[test]
fn same_seed_same_result() {
    let a = run(&["mesh.routing=bp_per_packet", "run.seed=3"]);
    let b = run(&["mesh.routing=bp_per_packet", "run.seed=3"]);
    assert_eq!(
        serde_json::to_string(&a.flows).unwrap(),
        serde_json::to_string(&b.flows).unwrap()
    );
}

#[test]
fn udp_load_is_counted_delivered_over_injected() {
    let s = run(&[
        "mesh.routing=static",
        "mesh.udp.aggregate_rate=100Mbps",
        "mesh.udp.flows=4",
    ]);
    let u = s.mesh.as_ref().unwrap().udp.as_ref().unwrap();
    assert_eq!(u.flows, 4);
    assert!(u.injected_bytes > 0);
    assert!(
        u.delivered_pct > 90.0 && u.delivered_pct <= 100.0,
        "{}",
        u.delivered_pct
    );
}

#[test]
fn bad_mesh_keys_name_the_key_and_the_allowed_values() {
    let bad = |o: &str| {
        let text = "[mesh]\n";
        let e = Simulation::new(scenario_from_toml(text, &[o.to_string()]).unwrap())
            .err()
            .unwrap();
        (e.path, e.message)
    };
    let (p, m) = bad("mesh.routing=ospf");
    assert_eq!(p, "mesh.routing");
    assert!(m.contains("bp_per_burst"), "{m}");
    let (p, m) = bad("mesh.links.cell_capacity=huge");
    assert_eq!(p, "mesh.links.cell_capacity");
    assert!(m.contains("lena"), "{m}");
    let (p, _) = bad("mesh.topology=torus");
    assert_eq!(p, "mesh.topology");
    // Checked only with a load: give it one.
    let text = "[mesh]\n[mesh.udp]\naggregate_rate = \"60Mbps\"\npacket_bytes = 9000\n";
    let e = Simulation::new(scenario_from_toml(text, &[]).unwrap())
        .err()
        .unwrap();
    assert_eq!(e.path, "mesh.udp.packet_bytes");
}

#[test]
fn a_static_routing_loop_is_a_build_error() {
    // a -> b -> c, but b's route to c points back at a, and a's at b: a loop.
    let text = r#"
        [run]
        duration = "2s"
        [[nodes]]
        name = "a"
        [[nodes]]
        name = "b"
        [[nodes]]
        name = "c"
        [[links]]
        from = "a"
        to = "b"
        rate = "100Mbps"
        delay = "1ms"
        [[links]]
        from = "b"
        to = "c"
        rate = "100Mbps"
        delay = "1ms"
        [[routes]]
        at = "b"
        dst = "c"
        via = "a"
        [[routes]]
        at = "a"
        dst = "c"
        via = "b"
        [[flows]]
        src = "a"
        dst = "c"
    "#;
    // Static routes are checked when the world is built: the loop is a keyed error.
    let e = Simulation::new(scenario_from_toml(text, &[]).unwrap())
        .err()
        .expect("a static routing loop is rejected");
    assert_eq!(e.path, "routes");
    assert!(e.message.contains("loop"), "{}", e.message);
}

//! Pure-ccsim throughput benchmark (no ns-3 needed): events/s, packets/s and heap
//! allocations per packet in steady state, on case A (1 CUBIC flow, 100 Mb/s), case B
//! (10 flows, 1 Gb/s), case C (1.3 Gb/s blockage) and the radio scenarios R1 (seed 002: one
//! UE above 1 Gb/s through the RAN) and R2 (seed 000: 10 UEs, 4 APs); then whole runs of R1
//! and R2 against their speed targets (R1 under 1.5 s, R2 faster than real time).
//! Run: `cargo bench -p ccsim-scenario --bench throughput`.
//!
//! The counting allocator checks the "no per-packet heap allocation" rule: after a warm-up
//! (buffers grown to their working size), the steady-state run must allocate (almost)
//! nothing per packet; the number printed is allocations per packet forwarded.

use ccsim_core::Time;
use ccsim_scenario::{scenario_from_toml, Simulation};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

struct Counting;
static ALLOCS: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.realloc(p, l, n) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn case(name: &str, toml: &str, overrides: &[String], warmup_s: f64, measure_s: f64) {
    let mut sim = Simulation::new(scenario_from_toml(toml, overrides).unwrap()).unwrap();
    sim.run_until(Time::from_secs_f64(warmup_s));
    let _ = sim.drain_series();
    let packets0: u64 = sim.summary().queues.iter().map(|q| q.tx_packets).sum();
    let events0 = sim.events();
    let allocs0 = ALLOCS.load(Ordering::Relaxed);
    let t0 = Instant::now();
    // Probes sample every 10 ms; drain them like the Python front does, once per second.
    let mut t = warmup_s;
    while t < warmup_s + measure_s {
        t += 1.0;
        sim.run_until(Time::from_secs_f64(t));
        let _ = sim.drain_series();
    }
    let wall = t0.elapsed().as_secs_f64();
    let allocs = ALLOCS.load(Ordering::Relaxed) - allocs0;
    let events = sim.events() - events0;
    let packets: u64 = sim
        .summary()
        .queues
        .iter()
        .map(|q| q.tx_packets)
        .sum::<u64>()
        - packets0;
    println!(
        "{name:<32} {measure_s:>5.0} s sim in {wall:>6.3} s wall  {:>6.2} M events/s  {:>6.2} M link-packets/s  {:>7.1} ns/event  {:.4} allocs/packet",
        events as f64 / wall / 1e6,
        packets as f64 / wall / 1e6,
        wall * 1e9 / events as f64,
        allocs as f64 / packets as f64,
    );
}

fn main() {
    // `cargo bench` passes --bench; any other argument filters by name.
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../experiments/");
    let cases = [
        (
            "A: 1 CUBIC flow, 100 Mb/s",
            "dumbbell_cubic.toml",
            5.0,
            20.0,
        ),
        (
            "B: 10 CUBIC flows, 1 Gb/s",
            "dumbbell_10flows_1G.toml",
            2.0,
            5.0,
        ),
        (
            "C: 1.3 Gb/s blockage, MSS 10000",
            "blockage_1300M.toml",
            1.0,
            10.0,
        ),
        (
            "R1: radio, seed 002, 1 UE >1 Gb/s",
            "seed002_siad_bbr.toml",
            1.0,
            10.0,
        ),
        (
            "R1-AM: R1 with the RLC AM entity",
            "seed002_siad_bbr.toml",
            1.0,
            10.0,
        ),
        (
            "R2: radio, 10 UEs, 4 APs",
            "seed000_multi_flow.toml",
            2.0,
            20.0,
        ),
    ];
    for (name, file, warm, measure) in cases {
        if !filter.is_empty() && !filter.iter().any(|f| name.contains(f.as_str())) {
            continue;
        }
        let toml = std::fs::read_to_string(format!("{root}{file}")).unwrap();
        case(name, &toml, &overrides_of(name), warm, measure);
    }
    // Whole runs from the scenario file (build + run to the end, probes drained each second),
    // against the speed targets of the radio scenarios.
    let whole = [
        (
            "R1: seed 002 (15 s), target < 1.5 s wall",
            "seed002_siad_bbr.toml",
        ),
        (
            "R1-AM: seed 002 (15 s), RLC AM entity",
            "seed002_siad_bbr.toml",
        ),
        (
            "R2: 10 UEs (40 s), target faster than real time",
            "seed000_multi_flow.toml",
        ),
    ];
    for (name, file) in whole {
        if !filter.is_empty() && !filter.iter().any(|f| name.contains(f.as_str())) {
            continue;
        }
        let toml = std::fs::read_to_string(format!("{root}{file}")).unwrap();
        full_run(name, &toml, &overrides_of(name));
    }
}

/// The R1-AM cases are R1 with `rlc.model = "entity"`: its speed cost over the delay model.
fn overrides_of(name: &str) -> Vec<String> {
    if name.starts_with("R1-AM") {
        vec!["radio.mmwave.cell.rlc.model=entity".to_string()]
    } else {
        Vec::new()
    }
}

fn full_run(name: &str, toml: &str, overrides: &[String]) {
    let t0 = Instant::now();
    let mut sim = Simulation::new(scenario_from_toml(toml, overrides).unwrap()).unwrap();
    let end = sim.duration().as_secs_f64();
    let mut t = 0.0;
    while t < end {
        t = (t + 1.0).min(end);
        sim.run_until(Time::from_secs_f64(t));
        let _ = sim.drain_series();
        let _ = sim.drain_radio_series();
    }
    let wall = t0.elapsed().as_secs_f64();
    let s = sim.summary();
    println!(
        "{name:<48} {end:>5.1} s sim in {wall:>6.3} s wall  {:>6.1}x real time  {:>7.1} Mb/s total goodput",
        end / wall,
        s.total_goodput_mbps
    );
}

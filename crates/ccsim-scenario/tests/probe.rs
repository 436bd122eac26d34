//! docs/architecture.md "How to add a probe", in a scenario's world: a probe pushed onto the
//! `Recorder`'s extra probes sees every queue drop the summary counts, and changes nothing.

use ccsim_core::Time;
use ccsim_engine::Probe;
use ccsim_net::{LinkId, Packet};
use ccsim_scenario::{scenario_from_toml, Simulation};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

const DUMBBELL: &str = r#"
[run]
duration = "4s"
[dumbbell.bottleneck]
rate = "20Mbps"
delay = "10ms"
queue = "20p"
[[flows]]
cca = "cubic"
count = 2
"#;

/// Counts queue drops into a counter the test keeps (the world owns the probe).
struct QueueDrops(Arc<AtomicU64>);

impl Probe for QueueDrops {
    fn on_queue_drop(&mut self, _now: Time, _link: LinkId, _packet: &Packet) {
        self.0.fetch_add(1, Ordering::Relaxed);
    }
}

#[test]
fn an_extra_probe_sees_every_queue_drop_and_changes_nothing() {
    let drops = Arc::new(AtomicU64::new(0));
    let mut with = Simulation::new(scenario_from_toml(DUMBBELL, &[]).unwrap()).unwrap();
    with.world_mut()
        .probe
        .extra
        .push(Box::new(QueueDrops(drops.clone())));
    with.run();
    let mut without = Simulation::new(scenario_from_toml(DUMBBELL, &[]).unwrap()).unwrap();
    without.run();

    let summary = with.summary();
    let queue_drops: u64 = summary.queues.iter().map(|q| q.drops).sum();
    assert!(
        queue_drops > 0,
        "two CUBIC flows overflow a 20-packet queue"
    );
    assert_eq!(drops.load(Ordering::Relaxed), queue_drops);
    assert_eq!(
        serde_json::to_string(&summary.flows).unwrap(),
        serde_json::to_string(&without.summary().flows).unwrap()
    );
    assert_eq!(with.events(), without.events());
}

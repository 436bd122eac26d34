//! docs/architecture.md "How to add a probe", step by step: a probe that counts queue drops
//! per link and the bytes of data segments sent, attached to a world built by hand (two hosts,
//! a 10 Mb/s bottleneck with a 10-packet queue, one CUBIC flow), without `ccsim-scenario`.

use ccsim_core::Time;
use ccsim_engine::{Flow, NoRadio, NoRouting, Parts, Plain, Probe, World};
use ccsim_net::{
    DropTailQueue, Link, LinkId, NodeId, Packet, QueueLimit, RoutingTable, TcpSegment,
};
use ccsim_tcp::{TcpConfig, TcpReceiver, TcpSender};

/// Step 1: the probe's state, and the hooks it needs (every other hook is a no-op).
#[derive(Default)]
struct DropsPerLink {
    drops: Vec<u64>,
    data_bytes_sent: u64,
}

impl Probe for DropsPerLink {
    fn on_queue_drop(&mut self, _now: Time, link: LinkId, _packet: &Packet) {
        let l = link.0 as usize;
        if self.drops.len() <= l {
            self.drops.resize(l + 1, 0);
        }
        self.drops[l] += 1;
    }

    fn on_tcp_sent(&mut self, _now: Time, _flow: u32, to_receiver: bool, seg: &TcpSegment) {
        if to_receiver {
            self.data_bytes_sent += seg.payload as u64;
        }
    }
}

/// Step 2: the world's parts: no routing protocol, no radio, this probe.
struct WithDrops;

impl Parts for WithDrops {
    type Routing = NoRouting;
    type Radio = NoRadio;
    type Probe = DropsPerLink;
}

/// Host a (node 0) → router (1) → host b (2); the router → b link is the bottleneck.
fn world<P: Parts>(queue_packets: u64) -> World<P> {
    let nodes = vec!["a".to_string(), "r".to_string(), "b".to_string()];
    let link = |name: &str, from: u32, to: u32, rate: u64, q: u64| {
        Link::new(
            name.to_string(),
            NodeId(from),
            NodeId(to),
            rate,
            Time::from_millis(5),
            DropTailQueue::new(QueueLimit::Packets(q)),
        )
    };
    let links = vec![
        link("a-r", 0, 1, 100_000_000, 100),
        link("r-b", 1, 2, 10_000_000, queue_packets),
        link("b-r", 2, 1, 100_000_000, 100),
        link("r-a", 1, 0, 100_000_000, 100),
    ];
    let mut routes = RoutingTable::new(3);
    for (at, dst, l) in [
        (0, 2, 0),
        (1, 2, 1),
        (2, 0, 2),
        (1, 0, 3),
        (0, 1, 0),
        (2, 1, 2),
    ] {
        routes.set(NodeId(at), NodeId(dst), LinkId(l));
    }
    let cfg = TcpConfig::default();
    let cca = ccsim_cca::build("cubic", &serde_json::Map::new()).unwrap();
    let flow = Flow::new(
        0,
        NodeId(0),
        NodeId(2),
        Time::ZERO,
        None,
        TcpSender::new(cfg.clone(), cca, None),
        TcpReceiver::new(cfg),
    );
    World::new(
        nodes,
        links,
        routes,
        vec![flow],
        Vec::new(),
        Time::from_secs(5),
        Time::from_millis(100),
    )
}

#[test]
fn a_probe_counts_the_drops_of_each_link() {
    // Step 3: build the world with these parts and run it; the probe is `world.probe`.
    let mut w: World<WithDrops> = world(10);
    w.run_until(Time::from_secs(5));

    let p = &w.probe;
    // CUBIC overflows the 10-packet bottleneck queue: the probe saw each of its drops, and
    // drops nowhere else.
    assert!(
        p.drops.get(1).copied().unwrap_or(0) > 0,
        "no drop at the bottleneck"
    );
    for (l, link) in w.links.iter().enumerate() {
        assert_eq!(
            p.drops.get(l).copied().unwrap_or(0),
            link.queue.drops,
            "link {l}"
        );
    }
    // Every data byte the sender sent (first transmissions and retransmissions).
    let s = &w.flows[0].sender.stats;
    assert!(p.data_bytes_sent >= w.flows[0].receiver.delivered_bytes());
    assert!(s.retx_segments > 0);
}

#[test]
fn a_probe_does_not_change_the_run() {
    let mut with: World<WithDrops> = world(10);
    let mut without: World<Plain> = world(10);
    with.run_until(Time::from_secs(5));
    without.run_until(Time::from_secs(5));
    assert_eq!(with.events_processed(), without.events_processed());
    assert_eq!(
        with.flows[0].receiver.delivered_bytes(),
        without.flows[0].receiver.delivered_bytes()
    );
}

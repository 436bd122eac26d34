//! Tests of the cell with the RLC AM entity (`rlc.model = "entity"`, [`crate::am_link`]).
use super::*;
use crate::rlc::{HarqConfig, RlcModel};

fn entity(harq: HarqConfig) -> CellConfig {
    let mut c = CellConfig::mmwave();
    c.rlc.model = RlcModel::Entity;
    c.harq = harq;
    c
}

fn lossless() -> HarqConfig {
    HarqConfig {
        enabled: false,
        ..HarqConfig::default()
    }
}

/// A cell with one attached UE at `sinr_db`, `n` SDUs of `bytes` queued at t = 0, run for
/// `ms`: the deliveries.
fn run(cfg: CellConfig, sinr_db: f64, n: u32, bytes: u32, ms: u64) -> (Cell, Vec<Delivery>) {
    let mut c = Cell::new(0, cfg, 1, 7);
    c.attach(0, Time::ZERO, Time::ZERO);
    c.set_channel(0, sinr_db);
    for p in 0..n {
        assert_eq!(c.enqueue(Time::ZERO, 0, p, bytes), Admission::Accepted);
    }
    let mut out = Vec::new();
    c.poll(Time::from_millis(ms), &mut out);
    (c, out)
}

fn in_order_once(out: &[Delivery], n: u32) {
    let got: Vec<u32> = out
        .iter()
        .filter(|d| d.outcome == Outcome::Delivered)
        .map(|d| d.packet)
        .collect();
    assert_eq!(got, (0..n).collect::<Vec<_>>(), "every SDU once, in order");
    assert!(out.windows(2).all(|w| w[0].at <= w[1].at), "delivery times");
}

#[test]
fn sdus_are_segmented_over_tbs_and_delivered_whole() {
    // -2 dB: CQI 2 of table 2 (0.377 bit/RE), ~1700-byte TBs: a 10 kB SDU spans several TBs.
    let (c, out) = run(entity(lossless()), -2.0, 20, 10_000, 200);
    in_order_once(&out, 20);
    let tbs = c.counters().tbs;
    assert!(tbs > 20 * 3, "{tbs} TBs for 20 SDUs of 10 kB");
    assert_eq!(c.counters().arq_retransmissions, 0);
    assert_eq!(c.ue_probe(0).delivered_bytes, 200_000);
    // The first SDU arrives once its last piece is decoded, several slots after the first.
    let first_tb = Time::from_micros(250 + 250 + 500 + 100);
    assert!(out[0].at > first_tb, "{:?}", out[0].at);
    assert_eq!(
        c.next_deadline(),
        None,
        "idle once everything is acknowledged"
    );
}

#[test]
fn a_lost_tb_is_repaired_by_an_rlc_retransmission_after_a_status_report() {
    // One HARQ attempt with 20 % BLER: lost TBs are RLC's to repair.
    let harq = HarqConfig {
        bler: 0.2,
        retx_bler: 0.2,
        max_attempts: 1,
        ..HarqConfig::default()
    };
    let (c, out) = run(entity(harq), 30.0, 3000, 1500, 400);
    in_order_once(&out, 3000);
    let k = c.counters();
    assert!(k.arq_retransmissions > 50, "{k:?}");
    assert_eq!(k.lost_packets, 0);
    // Lossless reference: the same SDUs arrive sooner; the repaired ones wait t-Reordering
    // (2 ms) + the status uplink + the retransmission's downlink, so the mean delay grows.
    let (_, clean) = run(entity(lossless()), 30.0, 3000, 1500, 400);
    let mean = |o: &[Delivery]| o.iter().map(|d| d.at.as_secs_f64()).sum::<f64>() / 3000.0;
    assert!(
        mean(&out) > mean(&clean) + 0.001,
        "{} vs {}",
        mean(&out),
        mean(&clean)
    );
}

#[test]
fn with_bler_zero_the_entity_delivers_as_the_delay_model() {
    let zero = HarqConfig {
        bler: 0.0,
        retx_bler: 0.0,
        ..HarqConfig::default()
    };
    let (_, out_am) = run(entity(zero.clone()), 30.0, 10_000, 1500, 100);
    let delay = CellConfig {
        harq: zero,
        ..CellConfig::mmwave()
    };
    let (_, out_dm) = run(delay, 30.0, 10_000, 1500, 100);
    // SDUs at the UE by 95 ms (the delay model reports deliveries ahead of time).
    let by = |o: &[Delivery]| {
        o.iter()
            .filter(|d| d.outcome == Outcome::Delivered && d.at <= Time::from_millis(95))
            .count() as f64
    };
    let r = by(&out_am) / by(&out_dm);
    // The AM header (4 bytes per TB of ~30 kB) is the only difference.
    assert!((r - 1.0).abs() < 0.01, "entity / delay bytes = {r}");
    assert!(by(&out_dm) > 5000.0);
    assert_eq!(out_am[0].at, out_dm[0].at, "same first delivery");
}

#[test]
fn entity_needs_am_and_hands_over_unsent_and_undelivered_sdus() {
    let mut cfg = entity(lossless());
    cfg.rlc.mode = RlcMode::Um;
    assert!(cfg.validate().unwrap_err().contains("rlc.model"));
    // 10 SDUs, 4 ms of service: some delivered, the rest handed over whole, once each.
    let mut c = Cell::new(0, entity(lossless()), 1, 1);
    c.attach(0, Time::ZERO, Time::ZERO);
    c.set_channel(0, -2.0);
    for p in 0..10 {
        c.enqueue(Time::ZERO, 0, p, 10_000);
    }
    let mut out = Vec::new();
    c.poll(Time::from_millis(4), &mut out);
    let delivered: Vec<u32> = out.iter().map(|d| d.packet).collect();
    let mut resent = Vec::new();
    c.drain_unacked(0, Time::from_millis(4), |p| resent.push(p));
    let mut moved = Vec::new();
    c.detach(0, |p, b| moved.push((p, b)), |p| panic!("{p} lost"));
    assert!(
        !delivered.is_empty() && delivered.len() < 10,
        "{delivered:?}"
    );
    // Delivered + forwarded = all, no SDU in both; forwarded ones keep their size.
    let mut all: Vec<u32> = delivered.clone();
    all.extend(moved.iter().map(|m| m.0));
    assert_eq!(all, (0..10).collect::<Vec<_>>());
    assert!(moved.iter().all(|m| m.1 == 10_000));
    // Resent copies are SDUs the UE already has.
    assert!(resent.iter().all(|p| delivered.contains(p)));
    assert_eq!(c.ue_probe(0).rlc_bytes, 0);
}

#[test]
fn status_max_nacks_needs_the_entity_model() {
    let mut cfg = CellConfig::mmwave();
    cfg.rlc.status_max_nacks = 1;
    let e = cfg.validate().unwrap_err();
    assert!(
        e.contains("rlc.status_max_nacks") && e.contains("entity"),
        "{e}"
    );
    let mut cfg = entity(lossless());
    cfg.rlc.status_max_nacks = 1;
    assert!(cfg.validate().is_ok());
}

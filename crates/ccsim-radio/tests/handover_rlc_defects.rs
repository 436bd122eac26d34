//! Two defects of ns3-mmwave's secondary-cell handover, as handover options of the delay RLC
//! model (issue 15): `ue_rlc_reset_loses_received` (the UE's RLC reception buffer above a hole
//! is discarded: what the source had seen acknowledged is lost, the rest forwarded) and
//! `forward_in_pdcp_sn_order` (the SDUs sent but not acknowledged go out in 12-bit PDCP SN
//! order, so across the wrap the newer part goes first).

use ccsim_core::Time;
use ccsim_radio::cell::{Delivery, LossReason, Outcome};
use ccsim_radio::handover::schedule::ScheduledHandover;
use ccsim_radio::ran::{RadioConfig, RadioNetwork};
use ccsim_radio::scenarios::seed000_handover_street;
use ccsim_radio::Admission;
use std::collections::HashMap;

/// The street with one handover at `at_us` to the other mmWave site, every UE-side packet
/// 1500 B with ids in PDCP order, HARQ that leaves one TB in three to RLC, which repairs it
/// `retx_delay_us` later: holes with packets received above them.
fn street(at_us: u64, retx_delay_us: u64) -> RadioConfig {
    let mut cfg = seed000_handover_street().radio_config(&[]);
    let cell = &mut cfg.mmwave.cell;
    cell.harq.max_attempts = 1;
    cell.harq.bler = 0.3;
    cell.harq.retx_bler = 0.3;
    cell.rlc.retx_delay_us = retx_delay_us;
    cell.rlc.max_retx = 20;
    cfg.handover.schedule = vec![ScheduledHandover {
        at_us,
        site: 2,
        ue: 0,
    }];
    cfg
}

/// Runs the RAN to `end` with a 2 MB backlog of 1500-byte packets numbered in arrival order
/// (no copies are sent: only the first handover is looked at).
fn run(cfg: &RadioConfig, end: Time) -> (Vec<Delivery>, RadioNetwork) {
    let mut ran = RadioNetwork::new(cfg, 1).unwrap();
    let mut out = Vec::new();
    let mut next = 0u32;
    while let Some(t) = ran.next_deadline().filter(|&t| t <= end) {
        while ran.ue_probe(0, t).cell.rlc_bytes < 2_000_000 {
            assert_eq!(ran.enqueue(t, 0, next, 1500), Admission::Accepted);
            next += 1;
        }
        ran.on_deadline(t, &mut out);
    }
    (out, ran)
}

fn delivered(out: &[Delivery]) -> HashMap<u32, Time> {
    out.iter()
        .filter(|d| d.outcome == Outcome::Delivered)
        .map(|d| (d.packet, d.at))
        .collect()
}

fn reset_lost(out: &[Delivery]) -> Vec<u32> {
    out.iter()
        .filter(|d| d.outcome == Outcome::Lost(LossReason::UeRlcReset))
        .map(|d| d.packet)
        .collect()
}

#[test]
fn a_handover_loses_the_acknowledged_packets_held_above_a_hole() {
    let ho = Time::from_millis(1000);
    let end = Time::from_millis(1500);
    let cfg = street(1_000_000, 20_000);
    let (plain, ran) = run(&cfg, end);
    assert_eq!(ran.handover_log()[0].lost, 0, "lossless without the rule");
    let mut on = cfg.clone();
    on.handover.ue_rlc_reset_loses_received = true;
    let (reset, ran_on) = run(&on, end);
    let h = ran_on.handover_log()[0];
    assert_eq!(h.at, ho);
    let lost = reset_lost(&reset);
    assert!(
        !lost.is_empty() && h.lost as usize == lost.len(),
        "a 20 ms hole with t-Reordering 2 ms: acknowledged packets above it: {h:?}"
    );
    let (before, after) = (delivered(&plain), delivered(&reset));
    for p in &lost {
        // the UE had not delivered it in sequence; now it never gets it
        assert!(before[p] > ho, "packet {p} was delivered at {}", before[p]);
        assert!(!after.contains_key(p), "packet {p} lost and delivered");
    }
    // What the UE had in sequence by the handover is unchanged.
    for (p, &t) in before.iter().filter(|(_, &t)| t <= ho) {
        assert_eq!(after.get(p), Some(&t), "packet {p}");
    }
    // Held but not yet acknowledged when t-Reordering is longer than the run: all forwarded.
    let mut long = on.clone();
    long.mmwave.cell.rlc.reordering_us = 10_000_000;
    let (kept, ran_long) = run(&long, end);
    assert!(reset_lost(&kept).is_empty());
    let got = delivered(&kept);
    assert!(
        lost.iter().all(|p| got.contains_key(p)),
        "the held packets are forwarded to the target: {:?}",
        ran_long.handover_log()[0]
    );
}

#[test]
fn forwarding_in_pdcp_sn_order_sends_the_part_after_the_wrap_first() {
    let end = Time::from_millis(1500);
    // When packet 4096 (PDCP SN 0 again) reaches the UE, the packets just below it are still
    // unacknowledged: hand over then.
    let (probe, _) = run(&street(60_000_000, 4_000), end);
    let wrap = delivered(&probe)[&4096];
    let at_us = wrap.as_nanos() / 1000 + 50;
    let resent = |sn_order: bool| {
        let mut cfg = street(at_us, 4_000);
        cfg.handover.forward_in_pdcp_sn_order = sn_order;
        let (out, ran) = run(&cfg, Time::from_micros(at_us + 1));
        let at = ran.handover_log()[0].at;
        out.iter()
            .filter(|d| d.outcome == Outcome::Resend && d.at == at)
            .map(|d| d.packet)
            .collect::<Vec<u32>>()
    };
    let plain = resent(false);
    assert!(
        plain.first().is_some_and(|&p| p < 4096) && plain.last().is_some_and(|&p| p >= 4096),
        "the unacknowledged SDUs span the wrap: {plain:?}"
    );
    assert!(plain.windows(2).all(|w| w[0] < w[1]), "oldest first");
    let ordered = resent(true);
    let k = ordered.iter().position(|&p| p < 4096).unwrap();
    assert!(k > 0, "{ordered:?}");
    let (newer, older) = ordered.split_at(k);
    assert!(newer.iter().all(|&p| p >= 4096) && older.iter().all(|&p| p < 4096));
    let mut sorted = ordered.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, plain, "the same SDUs");
    assert!(newer.windows(2).all(|w| w[0] < w[1]) && older.windows(2).all(|w| w[0] < w[1]));
}

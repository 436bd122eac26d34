//! Unit tests of [`crate::cell`] (a separate file to keep `cell.rs` short).
use super::*;
use crate::link_adaptation::LinkAdaptationConfig;
use crate::rlc::HarqConfig;

fn no_harq() -> CellConfig {
    CellConfig {
        harq: HarqConfig {
            enabled: false,
            ..HarqConfig::default()
        },
        ..CellConfig::mmwave()
    }
}

fn drain(cell: &mut Cell, until: Time, out: &mut Vec<Delivery>) {
    cell.poll(until, out);
}

#[test]
fn single_packet_timing() {
    let mut c = Cell::new(0, no_harq(), 1, 1);
    c.attach(0, Time::ZERO, Time::ZERO);
    c.set_channel(0, 30.0);
    assert_eq!(c.next_deadline(), None);
    // Arrives mid-slot: sent in the next slot (250 µs).
    assert_eq!(
        c.enqueue(Time::from_micros(100), 0, 42, 1500),
        Admission::Accepted
    );
    assert_eq!(c.next_deadline(), Some(Time::from_micros(250)));
    let mut out = Vec::new();
    drain(&mut c, Time::from_millis(10), &mut out);
    // 250 µs slot start + 250 µs slot + 2·250 µs scheduling + 100 µs decoding = 1.1 ms.
    assert_eq!(
        out,
        vec![Delivery {
            packet: 42,
            ue: 0,
            at: Time::from_micros(1100),
            outcome: Outcome::Delivered
        }]
    );
    assert_eq!(c.next_deadline(), None);
    assert_eq!(c.counters().tx_packets, 1);
}

#[test]
fn throughput_matches_bytes_per_slot() {
    let mut c = Cell::new(0, no_harq(), 1, 1);
    c.attach(0, Time::ZERO, Time::ZERO);
    c.set_channel(0, 40.0); // CQI 15 of table 2: 7.4063 bits/RE
    let mut out = Vec::new();
    for p in 0..20_000u32 {
        c.enqueue(Time::ZERO, 0, p, 1500);
    }
    drain(&mut c, Time::from_millis(100), &mut out);
    // 100 ms = 400 slots of ⌊36 368·7.4063/8⌋ = 33 669 B; deliveries lag 1.1 ms, so count
    // bytes sent in slots 0..=399.
    let per_slot = FrameConfig::mmwave_nr().bytes_per_slot(7.4063);
    assert_eq!(per_slot, 33_669);
    let sent = c.ue_probe(0).delivered_bytes;
    assert_eq!(sent, (per_slot * 401).min(20_000 * 1500));
    assert!(out.iter().all(|d| d.outcome == Outcome::Delivered));
    // In-order, non-decreasing delivery times.
    assert!(out
        .windows(2)
        .all(|w| w[0].packet < w[1].packet && w[0].at <= w[1].at));
}

#[test]
fn drop_tail_and_outage() {
    let mut cfg = no_harq();
    cfg.rlc.buffer_bytes = 3000;
    let mut c = Cell::new(0, cfg, 1, 1);
    c.attach(0, Time::ZERO, Time::ZERO);
    c.set_channel(0, -20.0); // below CQI 1: outage
    assert_eq!(c.enqueue(Time::ZERO, 0, 1, 1500), Admission::Accepted);
    assert_eq!(c.enqueue(Time::ZERO, 0, 2, 1500), Admission::Accepted);
    assert_eq!(c.enqueue(Time::ZERO, 0, 3, 1500), Admission::Dropped);
    assert_eq!(c.counters().dropped_packets, 1);
    assert_eq!(c.ue_probe(0).rlc_drops, 1);
    // No channel, no deadline: the buffer waits.
    assert_eq!(c.next_deadline(), None);
    c.set_channel(0, 10.0);
    assert_eq!(c.next_deadline(), Some(Time::ZERO));
    let mut out = Vec::new();
    c.poll(Time::from_millis(5), &mut out);
    assert_eq!(out.len(), 2);
}

#[test]
fn data_waiting_through_an_outage_is_sent_from_the_channel_update_on() {
    let mut c = Cell::new(0, no_harq(), 1, 1);
    c.attach(0, Time::ZERO, Time::ZERO);
    c.set_channel_at(Time::ZERO, 0, -20.0);
    for p in 0..100 {
        c.enqueue(Time::from_millis(1), 0, p, 1500);
    }
    assert_eq!(c.next_deadline(), None);
    // The channel comes back at 2 s: no slot before it, deliveries after it.
    c.set_channel_at(Time::from_secs(2), 0, 30.0);
    assert_eq!(c.next_deadline(), Some(Time::from_secs(2)));
    let mut out = Vec::new();
    c.poll(Time::from_secs(3), &mut out);
    assert_eq!(out.len(), 100);
    assert!(out.iter().all(|d| d.at > Time::from_secs(2)));
    // A usable channel that changes does not delay data already schedulable.
    c.enqueue(Time::from_millis(3001), 0, 7, 1500);
    c.set_channel_at(Time::from_millis(3100), 0, 20.0);
    assert_eq!(c.next_deadline(), Some(Time::from_millis(3001)));
}

#[test]
fn harq_adds_delay_not_loss_and_counts_retransmissions() {
    let mut cfg = CellConfig::mmwave();
    cfg.harq.bler = 0.3;
    cfg.harq.retx_bler = 0.3;
    let mut c = Cell::new(0, cfg, 1, 7);
    c.attach(0, Time::ZERO, Time::ZERO);
    c.set_channel(0, 5.0); // low SE: packets span several TBs
    let mut out = Vec::new();
    let mut t = Time::ZERO;
    for p in 0..2000u32 {
        c.enqueue(t, 0, p, 1500);
        t += Time::from_micros(50);
        c.poll(t, &mut out);
    }
    c.poll(Time::from_secs(5), &mut out);
    assert_eq!(out.len(), 2000);
    let lost = out
        .iter()
        .filter(|d| d.outcome != Outcome::Delivered)
        .count();
    assert_eq!(lost, 0, "RLC AM hides HARQ failures");
    let k = c.counters();
    assert!(k.tb_retransmissions > k.tbs / 4, "{k:?}");
    assert!(k.retx_packets > 0);
    assert!(
        out.windows(2).all(|w| w[0].at <= w[1].at),
        "in-sequence delivery"
    );
    // Some packets waited for HARQ round trips (1 ms each) beyond the 1.1 ms minimum.
    let min_lat = Time::from_micros(1100);
    assert!(out.iter().any(|d| d.at > min_lat + Time::from_millis(20)));
}

#[test]
fn um_reports_losses() {
    let mut cfg = CellConfig::mmwave();
    cfg.harq.bler = 1.0;
    cfg.harq.retx_bler = 1.0;
    cfg.rlc.mode = crate::rlc::RlcMode::Um;
    let mut c = Cell::new(0, cfg, 1, 1);
    c.attach(0, Time::ZERO, Time::ZERO);
    c.set_channel(0, 30.0);
    c.enqueue(Time::ZERO, 0, 5, 1500);
    let mut out = Vec::new();
    c.poll(Time::from_millis(1), &mut out);
    assert_eq!(out[0].outcome, Outcome::Lost(LossReason::Radio));
    assert_eq!(c.counters().lost_packets, 1);
    assert_eq!(c.counters().tb_retransmissions, 3);
}

#[test]
fn two_ues_share_round_robin() {
    let mut c = Cell::new(0, no_harq(), 2, 1);
    for ue in 0..2 {
        c.attach(ue, Time::ZERO, Time::ZERO);
        c.set_channel(ue, 40.0);
        for p in 0..10_000u32 {
            c.enqueue(Time::ZERO, ue, ue as u32 * 100_000 + p, 1500);
        }
    }
    let mut out = Vec::new();
    c.poll(Time::from_millis(50), &mut out);
    let a = c.ue_probe(0).delivered_bytes as f64;
    let b = c.ue_probe(1).delivered_bytes as f64;
    assert!((a / b - 1.0).abs() < 0.01, "{a} {b}");
}

#[test]
fn detach_and_attach_carry_the_buffer() {
    let mut src = Cell::new(0, no_harq(), 1, 1);
    let mut dst = Cell::new(1, no_harq(), 1, 1);
    src.attach(0, Time::ZERO, Time::ZERO);
    src.set_channel(0, -30.0);
    for p in 0..3 {
        src.enqueue(Time::ZERO, 0, p, 1000);
    }
    let mut moved = Vec::new();
    let last = src.detach(0, |p, b| moved.push((p, b)), |p| panic!("{p} lost"));
    assert_eq!(moved, vec![(0, 1000), (1, 1000), (2, 1000)]);
    assert!(!src.is_attached(0));
    let avail = Time::from_millis(5);
    dst.attach(0, avail, last);
    dst.set_channel(0, 30.0);
    for (p, b) in moved {
        dst.enqueue(Time::from_millis(1), 0, p, b);
    }
    assert_eq!(dst.next_deadline(), Some(avail));
    let mut out = Vec::new();
    dst.poll(Time::from_millis(10), &mut out);
    assert_eq!(out.len(), 3);
    assert!(out.iter().all(|d| d.at >= avail));
}

fn la_cell(fading: bool, seed: u64) -> Cell {
    let mut cfg = CellConfig::mmwave();
    cfg.link_adaptation = Some(LinkAdaptationConfig::default());
    cfg.fading.enabled = fading;
    let mut c = Cell::new(0, cfg, 1, seed);
    c.attach(0, Time::ZERO, Time::ZERO);
    c
}

/// Runs a backlogged UE for `ms` and returns (delivered bytes, TB retransmissions, TBs).
fn backlogged(c: &mut Cell, ms: u64) -> (u64, u64, u64) {
    let mut out = Vec::new();
    for p in 0..((ms * 120_000 / 1500) as u32) {
        c.enqueue(Time::ZERO, 0, p, 1500);
    }
    c.poll(Time::from_millis(ms), &mut out);
    let k = c.counters();
    (c.ue_probe(0).delivered_bytes, k.tb_retransmissions, k.tbs)
}

#[test]
fn link_adaptation_without_fading_sends_the_mcs_tb_sizes() {
    // 45 dB (seed 002's reference LOS SINR): MCS 28 in every slot, no HARQ failure.
    let mut c = la_cell(false, 1);
    c.set_channel(0, 45.0);
    let (bytes, retx, tbs) = backlogged(&mut c, 60);
    let per_slot = FrameConfig::bytes_for_units(c.config().frame.units_per_slot(), 5.52);
    assert_eq!(bytes, per_slot * tbs);
    assert_eq!(retx, 0);
    // 14 dB: the MCS whose threshold 14 dB meets, fewer bytes.
    let mut c = la_cell(false, 1);
    c.set_channel(0, 14.0);
    let la = LinkAdaptationConfig::default();
    let m = la.select_mcs(14.0).unwrap();
    assert!(m < 28);
    let (bytes14, _, tbs14) = backlogged(&mut c, 100);
    let expect = FrameConfig::bytes_for_units(
        c.config().frame.units_per_slot(),
        crate::link_adaptation::mcs_efficiency(m),
    );
    assert_eq!(bytes14, expect * tbs14);
}

#[test]
fn fading_with_a_lagging_cqi_costs_retransmissions_and_rate() {
    // Rayleigh at 187 Hz around 20 dB: the CQI of 2.5 ms ago often overestimates the channel.
    let run = |seed| {
        let mut c = la_cell(true, seed);
        c.set_channel(0, 20.0);
        c.set_link_state(Time::ZERO, 0, false, 2.0, 28e9);
        backlogged(&mut c, 2000)
    };
    let (bytes, retx, tbs) = run(3);
    let share = retx as f64 / tbs as f64;
    assert!(share > 0.05, "retransmissions per TB {share}");
    // The same seed gives the same run; another seed another one.
    assert_eq!(run(3), (bytes, retx, tbs));
    assert_ne!(run(4), (bytes, retx, tbs));
    // A static UE (no Doppler): the channel never moves after the report, so the CQI is exact.
    let mut c = la_cell(true, 3);
    c.set_channel(0, 20.0);
    c.set_link_state(Time::ZERO, 0, false, 0.0, 28e9);
    let (_, retx0, tbs0) = backlogged(&mut c, 2000);
    assert!((retx0 as f64 / tbs0 as f64) < 0.5 * share, "{retx0}/{tbs0}");
}

/// `link_adaptation.nlos_rb_loss_db` (the tree's per-RB spread behind the building): the MCS
/// of an NLOS link is chosen, and its TBs decoded, at the mean SINR less the loss; a LOS link
/// and the default (0) are unchanged; the SINR the cell reports stays the mean.
#[test]
fn the_nlos_rb_loss_lowers_the_mcs_behind_an_obstacle_only() {
    use crate::link_adaptation::McsThresholds;
    let cell = |loss: f64, los: bool| {
        let mut cfg = CellConfig::mmwave();
        cfg.link_adaptation = Some(LinkAdaptationConfig {
            mcs_thresholds: McsThresholds::TreeMi,
            nlos_rb_loss_db: loss,
            ..LinkAdaptationConfig::default()
        });
        let mut c = Cell::new(0, cfg, 1, 1);
        c.attach(0, Time::ZERO, Time::ZERO);
        c.set_channel(0, 19.86);
        c.set_link_state(Time::ZERO, 0, los, 2.0, 28e9);
        c
    };
    // Seed 6's LOS phase in the tree: 19.86 dB, MCS 28, flat RBs.
    assert_eq!(cell(1.9, true).mcs_at(0, Time::ZERO), Some(28));
    assert_eq!(cell(0.0, false).mcs_at(0, Time::ZERO), Some(28));
    // Behind the building 1.9 dB lower: 17.96 dB meets MCS 26 (17.88), not 27 (18.91).
    let mut nlos = cell(1.9, false);
    assert_eq!(nlos.mcs_at(0, Time::ZERO), Some(26));
    assert_eq!(nlos.sinr_at(0, Time::ZERO), 19.86);
    assert!((nlos.la_sinr_at(0, Time::ZERO) - 17.96).abs() < 1e-12);
    // Its TBs are MCS 26's size and decode at 17.96 dB too: 0.08 dB above MCS 26's threshold,
    // BLER 7.9 % (at the mean 19.86 dB it would be 0.1 %).
    let (bytes, retx, tbs) = backlogged(&mut nlos, 200);
    let per_slot = FrameConfig::bytes_for_units(
        nlos.config().frame.units_per_slot(),
        crate::link_adaptation::mcs_efficiency(26),
    );
    assert_eq!(bytes, per_slot * tbs);
    let share = retx as f64 / tbs as f64;
    assert!(
        (0.04..0.13).contains(&share),
        "retransmissions per TB {share}"
    );
}

/// The bytes a backlogged UE gets in each of slots `0..n`, with its uplink on the air in
/// `uplink_slots` (noted during the slot before, as the RAN does for an ACK).
fn tb_bytes_per_slot(cfg: CellConfig, uplink_slots: &[u64], n: u64) -> Vec<u64> {
    let slot = cfg.frame.slot_ns;
    let mut c = Cell::new(0, cfg, 1, 1);
    c.attach(0, Time::ZERO, Time::ZERO);
    c.set_channel(0, 40.0);
    for p in 0..10_000u32 {
        c.enqueue(Time::ZERO, 0, p, 1500);
    }
    let mut out = Vec::new();
    let mut sent = Vec::new();
    for k in 0..n {
        if uplink_slots.contains(&(k + 1)) {
            c.note_uplink(0, Time((k + 1) * slot + slot / 2));
        }
        let before = c.ue_probe(0).delivered_bytes;
        c.poll(Time(k * slot), &mut out);
        sent.push(c.ue_probe(0).delivered_bytes - before);
    }
    sent
}

#[test]
fn uplink_data_takes_a_symbol_of_its_slot() {
    // The seed 002 authors' tree: 14 symbols, 1 DL + 1 UL control symbol, 12 data symbols;
    // a slot with the UE's uplink data leaves 11 to its downlink TB.
    let mut cfg = no_harq();
    cfg.frame = FrameConfig {
        slot_ns: 250_000,
        symbols_per_slot: 14,
        control_symbols: 2,
        subcarriers: 3058,
        overhead: 0.0,
        bandwidth_hz: 200e6,
        uplink_data_symbols: 1,
    };
    let se = 7.4063; // 40 dB: CQI 15 of table 2
    let full = FrameConfig::bytes_for_units(3058 * 12, se);
    let short = FrameConfig::bytes_for_units(3058 * 11, se);
    let got = tb_bytes_per_slot(cfg.clone(), &[2, 3, 5], 7);
    assert_eq!(got, vec![full, full, short, short, full, short, full]);
    // The tree's TB sizes for 11 and 12 symbols (seed 002 seed 4 traces, MCS 26 and 28)
    // stand in the same ratio within its per-code-block CRC bytes.
    for (tb12, tb11) in [(23_303.0, 21_363.0), (25_224.0, 23_120.0)] {
        assert!(((tb11 / tb12) / (short as f64 / full as f64) - 1.0f64).abs() < 1e-3);
    }
    // Off: the uplink takes nothing.
    cfg.frame.uplink_data_symbols = 0;
    let got = tb_bytes_per_slot(cfg, &[2, 3, 5], 7);
    assert!(got.iter().all(|&b| b == full), "{got:?}");
}

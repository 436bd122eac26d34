//! The RAN driven by a miniature event loop, the way the world will drive it.

use ccsim_core::Time;
use ccsim_radio::cell::{Delivery, LossReason, Outcome};
use ccsim_radio::handover::TttMode;
use ccsim_radio::ran::{Connectivity, InterferenceMode, RadioConfig, RadioNetwork, Technology};
use ccsim_radio::scenarios::*;
use ccsim_radio::Admission;

/// Runs the RAN until `end`. With `backlog_bytes > 0`, before each deadline the UE's RLC buffer
/// is topped up to that level with 1500-byte packets (a full-buffer source). `sample` is called
/// at each deadline.
fn drive(
    ran: &mut RadioNetwork,
    end: Time,
    backlog_bytes: u64,
    mut sample: impl FnMut(Time, &RadioNetwork),
) -> Vec<Delivery> {
    let mut out = Vec::new();
    let mut next_packet = 0u32;
    loop {
        if backlog_bytes > 0 {
            // Top up at the current deadline time (packets "arrive" then).
            let now = ran.next_deadline().unwrap();
            while ran.ue_probe(0, now).cell.rlc_bytes < backlog_bytes {
                if ran.enqueue(now, 0, next_packet, 1500) == Admission::Dropped {
                    break;
                }
                next_packet += 1;
            }
        }
        let t = ran
            .next_deadline()
            .expect("a RAN always has a next deadline");
        if t > end {
            break;
        }
        let before = out.len();
        ran.on_deadline(t, &mut out);
        // Deliveries are never in the past.
        assert!(out[before..].iter().all(|d| d.at >= t));
        // Copies of the packets a handover forwards again, oldest first.
        for i in (before..out.len()).rev() {
            if out[i].outcome == Outcome::Resend {
                ran.resend(t, out[i].ue, next_packet, 1500);
                next_packet += 1;
            }
        }
        sample(t, ran);
    }
    out
}

fn mbps(out: &[Delivery], from: f64, to: f64) -> f64 {
    let bytes = out
        .iter()
        .filter(|d| d.outcome == Outcome::Delivered)
        .filter(|d| d.at.as_secs_f64() >= from && d.at.as_secs_f64() < to)
        .count() as f64
        * 1500.0;
    bytes * 8.0 / (to - from) / 1e6
}

#[test]
fn blockage_lowers_sinr_and_throughput() {
    let g = seed000_single_building();
    let cfg = g.radio_config(&[]);
    let mut ran = RadioNetwork::new(&cfg, 1).unwrap();
    let mut sinr = Vec::new();
    let out = drive(&mut ran, Time::from_secs(18), 4_000_000, |t, r| {
        sinr.push((t, r.ue_probe(0, t).sinr_db, r.ue_probe(0, t).los))
    });
    let at = |s: f64| sinr.iter().rev().find(|x| x.0.as_secs_f64() <= s).unwrap();
    let (los_s, nlos_s) = (at(1.0), at(8.0));
    println!("SINR LOS {:.1} dB, NLOS {:.1} dB", los_s.1, nlos_s.1);
    assert!(los_s.2 && !nlos_s.2);
    assert!(los_s.1 - nlos_s.1 > 15.0);
    let (tl, tn) = (mbps(&out, 0.5, 2.0), mbps(&out, 6.0, 12.0));
    println!("throughput LOS {tl:.0} Mb/s, NLOS {tn:.0} Mb/s");
    // LOS: CQI 15 of table 2 = 1.077 Gb/s minus HARQ retransmissions (≈ 10 %).
    assert!(tl > 900.0 && tl < 1077.0, "{tl}");
    assert!(tn < 0.6 * tl, "{tn}");
    // RLC AM: nothing lost, all in order.
    assert!(out.iter().all(|d| d.outcome == Outcome::Delivered));
    assert!(out
        .windows(2)
        .all(|w| w[0].packet < w[1].packet && w[0].at <= w[1].at));
}

#[test]
fn same_seed_same_result_other_seed_differs() {
    let g = seed002_building();
    let cfg = g.radio_config(&[]);
    let run = |seed| {
        let mut ran = RadioNetwork::new(&cfg, seed).unwrap();
        drive(&mut ran, Time::from_millis(300), 1_000_000, |_, _| {})
    };
    let (a, b, c) = (run(5), run(5), run(6));
    assert_eq!(a, b);
    assert_ne!(a, c);
}

fn street(mode: TttMode, forwarding: bool) -> RadioConfig {
    let g = seed000_handover_street();
    let mut cfg = g.radio_config(&[]);
    cfg.handover.mode = mode;
    cfg.handover.x2_forwarding = forwarding;
    cfg
}

#[test]
fn street_handovers_follow_the_truck_shadow() {
    let g = seed000_handover_street();
    let mut serving = Vec::new();
    let mut ran = RadioNetwork::new(&street(TttMode::DynamicTtt, true), 1).unwrap();
    drive(&mut ran, g.duration, 0, |t, r| {
        serving.push((t, r.serving_site(0)))
    });
    let at = |s: f64| {
        serving
            .iter()
            .rev()
            .find(|x| x.0.as_secs_f64() <= s)
            .unwrap()
            .1
    };
    let log = ran.handover_log();
    for h in log {
        println!(
            "{:.3} s: AP{} -> AP{}",
            h.at.as_secs_f64(),
            h.from + 1,
            h.to + 1
        );
    }
    assert_eq!(at(1.0), 0, "starts on AP1 (AP3 is behind the truck)");
    assert_eq!(at(45.0), 2, "ends on AP3 once AP2 is hidden by the truck");
    assert!(log.iter().any(|h| h.to == 1), "passes through AP2");
    // Every handover leaves the UE on a different AP and is logged in time order.
    assert!(log
        .windows(2)
        .all(|w| w[0].at <= w[1].at && w[0].to == w[1].from));
}

#[test]
fn ttt_longer_than_a_blockage_suppresses_ping_pong() {
    // Lamppost shadows last 0.35–0.9 s. Seed 000's 200 µs TTT hands over at each of them; a
    // TTT longer than the shadow rides them out. A 10 ms channel update resolves them finely.
    let g = seed000_handover_street();
    let count = |ttt_us| {
        let mut cfg = street(TttMode::FixedTtt, true);
        cfg.handover.fixed_ttt_us = ttt_us;
        cfg.channel.update_period_us = 10_000;
        let mut ran = RadioNetwork::new(&cfg, 1).unwrap();
        drive(&mut ran, g.duration, 0, |_, _| {});
        let log = ran.handover_log();
        let ping_pong = log
            .windows(2)
            .filter(|w| w[1].to == w[0].from && w[1].at - w[0].at < Time::from_secs(1))
            .count();
        (log.len(), ping_pong, log.last().map(|h| h.to))
    };
    let (short, long) = (count(200), count(1_000_000));
    println!("200 µs TTT: {short:?}; 1 s TTT: {long:?} (handovers, ping-pongs, last AP)");
    assert!(short.1 >= 2, "short blockages cause ping-pong");
    assert_eq!(long.1, 0);
    assert!(long.0 < short.0);
    assert_eq!((short.2, long.2), (Some(2), Some(2)), "both end on AP3");
}

#[test]
fn x2_forwarding_keeps_data_flush_loses_it() {
    let g = seed000_handover_street();
    let end = g.duration;
    let mut fwd = RadioNetwork::new(&street(TttMode::DynamicTtt, true), 1).unwrap();
    let out_fwd = drive(&mut fwd, end, 2_000_000, |_, _| {});
    let mut flush = RadioNetwork::new(&street(TttMode::DynamicTtt, false), 1).unwrap();
    let out_flush = drive(&mut flush, end, 2_000_000, |_, _| {});
    let lost = |o: &[Delivery], r| o.iter().filter(|d| d.outcome == Outcome::Lost(r)).count();
    assert!(fwd.handover_log().iter().any(|h| h.forwarded > 0));
    assert_eq!(lost(&out_fwd, LossReason::HandoverFlush), 0);
    assert_eq!(lost(&out_fwd, LossReason::Radio), 0);
    let flushed: u32 = flush.handover_log().iter().map(|h| h.lost).sum();
    assert!(flushed > 0);
    assert_eq!(
        lost(&out_flush, LossReason::HandoverFlush),
        flushed as usize
    );
}

#[test]
fn forward_loss_bytes_loses_the_oldest_whole_sdus_and_forwards_the_rest() {
    // A 2 MB backlog of 1500-byte SDUs; 100 kB lost at each handover: 67 SDUs (the 67th
    // crosses the budget), the oldest, reported as handover-flush losses.
    let g = seed000_handover_street();
    let mut lossy_cfg = street(TttMode::DynamicTtt, true);
    lossy_cfg.handover.forward_loss_bytes = 100_000;
    let mut lossy = RadioNetwork::new(&lossy_cfg, 1).unwrap();
    let out = drive(&mut lossy, g.duration, 2_000_000, |_, _| {});
    let mut lossless = RadioNetwork::new(&street(TttMode::DynamicTtt, true), 1).unwrap();
    drive(&mut lossless, g.duration, 2_000_000, |_, _| {});
    let (l, f) = (lossy.handover_log(), lossless.handover_log());
    assert!(!l.is_empty() && f[0].lost == 0);
    // identical until the first handover, which then splits the same backlog
    assert_eq!(l[0].at, f[0].at);
    assert_eq!(l[0].forwarded + l[0].lost, f[0].forwarded);
    assert!(l.iter().all(|h| h.lost == 67), "{l:?}");
    let first_lost: Vec<u32> = out
        .iter()
        .filter(|d| d.at == l[0].at && d.outcome == Outcome::Lost(LossReason::HandoverFlush))
        .map(|d| d.packet)
        .collect();
    // the oldest: consecutive ids, each below every packet forwarded at that handover
    assert_eq!(first_lost.len(), 67);
    assert!(first_lost.windows(2).all(|w| w[1] == w[0] + 1));
    // after the handover the target delivers newer packets (and again the unacknowledged
    // older ones), never a lost one
    let (lo, hi) = (first_lost[0], *first_lost.last().unwrap());
    let after: Vec<u32> = out
        .iter()
        .filter(|d| d.at > l[0].at && d.outcome == Outcome::Delivered)
        .map(|d| d.packet)
        .collect();
    assert!(after.iter().any(|&p| p > hi));
    assert!(!after.iter().any(|&p| (lo..=hi).contains(&p)));
}

#[test]
fn dual_connectivity_falls_back_to_lte_in_outage() {
    let g = seed001_dual_connectivity(5.0);
    let mut cfg = g.radio_config(&[Technology::Lte, Technology::Mmwave, Technology::Mmwave]);
    cfg.connectivity = Connectivity::DualConnectivity;
    let mut ran = RadioNetwork::new(&cfg, 1).unwrap();
    let mut tech = Vec::new();
    let out = drive(&mut ran, g.duration, 1_000_000, |t, r| {
        tech.push((t, r.ue_probe(0, t).serving_technology))
    });
    let at = |s: f64| {
        tech.iter()
            .rev()
            .find(|x| x.0.as_secs_f64() <= s)
            .unwrap()
            .1
    };
    // x = 60 + 5t: both mmWave eNBs hidden for x ∈ [92.9, 107.1], i.e. t ∈ [6.6, 9.4] s.
    assert_eq!(at(2.0), Technology::Mmwave);
    assert_eq!(at(8.0), Technology::Lte);
    assert_eq!(at(12.0), Technology::Mmwave);
    let lte_rate = mbps(&out, 7.5, 9.0);
    let mm_rate = mbps(&out, 1.0, 5.0);
    println!("DC throughput: mmWave {mm_rate:.0} Mb/s, LTE fallback {lte_rate:.0} Mb/s");
    assert!(lte_rate > 5.0 && lte_rate < 100.0, "{lte_rate}");
    assert!(mm_rate > 5.0 * lte_rate);
    // Standalone: no LTE, the UE rides out the outage on mmWave.
    cfg.connectivity = Connectivity::Standalone;
    let mut sa = RadioNetwork::new(&cfg, 1).unwrap();
    let mut techs = Vec::new();
    drive(&mut sa, g.duration, 0, |t, r| {
        techs.push(r.ue_probe(0, t).serving_technology)
    });
    assert!(techs.iter().all(|&t| t == Technology::Mmwave));
}

/// The first delivery (s) at or after `t`.
fn first_after(out: &[Delivery], t: f64) -> f64 {
    out.iter()
        .filter(|d| d.outcome == Outcome::Delivered)
        .map(|d| d.at.as_secs_f64())
        .filter(|&x| x >= t)
        .fold(f64::INFINITY, f64::min)
}

#[test]
fn single_connectivity_hands_over_to_lte_with_a_longer_stall_than_a_dc_switch() {
    let g = seed001_dual_connectivity(5.0);
    let mut cfg = g.radio_config(&[Technology::Lte, Technology::Mmwave, Technology::Mmwave]);
    let mut run = |c: Connectivity| {
        cfg.connectivity = c;
        let mut ran = RadioNetwork::new(&cfg, 1).unwrap();
        let out = drive(&mut ran, g.duration, 1_000_000, |_, _| {});
        let to_lte = ran
            .handover_log()
            .iter()
            .find(|h| h.to == 0)
            .copied()
            .expect("a handover to LTE");
        let t = to_lte.at.as_secs_f64();
        (to_lte, first_after(&out, t + 0.001) - t, out)
    };
    let (sc, sc_gap, sc_out) = run(Connectivity::SingleConnectivity);
    let (dc, dc_gap, _) = run(Connectivity::DualConnectivity);
    // Both leave mmWave at the same outage instant (t ≈ 6.6 s) and forward the buffer.
    assert_eq!(sc.at, dc.at);
    assert!(sc.forwarded > 0 && sc.lost == 0);
    // The mmWave TBs in flight land within 1 ms; the first LTE delivery comes after the
    // stall plus LTE's pipeline (slot + 2 slots of scheduling latency + 1 ms decoding = 4 ms).
    // DC: a 1 ms switch; SC: 3 X2 messages (1 ms each) + one RRC message (0.5 ms) + RACH
    // (5 ms) = 8.5 ms.
    println!("first LTE delivery after the switch: SC {sc_gap:.4} s, DC {dc_gap:.4} s");
    assert!(sc_gap >= 0.0085 + 0.004, "{sc_gap}");
    assert!(dc_gap > 0.0049 && dc_gap < 0.0065, "{dc_gap}");
    // SC returns to mmWave too, and no packet is lost.
    assert!(sc_out
        .iter()
        .all(|d| !matches!(d.outcome, Outcome::Lost(_))));
}

#[test]
fn rlc_am_forwards_the_unacknowledged_sdus_again_as_ns3_mmwave_does() {
    let g = seed001_dual_connectivity(5.0);
    let mut cfg = g.radio_config(&[Technology::Lte, Technology::Mmwave, Technology::Mmwave]);
    cfg.connectivity = Connectivity::SingleConnectivity;
    let resent = |cfg: &RadioConfig| {
        let mut ran = RadioNetwork::new(cfg, 1).unwrap();
        let out = drive(&mut ran, g.duration, 1_000_000, |_, _| {});
        let reports = out.iter().filter(|d| d.outcome == Outcome::Resend).count();
        let log: Vec<u32> = ran.handover_log().iter().map(|h| h.resent).collect();
        assert_eq!(reports, log.iter().sum::<u32>() as usize);
        log
    };
    let am = resent(&cfg);
    // mmWave -> LTE: the mmWave cell (~1 Gb/s, 1500 B packets, ~83 per ms) has about
    // t-StatusProhibit (1 ms) + uplink (2 slots + 0.2 ms decoding = 0.7 ms) of sent,
    // unacknowledged data: ~140 packets. The 1 ms-TTI LTE cell back to mmWave: fewer packets
    // but 1 ms + 2 ms + 1 ms of them.
    println!("resent per handover: {am:?}");
    assert!(am[0] > 80 && am[0] < 250, "{am:?}");
    assert!(am[1] > 0, "{am:?}");
    // A 10 ms t-StatusProhibit (mc-twoenbs.cc) keeps about 10 ms of data unacknowledged.
    cfg.mmwave.cell.rlc.status_prohibit_us = 10_000;
    let long = resent(&cfg);
    assert!(long[0] > 5 * am[0], "{long:?} vs {am:?}");
    // Off, or RLC UM: nothing is resent.
    cfg.mmwave.cell.rlc.forward_unacked = false;
    assert!(resent(&cfg)[0] == 0);
    cfg.mmwave.cell.rlc.forward_unacked = true;
    cfg.mmwave.cell.rlc.mode = ccsim_radio::rlc::RlcMode::Um;
    assert!(resent(&cfg)[0] == 0);
}

#[test]
fn rlc_um_loses_the_partly_sent_packet_at_a_handover_am_does_not() {
    let g = seed001_dual_connectivity(5.0);
    let mut cfg = g.radio_config(&[Technology::Lte, Technology::Mmwave, Technology::Mmwave]);
    cfg.connectivity = Connectivity::SingleConnectivity;
    // No HARQ errors: every loss below comes from the handovers.
    cfg.mmwave.cell.harq.enabled = false;
    cfg.lte.cell.harq.enabled = false;
    let lost = |cfg: &RadioConfig| {
        let mut ran = RadioNetwork::new(cfg, 1).unwrap();
        let out = drive(&mut ran, g.duration, 1_000_000, |_, _| {});
        let n = out
            .iter()
            .filter(|d| d.outcome == Outcome::Lost(LossReason::HandoverFlush))
            .count();
        (n, ran.handover_log().len())
    };
    let (am_lost, am_hos) = lost(&cfg);
    cfg.mmwave.cell.rlc.mode = ccsim_radio::rlc::RlcMode::Um;
    cfg.lte.cell.rlc.mode = ccsim_radio::rlc::RlcMode::Um;
    let (um_lost, um_hos) = lost(&cfg);
    assert_eq!(am_lost, 0);
    assert!(am_hos >= 2 && um_hos == am_hos);
    // 1500-byte packets do not fit the TBs exactly, so a head is partly sent at most
    // handovers: at most one packet lost per handover.
    assert!(um_lost >= 1 && um_lost <= um_hos, "{um_lost} of {um_hos}");
}

#[test]
fn interference_lowers_sinr() {
    // UE halfway between AP1 and AP2 of the street, both transmitting all the time.
    let g = seed000_handover_street();
    let mut cfg = g.radio_config(&[]);
    cfg.obstacles.clear();
    let sinr_with = |mode| {
        let mut c = cfg.clone();
        c.channel.interference = mode;
        let mut ran = RadioNetwork::new(&c, 1).unwrap();
        let mut out = Vec::new();
        let t = Time::from_millis(100);
        ran.on_deadline(t, &mut out);
        ran.sinr_db(0, 0)
    };
    let (none, full) = (
        sinr_with(InterferenceMode::None),
        sinr_with(InterferenceMode::FullBuffer),
    );
    println!("SINR towards AP1: noise only {none:.1} dB, full-buffer interference {full:.1} dB");
    assert!(none - full > 3.0);
    // Load: the other sites are idle, so no interference.
    assert!((sinr_with(InterferenceMode::Load) - none).abs() < 1e-9);
}

/// Handover measurements can count interference differently from the data channel: idle
/// neighbours interfere with the measured SINR under `full_buffer` but not with the data SINR
/// under `load`; by default both follow `interference`.
#[test]
fn measurement_interference_is_separate_from_the_data_channel() {
    let g = seed000_handover_street();
    let mut cfg = g.radio_config(&[]);
    cfg.obstacles.clear();
    cfg.channel.interference = InterferenceMode::Load;
    let sinrs = |meas: Option<InterferenceMode>| {
        let mut c = cfg.clone();
        c.channel.measurement_interference = meas;
        let mut ran = RadioNetwork::new(&c, 1).unwrap();
        ran.on_deadline(Time::from_millis(100), &mut Vec::new());
        (ran.sinr_db(0, 0), ran.measured_sinr_db(0, 0))
    };
    let (data, meas) = sinrs(None);
    assert_eq!(data, meas, "default: measurements follow `interference`");
    let (data_fb, meas_fb) = sinrs(Some(InterferenceMode::FullBuffer));
    assert_eq!(data_fb, data, "the data channel is unchanged");
    assert!(
        data - meas_fb > 3.0,
        "idle neighbours interfere with the measurement"
    );
}

#[test]
fn uplink_waits_out_the_interruption() {
    let mut ran = RadioNetwork::new(&street(TttMode::Threshold, true), 1).unwrap();
    let mut out = Vec::new();
    let mut t = Time::ZERO;
    while ran.handover_log().is_empty() {
        t = ran.next_deadline().unwrap();
        ran.on_deadline(t, &mut out);
    }
    let h = ran.handover_log()[0];
    assert_eq!(h.at, t);
    // 5 ms interruption, then 1 + 1 slots (250 µs) and 100 µs decoding.
    assert_eq!(ran.uplink(t, 0), t + Time::from_micros(5_000 + 500 + 100));
    let later = t + Time::from_millis(10);
    assert_eq!(ran.uplink(later, 0), later + Time::from_micros(600));
}

#[test]
fn uplink_grants_release_acks_in_batches() {
    let mut c = street(TttMode::Threshold, true);
    c.uplink_grant_period_us = 1000;
    let mut ran = RadioNetwork::new(&c, 1).unwrap();
    // 1 + 1 slots (250 µs) and 100 µs decoding after the next 1 ms grant.
    let after_grant = Time::from_micros(500 + 100);
    for at_us in [10_001, 10_400, 10_999, 11_000] {
        let t = Time::from_micros(at_us);
        assert_eq!(ran.uplink(t, 0), Time::from_micros(11_000) + after_grant);
    }
    assert_eq!(
        ran.uplink(Time::from_micros(11_001), 0),
        Time::from_micros(12_000) + after_grant
    );
    // Off (the default): every ACK leaves on its own.
    let mut ran = RadioNetwork::new(&street(TttMode::Threshold, true), 1).unwrap();
    let t = Time::from_micros(10_400);
    assert_eq!(ran.uplink(t, 0), t + after_grant);
}

#[test]
fn config_from_json_with_defaults_and_unknown_keys_rejected() {
    let json = r#"{
        "sites": [{"position": {"x": 0, "y": 0, "z": 10}}],
        "ues": [{"mobility": {"kind": "static", "position": {"x": 100, "y": 0, "z": 1.5}}}],
        "obstacles": [{"footprint": {"vertices": [{"x": 40, "y": -5}, {"x": 60, "y": -5}, {"x": 60, "y": 5}]}, "height": 20}],
        "handover": {"mode": "fixed_ttt", "fixed_ttt_us": 200}
    }"#;
    let cfg: RadioConfig = serde_json::from_str(json).unwrap();
    assert_eq!(cfg.mmwave.carrier_hz, 28e9);
    assert_eq!(cfg.handover.fixed_ttt_us, 200);
    assert_eq!(cfg.mmwave.cell.rlc.buffer_bytes, 20 * 1024 * 1024);
    let ran = RadioNetwork::new(&cfg, 1).unwrap();
    assert!(!ran.los(0, 0));
    let bad = json.replace("\"height\": 20", "\"height\": 20, \"colour\": \"red\"");
    assert!(serde_json::from_str::<RadioConfig>(&bad).is_err());
    let round = serde_json::to_string(&cfg).unwrap();
    assert_eq!(serde_json::from_str::<RadioConfig>(&round).unwrap(), cfg);
}

#[test]
fn forward_limit_bytes_keeps_the_newest_part_of_a_large_backlog_only() {
    // A 1.2 MB limit on what a handover moves (untransmitted + sent-unacknowledged SDUs):
    // the excess is lost, to within one SDU, from the oldest; a backlog under it is lossless.
    let g = seed000_handover_street();
    let mut cfg = street(TttMode::DynamicTtt, true);
    cfg.handover.forward_limit_bytes = 1_200_000;
    let check = |h: &ccsim_radio::ran::HandoverRecord| {
        let total = (h.forwarded + h.lost + h.resent) as u64 * 1500;
        let excess = total.saturating_sub(1_200_000);
        assert!(h.lost as u64 * 1500 >= excess, "{h:?}");
        assert!(h.lost as u64 * 1500 < excess + 1500, "{h:?}");
    };
    let mut lossy_at = Vec::new();
    for backlog in [2_000_000, 1_000_000, 500_000] {
        let mut ran = RadioNetwork::new(&cfg, 1).unwrap();
        drive(&mut ran, g.duration, backlog, |_, _| {});
        let h = ran.handover_log();
        assert!(!h.is_empty());
        h.iter().for_each(check);
        lossy_at.push(h[0].lost);
    }
    // 2 MB: ~0.8 MB + the unacknowledged lost; 1 MB: only what the unacknowledged SDUs add;
    // 0.5 MB: nothing.
    assert!(
        lossy_at[0] > 500 && lossy_at[1] > 0 && lossy_at[1] < 200,
        "{lossy_at:?}"
    );
    assert_eq!(lossy_at[2], 0);
    // Without the limit the same first handover forwards everything.
    let mut free = RadioNetwork::new(&street(TttMode::DynamicTtt, true), 1).unwrap();
    drive(&mut free, g.duration, 2_000_000, |_, _| {});
    assert_eq!(free.handover_log()[0].lost, 0);
}

#[test]
fn forward_loses_first_sdu_drops_only_the_oldest_untransmitted_sdu() {
    // ns3-mmwave's RlcPdusToRlcSdus drops the SDU that began in an acknowledged PDU: with the
    // rule, each backlog-moving handover loses exactly one SDU, the oldest the UE lacks (the
    // head of the source's untransmitted buffer); everything else is forwarded as without it.
    let g = seed000_handover_street();
    let mut cfg = street(TttMode::DynamicTtt, true);
    cfg.handover.forward_loses_first_sdu = true;
    let mut ran = RadioNetwork::new(&cfg, 1).unwrap();
    let out = drive(&mut ran, g.duration, 2_000_000, |_, _| {});
    let mut free = RadioNetwork::new(&street(TttMode::DynamicTtt, true), 1).unwrap();
    drive(&mut free, g.duration, 2_000_000, |_, _| {});
    let (h, f) = (ran.handover_log(), free.handover_log());
    assert!(!h.is_empty() && f[0].lost == 0);
    assert_eq!(h[0].at, f[0].at);
    assert!(
        h[0].resent > 0,
        "the source had unacknowledged SDUs: {:?}",
        h[0]
    );
    assert_eq!(
        (h[0].lost, h[0].forwarded + 1),
        (1, f[0].forwarded),
        "{:?}",
        h[0]
    );
    let lost: Vec<u32> = out
        .iter()
        .filter(|d| d.at == h[0].at && d.outcome == Outcome::Lost(LossReason::HandoverFlush))
        .map(|d| d.packet)
        .collect();
    // the oldest SDU the UE lacks: below every SDU delivered after the handover but the
    // unacknowledged ones sent again (their copies have new ids above it)
    let delivered_before: Vec<u32> = out
        .iter()
        .filter(|d| d.at <= h[0].at && d.outcome == Outcome::Delivered)
        .map(|d| d.packet)
        .collect();
    assert_eq!(lost.len(), 1);
    assert!(delivered_before.iter().all(|&p| p < lost[0]));
    assert!(!out
        .iter()
        .any(|d| d.packet == lost[0] && d.outcome == Outcome::Delivered));
}

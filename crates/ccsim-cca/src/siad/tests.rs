//! SIAD event scripts: the Linux rules and the ns-3 port's departures.

use super::*;
use crate::Tunables;
use serde_json::Value;

const MSS: u32 = 1000;

/// A fresh connection: 10-segment initial window, ssthresh unset (ns-3's u32::MAX).
fn linux() -> (Siad, TcpState) {
    let mut tcb = TcpState::new(MSS, 10, u32::MAX);
    let mut siad = Siad::default();
    siad.init(&mut tcb);
    (siad, tcb)
}

/// One ACK of `segs` segments with an RTT sample of `rtt_ms` (Linux mode reads
/// `tcb.last_rtt`; the ns-3 port reads `PktsAcked`'s argument, given the same value here).
fn ack(siad: &mut Siad, tcb: &mut TcpState, segs: u32, rtt_ms: u64) {
    let rtt = Time::from_millis(rtt_ms);
    tcb.last_acked_seq += (segs * MSS) as u64;
    tcb.last_rtt = Some(rtt);
    siad.pkts_acked(tcb, segs, rtt);
    siad.increase_window(tcb, segs);
}

/// Slow start from 10 to 42 segments at 50 ms, then two 100 ms samples; the loss.
fn after_first_loss(config: SiadConfig) -> (Siad, TcpState, u32) {
    let mut tcb = TcpState::new(MSS, 10, u32::MAX);
    let mut siad = Siad::new(config);
    siad.init(&mut tcb);
    for _ in 0..30 {
        ack(&mut siad, &mut tcb, 1, 50);
    }
    ack(&mut siad, &mut tcb, 1, 100);
    ack(&mut siad, &mut tcb, 1, 100);
    let ssthresh = siad.ssthresh(&tcb, tcb.cwnd);
    (siad, tcb, ssthresh)
}

#[test]
fn init_sets_alpha_to_the_window_and_incthresh_to_cwnd() {
    let (siad, _) = linux();
    assert_eq!(siad.increase, 10 * 20);
    assert_eq!(siad.alpha(), 10);
    assert_eq!((siad.incthresh, siad.prev_max_cwnd), (10, 10));
    assert!(siad.min_delay_seen);
    assert_eq!(siad.min_delay_ms(), None);
}

#[test]
fn slow_start_grows_one_segment_per_acked_segment_with_alpha_equal_to_cwnd() {
    let (mut siad, mut tcb) = linux();
    for _ in 0..30 {
        ack(&mut siad, &mut tcb, 1, 50);
    }
    assert_eq!(tcb.cwnd, 40 * MSS);
    assert_eq!(siad.alpha(), 40);
    // Acked bytes are rounded up to segments (delayed-ACK compensation): 1.5 segments
    // count as 2.
    tcb.last_acked_seq += 1500;
    siad.increase_window(&mut tcb, 1);
    assert_eq!(tcb.cwnd, 42 * MSS);
    assert_eq!(siad.min_delay_ms(), Some(50));
}

#[test]
fn no_change_while_not_cwnd_limited() {
    let (mut siad, mut tcb) = linux();
    tcb.is_cwnd_limited = false;
    for _ in 0..5 {
        ack(&mut siad, &mut tcb, 1, 50);
    }
    assert_eq!(tcb.cwnd, 10 * MSS);
    // The delay is still sampled.
    assert_eq!(siad.min_delay_ms(), Some(50));
}

#[test]
fn loss_in_slow_start_halves_then_scales_by_the_delay_ratio_and_sets_the_target() {
    let (siad, tcb, ssthresh) = after_first_loss(SiadConfig::default());
    assert_eq!(tcb.cwnd, 42 * MSS);
    // Window one RTT ago: 42/2 = 21 (slow start). curr_delay = min(100, 100) = 100 ms,
    // min_delay 50 ms: 50·21/100 = 10, minus OFFSET = 9 segments.
    assert_eq!(ssthresh, 9 * MSS);
    // Trend: 21 − prev_max 10 = 11, incthresh = max(21 + 11, 9) = 32;
    // increase = max(Num_RTT, 32 − 9) = 23, i.e. α = 23/20 = 1 segment per RTT.
    assert_eq!(siad.incthresh(), 32);
    assert_eq!(siad.increase, 23);
    assert_eq!(siad.prev_max_cwnd, 21);
    assert_eq!(siad.num_rtt(), 20);
}

#[test]
fn a_single_delay_outlier_is_filtered() {
    let (mut siad, mut tcb) = linux();
    for _ in 0..5 {
        ack(&mut siad, &mut tcb, 1, 50);
    }
    // One 100 ms sample: curr_delay = min(100, 50) = 50, so the loss sees no queue.
    ack(&mut siad, &mut tcb, 1, 100);
    let cwnd = tcb.cwnd_segs();
    assert_eq!(siad.ssthresh(&tcb, tcb.cwnd), (cwnd / 2 - OFFSET) * MSS);
}

#[test]
fn num_ms_sets_num_rtt_from_the_average_delay() {
    let config = SiadConfig {
        num_ms: 5000,
        ..Default::default()
    };
    let (siad, _, _) = after_first_loss(config);
    // max(20, 2·5000/(100 + 50)) = 66 RTTs; increase = max(66, 32 − 9).
    assert_eq!(siad.num_rtt(), 66);
    assert_eq!(siad.increase, 66);
}

#[test]
fn additional_decrease_when_the_base_delay_is_not_seen_again() {
    let (mut siad, mut tcb, ssthresh) = after_first_loss(SiadConfig::default());
    // Recovery ends (classic: cwnd = ssthresh = 9), a new epoch starts.
    tcb.ssthresh = ssthresh;
    tcb.cwnd = ssthresh;
    siad.cwnd_event(&mut tcb, CaEvent::CompleteCwr);
    assert!(!siad.min_delay_seen);
    // Linear increase with α = 23/20: next = 9·20/23 = 7, then 8, 9, 10 ACKs per segment;
    // the delay stays above the 50 ms base (80 ms, then 90 ms).
    ack(&mut siad, &mut tcb, 1, 80);
    for _ in 1..34 {
        ack(&mut siad, &mut tcb, 1, 90);
    }
    assert_eq!(tcb.cwnd, 13 * MSS);
    assert_eq!(tcb.ssthresh, 9 * MSS);
    // cwnd 13 > ssthresh 9 + α 1 + 2: Additional Decrease.
    // cwnd = 50·9/90 = 5, −OFFSET = 4; increase = max(20, (32 − 4)·20/(20 − 1 − 1)) = 31,
    // α = 1; reduce = 4/19 = 0 < α, so cwnd −= α: 3 segments; ssthresh = cwnd − 1 = 2.
    ack(&mut siad, &mut tcb, 1, 90);
    assert_eq!(tcb.cwnd, 3 * MSS);
    assert_eq!(tcb.ssthresh, 2 * MSS);
    assert_eq!(siad.dec_cnt, 1);
    assert_eq!(siad.increase, 31);
    assert!(!siad.min_delay_seen, "more decreases allowed");
    // Seeing the base delay again stops them.
    ack(&mut siad, &mut tcb, 1, 50);
    assert!(siad.min_delay_seen);
}

#[test]
fn fast_increase_after_incthresh_doubles_alpha() {
    let (mut siad, mut tcb, ssthresh) = after_first_loss(SiadConfig::default());
    tcb.ssthresh = ssthresh;
    // The window is one segment below incthresh (32); α = 23/20.
    tcb.cwnd = 31 * MSS;
    siad.cwnd_event(&mut tcb, CaEvent::CompleteCwr);
    let acks = |n: u32, siad: &mut Siad, tcb: &mut TcpState| {
        for _ in 0..n {
            ack(siad, tcb, 1, 50);
        }
    };
    // next = 31·20/23 = 26 ACKs: cwnd reaches incthresh, α := 1 (Fast Increase starts).
    acks(26, &mut siad, &mut tcb);
    assert_eq!((tcb.cwnd_segs(), siad.alpha()), (32, 1));
    // Then α grows by each increase: next = 32, 16, 11 ACKs for α = 2, 3, 4.
    acks(32, &mut siad, &mut tcb);
    assert_eq!((tcb.cwnd_segs(), siad.alpha()), (33, 2));
    acks(16, &mut siad, &mut tcb);
    assert_eq!((tcb.cwnd_segs(), siad.alpha()), (34, 3));
    acks(11, &mut siad, &mut tcb);
    assert_eq!((tcb.cwnd_segs(), siad.alpha()), (35, 4));
}

#[test]
fn three_rising_minima_reset_the_base_delay_to_the_first() {
    let (mut siad, _) = linux();
    for m in [50, 60, 70] {
        siad.min_delay = m;
        siad.check_monotonic_min_delay();
        assert_eq!(siad.min_delay, m);
    }
    assert_eq!(siad.prev_min_delay, [50, 60, 70]);
    siad.min_delay = 80;
    siad.check_monotonic_min_delay();
    assert_eq!(siad.min_delay, 50);
    assert_eq!(siad.prev_min_delay, [50, 0, 0]);
    // A lower minimum clears the history.
    siad.min_delay = 40;
    siad.check_monotonic_min_delay();
    assert_eq!(siad.prev_min_delay, [0, 0, 0]);
}

#[test]
fn linux_mode_samples_the_raw_rtt_and_ignores_pkts_acked() {
    let (mut siad, mut tcb) = linux();
    siad.pkts_acked(&mut tcb, 1, Time::from_millis(30));
    assert_eq!(siad.min_delay_ms(), None);
    tcb.last_rtt = Some(Time::from_millis(44));
    tcb.srtt = Some(Time::from_millis(60));
    tcb.last_acked_seq += MSS as u64;
    siad.increase_window(&mut tcb, 1);
    assert_eq!(siad.min_delay_ms(), Some(44));
}

fn ns3() -> SiadConfig {
    SiadConfig {
        ns3_port_compat: true,
        ..Default::default()
    }
}

#[test]
fn ns3_port_forces_ssthresh_20_and_samples_the_pkts_acked_rtt() {
    let mut siad = Siad::new(ns3());
    let mut tcb = TcpState::new(MSS, 10, u32::MAX);
    siad.init(&mut tcb);
    // PktsAcked's argument (the smoothed RTT in ns-3.44) is the delay, not tcb.last_rtt.
    tcb.last_rtt = Some(Time::from_millis(10));
    siad.pkts_acked(&mut tcb, 1, Time::from_millis(4));
    assert_eq!(siad.min_delay_ms(), Some(4));
    siad.increase_window(&mut tcb, 1);
    assert_eq!(tcb.ssthresh, 20 * MSS);
    // α starts at the attribute value 10 = cwnd: one segment per ACKed segment.
    assert_eq!(tcb.cwnd, 11 * MSS);
    assert_eq!(siad.alpha(), 11);
    for _ in 0..9 {
        siad.pkts_acked(&mut tcb, 1, Time::from_millis(4));
        siad.increase_window(&mut tcb, 1);
    }
    // Reaching ssthresh without a larger incthresh: α := 1.
    assert_eq!((tcb.cwnd_segs(), siad.alpha()), (20, 1));
}

/// ns-3.33 (the seed 002 authors' tree) passes `m_lastRtt` to PktsAcked: with
/// `last_rtt_delay` the delay is the latest sample, not the argument.
#[test]
fn ns3_port_with_last_rtt_delay_samples_the_latest_rtt() {
    let mut siad = Siad::new(SiadConfig {
        last_rtt_delay: true,
        ..ns3()
    });
    let mut tcb = TcpState::new(MSS, 10, u32::MAX);
    siad.init(&mut tcb);
    tcb.last_rtt = Some(Time::from_millis(10));
    siad.pkts_acked(&mut tcb, 1, Time::from_millis(4));
    assert_eq!(siad.min_delay_ms(), Some(10));
    // Without a sample yet, the argument is used.
    let mut siad = Siad::new(SiadConfig {
        last_rtt_delay: true,
        ..ns3()
    });
    tcb.last_rtt = None;
    siad.pkts_acked(&mut tcb, 1, Time::from_millis(4));
    assert_eq!(siad.min_delay_ms(), Some(4));
}

#[test]
fn ns3_port_divides_by_the_delay_and_has_no_offset() {
    let mut siad = Siad::new(ns3());
    let mut tcb = TcpState::new(MSS, 10, u32::MAX);
    siad.init(&mut tcb);
    for _ in 0..10 {
        siad.pkts_acked(&mut tcb, 1, Time::from_millis(4));
        siad.increase_window(&mut tcb, 1);
    }
    assert_eq!(
        (tcb.cwnd_segs(), tcb.ssthresh_segs(), siad.alpha()),
        (20, 20, 1)
    );
    // Loss: α = 1 but incthresh 10 < ssthresh, so the last case: cwndMax = 20 − α = 19.
    // ssthresh = 4·19/4 = 19 with no OFFSET (Linux: 18); trend 19 − 10 = 9,
    // incthresh = max(28, 19) = 28; α = max(1, (28 − 19)/4 ms) = 2 (Linux: 9/20 → 1).
    assert_eq!(siad.ssthresh(&tcb, tcb.cwnd), 19 * MSS);
    assert_eq!(siad.incthresh(), 28);
    assert_eq!(siad.alpha(), 2);
    assert_eq!(siad.num_rtt(), 20);
}

#[test]
fn ns3_port_clamps_cwnd_at_666_segments_linux_does_not() {
    for (config, expected) in [(ns3(), 666), (SiadConfig::default(), 711)] {
        let mut siad = Siad::new(config);
        let mut tcb = TcpState::new(MSS, 10, u32::MAX);
        siad.init(&mut tcb);
        ack(&mut siad, &mut tcb, 1, 4);
        // Slow start (α = cwnd, one segment per ACK) up to ssthresh 1000.
        tcb.ssthresh = 1000 * MSS;
        for _ in 0..700 {
            ack(&mut siad, &mut tcb, 1, 4);
        }
        assert_eq!(tcb.cwnd_segs(), expected);
    }
}

#[test]
fn parameters_are_validated() {
    use serde_json::json;
    let bad = |v: Value| SiadConfig::from_params(v.as_object().unwrap()).is_err();
    assert!(bad(json!({"num_rtt": 1})));
    assert!(bad(json!({"config_num_rtt": 1})));
    assert!(!bad(
        json!({"config_num_rtt": 0, "num_ms": 200, "ns3_port_compat": true})
    ));
    let c = SiadConfig::from_params(json!({"snd_cwnd_clamp": 100}).as_object().unwrap());
    assert_eq!(c.unwrap().snd_cwnd_clamp, Some(100));
}

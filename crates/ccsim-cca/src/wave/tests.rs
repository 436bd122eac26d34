//! Wave on hand-built ACK trains: the start, tracking and adjustment modes, stabilisation,
//! partial bursts, the dispersion heuristics and the burst balance (`tcp_wave.c` v0.2).
use super::*;

pub(super) const MSS: u32 = 1000;

/// A connection right after the first burst of 10 segments went out.
pub(super) fn started() -> (Wave, TcpState) {
    let mut tcb = TcpState::new(MSS, 10, u32::MAX);
    let mut wave = Wave::default();
    wave.init(&mut tcb);
    wave.cwnd_event(&mut tcb, CaEvent::TxStart);
    tcb.bytes_in_flight = 10 * MSS;
    wave.on_burst_sent(&mut tcb, 10, 10);
    (wave, tcb)
}

/// One ACK at `now_us` for `segs` segments, with an RTT sample and a rate-sample interval.
pub(super) fn ack(
    wave: &mut Wave,
    tcb: &mut TcpState,
    now_us: u64,
    segs: u32,
    rtt_us: Option<u64>,
) {
    tcb.now = Time::from_micros(now_us);
    tcb.bytes_in_flight = tcb.bytes_in_flight.saturating_sub(segs * MSS);
    let rs = RateSample {
        acked_sacked: segs * MSS,
        rtt: rtt_us.map(Time::from_micros),
        interval: Time::from_millis(8),
        ..Default::default()
    };
    wave.cong_control(tcb, &RateConnection::default(), &rs);
}

/// The ACK train of one 10-segment burst: one ACK per segment from `start_us`, `spacing_us`
/// apart, all with RTT `rtt_us` (aligned).
pub(super) fn train(
    wave: &mut Wave,
    tcb: &mut TcpState,
    start_us: u64,
    spacing_us: u64,
    rtt_us: u64,
) {
    for k in 0..10 {
        ack(wave, tcb, start_us + k * spacing_us, 1, Some(rtt_us));
    }
}

/// A timer expiry and the burst it releases.
pub(super) fn burst(wave: &mut Wave, tcb: &mut TcpState) {
    wave.on_burst_timer(tcb);
    assert_eq!(tcb.cwnd, tcb.bytes_in_flight + 10 * MSS);
    tcb.bytes_in_flight += 10 * MSS;
    wave.on_burst_sent(tcb, 10, 10);
}

#[test]
fn init_opens_one_burst_and_stays_out_of_slow_start() {
    let mut tcb = TcpState::new(MSS, 4, u32::MAX);
    let mut wave = Wave::default();
    assert_eq!(wave.burst_interval(), Time::from_millis(200));
    assert_eq!(wave.send_quantum(), 10);
    let caps = crate::build("wave", &Default::default())
        .unwrap()
        .capabilities();
    assert!(caps.full_control && caps.burst_mode);
    wave.init(&mut tcb);
    assert_eq!((tcb.cwnd, tcb.ssthresh), (10 * MSS, 0));
    assert_eq!(wave.ssthresh(&tcb, 5 * MSS), 0);
    // Before the first transmission (TX_START) the timer does not open the window.
    wave.on_burst_timer(&mut tcb);
    assert_eq!(tcb.cwnd, 10 * MSS);
    wave.on_burst_sent(&mut tcb, 10, 10);
    assert_eq!(wave.burst_history().count(), 0);
}

#[test]
fn the_first_burst_is_recorded_and_acks_close_the_window() {
    let (mut wave, mut tcb) = started();
    assert_eq!(wave.burst_history().collect::<Vec<_>>(), vec![10]);
    assert_eq!(wave.delta_segments(), 0);
    ack(&mut wave, &mut tcb, 100_000, 1, Some(100_000));
    // cwnd = bytes in flight: nothing may leave before the next expiry.
    assert_eq!(tcb.cwnd, 9 * MSS);
    ack(&mut wave, &mut tcb, 101_000, 2, Some(100_000));
    assert_eq!(tcb.cwnd, 7 * MSS);
}

#[test]
fn tracking_mode_sets_txtime_from_the_ack_train_dispersion() {
    let (mut wave, mut tcb) = started();
    // Round 1: ACKs 1 ms apart, RTT rising 100.0 → 100.9 ms (all aligned).
    for k in 0..10 {
        ack(
            &mut wave,
            &mut tcb,
            100_000 + k * 1000,
            1,
            Some(100_000 + k * 100),
        );
    }
    // Dispersion (last − first)·n/(n − 1) = 9 ms · 10/9 in 2^20 fixed point:
    // 9e6 · ⌊10·2^20/9⌋ / 2^20 = 9 999 996 ns → 9999 µs; avg_rtt = min_rtt = 100 ms, so
    // delta_rtt = 0 and TxTime = 9999 µs.
    assert_eq!(wave.tx_timer(), Time::from_micros(9_999));
    assert_eq!(wave.burst_interval(), Time::from_micros(9_999));
    assert_eq!(wave.avg_rtt(), Some(Time::from_millis(100)));
    assert_eq!(wave.burst_history().count(), 0);
    assert_eq!(wave.rate_bps(MSS), 10 * 1000 * 8 * 1_000_000 / 9_999);
    // Round 2: first RTT 120 ms against min 100 ms: a = ⌊20000·2^20/120000⌋ = 174762,
    // avg = ⌊a·100000/2^20⌋ + ⌊(2^20 − a)·120000/2^20⌋ = 16666 + 100000 = 116666 µs,
    // delta_rtt = 16666 µs; ACKs 2 ms apart: dispersion 19999 µs;
    // TxTime = 19999 + 16666/2 = 28332 µs.
    burst(&mut wave, &mut tcb);
    train(&mut wave, &mut tcb, 300_000, 2_000, 120_000);
    assert_eq!(wave.avg_rtt(), Some(Time::from_micros(116_666)));
    assert_eq!(wave.tx_timer(), Time::from_micros(28_332));
}

#[test]
fn adjustment_mode_when_delta_rtt_exceeds_beta_then_stabilisation() {
    let (mut wave, mut tcb) = started();
    train(&mut wave, &mut tcb, 100_000, 1_000, 100_000);
    burst(&mut wave, &mut tcb);
    train(&mut wave, &mut tcb, 300_000, 2_000, 120_000);
    // Round 3: first RTT 500 ms: a = 0.8·2^20, avg = 0.8·116666 + 100000 = 193332 µs,
    // delta_rtt 93332 µs ≤ 150 ms: tracking, TxTime = 19999 + 46666 = 66665 µs.
    burst(&mut wave, &mut tcb);
    train(&mut wave, &mut tcb, 500_000, 2_000, 500_000);
    assert_eq!(wave.avg_rtt(), Some(Time::from_micros(193_332)));
    assert_eq!(wave.tx_timer(), Time::from_micros(66_665));
    // Round 4: avg = 0.8·193332 + 100000 = 254665 µs, delta_rtt 154665 µs > beta:
    // adjustment: stab_factor = 254665/66665 = 3, min_rtt reset, avg_rtt = max_rtt (500 ms),
    // TxTime = init_timer.
    burst(&mut wave, &mut tcb);
    train(&mut wave, &mut tcb, 700_000, 2_000, 500_000);
    assert_eq!(wave.tx_timer(), Time::from_millis(200));
    assert_eq!(wave.stab_factor(), 3);
    assert_eq!(wave.min_rtt(), None);
    assert_eq!(wave.avg_rtt(), Some(Time::from_millis(500)));
    // Three rounds of stabilisation: the queue has drained (RTT 100 ms, 1 ms dispersion),
    // but TxTime stays at init_timer.
    for (i, left) in [2, 1, 0].into_iter().enumerate() {
        burst(&mut wave, &mut tcb);
        train(
            &mut wave,
            &mut tcb,
            1_000_000 + 200_000 * i as u64,
            1_000,
            100_000,
        );
        assert_eq!(wave.stab_factor(), left);
        assert_eq!(wave.tx_timer(), Time::from_millis(200));
    }
    // Then tracking again: a = 0 (first = min = 100 ms), delta 0, dispersion 9999 µs.
    burst(&mut wave, &mut tcb);
    train(&mut wave, &mut tcb, 2_000_000, 1_000, 100_000);
    assert_eq!(wave.tx_timer(), Time::from_micros(9_999));
}

#[test]
fn rounds_of_min_burst_or_less_are_not_measured() {
    let mut tcb = TcpState::new(MSS, 10, u32::MAX);
    let mut wave = Wave::default();
    wave.init(&mut tcb);
    wave.cwnd_event(&mut tcb, CaEvent::TxStart);
    tcb.bytes_in_flight = 3 * MSS;
    wave.on_burst_sent(&mut tcb, 3, 3);
    for k in 0..3 {
        ack(&mut wave, &mut tcb, 100_000 + k * 1000, 1, Some(100_000));
    }
    assert_eq!(wave.burst_history().count(), 0, "the burst is consumed");
    assert_eq!(wave.tx_timer(), Time::from_millis(200), "but not measured");
    assert_eq!(wave.avg_rtt(), None);
}

#[test]
fn a_partial_burst_scales_the_dispersion_to_the_burst() {
    let mut tcb = TcpState::new(MSS, 10, u32::MAX);
    let mut wave = Wave::default();
    wave.init(&mut tcb);
    wave.cwnd_event(&mut tcb, CaEvent::TxStart);
    tcb.bytes_in_flight = 5 * MSS;
    wave.on_burst_sent(&mut tcb, 5, 5);
    // 5 ACKs 1 ms apart for a 5-segment round, burst 10, no previous dispersion:
    // (last − first)/round_burst·burst = 4 ms/5·10 = 8 ms.
    for k in 0..5 {
        ack(&mut wave, &mut tcb, 100_000 + k * 1000, 1, Some(100_000));
    }
    assert_eq!(wave.tx_timer(), Time::from_millis(8));
}

#[test]
fn a_lower_rtt_restarts_the_train() {
    let (mut wave, mut tcb) = started();
    // A straggler (RTT 150 ms), then the real train at 100 ms, 1 ms apart.
    ack(&mut wave, &mut tcb, 90_000, 1, Some(150_000));
    for k in 0..9 {
        ack(&mut wave, &mut tcb, 100_000 + k * 1000, 1, Some(100_000));
    }
    // The lower RTT restarted the train and the count: the straggler's segment is not part
    // of the round (pkts_acked = backup + this ACK), so 9 ACKs do not end it yet.
    assert_eq!(wave.burst_history().count(), 1);
    ack(&mut wave, &mut tcb, 109_000, 1, Some(100_000));
    assert_eq!(wave.burst_history().count(), 0);
    // Dispersion from the restart: 9 ms over 10 aligned ACKs → 9999 µs (with the
    // straggler it would have been 19 ms · 11/10).
    assert_eq!(wave.tx_timer(), Time::from_micros(9_999));
}

#[test]
fn without_an_ack_train_the_dispersion_comes_from_a_blind_search() {
    let (mut wave, mut tcb) = started();
    // Each round: two ACKs of 5 segments without RTT samples, both with an 8 ms rate
    // interval: fewer than two aligned ACKs and no previous dispersion, so the heuristic;
    // |interval − first ACK's interval| = 0, so the blind search interval >> k.
    for (round, expected_us) in [8_000, 4_000, 2_000].into_iter().enumerate() {
        if round > 0 {
            burst(&mut wave, &mut tcb);
        }
        let t = 100_000 + 200_000 * round as u64;
        ack(&mut wave, &mut tcb, t, 5, None);
        ack(&mut wave, &mut tcb, t + 1000, 5, None);
        assert_eq!(
            wave.tx_timer(),
            Time::from_micros(expected_us),
            "round {round}"
        );
    }
}

#[test]
fn over_sending_shrinks_the_next_burst_down_to_min_burst() {
    let (mut wave, mut tcb) = started();
    tcb.cwnd = 0;
    tcb.bytes_in_flight = 0;
    wave.on_burst_timer(&mut tcb);
    assert_eq!(tcb.cwnd, 10 * MSS);
    // 12 segments left in that round (e.g. retransmissions on top of the burst).
    tcb.bytes_in_flight = 12 * MSS;
    tcb.cwnd = 12 * MSS;
    wave.on_burst_sent(&mut tcb, 12, 12);
    assert_eq!(wave.delta_segments(), -2);
    // Next burst: 10 − 2 = 8.
    wave.on_burst_timer(&mut tcb);
    assert_eq!(tcb.cwnd, 20 * MSS);
    assert_eq!(wave.delta_segments(), 8);
    wave.on_burst_sent(&mut tcb, 17, 17);
    assert_eq!(wave.delta_segments(), -9);
    // 10 − 9 = 1 is below min_burst: 3.
    let before = tcb.cwnd;
    wave.on_burst_timer(&mut tcb);
    assert_eq!(tcb.cwnd, before + 3 * MSS);
    assert_eq!(wave.delta_segments(), 3);
}

#[test]
fn under_sending_gives_the_unused_window_back() {
    let (mut wave, mut tcb) = started();
    tcb.cwnd = 0;
    tcb.bytes_in_flight = 0;
    wave.on_burst_timer(&mut tcb);
    // The application had only 4 segments.
    tcb.bytes_in_flight = 4 * MSS;
    wave.on_burst_sent(&mut tcb, 4, 4);
    assert_eq!(tcb.cwnd, 4 * MSS);
    assert_eq!(wave.burst_history().collect::<Vec<_>>(), vec![10, 4]);
    // An expiry with nothing to send changes nothing.
    wave.on_burst_timer(&mut tcb);
    wave.on_burst_sent(&mut tcb, 0, 0);
    assert_eq!(tcb.cwnd, 4 * MSS);
}

#[test]
fn acks_for_segments_outside_the_window_are_balanced() {
    let (mut wave, mut tcb) = started();
    tcb.cwnd = 2 * MSS;
    tcb.bytes_in_flight = 10 * MSS;
    ack(&mut wave, &mut tcb, 100_000, 5, Some(100_000));
    // 5 segments ACKed with a 2-segment window: 3 were sent outside it.
    assert_eq!(wave.delta_segments(), 3);
    assert_eq!(tcb.cwnd, 5 * MSS);
    // Back in Open the balance restarts.
    wave.congestion_state_set(&mut tcb, CongState::Open);
    assert_eq!(wave.delta_segments(), 0);
}

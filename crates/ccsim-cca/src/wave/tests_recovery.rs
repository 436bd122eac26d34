//! Wave on hand-built ACK trains around an outage: every burst of the outage is lost, then
//! the losses are repaired one segment per ACK (fast retransmit, one loss per RTT) or after a
//! timeout (go-back-N). The history must drain and TxTime must come back to the bottleneck's
//! dispersion: no stuck state (seed 003's artefact: stale bursts, trains matched to the wrong
//! bursts, TxTime feeding on itself up to `init_timer`).

use super::tests::{ack, burst, started, train, MSS};
use super::*;

/// ACK spacing of the bottleneck, µs: TxTime tracks 9 gaps · 10/9 ≈ 6 ms.
const GAP_US: u64 = 600;
const RTT_US: u64 = 40_000;
/// Tracking TxTime for `GAP_US`: 5.4e6 ns · ⌊10·2^20/9⌋ / 2^20 → 5999 µs.
const TRACKED_US: u64 = 5_999;

/// `rounds` bursts, each ACKed by a clean train; returns the time after the last train.
fn steady(wave: &mut Wave, tcb: &mut TcpState, mut t_us: u64, rounds: u32) -> u64 {
    for _ in 0..rounds {
        burst(wave, tcb);
        train(wave, tcb, t_us, GAP_US, RTT_US);
        t_us += 10_000;
    }
    t_us
}

/// `n` bursts go out and are all lost (an outage): no ACK comes back.
fn outage(wave: &mut Wave, tcb: &mut TcpState, n: u32) {
    for _ in 0..n {
        burst(wave, tcb);
    }
}

/// A timer round whose window only carries retransmissions: the sender reports no new data.
fn retransmission_round(wave: &mut Wave, tcb: &mut TcpState, segs: u32) {
    wave.on_burst_timer(tcb);
    tcb.bytes_in_flight += segs * MSS;
    wave.on_burst_sent(tcb, segs, 0);
}

fn assert_tracking(wave: &Wave, what: &str) {
    let t = micros(wave.tx_timer());
    assert!(
        t.abs_diff(TRACKED_US) <= TRACKED_US / 10,
        "{what}: TxTime {t} us, expected ≈ {TRACKED_US} us"
    );
}

#[test]
fn normal_trains_track_the_dispersion_and_keep_the_history_short() {
    let (mut wave, mut tcb) = started();
    train(&mut wave, &mut tcb, 100_000, GAP_US, RTT_US);
    steady(&mut wave, &mut tcb, 200_000, 20);
    assert_eq!(wave.tx_timer(), Time::from_micros(TRACKED_US));
    assert_eq!(wave.burst_history_len(), 0);
}

#[test]
fn after_mass_loss_the_repair_acks_drain_the_history_and_tracking_resumes() {
    let (mut wave, mut tcb) = started();
    train(&mut wave, &mut tcb, 100_000, GAP_US, RTT_US);
    let mut t = steady(&mut wave, &mut tcb, 200_000, 10);
    outage(&mut wave, &mut tcb, 40);
    assert_eq!(wave.burst_history_len(), 40);
    // Fast recovery: the 400 lost segments are ACKed one per ACK, without RTT samples
    // (retransmissions, Karn), while new bursts keep leaving at the timer.
    let mut new_bursts = 0;
    for k in 0..400u64 {
        ack(&mut wave, &mut tcb, t + k * 5_000, 1, None);
        if k % 10 == 9 && new_bursts < 20 {
            burst(&mut wave, &mut tcb);
            new_bursts += 1;
        }
        assert!(
            micros(wave.tx_timer()) <= 2 * TRACKED_US,
            "ACK {k}: TxTime {:?} feeds on itself",
            wave.tx_timer()
        );
    }
    t += 400 * 5_000;
    // The outage's bursts are consumed: only the new ones wait for their ACKs.
    assert_eq!(wave.burst_history_len(), 20);
    for _ in 0..20 {
        train(&mut wave, &mut tcb, t, GAP_US, RTT_US);
        t += 10_000;
    }
    assert_eq!(wave.burst_history_len(), 0);
    steady(&mut wave, &mut tcb, t, 5);
    assert_tracking(&wave, "after the repair");
}

/// After a timeout the lost segments go out again in timer rounds (go-back-N); `report_retx`
/// says whether those rounds are reported as bursts (what ccsim did before following
/// `segments_sent`, which Linux calls for new data only). Returns the history left.
fn timeout_then_go_back_n(report_retx: bool) -> (Wave, usize) {
    let (mut wave, mut tcb) = started();
    train(&mut wave, &mut tcb, 100_000, GAP_US, RTT_US);
    let mut t = steady(&mut wave, &mut tcb, 200_000, 10);
    outage(&mut wave, &mut tcb, 40);
    // RTO: everything is lost, cwnd = 1 MSS (`tcp_enter_loss`).
    wave.congestion_state_set(&mut tcb, CongState::Loss);
    wave.cwnd_event(&mut tcb, CaEvent::Loss);
    tcb.bytes_in_flight = 0;
    tcb.cwnd = MSS;
    for _ in 0..40 {
        if report_retx {
            wave.on_burst_timer(&mut tcb);
            tcb.bytes_in_flight += 10 * MSS;
            wave.on_burst_sent(&mut tcb, 10, 10);
        } else {
            retransmission_round(&mut wave, &mut tcb, 10);
        }
        // The round's retransmissions are ACKed one by one, no RTT sample (Karn).
        for k in 0..10 {
            ack(&mut wave, &mut tcb, t + k * GAP_US, 1, None);
        }
        t += 10_000;
    }
    wave.congestion_state_set(&mut tcb, CongState::Open);
    // New data again, with clean trains.
    steady(&mut wave, &mut tcb, t, 30);
    let left = wave.burst_history_len();
    (wave, left)
}

#[test]
fn after_a_timeout_go_back_n_does_not_leave_stale_bursts() {
    let (wave, left) = timeout_then_go_back_n(false);
    assert_eq!(left, 0, "the history drains");
    assert_tracking(&wave, "after the timeout");
}

#[test]
fn retransmissions_recorded_as_bursts_leave_the_outage_in_the_history() {
    // The artefact's mechanism: recorded twice, ACKed once, the outage's bursts never leave.
    let (_, left) = timeout_then_go_back_n(true);
    assert_eq!(left, 40);
}

#[test]
fn after_a_timeout_every_expiry_releases_a_full_burst_of_retransmissions() {
    let (mut wave, mut tcb) = started();
    train(&mut wave, &mut tcb, 100_000, GAP_US, RTT_US);
    steady(&mut wave, &mut tcb, 200_000, 3);
    outage(&mut wave, &mut tcb, 10);
    wave.congestion_state_set(&mut tcb, CongState::Loss);
    tcb.bytes_in_flight = 0;
    tcb.cwnd = MSS;
    for round in 0..5 {
        wave.on_burst_timer(&mut tcb);
        assert!(
            tcb.cwnd >= tcb.bytes_in_flight + 10 * MSS,
            "round {round}: the window has room for a burst"
        );
        tcb.bytes_in_flight += 10 * MSS;
        wave.on_burst_sent(&mut tcb, 10, 0);
        // The retransmissions used the window: nothing is taken back from it.
        assert!(tcb.cwnd >= tcb.bytes_in_flight, "round {round}");
        tcb.cwnd = tcb.bytes_in_flight; // an ACK closes it, as `cong_control` does
    }
    assert_eq!(
        wave.burst_history_len(),
        10,
        "retransmissions are not bursts"
    );
}

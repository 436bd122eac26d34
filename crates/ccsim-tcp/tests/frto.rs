//! The `linux` profile's Loss state without SACK, driven by hand-built ACKs: F-RTO as Linux
//! 4.14 `tcp_process_loss` runs it (`tcp.frto`) and Linux's count of what a duplicate ACK
//! delivers (`tcp.reno_sack_delivered`, `tcp_add_reno_sack` / `tcp_remove_reno_sacks`).

use ccsim_cca::CongState;
use ccsim_tcp::{TcpConfig, TcpProfile, TcpSender};

mod common;
use common::{ack, connected, drain, ms, MSS};

/// A connected `linux`-profile NewReno sender without SACK.
fn sender(tweak: impl FnOnce(&mut TcpConfig)) -> TcpSender {
    let mut cfg = TcpConfig {
        sack: false,
        ..TcpConfig::profile(TcpProfile::Linux)
    };
    tweak(&mut cfg);
    connected(cfg, "newreno")
}

/// A timeout with the first window in flight, then the head's retransmission ACKed.
fn timeout_then_head_acked(s: &mut TcpSender) -> ccsim_core::Time {
    assert_eq!(drain(s, ms(100)).len(), 10);
    let rto = s.next_timer().unwrap();
    s.on_timer(rto);
    assert_eq!(s.tcb.cong_state, CongState::Loss);
    assert_eq!(
        drain(s, rto),
        [(0, true)],
        "the timeout resends the head only"
    );
    let t = rto + ms(50);
    s.on_segment(t, &ack(1));
    t
}

/// RFC 5682 step 2.b: after a timeout outside recovery, the first ACK that advances SND.UNA
/// sends new data, not the segments marked lost; step 3.b: an ACK of segments never
/// retransmitted (they were only delayed) proves the timeout spurious, so the loss marks go
/// and the flow is Open again with nothing to resend. Without F-RTO the go-back-N resends
/// segments 1 and 2 at once.
#[test]
fn frto_sends_new_data_then_undoes_a_spurious_timeout() {
    let mut s = sender(|_| {});
    let t = timeout_then_head_acked(&mut s);
    assert_eq!(drain(&mut s, t), [(10, false), (11, false)], "step 2.b");
    // Segments 1-4 were delayed, not lost: their original transmissions are ACKed.
    let t = t + ms(10);
    s.on_segment(t, &ack(5));
    assert_eq!(s.tcb.cong_state, CongState::Open);
    assert_eq!(s.stats.loss_undos, 1);
    assert!(
        drain(&mut s, t).iter().all(|&(_, retx)| !retx),
        "nothing is resent"
    );

    let mut plain = sender(|c| c.frto = false);
    let t = timeout_then_head_acked(&mut plain);
    assert_eq!(drain(&mut plain, t), [(1, true), (2, true)], "go-back-N");
    plain.on_segment(t + ms(10), &ack(5));
    assert_eq!(plain.tcb.cong_state, CongState::Loss);
    assert_eq!(plain.stats.loss_undos, 0);
}

/// Step 3.a: a duplicate ACK after step 2.b's new data proves the loss real; the lost
/// segments then go out, and a later ACK of retransmitted data undoes nothing. The duplicate
/// ACK also counts the new segment that drew it as delivered (a guessed SACK above
/// `high_seq`, "A Reno DUPACK means new data in F-RTO step 2.b above are delivered"), which
/// leaves the window room for the resend.
#[test]
fn frto_falls_back_to_go_back_n_on_a_duplicate_ack() {
    let mut s = sender(|_| {});
    let t = timeout_then_head_acked(&mut s);
    assert_eq!(drain(&mut s, t), [(10, false), (11, false)]);
    let delivered = s.tcb.delivered;
    let t = t + ms(10);
    s.on_segment(t, &ack(1));
    assert_eq!(s.tcb.delivered - delivered, MSS as u64, "one guessed SACK");
    assert_eq!(drain(&mut s, t), [(1, true)], "the loss was real");
    let t = t + ms(10);
    s.on_segment(t, &ack(2));
    assert_eq!(s.tcb.cong_state, CongState::Loss);
    assert_eq!(s.stats.loss_undos, 0);
    // Slow start gives cwnd 3; segments 10 and 11 are in flight again (an advancing ACK
    // resets the guessed SACKs), so one resend fits.
    assert_eq!(drain(&mut s, t), [(2, true)]);
}

/// `tcp_enter_loss` arms F-RTO only for a timeout outside recovery (or one that repeats with
/// SND.UNA unmoved): a timeout that ends a fast recovery is a plain go-back-N.
#[test]
fn frto_is_not_armed_by_a_timeout_inside_recovery() {
    let mut s = sender(|_| {});
    assert_eq!(drain(&mut s, ms(100)).len(), 10);
    for _ in 0..3 {
        s.on_segment(ms(200), &ack(0));
    }
    assert_eq!(s.tcb.cong_state, CongState::Recovery);
    drain(&mut s, ms(200));
    let rto = s.next_timer().unwrap();
    s.on_timer(rto);
    assert_eq!(drain(&mut s, rto), [(0, true)]);
    let t = rto + ms(50);
    s.on_segment(t, &ack(1));
    assert_eq!(drain(&mut s, t), [(1, true), (2, true)], "no step 2.b");
}

/// Linux counts a Reno duplicate ACK as one segment delivered (`tcp_add_reno_sack`:
/// `tp->delivered++`) and the cumulative ACK that follows as `max(acked − guessed, 1)`
/// (`tcp_remove_reno_sacks`): the same total, but spread over the duplicates, which is what a
/// full-control algorithm's `rs.acked_sacked` (TCP Wave's ACK count) and PRR see. ns-3.44's
/// guessed SACKs deliver nothing until the cumulative ACK.
#[test]
fn a_duplicate_ack_delivers_one_segment_on_linuxs_count() {
    for linux in [true, false] {
        let mut s = sender(|c| c.reno_sack_delivered = linux);
        assert_eq!(drain(&mut s, ms(100)).len(), 10);
        let before = s.tcb.delivered;
        for _ in 0..3 {
            s.on_segment(ms(200), &ack(0));
        }
        let on_dupacks = s.tcb.delivered - before;
        assert_eq!(on_dupacks, if linux { 3 * MSS as u64 } else { 0 });
        drain(&mut s, ms(200));
        s.on_segment(ms(210), &ack(10));
        assert_eq!(s.tcb.delivered - before, 10 * MSS as u64, "linux={linux}");
    }
}

//! The sender without SACK (`tcp.sack = false`) driven by hand-built duplicate ACKs, checked
//! against the rules ns-3.44 follows with its guessed SACKs (`TcpTxBuffer::AddRenoSack`;
//! golden cases AN and CN in `validation/golden/ns3/`).

use ccsim_cca::CongState;
use ccsim_tcp::{TcpConfig, TcpSender};

mod common;
use common::{ack, connected, drain, ms};

/// A connected ns-3-profile NewReno sender without SACK, unlimited data.
fn sender(tweak: impl FnOnce(&mut TcpConfig)) -> TcpSender {
    let mut cfg = TcpConfig {
        sack: false,
        ..TcpConfig::default()
    };
    tweak(&mut cfg);
    connected(cfg, "newreno")
}

/// After a timeout the guessed SACKs are gone (`ResetRenoSack`), every segment is lost, and
/// NextSeg's rule 1 has no highest SACK to stay below (`!m_sackSeen`): the lost segments go
/// out again in order before any new data, in the window slow start opens. (With (1.b)
/// applied to an empty scoreboard, ccsim used to send new data here and time out again.)
#[test]
fn a_timeout_resends_the_lost_window_in_order() {
    let mut s = sender(|_| {});
    assert_eq!(drain(&mut s, ms(100)).len(), 10);
    // Two duplicate ACKs: limited transmit marks segments 1 and 2 and sends 10 and 11.
    for _ in 0..2 {
        s.on_segment(ms(200), &ack(0));
    }
    assert_eq!(drain(&mut s, ms(200)), [(10, false), (11, false)]);
    let rto = s.next_timer().unwrap();
    s.on_timer(rto);
    assert_eq!(s.tcb.cong_state, CongState::Loss);
    assert_eq!(drain(&mut s, rto), [(0, true)]);
    // The head's retransmission is ACKed: slow start allows two segments, both resent.
    s.on_segment(rto + ms(100), &ack(1));
    assert_eq!(drain(&mut s, rto + ms(100)), [(1, true), (2, true)]);
}

/// A cumulative ACK that lands on a guessed-SACKed segment moves the mark up and declares the
/// new head lost (`DiscardUpTo`). ns-3's `DupAck` then finds `IsLost(HighACK + 1)` true on
/// the next duplicate ACK and enters recovery at once, without waiting for three (case AN
/// NewReno at 2.6972 s).
#[test]
fn a_lost_head_below_a_guessed_sack_starts_recovery_on_one_duplicate_ack() {
    let mut s = sender(|_| {});
    assert_eq!(drain(&mut s, ms(100)).len(), 10);
    for _ in 0..2 {
        s.on_segment(ms(200), &ack(0)); // marks segments 1 and 2
    }
    drain(&mut s, ms(200));
    // Segments 0 and 1 arrive: the head is segment 2, which carried a guessed mark.
    s.on_segment(ms(210), &ack(2));
    assert_eq!(s.tcb.cong_state, CongState::Open);
    drain(&mut s, ms(210));
    s.on_segment(ms(220), &ack(2));
    assert_eq!(s.tcb.cong_state, CongState::Recovery);
    assert_eq!(drain(&mut s, ms(220)).first(), Some(&(2, true)));
}

/// A timeout's go-back-N resends segments the receiver already holds, and each duplicate
/// draws a duplicate ACK for the highest byte it has, exactly the recovery point once the
/// hole is filled. ns-3.44's `DupAck` enters recovery again on three of them
/// (`m_highRxAckMark >= m_recover`); Linux holds the old state until something *above*
/// `high_seq` is ACKed (`tcp_try_undo_recovery`, RFC 6582 §3.2 step 2) and does nothing on
/// them. (TCP Wave on ns-3's rule re-entered recovery ~450 times in 280 s on seed 003's GEO
/// link, each spurious retransmission drawing the next duplicates.)
#[test]
fn duplicate_acks_at_the_recovery_point_restart_recovery_only_on_ns3s_rule() {
    for ns3 in [true, false] {
        let mut s = sender(|c| c.ns3_dupacks_at_recover_restart = ns3);
        assert_eq!(drain(&mut s, ms(100)).len(), 10);
        let rto = s.next_timer().unwrap();
        s.on_timer(rto);
        assert_eq!(drain(&mut s, rto), [(0, true)]);
        // The head's retransmission fills the only hole: SND.UNA = recover (10 segments).
        let t = rto + ms(100);
        s.on_segment(t, &ack(10));
        assert_eq!(s.tcb.cong_state, CongState::Open);
        let new = drain(&mut s, t);
        assert!(!new.is_empty() && new.iter().all(|&(_, r)| !r), "{new:?}");
        // Three duplicates of the go-back-N draw three duplicate ACKs for the recovery point.
        let t = t + ms(10);
        for _ in 0..3 {
            s.on_segment(t, &ack(10));
        }
        let out = drain(&mut s, t);
        if ns3 {
            assert_eq!(s.tcb.cong_state, CongState::Recovery);
            assert_eq!(s.stats.fast_recoveries, 1);
            assert_eq!(out.first(), Some(&(10, true)), "spurious fast retransmit");
        } else {
            assert_eq!(s.tcb.cong_state, CongState::Open, "state held at high_seq");
            assert_eq!(s.stats.fast_recoveries, 0);
            assert_eq!(out, [], "nothing leaves on a held duplicate ACK");
            // Once an ACK above the recovery point arrives, three duplicates are a loss.
            let t = t + ms(10);
            s.on_segment(t, &ack(11));
            drain(&mut s, t);
            for _ in 0..3 {
                s.on_segment(t, &ack(11));
            }
            assert_eq!(s.tcb.cong_state, CongState::Recovery);
            assert_eq!(s.stats.fast_recoveries, 1);
            assert_eq!(drain(&mut s, t).first(), Some(&(11, true)));
        }
    }
}

//! NextSeg's rules 1 and 3 with and without RFC 6675 (1.b) (`tcp.nextseg_rule_1b`): ns-3.44
//! takes only segments below the highest SACK; ns-3.33 (the ns3-mmwave tree,
//! `TcpTxBuffer::NextSeg`, tcp-tx-buffer.cc l. 968-1071) takes any. A flow limited by its send
//! buffer then resends, in fast recovery, segments still in flight above the highest SACK:
//! the burst of ~2 300 resends after ns3-mmwave's first handover (docs/radio.md, "The loss at
//! ns3-mmwave's secondary-cell handover").

use ccsim_cca::CongState;
use ccsim_net::TcpSegment;
use ccsim_tcp::{TcpConfig, TcpSender};

mod common;
use common::{ack, connected_with_snd_buf, drain, ms, MSS};

const WINDOW: u64 = 20;

/// A NewReno sender whose 20-segment send buffer is all in flight (no new data to send).
fn buffer_limited(rule_1b: bool) -> TcpSender {
    let cfg = TcpConfig {
        initial_cwnd_segs: WINDOW as u32,
        app_write_chunk: None,
        nextseg_rule_1b: rule_1b,
        ..TcpConfig::default()
    };
    connected_with_snd_buf(cfg, "newreno", WINDOW * MSS as u64)
}

/// A duplicate ACK of segment 0 SACKing segments 1..`high`.
fn sack_up_to(high: u64) -> TcpSegment {
    let mut a = ack(0);
    a.sack.push(1 + MSS as u64, 1 + high * MSS as u64);
    a
}

/// Segment 0 is lost and 1..19 reach the receiver, whose SACKs come one by one. Returns the
/// segments resent after the fast retransmit, each with the highest SACK when it left.
fn resends_after_fast_retransmit(rule_1b: bool) -> Vec<(u64, u64)> {
    let mut s = buffer_limited(rule_1b);
    let sent = drain(&mut s, ms(100));
    assert_eq!(sent.len() as u64, WINDOW, "the whole buffer goes out");
    for high in 2..=4 {
        s.on_segment(ms(200), &sack_up_to(high));
    }
    assert_eq!(s.tcb.cong_state, CongState::Recovery);
    assert_eq!(
        drain(&mut s, ms(200)),
        vec![(0, true)],
        "fast retransmit of the hole"
    );
    let mut out = vec![];
    for high in 5..WINDOW {
        s.on_segment(ms(200), &sack_up_to(high));
        for (seg, retx) in drain(&mut s, ms(200)) {
            assert!(retx, "no new data: the send buffer is all in flight");
            out.push((seg, high));
        }
    }
    out
}

#[test]
fn ns3_33_resends_segments_in_flight_above_the_highest_sack() {
    // ns-3.44: below the highest SACK everything is SACKed or resent, so nothing qualifies.
    assert_eq!(resends_after_fast_retransmit(true), vec![]);
    // ns-3.33: rule 3 takes the first segment neither SACKed nor resent, wherever it lies:
    // segments the receiver already has, their SACKs still on the way.
    let resent = resends_after_fast_retransmit(false);
    assert!(resent.len() >= 5, "{resent:?}");
    for &(seg, high) in &resent {
        assert!(
            seg >= high,
            "segment {seg} resent below the highest SACK {high}"
        );
    }
    let segs: Vec<u64> = resent.iter().map(|&(s, _)| s).collect();
    assert!(segs.windows(2).all(|w| w[0] < w[1]), "in order: {segs:?}");
}

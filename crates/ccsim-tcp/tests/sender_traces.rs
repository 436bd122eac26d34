//! The sender driven by hand-built ACKs, read like a packet trace (after smoltcp's tests).

use ccsim_cca::CongState;
use ccsim_core::Time;
use ccsim_net::{TcpFlags, TcpSegment};
use ccsim_tcp::{TcpConfig, TcpSender};

const MSS: u32 = 1000;

fn ms(x: u64) -> Time {
    Time::from_millis(x)
}

fn sender(cca: &str) -> TcpSender {
    sender_with(cca, |_| {})
}

fn sender_with(cca: &str, tweak: impl FnOnce(&mut TcpConfig)) -> TcpSender {
    sender_sending(cca, None, tweak)
}

/// A connected sender with `app_bytes` to send (`None`: unlimited).
fn sender_sending(
    cca: &str,
    app_bytes: Option<u64>,
    tweak: impl FnOnce(&mut TcpConfig),
) -> TcpSender {
    let mut cfg = TcpConfig {
        mss: MSS,
        snd_buf: 1 << 20,
        rcv_buf: 1 << 20,
        ..TcpConfig::default()
    };
    tweak(&mut cfg);
    let cca = ccsim_cca::build(cca, &serde_json::Map::new()).unwrap();
    let mut s = TcpSender::new(cfg, cca, app_bytes);
    s.start(Time::ZERO);
    let syn = s.poll_transmit(Time::ZERO).unwrap();
    assert!(syn.flags.has(TcpFlags::SYN));
    let synack = TcpSegment {
        flags: TcpFlags(TcpFlags::SYN | TcpFlags::ACK),
        ack: 1,
        window: 1 << 20,
        timestamps: true,
        ts_val: 0,
        ts_ecr: syn.ts_val,
        ..Default::default()
    };
    s.on_segment(ms(100), &synack);
    // The pure ACK completing the handshake comes first (as in ns-3 and Linux).
    let hs = s.poll_transmit(ms(100)).unwrap();
    assert!(hs.flags.has(TcpFlags::ACK) && !hs.flags.has(TcpFlags::SYN));
    assert_eq!((hs.seq, hs.ack, hs.payload), (1, 1, 0));
    s
}

/// A sender whose send buffer holds `segments` full segments, filled by the application in
/// `chunk`-byte writes (`None`: kept full to the byte).
fn buffer_limited(cca: &str, segments: u64, chunk: Option<u32>) -> TcpSender {
    sender_with(cca, |c| {
        c.snd_buf = segments * MSS as u64;
        c.app_write_chunk = chunk;
    })
}

/// Everything the sender may send now.
fn drain(s: &mut TcpSender, now: Time) -> Vec<TcpSegment> {
    std::iter::from_fn(|| s.poll_transmit(now)).collect()
}

fn ack(n_segments: u64, sack: &[(u64, u64)], ts_ecr: u32) -> TcpSegment {
    let mut a = TcpSegment {
        flags: TcpFlags(TcpFlags::ACK),
        ack: 1 + n_segments * MSS as u64,
        window: 1 << 20,
        timestamps: true,
        ts_ecr,
        ..Default::default()
    };
    for &(s, e) in sack {
        a.sack.push(1 + s * MSS as u64, 1 + e * MSS as u64);
    }
    a
}

/// Segment 0 is lost; 1, 2 and 3 arrive and are SACKed by three duplicate ACKs at 200 ms: the
/// sender enters fast recovery.
fn sack_three_above_a_lost_head(s: &mut TcpSender) {
    s.on_segment(ms(200), &ack(0, &[(1, 2)], 100));
    s.on_segment(ms(200), &ack(0, &[(1, 3)], 100));
    s.on_segment(ms(200), &ack(0, &[(1, 4)], 100));
    assert_eq!(s.tcb.cong_state, CongState::Recovery);
}

#[test]
fn initial_window_is_ten_segments() {
    let mut s = sender("newreno");
    let sent = drain(&mut s, ms(100));
    assert_eq!(sent.len(), 10);
    assert!(sent.iter().all(|x| x.payload == MSS));
    assert_eq!(sent[9].seq, 1 + 9 * MSS as u64);
}

#[test]
fn slow_start_adds_one_segment_per_ack() {
    let mut s = sender("newreno");
    drain(&mut s, ms(100));
    s.on_segment(ms(200), &ack(2, &[], 100));
    assert_eq!(
        s.tcb.cwnd,
        11 * MSS,
        "ns-3 NewReno slow start: +1 MSS per ACK"
    );
    // 11 allowed, 8 outstanding: three new segments.
    assert_eq!(drain(&mut s, ms(200)).len(), 3);
}

#[test]
fn three_sacked_segments_trigger_fast_retransmit_of_the_hole() {
    let mut s = sender("newreno");
    drain(&mut s, ms(100));
    // Segment 0 is lost; 1, 2, 3 arrive and are SACKed by three duplicate ACKs.
    s.on_segment(ms(200), &ack(0, &[(1, 2)], 100));
    assert_eq!(s.tcb.cong_state, CongState::Disorder);
    s.on_segment(ms(200), &ack(0, &[(1, 3)], 100));
    s.on_segment(ms(200), &ack(0, &[(1, 4)], 100));
    assert_eq!(s.tcb.cong_state, CongState::Recovery);
    let out = drain(&mut s, ms(200));
    assert!(
        out[0].retransmission && out[0].seq == 1,
        "the hole goes first: {out:?}"
    );
    assert_eq!(s.stats.retx_segments, 1);
    assert_eq!(s.stats.fast_recoveries, 1);
    // NewReno: ssthresh = max(2 MSS, in flight / 2) with 10 − 3 SACKed − 1 lost = 6 in flight.
    assert_eq!(s.tcb.ssthresh, 3 * MSS);
    // The retransmission arrives: full ACK of everything sent ends recovery.
    let high = (s.tcb.high_tx_mark - 1) / MSS as u64;
    s.on_segment(ms(300), &ack(high, &[], 200));
    assert_eq!(s.tcb.cong_state, CongState::Open);
    assert_eq!(
        s.tcb.cwnd,
        3 * MSS + MSS * MSS / (3 * MSS),
        "cwnd = ssthresh, then one CA step"
    );
}

#[test]
fn rto_backs_off_and_restarts_from_one_segment() {
    let mut s = sender("newreno");
    drain(&mut s, ms(100));
    let first = s.next_timer().unwrap();
    assert_eq!(
        first,
        ms(1100),
        "RTO = max(1 s, srtt + 4 rttvar) after a 100 ms SYN RTT"
    );
    s.on_timer(first);
    assert_eq!(s.tcb.cong_state, CongState::Loss);
    assert_eq!(s.tcb.cwnd, MSS);
    let out = drain(&mut s, first);
    assert_eq!(out.len(), 1);
    assert!(out[0].retransmission && out[0].seq == 1);
    // RFC 6298 §5.5: the next timeout is twice as long.
    let second = s.next_timer().unwrap();
    assert_eq!(second - first, ms(2000));
    s.on_timer(second);
    assert_eq!(s.stats.rto_count, 2);
}

/// A second timeout of the same retransmitted head: RFC 5681 / Linux keep ssthresh; ns-3.44
/// recomputes it from the (now one-segment) flight, halving it again.
#[test]
fn repeated_timeout_keeps_or_recomputes_ssthresh() {
    for ns3 in [false, true] {
        let mut s = sender_with("newreno", |c| c.ns3_rto_always_resets_ssthresh = ns3);
        drain(&mut s, ms(100));
        let first = s.next_timer().unwrap();
        s.on_timer(first);
        // NewReno: max(2 MSS, 10 segments in flight / 2).
        assert_eq!(s.tcb.ssthresh, 5 * MSS);
        drain(&mut s, first);
        let second = s.next_timer().unwrap();
        s.on_timer(second);
        let want = if ns3 { 2 * MSS } else { 5 * MSS };
        assert_eq!(s.tcb.ssthresh, want, "ns3 rule {ns3}");
    }
}

#[test]
fn finite_transfer_stops_at_the_last_byte() {
    let cfg = TcpConfig {
        mss: MSS,
        ..TcpConfig::default()
    };
    let cca = ccsim_cca::build("cubic", &serde_json::Map::new()).unwrap();
    let mut s = TcpSender::new(cfg, cca, Some(2500));
    s.start(Time::ZERO);
    drain(&mut s, Time::ZERO);
    s.on_segment(
        ms(10),
        &TcpSegment {
            flags: TcpFlags(TcpFlags::SYN | TcpFlags::ACK),
            ack: 1,
            window: 1 << 20,
            ..Default::default()
        },
    );
    let out = drain(&mut s, ms(10));
    assert_eq!(
        out.iter().map(|x| x.payload).collect::<Vec<_>>(),
        vec![0, 1000, 1000, 500],
        "handshake ACK, then the data"
    );
    let mut a = ack(2, &[], 0);
    a.ack = 2501;
    a.timestamps = false;
    s.on_segment(ms(20), &a);
    assert!(s.is_complete());
    assert_eq!(s.next_timer(), None, "nothing outstanding: no RTO armed");
}

#[test]
fn tahoe_slow_starts_after_every_loss() {
    let mut s = sender("tahoe");
    drain(&mut s, ms(100));
    // Segment 0 lost, 1..=3 SACKed: the third duplicate ACK is Tahoe's fast retransmit.
    s.on_segment(ms(200), &ack(0, &[(1, 2)], 100));
    s.on_segment(ms(200), &ack(0, &[(1, 3)], 100));
    s.on_segment(ms(200), &ack(0, &[(1, 4)], 100));
    assert_eq!(
        s.tcb.cong_state,
        CongState::Loss,
        "no fast recovery in Tahoe"
    );
    assert_eq!(s.tcb.cwnd, MSS, "cwnd back to one segment");
    assert_eq!(
        s.tcb.ssthresh,
        5 * MSS,
        "ssthresh = max(cwnd/2, 2 MSS) with cwnd 10 MSS"
    );
    let out = drain(&mut s, ms(200));
    assert_eq!(
        out.len(),
        1,
        "one segment in flight after the loss: {out:?}"
    );
    assert!(out[0].retransmission && out[0].seq == 1);
    assert_eq!(s.stats.rto_count, 0, "a fast retransmit, not a timeout");
    // The retransmission is ACKed together with the SACKed 1..=3: slow start again.
    s.on_segment(ms(300), &ack(4, &[], 200));
    assert_eq!(s.tcb.cwnd, 2 * MSS);
}

/// Two segments of one window lost (0 and 5): what the first retransmission's ACK does.
fn two_losses(cca: &str) -> TcpSender {
    two_losses_with(cca, |_| {})
}

fn two_losses_with(cca: &str, tweak: impl FnOnce(&mut TcpConfig)) -> TcpSender {
    let mut s = sender_with(cca, tweak);
    drain(&mut s, ms(100));
    s.on_segment(ms(200), &ack(0, &[(1, 2)], 100));
    s.on_segment(ms(200), &ack(0, &[(1, 3)], 100));
    s.on_segment(ms(200), &ack(0, &[(1, 4)], 100));
    s.on_segment(ms(200), &ack(0, &[(1, 5)], 100));
    s.on_segment(ms(200), &ack(0, &[(6, 7), (1, 5)], 100));
    assert_eq!(s.tcb.cong_state, CongState::Recovery);
    drain(&mut s, ms(200));
    // The retransmitted segment 0 arrives: the receiver now ACKs up to the second hole.
    s.on_segment(ms(300), &ack(5, &[(6, 7)], 200));
    s
}

#[test]
fn reno_leaves_recovery_on_a_partial_ack() {
    let mut s = two_losses("reno");
    assert_eq!(
        s.tcb.cong_state,
        CongState::Open,
        "RFC 5681: any new ACK ends fast recovery"
    );
    // Deflated to ssthresh (then at most one congestion-avoidance step).
    assert!(
        s.tcb.cwnd >= s.tcb.ssthresh && s.tcb.cwnd <= s.tcb.ssthresh + MSS,
        "{}",
        s.tcb.cwnd
    );
    let out = drain(&mut s, ms(300));
    assert!(
        out.iter()
            .all(|x| x.seq != 1 + 5 * MSS as u64 || !x.retransmission),
        "no partial-ACK retransmission of the second hole: {out:?}"
    );
}

#[test]
fn newreno_retransmits_the_next_hole_on_a_partial_ack() {
    // RFC 6582 (ns-3.44 would send new data first: the second hole has only one SACKed
    // segment above it, so it is not marked lost; see the test below).
    let mut s = two_losses_with("newreno", |c| c.ns3_partial_ack_retransmit = false);
    assert_eq!(
        s.tcb.cong_state,
        CongState::Recovery,
        "RFC 6582: stay until `recover`"
    );
    let out = drain(&mut s, ms(300));
    assert!(
        out[0].retransmission && out[0].seq == 1 + 5 * MSS as u64,
        "{out:?}"
    );
}

/// A partial ACK whose new head has nothing SACKed above it (so is not marked lost):
/// ns-3.44's `DoRetransmit` sends NextSeg's pick at once — new data, since nothing is lost —
/// where RFC 6582 retransmits the head.
#[test]
fn partial_ack_with_nothing_lost_sends_new_data_in_the_ns3_profile() {
    for ns3 in [true, false] {
        let mut s = sender_with("newreno", |c| c.ns3_partial_ack_retransmit = ns3);
        drain(&mut s, ms(100));
        sack_three_above_a_lost_head(&mut s);
        drain(&mut s, ms(200));
        let next_new = s.tcb.next_tx_seq;
        // Segment 0's retransmission arrives: ACK up to 5, below `recover`, nothing SACKed.
        s.on_segment(ms(300), &ack(5, &[], 200));
        assert_eq!(s.tcb.cong_state, CongState::Recovery, "partial ACK");
        let out = drain(&mut s, ms(300));
        if ns3 {
            assert!(
                !out[0].retransmission && out[0].seq == next_new,
                "ns-3: new data first: {out:?}"
            );
            assert!(out.iter().all(|x| !x.retransmission), "{out:?}");
        } else {
            assert!(
                out[0].retransmission && out[0].seq == 1 + 5 * MSS as u64,
                "RFC: the head: {out:?}"
            );
        }
    }
}

/// BBR paces from its first segment. ns-3.44 sends the initial window unpaced
/// (`PaceInitialWindow` = false); with the switch off every segment waits for the release.
#[test]
fn initial_window_is_unpaced_in_the_ns3_profile() {
    for ns3 in [true, false] {
        let mut s = sender_with("bbr", |c| c.ns3_pacing_timer = ns3);
        let burst = drain(&mut s, ms(100)).len();
        assert_eq!(burst, if ns3 { 10 } else { 1 }, "ns3 pacing {ns3}");
    }
}

/// Segment 0 lost, 1..=3 SACKed: the third duplicate ACK enters recovery.
fn enter_recovery(s: &mut TcpSender) {
    drain(s, ms(100));
    s.on_segment(ms(200), &ack(0, &[(1, 2)], 100));
    s.on_segment(ms(200), &ack(0, &[(1, 3)], 100));
    s.on_segment(ms(200), &ack(0, &[(1, 4)], 100));
    assert_eq!(s.tcb.cong_state, CongState::Recovery);
}

/// ns-3.44 sends recovery's fast retransmission inside `ProcessAck`, before `CongControl`:
/// BBR's packet conservation (cwnd ≥ in flight + delivered) then counts it, leaving room for
/// one more segment. Linux retransmits after `cong_control`.
#[test]
fn bbr_counts_the_recovery_retransmission_in_flight_in_the_ns3_profile() {
    let mut cwnd = Vec::new();
    for ns3 in [true, false] {
        let mut s = sender_with("bbr", |c| c.ns3_retransmit_before_cong_control = ns3);
        enter_recovery(&mut s);
        cwnd.push(s.tcb.cwnd);
        let out = drain(&mut s, ms(200));
        assert!(out[0].retransmission && out[0].seq == 1, "{out:?}");
        assert_eq!(s.stats.retx_segments, 1);
    }
    assert_eq!(cwnd[0], cwnd[1] + MSS, "cwnd ns-3 / linux order: {cwnd:?}");
}

/// Leaving recovery, ns-3.44 sets cwnd = ssthresh for every algorithm; BBR never lowers
/// ssthresh, so in STARTUP its cwnd stays 2^32 − 1 until its next change.
#[test]
fn leaving_recovery_sets_bbr_cwnd_to_ssthresh_in_the_ns3_profile() {
    for ns3 in [true, false] {
        let mut s = sender_with("bbr", |c| c.ns3_exit_recovery_for_cong_control = ns3);
        enter_recovery(&mut s);
        drain(&mut s, ms(200));
        let high = (s.tcb.high_tx_mark - 1) / MSS as u64;
        s.on_segment(ms(300), &ack(high, &[], 200));
        assert_eq!(s.tcb.cong_state, CongState::Open);
        assert_eq!(s.tcb.ssthresh, u32::MAX, "BBR keeps ssthresh");
        if ns3 {
            assert_eq!(s.tcb.cwnd, u32::MAX);
        } else {
            assert!(s.tcb.cwnd < 100 * MSS, "{}", s.tcb.cwnd);
        }
    }
}

/// ns-3.44 `ProcessAck`: on a partial ACK, "if the packet is already retransmitted do not
/// retransmit it" — no `DoRetransmit` when the new head is an un-SACKed retransmission.
#[test]
fn partial_ack_does_not_resend_a_head_in_retransmission() {
    // Ten segments in all; 0 and 2 are lost, everything else arrives.
    let mut s = sender_sending("newreno", Some(10 * MSS as u64), |_| {});
    drain(&mut s, ms(100));
    for sack in [
        &[(1, 2)][..],
        &[(3, 4), (1, 2)],
        &[(3, 5), (1, 2)],
        &[(3, 6), (1, 2)],
        &[(3, 7), (1, 2)],
        &[(3, 8), (1, 2)],
    ] {
        s.on_segment(ms(200), &ack(0, sack, 100));
        drain(&mut s, ms(200));
    }
    assert_eq!(s.stats.retx_segments, 2, "both holes retransmitted once");
    // Segment 0's retransmission arrives; the new head (segment 2) is already on its way again.
    s.on_segment(ms(300), &ack(2, &[(3, 10)], 200));
    assert_eq!(s.tcb.cong_state, CongState::Recovery, "partial ACK");
    let out = drain(&mut s, ms(300));
    assert!(out.is_empty(), "nothing new, nothing to resend: {out:?}");
}

/// ns-3.44 re-arms the retransmission timer through `NewAck`, which `ProcessAck` skips when an
/// ACK advances SND.UNA but also SACKs new data (the flow stays in Disorder); RFC 6298 (5.3)
/// re-arms it on every ACK of new data.
#[test]
fn disorder_ack_keeps_the_running_timer_in_the_ns3_profile() {
    for ns3 in [true, false] {
        let mut s = sender_with("newreno", |c| c.ns3_disorder_ack_keeps_rto = ns3);
        drain(&mut s, ms(100));
        // A plain ACK of segment 0 at 200 ms arms the timer from there.
        s.on_segment(ms(200), &ack(1, &[], 100));
        drain(&mut s, ms(200));
        let armed = s.next_timer().unwrap();
        // At 250 ms: segment 1 ACKed, segment 2 missing, 3 SACKed.
        s.on_segment(ms(250), &ack(2, &[(3, 4)], 100));
        assert_eq!(s.tcb.cong_state, CongState::Disorder);
        let after = s.next_timer().unwrap();
        if ns3 {
            assert_eq!(after, armed, "timer still from the 200 ms ACK");
        } else {
            assert_eq!(after, armed + ms(50), "re-armed at 250 ms");
        }
    }
}

/// New data at the edge of the receive window: ns-3.44's NextSeg cuts the segment at
/// SND.UNA + RCV.WND and sends the part; Linux (`strict_receive_window`) waits for room for a
/// whole segment.
#[test]
fn new_data_is_cut_at_the_receive_window_edge_in_the_ns3_profile() {
    for ns3 in [true, false] {
        let mut s = sender_with("newreno", |c| c.strict_receive_window = !ns3);
        drain(&mut s, ms(100));
        // Segments 0 and 1 arrive, 2 is missing and 3 SACKed (Disorder): cwnd − pipe has room
        // for more than a segment, but the receiver's window ends 500 bytes past all sent.
        let mut a = ack(2, &[(3, 4)], 100);
        a.window = 8 * MSS as u64 + 500;
        s.on_segment(ms(200), &a);
        let new: Vec<_> = drain(&mut s, ms(200))
            .into_iter()
            .filter(|x| !x.retransmission)
            .collect();
        if ns3 {
            assert_eq!(new.len(), 1, "{new:?}");
            assert_eq!((new[0].seq, new[0].payload), (1 + 10 * MSS as u64, 500));
        } else {
            assert!(new.is_empty(), "{new:?}");
        }
    }
}

/// ns-3's BulkSend writes 512-byte chunks whenever that much send-buffer room is free, so the
/// data ends on a chunk boundary; the sender sends what is there, a part segment too.
#[test]
fn send_buffer_holds_whole_application_chunks() {
    for chunk in [Some(512), None] {
        let mut s = sender_with("newreno", |c| {
            c.snd_buf = 4500;
            c.app_write_chunk = chunk;
        });
        let sizes: Vec<u32> = drain(&mut s, ms(100)).iter().map(|x| x.payload).collect();
        let last = if chunk.is_some() { 96 } else { 500 }; // 4096 = 8 × 512, or all 4500
        assert_eq!(sizes, vec![1000, 1000, 1000, 1000, last], "{chunk:?}");
    }
}

/// cwnd − pipe has room for 600 bytes and the send buffer holds 500 past SND.NXT: ns-3's
/// silly-window check compares the room with the data there (`SizeFromSequence`), so it
/// sends the 500; Linux waits for room for a whole segment.
#[test]
fn less_than_a_segment_of_buffered_data_is_sent_when_it_fits_in_the_ns3_profile() {
    for ns3 in [true, false] {
        let mut s = sender_with("newreno", |c| {
            c.snd_buf = 10 * MSS as u64 + 500;
            c.app_write_chunk = Some(500);
            c.strict_receive_window = !ns3;
        });
        s.tcb.cwnd = 10 * MSS + 600;
        let sizes: Vec<u32> = drain(&mut s, ms(100)).iter().map(|x| x.payload).collect();
        let mut want = vec![MSS; 10];
        if ns3 {
            want.push(500);
        }
        assert_eq!(sizes, want, "ns3 = {ns3}");
    }
}

/// ns-3's BulkSend writes only when the socket calls `NotifySend`: in `NewAck`, or when
/// `SendPendingData` has found data to send. An ACK that advances SND.UNA but leaves the
/// flow in Disorder, with the buffer all sent, frees room the application does not fill
/// until the next new ACK.
#[test]
fn a_disorder_ack_does_not_let_the_application_write_in_the_ns3_profile() {
    for chunk in [Some(500), None] {
        let mut s = buffer_limited("newreno", 10, chunk);
        assert_eq!(drain(&mut s, ms(100)).len(), 10); // the whole buffer
        s.on_segment(ms(200), &ack(1, &[(3, 4)], 100));
        assert_eq!(s.tcb.cong_state, CongState::Disorder);
        let sizes: Vec<u32> = drain(&mut s, ms(200)).iter().map(|x| x.payload).collect();
        if chunk.is_some() {
            assert_eq!(sizes, Vec::<u32>::new(), "nothing written, nothing to send");
        } else {
            assert_eq!(sizes, vec![MSS], "the buffer refills at once");
        }
        // A new ACK in Open: the application writes again.
        s.on_segment(ms(300), &ack(10, &[], 100));
        assert_eq!(s.tcb.cong_state, CongState::Open);
        assert!(!drain(&mut s, ms(300)).is_empty());
    }
}

/// A flow limited by its send buffer is app-limited in ns-3: BulkSend's write on each ACK
/// runs `CalculateAppLimited`, which finds less than a segment to send past SND.NXT while
/// cwnd has room (BBR then keeps those samples out of its full-pipe check).
#[test]
fn a_send_buffer_limited_flow_is_app_limited_when_the_application_writes() {
    for chunk in [Some(500), None] {
        let mut s = buffer_limited("bbr", 5, chunk);
        assert_eq!(drain(&mut s, ms(100)).len(), 5); // the whole buffer, cwnd 10
        s.on_segment(ms(200), &ack(1, &[], 100));
        // Segments sent after the write carry the mark; the write happened on this ACK.
        assert_eq!(s.is_app_limited(), chunk.is_some(), "{chunk:?}");
    }
}

/// ns-3 caps every pacing rate at `TcpSocketState::MaxPacingRate` (4 Gb/s by default).
#[test]
fn the_ns3_profile_caps_pacing_at_four_gigabits() {
    assert_eq!(sender("bbr").tcb.max_pacing_rate_bps, 4_000_000_000);
    let linux = sender_with("bbr", |c| c.max_pacing_rate_bps = None);
    assert_eq!(linux.tcb.max_pacing_rate_bps, u64::MAX);
}

/// RFC 6675 NextSeg rule 3 as ns-3.44 applies it: in recovery, with nothing lost left to
/// resend and no new data in the send buffer, the first segment below the highest SACK that
/// is neither SACKed, lost nor retransmitted goes out again.
#[test]
fn rule_3_resends_an_unsacked_segment_when_the_send_buffer_is_empty() {
    for rule3 in [true, false] {
        let mut s = sender_with("newreno", |c| {
            c.snd_buf = 10 * MSS as u64;
            c.app_write_chunk = Some(500);
            c.nextseg_rule_3 = rule3;
        });
        assert_eq!(drain(&mut s, ms(100)).len(), 10); // the whole buffer
                                                      // Segments 1–3 and 9 SACKed: 0 is lost, 4–8 are not (one SACKed segment above).
        s.on_segment(ms(200), &ack(0, &[(1, 4), (9, 10)], 100));
        assert_eq!(s.tcb.cong_state, CongState::Recovery);
        let out: Vec<(u64, bool)> = drain(&mut s, ms(200))
            .iter()
            .map(|x| (x.seq, x.retransmission))
            .collect();
        assert_eq!(out[0], (1, true), "fast retransmit of the head");
        let rule3_sent = out.contains(&(1 + 4 * MSS as u64, true));
        assert_eq!(rule3_sent, rule3, "{out:?}");
    }
}

/// ns-3 `SendDataPacket` restarts the delivery-rate sampler (`SkbSent` with
/// `isStartOfTransmission`) for any segment sent with nothing in flight, retransmissions
/// included: after a timeout the first sample spans one RTT, not the whole timeout.
#[test]
fn the_retransmission_after_a_timeout_restarts_the_rate_sampler() {
    let mut s = sender("bbr");
    drain(&mut s, ms(100));
    let rto = ms(100) + s.rto();
    s.on_timer(rto);
    let retx = drain(&mut s, rto);
    assert!(retx[0].retransmission && retx[0].seq == 1);
    let mut a = ack(1, &[], retx[0].ts_val);
    a.window = 1 << 20;
    s.on_segment(rto + ms(100), &a);
    // 1000 bytes over one 100 ms round trip = 80 kb/s (over the whole timeout it would be
    // 1000 bytes over 1.1 s).
    assert_eq!(s.last_delivery_rate_bps(), 80_000);
}

/// BulkSend's first write after the handshake finds nothing in flight and less than a segment
/// to send, so ns-3 marks the first flight app-limited (`CalculateAppLimited` in `Send`).
#[test]
fn the_first_flight_is_app_limited_with_bulksend_writes() {
    for chunk in [Some(512), None] {
        let s = sender_with("bbr", |c| c.app_write_chunk = chunk);
        assert_eq!(s.is_app_limited(), chunk.is_some(), "{chunk:?}");
    }
}

/// RFC 3042 limited transmit: each of the first two duplicate ACKs lets one new segment out.
/// Without SACK that is `tcp.limited_transmit` (ns-3.44 `LimitedTransmit`, `AddRenoSack`);
/// with SACK the SACKed segments leave the pipe, so it happens whatever the switch says.
#[test]
fn limited_transmit_sends_one_new_segment_per_early_duplicate_ack() {
    for (sack, on, expected) in [
        (false, true, [1, 1]),
        (false, false, [0, 0]),
        (true, false, [1, 1]),
        (true, true, [1, 1]),
    ] {
        let mut s = sender_with("newreno", |c| {
            c.sack = sack;
            c.limited_transmit = on;
        });
        assert_eq!(drain(&mut s, ms(100)).len(), 10);
        // Segment 0 is lost; 1 and 2 arrive, each answered by a duplicate ACK.
        let mut sent = [0; 2];
        for (i, n) in sent.iter_mut().enumerate() {
            let blocks = [(1, 2 + i as u64)];
            let sack_blocks: &[(u64, u64)] = if sack { &blocks } else { &[] };
            s.on_segment(ms(200), &ack(0, sack_blocks, 100));
            assert_eq!(s.tcb.cong_state, CongState::Disorder);
            let out = drain(&mut s, ms(200));
            // Only new data, beyond the initial window, and cwnd untouched.
            assert!(out
                .iter()
                .all(|x| !x.retransmission && x.seq > 10 * MSS as u64));
            assert_eq!(s.tcb.cwnd, 10 * MSS);
            *n = out.len();
        }
        assert_eq!(sent, expected, "sack {sack}, limited_transmit {on}");
        // The third duplicate ACK starts fast recovery with the head's retransmission.
        let blocks = [(1, 4)];
        s.on_segment(ms(200), &ack(0, if sack { &blocks } else { &[] }, 100));
        assert_eq!(s.tcb.cong_state, CongState::Recovery);
        assert!(drain(&mut s, ms(200))[0].retransmission);
    }
}

/// A timeout inside fast recovery: Linux `tcp_enter_loss` keeps the ssthresh the recovery set
/// ("reduce ssthresh if it has not yet been made inside this window"); ns-3.44 recomputes it
/// (CUBIC: 0.7 x the cwnd at the timeout).
#[test]
fn timeout_inside_recovery_keeps_ssthresh_in_linux_only() {
    for ns3 in [false, true] {
        let mut s = sender_with("cubic", |c| c.ns3_rto_always_resets_ssthresh = ns3);
        drain(&mut s, ms(100));
        sack_three_above_a_lost_head(&mut s);
        drain(&mut s, ms(200));
        let in_recovery = s.tcb.ssthresh;
        let cwnd = s.tcb.cwnd;
        let rto = s.next_timer().unwrap();
        s.on_timer(rto);
        assert_eq!(s.tcb.cong_state, CongState::Loss);
        if ns3 {
            assert!(
                s.tcb.ssthresh < in_recovery && s.tcb.ssthresh <= cwnd,
                "ns-3 recomputes: {} from {in_recovery}, cwnd {cwnd}",
                s.tcb.ssthresh
            );
        } else {
            assert_eq!(
                s.tcb.ssthresh, in_recovery,
                "Linux keeps the recovery's ssthresh"
            );
        }
    }
}

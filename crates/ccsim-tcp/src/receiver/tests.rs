//! Receiver cases, written as short packet traces: handshake, delayed ACK, window, SACK blocks.

use super::*;

const MSS: u32 = 1000;

fn rx() -> TcpReceiver {
    connected(TcpConfig {
        mss: MSS,
        rcv_buf: 1 << 20,
        ..TcpConfig::default()
    })
}

/// A receiver that has answered the peer's SYN (with timestamps) with its SYN-ACK.
fn connected(cfg: TcpConfig) -> TcpReceiver {
    let mut r = TcpReceiver::new(cfg);
    let syn = TcpSegment {
        flags: TcpFlags(TcpFlags::SYN),
        timestamps: true,
        ..Default::default()
    };
    r.on_segment(Time::ZERO, &syn);
    let synack = r.poll_transmit(Time::ZERO).unwrap();
    assert!(synack.flags.has(TcpFlags::SYN));
    r
}

fn data(seq_index: u64, ts: u32) -> TcpSegment {
    TcpSegment {
        flags: TcpFlags(TcpFlags::ACK),
        seq: 1 + seq_index * MSS as u64,
        payload: MSS,
        timestamps: true,
        ts_val: ts,
        ..Default::default()
    }
}

fn syn_at(r: &mut TcpReceiver, t: Time) -> Option<TcpSegment> {
    let syn = TcpSegment {
        flags: TcpFlags(TcpFlags::SYN),
        ..Default::default()
    };
    r.on_segment(t, &syn);
    r.poll_transmit(t)
}

fn fire(r: &mut TcpReceiver) -> (Time, Option<TcpSegment>) {
    let t = r.next_timer().expect("a timer is armed");
    r.on_timer(t);
    (t, r.poll_transmit(t))
}

#[test]
fn lost_syn_ack_is_sent_again_with_doubling_timeouts() {
    // ns-3.44 SYN_RCVD: ConnTimeout 3 s, doubled per SYN-ACK, SynRetries 6 in all.
    let mut r = TcpReceiver::new(TcpConfig::default());
    assert!(syn_at(&mut r, Time::from_millis(10)).is_some());
    let mut times = Vec::new();
    while let Some(t) = r.next_timer() {
        let (at, seg) = fire(&mut r);
        assert_eq!(at, t);
        if let Some(seg) = seg {
            assert!(seg.flags.has(TcpFlags::SYN) && seg.flags.has(TcpFlags::ACK));
            times.push(at.as_nanos() / 1_000_000);
        }
    }
    // Sent at 0.01 s, then 3.01, 9.01, 21.01, 45.01, 93.01 s: six in all; the timer
    // armed by the sixth finds no try left.
    assert_eq!(times, vec![3_010, 9_010, 21_010, 45_010, 93_010]);
}

#[test]
fn repeated_syn_uses_a_try_but_keeps_the_pending_timer() {
    let mut r = TcpReceiver::new(TcpConfig::default());
    syn_at(&mut r, Time::ZERO).unwrap();
    assert_eq!(r.next_timer(), Some(Time::from_secs(3)));
    // The peer's second SYN (its own 3 s timer) is answered at once...
    assert!(syn_at(&mut r, Time::from_millis(2_900)).is_some());
    assert_eq!(r.next_timer(), Some(Time::from_secs(3)), "timer not moved");
    // ...and the retransmission at 3 s is the third SYN-ACK: its timeout is 4 × 3 s.
    let (_, seg) = fire(&mut r);
    assert!(seg.is_some());
    assert_eq!(r.next_timer(), Some(Time::from_secs(15)));
}

#[test]
fn handshake_ack_cancels_the_syn_ack_retransmission() {
    let mut r = TcpReceiver::new(TcpConfig::default());
    syn_at(&mut r, Time::ZERO).unwrap();
    let ack = TcpSegment {
        flags: TcpFlags(TcpFlags::ACK),
        seq: 1,
        ack: 1,
        ..Default::default()
    };
    r.on_segment(Time::from_millis(40), &ack);
    assert_eq!(r.next_timer(), None);
    assert!(r.poll_transmit(Time::from_millis(40)).is_none());
}

#[test]
fn first_data_segment_is_acked_at_once() {
    // ns-3 `ProcessSynRcvd` primes the delayed-ACK counter on establishment.
    let mut r = rx();
    r.on_segment(Time::ZERO, &data(0, 5));
    let ack = r.poll_transmit(Time::ZERO).unwrap();
    assert_eq!(ack.ack, 1 + MSS as u64);
    assert_eq!(ack.ts_ecr, 5);
}

#[test]
fn delayed_ack_every_second_segment_echoing_the_first() {
    let mut r = rx();
    r.on_segment(Time::ZERO, &data(0, 5));
    r.poll_transmit(Time::ZERO).unwrap();
    let t = Time::from_millis(1);
    r.on_segment(t, &data(1, 10));
    assert!(r.poll_transmit(t).is_none());
    assert_eq!(r.next_timer(), Some(t + Time::from_millis(200)));
    r.on_segment(t, &data(2, 11));
    let ack = r.poll_transmit(t).unwrap();
    assert_eq!(ack.ack, 1 + 3 * MSS as u64);
    assert_eq!(
        ack.ts_ecr, 10,
        "RFC 7323: echo the segment that started the ACK cycle"
    );
    assert!(r.next_timer().is_none());
}

#[test]
fn delayed_ack_timer_fires() {
    let mut r = rx();
    r.on_segment(Time::ZERO, &data(0, 0));
    r.poll_transmit(Time::ZERO).unwrap();
    r.on_segment(Time::ZERO, &data(1, 0));
    let due = r.next_timer().unwrap();
    r.on_timer(due);
    assert_eq!(r.poll_transmit(due).unwrap().ack, 1 + 2 * MSS as u64);
}

#[test]
fn window_is_scaled_except_on_syn() {
    let mut r = TcpReceiver::new(TcpConfig {
        mss: MSS,
        rcv_buf: 4_000_000,
        ..TcpConfig::default()
    });
    let syn = TcpSegment {
        flags: TcpFlags(TcpFlags::SYN),
        ..Default::default()
    };
    r.on_segment(Time::ZERO, &syn);
    assert_eq!(r.poll_transmit(Time::ZERO).unwrap().window, 65_535);
    r.on_segment(Time::ZERO, &data(0, 0));
    // 4 MB needs a shift of 6: the window is a multiple of 64 bytes.
    assert_eq!(
        r.poll_transmit(Time::ZERO).unwrap().window,
        (4_000_000 >> 6) << 6
    );
}

#[test]
fn out_of_order_gets_immediate_ack_with_recent_block_first() {
    let mut r = rx();
    r.on_segment(Time::ZERO, &data(0, 0));
    r.on_segment(Time::ZERO, &data(2, 0));
    let a = r.poll_transmit(Time::ZERO).unwrap();
    assert_eq!(a.ack, 1 + MSS as u64);
    assert_eq!(a.sack.unpacked().as_slice(), &[(2001, 3001)]);
    r.on_segment(Time::ZERO, &data(5, 0));
    let a = r.poll_transmit(Time::ZERO).unwrap();
    assert_eq!(a.sack.unpacked().as_slice(), &[(5001, 6001), (2001, 3001)]);
    r.on_segment(Time::ZERO, &data(3, 0));
    let a = r.poll_transmit(Time::ZERO).unwrap();
    assert_eq!(a.sack.unpacked().as_slice(), &[(2001, 4001), (5001, 6001)]);
    // Fill the hole: everything up to 4001 is delivered, one block left.
    r.on_segment(Time::ZERO, &data(1, 0));
    let a = r.poll_transmit(Time::ZERO).unwrap();
    assert_eq!(a.ack, 4001);
    assert_eq!(a.sack.unpacked().as_slice(), &[(5001, 6001)]);
    assert_eq!(r.delivered_bytes(), 4000);
    assert_eq!(r.out_of_order_bytes(), 1000);
}

/// Out-of-order data shrinks the advertised window in the `linux` profile only; ns-3.44
/// keeps advertising the whole buffer.
#[test]
fn out_of_order_bytes_and_the_advertised_window() {
    for (counts, expected) in [(true, 60_000 - 2 * MSS as u64), (false, 60_000)] {
        let mut r = connected(TcpConfig {
            mss: MSS,
            rcv_buf: 60_000,
            window_scaling: false,
            rwnd_counts_out_of_order: counts,
            ..TcpConfig::default()
        });
        for k in [0, 2, 4] {
            r.on_segment(Time::ZERO, &data(k, 0));
        }
        let last = std::iter::from_fn(|| r.poll_transmit(Time::ZERO)).last();
        assert_eq!(r.out_of_order_bytes(), 2 * MSS as u64);
        assert_eq!(
            last.unwrap().window,
            expected,
            "counts out-of-order: {counts}"
        );
    }
}

/// ns-3.44 remembers four blocks: after five separate holes the oldest block is forgotten,
/// and a segment arriving next to it is reported on its own although the receiver holds
/// the neighbour (the sender sees less than the reassembly queue has).
#[test]
fn sack_list_forgets_the_oldest_of_five_blocks() {
    let mut r = rx();
    r.on_segment(Time::ZERO, &data(0, 0));
    for k in [2, 4, 6, 8, 10] {
        r.on_segment(Time::ZERO, &data(k, 0));
    }
    let a = r.poll_transmit(Time::ZERO).unwrap();
    assert_eq!(
        a.sack.unpacked().as_slice(),
        &[(10_001, 11_001), (8001, 9001), (6001, 7001)],
        "three blocks fit beside the timestamps"
    );
    // Segment 3 touches the forgotten block [2001, 3001) and the remembered [4001, 5001).
    r.on_segment(Time::ZERO, &data(3, 0));
    let a = r.poll_transmit(Time::ZERO).unwrap();
    assert_eq!(a.sack.unpacked().as_slice()[0], (3001, 5001));
    assert_eq!(r.out_of_order_bytes(), 6000, "the data itself is all held");
}

/// ns-3.44 `TcpRxBuffer::Add` trims a segment to the bytes it does not hold yet, so a
/// retransmission re-cut across held data is reported as one block, not as overlapping
/// ones (seed 002 over IPv4 fragments).
#[test]
fn overlapping_segment_is_trimmed_before_its_sack_block() {
    let mut r = rx();
    r.on_segment(Time::ZERO, &data(0, 0));
    r.on_segment(Time::ZERO, &data(2, 0));
    r.poll_transmit(Time::ZERO).unwrap();
    let mut overlap = data(2, 0);
    overlap.seq += 500;
    r.on_segment(Time::ZERO, &overlap);
    let a = r.poll_transmit(Time::ZERO).unwrap();
    assert_eq!(a.sack.unpacked().as_slice(), &[(2001, 3501)]);
    assert_eq!(r.out_of_order_bytes(), 1500);
    // A segment whose tail is held is cut at the held range's start.
    let mut head_first = data(4, 0);
    head_first.seq -= 600;
    r.on_segment(Time::ZERO, &data(4, 0));
    r.on_segment(Time::ZERO, &head_first);
    let a = r.poll_transmit(Time::ZERO).unwrap();
    assert_eq!(
        a.sack.unpacked().as_slice(),
        &[(2001, 5001)],
        "the trimmed piece joins both"
    );
}

#[test]
fn duplicate_is_acked_at_once() {
    let mut r = rx();
    r.on_segment(Time::ZERO, &data(0, 0));
    r.on_segment(Time::ZERO, &data(1, 0));
    r.poll_transmit(Time::ZERO).unwrap();
    r.on_segment(Time::ZERO, &data(0, 0));
    assert!(r.poll_transmit(Time::ZERO).is_some());
    assert_eq!(r.duplicate_segments, 1);
}

//! Unit tests of [`crate::rlc_am`] (a separate file to keep `rlc_am.rs` short).
use super::*;

#[test]
fn unacked_window_forgets_acknowledged_sdus() {
    let mut w = UnackedWindow::with_capacity(4);
    let ms = Time::from_millis;
    w.push(ms(0), 1, ms(2));
    w.push(ms(1), 2, ms(3));
    w.push(ms(2), 3, ms(4)); // packet 1 acknowledged at 2 ms
    assert_eq!(w.len(), 2);
    let mut out = Vec::new();
    w.drain_unacked(ms(3), |p| out.push(p));
    assert_eq!(out, vec![3]);
    assert!(w.is_empty());
}

/// A TB every 250 µs on the downlink (1 ms to decode and deliver), status reports back
/// after 500 µs; the loop runs in 50 µs steps. `drop(sn, nth transmission)` loses PDUs.
struct Run {
    delivered: Vec<(u32, u32, Time)>,
    tx: AmTransmitter,
    statuses: usize,
}

fn run(sdus: &[u32], tb: u32, end_ms: u64, drop: impl Fn(u32, u32) -> bool) -> Run {
    run_with(AmConfig::default(), sdus, tb, end_ms, drop)
}

fn run_with(
    cfg: AmConfig,
    sdus: &[u32],
    tb: u32,
    end_ms: u64,
    drop: impl Fn(u32, u32) -> bool,
) -> Run {
    let (mut tx, mut rx) = (AmTransmitter::new(cfg), AmReceiver::new(cfg));
    for (i, &b) in sdus.iter().enumerate() {
        tx.enqueue(i as u32, b);
    }
    let (down, up) = (Time::from_millis(1), Time::from_micros(500));
    let mut to_rx: Vec<(Time, AmPdu)> = Vec::new();
    let mut to_tx: Vec<(Time, StatusPdu)> = Vec::new();
    let mut sends: std::collections::HashMap<u32, u32> = Default::default();
    let mut delivered = Vec::new();
    let mut statuses = 0;
    let step = Time::from_micros(50);
    let mut now = Time::ZERO;
    while now <= Time::from_millis(end_ms) {
        let (due, rest): (Vec<_>, Vec<_>) = to_rx.drain(..).partition(|(t, _)| *t <= now);
        to_rx = rest;
        for (_, p) in due {
            rx.on_pdu(now, p, |s, b, _| delivered.push((s, b, now)));
        }
        let (due, rest): (Vec<_>, Vec<_>) = to_tx.drain(..).partition(|(t, _)| *t <= now);
        to_tx = rest;
        for (_, s) in due {
            tx.on_status(&s);
        }
        rx.on_deadline(now);
        tx.on_deadline(now);
        if let Some(s) = rx.poll_status(now) {
            statuses += 1;
            to_tx.push((now + up, s));
        }
        if now.as_nanos().is_multiple_of(250_000) {
            if let Some(p) = tx.transmit(now, tb) {
                let n = sends.entry(p.sn).or_insert(0);
                *n += 1;
                if !drop(p.sn, *n) {
                    to_rx.push((now + down, p));
                }
            }
        }
        now += step;
    }
    Run {
        delivered,
        tx,
        statuses,
    }
}

#[test]
fn sdus_are_segmented_to_the_tb_and_reassembled_whole_and_in_order() {
    // 1500-byte SDUs in 1004-byte TBs (1000 bytes of data): every PDU carries pieces.
    let sdus = vec![1500; 10];
    let mut tx = AmTransmitter::new(AmConfig::default());
    for (i, &b) in sdus.iter().enumerate() {
        tx.enqueue(i as u32, b);
    }
    let p = tx.transmit(Time::ZERO, 1004).unwrap();
    assert_eq!(p.bytes(), 1004);
    assert_eq!(
        p.segments,
        vec![SduSegment {
            sdu: 0,
            bytes: 1000,
            sdu_bytes: 1500,
            last: false
        }]
    );
    // The buffer counts untransmitted bytes only (txon), as ns3-mmwave reports it.
    assert_eq!(tx.txon_bytes(), 15_000 - 1000);
    let p = tx.transmit(Time::ZERO, 1004).unwrap();
    assert_eq!(p.segments.len(), 2);
    assert_eq!((p.segments[0].bytes, p.segments[0].last), (500, true));
    assert_eq!((p.segments[1].sdu, p.segments[1].bytes), (1, 500));
    let r = run(&sdus, 1004, 30, |_, _| false);
    let got: Vec<(u32, u32)> = r.delivered.iter().map(|&(s, b, _)| (s, b)).collect();
    assert_eq!(got, (0..10).map(|i| (i, 1500)).collect::<Vec<_>>());
    assert_eq!(r.tx.unacked_pdus(), 0, "all acknowledged");
    assert_eq!(r.tx.txon_bytes(), 0);
}

#[test]
fn a_lost_pdu_is_nacked_after_t_reordering_and_retransmitted() {
    // 15 SDUs of 1000 bytes, one per PDU; PDU 3's first transmission is lost.
    let sdus = vec![1000; 15];
    let ok = run(&sdus, 1004, 40, |_, _| false);
    let lossy = run(&sdus, 1004, 40, |sn, n| sn == 3 && n == 1);
    let at = |r: &Run, s: u32| r.delivered.iter().find(|d| d.0 == s).unwrap().2;
    // Every SDU arrives once, in order, despite the loss.
    let order: Vec<u32> = lossy.delivered.iter().map(|d| d.0).collect();
    assert_eq!(order, (0..15).collect::<Vec<_>>());
    // SDU 3 waits for: PDU 4 revealing the hole (+250 µs), t-Reordering (2 ms), the
    // status report's uplink (500 µs), the retransmission's downlink (1 ms).
    let delay = at(&lossy, 3) - at(&ok, 3);
    assert!(
        delay >= Time::from_micros(3_500) && delay <= Time::from_micros(4_500),
        "{delay:?}"
    );
    // In-order delivery holds SDUs 4.. behind the hole: they leave together with 3.
    for s in 4..8 {
        assert!(at(&lossy, s) >= at(&lossy, 3), "SDU {s}");
        assert!(at(&lossy, s) > at(&ok, s) + Time::from_millis(2));
    }
    assert!(lossy.statuses > 0);
    assert_eq!(lossy.tx.unacked_pdus(), 0);
}

#[test]
fn a_lost_last_pdu_is_recovered_by_t_poll_retransmit() {
    // The last PDU is lost: no later PDU reveals the hole, so the status reports do
    // not NACK it and only t-PollRetransmit (4 ms) brings it back.
    let sdus = vec![1000; 5];
    let ok = run(&sdus, 1004, 40, |_, _| false);
    let lossy = run(&sdus, 1004, 40, |sn, n| sn == 4 && n == 1);
    let at = |r: &Run, s: u32| r.delivered.iter().find(|d| d.0 == s).unwrap().2;
    let delay = at(&lossy, 4) - at(&ok, 4);
    assert!(
        delay >= Time::from_millis(4) && delay <= Time::from_millis(8),
        "{delay:?}"
    );
    assert_eq!(lossy.delivered.len(), 5);
}

#[test]
fn status_reports_respect_t_status_prohibit() {
    // Every PDU polls, one TB per 250 µs: without the 1 ms prohibit there would be one
    // status per PDU; with it, at most one per ms.
    let sdus = vec![1000; 40];
    let r = run(&sdus, 1004, 30, |_, _| false);
    assert_eq!(r.delivered.len(), 40);
    assert!(r.statuses <= 12 && r.statuses >= 8, "{}", r.statuses);
}

#[test]
fn a_pdu_lost_every_time_is_given_up_after_max_retx() {
    let sdus = vec![1000; 6];
    let r = run(&sdus, 1004, 200, |sn, _| sn == 2);
    assert_eq!(r.tx.abandoned, 1);
    // Reassembly stops at the hole: only SDUs 0 and 1 reach PDCP.
    assert_eq!(r.delivered.iter().map(|d| d.0).collect::<Vec<_>>(), [0, 1]);
}

/// ns3-mmwave's receiver ignores a whole PDU for an SN whose segment set is incomplete
/// (`resegment_retx`, traced in the seed 002 authors' tree): after a lost segment, whole
/// retransmissions are thrown away until a TB too small for the PDU forces segments again.
#[test]
fn a_whole_retransmission_is_ignored_while_a_segment_set_is_incomplete() {
    let cfg = AmConfig {
        resegment_retx: true,
        max_retx: 1000,
        ..AmConfig::default()
    };
    let pdu = |part: Option<PduPart>| AmPdu {
        sn: 0,
        poll: true,
        segments: vec![SduSegment {
            sdu: 7,
            bytes: 1000,
            sdu_bytes: 1000,
            last: true,
        }],
        part,
    };
    let seg = |offset, bytes, last| {
        pdu(Some(PduPart {
            offset,
            bytes,
            last,
        }))
    };
    let ms = Time::from_millis;
    let mut got = Vec::new();
    let mut rx = AmReceiver::new(cfg);
    rx.on_pdu(ms(0), seg(0, 600, false), |s, b, _| got.push((s, b)));
    // The last segment (600..1000) is lost; whole copies follow and are ignored.
    for t in 1..=5 {
        rx.on_pdu(ms(t), pdu(None), |s, b, _| got.push((s, b)));
    }
    assert!(got.is_empty(), "whole PDUs ignored: {got:?}");
    rx.on_deadline(ms(5)); // t-Reordering moves VR(MS) past the incomplete SN
    let status = rx.poll_status(ms(6)).expect("polled");
    assert_eq!(status.nacks, vec![0], "the SN stays NACKed");
    // A smaller TB: the retransmission goes in segments from 0, which restart the set.
    rx.on_pdu(ms(7), seg(0, 500, false), |s, b, _| got.push((s, b)));
    assert!(
        got.is_empty(),
        "an out-of-order segment discarded the old set"
    );
    rx.on_pdu(ms(8), seg(0, 500, false), |s, b, _| got.push((s, b)));
    rx.on_pdu(ms(9), seg(500, 500, true), |s, b, _| got.push((s, b)));
    assert_eq!(got, vec![(7, 1000)]);

    // Without the rule the first whole copy completes the PDU.
    let mut got = Vec::new();
    let mut rx = AmReceiver::new(AmConfig::default());
    rx.on_pdu(ms(0), seg(0, 600, false), |s, b, _| got.push((s, b)));
    rx.on_pdu(ms(1), pdu(None), |s, b, _| got.push((s, b)));
    assert_eq!(got, vec![(7, 1000)]);
}

/// With `resegment_retx` a retransmission bigger than the TB goes first, in segments of the
/// TB's size, the last one carrying the rest; without it the TB carries new data instead.
#[test]
fn a_retransmission_too_big_for_the_tb_is_resegmented() {
    let ms = Time::from_millis;
    for reseg in [true, false] {
        let cfg = AmConfig {
            resegment_retx: reseg,
            ..AmConfig::default()
        };
        let mut tx = AmTransmitter::new(cfg);
        for i in 0..4 {
            tx.enqueue(i, 1000);
        }
        let first = tx.transmit(ms(0), 1004).unwrap();
        assert_eq!(first.sn, 0);
        // SN 0 NACKed; the next TBs hold 604 bytes.
        tx.on_status(&StatusPdu {
            ack_sn: 1,
            nacks: vec![0],
        });
        let a = tx.transmit(ms(1), 604).unwrap();
        let b = tx.transmit(ms(2), 604).unwrap();
        if reseg {
            let parts = (a.sn, a.part, b.sn, b.part);
            let want = (
                0,
                Some(PduPart {
                    offset: 0,
                    bytes: 600,
                    last: false,
                }),
                0,
                Some(PduPart {
                    offset: 600,
                    bytes: 400,
                    last: true,
                }),
            );
            assert_eq!(parts, want);
            assert_eq!((a.bytes(), b.bytes()), (604, 404));
            assert_eq!(tx.retransmissions, 1);
        } else {
            assert_eq!((a.sn, a.part, b.sn), (1, None, 2), "new data instead");
            assert_eq!(tx.retransmissions, 0);
        }
    }
}

/// The tree's stall end to end (seed 002 seed 4, SN 113 at 5.034-5.408 s), transmitter and
/// receiver together, with TB sizes as its flex-TTI scheduler makes them: 1204 bytes in a slot
/// of 12 data symbols, 1104 in one of 11 (the UE sends uplink data in it). A PDU built for 12
/// symbols is lost; its retransmission falls in an 11-symbol slot and goes out in two segments,
/// of which the second is lost. The following retransmissions fall in 12-symbol slots, so they
/// go whole, and the UE ignores every one: nothing reaches PDCP until an 11-symbol slot cuts
/// the PDU into segments again. Without `resegment_retx` the first whole copy repairs it.
#[test]
fn a_lost_segment_then_whole_retransmissions_stall_the_receiver() {
    const FULL: u32 = 1204;
    const SHORT: u32 = 1104;
    let stalled_for = |resegment_retx: bool| {
        let cfg = AmConfig {
            resegment_retx,
            max_retx: 1000,
            ..AmConfig::default()
        };
        let (mut tx, mut rx) = (AmTransmitter::new(cfg), AmReceiver::new(cfg));
        for i in 0..1000 {
            tx.enqueue(i, 1200);
        }
        let mut got = Vec::new();
        let mut now = Time::ZERO;
        let mut send =
            |tx: &mut AmTransmitter, rx: &mut AmReceiver, now: Time, tb: u32, lost: bool| {
                match tx.transmit(now, tb) {
                    Some(p) if !lost => rx.on_pdu(now, p, |s, _, _| got.push((s, now))),
                    _ => {}
                }
                rx.on_deadline(now);
                if let Some(s) = rx.poll_status(now) {
                    tx.on_status(&s);
                }
            };
        let step = Time::from_micros(250);
        send(&mut tx, &mut rx, now, FULL, true); // SN 0, built for 12 symbols: lost
                                                 // New data until t-Reordering NACKs SN 0; then its retransmission in an 11-symbol slot.
        while !tx.retx.contains(&0) {
            now += step;
            send(&mut tx, &mut rx, now, FULL, false);
        }
        now += step;
        send(&mut tx, &mut rx, now, SHORT, false); // first segment (or new data without the rule)
        now += step;
        send(&mut tx, &mut rx, now, SHORT, true); // second segment lost
                                                  // 100 ms of 12-symbol slots: no uplink data while nothing reaches TCP.
        let stall_start = now;
        for _ in 0..400 {
            now += step;
            send(&mut tx, &mut rx, now, FULL, false);
        }
        let first = got.iter().find(|(s, _)| *s == 0).map(|&(_, t)| t);
        (first.map(|t| t - stall_start), rx.ignored_whole, rx.vr_r())
    };
    let (delivered, ignored, vr_r) = stalled_for(true);
    assert_eq!(delivered, None, "SDU 0 held for 100 ms");
    assert_eq!(vr_r, 0, "VR(R) stays on the SN");
    assert!(ignored >= 20, "whole copies ignored: {ignored}");
    let (delivered, ignored, _) = stalled_for(false);
    assert!(
        delivered.is_some_and(|d| d < Time::from_millis(10)),
        "without the rule a whole copy repairs it: {delivered:?}"
    );
    assert_eq!(ignored, 0);
}

/// PDU `sn` carrying SDU `sn` whole (100 bytes).
fn whole_pdu(sn: u32, poll: bool) -> AmPdu {
    AmPdu {
        sn,
        poll,
        segments: vec![SduSegment {
            sdu: sn,
            bytes: 100,
            sdu_bytes: 100,
            last: true,
        }],
        part: None,
    }
}

/// ns3-mmwave's status report carries one NACK (`status_max_nacks = 1`): its ACK_SN stops at
/// the next SN still missing, so the holes above are neither NACKed nor acknowledged.
#[test]
fn a_status_report_cut_to_one_nack_acknowledges_only_up_to_the_next_hole() {
    let ms = Time::from_millis;
    for (limit, nacks, ack_sn) in [(0, vec![1, 3, 5], 8), (1, vec![1], 3), (2, vec![1, 3], 5)] {
        let cfg = AmConfig {
            status_max_nacks: limit,
            ..AmConfig::default()
        };
        let mut rx = AmReceiver::new(cfg);
        for sn in [0, 2, 4, 6, 7] {
            rx.on_pdu(ms(0), whole_pdu(sn, true), |_, _, _| {});
        }
        // Two t-Reordering expiries (2 ms each) move VR(MS) to 3, then past every hole.
        rx.on_deadline(ms(2));
        rx.on_deadline(ms(4));
        let s = rx.poll_status(ms(4)).expect("triggered");
        assert_eq!((s.nacks, s.ack_sn), (nacks, ack_sn), "limit {limit}");
    }
}

/// Three holes, the tree's 10 ms timers. The first report (the first `t-Reordering` expiry,
/// VR(MS) at the hole of SN 2) NACKs SN 2 either way; the second NACKs SNs 5 and 8, or with
/// one NACK per report only SN 5, so SN 8 waits for a third report one `t-StatusProhibit`
/// later (less the 250 µs TB grid). Nothing is lost either way.
#[test]
fn one_nack_per_status_report_repairs_one_hole_per_status_prohibit() {
    let done = |limit: u32| {
        let cfg = AmConfig {
            reordering: Time::from_millis(10),
            status_prohibit: Time::from_millis(10),
            poll_retransmit: Time::from_millis(20),
            status_max_nacks: limit,
            ..AmConfig::default()
        };
        let r = run_with(cfg, &[1000; 20], 1004, 200, |sn, n| {
            n == 1 && [2, 5, 8].contains(&sn)
        });
        let order: Vec<u32> = r.delivered.iter().map(|d| d.0).collect();
        assert_eq!(order, (0..20).collect::<Vec<_>>(), "limit {limit}");
        r.delivered.last().expect("delivered").2
    };
    let (all, one) = (done(0), done(1));
    assert!(
        one >= all + Time::from_micros(9_500),
        "one NACK per report: done at {one:?}, every NACK: {all:?}"
    );
}

/// The transmitting window (TS 36.322 §5.1.3.1.1; lte-rlc-am.cc l. 687-691): with VT(A) on 0,
/// SNs 0-511 go and SN 512 waits; a retransmission still goes; a status acknowledging SN 0
/// moves VT(A) and VT(MS) = VT(A) + 512 with it, and new data resumes up to the new edge.
#[test]
fn new_pdus_stop_at_vt_a_plus_512_and_resume_when_a_status_moves_vt_a() {
    let mut tx = AmTransmitter::new(AmConfig::default());
    for sdu in 0..AM_WINDOW_SIZE + 10 {
        tx.enqueue(sdu, 100);
    }
    let (now, tb) = (Time::ZERO, 100 + AM_HEADER_BYTES);
    for sn in 0..AM_WINDOW_SIZE {
        assert_eq!(tx.transmit(now, tb).map(|p| p.sn), Some(sn));
    }
    assert!(tx.window_full());
    assert_eq!(tx.transmit(now, tb), None, "VT(S) = VT(A) + 512 = 512");
    assert!(tx.has_data(), "the buffer still reports its 10 SDUs");
    // SN 0 NACKed, 1-4 acknowledged: VT(A) stays on 0; the retransmission is not held back.
    tx.on_status(&StatusPdu {
        ack_sn: 5,
        nacks: vec![0],
    });
    assert_eq!(tx.state().0, 0, "VT(A) stops at the NACK");
    assert_eq!(tx.transmit(now, tb).map(|p| p.sn), Some(0));
    assert_eq!(tx.transmit(now, tb), None, "still no new PDU");
    // SN 0 acknowledged: VT(A) = 5, VT(MS) = 517.
    tx.on_status(&StatusPdu {
        ack_sn: 5,
        nacks: vec![],
    });
    for sn in AM_WINDOW_SIZE..AM_WINDOW_SIZE + 5 {
        assert_eq!(tx.transmit(now, tb).map(|p| p.sn), Some(sn));
    }
    assert_eq!(tx.transmit(now, tb), None, "VT(S) = 517 = VT(MS)");
    assert_eq!(tx.txon_sdus(), 5);
}

/// The receiving window (TS 36.322 §5.1.3.2.2; lte-rlc-am.cc l. 1902-1906): with VR(R) = 0,
/// SN 512 is discarded (its poll still triggers a status report) and SN 511 is held; once SN 0
/// moves VR(R) to 1, SN 512 is inside and held.
#[test]
fn the_receiver_discards_a_pdu_at_or_above_vr_r_plus_512() {
    let mut rx = AmReceiver::new(AmConfig::default());
    let t = Time::ZERO;
    let mut delivered = Vec::new();
    rx.on_pdu(t, whole_pdu(AM_WINDOW_SIZE, true), |s, _, _| {
        delivered.push(s)
    });
    assert_eq!(rx.outside_window, 1);
    assert_eq!(rx.state(), (0, 0, 0, 0), "nothing held, VR(H) unchanged");
    assert!(rx.poll_status(t).is_some(), "the poll counts");
    rx.on_pdu(t, whole_pdu(AM_WINDOW_SIZE - 1, false), |s, _, _| {
        delivered.push(s)
    });
    assert_eq!(rx.state(), (0, 0, AM_WINDOW_SIZE, 1), "SN 511 held");
    rx.on_pdu(t, whole_pdu(0, false), |s, _, _| delivered.push(s));
    rx.on_pdu(t, whole_pdu(AM_WINDOW_SIZE, false), |s, _, _| {
        delivered.push(s)
    });
    assert_eq!(
        rx.state(),
        (1, 1, AM_WINDOW_SIZE + 1, 2),
        "VR(MR) = 513: SN 512 held"
    );
    assert_eq!(rx.outside_window, 1);
    assert_eq!(delivered, vec![0]);
}

/// Sends `n` one-SDU PDUs (SN 0..n) at time zero with `extra` SDUs left behind them, and
/// returns the transmitter (t-PollRetransmit then due at 4 ms).
fn sent(cfg: AmConfig, n: u32, extra: u32) -> AmTransmitter {
    let mut tx = AmTransmitter::new(cfg);
    for sdu in 0..n + extra {
        tx.enqueue(sdu, 100);
    }
    for sn in 0..n {
        assert_eq!(
            tx.transmit(Time::ZERO, 100 + AM_HEADER_BYTES).map(|p| p.sn),
            Some(sn)
        );
    }
    tx
}

/// The SNs the next TBs carry (each polling), until the transmitter has nothing for one.
fn drain_sns(tx: &mut AmTransmitter, now: Time) -> Vec<u32> {
    std::iter::from_fn(|| tx.transmit(now, 100 + AM_HEADER_BYTES))
        .inspect(|p| assert!(p.poll))
        .map(|p| p.sn)
        .collect()
}

/// t-PollRetransmit expires with both buffers empty: the tree queues every unacknowledged PDU,
/// VT(A) to VT(S) − 1 in SN order (`ExpirePollRetransmitTimer`, lte-rlc-am.cc l. 2828-2852),
/// not the highest SN alone.
#[test]
fn poll_expiry_with_both_buffers_empty_queues_every_unacked_pdu_in_sn_order() {
    let mut tx = sent(AmConfig::default(), 3, 0);
    assert!(!tx.has_data());
    tx.on_deadline(Time::from_micros(3_999));
    assert_eq!(tx.state().2, 0, "not yet due");
    let t = Time::from_millis(4);
    tx.on_deadline(t);
    assert_eq!(tx.state(), (0, 3, 3), "SNs 0, 1, 2 queued");
    assert_eq!(drain_sns(&mut tx, t), [0, 1, 2]);
    assert_eq!(tx.retransmissions, 3);
    assert_eq!(
        tx.next_deadline(),
        Some(t + Time::from_millis(4)),
        "re-armed"
    );
}

/// t-PollRetransmit expires with the window full (VT(S) = VT(MS)) and SDUs still buffered:
/// every unacknowledged PDU is queued too, behind the one already queued by a NACK, which is
/// neither queued nor counted twice (with `max_retx` = 1 a second count would give it up).
#[test]
fn poll_expiry_with_the_window_full_queues_every_unacked_pdu_in_sn_order() {
    let cfg = AmConfig {
        max_retx: 1,
        ..AmConfig::default()
    };
    let mut tx = sent(cfg, AM_WINDOW_SIZE, 10);
    assert!(tx.window_full());
    // SN 0 NACKed, nothing acknowledged: VT(A) stays on 0, the window stays full.
    tx.on_status(&StatusPdu {
        ack_sn: 1,
        nacks: vec![0],
    });
    assert_eq!(tx.state(), (0, AM_WINDOW_SIZE, 1));
    let t = Time::from_millis(4);
    tx.on_deadline(t);
    assert_eq!(tx.abandoned, 0, "SN 0 counted once");
    assert_eq!(tx.state().2, AM_WINDOW_SIZE as usize);
    assert_eq!(
        drain_sns(&mut tx, t),
        (0..AM_WINDOW_SIZE).collect::<Vec<_>>(),
        "then no new PDU: the window is still full"
    );
    assert_eq!(tx.txon_sdus(), 10);
}

/// t-PollRetransmit expires with SDUs left and the window open: nothing is queued (TS 36.322
/// §5.2.2.3; the tree only marks the next PDU to poll, l. 2822): the next TB carries new data,
/// polls and restarts the timer.
#[test]
fn poll_expiry_with_data_left_queues_nothing_and_the_next_pdu_polls() {
    let mut tx = sent(AmConfig::default(), 3, 2);
    let t = Time::from_millis(4);
    tx.on_deadline(t);
    assert_eq!(tx.state(), (0, 3, 0), "no retransmission queued");
    assert_eq!(tx.next_deadline(), None);
    assert_eq!(drain_sns(&mut tx, t), [3, 4]);
    assert_eq!(tx.retransmissions, 0);
    assert_eq!(tx.next_deadline(), Some(t + Time::from_millis(4)));
}

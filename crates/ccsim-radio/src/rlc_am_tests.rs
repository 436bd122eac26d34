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
    let cfg = AmConfig::default();
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

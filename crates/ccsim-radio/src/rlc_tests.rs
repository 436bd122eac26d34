//! Unit tests of [`crate::rlc`] (a separate file to keep `rlc.rs` short).
use super::*;

#[test]
fn drop_tail_counts_drops() {
    let mut b = RlcBuffer::new(3000);
    assert_eq!(b.enqueue(1, 1500), RlcAdmission::Accepted);
    assert_eq!(b.enqueue(2, 1500), RlcAdmission::Accepted);
    assert_eq!(b.enqueue(3, 1), RlcAdmission::Dropped);
    assert_eq!(
        (b.drops, b.dropped_bytes, b.bytes(), b.packets()),
        (1, 1, 3000, 2)
    );
    assert_eq!(b.max_bytes, 3000);
}

#[test]
fn segmentation_and_drain() {
    let mut b = RlcBuffer::new(1 << 20);
    for p in 0..3 {
        assert_eq!(b.enqueue(p, 1000), RlcAdmission::Accepted);
    }
    let mut segs = Vec::new();
    assert_eq!(b.take(1500, |s| segs.push(s)), 1500);
    assert_eq!(
        segs,
        vec![
            Segment {
                packet: 0,
                bytes: 1000,
                first: true,
                last: true,
            },
            Segment {
                packet: 1,
                bytes: 500,
                first: true,
                last: false,
            },
        ]
    );
    assert_eq!(b.bytes(), 1500);
    segs.clear();
    b.take(600, |s| segs.push(s));
    assert_eq!(
        segs[0],
        Segment {
            packet: 1,
            bytes: 500,
            first: false,
            last: true,
        }
    );
    assert_eq!(
        segs[1],
        Segment {
            packet: 2,
            bytes: 100,
            first: true,
            last: false,
        }
    );
    let mut drained = Vec::new();
    b.drain(|p, s| drained.push((p, s)));
    assert_eq!(drained, vec![(2, 1000)]);
    assert_eq!(b.bytes(), 0);
    assert!(b.is_empty());
}

#[test]
fn harq_off_is_instant_and_lossless() {
    let mut rng = RngStream::new(1, "h");
    let harq = HarqConfig {
        enabled: false,
        ..HarqConfig::default()
    };
    let o = draw_tb_outcome(
        &mut rng,
        &harq,
        &RlcConfig::default(),
        Time::from_micros(250),
        |_| panic!(),
    );
    assert_eq!(
        o,
        TbOutcome {
            transmissions: 1,
            rlc_retx: 0,
            lost: false,
            extra_delay: Time::ZERO
        }
    );
}

#[test]
fn harq_statistics_match_the_geometric_law() {
    let mut rng = RngStream::new(3, "harq");
    let harq = HarqConfig::default();
    let rlc = RlcConfig::default();
    let slot = Time::from_micros(250);
    let n = 100_000;
    let (mut retx, mut delayed, mut rlc_rounds) = (0u64, 0u64, 0u64);
    for _ in 0..n {
        let mut resends = 0;
        let o = draw_tb_outcome(&mut rng, &harq, &rlc, slot, |off| {
            resends += 1;
            assert!(off > Time::ZERO);
        });
        assert!(!o.lost);
        assert_eq!(o.transmissions, 1 + resends);
        retx += (o.transmissions - 1) as u64;
        delayed += (o.extra_delay > Time::ZERO) as u64;
        rlc_rounds += o.rlc_retx as u64;
    }
    // P(first attempt fails) = 0.1; E[retransmissions] ≈ 0.1 + 0.01 + 0.001 = 0.111.
    let f = delayed as f64 / n as f64;
    assert!((f - 0.1).abs() < 0.005, "{f}");
    let m = retx as f64 / n as f64;
    assert!((m - 0.111).abs() < 0.006, "{m}");
    // P(all 4 attempts fail) = 1e-4 -> about 10 RLC rounds in 1e5 TBs.
    assert!(rlc_rounds < 40);
}

#[test]
fn delays_add_up_and_um_loses() {
    let mut rng = RngStream::new(9, "always-fail");
    let slot = Time::from_micros(250);
    // Every attempt fails: AM gives up after max_retx rounds.
    let harq = HarqConfig {
        bler: 1.0,
        retx_bler: 1.0,
        ..HarqConfig::default()
    };
    let rlc = RlcConfig {
        max_retx: 2,
        ..RlcConfig::default()
    };
    let mut offs = Vec::new();
    let o = draw_tb_outcome(&mut rng, &harq, &rlc, slot, |t| offs.push(t));
    assert!(o.lost);
    assert_eq!(o.rlc_retx, 2);
    // 3 rounds of 4 attempts = 12 transmissions.
    assert_eq!(o.transmissions, 12);
    // Offsets: 1, 2, 3 ms, then +4 ms RLC, ...
    assert_eq!(offs[0], Time::from_millis(1));
    assert_eq!(offs[3], Time::from_millis(7));
    let um = RlcConfig {
        mode: RlcMode::Um,
        ..RlcConfig::default()
    };
    let o = draw_tb_outcome(&mut rng, &harq, &um, slot, |_| {});
    assert!(o.lost);
    assert_eq!(o.transmissions, 4);
    // One failure then success: one HARQ RTT of extra delay.
    let once = HarqConfig {
        bler: 1.0,
        retx_bler: 0.0,
        ..HarqConfig::default()
    };
    let o = draw_tb_outcome(&mut rng, &once, &RlcConfig::default(), slot, |_| {});
    assert_eq!(o.extra_delay, Time::from_millis(1));
    assert_eq!(o.transmissions, 2);
}

/// `take` against a byte-by-byte model of the FIFO, with budgets that end inside, at the
/// end of and past packets, across the wrap-around of the queue's ring (its two slices),
/// and with `push_front` of handover copies in between.
#[test]
fn take_matches_a_byte_model_across_the_ring_wrap() {
    let mut b = RlcBuffer::new(1 << 20);
    // The model: (packet, size, bytes already sent) in order.
    let mut model: VecDeque<(u32, u32, u32)> = VecDeque::new();
    let mut s = 99u64;
    let mut next = 0u32;
    for round in 0..3_000 {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let r = (s >> 33) as u32;
        if !r.is_multiple_of(3) || model.is_empty() {
            let size = 20 + r % 1500;
            if round % 97 == 0 {
                assert_eq!(b.push_front(next, size), RlcAdmission::Accepted);
                let at = usize::from(model.front().is_some_and(|f| f.2 > 0));
                model.insert(at, (next, size, 0));
            } else {
                assert_eq!(b.enqueue(next, size), RlcAdmission::Accepted);
                model.push_back((next, size, 0));
            }
            next += 1;
            continue;
        }
        let budget = u64::from(r % 9_000);
        let mut want = Vec::new();
        let mut left = budget;
        while left > 0 {
            let Some(h) = model.front_mut() else { break };
            let n = u64::from(h.1 - h.2).min(left);
            let seg = Segment {
                packet: h.0,
                bytes: n as u32,
                first: h.2 == 0,
                last: n == u64::from(h.1 - h.2),
            };
            left -= n;
            h.2 += n as u32;
            if seg.last {
                model.pop_front();
            }
            want.push(seg);
        }
        let mut got = Vec::new();
        assert_eq!(b.take(budget, |seg| got.push(seg)), budget - left);
        assert_eq!(got, want, "round {round}");
        let unsent: u64 = model.iter().map(|m| u64::from(m.1 - m.2)).sum();
        assert_eq!((b.bytes(), b.packets()), (unsent, model.len()));
        assert_eq!(b.head_partly_sent(), model.front().is_some_and(|m| m.2 > 0));
    }
}

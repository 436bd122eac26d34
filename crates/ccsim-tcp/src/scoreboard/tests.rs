//! Scoreboard cases: SACK, loss marks, re-cut retransmissions, RTO.

use super::*;

const MSS: u32 = 1000;

fn board(n: u64) -> Scoreboard {
    let mut sb = Scoreboard::new(3);
    for i in 0..n {
        sb.on_new_segment(i * MSS as u64, MSS, Time::ZERO);
    }
    sb
}

/// A lost segment 1 is retransmitted and the retransmission is SACKed while the head (0)
/// is still missing: RFC pipe drops it at once, ns-3.44 only at the cumulative ACK.
#[test]
fn sacked_retransmission_leaves_pipe_at_once_or_at_the_cumulative_ack() {
    for ns3 in [false, true] {
        let mut sb = board(10).with_ns3_sacked_retx_in_flight(ns3);
        sb.on_sack(&[(2000, 6000)]);
        assert_eq!(sb.lost_bytes(), 2000, "segments 0 and 1 are lost");
        sb.on_retransmit(1000, Time::ZERO);
        let before = sb.bytes_in_flight();
        sb.on_sack(&[(1000, 6000)]);
        let expected = if ns3 { before } else { before - 1000 };
        assert_eq!(sb.bytes_in_flight(), expected, "ns3 quirk {ns3}");
        // The cumulative ACK past both settles the accounting either way.
        sb.on_retransmit(0, Time::ZERO);
        sb.on_cumulative_ack(6000);
        assert_eq!(sb.bytes_in_flight(), 4000);
    }
}

/// ns-3.44 `GetTransmittedSegment` caps the size at the segment plus the next one, so a
/// short segment followed by another short one is resent short (seed 002 over IPv4
/// fragments: 9488 B + 240 B go out as 9728 B, not as 10 000 B).
#[test]
fn a_recut_merges_at_most_two_segments() {
    let mut sb = Scoreboard::new(3);
    let sizes = [600, 200, 1000, 1000, 1000, 1000];
    let mut seq = 0;
    for len in sizes {
        sb.on_new_segment(seq, len, Time::ZERO);
        seq += len as u64;
    }
    sb.on_sack(&[(1800, 4800)]);
    assert_eq!(sb.recut(0, 1000), 800);
    sb.on_retransmit(0, Time::ZERO);
    // The third segment is whole again and next in line.
    assert_eq!(sb.next_lost(), Some((800, 1000)));
}

/// ns-3.44 `GetTransmittedSegment`: a short lost segment is resent as a whole MSS by
/// taking the start of the next one when that one is equally marked and not SACKed.
#[test]
fn a_short_segment_is_recut_to_a_whole_segment_for_its_retransmission() {
    let mut sb = Scoreboard::new(3);
    let sizes = [600, 1000, 1000, 1000, 1000, 1000];
    let mut seq = 0;
    for len in sizes {
        sb.on_new_segment(seq, len, Time::ZERO);
        seq += len as u64;
    }
    // SACK the last three: segments 0–2 are lost (dupthresh 3).
    sb.on_sack(&[(2600, 5600)]);
    assert_eq!(sb.lost_bytes(), 2600);
    let pipe = sb.bytes_in_flight();
    // Segment 0 (600 B) takes 400 B of segment 1, which keeps 600 B.
    assert_eq!(sb.recut(0, 1000), 1000);
    sb.on_retransmit(0, Time::ZERO);
    assert_eq!(sb.next_lost(), Some((1000, 600)));
    assert_eq!(sb.lost_bytes(), 2600, "the same bytes are lost");
    assert_eq!(sb.bytes_in_flight(), pipe + 1000);
    // Segment 2 is followed by a SACKed one: it stays as it is.
    assert_eq!(sb.recut(1600, 1000), 1000);
    sb.on_retransmit(1000, Time::ZERO);
    assert_eq!(sb.recut(1600, 1000), 1000);
    // A lost segment next to an unlost one is not merged (their marks differ).
    let mut sb = Scoreboard::new(3);
    sb.on_new_segment(0, 600, Time::ZERO);
    sb.on_new_segment(600, 1000, Time::ZERO);
    sb.mark_head_lost();
    assert_eq!(sb.recut(0, 1000), 600);
    // The cumulative ACK of everything settles the counts.
    sb.on_retransmit(0, Time::ZERO);
    sb.on_cumulative_ack(1600);
    assert_eq!(
        (
            sb.bytes_in_flight(),
            sb.lost_bytes(),
            sb.retransmitted_bytes()
        ),
        (0, 0, 0)
    );
}

/// A block that extends the previous ACK's block only walks the new part, yet a segment
/// straddling the old block's end is still SACKed once the new block covers it.
#[test]
fn sack_cache_skips_applied_ranges_but_not_straddling_segments() {
    let mut sb = board(10);
    assert_eq!(sb.on_sack(&[(2000, 5000)]).newly_sacked_bytes, 3000);
    assert_eq!(sb.on_sack(&[(2000, 5000)]).newly_sacked_bytes, 0);
    assert_eq!(sb.on_sack(&[(2000, 7500)]).newly_sacked_bytes, 2000);
    assert_eq!(sb.on_sack(&[(2000, 8000)]).newly_sacked_bytes, 1000);
    // Uneven segments: the first block ends inside [600, 1600), which the next one covers.
    let mut sb = Scoreboard::new(3);
    for (seq, len) in [(0, 600), (600, 1000), (1600, 1000), (2600, 1000)] {
        sb.on_new_segment(seq, len, Time::ZERO);
    }
    assert_eq!(sb.on_sack(&[(1600, 2100)]).newly_sacked_bytes, 0);
    assert_eq!(sb.on_sack(&[(1600, 2600)]).newly_sacked_bytes, 1000);
    assert_eq!(sb.on_sack(&[(600, 1100)]).newly_sacked_bytes, 0);
    assert_eq!(sb.on_sack(&[(600, 2600)]).newly_sacked_bytes, 1000);
    assert_eq!(sb.sacked_bytes(), 2000);
}

#[test]
fn three_sacked_segments_mark_the_hole_lost() {
    let mut sb = board(10);
    assert_eq!(sb.bytes_in_flight(), 10_000);
    sb.on_sack(&[(1000, 3000)]);
    assert!(!sb.head_is_lost());
    assert_eq!(sb.bytes_in_flight(), 8_000);
    sb.on_sack(&[(1000, 4000)]);
    assert!(sb.head_is_lost());
    // 10 out − 3 sacked − 1 lost.
    assert_eq!(sb.bytes_in_flight(), 6_000);
    assert_eq!(sb.next_lost(), Some((0, MSS)));
    sb.on_retransmit(0, Time::ZERO);
    assert_eq!(sb.bytes_in_flight(), 7_000);
    assert_eq!(sb.next_lost(), None);
    let (newly, retx) = sb.on_cumulative_ack(4000);
    assert_eq!(newly, 1000);
    assert!(retx);
    assert_eq!(sb.bytes_in_flight(), 6_000);
    assert_eq!(sb.sacked_bytes(), 0);
}

/// After a timeout every unSACKed segment is lost; with RFC 6675 (1.b) (ns-3.44) only those
/// below the highest SACKed segment are candidates for retransmission.
#[test]
fn rule_1b_leaves_lost_segments_above_the_highest_sack() {
    for rule_1b in [false, true] {
        let mut sb = board(6).with_rule1_below_highest_sack(rule_1b);
        sb.on_sack(&[(2000, 3000)]);
        sb.mark_all_lost();
        let mut order = vec![];
        while let Some((seq, _)) = sb.next_lost() {
            sb.on_retransmit(seq, Time::ZERO);
            order.push(seq);
        }
        let want: &[u64] = if rule_1b {
            &[0, 1000]
        } else {
            &[0, 1000, 3000, 4000, 5000]
        };
        assert_eq!(order, want, "rule 1b {rule_1b}");
    }
}

#[test]
fn rto_marks_everything_unsacked_lost() {
    let mut sb = board(5);
    sb.on_sack(&[(3000, 4000)]);
    sb.mark_all_lost();
    assert_eq!(sb.bytes_in_flight(), 0);
    let mut order = vec![];
    while let Some((seq, _)) = sb.next_lost() {
        sb.on_retransmit(seq, Time::ZERO);
        order.push(seq);
    }
    assert_eq!(order, vec![0, 1000, 2000, 4000]);
    assert_eq!(sb.bytes_in_flight(), 4000);
}

#[test]
fn partial_block_does_not_sack_a_segment() {
    let mut sb = board(3);
    let u = sb.on_sack(&[(1500, 2500)]);
    assert_eq!(u.newly_sacked_bytes, 0);
    let u = sb.on_sack(&[(1000, 3000)]);
    assert_eq!(u.newly_sacked_bytes, 2000);
}

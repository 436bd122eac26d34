use super::*;

/// A transmission: (slot, process, rv, the data still on the process).
type Sent = (u64, u8, u8, Option<u64>);

/// One UE's processes driven slot by slot: `fails` lists the (slot, rv) transmissions the UE
/// does not decode; a new TB (data = its slot) is sent in each slot of `new_tbs` with `units`
/// of a 12-unit slot. Returns the transmissions as (slot, process, rv, data of the process).
fn drive(
    copies: u8,
    units: u64,
    new_tbs: &[u64],
    fails: &[(u64, u8)],
    slots: u64,
) -> (Vec<Sent>, HarqStats) {
    let mut h: HarqProcesses<u64> = HarqProcesses::new(1, 20, 20, 4, copies);
    let mut sent = Vec::new();
    for k in 0..slots {
        h.begin_slot(k);
        let mut on_air = Vec::new();
        let left = h.schedule_retransmissions(12, |h, r| {
            let data = h.process(0, r.process).data;
            on_air.push((r.process, r.rv, data));
            true
        });
        if new_tbs.contains(&k) && left >= units {
            let p = h.new_tb(k, 0, units, 1000, 28, k);
            on_air.push((p, 0, Some(k)));
        }
        for (p, rv, data) in on_air {
            let ok = !fails.contains(&(k, rv));
            let proc = h.process_mut(0, p);
            if ok {
                proc.data = None; // decoded: the PDU went to the UE's RLC
            } else if rv == 0 {
                proc.first_failed = true;
                h.stats.failed_first += 1;
            }
            h.feedback(k, 0, p, ok);
            sent.push((k, p, rv, data));
        }
    }
    (sent, h.stats)
}

#[test]
fn a_nack_sent_twice_gives_two_retransmissions() {
    // An 11-symbol TB fails in slot 0: its NACK reaches the scheduler at slot 4 twice; the
    // first copy resends it (rv 1), the second does not fit the one symbol left and waits
    // for slot 5 (rv 2), as in the tree's trace (retransmissions 4 and 5 slots later).
    let (sent, _) = drive(2, 11, &[0], &[(0, 0)], 12);
    assert_eq!(
        sent,
        vec![(0, 0, 0, Some(0)), (4, 0, 1, Some(0)), (5, 0, 2, None)]
    );
    // One copy: one retransmission.
    let (sent, _) = drive(1, 11, &[0], &[(0, 0)], 12);
    assert_eq!(sent, vec![(0, 0, 0, Some(0)), (4, 0, 1, Some(0))]);
    // A 12-symbol TB's first copy takes the whole slot: the tree's loop stops there and
    // drops the second copy with the rest of the list.
    let (sent, _) = drive(2, 12, &[0], &[(0, 0)], 12);
    assert_eq!(sent, vec![(0, 0, 0, Some(0)), (4, 0, 1, Some(0))]);
}

#[test]
fn a_second_ack_copy_loses_a_failed_tb_to_rlc() {
    // TB 0 fails and is resent at slots 4 and 5 (both decode). Their ACKs free process 0 at
    // slot 8, where TB 8 takes it; the rv 2 copy's ACK at slot 9 frees it again and empties
    // TB 8's buffer, and TB 9 takes process 0. TB 8 failed: its NACK at slot 12 resends
    // process 0's current TB, 9, so TB 8 is never resent by HARQ and its data is lost.
    let new_tbs = [0, 8, 9];
    let fails = [(0, 0), (8, 0)];
    let (sent, stats) = drive(2, 11, &new_tbs, &fails, 14);
    assert!(sent.contains(&(8, 0, 0, Some(8))), "{sent:?}");
    assert!(sent.contains(&(9, 0, 0, Some(9))), "{sent:?}");
    let at12: Vec<_> = sent.iter().filter(|s| s.0 == 12).collect();
    assert_eq!(
        at12,
        vec![&(12, 0, 1, None)],
        "TB 9 (decoded) resent in TB 8's place"
    );
    assert_eq!(stats.failed_first, 2);
    assert_eq!(stats.never_resent, 1);
    assert_eq!(stats.lost, 1);
    // With one copy, process 0 stays busy until TB 8's NACK, which resends TB 8 itself.
    let (sent, stats) = drive(1, 11, &new_tbs, &fails, 14);
    assert!(sent.contains(&(12, 0, 1, Some(8))), "{sent:?}");
    assert_eq!((stats.never_resent, stats.lost), (0, 0));
}

#[test]
fn new_tbs_take_the_lowest_free_process_and_timeouts_free_them() {
    let mut h: HarqProcesses<u64> = HarqProcesses::new(2, 3, 20, 4, 1);
    for k in 0..3 {
        h.begin_slot(k);
        assert_eq!(h.new_tb(k, 1, 1, 1, 0, k), k as u8);
    }
    assert_eq!(h.free_process(1), None);
    assert_eq!(h.free_process(0), Some(0));
    // No feedback ever comes: each process is freed 21 slots after its TB (the tree's timer
    // reaches HarqDlTimeout = 20 at the 21st scheduling call).
    h.begin_slot(20);
    assert_eq!(h.free_process(1), None);
    h.begin_slot(21);
    assert_eq!(h.free_process(1), Some(0));
    // A UE leaving the cell drops its processes.
    h.reset_ue(1);
    assert!((0..3).all(|p| h.process(1, p).status == 0));
}

//! The tree's own HARQ sequence replayed through [`HarqProcesses`]: the traced rerun of BBR
//! 4 MB seed 4, 5.00-5.45 s (`validation/golden/ns3-mmwave/trace/bbr_4MB_s4_harq.csv.gz`, one
//! row per DL TB with its process, NDI, rv and decoding; the symbols from `_tb.csv.gz`; made by
//! `validation/ns3-mmwave/README.md` section 10.2). Each slot gets the tree's load (its TBs'
//! symbols, new data or not) and the tree's decoding of each transmission; ccsim's scheduler
//! picks the processes and the retransmissions.
use super::*;
use std::path::PathBuf;

struct TreeTb {
    slot: u64,
    process: u8,
    ndi: bool,
    rv: u8,
    corrupt: bool,
    symbols: u64,
}

fn gunzip_rows(name: &str) -> Vec<Vec<String>> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../validation/golden/ns3-mmwave/trace")
        .join(name);
    let out = std::process::Command::new("gzip")
        .arg("-dc")
        .arg(&path)
        .output()
        .expect("gzip runs");
    assert!(out.status.success(), "cannot read {}", path.display());
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let rows = text.lines().skip(1);
    rows.map(|l| l.split(',').map(str::to_string).collect())
        .collect()
}

fn tree_window() -> Vec<TreeTb> {
    let harq = gunzip_rows("bbr_4MB_s4_harq.csv.gz");
    let (t0, t1) = (harq[0][0].clone(), harq[harq.len() - 1][0].clone());
    let in_window = |r: &&Vec<String>| {
        let t: u64 = r[0].parse().unwrap();
        t >= t0.parse().unwrap() && t <= t1.parse().unwrap()
    };
    let tb = gunzip_rows("bbr_4MB_s4_tb.csv.gz");
    let tb: Vec<&Vec<String>> = tb.iter().filter(in_window).collect();
    assert_eq!(tb.len(), harq.len(), "the two traces have the same TBs");
    harq.iter()
        .zip(tb)
        .map(|(h, t)| {
            assert_eq!(h[0], t[0], "same TB in both traces");
            TreeTb {
                slot: h[0].parse::<u64>().unwrap() / 250,
                process: h[1].parse().unwrap(),
                ndi: h[2] == "1",
                rv: h[3].parse().unwrap(),
                corrupt: h[5] == "1",
                symbols: t[8].parse().unwrap(),
            }
        })
        .collect()
}

/// Per slot with a transmission in either: (slot, the tree's, ccsim's), each "new p<id>" or
/// "retx p<id> rv<rv>" joined by " + ".
fn replay(copies: u8) -> Vec<(u64, String, String)> {
    let rows = tree_window();
    let mut h: HarqProcesses<()> = HarqProcesses::new(1, 20, 20, 4, copies);
    // Before the window: the first four slots' new TBs take processes 1, 2, 3, 0 in turn, so
    // each of them carried a TB four slots earlier that decoded (a saturated link).
    for (j, p) in [1u8, 2, 3, 0].into_iter().enumerate() {
        let k = rows[0].slot - 4 + j as u64;
        h.begin_slot(k);
        let q = h.process_mut(0, p);
        (q.status, q.assigned_slot, q.buffered, q.units) = (1, k, true, 12);
        h.feedback(k, 0, p, true);
    }
    let mut out = Vec::new();
    let mut i = 0;
    for k in rows[0].slot..=rows[rows.len() - 1].slot {
        let n = rows[i..].iter().take_while(|r| r.slot == k).count();
        let tree = &rows[i..i + n];
        i += n;
        h.begin_slot(k);
        // The slot's symbols: those the tree used if it sent new data (which takes what is
        // left), else a full slot (the trace does not say whether uplink data took one).
        let units = match tree.iter().any(|t| t.ndi) {
            true => tree.iter().map(|r| r.symbols).sum(),
            false => 12,
        };
        let mut mine = Vec::new();
        h.schedule_retransmissions(units, |h, r| {
            // The tree's decoding of that version (an emptied buffer's empty PDU included);
            // a version the tree did not send fails.
            let ok = tree
                .iter()
                .any(|t| !t.ndi && t.process == r.process && t.rv == r.rv && !t.corrupt);
            h.feedback(k, 0, r.process, ok);
            mine.push(format!("retx p{} rv{}", r.process, r.rv));
            true
        });
        for t in tree.iter().filter(|t| t.ndi) {
            if h.free_process(0).is_some() {
                let p = h.new_tb(k, 0, t.symbols, 0, 0, ());
                h.feedback(k, 0, p, !t.corrupt);
                mine.push(format!("new p{p}"));
            }
        }
        let theirs: Vec<String> = tree
            .iter()
            .map(|t| match t.ndi {
                true => format!("new p{}", t.process),
                false => format!("retx p{} rv{}", t.process, t.rv),
            })
            .collect();
        if n > 0 || !mine.is_empty() {
            out.push((k, theirs.join(" + "), mine.join(" + ")));
        }
    }
    out
}

#[test]
fn the_tree_s_harq_sequence_replays_slot_by_slot() {
    // Each of the tree's 750 slots with a TB: the same new TBs on the same processes, the same
    // retransmissions (process and rv) in the same slots: the doubled feedback, the lowest
    // free process, the list dropped when the slot is full, an empty PDU acknowledged.
    let all = replay(2);
    let differ: Vec<_> = all.iter().filter(|(_, t, m)| t != m).collect();
    assert_eq!(all.len(), 750);
    assert!(
        differ.is_empty(),
        "{} of {} differ: {differ:?}",
        differ.len(),
        all.len()
    );
    // Acted on once, the feedback gives other processes and retransmissions.
    let once = replay(1);
    assert!(once.iter().filter(|(_, t, m)| t != m).count() > 100);
}

"""Seed 002 over seeds 2-7 (validation/ns3-mmwave/stall_rates.py, compare_ccsim.py): the stall
and collapse statistic on hand-made bins, and the tree's facts validation/report.md quotes
("Over seeds 2-7") read from the committed golden data and the seed 6 trace."""

from __future__ import annotations

import csv
import gzip
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "validation" / "ns3-mmwave"))
import compare_ccsim as cc  # noqa: E402
import stall_rates as sr  # noqa: E402
from rlc_stalls import stalls  # noqa: E402

TRACE = ROOT / "validation" / "golden" / "ns3-mmwave" / "trace"


def bins(pattern: str, t0: float = 0.0) -> list[tuple[float, bool]]:
    """10 ms bins from a string: 'x' stalled, '.' not."""
    return [(round(t0 + 0.01 * i, 2), ch == "x") for i, ch in enumerate(pattern)]


def test_stalls_keep_runs_of_the_minimum_length_and_one_still_running_at_the_end():
    b = bins("..xxxxxxxxxx..xxx..xxxxxxxxxxxx")
    assert stalls(b, 100.0) == [(0.02, 100), (0.19, 120)]
    assert stalls(b, 30.0) == [(0.02, 100), (0.14, 30), (0.19, 120)]
    assert stalls(bins("...."), 10.0) == []


def test_run_stats_flags_a_collapse_and_stalls_that_end_in_an_rto():
    # 15 s of 10 ms bins: 500 Mb/s, then from 11 s one bin with a segment every 500 ms.
    goodput = [
        (round(0.01 * i, 2), 500.0 if i < 1100 else (8.0 if i % 50 == 0 else 0.0))
        for i in range(1500)
    ]
    stalled = [(t, g == 0 and 10.5 <= t < 11.5) for t, g in goodput]
    r = sr.run_stats(stalled, goodput, rto_times=[11.51], min_ms=100.0)
    assert r["collapse"] and r["los1"] == 500.0 and r["los2"] < 250
    assert r["stalls"] == [(11.01, 490)] and r["rto_stalls"] == [(11.01, 490)]
    assert r["idle_los2_ms"] == 490
    healthy = sr.run_stats(stalled, [(t, 500.0) for t, _ in goodput], [], 100.0)
    assert not healthy["collapse"] and healthy["rto_stalls"] == []


def test_a_phase_without_reference_samples_is_left_out_of_the_means():
    assert cc.within(None, 50.0) is None
    assert cc.within(0.0, 0.0) and not cc.within(0.0, 400.0)
    assert cc.within(100.0, 109.0) and not cc.within(100.0, 111.0)
    assert cc.mean_pair([(10.0, 20.0), (None, 99.0), (30.0, 40.0)]) == (20.0, 30.0)
    assert cc.mean_pair([(None, 4.0), (None, 6.0)]) == (None, 5.0)


def test_the_tree_collapses_after_los_returns_in_the_seeds_the_report_names():
    assert sr.reference_seeds() == [2, 3, 4, 5, 6, 7]
    collapsed = {
        (short, rlc): [s for s in range(2, 8) if sr.tree_run(short, rlc, s, 100.0)["collapse"]]
        for short, rlc in sr.RUNS
    }
    assert collapsed == {
        ("bbr", "4MB"): [4, 5, 6, 7],
        ("bbr", "7MB"): [6, 7],
        ("siad", "4MB"): [7],
        ("siad", "7MB"): [],
    }


def test_seed_6_rlc_deadlock_in_the_traced_rerun():
    with gzip.open(TRACE / "bbr_7MB_s6_rlc.csv.gz", "rt") as f:
        rows = [r for r in csv.DictReader(f)]
    at = {int(r["t_us"]) // 1000: r for r in rows}
    # The UE waits for SN 459 for the rest of the trace ...
    assert all(r["ue_vr_r"] == "459" for r in rows if int(r["t_us"]) >= 5_301_000)
    # ... which the gNB held unacknowledged at 5.302 s and counts as acknowledged 1 ms later.
    assert at[5302]["vt_a"] == "459" and int(at[5302]["txed_n"]) > 0
    assert at[5303]["vt_a"] == at[5303]["vt_s"] == "469" and at[5303]["txed_n"] == "0"
    # The UE's receive window fills (VR(H) = VR(R) + 512) and never moves again.
    assert all(r["ue_vr_h"] == "971" for r in rows if int(r["t_us"]) >= 5_450_000)


def test_seeds_5_and_7_bbr_collapse_on_ns3_33_rate_samples_timed_from_zero():
    for seed, echo_s, floor_bps in ((5, 9.91, 100e3), (7, 11.91, 30e3)):
        meta = (TRACE / f"bbr_4MB_s{seed}.json").read_text()
        assert '"bins_differing": 0' in meta
        with gzip.open(TRACE / f"bbr_4MB_s{seed}_rate.csv.gz", "rt") as f:
            rate = list(csv.DictReader(f))
        # ACK intervals measured from time 0: as long as the run so far, at a few kb/s.
        long = [r for r in rate if int(r["interval_us"]) > 1_000_000]
        assert long and all(abs(int(r["interval_us"]) / 1e6 - echo_s) < 0.2 for r in long)
        with gzip.open(TRACE / f"bbr_4MB_s{seed}_tcp.csv.gz", "rt") as f:
            tcp = list(csv.DictReader(f))
        btlbw = [int(r["bbr_btlbw_bps"]) for r in tcp]
        assert btlbw[0] > 500e6 and min(btlbw) < floor_bps


def _trace(run: str, kind: str) -> list[dict]:
    with gzip.open(TRACE / f"{run}_{kind}.csv.gz", "rt") as f:
        return list(csv.DictReader(f))


def _us(r: dict) -> int:
    return int(r["t_us"])


def test_seed_7_permanent_stall_is_the_segment_rule_after_harq_reorders_two_segments():
    assert '"bins_differing": 0' in (TRACE / "bbr_7MB_s7.json").read_text()
    rlc = _trace("bbr_7MB_s7", "rlc")
    # From 9.982 s the UE waits for SN 370 to the end of the trace (and the golden series shows
    # the gNB's 3.64 MB unacknowledged to 15 s); the gNB resends it every 2 ms.
    stuck = [r for r in rlc if _us(r) >= 9_982_000]
    assert all(r["ue_vr_r"] == "370" and r["vt_a"] == "370" for r in stuck)
    assert int(stuck[-1]["max_retx_count"]) >= 280 and int(stuck[-1]["txed_bytes"]) > 3_600_000
    ue_rx = [r for r in _trace("bbr_7MB_s7", "pdu") if r["who"] == "ue" and r["dir"] == "rx"]
    # The NACKed 20 560-byte PDU went out re-segmented beside a 2-byte status: its tail (33 B)
    # reached the UE first and was dropped (no entry for SN 370, offset > 0), then the head
    # (20 552 B, offset 0), HARQ-retransmitted, made an incomplete entry ...
    tail = next(r for r in ue_rx if _us(r) >= 9_983_000)
    head = next(r for r in ue_rx if _us(r) > _us(tail) and int(r["bytes"]) > 1000)
    assert (_us(tail), tail["bytes"]) == (9_983_182, "33")
    assert (_us(head), head["bytes"], head["ue_vr_r"]) == (9_983_932, "20552", "370")
    tbs = {_us(r): r for r in _trace("bbr_7MB_s7", "tb")}
    assert tbs[9_982_732]["corrupt"] == "1" and tbs[9_983_732]["rv"] == "1"
    # ... and every later copy came whole and left VR(R) at 370.
    whole = [r for r in ue_rx if _us(r) > _us(head) and r["bytes"] == "20560"]
    assert len(whole) >= 280 and all(r["ue_vr_r"] == "370" for r in whole)


def test_seed_6_siad_stall_in_los_is_the_segment_rule_and_ends_when_tbs_shrink():
    assert '"bins_differing": 0' in (TRACE / "siad_4MB_s6.json").read_text()
    rlc = {_us(r) // 1000: r for r in _trace("siad_4MB_s6", "rlc")}
    assert all(rlc[ms]["ue_vr_r"] == "720" for ms in range(1626, 5015))
    assert int(rlc[5014]["max_retx_count"]) > 1000 and rlc[5015]["ue_vr_r"] == "726"
    ue_rx = [r for r in _trace("siad_4MB_s6", "pdu") if r["who"] == "ue" and r["dir"] == "rx"]
    early = [r for r in ue_rx if 1_626_000 <= _us(r) < 1_800_000]
    assert [r["bytes"] for r in early].count("23109") == 1  # the head segment
    assert sum(r["bytes"] == "23117" and r["ue_vr_r"] == "720" for r in early) > 100
    # In NLOS the TBs fall to ~4 kB: SN 720 goes out in segments and completes at 5.015 s.
    late = [r for r in ue_rx if 5_003_000 <= _us(r) < 5_014_900]
    assert late and max(int(r["bytes"]) for r in late) < 6000


def test_seed_7_siad_7mb_recoveries_resend_only_segments_the_ue_had():
    import trace_evidence as ev

    ip, tcp = _trace("siad_7MB_s7", "ip"), _trace("siad_7MB_s7", "tcp")
    r = ev.reordering(ip, tcp)
    assert r["ip_drops"] == 0 and r["fragments_interleaved"] > 1000
    assert r["retransmissions"] == r["retransmitted_segments_the_ue_already_had"] == 136


def test_seed_5_bbr_leaves_probertt_with_probertt_bandwidth():
    post = [r for r in _trace("bbr_7MB_s5", "tcp") if r["ev"] == "post"]
    probe = [r for r in post if r["bbr_state"] == "3"]  # PROBE_RTT
    assert int(probe[0]["bbr_btlbw_bps"]) > 500e6
    exit_ = next(r for r in post if _us(r) > _us(probe[-1]))
    assert int(exit_["bbr_round"]) - int(probe[0]["bbr_round"]) >= 8
    assert int(exit_["bbr_btlbw_bps"]) < 20e6 and int(exit_["cwnd"]) < 200_000


def test_the_trees_acks_reach_the_sender_in_bursts_on_the_slot_grid():
    # BBR 7 MB seed 5 at full rate in LOS, before ProbeRTT (validation/report.md, the ACK
    # batching bullet): ACKs arrive together, 2-7 at a time, at instants a whole number of
    # 250 us slots apart.
    acks = [
        _us(r)
        for r in _trace("bbr_7MB_s5", "tcp")
        if r["ev"] == "ack" and 10_000_000 <= _us(r) < 10_049_000
    ]
    instants = sorted(set(acks))
    gaps = [b - a for a, b in zip(instants, instants[1:])]
    assert len(acks) > 3 * len(instants)
    assert all(g % 250 == 0 for g in gaps) and sorted(gaps)[len(gaps) // 2] == 500
    assert max(acks.count(t) for t in instants) >= 5

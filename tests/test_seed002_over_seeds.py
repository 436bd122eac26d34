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

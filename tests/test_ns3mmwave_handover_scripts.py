"""validation/ns3-mmwave's handover and seed 000 comparison helpers: the report-table spread and
its Rician K (handover_channel.py), the per-phase windows of compare_seed000.py and the
mmWave-handover filter of compare_handover.py, and the blocked link's RLC holes (rlc_holes.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "validation" / "ns3-mmwave"))
import compare_handover  # noqa: E402
import compare_seed000  # noqa: E402
import handover_channel  # noqa: E402
import rlc_holes  # noqa: E402


def test_rician_db_spread_spans_los_to_rayleigh_and_inverts():
    # Rayleigh power in dB: std pi/sqrt(6) * 10/ln 10 = 5.57 dB; K = 20 dB: ~0.62 dB.
    assert handover_channel.rician_db_std(-30.0) == pytest.approx(5.57, abs=0.02)
    assert handover_channel.rician_db_std(20.0) == pytest.approx(0.62, abs=0.03)
    for k in (0.0, 5.6, 9.0, 15.0):
        assert handover_channel.k_for_std(handover_channel.rician_db_std(k)) == pytest.approx(
            k, abs=0.1
        )
    assert handover_channel.k_for_std(6.0) is None  # beyond Rayleigh


def test_semivariance_at_one_redraw_recovers_the_block_spread():
    # 10 ms samples of a 100 ms block process with a 3.4 dB spread: samples 100 ms apart lie
    # in different blocks, so their semivariance is the block variance.
    rng = np.random.default_rng(5)
    blocks = rng.normal(0.0, 3.4, 400)
    t = np.arange(4000) * 0.01
    v = blocks[(t * 10 + 1e-9).astype(int)]
    g = handover_channel.semivariance(t, v, 0.1)
    assert np.sqrt(g) == pytest.approx(3.4, rel=0.1)
    # At 10 ms only one sample pair in ten straddles a redraw.
    assert handover_channel.semivariance(t, v, 0.01) == pytest.approx(g / 10, rel=0.3)


def test_seed000_phase_window_counts_bytes_episodes_and_skips_no_mcs():
    t = np.round(np.arange(0, 3.0, 0.001), 3)
    fs = pd.DataFrame(
        {
            "t_s": t,
            "delivered_bytes": (t * 1e6).astype(int),  # 8 Mb/s
            "srtt_ms": np.where(t < 1.0, 20.0, 60.0),
            "cong_state": np.where((t > 1.2) & (t < 1.3), 3, np.where(t > 2.5, 4, 0)),
        }
    )
    rs = pd.DataFrame(
        {"t_s": t, "sinr_db": np.where(t < 1.0, 30.0, 5.0), "mcs": np.where(t < 2.0, 20, 255)}
    )
    los = compare_seed000.phase_table(fs, rs, 0.0, 1.0)
    assert los["goodput_mbps"] == pytest.approx(8.0, rel=1e-3)
    assert (los["rtt_ms"], los["sinr_db"], los["mcs"]) == (20.0, 30.0, 20.0)
    rest = compare_seed000.phase_table(fs, rs, 1.0, 3.0)
    assert (rest["recoveries"], rest["rtos"]) == (1, 1)
    assert rest["mcs"] == 20.0  # the MCS-less samples (255) are left out
    assert compare_seed000.phase_table(fs, rs, 2.0, 3.0)["mcs"] is None


def test_mmwave_handovers_leave_out_lte_switches():
    hos = [
        {"t_s": 2.7, "from": 1, "to": 2},
        {"t_s": 5.6, "from": 2, "to": 0},
        {"t_s": 5.7, "from": 0, "to": 2},
        {"t_s": 6.0, "from": 2, "to": 1},
    ]
    assert compare_handover.mmwave_handovers(hos) == [(2.7, 1, 2), (6.0, 2, 1)]


def test_reference_schedule_replays_the_golden_runs_handovers():
    """ccsim run with a golden run's `radio.handover.schedule` hands over exactly when and where
    the tree did (`enb_ho_start`: from cell `cell_id` to `other`), and at no other time."""
    import json

    ccsim = pytest.importorskip("ccsim")
    g = json.loads(compare_handover.golden_path("TcpNewReno", 1).read_text())
    want = [
        (
            round(e["t_s"], 6),
            compare_handover.CELL_SITE[e["cell_id"]],
            compare_handover.CELL_SITE[e["other"]],
        )
        for e in g["events"]
        if e["kind"] == "enb_ho_start"
    ]
    assert len(want) == 5
    res = ccsim.run(
        compare_handover.SCENARIO,
        set=["run.duration=6s", compare_handover.reference_schedule(g)],
    )
    got = [(round(h["t_s"], 6), h["from"], h["to"]) for h in res.summary["radio"]["handovers"]]
    assert got == want
    # An LTE switch and the switch back are replayed too (to the LTE site 0 and back).
    lte = {
        "events": [
            *g["events"][:1],
            {"t_s": 1.0, "kind": "switch_to_lte", "cell_id": 1, "other": 2},
            {"t_s": 1.5, "kind": "switch_to_mmwave", "cell_id": 3, "other": 1},
        ]
    }
    assert compare_handover.reference_schedule(lte) == (
        "radio.handover.schedule=[{at_us = 1000000, site = 0}, {at_us = 1500000, site = 2}]"
    )


def test_reference_channel_replays_the_golden_runs_sinr():
    """With a golden run's report-table SINRs (`radio.channel.sinr_trace`) ccsim's serving-link
    SINR is the tree's, 10 ms bin by 10 ms bin, and the first handover falls near the tree's."""
    import csv
    import gzip

    ccsim = pytest.importorskip("ccsim")
    with gzip.open(compare_handover.GOLDEN / "handover_cubic_dc_s2_10ms.csv.gz", "rt") as f:
        golden = list(csv.DictReader(f))
    res = ccsim.run(
        compare_handover.SCENARIO,
        set=[
            "run.duration=3.2s",
            "output.sample_interval=5ms",
            "flows.0.cca=cubic",
            *compare_handover.reference_channel("TcpCubic", 2),
        ],
    )
    rs = res.radio_series
    mid = rs[(rs["t_s"] * 1000).round().astype(int) % 10 == 5]  # mid-bin samples
    cell = {1: "c2", 2: "c3"}
    for t, site, sinr in zip(mid["t_s"], mid["serving_cell"], mid["sinr_db"]):
        want = float(golden[int(t * 100)][f"{cell[site]}_sinr_db"])
        assert sinr == pytest.approx(want, abs=1e-9), t
    first = res.summary["radio"]["handovers"][0]
    assert (first["from"], first["to"]) == (1, 2)
    assert abs(first["t_s"] - 3.0518) < 0.01  # the tree: enb_ho_start at 3.0518 s


def test_the_tree_s_blocked_link_keeps_holes_and_one_nack_per_report_holds_them_in_ccsim():
    """The golden traces show the tree's UE holding PDUs above VR(R) most of the blocked phase;
    ccsim on the tree's channel holds more PDUs with the tree's one-NACK status report
    (`rlc.status_max_nacks = 1`) than with a report that NACKs every hole (median 88 against 60,
    p90 176 against 92, since the empty-PDU rule of the HARQ processes; 116 / 544 against
    59 / 90 before it)."""
    tree = rlc_holes.tree("TcpNewReno", 1)
    assert tree["held_share"] > 0.6 and tree["held_p50"] > 100, tree
    assert tree["holes_5ms_per_s"] > 20 and 8 <= tree["hole_p50_ms"] <= 15, tree
    phase = (2.4, 5.6)
    every = rlc_holes.ccsim_side("TcpNewReno", 1, rlc_holes.ENTITY + rlc_holes.TB_RULE, phase)
    one = rlc_holes.ccsim_side(
        "TcpNewReno", 1, rlc_holes.ENTITY + rlc_holes.ONE_NACK + rlc_holes.TB_RULE, phase
    )
    assert every["left_to_rlc_per_s"] > 20, every  # the TB rule lets the doubled feedback act
    assert one["held_p50"] > 1.3 * every["held_p50"], (one, every)
    assert one["held_p90"] > 1.5 * every["held_p90"], (one, every)
    assert one["held_share"] > every["held_share"], (one, every)

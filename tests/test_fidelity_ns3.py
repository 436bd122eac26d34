"""Cases A and C against ns-3.44: the issue's tolerances, checked on the committed golden data
(regenerate it with `python validation/ns3/run_reference.py`; see validation/README.md)."""

from __future__ import annotations

import json

import pytest

import ccsim
from conftest import GOLDEN_NS3, ROOT

CASE_A = ROOT / "experiments" / "dumbbell_cubic.toml"


@pytest.mark.parametrize("typeid", ["TcpCubic", "TcpNewReno"])
def test_case_a_matches_ns3(typeid: str) -> None:
    ref = json.loads((GOLDEN_NS3 / f"A_{typeid}.json").read_text())["flows"][0]
    res = ccsim.run(CASE_A, flows__0__cca=typeid)
    got = res.summary["flows"][0]
    assert got["cca"] == typeid
    assert got["goodput_mbps"] == pytest.approx(ref["goodput_mbps"], rel=0.02)
    assert got["rtt_p50_ms"] == pytest.approx(ref["rtt_p50_ms"], rel=0.05)
    assert got["rtt_p95_ms"] == pytest.approx(ref["rtt_p95_ms"], rel=0.05)
    assert got["rtt_mean_ms"] == pytest.approx(ref["rtt_mean_ms"], rel=0.05)
    # "Same order" of retransmissions: within a factor of two.
    assert ref["retx_segments"] / 2 <= got["retx_segments"] <= ref["retx_segments"] * 2


@pytest.mark.parametrize("typeid", ["TcpCubic", "TcpNewReno"])
def test_case_c_blockage_matches_ns3(typeid: str) -> None:
    """1.3 Gb/s, MSS 10 000, 50 Mb/s from 5 to 10 s: the blockage case of issue 4."""
    g = json.loads((GOLDEN_NS3 / f"C_{typeid}.json").read_text())
    ref = g["flows"][0]
    res = ccsim.run(ROOT / "experiments" / "blockage_1300M.toml", flows__0__cca=typeid)
    got = res.summary["flows"][0]
    assert g["scenario"]["queue_packets"] == 696 and g["scenario"]["mss"] == 10000
    assert got["goodput_mbps"] == pytest.approx(ref["goodput_mbps"], rel=0.03)
    assert got["rtt_p50_ms"] == pytest.approx(ref["rtt_p50_ms"], rel=0.05)
    assert got["rtt_p95_ms"] == pytest.approx(ref["rtt_p95_ms"], rel=0.05)
    assert abs(got["retx_segments"] - ref["retx_segments"]) <= max(20, 0.25 * ref["retx_segments"])


@pytest.mark.parametrize("case", ["A", "C"])
def test_bbr_matches_ns3(case: str) -> None:
    """Issue 3: BBR end to end against ns-3.44 TcpBbr, at 100 Mb/s (A) and on the 1.3 Gb/s
    link blocked to 50 Mb/s from 5 to 10 s (C). Both are packet-for-packet identical to ns-3
    (its MRG32k3a draws, pacing timer, rate sample and recovery call order, docs/tcp-model.md),
    so goodput, RTT percentiles and retransmissions are equal, not just within tolerance."""
    import sys

    sys.path.insert(0, str(ROOT / "validation"))
    from compare_ns3 import scenario_from_golden

    g = json.loads((GOLDEN_NS3 / f"{case}_TcpBbr.json").read_text())
    ref = g["flows"][0]
    got = ccsim.run(scenario_from_golden(g)).summary["flows"][0]
    assert got["cca"] == "TcpBbr"
    assert got["goodput_mbps"] == pytest.approx(ref["goodput_mbps"], rel=1e-9)
    assert (got["rtt_p50_ms"], got["rtt_p95_ms"]) == (ref["rtt_p50_ms"], ref["rtt_p95_ms"])
    assert got["retx_segments"] == ref["retx_segments"]

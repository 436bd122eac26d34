"""The Linux-kernel golden data (validation/golden/linux, made by validation/linux/run_reference.py,
which needs root and real time, so it never runs here): its schema, the comparison script on
it, and ccsim's `linux` profile inside the kernel's spread where the issue requires it."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from conftest import ROOT

GOLDEN = ROOT / "validation" / "golden" / "linux"
FILES = sorted(GOLDEN.glob("*_*.json"))


def _compare_module():
    spec = importlib.util.spec_from_file_location(
        "compare_linux", ROOT / "validation" / "compare_linux.py"
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_golden_files_exist() -> None:
    assert FILES, f"no golden files in {GOLDEN}"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_golden_schema(path: Path) -> None:
    g = json.loads(path.read_text())
    case, cca = path.stem.split("_", 1)
    assert g["reference"] == "linux-kernel" and g["kernel"]
    assert (g["case"], g["cca"]) == (case, cca) == (g["scenario"]["case"], g["scenario"]["cca"])
    assert g["command"].startswith("python3 validation/linux/run_reference.py")
    assert g["complete"] and len(g["repetitions"]) >= 3
    for key, sp in g["spread"].items():
        values = [r[key] for r in g["repetitions"]]
        assert sp["values"] == values
        assert sp["min"] == min(values) and sp["max"] == max(values)
    for r in g["repetitions"]:
        assert len(r["flows"]) == g["scenario"]["flows"]
        assert r["retx_segments"] == sum(f["retx_segments"] for f in r["flows"])
        # The sender's per-socket count and the namespace's SNMP counter agree.
        assert r["retx_segments"] == r["nstat_sender"]["TcpRetransSegs"]
        # Every byte the flows lost was dropped at the bottleneck, nowhere else.
        assert all(d["tx_dropped"] == 0 for d in r["link_drops"].values())
        assert r["delayline"]["a_to_b"]["write_errors"] == 0
        # Goodput cannot exceed the bottleneck's payload rate.
        s = g["scenario"]
        top = max([s["rate_bps"]] + [rate for _, rate in s["rate_change"]])
        assert 0 < r["total_goodput_mbps"] <= top * s["mss"] / (s["mss"] + 52) / 1e6


def test_compare_script_runs_on_the_golden_data(tmp_path: Path) -> None:
    cl = _compare_module()
    report = tmp_path / "report.md"
    report.write_text("# report\n\nns-3 part\n")
    path = min(FILES, key=lambda p: json.loads(p.read_text())["scenario"]["duration_s"])
    case, cca = path.stem.split("_", 1)
    assert cl.main(["--cases", case, "--ccas", cca, "--report", str(report)]) == 0
    text = report.read_text()
    assert text.startswith("# report\n\nns-3 part\n") and cl.BEGIN in text and cl.END in text
    assert f"| {case} | {cca} |" in text
    # Running it again replaces the section instead of adding a second one.
    cl.main(["--cases", case, "--ccas", cca, "--report", str(report)])
    assert report.read_text().count(cl.BEGIN) == 1


def test_linux_profile_cubic_retransmissions_within_the_kernel_spread() -> None:
    """Issue 17: with the kernel's HyStart (ACK train over half the minimum delay), case A
    CUBIC retransmits what the kernel does; ns-3's HyStart retransmits several times more."""
    path = GOLDEN / "A_cubic.json"
    g = json.loads(path.read_text())
    cl = _compare_module()
    got = cl.run_ccsim(g)
    sp = g["spread"]["retx_segments"]
    assert sp["min"] <= got["retx"] <= sp["max"], (got["retx"], sp)
    ns3_hystart = cl.scenario_from_golden(g)
    for f in ns3_hystart["flows"]:
        f["cca_params"] = {"hystart_variant": "NS3"}
    import ccsim

    res = ccsim.run(ns3_hystart)
    assert res.summary["flows"][0]["retx_segments"] > 2 * sp["max"]

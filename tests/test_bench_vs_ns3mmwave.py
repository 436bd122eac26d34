"""benches/vs_ns3mmwave.py: case names, the reference command it builds from a golden file,
and its --ccsim-only table (recorded reference figures against a real ccsim-run)."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benches"))
import spawn  # noqa: E402
import vs_ns3mmwave as bench  # noqa: E402

GOLDEN = ROOT / "validation" / "golden" / "ns3-mmwave"


def test_cases_map_to_golden_files_and_ccsim_settings():
    c = bench.resolve_case("bbr4", "ns3.33")
    assert c.golden == json.loads((GOLDEN / "seed002_bbr_4MB_s2.json").read_text())
    assert c.toml.name == "seed002_ns3mmwave.toml" and not c.handover
    assert c.overrides == [
        "flows.0.cca=bbr",
        "flows.0.cca_params.pacing_margin=0",
        "radio.mmwave.cell.rlc.buffer_bytes=4000000",
        "run.seed=2",
    ]
    # ns-3.44's TCP: the tree's BBR/SIAD parameters are not set.
    assert (
        "flows.0.cca_params.ns3_port_compat=true"
        not in bench.resolve_case("siad7_s2", "ns3.44").overrides
    )
    h = bench.resolve_case("handover", "ns3.33")
    assert h.handover and h.program == "ccsim-handover"
    assert h.overrides == ["flows.0.cca=newreno", "run.seed=1"]


@pytest.mark.parametrize("name", ["cubic4", "bbr", "siad4_s99", "handover_bbr"])
def test_bad_case_names_the_option(name):
    with pytest.raises(SystemExit) as e:
        bench.resolve_case(name, "ns3.33")
    assert "--cases" in str(e.value) and name in str(e.value)


def test_reference_command_is_the_golden_one_cut_short():
    tree, out = Path("/t"), Path("/o")
    c = bench.resolve_case("siad7", "ns3.33")
    full = bench.reference_command(c, tree, None, out)
    assert full[0] == "/t/build/scratch/ccsim-seed002"
    assert full[1:-1] == shlex.split(c.golden["command"])[1:]
    assert full[-1] == "--out=/o/ccsim-seed002.csv"
    # seed 002: --stop cuts the same run (--time sets the walk's speed and must not move).
    assert bench.reference_command(c, tree, 1.0, out)[1:-1] == full[1:-1] + ["--stop=1"]
    assert bench.reference_sim_s(c, None) == pytest.approx(15.1)
    h = bench.resolve_case("handover", "ns3.33")
    short = bench.reference_command(h, tree, 2.5, out)
    assert "--time=2.5" in short and "--time=10" not in short
    assert bench.reference_sim_s(h, None) == 10.0


def test_ccsim_only_table(capsys):
    if not spawn.CCSIM_BIN.exists():
        pytest.skip("target/release/ccsim-run not built (cargo build --release)")
    bench.main(
        [
            "--ccsim-only",
            "--cases",
            "siad7",
            "handover",
            "--stop",
            "0.5",
            "--repeat",
            "1",
            "--markdown",
            "--ccsim-bin",
            str(spawn.CCSIM_BIN),
        ]
    )
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("# ") and "load average" in lines[0]
    assert "normal build, not PGO" in lines[0] and "target/release/ccsim-run" in lines[0]
    rows = {r.split(" | ")[0].strip("| "): r.split(" | ") for r in lines[3:]}
    assert set(rows) == {"siad7", "handover"}
    for name, golden in (("siad7", "seed002_siad_7MB_s2"), ("handover", "handover_newreno_dc_s1")):
        r = rows[name]
        g = json.loads((GOLDEN / f"{golden}.json").read_text())
        ref_s = g["sim_time_s"] + (0.1 if name == "siad7" else 0.0)
        # The recorded run's full duration against ccsim's 0.5 s, compared per simulated s.
        assert r[1] == f"{ref_s:g} / 0.5"
        assert float(r[2]) == pytest.approx(g["wall_time_s"], abs=0.05)
        assert r[3] == "n/a" and r[11] == "n/a"
        assert float(r[5]) == pytest.approx(g["wall_time_s"] / ref_s, abs=0.005)
        ccsim_ms_per_s = float(r[9])
        assert 0 < ccsim_ms_per_s and float(r[8]) > 1.0
        speed_up = float(r[10].strip("*×"))
        assert speed_up == pytest.approx(float(r[5]) * 1e3 / ccsim_ms_per_s, rel=0.02)
        assert r[12].startswith("recorded")

"""The build scripts/setup.sh ships: the profile-guided ccsim-run gives the normal build's
summaries bit for bit, and the benchmarks say which build they time (benches/spawn.py)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benches"))
sys.path.insert(0, str(ROOT / "validation"))
import identity  # noqa: E402
import spawn  # noqa: E402
from ns3_scenario import scenario_from_golden  # noqa: E402

# The three timed cases A, B, C (never in the profile's training runs) and two radio
# experiments; a few seconds per binary.
GOLDEN_CASES = ["A_TcpCubic", "A_TcpBbr", "B_TcpWestwoodPlus", "C_TcpNewReno"]
EXPERIMENTS = ["blockage_1300M", "seed001_dual_connectivity"]


def test_pgo_binary_matches_the_normal_build(tmp_path):
    kind, why = spawn.shipped_build()
    if kind != "pgo":
        pytest.skip(f"scripts/setup.sh shipped the normal build here ({why})")
    assert spawn.PGO_BIN.exists(), "target/shipped-build says pgo but the binary is missing"
    spawn.ensure_ccsim_bin()
    scenarios = []
    for case in GOLDEN_CASES:
        golden = json.loads((ROOT / "validation/golden/ns3" / f"{case}.json").read_text())
        p = tmp_path / f"{case}.json"
        p.write_text(json.dumps(scenario_from_golden(golden)))
        scenarios.append(p)
    scenarios += [ROOT / "experiments" / f"{name}.toml" for name in EXPERIMENTS]
    for scen in scenarios:
        normal = identity.run(spawn.CCSIM_BIN, scen)
        assert normal is not None and normal["events"] > 0, scen.name
        assert identity.run(spawn.PGO_BIN, scen) == normal, scen.name


def test_the_table_header_names_the_build(tmp_path, monkeypatch):
    mark = tmp_path / "shipped-build"
    monkeypatch.setattr(spawn, "SHIPPED_MARK", mark)
    assert spawn.shipped_build()[0] == "normal"  # setup.sh never ran
    mark.write_text("normal\nCCSIM_PGO=0\n")
    _, label = spawn.ccsim_bin_and_label(spawn.CCSIM_BIN)
    assert label == (
        "normal build, not PGO (CCSIM_PGO=0), the one scripts/setup.sh ships: "
        "target/release/ccsim-run"
    )
    _, label = spawn.ccsim_bin_and_label(spawn.PGO_BIN)
    assert label.startswith("PGO build") and "ships" not in label
    mark.write_text("pgo\n")
    _, label = spawn.ccsim_bin_and_label(spawn.PGO_BIN)
    assert label.endswith(
        "never on A, B, C), the one scripts/setup.sh ships: target/pgo/release/ccsim-run"
    )
    path, label = spawn.ccsim_bin_and_label(tmp_path / "other-run")
    assert path == tmp_path / "other-run" and label.startswith("given binary, build unknown: ")

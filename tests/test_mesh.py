"""`[mesh]` scenarios (seed 004) through the command line: the summary lines and the plot."""

from __future__ import annotations

import json

from conftest import ROOT, ccsim_cli


def test_mesh_run_prints_mesh_metrics_and_draws_candlesticks(tmp_path) -> None:
    out = tmp_path / "res"
    r = ccsim_cli(
        "run",
        str(ROOT / "experiments" / "seed004_grid.toml"),
        "--out",
        str(out),
        "--set",
        "mesh.rows=2",
        "--set",
        "mesh.cols=3",
        "--set",
        "mesh.ues=6",
        "--set",
        "mesh.links.epc_links=2",
        "--set",
        "mesh.downloads.bytes=200000",
        "--set",
        "mesh.routing=bp_per_flow",
    )
    assert r.returncode == 0, r.stderr
    assert "mesh routing bp_per_flow: 6/6 downloads finished" in r.stdout
    assert "Jain's index of goodput" in r.stdout
    assert (out / "plots" / "candlestick.png").stat().st_size > 10_000
    s = json.loads((out / "summary.json").read_text())
    m = s["mesh"]
    # The run ends with the last download, not at the scenario's 200 s.
    assert s["duration_s"] < 60
    assert m["finish_time_s"]["n"] == 6
    assert m["finish_time_s"]["min"] <= m["finish_time_s"]["p20"] <= m["finish_time_s"]["mean"]
    assert m["dropped_no_route"] == 0
    names = {n["name"] for n in m["nodes"]}
    assert "G" in names


def test_bad_routing_is_a_keyed_error(tmp_path) -> None:
    r = ccsim_cli(
        "run",
        str(ROOT / "experiments" / "seed004_grid.toml"),
        "--out",
        str(tmp_path / "x"),
        "--set",
        "mesh.routing=rip",
    )
    assert r.returncode == 2
    assert "mesh.routing" in r.stderr and "bp_per_packet" in r.stderr

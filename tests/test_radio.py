"""Radio scenarios from the command line and the API: the radio series, summary and plot."""

from __future__ import annotations

import json

import pandas as pd
import pytest

import ccsim
from conftest import ROOT, ccsim_cli

SEED002 = ROOT / "experiments" / "seed002_siad_bbr.toml"


def test_seed002_run_writes_radio_series_and_profile_plot(tmp_path) -> None:
    out = tmp_path / "seed002"
    r = ccsim_cli("run", str(SEED002), "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert "radio ue:" in r.stdout and "radio_profile.png" in r.stdout
    for name in ("radio_timeseries.parquet", "plots/radio_profile.png", "plots/overview.png"):
        assert (out / name).is_file(), name
    assert (out / "plots/radio_profile.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    rs = pd.read_parquet(out / "radio_timeseries.parquet")
    for col in ("t_s", "ue", "ue_name", "sinr_db", "serving_cell", "cell_name", "los"):
        assert col in rs.columns, col
    assert set(rs["ue_name"]) == {"ue"} and set(rs["cell_name"]) == {"gnb"}
    assert rs["t_s"].max() == pytest.approx(15.0)
    # NLOS behind the building (5-10 s, channel updated every 100 ms), LOS around it.
    assert not rs[(rs.t_s > 5.2) & (rs.t_s < 9.9)]["los"].any()
    assert rs[(rs.t_s < 4.9) | (rs.t_s > 10.2)]["los"].all()
    s = json.loads((out / "summary.json").read_text())
    assert s["radio"]["nlos"] == [
        {"ue": 0, "cell": 0, "start_s": 5.0, "end_s": 10.0, "duration_s": 5.0}
    ]
    assert s["radio"]["cells"][0]["tx_packets"] > 0
    # The scenario as run carries every radio default.
    sc = json.loads((out / "scenario.json").read_text())
    assert sc["radio"]["mmwave"]["cell"]["rlc"]["buffer_bytes"] == 7_000_000
    assert sc["radio"]["handover"]["measurement_period_us"] == 1600


def test_api_returns_the_radio_series_and_overrides_reach_the_radio() -> None:
    res = ccsim.run(
        SEED002,
        run__duration="3s",
        radio__mmwave__cell__rlc__buffer_bytes=4_000_000,
        flows__0__cca="cubic",
    )
    assert res.scenario["radio"]["mmwave"]["cell"]["rlc"]["buffer_bytes"] == 4_000_000
    rs = res.radio_series
    assert len(rs) == len(res.flow_series) and rs["sinr_db"].min() > 30
    assert res.summary["radio"]["ues"][0]["delivered_bytes"] > 0


def test_bad_radio_key_is_rejected_with_its_path(tmp_path) -> None:
    r = ccsim_cli("run", str(SEED002), "--set", "radio.ues.0.mobility.kind=teleport")
    assert r.returncode == 2
    assert "radio.ues[0].mobility" in r.stderr

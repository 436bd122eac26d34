"""Same scenario and seed give bit-identical results, in one process and across processes."""

from __future__ import annotations

import json

import pandas as pd

import ccsim
from conftest import ccsim_cli

WALL_KEYS = {"wall_s", "events_per_s", "sim_speed"}


def _stable(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if k not in WALL_KEYS}


def test_same_process_twice_is_identical(small_scenario) -> None:
    a = ccsim.run(small_scenario)
    b = ccsim.run(small_scenario)
    assert _stable(a.summary) == _stable(b.summary)
    pd.testing.assert_frame_equal(a.flow_series, b.flow_series)
    pd.testing.assert_frame_equal(a.queue_series, b.queue_series)


def test_two_processes_give_identical_outputs(small_scenario, tmp_path) -> None:
    outs = []
    for name in ("one", "two"):
        r = ccsim_cli(
            "run", str(small_scenario), "--out", str(tmp_path / name), "--json", "--no-plot"
        )
        assert r.returncode == 0, r.stderr
        outs.append(json.loads(r.stdout))
    assert _stable(outs[0]) == _stable(outs[1])
    for table in ("flow_timeseries", "queue_timeseries", "flows", "queues"):
        a = pd.read_parquet(tmp_path / "one" / f"{table}.parquet")
        b = pd.read_parquet(tmp_path / "two" / f"{table}.parquet")
        pd.testing.assert_frame_equal(a, b)


def test_seed_is_recorded_and_overridable(small_scenario) -> None:
    res = ccsim.run(small_scenario, run__seed=42)
    assert res.summary["seed"] == 42

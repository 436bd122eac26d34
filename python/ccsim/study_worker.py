"""One study run, as a pure function a thread or a Dask worker executes.

`run_task` builds the scenario, runs it to the end in one call (the core releases the GIL, so
threads run in parallel), and returns plain Python values and NumPy arrays: the per-flow rows,
optionally the flow time series and the per-cell counters, and its timings. It writes nothing;
the study's results store does, in the process that owns it.

Only NumPy and the native module are imported here, to keep a run's overhead small.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from ccsim._ccsim import Simulation, __version__

#: Columns every run row has besides the axis values and the metrics.
ROW_KEYS = ("run_key", "seed", "flow", "flow_cca", "src", "dst")


@dataclass(frozen=True)
class RunTask:
    """Everything a worker needs for one run (picklable, no open files)."""

    key: str
    fmt: str  # "toml" or "json"
    text: str
    overrides: tuple[str, ...]
    base_dir: str
    labels: dict[str, Any]
    seed: int
    metrics: tuple[str, ...]
    series: tuple[str, ...] = ()
    cells: bool = False


def build(fmt: str, text: str, overrides: tuple[str, ...], base_dir: str) -> Simulation:
    make = Simulation.from_json if fmt == "json" else Simulation.from_toml
    return make(text, list(overrides), base_dir)


def run_key(sim: Simulation, seed: int) -> str:
    """The run's identity: a hash of the resolved scenario, the seed and the ccsim version."""
    h = hashlib.sha256()
    h.update(sim.scenario_json().encode())
    h.update(f"\0seed={seed}\0ccsim={__version__}".encode())
    return h.hexdigest()[:20]


def _columns(raw: dict[str, tuple[str, bytes]]) -> dict[str, np.ndarray]:
    return {k: np.frombuffer(b, dtype=np.dtype(dt)) for k, (dt, b) in raw.items()}


def _srtt_time_avg(series: dict[str, np.ndarray], flow: int) -> float | None:
    """Time average of the smoothed RTT (ms) over the flow's samples with an RTT estimate."""
    m = (series["flow"] == flow) & (series["srtt_ms"] > 0)
    return float(series["srtt_ms"][m].mean()) if m.any() else None


def _metric(name: str, flow: dict, ue: dict | None, summary: dict, fs: dict) -> Any:
    if name in flow:
        return flow[name]
    if name == "srtt_time_avg_ms":
        return _srtt_time_avg(fs, flow["id"])
    if name == "vho_recovery_s":
        events = ((summary.get("radio") or {}).get("vertical_handover") or {}).get("events")
        return events[0]["recovery_s"] if events else None
    if name.startswith("ue.") and ue is not None and name[3:] in ue:
        return ue[name[3:]]
    if name in summary and not isinstance(summary[name], (dict, list)):
        return summary[name]
    allowed = sorted(flow) + ["srtt_time_avg_ms", "vho_recovery_s"]
    allowed += [f"ue.{k}" for k in (ue or {})]
    raise KeyError(f"unknown metric `{name}`; allowed: {', '.join(allowed)}")


def run_task(task: RunTask) -> dict[str, Any]:
    """Runs one task; returns {key, rows, series, cells, timing}."""
    t0 = time.perf_counter()
    sim = build(task.fmt, task.text, task.overrides, task.base_dir)
    key = run_key(sim, task.seed)
    if key != task.key:
        raise RuntimeError(f"run key mismatch ({key} != {task.key}): different ccsim builds?")
    t1 = time.perf_counter()
    sim.run_until(sim.duration_s)
    t2 = time.perf_counter()
    summary = json.loads(sim.summary_json())
    flows_raw, _, _ = sim.drain_series()
    fs = _columns(flows_raw)
    t3 = time.perf_counter()
    ues = {u["name"]: u for u in (summary.get("radio") or {}).get("ues", [])}
    rows = []
    for f in summary["flows"]:
        row: dict[str, Any] = {"run_key": key, **task.labels, "seed": task.seed}
        row.update(flow=f["id"], flow_cca=f["cca"], src=f.get("src"), dst=f.get("dst"))
        for m in task.metrics:
            row[m] = _metric(m, f, ues.get(f.get("dst")), summary, fs)
        rows.append(row)
    series = None
    if task.series:
        series = {"t_s": fs["t_s"], "flow": fs["flow"]}
        series.update({c: fs[c] for c in task.series})
    cells = None
    if task.cells:
        cells = [
            {"run_key": key, **task.labels, "seed": task.seed, **c}
            for c in (summary.get("radio") or {}).get("cells", [])
        ]
        for c in cells:
            c.pop("position", None)
    timing = {
        "build_s": t1 - t0,
        "sim_s": t2 - t1,
        "summary_s": t3 - t2,
        "rows_s": time.perf_counter() - t3,
        "events": summary["events"],
        "wall_s": time.perf_counter() - t0,
    }
    return {"key": key, "rows": rows, "series": series, "cells": cells, "timing": timing}

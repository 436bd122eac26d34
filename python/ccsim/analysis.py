"""Derived metrics computed from a run's time series.

`link_change_metrics`: for scenarios whose links change rate/delay at scheduled times (a
blockage), per flow goodput before, during and after the change window, and the recovery
time: the time after the window ends until the 100 ms-binned goodput first reaches 90 % of the
pre-window mean (issue 4's definition).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

BIN_S = 0.1
RECOVERED_FRACTION = 0.9


def change_times(scenario: dict[str, Any]) -> list[float]:
    """Times (s) of every scheduled link change in a resolved scenario (`scenario.json`)."""

    def secs(d: str) -> float:
        return float(d.rstrip("s"))

    times = []
    db = scenario.get("dumbbell") or {}
    for c in (db.get("bottleneck") or {}).get("changes", []):
        times.append(secs(c["at"]))
    for link in scenario.get("links", []):
        for c in link.get("changes", []):
            times.append(secs(c["at"]))
    return sorted(set(times))


def _binned_goodput(t: np.ndarray, d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(bin end times, Mb/s per 100 ms bin) from cumulative delivered bytes."""
    edges = np.arange(0.0, t[-1] + 1e-9, BIN_S)
    at_edges = np.interp(edges, t, d)
    return edges[1:], np.diff(at_edges) * 8 / BIN_S / 1e6


def _mean_rate(t: np.ndarray, d: np.ndarray, a: float, b: float) -> float | None:
    if b <= a:
        return None
    da, db = np.interp([a, b], t, d)
    return float((db - da) * 8 / (b - a) / 1e6)


def phase_metrics(
    t: np.ndarray, delivered: np.ndarray, start: float, t_on: float, t_off: float, end: float
) -> dict[str, Any]:
    """Goodput before [start, t_on], during [t_on, t_off], after [t_off, end] (Mb/s) and the
    recovery time, from one flow's cumulative delivered bytes sampled at times `t`."""
    t = np.asarray(t, dtype=float)
    d = np.asarray(delivered, dtype=float)
    before = _mean_rate(t, d, start, t_on)
    row: dict[str, Any] = {
        "window_s": [t_on, t_off],
        "goodput_before_mbps": before,
        "goodput_during_mbps": _mean_rate(t, d, max(start, t_on), t_off),
        "goodput_after_mbps": _mean_rate(t, d, t_off, end),
        "recovery_time_s": None,
    }
    if before and t_off > t_on:
        ends, rate = _binned_goodput(t, d)
        ok = np.nonzero((ends > t_off + 1e-9) & (rate >= RECOVERED_FRACTION * before))[0]
        if len(ok):
            # The first bin that reaches 90 % ends at ends[i]; recovery is measured to it.
            row["recovery_time_s"] = round(float(ends[ok[0]] - t_off), 6)
    return row


def link_change_metrics(
    flow_series: pd.DataFrame, scenario: dict[str, Any], summary: dict[str, Any]
) -> list[dict[str, Any]] | None:
    """Per-flow before/during/after goodput and recovery time, or None without link changes."""
    times = change_times(scenario)
    if not times or flow_series.empty:
        return None
    t_on, t_off = times[0], times[-1]
    end = summary["duration_s"]
    out = []
    for f in summary["flows"]:
        g = flow_series[flow_series["flow"] == f["id"]].sort_values("t_s")
        row = phase_metrics(
            g["t_s"].to_numpy(), g["delivered_bytes"].to_numpy(), f["start_s"], t_on, t_off, end
        )
        out.append({"flow": f["id"], **row})
    return out

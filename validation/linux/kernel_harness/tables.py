"""Markdown tables of the golden files (`run_reference.py --table`): the results per case and
algorithm, and the delay line's measured error."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def _range(lo: Any, hi: Any, fmt: str) -> str:
    return format(lo, fmt) if lo == hi else f"{format(lo, fmt)}–{format(hi, fmt)}"


def results_table(golden: Path) -> str:
    rows = [
        "| case | cca | reps | goodput Mb/s | retx | RTOs | srtt p50 ms | srtt p95 ms | drops | "
        "delay-line late p99 µs | loaded delay-line ping p50 ms |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]

    def rng(sp: dict[str, Any], k: str, fmt: str) -> str:
        if k not in sp:
            return "–"
        return _range(sp[k]["min"], sp[k]["max"], fmt)

    for p in sorted(golden.glob("*_*.json")):
        g = json.loads(p.read_text())
        sp = g["spread"]
        late = max(r["delayline"]["a_to_b"]["late_p99_us"] for r in g["repetitions"])
        pings = [r["ping_loaded_delayline"].get("p50_ms") for r in g["repetitions"]]
        pings = [x for x in pings if x is not None]
        ping_txt = f"{min(pings):.3f}–{max(pings):.3f}" if pings else "–"
        rows.append(
            f"| {g['case']} | {g['cca']} | {len(g['repetitions'])} | {rng(sp, 'total_goodput_mbps', '.2f')} | "
            f"{rng(sp, 'retx_segments', 'd')} | {rng(sp, 'rto_events', 'd')} | {rng(sp, 'srtt_p50_ms', '.1f')} | "
            f"{rng(sp, 'srtt_p95_ms', '.1f')} | {rng(sp, 'bottleneck_drops', 'd')} | {late} | {ping_txt} |"
        )
    return "\n".join(rows)


def accuracy_table(golden: Path) -> str:
    """The delay line's measured error, per golden file (all repetitions pooled: min–max)."""
    rows = [
        "| case | cca | one-way delay ms | ping idle p50 ms (expected 2 × delay) | ping under load "
        "p50 / p99 / max ms | data direction late p50 / p99 / p99.9 / max µs | ACK direction late "
        "p50 / p99 µs | load avg |",
        "|---|---|---|---|---|---|---|---|",
    ]

    def mm(xs: list[float], fmt: str) -> str:
        return _range(min(xs), max(xs), fmt)

    for p in sorted(golden.glob("*_*.json")):
        g = json.loads(p.read_text())
        reps = g["repetitions"]
        a = [r["delayline"]["a_to_b"] for r in reps]
        b = [r["delayline"]["b_to_a"] for r in reps]
        idle = [r["ping_idle_delayline"]["p50_ms"] for r in reps]
        lp = [r["ping_loaded_delayline"] for r in reps]
        rows.append(
            f"| {g['case']} | {g['cca']} | {g['scenario']['delay_ms']} | {mm(idle, '.1f')} | "
            f"{mm([x['p50_ms'] for x in lp], '.1f')} / {mm([x['p99_ms'] for x in lp], '.1f')} / "
            f"{mm([x['max_ms'] for x in lp], '.1f')} | "
            f"{mm([x['late_p50_us'] for x in a], 'd')} / {mm([x['late_p99_us'] for x in a], 'd')} / "
            f"{mm([x['late_p999_us'] for x in a], 'd')} / {mm([x['late_max_us'] for x in a], '.0f')} | "
            f"{mm([x['late_p50_us'] for x in b], 'd')} / {mm([x['late_p99_us'] for x in b], 'd')} | "
            f"{mm([r['load_avg_1m_before'] for r in reps], '.1f')} |"
        )
    return "\n".join(rows)

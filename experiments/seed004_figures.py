#!/usr/bin/env python3
"""Seed 004's figures and the paper-vs-ccsim numbers, from the study files.

Runs every point of studies/seed004_{fig2,fig3,fig6_7,modena}.toml (or those given), caching
each run's summary under results/seed004/<run key>.json so a second call only redraws, then
writes docs/img/seed004_*.png (candlesticks: box p20-p80, whiskers min/max, mean as a line)
and prints the per-group numbers docs/mesh.md quotes.

    python experiments/seed004_figures.py [--workers 2] [--only fig2 modena]
"""

from __future__ import annotations

import argparse
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from ccsim.study import load_study
from ccsim.study_run import make_tasks
from ccsim.study_worker import build

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "results" / "seed004"
IMG = ROOT / "docs" / "img"
STUDIES = {
    "fig2": "studies/seed004_fig2.toml",
    "fig3": "studies/seed004_fig3.toml",
    "fig6_7": "studies/seed004_fig6_7.toml",
    "modena": "studies/seed004_modena.toml",
}
ROUTING_LABEL = {"olsr": "OLSR", "bp_per_packet": "per-packet", "bp_per_flow": "per-flow"}


def run_one(task) -> dict:  # noqa: ANN001
    path = CACHE / f"{task.key}.json"
    if path.exists():
        return json.loads(path.read_text())
    sim = build(task.fmt, task.text, task.overrides, task.base_dir)
    sim.run_until(sim.duration_s)
    s = json.loads(sim.summary_json())
    out = {
        "labels": task.labels,
        "seed": task.seed,
        "duration_s": s["duration_s"],
        "events": s["events"],
        "mesh": {k: v for k, v in s["mesh"].items() if k != "nodes"},
        "fct_s": [f["fct_s"] for f in s["flows"]],
        "rtt_mean_ms": [f["rtt_mean_ms"] for f in s["flows"]],
    }
    CACHE.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out))
    return out


def runs(name: str, workers: int, seeds: list[int] | None = None) -> list[dict]:
    tasks = [t for _, t in make_tasks(load_study(ROOT / STUDIES[name]))]
    if seeds:
        tasks = [t for t in tasks if t.seed in seeds]
    with ThreadPoolExecutor(workers) as ex:
        return list(ex.map(run_one, tasks))


def pooled(rs: list[dict], metric: str, **labels: object) -> list[float]:
    """Per-flow values over every seed of the runs matching `labels` (None = unfinished)."""
    out: list[float] = []
    for r in rs:
        if all(r["labels"].get(k) == v for k, v in labels.items()):
            out += [x for x in r[metric] if x is not None]
    return out


def jfi(rs: list[dict], **labels: object) -> float:
    """Mean over seeds of Jain's index of goodput (bytes / finish time)."""
    v = [
        r["mesh"]["jain_goodput"]
        for r in rs
        if all(r["labels"].get(k) == val for k, val in labels.items())
    ]
    return float(np.mean(v)) if v else float("nan")


def stick(v: list[float]) -> str:
    if not v:
        return "-"
    a = np.asarray(v)
    p20, p80 = np.percentile(a, [20, 80])
    return f"{a.mean():.1f} [{p20:.1f}-{p80:.1f}] max {a.max():.1f}"


def panel_figure(panels: list[tuple[str, str, dict[str, list[float]]]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ccsim.plots import draw_candlesticks

    fig, axes = plt.subplots(1, len(panels), figsize=(4.2 * len(panels), 4), squeeze=False)
    for ax, (title, ylabel, groups) in zip(axes[0], panels):
        draw_candlesticks(ax, groups, ylabel)
        ax.set_title(title, fontsize=10)
    fig.tight_layout()
    IMG.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)


def report_fig2(rs: list[dict]) -> None:
    print("## Fig. 2 (grid, CUBIC): finish time s / RTT ms, mean [p20-p80] max; JFI; unfinished")
    panels = []
    for ues in (25, 50, 75, 100):
        fct, rtt = {}, {}
        for r, lab in ROUTING_LABEL.items():
            fct[lab] = pooled(rs, "fct_s", routing=r, ues=ues)
            rtt[lab] = pooled(rs, "rtt_mean_ms", routing=r, ues=ues)
            unfinished = sum(
                x is None
                for q in rs
                if q["labels"] == {"routing": r, "ues": ues}
                for x in q["fct_s"]
            )
            print(
                f"{ues:>3} UEs {lab:<11} FT {stick(fct[lab]):<28} RTT {stick(rtt[lab]):<28} "
                f"JFI {jfi(rs, routing=r, ues=ues):.2f} unfinished {unfinished}"
            )
        panels.append((f"{ues} UEs", "finish time (s)", fct))
        if ues == 100:
            panels.append(("100 UEs", "mean RTT (ms)", rtt))
    panel_figure(panels, IMG / "seed004_fig2.png")


def report_fig3(rs: list[dict]) -> None:
    print("## Fig. 3 (grid, 100 UEs): per CCA and routing")
    fct, rtt = {}, {}
    for cca in ("newreno", "cubic", "highspeed", "westwood", "hybla", "scalable", "vegas"):
        for r, lab in ROUTING_LABEL.items():
            key = f"{cca} {lab}"
            fct[key] = pooled(rs, "fct_s", cca=cca, routing=r)
            rtt[key] = pooled(rs, "rtt_mean_ms", cca=cca, routing=r)
            print(
                f"{cca:<10} {lab:<11} FT {stick(fct[key]):<28} RTT {stick(rtt[key]):<28} "
                f"JFI {jfi(rs, cca=cca, routing=r):.2f}"
            )
    panel_figure([("Fig. 3", "finish time (s)", fct)], IMG / "seed004_fig3_fct.png")
    panel_figure([("Fig. 3", "mean RTT (ms)", rtt)], IMG / "seed004_fig3_rtt.png")


def report_fig6_7(rs: list[dict]) -> None:
    print("## Figs. 6-7 (grid, 100 UEs, UDP load): finish time; UDP delivered %")
    for cca, fig in (("vegas", 6), ("highspeed", 7)):
        groups = {}
        for udp in (60, 300, 600, 900, 1200):
            for r, lab in ROUTING_LABEL.items():
                groups[f"{udp} {lab}"] = pooled(rs, "fct_s", cca=cca, udp_mbps=udp, routing=r)
                pct = [
                    q["mesh"]["udp"]["delivered_pct"]
                    for q in rs
                    if q["labels"] == {"cca": cca, "udp_mbps": udp, "routing": r}
                ]
                print(
                    f"{cca:<9} {udp:>5} Mb/s {lab:<11} FT {stick(groups[f'{udp} {lab}']):<28} "
                    f"UDP delivered {np.mean(pct):.1f} %"
                )
        panel_figure(
            [(f"Fig. {fig}: {cca}", "finish time (s)", groups)], IMG / f"seed004_fig{fig}.png"
        )


def report_modena(rs: list[dict]) -> None:
    print("## Figs. 9-14 (Modena, 75 CUBIC): finish time, RTT, JFI")
    panels = []
    for topo in ("modena_tree", "modena_redundant"):
        fct, rtt = {}, {}
        for r, lab in ROUTING_LABEL.items():
            fct[lab] = pooled(rs, "fct_s", topology=topo, routing=r)
            rtt[lab] = pooled(rs, "rtt_mean_ms", topology=topo, routing=r)
            print(
                f"{topo:<17} {lab:<11} FT {stick(fct[lab]):<28} RTT {stick(rtt[lab]):<28} "
                f"JFI {jfi(rs, topology=topo, routing=r):.2f}"
            )
        panels += [(topo, "finish time (s)", fct), (topo, "mean RTT (ms)", rtt)]
    panel_figure(panels, IMG / "seed004_modena.png")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--only", nargs="*", choices=list(STUDIES), default=list(STUDIES))
    ap.add_argument("--seeds", nargs="*", type=int, help="only these of the studies' seeds")
    args = ap.parse_args()
    report = {
        "fig2": report_fig2,
        "fig3": report_fig3,
        "fig6_7": report_fig6_7,
        "modena": report_modena,
    }
    for name in args.only:
        report[name](runs(name, args.workers, args.seeds))


if __name__ == "__main__":
    main()

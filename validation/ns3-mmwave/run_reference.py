#!/usr/bin/env python3
"""Run the seed 002 scenario in the authors' ns3-mmwave tree and write golden data.

Each run of scenarios/ccsim-seed002.cc (BBR or SIAD, an RLC buffer size, an RNG seed) writes
a per-millisecond CSV; this driver turns it into

- validation/golden/ns3-mmwave/seed002_<cc>_<rlc>MB_s<seed>.json: the command, seed, tree
  commit, scenario program hash and wall time; per-phase (LOS 0-5 s, NLOS 5-10 s, LOS
  10-15 s) goodput, RTT, SINR, MCS, BLER and RLC occupancy; the per-100 ms series;
- validation/golden/ns3-mmwave/seed002_<cc>_<rlc>MB_s<seed>_10ms.csv.gz: the same at 10 ms,
  for calibrating a channel process at that scale;
- validation/golden/ns3-mmwave/summary.json: the mean over seeds per cc x buffer and the
  4 MB vs 7 MB effect.

Usage (after `bash validation/ns3-mmwave/setup.sh`):
    python3 validation/ns3-mmwave/run_reference.py --cc TcpBbr TcpSiad --rlc 4 7 --seeds 2 3
Runs one simulation at a time under `nice -n 19`; a run whose JSON exists is skipped unless
--force. `--summary-only` rebuilds summary.json from the JSON files present.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import hashlib
import io
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
GOLDEN = ROOT / "validation" / "golden" / "ns3-mmwave"
SCENARIO = HERE / "scenarios" / "ccsim-seed002.cc"
DEFAULT_TREE = HERE / "build" / "tree"

# The UE's line of sight to the gNB is blocked while |y| <= 5 m, y = 15 - 2 t: 5 s to 10 s
# (geometry of test-mmw.cc; docs/radio.md gives the same interval for ccsim).
PHASES = (("los1", 0.0, 5.0), ("nlos", 5.0, 10.0), ("los2", 10.0, 15.0))
SLOT_S = 0.001


def tree_binary(tree: Path) -> Path:
    hits = sorted((tree / "build" / "scratch").glob("*ccsim-seed002*"))
    hits = [h for h in hits if h.is_file() and os.access(h, os.X_OK)]
    if not hits:
        sys.exit(f"error: no ccsim-seed002 binary under {tree}/build/scratch: run setup.sh")
    return hits[0]


def run_name(cc: str, rlc_mb: float, seed: int, stop: float | None = None) -> str:
    short = cc.removeprefix("Tcp").lower()
    partial = f"_to{stop:g}s" if stop is not None else ""
    return f"seed002_{short}_{rlc_mb:g}MB_s{seed}{partial}"


def read_ms_csv(path: Path) -> list[dict[str, float]]:
    rows = []
    with path.open() as f:
        for r in csv.DictReader(f):
            rows.append({k: (float(v) if v != "" else math.nan) for k, v in r.items()})
    return rows


def aggregate(rows: list[dict[str, float]], width_ms: int) -> list[dict[str, float | None]]:
    """Bins of width_ms: goodput, RTT (mean of samples), last cwnd, TB statistics, RLC means."""
    out = []
    cwnd = 0.0
    for start in range(0, len(rows), width_ms):
        chunk = rows[start : start + width_ms]
        if len(chunk) < width_ms:
            break
        rx = sum(r["rx_bytes"] for r in chunk)
        rtt_n = sum(r["rtt_n"] for r in chunk)
        tb_n = sum(r["tb_n"] for r in chunk)
        for r in chunk:
            if r["cwnd_bytes"] > 0:
                cwnd = r["cwnd_bytes"]
        mins = [r["sinr_min_db"] for r in chunk if r["tb_n"] > 0]
        maxs = [r["sinr_max_db"] for r in chunk if r["tb_n"] > 0]
        secs = width_ms / 1000
        out.append(
            {
                "t_s": round(start / 1000, 3),
                "goodput_mbps": round(rx * 8 / secs / 1e6, 3),
                "rtt_ms": round(sum(r["rtt_sum_us"] for r in chunk) / rtt_n / 1000, 3)
                if rtt_n
                else None,
                "cwnd_bytes": int(cwnd),
                "tb_n": int(tb_n),
                "tb_mbps": round(sum(r["tb_bytes"] for r in chunk) * 8 / secs / 1e6, 3),
                "tb_corrupt": int(sum(r["tb_corrupt"] for r in chunk)),
                "tb_retx": int(sum(r["tb_retx"] for r in chunk)),
                "sinr_db": round(sum(r["sinr_sum_db"] for r in chunk) / tb_n, 2) if tb_n else None,
                "sinr_min_db": round(min(mins), 2) if mins else None,
                "sinr_max_db": round(max(maxs), 2) if maxs else None,
                "mcs": round(sum(r["mcs_sum"] for r in chunk) / tb_n, 2) if tb_n else None,
                "rlc_txon_bytes": int(statistics.fmean(r["rlc_txon_bytes"] for r in chunk)),
                "rlc_txon_max_bytes": int(max(r["rlc_txon_bytes"] for r in chunk)),
                "rlc_retx_bytes": int(statistics.fmean(r["rlc_retx_bytes"] for r in chunk)),
                "rlc_txed_bytes": int(statistics.fmean(r["rlc_txed_bytes"] for r in chunk)),
                "recoveries": int(sum(r["recoveries"] for r in chunk)),
                "rtos": int(sum(r["rtos"] for r in chunk)),
            }
        )
    return out


def phase_stats(rows: list[dict[str, float]], t0: float, t1: float) -> dict[str, float | None]:
    sel = [r for r in rows if t0 <= r["t_ms"] / 1000 < t1]
    secs = len(sel) / 1000
    rtt_n = sum(r["rtt_n"] for r in sel)
    tb_n = sum(r["tb_n"] for r in sel)
    corrupt = sum(r["tb_corrupt"] for r in sel)
    # Delivered radio capacity per 10 ms while the RLC queue is backlogged: its coefficient of
    # variation is the short-time-scale variation ccsim's channel lacks (issue 15).
    rates = []
    for i in range(0, len(sel) - 9, 10):
        chunk = sel[i : i + 10]
        if all(r["rlc_txon_bytes"] > 0 for r in chunk):
            rates.append(sum(r["tb_bytes"] for r in chunk) * 8 / 0.01 / 1e6)
    sinr_ms = [r["sinr_sum_db"] / r["tb_n"] for r in sel if r["tb_n"] > 0]
    return {
        "goodput_mbps": round(sum(r["rx_bytes"] for r in sel) * 8 / secs / 1e6, 2),
        "rtt_ms": round(sum(r["rtt_sum_us"] for r in sel) / rtt_n / 1000, 2) if rtt_n else None,
        "rtt_samples": int(rtt_n),
        "sinr_db": round(sum(r["sinr_sum_db"] for r in sel) / tb_n, 2) if tb_n else None,
        "sinr_db_std_1ms": round(statistics.pstdev(sinr_ms), 2) if len(sinr_ms) > 1 else None,
        "mcs": round(sum(r["mcs_sum"] for r in sel) / tb_n, 2) if tb_n else None,
        "tb_mbps": round(sum(r["tb_bytes"] for r in sel) * 8 / secs / 1e6, 2),
        "bler": round(corrupt / tb_n, 4) if tb_n else None,
        "harq_retx_frac": round(sum(r["tb_retx"] for r in sel) / tb_n, 4) if tb_n else None,
        "backlogged_10ms_mbps_mean": round(statistics.fmean(rates), 1) if rates else None,
        "backlogged_10ms_mbps_cv": round(statistics.pstdev(rates) / statistics.fmean(rates), 3)
        if len(rates) > 1
        else None,
        "rlc_txon_bytes_mean": int(statistics.fmean(r["rlc_txon_bytes"] for r in sel)),
        "rlc_txon_bytes_max": int(max(r["rlc_txon_bytes"] for r in sel)),
        "rlc_retx_bytes_mean": int(statistics.fmean(r["rlc_retx_bytes"] for r in sel)),
        "recoveries": int(sum(r["recoveries"] for r in sel)),
        "rtos": int(sum(r["rtos"] for r in sel)),
    }


def write_10ms_csv(series: list[dict], path: Path) -> None:
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=list(series[0].keys()), lineterminator="\n")
    w.writeheader()
    for row in series:
        w.writerow({k: ("" if v is None else v) for k, v in row.items()})
    # mtime=0: the same data gives the same bytes.
    with path.open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as gz:
        gz.write(buf.getvalue().encode())


def run_one(
    tree: Path,
    cc: str,
    rlc_mb: float,
    seed: int,
    sim_time: float,
    stop: float | None,
    nice: int = 19,
) -> Path:
    """One run; with `stop`, only the run's first `stop` seconds (the same events: a prefix)."""
    name = run_name(cc, rlc_mb, seed, stop)
    end = sim_time if stop is None else stop
    binary = tree_binary(tree)
    with tempfile.TemporaryDirectory(prefix="ns3mmw-") as tmp:
        out_csv = Path(tmp) / f"{name}.csv"
        args = [
            f"--cc={cc}",
            f"--rlcBuf={int(rlc_mb * 1e6)}",
            f"--seed={seed}",
            "--run=0",
            f"--time={sim_time:g}",
            *([f"--stop={stop:g}"] if stop is not None else []),
            f"--out={out_csv}",
        ]
        cmd = ["nice", "-n", str(nice), str(binary), *args]
        env = dict(os.environ, LD_LIBRARY_PATH=str(tree / "build" / "lib"))
        print(f"== {name}: {' '.join(cmd)}", flush=True)
        t0 = time.monotonic()
        proc = subprocess.run(cmd, cwd=tmp, env=env, capture_output=True, text=True)
        wall = time.monotonic() - t0
        if proc.returncode != 0:
            sys.exit(f"error: {name} failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
        rows = read_ms_csv(out_csv)
    rows = [r for r in rows if r["t_ms"] < end * 1000]
    if sum(r["tb_n"] for r in rows) == 0:
        sys.exit(f"error: {name}: no downlink TB was traced (RxPacketTraceUe not connected)")
    commit = (tree / ".ccsim-tree-commit").read_text().strip()
    series_100 = aggregate(rows, 100)
    doc = {
        "scenario": "seed002: 1 gNB, UE walking behind a building (NLOS 5-10 s), bulk TCP download",
        "reference": "dscharnitzky/ns3-mmwave-tcp-bbr-siad (ns-3.33 + mmwave + TCP SIAD)",
        "tree_commit": commit,
        "program": "validation/ns3-mmwave/scenarios/ccsim-seed002.cc",
        "program_sha256": hashlib.sha256(SCENARIO.read_bytes()).hexdigest(),
        "command": "ccsim-seed002 " + " ".join(a for a in args if not a.startswith("--out")),
        "regenerate": "python3 validation/ns3-mmwave/run_reference.py "
        f"--cc {cc} --rlc {rlc_mb:g} --seeds {seed} --time {sim_time:g}"
        + (f" --stop {stop:g}" if stop is not None else "")
        + " --force",
        "cc": cc,
        "rlc_buffer_bytes": int(rlc_mb * 1e6),
        "seed": seed,
        "run": 0,
        "sim_time_s": sim_time,
        "stopped_at_s": end,
        "mss_bytes": 10000,
        "min_rto_ms": 1000,
        "wall_time_s": round(wall, 1),
        "wall_s_per_sim_s": round(wall / end, 2),
        "load_note": f"wall time under nice -n {nice} on a shared 2-core machine",
        # Only the phases the run covers entirely.
        "phases": {p: phase_stats(rows, a, b) for p, a, b in PHASES if b <= end},
        "whole_run": phase_stats(rows, 0.0, end),
        "series_100ms": series_100,
    }
    GOLDEN.mkdir(parents=True, exist_ok=True)
    path = GOLDEN / f"{name}.json"
    path.write_text(json.dumps(doc, indent=1) + "\n")
    write_10ms_csv(aggregate(rows, 10), GOLDEN / f"{name}_10ms.csv.gz")
    ph = doc["phases"]
    print(
        f"   wall {wall:.0f} s; goodput "
        + ", ".join(f"{k} {v['goodput_mbps']} Mb/s RTT {v['rtt_ms']} ms" for k, v in ph.items()),
        flush=True,
    )
    return path


def summarize() -> dict:
    groups: dict[tuple[str, int], list[dict]] = {}
    for p in sorted(GOLDEN.glob("seed002_*.json")):
        d = json.loads(p.read_text())
        if d.get("stopped_at_s", d["sim_time_s"]) < d["sim_time_s"]:
            continue  # partial runs (prefixes) stay out of the means
        groups.setdefault((d["cc"], d["rlc_buffer_bytes"]), []).append(d)

    def mean(vals):
        vals = [v for v in vals if v is not None]
        return round(statistics.fmean(vals), 2) if vals else None

    cells = {}
    for (cc, rlc), docs in sorted(groups.items()):
        key = f"{cc}_{rlc / 1e6:g}MB"
        cells[key] = {
            "cc": cc,
            "rlc_buffer_bytes": rlc,
            "seeds": [d["seed"] for d in docs],
            "wall_time_s": [d["wall_time_s"] for d in docs],
            "whole_run_goodput_mbps": mean(d["whole_run"]["goodput_mbps"] for d in docs),
            "whole_run_goodput_mbps_per_seed": [d["whole_run"]["goodput_mbps"] for d in docs],
            "whole_run_rtt_ms": mean(d["whole_run"]["rtt_ms"] for d in docs),
            "phases": {
                ph: {
                    k: mean(d["phases"][ph][k] for d in docs)
                    for k in (
                        "goodput_mbps",
                        "rtt_ms",
                        "sinr_db",
                        "mcs",
                        "bler",
                        "backlogged_10ms_mbps_cv",
                        "rlc_txon_bytes_mean",
                        "rtos",
                    )
                }
                for ph, _, _ in PHASES
            },
        }
    effect = {}
    for cc in sorted({c for c, _ in groups}):
        a, b = cells.get(f"{cc}_4MB"), cells.get(f"{cc}_7MB")
        if a and b:
            common = sorted(set(a["seeds"]) & set(b["seeds"]))
            effect[cc] = {
                "seeds_4MB": a["seeds"],
                "seeds_7MB": b["seeds"],
                "goodput_change_pct": round(
                    100 * (a["whole_run_goodput_mbps"] / b["whole_run_goodput_mbps"] - 1), 1
                ),
                "rtt_change_pct": round(
                    100 * (a["whole_run_rtt_ms"] / b["whole_run_rtt_ms"] - 1), 1
                ),
                "los2_goodput_change_pct": round(
                    100
                    * (
                        a["phases"]["los2"]["goodput_mbps"] / b["phases"]["los2"]["goodput_mbps"]
                        - 1
                    ),
                    1,
                ),
                "seeds_in_both": common,
            }
    summary = {
        "note": "means over the seeds present; regenerate with run_reference.py (README.md)",
        "cells": cells,
        "rlc_4MB_vs_7MB": effect,
    }
    (GOLDEN / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    return summary


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "--tree", type=Path, default=Path(os.environ.get("NS3_MMWAVE_TREE", DEFAULT_TREE))
    )
    ap.add_argument("--cc", nargs="+", default=["TcpBbr", "TcpSiad"], help="ns-3 TCP TypeIds")
    ap.add_argument(
        "--rlc", nargs="+", type=float, default=[4, 7], help="RLC buffers in MB (1e6 B)"
    )
    ap.add_argument("--seeds", nargs="+", type=int, default=[2, 3])
    ap.add_argument("--time", type=float, default=15.0, help="duration of the UE's walk (s)")
    ap.add_argument(
        "--stop", type=float, default=None, help="stop early (s): a prefix of the run, kept apart"
    )
    ap.add_argument("--force", action="store_true", help="re-run even if the JSON exists")
    ap.add_argument("--nice", type=int, default=19, help="niceness of the simulation process")
    ap.add_argument("--summary-only", action="store_true")
    a = ap.parse_args()
    if not a.summary_only:
        # Seeds outermost: every cc x buffer cell gets its first seed before any gets a second;
        # buffers innermost, so each cc's 4 vs 7 MB pair is complete as early as possible.
        for seed in a.seeds:
            for cc in a.cc:
                for rlc in a.rlc:
                    target = GOLDEN / f"{run_name(cc, rlc, seed, a.stop)}.json"
                    if target.exists() and not a.force:
                        print(f"== {target.name} exists, skipped")
                        continue
                    run_one(a.tree, cc, rlc, seed, a.time, a.stop, a.nice)
                    summarize()
    print(json.dumps(summarize()["rlc_4MB_vs_7MB"], indent=1))


if __name__ == "__main__":
    main()

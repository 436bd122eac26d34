#!/usr/bin/env python3
"""Run the handover/blockage reference (scenarios/ccsim-handover.cc) in the seed 002 authors'
ns3-mmwave tree and write golden data for ccsim's handover model (issue 15).

A UE walks y = 0 from x0 at `speed` past a 15 m high building (x 70-130 m, y 5-10 m) that
blocks mmWave gNB A (0, 30, 10) from x = 84 m and gNB B (200, 30, 10) until x = 116 m; an LTE
eNB next to A coordinates dual connectivity (McUeNetDevice, X2, RLC AM). Bulk TCP download.

Per run, in validation/golden/ns3-mmwave/:
- handover_<cc>_dc_s<seed>.json: command, regenerate line, tree commit, program hash, wall
  time; the RRC events (handover starts/ends, RAT switches); per phase (A in LOS, both
  blocked, B in LOS) and whole run: goodput, RTT, TCP retransmissions, recoveries, RTOs, and
  per cell SINR, MCS, served rate and RLC occupancy; the per-100 ms series;
- handover_<cc>_dc_s<seed>_10ms.csv.gz: the same series per 10 ms.

Usage (after `bash validation/ns3-mmwave/setup.sh`):
    python3 validation/ns3-mmwave/run_handover.py --cc TcpCubic TcpNewReno --seeds 1
`--raw DIR` converts CSVs the program already wrote (named as the runs) instead of running.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_reference import write_10ms_csv  # noqa: E402

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
GOLDEN = ROOT / "validation" / "golden" / "ns3-mmwave"
SCENARIO = HERE / "scenarios" / "ccsim-handover.cc"
DEFAULT_TREE = HERE / "build" / "tree"
CELLS = {1: "lte", 2: "mmwave_a", 3: "mmwave_b"}  # cell ids as the program prints them
# x where the building starts blocking gNB A and stops blocking gNB B (geometry in the .cc).
BLOCK_A_X, CLEAR_B_X = 84.0, 116.0
FLOW_START_S = 0.3


def run_name(cc: str, dc: bool, seed: int) -> str:
    return f"handover_{cc.removeprefix('Tcp').lower()}_{'dc' if dc else 'sc'}_s{seed}"


def program_args(cc: str, dc: bool, seed: int, a: argparse.Namespace) -> list[str]:
    return [
        f"--cc={cc}",
        f"--dc={int(dc)}",
        f"--seed={seed}",
        "--run=0",
        f"--time={a.time:g}",
        f"--x0={a.x0:g}",
        f"--speed={a.speed:g}",
    ]


def read_rows(path: Path) -> list[dict[str, float]]:
    with path.open() as f:
        return [{k: float(v) for k, v in r.items()} for r in csv.DictReader(f)]


def read_events(path: Path) -> list[dict]:
    with path.open() as f:
        return [
            {
                "t_s": float(r["t_s"]),
                "kind": r["kind"],
                "cell_id": int(r["cell_id"]),
                "other": int(r["other"]),
            }
            for r in csv.DictReader(f)
        ]


def cell_stats(chunk: list[dict[str, float]], c: int, secs: float) -> dict:
    p = f"c{c}_"
    tb_n = sum(r[p + "tb_n"] for r in chunk)
    rt_n = sum(r[p + "rt_sinr_n"] for r in chunk)
    return {
        "tb_n": int(tb_n),
        "tb_mbps": round(sum(r[p + "tb_bytes"] for r in chunk) * 8 / secs / 1e6, 2),
        "tb_corrupt": int(sum(r[p + "tb_corrupt"] for r in chunk)),
        "tb_retx": int(sum(r[p + "tb_retx"] for r in chunk)),
        "tb_sinr_db": round(sum(r[p + "tb_sinr_sum_db"] for r in chunk) / tb_n, 2)
        if tb_n and c != 1
        else None,
        "mcs": round(sum(r[p + "mcs_sum"] for r in chunk) / tb_n, 2) if tb_n else None,
        "sinr_db": round(sum(r[p + "rt_sinr_sum_db"] for r in chunk) / rt_n, 2) if rt_n else None,
        "rlc_txon_bytes": int(statistics.fmean(r[p + "rlc_txon_bytes"] for r in chunk)),
        "rlc_retx_bytes": int(statistics.fmean(r[p + "rlc_retx_bytes"] for r in chunk)),
        "rlc_txed_bytes": int(statistics.fmean(r[p + "rlc_txed_bytes"] for r in chunk)),
    }


def span_stats(chunk: list[dict[str, float]]) -> dict:
    secs = len(chunk) / 1000
    rtt_n = sum(r["rtt_n"] for r in chunk)
    return {
        "goodput_mbps": round(sum(r["rx_bytes"] for r in chunk) * 8 / secs / 1e6, 2),
        "rtt_ms": round(sum(r["rtt_sum_us"] for r in chunk) / rtt_n / 1000, 2) if rtt_n else None,
        "retx_segs": int(sum(r["retx_segs"] for r in chunk)),
        "recoveries": int(sum(r["recoveries"] for r in chunk)),
        "rtos": int(sum(r["rtos"] for r in chunk)),
    }


def series(rows: list[dict[str, float]], width_ms: int) -> list[dict]:
    out = []
    cwnd = 0.0
    for start in range(0, len(rows) - width_ms + 1, width_ms):
        chunk = rows[start : start + width_ms]
        for r in chunk:
            cwnd = r["cwnd_bytes"] or cwnd
        row = {"t_s": round(start / 1000, 3), **span_stats(chunk), "cwnd_bytes": int(cwnd)}
        served = 0
        for c in CELLS:
            cs = cell_stats(chunk, c, width_ms / 1000)
            if cs["tb_n"] > 0 and (served == 0 or cs["tb_mbps"] > row[f"c{served}_tb_mbps"]):
                served = c
            row.update({f"c{c}_{k}": v for k, v in cs.items()})
        row["serving_cell"] = served
        out.append(row)
    return out


def handover_gaps(rows: list[dict[str, float]], events: list[dict]) -> list[dict]:
    """Per handover/switch start after the flow began: the longest run of ms without data
    delivered to the sink in the 1 s that follows, and the TCP events in that second."""
    out = []
    for e in events:
        if e["t_s"] < FLOW_START_S or not e["kind"].endswith(("ho_start", "switch_to_lte")):
            continue
        i0 = int(e["t_s"] * 1000)
        win = rows[i0 : i0 + 1000]
        gap = best = 0
        for r in win:
            gap = gap + 1 if r["rx_bytes"] == 0 else 0
            best = max(best, gap)
        out.append({**e, "longest_no_delivery_ms_in_1s": best, "next_1s": span_stats(win)})
    return out


def convert(
    name: str,
    csv_path: Path,
    cmd_args: list[str],
    cc: str,
    dc: bool,
    seed: int,
    a: argparse.Namespace,
    wall: float | None,
    tree: Path,
) -> Path:
    rows = read_rows(csv_path)
    rows = [r for r in rows if r["t_ms"] < a.time * 1000]
    events = read_events(Path(str(csv_path) + ".events.csv"))
    t_block = (BLOCK_A_X - a.x0) / a.speed
    t_clear = (CLEAR_B_X - a.x0) / a.speed
    phases = {
        "a_los": (FLOW_START_S, t_block),
        "both_blocked": (t_block, t_clear),
        "b_los": (t_clear, a.time),
    }
    commit_file = tree / ".ccsim-tree-commit"
    doc = {
        "scenario": "handover: UE walks past a building between mmWave gNBs A and B, LTE eNB "
        "for dual connectivity, bulk TCP download",
        "reference": "dscharnitzky/ns3-mmwave-tcp-bbr-siad (ns-3.33 + mmwave + TCP SIAD)",
        "tree_commit": commit_file.read_text().strip() if commit_file.exists() else None,
        "program": "validation/ns3-mmwave/scenarios/ccsim-handover.cc",
        "program_sha256": hashlib.sha256(SCENARIO.read_bytes()).hexdigest(),
        "command": "ccsim-handover " + " ".join(cmd_args),
        "regenerate": "python3 validation/ns3-mmwave/run_handover.py "
        f"--cc {cc} --seeds {seed} --time {a.time:g} --x0 {a.x0:g} --speed {a.speed:g} --force",
        "cc": cc,
        "dual_connectivity": dc,
        "seed": seed,
        "sim_time_s": a.time,
        "ue_x0_m": a.x0,
        "ue_speed_mps": a.speed,
        "flow_start_s": FLOW_START_S,
        "cells": CELLS,
        "mss_bytes": 1400,
        "min_rto_ms": 200,
        "rlc_buffer_bytes": 10_000_000,
        "wall_time_s": None if wall is None else round(wall, 1),
        "load_note": f"wall time under nice -n {a.nice} on a shared 2-core machine; load "
        f"average at the end {os.getloadavg()[1]:.1f} (5 min)",
        "phase_bounds_s": {k: [round(v[0], 3), round(v[1], 3)] for k, v in phases.items()},
        "events": events,
        "handover_gaps": handover_gaps(rows, events),
        "phases": {},
        "series_100ms": series(rows, 100),
    }
    for ph, (t0, t1) in {**phases, "whole_run": (FLOW_START_S, a.time)}.items():
        chunk = rows[int(t0 * 1000) : int(t1 * 1000)]
        if not chunk:
            continue
        doc["phases"][ph] = {
            **span_stats(chunk),
            "cells": {CELLS[c]: cell_stats(chunk, c, len(chunk) / 1000) for c in CELLS},
        }
    GOLDEN.mkdir(parents=True, exist_ok=True)
    path = GOLDEN / f"{name}.json"
    path.write_text(json.dumps(doc, indent=1) + "\n")
    write_10ms_csv(series(rows, 10), GOLDEN / f"{name}_10ms.csv.gz")
    ph = doc["phases"]
    print(
        f"   {name}: "
        + "; ".join(
            f"{k} {v['goodput_mbps']} Mb/s RTT {v['rtt_ms']} ms retx {v['retx_segs']} "
            f"RTO {v['rtos']}"
            for k, v in ph.items()
        ),
        flush=True,
    )
    return path


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "--tree", type=Path, default=Path(os.environ.get("NS3_MMWAVE_TREE", DEFAULT_TREE))
    )
    ap.add_argument("--cc", nargs="+", default=["TcpCubic", "TcpNewReno"])
    ap.add_argument("--seeds", nargs="+", type=int, default=[1])
    ap.add_argument("--time", type=float, default=10.0, help="simulated time (s)")
    ap.add_argument("--x0", type=float, default=60.0, help="UE start x (m)")
    ap.add_argument("--speed", type=float, default=10.0, help="UE speed (m/s)")
    ap.add_argument("--nice", type=int, default=5)
    ap.add_argument("--raw", type=Path, default=None, help="convert <DIR>/<run>.csv, no run")
    ap.add_argument("--force", action="store_true")
    a = ap.parse_args()
    dc = True  # single connectivity is not runnable in this tree (README.md, section 8)
    for seed in a.seeds:
        for cc in a.cc:
            name = run_name(cc, dc, seed)
            args = program_args(cc, dc, seed, a)
            if (GOLDEN / f"{name}.json").exists() and not a.force:
                print(f"== {name}.json exists, skipped")
                continue
            if a.raw is not None:
                log = a.raw / f"{name}.log"  # the launcher's log ends with "rc=0 wall=<s>"
                walls = (
                    [ln.split("wall=")[1] for ln in log.read_text().splitlines() if "wall=" in ln]
                    if log.exists()
                    else []
                )
                wall = float(walls[-1]) if walls else None
                convert(name, a.raw / f"{name}.csv", args, cc, dc, seed, a, wall, a.tree)
                continue
            binary = a.tree / "build" / "scratch" / "ccsim-handover"
            if not binary.exists():
                sys.exit(f"error: {binary} missing: run setup.sh")
            with tempfile.TemporaryDirectory(prefix="ns3mmw-ho-") as tmp:
                out = Path(tmp) / f"{name}.csv"
                cmd = ["nice", "-n", str(a.nice), str(binary), *args, f"--out={out}"]
                env = dict(os.environ, LD_LIBRARY_PATH=str(a.tree / "build" / "lib"))
                print(f"== {name}: {' '.join(cmd)}", flush=True)
                t0 = time.monotonic()
                proc = subprocess.run(cmd, cwd=tmp, env=env, capture_output=True, text=True)
                if proc.returncode != 0:
                    sys.exit(f"error: {name} failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
                convert(name, out, args, cc, dc, seed, a, time.monotonic() - t0, a.tree)


if __name__ == "__main__":
    main()

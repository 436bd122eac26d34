#!/usr/bin/env python3
"""Run seed 000 §III-B (one building, Fig. III-B's settings) in the ns3-mmwave tree.

Each run of scenarios/ccsim-seed000.cc (CUBIC, an RLC buffer, a minimum RTO, an RNG seed)
writes a per-millisecond CSV with the columns of ccsim-seed002.cc; this driver reduces it
with run_reference.py's functions to

- validation/golden/ns3-mmwave/seed000_<setting>_s<seed>.json: the command, tree commit,
  program hash and wall time; per phase (LOS 0-2.133 s, NLOS 2.133-15.133 s, LOS 15.133-25 s:
  the building's exact shadow, docs/radio.md) goodput, RTT, SINR, MCS, BLER, RLC occupancy,
  recoveries and RTOs; the per-100 ms series.

Settings (Fig. III-B): baseline = RLC 1 MB + min RTO 1 s; rlc = 7 MB + 1 s; rlc_rto = 7 MB +
200 ms (the lower RTO's value is open in the paper, as in ccsim's files).

Usage (after `bash validation/ns3-mmwave/setup.sh`):
    python3 validation/ns3-mmwave/run_seed000_reference.py --settings baseline rlc rlc_rto --seeds 1
One simulation at a time under `nice -n 10`; an existing JSON is skipped unless --force.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from run_reference import DEFAULT_TREE, GOLDEN, aggregate, phase_stats, read_ms_csv  # noqa: E402

SCENARIO = HERE / "scenarios" / "ccsim-seed000.cc"
SETTINGS = {"baseline": (1_000_000, 1000), "rlc": (7_000_000, 1000), "rlc_rto": (7_000_000, 200)}
# The building hides the gNB while the UE is at y in [0, 19.5] m: 2.133-15.133 s.
PHASES = (("los1", 0.0, 2.133), ("nlos", 2.133, 15.133), ("los2", 15.133, 25.0))
SIM_TIME = 25.0


def binary(tree: Path) -> Path:
    hits = [
        h
        for h in sorted((tree / "build" / "scratch").glob("*ccsim-seed000*"))
        if h.is_file() and os.access(h, os.X_OK) and h.suffix != ".o"
    ]
    if not hits:
        sys.exit(f"error: no ccsim-seed000 binary under {tree}/build/scratch: run setup.sh")
    return hits[0]


def run_one(tree: Path, setting: str, seed: int, cc: str) -> Path:
    rlc, min_rto = SETTINGS[setting]
    name = f"seed000_{cc.removeprefix('Tcp').lower()}_{setting}_s{seed}"
    args = [f"--cc={cc}", f"--rlcBuf={rlc}", f"--minRtoMs={min_rto}", f"--seed={seed}"]
    with tempfile.TemporaryDirectory(prefix="ns3mmw-") as tmp:
        out_csv = Path(tmp) / f"{name}.csv"
        cmd = ["nice", "-n", "10", str(binary(tree)), *args, f"--out={out_csv}"]
        env = dict(os.environ, LD_LIBRARY_PATH=str(tree / "build" / "lib"))
        print(f"== {name}: {' '.join(cmd)}", flush=True)
        t0 = time.monotonic()
        proc = subprocess.run(cmd, cwd=tmp, env=env, capture_output=True, text=True)
        wall = time.monotonic() - t0
        if proc.returncode != 0:
            sys.exit(f"error: {name} failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
        rows = [r for r in read_ms_csv(out_csv) if r["t_ms"] < SIM_TIME * 1000]
    doc = {
        "scenario": "seed000 §III-B: 1 gNB, UE 150 m away walking 21 s at 1.5 m/s, one "
        "building (NLOS 2.133-15.133 s), bulk TCP download, 25 s",
        "reference": "dscharnitzky/ns3-mmwave-tcp-bbr-siad (ns-3.33 + mmwave)",
        "tree_commit": (tree / ".ccsim-tree-commit").read_text().strip(),
        "program": "validation/ns3-mmwave/scenarios/ccsim-seed000.cc",
        "program_sha256": hashlib.sha256(SCENARIO.read_bytes()).hexdigest(),
        "command": "ccsim-seed000 " + " ".join(args),
        "regenerate": "python3 validation/ns3-mmwave/run_seed000_reference.py "
        f"--settings {setting} --seeds {seed} --cc {cc} --force",
        "setting": setting,
        "cc": cc,
        "rlc_buffer_bytes": rlc,
        "min_rto_ms": min_rto,
        "seed": seed,
        "wall_time_s": round(wall, 1),
        "phases": {p: phase_stats(rows, a, b) for p, a, b in PHASES},
        "whole_run": phase_stats(rows, 0.0, SIM_TIME),
        "series_100ms": aggregate(rows, 100),
    }
    GOLDEN.mkdir(parents=True, exist_ok=True)
    path = GOLDEN / f"{name}.json"
    path.write_text(json.dumps(doc, indent=1) + "\n")
    w = doc["whole_run"]
    print(
        f"   wall {wall:.0f} s; {w['goodput_mbps']} Mb/s, RTT {w['rtt_ms']} ms, "
        f"{w['rtos']} RTOs; "
        + ", ".join(
            f"{k} {v['goodput_mbps']} Mb/s SINR {v['sinr_db']} dB" for k, v in doc["phases"].items()
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
    ap.add_argument("--settings", nargs="+", default=list(SETTINGS), choices=list(SETTINGS))
    ap.add_argument("--seeds", nargs="+", type=int, default=[1])
    ap.add_argument("--cc", default="TcpCubic", help="ns-3 TCP TypeId (Fig. III-B: TcpCubic)")
    ap.add_argument("--force", action="store_true", help="re-run even if the JSON exists")
    a = ap.parse_args()
    for seed in a.seeds:
        for setting in a.settings:
            target = GOLDEN / f"seed000_{a.cc.removeprefix('Tcp').lower()}_{setting}_s{seed}.json"
            if target.exists() and not a.force:
                print(f"== {target.name} exists, skipped")
                continue
            run_one(a.tree, setting, seed, a.cc)


if __name__ == "__main__":
    main()

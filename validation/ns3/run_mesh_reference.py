#!/usr/bin/env python3
"""Run the ns-3.44 mesh reference (seed 004 grid with OLSR, issue 14) and write golden JSON.

Usage (from the repository root, after `bash validation/ns3/setup.sh`):

    python3 validation/ns3/run_mesh_reference.py                     # N 25,50,100 x RngRun 1,2,3
    python3 validation/ns3/run_mesh_reference.py --ues 25 --seeds 1
    python3 validation/ns3/run_mesh_reference.py --table             # markdown table of the data
    # the start-up study (docs in validation/golden/ns3/mesh/startup/README.md): 10 RngRuns,
    # runs cut at 16 s, when every flow whose third SYN found a route has finished
    python3 validation/ns3/run_mesh_reference.py --ues 50,100 --seeds 1,2,3,4,5,6,7,8,9,10 \
        --duration 16 --outdir validation/golden/ns3/mesh/startup

The scenario is validation/ns3/mesh/SCENARIO.md; the program is validation/ns3/mesh.cc.
Each run writes validation/golden/ns3/mesh/n<N>_run<seed>.json (`<preset>_n<N>_run<seed>`
for a cell preset other than `paper`): the program's own JSON plus "command" (the exact argv,
relative to the repository root), "ns3_version" (the installed wheel), "host",
"load_avg_1m_before" and "driver_wall_s". Runs are sequential: ns-3 wall times are only
comparable when the runs do not share the machine.

Standard library only; not part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

# The same host description as the dumbbell goldens (this directory is on sys.path).
from run_reference import host_info

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
DEFAULT_BIN = HERE / "build" / "mesh"
DEFAULT_OUT = REPO / "validation" / "golden" / "ns3" / "mesh"

# Cell-link presets of SCENARIO.md (R_i-C_i rate, bit/s).
PRESETS = {"paper": 350_000_000, "lena": 37_000_000}


def ns3_version() -> str:
    """The version of the ns3 wheel the binary was built against (setup.sh records the venv)."""
    venv = (HERE / "build" / "venv_path").read_text().strip()
    py = Path(venv) / "bin" / "python"
    out = subprocess.run(
        [str(py), "-c", "import importlib.metadata as m; print(m.version('ns3'))"],
        capture_output=True,
        text=True,
        check=True,
    )
    return out.stdout.strip()


def case_name(preset: str, ues: int, seed: int) -> str:
    prefix = "" if preset == "paper" else f"{preset}_"
    return f"{prefix}n{ues}_run{seed}"


def run_one(
    binary: Path,
    preset: str,
    ues: int,
    seed: int,
    outdir: Path,
    version: str,
    duration: float | None = None,
) -> dict:
    case = case_name(preset, ues, seed)
    out = outdir / f"{case}.json"
    tmp = out.with_suffix(".json.tmp")
    cmd = [
        str(binary),
        f"--ues={ues}",
        f"--seed={seed}",
        "--cca=TcpCubic",
        f"--cellRate={PRESETS[preset]}",
        f"--caseName={case}",
        f"--out={tmp}",
    ]
    if duration is not None:
        cmd.append(f"--duration={duration:g}")
    load_before = os.getloadavg()[0]
    t0 = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    elapsed = time.monotonic() - t0
    if proc.returncode != 0:
        raise RuntimeError(f"{case} failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    data = json.loads(tmp.read_text())
    tmp.unlink()
    rel = [shlex.quote(a) for a in cmd]
    rel[0] = os.path.relpath(cmd[0], REPO)
    rel = [a.replace(str(tmp), os.path.relpath(out, REPO)) for a in rel]
    data["command"] = " ".join(rel)
    data["ns3_version"] = version
    data["host"] = host_info()
    # Wall times of runs started on a busy machine (load > ~1 on 2 cores) are inflated.
    data["load_avg_1m_before"] = round(load_before, 2)
    data["driver_wall_s"] = round(elapsed, 2)
    out.write_text(json.dumps(data, indent=2) + "\n")
    return data


def summary_line(d: dict) -> str:
    ft = d["finish_time_s"]
    return (
        f"{d['scenario']['case']:14} conv {d['olsr']['convergence_s']:6.2f} s  finish mean "
        f"{ft['mean']:6.2f} p20 {ft['p20']:6.2f} p80 {ft['p80']:6.2f} min {ft['min']:6.2f} "
        f"max {ft['max']:6.2f}  JFI {d['jain_index']:.4f}  no-route drops "
        f"{d['drops']['no_route']}  wall {d['wall_s']:.1f} s  cpu {d['cpu_s']:.1f} s"
    )


def print_table(outdir: Path) -> None:
    rows = []
    for p in outdir.glob("*.json"):
        d = json.loads(p.read_text())
        s = d["scenario"]
        rows.append((s["cell_rate_bps"], s["ues"], s["seed"], d))
    rows.sort(key=lambda r: (-r[0], r[1], r[2]))
    print(
        "| case | UEs | RngRun | OLSR convergence s | finish mean s | p20 | p80 | min | max | JFI"
        " | no-route drops | queue drops | retx | OLSR control kB | events | wall s | CPU s |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for _, ues, seed, d in rows:
        ft = d["finish_time_s"]
        retx = sum(f["retx_segments"] for f in d["flows"])
        unfinished = f" ({ft['unfinished']} unfinished)" if ft["unfinished"] else ""
        print(
            f"| {d['scenario']['case']} | {ues} | {seed} | {d['olsr']['convergence_s']:.2f} | "
            f"{ft['mean']:.3f}{unfinished} | {ft['p20']:.3f} | {ft['p80']:.3f} | {ft['min']:.3f} | "
            f"{ft['max']:.3f} | {d['jain_index']:.4f} | {d['drops']['no_route']} | "
            f"{d['drops']['queue']} | {retx} | {d['olsr']['control_ip_bytes'] / 1e3:.1f} | "
            f"{d['events']} | {d['wall_s']:.1f} | {d['cpu_s']:.1f} |"
        )


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--ues", default="25,50,100", help="comma-separated UE counts")
    ap.add_argument("--seeds", default="1,2,3", help="comma-separated ns-3 RngRun values")
    ap.add_argument("--preset", default="paper", choices=sorted(PRESETS), help="cell-link rate")
    ap.add_argument("--bin", default=str(DEFAULT_BIN), help="mesh binary")
    ap.add_argument("--outdir", default=str(DEFAULT_OUT))
    ap.add_argument("--duration", type=float, help="cut the runs at this time, s (default 200)")
    ap.add_argument("--table", action="store_true", help="print a markdown table and exit")
    a = ap.parse_args()

    outdir = Path(a.outdir)
    if a.table:
        print_table(outdir)
        return 0
    binary = Path(a.bin)
    if not binary.exists():
        print(f"{binary} not found: run `bash validation/ns3/setup.sh` first", file=sys.stderr)
        return 2
    outdir.mkdir(parents=True, exist_ok=True)
    version = ns3_version()
    failed = 0
    for ues in [int(x) for x in a.ues.split(",") if x.strip()]:
        for seed in [int(x) for x in a.seeds.split(",") if x.strip()]:
            try:
                d = run_one(binary, a.preset, ues, seed, outdir, version, a.duration)
            except Exception as e:  # noqa: BLE001 - report and go on
                failed += 1
                print(f"n{ues} run{seed}: FAILED: {e}", file=sys.stderr)
                continue
            print(summary_line(d), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

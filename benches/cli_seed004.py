"""Times the whole `ccsim run experiments/seed004_grid.toml` command (100 UEs, OLSR, CUBIC;
results directory, Parquet tables and the candlestick plot), the must-show of issue 14: under
3 s of wall time on this machine.

    python benches/cli_seed004.py                 # median of 5 runs
    python benches/cli_seed004.py --repeat 9 --scenario experiments/seed004_grid.toml

Each run is a fresh process (`python -m ccsim run ... --out <tmp>`), as a user types it. Per
run: the command's wall time, its CPU time (user + system, of the process and its threads; on
a shared machine the wall time depends on the other jobs, the CPU time much less), the
simulation loop's own wall time (`wall_s` in summary.json) and the time around it. The load
average before the runs is printed with the table: record it next to the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def one_run(scenario: Path, out: Path) -> dict[str, float]:
    """One `ccsim run` in a child process: wall, CPU and the simulation loop's wall time."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "ccsim", "run", str(scenario), "--out", str(out)],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if not (out / "plots" / "candlestick.png").is_file():
        raise SystemExit(f"no candlestick plot in {out}")
    sim = json.loads((out / "summary.json").read_text())["wall_s"]
    return {"wall": wall, "cpu": cpu, "sim": sim, "around": wall - sim}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--scenario", type=Path, default=ROOT / "experiments" / "seed004_grid.toml")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)
    load = os.getloadavg()
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.repeat):
            runs.append(one_run(args.scenario, Path(tmp) / f"run{i}"))
    print(
        f"`ccsim run {args.scenario.name}`, {args.repeat} runs, load average before: "
        f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f} ({os.cpu_count()} CPUs)"
    )
    print("| figure (s) | median | min | max |")
    print("|---|---|---|---|")
    names = {
        "wall": "whole command, wall",
        "cpu": "whole command, CPU (user + sys)",
        "sim": "simulation loop, wall (`wall_s`)",
        "around": "around the loop, wall",
    }
    for key, name in names.items():
        v = [r[key] for r in runs]
        print(f"| {name} | {statistics.median(v):.2f} | {min(v):.2f} | {max(v):.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

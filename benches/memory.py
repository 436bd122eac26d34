"""Peak memory of `ccsim run` against simulated duration and against flow count (issue 18).

Each run is a fresh `python -m ccsim run` child of a fresh small interpreter, which reports
`ru_maxrss` of its one reaped child (RUSAGE_CHILDREN), so cases never mask each other.
Prints one table: case, wall s, peak RSS MB, and the ratio to the first case.

    python benches/memory.py                       # 20 flows at 10 Mb/s, 60 s vs 3600 s
    python benches/memory.py --flows 8000 --duration 0.2   # routing state vs flow count

Target (issue 18): peak RSS independent of duration, within ±20 % from 60 s to 3600 s.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SCENARIO = """
name = "memory"
[run]
duration = "{duration}s"
[dumbbell.bottleneck]
rate = "10Mbps"
delay = "20ms"
queue = "1bdp"
[[flows]]
cca = "cubic"
count = {flows}
"""


def peak_rss_mb(args: list[str], cwd: Path) -> tuple[float, float]:
    """(wall s, peak RSS MB) of the command `args`."""
    code = (
        "import resource, subprocess, sys, time; t = time.perf_counter(); "
        "subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL); "
        "print(time.perf_counter() - t, "
        "resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, *args], cwd=cwd, capture_output=True, text=True, check=True
    ).stdout.split()
    return float(out[0]), float(out[1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--flows", type=int, nargs="+", default=[20])
    ap.add_argument("--duration", type=float, nargs="+", default=[60, 3600])
    ap.add_argument("--plots", action="store_true", help="also draw plots (default --no-plot)")
    a = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        for flows in a.flows:
            for duration in a.duration:
                p = tmp / f"m{flows}_{duration:g}.toml"
                p.write_text(SCENARIO.format(duration=duration, flows=flows))
                cmd = [sys.executable, "-m", "ccsim", "run", str(p), "--json"]
                cmd += ["--out", str(tmp / p.stem)] + ([] if a.plots else ["--no-plot"])
                t0 = time.perf_counter()
                wall, rss = peak_rss_mb(cmd, tmp)
                rows.append((flows, duration, wall or time.perf_counter() - t0, rss))
    base = rows[0][3]
    print("| flows | duration s | wall s | peak RSS MB | vs first |")
    print("|---|---|---|---|---|")
    for flows, duration, wall, rss in rows:
        print(f"| {flows} | {duration:g} | {wall:.1f} | {rss:.0f} | {rss / base:.2f}× |")


if __name__ == "__main__":
    main()

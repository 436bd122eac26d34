"""Study throughput: runs per hour of a seed-002 study on local worker threads, the speed-up
from 1 to 2 workers, and the per-run overhead beyond the simulation itself.

    python benches/studies.py [--runs 100] [--workers 1 2]

The study is seed 002's scenario (15 s, SIAD, RLC 7 MB, fragments on the wire) with `--runs`
distinct seeds, run into a fresh store once per worker count. Per-run overhead = (study wall
time with 1 worker − the summed time inside `Simulation.run_until`) / runs: building the
scenario twice (run key, then the run), the Rust summary, the rows, the Parquet writes, the
thread hand-off. The Rust summary (`summary_s`) is shown on its own too.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

from ccsim.store import ResultsStore
from ccsim.study import load_study
from ccsim.study_run import run_study

ROOT = Path(__file__).resolve().parents[1]

STUDY = """
name = "bench-seed002"
scenario = "{scenario}"
seeds = {seeds}
metrics = ["goodput_mbps", "rtt_mean_ms", "retx_segments", "timeouts"]
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    a = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="ccsim-bench-study-"))
    try:
        f = tmp / "study.toml"
        scen = ROOT / "experiments" / "seed002_siad_bbr.toml"
        f.write_text(STUDY.format(scenario=scen, seeds=list(range(1, a.runs + 1))))
        study = load_study(f)
        rows = []
        for w in a.workers:
            store = ResultsStore(tmp / f"store-{w}")
            t0 = time.perf_counter()
            rep = run_study(study, store, workers=w, progress=False)
            wall = time.perf_counter() - t0
            assert rep.done == a.runs and not rep.failed, rep
            t = store.query("SELECT sum(sim_s) AS sim, sum(summary_s) AS summ FROM timing")
            sim, summ = float(t["sim"][0]), float(t["summ"][0])
            rows.append((w, wall, sim, summ))
        print(f"{a.runs} runs of seed 002 (15 s simulated each)")
        print(
            "workers  wall s  runs/hour  speed-up  sum(run_until) s  overhead/run ms  "
            "of which Rust summary ms"
        )
        base = rows[0][1]
        for w, wall, sim, summ in rows:
            over = (wall - sim) / a.runs * 1e3 if w == 1 else float("nan")
            print(
                f"{w:>7}  {wall:6.1f}  {a.runs / wall * 3600:9.0f}  {base / wall:7.2f}x  "
                f"{sim:16.1f}  {over:15.1f}  {summ / a.runs * 1e3:19.1f}"
            )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()

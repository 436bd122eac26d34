#!/usr/bin/env python3
"""RLC stalls of seed 002, the tree against ccsim: every stretch of at least `--min-ms` in which
nothing reaches TCP although the gNB's RLC holds transmitted, unacknowledged data.

    python validation/ns3-mmwave/rlc_stalls.py                       # seed 4, the traced runs
    python validation/ns3-mmwave/rlc_stalls.py --seeds 2 3 4 --set radio.mmwave.cell.rlc.model=entity

The tree: the golden 10 ms series (`seed002_<cc>_<rlc>_s<seed>_10ms.csv.gz`): bins with zero
goodput and `rlc_txed_bytes` > 0 (the AM entity's transmitted-not-acknowledged buffer). Its traced
reruns name two such stalls as RLC AM stalls (validation/report.md, "ns3-mmwave": BBR 4 MB seed 4
5.034-5.408 s, SIAD 4 MB seed 4 9.398-9.811 s). ccsim: the preset with compare_ccsim.py's
overrides for the run (cc, buffer, seed, the seed's SINR shift, `--tcp ns3.33`) plus `--set`,
sampled every 10 ms: bins in which no byte reaches the application while TCP has at least
`STALL_INFLIGHT` bytes in flight (ten 10 000-byte segments: a paced trickle of a few segments,
as BBR's after a collapsed bandwidth estimate, is not a link that holds data). Also the
NLOS 10 ms bins (of 500) with RLC retransmissions: the tree's with its retransmission queue
non-empty (`rlc_retx_bytes` > 0), ccsim's with an ARQ retransmission sent
(`arq_retransmissions` of the radio series, entity RLC).
Nothing here changes ccsim: it reports the stalls side by side.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare_ccsim import (  # noqa: E402
    CCSIM_CCA,
    GOLDEN,
    PHASES,
    PRESETS,
    ccsim_matched_run,
    ccsim_overrides,
)

STALL_INFLIGHT = 100_000


def stalls(bins: list[tuple[float, bool]], min_ms: float) -> list[tuple[float, float]]:
    """(start s, length ms) of every run of stalled 10 ms bins at least `min_ms` long; a run
    still going at the last bin ends 10 ms after it."""
    out, start = [], None
    end = bins[-1][0] + 0.01 if bins else 0.0
    for t, stalled in [*bins, (end, False)]:
        if stalled and start is None:
            start = t
        elif not stalled and start is not None:
            if (t - start) * 1e3 >= min_ms - 1e-6:
                out.append((start, round((t - start) * 1e3)))
            start = None
    return out


def tree_bins(cc: str, rlc: str, seed: int) -> tuple[list[tuple[float, bool]], int]:
    """The tree's stalled bins, and its NLOS bins with RLC retransmissions queued."""
    path = GOLDEN / f"seed002_{cc}_{rlc}_s{seed}_10ms.csv.gz"
    with gzip.open(path, "rt") as f:
        rows = list(csv.DictReader(f))
    bins = [
        (float(r["t_s"]), float(r["goodput_mbps"]) == 0 and float(r["rlc_txed_bytes"]) > 0)
        for r in rows
    ]
    retx = sum(in_nlos(float(r["t_s"])) and float(r["rlc_retx_bytes"]) > 0 for r in rows)
    return bins, retx


def in_nlos(t: float) -> bool:
    return PHASES[1][1] <= t + 1e-9 < PHASES[1][2]


def ccsim_bins(
    cc: str, rlc_bytes: int, seed: int, extra: list[str], ref_seed: int | None = None
) -> tuple[list[tuple[float, bool]], dict, object]:
    """ccsim's 10 ms bins, its cell summary (ARQ retransmissions, ignored whole PDUs, NLOS bins
    with RLC retransmissions) and the run's result. `run.seed` is `seed`; the LOS SINR is the
    reference's seed `ref_seed` (default `seed`), matched as compare_ccsim.py does, with BBR and
    SIAD as the tree runs them (`--tcp ns3.33`)."""
    scenario = PRESETS["ns3mmwave"]
    name = {v: k for k, v in CCSIM_CCA.items()}[cc]
    ref = ref_seed if ref_seed is not None else seed
    summary = json.loads(
        (GOLDEN / f"seed002_{cc}_{rlc_bytes // 1_000_000}MB_s{ref}.json").read_text()
    )
    overrides = ccsim_overrides(
        name, rlc_bytes, seed, ["output.sample_interval=10ms", *extra], "ns3.33"
    )
    res, _, _ = ccsim_matched_run(scenario, overrides, summary["phases"]["los1"]["sinr_db"])
    fs = res.flow_series
    d = fs["delivered_bytes"].diff().fillna(0).to_numpy()
    inflight = fs["bytes_in_flight"].to_numpy()
    bins = [
        (float(t), d[i] == 0 and inflight[i] >= STALL_INFLIGHT) for i, t in enumerate(fs["t_s"])
    ]
    # NLOS bins in which the cell sent an RLC retransmission (the bin ending at t_s).
    rs = res.radio_series
    arq = rs["arq_retransmissions"].diff().fillna(0).to_numpy()
    t = rs["t_s"].to_numpy()
    retx = sum(bool(arq[i] > 0 and in_nlos(t[i] - 0.01)) for i in range(len(t)))
    return bins, {**res.summary["radio"]["cells"][0], "nlos_retx_bins": retx}, res


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", nargs="+", type=int, default=[4])
    ap.add_argument("--runs", nargs="+", default=["bbr_4MB", "siad_4MB", "bbr_7MB", "siad_7MB"])
    ap.add_argument("--min-ms", type=float, default=100.0)
    ap.add_argument("--set", action="append", default=[], help="ccsim override KEY=VALUE")
    ap.add_argument("--no-ccsim", action="store_true", help="the tree's stalls only")
    a = ap.parse_args()
    for seed in a.seeds:
        for run in a.runs:
            cc, rlc = run.split("_")
            tbins, tretx = tree_bins(cc, rlc, seed)
            tree = stalls(tbins, a.min_ms)
            print(f"seed {seed} {cc} {rlc}: tree {fmt(tree)} (NLOS bins with RLC retx {tretx})")
            if not a.no_ccsim:
                bins, cell, _ = ccsim_bins(cc, int(rlc[:-2]) * 1_000_000, seed, a.set)
                print(
                    f"seed {seed} {cc} {rlc}: ccsim {fmt(stalls(bins, a.min_ms))} (ARQ "
                    f"retransmissions {cell.get('arq_retransmissions', 0)}, whole PDUs ignored "
                    f"{cell.get('ignored_whole_pdus', 0)}{harq_note(cell)}; NLOS bins with RLC "
                    f"retx {cell['nlos_retx_bins']})"
                )


def harq_note(cell: dict) -> str:
    """With `harq.model = "processes"`: failed first transmissions, never resent by HARQ."""
    if not cell.get("harq_failed_first"):
        return ""
    return (
        f"; HARQ: {cell['harq_failed_first']} failed TBs, "
        f"{cell.get('harq_never_resent', 0)} never resent, {cell.get('harq_lost_tbs', 0)} left to RLC"
    )


def fmt(s: list[tuple[float, float]]) -> str:
    return ", ".join(f"{t:.2f} s {ms:.0f} ms" for t, ms in s) or "none"


if __name__ == "__main__":
    main()

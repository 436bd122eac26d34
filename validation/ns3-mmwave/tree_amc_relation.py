#!/usr/bin/env python3
"""The seed 002 tree's SINR -> MCS relation, by LOS state, from the committed golden files (no
tree run): the 10 ms series of seeds 2-7 (`sinr_db` = the tree's mean SINR over RBs, `mcs` =
the mean MCS of the bin's TBs) binned by SINR, LOS (0-5 s, 10-15 s) and behind the building
(5-10 s); and, from the TB traces below TCP, how far the TBs' MI-equivalent flat SINR lies
below the reported mean in each state (`tree_error_model.py`'s inversion of the tree's own MI
tables). docs/radio.md, "The tree's link adaptation below 21 dB and in LOS".

    python validation/ns3-mmwave/tree_amc_relation.py [--tree TREE]
    python validation/ns3-mmwave/tree_amc_relation.py --ccsim [--set KEY=VALUE ...]

`--ccsim` also bins ccsim's radio series (`sinr_db`, the MCS of the CQI in force) the same way,
one BBR 7 MB run per golden seed with its LOS SINR matched as `compare_ccsim.py` does (needs
`import ccsim`; `--set` overrides go to every run).
"""

from __future__ import annotations

import argparse
import csv
import gzip
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from tree_error_model import DEFAULT_TREE, TreeErrorModel  # noqa: E402

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "ns3-mmwave"


def los(t_s: float) -> bool:
    # test-mmw.cc: the UE walks behind the building over [5 s, 10 s).
    return not (5.0 <= t_s < 10.0)


Bins = dict[tuple[bool, int], list[float]]


def add(bins: Bins, t_s: float, sinr_db: float, mcs: float) -> None:
    bins.setdefault((los(t_s), int(sinr_db // 2.5)), []).append(mcs)


def tree_bins() -> Bins:
    bins: Bins = {}
    for f in sorted(GOLDEN.glob("seed002_*_10ms.csv.gz")):
        with gzip.open(f, "rt") as fh:
            for r in csv.DictReader(fh):
                if r["mcs"] and int(r["tb_n"]) >= 4:
                    add(bins, float(r["t_s"]), float(r["sinr_db"]), float(r["mcs"]))
    return bins


def ccsim_bins(extra: list[str]) -> Bins:
    """ccsim's radio series, BBR 7 MB, one run per golden seed, LOS SINR matched."""
    from compare_ccsim import PRESETS, ccsim_matched_run, ccsim_overrides, golden_docs

    bins: Bins = {}
    for d in golden_docs():
        if d["cc"] != "TcpBbr" or d["rlc_buffer_bytes"] != 7_000_000:
            continue
        ov = ccsim_overrides("TcpBbr", 7_000_000, d["seed"], extra, "ns3.33")
        res, _, _ = ccsim_matched_run(PRESETS["ns3mmwave"], ov, d["phases"]["los1"]["sinr_db"])
        rs = res.radio_series
        for t, s, m in zip(rs["t_s"], rs["sinr_db"], rs["mcs"]):
            if m == m and s == s:  # NaN: no CQI in force
                add(bins, float(t), float(s), float(m))
    return bins


def series_relation(bins: Bins, who: str) -> None:
    print(f"{who}: mean MCS by reported SINR (dB)")
    print("SINR (dB)      LOS: MCS (bins)    behind the building: MCS (bins)")
    for b in range(0, 21):
        lo = b * 2.5
        cells = []
        for state in (True, False):
            v = bins.get((state, b), [])
            cells.append(f"{statistics.mean(v):5.1f} ({len(v):4d})" if v else " " * 12)
        if any(c.strip() for c in cells):
            print(f"{lo:5.1f}-{lo + 2.5:5.1f}   {cells[0]}        {cells[1]}")


def trace_gap(em: TreeErrorModel) -> None:
    print("\ntree TB traces (first transmissions with 0.002 < TBLER < 0.998):")
    print("run             state  TBs  mean SINR  mean - MI-equivalent SINR (std)  MCS")
    for f in sorted((GOLDEN / "trace").glob("*_tb.csv.gz")):
        by_state: dict[bool, list[tuple[float, float, int]]] = {}
        with gzip.open(f, "rt") as fh:
            for r in csv.DictReader(fh):
                tbler = float(r["tbler"])
                if r["rv"] != "0" or not 0.002 < tbler < 0.998:
                    continue
                eff = em.sinr_at(tbler, int(r["mcs"]), int(r["tb_bytes"]))
                s = float(r["sinr_db"])
                by_state.setdefault(los(int(r["t_us"]) / 1e6), []).append(
                    (s, s - eff, int(r["mcs"]))
                )
        run = f.name.removesuffix("_tb.csv.gz")
        for state, pts in sorted(by_state.items()):
            gaps = [g for _, g, _ in pts]
            print(
                f"{run:15s} {'LOS ' if state else 'NLOS'}  {len(pts):4d}  "
                f"{statistics.mean(s for s, _, _ in pts):8.2f}   "
                f"{statistics.mean(gaps):6.2f} ({statistics.pstdev(gaps):.2f})"
                f"                  {statistics.mean(m for _, _, m in pts):5.1f}"
            )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tree", type=Path, default=DEFAULT_TREE)
    ap.add_argument("--ccsim", action="store_true", help="also ccsim's relation (import ccsim)")
    ap.add_argument("--set", action="append", default=[], help="ccsim override KEY=VALUE")
    a = ap.parse_args()
    series_relation(tree_bins(), "tree: 10 ms bins with >= 4 TBs, seeds 2-7 golden series")
    trace_gap(TreeErrorModel(a.tree))
    if a.ccsim:
        print()
        series_relation(ccsim_bins(a.set), "ccsim: radio series samples, BBR 7 MB, seeds 2-7")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The seed 002 tree's TB error model on a flat channel, evaluated from its own source: the MI
tables and BLER curves of `src/mmwave/model/error-model/mmwave-lte-mi-error-model.cc` are read
from the built tree when this runs (nothing of them is copied here), and
`GetTbBitDecodificationStats` (first transmission: MI per RB averaged, code blocks as TS
36.212, `TBLER = 1 - prod (1 - CBLER)^C`) is redone on them.

    python validation/ns3-mmwave/tree_error_model.py [--tree TREE]     # thresholds and widths
    python validation/ns3-mmwave/tree_error_model.py --traces          # + the TB traces

Prints, per MCS, the SINR at which a one-symbol TB (what `MmWaveAmc::CreateCqiFeedbackWbTdma`
tests) and a 12-symbol TB meet 10 % TBLER, and the one-symbol waterfall's 90 % -> 10 % width.
With `--traces`, each first transmission of the committed seed 4 TB traces whose TBLER lies
strictly between 0 and 1 is inverted to the flat-channel SINR with the same TBLER (its
MI-equivalent SINR): how far below the mean SINR the tree reports it lies, and how much it
moves between TBs 0.25-5 ms apart (docs/radio.md, "What makes the tree's TBs fail").
"""

from __future__ import annotations

import argparse
import bisect
import csv
import gzip
import math
import re
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harq_trigger import RUNS, TRACE, tb_size_bytes  # noqa: E402

DEFAULT_TREE = Path("/work/ns3mmwave/tree")
SOURCE = "src/mmwave/model/error-model/mmwave-lte-mi-error-model.cc"


class TreeErrorModel:
    """`MmWaveLteMiErrorModel`'s first-transmission TBLER for a flat 64QAM channel (MCS 17-28)
    and 16QAM/QPSK, from the tables in the tree's source."""

    def __init__(self, tree: Path) -> None:
        txt = (tree / SOURCE).read_text()

        def arr(name: str) -> list[float]:
            m = re.search(re.escape(name) + r"\s*(?:\[[^\]]*\])+\s*=\s*\{(.*?)\};", txt, re.S)
            if not m:
                raise SystemExit(f"{SOURCE}: table {name} not found")
            body = re.sub(r"//[^\n]*", "", m.group(1))
            return [float(x) for x in re.findall(r"-?\d+\.?\d*(?:[eE][-+]?\d+)?", body)]

        self.ecr_id = [int(x) for x in arr("McsEcrBlerTableMapping")]
        self.cb_mi = [int(x) for x in arr("cbMiSizeTable")]
        b, c = arr("bEcrTable"), arr("cEcrTable")
        n = len(b) // 9
        self.b = [b[i * n : (i + 1) * n] for i in range(9)]
        self.c = [c[i * n : (i + 1) * n] for i in range(9)]
        m = re.search(r"cbSizeTable = \{(.*?)\};", txt, re.S)
        self.cb_size = [int(x) for x in re.findall(r"\d+", m.group(1))]
        self.maps = {
            q: (arr(f"MI_map_{q}"), arr(f"MI_map_{q}_axis")) for q in ("qpsk", "16qam", "64qam")
        }

    def mi(self, sinr_lin: float, mcs: int) -> float:
        q = "qpsk" if mcs <= 9 else "16qam" if mcs <= 16 else "64qam"
        mi, axis = self.maps[q]
        if sinr_lin > axis[-1]:
            return 1.0
        scale = (len(axis) - 1) / (axis[-1] - axis[0])
        return mi[max(0, math.floor((sinr_lin - axis[0]) * scale + 1))]

    def cbler(self, mib: float, ecr: int, k: int) -> float:
        i = 1
        while i < 9 and self.cb_mi[i] <= k:
            i += 1
        i -= 1
        b = next(t[ecr] for t in self.b[i:] if t[ecr] >= 0)
        c = next(t[ecr] for t in self.c[i:] if t[ecr] >= 0)
        return 0.5 * (1 - math.erf((mib - b) / (math.sqrt(2) * c)))

    def tbler(self, sinr_db: float, mcs: int, size_bytes: int) -> float:
        mib, bits = self.mi(10 ** (sinr_db / 10), mcs), size_bytes * 8
        n_cb, b1 = (1, bits) if bits <= 6144 else (math.ceil(bits / 6120), 0)
        if n_cb > 1:
            b1 = bits + n_cb * 24
        kp_i = bisect.bisect_right(self.cb_size[:-1], b1 / n_cb + 0.001)
        kp, ecr = self.cb_size[kp_i], self.ecr_id[mcs]
        if n_cb == 1:
            return self.cbler(mib, ecr, kp)
        km = self.cb_size[kp_i - 1] if kp_i > 0 else kp
        c_minus = math.floor((n_cb * kp - b1) / (kp - km)) if kp > km else 0
        ok = (1 - self.cbler(mib, ecr, kp)) ** (n_cb - c_minus)
        if c_minus:
            ok *= (1 - self.cbler(mib, ecr, km)) ** c_minus
        return 1 - ok

    def sinr_at(self, target: float, mcs: int, size: int) -> float:
        """The flat SINR (dB) at which the TBLER is `target` (bisection; TBLER falls with SINR)."""
        lo, hi = -10.0, 40.0
        for _ in range(50):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if self.tbler(mid, mcs, size) > target else (lo, mid)
        return (lo + hi) / 2


def thresholds(em: TreeErrorModel) -> None:
    print("MCS  10 % TBLER, 1 symbol / 12 symbols (dB)  1-symbol 90 -> 10 % width (dB)")
    for mcs in range(29):
        s1, s12 = tb_size_bytes(mcs, 1), tb_size_bytes(mcs, 12)
        t10 = em.sinr_at(0.1, mcs, s1)
        width = t10 - em.sinr_at(0.9, mcs, s1)
        print(f"{mcs:3d}  {t10:6.2f} / {em.sinr_at(0.1, mcs, s12):6.2f}  {width:5.2f}")


def traces(em: TreeErrorModel) -> None:
    for run in RUNS:
        with gzip.open(TRACE / f"{run}_tb.csv.gz", "rt") as f:
            rows = [r for r in csv.DictReader(f) if r["rv"] == "0"]
        pts = []
        for r in rows:
            t = float(r["tbler"])
            if 0.002 < t < 0.998:
                eff = em.sinr_at(t, int(r["mcs"]), int(r["tb_bytes"]))
                pts.append((int(r["t_us"]), float(r["sinr_db"]), eff))
        gap = [s - e for _, s, e in pts]
        print(
            f"{run}: {len(pts)} TBs, mean SINR - MI-equivalent SINR {statistics.mean(gap):.2f} "
            f"dB (std {statistics.pstdev(gap):.2f})"
        )
        for lag in (250, 1000, 5000):
            diffs, j = [], 0
            for t, _, e in pts:
                while j < len(pts) and pts[j][0] < t + lag - 100:
                    j += 1
                if j < len(pts) and abs(pts[j][0] - t - lag) < 130:
                    diffs.append(pts[j][2] - e)
            if len(diffs) > 1:
                print(f"  {lag} us apart: std of its change {statistics.pstdev(diffs):.2f} dB")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tree", type=Path, default=DEFAULT_TREE)
    ap.add_argument("--traces", action="store_true")
    a = ap.parse_args()
    em = TreeErrorModel(a.tree)
    thresholds(em)
    if a.traces:
        traces(em)


if __name__ == "__main__":
    main()

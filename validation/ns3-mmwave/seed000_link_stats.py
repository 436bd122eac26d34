#!/usr/bin/env python3
"""Seed 000 §III-B behind the building: the radio link's statistics in the ns3-mmwave tree's
own runs (validation/golden/ns3-mmwave/seed000_cubic_<setting>_s1.json) against ccsim's on
experiments/seed000_ns3mmwave.toml, so the radio preset can be calibrated to the link, not to
TCP's outcome.

    python validation/ns3-mmwave/seed000_link_stats.py                  # tree + ccsim seeds 1-3
    python validation/ns3-mmwave/seed000_link_stats.py --markdown --set radio.mmwave.cell.fading.k_factor_nlos_db=0

Per run, over the 100 ms bins fully inside NLOS (2.2-15.1 s):

- `sinr`: mean of the bins' SINR (tree: of the TBs received; ccsim: of its 1 ms samples);
  `std100`: std of the bin means (slow variation); `range`: mean max-min inside a bin (fast
  variation); `std1ms`: the phase's 1 ms std (tree: the JSON's phase field); `ac1`: lag-1
  autocorrelation of the bin means (time scale: near 1 = drifts over seconds).
- `mcs`: mean MCS of the data (tree: of the TBs; ccsim: of the CQI in force while scheduled).
  `gap`: median implied SNR gap of the link adaptation, `SINR - 10·log10(2^SE(MCS) - 1)` per
  100 ms bin (tree: the bin's mean TB SINR and MCS; ccsim: each 1 ms sample's SINR and MCS);
  ccsim's MCS thresholds are `10·log10(2^SE - 1) + link_adaptation.gap_db`.
- `noTB`: share of bins with RLC backlog and no TB decoded (tree: `tb_n` 0; ccsim: radio
  delivery 0); `g0`: share of bins with RLC backlog and zero TCP goodput (the link is
  intermittent for TCP: RLC retransmissions hold the in-order delivery, or no TB).
- `bler`: corrupt TBs per TB sent (tree only: ccsim's summary counts the whole run, given as
  `harq` = HARQ retransmissions per TB over 25 s); `retxQ`: share of bins whose RLC
  retransmission queue is not empty (tree only).
- `rlcKB`: mean RLC buffer (kB, tree: new + retransmission queues); `rtos`: RTO episodes.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
# The same scenario, golden files and Fig. III-B settings as the per-phase comparison.
from compare_seed000 import GOLDEN, SCENARIO, SETTINGS  # noqa: E402

# (modulation order, effective code rate) of MCS 0-28: crates/ccsim-radio/src/link_adaptation.rs
# NS3_MMWAVE_MCS (the tree's mmwave-lte-mi-error-model.cc).
MCS_TABLE = [(2, r) for r in (0.08, 0.1, 0.11, 0.15, 0.19, 0.24, 0.3, 0.37, 0.44, 0.51)]
MCS_TABLE += [(4, r) for r in (0.3, 0.33, 0.37, 0.42, 0.48, 0.54, 0.6)]
MCS_TABLE += [(6, r) for r in (0.43, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.89, 0.92)]
NLOS = (2.2, 15.1)  # the 100 ms bins wholly inside 2.133-15.133 s
COLUMNS = [
    "sinr",
    "std100",
    "range",
    "std1ms",
    "ac1",
    "mcs",
    "gap",
    "noTB",
    "g0",
    "bler",
    "harq",
    "retxQ",
    "rlcKB",
    "rtos",
]


def efficiency(mcs: float) -> float:
    """Bits per resource element of a (possibly fractional, averaged) MCS, interpolated."""
    lo = min(int(mcs), 27)
    se = [qm * ecr for qm, ecr in MCS_TABLE]
    return se[lo] + (mcs - lo) * (se[lo + 1] - se[lo])


def implied_gap(sinr_db: float, mcs: float) -> float:
    return sinr_db - 10 * math.log10(2 ** efficiency(mcs) - 1)


def lag1(xs: list[float]) -> float | None:
    """Lag-1 autocorrelation of a series (None when too short or constant)."""
    if len(xs) < 3:
        return None
    m = statistics.fmean(xs)
    den = sum((x - m) ** 2 for x in xs)
    if den == 0:
        return None
    return sum((a - m) * (b - m) for a, b in zip(xs, xs[1:])) / den


def share(flags: list[bool]) -> float | None:
    return sum(flags) / len(flags) if flags else None


def tree_stats(setting: str, seed: int = 1) -> dict | None:
    path = GOLDEN / f"seed000_cubic_{setting}_s{seed}.json"
    if not path.exists():
        return None
    doc = json.loads(path.read_text())
    bins = [r for r in doc["series_100ms"] if NLOS[0] - 1e-9 <= r["t_s"] < NLOS[1] - 1e-9]
    with_tb = [r for r in bins if r["tb_n"] > 0]
    backlog = [r for r in bins if r["rlc_txon_bytes"] + r["rlc_retx_bytes"] > 0]
    sinr = [r["sinr_db"] for r in with_tb]
    tb_n = sum(r["tb_n"] for r in bins)
    phase = doc["phases"]["nlos"]
    return {
        "sinr": statistics.fmean(sinr),
        "std100": statistics.pstdev(sinr),
        "range": statistics.fmean(r["sinr_max_db"] - r["sinr_min_db"] for r in with_tb),
        "std1ms": phase["sinr_db_std_1ms"],
        "ac1": lag1(sinr),
        "mcs": sum(r["mcs"] * r["tb_n"] for r in with_tb) / tb_n,
        "gap": statistics.median(implied_gap(r["sinr_db"], r["mcs"]) for r in with_tb),
        "noTB": share([r["tb_n"] == 0 for r in backlog]),
        "g0": share([r["goodput_mbps"] == 0 for r in backlog]),
        "bler": sum(r["tb_corrupt"] for r in bins) / tb_n,
        "harq": sum(r["tb_retx"] for r in bins) / tb_n,
        "retxQ": share([r["rlc_retx_bytes"] > 0 for r in bins]),
        "rlcKB": statistics.fmean(r["rlc_txon_bytes"] + r["rlc_retx_bytes"] for r in bins) / 1e3,
        "rtos": phase["rtos"],
    }


def ccsim_stats(setting: str, seed: int, extra: list[str]) -> dict:
    import ccsim

    res = ccsim.run(
        SCENARIO,
        set=[f"run.seed={seed}", "output.sample_interval=1ms", *SETTINGS[setting], *extra],
    )
    rs, fs = res.radio_series, res.flow_series
    sinr_b, range_b, mcs_all, no_tb, g0, rlc = [], [], [], [], [], []
    t0 = NLOS[0]
    while t0 < NLOS[1] - 1e-9:
        r = rs[(rs["t_s"] >= t0 - 1e-9) & (rs["t_s"] < t0 + 0.1 - 1e-9)]
        f = fs[(fs["t_s"] >= t0 - 1e-9) & (fs["t_s"] < t0 + 0.1 - 1e-9)]
        sinr_b.append(float(r["sinr_db"].mean()))
        range_b.append(float(r["sinr_db"].max() - r["sinr_db"].min()))
        mcs_all.extend(int(m) for m in r["mcs"] if m < 255)
        backlogged = bool((r["rlc_bytes"] > 0).any())
        if backlogged:
            no_tb.append(int(r["delivered_bytes"].iloc[-1]) == int(r["delivered_bytes"].iloc[0]))
            g0.append(int(f["delivered_bytes"].iloc[-1]) == int(f["delivered_bytes"].iloc[0]))
        rlc.append(float(r["rlc_bytes"].mean()))
        t0 = round(t0 + 0.1, 6)
    nl = rs[(rs["t_s"] >= NLOS[0]) & (rs["t_s"] < NLOS[1])]
    sched = nl[nl["mcs"] < 255]
    gaps = [implied_gap(s, m) for s, m in zip(sched["sinr_db"], sched["mcs"])]
    fn = fs[(fs["t_s"] >= NLOS[0]) & (fs["t_s"] < NLOS[1])]
    cells = res.summary["radio"]["cells"]
    tbs = sum(c["tbs"] for c in cells)
    state = list(fn["cong_state"])
    rtos = sum(1 for a, b in zip([0, *state], state) if b == 4 and a != 4)
    return {
        "sinr": statistics.fmean(sinr_b),
        "std100": statistics.pstdev(sinr_b),
        "range": statistics.fmean(range_b),
        "std1ms": float(nl["sinr_db"].std(ddof=0)),
        "ac1": lag1(sinr_b),
        "mcs": statistics.fmean(mcs_all) if mcs_all else None,
        "gap": statistics.median(gaps) if gaps else None,
        "noTB": share(no_tb),
        "g0": share(g0),
        "bler": None,
        "harq": sum(c["tb_retransmissions"] for c in cells) / tbs if tbs else None,
        "retxQ": None,
        "rlcKB": statistics.fmean(rlc) / 1e3,
        "rtos": rtos,
    }


def fmt(v) -> str:
    if v is None:
        return "-"
    if isinstance(v, int):
        return str(v)
    return f"{v:.3f}" if abs(v) < 1 else f"{v:.1f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--settings", nargs="+", default=list(SETTINGS), choices=list(SETTINGS))
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3], help="ccsim seeds")
    ap.add_argument("--set", action="append", default=[], help="extra ccsim overrides")
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    head = ["setting", "run", *COLUMNS]
    sep = " | " if args.markdown else "  "
    print(("| " if args.markdown else "") + sep.join(head) + (" |" if args.markdown else ""))
    if args.markdown:
        print("|" + "---|" * len(head))
    for setting in args.settings:
        # Every golden seed present (seeds 2 and 3 of the tree arrive one run at a time).
        rows = [(f"ns3-mmwave s{g}", tree_stats(setting, g)) for g in (1, 2, 3)]
        rows += [(f"ccsim s{s}", ccsim_stats(setting, s, args.set)) for s in args.seeds]
        for name, st in rows:
            if st is None:
                continue
            cells = [setting, name, *(fmt(st[c]) for c in COLUMNS)]
            line = sep.join(cells)
            print(f"| {line} |" if args.markdown else line)


if __name__ == "__main__":
    main()

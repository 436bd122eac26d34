#!/usr/bin/env python3
"""What the ns3-mmwave handover reference's report table says about its channel (README.md
section 8): from the golden 10 ms series (`c2_sinr_db`, `c3_sinr_db`: the SINR of each mmWave
cell that the LTE coordinator compares every 1.6 ms), per cell and phase, the spread that a
100 ms channel redraw adds, and the Rician K-factor with that spread. It also lists each run's
handovers. It reads golden files only (no ns-3, no ccsim).

    python validation/ns3-mmwave/handover_channel.py            # every handover_*_10ms file
    python validation/ns3-mmwave/handover_channel.py --markdown

Method. The report is an SNR through the tree's channel: the 3GPP UMi path loss with its
shadowing (`ThreeGppPropagationLossModel`, on by default: sigma 4 / 7.82 dB, decorrelation
10 / 13 m in LOS / NLOS, updated as the UE moves) plus the 3GPP fast-fading channel with the
blockage model, redrawn every 100 ms. Two 10 ms samples 100 ms apart always lie in different
redraws, so their semivariance is `fast^2 + sigma^2 (1 - exp(-v 0.1 s / d_corr))` (the path
loss itself moves by ~0.1 dB in 1 m). Subtracting the shadowing term (the tree's parameters,
not fitted) leaves the redraw's spread `fast`; the K-factor is the one whose Rician power has
that standard deviation in dB (ccsim's `fading` with `subbands = 1` and `hold_us = 100000`).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "validation" / "golden" / "ns3-mmwave"
# TR 38.901 Table 7.4.1-1 / 7.5-6 UMi street canyon, as ns-3.33's ThreeGppPropagationLossModel.
SHADOWING = {"los": (4.0, 10.0), "nlos": (7.82, 13.0)}
LAG_S = 0.1
# (cell column, phase name, LOS state, window in s) inside the geometric phases, 50 ms clear of
# the LOS changes at 2.4 and 5.6 s.
WINDOWS = [
    ("c2", "A in LOS", "los", (0.5, 2.35)),
    ("c2", "A blocked", "nlos", (2.45, 5.55)),
    ("c3", "B blocked", "nlos", (2.45, 5.55)),
    ("c3", "B in LOS", "los", (5.65, 10.0)),
]


def log_i0(z: np.ndarray) -> np.ndarray:
    """ln I0(z): numpy's I0 below 50, its asymptotic series above (I0 overflows at ~700)."""
    small = np.log(np.i0(np.minimum(z, 50.0)))
    zz = np.maximum(z, 50.0)
    large = zz - 0.5 * np.log(2 * np.pi * zz) + np.log1p(1 / (8 * zz) + 9 / (128 * zz**2))
    return np.where(z < 50.0, small, large)


def rician_db_std(k_db: float) -> float:
    """Standard deviation (dB) of 10 log10 |h|^2 for a unit-mean Rician power with K (dB)."""
    k = 10 ** (k_db / 10)
    x = np.linspace(np.log(1e-7), np.log(40.0), 20_001)  # x = ln p
    p = np.exp(x)
    z = 2 * np.sqrt(k * (k + 1) * p)
    # pdf (K+1) e^{-K-(K+1)p} I0(z), in logs to stay finite at large K.
    pdf = (k + 1) * np.exp(-k - (k + 1) * p + log_i0(z))
    w = pdf * p  # dp = p dx
    w /= np.trapezoid(w, x)
    db = 10 * np.log10(p)
    mean = np.trapezoid(w * db, x)
    return float(np.sqrt(np.trapezoid(w * (db - mean) ** 2, x)))


K_GRID_DB = np.arange(-30.0, 40.0, 0.05)


def k_for_std(std_db: float) -> float | None:
    """The K (dB) whose Rician dB spread is `std_db` (None beyond Rayleigh's)."""
    global K_STD
    if "K_STD" not in globals():
        K_STD = np.array([rician_db_std(k) for k in K_GRID_DB])  # decreasing in K
    if std_db >= K_STD[0]:
        return None
    return float(np.interp(-std_db, -K_STD, K_GRID_DB))


def semivariance(t: np.ndarray, v: np.ndarray, lag_s: float) -> float:
    """Half the mean squared difference of samples `lag_s` apart (10 ms grid, NaN skipped)."""
    step = round(lag_s / float(np.median(np.diff(t))))
    d = v[step:] - v[:-step]
    return float(0.5 * np.nanmean(d * d))


def analyse(csv: Path) -> dict:
    d = pd.read_csv(csv)
    meta = json.loads(csv.with_name(csv.name.replace("_10ms.csv.gz", ".json")).read_text())
    speed = float(meta["ue_speed_mps"])
    rows = []
    for col, phase, state, (a, b) in WINDOWS:
        w = d[(d["t_s"] >= a) & (d["t_s"] < b)]
        g = semivariance(w["t_s"].to_numpy(), w[f"{col}_sinr_db"].to_numpy(), LAG_S)
        sigma, d_corr = SHADOWING[state]
        shadow = sigma**2 * (1 - np.exp(-speed * LAG_S / d_corr))
        fast = float(np.sqrt(max(g - shadow, 0.0)))
        rows.append(
            {
                "phase": phase,
                "semivar_db2": g,
                "shadow_db2": shadow,
                "fast_db": fast,
                "k_db": k_for_std(fast),
                "mean_db": float(w[f"{col}_sinr_db"].mean()),
            }
        )
    hos = [e for e in meta["events"] if e["kind"] == "enb_ho_start"]
    return {"run": csv.name.replace("_10ms.csv.gz", ""), "rows": rows, "handovers": hos}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="*", type=Path, help="golden handover_*_10ms.csv.gz files")
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    files = args.files or sorted(GOLDEN.glob("handover_*_10ms.csv.gz"))
    runs = [analyse(f) for f in files]
    print(
        "| run | phase | mean SINR dB | semivariance at 100 ms dB^2 | shadowing part | redraw spread dB | Rician K dB |"
    )
    if args.markdown:
        print("|---|---|---|---|---|---|---|")
    pooled: dict[str, list[float]] = {}
    for r in runs:
        for x in r["rows"]:
            k = "n/a" if x["k_db"] is None else f"{x['k_db']:.1f}"
            print(
                f"| {r['run']} | {x['phase']} | {x['mean_db']:.1f} | {x['semivar_db2']:.1f} |"
                f" {x['shadow_db2']:.1f} | {x['fast_db']:.2f} | {k} |"
            )
            pooled.setdefault(x["phase"], []).append(x["semivar_db2"] - x["shadow_db2"])
    pooled["both cells blocked"] = pooled["A blocked"] + pooled["B blocked"]
    for phase, v in pooled.items():
        fast = float(np.sqrt(max(np.mean(v), 0.0)))
        k = k_for_std(fast)
        print(
            f"pooled {phase}: redraw spread {fast:.2f} dB, Rician K {'n/a' if k is None else f'{k:.1f}'} dB"
        )
    for r in runs:
        hos = ", ".join(f"{e['t_s']:.3f} s {e['cell_id']}->{e['other']}" for e in r["handovers"])
        print(f"{r['run']}: {len(r['handovers'])} mmWave handovers: {hos}")


if __name__ == "__main__":
    main()

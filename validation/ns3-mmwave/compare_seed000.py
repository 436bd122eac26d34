#!/usr/bin/env python3
"""Seed 000 §III-B side by side: ccsim's experiments/seed000_ns3mmwave.toml against the
ns3-mmwave tree's own runs of the same scenario (validation/golden/ns3-mmwave/
seed000_cubic_<setting>_s<seed>.json, README.md section 9), per phase (LOS 0-2.133 s, NLOS
behind the building 2.133-15.133 s, LOS 15.133-25 s): goodput, RTT, SINR and MCS of the data,
recoveries and RTOs.

    python validation/ns3-mmwave/compare_seed000.py                 # every golden run present
    python validation/ns3-mmwave/compare_seed000.py --settings rlc_rto --seeds 1 2 3 --markdown
    python validation/ns3-mmwave/compare_seed000.py --set radio.mmwave.cell.rlc.model=entity

Settings as Fig. III-B and run_seed000_reference.py: baseline (RLC 1 MB, min RTO 1 s), rlc
(7 MB, 1 s), rlc_rto (7 MB, 200 ms). ccsim's RTT is the mean of its smoothed RTT sampled every
ms, the tree's the mean of its per-ACK samples; ccsim's SINR and MCS are the serving link's at
each ms with fading (the tree's: of the TBs sent). A setting without a golden run is listed
with ccsim's side only. Nothing here changes ccsim: it reports.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from compare_handover import TOLERANCE, episodes, pct  # noqa: E402

ROOT = HERE.parents[1]
GOLDEN = ROOT / "validation" / "golden" / "ns3-mmwave"
SCENARIO = ROOT / "experiments" / "seed000_ns3mmwave.toml"
SETTINGS = {
    "baseline": ["radio.mmwave.cell.rlc.buffer_bytes=1000000", "tcp.min_rto=1s"],
    "rlc": ["tcp.min_rto=1s"],
    "rlc_rto": [],
}
PHASES = {"los1": (0.0, 2.133), "nlos": (2.133, 15.133), "los2": (15.133, 25.0)}
SAMPLE_S = 0.001


def phase_table(fs, rs, a: float, b: float) -> dict:
    """Goodput, RTT, SINR, MCS and TCP loss episodes of ccsim's 1 ms samples in [a, b)."""
    d = fs[(fs["t_s"] >= a) & (fs["t_s"] <= b)]
    f = fs[(fs["t_s"] >= a) & (fs["t_s"] < b)]
    r = rs[(rs["t_s"] >= a) & (rs["t_s"] < b)]
    mcs = r["mcs"][r["mcs"] < 255]
    return {
        "goodput_mbps": (int(d["delivered_bytes"].iloc[-1]) - int(d["delivered_bytes"].iloc[0]))
        * 8
        / (b - a)
        / 1e6,
        "rtt_ms": float(f["srtt_ms"].mean()),
        "sinr_db": float(r["sinr_db"].mean()),
        "mcs": float(mcs.mean()) if len(mcs) else None,
        "recoveries": episodes(f["cong_state"], 3),
        "rtos": episodes(f["cong_state"], 4),
    }


def run_ccsim(setting: str, seed: int, extra: tuple[str, ...] = ()) -> dict:
    import ccsim

    res = ccsim.run(
        SCENARIO,
        set=[
            f"run.seed={seed}",
            f"output.sample_interval={int(SAMPLE_S * 1000)}ms",
            *SETTINGS[setting],
            *extra,
        ],
    )
    fs, rs = res.flow_series, res.radio_series
    return {p: phase_table(fs, rs, a, b) for p, (a, b) in PHASES.items()}


def fmt(v: float | None, digits: int = 1) -> str:
    return "-" if v is None else f"{v:.{digits}f}"


def cell(ours: float | None, ref: float | None, digits: int = 1) -> str:
    """`ours / ref (±x %)`, flagged when outside the 10 % tolerance."""
    if ref is None or ours is None:
        return f"{fmt(ours, digits)} / {fmt(ref, digits)}"
    miss = abs(ours - ref) > TOLERANCE * abs(ref)
    return f"{fmt(ours, digits)} / {fmt(ref, digits)} ({pct(ours, ref)}{', miss' if miss else ''})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--settings", nargs="+", default=list(SETTINGS), choices=list(SETTINGS))
    ap.add_argument("--seeds", type=int, nargs="+", default=[1], help="ccsim seeds")
    ap.add_argument("--golden-seed", type=int, default=1)
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--set", action="append", default=[], help="extra ccsim overrides")
    args = ap.parse_args()
    head = (
        "| setting | seed | phase | goodput ccsim / ns3-mmwave | RTT ccsim / ns3-mmwave |"
        " SINR dB | MCS | recoveries | RTOs |"
    )
    print(head if args.markdown else head.replace("|", " ").strip())
    if args.markdown:
        print("|---|---|---|---|---|---|---|---|---|")
    for setting in args.settings:
        path = GOLDEN / f"seed000_cubic_{setting}_s{args.golden_seed}.json"
        ref = json.loads(path.read_text())["phases"] if path.exists() else None
        for seed in args.seeds:
            ours = run_ccsim(setting, seed, tuple(args.set))
            for p, o in ours.items():
                r = ref[p] if ref else {}
                print(
                    f"| {setting} | {seed} | {p} | {cell(o['goodput_mbps'], r.get('goodput_mbps'))}"
                    f" | {cell(o['rtt_ms'], r.get('rtt_ms'))}"
                    f" | {fmt(o['sinr_db'])} / {fmt(r.get('sinr_db'))}"
                    f" | {fmt(o['mcs'])} / {fmt(r.get('mcs'))}"
                    f" | {o['recoveries']} / {r.get('recoveries', '-')}"
                    f" | {o['rtos']} / {r.get('rtos', '-')} |"
                )
        if ref is None:
            print(f"  ({path.name}: no golden run yet)")


if __name__ == "__main__":
    main()

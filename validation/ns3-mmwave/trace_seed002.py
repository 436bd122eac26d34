#!/usr/bin/env python3
"""Seed 002, one golden run against ccsim in detail (issue 15: tracing the per-phase misses).

    python validation/ns3-mmwave/trace_seed002.py events --cc siad --rlc 4 --seed 2
    python validation/ns3-mmwave/trace_seed002.py sensitivity --cc siad --rlc 4
    python validation/ns3-mmwave/trace_seed002.py fades --runs 4

`events`: every loss episode of the reference (fast recovery or RTO, from its 10 ms series)
and of ccsim on the same run (`--tcp ns3.33` rules, the seed's LOS SINR as compare_ccsim.py
sets it): the time, cwnd in segments over the 100 ms before and 150 ms after, and the RLC
queue's maximum; ccsim also gives the RLC drops in that 100 ms (none: a loss the buffer did
not make, such as an IPv4 identification-wrap echo). Then, per reference episode, the TCP
segments delivered since an earlier episode when that count is 99-100.5 % of 65 536 (one
wrap of ns-3's 16-bit IP identification, docs/radio.md "IPv4 fragments").

`sensitivity`: ccsim's per-phase spread when the radio rate moves by ±0.3 % (the frame
`overhead` from 0.295 to 0.299 in 21 steps; the preset's is 0.297): the minimum, median and
maximum goodput and RTT per phase, and the runs with an RTO. A phase whose spread covers
more than the 10 % tolerance cannot be compared run for run on one seed.

`fades`: the depth of the deepest fade behind the building (5.2-9.8 s, 10 ms SINR below the
phase's mean) in every golden run of the cc and buffer, and in ccsim's runs on each reference
seed's radio (`--runs` ccsim seeds per reference seed: run.seed = seed, seed + 6, ...): the
tree's 3GPP channel against the preset's Rician block process (K 9 dB behind the building).
"""

from __future__ import annotations

import argparse
import statistics

from compare_ccsim import GOLDEN, PHASES, PRESETS, ccsim_overrides, ue_gain_override

CCS = {"bbr": "TcpBbr", "siad": "TcpSiad"}
ID_WRAP = 65_536


def run_ccsim(cc: str, rlc: int, seed: int, extra: list[str]):
    """One ccsim run of the golden run, BBR/SIAD and NextSeg as the tree (`--tcp ns3.33`)."""
    import ccsim

    overrides = ccsim_overrides(
        CCS[cc], rlc * 1_000_000, seed, ["output.sample_interval=10ms", *extra], "ns3.33"
    )
    return ccsim.run(PRESETS["ns3mmwave"], set=overrides)


def sinr_match(cc: str, rlc: int, seed: int, ref_los_sinr: float) -> list[str]:
    """compare_ccsim.py's per-seed UE gain, as an override."""
    rs = run_ccsim(cc, rlc, seed, []).radio_series
    offset = ref_los_sinr - rs[rs["t_s"] < PHASES[0][2]]["sinr_db"].mean()
    return [ue_gain_override(PRESETS["ns3mmwave"], offset)]


def events(a: argparse.Namespace) -> None:
    import json

    import pandas as pd

    stem = f"seed002_{a.cc}_{a.rlc}MB_s{a.seed}"
    ref = pd.read_csv(GOLDEN / f"{stem}_10ms.csv.gz")
    doc = json.loads((GOLDEN / f"{stem}.json").read_text())
    extra = sinr_match(a.cc, a.rlc, a.seed, doc["phases"]["los1"]["sinr_db"]) + a.set
    res = run_ccsim(a.cc, a.rlc, a.seed, extra)
    fs, rs = res.flow_series.reset_index(drop=True), res.radio_series.reset_index(drop=True)
    seg = doc["mss_bytes"]

    def around(col, i):  # cwnd max over the 100 ms before, value 150 ms after (segments)
        after = col.iloc[min(i + 15, len(col) - 1)]
        return col.iloc[max(0, i - 10) : i].max() / seg, after / seg

    print(f"{stem}: reference (ns3-mmwave) loss episodes")
    cum = (ref["goodput_mbps"] * 0.01 / 8 * 1e6).cumsum()
    starts = []
    for i in ref.index[(ref["recoveries"] > 0) | (ref["rtos"] > 0)]:
        b, f = around(ref["cwnd_bytes"], i)
        q = ref["rlc_txon_max_bytes"].iloc[max(0, i - 10) : i + 1].max() / 1e6
        kind = "RTO" if ref["rtos"].iloc[i] else "recovery"
        wraps = [
            f"{(cum.iloc[i] - cum.iloc[j]) / seg:.0f} segments after {ref['t_s'].iloc[j]:.2f} s"
            for j in starts
            if 0.99 <= (cum.iloc[i] - cum.iloc[j]) / seg / ID_WRAP <= 1.005
        ]
        print(
            f"  {ref['t_s'].iloc[i]:6.2f} s {kind:8s} cwnd {b:4.0f} -> {f:4.0f}, RLC max {q:.2f} MB"
            + (f"; {', '.join(wraps)}" if wraps else "")
        )
        starts.append(i)
    print("ccsim loss episodes (same run)")
    state, drops = fs["cong_state"].to_numpy(), rs["rlc_drops"].to_numpy()
    for i in range(1, len(state)):
        if state[i] != state[i - 1] and state[i] != 0:
            b, f = around(fs["cwnd_bytes"], i)
            q = rs["rlc_bytes"].iloc[max(0, i - 10) : i + 1].max() / 1e6
            kind = "RTO" if state[i] == 4 else "recovery"
            print(
                f"  {fs['t_s'].iloc[i]:6.2f} s {kind:8s} cwnd {b:4.0f} -> {f:4.0f}, RLC max {q:.2f}"
                f" MB, RLC drops +{drops[i] - drops[max(0, i - 10)]}"
            )


def sensitivity(a: argparse.Namespace) -> None:
    rows = []
    for k in range(21):
        overhead = round(0.295 + 0.0002 * k, 4)
        res = run_ccsim(
            a.cc, a.rlc, a.seed, [f"radio.mmwave.cell.frame.overhead={overhead}", *a.set]
        )
        fs = res.flow_series
        row = {}
        for name, t0, t1 in PHASES:
            d = fs[(fs["t_s"] >= t0) & (fs["t_s"] <= t1)]["delivered_bytes"]
            row[f"{name} goodput"] = (d.iloc[-1] - d.iloc[0]) * 8 / (t1 - t0) / 1e6
            row[f"{name} RTT"] = fs[(fs["t_s"] >= t0) & (fs["t_s"] < t1)]["srtt_ms"].mean()
        row["RTOs"] = res.summary["flows"][0]["timeouts"]
        rows.append(row)
    print(f"{a.cc} {a.rlc} MB, 21 runs, frame overhead 0.295-0.299: min / median / max")
    for key in rows[0]:
        v = [r[key] for r in rows]
        print(f"  {key:13s} {min(v):7.1f} / {statistics.median(v):7.1f} / {max(v):7.1f}")
    print(f"  runs with an RTO: {sum(r['RTOs'] > 0 for r in rows)} of {len(rows)}")


def fades(a: argparse.Namespace) -> None:
    import json

    import pandas as pd

    def depth(t, sinr) -> tuple[float, float]:
        n = sinr[(t >= 5.2) & (t < 9.8)].dropna()
        return (n - n.mean()).min(), n.std()

    tree, mine = [], []
    for path in sorted(GOLDEN.glob(f"seed002_{a.cc}_{a.rlc}MB_s*_10ms.csv.gz")):
        seed = int(path.name.split("_s")[-1].split("_")[0])
        ref = pd.read_csv(path)
        d, sd = depth(ref["t_s"], ref["sinr_db"])
        tree.append(d)
        doc = json.loads((GOLDEN / f"seed002_{a.cc}_{a.rlc}MB_s{seed}.json").read_text())
        extra = sinr_match(a.cc, a.rlc, seed, doc["phases"]["los1"]["sinr_db"]) + a.set
        runs = []
        for k in range(a.runs):
            rs = run_ccsim(a.cc, a.rlc, seed + 6 * k, extra).radio_series
            runs.append(depth(rs["t_s"], rs["sinr_db"]))
        mine += [r[0] for r in runs]
        print(
            f"seed {seed}: tree {d:+5.1f} dB (std {sd:.2f}); ccsim "
            + ", ".join(f"{r[0]:+5.1f} (std {r[1]:.2f})" for r in runs)
        )
    for name, v in (("tree", tree), ("ccsim", mine)):
        print(
            f"{name}: {len(v)} runs, deepest fade median {statistics.median(v):+.1f} dB, "
            f"min {min(v):+.1f}; runs with a fade deeper than 8 dB: {sum(x < -8 for x in v)}"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=["events", "sensitivity", "fades"])
    ap.add_argument("--cc", choices=sorted(CCS), default="siad")
    ap.add_argument("--rlc", type=int, choices=[4, 7], default=4)
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--runs", type=int, default=4, help="fades: ccsim runs per reference seed")
    ap.add_argument("--set", action="append", default=[], help="ccsim override KEY=VALUE")
    a = ap.parse_args()
    {"events": events, "sensitivity": sensitivity, "fades": fades}[a.what](a)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The handover / blockage reference side by side: ccsim's experiments/ns3mmwave_handover.toml
against the ns3-mmwave golden run (validation/golden/ns3-mmwave/handover_<cc>_dc_s<seed>.json,
README.md section 8), per phase (A in LOS, both blocked, B in LOS) and per handover.

    python validation/ns3-mmwave/compare_handover.py                  # needs `import ccsim`
    python validation/ns3-mmwave/compare_handover.py --set radio.handover.forward_loss_bytes=0
    python validation/ns3-mmwave/compare_handover.py --seeds 1 2 3 --markdown
    python validation/ns3-mmwave/compare_handover.py --cc TcpCubic --seeds 1 2 3
    python validation/ns3-mmwave/compare_handover.py --distribution 20   # handover times only
    python validation/ns3-mmwave/compare_handover.py --spread 20   # phase goodput over seeds 1-20

Per phase: goodput (application bytes in order), RTT (ns3-mmwave: mean of the per-ACK samples;
ccsim: mean of its smoothed RTT sampled every ms), data segments retransmitted, entries into
fast recovery and into loss (RTO). ccsim counts the entries from its 1 ms congestion-state
samples. Per handover: the longest run of milliseconds without in-order delivery in the
following second and the retransmissions, recoveries and RTOs in that second, as
run_handover.py computes them for the reference. With --distribution N: when ccsim hands over
between the two mmWave cells over seeds 1..N, against every golden handover run (any TCP: the
reference's channel draws depend on its traffic, so each run is another draw). Nothing here
changes ccsim: it reports.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "validation" / "golden" / "ns3-mmwave"
SCENARIO = ROOT / "experiments" / "ns3mmwave_handover.toml"
CCSIM_CCA = {"TcpNewReno": "newreno", "TcpCubic": "cubic"}
TOLERANCE = 0.10
SAMPLE_S = 0.001


def episodes(states, target: int) -> int:
    """Entries into congestion state `target` (3 Recovery, 4 Loss) in a state sequence."""
    n, prev = 0, 0
    for s in states:
        if s == target and prev != target:
            n += 1
        prev = s
    return n


def window(fs, a: float, b: float) -> dict:
    """Goodput, RTT and TCP loss counters of the samples in [a, b)."""
    d = fs[(fs["t_s"] >= a) & (fs["t_s"] <= b)]
    r = fs[(fs["t_s"] >= a) & (fs["t_s"] < b)]
    before = fs[fs["t_s"] < a]["retx_segments"]
    retx0 = int(before.iloc[-1]) if len(before) else 0
    gaps, run = 0, 0
    for g in r["goodput_mbps"]:
        run = run + 1 if g == 0 else 0
        gaps = max(gaps, run)
    return {
        "goodput_mbps": (int(d["delivered_bytes"].iloc[-1]) - int(d["delivered_bytes"].iloc[0]))
        * 8
        / (b - a)
        / 1e6,
        "rtt_ms": float(r["srtt_ms"].mean()),
        "retx_segs": int(r["retx_segments"].iloc[-1]) - retx0,
        "recoveries": episodes(r["cong_state"], 3),
        "rtos": episodes(r["cong_state"], 4),
        "longest_no_delivery_ms": round(gaps * SAMPLE_S * 1000),
    }


def run_ccsim(cc: str, seed: int, extra: list[str], duration: float) -> dict:
    import ccsim

    res = ccsim.run(
        SCENARIO,
        set=[
            f"flows.0.cca={CCSIM_CCA[cc]}",
            f"run.seed={seed}",
            f"run.duration={duration}s",
            f"output.sample_interval={int(SAMPLE_S * 1000)}ms",
            *extra,
        ],
    )
    fs = res.flow_series
    hos = res.summary["radio"]["handovers"] or []
    return {
        "fs": fs,
        "handovers": [
            {**h, "next_1s": window(fs, h["t_s"], min(h["t_s"] + 1.0, duration))} for h in hos
        ],
        "whole": res.summary["flows"][0],
    }


def mmwave_handovers(hos: list[dict]) -> list[tuple[float, int, int]]:
    """(time, from, to) of the handovers between mmWave cells (ccsim sites 1, 2; LTE is 0)."""
    return [(h["t_s"], h["from"], h["to"]) for h in hos if h["from"] and h["to"]]


def distribution(n: int, cc: str, extra: list[str]) -> None:
    """First A->B handover and mmWave handover counts: ccsim seeds 1..n against the goldens."""
    import statistics

    import ccsim

    print("ns3-mmwave runs (first A->B, mmWave handovers, LTE switches):")
    for f in sorted(GOLDEN.glob("handover_*_dc_s*.json")):
        g = json.loads(f.read_text())
        hos = [e for e in g["events"] if e["kind"] == "enb_ho_start"]
        lte = [e for e in g["events"] if e["kind"] == "switch_to_lte"]
        first = f"{hos[0]['t_s']:.3f} s" if hos else "none"
        print(f"  {f.stem}: {first}, {len(hos)}, {len(lte)}")
    firsts, counts = [], []
    for seed in range(1, n + 1):
        res = ccsim.run(
            SCENARIO,
            set=[f"flows.0.cca={CCSIM_CCA[cc]}", f"run.seed={seed}", "run.duration=6s", *extra],
        )
        hos = res.summary["radio"]["handovers"] or []
        mm = mmwave_handovers(hos)
        lte = sum(1 for h in hos if h["to"] == 0)
        firsts.append(mm[0][0] if mm else None)
        counts.append(len(mm))
        first = f"{mm[0][0]:.3f} s" if mm else "none"
        print(f"  ccsim seed {seed}: {first}, {len(mm)}, {lte}")
    f = [x for x in firsts if x is not None]
    print(
        f"ccsim over {n} seeds: first A->B median {statistics.median(f):.2f} s"
        f" (range {min(f):.2f}-{max(f):.2f}, none in {n - len(f)});"
        f" mmWave handovers median {statistics.median(counts)} (range {min(counts)}-{max(counts)})"
    )


def spread(n: int, cc: str, extra: list[str]) -> None:
    """Blocked and B-in-LOS goodput over ccsim seeds 1..n: median and range, the blocked phase's
    recoveries, the runs with an RTO, against the golden run of seed 1."""
    import statistics

    g = json.loads((GOLDEN / f"handover_{cc.lower()[3:]}_dc_s1.json").read_text())
    bounds, runs = g["phase_bounds_s"], []
    for seed in range(1, n + 1):
        fs = run_ccsim(cc, seed, extra, float(g["sim_time_s"]))["fs"]
        runs.append({k: window(fs, *bounds[k]) for k in ("both_blocked", "b_los")})
    for k in ("both_blocked", "b_los"):
        v = [r[k]["goodput_mbps"] for r in runs]
        print(
            f"{k}: goodput median {statistics.median(v):.1f} Mb/s (range {min(v):.1f}-"
            f"{max(v):.1f}; ns3-mmwave {g['phases'][k]['goodput_mbps']:.1f})"
        )
    rec = statistics.median(r["both_blocked"]["recoveries"] for r in runs)
    rto = sum(1 for r in runs if r["both_blocked"]["rtos"] or r["b_los"]["rtos"])
    print(f"recoveries in the blocked phase: median {rec}; runs with an RTO: {rto} of {n}")


def pct(a: float, b: float) -> str:
    return f"{100 * (a - b) / b:+.1f} %" if b else "n/a"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cc", default="TcpNewReno", choices=sorted(CCSIM_CCA))
    ap.add_argument("--seeds", type=int, nargs="+", default=[1], help="ccsim seeds")
    ap.add_argument("--golden-seed", type=int, default=1)
    ap.add_argument("--set", action="append", default=[], help="ccsim override key=value")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--distribution", type=int, metavar="N", help="handover times, seeds 1..N")
    ap.add_argument("--spread", type=int, metavar="N", help="phase goodput over seeds 1..N")
    args = ap.parse_args()
    if args.distribution:
        distribution(args.distribution, args.cc, args.set)
        return
    if args.spread:
        spread(args.spread, args.cc, args.set)
        return
    g = json.loads(
        (GOLDEN / f"handover_{args.cc.lower()[3:]}_dc_s{args.golden_seed}.json").read_text()
    )
    duration = float(g["sim_time_s"])
    bounds = g["phase_bounds_s"]
    ref_hos = [e for e in g["handover_gaps"] if e["kind"] == "enb_ho_start"]
    rows = []
    for seed in args.seeds:
        c = run_ccsim(args.cc, seed, args.set, duration)
        for name, (a, b) in bounds.items():
            ours, ref = window(c["fs"], a, b), g["phases"][name]
            rows.append((seed, name, ours, ref))
        print(f"# ccsim seed {seed}: {len(c['handovers'])} handovers (reference {len(ref_hos)})")
        for h in c["handovers"]:
            n = h["next_1s"]
            print(
                f"  ccsim {h['t_s']:.3f} s cell {h['from']}->{h['to']}: forwarded {h['forwarded']},"
                f" lost {h['lost']}; next 1 s: gap {n['longest_no_delivery_ms']} ms,"
                f" retx {n['retx_segs']}, recoveries {n['recoveries']}, RTOs {n['rtos']}"
            )
        for e in ref_hos:
            n = e["next_1s"]
            print(
                f"  ns3-mmwave {e['t_s']:.3f} s cell {e['cell_id']}->{e['other']}: next 1 s:"
                f" gap {e['longest_no_delivery_ms_in_1s']} ms, retx {n['retx_segs']},"
                f" recoveries {n['recoveries']}, RTOs {n['rtos']}"
            )
        w = c["whole"]
        print(
            f"  ccsim whole run: {w['goodput_mbps']:.1f} Mb/s, retx {w['retx_segments']},"
            f" recoveries {w['fast_recoveries']}, RTOs {w['timeouts']}"
        )
    head = "| seed | phase | goodput ccsim / ns3-mmwave | RTT ccsim / ns3-mmwave | retx | recoveries | RTOs |"
    print(head if args.markdown else head.replace("|", " ").strip())
    if args.markdown:
        print("|---|---|---|---|---|---|---|")
    for seed, name, o, r in rows:
        ok_g = abs(o["goodput_mbps"] - r["goodput_mbps"]) <= TOLERANCE * r["goodput_mbps"]
        ok_r = abs(o["rtt_ms"] - r["rtt_ms"]) <= TOLERANCE * r["rtt_ms"]
        print(
            f"| {seed} | {name} | {o['goodput_mbps']:.1f} / {r['goodput_mbps']:.1f}"
            f" ({pct(o['goodput_mbps'], r['goodput_mbps'])}{'' if ok_g else ', miss'})"
            f" | {o['rtt_ms']:.1f} / {r['rtt_ms']:.1f} ({pct(o['rtt_ms'], r['rtt_ms'])}"
            f"{'' if ok_r else ', miss'}) | {o['retx_segs']} / {r['retx_segs']}"
            f" | {o['recoveries']} / {r['recoveries']} | {o['rtos']} / {r['rtos']} |"
        )


if __name__ == "__main__":
    main()

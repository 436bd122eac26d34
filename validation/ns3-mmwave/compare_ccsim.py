#!/usr/bin/env python3
"""Seed 002 side by side: ccsim against the ns3-mmwave golden data
(validation/golden/ns3-mmwave/seed002_*.json), per phase (LOS 0-5 s, NLOS 5-10 s, LOS 10-15 s),
for every cc x RLC buffer x seed present in the golden data; then the 4 MB vs 7 MB effect per
cc and the wall time per simulated second on both sides.

    python validation/ns3-mmwave/compare_ccsim.py --preset ns3mmwave   # needs `import ccsim`
    python validation/ns3-mmwave/compare_ccsim.py --preset paper       # the paper-calibrated file
    python validation/ns3-mmwave/compare_ccsim.py --set radio.mmwave.cell.fading.enabled=false
    python validation/ns3-mmwave/compare_ccsim.py --tcp ns3.33 --markdown  # BBR/SIAD as the tree

`--preset ns3mmwave` runs experiments/seed002_ns3mmwave.toml (ns3-mmwave's radio, issue 15),
`--preset paper` experiments/seed002_siad_bbr.toml (calibrated to the paper's Table 2).
`--set` overrides go to every ccsim run (after the cc, buffer and seed). The verdicts use
issue 15's tolerances: per-phase goodput and RTT within 10 %, the 4 MB vs 7 MB change within
10 points.

Goodput: bytes delivered to the application per phase, both sides. RTT: ns3-mmwave's is the
mean of the sender's RTT samples in the phase (one per ACK); ccsim's is the time average of
its smoothed RTT over 20 ms samples in the phase (ccsim's per-ACK mean exists only for the
whole run, printed on the last line of each block). At a steady rate the two coincide.
Nothing here changes ccsim: it reports the gaps.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "validation" / "golden" / "ns3-mmwave"
PRESETS = {
    "ns3mmwave": ROOT / "experiments" / "seed002_ns3mmwave.toml",
    "paper": ROOT / "experiments" / "seed002_siad_bbr.toml",
}
TOLERANCE = 0.10
POINTS = 10.0
PHASES = (("los1", 0.0, 5.0), ("nlos", 5.0, 10.0), ("los2", 10.0, 15.0))
CCSIM_CCA = {"TcpBbr": "bbr", "TcpSiad": "siad"}
# `--tcp ns3.33`: the congestion controls as the authors' ns-3.33 tree runs them (issue 15):
# SIAD is the tree's port (tcp-siad.cpp, 666-segment clamp) fed ns-3.33's PktsAcked delay,
# the latest RTT sample; ns-3.33's BBR paces at the full bandwidth estimate (no 1 % margin).
TREE_CCA_PARAMS = {
    "TcpSiad": ["ns3_port_compat=true", "last_rtt_delay=true"],
    "TcpBbr": ["pacing_margin=0"],
}


def ccsim_phases(
    scenario: Path, cc: str, rlc: int, seed: int, extra: list[str], tcp: str = "ns3.44"
) -> dict:
    import time

    import ccsim

    params = TREE_CCA_PARAMS.get(cc, []) if tcp == "ns3.33" else []
    t0 = time.perf_counter()
    res = ccsim.run(
        scenario,
        set=[
            f"flows.0.cca={CCSIM_CCA[cc]}",
            *(f"flows.0.cca_params.{p}" for p in params),
            f"radio.mmwave.cell.rlc.buffer_bytes={rlc}",
            f"run.seed={seed}",
            *extra,
        ],
    )
    wall = time.perf_counter() - t0
    fs, rs = res.flow_series, res.radio_series
    out = {}
    for name, a, b in PHASES:
        # delivered_bytes is cumulative: the phase's goodput is its increase over the phase.
        d = fs[(fs["t_s"] >= a) & (fs["t_s"] <= b)]["delivered_bytes"]
        r = fs[(fs["t_s"] >= a) & (fs["t_s"] < b)]
        rr = rs[(rs["t_s"] >= a) & (rs["t_s"] < b)]
        out[name] = {
            "goodput_mbps": (d.iloc[-1] - d.iloc[0]) * 8 / (b - a) / 1e6,
            "rtt_ms": r["srtt_ms"].mean(),
            "sinr_db": rr["sinr_db"].mean(),
            "rlc_bytes": rr["rlc_bytes"].mean(),
        }
    f = res.summary["flows"][0]
    out["whole"] = {
        "goodput_mbps": f["goodput_mbps"],
        "rtt_ms": f["rtt_mean_ms"],
        "rtos": f["timeouts"],
        "wall_s": wall,
    }
    return out


def pct(a: float | None, b: float | None) -> str:
    if a is None or b is None or b == 0:
        return "   -"
    return f"{100 * (a / b - 1):+5.0f}%"


def effect_rows(whole: dict) -> list[tuple[str, str, str, float, float]]:
    """4 MB vs 7 MB change per cc and metric: for every seed run at both buffers, then for the
    means over seeds (label "mean")."""
    rows = []
    for cc in sorted({k[0] for k in whole}):
        four, seven = whole.get((cc, 4_000_000)), whole.get((cc, 7_000_000))
        if not four or not seven:
            continue
        for metric in ("goodput_mbps", "rtt_ms"):
            by_seed4 = {p[2]: p for p in four}
            by_seed7 = {p[2]: p for p in seven}
            for seed in sorted(set(by_seed4) & set(by_seed7)):
                a, b = by_seed4[seed], by_seed7[seed]
                dn = 100 * (a[0][metric] / b[0][metric] - 1)
                dc = 100 * (a[1][metric] / b[1][metric] - 1)
                rows.append((cc, metric, f"seed {seed}", dn, dc))
            n4, n7 = (statistics.fmean(p[0][metric] for p in x) for x in (four, seven))
            c4, c7 = (statistics.fmean(p[1][metric] for p in x) for x in (four, seven))
            rows.append(
                (
                    cc,
                    metric,
                    f"mean ({len(four)}/{len(seven)} seeds)",
                    100 * (n4 / n7 - 1),
                    100 * (c4 / c7 - 1),
                )
            )
    return rows


def markdown(means: dict, rtts: dict, queues: dict, effects: list) -> str:
    """The report's tables (validation/report.md, "ns3-mmwave"): means over seeds."""
    names = {"los1": "LOS 0–5 s", "nlos": "NLOS 5–10 s", "los2": "LOS 10–15 s"}
    ccs = {"TcpBbr": "BBR", "TcpSiad": "SIAD"}
    out = [
        "| cc, RLC | phase | seeds | goodput ns3-mmwave / ccsim Mb/s | Δ | "
        "RTT ns3-mmwave / ccsim ms | Δ | RLC queue MB |",
        "|---|---|---|---|---|---|---|---|",
    ]
    order = {n: i for i, (n, _, _) in enumerate(PHASES)}
    for key in sorted(means, key=lambda k: (k[0], k[1], order[k[2]])):
        cc, rlc, name = key
        ns, cs = (statistics.fmean(p[i] for p in means[key]) for i in (0, 1))
        nr, cr = (statistics.fmean(p[i] for p in rtts[key]) for i in (0, 1))
        nq, cq = (statistics.fmean(p[i] for p in queues[key]) for i in (0, 1))
        bold_g = "**" if abs(cs / ns - 1) > TOLERANCE else ""
        bold_r = "**" if abs(cr / nr - 1) > TOLERANCE else ""
        out.append(
            f"| {ccs.get(cc, cc)} {rlc / 1e6:g} MB | {names[name]} | {len(means[key])} | "
            f"{ns:.1f} / {cs:.1f} | {bold_g}{pct(cs, ns).strip()}{bold_g} | {nr:.1f} / {cr:.1f} | "
            f"{bold_r}{pct(cr, nr).strip()}{bold_r} | {nq / 1e6:.2f} / {cq / 1e6:.2f} |"
        )
    out += [
        "",
        "| 4 MB vs 7 MB (whole run) | seeds | ns3-mmwave | ccsim | difference | within 10 points |",
        "|---|---|---|---|---|---|",
    ]
    for cc, metric, label, dn, dc in effects:
        what = "goodput" if metric == "goodput_mbps" else "RTT"
        ok = "yes" if abs(dc - dn) <= POINTS else "**no**"
        out.append(
            f"| {ccs.get(cc, cc)} {what} | {label} | {dn:+.1f} % | {dc:+.1f} % | {dc - dn:+.1f} | {ok} |"
        )
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", action="append", default=[], help="ccsim override KEY=VALUE")
    ap.add_argument("--preset", choices=sorted(PRESETS), default="ns3mmwave")
    ap.add_argument("--seeds", nargs="+", type=int, default=None, help="only these seeds")
    ap.add_argument(
        "--tcp",
        choices=["ns3.44", "ns3.33"],
        default="ns3.44",
        help="ns3.33: BBR and SIAD as the authors' tree runs them (TREE_CCA_PARAMS)",
    )
    ap.add_argument("--markdown", action="store_true", help="also print the report's tables")
    a = ap.parse_args()
    scenario = PRESETS[a.preset]
    print(f"ccsim scenario: {scenario.relative_to(ROOT)} {' '.join(a.set)} (TCP as {a.tcp})")
    docs = [json.loads(p.read_text()) for p in sorted(GOLDEN.glob("seed002_*.json"))]
    if a.seeds is not None:
        docs = [d for d in docs if d["seed"] in a.seeds]
    if not docs:
        sys.exit(f"no golden data in {GOLDEN}: run run_reference.py first")
    means: dict[tuple[str, int, str], list[tuple[float, float]]] = {}
    rtts: dict[tuple[str, int, str], list[tuple[float, float]]] = {}
    queues: dict[tuple[str, int, str], list[tuple[float, float]]] = {}
    whole: dict[tuple[str, int], list[tuple[dict, dict, int]]] = {}
    walls: list[tuple[float, float]] = []
    print(
        "per phase: goodput Mb/s (ns3-mmwave | ccsim | gap), RTT ms (ns3-mmwave | ccsim | gap), SINR dB, RLC MB"
    )
    for d in docs:
        cc, rlc, seed = d["cc"], d["rlc_buffer_bytes"], d["seed"]
        c = ccsim_phases(scenario, cc, rlc, seed, a.set, a.tcp)
        stop = d.get("stopped_at_s", d["sim_time_s"])
        print(f"\n{cc} RLC {rlc / 1e6:g} MB seed {seed} (ns3-mmwave run to {stop:g} s)")
        for name, _, _ in PHASES:
            if name not in d["phases"]:
                continue  # a partial run (a prefix) does not cover this phase
            n = d["phases"][name]
            k = c[name]
            print(
                f"  {name:5s} goodput {n['goodput_mbps']:7.1f} | {k['goodput_mbps']:7.1f} | "
                f"{pct(k['goodput_mbps'], n['goodput_mbps'])}   RTT {n['rtt_ms'] or 0:6.1f} | "
                f"{k['rtt_ms']:6.1f} | {pct(k['rtt_ms'], n['rtt_ms'])}   SINR {n['sinr_db'] or 0:5.1f} | "
                f"{k['sinr_db']:5.1f}   RLC {n['rlc_txon_bytes_mean'] / 1e6:4.2f} | {k['rlc_bytes'] / 1e6:4.2f}"
            )
            means.setdefault((cc, rlc, name), []).append((n["goodput_mbps"], k["goodput_mbps"]))
            rtts.setdefault((cc, rlc, name), []).append((n["rtt_ms"], k["rtt_ms"]))
            queues.setdefault((cc, rlc, name), []).append(
                (n["rlc_txon_bytes_mean"], k["rlc_bytes"])
            )
        if d.get("stopped_at_s", d["sim_time_s"]) < d["sim_time_s"]:
            continue
        w, kw = d["whole_run"], c["whole"]
        whole.setdefault((cc, rlc), []).append((w, kw, seed))
        walls.append((d["wall_s_per_sim_s"], kw["wall_s"] / d["sim_time_s"]))
        print(
            f"  whole goodput {w['goodput_mbps']:7.1f} | {kw['goodput_mbps']:7.1f} | "
            f"{pct(kw['goodput_mbps'], w['goodput_mbps'])}   RTT per ACK {w['rtt_ms']:6.1f} | "
            f"{kw['rtt_ms']:6.1f}   RTOs {w['rtos']} | {kw['rtos']}"
        )
    print(
        "\nmean over seeds per phase: goodput Mb/s and RTT ms (ns3-mmwave | ccsim | gap | verdict)"
    )
    hits = 0
    for key, pairs in sorted(means.items()):
        cc, rlc, name = key
        ns, cs = (statistics.fmean(p[i] for p in pairs) for i in (0, 1))
        nr, cr = (statistics.fmean(p[i] for p in rtts[key]) for i in (0, 1))
        ok_g, ok_r = abs(cs / ns - 1) <= TOLERANCE, abs(cr / nr - 1) <= TOLERANCE
        hits += ok_g + ok_r
        print(
            f"  {cc:8s} {rlc / 1e6:g} MB {name:5s} {ns:7.1f} | {cs:7.1f} | {pct(cs, ns)} "
            f"{'ok  ' if ok_g else 'MISS'}   RTT {nr:5.1f} | {cr:5.1f} | {pct(cr, nr)} "
            f"{'ok' if ok_r else 'MISS'}  ({len(pairs)} seeds)"
        )
    print(f"  {hits} of {2 * len(means)} phase comparisons within {TOLERANCE:.0%}")
    print("\n4 MB vs 7 MB, whole run (change in %, ns3-mmwave | ccsim | difference in points)")
    effects = effect_rows(whole)
    for cc, metric, label, dn, dc in effects:
        verdict = "ok" if abs(dc - dn) <= POINTS else "MISS"
        print(
            f"  {cc:8s} {metric:13s} {label:18s} {dn:+6.1f} | {dc:+6.1f} | {dc - dn:+5.1f} {verdict}"
        )
    if walls:
        ns_w = statistics.fmean(w[0] for w in walls)
        cs_w = statistics.fmean(w[1] for w in walls)
        print(
            f"\nwall time per simulated second: ns3-mmwave {min(w[0] for w in walls):.0f}-"
            f"{max(w[0] for w in walls):.0f} s (mean {ns_w:.1f}), ccsim {cs_w * 1000:.0f} ms "
            f"(mean; {ns_w / cs_w:.0f}x faster)"
        )
    if a.markdown:
        print("\n" + markdown(means, rtts, queues, effects))


if __name__ == "__main__":
    main()

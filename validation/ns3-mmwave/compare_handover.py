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
    python validation/ns3-mmwave/compare_handover.py --cc TcpCubic --seeds 1 2 3 --reference-schedule
    python validation/ns3-mmwave/compare_handover.py --seeds 1 2 3 --reference-channel

Per phase: goodput (application bytes in order), RTT (ns3-mmwave: mean of the per-ACK samples;
ccsim: mean of its smoothed RTT sampled every ms), data segments retransmitted, entries into
fast recovery and into loss (RTO). ccsim counts the entries from its 1 ms congestion-state
samples. Per handover: the longest run of milliseconds without in-order delivery in the
following second and the retransmissions, recoveries and RTOs in that second, as
run_handover.py computes them for the reference. With --distribution N: when ccsim hands over
between the two mmWave cells over seeds 1..N, against every golden handover run (any TCP: the
reference's channel draws depend on its traffic, so each run is another draw). With
--reference-schedule ccsim takes no handover decision of its own: seed N hands over at the
times and to the cells of golden run N (`radio.handover.schedule` from its `enb_ho_start`
events; the --golden-seed run where there is no run N) and is compared with that run, so what
differs is no longer when the two simulators hand over. With --reference-channel ccsim seed N
takes golden run N's channel instead of its own: UE 0's SINR towards gNBs A and B every 10 ms is
the run's report-table SINR (`radio.channel.sinr_trace` from `c2_sinr_db`, `c3_sinr_db`; channel
updated every 10 ms, ccsim's own fading off, as the trace holds the tree's), and ccsim decides
the handovers from it (both options together: the tree's times and its channel). Nothing here
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


# The tree's cell ids (LTE eNB 1, mmWave gNBs A 2 and B 3) as ccsim's site indices.
CELL_SITE = {1: 0, 2: 1, 3: 2}


def golden_path(cc: str, seed: int) -> Path:
    return GOLDEN / f"handover_{cc.lower()[3:]}_dc_s{seed}.json"


def reference_schedule(g: dict) -> str:
    """The golden run's handover decisions as a `radio.handover.schedule` override: every
    eNB-side handover start (`enb_ho_start`, to cell `other`), every dual-connectivity switch to
    LTE and every switch back to mmWave from LTE."""
    entries, on_lte = [], False
    for e in sorted(g["events"], key=lambda e: e["t_s"]):
        site = None
        if e["kind"] == "enb_ho_start":
            site = CELL_SITE[e["other"]]
        elif e["kind"] == "switch_to_lte":
            site, on_lte = 0, True
        elif e["kind"] == "switch_to_mmwave" and on_lte:
            site, on_lte = CELL_SITE[e["cell_id"]], False
        if site is not None:
            entries.append(f"{{at_us = {round(e['t_s'] * 1e6)}, site = {site}}}")
    return f"radio.handover.schedule=[{', '.join(entries)}]"


def reference_channel(cc: str, seed: int) -> list[str]:
    """Golden run `seed`'s report-table SINRs of gNBs A and B (10 ms bins) as ccsim's
    `radio.channel.sinr_trace`, with the overrides a recorded channel needs: updates every
    10 ms, no fading of ccsim's own on the data or the measurements."""
    import csv
    import gzip

    with gzip.open(GOLDEN / f"handover_{cc.lower()[3:]}_dc_s{seed}_10ms.csv.gz", "rt") as f:
        rows = list(csv.DictReader(f))
    sites = ", ".join(
        f"{{site = {CELL_SITE[c]}, sinr_db = [{', '.join(r[f'c{c}_sinr_db'] for r in rows)}]}}"
        for c in (2, 3)
    )
    return [
        "radio.channel.update_period_us=10000",
        "radio.channel.measurement_fading=false",
        "radio.mmwave.cell.fading.enabled=false",
        f"radio.channel.sinr_trace={{period_us = 10000, sites = [{sites}]}}",
    ]


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


def link_ccsim(rs, a: float, b: float) -> dict:
    """The serving mmWave link in [a, b): mean MCS (of the instants a TB could be sent), and
    the radio rate (decoded bytes) in the
    10 ms bins with data waiting at the serving cell (what the link carried when it had work),
    with the share of such bins."""
    r = rs[(rs["t_s"] >= a) & (rs["t_s"] < b) & ~rs["lte"]]
    busy = r[r["rlc_bytes"] > 0]
    usable = r[r["mcs"] != 255]  # 255: the CQI is below MCS 0 (outage)
    return {
        "mcs": float(usable["mcs"].mean()) if len(usable) else 0.0,
        "busy_mbps": float(busy["radio_mbps"].mean()) if len(busy) else 0.0,
        "busy_share": len(busy) / max(len(r), 1),
    }


def link_reference(cc: str, seed: int, a: float, b: float) -> dict:
    """`link_ccsim` from the golden 10 ms series: the serving cell's mean TB MCS (bins with
    TBs) and decoded TB rate in the bins with bytes in its RLC AM buffers."""
    import csv
    import gzip

    mcs, busy, n = [], [], 0
    with gzip.open(GOLDEN / f"handover_{cc.lower()[3:]}_dc_s{seed}_10ms.csv.gz", "rt") as f:
        for row in csv.DictReader(f):
            t, c = float(row["t_s"]), int(row["serving_cell"])
            if not a <= t < b or c not in (2, 3):
                continue
            n += 1
            p = f"c{c}_"
            if int(row[p + "tb_n"]) > 0:
                mcs.append(float(row[p + "mcs"]))
            if float(row[p + "rlc_txon_bytes"]) + float(row[p + "rlc_retx_bytes"]) > 0:
                busy.append(float(row[p + "tb_mbps"]))
    return {
        "mcs": sum(mcs) / max(len(mcs), 1),
        "busy_mbps": sum(busy) / max(len(busy), 1),
        "busy_share": len(busy) / max(n, 1),
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
        "rs": res.radio_series,
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

    g = json.loads(golden_path(cc, 1).read_text())
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


def pct(a: float, b: float | None) -> str:
    return f"{100 * (a - b) / b:+.1f} %" if b else "n/a"


def within(a: float, b: float | None) -> bool:
    """Within the tolerance; a reference with no value (no ACK in the phase) is no miss."""
    return b is None or abs(a - b) <= TOLERANCE * b


def num(x: float | None) -> str:
    return "-" if x is None else f"{x:.1f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cc", default="TcpNewReno", choices=sorted(CCSIM_CCA))
    ap.add_argument("--seeds", type=int, nargs="+", default=[1], help="ccsim seeds")
    ap.add_argument("--golden-seed", type=int, default=1)
    ap.add_argument("--set", action="append", default=[], help="ccsim override key=value")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--distribution", type=int, metavar="N", help="handover times, seeds 1..N")
    ap.add_argument("--spread", type=int, metavar="N", help="phase goodput over seeds 1..N")
    ap.add_argument(
        "--reference-channel",
        action="store_true",
        help="seed N takes golden run N's report-table SINRs of A and B"
        " (radio.channel.sinr_trace) and is compared with it",
    )
    ap.add_argument(
        "--reference-schedule",
        action="store_true",
        help="seed N hands over when golden run N did (radio.handover.schedule) and is compared"
        " with it",
    )
    args = ap.parse_args()
    if args.distribution:
        distribution(args.distribution, args.cc, args.set)
        return
    if args.spread:
        spread(args.spread, args.cc, args.set)
        return
    rows, links = [], []
    for seed in args.seeds:
        golden_seed = args.golden_seed
        replay = args.reference_schedule or args.reference_channel
        if replay and golden_path(args.cc, seed).exists():
            golden_seed = seed
        g = json.loads(golden_path(args.cc, golden_seed).read_text())
        duration = float(g["sim_time_s"])
        ref_hos = [e for e in g["handover_gaps"] if e["kind"] == "enb_ho_start"]
        extra = list(args.set)
        if args.reference_schedule:
            extra.append(reference_schedule(g))
        if args.reference_channel:
            extra += reference_channel(args.cc, golden_seed)
        c = run_ccsim(args.cc, seed, extra, duration)
        for name, (a, b) in g["phase_bounds_s"].items():
            ours, ref = window(c["fs"], a, b), g["phases"][name]
            rows.append((seed, name, ours, ref))
            lo, lr = link_ccsim(c["rs"], a, b), link_reference(args.cc, golden_seed, a, b)
            links.append((seed, name, lo, lr))
        how = "".join(
            f" ({w})"
            for w, on in (
                ("its handover schedule", args.reference_schedule),
                ("its channel", args.reference_channel),
            )
            if on
        )
        print(
            f"# ccsim seed {seed} against golden seed {golden_seed}{how}:"
            f" {len(c['handovers'])} handovers (reference {len(ref_hos)})"
        )
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
        ok_g = within(o["goodput_mbps"], r["goodput_mbps"])
        ok_r = within(o["rtt_ms"], r["rtt_ms"])
        print(
            f"| {seed} | {name} | {o['goodput_mbps']:.1f} / {r['goodput_mbps']:.1f}"
            f" ({pct(o['goodput_mbps'], r['goodput_mbps'])}{'' if ok_g else ', miss'})"
            f" | {o['rtt_ms']:.1f} / {num(r['rtt_ms'])} ({pct(o['rtt_ms'], r['rtt_ms'])}"
            f"{'' if ok_r else ', miss'}) | {o['retx_segs']} / {r['retx_segs']}"
            f" | {o['recoveries']} / {r['recoveries']} | {o['rtos']} / {r['rtos']} |"
        )

    head = "| seed | phase | mean MCS ccsim / ns3-mmwave | link Mb/s when backlogged | backlogged share |"
    print(head if args.markdown else head.replace("|", " ").strip())
    if args.markdown:
        print("|---|---|---|---|---|")
    for seed, name, o, r in links:
        print(
            f"| {seed} | {name} | {o['mcs']:.1f} / {r['mcs']:.1f}"
            f" | {o['busy_mbps']:.0f} / {r['busy_mbps']:.0f} ({pct(o['busy_mbps'], r['busy_mbps'])})"
            f" | {o['busy_share']:.2f} / {r['busy_share']:.2f} |"
        )


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Seed 002 over seeds: how often each simulator stalls, and whether BBR recovers after LOS
returns, the tree against ccsim's preset and its HARQ-process model.

    python validation/ns3-mmwave/stall_rates.py                 # every reference seed, 24 ccsim seeds
    python validation/ns3-mmwave/stall_rates.py --ccsim-seeds 6 --markdown
    python validation/ns3-mmwave/stall_rates.py --models processes+amc --one siad_7MB 14

`--one RUN SEED`: one ccsim run per model (`run.seed` SEED on the radio its row uses), with
its `ccsim run` command and what TCP received after its first RTO; with `CCSIM_RLC_TRACE=FILE`
(and `CCSIM_HARQ_TRACE=FILE`) set it leaves the run's per-PDU RLC (per-process HARQ) trace
there, for `rlc_trace.py`.

Per run (the tree: every golden `seed002_*_10ms.csv.gz`; ccsim: `--ccsim-seeds` runs per cc x
buffer x model):
- RLC stalls: stretches of >= `--min-ms` with nothing delivered while data is outstanding
  (rlc_stalls.py's definitions: the tree's RLC holds transmitted, unacknowledged data; ccsim's
  TCP has data in flight);
  those that end in a TCP timeout (an RTO within 20 ms of the end: the tree's `rtos` column,
  ccsim's `cong_state` Loss) are also counted apart: they lasted until TCP's 1 s RTO, which
  does not say whether RLC or a loss held the data;
- the longest idle stretch after LOS returns: 10 ms bins of 10-15 s in a row with no goodput,
  whatever the cause (the tree's BBR collapse is a pacing stall with nothing in flight, which
  is not an RLC stall);
- collapse: LOS 10-15 s goodput below half the run's LOS 0-5 s goodput.

ccsim's run `k` (k = 0, 1, ...) uses `run.seed = 2 + k` and the LOS SINR of the reference seed
`k mod n` of the n reference seeds present, matched as compare_ccsim.py does (each reference
seed draws its own shadowing once per run; ccsim's seed draws its fading and errors), so 24 ccsim
seeds put 4 on each of 6 reference radios. Models (`MODELS`): the preset, and the tree's HARQ
processes with doubled feedback on the entity RLC with its segment rule and TB rule
(docs/radio.md, "HARQ processes as the tree runs them"), without and with the tree's AMC rules;
`--models sampler33` adds a what-if of the tree's ns-3.33 BBR sampler. Nothing here changes
ccsim.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import json
import statistics
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
    ue_gain_override,
)
from rlc_stalls import ccsim_bins, stalls, tree_bins  # noqa: E402

# The RLC/HARQ model of the tree, as docs/radio.md gives it: TB rule (one data symbol less in a
# slot with uplink data, overhead without the symbol share), entity RLC AM with the tree's
# segment rule and no give-up, 20 HARQ processes per UE with the feedback sent twice.
PROCESSES = [
    "radio.mmwave.cell.frame.uplink_data_symbols=1",
    "radio.mmwave.cell.frame.overhead=0.259",
    "radio.mmwave.cell.rlc.model=entity",
    "radio.mmwave.cell.rlc.resegment_retx=true",
    "radio.mmwave.cell.rlc.max_retx=100000",
    "radio.mmwave.cell.harq.model=processes",
    "radio.mmwave.cell.harq.feedback_copies=2",
]
# ... and with the tree's two AMC rules (docs/radio.md, "What makes the tree's TBs fail"), with
# which the processes gave the segment-rule stalls of 200-210 ms on seed 4.
AMC = [
    "radio.mmwave.cell.link_adaptation.cqi_quantization=true",
    "radio.mmwave.cell.link_adaptation.mcs_reference_symbols=1",
    "radio.mmwave.cell.link_adaptation.bler_width_db=0.1",
]
# What-if, not derived (not run by default): the tree's ns-3.33 delivery-rate sampler and BBR
# sample test (docs/tcp-model.md, "ns-3.33 rules"; BBR only) with 1 ms ACK batching, which
# gives ccsim the tree's startup overflow and its IP-identification echo (docs/radio.md).
SAMPLER33 = ["tcp.ns3_33_rate_ack_elapsed=true", "radio.uplink_grant_period_us=1000"]
MODELS = {
    "preset": [],
    "processes": PROCESSES,
    "processes+amc": PROCESSES + AMC,
    "sampler33": SAMPLER33,
}
BBR_ONLY = {"sampler33": ["flows.0.cca_params.ns3_33_sample_validity=true"]}
RUNS = (("bbr", "4MB"), ("bbr", "7MB"), ("siad", "4MB"), ("siad", "7MB"))
COLLAPSE = 0.5  # LOS 10-15 s goodput below this share of LOS 0-5 s: BBR did not recover


def reference_seeds() -> list[int]:
    """The seeds with all four golden runs."""
    found = {p.name.split("_s")[-1].split(".")[0] for p in GOLDEN.glob("seed002_*_s*.json")}
    seeds = sorted(int(s) for s in found if s.isdigit())
    return [s for s in seeds if all(golden(cc, rlc, s).exists() for cc, rlc in RUNS)]


def golden(cc: str, rlc: str, seed: int) -> Path:
    return GOLDEN / f"seed002_{cc}_{rlc}_s{seed}.json"


def phase_goodputs(goodput: list[tuple[float, float]]) -> dict[str, float]:
    """Mean goodput (Mb/s) per phase from (bin start s, Mb/s) 10 ms bins."""
    out = {}
    for name, a, b in PHASES:
        vals = [g for t, g in goodput if a - 1e-9 <= t < b - 1e-9]
        out[name] = statistics.fmean(vals) if vals else 0.0
    return out


def run_stats(
    bins: list[tuple[float, bool]],
    goodput: list[tuple[float, float]],
    rto_times: list[float],
    min_ms: float,
):
    """The per-run figures: RLC stalls (and those ending in an RTO), the longest idle stretch
    after LOS returns, phase goodputs, collapse."""
    ph = phase_goodputs(goodput)
    los2 = [(t, g == 0) for t, g in goodput if PHASES[2][1] - 1e-9 <= t < PHASES[2][2] - 1e-9]
    idle = max((ms for _, ms in stalls(los2, 10.0)), default=0)
    found = stalls(bins, min_ms)

    def ends_in_rto(start: float, ms: float) -> bool:
        end = start + ms / 1e3
        return any(start - 1e-9 <= t <= end + 0.02 for t in rto_times)

    return {
        "stalls": found,
        "rto_stalls": [st for st in found if ends_in_rto(*st)],
        "idle_los2_ms": idle,
        "los1": ph["los1"],
        "los2": ph["los2"],
        "collapse": ph["los2"] < COLLAPSE * ph["los1"],
    }


def tree_run(cc: str, rlc: str, seed: int, min_ms: float) -> dict:
    bins, retx = tree_bins(cc, rlc, seed)
    with gzip.open(GOLDEN / f"seed002_{cc}_{rlc}_s{seed}_10ms.csv.gz", "rt") as f:
        rows = list(csv.DictReader(f))
    goodput = [(float(r["t_s"]), float(r["goodput_mbps"])) for r in rows]
    rto_times = [float(r["t_s"]) for r in rows if float(r["rtos"] or 0) > 0]
    w = json.loads(golden(cc, rlc, seed).read_text())["whole_run"]
    return {**run_stats(bins, goodput, rto_times, min_ms), "retx_bins": retx, "rtos": w["rtos"]}


def ccsim_run(cc: str, rlc: str, seed: int, ref: int, extra: list[str], min_ms: float) -> dict:
    bins, cell, res = ccsim_bins(cc, int(rlc[:-2]) * 1_000_000, seed, extra, ref)
    fs = res.flow_series
    d = fs["delivered_bytes"].diff().fillna(0).to_numpy()
    # flow_series rows are bin ends: the bin ending at t_s starts 10 ms before.
    goodput = [(float(t) - 0.01, d[i] * 8 / 0.01 / 1e6) for i, t in enumerate(fs["t_s"]) if i]
    loss = (fs["cong_state"] == 4).to_numpy()  # 4: Loss, after an RTO (docs/outputs.md)
    rto_times = [
        float(t) for i, t in enumerate(fs["t_s"]) if loss[i] and (i == 0 or not loss[i - 1])
    ]
    f = res.summary["flows"][0]
    return {
        **run_stats(bins, goodput, rto_times, min_ms),
        # The delay RLC draws its retransmissions inside a TB's fate: none to count.
        "retx_bins": cell["nlos_retx_bins"] if "rlc.model=entity" in " ".join(extra) else None,
        "rtos": f["timeouts"],
        "result": res,
    }


def summarize(runs: list[dict]) -> dict:
    lengths = [ms for r in runs for _, ms in r["stalls"]]
    los2 = [r["los2"] for r in runs]
    return {
        "n": len(runs),
        "with_stall": sum(bool(r["stalls"]) for r in runs),
        "rto_stalls": sum(len(r["rto_stalls"]) for r in runs),
        "stalls": len(lengths),
        "stall_ms": (min(lengths), statistics.median(lengths), max(lengths)) if lengths else None,
        "collapsed": sum(r["collapse"] for r in runs),
        "idle_ms": (
            statistics.median(r["idle_los2_ms"] for r in runs),
            max(r["idle_los2_ms"] for r in runs),
        ),
        "los2": (min(los2), statistics.median(los2), max(los2)),
        "retx_bins": statistics.median(r["retx_bins"] for r in runs)
        if runs[0]["retx_bins"] is not None
        else None,
        "with_rto": sum(r["rtos"] > 0 for r in runs),
    }


def row(side: str, cc: str, rlc: str, s: dict) -> str:
    ms = s["stall_ms"]
    lengths = f"{ms[0]:.0f} / {ms[1]:.0f} / {ms[2]:.0f}" if ms else "–"
    lo, med, hi = s["los2"]
    retx = "–" if s["retx_bins"] is None else f"{s['retx_bins']:.0f}"
    return (
        f"| {side} | {cc.upper()} {rlc[:-2]} MB | {s['n']} | {s['with_stall']} ({s['stalls']}) | "
        f"{lengths} | {retx} | {s['collapsed']} | {med:.0f} ({lo:.0f}-{hi:.0f}) | "
        f"{s['idle_ms'][0]:.0f} / {s['idle_ms'][1]:.0f} | {s['rto_stalls']} | {s['with_rto']} |"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--ccsim-seeds", type=int, default=24, help="ccsim runs per cc x buffer x model"
    )
    ap.add_argument(
        "--models",
        nargs="+",
        choices=sorted(MODELS),
        default=["preset", "processes", "processes+amc"],
    )
    ap.add_argument("--min-ms", type=float, default=100.0)
    ap.add_argument("--verbose", action="store_true", help="one line per run")
    ap.add_argument("--markdown", action="store_true", help="the report's table")
    ap.add_argument(
        "--one", nargs=2, metavar=("RUN", "SEED"), help="one ccsim run, e.g. siad_7MB 14"
    )
    a = ap.parse_args()
    refs = reference_seeds()
    if not refs:
        sys.exit(f"no seed with all four golden runs in {GOLDEN}")
    if a.one:
        for model in a.models:
            one_run(model, *a.one, refs, a.min_ms)
        return
    print(f"reference seeds {refs}; ccsim run.seed 2-{1 + a.ccsim_seeds} on their radios")
    lines = []
    for cc, rlc in RUNS:
        tree = [tree_run(cc, rlc, s, a.min_ms) for s in refs]
        for s, r in zip(refs, tree):
            if a.verbose or r["collapse"] or r["stalls"]:
                print(f"  tree {cc} {rlc} seed {s}: {describe(r)}")
        lines.append(row("ns3-mmwave", cc, rlc, summarize(tree)))
        for model in a.models:
            runs = []
            for k in range(a.ccsim_seeds):
                seed, ref = 2 + k, refs[k % len(refs)]
                extra = MODELS[model] + (BBR_ONLY.get(model, []) if cc == "bbr" else [])
                r = ccsim_run(cc, rlc, seed, ref, extra, a.min_ms)
                del r["result"]  # the table needs the figures only
                runs.append(r)
                if a.verbose or r["collapse"] or r["stalls"]:
                    print(f"  ccsim {model} {cc} {rlc} seed {seed} (radio {ref}): {describe(r)}")
            lines.append(row(f"ccsim {model}", cc, rlc, summarize(runs)))
    header = [
        f"| simulator | run | runs | runs with an RLC stall >= {a.min_ms:.0f} ms (stalls) | "
        "stall ms min / median / max | NLOS 10 ms bins with RLC retx, median | collapsed after "
        "LOS returns | LOS 10-15 s Mb/s, median (min-max) | longest idle ms in 10-15 s, median / "
        "max | of the stalls, ending in an RTO | runs with an RTO |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    print("\n".join(["", *header, *lines]) if a.markdown else "\n".join(["", *lines]))


def one_run(model: str, run: str, seed: str, refs: list[int], min_ms: float) -> None:
    """One ccsim run of the table (`run.seed` = `seed` on its row's radio): its figures, the
    equivalent `ccsim run` command, and the bytes TCP received after its first RTO."""
    cc, rlc = run.split("_")
    seed_n = int(seed)
    ref = refs[(seed_n - 2) % len(refs)]
    extra = MODELS[model] + (BBR_ONLY.get(model, []) if cc == "bbr" else [])
    name = {v: k for k, v in CCSIM_CCA.items()}[cc]
    overrides = ccsim_overrides(
        name, int(rlc[:-2]) * 1_000_000, seed_n, ["output.sample_interval=10ms", *extra], "ns3.33"
    )
    los1 = json.loads(golden(cc, rlc, ref).read_text())["phases"]["los1"]["sinr_db"]
    _, offset_db, _ = ccsim_matched_run(PRESETS["ns3mmwave"], overrides, los1)
    # Last, so that a trace sink (CCSIM_RLC_TRACE) holds this run.
    r = ccsim_run(cc, rlc, seed_n, ref, extra, min_ms)
    gain = ue_gain_override(PRESETS["ns3mmwave"], offset_db)
    cmd = " ".join(f"--set {o}" for o in [*overrides, gain])
    print(f"ccsim {model} {cc} {rlc} seed {seed} (radio {ref}): {describe(r)}")
    print(f"  ccsim run experiments/seed002_ns3mmwave.toml {cmd}")
    fs = r["result"].flow_series
    lost = fs[fs["cong_state"] == 4]
    if len(lost):
        t0 = float(lost["t_s"].iloc[0])
        at = fs[fs["t_s"] >= t0]["delivered_bytes"]
        print(
            f"  first RTO at {t0:.2f} s: TCP received {at.iloc[-1] - at.iloc[0]:.0f} bytes "
            f"from then to {float(fs['t_s'].iloc[-1]):.2f} s"
        )


def describe(r: dict) -> str:
    st = ", ".join(f"{t:.2f} s {ms:.0f} ms" for t, ms in r["stalls"]) or "no stall"
    st += f" ({len(r['rto_stalls'])} ending in an RTO)" if r["rto_stalls"] else ""
    return (
        f"RLC stalls {st}; LOS 0-5 s {r['los1']:.0f}, 10-15 s {r['los2']:.0f} Mb/s"
        f"{' COLLAPSE' if r['collapse'] else ''}, longest idle {r['idle_los2_ms']:.0f} ms "
        f"after LOS returns, RTOs {r['rtos']}"
    )


if __name__ == "__main__":
    main()

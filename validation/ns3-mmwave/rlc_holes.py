#!/usr/bin/env python3
"""The blocked link's RLC holes side by side (issue 15): the ns3-mmwave handover reference
against ccsim on the same channel (`compare_handover.py --reference-channel`), in the phase
where both gNBs are blocked (2.4-5.6 s). docs/radio.md, "The blocked link's RLC holes".

    python validation/ns3-mmwave/rlc_holes.py                 # NewReno s1, needs `import ccsim`
    python validation/ns3-mmwave/rlc_holes.py --markdown
    python validation/ns3-mmwave/rlc_holes.py --cc TcpCubic --golden-seed 2

The tree, from its committed golden files only:
- `handover_<cc>_dc_s<seed>_10ms.csv.gz`: TBs of cells A and B, HARQ retransmissions among
  them, corrupt TBs (any redundancy version);
- `handover_trace_<cc>_s<seed>_rlc.csv.gz` (the traced rerun, trace_handover.py): the UE RLC
  entity's PDUs held above VR(R) (`rxon_sns`) every millisecond, and how long VR(R) stays on
  one SN while PDUs wait above it (a hole's lifetime, on the trace's 1 ms polling).

ccsim, each variant with the tree's channel, `forward_limit_bytes = 0` (no fit) and the entity
RLC, so that a hole exists (`ue_rlc_held_pdus`, sampled every ms): the cell counters of the
blocked phase (a run to 5.6 s less a run to 2.4 s), the held PDUs, the first mmWave handover's
losses, and the blocked phase's goodput and RTT against the tree's.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import compare_handover as ch  # noqa: E402

LO_MS, HI_MS = 2400, 5600
SECONDS = (HI_MS - LO_MS) / 1000
# The tree's RLC and HARQ as ccsim's keys (docs/radio.md): entity RLC with the program's
# 10 ms timers, the tree's segment rule, HARQ processes with the doubled feedback; no fit.
ENTITY = [
    "radio.handover.forward_limit_bytes=0",
    "radio.mmwave.cell.rlc.model=entity",
    "radio.mmwave.cell.rlc.resegment_retx=true",
    "radio.mmwave.cell.rlc.max_retx=100000",
    "radio.mmwave.cell.rlc.reordering_us=10000",
    "radio.mmwave.cell.rlc.status_prohibit_us=10000",
    "radio.mmwave.cell.harq.model=processes",
    "radio.mmwave.cell.harq.feedback_copies=2",
]
TB_RULE = ["radio.mmwave.cell.frame.uplink_data_symbols=1"]
AMC_RULES = [
    "radio.mmwave.cell.link_adaptation.cqi_quantization=true",
    "radio.mmwave.cell.link_adaptation.mcs_reference_symbols=1",
    "radio.mmwave.cell.link_adaptation.bler_width_db=0.1",
]
# The tree's status report: one NACK (docs/radio.md, "One NACK per status report").
ONE_NACK = ["radio.mmwave.cell.rlc.status_max_nacks=1"]
VARIANTS = {
    "entity RLC + HARQ processes": ENTITY,
    "+ TB rule (uplink_data_symbols = 1)": ENTITY + TB_RULE,
    "+ TB rule + AMC rules": ENTITY + TB_RULE + AMC_RULES,
    "+ one NACK per status": ENTITY + ONE_NACK,
    "+ one NACK + TB rule": ENTITY + ONE_NACK + TB_RULE,
    "+ one NACK + TB rule + AMC rules": ENTITY + ONE_NACK + TB_RULE + AMC_RULES,
}


def quantile(xs: list, q: float) -> float:
    xs = sorted(xs)
    return xs[int(q * (len(xs) - 1))] if xs else 0


def held_stats(held: list[int]) -> dict:
    """Share of the 1 ms samples with PDUs held above VR(R), and the held count's median/p90."""
    pos = [h for h in held if h > 0]
    return {
        "held_share": len(pos) / max(len(held), 1),
        "held_p50": quantile(pos, 0.5),
        "held_p90": quantile(pos, 0.9),
    }


def tree(cc: str, seed: int) -> dict:
    g = ch.GOLDEN
    n = new = corrupt = 0
    with gzip.open(g / f"handover_{cc.lower()[3:]}_dc_s{seed}_10ms.csv.gz", "rt") as f:
        for r in csv.DictReader(f):
            if LO_MS <= round(float(r["t_s"]) * 1000) < HI_MS:
                for c in (2, 3):
                    n += int(r[f"c{c}_tb_n"])
                    new += int(r[f"c{c}_tb_n"]) - int(r[f"c{c}_tb_retx"])
                    corrupt += int(r[f"c{c}_tb_corrupt"])
    path = g / f"handover_trace_{cc.lower()[3:]}_s{seed}_rlc.csv.gz"
    with gzip.open(path, "rt") as f:
        ue = sorted(
            (r for r in csv.DictReader(f) if r["side"] == "ue"), key=lambda r: int(r["t_us"])
        )
    # Held PDUs every ms: the last state row of the UE's entities (a new one at each handover).
    held, i, last = [], 0, 0
    for ms in range(LO_MS, HI_MS):
        while i < len(ue) and int(ue[i]["t_us"]) <= ms * 1000:
            last = int(ue[i]["rxon_sns"])
            i += 1
        held.append(last)
    # Hole lifetimes: how long VR(R) stays on one SN of one entity while PDUs wait above it.
    lives, cur = [], {}
    for r in ue:
        t, e, vr, k = int(r["t_us"]), r["id"], int(r["vr_r"]), int(r["rxon_sns"])
        c = cur.get(e)
        if c and (vr != c[1] or k == 0):
            if LO_MS * 1000 <= c[0] < HI_MS * 1000:
                lives.append((t - c[0]) / 1000)
            cur[e] = None
        if k > 0 and not cur.get(e):
            cur[e] = (t, vr)
    long = [x for x in lives if x >= 5]
    return {
        "tbs": new,
        "retx_share": (n - new) / max(new, 1),
        "corrupt_share": corrupt / max(new, 1),
        **held_stats(held),
        "holes_5ms_per_s": len(long) / SECONDS,
        "hole_p50_ms": quantile(long, 0.5),
        "hole_p90_ms": quantile(long, 0.9),
    }


def run(cc: str, seed: int, extra: list[str], duration: float):
    import ccsim

    return ccsim.run(
        ch.SCENARIO,
        set=[
            f"flows.0.cca={ch.CCSIM_CCA[cc]}",
            f"run.seed={seed}",
            f"run.duration={duration}s",
            "output.sample_interval=1ms",
            *extra,
        ],
    )


def ccsim_side(cc: str, seed: int, extra: list[str], phase: tuple[float, float]) -> dict:
    extra = extra + ch.reference_channel(cc, seed)
    before = run(cc, seed, extra, LO_MS / 1000).summary["radio"]["cells"]
    res = run(cc, seed, extra, HI_MS / 1000)
    d: dict[str, int] = {}
    for a, b in zip(before, res.summary["radio"]["cells"]):
        for k in ("tbs", "tb_retransmissions", "harq_failed_first", "harq_lost_tbs"):
            d[k] = d.get(k, 0) + b.get(k, 0) - a.get(k, 0)
        d["arq"] = (
            d.get("arq", 0) + b.get("arq_retransmissions", 0) - a.get("arq_retransmissions", 0)
        )
    rs = res.radio_series
    r = rs[(rs["t_s"] >= LO_MS / 1000 - 1e-9) & (rs["t_s"] < HI_MS / 1000 - 1e-9)]
    first = next(h for h in res.summary["radio"]["handovers"] if h["from"] and h["to"])
    before_ho = rs[(rs["t_s"] < first["t_s"]) & (rs["t_s"] >= first["t_s"] - 0.02)]
    w = ch.window(res.flow_series, *phase)
    return {
        "tbs": d["tbs"],
        "retx_share": d["tb_retransmissions"] / max(d["tbs"], 1),
        "failed_first": d["harq_failed_first"] / max(d["tbs"], 1),
        "left_to_rlc_per_s": d["harq_lost_tbs"] / SECONDS,
        "arq_per_s": d["arq"] / SECONDS,
        **held_stats([int(x) for x in r["ue_rlc_held_pdus"]]),
        "first_ho": (first["t_s"], int(before_ho["ue_rlc_held_pdus"].max()), first["lost"]),
        "goodput": w["goodput_mbps"],
        "rtt": w["rtt_ms"],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cc", default="TcpNewReno", choices=sorted(ch.CCSIM_CCA))
    ap.add_argument("--golden-seed", type=int, default=1, help="golden run (and ccsim seed)")
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    g = json.loads(ch.golden_path(a.cc, a.golden_seed).read_text())
    phase = tuple(g["phase_bounds_s"]["both_blocked"])
    ref = g["phases"]["both_blocked"]
    t = tree(a.cc, a.golden_seed)
    sep = " | " if a.markdown else "  "
    print(
        f"# blocked phase {LO_MS / 1000}-{HI_MS / 1000} s, {a.cc} golden seed {a.golden_seed};"
        " ccsim on its channel"
    )
    head = [
        "run",
        "new TBs",
        "HARQ retx / new TB",
        "first tx failed",
        "TBs left to RLC /s",
        "ARQ retx /s",
        "samples holding",
        "held PDUs p50 / p90",
        "first handover: held, lost",
        "blocked goodput, RTT",
    ]
    print(("| " if a.markdown else "") + sep.join(head) + (" |" if a.markdown else ""))
    if a.markdown:
        print("|" + "---|" * len(head))
    print(
        ("| " if a.markdown else "")
        + sep.join(
            [
                "ns3-mmwave",
                str(t["tbs"]),
                f"{t['retx_share']:.3f}",
                f"(corrupt / new {t['corrupt_share']:.3f})",
                f"(holes >= 5 ms: {t['holes_5ms_per_s']:.0f}, life p50 {t['hole_p50_ms']:.0f}"
                f" / p90 {t['hole_p90_ms']:.0f} ms)",
                "-",
                f"{t['held_share']:.2f}",
                f"{t['held_p50']} / {t['held_p90']}",
                "see README 8.2",
                f"{ref['goodput_mbps']:.1f} Mb/s, {ref['rtt_ms']:.1f} ms",
            ]
        )
        + (" |" if a.markdown else "")
    )
    for name, extra in VARIANTS.items():
        c = ccsim_side(a.cc, a.golden_seed, extra, phase)
        ho_t, ho_held, ho_lost = c["first_ho"]
        print(
            ("| " if a.markdown else "")
            + sep.join(
                [
                    name,
                    str(c["tbs"]),
                    f"{c['retx_share']:.3f}",
                    f"{c['failed_first']:.3f}",
                    f"{c['left_to_rlc_per_s']:.0f}",
                    f"{c['arq_per_s']:.0f}",
                    f"{c['held_share']:.2f}",
                    f"{c['held_p50']} / {c['held_p90']}",
                    f"{ho_t:.3f} s: {ho_held}, {ho_lost}",
                    f"{c['goodput']:.1f} ({ch.pct(c['goodput'], ref['goodput_mbps'])}),"
                    f" {c['rtt']:.1f} ({ch.pct(c['rtt'], ref['rtt_ms'])})",
                ]
            )
            + (" |" if a.markdown else "")
        )


if __name__ == "__main__":
    main()

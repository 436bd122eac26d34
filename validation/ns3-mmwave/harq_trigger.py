#!/usr/bin/env python3
"""Why the tree's TBs fail as often as they do in seed 4's stall windows, from the committed TB
traces (`validation/golden/ns3-mmwave/trace/<run>_tb.csv.gz`, one row per downlink TB: size,
MCS, redundancy version, corrupt, mean SINR, the error model's TBLER, symbols).

    python validation/ns3-mmwave/harq_trigger.py            # the three traced seed 4 runs

Per run it prints:
- first transmissions: how many failed, against the sum of the error model's TBLER (the draw
  is `corrupt = U < TBLER`, mmwave-spectrum-phy.cc l. 591, so the two agree when the TBLER
  is the cause), per MCS and number of symbols;
- the MCSs used: only even ones (and MCS 28) if the MCS goes through the CQI (mmwave-amc.cc
  l. 238-290 and `GetMcsFromCqi`: CQI 1-15 have the efficiencies of MCS 0, 2, ..., 28);
- the code-block rule: each TB's TBLER converted to the one-symbol TB the AMC tests
  (`CalculateTbSize (mcs, 1)`, l. 247-251): `1 - (1 - TBLER)^(C_ref / C)`. If the MCS was
  chosen as the tree's AMC says, that reference TBLER is at most 10 % (the chosen MCS decodes
  a one-symbol TB at <= 10 %, the CQI step only lowers it), while the TB's own is larger;
- HARQ by size: each failed TB matched to the next TB of its size with the next redundancy
  version (the TB trace has no process number, so this matching is ambiguous);
- HARQ by process (`<run>_harq.csv.gz`, BBR 4 MB only: the trace program's HARQ rows, the
  UE's HARQ process and NDI of each TB and the gNB scheduler's pending NACKs): what follows
  each transmission on its process. The tree sends every DL TB's HARQ feedback twice
  (mmwave-spectrum-phy.cc l. 754, inside the packet loop, and l. 786, after it), so a NACK
  makes two retransmissions (rv1 and, a slot later, rv2) and the second copy's ACK frees the
  process again while a new TB is on it: that process then runs one TB ahead of its feedback,
  a NACK resends the newer TB and the failed one is never resent by HARQ (the UE's RLC
  NACKs it after t-Reordering: the RLC retransmission).

With `--ccsim` it also runs ccsim on BBR 4 MB seed 4 with the HARQ processes (`harq.model =
"processes"`, `feedback_copies = 2`, the rules of docs/radio.md's seed 4 table, `--amc` adds the
AMC rules), records its per-process sequence (`CCSIM_HARQ_TRACE`, `cell_harq.rs`) and prints the
two side by side (`--markdown` for the table in docs/radio.md): slots carrying a TB, new TBs, failed
first transmissions, failed TBs left to RLC, process reuse gaps, and the chains: runs of new TBs
on one process that go out before the feedback of the previous TB on it could free it (reused
< 4 slots after it, or after it failed), i.e. a process running ahead of its feedback.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import math
import os
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

TRACE = Path(__file__).resolve().parents[1] / "golden" / "ns3-mmwave" / "trace"
RUNS = ["bbr_4MB_s4", "siad_4MB_s4", "siad_7MB_s4"]
SLOT_US = 250
N_RB = 278  # 200 MHz at 720 kHz per RB (MmWavePhyMacCommon), ceil
# (modulation order, effective code rate) of MCS 0-28: MmWaveLteMiErrorModel's tables, the same
# values as ccsim_radio::link_adaptation::NS3_MMWAVE_MCS.
ECR = [0.08, 0.1, 0.11, 0.15, 0.19, 0.24, 0.3, 0.37, 0.44, 0.51, 0.3, 0.33, 0.37, 0.42, 0.48]
ECR += [0.54, 0.6, 0.43, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.89, 0.92]
QM = [2] * 10 + [4] * 7 + [6] * 12


def tb_size_bytes(mcs: int, n_sym: int) -> int:
    """`MmWaveAmc::CalculateTbSize` (ccsim_radio::link_adaptation::tb_size_bytes)."""
    payload = int(11 * N_RB * n_sym * QM[mcs] * ECR[mcs] / 8)
    tb = max(payload - 3, 0)
    if tb > 768:
        tb = payload - (tb // 768) * 3
    return tb


def code_blocks(nbytes: int) -> int:
    """TS 36.212 §5.1.2 as the tree's error model counts them."""
    bits = nbytes * 8
    return 1 if bits <= 6144 else math.ceil(bits / 6120)


def load(run: str) -> list[dict]:
    with gzip.open(TRACE / f"{run}_tb.csv.gz", "rt") as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        for k in ("t_us", "tb_bytes", "mcs", "rv", "corrupt", "num_sym"):
            r[k] = int(r[k])
        r["tbler"] = float(r["tbler"])
        r["sinr_db"] = float(r["sinr_db"])
        r["slot"] = r["t_us"] // SLOT_US
    return rows


def first_transmissions(rows: list[dict]) -> dict:
    first = [r for r in rows if r["rv"] == 0]
    per = defaultdict(lambda: [0, 0, 0.0])
    for r in first:
        p = per[(r["mcs"], r["num_sym"])]
        p[0] += 1
        p[1] += r["corrupt"]
        p[2] += r["tbler"]
    by_rv = Counter((r["rv"], r["corrupt"]) for r in rows)
    ref = []
    for r in first:
        c, c_ref = code_blocks(r["tb_bytes"]), code_blocks(tb_size_bytes(r["mcs"], 1))
        ref.append(1 - (1 - min(r["tbler"], 1.0)) ** (c_ref / c))
    return {
        "n": len(first),
        "corrupt": sum(r["corrupt"] for r in first),
        "tbler_sum": sum(r["tbler"] for r in first),
        "per": per,
        "rv": by_rv,
        "mcs": Counter(r["mcs"] for r in rows),
        "ref_le_10": sum(x <= 0.1 + 1e-9 for x in ref),
        "own_gt_10": sum(r["tbler"] > 0.1 for r in first),
    }


def harq_delays(rows: list[dict]) -> tuple[Counter, int, int]:
    """Delay (slots) from each failed TB to its retransmission: the next TB of its size with the
    next redundancy version, matched to the latest failed TB at least 4 slots (the HARQ round
    trip) before it, so the delays are the shortest the trace allows; the retransmissions that
    match no failed TB (their previous version decoded); the failed TBs never matched."""
    pending: list[tuple[int, int, int]] = []  # (slot, bytes, rv) of failed TBs
    delays: Counter = Counter()
    unmatched = 0
    for r in rows:
        if r["rv"] > 0:
            cands = [
                j
                for j, (k0, b0, rv0) in enumerate(pending)
                if b0 == r["tb_bytes"] and rv0 == r["rv"] - 1 and r["slot"] - k0 >= 4
            ]
            if cands:
                j = max(cands, key=lambda j: pending[j][0])
                delays[r["slot"] - pending[j][0]] += 1
                pending.pop(j)
            else:
                unmatched += 1
        if r["corrupt"] and r["rv"] < 3:
            pending.append((r["slot"], r["tb_bytes"], r["rv"]))
    return delays, unmatched, len(pending)


def harq_processes(run: str) -> dict | None:
    """What follows each transmission on its HARQ process (`<run>_harq.csv.gz`)."""
    path = TRACE / f"{run}_harq.csv.gz"
    if not path.exists():
        return None
    with gzip.open(path, "rt") as f:
        rows = list(csv.DictReader(f))
    last: dict[int, dict] = {}
    lost: list[int] = []  # times (us) of failed TBs never resent by HARQ
    out = Counter()
    delays: Counter = Counter()
    reuse: Counter = Counter()
    for r in rows:
        h, ndi, slot = int(r["harq_id"]), int(r["ndi"]), int(r["t_us"]) // SLOT_US
        corrupt = int(r["corrupt"])
        prev = last.get(h)
        if ndi == 1:
            out["first"] += 1
            out["first_failed"] += corrupt
            if prev is not None:
                reuse[min(slot - prev["slot"], 5)] += 1
                if prev["corrupt"] and prev["rv"] < 3:
                    out["failed_then_new_data"] += 1  # the failed TB is never resent by HARQ
                    lost.append(prev["t_us"])
        elif prev is not None:
            if prev["corrupt"]:
                out["retx_after_failure"] += 1
                delays[slot - prev["slot"]] += 1
            else:
                out["retx_after_decoded"] += 1
        ids = r["sched_pending"].split()
        out["duplicate_nacks"] += len(ids) - len(set(ids))
        last[h] = {"slot": slot, "corrupt": corrupt, "rv": int(r["rv"]), "t_us": int(r["t_us"])}
    return {"count": out, "delays": delays, "reuse": reuse, "lost": lost}


def sequence_stats(rows: list[tuple[int, int, int, int, int]]) -> dict:
    """Per-process statistics of transmissions `(slot, process, ndi, rv, corrupt)` in time
    order, the same for the tree's trace and ccsim's."""
    last: dict[int, tuple[int, int, int]] = {}
    c: Counter = Counter()
    gaps: Counter = Counter()
    chains: list[int] = []
    run: Counter = Counter()
    for slot, p, ndi, rv, corrupt in rows:
        prev = last.get(p)
        if ndi:
            c["new"] += 1
            c["failed"] += corrupt
            if prev is not None:
                gaps[min(slot - prev[0], 5)] += 1
                c["left"] += prev[2] == 1 and prev[1] < 3
                if slot - prev[0] < 4 or prev[2]:
                    run[p] += 1
                elif run[p]:
                    chains.append(run.pop(p))
        last[p] = (slot, rv, corrupt)
    chains += [v for v in run.values() if v]
    chains.sort()
    span = rows[-1][0] - rows[0][0] + 1
    return {
        "slots_used": len({r[0] for r in rows}) / span,
        "new": c["new"],
        "failed": c["failed"],
        "left": c["left"],
        "processes": len({r[1] for r in rows}),
        "gaps": gaps,
        "ahead": sum(chains),
        "chains": len(chains),
        "chain_p50": chains[len(chains) // 2] if chains else 0,
        "chain_max": chains[-1] if chains else 0,
    }


def tree_sequence(run: str) -> list[tuple[int, int, int, int, int]]:
    with gzip.open(TRACE / f"{run}_harq.csv.gz", "rt") as f:
        return [
            (
                int(r["t_us"]) // SLOT_US,
                int(r["harq_id"]),
                int(r["ndi"]),
                int(r["rv"]),
                int(r["corrupt"]),
            )
            for r in csv.DictReader(f)
        ]


def ccsim_sequence(amc: bool) -> list[tuple[int, int, int, int, int]]:
    """Runs ccsim on BBR 4 MB seed 4 with the HARQ processes and returns its transmissions."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from rlc_stalls import ccsim_bins
    from stall_rates import AMC, PROCESSES

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "harq.csv"
        os.environ["CCSIM_HARQ_TRACE"] = str(path)
        try:
            ccsim_bins("bbr", 4_000_000, 4, PROCESSES + (AMC if amc else []))
        finally:
            del os.environ["CCSIM_HARQ_TRACE"]
        with path.open() as f:
            return [
                (int(r["slot"]), int(r["harq_id"]), int(r["ndi"]), int(r["rv"]), int(r["corrupt"]))
                for r in csv.DictReader(f)
                if r["event"] in ("tx", "empty")
            ]


def compare_sequences(amc: bool, markdown: bool) -> None:
    tree = tree_sequence("bbr_4MB_s4")
    cc = ccsim_sequence(amc)
    lo, hi = tree[0][0], tree[-1][0] + 1
    cols = [
        ("ns3-mmwave 5.00-5.45 s", sequence_stats(tree)),
        ("ccsim 5.00-5.45 s", sequence_stats([r for r in cc if lo <= r[0] < hi])),
        ("ccsim NLOS 5-10 s", sequence_stats([r for r in cc if 20_000 <= r[0] < 40_000])),
    ]
    lines = [
        ("slots carrying a TB", lambda s: f"{s['slots_used']:.0%}"),
        ("new TBs", lambda s: str(s["new"])),
        ("1st transmissions failed", lambda s: f"{s['failed']} ({s['failed'] / s['new']:.1%})"),
        (
            "failed TBs left to RLC",
            lambda s: f"{s['left']} ({s['left'] / max(s['failed'], 1):.0%})",
        ),
        ("processes used", lambda s: str(s["processes"])),
        (
            "reuse gap 1 / 2 / 3 / 4 / >=5 slots",
            lambda s: " / ".join(
                f"{s['gaps'][k] / max(sum(s['gaps'].values()), 1):.0%}" for k in range(1, 6)
            ),
        ),
        (
            "new TBs ahead of their process' feedback",
            lambda s: f"{s['ahead']} ({s['ahead'] / s['new']:.0%})",
        ),
        (
            "chains: count, p50, max length",
            lambda s: f"{s['chains']}, {s['chain_p50']}, {s['chain_max']}",
        ),
    ]
    if markdown:
        print("| BBR 4 MB seed 4 | " + " | ".join(n for n, _ in cols) + " |")
        print("|---" * (len(cols) + 1) + "|")
        for name, f in lines:
            print(f"| {name} | " + " | ".join(f(s) for _, s in cols) + " |")
    else:
        for name, f in lines:
            print(f"{name:42s} " + "  ".join(f"{f(s):>24s}" for _, s in cols))


def rlc_retx_onsets(run: str, t0: int, t1: int) -> list[int]:
    """Times (us) at which the gNB's RLC retransmission queue goes from empty to non-empty
    (`<run>_rlc.csv.gz`, every ms), within [t0, t1]."""
    with gzip.open(TRACE / f"{run}_rlc.csv.gz", "rt") as f:
        rows = list(csv.DictReader(f))
    return [
        int(b["t_us"])
        for a, b in zip(rows, rows[1:])
        if int(a["retx_n"]) == 0 and int(b["retx_n"]) > 0 and t0 <= int(b["t_us"]) <= t1
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", nargs="+", default=RUNS)
    ap.add_argument(
        "--ccsim", action="store_true", help="ccsim's process sequence beside the tree's"
    )
    ap.add_argument("--amc", action="store_true", help="with --ccsim: also the AMC rules")
    ap.add_argument("--markdown", action="store_true", help="with --ccsim: a markdown table")
    a = ap.parse_args()
    if a.ccsim:
        compare_sequences(a.amc, a.markdown)
        return
    for run in a.runs:
        rows = load(run)
        f = first_transmissions(rows)
        t0, t1 = rows[0]["t_us"] / 1e6, rows[-1]["t_us"] / 1e6
        print(f"{run} ({t0:.2f}-{t1:.2f} s, {len(rows)} TBs)")
        print(
            f"  first transmissions: {f['corrupt']} of {f['n']} failed "
            f"({f['corrupt'] / f['n']:.1%}); the error model's TBLER sums to {f['tbler_sum']:.1f}"
        )
        for rv in (1, 2, 3):
            n = f["rv"][(rv, 0)] + f["rv"][(rv, 1)]
            if n:
                print(f"  rv {rv}: {f['rv'][(rv, 1)]} of {n} failed")
        print("  MCS used: " + ", ".join(f"{m}: {n}" for m, n in sorted(f["mcs"].items())))
        for (mcs, sym), (n, c, t) in sorted(f["per"].items()):
            if n >= 20:
                print(
                    f"  MCS {mcs}, {sym} symbols ({code_blocks(tb_size_bytes(mcs, sym))} code "
                    f"blocks): {c}/{n} failed, TBLER sum {t:.1f}"
                )
        print(
            f"  code-block rule: {f['own_gt_10']} first transmissions have TBLER > 10 %; "
            f"converted to the AMC's one-symbol TB, {f['ref_le_10']} of {f['n']} are <= 10 %"
        )
        d, unmatched, left = harq_delays(rows)
        n = sum(d.values())
        late = sorted(k for k, v in d.items() for _ in range(v) if k > 4)
        print(
            f"  HARQ by size (ambiguous): {n} retransmissions matched, {d[4]} at 4 slots, "
            f"{len(late)} later "
            f"(slots: {', '.join(map(str, late))}); {unmatched} follow a decoded version; "
            f"{left} failed TBs never resent in the window"
        )
        hp = harq_processes(run)
        if hp:
            c, d, u = hp["count"], hp["delays"], hp["reuse"]
            print(
                f"  HARQ by process: {c['first_failed']} of {c['first']} new TBs failed; "
                f"{c['retx_after_failure']} retransmissions follow a failure (slots: "
                + ", ".join(f"{k}: {v}" for k, v in sorted(d.items()))
                + f"), {c['retx_after_decoded']} follow a version that decoded; "
                f"{c['failed_then_new_data']} failed TBs were never resent (their process got "
                f"new data); a process reused for new data after "
                + ", ".join(f"{'>=' if k == 5 else ''}{k} slots: {v}" for k, v in sorted(u.items()))
                + f"; duplicated NACKs seen pending {c['duplicate_nacks']}"
            )
            for t in rlc_retx_onsets(run, rows[0]["t_us"], rows[-1]["t_us"]):
                before = [t - x for x in hp["lost"] if 0 < t - x < 6000]
                print(
                    f"  RLC retransmission queue starts at {t / 1e6:.3f} s; TBs lost to HARQ "
                    f"in the 6 ms before: {', '.join(f'{d / 1e3:.1f} ms' for d in before) or 'none'}"
                )


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Follow the bytes through ns3-mmwave's secondary-cell handovers (issue 15): which TCP segments
the UE lacked at each handover, in which order the new cell delivered them, which ones TCP
resent before they arrived, and which never arrived (validation/ns3-mmwave/README.md §8.2).

    # from the raw traces of `trace_handover.py run` (build/traces/<cc>_s<seed>/):
    python3 validation/ns3-mmwave/trace_forwarding.py reduce --cc TcpCubic --seeds 2 3
    # from the committed golden files (no tree needed):
    python3 validation/ns3-mmwave/trace_forwarding.py explain --cc TcpCubic --seeds 2 3

`reduce` writes validation/golden/ns3-mmwave/handover_trace_<cc>_s<seed>_forwarded.csv.gz: per
secondary-cell handover, the source cell's RLC AM buffers just before it, then the segments the
sender had sent and the UE had not received at the handover, in runs of consecutive sequence
numbers of one class:
- `before_resend`: the forwarded copy reached the UE before TCP sent the segment again;
- `after_resend`: it reached the UE, but only after TCP had resent it (TCP took it for lost);
- `never`: no forwarded copy reached the UE before the next handover (or the trace's end: at
  a ping-pong the rest is forwarded again);
with each run's PDCP sequence numbers and the first arrival and first resend times after the
handover.

The PDCP SN of a segment is computed, not read: the LTE eNB's PDCP numbers every downlink IP
packet of the bearer (12 bits), and the sender's only downlink packets are the SYN, the
handshake's ACK and the data segments it sends, so the k-th data transmission (from 0) carries
SN (k + 2) mod 4096. A run boundary at SN 0 in every traced handover confirms it.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
GOLDEN = HERE.parent / "golden" / "ns3-mmwave"
RAW = HERE / "build" / "traces"
PDCP_SN_MOD = 4096
HANDSHAKE_PACKETS = 2  # SYN and the handshake's ACK go down before the first data segment
COLUMNS = [
    "t_us",
    "from_cell",
    "to_cell",
    "src_txon_bytes",
    "src_retx_bytes",
    "src_txed_bytes",
    "run",
    "class",
    "first_seq",
    "last_seq",
    "segments",
    "pdcp_sn_first",
    "pdcp_sn_last",
    "arrival_ms_min",
    "arrival_ms_max",
    "resend_ms_min",
    "resend_ms_max",
]


def short(cc: str) -> str:
    return cc.lower().removeprefix("tcp")


def read_raw(raw: Path, name: str) -> list[dict]:
    path = raw / f"trace.{name}.csv"
    if not path.exists():
        sys.exit(f"error: {path} missing (run `trace_handover.py run` first)")
    with path.open() as f:
        return list(csv.DictReader(f))


def source_buffers(raw: Path, t: int, cell: str) -> tuple[int, int, int]:
    """The newest gNB entity of `cell` at `t`: its txon / retx / txed bytes at its last poll."""
    ents = [e for e in read_raw(raw, "rlc_ent") if e["side"] == "enb" and e["cell"] == cell]
    ids = {e["id"] for e in ents if int(e["first_seen_us"]) <= t}
    last = None
    for r in read_raw(raw, "rlc_state"):
        if r["id"] in ids and int(r["t_us"]) < t:
            last = r
    if last is None:
        return 0, 0, 0
    return int(last["txon_bytes"]), int(last["retx_bytes"]), int(last["txed_bytes"])


def classify(raw: Path) -> list[list]:
    """The golden rows (COLUMNS) for every secondary-cell handover of a raw trace."""
    tx = [(int(r["t_us"]), int(r["seq"]), int(r["len"])) for r in read_raw(raw, "tcp_tx")]
    ue = read_raw(raw, "ue_ip")
    rx = [(int(r["t_us"]), int(r["seq"])) for r in ue if r["dir"] == "rx" and int(r["len"]) > 0]
    acks = [(int(r["t_us"]), int(r["ack"])) for r in ue if r["dir"] == "tx"]
    hos = [e for e in read_raw(raw, "events") if e["kind"] == "enb_ho_start"]
    end = max(t for t, _, _ in tx)
    rows: list[list] = []
    for i, ho in enumerate(hos):
        t0 = int(ho["t_us"])
        t1 = int(hos[i + 1]["t_us"]) if i + 1 < len(hos) else end + 1
        cum = max((a for t, a in acks if t <= t0), default=0)
        at_ue = {s for t, s in rx if t <= t0}
        sn: dict[int, int] = {}  # the PDCP SN of each segment's last copy sent before t0
        for k, (t, s, _) in enumerate(tx):
            if t <= t0:
                sn[s] = (k + HANDSHAKE_PACKETS) % PDCP_SN_MOD
        lacking = sorted(s for s in sn if s >= cum and s not in at_ue)
        arrivals: dict[int, list[int]] = defaultdict(list)
        for t, s in rx:
            if t0 < t < t1:
                arrivals[s].append(t)
        resends: dict[int, list[int]] = defaultdict(list)
        for t, s, _ in tx:
            if t0 < t < t1:
                resends[s].append(t)
        buffers = source_buffers(raw, t0, ho["cell_id"])
        runs: list[dict] = []
        for s in lacking:
            a, r = arrivals.get(s, []), resends.get(s, [])
            if len(a) <= len(r):
                kind = "never"
            elif r and a[0] >= r[0]:
                kind = "after_resend"
            else:
                kind = "before_resend"
            prev = runs[-1] if runs else None
            if prev and prev["class"] == kind and sn[s] == (prev["sn_last"] + 1) % PDCP_SN_MOD:
                prev.update(last=s, sn_last=sn[s], n=prev["n"] + 1)
            else:
                prev = {"class": kind, "first": s, "last": s, "sn_first": sn[s], "n": 1}
                prev.update(sn_last=sn[s], a=[], r=[])
                runs.append(prev)
            prev["a"] += a[:1]
            prev["r"] += r[:1]
        for k, run in enumerate(runs):
            ms = [(x - t0) / 1000 for x in run["a"]]
            rs = [(x - t0) / 1000 for x in run["r"]]
            rows.append(
                [t0, ho["cell_id"], ho["other"], *buffers, k, run["class"], run["first"]]
                + [run["last"], run["n"], run["sn_first"], run["sn_last"]]
                + [f"{min(ms):.1f}" if ms else "", f"{max(ms):.1f}" if ms else ""]
                + [f"{min(rs):.1f}" if rs else "", f"{max(rs):.1f}" if rs else ""]
            )
    return rows


def cmd_reduce(a: argparse.Namespace) -> None:
    for seed in a.seeds:
        raw = a.raw / f"{short(a.cc)}_s{seed}"
        path = GOLDEN / f"handover_trace_{short(a.cc)}_s{seed}_forwarded.csv.gz"
        rows = classify(raw)
        with gzip.open(path, "wt", newline="") as f:
            w = csv.writer(f)
            w.writerow(COLUMNS)
            w.writerows(rows)
        print(f"   {path.name}: {len(rows)} rows")


def cmd_explain(a: argparse.Namespace) -> None:
    for seed in a.seeds:
        path = GOLDEN / f"handover_trace_{short(a.cc)}_s{seed}_forwarded.csv.gz"
        if not path.exists():
            sys.exit(f"error: {path} missing (trace_forwarding.py reduce --seeds {seed})")
        with gzip.open(path, "rt") as f:
            rows = list(csv.DictReader(f))
        by_ho: dict[str, list[dict]] = defaultdict(list)
        for r in rows:
            by_ho[r["t_us"]].append(r)
        print(f"== {a.cc} seed {seed}")
        for t, runs in by_ho.items():
            r0 = runs[0]
            n = sum(int(r["segments"]) for r in runs)
            mb = [int(r0[k]) / 1e6 for k in ("src_txon_bytes", "src_retx_bytes", "src_txed_bytes")]
            print(
                f"   {r0['from_cell']}->{r0['to_cell']} at {int(t) / 1e6:.4f} s: source RLC txon "
                f"{mb[0]:.2f} MB, retx {mb[1]:.2f} MB, txed {mb[2]:.2f} MB; {n} segments sent "
                f"and not yet at the UE, in the order of their sequence numbers:"
            )
            for r in runs:
                arr = f"arrived {r['arrival_ms_min']}-{r['arrival_ms_max']} ms after"
                res = (
                    f", TCP resent them {r['resend_ms_min']}-{r['resend_ms_max']} ms after"
                    if r["resend_ms_min"]
                    else ""
                )
                what = arr if r["class"] != "never" else "not before the next handover"
                print(
                    f"     {r['segments']:>5} segs, PDCP SN {r['pdcp_sn_first']}-"
                    f"{r['pdcp_sn_last']}: {r['class']}: {what}{res}"
                )


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("reduce", "explain"):
        p = sub.add_parser(name)
        p.add_argument("--cc", default="TcpCubic")
        p.add_argument("--seeds", nargs="+", type=int, default=[2, 3])
        p.add_argument("--raw", type=Path, default=RAW, help="raw trace directory")
    a = ap.parse_args()
    {"reduce": cmd_reduce, "explain": cmd_explain}[a.cmd](a)


if __name__ == "__main__":
    main()

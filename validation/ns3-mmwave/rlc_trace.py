#!/usr/bin/env python3
"""One SN's story in a ccsim RLC AM trace (`CCSIM_RLC_TRACE=FILE`, `crates/ccsim-radio/src/
rlc_trace.rs`): every transmission and reception of the SN, runs of the same event folded into
one line, and the state of both ends when the trace ends.

    CCSIM_RLC_TRACE=/tmp/rlc.csv python validation/ns3-mmwave/stall_rates.py \\
        --models processes+amc --one siad_7MB 14
    python validation/ns3-mmwave/rlc_trace.py /tmp/rlc.csv            # the SN VR(R) ends on
    python validation/ns3-mmwave/rlc_trace.py /tmp/rlc.csv --sn 35192

By default the SN is the UE's VR(R) at the end of the trace: in a permanent RLC stall, the SN
that holds it.
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path


def read(path: Path) -> list[dict]:
    with open(path) as f:
        return list(csv.DictReader(f))


def part(r: dict) -> str:
    if r["offset"] == "-1":
        return "whole"
    last = " last" if r["last"] == "1" else ""
    return f"{r['offset']}+{r['bytes']}{last}"


def story(rows: list[dict], sn: int) -> list[str]:
    """The SN's data events (tx at the gNB with the TB size, rx at the UE with what it did).
    A stretch of four or more events of at most two kinds (a whole copy sent, then ignored,
    over and over) is folded into one line per kind: count, time span and TB sizes."""
    mine = [r for r in rows if int(r["sn"]) == sn and r["event"].startswith(("tx_", "rx_"))]
    keys = [(r["event"], part(r)) for r in mine]
    out, i = [], 0
    while i < len(mine):
        kinds, j = set(), i
        while j < len(mine) and (keys[j] in kinds or len(kinds) < 2):
            kinds.add(keys[j])
            j += 1
        group = mine[i:j] if j - i >= 4 else mine[i : i + 1]
        for kind in dict.fromkeys(keys[i : i + len(group)]):
            out.append(line([r for r in group if (r["event"], part(r)) == kind]))
        i += len(group)
    return out


def line(run: list[dict]) -> str:
    a, b = float(run[0]["t_us"]) / 1e3, float(run[-1]["t_us"]) / 1e3
    tbs = sorted({int(r["detail"]) for r in run if r["detail"]})
    tb = f", TB {tbs[0]}-{tbs[-1]} B" if len(tbs) > 1 else (f", TB {tbs[0]} B" if tbs else "")
    when = f"{a:.3f} ms" if len(run) == 1 else f"{len(run)} x, {a:.3f}-{b:.3f} ms"
    return f"  {run[0]['event']:<20} {part(run[0]):<16} {when}{tb}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("trace", type=Path)
    ap.add_argument("--sn", type=int, help="default: VR(R) at the end of the trace")
    a = ap.parse_args()
    rows = read(a.trace)
    end = rows[-1]
    sn = a.sn if a.sn is not None else int(end["vr_r"])
    print(f"SN {sn}:")
    print("\n".join(story(rows, sn)))
    reached = next((r for r in rows if int(r["vr_r"]) == sn), None)
    nacks = sum(
        r["event"] == "status_tx" and f" {sn} " in f" {r['detail'].split(':')[1]} " for r in rows
    )
    if reached:
        print(f"VR(R) = {sn} from {int(reached['t_us']) / 1e3:.3f} ms")
    print(f"status reports NACKing it: {nacks}")
    print(
        f"at {int(end['t_us']) / 1e3:.3f} ms: VT(A) {end['vt_a']}, VT(S) {end['vt_s']}, "
        f"VR(R) {end['vr_r']}, VR(MS) {end['vr_ms']}, VR(H) {end['vr_h']}, "
        f"PDUs held above VR(R) {end['held']}"
    )


if __name__ == "__main__":
    main()
